/* params_cmd.h: `peakfit params MODEL`: parameter counts without a sweep. */
#ifndef PEAKFIT_PARAMS_CMD_H
#define PEAKFIT_PARAMS_CMD_H
#include "util/options.h"

/* params' options: the parser's table, its --help and synopsis. */
extern const struct opt_table params_options;
int params_main(int argc, char **argv);
#endif

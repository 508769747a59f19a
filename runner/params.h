/* params.h: `peakfit params MODEL`: parameter counts without a sweep. */
#ifndef PEAKFIT_PARAMS_H
#define PEAKFIT_PARAMS_H
int params_main(int argc, char **argv);
#endif

/* setting_options.h: a command's option for a point setting, taken from
 * the settings table (sweeps/setting_rows.h) rather than written again:
 * its name (the worker's flag), the value's name, help, names or
 * choices, range, setter and default are the setting's sweep key's (and
 * the row's .option_help), so `technique` means one thing, takes one set of
 * names and says so the same way in params, auto, calc and verify.
 *
 * A command's table writes such a row as SETTING_OPTION("key", fields...):
 * the fields it gives (where the value goes, .off, at least; a type of its
 * own, a default of its own, narrower names) stand; the rest are
 * completed from the setting when the program starts
 * (SETTING_OPTIONS_COMPLETE(rows), once per table). */
#ifndef PEAKFIT_SETTING_OPTIONS_H
#define PEAKFIT_SETTING_OPTIONS_H
#include "util/options.h"

#define SETTING_OPTION(key, ...) {.setting = (key), __VA_ARGS__}

/* Completes every row of rows[0 .. n-1] that names a setting; a setting
 * without a sweep key is a fault of the table, said on stderr, and the
 * program exits (tests/options_test.c walks every command's table). */
void setting_options_complete(struct opt_row *rows, int n);

/* Runs setting_options_complete on rows before main: the tables stay
 * complete for every reader (parser, --help, the tests) without each
 * having to ask. */
#define SETTING_OPTIONS_COMPLETE(rows)                                                      \
    __attribute__((constructor)) static void complete_##rows(void)                        \
    {                                                                                       \
        setting_options_complete(rows, (int)(sizeof(rows) / sizeof((rows)[0])));           \
    }
#endif

/* setting_options.h: a command's option for a point setting, completed
 * from the settings table (settings/setting_rows.h) rather than written
 * again. What the option's row leaves out comes from the setting: its
 * name (the sweep key's flag, the worker's option), the value's name,
 * names or choices and range from the sweep key, the help from the
 * key's (the setting's one text, its "%s" filled), and the setter and
 * default from the key only
 * where the option reads its value as the key does (the same type, or
 * names both); so a setting borrowed by several commands takes one set of
 * names in each.
 *
 * A command's table writes such a row as SETTING_OPTION("key", fields...):
 * the fields it gives (where the value goes, .off, at least; a type of its
 * own, a default of its own, narrower names) stand; the rest are
 * completed from the setting the first time the table is read
 * (SETTING_OPTION_TABLE: its rows stay const, as written; the engine's
 * readers see them completed, util/options.h's opt_rows). */
#ifndef PEAKFIT_SETTING_OPTIONS_H
#define PEAKFIT_SETTING_OPTIONS_H
#include "util/options.h"

#define SETTING_OPTION(key, ...) {.setting = (key), __VA_ARGS__}

/* Completes every row of rows[0 .. n-1] that names a setting; a setting
 * without a sweep key is a fault of the table, said on stderr, and the
 * program exits (tests/options_test.c walks every command's table). */
void setting_options_complete(struct opt_row *rows, int n);

/* A command's struct opt_table whose rows borrow settings' options: the
 * rows as written, and the room for them completed (static, once). */
#define SETTING_OPTION_TABLE(cmd, operands_, rows_, other_forms_)                                              \
    {.command = (cmd), .operands = (operands_), .rows = (rows_),                                              \
     .n_rows = (int)(sizeof(rows_) / sizeof((rows_)[0])), .other_forms = (other_forms_),                      \
     .complete = setting_options_complete,                                                                     \
     .ready = &(struct opt_ready){0, (struct opt_row[sizeof(rows_) / sizeof((rows_)[0])]){{0}}}}
#endif

/* sweep_keys.h: the sweep file's keys, written once as the option engine's
 * rows (util/options.h, in the manner of fio's option table): one row per
 * key gives its name, type, field, range, text default and help. The
 * engine reads and range-checks each value and fills the defaults with
 * them; the same rows list the keys in the "unknown key" message, print
 * docs/sweeps.md's table, and give the worker its options (a row's .flag). */
#ifndef PEAKFIT_SWEEP_KEYS_H
#define PEAKFIT_SWEEP_KEYS_H
#include <stdio.h>
#include "util/options.h"

/* The row of a key (param.NAME's for every param.*), or NULL. */
const struct opt_row *sweep_key_find(const char *name);
/* The i-th row, or NULL past the last. */
const struct opt_row *sweep_key_at(int i);
/* 1 for param.NAME's row: one row for every name. */
int sweep_key_is_param(const struct opt_row *k);
/* The rows as one table, for the engine's unknown-key message. */
extern const struct opt_table sweep_key_table;
/* A key's help, the one text of its setting: its "%s" filled with what
 * it takes (names or choices, backticked, or its range). A command's
 * option for the setting says the same (point/setting_options.c). */
void sweep_key_help(const struct opt_row *k, char *out, size_t size);
/* docs/sweeps.md's "| key | value | default |" table: each key's help, and
 * for a list key what stands between its values. */
void sweep_keys_markdown(FILE *out);
#endif

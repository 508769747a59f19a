/* group_key.h: what makes a group of measurements one fit. fit, plot,
 * report and calc all group and look up by this key, so putting a setting
 * in it is its row's group column in settings/setting_rows.h: the struct, the
 * observation's field it is read into, the comparison, the text form and
 * fit.csv's leading columns follow. Each field has the name of the
 * peaks.csv column and of struct observation's member it comes from. */
#ifndef PEAKFIT_GROUP_KEY_H
#define PEAKFIT_GROUP_KEY_H
#include <stddef.h>
#include "settings/setting_rows.h"

/* GROUP_KEY_FIELDS(X): X(field, size), the fields every table shows as
 * columns (model, device, technique, attention). GROUP_KEY_SETTINGS(X):
 * X(field, size, usual), settings that change the memory of a point as
 * much and so split groups too (two LoRA ranks in one directory are two
 * fits), but hold their usual value (or are empty) on most rows: fit.csv
 * and fit.json carry them as columns and fields, and the text form names
 * them where they are set to something else. GROUP_KEY_ALL(X): both.
 * All three are the rows of the point-settings table (settings/setting_rows.h)
 * whose group column says SHOWN or SETTING. */

struct group_key {
#define GROUP_KEY_MEMBER(field, size, ...) char field[size];
    GROUP_KEY_ALL(GROUP_KEY_MEMBER)
#undef GROUP_KEY_MEMBER
};

/* 0 when equal, else strcmp's sign of the first field that differs. */
int group_key_compare(const struct group_key *a, const struct group_key *b);
/* "SmolLM2-135M / cpu / full / sdpa": the model by its display name, then
 * each setting that is set ("lora_rank 8"). */
void group_key_format(const struct group_key *key, char *out, size_t size);
/* The same with sep between the parts and between between a setting's
 * name and its value: ("-", "") gives "SmolLM2-135M-cpu-full-sdpa-warm1",
 * a file name's. */
void group_key_text(const struct group_key *key, const char *sep, const char *between, char *out, size_t size);

/* The name a person recognises for a peaks.csv model value: the value
 * itself, except that a path to a config.json (older files held those)
 * becomes the name of its folder: "/m/SmolLM2-135M/config.json" ->
 * "SmolLM2-135M". Writes into out (size bytes) and returns it. */
const char *model_display_name(const char *model, char *out, size_t size);
/* Does the --model text name this peaks.csv model value (its exact text or
 * its display name)? */
int model_matches(const char *model, const char *wanted);
#endif

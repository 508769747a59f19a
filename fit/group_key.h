/* group_key.h: what makes a group of measurements one fit, written once.
 * fit, plot, report and calc all group and look up by this key, so adding a
 * field (attention, say) is one row of GROUP_KEY_FIELDS: the struct, the
 * comparison, the text form and fit.csv's leading columns follow. Each field
 * has the name of the peaks.csv column and of struct observation's member it
 * comes from. */
#ifndef PEAKFIT_GROUP_KEY_H
#define PEAKFIT_GROUP_KEY_H
#include <stddef.h>
#include "fit/observations.h"

/* X(field, size): the fields every table shows as columns. */
#define GROUP_KEY_FIELDS(X) \
    X(model, 256)           \
    X(device, 16)           \
    X(technique, 16)        \
    X(attention, 8)

/* X(field, size, usual): settings that change the memory of a point as
 * much and so split groups too (two LoRA ranks in one directory are two
 * fits), but hold their usual value (or are empty) on most rows: fit.csv
 * and fit.json carry them as columns and fields, and the text form names
 * them where they are set to something else. */
#define GROUP_KEY_SETTINGS(X)  \
    X(lora_rank, 12, "")       \
    X(lora_targets, 256, "")   \
    X(warm, 4, "1")            \
    X(measured_by, 32, "worker")

/* Both lists, for what walks every field (the struct, the comparison,
 * fit.csv's columns, fit.json): X is declared X(field, size, ...). */
#define GROUP_KEY_ALL(X) \
    GROUP_KEY_FIELDS(X)  \
    GROUP_KEY_SETTINGS(X)

struct group_key {
#define GROUP_KEY_MEMBER(field, size, ...) char field[size];
    GROUP_KEY_ALL(GROUP_KEY_MEMBER)
#undef GROUP_KEY_MEMBER
};

/* The key of the group an observation belongs to. */
void group_key_of(const struct observation *o, struct group_key *key);
/* 0 when equal, else strcmp's sign of the first field that differs. */
int group_key_compare(const struct group_key *a, const struct group_key *b);
/* "SmolLM2-135M / cpu / full / sdpa": the model by its display name, then
 * each setting that is set ("lora_rank 8"). */
void group_key_format(const struct group_key *key, char *out, size_t size);

/* The name a person recognises for a peaks.csv model value: the value
 * itself, except that a path to a config.json (older files held those)
 * becomes the name of its folder: "/m/SmolLM2-135M/config.json" ->
 * "SmolLM2-135M". Writes into out (size bytes) and returns it. */
const char *model_display_name(const char *model, char *out, size_t size);
/* Does the --model text name this peaks.csv model value (its exact text or
 * its display name)? */
int model_matches(const char *model, const char *wanted);
#endif

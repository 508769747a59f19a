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

/* X(field, size) */
#define GROUP_KEY_FIELDS(X) \
    X(model, 256)           \
    X(device, 16)           \
    X(technique, 16)        \
    X(attention, 8)

struct group_key {
#define GROUP_KEY_MEMBER(field, size) char field[size];
    GROUP_KEY_FIELDS(GROUP_KEY_MEMBER)
#undef GROUP_KEY_MEMBER
};

/* The key of the group an observation belongs to. */
void group_key_of(const struct observation *o, struct group_key *key);
/* 0 when equal, else strcmp's sign of the first field that differs. */
int group_key_compare(const struct group_key *a, const struct group_key *b);
/* "SmolLM2-135M / cpu / full": the model by its display name. */
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

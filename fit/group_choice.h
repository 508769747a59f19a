/* group_choice.h: choosing one group among a directory's fits by every
 * field of the group key. The axes are the settings table's rows that are
 * in the key (settings/setting_rows.h, GROUP_KEY_OPTIONS), each with the
 * --option its row names: a setting put in the key is an axis that calc,
 * verify and grid --peaks name and choose by, with no list to extend.
 * technique is an axis too, but each command has its own --technique
 * (with its own default), so the rows below leave it out. */
#ifndef PEAKFIT_GROUP_CHOICE_H
#define PEAKFIT_GROUP_CHOICE_H
#include <stddef.h>
#include "settings/group_key.h"

enum group_axis {
#define GROUP_AXIS_ENUM(name, option) GROUP_AXIS_##name,
    GROUP_KEY_OPTIONS(GROUP_AXIS_ENUM)
#undef GROUP_AXIS_ENUM
    GROUP_AXIS_COUNT
};

/* What a request wants on each axis: NULL for "the only one measured". */
struct group_choice {
    const char *want[GROUP_AXIS_COUNT];
};

/* Axis a's key field ("lora_rank") and its --option ("lora-rank"). */
const char *group_axis_field(int a);
const char *group_axis_option(int a);
/* Axis a's text in key. */
const char *group_axis_value(const struct group_key *key, int a);
/* The text a person reads for axis a's value (a model's display name). */
const char *group_axis_shown(const struct group_key *key, int a, char *buf, size_t size);
/* Does key hold what c wants on axis a (anything where c wants nothing)? */
int group_axis_matches(const struct group_key *key, const struct group_choice *c, int a);
/* Wants on every axis what key holds, but technique. */
void group_choice_of_key(struct group_choice *c, const struct group_key *key);
/* The first axis from `from` on (the table's order) on which a and b hold
 * different values, axis `skip` aside; GROUP_AXIS_COUNT where there is
 * none. Two groups of the same settings measured two ways (the worker's
 * and a command job's) differ only on GROUP_AXIS_measured_by. */
int group_axis_next_difference(const struct group_key *a, const struct group_key *b, int skip, int from);

/* The option rows of every axis but technique, for a command whose
 * request holds a struct group_choice at offset GROUP_CHOICE_BASE (which
 * the command defines before it expands the rows):
 *     #define GROUP_CHOICE_BASE offsetof(struct calc_request, choice)
 *     static struct opt_row rows[] = { ..., GROUP_CHOICE_OPTION_ROWS ... };
 * Each takes the text of its peaks.csv column; which values a directory
 * holds is the directory's to say (calc names them when it has to ask). */
#define GROUP_CHOICE_OPTION_ROWS GROUP_KEY_OPTIONS(GROUP_CHOICE_ROW_OF)
#define GROUP_CHOICE_ROW_OF(field, opt) GROUP_CHOICE_IF_NOT_OWN(GROUP_CHOICE_IS_OWN(field))((GROUP_CHOICE_ROW(field, opt)))
#define GROUP_CHOICE_ROW(field, opt)                                                                             \
    {.name = opt, .arg = "V", .type = OPT_TEXT,                                                                 \
     .off = GROUP_CHOICE_BASE + offsetof(struct group_choice, want) + GROUP_AXIS_##field * sizeof(const char *), \
     .flags = OPT_DEF_WORDS | OPT_GROUP_AXIS, .def = "the only one measured",                                                    \
     .help = "the group's " #field ", as in peaks.csv's " #field " column"}
/* Whether an axis has each command's own option (technique): 1 or 0, by
 * the preprocessor's probe (GROUP_CHOICE_OWN_technique expands to two
 * arguments, any other name to one). */
#define GROUP_CHOICE_OWN_technique ~, 1
#define GROUP_CHOICE_IS_OWN(field) GROUP_CHOICE_SECOND_(GROUP_CHOICE_OWN_##field, 0, ~)
#define GROUP_CHOICE_SECOND_(...) GROUP_CHOICE_SECOND(__VA_ARGS__)
#define GROUP_CHOICE_SECOND(a, b, ...) b
#define GROUP_CHOICE_IF_NOT_OWN(own) GROUP_CHOICE_IF_NOT_OWN_(own)
#define GROUP_CHOICE_IF_NOT_OWN_(own) GROUP_CHOICE_IF_NOT_OWN_##own
#define GROUP_CHOICE_IF_NOT_OWN_0(row) GROUP_CHOICE_UNWRAP row,
#define GROUP_CHOICE_IF_NOT_OWN_1(row)
#define GROUP_CHOICE_UNWRAP(...) __VA_ARGS__
#endif

/* group_choice.c: the group key's axes and what a request wants on them
 * (fit/group_choice.h). */
#include <stdio.h>
#include <string.h>
#include "fit/group_choice.h"

static const struct {
    const char *field, *option;
    size_t key_off;
} axes[GROUP_AXIS_COUNT] = {
#define GROUP_AXIS_ROW(name, opt) {#name, opt, offsetof(struct group_key, name)},
    GROUP_KEY_OPTIONS(GROUP_AXIS_ROW)
#undef GROUP_AXIS_ROW
};

const char *group_axis_field(int a) { return axes[a].field; }
const char *group_axis_option(int a) { return axes[a].option; }

const char *group_axis_value(const struct group_key *key, int a)
{
    return (const char *)key + axes[a].key_off;
}

const char *group_axis_shown(const struct group_key *key, int a, char *buf, size_t size)
{
    if (a == GROUP_AXIS_model)
        return model_display_name(key->model, buf, size);
    snprintf(buf, size, "%s", group_axis_value(key, a));
    return buf;
}

int group_axis_matches(const struct group_key *key, const struct group_choice *c, int a)
{
    const char *w = c->want[a];
    if (!w)
        return 1;
    return a == GROUP_AXIS_model ? model_matches(key->model, w) : !strcmp(group_axis_value(key, a), w);
}

void group_choice_of_key(struct group_choice *c, const struct group_key *key)
{
    for (int a = 0; a < GROUP_AXIS_COUNT; a++)
        c->want[a] = a == GROUP_AXIS_technique ? NULL : group_axis_value(key, a);
}

int group_axis_next_difference(const struct group_key *a, const struct group_key *b, int skip, int from)
{
    for (int x = from; x < GROUP_AXIS_COUNT; x++)
        if (x != skip && strcmp(group_axis_value(a, x), group_axis_value(b, x)) != 0)
            return x;
    return GROUP_AXIS_COUNT;
}

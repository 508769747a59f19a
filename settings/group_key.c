/* group_key.c: the group key's functions walk GROUP_KEY_FIELDS (the
 * settings table's rows); an observation's key is fit/observations.c's,
 * the training options a key stands for sweeps/job_train_options.c's. */
#include <stdio.h>
#include <string.h>
#include "settings/group_key.h"

int group_key_compare(const struct group_key *a, const struct group_key *b)
{
    int c;
#define COMPARE_FIELD(field, size, ...)                \
    if ((c = strcmp(a->field, b->field)) != 0)    \
        return c;
    GROUP_KEY_ALL(COMPARE_FIELD)
#undef COMPARE_FIELD
    return 0;
}

void group_key_text(const struct group_key *key, const char *sep, const char *between, char *out, size_t size)
{
    struct group_key shown = *key;
    char name[sizeof key->model];
    snprintf(shown.model, sizeof shown.model, "%s", model_display_name(key->model, name, sizeof name));
    size_t used = 0;
    out[0] = '\0';
#define FORMAT_FIELD(field, size_)                                                              \
    if (used < size)                                                                            \
        used += (size_t)snprintf(out + used, size - used, "%s%s", used ? sep : "", shown.field);
    GROUP_KEY_FIELDS(FORMAT_FIELD)
#undef FORMAT_FIELD
#define FORMAT_SETTING(field, size_, usual)                                                            \
    if (used < size && shown.field[0] && strcmp(shown.field, usual))                                  \
        used += (size_t)snprintf(out + used, size - used, "%s%s%s%s", sep, #field, between, shown.field);
    GROUP_KEY_SETTINGS(FORMAT_SETTING)
#undef FORMAT_SETTING
}

void group_key_format(const struct group_key *key, char *out, size_t size)
{
    group_key_text(key, " / ", " ", out, size);
}

static int ends_with(const char *text, const char *tail)
{
    size_t n = strlen(text), m = strlen(tail);
    return n >= m && strcmp(text + n - m, tail) == 0;
}

const char *model_display_name(const char *model, char *out, size_t size)
{
    if (!ends_with(model, ".json")) {
        snprintf(out, size, "%s", model);
        return out;
    }
    /* ".../FOLDER/config.json": FOLDER; a bare "config.json": itself. */
    const char *file = strrchr(model, '/');
    if (!file) {
        snprintf(out, size, "%s", model);
        return out;
    }
    const char *folder = file;
    while (folder > model && folder[-1] != '/')
        folder--;
    if (folder == file) /* "/config.json" */
        snprintf(out, size, "%s", model);
    else
        snprintf(out, size, "%.*s", (int)(file - folder), folder);
    return out;
}

int model_matches(const char *model, const char *wanted)
{
    char name[4096];
    return strcmp(model, wanted) == 0 || strcmp(model_display_name(model, name, sizeof name), wanted) == 0;
}

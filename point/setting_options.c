/* setting_options.c: a command's option rows completed from the settings
 * table: the sweep key's row, its help the setting's one text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "point/point_fields.h"
#include "point/setting_options.h"
#include "sweeps/sweep_keys.h"

/* Names (OPT_ENUM, OPT_NAME) or the same type: the key's default and
 * setter read the option's value too. */
static int reads_like(const struct opt_row *option, const struct opt_row *key)
{
    int named = (option->type == OPT_ENUM || option->type == OPT_NAME) &&
                (key->type == OPT_ENUM || key->type == OPT_NAME);
    return named || option->type == key->type;
}

/* The key's help with its "%s" filled, kept as long as the program runs
 * (the completed rows are made once and never freed). */
static const char *help_of(const struct opt_row *k)
{
    char text[1536];
    sweep_key_help(k, text, sizeof text);
    return strdup(text);
}

static void complete(struct opt_row *r, const struct opt_row *k)
{
    if (!r->name)
        r->name = k->flag;
    if (!r->arg)
        r->arg = k->arg;
    if (!r->help)
        r->help = help_of(k);
    if (!r->names && (r->type == OPT_ENUM || r->type == OPT_NAME)) /* a text option takes any name */
        r->names = k->names;
    if (!r->choices)
        r->choices = k->choices;
    if (r->min == 0 && r->max == 0)
        r->min = k->min, r->max = k->max;
    if (!reads_like(r, k))
        return;
    if (!r->set)
        r->set = k->set;
    if (!r->def && !(r->flags & OPT_DEF_WORDS))
        r->def = k->def;
}

void setting_options_complete(struct opt_row *rows, int n)
{
    for (int i = 0; i < n; i++) {
        if (!rows[i].setting)
            continue;
        const struct opt_row *k = sweep_key_find(rows[i].setting);
        int is_setting = k && point_field_of_key(rows[i].setting);
        if (is_setting)
            complete(&rows[i], k);
        if (!is_setting || !rows[i].name || !rows[i].help) {
            fprintf(stderr, "peakfit: an option table names setting \"%s\", which has no sweep key, flag or "
                    "help in settings/setting_rows.h\n", rows[i].setting);
            abort();
        }
    }
}

/* setting_options.c: a command's option rows completed from the settings
 * table: the sweep key's row and the setting's .option_help. */
#include <stdio.h>
#include <stdlib.h>
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

static void complete(struct opt_row *r, const struct opt_row *k, const struct point_field *f)
{
    if (!r->name)
        r->name = k->flag;
    if (!r->arg)
        r->arg = k->arg;
    if (!r->help)
        r->help = f->option_help;
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
        const struct point_field *f = point_field_of_key(rows[i].setting);
        if (k && f)
            complete(&rows[i], k, f);
        if (!k || !f || !rows[i].name || !rows[i].help) {
            fprintf(stderr, "peakfit: an option table names setting \"%s\", which has no sweep key, flag or "
                    "option help in sweeps/setting_rows.h\n", rows[i].setting);
            abort();
        }
    }
}

/* worker_command.c: the argv of peakfit-worker for one grid point. */
#include <stdio.h>
#include <string.h>
#include "protocol/worker_command.h"
#include "point/point_fields.h"
#include "sweeps/sweep_keys.h"

static void add_arg(struct worker_command *c, const char *flag, const char *value)
{
    snprintf(c->flags[c->n_flags], sizeof c->flags[0], "--%s", flag);
    c->argv[c->argc++] = c->flags[c->n_flags++];
    c->argv[c->argc++] = (char *)value;
}

/* A value written into the command's own text (a number, the LoRA list);
 * one the grid holds (a path, a name) is pointed to. */
static const char *kept(struct worker_command *c, const char *value, const char *buf)
{
    if (value != buf)
        return value;
    snprintf(c->text[c->n_text], sizeof c->text[0], "%s", buf);
    return c->text[c->n_text++];
}

void worker_command_build(struct worker_command *c, const char *worker, const struct grid_point *p, int threads)
{
    memset(c, 0, sizeof *c);
    c->argv[c->argc++] = (char *)worker;
    const struct point_field *f;
    for (int i = 0; (f = point_field_at(i)); i++) {
        point_text buf;
        if (point_field_passed(f, p))
            add_arg(c, sweep_key_find(f->key)->flag, kept(c, point_field_value(f, p, buf), buf));
    }
    snprintf(c->text[c->n_text], sizeof c->text[0], "%d", threads);
    add_arg(c, "threads", c->text[c->n_text++]);
    add_arg(c, "report-fd", "3");
    c->argv[c->argc] = NULL;
}

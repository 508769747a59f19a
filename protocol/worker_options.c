/* worker_options.c: the worker's option table, one row per sweep key with a
 * flag: its setter is the sweep file's (sweep_set), so the worker checks a
 * value exactly as a sweep file's line would be checked. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "sweeps/sweep_keys.h"
#include "protocol/worker_options.h"

enum { WORKER_MAX_OPTIONS = 32 };

/* The key whose worker flag is flag, or NULL. */
static const struct opt_row *key_of_flag(const char *flag)
{
    const struct opt_row *k;
    for (int i = 0; (k = sweep_key_at(i)); i++)
        if (k->flag && strcmp(k->flag, flag) == 0)
            return k;
    return NULL;
}

static int set_key(const struct opt_row *row, const char *display, const char *value, void *target,
                   void *ctx, char *why, size_t size)
{
    (void)ctx;
    struct worker_point *w = target;
    const struct opt_row *k = key_of_flag(row->name);
    char err[1024];
    if (k && sweep_set(w->sweep, w->job, k->name, value, err, sizeof err) == 0)
        return 0;
    snprintf(why, size, "%s: %s", display, k ? err : "no sweep key");
    return -1;
}

static struct opt_row rows[WORKER_MAX_OPTIONS];
static char helps[WORKER_MAX_OPTIONS][64];

const struct opt_table *worker_options(void)
{
    static struct opt_table table = {.command = "worker", .rows = rows};
    const struct opt_row *k;
    if (table.n_rows)
        return &table; /* built once */
    for (int i = 0; (k = sweep_key_at(i)) && table.n_rows < WORKER_MAX_OPTIONS - 1; i++) {
        if (!k->flag)
            continue;
        int n = table.n_rows++;
        snprintf(helps[n], sizeof helps[n], "sweep key %s, one value (docs/sweeps.md)", k->name);
        rows[n] = (struct opt_row){.name = k->flag, .arg = "VALUE", .type = OPT_CUSTOM, .set = set_key,
                                   .help = helps[n]};
    }
    rows[table.n_rows++] = (struct opt_row){.name = "report-fd", .arg = "FD", .type = OPT_INT,
                                            .off = offsetof(struct worker_point, report_fd), .min = 0,
                                            .max = 1 << 20, .flags = OPT_DEF_WORDS, .def = "stdout",
                                            .help = "write the report to this descriptor"};
    return &table;
}

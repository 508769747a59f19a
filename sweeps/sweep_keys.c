/* sweep_keys.c: the key table, the option engine's rows: first each
 * point setting's, from its row in settings/setting_rows.h (a new setting is
 * one row there, its field in struct sweep_job included; a type of the
 * sweep's own is an OPT_CUSTOM setter in sweep_key_set.c), then the keys that are
 * no point's setting, written here; and the documents made from it:
 * docs/sweeps.md's table (the worker's options are
 * protocol/worker_options.c's). */
#include <string.h>
#include "sweeps/command_template.h"
#include "core/device.h"
#include "sweeps/limits.h"
#include "settings/setting_rows.h"
#include "sweeps/sweep.h"
#include "sweeps/sweep_keys.h"
#include "sweeps/sweep_setters.h"
#include "core/attention.h"
#include "core/technique.h"
#include "util/md_table.h"
#include "util/name_list.h"
#include "util/options.h"
#include "util/parse.h"

#define SWEEP_AT(f) .off = offsetof(struct sweep_job, f), .size = sizeof(((struct sweep_job *)0)->f)
#define SWEEP_LIST(f, n, most)                                                                                 \
    .off = offsetof(struct sweep_job, f), .size = sizeof(((struct sweep_job *)0)->f[0]),                      \
    .count_off = offsetof(struct sweep_job, n), .items = (most), .flags = OPT_LIST
/* A setting row's KEY("name", storage, rest) as {.name = "name", where, rest}; NOKEY as nothing. */
#define SETTING_KEY_ROW(key) SETTING_KEY_ROW_##key
#define SETTING_KEY_ROW_KEY(n, storage, ...) {.name = n, SWEEP_STORE_##storage, __VA_ARGS__},
/* Where a key's value goes: its field in struct sweep_job (sweep.h declares it from the same words). */
#define SWEEP_STORE_JOB_FIELD(type, f) SWEEP_AT(f)
#define SWEEP_STORE_JOB_AXIS(type, f) SWEEP_LIST(f, n_##f, SWEEP_MAX_LIST)
#define SWEEP_STORE_JOB_TRAIN(type, f) SWEEP_LIST(f, n_##f, SWEEP_MAX_LIST)
#define SWEEP_STORE_JOB_TEXT(f, size) SWEEP_AT(f)
#define SWEEP_STORE_JOB_LIST(type, f, n, most) SWEEP_LIST(f, n, most)
#define SETTING_KEY_ROW_NOKEY
#define KEY_ROW(A, name, key, ...) SETTING_KEY_ROW(key)

static const struct opt_row keys[] = {
    SETTING_ROWS(KEY_ROW, _) /* each point setting's key, in the settings table's order */
    {.name = "repeats", .type = OPT_INT, SWEEP_AT(repeats), .min = 1, .max = LIMIT_REPEATS_MAX,
     .def = OPT_TEXT_OF(DEFAULT_REPEATS), .help = "runs of each point, each in its own process, %s"},
    {.name = "holdout", .type = OPT_CUSTOM, SWEEP_LIST(holdouts, n_holdouts, SWEEP_MAX_LIST), .min = 1,
     .max = LIMIT_BATCH_MAX, .set = sweep_set_pair, .unset = "none",
     .help = "a `BxS` point, batch x seq_len (`6x384`), measured for each technique that runs "
             "steps but kept out of the fit: the report and fit.json give each one's predicted peak, interval "
             "and error; none may be in the job's batch x seq_len grid"},
    {.name = "jobs", .type = OPT_INT, SWEEP_AT(jobs), .min = 1, .max = LIMIT_JOBS_MAX, .def = "1",
     .help = "points measured at once, %s, each worker pinned to its share of the cores with its intra-op "
             "threads set to that share, started only when free memory holds its predicted peak; the "
             "largest of the jobs' values is the run's; `run -j N` overrides"},
    {.name = "command", .type = OPT_CUSTOM, SWEEP_AT(command), .set = sweep_set_command,
     .choices = command_placeholder_names, .unset = "peakfit's worker",
     .help = "a command run for each point instead of peakfit's worker, without a shell (docs/own-script.md); "
             "the placeholders %s become the point's values, each one whole argument"},
    {.name = "shell", .type = OPT_BOOL, SWEEP_AT(shell), .def = "false",
     .help = "`true`: the command is run by `/bin/sh -c`, each placeholder a reference to its value in the "
             "environment (`\"$PEAKFIT_BATCH\"`), never the value; the rest of the text is the shell's (pipes, "
             "`$VARS`, `;`)"},
    {.name = "param.NAME", .type = OPT_CUSTOM, .set = sweep_set_param, .unset = "none",
     .help = "a value of the job's own for its command's `{param.NAME}` placeholder"},
};
enum { KEY_COUNT = sizeof keys / sizeof keys[0] };

const struct opt_row *sweep_key_at(int i) { return i >= 0 && i < KEY_COUNT ? &keys[i] : NULL; }

int sweep_key_is_param(const struct opt_row *k) { return k->set == sweep_set_param; }

const struct opt_row *sweep_key_find(const char *name)
{
    size_t prefix = strlen(COMMAND_PARAM_PREFIX);
    for (int i = 0; i < KEY_COUNT; i++)
        if (strcmp(keys[i].name, name) == 0 ||
            (sweep_key_is_param(&keys[i]) && strncmp(name, COMMAND_PARAM_PREFIX, prefix) == 0))
            return &keys[i];
    return NULL;
}

const struct opt_table sweep_key_table = OPT_TABLE("sweep", NULL, keys, NULL);

/* --- the README's table ------------------------------------------------- */

/* "`a`, `b`" from "a, b". */
static void backticked(const char *list, char *out, size_t size)
{
    struct name_list l;
    char copy[512], *items[64];
    snprintf(copy, sizeof copy, "%s", list);
    int n = split_list(copy, items, 64);
    name_list_start(&l, out, size);
    for (int i = 0; i < n; i++)
        name_list_addf(&l, "`%s`", items[i]);
}

/* The help's "%s": the names or choices, backticked, or the range. */
static void choices(const struct opt_row *k, char *out, size_t size)
{
    char list[512];
    if (k->names)
        backticked(opt_names_text(k->names, list, sizeof list), out, size);
    else if (k->choices)
        backticked(k->choices(), out, size);
    else
        snprintf(out, size, "%.0f … %.0f", k->min, k->max);
}

/* Numbers as written, a duration in seconds, any other value as code. */
static void default_text(const struct opt_row *k, char *out, size_t size)
{
    if (!k->def)
        snprintf(out, size, "%s", k->unset);
    else if (k->type == OPT_DURATION)
        snprintf(out, size, "%s s", k->def);
    else if (k->type == OPT_INT || k->type == OPT_LONG || k->type == OPT_DOUBLE || k->type == OPT_BYTES)
        snprintf(out, size, "%s", k->def);
    else
        snprintf(out, size, "`%s`", k->def);
}

void sweep_key_help(const struct opt_row *k, char *out, size_t size)
{
    char what[512];
    const char *mark = strstr(k->help, "%s");
    if (!mark) {
        snprintf(out, size, "%s", k->help);
        return;
    }
    choices(k, what, sizeof what);
    snprintf(out, size, "%.*s%s%s", (int)(mark - k->help), k->help, what, mark + 2);
}

void sweep_keys_markdown(FILE *out)
{
    fprintf(out, "| key | value | default |\n|---|---|---|\n");
    for (int i = 0; i < KEY_COUNT; i++) {
        char help[1536], def[128], list[64] = "";
        sweep_key_help(&keys[i], help, sizeof help);
        default_text(&keys[i], def, sizeof def);
        if (keys[i].flags & OPT_LIST)
            snprintf(list, sizeof list, "a list, `%c` between values, of: ",
                     keys[i].list_separator ? keys[i].list_separator : ',');
        fprintf(out, "| `%s` | ", keys[i].name);
        md_table_cell(out, list);
        md_table_cell(out, help);
        fprintf(out, " | ");
        md_table_cell(out, def);
        fprintf(out, " |\n");
    }
}

/* The point record's tables agree: every sweep key that reaches the worker
 * and every peaks.csv column that is not a measurement has its row in
 * settings/setting_rows.h, every measured column its text in peaks.csv (its
 * report row: tests/worker_report_test.c), what the runner passes the worker reads
 * back as the same settings (the two sides of the process boundary, through
 * the worker's own parser, sweep_set), and every field of the fit's group
 * key goes from a point through peaks.csv and the fit's reader back into
 * the key unchanged. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "settings/group_key.h"
#include "fit/observations.h"
#include "point/point_fields.h"
#include "protocol/worker_command.h"
#include "protocol/point_result.h"
#include "protocol/worker_report.h"
#include "store/results_csv.h"
#include "sweeps/sweep_keys.h"
#include "protocol/worker_options.h"
#include "tests/check.h"

/* Both ways: a sweep key with a worker flag has its row and is an option
 * of the worker's parser (protocol/worker_options.c); every worker option
 * but --report-fd is such a key's; a row's key exists, and a row with a key
 * the worker is not given is the runner's alone (no flag). */
static void check_sweep_keys(void)
{
    const struct opt_table *worker = worker_options();
    const struct opt_row *k;
    for (int i = 0; (k = sweep_key_at(i)); i++) {
        CHECK(!k->flag || point_field_of_key(k->name), "sweep key %s reaches the worker (--%s) but is no row of "
              "settings/setting_rows.h", k->name, k->flag);
        CHECK(!k->flag || opt_find(worker, k->flag), "sweep key %s's flag --%s is not a peakfit-worker option",
              k->name, k->flag);
    }
    for (int i = 0; i < worker->n_rows; i++) {
        const char *flag = worker->rows[i].name;
        int found = !strcmp(flag, "report-fd");
        for (int j = 0; !found && (k = sweep_key_at(j)); j++)
            found = k->flag && !strcmp(k->flag, flag);
        CHECK(found, "peakfit-worker option --%s is no sweep key's flag", flag);
    }
    const struct point_field *f;
    for (int i = 0; (f = point_field_at(i)); i++)
        CHECK(!f->key || sweep_key_find(f->key), "point field %s names sweep key %s, which does not exist",
              f->name, f->key);
}

static void check_columns(void)
{
    const struct point_field *row;
    for (int i = 0; (row = point_field_at(i)); i++)
        CHECK(point_field_has_value(row), "setting %s has no .value and its key is not one number", row->name);
    for (int c = 0; c < PEAKS_N_COLUMNS; c++) {
        int rows = 0;
        const struct point_field *f;
        for (int i = 0; (f = point_field_at(i)); i++)
            rows += f->column == (enum peaks_column)c;
        int set = peaks_columns[c].role != PEAKS_RESULT;
        CHECK(rows == set, "peaks.csv column %s (%s) has %d rows in settings/setting_rows.h", peaks_columns[c].name,
              set ? "set by the sweep: one row" : "measured: none", rows);
    }
    /* The row and its column's role agree: a setting that tells two points
     * apart is in the point id (role POINT) or checked when a run resumes
     * (SETTING or LIMIT), so a resumed run never takes a row measured under
     * another value for its own. */
    const struct point_field *f;
    for (int i = 0; (f = point_field_at(i)); i++) {
        enum peaks_role role = peaks_columns[f->column].role;
        CHECK(!(f->uses & POINT_SETTINGS) || (role == PEAKS_POINT ? f->id_prefix != NULL : role != PEAKS_RESULT),
              "setting %s: its column %s is %s", f->name, peaks_columns[f->column].name,
              role == PEAKS_POINT ? "a part of the point id, yet the row has no id_prefix" : "a measured column");
    }
}

/* The group key's fields are the rows with a group, each a column
 * the sweep sets (a measurement in the key would split every point). */
static void check_group_key(void)
{
    static const char *const group[] = {
#define GROUP_NAME(field, size, ...) #field,
        GROUP_KEY_ALL(GROUP_NAME)
#undef GROUP_NAME
    };
    int n = (int)(sizeof group / sizeof group[0]), marked = 0;
    const struct point_field *f;
    for (int i = 0; (f = point_field_at(i)); i++) {
        if (!f->in_group_key)
            continue;
        marked++;
        int found = 0;
        for (int g = 0; g < n; g++)
            found |= !strcmp(group[g], peaks_columns[f->column].name);
        CHECK(found, "point field %s is in the group key but the group key has no field %s", f->name,
              peaks_columns[f->column].name);
        CHECK(peaks_columns[f->column].role != PEAKS_RESULT, "group key field %s is a measured column", f->name);
        /* What tells groups apart can vary within one job: a list axis. */
        const struct opt_row *k = f->key ? sweep_key_find(f->key) : NULL;
        CHECK(!f->key || (k && (k->flags & OPT_LIST)), "group key field %s's sweep key is not a list", f->name);
    }
    CHECK(marked == n, "the group key has %d fields, settings/setting_rows.h puts %d in it", n, marked);
    /* fit.csv's leading columns, a file format: the settings that change a
     * point's memory as much as its technique stay in the key, in this
     * order; a setting put in the key since is a column after them. */
    static const char *const kept[] = {"model", "device", "technique", "attention", "lora_rank", "lora_targets",
                                       "layers", "warm", "measured_by", "optimizer", "zero_grad"};
    int n_kept = (int)(sizeof kept / sizeof kept[0]);
    CHECK(n >= n_kept, "the group key has %d fields, fit.csv %d leading columns", n, n_kept);
    for (int i = 0; i < n && i < n_kept; i++)
        CHECK(!strcmp(group[i], kept[i]), "group key field %d is %s, fit.csv's column %s", i + 1, group[i], kept[i]);
}

static char dir[] = "/tmp/peakfit-point-fields-XXXXXX";

static struct sweep *load(const char *text)
{
    char path[128], err[1024];
    snprintf(path, sizeof path, "%s/s.sweep", dir);
    FILE *f = fopen(path, "w");
    CHECK(f && fputs(text, f) >= 0 && fclose(f) == 0, "cannot write %s", path);
    struct sweep *s = sweep_load(path, err, sizeof err);
    CHECK(s, "sweep_load: %s", err);
    return s;
}

/* The runner's argv, read by the worker's own parser (as peakfit-worker
 * reads it): every setting the worker is given reads back as the
 * runner's. */
static void check_round_trip(const struct grid_point *p)
{
    struct worker_command c;
    char why[1400];
    int n;
    worker_command_build(&c, "peakfit-worker", p, 3);
    struct worker_point w = {.sweep = sweep_new_point(), .report_fd = 1};
    CHECK(w.sweep != NULL, "sweep_new_point");
    if (!w.sweep)
        return;
    w.job = &w.sweep->jobs[0];
    CHECK(opt_parse_args(worker_options(), c.argc, c.argv, &w, NULL, 0, &n, why, sizeof why) == 0,
          "the worker does not read the runner's argv: %s", why);
    CHECK(w.report_fd == 3, "--report-fd reads back as %d", w.report_fd);
    struct grid g;
    CHECK(grid_expand(w.sweep, &g) == 0 && g.n == 1, "the worker's point expands to %d points", g.n);
    const struct point_field *f;
    int passed = 0;
    for (int i = 0; g.n == 1 && (f = point_field_at(i)); i++) {
        point_text a, b;
        if (!point_field_passed(f, p))
            continue;
        passed++;
        const char *sent = point_field_text(f, p, a), *read = point_field_text(f, &g.points[0], b);
        CHECK(!strcmp(sent, read), "%s: the runner passes %s, the worker reads %s", f->name, sent, read);
    }
    /* the passed settings, --threads (the runner's share) and --report-fd */
    CHECK(c.argc == 1 + 2 * (passed + 2), "%s: argv has %d words for %d settings", p->id, c.argc, passed);
    grid_free(&g);
    sweep_free(w.sweep);
}

/* A result with every report key the worker can write (=2048) and the
 * runner's own fields set. */
static void full_result(struct point_result *r)
{
    point_result_init(r);
    for (int k = 0; k < REPORT_N_KEYS; k++) {
        const struct worker_report_row *row = &worker_report_rows[k];
        int phases = row->unit == REPORT_PHASE_BYTES || row->unit == REPORT_PHASE_KIB ? PF_PHASE_COUNT : 1;
        for (int i = 0; row->unit != REPORT_RUNNER && i < phases; i++) {
            char line[128], key[64];
            snprintf(line, sizeof line, "%s=2048", worker_report_key((enum worker_report_key)k, i, key, sizeof key));
            point_result_take_line(r, line);
        }
    }
    snprintf(r->status, sizeof r->status, "ok");
    snprintf(r->memory_method, sizeof r->memory_method, "vmhwm");
    snprintf(r->rank_peaks, sizeof r->rank_peaks, "0:1.000:");
    r->tree_peak_mib = 1;
    r->exit_code = r->signal = 0;
    r->wall_s = r->rusage_maxrss_mib = 1;
}

/* Every measured column has its text in store/results_csv.c. */
static void check_measured_text(const struct grid_point *p)
{
    struct point_result r;
    full_result(&r);
    for (int c = 0; c < PEAKS_N_COLUMNS; c++) {
        results_number num;
        CHECK(peaks_columns[c].role != PEAKS_RESULT || results_column_text((enum peaks_column)c, p, &r, num)[0],
              "measured column %s has no text in store/results_csv.c", peaks_columns[c].name);
    }
}

/* Each point's group key, written to peaks.csv and read back by the fit,
 * holds each field as the point's column says it. */
static void check_key_round_trip(const struct grid *g)
{
    char path[128], err[1024];
    unsigned char done[8];
    snprintf(path, sizeof path, "%s/peaks.csv", dir);
    int fd = results_open(path, g, done, err, sizeof err);
    CHECK(fd >= 0, "results_open: %s", err);
    struct point_result r;
    full_result(&r);
    for (int i = 0; fd >= 0 && i < g->n; i++)
        CHECK(results_append(fd, &g->points[i], &r) == 0, "results_append");
    if (fd >= 0)
        close(fd);
    struct observations o;
    CHECK(observations_load(path, &o, err, sizeof err) == 0, "observations_load: %s", err);
    CHECK(o.n_ok == g->n, "%d of %d rows read back", o.n_ok, g->n);
    for (int i = 0; i < o.n_ok && i < g->n; i++) {
        struct group_key key;
        results_number num;
        group_key_of(&o.ok[i], &key);
#define KEY_FIELD_BACK(field, size, ...)                                                                        \
    {                                                                                                            \
        const char *want = results_column_text(PEAKS_COL_##field, &g->points[i], NULL, num);                    \
        CHECK(!strcmp(key.field, want), "%s: group key field %s reads back \"%s\", its column says \"%s\"",    \
              g->points[i].id, #field, key.field, want);                                                        \
    }
        GROUP_KEY_ALL(KEY_FIELD_BACK)
#undef KEY_FIELD_BACK
    }
    observations_free(&o);
}

static void check_points(void)
{
    struct sweep *s = load("[j]\nmodel = tiny\ntechnique = lora, full, load\nbatch = 3\nseq_len = 24\nsteps = 2\n"
                           "seed = 5\nthreads = 2\nlora_rank = 4\nlora_targets = q, down\nattention = eager\n"
                           "warm = 0\nmem_limit = 1GiB\n");
    struct grid g;
    if (!s || grid_expand(s, &g) != 0) {
        CHECK(0, "grid_expand");
        return;
    }
    CHECK(g.n == 3, "%d points", g.n);
    for (int i = 0; i < g.n; i++) {
        check_round_trip(&g.points[i]);
        check_measured_text(&g.points[i]);
    }
    check_key_round_trip(&g);
    /* The id from the rows with an id_prefix, as it always was. */
    CHECK(!strcmp(g.points[0].id, "j/tiny/cpu/lora/lora4-q+down/eager/b3/s24/st2/r0"), "%s", g.points[0].id);
    CHECK(!strcmp(g.points[2].id, "j/tiny/cpu/load/b0/s0/st2/r0"), "%s", g.points[2].id);
    grid_free(&g);
    sweep_free(s);
}

int main(void)
{
    check_sweep_keys();
    check_columns();
    check_group_key();
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    check_points();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0, "%s", cmd);
    CHECK_DONE();
}

/* The point record's tables agree: every sweep key that reaches the worker
 * and every peaks.csv column that is not a measurement has its row in
 * point/point_rows.h, every measured column its row in the worker's report
 * table and its text in peaks.csv, what the runner passes the worker reads
 * back as the same settings (the two sides of the process boundary, through
 * the worker's own parser, sweep_set), and every field of the fit's group
 * key goes from a point through peaks.csv and the fit's reader back into
 * the key unchanged. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fit/group_key.h"
#include "fit/observations.h"
#include "point/point_fields.h"
#include "point/worker_command.h"
#include "point/point_result.h"
#include "point/worker_report.h"
#include "results/results_csv.h"
#include "sweeps/sweep_keys.h"
#include "tests/check.h"

static const struct point_field *row_of_key(const char *key)
{
    const struct point_field *f;
    for (int i = 0; (f = point_field_at(i)); i++)
        if (f->key && !strcmp(f->key, key))
            return f;
    return NULL;
}

static void check_sweep_keys(void)
{
    const struct sweep_key *k;
    for (int i = 0; (k = sweep_key_at(i)); i++)
        CHECK(!k->flag || row_of_key(k->name), "sweep key %s reaches the worker (--%s) but has no row in "
              "point/point_fields.c", k->name, k->flag);
    const struct point_field *f;
    for (int i = 0; (f = point_field_at(i)); i++)
        CHECK(!f->key || sweep_key_find(f->key), "point field %s names sweep key %s, which does not exist",
              f->name, f->key);
}

static void check_columns(void)
{
    for (int c = 0; c < PEAKS_N_COLUMNS; c++) {
        int rows = 0;
        const struct point_field *f;
        for (int i = 0; (f = point_field_at(i)); i++)
            rows += f->column == (enum peaks_column)c;
        int set = peaks_columns[c].role != PEAKS_RESULT;
        CHECK(rows == set, "peaks.csv column %s (%s) has %d rows in point/point_fields.c", peaks_columns[c].name,
              set ? "set by the sweep: one row" : "measured: none", rows);
    }
}

/* The group key's fields are the rows marked POINT_GROUP, each a column
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
        if (!(f->uses & POINT_GROUP))
            continue;
        marked++;
        int found = 0;
        for (int g = 0; g < n; g++)
            found |= !strcmp(group[g], peaks_columns[f->column].name);
        CHECK(found, "point field %s is marked POINT_GROUP but the group key has no field %s", f->name,
              peaks_columns[f->column].name);
        CHECK(peaks_columns[f->column].role != PEAKS_RESULT, "group key field %s is a measured column", f->name);
    }
    CHECK(marked == n, "the group key has %d fields, point/point_rows.h marks %d POINT_GROUP", n, marked);
    /* fit.csv's leading columns, a file format: the settings that change a
     * point's memory as much as its technique stay in the key. */
    static const char *const kept[] = {"model", "device", "technique", "attention", "lora_rank", "lora_targets",
                                       "warm", "measured_by"};
    int n_kept = (int)(sizeof kept / sizeof kept[0]);
    CHECK(n == n_kept, "the group key has %d fields, fit.csv %d leading columns", n, n_kept);
    for (int i = 0; i < n && i < n_kept; i++)
        CHECK(!strcmp(group[i], kept[i]), "group key field %d is %s, fit.csv's column %s", i + 1, group[i], kept[i]);
}

/* Every measured column is fed by a row of the worker's report table (the
 * phase rows feed one column per phase), and every key the worker can
 * write is read back into its field. */
static void check_report(void)
{
    int fed[PEAKS_N_COLUMNS] = {0};
    for (int k = 0; k < REPORT_N_KEYS; k++) {
        const struct worker_report_row *row = &worker_report_rows[k];
        int phase_row = row->unit == REPORT_PHASE_BYTES || row->unit == REPORT_PHASE_KIB;
        for (int i = 0; i < (phase_row ? PF_PHASE_COUNT : 1); i++)
            fed[row->column + i] = 1;
        CHECK(peaks_columns[row->column].role == PEAKS_RESULT, "report key %s feeds column %s, not a measurement",
              row->name, peaks_columns[row->column].name);
        if (row->unit == REPORT_RUNNER)
            continue;
        for (int i = 0; i < (phase_row ? PF_PHASE_COUNT : 1); i++) {
            struct point_result r;
            char line[128], key[64];
            point_result_init(&r);
            snprintf(line, sizeof line, "%s=2048", worker_report_key((enum worker_report_key)k, i, key, sizeof key));
            CHECK(point_result_take_line(&r, line) == 1, "key %s is not read", key);
            const char *field = point_result_field(&r, (enum worker_report_key)k, NULL);
            double v = row->unit == REPORT_KIB || row->unit == REPORT_PHASE_KIB ? 2
                       : row->unit == REPORT_BYTES || row->unit == REPORT_PHASE_BYTES ? 2048 / 1048576.0 : 2048;
            int ok = row->unit == REPORT_TEXT ? !strcmp(field, "2048")
                     : row->unit == REPORT_COUNT ? *(const long long *)field == 2048
                     : row->unit == REPORT_INT ? *(const int *)field == 2048
                     : row->unit == REPORT_STEP ? r.n_steps == 1 && r.step1_s == 2048
                                               : ((const double *)field)[phase_row ? i : 0] == v;
            CHECK(ok, "key %s=2048 is not read into its field", key);
        }
    }
    for (int c = 0; c < PEAKS_N_COLUMNS; c++)
        CHECK(fed[c] || peaks_columns[c].role != PEAKS_RESULT, "measured column %s has no row in "
              "point/worker_report.h", peaks_columns[c].name);
    struct point_result r;
    char unknown[] = "no_such_key=1";
    point_result_init(&r);
    CHECK(point_result_take_line(&r, unknown) == 0, "an unknown key is taken");
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

/* The runner's argv, set key by key through the worker's parser: every
 * setting the worker is given reads back as the runner's. */
static void check_round_trip(const struct grid_point *p)
{
    struct worker_command c;
    char err[1024];
    worker_command_build(&c, "peakfit-worker", p, 3);
    struct sweep *s = sweep_new_point();
    CHECK(s != NULL, "sweep_new_point");
    if (!s)
        return;
    for (int i = 1; i + 1 < c.argc; i += 2) {
        const struct sweep_key *k = NULL;
        for (int j = 0; (k = sweep_key_at(j)) && !(k->flag && !strcmp(c.argv[i] + 2, k->flag)); j++)
            ;
        if (!k) /* --threads and --report-fd: the runner's own */
            continue;
        CHECK(sweep_set(s, &s->jobs[0], k->name, c.argv[i + 1], err, sizeof err) == 0, "%s %s: %s", c.argv[i],
              c.argv[i + 1], err);
    }
    struct grid g;
    CHECK(grid_expand(s, &g) == 0 && g.n == 1, "the worker's point expands to %d points", g.n);
    const struct point_field *f;
    for (int i = 0; g.n == 1 && (f = point_field_at(i)); i++) {
        point_text a, b;
        if (!point_field_passed(f, p))
            continue;
        const char *sent = point_field_text(f, p, a), *read = point_field_text(f, &g.points[0], b);
        CHECK(!strcmp(sent, read), "%s: the runner passes %s, the worker reads %s", f->name, sent, read);
    }
    grid_free(&g);
    sweep_free(s);
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
    r->exit_code = r->signal = 0;
    r->wall_s = r->rusage_maxrss_mib = 1;
}

/* Every measured column has its text in results/results_csv.c. */
static void check_measured_text(const struct grid_point *p)
{
    struct point_result r;
    full_result(&r);
    for (int c = 0; c < PEAKS_N_COLUMNS; c++) {
        results_number num;
        CHECK(peaks_columns[c].role != PEAKS_RESULT || results_column_text((enum peaks_column)c, p, &r, num)[0],
              "measured column %s has no text in results/results_csv.c", peaks_columns[c].name);
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
    check_report();
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    check_points();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0, "%s", cmd);
    CHECK_DONE();
}

/* The worker's report table (protocol/worker_report.h) and peaks.csv's
 * measured columns agree both ways: every measured column is written by
 * exactly one report row, every row has a column of its own or is what
 * another row subtracts, every key the worker can write is read back into
 * its field, and a key's value reaches its own column (and those of the
 * rows that subtract it) and no other. */
#include <string.h>
#include "core/phase.h"
#include "protocol/point_result.h"
#include "protocol/worker_report.h"
#include "store/results_csv.h"
#include "tests/check.h"

static int is_less_of_another(enum worker_report_key k)
{
    for (int j = 0; j < REPORT_N_KEYS; j++)
        if (worker_report_rows[j].less == k)
            return 1;
    return 0;
}

/* Each measured column has one row; each row a column, its phases' in
 * order ("forward_x", "backward_x", ...), or is another row's less. */
static void check_columns(void)
{
    int rows[PEAKS_N_COLUMNS] = {0};
    for (int k = 0; k < REPORT_N_KEYS; k++) {
        const struct worker_report_row *row = &worker_report_rows[k];
        int phases = worker_report_phases((enum worker_report_key)k);
        if (row->less != REPORT_none)
            CHECK(worker_report_phases(row->less) == 1 && worker_report_rows[row->less].text != REPORT_TEXT_TEXT,
                  "report key %s subtracts %s, which is no single number", row->name, worker_report_rows[row->less].name);
        if (row->column == PEAKS_COL_none) {
            CHECK(is_less_of_another((enum worker_report_key)k), "report key %s has no peaks.csv column and no "
                  "row subtracts it: it would never reach peaks.csv", row->name);
            continue;
        }
        CHECK(row->column + phases <= PEAKS_N_COLUMNS, "report key %s: its columns run past the last", row->name);
        for (int i = 0; i < phases && row->column + i < PEAKS_N_COLUMNS; i++) {
            const struct peaks_column_info *col = &peaks_columns[row->column + i];
            rows[row->column + i]++;
            CHECK(col->role == PEAKS_RESULT, "report key %s feeds column %s, not a measurement", row->name, col->name);
            const char *phase = pf_phase_name((pf_phase)i), *first = peaks_columns[row->column].name;
            CHECK(phases == 1 || (!strncmp(col->name, phase, strlen(phase)) &&
                                  !strcmp(col->name + strlen(phase), first + strlen(pf_phase_name((pf_phase)0)))),
                  "phase key %s's column %d is %s, not %s's", row->name, i + 1, col->name, phase);
        }
    }
    for (int c = 0; c < PEAKS_N_COLUMNS; c++)
        CHECK(rows[c] == (peaks_columns[c].role == PEAKS_RESULT), "peaks.csv column %s (%s) has %d rows in "
              "protocol/worker_report.h", peaks_columns[c].name,
              peaks_columns[c].role == PEAKS_RESULT ? "measured: one" : "set by the sweep: none", rows[c]);
}

static void take(struct point_result *r, enum worker_report_key k, int phase, const char *value)
{
    char line[128], key[64];
    snprintf(line, sizeof line, "%s=%s", worker_report_key(k, phase, key, sizeof key), value);
    CHECK(point_result_take_line(r, line) == 1, "key %s is not read", key);
}

/* Every key the worker can write is read into its field. */
static void check_reading(void)
{
    for (int k = 0; k < REPORT_N_KEYS; k++) {
        const struct worker_report_row *row = &worker_report_rows[k];
        int phases = worker_report_phases((enum worker_report_key)k);
        for (int i = 0; row->unit != REPORT_RUNNER && i < phases; i++) {
            struct point_result r;
            point_result_init(&r);
            take(&r, (enum worker_report_key)k, i, "2048");
            double v = row->unit == REPORT_KIB || row->unit == REPORT_PHASE_KIB ? 2
                       : row->unit == REPORT_BYTES || row->unit == REPORT_PHASE_BYTES ? 2048 / 1048576.0 : 2048;
            int ok = row->unit == REPORT_TEXT ? !strcmp(point_result_text(&r, (enum worker_report_key)k), "2048")
                     : row->unit == REPORT_STEP ? r.n_steps == 1 && r.step1_s == 2048
                                               : point_result_number(&r, (enum worker_report_key)k, i) == v;
            CHECK(ok, "key %s=2048 is not read into its field", row->name);
        }
    }
    struct point_result r;
    char unknown[] = "no_such_key=1";
    point_result_init(&r);
    CHECK(point_result_take_line(&r, unknown) == 0, "an unknown key is taken");
}

/* A result with every key the worker can write but skip (phase skip_phase
 * of it) at 2048, and the runner's own fields set. */
static void result_without(struct point_result *r, int skip, int skip_phase)
{
    point_result_init(r);
    for (int k = 0; k < REPORT_N_KEYS; k++)
        for (int i = 0; worker_report_rows[k].unit != REPORT_RUNNER && i < worker_report_phases((enum worker_report_key)k); i++)
            if (k != skip || i != skip_phase)
                take(r, (enum worker_report_key)k, i, "2048");
    snprintf(r->status, sizeof r->status, "ok");
    snprintf(r->memory_method, sizeof r->memory_method, "vmhwm");
    r->exit_code = r->signal = 0;
    r->wall_s = r->rusage_maxrss_mib = 1;
}

/* Should key k's value (phase i) change column c? Its own column, those
 * of the rows that subtract it or write the same field (the runner's
 * peak_above_baseline_mib), and after the step key the steps' mean. */
static int reaches(enum worker_report_key k, int i, int c)
{
    const struct worker_report_row *row = &worker_report_rows[k];
    struct point_result r;
    if (row->column != PEAKS_COL_none && c == (int)row->column + i)
        return 1;
    for (int j = 0; j < REPORT_N_KEYS; j++) {
        const struct worker_report_row *o = &worker_report_rows[j];
        int first = (int)o->column, n = worker_report_phases((enum worker_report_key)j);
        int same_field = j != k && n == 1 && point_result_field(&r, (enum worker_report_key)j, NULL) ==
                                                 point_result_field(&r, k, NULL);
        if ((o->less == k || same_field || (row->unit == REPORT_STEP && o->text == REPORT_TEXT_STEP_MEAN)) &&
            first >= 0 && c >= first && c < first + n)
            return 1;
    }
    return 0;
}

/* Each key's value, written or not, changes exactly the columns it
 * should: the measured columns are written from the table, not by hand. */
static void check_reaching(void)
{
    static struct grid_point point; /* its own columns are not looked at */
    for (int k = 0; k < REPORT_N_KEYS; k++) {
        const struct worker_report_row *row = &worker_report_rows[k];
        for (int i = 0; row->unit != REPORT_RUNNER && i < worker_report_phases((enum worker_report_key)k); i++) {
            struct point_result without, with;
            char key[64];
            result_without(&without, k, i);
            with = without;
            /* what is subtracted stays below what it is subtracted from */
            const char *value = is_less_of_another((enum worker_report_key)k) ? "1024" : "4096";
            take(&with, (enum worker_report_key)k, i, value);
            worker_report_key((enum worker_report_key)k, i, key, sizeof key);
            for (int c = 0; c < PEAKS_N_COLUMNS; c++) {
                if (peaks_columns[c].role != PEAKS_RESULT || c == PEAKS_COL_finished_at)
                    continue;
                results_number a, b;
                const char *before = results_column_text((enum peaks_column)c, &point, &without, a);
                const char *after = results_column_text((enum peaks_column)c, &point, &with, b);
                int changed = strcmp(before, after) != 0;
                CHECK(changed == reaches((enum worker_report_key)k, i, c), "key %s=%s %s column %s (\"%s\" -> \"%s\")",
                      key, value, changed ? "changes" : "does not change", peaks_columns[c].name, before, after);
            }
        }
    }
}

int main(void)
{
    check_columns();
    check_reading();
    check_reaching();
    CHECK_DONE();
}

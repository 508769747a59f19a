/* results_resume.c: one pass over the rows with the grid's ids in a hash
 * table: O(rows + points). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "point/point_fields.h"
#include "protocol/point_result.h"
#include "store/results_resume.h"
#include "util/capped_notes.h"
#include "util/id_index.h"
#include "settings/peaks_columns.h"

static const char *const advice = "use another -o DIR or move peaks.csv away";

struct match {
    const char *path;
    const struct grid *g;
    unsigned char *done;
    int *standing_line;      /* per point: the line of its last row that stands; 0: none */
    struct id_index points;  /* point id -> index in g */
    struct id_index foreign; /* ids g does not define -> their first line */
    int n_foreign;
    const struct csv_row *first_foreign;
    struct capped_notes notes;
};

/* The header is this version's, and every row but a truncated last one is whole. */
static int check_rows(const char *path, const struct csv_table *t, char *err, size_t errlen)
{
    if (peaks_header_check(t->header, t->n_cols, 0, path, err, errlen) != 0) {
        size_t used = strlen(err);
        snprintf(err + used, errlen - used, "; %s", advice);
        return RESULTS_BAD_INPUT;
    }
    for (int i = 0; i < t->n_bad; i++) {
        if (t->truncated && t->bad[i].line == t->truncated_line)
            continue;
        snprintf(err, errlen, "%s:%d: %s; fix or remove that row before resuming", path, t->bad[i].line,
                 t->bad[i].reason);
        return RESULTS_BAD_INPUT;
    }
    for (int r = 0; r < t->n_rows; r++) {
        char why[200];
        if (peaks_row_check(t->rows[r].fields, t->rows[r].n_fields, why, sizeof why) != 0) {
            snprintf(err, errlen, "%s:%d: %s; fix or remove that row before resuming", path, t->rows[r].line, why);
            return RESULTS_BAD_INPUT;
        }
    }
    return 0;
}

/* Refuses a row measured under a setting other than the sweep's now. */
static int check_settings(const struct match *m, const struct csv_row *row, const struct grid_point *p,
                          char *err, size_t errlen)
{
    for (int c = 0; c < PEAKS_N_COLUMNS; c++) {
        point_text num;
        const struct point_field *f = point_field_of_column((enum peaks_column)c);
        if (peaks_columns[c].role != PEAKS_SETTING || !f)
            continue;
        const char *now = point_field_column_text(f, p, num), *then = row->fields[c];
        if (strcmp(now, then) == 0)
            continue;
        snprintf(err, errlen, "%s:%d: point %s was measured with %s %s; the sweep now says %s: %s", m->path,
                 row->line, p->id, peaks_columns[c].name, then[0] ? then : "(none)", now[0] ? now : "(none)",
                 advice);
        return RESULTS_BAD_INPUT;
    }
    return 0;
}

/* A limit as the sweep would write it now, and as the row has it; -1: none. */
static double limit_now(const struct grid_point *p, enum peaks_column c)
{
    point_text num;
    return peaks_number(point_field_column_text(point_field_of_column(c), p, num));
}

/* Whether the row is the point's measurement under the sweep's limits: a
 * timeout under a shorter timeout, or an oom under a lower memory limit
 * (or with none now) is to be measured again, whether the watchdog
 * stopped it or the worker's own allocator did (on CUDA, mem_limit caps
 * the device memory and the worker exits WORKER_EXIT_OOM). The worker's
 * own oom under no limit then is the machine's and stands. */
static int stands(const struct csv_row *row, const struct grid_point *p)
{
    char *const *f = row->fields;
    const char *status = f[PEAKS_COL_status];
    if (strcmp(status, POINT_REFUSED) == 0)
        return 0; /* never measured: memory may be free now */
    if (strcmp(status, "timeout") == 0)
        return peaks_number(f[PEAKS_COL_timeout_s]) >= limit_now(p, PEAKS_COL_timeout_s);
    if (strcmp(status, "oom") != 0)
        return 1;
    double then = peaks_number(f[PEAKS_COL_mem_limit_mib]), now = limit_now(p, PEAKS_COL_mem_limit_mib);
    /* It exited saying so (the worker's status 3, a command's MemoryError:
     * exit status 1); the watchdog's kill leaves no exit status (-1). */
    int by_itself = peaks_number(f[PEAKS_COL_exit_code]) > 0;
    if (by_itself && then <= 0)
        return 1;
    return now > 0 && then >= now;
}

/* Counts the ids the sweep does not define, once each. */
static void note_foreign(struct match *m, const struct csv_row *row)
{
    const char *id = row->fields[PEAKS_COL_point_id];
    if (id_index_get(&m->foreign, id) >= 0)
        return;
    id_index_put(&m->foreign, id, row->line);
    if (m->n_foreign++ == 0)
        m->first_foreign = row;
}

static int take_row(struct match *m, const struct csv_row *row, char *err, size_t errlen)
{
    int i = id_index_get(&m->points, row->fields[PEAKS_COL_point_id]);
    if (i < 0) {
        note_foreign(m, row);
        return 0;
    }
    const struct grid_point *p = &m->g->points[i];
    if (check_settings(m, row, p, err, errlen) != 0)
        return RESULTS_BAD_INPUT;
    /* The last row of a point is the one used. */
    m->done[i] = (unsigned char)stands(row, p);
    if (!m->done[i])
        return 0;
    if (m->standing_line[i])
        note_row(&m->notes, row->line, "point %s again (first at line %d): the later row is used", p->id,
                 m->standing_line[i]);
    m->standing_line[i] = row->line;
    return 0;
}

static int match_rows(struct match *m, const struct csv_table *t, char *err, size_t errlen)
{
    for (int i = 0; i < m->g->n; i++)
        id_index_put(&m->points, m->g->points[i].id, i);
    for (int r = 0; r < t->n_rows; r++)
        if (take_row(m, &t->rows[r], err, errlen) != 0)
            return RESULTS_BAD_INPUT;
    notes_end(&m->notes, "points with more than one row");
    if (m->n_foreign == 0)
        return 0;
    snprintf(err, errlen, "%s holds %d points that %s does not define (first: %s at line %d): it belongs to "
             "another sweep; use another -o DIR", m->path, m->n_foreign,
             m->g->sweep_path ? m->g->sweep_path : "the sweep", m->first_foreign->fields[PEAKS_COL_point_id],
             m->first_foreign->line);
    return RESULTS_BAD_INPUT;
}

int results_match(const char *path, const struct csv_table *t, const struct grid *g, unsigned char *done,
                  char *err, size_t errlen)
{
    int rc = check_rows(path, t, err, errlen);
    if (rc != 0)
        return rc;
    struct match m = {.path = path, .g = g, .done = done, .notes = {.path = path}};
    m.standing_line = calloc((size_t)g->n + 1, sizeof *m.standing_line);
    if (!m.standing_line || id_index_init(&m.points, (size_t)g->n) != 0 ||
        id_index_init(&m.foreign, (size_t)t->n_rows) != 0) {
        snprintf(err, errlen, "%s: out of memory matching its %d rows to %d points", path, t->n_rows, g->n);
        rc = RESULTS_IO_ERROR;
    } else {
        rc = match_rows(&m, t, err, errlen);
    }
    free(m.standing_line);
    id_index_free(&m.points);
    id_index_free(&m.foreign);
    return rc;
}

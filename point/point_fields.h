/* point_fields.h: what a point is and how it is measured, one row per
 * setting, in the manner of the kernel's TRACE_EVENT: every side of the
 * process boundary is generated from this one table, so none can drift.
 * From it come the worker's argv (protocol/worker_command.c), the settings
 * line that tells two points apart and the point id (point/grid.c), the
 * point's peaks.csv columns (store/results_csv.c), hence the resume check
 * (store/results_resume.c, by each column's role in settings/peaks_columns.h),
 * the sweep that verify writes from a peaks.csv row (verify/verify_sweep.c),
 * the predictor's "same kind" test (point/predict.c) and the fit's group
 * key with the observation fields it is read from (settings/group_key.h,
 * fit/observations.h). The rows are in settings/setting_rows.h, an X-macro that
 * those layers expand too; a row gives these members by name.
 *
 * A new setting that reaches the worker: its row in settings/setting_rows.h
 * (with its sweep key's option-engine row, its struct sweep_job field, the
 * worker's flag and its peaks.csv column) and its use in the worker
 * (docs/adding-a-setting.md, held by tests/adding_a_setting_test.sh);
 * tests/point_fields_test.c fails while the row and the column disagree. */
#ifndef PEAKFIT_POINT_FIELDS_H
#define PEAKFIT_POINT_FIELDS_H
#include <stddef.h>
#include "point/point.h"
#include "settings/setting_rows.h"
#include "settings/peaks_columns.h"

/* What each row takes part in (bits of .uses). */
enum {
    POINT_SETTINGS = 1 << 0, /* the settings line: two points with the same line measure the same thing */
    POINT_KIND = 1 << 1,     /* the predictor's kind: points that differ only by batch and seq_len */
    POINT_PLANNED = 1 << 2,  /* verify's plan sets it (batch, seq_len, mem_limit), not the measured row */
    POINT_ID_ALWAYS = 1 << 4, /* in the id even where it does not apply (b0/s0 of load; its steps) */
    POINT_RUNNER_PASSES = 1 << 5, /* the worker gets the runner's value instead (threads: a run's share) */
    POINT_ID_IF_LISTED = 1 << 6,  /* in the id only where its job lists more than one value (a list axis) */
};

/* Numbers and the LoRA list are written into it; text the grid holds
 * (paths, names) is returned as it is, never copied, so never cut. */
typedef char point_text[64];

struct point_field {
    const char *name;          /* in the settings line */
    const char *key;           /* its sweep key (the worker's flag is that key's); NULL: the grid makes it */
    size_t point_off;          /* a list axis (JOB_AXIS, JOB_TRAIN): its value's offset in the point; else 0 */
    enum peaks_column column;  /* the peaks.csv column that records it */
    unsigned uses;             /* POINT_* bits */
    int in_group_key;          /* 1: a field of the fit's group key (settings/group_key.h), named after the setting */
    size_t group_size;         /* that field's size in bytes: a longer text is refused, never cut */
    const char *id_prefix;     /* its segment of the point id ("/b" for /b4); NULL: not in the id */
    /* Whether it matters to this point (LoRA settings to LoRA techniques,
     * batch to techniques that run steps); NULL: to every point. One that
     * does not is left out of the argv and the id, and its column says
     * off_text (NULL: the value all the same). */
    int (*applies)(const struct grid_point *p);
    const char *off_text;
    /* The value as the sweep and the worker read it; NULL: the point's
     * own value of a list axis (point_off), or its key's field in the
     * point's job, a number as the key's type writes it. */
    const char *(*value)(const struct grid_point *p, point_text buf);
    /* The column's text where it differs from the value (units, empty for
     * none); NULL: the value. */
    const char *(*column_text)(const struct grid_point *p, point_text buf);
    /* Whether the worker is given it, where it applies; NULL: always. */
    int (*passed_if)(const struct grid_point *p);
};

/* The i-th row, or NULL past the last. */
const struct point_field *point_field_at(int i);
/* The row whose sweep key is key, or NULL. */
const struct point_field *point_field_of_key(const char *key);
/* The row whose column is c, or NULL (a measured column). */
const struct point_field *point_field_of_column(enum peaks_column c);
/* Has it a value: its own .value, or a key of one number? */
int point_field_has_value(const struct point_field *f);
/* How many values the job lists for the field: a list key's count (a
 * list axis's, the grid's lists'), 1 for any other. */
int point_field_listed(const struct point_field *f, const struct sweep_job *job);
/* Does the field matter to the point? */
int point_field_applies(const struct point_field *f, const struct grid_point *p);
/* The value as the sweep and the worker read it (.value, or the key's field). */
const char *point_field_value(const struct point_field *f, const struct grid_point *p, point_text buf);
/* The value, or off_text where it does not apply: the settings line's text. */
const char *point_field_text(const struct point_field *f, const struct grid_point *p, point_text buf);
/* Does the worker get it, as its sweep key's flag (a key that has one)? */
int point_field_passed(const struct point_field *f, const struct grid_point *p);
/* A command job's placeholders (sweeps/command_template.h) for point p:
 * a setting's is its row's value (the runner's threads where the runner
 * passes its own), the grid's its row's; {param.NAME} the job's own. */
struct point_placeholders {
    const struct grid_point *p;
    int threads;
    point_text text; /* a number or the LoRA list, used before the next value is asked for */
};
/* The row a placeholder (len bytes) reads, or NULL (a param's, or none). */
const struct point_field *point_field_of_placeholder(const char *name, size_t len);
/* A command_value_fn: ctx is a struct point_placeholders. */
const char *point_placeholder_value(void *ctx, const char *name, size_t len);
/* The field's peaks.csv text for the point. */
const char *point_field_column_text(const struct point_field *f, const struct grid_point *p, point_text buf);
#endif

/* point_result.c: reading a worker's report lines by the report table
 * (protocol/worker_report.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "protocol/point_result.h"
#include "protocol/worker_report.h"
#include "util/parse.h"

static void take_step(struct point_result *r, double seconds)
{
    if (r->n_steps++ == 0)
        r->step1_s = seconds;
    else
        r->later_steps_s += seconds;
}

/* The C type of a field, from struct point_result itself, and the type
 * each unit is read into (take() below; the runner's rows: any). */
enum field_type {
    FIELD_ANY = -1, FIELD_DOUBLE, FIELD_INT, FIELD_LONG_LONG, FIELD_CHARS, FIELD_DOUBLES,
    UNIT_FIELD_KIB = FIELD_DOUBLE, UNIT_FIELD_BYTES = FIELD_DOUBLE, UNIT_FIELD_REAL = FIELD_DOUBLE,
    UNIT_FIELD_STEP = FIELD_DOUBLE, UNIT_FIELD_COUNT = FIELD_LONG_LONG, UNIT_FIELD_INT = FIELD_INT,
    UNIT_FIELD_TEXT = FIELD_CHARS, UNIT_FIELD_PHASE_BYTES = FIELD_DOUBLES, UNIT_FIELD_PHASE_KIB = FIELD_DOUBLES,
    UNIT_FIELD_RUNNER = FIELD_ANY
};
#define FIELD_TYPE(field)                                                                                         \
    _Generic(((struct point_result *)0)->field, double: FIELD_DOUBLE, int: FIELD_INT, long long: FIELD_LONG_LONG, \
             char *: FIELD_CHARS, double *: FIELD_DOUBLES)
/* A row whose field's type is not its unit's, or whose text is not
 * TEXT for a string (NOW uses no field), does not compile. */
#define POINT_RESULT_TYPE_CHECK(name_, unit_, field, column_, text_, less_)                                     \
    _Static_assert(UNIT_FIELD_##unit_ == FIELD_ANY || FIELD_TYPE(field) == UNIT_FIELD_##unit_,                 \
                   "report key " #name_ ": its field's type is not its unit's");                                \
    _Static_assert(REPORT_TEXT_##text_ == REPORT_TEXT_NOW ||                                                    \
                       (REPORT_TEXT_##text_ == REPORT_TEXT_TEXT) == (FIELD_TYPE(field) == FIELD_CHARS),         \
                   "report key " #name_ ": a text field is written as TEXT, a number not");
WORKER_REPORT(POINT_RESULT_TYPE_CHECK)
#undef POINT_RESULT_TYPE_CHECK

/* Each report row's field in struct point_result: WORKER_REPORT's third
 * column, bound here so that the table itself needs no point_result. */
static const struct {
    size_t off, size;
    enum field_type type;
} fields[REPORT_N_KEYS] = {
#define POINT_RESULT_FIELD(name_, unit_, field, column_, text_, less_)                                          \
    [REPORT_##name_] = {offsetof(struct point_result, field), sizeof(((struct point_result *)0)->field),       \
                        FIELD_TYPE(field)},
    WORKER_REPORT(POINT_RESULT_FIELD)
#undef POINT_RESULT_FIELD
};

/* Every field the worker reports is -1 (unknown) until it says; the
 * runner's own start at 0 but the exit code, -1 until the worker ends. */
void point_result_init(struct point_result *r)
{
    memset(r, 0, sizeof *r);
    for (int k = 0; k < REPORT_N_KEYS; k++) {
        char *field = (char *)r + fields[k].off;
        for (int i = 0; worker_report_rows[k].unit != REPORT_RUNNER && i < worker_report_phases(k); i++)
            switch (fields[k].type) {
            case FIELD_DOUBLE: *(double *)field = -1; break;
            case FIELD_INT: *(int *)field = -1; break;
            case FIELD_LONG_LONG: *(long long *)field = -1; break;
            case FIELD_DOUBLES: ((double *)field)[i] = -1; break;
            default: break; /* text: empty */
            }
    }
    r->exit_code = -1;
    r->tree_peak_mib = -1; /* a command's only */
}

void *point_result_field(struct point_result *r, enum worker_report_key k, size_t *size)
{
    if (size)
        *size = fields[k].size;
    return (char *)r + fields[k].off;
}

double point_result_number(const struct point_result *r, enum worker_report_key k, int phase)
{
    const char *field = (const char *)r + fields[k].off;
    switch (fields[k].type) {
    case FIELD_DOUBLE: return *(const double *)field;
    case FIELD_INT: return *(const int *)field;
    case FIELD_LONG_LONG: return (double)*(const long long *)field;
    case FIELD_DOUBLES: return ((const double *)field)[phase];
    default: return -1;
    }
}

const char *point_result_text(const struct point_result *r, enum worker_report_key k)
{
    return fields[k].type == FIELD_CHARS ? (const char *)r + fields[k].off : "";
}

/* The numbers of each unit a row may hold: none negative (a negative field
 * is "unknown", written empty), none too large for peaks.csv's readers
 * (settings/peaks_columns.c: 1e18 at most), whole where the field is. */
static const struct unit_range {
    double max;
    int whole;
} unit_ranges[] = {
    [REPORT_KIB] = {1125899906842624.0, 0},  /* 2^50 KiB: 1 EiB */
    [REPORT_BYTES] = {1152921504606846976.0, 0}, /* 2^60 bytes: 1 EiB */
    [REPORT_COUNT] = {1e15, 1},
    [REPORT_INT] = {1e6, 1},
    [REPORT_REAL] = {1e12, 0},
    [REPORT_STEP] = {1e12, 0},
    [REPORT_PHASE_BYTES] = {1152921504606846976.0, 0},
    [REPORT_PHASE_KIB] = {1125899906842624.0, 0},
};

/* A reported number, read strictly (util/parse.h: no "12abc", "nan",
 * "inf", hex or white space) into its unit's range. 0, or -1 with why. */
static int read_number(enum worker_report_key k, int phase, const char *v, double *out, char *why, size_t whylen)
{
    const struct unit_range *u = &unit_ranges[worker_report_rows[k].unit];
    long whole;
    int bad = u->whole ? parse_long(v, 0, (long)u->max, &whole) : parse_double(v, 0, u->max, out);
    if (!bad) {
        if (u->whole)
            *out = (double)whole;
        return 0;
    }
    char key[64];
    snprintf(why, whylen, "%s \"%.40s\" is not a %snumber from 0 to %g", worker_report_key(k, phase, key, sizeof key),
             v, u->whole ? "whole " : "", u->max);
    return -1;
}

/* The value into the row's field (phase: its element), by the row's unit. */
static void take(struct point_result *r, enum worker_report_key k, int phase, const char *v, double n)
{
    const struct worker_report_row *row = &worker_report_rows[k];
    size_t size;
    char *field = point_result_field(r, k, &size);
    switch (row->unit) {
    case REPORT_KIB: *(double *)field = n / 1024; break;
    case REPORT_BYTES: *(double *)field = n / 1048576; break;
    case REPORT_COUNT: *(long long *)field = (long long)n; break;
    case REPORT_INT: *(int *)field = (int)n; break;
    case REPORT_REAL: *(double *)field = n; break;
    case REPORT_TEXT: snprintf(field, size, "%s", v); break;
    case REPORT_STEP: take_step(r, n); break;
    case REPORT_PHASE_BYTES: ((double *)field)[phase] = n / 1048576; break;
    case REPORT_PHASE_KIB: ((double *)field)[phase] = n / 1024; break;
    case REPORT_RUNNER: break;
    }
}

/* The row and phase of key: its slot (k * PF_PHASE_COUNT + phase), or -1. */
static int slot_of(const char *key)
{
    for (int k = 0; k < REPORT_N_KEYS; k++) {
        const struct worker_report_row *row = &worker_report_rows[k];
        for (int i = 0; row->unit != REPORT_RUNNER && i < worker_report_phases((enum worker_report_key)k); i++) {
            char name[64];
            if (strcmp(worker_report_key((enum worker_report_key)k, i, name, sizeof name), key) == 0)
                return k * PF_PHASE_COUNT + i;
        }
    }
    return -1;
}

int point_result_read_line(struct point_result *r, char *line, int *slot, char *why, size_t whylen)
{
    char *eq = strchr(line, '=');
    if (!eq)
        return REPORT_LINE_NOT_KEY_VALUE;
    *eq = '\0';
    *slot = slot_of(line);
    if (*slot < 0)
        return REPORT_LINE_UNKNOWN;
    enum worker_report_key k = (enum worker_report_key)(*slot / PF_PHASE_COUNT);
    int phase = *slot % PF_PHASE_COUNT;
    double n = 0;
    if (worker_report_rows[k].unit != REPORT_TEXT && read_number(k, phase, eq + 1, &n, why, whylen) != 0)
        return REPORT_LINE_BAD_VALUE;
    take(r, k, phase, eq + 1, n);
    return REPORT_LINE_TAKEN;
}

int point_result_take_line(struct point_result *r, char *line)
{
    int slot;
    char why[128];
    int taken = point_result_read_line(r, line, &slot, why, sizeof why);
    return taken == REPORT_LINE_BAD_VALUE ? 1 : taken; /* a value peakfit could not write back: dropped */
}

int point_result_repeats(int slot)
{
    enum worker_report_unit u = worker_report_rows[slot / PF_PHASE_COUNT].unit;
    return u == REPORT_STEP || slot / PF_PHASE_COUNT == REPORT_loss;
}

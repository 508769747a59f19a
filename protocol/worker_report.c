/* worker_report.c: the report table's rows: key, unit, column, text, less.
 * The field each is read into is point_result.c's (point_result_field). */
#include <stdio.h>
#include <string.h>
#include "core/phase.h"
#include "protocol/worker_report.h"

const struct worker_report_row worker_report_rows[REPORT_N_KEYS] = {
#define WORKER_REPORT_ROW(name_, unit_, field, column_, text_, less_)                                         \
    [REPORT_##name_] = {.name = #name_, .unit = REPORT_##unit_, .column = PEAKS_COL_##column_,             \
                        .text = REPORT_TEXT_##text_, .less = REPORT_##less_},
    WORKER_REPORT(WORKER_REPORT_ROW)
#undef WORKER_REPORT_ROW
};

int worker_report_phases(enum worker_report_key k)
{
    enum worker_report_unit u = worker_report_rows[k].unit;
    return u == REPORT_PHASE_BYTES || u == REPORT_PHASE_KIB ? PF_PHASE_COUNT : 1;
}

const char *worker_report_key(enum worker_report_key k, int phase, char *buf, size_t size)
{
    const struct worker_report_row *r = &worker_report_rows[k];
    if (worker_report_phases(k) > 1) /* "phase_..." -> "forward_..." */
        snprintf(buf, size, "%s%s", pf_phase_name((pf_phase)phase), r->name + strlen("phase"));
    else
        snprintf(buf, size, "%s", r->name);
    return buf;
}

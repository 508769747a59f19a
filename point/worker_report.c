/* worker_report.c: the report table's rows: key, unit, column. The field
 * each is read into is point_result.c's (point_result_field). */
#include <stdio.h>
#include <string.h>
#include "core/phase.h"
#include "point/worker_report.h"

const struct worker_report_row worker_report_rows[REPORT_N_KEYS] = {
#define WORKER_REPORT_ROW(name_, unit_, field, column_)                                                     \
    [REPORT_##name_] = {.name = #name_, .unit = REPORT_##unit_, .column = PEAKS_COL_##column_},
    WORKER_REPORT(WORKER_REPORT_ROW)
#undef WORKER_REPORT_ROW
};

const char *worker_report_key(enum worker_report_key k, int phase, char *buf, size_t size)
{
    const struct worker_report_row *r = &worker_report_rows[k];
    if (r->unit == REPORT_PHASE_BYTES || r->unit == REPORT_PHASE_KIB) /* "phase_..." -> "forward_..." */
        snprintf(buf, size, "%s%s", pf_phase_name((pf_phase)phase), r->name + strlen("phase"));
    else
        snprintf(buf, size, "%s", r->name);
    return buf;
}

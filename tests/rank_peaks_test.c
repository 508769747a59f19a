/* rank_peaks_test.c: the rank_peaks_mib column written and read back, and
 * every malformed text refused with its message (util/rank_peaks.h), also
 * through peaks.csv's row check. */
#include <stdio.h>
#include <string.h>
#include "tests/check.h"
#include "settings/peaks_columns.h"
#include "util/rank_peaks.h"

static void refused(const char *text, const char *want)
{
    struct rank_peak p[RANK_PEAKS_MAX];
    char why[256] = "";
    int n = rank_peaks_parse(text, p, RANK_PEAKS_MAX, why, sizeof why);
    CHECK(n == -1 && strcmp(why, want) == 0, "\"%s\": %d, \"%s\"", text, n, why);
}

int main(void)
{
    struct rank_peak in[2] = {{0, 812.345, 640.12}, {1, 790.1, -1}}, out[RANK_PEAKS_MAX];
    char text[RANK_PEAKS_TEXT], why[256] = "";
    rank_peaks_format(in, 2, text);
    CHECK(strcmp(text, "0:812.345:640.120 1:790.100:") == 0, "formatted \"%s\"", text);
    int n = rank_peaks_parse(text, out, RANK_PEAKS_MAX, why, sizeof why);
    CHECK(n == 2 && out[1].rank == 1 && out[1].rss_mib == 790.1 && out[1].tensor_mib == -1 &&
              out[0].tensor_mib == 640.12, "read back %d (%s)", n, why);
    CHECK(rank_peaks_parse("", out, RANK_PEAKS_MAX, why, sizeof why) == 0, "empty: no ranks");
    refused("0:1:2 x", "rank_peaks_mib \"0:1:2 x\": \"x\" is not RANK:RSS:TENSOR (ranks rising, from 0 to 63)");
    refused("1:1:2 0:1:2", "rank_peaks_mib \"1:1:2 0:1:2\": \"0:1:2\" is not RANK:RSS:TENSOR (ranks rising, from 0 to 63)");
    refused("0:nan:", "rank_peaks_mib \"0:nan:\": \"0:nan:\" is not RANK:RSS:TENSOR (ranks rising, from 0 to 63)");
    refused("64:1:", "rank_peaks_mib \"64:1:\": \"64:1:\" is not RANK:RSS:TENSOR (ranks rising, from 0 to 63)");
    refused("0:1:-2", "rank_peaks_mib \"0:1:-2\": \"0:1:-2\" is not RANK:RSS:TENSOR (ranks rising, from 0 to 63)");
    refused("  ", "rank_peaks_mib \"  \" holds no rank");

    /* peaks.csv's row check refuses it too: no reader takes it. */
    char *fields[PEAKS_N_COLUMNS], empty[] = "", id[] = "p", ok[] = "ok", bad[] = "0:1";
    for (int c = 0; c < PEAKS_N_COLUMNS; c++)
        fields[c] = empty;
    fields[PEAKS_COL_point_id] = id;
    fields[PEAKS_COL_status] = ok;
    fields[PEAKS_COL_rank_peaks_mib] = bad;
    CHECK(peaks_row_check(fields, PEAKS_N_COLUMNS, why, sizeof why) == -1 &&
              strcmp(why, "rank_peaks_mib \"0:1\": \"0:1\" is not RANK:RSS:TENSOR (ranks rising, from 0 to 63)") == 0,
          "row check: \"%s\"", why);
    CHECK_DONE();
}

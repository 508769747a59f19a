/* double_text_test: a decimal setting's text is the shortest that reads
 * back as the same value, the same wherever it is written (the settings
 * line, peaks.csv, the group key): 0.1 once became 0.10000000000000001
 * (%.17g), then was cut to its key field's 16 bytes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "point/grid.h"
#include "point/point_fields.h"
#include "tests/check.h"
#include "util/parse.h"

static void reads_back(double v, const char *want)
{
    char buf[32];
    const char *text = double_text(v, buf, sizeof buf);
    CHECK(!strcmp(text, want), "%.17g: \"%s\", not \"%s\"", v, text, want);
    CHECK(strtod(text, NULL) == v, "%s does not read back as %.17g", text, v);
}

int main(void)
{
    reads_back(0.1, "0.1");
    reads_back(0.01, "0.01");
    reads_back(90, "90");
    reads_back(1e-4, "0.0001");
    reads_back(0.1 + 0.2, "0.30000000000000004");
    reads_back(1e20, "1e+20");
    reads_back(-2.5, "-2.5");
    reads_back(0, "0");

    /* A point's decimal setting (its timeout) in the settings line. */
    struct sweep_job job = {.timeout_s = 0.1};
    struct grid_point p = {.job = &job};
    const struct point_field *f = point_field_of_key("timeout");
    point_text buf;
    CHECK(f && !strcmp(point_field_value(f, &p, buf), "0.1"), "timeout = 0.1 is written \"%s\"",
          f ? point_field_value(f, &p, buf) : "(no field)");
    CHECK_DONE();
}

/* GSL's errors are peakfit's: with the handler main installs, a
 * statistic GSL cannot compute is NAN (here the interval keeps the
 * fit's own half-width, the larger of the two) and the error is kept for the
 * command to name; GSL's default handler aborted the process (a fit.json
 * with an intercept of 1e100 ended calc with exit 134, in the t quantile
 * of group_interval_half). */
#include <math.h>
#include <string.h>
#include "fit/group_fit.h"
#include "fit/numeric_error.h"
#include "tests/check.h"

int main(void)
{
    char why[256] = "";
    struct group_fit g = {.dof = 5, .t975 = 2.57, .run_spread = 0.03, .run_spread_dof = 10};
    numeric_error_install();
    CHECK(!numeric_error_take(why, sizeof why), "an error before any: %s", why);
    double half = group_interval_half(&g, 1.0, 1e100);
    CHECK(fabs(half - 2.57) < 1e-12, "the sum's t is NAN, the fit's own interval stands: %g", half);
    CHECK(numeric_error_take(why, sizeof why), "no error kept");
    CHECK(strstr(why, "x too large to extract fraction part (gamma.c:") == why, "the error: %s", why);
    CHECK(!numeric_error_take(why, sizeof why), "the error is taken once: %s", why);
    half = group_interval_half(&g, 1.0, 1000.0);
    CHECK(isfinite(half) && !numeric_error_take(why, sizeof why), "a computable interval: %g, %s", half, why);
    CHECK_DONE();
}

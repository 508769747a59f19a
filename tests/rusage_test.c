/* ru_maxrss is inherited across exec on Linux: a worker forked from a
 * parent holding 1 GiB reports that GiB in its rusage. The runner must
 * take the worker's peak from its own VmHWM instead. This test holds the
 * GiB, runs a real worker, and checks which number was recorded. */
#include <string.h>
#include "proc/spawn.h"
#include "tests/check.h"

int main(int argc, char **argv)
{
    const char *peakfit = argc > 1 ? argv[1] : getenv("PEAKFIT") ? getenv("PEAKFIT") : "bin/peakfit";
    size_t ballast_size = (size_t)1 << 30;
    char *ballast = malloc(ballast_size);
    CHECK(ballast != NULL, "malloc");
    if (!ballast)
        return 1;
    memset(ballast, 1, ballast_size); /* resident, not just reserved */
    char *args[] = {(char *)peakfit, "worker", "--model", "tiny", "--technique", "load",
                    "--report-fd", "3", NULL};
    struct point_result r;
    CHECK(spawn_worker(args, 60, 0, &r) == SPAWN_DONE, "spawn");
    CHECK(strcmp(r.status, "ok") == 0, "status %s (%s)", r.status, r.error);
    CHECK(r.rusage_maxrss_mib >= 1024, "rusage should show the inherited GiB: %.1f MiB", r.rusage_maxrss_mib);
    CHECK(r.peak_rss_mib > 0 && r.peak_rss_mib < 700, "recorded peak is the worker's own: %.1f MiB", r.peak_rss_mib);
    CHECK(r.baseline_rss_mib > 0 && r.peak_rss_mib >= r.baseline_rss_mib, "baseline %.1f peak %.1f",
          r.baseline_rss_mib, r.peak_rss_mib);
    CHECK(r.params == 5245184, "params %lld", r.params);
    free(ballast);
    CHECK_DONE();
}

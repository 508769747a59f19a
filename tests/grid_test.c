/* Grid expansion: defaults from [global], per-job overrides, the order of
 * the axes, load points without batch or sequence, and stable ids. */
#include <string.h>
#include <unistd.h>
#include "runner/grid.h"
#include "tests/check.h"

static const char *sweep_text =
    "# two jobs\n"
    "[global]\n"
    "model = tiny\n"
    "steps = 3\n"
    "repeats = 2\n"
    "\n"
    "[train]\n"
    "technique = full, lora\n"
    "batch = 1, 4\n"
    "seq_len = 16, 32, 64\n"
    "lora_rank = 4\n"
    "\n"
    "[load]\n"
    "technique = load\n"
    "repeats = 1\n"
    "timeout = 2m\n"
    "mem_limit = 1.5GiB\n";

int main(void)
{
    char path[] = "/tmp/peakfit-grid-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0 && write(fd, sweep_text, strlen(sweep_text)) == (ssize_t)strlen(sweep_text), "temp file");
    close(fd);
    char err[1024] = "";
    struct sweep *s = sweep_load(path, err, sizeof err);
    unlink(path);
    CHECK(s != NULL, "sweep_load: %s", err);
    if (!s)
        return 1;
    CHECK(s->n_jobs == 2, "jobs: %d", s->n_jobs);
    CHECK(s->jobs[0].steps == 3 && s->jobs[0].repeats == 2, "global defaults inherited");
    CHECK(s->jobs[0].lora_rank == 4 && s->jobs[1].lora_rank == 8, "override stays in its job");
    CHECK(s->jobs[1].timeout_s == 120, "timeout 2m: %g", s->jobs[1].timeout_s);
    CHECK(s->jobs[1].mem_limit == 1610612736LL, "mem_limit 1.5GiB: %lld", (long long)s->jobs[1].mem_limit);
    CHECK(s->jobs[0].line == 7 && s->jobs[1].line == 13, "job lines %d %d", s->jobs[0].line, s->jobs[1].line);

    struct grid g;
    CHECK(grid_expand(s, &g) == 0, "expand");
    /* train: 2 techniques x 3 seq x 2 batch x 2 repeats = 24; load: 1 */
    CHECK(g.n == 25, "points: %d", g.n);
    const struct grid_point *p = g.points;
    CHECK(p[0].technique == PF_TECH_FULL && p[0].seq_len == 16 && p[0].batch == 1 && p[0].repeat == 0, "first");
    CHECK(p[1].repeat == 1 && p[1].batch == 1, "repeat is the innermost axis");
    CHECK(p[2].batch == 4 && p[2].seq_len == 16, "then batch");
    CHECK(p[4].seq_len == 32, "then seq_len");
    CHECK(p[12].technique == PF_TECH_LORA, "then technique");
    CHECK(strcmp(p[12].id, "train/tiny/cpu/lora/lora4-q+v/b1/s16/st3/r0") == 0, "LoRA settings in the id: %s", p[12].id);
    CHECK(strcmp(p[0].id, "train/tiny/cpu/full/b1/s16/st3/r0") == 0, "id: %s", p[0].id);
    CHECK(p[24].technique == PF_TECH_LOAD && p[24].batch == 0 && p[24].seq_len == 0, "load point");
    CHECK(strcmp(p[24].id, "load/tiny/cpu/load/b0/s0/st3/r0") == 0, "load id: %s", p[24].id);
    for (int i = 0; i < g.n; i++)
        for (int j = i + 1; j < g.n; j++)
            CHECK(strcmp(g.points[i].id, g.points[j].id) != 0, "duplicate id %s", g.points[i].id);
    grid_free(&g);
    free(s);
    CHECK_DONE();
}

/* A plan fits only when the upper end of its 95% interval is within the
 * usable budget: on a noisy fit, budgets just either side of the upper end
 * and of the estimate give the three outcomes (and calc's exit statuses).
 * The largest micro-batch is the largest within its interval. ZeRO stages
 * shard the measured fixed costs: hand-computed per-replica F. */
#include <math.h>
#include "reports/calc.h"
#include "tests/calc_fixture.h"

static const int batches[] = {1, 2, 3, 4, 6, 8};
static const double noise[] = {12, -9, 4, -15, 10, -3};

static void three_outcomes(const struct fit_set *set)
{
    char err[700];
    struct calc_plan p;
    struct calc_request req = {.technique = "full", .budget_mib = 4096, .replicas = 1, .micro_batch = 8};
    CHECK(calc_plan_make(set, &req, &p, err, sizeof err) == 0, "plan: %s", err);
    double estimate = p.predicted_mib, upper = p.predicted_mib + p.predicted_ci95_mib;
    CHECK(p.predicted_ci95_mib > 1, "a noisy fit has an interval: +- %g", p.predicted_ci95_mib);
    struct { double budget; enum plan_outcome want; int status; } cases[] = {
        {upper + 0.01, PLAN_FITS, 0},
        {upper - 0.01, PLAN_FITS_AT_ESTIMATE, 3},
        {estimate + 0.01, PLAN_FITS_AT_ESTIMATE, 3},
        {estimate - 0.01, PLAN_DOES_NOT_FIT, 4},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        req.budget_mib = cases[i].budget;
        calc_plan_make(set, &req, &p, err, sizeof err);
        CHECK(p.outcome == cases[i].want && p.fits == (cases[i].want == PLAN_FITS),
              "budget %.2f (estimate %.2f, upper %.2f): outcome %s", cases[i].budget, estimate, upper,
              plan_outcome_words(p.outcome));
        CHECK(plan_outcome_exit(p.outcome) == cases[i].status, "exit status %d", plan_outcome_exit(p.outcome));
    }
    /* --margin 0.1: the upper end must be within 90% of the budget. */
    req.margin = 0.1;
    req.budget_mib = upper / 0.9 + 0.01;
    calc_plan_make(set, &req, &p, err, sizeof err);
    CHECK(p.outcome == PLAN_FITS, "margin, just enough: %s", plan_outcome_words(p.outcome));
    req.budget_mib = upper / 0.9 - 0.01;
    calc_plan_make(set, &req, &p, err, sizeof err);
    CHECK(p.outcome == PLAN_FITS_AT_ESTIMATE, "margin, just short: %s", plan_outcome_words(p.outcome));
}

/* The chosen b's upper end fits; b + 1's does not; at the estimate more fit. */
static void largest_within_interval(const struct fit_set *set)
{
    char err[700];
    struct calc_plan p, next;
    struct calc_request req = {.technique = "full", .budget_mib = 4300, .replicas = 1};
    CHECK(calc_plan_make(set, &req, &p, err, sizeof err) == 0, "plan: %s", err);
    CHECK(p.outcome == PLAN_FITS && p.micro_batch == p.max_micro_batch, "chosen b %ld fits: %s", p.micro_batch,
          plan_outcome_words(p.outcome));
    req.micro_batch = p.max_micro_batch + 1;
    calc_plan_make(set, &req, &next, err, sizeof err);
    CHECK(next.outcome != PLAN_FITS, "b + 1 = %ld: %s", req.micro_batch, plan_outcome_words(next.outcome));
    CHECK(p.max_micro_batch_estimate >= p.max_micro_batch, "estimate's b %ld, interval's %ld",
          p.max_micro_batch_estimate, p.max_micro_batch);
}

/* weights 100, grads 100, optimizer 200 MiB; F = 1000 (the line's: no
 * gradient lives at its peak); on 4 replicas each keeps a quarter of what is
 * sharded, and the runtime adds its own (reports/calc_shard.c): DDP (no
 * --zero, ZeRO-1) its gradient buckets, +100; ZeRO-1 shards AdamW's state
 * by whole parameters, so the largest rank keeps the embedding's (the tiny
 * preset's 8192 x 256 of 5245184: more than a quarter); ZeRO-2 the
 * gradients too (not measured), which the line does not hold; ZeRO-3 the
 * weights too, -75, and FSDP holds the root (the tiny preset's embeddings
 * and final norm: 2097408 of its 5245184 parameters) and one of its 4
 * layers unsharded. */
static void zero_stages(const char *dir)
{
    char err[700];
    struct fit_set set;
    calc_fixture_write(dir, &(struct calc_fixture){.model = "m", .n = 4, .weight_bytes = 100 << 20,
                                                   .grad_bytes = 100 << 20, .optimizer_bytes = 200 << 20});
    CHECK(fit_set_load(dir, &set, err, sizeof err) == 0, "fit_set_load: %s", err);
    double root = 100.0 * 2097408 / 5245184, layer = 100.0 * (5245184 - 2097408) / 5245184 / 4;
    double embedding = 8192.0 * 256 / 5245184; /* the largest parameter, 0.40 of all: over 1/4 */
    const double want[] = {1100, 1100 - 200 * (1 - embedding), 850, 775 + root + layer};
    for (int z = 0; z <= 3; z++) {
        struct calc_plan p;
        struct calc_request req = {.technique = "full", .budget_mib = 2048, .replicas = 4, .zero = z,
                                   .config = z == 1 || z == 3 ? "tiny" : NULL};
        CHECK(calc_plan_make(&set, &req, &p, err, sizeof err) == 0, "plan: %s", err);
        CHECK(fabs(p.fixed_mib - 1000) < 1e-6, "unsharded F %g", p.fixed_mib);
        CHECK(fabs(p.fixed_per_replica_mib - want[z]) < 1e-6, "ZeRO-%d: F per replica %g, expected %g", z,
              p.fixed_per_replica_mib, want[z]);
        /* room 2048 - 200 - F' over 128 MiB a sample, at the estimate */
        long b = (long)floor((2048 - 200 - want[z]) / 128);
        CHECK(p.max_micro_batch_estimate == b, "ZeRO-%d: b_max %ld, expected %ld", z, p.max_micro_batch_estimate, b);
    }
    struct calc_plan p;
    struct calc_request one = {.technique = "full", .budget_mib = 2048, .replicas = 1};
    CHECK(calc_plan_make(&set, &one, &p, err, sizeof err) == 0 && p.fixed_per_replica_mib == 1000,
          "one replica holds what the single process did: F %g", p.fixed_per_replica_mib);
    for (int z = 1; z <= 3; z += 2) {
        struct calc_request unsized = {.technique = "full", .budget_mib = 2048, .replicas = 4, .zero = z};
        CHECK(calc_plan_make(&set, &unsized, &p, err, sizeof err) == -1 && strstr(err, "give --config PATH"),
              "ZeRO-%d of a model without a config: %s", z, err);
    }
    fit_set_free(&set);
}

int main(void)
{
    char dir[] = "/tmp/peakfit-outcome-XXXXXX", path[300], err[700];
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    snprintf(path, sizeof path, "%s/peaks.csv", dir);
    struct fit_set set;
    calc_fixture_write(dir, &(struct calc_fixture){.model = "m", .n = 6, .batches = batches, .noise = noise});
    CHECK(fit_set_load(dir, &set, err, sizeof err) == 0, "fit_set_load: %s", err);
    three_outcomes(&set);
    largest_within_interval(&set);
    fit_set_free(&set);
    unlink(path);
    zero_stages(dir);
    unlink(path);
    rmdir(dir);
    CHECK_DONE();
}

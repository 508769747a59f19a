/* The fit across depths (fit/depth_fit.h) proved on synthetic slices:
 * each group has known per-phase lines in the depth L and tokens T
 * (forward below backward, the optimizer step a floor rising with L), the
 * states of SmolLM2-135M's preset at each depth by its parameter
 * arithmetic, Gaussian noise on every phase and a heap's gap on RSS (of
 * which no fit from slices is made: fit/depth_fit.h); the
 * fit sees slices of 1, 2 and 4 layers at b = 1 ... 16, s = 128, and
 * predicts the whole model (30 layers). Its A must be recovered (within
 * its 95% interval in 93-97% of groups), and the 95% intervals for a new
 * measurement of the whole model at b = 1 ... 24 must cover 93-97% of the
 * draws, above the knee and on the floor; the whole model's own points
 * are its held-out points. */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fit/depth_fit.h"
#include "fit/fit_set.h"
#include "models/model_spec.h"
#include "models/param_count.h"
#include "tests/check.h"

enum { GROUPS = 400, HELD = 12, SEQ = 128, WHOLE = 30 };
static const int depths[] = {1, 2, 4}, batches[] = {1, 2, 4, 8, 16};
enum { N_DEPTHS = 3, N_BATCHES = 5, N_POINTS = N_DEPTHS * N_BATCHES + 3 };

/* Per phase F0 + F1*L + (A0 + A1*L)*T above the states (MiB, tokens). */
struct truth { double f[3][4], gap[3], noise, rss_noise; };

static double phase(const struct truth *t, int p, double L, double T)
{
    return t->f[p][0] + t->f[p][1] * L + (t->f[p][2] + t->f[p][3] * L) * T;
}

static double states(int L)
{
    struct model_spec spec;
    char err[256];
    model_spec_read("smollm2-135m", &spec, err, sizeof err);
    pf_model_config c = pf_config_slice(&spec.config, L);
    pf_train_options o = {.technique = PF_TECH_FULL};
    pf_model_stats st = model_footprint(&c, &o);
    return (double)(st.weight_bytes + st.grad_bytes + st.optimizer_bytes) / (1024.0 * 1024.0);
}

static struct truth draw(gsl_rng *r)
{
    struct truth t = {.noise = 2 + 8 * gsl_rng_uniform(r), .rss_noise = 10 + 20 * gsl_rng_uniform(r)};
    double a0 = 0.2 + 0.5 * gsl_rng_uniform(r), a1 = 0.1 + 0.2 * gsl_rng_uniform(r);
    /* backward: the steepest; forward: 70% of it; optimizer: flat, the floor */
    double b[4] = {300 + 200 * gsl_rng_uniform(r), 5 + 10 * gsl_rng_uniform(r), a0, a1};
    memcpy(t.f[1], b, sizeof b);
    for (int j = 0; j < 4; j++)
        t.f[0][j] = 0.7 * b[j];
    double knee = 600 + 900 * gsl_rng_uniform(r); /* tokens at WHOLE layers */
    t.f[2][0] = phase(&t, 1, WHOLE, knee) - 0.5 * (b[1] + a1 * knee) * WHOLE;
    t.f[2][1] = 0.5 * (b[1] + a1 * knee);
    t.gap[0] = 50 + 100 * gsl_rng_uniform(r);
    t.gap[1] = 2 * gsl_rng_uniform(r);
    t.gap[2] = 0.05 * gsl_rng_uniform(r);
    return t;
}

/* One measured point: its phases and peaks as a worker reports them. */
static void observe(gsl_rng *r, const struct truth *t, int L, int b, struct observation *o, double st)
{
    memset(o, 0, sizeof *o);
    strcpy(o->model, "m");
    strcpy(o->device, "cpu");
    strcpy(o->technique, "full");
    strcpy(o->attention, "sdpa");
    strcpy(o->warm, "1");
    strcpy(o->measured_by, "worker");
    strcpy(o->model_source, "smollm2-135m");
    strcpy(o->status, "ok");
    if (L != WHOLE)
        snprintf(o->layers, sizeof o->layers, "%d", L);
    o->batch = b;
    o->seq_len = SEQ;
    o->tokens = (double)b * SEQ;
    o->weight_mib = st / 4;
    o->grad_mib = st / 4;
    o->optimizer_mib = st / 2;
    double top = 0;
    for (int p = 0; p < 3; p++) {
        o->phase_mib[p] = st + phase(t, p, L, o->tokens) + gsl_ran_gaussian(r, t->noise);
        top = fmax(top, o->phase_mib[p]);
    }
    o->tensor_mib = top;
    o->rss_mib = top + t->gap[0] + t->gap[1] * L + t->gap[2] * o->tokens + gsl_ran_gaussian(r, t->rss_noise);
    o->gpu_allocated_mib = o->gpu_reserved_mib = -1;
    for (int p = 0; p < 3; p++)
        o->phase_gpu_allocated_mib[p] = o->phase_gpu_reserved_mib[p] = -1;
}

struct tally { int groups, a_inside, draws, inside, floor_draws, floor_inside, held; double a_err; };

static const struct group_fit *from_slices(const struct fit_set *set, enum metric m)
{
    for (int i = 0; i < set->n_groups; i++)
        if (set->groups[i].from_slices && set->groups[i].metric == m)
            return &set->groups[i];
    return NULL;
}

static void one_group(gsl_rng *r, const double *st, struct tally *y)
{
    static struct observation pts[N_POINTS];
    struct truth t = draw(r);
    int n = 0;
    for (int d = 0; d < N_DEPTHS; d++)
        for (int b = 0; b < N_BATCHES; b++)
            observe(r, &t, depths[d], batches[b], &pts[n++], st[depths[d]]);
    for (int b = 2; b <= 6; b += 2) /* the whole model's own: held out */
        observe(r, &t, WHOLE, b, &pts[n++], st[WHOLE]);
    struct fit_set set = {.obs = {.ok = pts, .n_ok = n}};
    set.groups = calloc(N_DEPTHS * 2, sizeof *set.groups);
    for (int d = 0; d < N_DEPTHS; d++) {
        struct group_key k;
        group_key_of(&pts[d * N_BATCHES], &k);
        CHECK(group_fit_run(&set.obs, &k, METRIC_TENSOR, &set.groups[set.n_groups]) == 0, "slice %d", d);
        set.n_groups++;
    }
    CHECK(depth_fits_add(&set.obs, &set.groups, &set.n_groups) == 0, "depth_fits_add");
    /* The allocator level alone: RSS is not predicted from slices. */
    const struct group_fit *g = from_slices(&set, METRIC_TENSOR), *rss = from_slices(&set, METRIC_RSS);
    CHECK(g && !rss, "fits from slices: tensor %s, rss %s (%d groups)", g ? "yes" : "no", rss ? "yes" : "no",
          set.n_groups);
    if (g) {
        if (y->groups == 0)
            CHECK(!strcmp(g->key.layers, "30 (slices 1 2 4)"), "layers \"%s\"", g->key.layers);
        double a = t.f[1][2] + t.f[1][3] * WHOLE;
        y->groups++;
        y->a_inside += fabs(g->linear.c[1] - a) <= ols_ci95(&g->linear, 1);
        y->a_err = fmax(y->a_err, fabs(g->linear.c[1] - a) / a);
        y->held += g->n_held == 3;
        for (int h = 0; h < HELD; h++) {
            int b = 1 + (int)gsl_rng_uniform_int(r, 24);
            struct observation o;
            observe(r, &t, WHOLE, b, &o, st[WHOLE]);
            double pi, p = group_predict(g, b, SEQ, &pi);
            int on_floor = group_floor_binds(g, b, SEQ);
            y->draws++;
            y->inside += fabs(o.tensor_mib - p) <= pi;
            y->floor_draws += on_floor;
            y->floor_inside += on_floor && fabs(o.tensor_mib - p) <= pi;
        }
    }
    for (int i = 0; i < set.n_groups; i++)
        group_fit_free(&set.groups[i]);
    free(set.groups);
}

int main(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 32);
    double st[WHOLE + 1];
    for (int L = 1; L <= WHOLE; L++)
        st[L] = states(L);
    struct tally y = {0};
    for (int i = 0; i < GROUPS; i++)
        one_group(r, st, &y);
    double a_cover = 100.0 * y.a_inside / y.groups, cover = 100.0 * y.inside / y.draws;
    double floor_cover = 100.0 * y.floor_inside / y.floor_draws;
    printf("depth_fit_test: %d groups: A within its interval %.1f%% (largest error %.2f%%); whole-model draws "
           "inside %.2f%% of %d, on the floor %.2f%% of %d\n", y.groups, a_cover, 100 * y.a_err, cover, y.draws,
           floor_cover, y.floor_draws);
    CHECK(y.groups == GROUPS, "%d of %d groups fitted", y.groups, GROUPS);
    CHECK(a_cover >= 93 && a_cover <= 97, "A inside its 95%% interval in %.1f%% of groups", a_cover);
    CHECK(cover >= 93 && cover <= 97, "draws inside their 95%% interval: %.2f%%", cover);
    CHECK(y.floor_draws > y.draws / 10 && floor_cover >= 92 && floor_cover <= 98.5,
          "floor draws inside: %.2f%% of %d", floor_cover, y.floor_draws);
    CHECK(y.held == GROUPS, "the whole model's 3 points held out in %d groups", y.held);
    gsl_rng_free(r);
    CHECK_DONE();
}

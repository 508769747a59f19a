/* auto_rounds.c: the automated sweep's rounds: choose a point per track,
 * write DIR/auto.sweep, measure it with run_sweep (which skips every point
 * DIR/peaks.csv already holds, so a second `peakfit auto` resumes), read
 * the points back, choose again. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "autosweep/auto_choose.h"
#include "autosweep/auto_fit.h"
#include "autosweep/auto_rounds.h"
#include "autosweep/auto_slice_choose.h"
#include "autosweep/auto_slices.h"
#include "autosweep/auto_sweep.h"
#include "core/technique.h"
#include "fit/depth_fit.h"
#include "models/model_spec.h"
#include "models/param_count.h"
#include "point/grid.h"
#include "point/predict.h"
#include "proc/proc_stats.h"
#include "runner/run_sweep.h"
#include "store/out_dir.h"
#include "util/clock.h"
#include "util/exit_status.h"

/* Free memory kept for everything else on the machine when choosing. */
#define AUTO_FREE_MARGIN_MIB 1024.0
/* --- the rounds ---------------------------------------------------------- */

/* One track per technique, seq_len and depth (technique slowest, depth
 * fastest), chosen, measured and stopped on its own. */
enum { AUTO_MAX_TRACKS = AUTO_MAX_TECHNIQUES * AUTO_MAX_SEQ_LENS * AUTO_MAX_DEPTHS };

struct auto_run {
    const struct auto_request *r;
    struct model_spec spec;
    char sweep[4200], csv[4200];
    struct auto_job jobs[AUTO_MAX_TRACKS];
    struct auto_fit fits[AUTO_MAX_TRACKS];
    int stopped[AUTO_MAX_TRACKS];
    char why[AUTO_MAX_TRACKS][256];
    char label[AUTO_MAX_TRACKS][48];      /* "full"; "full/s128" with several seq_lens; "full/l2" a slice */
    double started;
};

static int n_tracks(const struct auto_run *a) { return a->r->n_techniques * a->r->n_seq_lens * a->r->n_depths; }
static pf_technique track_technique(const struct auto_run *a, int i)
{
    return a->r->techniques[i / (a->r->n_seq_lens * a->r->n_depths)];
}
static long track_seq_len(const struct auto_run *a, int i) { return a->r->seq_lens[i / a->r->n_depths % a->r->n_seq_lens]; }
static int track_layers(const struct auto_run *a, int i) { return a->r->depths[i % a->r->n_depths]; }

static int read_fits(struct auto_run *a)
{
    struct observations o = {0};
    char err[4400];
    if (access(a->csv, F_OK) == 0 && observations_load(a->csv, &o, err, sizeof err) != 0) {
        fprintf(stderr, "peakfit: %s\n", err);
        return EXIT_BAD_INPUT;
    }
    for (int i = 0; i < n_tracks(a); i++) {
        auto_axis_texts texts;
        struct auto_select sel = {.seq_len = (int)track_seq_len(a, i), .metric = a->r->metric};
        auto_track_choice(a->r, a->spec.name, track_technique(a, i), track_layers(a, i), texts, &sel.want);
        auto_fit_read(&o, &sel, &a->fits[i]);
    }
    observations_free(&o);
    return EXIT_DONE;
}

/* What a point may use above its baseline: free memory less a margin, and
 * no more than --mem-limit. */
static double room_mib(const struct auto_run *a, const struct auto_fit *f)
{
    long kib = host_memory_kib(HOST_MEMORY_AVAILABLE);
    double room = (kib > 0 ? kib / 1024.0 : INFINITY) - AUTO_FREE_MARGIN_MIB - f->baseline_mib;
    return a->r->mem_limit_mib > 0 ? fmin(room, a->r->mem_limit_mib) : room;
}

static void print_state(const struct auto_run *a, int i)
{
    const struct auto_fit *f = &a->fits[i];
    /* A slice's points are the fit across depths' (auto_slice_choose.h): its own knee is not asked for. */
    if (a->r->slices) {
        printf("%s: %d points\n", a->label[i], f->n);
        return;
    }
    printf("%s: %d points (%d above the knee", a->label[i], f->n, f->n_above);
    if (f->knee_tokens > 0)
        printf(", the floor up to %.0f tokens", f->knee_tokens);
    printf(")");
    if (isfinite(f->a))
        printf(", A = %.4f MiB/token (%s)", f->a, metric_name(a->r->metric));
    if (isfinite(f->a_rel))
        printf(" +- %.2f%%", 100 * f->a_rel);
    if (isfinite(f->rss_a))
        printf(", RSS's A = %.4f", f->rss_a);
    if (isfinite(f->rss_a_rel))
        printf(" +- %.2f%%", 100 * f->rss_a_rel);
    printf("\n");
}

/* Technique i's state and activations per token by arithmetic
 * (point/predict.h), from the sweep written so far (none before the
 * first round, which needs none). */
static void arithmetic_of(const struct auto_run *a, int i, struct auto_goal *g)
{
    char err[1024];
    struct grid grid;
    struct sweep *s = access(a->sweep, F_OK) == 0 ? sweep_load(a->sweep, err, sizeof err) : NULL;
    if (!s || grid_expand(s, &grid) != 0) {
        sweep_free(s);
        return;
    }
    for (int k = 0; k < grid.n; k++) {
        if (grid.points[k].technique != track_technique(a, i) || grid.points[k].seq_len != track_seq_len(a, i) ||
            grid.points[k].layers != track_layers(a, i))
            continue;
        struct grid_point p = grid.points[k];
        struct predictor pr;
        predictor_init(&pr, s);
        p.batch = 1;
        double one = predictor_peak_mib(&pr, &p);
        p.batch = 2;
        double per_sample = predictor_peak_mib(&pr, &p) - one;
        g->arith_per_token_mib = per_sample / (double)track_seq_len(a, i);
        g->arith_fixed_mib = one - predictor_baseline_mib(&pr, &p) - per_sample;
        predictor_free(&pr);
        break;
    }
    grid_free(&grid);
    sweep_free(s);
}

/* Adds batch b to job j, which stays ascending. */
static void add_batch(struct auto_job *j, int b)
{
    int at = j->n;
    while (at > 0 && j->batches[at - 1] > b)
        at--;
    memmove(&j->batches[at + 1], &j->batches[at], (size_t)(j->n - at) * sizeof *j->batches);
    j->batches[at] = b;
    j->n++;
}

/* Why technique i stops now, or "" while it goes on. A within its target
 * is the answer asked for; RSS's A, measured on beyond it, has its own
 * line (print_summary) saying whether it got there. */
static const char *budget_spent(struct auto_run *a, int i)
{
    const struct auto_fit *f = &a->fits[i];
    /* With --budget the answer is the largest micro-batch, not A */
    if (a->r->budget_mib <= 0 && f->n >= a->r->points && f->n_above >= 3 && f->a_rel <= a->r->target)
        snprintf(a->why[i], sizeof a->why[i], "A's 95%% interval is +-%.2f%%, within the target of %.2f%%",
                 100 * f->a_rel, 100 * a->r->target);
    else if (f->n >= a->r->points)
        snprintf(a->why[i], sizeof a->why[i], "the point budget (%ld) is spent", a->r->points);
    /* The coarse start is always measured: the time spent before it (the
     * device check, a loaded machine) must not leave a technique with no
     * point at all. */
    else if (a->fits[i].n > 0 && a->r->time_s > 0 && monotonic_seconds() - a->started >= a->r->time_s)
        snprintf(a->why[i], sizeof a->why[i], "the time budget (%.0f s) is spent", a->r->time_s);
    else
        a->why[i][0] = 0;
    return a->why[i];
}

/* A slice's next batches (autosweep/auto_slice_choose.h) into next. */
static int choose_slice(struct auto_run *a, int i, int *next)
{
    struct auto_slice_goal g = {.seq_len = (int)track_seq_len(a, i), .shallowest = track_layers(a, i) == a->r->depths[0],
                                .coarse = a->r->n_depths >= 3 ? 2 : 3,
                                .excess_known = depth_logits_grad_known(track_technique(a, i)),
                                .excess_per_token_mib = depth_logits_grad_mib(&a->spec.config),
                                .room_mib = room_mib(a, &a->fits[i])};
    return auto_slice_next(&a->fits[i], &g, next, a->why[i], sizeof a->why[i]);
}

/* The batches a whole model's track (or one --budget searches) measures
 * next into next: the coarse start, then one at a time; 0 when it stops. */
static int choose_whole(struct auto_run *a, int i, int *next)
{
    const struct auto_fit *f = &a->fits[i];
    struct auto_goal g = {a->r->target, a->r->budget_mib, room_mib(a, f), (int)track_seq_len(a, i), 0, 0};
    arithmetic_of(a, i, &g);
    int n = auto_coarse_missing(f, &g, next);
    /* With --budget, a search that has found its edge (the next size up
     * over the budget) says so before the point budget is counted: on its
     * last allowed point it had stopped as "spent", not as found. */
    if (a->r->budget_mib > 0 && n == 0 && f->n > 0)
        return (next[0] = auto_next_batch(f, &g, a->why[i], sizeof a->why[i])) > 0;
    if (budget_spent(a, i)[0])
        return 0;
    if (n == 0 && (next[0] = auto_next_batch(f, &g, a->why[i], sizeof a->why[i])) > 0)
        n = 1;
    return n;
}

/* Chooses track i's next batches into its job (a round's worth at once);
 * returns how many, 0 when it has stopped. */
static int choose(struct auto_run *a, int i)
{
    const struct auto_fit *f = &a->fits[i];
    struct auto_job *j = &a->jobs[i];
    int next[(int)AUTO_N_COARSE + (int)AUTO_SLICE_ABOVE];
    j->technique = track_technique(a, i);
    j->seq_len = track_seq_len(a, i);
    j->layers = track_layers(a, i);
    j->n = 0;
    for (int k = 0; k < f->n; k++)
        j->batches[j->n++] = f->pts[k].batch;
    if (a->stopped[i])
        return 0;
    int n = a->r->slices ? choose_slice(a, i, next) : choose_whole(a, i, next);
    if (n == 0 || j->n + n > SWEEP_MAX_LIST)
        return a->stopped[i] = 1, 0;
    for (int k = 0; k < n; k++) {
        add_batch(j, next[k]);
        printf("%s: next b = %d, s = %ld\n", a->label[i], next[k], j->seq_len);
    }
    return n;
}

/* Points with a row, ok or failed, over every track. */
static int points_known(const struct auto_run *a)
{
    int n = 0;
    for (int i = 0; i < n_tracks(a); i++)
        n += a->fits[i].n;
    return n;
}

static int one_round(struct auto_run *a, int *added)
{
    char err[4600];
    *added = 0;
    for (int i = 0; i < n_tracks(a); i++) {
        if (!a->stopped[i])
            print_state(a, i);
        *added += choose(a, i);
    }
    fflush(stdout);
    if (!*added)
        return EXIT_DONE;
    int written = auto_sweep_write(a->sweep, a->spec.source, a->r, a->jobs, n_tracks(a), err, sizeof err);
    if (written != 0) {
        fprintf(stderr, "peakfit: %s\n", err);
        return written == -2 ? EXIT_BAD_INPUT : EXIT_IO;
    }
    int before = points_known(a), rc = run_sweep(a->sweep, a->r->dir);
    if (rc != EXIT_DONE && rc != EXIT_NO_RESULT)
        return rc;
    rc = read_fits(a);
    /* run's 1 is both "no point succeeded" (the failures are rows, and
     * choices) and an I/O failure (no row at all): a round that left no
     * new row would be chosen again forever. */
    if (rc == EXIT_DONE && points_known(a) == before) {
        fprintf(stderr, "peakfit: auto: the round recorded none of its points in %s (see above)\n", a->csv);
        return EXIT_IO;
    }
    return rc;
}

/* With --budget and no micro-batch within it: said on stderr, naming the
 * smallest batch measured and its peak (the fixed cost the parameters'
 * arithmetic is below: the baseline, the allocator's and the heap's
 * share); EXIT_PLAN_DOES_NOT_FIT, or EXIT_NO_RESULT when no point ended
 * well. */
static int nothing_within(const struct auto_run *a, int i)
{
    const struct auto_fit *f = &a->fits[i];
    for (int k = 0; k < f->n; k++) {
        const struct auto_point *p = &f->pts[k];
        if (!p->ok)
            continue;
        fprintf(stderr, "peakfit auto: %s: no micro-batch fits --budget %.1f MiB at seq_len %ld: the smallest "
                "measured, b = %d, peaked at %.1f MiB (baseline %.1f MiB included), over it\n", a->label[i],
                a->r->budget_mib, track_seq_len(a, i), p->batch, p->baseline_mib + p->rss_mib, p->baseline_mib);
        return EXIT_PLAN_DOES_NOT_FIT;
    }
    fprintf(stderr, "peakfit auto: %s: no micro-batch fits --budget %.1f MiB at seq_len %ld: no point was measured "
            "(see peaks.csv's status and error)\n", a->label[i], a->r->budget_mib, track_seq_len(a, i));
    return EXIT_NO_RESULT;
}

/* A track's lines; with --budget, a status other than EXIT_DONE when no
 * micro-batch fits it (nothing_within). */
static int print_summary(const struct auto_run *a, int i)
{
    const struct auto_fit *f = &a->fits[i];
    const char *t = a->label[i];
    int failed = f->n - f->n_ok;
    printf("%s: %d points measured, %d failed, %.0f s of worker time: %s\n", t, f->n, failed, f->wall_s, a->why[i]);
    if (a->r->slices)
        return EXIT_DONE;
    if (isfinite(f->a) && isfinite(f->a_rel))
        printf("%s: A = %.4f MiB/token (%s) +- %.2f%%, from %d points above the knee\n", t, f->a,
               metric_name(a->r->metric), 100 * f->a_rel, f->n_above);
    else if (isfinite(f->a))
        printf("%s: A = %.4f MiB/token (%s), no interval: %d points above the knee\n", t, f->a,
               metric_name(a->r->metric), f->n_above);
    if (isfinite(f->rss_a))
        printf("%s: RSS's A = %.4f MiB/token +- %.2f%% (the allocator's plus the heap's gap): %s\n", t, f->rss_a,
               100 * f->rss_a_rel, f->rss_a_rel <= a->r->target ? "within the target" : "not within the target");
    double peak = 0;
    int b = a->r->budget_mib > 0 ? auto_largest_within(f, a->r->budget_mib, &peak) : -1, over = 0;
    for (int k = 0; k < f->n; k++)
        over += f->pts[k].ok && f->pts[k].baseline_mib + f->pts[k].rss_mib > a->r->budget_mib;
    if (b > 0)
        printf("%s: the largest micro-batch within %.0f MiB at seq_len %ld: b = %d (measured peak %.1f MiB); "
               "%d runs, %d over the budget, %d failed\n", t, a->r->budget_mib, track_seq_len(a, i), b, peak, f->n, over,
               failed);
    else if (b == 0) {
        printf("%s: no micro-batch measured within %.0f MiB\n", t, a->r->budget_mib);
        fflush(stdout);
        return nothing_within(a, i);
    }
    return EXIT_DONE;
}

/* "full", "full/s128" with several seq_lens, "full/l2" for a slice. */
static void name_track(struct auto_run *a, int i)
{
    int n = snprintf(a->label[i], sizeof a->label[i], "%s", technique_name(track_technique(a, i)));
    if (a->r->n_seq_lens > 1)
        n += snprintf(a->label[i] + n, sizeof a->label[i] - (size_t)n, "/s%ld", track_seq_len(a, i));
    if (track_layers(a, i) > 0)
        snprintf(a->label[i] + n, sizeof a->label[i] - (size_t)n, "/l%d", track_layers(a, i));
}

static int run_rounds(struct auto_run *a)
{
    int rc = out_dir_prepare(a->r->dir), added = 1;
    if (rc != EXIT_DONE)
        return rc;
    snprintf(a->sweep, sizeof a->sweep, "%s/auto.sweep", a->r->dir);
    snprintf(a->csv, sizeof a->csv, "%s/peaks.csv", a->r->dir);
    a->started = monotonic_seconds();
    for (int i = 0; i < n_tracks(a); i++)
        name_track(a, i);
    rc = read_fits(a);
    while (rc == EXIT_DONE && added)
        rc = one_round(a, &added);
    /* Every track's summary, and the first that found nothing within the budget says how the command ends. */
    int found = EXIT_DONE;
    for (int i = 0; rc == EXIT_DONE && i < n_tracks(a); i++) {
        int one = print_summary(a, i);
        found = found == EXIT_DONE ? one : found;
    }
    rc = rc == EXIT_DONE ? found : rc;
    if (rc == EXIT_DONE && a->r->slices)
        rc = auto_slices_summary(a->r, a->spec.name, (int)a->spec.config.num_layers);
    return rc;
}

/* Budget mode, before anything is made or run: a budget below what the
 * parameters alone hold (weights, gradients, optimizer state, by
 * arithmetic; the baseline and every activation come on top) cannot hold
 * any micro-batch. It ran b = 1 anyway and exited 0. Returns 0, or -1
 * having said so. The sum is not the fixed cost, only what the parameters
 * hold: a budget above it may still hold no micro-batch, which the rounds
 * say when b = 1 measures over it (nothing_within). */
static int state_over_budget(const struct auto_run *a)
{
    if (a->r->budget_mib <= 0 || model_spec_is_label(&a->spec))
        return 0;
    for (int i = 0; i < a->r->n_techniques; i++) {
        pf_train_options o = auto_train_options(a->r, a->r->techniques[i]);
        pf_model_stats st = model_footprint(&a->spec.config, &o);
        double w = (double)st.weight_bytes / 1048576.0, g = (double)st.grad_bytes / 1048576.0,
               s = (double)st.optimizer_bytes / 1048576.0;
        if (w + g + s > a->r->budget_mib) {
            fprintf(stderr, "peakfit auto: --budget %.1f MiB is below what the parameters alone hold for %s: "
                    "weights %.1f + gradients %.1f + optimizer state %.1f = %.1f MiB (by arithmetic, before the "
                    "baseline and any activation): no micro-batch fits; nothing was run\n", a->r->budget_mib,
                    technique_name(a->r->techniques[i]), w, g, s, w + g + s);
            return -1;
        }
    }
    return 0;
}

int auto_rounds_run(const struct auto_request *r, const struct model_spec *spec)
{
    struct auto_run *a = calloc(1, sizeof *a);
    if (!a)
        return EXIT_IO;
    a->r = r;
    a->spec = *spec;
    int rc = state_over_budget(a) != 0 ? EXIT_BAD_INPUT : run_rounds(a);
    free(a);
    return rc;
}

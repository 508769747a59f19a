/* calibration.c: the worker's fit corrected by the user's command's points
 * at the same settings (reports/calibration.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "fit/group_choice.h"
#include "fit/group_predict.h"
#include "reports/calibration.h"
#include "util/name_list.h"

static int is_worker(const struct group_fit *g) { return !strcmp(g->key.measured_by, "worker"); }

int group_peer_of(const struct group_fit *w, const struct group_fit *c)
{
    if (!is_worker(w) || is_worker(c) || w->metric != c->metric)
        return 0;
    return group_axis_next_difference(&w->key, &c->key, GROUP_AXIS_measured_by, 0) == GROUP_AXIS_COUNT;
}

/* A command's group that could calibrate w, settings aside: the same
 * metric and technique, measured by a command (want's, where named). */
static int command_for(const struct group_fit *w, const struct group_fit *c, const char *want)
{
    return c->metric == w->metric && !is_worker(c) && !strcmp(c->key.technique, w->key.technique) &&
           (!want || !strcmp(c->key.measured_by, want));
}

/* The commands that measured w's technique in its metric, "a, b" in out
 * ("none" for none); peers only where peers_only. Returns how many. */
static int commands_listed(const struct fit_set *set, const struct group_fit *w, int peers_only, char *out,
                           size_t size)
{
    struct name_list l;
    name_list_start(&l, out, size);
    for (int i = 0; i < set->n_groups; i++) {
        const struct group_fit *c = &set->groups[i];
        if (command_for(w, c, NULL) && (!peers_only || group_peer_of(w, c)) && !name_list_has(&l, c->key.measured_by))
            name_list_add(&l, c->key.measured_by);
    }
    if (!l.n)
        snprintf(out, size, "none");
    return l.n;
}

/* Each axis on which c's settings are not w's: "attention eager (the
 * worker's sdpa)", joined. */
static const char *settings_apart(const struct group_fit *w, const struct group_fit *c, char *out, size_t size)
{
    struct name_list l;
    name_list_start(&l, out, size);
    for (int a = group_axis_next_difference(&w->key, &c->key, GROUP_AXIS_measured_by, 0); a < GROUP_AXIS_COUNT;
         a = group_axis_next_difference(&w->key, &c->key, GROUP_AXIS_measured_by, a + 1)) {
        char mine[256], worker[256];
        name_list_addf(&l, "%s %s (the worker's %s)", group_axis_field(a), group_axis_shown(&c->key, a, mine, sizeof mine),
                       group_axis_shown(&w->key, a, worker, sizeof worker));
    }
    return out;
}

/* Why no command calibrates w where none of want's is its peer: none
 * measured the technique in the metric, or one did at other settings. */
static void no_peer(const struct fit_set *set, const struct group_fit *w, const char *want, const char *key,
                    char *err, size_t errlen)
{
    char list[600], apart[600];
    for (int i = 0; i < set->n_groups; i++)
        if (command_for(w, &set->groups[i], want)) {
            snprintf(err, errlen, "%s: --process command: %s measured technique %s at other settings than the "
                     "worker's group %s: %s; a calibration needs the command at the worker's settings", set->dir,
                     set->groups[i].key.measured_by, w->key.technique, key,
                     settings_apart(w, &set->groups[i], apart, sizeof apart));
            return;
        }
    /* Named, the command may be misspelt: those that did measure it. */
    char named[700] = "";
    if (want && commands_listed(set, w, 0, list, sizeof list) > 0)
        snprintf(named, sizeof named, " (commands that did: %s)", list);
    snprintf(err, errlen, "%s: --process command: no command job%s%s%s measured technique %s (%s metric) to "
             "calibrate the worker's group %s by%s; run your command at a few of the worker's points in the same "
             "sweep (docs/own-script.md)", set->dir, want ? " \"" : "", want ? want : "", want ? "\"" : "",
             w->key.technique, metric_name(w->metric), key, named);
}

/* The one peer command group of w that calibrates it, or NULL with err set. */
static const struct group_fit *calibrating_group(const struct fit_set *set, const struct group_fit *w,
                                                 const char *want, char *err, size_t errlen)
{
    char key[400], list[600];
    const struct group_fit *c = NULL;
    group_key_format(&w->key, key, sizeof key);
    if (want && !strcmp(want, "worker")) {
        commands_listed(set, w, 1, list, sizeof list);
        snprintf(err, errlen, "%s: --process command calibrates the worker's fit by a command job's points: "
                 "--measured-by names that command, not worker (commands at the worker's settings: %s)", set->dir, list);
        return NULL;
    }
    for (int i = 0; i < set->n_groups && !c; i++)
        if (command_for(w, &set->groups[i], want) && group_peer_of(w, &set->groups[i]))
            c = &set->groups[i];
    if (!c)
        return no_peer(set, w, want, key, err, errlen), NULL;
    if (!want && commands_listed(set, w, 1, list, sizeof list) > 1) {
        snprintf(err, errlen, "%s: more than one command measured %s at the worker's settings: choose the one to "
                 "calibrate by with --measured-by (measured_bys: %s)", set->dir, key, list);
        return NULL;
    }
    if (c->n == 0) { /* a group read from fit.json: its points are not in the file */
        snprintf(err, errlen, "%s: --process command needs the points %s measured, and a fit.json holds none: give "
                 "the results directory (its peaks.csv)", set->dir, c->key.measured_by);
        return NULL;
    }
    if (c->n < CALIBRATION_POINTS_MIN) {
        snprintf(err, errlen, "%s: --process command: %s measured only %d point%s of %s at the worker's "
                 "settings: a calibration needs %d or more, for the correction's spread", set->dir,
                 c->key.measured_by, c->n, c->n == 1 ? "" : "s", key, CALIBRATION_POINTS_MIN);
        return NULL;
    }
    return c;
}

/* Where the command's points were measured: their batches and seq_lens,
 * and how many lie on the worker fit's floor. */
static void measured_range(struct calibration *cal, const struct group_fit *w, const struct group_fit *c)
{
    cal->min_batch = cal->max_batch = c->points[0]->batch;
    cal->min_seq_len = cal->max_seq_len = c->points[0]->seq_len;
    for (int i = 0; i < c->n; i++) {
        const struct observation *o = c->points[i];
        cal->on_floor += group_floor_binds(w, o->batch, o->seq_len);
        cal->min_batch = o->batch < cal->min_batch ? o->batch : cal->min_batch;
        cal->max_batch = o->batch > cal->max_batch ? o->batch : cal->max_batch;
        cal->min_seq_len = o->seq_len < cal->min_seq_len ? o->seq_len : cal->min_seq_len;
        cal->max_seq_len = o->seq_len > cal->max_seq_len ? o->seq_len : cal->max_seq_len;
    }
}

/* The correction is an offset, not a ratio. What a user's process holds
 * beyond the worker's at the same point is mostly what it holds besides the
 * step (an interpreter, its modules and their allocators' pools, a
 * wrapper's buffers), which does not grow with the batch: a Python
 * trainer's difference from the worker
 * (bench/results/process-term/term.txt, zero_grad zeros) fell from 205 to
 * 48 MiB while full training's peak grew from 2.9 to 6.7 GiB above its
 * baseline, and LoRA's was 202 MiB plus 3 % of the peak: neither is a
 * constant ratio. A ratio would scale that fixed part with the activations
 * and over-correct every plan past the points; and two or three points
 * cannot tell a slope from their noise, where an offset needs only their
 * mean and their spread. (bench/results/calibration-knee.txt: a Python
 * trainer's offset from three points, held at three larger ones, was 18-28
 * MiB too large there, the plan +2.9 % to +4.4 % on the safe side.) At each
 * point: the command's peak as the plan counts it (the metric's baseline
 * and the peak above it: on rss its whole process tree) less the worker
 * fit's figure there. */
static double correction_at(const struct group_fit *w, const struct group_fit *c, int i)
{
    const struct observation *o = c->points[i];
    double predicted = w->baseline_mib + group_predict(w, o->batch, o->seq_len, NULL);
    return group_metric_baseline(o, c->metric) + c->y[i] - predicted;
}

/* The corrections' mean, sd, range, the mean's standard error and a new
 * run's sd about the mean. */
static void correct(const struct group_fit *w, const struct group_fit *c, struct calibration *cal)
{
    double sum = 0, squares = 0;
    for (int i = 0; i < c->n; i++)
        sum += correction_at(w, c, i);
    cal->n = c->n;
    cal->mean_mib = sum / c->n;
    cal->lo_mib = cal->hi_mib = correction_at(w, c, 0);
    for (int i = 0; i < c->n; i++) {
        double d = correction_at(w, c, i);
        squares += (d - cal->mean_mib) * (d - cal->mean_mib);
        cal->lo_mib = fmin(cal->lo_mib, d);
        cal->hi_mib = fmax(cal->hi_mib, d);
    }
    cal->sd_mib = sqrt(squares / (c->n - 1));
    cal->se_mib = cal->sd_mib / sqrt(c->n);
    cal->new_run_mib = cal->sd_mib * sqrt(1 + 1.0 / c->n);
}

/* cal for the worker's group w from its peer c: the corrections, the
 * term (the mean over every peak; its spread a new run's at n - 1 dof: the
 * plan is for a run not yet made, whose own correction scatters about the
 * mean as the command's points did, not only the mean's error) and the
 * words of the plan's first line. */
static void calibration_fill(struct calibration *cal, const struct group_fit *w, const struct group_fit *c)
{
    memset(cal, 0, sizeof *cal);
    cal->command = c;
    correct(w, c, cal);
    measured_range(cal, w, c);
    cal->term = (struct process_term){.technique_class = "command", .offset_mib = cal->mean_mib,
                                      .sd_mib = cal->new_run_mib, .dof = cal->n - 1, .y_lo_mib = -INFINITY,
                                      .y_hi_mib = INFINITY, .measured_by = "the command's points beside the worker's"};
    snprintf(cal->words, sizeof cal->words, "your command's process: the worker's fit calibrated by %d points of %s, "
             "job %s", cal->n, c->key.measured_by, c->points[0]->job);
}

const struct process_term *plan_process_term(const struct fit_set *set, enum plan_process p,
                                             const struct group_fit *g, const char *want, struct calibration *cal,
                                             const char **words, char *err, size_t errlen)
{
    memset(cal, 0, sizeof *cal);
    /* A command's own fit is its own process, whichever process is asked
     * for: process_term_for says so for any process but the worker's. */
    if (p != PROCESS_COMMAND || !is_worker(g))
        return process_term_for(p == PROCESS_COMMAND ? PROCESS_PYTHON : p, g, words);
    const struct group_fit *c = calibrating_group(set, g, want, err, errlen);
    if (!c)
        return NULL;
    calibration_fill(cal, g, c);
    *words = cal->words;
    return &cal->term;
}

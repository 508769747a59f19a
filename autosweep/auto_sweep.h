/* auto_sweep.h: the automated sweep's request, and the sweep file it
 * writes into DIR before each round (DIR/auto.sweep): a [global] section
 * with the model, device, attention, seq_len and each list axis given
 * (with warm = 1 also steps = 1), and one job
 * [auto-TECHNIQUE] per technique listing every batch chosen so far (with
 * several seq_lens also [auto-TECHNIQUE-sS] per technique and further
 * seq_len S, so that a DIR measured at the first resumes with more; with
 * --slices [auto-TECHNIQUE-lN] per depth N, `layers = N`). It is
 * an ordinary sweep: `peakfit run DIR/auto.sweep -o DIR2` measures the
 * same points again, and `peakfit auto` with the same options resumes. */
#ifndef PEAKFIT_AUTO_SWEEP_H
#define PEAKFIT_AUTO_SWEEP_H
#include <stddef.h>
#include "fit/group_choice.h"
#include "fit/group_fit.h"
#include "core/technique.h"
#include "sweeps/sweep.h"

enum { AUTO_MAX_TECHNIQUES = 8, AUTO_MAX_SEQ_LENS = 4, AUTO_MAX_DEPTHS = 3 };

struct auto_request {
    const char *model_arg;   /* as given */
    const char *dir, *device, *attention;
    /* Each list axis whose value is a point's (a JOB_AXIS or JOB_TRAIN row
     * of settings/setting_rows.h: lora_rank, warm, optimizer, ...) as given
     * by its option, its sweep key's text (NULL: the key's default):
     * written into the sweep's [global], its training options', and its
     * points' alone fitted. --slices sets warm to 1 where --warm is not
     * given: the state made before one step (with steps = 1) reaches the
     * allocator level of a plain loop in half the time, not its RSS. */
    struct group_choice settings;
    pf_technique techniques[AUTO_MAX_TECHNIQUES];
    int n_techniques;
    long seq_len, threads, points;  /* seq_len: seq_lens[0] */
    /* --seq-len S[,S...]: with two or more, one job per technique and
     * seq_len ([auto-TECHNIQUE] at the first, [auto-TECHNIQUE-sS] with its
     * own seq_len at the others), each chosen as its
     * own, so that the fit has two shapes (RSS's heap gap has a
     * per-sample term: fit/group_gap.c) */
    long seq_lens[AUTO_MAX_SEQ_LENS];
    int n_seq_lens;
    double target;           /* A's relative 95% half-width to reach */
    double budget_mib;       /* > 0: find the largest micro-batch within it */
    double mem_limit_mib;    /* > 0: each point's mem_limit */
    double time_s;           /* > 0: no round starts after this long */
    double point_timeout_s;  /* > 0: each point's timeout (else the sweep's default) */
    enum metric metric;      /* what A is fitted to */
    /* --slices: each technique and seq_len measured on the model cut to
     * these depths (1, 2, 4 below the config's), the whole model fitted
     * from them (fit/depth_fit.h); else one depth, 0: the config's. */
    int slices;
    int depths[AUTO_MAX_DEPTHS], n_depths;
};

/* The batches of one technique's job, ascending. */
struct auto_job {
    pf_technique technique;
    long seq_len;             /* written in the job where the request has several */
    int layers;               /* a slice's depth (its job [auto-T-lN]); 0: the whole model */
    int batches[SWEEP_MAX_LIST];
    int n;
};

/* Writes the sweep at path atomically (sweeps/sweep_write.h's lines).
 * model is the preset or the canonical config path. Returns 0, -1 when the
 * file cannot be written, or -2 when a value (the model's path, say) would
 * read back otherwise, with the reason in err; nothing is written then. */
/* What technique t of the request trains with, as its sweep's jobs
 * will: the optimizer resolved for the device (its state is what the
 * budget and the slices' memory checks count), the settings given, the
 * keys' defaults for the rest. */
pf_train_options auto_train_options(const struct auto_request *r, pf_technique t);

/* Checks each of r->settings as its sweep key would read it: 0, or -1
 * with "--OPTION: what is wrong" in why. */
int auto_settings_check(const struct auto_request *r, char *why, size_t size);

/* Whether the request's points make the optimizer's state before one
 * step (warm = 1): the sweep then runs one step a point. */
int auto_warm(const struct auto_request *r);

/* Room for the texts of a track's group key, one per axis. */
typedef char auto_axis_texts[GROUP_AXIS_COUNT][64];
/* The group key texts of the points of the track of technique t at depth
 * layers (0: the whole model), as the sweep's points will write them:
 * each field's text from its row of the settings table (peaks.csv's,
 * the optimizer resolved), written into texts. model is the model's
 * display name. */
void auto_track_choice(const struct auto_request *r, const char *model, pf_technique t, int layers,
                       auto_axis_texts texts, struct group_choice *c);

int auto_sweep_write(const char *path, const char *model, const struct auto_request *r, const struct auto_job *jobs,
                     int n_jobs, char *err, size_t errlen);
#endif

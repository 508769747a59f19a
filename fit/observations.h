/* observations.h: the measured points of DIR/peaks.csv, as the fit uses
 * them. Only rows with status ok are observations; the others are kept as
 * failures (out of memory, timeout, ...) for the report. */
#ifndef PEAKFIT_OBSERVATIONS_H
#define PEAKFIT_OBSERVATIONS_H
#include "core/phase.h"
#include "settings/group_key.h"
#include "settings/peaks_columns.h"
#include "settings/setting_rows.h"
#include "sweeps/sweep.h"
#include "util/csv_table.h"
#include "util/rank_peaks.h"

struct observation {
    int line;              /* in peaks.csv */
    char job[SWEEP_NAME_MAX]; /* the sweep section it comes from (a command's job names its calibration) */
    /* the group key's fields (settings/group_key.h), as peaks.csv writes them:
     * model, device, technique, attention (empty in files from before its
     * column: eager then), lora_rank, lora_targets, warm, measured_by
     * ("worker" or "command HASH"); the others empty in files from before
     * their columns */
#define OBSERVATION_KEY_MEMBER(field, size, ...) char field[size];
    GROUP_KEY_ALL(OBSERVATION_KEY_MEMBER)
#undef OBSERVATION_KEY_MEMBER
    char status[16];
    int batch, seq_len;
    double tokens;
    double rss_mib;        /* peak RSS above baseline */
    double tensor_mib;     /* allocator-level peak of live tensor bytes */
    double baseline_mib;
    /* GPU rows (-1 elsewhere): the caching allocator's peaks, and what the
     * process held on the device outside it at the baseline */
    double gpu_allocated_mib, gpu_reserved_mib, gpu_context_mib;
    double weight_mib, grad_mib, optimizer_mib;
    double step_mean_s, step1_s, build_s, wall_s;
    int steps;
    double params, trainable_params;
    /* where it was measured (empty in files from before these columns) */
    char torch_version[32], blas[256], cpu_model[128];
    char model_source[4096]; /* the preset or config.json the model was built from (a slice's full depth) */
    int threads, blas_threads;
    /* on a GPU (empty elsewhere): its name, its driver, its memory (-1) */
    char gpu_name[128], driver_version[64];
    double gpu_total_mib;
    char error[512];       /* why a failed point failed, as its row says */
    /* per phase of a step (PF_PHASES: forward, backward, optimizer): the
     * allocator-level peak above the baseline and the RSS at its end
     * above the baseline; -1 when unknown (inference, older files) */
    double phase_mib[PF_PHASE_COUNT], phase_end_rss_mib[PF_PHASE_COUNT];
    /* on a GPU, the device allocator's allocated and reserved peak per
     * phase (absolute, as gpu_allocated_mib); -1 when unknown */
    double phase_gpu_allocated_mib[PF_PHASE_COUNT], phase_gpu_reserved_mib[PF_PHASE_COUNT];
    int holdout;           /* 1: measured to check the fit, kept out of it */
    /* a command job's: its whole tree's peak (-1: unknown) and, of a job of
     * several ranks, each rank's (util/rank_peaks.h; "" for one process) */
    double tree_peak_mib;
    char rank_peaks[RANK_PEAKS_TEXT];
};

struct observations {
    struct observation *ok;
    int n_ok;
    struct observation *failed; /* status other than ok */
    int n_failed;
    int n_bad;                  /* rows skipped as broken, already reported */
    int n_superseded;           /* rows of a point that a later row replaced */
};

/* Reads path (this version's peaks.csv, or an older version's, whose later
 * columns are then unknown). Broken rows are reported on stderr as
 * "FILE:LINE: skipped: ..." and skipped (the first 20, then a count). A
 * point with several rows is one observation, its last row's: each
 * earlier row is reported as "FILE:LINE: point ID again (first at line N):
 * the later row is used". Returns 0, or -1 with err set when the file
 * cannot be used (not a regular file, too large, another header). */
int observations_load(const char *path, struct observations *out, char *err, unsigned long errlen);
/* A peaks.csv row's fields by column. A column an older file lacks is
 * "" (unknown), but a setting's own column (settings/setting_rows.h,
 * NEW_COLUMN) holds its group key's usual value: the constant it was
 * before it was a setting, so old and new rows of it are one group. */
void observation_fields(const struct csv_row *row, const char *f[PEAKS_N_COLUMNS]);
void observations_free(struct observations *o);
/* The key of the group an observation belongs to (its fields of the key). */
void group_key_of(const struct observation *o, struct group_key *key);
#endif

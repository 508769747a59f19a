/* verify_sweep.c: the sweep verify writes for a plan: the settings of the
 * group's own rows in peaks.csv (every setting, as the sweep key that set
 * it), the plan's batches b and b + 1 at its seq_len, and mem_limit = the
 * budget less the fit's baseline; refused where the group's config changed
 * since it was measured. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "fit/observations.h"
#include "models/model_spec.h"
#include "point/point_fields.h"
#include "settings/peaks_columns.h"
#include "sweeps/sweep_write.h"
#include "util/exit_status.h"
#include "util/output_file.h"
#include "verify/verify_sweep.h"

/* Does a row of this version hold key, field by field? Each field of the
 * group key is named as the peaks.csv column it is read from. */
static int row_in_group(const char *const *f, const struct group_key *key)
{
#define SAME_FIELD(field, ...)                     \
    if (strcmp(f[PEAKS_COL_##field], key->field)) \
        return 0;
    GROUP_KEY_ALL(SAME_FIELD)
#undef SAME_FIELD
    return 1;
}

/* The fields of the group's first ok row of DIR/peaks.csv (by column,
 * observation_fields): how its points were measured. Rows from before a
 * column of the fixed ones do not say enough; 0, or -1 when none. */
int verify_group_row(const struct csv_table *t, const struct group_key *key, const char *f[PEAKS_N_COLUMNS])
{
    for (int r = 0; r < t->n_rows; r++) {
        if (t->rows[r].n_fields < PEAKS_N_FIXED_COLUMNS)
            continue;
        observation_fields(&t->rows[r], f);
        if (!strcmp(f[PEAKS_COL_status], "ok") && row_in_group(f, key))
            return 0;
    }
    return -1;
}

/* The config the group's rows were measured on is the one at its path now
 * (its config_hash; a preset has none): else verify would measure another
 * model against this fit, as resume refuses to mix it in. EXIT_DONE, or
 * EXIT_BAD_INPUT after saying so. */
int verify_same_config(const char *path, const char *const *f)
{
    const char *had = f[PEAKS_COL_config_hash], *source = f[PEAKS_COL_model_source];
    struct model_spec now;
    char err[4400], hash[32];
    if (!had[0])
        return EXIT_DONE;
    if (model_spec_read(source, &now, err, sizeof err) != 0)
        return fprintf(stderr, "peakfit: verify: %s\n", err), EXIT_BAD_INPUT;
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)now.config_hash);
    if (strcmp(hash, had) == 0)
        return EXIT_DONE;
    fprintf(stderr, "peakfit: verify: %s changed since %s was measured (config_hash %s there, %s now): the fit is "
            "another model's; measure this one with run, or restore the config\n", source, path, had, hash);
    return EXIT_BAD_INPUT;
}

/* Every setting of the group's row, as the sweep key that set it; the
 * plan sets the rest. An empty column is the key's default. */
static void write_settings(struct sweep_writer *w, const char *const *f, const struct calc_plan *p, double limit_mib)
{
    const struct point_field *pf;
    int batches[2] = {(int)p->max_micro_batch, (int)p->max_micro_batch + 1};
    sweep_write_comment(w, "Written by peakfit verify: the predicted largest micro-batch and the next size up,\n"
                           "under a memory limit of the budget less the fit's baseline.");
    sweep_write_section(w, "verify");
    for (int i = 0; (pf = point_field_at(i)); i++)
        if (pf->key && !(pf->uses & POINT_PLANNED) && f[pf->column][0])
            sweep_write_value(w, pf->key, f[pf->column]);
    sweep_write_ints(w, "batch", batches, 2);
    sweep_write_valuef(w, "seq_len", "%ld", p->seq_len);
    sweep_write_valuef(w, "mem_limit", "%.0fB", floor(limit_mib * 1048576));
}

int verify_write_sweep(const char *path, const char *const *f, const struct calc_plan *p, double limit_mib)
{
    char err[4400];
    struct output_file out;
    struct sweep_writer w;
    if (output_file_open(&out, path, err, sizeof err) != 0) {
        fprintf(stderr, "peakfit: %s\n", err);
        return EXIT_IO;
    }
    sweep_writer_start(&w, out.f, err, sizeof err);
    write_settings(&w, f, p, limit_mib);
    if (sweep_writer_end(&w) != 0) {
        output_file_abandon(&out);
        fprintf(stderr, "peakfit: %s\n", err);
        return EXIT_BAD_INPUT;
    }
    if (output_file_commit(&out, err, sizeof err) != 0) {
        fprintf(stderr, "peakfit: %s\n", err);
        return EXIT_IO;
    }
    return EXIT_DONE;
}

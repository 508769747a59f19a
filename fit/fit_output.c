/* fit_output.c: fit.csv, fit-residuals.csv and the printed table (fit.json
 * is fit_json.c's). Each CSV's
 * columns are one X-macro list: its header and its rows both walk it, after
 * the group key's own columns (GROUP_KEY_FIELDS). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "fit/fit_output.h"
#include "fit/fit_json.h"
#include "fit/phases.h"
#include "util/csv_table.h"
#include "util/exit_status.h"
#include "util/output_file.h"

/* One field to a CSV line; numbers that are not known are left empty. */
static void text_field(FILE *f, int *first, const char *text)
{
    char buf[2048];
    size_t n = csv_append_field(buf, 0, sizeof buf, text);
    fprintf(f, "%s%.*s", *first ? "" : ",", (int)n, buf);
    *first = 0;
}

static void number_field(FILE *f, int *first, double v)
{
    char text[48] = "";
    if (isfinite(v))
        snprintf(text, sizeof text, "%.6g", v);
    text_field(f, first, text);
}

static void key_fields(FILE *f, int *first, const struct group_fit *g)
{
#define KEY_FIELD(field, size, ...) text_field(f, first, g->key.field);
    GROUP_KEY_ALL(KEY_FIELD)
#undef KEY_FIELD
}

static void key_header(FILE *f)
{
#define KEY_NAME(field, size, ...) fprintf(f, "%s,", #field);
    GROUP_KEY_ALL(KEY_NAME)
#undef KEY_NAME
}

/* "64;128;256", or with per_sample "s=64:12.5;s=128:25.1" (A_sample). */
static const char *seq_list(const struct group_fit *g, char *out, size_t size, int per_sample)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < g->n_seq && used < size; i++) {
        if (per_sample && group_chosen(g))
            used += (size_t)snprintf(out + used, size - used, "%ss=%d:%.6g", i ? ";" : "", g->seq_lens[i],
                                     group_per_sample(g, g->seq_lens[i]));
        else
            used += (size_t)snprintf(out + used, size - used, "%s%d", i ? ";" : "", g->seq_lens[i]);
    }
    return out;
}

static const char *choice_name(const struct group_fit *g)
{
    const struct ols *c = group_chosen(g);
    return !c ? "none" : c->p == 3 ? "quadratic" : "linear";
}

/* Coefficient i of the chosen fit, its standard error, its 95% half-width;
 * NAN where the chosen model has no such coefficient. */
static double coef(const struct group_fit *g, int i)
{
    const struct ols *c = group_chosen(g);
    return c && i < c->p ? c->c[i] : NAN;
}
static double coef_se(const struct group_fit *g, int i)
{
    const struct ols *c = group_chosen(g);
    return c && i < c->p ? sqrt(c->cov[i][i]) : NAN;
}
static double coef_ci95(const struct group_fit *g, int i)
{
    const struct ols *c = group_chosen(g);
    return c && i < c->p ? ols_ci95(c, i) : NAN;
}
static double when_fitted(const struct group_fit *g, double v) { return group_chosen(g) ? v : NAN; }
static double knee_at_largest_s(const struct group_fit *g)
{
    return g->n_seq ? group_knee_tokens(g, g->seq_lens[g->n_seq - 1]) : NAN;
}

/* fit.csv after the key: X(name, TEXT or NUMBER, value from g, buf). */
#define FIT_COLUMNS(X)                                                  \
    X(metric, TEXT, metric_name(g->metric))                             \
    X(n, NUMBER, g->n)                                                  \
    X(seq_lens, TEXT, seq_list(g, buf, sizeof buf, 0))                  \
    X(model_choice, TEXT, choice_name(g))                               \
    X(F_mib, NUMBER, coef(g, 0))                                        \
    X(F_se_mib, NUMBER, coef_se(g, 0))                                  \
    X(F_ci95_mib, NUMBER, coef_ci95(g, 0))                              \
    X(A_mib_per_token, NUMBER, coef(g, 1))                              \
    X(A_se, NUMBER, coef_se(g, 1))                                      \
    X(A_ci95, NUMBER, coef_ci95(g, 1))                                  \
    X(B_mib_per_b_s2, NUMBER, coef(g, 2))                               \
    X(B_se, NUMBER, coef_se(g, 2))                                      \
    X(B_ci95, NUMBER, coef_ci95(g, 2))                                  \
    X(r2, NUMBER, group_chosen(g) ? group_chosen(g)->r2 : NAN)        \
    X(rmse_mib, NUMBER, when_fitted(g, g->rmse))                        \
    X(loo_rmse_mib, NUMBER, when_fitted(g, g->loo_rmse))                \
    X(loo_max_abs_mib, NUMBER, when_fitted(g, g->loo_max_abs))          \
    X(loo_n, NUMBER, g->loo_n)                                          \
    X(f_test_F, NUMBER, g->f_stat)                                      \
    X(f_test_p, NUMBER, g->f_p)                                         \
    X(aic_linear, NUMBER, g->aic_linear)                                \
    X(aic_quadratic, NUMBER, g->aic_quadratic)                          \
    X(weights_mib, NUMBER, g->weight_mib)                               \
    X(grads_mib, NUMBER, g->grad_mib)                                   \
    X(optimizer_mib, NUMBER, g->optimizer_mib)                          \
    X(overhead_mib, NUMBER, g->overhead_mib)                            \
    X(baseline_mib, NUMBER, g->baseline_mib)                            \
    X(A_sample_mib, TEXT, seq_list(g, buf, sizeof buf, 1))              \
    X(reason, TEXT, g->reason)                                          \
    X(floor, NUMBER, g->floor.found)                                    \
    X(floor_mib, NUMBER, g->floor.p_mib)                                \
    X(n_floor, NUMBER, g->floor.k)                                      \
    X(n_above_knee, NUMBER, g->n_above)                                 \
    X(knee_tokens, NUMBER, knee_at_largest_s(g))                        \
    X(floor_test_F, NUMBER, g->floor.f_stat)                            \
    X(floor_test_p, NUMBER, g->floor.f_p)                               \
    X(sigma_mib, NUMBER, when_fitted(g, g->sigma))                      \
    X(prediction_dof, NUMBER, g->dof)                                   \
    X(flags, TEXT, g->flags)

/* fit-residuals.csv after the key, one row per point i of g. */
#define RESIDUAL_COLUMNS(X)                                             \
    X(metric, TEXT, metric_name(g->metric))                             \
    X(batch, NUMBER, g->points[i]->batch)                               \
    X(seq_len, NUMBER, g->points[i]->seq_len)                           \
    X(tokens, NUMBER, g->points[i]->tokens)                             \
    X(observed_mib, NUMBER, g->y[i])                                    \
    X(predicted_mib, NUMBER, g->predicted[i])                           \
    X(residual_mib, NUMBER, g->y[i] - g->predicted[i])                  \
    X(loo_error_mib, NUMBER, g->loo_error[i])                           \
    X(bound, TEXT, g->on_floor[i] ? "floor" : "line")                   \
    X(peak_phase, TEXT, phase_name(group_peak_phase(g, i)))

#define COLUMN_NAME(name, kind, value) #name ","
#define WRITE_TEXT(value) text_field(f, &first, value)
#define WRITE_NUMBER(value) number_field(f, &first, value)
#define COLUMN_VALUE(name, kind, value) WRITE_##kind(value);

/* The header without its last comma. */
static void header(FILE *f, const char *names)
{
    key_header(f);
    fprintf(f, "%.*s\n", (int)strlen(names) - 1, names);
}

/* fit.csv ends with where the group was measured (fit/hardware.h). */
#define HARDWARE_NAME(field, size) #field ","
#define HARDWARE_VALUE(field, size) text_field(f, &first, g->hw.field);

static void fit_header(FILE *f) { header(f, FIT_COLUMNS(COLUMN_NAME) HARDWARE_FIELDS(HARDWARE_NAME)); }
static void residual_header(FILE *f) { header(f, RESIDUAL_COLUMNS(COLUMN_NAME)); }

static void write_fit_row(FILE *f, const struct group_fit *g)
{
    char buf[1200];
    int first = 1;
    key_fields(f, &first, g);
    FIT_COLUMNS(COLUMN_VALUE)
    HARDWARE_FIELDS(HARDWARE_VALUE)
    fputc('\n', f);
}

static void write_residual_rows(FILE *f, const struct group_fit *g)
{
    for (int i = 0; group_chosen(g) && i < g->n; i++) {
        int first = 1;
        key_fields(f, &first, g);
        RESIDUAL_COLUMNS(COLUMN_VALUE)
        fputc('\n', f);
    }
}

static int write_csv(const struct fit_set *set, const char *name, void (*head)(FILE *),
                     void (*rows)(FILE *, const struct group_fit *))
{
    char path[4200], err[4400];
    struct output_file out;
    snprintf(path, sizeof path, "%s/%s", set->dir, name);
    if (output_file_open(&out, path, err, sizeof err) != 0) {
        fprintf(stderr, "peakfit: %s\n", err);
        return -1;
    }
    head(out.f);
    for (int i = 0; i < set->n_groups; i++)
        rows(out.f, &set->groups[i]);
    if (output_file_commit(&out, err, sizeof err) != 0) {
        fprintf(stderr, "peakfit: %s\n", err);
        return -1;
    }
    return 0;
}

int fit_write_files(const struct fit_set *set)
{
    if (write_csv(set, "fit.csv", fit_header, write_fit_row) != 0 ||
        write_csv(set, "fit-residuals.csv", residual_header, write_residual_rows) != 0)
        return -1;
    return fit_json_write(set);
}

/* "value +- ci", or "value (exact)" when no residual dof is left. */
static void with_interval(char *out, size_t size, const char *fmt, const struct ols *c, int i)
{
    if (isfinite(ols_ci95(c, i)))
        snprintf(out, size, fmt, c->c[i], ols_ci95(c, i));
    else
        snprintf(out, size, "%.4g (n = p)", c->c[i]);
}

/* Where the knee is and which points it leaves to the line. */
static void print_floor(FILE *out, const char *key, const struct group_fit *g)
{
    if (!g->floor.found) {
        /* A fit from slices has no points of its own (n = 0): its slices' are the ones above the knee. */
        fprintf(out, "  %s: no floor: all %d points%s lie on the line (above the knee)\n", key,
                g->from_slices ? g->n_above : g->n, g->from_slices ? " of its slices" : "");
        return;
    }
    fprintf(out, "  %s: floor: peak = max(P %.1f MiB, the line); %d point%s on the floor, %d above the knee "
            "(at T = %.0f tokens, s=%d)\n", key, g->floor.p_mib, g->floor.k, g->floor.k == 1 ? "" : "s",
            g->n_above, knee_at_largest_s(g), g->seq_lens[g->n_seq - 1]);
    if (g->metric == METRIC_RSS && g->floor.slope != 0)
        fprintf(out, "  %s: the floor rises %.4g MiB/token (P at T = %.0f tokens, the mean of its points'): the "
                "heap keeps what backward freed\n", key, g->floor.slope, g->floor.t_mean);
}

/* What RSS's intervals add for the spread between runs, and from where. */
static void print_between_runs(FILE *out, const char *key, const struct group_fit *g)
{
    char what[300];
    group_run_spread_describe(g, what, sizeof what);
    fprintf(out, "  %s: RSS between runs: sd %s, in its prediction intervals\n", key, what);
}

void fit_print_table(const struct fit_set *set, FILE *out)
{
    char model[256], key[400];
    fprintf(out, "%-16s %-7s %-10s %-9s %3s %5s %-9s %20s %24s %22s %7s %9s\n", "model", "device", "technique",
            "metric", "n", "above", "fit", "F MiB (95% CI)", "A MiB/token (95% CI)", "B MiB/(b*s^2)", "R^2", "LOO MiB");
    for (int i = 0; i < set->n_groups; i++) {
        const struct group_fit *g = &set->groups[i];
        const struct ols *c = group_chosen(g);
        char F[48] = "-", A[48] = "-", B[48] = "-";
        if (c) {
            with_interval(F, sizeof F, "%.1f +- %.1f", c, 0);
            with_interval(A, sizeof A, "%.4g +- %.2g", c, 1);
            if (c->p == 3)
                with_interval(B, sizeof B, "%.3g +- %.2g", c, 2);
        }
        fprintf(out, "%-16.16s %-7s %-10s %-9s %3d %5d %-9s %20s %24s %22s %7.4f %9.2f\n",
                model_display_name(g->key.model, model, sizeof model), g->key.device, g->key.technique,
                metric_name(g->metric), g->n, g->n_above, choice_name(g), F, A, B, c ? c->r2 : NAN, c ? g->loo_rmse : NAN);
    }
    for (int i = 0; i < set->n_groups; i++) {
        const struct group_fit *g = &set->groups[i];
        group_key_format(&g->key, key, sizeof key);
        /* One group's notes per key: RSS's, which says the allocator
         * level's too; a fit from slices is the allocator level's alone. */
        int notes = g->metric == METRIC_RSS || g->from_slices;
        if (notes)
            fprintf(out, "  %s: %s\n", key, g->reason);
        if (notes && group_chosen(g))
            print_floor(out, key, g);
        if (g->metric == METRIC_RSS && group_chosen(g))
            print_between_runs(out, key, g);
        if (g->flags[0])
            fprintf(out, "  %s (%s): POOR FIT: %s\n", key, metric_name(g->metric), g->flags);
    }
    /* Whole lines before anything goes to stderr: stdout is a block
     * buffer in a pipe, and "wrote report.md" would land mid-line. */
    fflush(out);
}

/* fit_cmd.c: fit.csv, fit-residuals.csv and the printed table. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "fit/fit_cmd.h"
#include "util/csv_table.h"

static const char *fit_header =
    "model,device,technique,metric,n,seq_lens,model_choice,F_mib,F_se_mib,F_ci95_mib,"
    "A_mib_per_token,A_se,A_ci95,B_mib_per_b_s2,B_se,B_ci95,r2,rmse_mib,loo_rmse_mib,"
    "loo_max_abs_mib,loo_n,f_test_F,f_test_p,aic_linear,aic_quadratic,weights_mib,grads_mib,"
    "optimizer_mib,overhead_mib,baseline_mib,A_sample_mib,reason";

/* One field to a CSV line; numbers that are not known are left empty. */
static void field(FILE *f, const char *text, int first)
{
    char buf[1200];
    size_t n = csv_append_field(buf, 0, sizeof buf, text);
    fprintf(f, "%s%.*s", first ? "" : ",", (int)n, buf);
}

static void number(FILE *f, double v)
{
    char text[48] = "";
    if (isfinite(v))
        snprintf(text, sizeof text, "%.6g", v);
    field(f, text, 0);
}

static void seq_list(const struct group_fit *g, char *out, size_t size, int per_sample)
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
}

static void write_fit_row(FILE *f, const struct group_fit *g)
{
    const struct ols *c = group_chosen(g);
    int quad = c && c->p == 3;
    char text[600];
    field(f, g->model, 1);
    field(f, g->device, 0);
    field(f, g->technique, 0);
    field(f, metric_name(g->metric), 0);
    number(f, g->n);
    seq_list(g, text, sizeof text, 0);
    field(f, text, 0);
    field(f, !c ? "none" : quad ? "quadratic" : "linear", 0);
    for (int i = 0; i < 3; i++) {
        int have = c && (i < 2 || quad);
        number(f, have ? c->c[i] : NAN);
        number(f, have ? sqrt(c->cov[i][i]) : NAN);
        number(f, have ? ols_ci95(c, i) : NAN);
    }
    number(f, c ? c->r2 : NAN);
    number(f, c ? g->rmse : NAN);
    number(f, c ? g->loo_rmse : NAN);
    number(f, c ? g->loo_max_abs : NAN);
    number(f, g->loo_n);
    number(f, g->f_stat);
    number(f, g->f_p);
    number(f, g->aic_linear);
    number(f, g->aic_quadratic);
    double fixed[] = {g->weight_mib, g->grad_mib, g->optimizer_mib, g->overhead_mib, g->baseline_mib};
    for (int i = 0; i < 5; i++)
        number(f, fixed[i]);
    seq_list(g, text, sizeof text, 1);
    field(f, text, 0);
    field(f, g->reason, 0);
    fputc('\n', f);
}

static void write_residual_rows(FILE *f, const struct group_fit *g)
{
    for (int i = 0; group_chosen(g) && i < g->n; i++) {
        const struct observation *p = g->points[i];
        field(f, g->model, 1);
        field(f, g->device, 0);
        field(f, g->technique, 0);
        field(f, metric_name(g->metric), 0);
        number(f, p->batch);
        number(f, p->seq_len);
        number(f, p->tokens);
        number(f, g->y[i]);
        number(f, g->predicted[i]);
        number(f, g->y[i] - g->predicted[i]);
        number(f, g->loo_error[i]);
        fputc('\n', f);
    }
}

static int write_csv(const struct fit_set *set, const char *name, const char *header,
                     void (*row)(FILE *, const struct group_fit *))
{
    char path[700];
    snprintf(path, sizeof path, "%s/%s", set->dir, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "peakfit: %s: cannot write\n", path);
        return -1;
    }
    fprintf(f, "%s\n", header);
    for (int i = 0; i < set->n_groups; i++)
        row(f, &set->groups[i]);
    if (fclose(f) != 0) {
        fprintf(stderr, "peakfit: %s: cannot write\n", path);
        return -1;
    }
    return 0;
}

int fit_write_files(const struct fit_set *set)
{
    if (write_csv(set, "fit.csv", fit_header, write_fit_row) != 0)
        return -1;
    return write_csv(set, "fit-residuals.csv",
                     "model,device,technique,metric,batch,seq_len,tokens,observed_mib,predicted_mib,"
                     "residual_mib,loo_error_mib", write_residual_rows);
}

/* "value +- ci", or "value (exact)" when no residual dof is left. */
static void with_interval(char *out, size_t size, const char *fmt, const struct ols *c, int i)
{
    if (isfinite(ols_ci95(c, i)))
        snprintf(out, size, fmt, c->c[i], ols_ci95(c, i));
    else
        snprintf(out, size, "%.4g (n = p)", c->c[i]);
}

void fit_print_table(const struct fit_set *set, FILE *out)
{
    fprintf(out, "%-12s %-7s %-10s %-6s %3s %-9s %20s %24s %22s %7s %9s\n", "model", "device", "technique",
            "metric", "n", "model", "F MiB (95% CI)", "A MiB/token (95% CI)", "B MiB/(b*s^2)", "R^2", "LOO MiB");
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
        const char *model = strrchr(g->model, '/') ? strrchr(g->model, '/') + 1 : g->model;
        fprintf(out, "%-12.12s %-7s %-10s %-6s %3d %-9s %20s %24s %22s %7.4f %9.2f\n", model, g->device,
                g->technique, metric_name(g->metric), g->n, !c ? "none" : c->p == 3 ? "quadratic" : "linear",
                F, A, B, c ? c->r2 : NAN, c ? g->loo_rmse : NAN);
    }
    for (int i = 0; i < set->n_groups; i++)
        if (set->groups[i].metric == METRIC_RSS)
            fprintf(out, "  %s: %s\n", set->groups[i].technique, set->groups[i].reason);
}

int fit_main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: peakfit fit DIR\n");
        return 2;
    }
    struct fit_set set;
    if (fit_set_open(argv[1], &set) != 0)
        return 2;
    int rc = 2;
    if (set.n_groups == 0) {
        fprintf(stderr, "peakfit: %s/peaks.csv: no successful points to fit\n", argv[1]);
    } else {
        fit_print_table(&set, stdout);
        rc = fit_write_files(&set) == 0 ? 0 : 1;
    }
    fit_set_free(&set);
    return rc;
}

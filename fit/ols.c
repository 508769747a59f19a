/* ols.c: the design matrix X = [1, x1, x2] is built with each column scaled
 * to a largest value of 1, so that tokens (~1e3) and b*s^2 (~1e6) do not
 * make a well-posed problem look rank-deficient; coefficients and their
 * covariance are scaled back afterwards. */
#include <gsl/gsl_blas.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_multifit.h>
#include <math.h>
#include <string.h>
#include "fit/ols.h"

static double column_scale(const double *x, int n)
{
    double m = 0;
    for (int i = 0; i < n; i++)
        m = fmax(m, fabs(x[i]));
    return m > 0 ? m : 1;
}

static void fill_design(gsl_matrix *X, const double *const *cols, const double *scale, int p, int n)
{
    for (int i = 0; i < n; i++) {
        gsl_matrix_set(X, (size_t)i, 0, 1.0);
        for (int j = 1; j < p; j++)
            gsl_matrix_set(X, (size_t)i, (size_t)j, cols[j][i] / scale[j]);
    }
}

static void read_back(struct ols *f, const gsl_vector *c, const gsl_matrix *cov, const double *scale)
{
    for (int j = 0; j < f->p; j++) {
        f->c[j] = gsl_vector_get(c, (size_t)j) / scale[j];
        for (int k = 0; k < f->p; k++)
            f->cov[j][k] = gsl_matrix_get(cov, (size_t)j, (size_t)k) / (scale[j] * scale[k]);
    }
}

/* (X'X)^-1 of the scaled design, scaled back. GSL's covariance carries
 * chisq / (n - p), which is 0 for an exact fit, so it is computed here. */
static void inverse_gram(struct ols *f, const gsl_matrix *X, const double *scale)
{
    size_t p = (size_t)f->p;
    gsl_matrix *xtx = gsl_matrix_calloc(p, p), *inv = gsl_matrix_alloc(p, p);
    gsl_permutation *perm = gsl_permutation_alloc(p);
    int sign;
    gsl_blas_dgemm(CblasTrans, CblasNoTrans, 1.0, X, X, 0.0, xtx);
    gsl_linalg_LU_decomp(xtx, perm, &sign);
    gsl_linalg_LU_invert(xtx, perm, inv);
    for (int j = 0; j < f->p; j++)
        for (int k = 0; k < f->p; k++)
            f->xtx_inv[j][k] = gsl_matrix_get(inv, (size_t)j, (size_t)k) / (scale[j] * scale[k]);
    gsl_permutation_free(perm);
    gsl_matrix_free(inv);
    gsl_matrix_free(xtx);
}

double ols_total_sum_of_squares(const double *y, int n, double *mean_out)
{
    double mean = 0, tss = 0;
    for (int i = 0; i < n; i++)
        mean += y[i] / n;
    for (int i = 0; i < n; i++)
        tss += (y[i] - mean) * (y[i] - mean);
    if (mean_out)
        *mean_out = mean;
    return tss;
}

void ols_fit(const double *x1, const double *x2, const double *y, int n, struct ols *f)
{
    memset(f, 0, sizeof *f);
    f->n = n;
    f->p = x2 ? 3 : 2;
    if (n < f->p)
        return;
    const double *cols[OLS_MAX_P] = {NULL, x1, x2};
    double scale[OLS_MAX_P] = {1, column_scale(x1, n), x2 ? column_scale(x2, n) : 1};
    gsl_matrix *X = gsl_matrix_alloc((size_t)n, (size_t)f->p);
    gsl_vector_const_view yv = gsl_vector_const_view_array(y, (size_t)n);
    gsl_vector *c = gsl_vector_alloc((size_t)f->p);
    gsl_matrix *cov = gsl_matrix_alloc((size_t)f->p, (size_t)f->p);
    gsl_multifit_linear_workspace *work = gsl_multifit_linear_alloc((size_t)n, (size_t)f->p);
    fill_design(X, cols, scale, f->p, n);
    size_t rank = 0;
    double chisq = 0;
    gsl_multifit_linear_tsvd(X, &yv.vector, 1e-10, c, cov, &chisq, &rank, work);
    f->identifiable = rank == (size_t)f->p;
    if (f->identifiable) {
        /* GSL scales cov by chisq / (n - p); with no residual dof it is 0. */
        read_back(f, c, cov, scale);
        inverse_gram(f, X, scale);
        f->rss = chisq;
        double tss = ols_total_sum_of_squares(y, n, NULL);
        f->r2 = tss > 0 ? 1 - chisq / tss : 1;
        f->t975 = n > f->p ? gsl_cdf_tdist_Pinv(0.975, n - f->p) : NAN;
    }
    gsl_multifit_linear_free(work);
    gsl_matrix_free(cov);
    gsl_vector_free(c);
    gsl_matrix_free(X);
}

double ols_predict(const struct ols *f, double x1, double x2)
{
    return f->c[0] + f->c[1] * x1 + (f->p == 3 ? f->c[2] * x2 : 0);
}

double ols_leverage(const struct ols *f, double x1, double x2)
{
    double x[OLS_MAX_P] = {1, x1, x2}, v = 0;
    for (int j = 0; j < f->p; j++)
        for (int k = 0; k < f->p; k++)
            v += x[j] * f->xtx_inv[j][k] * x[k];
    return fmax(v, 0);
}

double ols_ci95(const struct ols *f, int i)
{
    return f->t975 * sqrt(f->cov[i][i]);
}

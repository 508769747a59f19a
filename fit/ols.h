/* ols.h: ordinary least squares y = c0 + c1 x1 [+ c2 x2] with GSL. */
#ifndef PEAKFIT_OLS_H
#define PEAKFIT_OLS_H

enum { OLS_MAX_P = 3 };

struct ols {
    int n, p;              /* observations, coefficients */
    int identifiable;      /* the design has full column rank */
    double c[OLS_MAX_P];
    double cov[OLS_MAX_P][OLS_MAX_P]; /* sigma^2 (X'X)^-1 */
    double xtx_inv[OLS_MAX_P][OLS_MAX_P]; /* (X'X)^-1: leverages, whatever sigma is (exact data too) */
    double rss, r2;
    double t975;           /* Student t quantile for 95% intervals, n - p dof */
};

/* x2 may be NULL for the straight line. Equal weights: repeats of a point
 * enter as separate observations. */
void ols_fit(const double *x1, const double *x2, const double *y, int n, struct ols *out);
double ols_predict(const struct ols *f, double x1, double x2);
/* The sum of squares of y's n values about their mean (into *mean_out, if given). */
double ols_total_sum_of_squares(const double *y, int n, double *mean_out);
/* The leverage of a point at (x1, x2): x' (X'X)^-1 x. A new measurement
 * there has variance sigma^2 (1 + leverage) about the prediction; a fitted
 * point's leave-one-out residual is its residual / (1 - leverage). */
double ols_leverage(const struct ols *f, double x1, double x2);
/* Half-width of the 95% confidence interval of coefficient i. */
double ols_ci95(const struct ols *f, int i);
#endif

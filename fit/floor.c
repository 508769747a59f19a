/* floor.c: the knee by segmented least squares. The profile over k runs
 * on running sums (normal equations of the scaled design, peaks centred),
 * so n points cost O(n log n), not n fits; the chosen split is then fitted
 * exactly (fit/ols.h) for the F-test. */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fit/floor.h"
#include "fit/ols.h"

struct ranked { double y; int i; };

static int by_peak(const void *a, const void *b)
{
    const struct ranked *p = a, *q = b;
    return p->y < q->y ? -1 : p->y > q->y ? 1 : p->i - q->i;
}

/* Running sums of the line's normal equations: z = [1, x1/s1, x2/s2]. */
struct sums { int p; double g[OLS_MAX_P][OLS_MAX_P], zy[OLS_MAX_P], yy; };

static void sums_add(struct sums *s, const double *z, double y)
{
    for (int j = 0; j < s->p; j++) {
        s->zy[j] += z[j] * y;
        for (int k = 0; k < s->p; k++)
            s->g[j][k] += z[j] * z[k];
    }
    s->yy += y * y;
}

/* The residual sum of squares of the least-squares line on the sums, by
 * Gaussian elimination with partial pivoting; -1 when singular. */
static double sums_rss(const struct sums *s)
{
    double a[OLS_MAX_P][OLS_MAX_P + 1], c[OLS_MAX_P];
    int p = s->p;
    for (int j = 0; j < p; j++) {
        memcpy(a[j], s->g[j], sizeof s->g[j]);
        a[j][p] = s->zy[j];
    }
    for (int col = 0; col < p; col++) {
        int piv = col;
        for (int r = col + 1; r < p; r++)
            piv = fabs(a[r][col]) > fabs(a[piv][col]) ? r : piv;
        if (fabs(a[piv][col]) < 1e-10 * fmax(s->g[0][0], 1))
            return -1;
        for (int k = 0; k <= p; k++) {
            double t = a[col][k];
            a[col][k] = a[piv][k], a[piv][k] = t;
        }
        for (int r = col + 1; r < p; r++) {
            double m = a[r][col] / a[col][col];
            for (int k = col; k <= p; k++)
                a[r][k] -= m * a[col][k];
        }
    }
    for (int j = p - 1; j >= 0; j--) {
        c[j] = a[j][p];
        for (int k = j + 1; k < p; k++)
            c[j] -= a[j][k] * c[k];
        c[j] /= a[j][j];
    }
    double fitted = 0;
    for (int j = 0; j < p; j++)
        fitted += c[j] * s->zy[j];
    return fmax(s->yy - fitted, 0);
}

static double scale_of(const double *x, int n)
{
    double m = 0;
    for (int i = 0; x && i < n; i++)
        m = fmax(m, fabs(x[i]));
    return m > 0 ? m : 1;
}

/* line_rss[m]: the line through the m largest peaks (-1: not fitted). */
static void line_profile(const double *x1, const double *x2, const struct ranked *r, int n, double mean,
                         double *line_rss)
{
    struct sums s = {.p = x2 ? 3 : 2};
    double s1 = scale_of(x1, n), s2 = scale_of(x2, n);
    line_rss[0] = -1;
    for (int m = 1; m <= n; m++) {
        int i = r[n - m].i;
        double z[OLS_MAX_P] = {1, x1[i] / s1, x2 ? x2[i] / s2 : 0};
        sums_add(&s, z, r[n - m].y - mean);
        line_rss[m] = m >= s.p ? sums_rss(&s) : -1;
    }
}

/* The k whose floor (the k smallest peaks) plus line has the least total
 * squared error; 0 when no split can be fitted. */
static int best_split(const double *x1, const double *x2, const struct ranked *r, int n, double *line_rss)
{
    double mean = 0, sum = 0, sq = 0, best = INFINITY;
    int best_k = 0;
    for (int i = 0; i < n; i++)
        mean += r[i].y / n;
    line_profile(x1, x2, r, n, mean, line_rss);
    for (int k = 1; k < n; k++) {
        double y = r[k - 1].y - mean;
        sum += y, sq += y * y;
        double floor_rss = fmax(sq - sum * sum / k, 0), line = line_rss[n - k];
        if (line >= 0 && floor_rss + line < best)
            best = floor_rss + line, best_k = k;
    }
    return best_k;
}

double floor_at(const struct floor_search *f, double tokens)
{
    return f->p_mib + (f->slope != 0 ? f->slope * (tokens - f->t_mean) : 0);
}

/* The floor through the points on it, all of *f written (callers copy it
 * whole): their mean, and with sloped set a rise per token where they
 * span two token counts or more and rise; the floor's residual sum of
 * squares. */
static double floor_line(const double *x1, const double *y, int n, const unsigned char *on_floor, int sloped,
                         struct floor_search *f)
{
    double sum = 0, tsum = 0, sxy = 0, sq = 0;
    *f = (struct floor_search){0};
    for (int i = 0; i < n; i++)
        if (on_floor[i])
            sum += y[i], tsum += x1[i], f->k++;
    f->p_mib = f->k ? sum / f->k : NAN;
    f->t_mean = f->k ? tsum / f->k : 0;
    for (int i = 0; i < n; i++)
        if (on_floor[i]) {
            f->t_sxx += (x1[i] - f->t_mean) * (x1[i] - f->t_mean);
            sxy += (x1[i] - f->t_mean) * (y[i] - f->p_mib);
        }
    if (sloped && f->t_sxx > 0 && sxy > 0)
        f->slope = sxy / f->t_sxx;
    for (int i = 0; i < n; i++)
        if (on_floor[i])
            sq += (y[i] - floor_at(f, x1[i])) * (y[i] - floor_at(f, x1[i]));
    return sq;
}

void floor_through(const double *x1, const double *y, int n, const unsigned char *on_floor, struct floor_search *out)
{
    floor_line(x1, y, n, on_floor, 1, out);
    out->found = out->k > 0;
    out->f_stat = out->f_p = NAN;
}

/* The exact fit of the split: the line on the points off the floor (x1,
 * x2, y compacted into the work arrays), the floor through the rest. */
static double split_rss(const double *x1, const double *x2, const double *y, int n, const unsigned char *on_floor,
                        int sloped, double *w1, double *w2, double *wy, struct floor_search *f)
{
    int m = 0;
    double sq = floor_line(x1, y, n, on_floor, sloped, f);
    for (int i = 0; i < n; i++)
        if (!on_floor[i])
            w1[m] = x1[i], w2[m] = x2 ? x2[i] : 0, wy[m++] = y[i];
    struct ols line;
    ols_fit(w1, x2 ? w2 : NULL, wy, m, &line);
    return line.identifiable ? line.rss + sq : NAN;
}

static void f_test(struct floor_search *out, double rss0, double rss1, int n, int p, double total_ss)
{
    int dof = n - p - 2;
    out->f_stat = out->f_p = NAN;
    if (dof < 1 || !isfinite(rss0) || !isfinite(rss1))
        return;
    /* Below this the difference is rounding: exact data on a straight line. */
    double tiny = 1e-10 * total_ss;
    if (rss0 - rss1 <= tiny)
        return;
    out->f_stat = rss1 > tiny ? (rss0 - rss1) / 2 / (rss1 / dof) : INFINITY;
    out->f_p = isinf(out->f_stat) ? 0 : gsl_cdf_fdist_Q(out->f_stat, 2, dof);
    out->found = out->f_p < FLOOR_P_MAX;
}

int floor_given(const double *x1, const double *x2, const double *y, int n, const unsigned char *on_floor,
                struct floor_search *out)
{
    memset(out, 0, sizeof *out);
    out->p_mib = out->f_stat = out->f_p = NAN;
    double *w = malloc(3 * (size_t)n * sizeof *w + 1);
    unsigned char *off = calloc((size_t)n + 1, 1);
    if (!w || !off) {
        free(w), free(off);
        return -1;
    }
    struct floor_search none, floor;
    double rss0 = split_rss(x1, x2, y, n, off, 0, w, w + n, w + 2 * n, &none);
    double rss1 = split_rss(x1, x2, y, n, on_floor, 1, w, w + n, w + 2 * n, &floor);
    int dof = n - (x2 ? 3 : 2) - 1 - (floor.slope != 0);
    if (floor.k > 0 && isnan(rss1) && floor.k < n) {
        /* Too few points left for the line: the evidence that marked the
         * floor stands alone (no test), and no line is fitted through a
         * point that lies on it. */
        *out = floor;
        out->found = 1;
        out->f_stat = out->f_p = NAN;
    } else if (floor.k > 0 && rss1 < rss0) {
        *out = floor;
        out->found = 1;
        out->f_stat = dof > 0 && rss1 > 0 ? (rss0 - rss1) / (rss1 / dof) : INFINITY;
        out->f_p = dof > 0 && isfinite(out->f_stat) ? gsl_cdf_fdist_Q(out->f_stat, 1, dof) : 0;
    }
    free(w), free(off);
    return 0;
}

int floor_find(const double *x1, const double *x2, const double *y, int n, struct floor_search *out,
               unsigned char *on_floor)
{
    memset(out, 0, sizeof *out);
    out->p_mib = out->f_stat = out->f_p = NAN;
    memset(on_floor, 0, (size_t)n);
    struct ranked *r = malloc((size_t)n * sizeof *r + 1);
    double *line_rss = malloc(((size_t)n + 1) * sizeof *line_rss), *w = malloc(3 * (size_t)n * sizeof *w + 1);
    if (!r || !line_rss || !w) {
        free(r), free(line_rss), free(w);
        return -1;
    }
    double mean = 0, total_ss = 0;
    for (int i = 0; i < n; i++)
        r[i] = (struct ranked){y[i], i}, mean += y[i] / n;
    for (int i = 0; i < n; i++)
        total_ss += (y[i] - mean) * (y[i] - mean);
    qsort(r, (size_t)n, sizeof *r, by_peak);
    int k = best_split(x1, x2, r, n, line_rss);
    if (k > 0) {
        struct floor_search none, floor;
        double rss0 = split_rss(x1, x2, y, n, on_floor, 0, w, w + n, w + 2 * n, &none);
        for (int j = 0; j < k; j++)
            on_floor[r[j].i] = 1;
        double rss1 = split_rss(x1, x2, y, n, on_floor, 0, w, w + n, w + 2 * n, &floor);
        f_test(out, rss0, rss1, n, x2 ? 3 : 2, total_ss);
        if (out->found)
            out->k = k, out->p_mib = floor.p_mib, out->t_mean = floor.t_mean, out->t_sxx = floor.t_sxx;
        else
            memset(on_floor, 0, (size_t)n);
    }
    free(r), free(line_rss), free(w);
    return 0;
}

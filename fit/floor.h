/* floor.h: peak = max(P, F + A*T (+ B*b*s^2)). At small batches something
 * that does not grow with tokens sets the peak: the optimizer step
 * (weights, gradients, AdamW state and its temporaries), late backward
 * (every gradient live and the embedding-gradient temporaries while the
 * activations are nearly gone), or both at once. Whatever makes it, the
 * points on that floor are the ones with the smallest peaks, so the search
 * profiles over k, the number of smallest peaks on the floor: P is their
 * mean, the line is fitted to the rest, and the k with the least total
 * squared error wins (segmented least squares). The floor is kept only
 * when an F-test against the line alone (two more parameters: P and the
 * knee) gives p < FLOOR_P_MAX. Points on the floor do not pull A. */
#ifndef PEAKFIT_FLOOR_H
#define PEAKFIT_FLOOR_H

/* Stricter than the usual 0.05: the knee is chosen among n candidates. */
#define FLOOR_P_MAX 0.01

struct floor_search {
    int found;          /* the floor beat the line alone */
    int k;              /* points on the floor (0 without one) */
    double p_mib;       /* P, the mean of their peaks (NAN without one) */
    /* A floor given its points (floor_given) may rise with tokens: RSS on
     * the floor is the allocator's floor plus the heap that kept what
     * backward freed, a share of the activations. P(T) = p_mib + slope *
     * (T - t_mean); slope 0 (flat) with one distinct T on the floor or a
     * slope that does not rise; t_sxx, the sum of (T - t_mean)^2 there,
     * gives a new point's leverage 1/k + (T - t_mean)^2 / t_sxx. */
    double slope, t_mean, t_sxx;
    /* the slope was not fitted but set from one token count on the floor:
     * RSS's rise over the allocator's floor taken as proportional to T
     * (fit/group_gap.c); it costs no residual degree of freedom */
    int proportional;
    /* what a new point's leverage has beyond 1/k at t_mean: a floor
     * extrapolated from elsewhere (a fit from slices, fit/depth_fit.h)
     * is that much less certain; 0 for a floor fitted where it is used */
    double extra_leverage;
    double f_stat, f_p; /* the F-test; NAN when it could not be done */
};

/* Searches n points (x1 = T, x2 = b*s^2 or NULL for the line alone, y the
 * peak). On success on_floor[i] (n entries) is 1 for the points on the
 * floor. Returns 0, or -1 when memory ran out. */
int floor_find(const double *x1, const double *x2, const double *y, int n, struct floor_search *out,
               unsigned char *on_floor);
/* The floor with its points given (on_floor, n entries), from the
 * allocator-level fit of the same points, whose counts are exact where
 * RSS is noisy: P is their mean here, rising with T where the points on
 * it span two token counts or more and their peaks rise with T, and the
 * floor is kept when it fits better than the line alone, or when too few
 * points are left to fit the line (then untested: f_p is NAN). Returns 0,
 * or -1 when memory ran out. */
int floor_given(const double *x1, const double *x2, const double *y, int n, const unsigned char *on_floor,
                struct floor_search *out);
/* The floor through the points marked on it (n entries): their mean,
 * rising with T where they span two token counts or more and rise; found
 * where any point is on it, untested (f_p NAN). */
void floor_through(const double *x1, const double *y, int n, const unsigned char *on_floor, struct floor_search *out);
/* The floor's peak at T tokens (P where it is flat). */
double floor_at(const struct floor_search *f, double tokens);
#endif

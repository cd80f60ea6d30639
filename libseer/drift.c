/* Measurement-order drift (see drift.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "drift.h"

/* Median of v[0..n-1], reordering it. */
static double median(double *v, int n)
{
    seer_sort_doubles(v, (size_t)n);
    return seer_median_sorted(v, (size_t)n);
}

/* 3x3 normal equations by Cramer's rule: small, exact enough, no pivoting
 * worries for u in [0, 1) with hundreds of rows. */
static int solve3(const double A[3][3], const double b[3], double x[3])
{
    double det = A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) -
                 A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
                 A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
    if (!(fabs(det) > 1e-300)) return 0;
    for (int k = 0; k < 3; k++) {
        double M[3][3];
        memcpy(M, A, sizeof M);
        for (int i = 0; i < 3; i++) M[i][k] = b[i];
        x[k] = (M[0][0] * (M[1][1] * M[2][2] - M[1][2] * M[2][1]) -
                M[0][1] * (M[1][0] * M[2][2] - M[1][2] * M[2][0]) +
                M[0][2] * (M[1][0] * M[2][1] - M[1][1] * M[2][0])) / det;
    }
    return 1;
}

static double poly(const double c[3], double u) { return c[0] + u * (c[1] + u * c[2]); }

int seer_drift_fit(const double *pos, const double *resid, int n, seer_drift_t *d)
{
    memset(d, 0, sizeof *d);
    if (!pos || !resid || n < SEER_DRIFT_MIN_ROWS) return 0;
    double *v = malloc((size_t)n * sizeof *v);
    if (!v) return 0;
    memcpy(v, resid, (size_t)n * sizeof *v);
    double med = median(v, n);
    for (int i = 0; i < n; i++) v[i] = fabs(resid[i] - med);
    double mad = median(v, n), lo = med - 5 * mad, hi = med + 5 * mad;
    double A[3][3] = {{0}}, b[3] = {0}, s = 0, ss = 0;
    for (int i = 0; i < n; i++) {
        double y = resid[i] < lo ? lo : resid[i] > hi ? hi : resid[i];
        double x[3] = {1, pos[i], pos[i] * pos[i]};
        v[i] = y;
        for (int r = 0; r < 3; r++) {
            b[r] += x[r] * y;
            for (int c = 0; c < 3; c++) A[r][c] += x[r] * x[c];
        }
        s += y;
        ss += y * y;
    }
    int ok = solve3(A, b, d->c);
    double var = ss - s * s / n, rss = 0;
    for (int i = 0; ok && i < n; i++) {
        double e = v[i] - poly(d->c, pos[i]);
        rss += e * e;
        v[i] = poly(d->c, pos[i]);
    }
    /* Center on the typical row: the median of the trend over the rows
     * (robust like the clipping; the trend is convex, its mean sits
     * above most rows). */
    d->center = ok ? median(v, n) : 0;
    free(v);
    if (!ok || !(var > 0)) return 0;
    d->r2 = 1 - rss / var;
    d->lo = INFINITY;
    d->hi = -INFINITY;
    for (int i = 0; i <= 100; i++) {
        double t = seer_drift_at(d, i / 100.0);
        if (t < d->lo) d->lo = t;
        if (t > d->hi) d->hi = t;
    }
    return d->r2 >= SEER_DRIFT_MIN_R2;
}

double seer_drift_at(const seer_drift_t *d, double u) { return poly(d->c, u) - d->center; }

double seer_drift_correct(const seer_drift_t *d, double u, double time_ms)
{
    double t = time_ms - seer_drift_at(d, u);
    return t > 0.5 * time_ms ? t : 0.5 * time_ms;
}

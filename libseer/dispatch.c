/* Host dispatch in published timings (see dispatch.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "dispatch.h"

static double poly(const double c[3], double u) { return c[0] + u * (c[1] + u * c[2]); }

/* Least-squares quadratic through the points with use[i] set. */
static int fit_quadratic(const double *u, const double *y, const int *use, int n, double c[3])
{
    double A[3][4] = {{0}};
    for (int i = 0; i < n; i++) {
        if (!use[i]) continue;
        double x[3] = {1, u[i], u[i] * u[i]};
        for (int r = 0; r < 3; r++) {
            for (int k = 0; k < 3; k++) A[r][k] += x[r] * x[k];
            A[r][3] += x[r] * y[i];
        }
    }
    /* Gauss-Jordan with partial pivoting on 3x4. */
    for (int col = 0; col < 3; col++) {
        int p = col;
        for (int r = col + 1; r < 3; r++) if (fabs(A[r][col]) > fabs(A[p][col])) p = r;
        if (!(fabs(A[p][col]) > 1e-12)) return 0;
        for (int k = 0; k < 4; k++) { double t = A[col][k]; A[col][k] = A[p][k]; A[p][k] = t; }
        for (int r = 0; r < 3; r++) {
            if (r == col) continue;
            double f = A[r][col] / A[col][col];
            for (int k = col; k < 4; k++) A[r][k] -= f * A[col][k];
        }
    }
    for (int r = 0; r < 3; r++) c[r] = A[r][3] / A[r][r];
    return 1;
}

/* Median absolute value of the residuals of the used points. */
static double mad_of(const double *u, const double *y, const int *use, int n, const double c[3],
                     double *scratch)
{
    int m = 0;
    for (int i = 0; i < n; i++)
        if (use[i]) scratch[m++] = fabs(y[i] - poly(c, u[i]));
    seer_sort_doubles(scratch, (size_t)m);
    return seer_median_sorted(scratch, (size_t)m);
}

int seer_dispatch_fit(const double *pos, const double *time_ms, const double *gpu_floor_ms, int n,
                      seer_dispatch_t *d)
{
    enum { WMAX = SEER_DISPATCH_WINDOWS, WMIN = 8, ROWS = 100 };
    memset(d, 0, sizeof *d);
    if (!pos || !time_ms || !gpu_floor_ms || n < SEER_DISPATCH_MIN_ROWS) return 0;
    /* Windows of at least ROWS rows where the file allows, so that each
     * holds a call whose GPU time is a few microseconds whatever the
     * file's length: 25 windows of a 750-row sample of NeuSight's A100
     * file held 30 rows each, and their minima sat above the host time
     * (0.087..0.375 ms, typical 0.159, against 0.061..0.354 and 0.140
     * from the whole file; its published-time MAPE 14.4 %, now 13.9). */
    int W = n / ROWS < WMIN ? WMIN : n / ROWS > WMAX ? WMAX : n / ROWS;
    double u[WMAX], y[WMAX], scratch[WMAX];
    int use[WMAX];
    for (int w = 0; w < W; w++) {
        int lo = (int)((long long)n * w / W), hi = (int)((long long)n * (w + 1) / W), best = lo;
        for (int i = lo; i < hi; i++)
            if (time_ms[i] - gpu_floor_ms[i] < time_ms[best] - gpu_floor_ms[best]) best = i;
        y[w] = fmax(time_ms[best] - gpu_floor_ms[best], 0);
        /* the window's middle, not its minimum's place: the minimum sits
         * early in a window whose host time drifts more than a call's
         * jitter (a synthetic file of 9 windows came out 0.018 ms low),
         * but on NeuSight's files, whose jitter is 10-20 us, the middle
         * scored better (the three 20 % samples of the A100 file
         * 13.9 / 13.4 / 13.4 % against 14.2 / 13.6 / 13.5) */
        u[w] = 0.5 * (pos[lo] + pos[hi - 1]);
        use[w] = 1;
    }
    /* A window whose fastest call is not small sits above the host time:
     * drop what lies far above the fit.  A minimum undershoots it by no
     * more than the jitter, so one far below is a broken row: drop it
     * too.  The first fit is the windows' median, a constant: a least-
     * squares start through every window was pulled up by the last
     * windows of a file sorted by size (NeuSight's GEMM files end in
     * large products only, whose minima are GPU time: 1.2-2.8 ms in
     * the T4's nn.Linear rows against 0.04 of host), and kept them. */
    for (int w = 0; w < W; w++) scratch[w] = y[w];
    seer_sort_doubles(scratch, W);
    d->c[0] = seer_median_sorted(scratch, W);
    d->c[1] = d->c[2] = 0;
    for (int pass = 0; pass < 5; pass++) {
        double s = 1.4826 * mad_of(u, y, use, W, d->c, scratch);
        double cut = 3 * fmax(s, 0.002);
        int nu[WMAX], k = 0; /* the new mask: kept only with the refit it gives */
        for (int w = 0; w < W; w++) k += nu[w] = fabs(y[w] - poly(d->c, u[w])) <= cut;
        double c[3];
        if (k < 6 || !fit_quadratic(u, y, nu, W, c)) break;
        memcpy(d->c, c, sizeof c);
        memcpy(use, nu, (size_t)W * sizeof *use);
    }
    d->windows = W;
    for (int w = 0; w < W; w++) d->kept += use[w];
    d->spread = 1.4826 * mad_of(u, y, use, W, d->c, scratch);
    double *v = malloc((size_t)n * sizeof *v);
    if (!v) return 0;
    for (int i = 0; i < n; i++) v[i] = seer_dispatch_at(d, pos[i]);
    seer_sort_doubles(v, (size_t)n);
    d->median = seer_median_sorted(v, (size_t)n);
    free(v);
    return 1;
}

int seer_dispatch_remove(const double *pos, double *time_ms, const double *gpu_floor_ms, int n,
                         unsigned char *keep, seer_dispatch_t *d)
{
    if (!seer_dispatch_fit(pos, time_ms, gpu_floor_ms, n, d)) return 0;
    seer_dispatch_take_off(d, pos, time_ms, gpu_floor_ms, n, keep);
    return 1;
}

void seer_dispatch_take_off(const seer_dispatch_t *d, const double *pos, double *time_ms, const double *gpu_floor_ms,
                            int n, unsigned char *keep)
{
    for (int i = 0; i < n; i++) {
        double host = seer_dispatch_at(d, pos[i]), t = time_ms[i] - host;
        keep[i] = t >= SEER_DISPATCH_RESOLVE * d->spread && t >= 0.5 * host && t >= gpu_floor_ms[i];
        time_ms[i] = t > gpu_floor_ms[i] ? t : gpu_floor_ms[i];
    }
}

double seer_dispatch_at(const seer_dispatch_t *d, double u)
{
    double t = poly(d->c, u);
    return t > 0 ? t : 0;
}

/* Any case: a file converted elsewhere may write "NeuSight"; taken for
 * GPU time, its host-laden rows trained and scored as if it were none. */
int seer_source_has_dispatch(const char *source)
{
    return source && seer_strneq_ci(source, "neusight", 8);
}

int seer_source_cudnn_major(const char *source)
{
    for (const char *p = source; p && *p; p++) {
        if (!seer_strneq_ci(p, "cudnn", 5)) continue;
        const char *q = p + 5;
        if (*q == '-' || *q == '_' || *q == ' ') q++;
        if (*q == 'v' || *q == 'V') q++;
        long v = *q >= '1' && *q <= '9' ? strtol(q, NULL, 10) : 0;
        if (v > 0 && v <= 99) return (int)v;
    }
    return 0;
}

seer_status_t seer_dispatch_estimate(seer_handle_t h, const double *pos, const double *time_ms,
                                     const double *floor_ms, int n, seer_dispatch_t *d)
{
    if (!d) return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_dispatch_estimate: d is NULL");
    if (n < 0) return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_dispatch_estimate: n is %d (a count, at least 0)", n);
    if (n > 0 && (!pos || !time_ms || !floor_ms))
        return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_dispatch_estimate: pos, time_ms or floor_ms is NULL");
    /* the fit's windows are runs of rows along the file and its curve a
     * function of the place in [0, 1): rows out of order or out of range,
     * or a time that is no time, would give an estimate of nothing */
    for (int i = 0; i < n; i++) {
        if (!(pos[i] >= 0 && pos[i] < 1))
            return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_dispatch_estimate: pos[%d] is %g, outside [0, 1)", i,
                              pos[i]);
        if (i && pos[i] < pos[i - 1])
            return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_dispatch_estimate: pos[%d] is %g, below pos[%d] = %g "
                              "(positions ascend)", i, pos[i], i - 1, pos[i - 1]);
        if (!(time_ms[i] >= 0 && isfinite(time_ms[i])))
            return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_dispatch_estimate: time_ms[%d] is %g (a finite time "
                              ">= 0)", i, time_ms[i]);
        if (!(floor_ms[i] >= 0 && isfinite(floor_ms[i])))
            return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_dispatch_estimate: floor_ms[%d] is %g (a finite time "
                              ">= 0)", i, floor_ms[i]);
    }
    /* no estimate (too few rows, or memory) leaves windows at 0: a file
     * without one is scored without host time, which is no error */
    if (!seer_dispatch_fit(pos, time_ms, floor_ms, n, d)) d->windows = 0;
    return SEER_STATUS_SUCCESS;
}

seer_status_t seer_dispatch_host_ms(const seer_dispatch_t *d, double u, double *ms)
{
    /* a caller's struct may hold anything: an answer only where the
     * curve is defined and finite, never inf or NaN with SUCCESS */
    if (!d || !ms || !(u >= 0 && u <= 1) || !isfinite(d->c[0]) || !isfinite(d->c[1]) || !isfinite(d->c[2]))
        return SEER_STATUS_BAD_PARAM;
    double t = seer_dispatch_at(d, u);
    if (!isfinite(t)) return SEER_STATUS_BAD_PARAM;
    *ms = t;
    return SEER_STATUS_SUCCESS;
}

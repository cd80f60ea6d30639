/* Measurement-order drift: an additive trend in a timing file's row order.
 *
 * The NeuSight timings carry an overhead that grows with the position of a
 * row in its file (about +0.3 ms from first row to last on every GPU, the
 * same for small and large convolutions), so it is a property of when a
 * row was measured, not of its shape (docs/method.md, "Measurement-order
 * drift").  Training removes the trend before the final fit; seer eval
 * --detrend reports accuracy against drift-corrected times. */
#ifndef SEER_DRIFT_H
#define SEER_DRIFT_H

#define SEER_DRIFT_MIN_ROWS 500   /* fewer rows: no trend is fitted */
#define SEER_DRIFT_MIN_R2 0.02    /* share of residual variance the trend must explain */

typedef struct {
    double c[3];                /* trend(u) = c0 + c1 u + c2 u^2, ms; u = row position in [0, 1) */
    double center;              /* median of the trend over the fitted rows */
    double lo, hi;              /* range of trend - center over [0, 1], ms */
    double r2;                  /* share of the (clipped) residual variance it explains */
} seer_drift_t;

/* Fit the quadratic trend of residuals resid[i] = measured - predicted
 * (ms) against row positions pos[i] in [0, 1).  Residuals are clipped to
 * the median +- 5 median absolute deviations first, so a few bad rows do
 * not bend it.  Returns 1 and fills *d when there are at least
 * SEER_DRIFT_MIN_ROWS rows and the trend explains at least
 * SEER_DRIFT_MIN_R2 of the residual variance; 0 otherwise (no drift). */
int seer_drift_fit(const double *pos, const double *resid, int n, seer_drift_t *d);

/* The centered trend at position u (ms): what to subtract from a measured
 * time to remove the drift while keeping the overhead of the file's
 * typical (median) row. */
double seer_drift_at(const seer_drift_t *d, double u);

/* A measured time with the drift removed, never below half of it. */
double seer_drift_correct(const seer_drift_t *d, double u, double time_ms);
#endif

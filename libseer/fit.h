/* Least squares on relative error with non-negative coefficients: SEER's
 * fitting criterion (small kernels count as much as big ones; negative
 * times are not physical).  Shared by the conv and GEMM models. */
#ifndef SEER_FIT_H
#define SEER_FIT_H

#define SEER_FIT_MAX 8

typedef struct {
    int n;                      /* number of terms */
    unsigned fixed;             /* terms whose coefficient is 1, not fitted */
    double G[SEER_FIT_MAX][SEER_FIT_MAX], g[SEER_FIT_MAX]; /* normal equations of a = x / y */
} seer_relfit_t;

/* Start a fit; terms in `fixed` (bit i for term i) keep coefficient 1:
 * the fit explains what they leave of each measurement. */
void seer_relfit_init(seer_relfit_t *f, int nterms, unsigned fixed);
/* Add one measurement: terms x[0..n-1], measured y > 0. */
void seer_relfit_add(seer_relfit_t *f, const double *x, double y);
/* coef >= 0 minimizing sum((x.coef / y - 1)^2); terms outside mask (bit i
 * for term i) and terms that are zero on every row stay 0, fixed terms 1.  Active set:
 * drop the most negative coefficient and solve again. */
void seer_relfit_solve(const seer_relfit_t *f, unsigned mask, double *coef);
#endif

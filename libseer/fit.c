/* Relative least squares with non-negative coefficients (see fit.h). */
#include <math.h>
#include <string.h>
#include "fit.h"

void seer_relfit_init(seer_relfit_t *f, int nterms, unsigned fixed)
{
    memset(f, 0, sizeof *f);
    f->n = nterms < SEER_FIT_MAX ? nterms : SEER_FIT_MAX;
    f->fixed = fixed;
}

void seer_relfit_add(seer_relfit_t *f, const double *x, double y)
{
    double a[SEER_FIT_MAX], b = 1; /* the share of y the fitted terms must explain */
    for (int i = 0; i < f->n; i++) {
        a[i] = x[i] / y;
        if (f->fixed >> i & 1) b -= a[i];
    }
    for (int i = 0; i < f->n; i++) {
        f->g[i] += a[i] * b;
        for (int j = 0; j < f->n; j++) f->G[i][j] += a[i] * a[j];
    }
}

/* Gaussian elimination with partial pivoting on the n x (n+1) system. */
static int solve(int n, double A[SEER_FIT_MAX][SEER_FIT_MAX + 1], double *b)
{
    for (int c = 0; c < n; c++) {
        int p = c;
        for (int i = c + 1; i < n; i++) if (fabs(A[i][c]) > fabs(A[p][c])) p = i;
        if (fabs(A[p][c]) < 1e-300) return 0;
        for (int j = 0; j <= n; j++) { double t = A[c][j]; A[c][j] = A[p][j]; A[p][j] = t; }
        for (int i = 0; i < n; i++) {
            if (i == c) continue;
            double m = A[i][c] / A[c][c];
            for (int j = c; j <= n; j++) A[i][j] -= m * A[c][j];
        }
    }
    for (int i = 0; i < n; i++) b[i] = A[i][n] / A[i][i];
    return 1;
}

void seer_relfit_solve(const seer_relfit_t *f, unsigned mask, double *coef)
{
    int active[SEER_FIT_MAX], na = 0;
    for (int i = 0; i < f->n; i++)
        if (f->G[i][i] > 0 && (mask >> i & 1) && !(f->fixed >> i & 1)) active[na++] = i;
    for (int i = 0; i < f->n; i++) coef[i] = f->fixed >> i & 1;
    while (na > 0) {
        double A[SEER_FIT_MAX][SEER_FIT_MAX + 1], b[SEER_FIT_MAX];
        for (int i = 0; i < na; i++) {
            for (int j = 0; j < na; j++)
                A[i][j] = f->G[active[i]][active[j]] +
                          (i == j ? 1e-9 * f->G[active[i]][active[i]] : 0); /* tiny ridge */
            A[i][na] = f->g[active[i]];
        }
        if (!solve(na, A, b)) { na--; continue; }
        int worst = -1;
        for (int i = 0; i < na; i++) if (b[i] < 0 && (worst < 0 || b[i] < b[worst])) worst = i;
        if (worst < 0) {
            for (int i = 0; i < na; i++) coef[active[i]] = b[i];
            return;
        }
        for (int i = worst; i < na - 1; i++) active[i] = active[i + 1];
        na--;
    }
}

/* fit.c: relative least squares with non-negative coefficients.  Exact
 * recovery from noiseless data, the active set dropping a coefficient
 * that would be negative, the mask, degenerate and collinear terms, and
 * the relative criterion's indifference to each row's scale. */
#include "fit.h"
#include "test.h"

/* A fixed pseudo-random stream in [0, 1): the tests need no seed. */
static double rnd(unsigned *s)
{
    *s = *s * 1664525u + 1013904223u;
    return (*s >> 8) / 16777216.0;
}

/* Gradient of sum((x.coef / y - 1)^2) / 2 in term i, from the normal
 * equations: zero at the optimum of the terms left free. */
static double grad(const seer_relfit_t *f, const double *coef, int i)
{
    double s = -f->g[i];
    for (int j = 0; j < f->n; j++) s += f->G[i][j] * coef[j];
    return s;
}

TEST(fit_exact_recovery_noiseless)
{
    seer_relfit_t f;
    seer_relfit_init(&f, 3, 0);
    CHECK(f.n == 3);
    unsigned s = 1;
    for (int r = 0; r < 50; r++) {
        double x[3] = {1 + 99 * rnd(&s), 0.5 + 20 * rnd(&s), 1};
        seer_relfit_add(&f, x, 2 * x[0] + 0.5 * x[1] + 3 * x[2]);
    }
    double c[3] = {-1, -1, -1};
    seer_relfit_solve(&f, ~0u, c);
    CHECK_NEAR(c[0], 2, 1e-6);
    CHECK_NEAR(c[1], 0.5, 1e-6);
    CHECK_NEAR(c[2], 3, 1e-6);
    /* the same fit twice is the same to the bit */
    double d[3];
    seer_relfit_solve(&f, ~0u, d);
    CHECK(memcmp(c, d, sizeof c) == 0);
}

TEST(fit_active_set_zeroes_negative_coefficient)
{
    /* y = 3 x0 - x1 exactly: least squares wants c1 = -1; the
     * non-negative fit drops x1 and fits x0 alone. */
    seer_relfit_t f;
    seer_relfit_init(&f, 2, 0);
    unsigned s = 7;
    double sa = 0, saa = 0;
    for (int r = 0; r < 40; r++) {
        double x0 = 1 + 10 * rnd(&s), x1 = x0 * 0.5 * rnd(&s);
        double x[2] = {x0, x1}, y = 3 * x0 - x1;
        seer_relfit_add(&f, x, y);
        sa += x0 / y;
        saa += (x0 / y) * (x0 / y);
    }
    double c[2];
    seer_relfit_solve(&f, ~0u, c);
    CHECK(c[1] == 0.0);
    CHECK(c[0] > 0);
    CHECK_NEAR(c[0], sa / saa, 1e-8); /* the one-term optimum */
    /* identical to asking for x0 alone */
    double m[2];
    seer_relfit_solve(&f, 1u, m);
    CHECK(m[1] == 0.0);
    CHECK(m[0] == c[0]);
    /* dropping x1 was right: at the answer, raising c1 from 0 would only
     * increase the error (positive gradient) */
    CHECK(grad(&f, c, 1) > 0);
}

TEST(fit_active_set_drops_most_negative_first)
{
    /* y = 3 x0 - 0.1 x1 - 2 x2 with x2 ~ x0 - 2 x1: unconstrained, both
     * x1 and x2 want negative coefficients.  Dropping the most negative
     * (x2) first lets x1 take over x2's share with a positive one (y ~ x0
     * + 3.9 x1); dropping x1 first would end with x0 alone. */
    seer_relfit_t f;
    seer_relfit_init(&f, 3, 0);
    unsigned s = 17;
    for (int r = 0; r < 80; r++) {
        double x0 = 1 + 9 * rnd(&s), v = rnd(&s), w = rnd(&s);
        double x1 = 0.5 * (1 - v) * x0 + 0.05 * w * x0, x2 = v * x0;
        double x[3] = {x0, x1, x2};
        seer_relfit_add(&f, x, 3 * x0 - 0.1 * x1 - 2 * x2);
    }
    double c[3];
    seer_relfit_solve(&f, ~0u, c);
    CHECK(c[2] == 0.0);
    CHECK(c[0] > 0 && c[1] > 0);
    for (int i = 0; i < 2; i++) CHECK(fabs(grad(&f, c, i)) <= 1e-6 * fabs(f.g[i]));
    CHECK(grad(&f, c, 2) > 0); /* and x2 rightly stays out */
}

TEST(fit_mask_and_degenerate_terms)
{
    seer_relfit_t f;
    seer_relfit_init(&f, 4, 0);
    unsigned s = 3;
    for (int r = 0; r < 30; r++) {
        /* term 2 is zero on every row */
        double x[4] = {1 + 5 * rnd(&s), 1 + 5 * rnd(&s), 0, 1};
        seer_relfit_add(&f, x, 2 * x[0] + 1 * x[1] + 0.25 * x[3]);
    }
    double c[4] = {-1, -1, -1, -1};
    seer_relfit_solve(&f, ~0u, c);
    CHECK(c[2] == 0.0); /* all-zero term stays 0 and does not break the solve */
    CHECK_NEAR(c[0], 2, 1e-6);
    CHECK_NEAR(c[1], 1, 1e-6);
    CHECK_NEAR(c[3], 0.25, 1e-5);

    /* a term outside the mask stays 0 even though the truth uses it; the
     * rest is the optimum over the masked terms */
    unsigned mask = (1u << 0) | (1u << 3);
    seer_relfit_solve(&f, mask, c);
    CHECK(c[1] == 0.0 && c[2] == 0.0);
    CHECK(c[0] >= 0 && c[3] >= 0);
    for (int i = 0; i < 4; i++)
        if (c[i] > 0) CHECK(fabs(grad(&f, c, i)) <= 1e-6 * fabs(f.g[i]));
    /* bits past n are ignored; an empty mask fits nothing */
    seer_relfit_solve(&f, 0xffff0000u, c);
    CHECK(c[0] == 0 && c[1] == 0 && c[2] == 0 && c[3] == 0);
    seer_relfit_solve(&f, 0u, c);
    CHECK(c[0] == 0 && c[1] == 0 && c[2] == 0 && c[3] == 0);
}

TEST(fit_no_rows_and_term_limit)
{
    seer_relfit_t f;
    seer_relfit_init(&f, 3, 0);
    double c[3] = {5, 5, 5};
    seer_relfit_solve(&f, ~0u, c); /* nothing added: every term degenerate */
    CHECK(c[0] == 0 && c[1] == 0 && c[2] == 0);
    seer_relfit_init(&f, SEER_FIT_MAX + 4, 0);
    CHECK(f.n == SEER_FIT_MAX);
    seer_relfit_init(&f, 0, 0);
    CHECK(f.n == 0);
}

TEST(fit_collinear_terms_stay_non_negative)
{
    /* x1 == x0: the normal equations are singular but for the ridge; any
     * non-negative split of the coefficient predicts exactly. */
    seer_relfit_t f;
    seer_relfit_init(&f, 3, 0);
    unsigned s = 11;
    double xs[20][3];
    for (int r = 0; r < 20; r++) {
        double x0 = 1 + 9 * rnd(&s);
        xs[r][0] = x0;
        xs[r][1] = x0;
        xs[r][2] = 1;
        seer_relfit_add(&f, xs[r], 2 * x0 + 1);
    }
    double c[3];
    seer_relfit_solve(&f, ~0u, c);
    CHECK(c[0] >= 0 && c[1] >= 0 && c[2] >= 0);
    CHECK_NEAR(c[0] + c[1], 2, 1e-5);
    for (int r = 0; r < 20; r++) {
        double p = c[0] * xs[r][0] + c[1] * xs[r][1] + c[2] * xs[r][2];
        CHECK_NEAR(p, 2 * xs[r][0] + 1, 1e-5);
    }
}

TEST(fit_relative_error_ignores_row_scale)
{
    /* Each row weighs by its relative error: scaling a row's terms and
     * its time together (a kernel a million times bigger with the same
     * relative error) does not move the fit. */
    seer_relfit_t a, b;
    seer_relfit_init(&a, 2, 0);
    seer_relfit_init(&b, 2, 0);
    unsigned s = 5;
    for (int r = 0; r < 60; r++) {
        double x[2] = {1 + rnd(&s), 0.2 + rnd(&s)};
        double y = (x[0] + 0.5 * x[1]) * (r % 2 ? 1.1 : 0.9);
        seer_relfit_add(&a, x, y);
        double k = r % 3 ? 1 : 1048576.0; /* a power of two: exact scaling */
        double xb[2] = {x[0] * k, x[1] * k};
        seer_relfit_add(&b, xb, y * k);
    }
    double ca[2], cb[2];
    seer_relfit_solve(&a, ~0u, ca);
    seer_relfit_solve(&b, ~0u, cb);
    CHECK(ca[0] > 0 && ca[1] > 0);
    CHECK_NEAR(cb[0], ca[0], 1e-12);
    CHECK_NEAR(cb[1], ca[1], 1e-12);
}

TEST(fit_noisy_many_terms_is_optimum_of_free_terms)
{
    /* Noisy data over eight terms: whatever the active set keeps, the
     * coefficients are >= 0 and the kept ones are the least-squares
     * optimum over the kept terms (zero gradient there). */
    seer_relfit_t f;
    seer_relfit_init(&f, SEER_FIT_MAX, 0);
    unsigned s = 13;
    for (int r = 0; r < 200; r++) {
        double x[SEER_FIT_MAX], y = 0;
        for (int i = 0; i < SEER_FIT_MAX; i++) {
            x[i] = rnd(&s) * (i + 1);
            y += (i % 3 == 0 ? 1.0 : 0.0) * x[i];
        }
        seer_relfit_add(&f, x, (y + 0.1) * (0.8 + 0.4 * rnd(&s)));
    }
    double c[SEER_FIT_MAX];
    seer_relfit_solve(&f, ~0u, c);
    int kept = 0;
    for (int i = 0; i < SEER_FIT_MAX; i++) {
        CHECK(c[i] >= 0);
        if (c[i] > 0) {
            kept++;
            CHECK(fabs(grad(&f, c, i)) <= 1e-6 * fabs(f.g[i]));
        }
    }
    CHECK(kept >= 1);
}

TEST(fit_fixed_terms_keep_coefficient_one)
{
    /* y = 2 x0 + 0.5 x1 + x2, with x2 (say, launch gaps) fixed at 1: the
     * fit explains what x2 leaves and recovers the rest exactly */
    seer_relfit_t f;
    seer_relfit_init(&f, 3, 1u << 2);
    CHECK(f.fixed == 4u);
    unsigned s = 21;
    for (int r = 0; r < 50; r++) {
        double x[3] = {1 + 9 * rnd(&s), 1 + 9 * rnd(&s), 0.1 + rnd(&s)};
        seer_relfit_add(&f, x, 2 * x[0] + 0.5 * x[1] + x[2]);
    }
    double c[3];
    seer_relfit_solve(&f, ~0u, c);
    CHECK(c[2] == 1.0);
    CHECK_NEAR(c[0], 2, 1e-6);
    CHECK_NEAR(c[1], 0.5, 1e-6);
    /* a fixed term stays 1 even outside the mask; masked-out free terms stay 0 */
    seer_relfit_solve(&f, 1u, c);
    CHECK(c[2] == 1.0 && c[1] == 0.0 && c[0] > 0);
    seer_relfit_solve(&f, 0u, c);
    CHECK(c[0] == 0.0 && c[1] == 0.0 && c[2] == 1.0);

    /* a fixed term that already explains more than the time: the free
     * terms would have to be negative, so they are dropped to 0 */
    seer_relfit_t over;
    seer_relfit_init(&over, 2, 1u << 1);
    for (int r = 0; r < 20; r++) {
        double x[2] = {1 + rnd(&s), 3};
        seer_relfit_add(&over, x, 2.0);
    }
    seer_relfit_solve(&over, ~0u, c);
    CHECK(c[0] == 0.0 && c[1] == 1.0);
}

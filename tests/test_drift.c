/* Measurement-order drift (libseer/drift.c) and its use by training and
 * seer eval --detrend. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "test.h"
#include "drift.h"

/* Deterministic noise in [-a, a] (an LCG: the same on every platform). */
static double noise(unsigned *s, double a)
{
    *s = *s * 1103515245u + 12345u;
    return a * (2.0 * ((*s >> 8) & 0xffff) / 65535.0 - 1);
}

TEST(drift_recovers_a_trend)
{
    enum { N = 2000 };
    static double pos[N], res[N];
    unsigned s = 7;
    for (int i = 0; i < N; i++) {
        pos[i] = (double)i / N;
        res[i] = 0.3 * pos[i] * pos[i] + 0.05 * pos[i] + noise(&s, 0.05);
    }
    res[10] = 50; /* one wild row must not bend it */
    seer_drift_t d;
    REQUIRE(seer_drift_fit(pos, res, N, &d) == 1);
    CHECK(fabs(d.c[2] - 0.3) < 0.03);
    CHECK(fabs(d.c[1] - 0.05) < 0.03);
    CHECK(d.r2 > 0.5 && d.r2 <= 1);
    CHECK(fabs((d.hi - d.lo) - 0.35) < 0.02);
    /* centered on the typical row: zero at the median of the trend */
    CHECK(d.lo < 0 && d.hi > 0);
    CHECK_NEAR(seer_drift_at(&d, 0.99) - seer_drift_at(&d, 0), d.hi - d.lo, 0.05);
    /* correction removes the trend, and never more than half a time */
    CHECK_NEAR(seer_drift_correct(&d, 0.99, 1.0), 1.0 - seer_drift_at(&d, 0.99), 1e-12);
    CHECK(seer_drift_correct(&d, 0.99, 0.01) == 0.005);
}

TEST(drift_none_when_absent_or_too_few_rows)
{
    enum { N = 2000 };
    static double pos[N], res[N];
    unsigned s = 11;
    for (int i = 0; i < N; i++) {
        pos[i] = (double)i / N;
        res[i] = noise(&s, 0.1);
    }
    seer_drift_t d;
    CHECK(seer_drift_fit(pos, res, N, &d) == 0);
    for (int i = 0; i < N; i++) res[i] = pos[i]; /* a perfect trend ... */
    CHECK(seer_drift_fit(pos, res, SEER_DRIFT_MIN_ROWS - 1, &d) == 0); /* ... on too few rows */
    CHECK(seer_drift_fit(pos, res, SEER_DRIFT_MIN_ROWS, &d) == 1);
    for (int i = 0; i < N; i++) res[i] = 0.25; /* constant: no variance to explain */
    CHECK(seer_drift_fit(pos, res, N, &d) == 0);
    CHECK(seer_drift_fit(NULL, res, N, &d) == 0);
}

TEST(drift_eval_detrend)
{
    char data[512];
    snprintf(data, sizeof data, "%s/conv/t4.csv", test_data_dir());
    FILE *fp = fopen(data, "rb");
    if (!fp) SKIP("shared data not found");
    fclose(fp);
    test_run_t r;
    test_run_seer(&r, "eval", "--model", "models/t4.seer", "--data", data, "--split", "test", "--detrend",
                  "--format", "json", NULL);
    CHECK(r.rc == 0);
    CHECK(strstr(r.out, "\"drift_removed\": {\"n\": ") != NULL);
    CHECK(strstr(r.out, "\"trend\": true") != NULL);
    test_run_free(&r);
    test_run_seer(&r, "eval", "--model", "models/t4.seer", "--data", data, "--split", "test", "--detrend", NULL);
    CHECK(r.rc == 0);
    CHECK(strstr(r.out, "seer, drift removed") != NULL);
    test_run_free(&r);
}

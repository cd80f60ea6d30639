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

/* The shipped NeuSight models were fitted with the drift removed and say
 * so; the DeepBench files have no drift. */
TEST(drift_in_shipped_provenance)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_model_t a = NULL, b = NULL;
    if (seer_model_load(h, "models/a100-pcie-80gb.seer", &a) ||
        seer_model_load(h, "models/v100-sxm2-16gb.seer", &b)) {
        seer_model_free(a);
        seer_destroy(h);
        SKIP("shipped models missing");
    }
    seer_model_info_t ia, ib;
    seer_model_get_info(a, &ia);
    seer_model_get_info(b, &ib);
    CHECK(strstr(ia.provenance, "drift removed: a100-pcie-80gb.csv") != NULL);
    CHECK(strstr(ib.provenance, "drift removed") == NULL);
    seer_model_free(a);
    seer_model_free(b);
    seer_destroy(h);
}

/* Training removes the drift unless told to keep it: a synthetic file
 * whose times grow with the row order. */
TEST(drift_train_flag)
{
    enum { N = 800 };
    size_t cap = 200 + (size_t)N * 160;
    char *csv = malloc(cap);
    REQUIRE(csv);
    size_t len = (size_t)snprintf(csv, cap, "gpu,direction,dtype,layout,n,c,h,w,k,r,s,pad_h,pad_w,"
                                            "stride_h,stride_w,dil_h,dil_w,groups,algo,time_ms\n");
    unsigned s = 3;
    for (int i = 0; i < N; i++) {
        int n = 1 + i % 32, c = 16 + 16 * (i % 7), k = 32 + 32 * (i % 5), hw = 8 + 4 * (i % 9);
        double flops = 2.0 * n * c * k * hw * hw * 9;
        double t = 0.02 + flops / 8e9 * (1 + noise(&s, 0.03)) + 0.3 * i / N;
        len += (size_t)snprintf(csv + len, cap - len,
                                "t4,fwd,fp32,nchw,%d,%d,%d,%d,%d,3,3,1,1,1,1,1,1,1,IMPLICIT_PRECOMP_GEMM,%.6f\n",
                                n, c, hw, hw, k, t);
    }
    char path[64];
    REQUIRE(test_write_temp(path, csv));
    free(csv);
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    const char *p = path;
    seer_model_t m = NULL, kept = NULL;
    CHECK_STATUS(seer_train(h, "t4", &p, 1, 0, &m), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_train(h, "t4", &p, 1, SEER_TRAIN_KEEP_DRIFT, &kept), SEER_STATUS_SUCCESS);
    seer_model_info_t im, ik;
    if (m && kept) {
        seer_model_get_info(m, &im);
        seer_model_get_info(kept, &ik);
        CHECK(strstr(im.provenance, "drift removed") != NULL);
        CHECK(strstr(ik.provenance, "drift removed") == NULL);
        CHECK(im.checksum != ik.checksum);
    }
    seer_model_free(m);
    seer_model_free(kept);
    seer_destroy(h);
    unlink(path);
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

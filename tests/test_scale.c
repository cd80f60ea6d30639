/* Conv scales (seer_model_scale_convs, libseer/scale.c): fitted to a
 * GPU's rows, applied where a models directory serves the model, and
 * to the GPUs of its architecture served by transfer. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "model.h"
#include "test.h"

static const char *calibrated[] = {"a100-pcie-80gb", "gtx1080ti", "t4", "v100-pcie-32gb", "v100-sxm2-16gb"};

/* dir: a models directory of the shipped calibrated models (links). */
static int make_dir(char dir[64])
{
    char cwd[1024], from[1200], to[160];
    strcpy(dir, "/tmp/seer-scale-XXXXXX");
    if (!mkdtemp(dir) || !getcwd(cwd, sizeof cwd)) return 0;
    for (size_t i = 0; i < sizeof calibrated / sizeof *calibrated; i++) {
        snprintf(from, sizeof from, "%s/models/%s.seer", cwd, calibrated[i]);
        snprintf(to, sizeof to, "%s/%s.seer", dir, calibrated[i]);
        if (access(from, R_OK) || symlink(from, to)) return 0;
    }
    return 1;
}

static void remove_dir(const char *dir)
{
    char p[160];
    for (size_t i = 0; i < sizeof calibrated / sizeof *calibrated; i++) {
        snprintf(p, sizeof p, "%s/%s.seer", dir, calibrated[i]);
        unlink(p);
    }
    snprintf(p, sizeof p, "%s/h200-sxm-141gb.seer", dir);
    unlink(p);
    rmdir(dir);
}

#define NROWS 40

/* the 3x3 convs of the rows */
static int shape_of(seer_handle_t h, seer_conv_desc_t d, int i)
{
    return seer_conv_desc_set(h, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, 8 + 8 * i, 64 + 32 * (i % 4), 28, 28,
                              128 + 64 * (i % 3), 3, 3, 1, 1, 1, 1, 1, 1, 1) == SEER_STATUS_SUCCESS;
}

/* A conv timing CSV of NROWS forward IMPLICIT_PRECOMP_GEMM rows of the
 * H200 whose times are k times what m predicts. */
static int write_rows(seer_handle_t h, const seer_model *m, double k, int nrows, char path[64])
{
    char *text = malloc(16384);
    if (!text) return 0;
    int n = sprintf(text, "gpu,direction,dtype,layout,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,stride_w,dil_h,dil_w,"
                          "groups,algo,time_ms\n");
    seer_conv_desc_t d;
    seer_conv_desc_create(&d);
    int ok = 1;
    for (int i = 0; i < nrows && ok; i++) {
        double t = 0;
        ok = shape_of(h, d, i) && !seer_predict_conv(h, m, d, SEER_DIR_FWD, SEER_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, &t,
                                                     NULL, 0, NULL);
        n += sprintf(text + n, "h200-sxm-141gb,fwd,fp32,nchw,%d,%d,28,28,%d,3,3,1,1,1,1,1,1,1,IMPLICIT_PRECOMP_GEMM,%.9g\n",
                     8 + 8 * i, 64 + 32 * (i % 4), 128 + 64 * (i % 3), k * t);
    }
    seer_conv_desc_destroy(d);
    ok = ok && test_write_temp(path, text);
    free(text);
    return ok;
}

TEST(scale_convs_fit_serve_and_carry)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    char dir[64], csv[64], path[160];
    seer_model_t base = NULL, gemm = NULL, scaled = NULL, served = NULL, h100 = NULL, h100_base = NULL;
    if (!make_dir(dir) || seer_model_load(h, "models/h200-sxm-141gb.seer", &gemm)) {
        seer_destroy(h);
        SKIP("shipped models missing");
    }
    /* the H200 as the calibrated models alone serve it: no scale */
    REQUIRE(seer_model_open(h, dir, "h200-sxm-141gb", &base) == SEER_STATUS_SUCCESS);
    REQUIRE(seer_model_open(h, dir, "h100-sxm5-80gb", &h100_base) == SEER_STATUS_SUCCESS);
    REQUIRE(write_rows(h, base, 1.5, NROWS, csv));
    const char *paths[] = {csv};
    CHECK_STATUS(seer_model_scale_convs(h, gemm, dir, paths, 1, 0, &scaled), SEER_STATUS_SUCCESS);
    REQUIRE(scaled != NULL);
    const seer_conv_scale_t *s = seer_model_scale(scaled, SEER_DIR_FWD, SEER_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, 0);
    REQUIRE(s != NULL);
    CHECK(s->n_rows == NROWS);
    CHECK(s->scale > 1.3 && s->scale < 1.7);
    CHECK(scaled->nscale == 1); /* no other key had rows */
    CHECK(strstr(scaled->provenance, "1 conv scales fitted on 40 of its conv timings") != NULL);
    /* deterministic */
    seer_model_t again = NULL;
    CHECK_STATUS(seer_model_scale_convs(h, gemm, dir, paths, 1, 0, &again), SEER_STATUS_SUCCESS);
    CHECK(again && again->checksum == scaled->checksum);
    seer_model_destroy(again);
    /* scaled again: the scales and their clause of the provenance are replaced */
    again = NULL;
    CHECK_STATUS(seer_model_scale_convs(h, scaled, dir, paths, 1, 0, &again), SEER_STATUS_SUCCESS);
    const char *c1 = again ? strstr(again->provenance, "conv scales fitted") : NULL;
    CHECK(c1 && !strstr(c1 + 1, "conv scales fitted") && again->nscale == 1);
    CHECK(again && again->scale[0].scale == scaled->scale[0].scale);
    seer_model_destroy(again);

    /* served from the directory, it predicts the rows */
    snprintf(path, sizeof path, "%s/h200-sxm-141gb.seer", dir);
    REQUIRE(seer_model_save(h, scaled, path) == SEER_STATUS_SUCCESS);
    REQUIRE(seer_model_open(h, dir, "h200-sxm-141gb", &served) == SEER_STATUS_SUCCESS);
    seer_conv_desc_t d;
    seer_conv_desc_create(&d);
    for (int i = 0; i < NROWS; i++) {
        double t0 = 0, t1 = 0, w0 = 0, w1 = 0;
        REQUIRE(shape_of(h, d, i));
        CHECK_STATUS(seer_predict_conv(h, base, d, SEER_DIR_FWD, SEER_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, &t0, NULL, 0,
                                       NULL), SEER_STATUS_SUCCESS);
        CHECK_STATUS(seer_predict_conv(h, served, d, SEER_DIR_FWD, SEER_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, &t1, NULL, 0,
                                       NULL), SEER_STATUS_SUCCESS);
        CHECK(t1 > 1.3 * t0 && t1 < 1.7 * t0);
        /* another family keeps its time */
        CHECK_STATUS(seer_predict_conv(h, base, d, SEER_DIR_FWD, SEER_FWD_ALGO_WINOGRAD_NONFUSED, &w0, NULL, 0, NULL),
                     SEER_STATUS_SUCCESS);
        CHECK_STATUS(seer_predict_conv(h, served, d, SEER_DIR_FWD, SEER_FWD_ALGO_WINOGRAD_NONFUSED, &w1, NULL, 0,
                                       NULL), SEER_STATUS_SUCCESS);
        CHECK_NEAR(w1, w0, 1e-9);
    }
    /* the H100, served by transfer, takes its architecture's scale */
    REQUIRE(seer_model_open(h, dir, "h100-sxm5-80gb", &h100) == SEER_STATUS_SUCCESS);
    seer_model_info_t info;
    CHECK_STATUS(seer_model_get_info(h100, &info), SEER_STATUS_SUCCESS);
    CHECK(strstr(info.provenance, "as GPUs of its architecture measured them") != NULL);
    double a = 0, b = 0;
    REQUIRE(shape_of(h, d, 3));
    CHECK_STATUS(seer_predict_conv(h, h100_base, d, SEER_DIR_FWD, SEER_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, &a, NULL, 0,
                                   NULL), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_predict_conv(h, h100, d, SEER_DIR_FWD, SEER_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, &b, NULL, 0, NULL),
                 SEER_STATUS_SUCCESS);
    CHECK(b > 1.3 * a);

    /* the test split held out: fewer rows */
    seer_model_t held = NULL;
    CHECK_STATUS(seer_model_scale_convs(h, gemm, dir, paths, 1, SEER_TRAIN_HOLDOUT, &held), SEER_STATUS_SUCCESS);
    int train_rows = 0;
    for (int i = 0; i < NROWS; i++) {
        REQUIRE(shape_of(h, d, i));
        train_rows += !seer_conv_in_test_split(d);
    }
    const seer_conv_scale_t *hs = held ? seer_model_scale(held, SEER_DIR_FWD, SEER_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, 0)
                                       : NULL;
    CHECK(train_rows < SEER_SCALE_MIN_ROWS ? hs == NULL : hs != NULL && hs->n_rows == train_rows);
    seer_model_destroy(held);
    seer_conv_desc_destroy(d);
    unlink(csv);
    seer_model_destroy(h100);
    seer_model_destroy(h100_base);
    seer_model_destroy(served);
    seer_model_destroy(scaled);
    seer_model_destroy(base);
    seer_model_destroy(gemm);
    remove_dir(dir);
    seer_destroy(h);
}

TEST(scale_convs_bad_input)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    char dir[64], csv[64];
    seer_model_t gemm = NULL, base = NULL, out = NULL;
    if (!make_dir(dir) || seer_model_load(h, "models/h200-sxm-141gb.seer", &gemm)) {
        seer_destroy(h);
        SKIP("shipped models missing");
    }
    REQUIRE(seer_model_open(h, dir, "h200-sxm-141gb", &base) == SEER_STATUS_SUCCESS);
    /* too few rows for any family */
    REQUIRE(write_rows(h, base, 2, SEER_SCALE_MIN_ROWS - 1, csv));
    const char *paths[] = {csv}, *none[] = {NULL}, *missing[] = {"/nonexistent/layers.csv"};
    CHECK_STATUS(seer_model_scale_convs(h, gemm, dir, paths, 1, 0, &out), SEER_STATUS_NO_DATA);
    CHECK(out == NULL && strstr(seer_get_last_error(h), "rows") != NULL);
    CHECK_STATUS(seer_model_scale_convs(h, gemm, dir, paths, 1, 4, &out), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_model_scale_convs(h, NULL, dir, paths, 1, 0, &out), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_model_scale_convs(h, gemm, NULL, paths, 1, 0, &out), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_model_scale_convs(h, gemm, dir, paths, 0, 0, &out), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_model_scale_convs(h, gemm, dir, none, 1, 0, &out), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_model_scale_convs(h, gemm, dir, paths, 1, 0, NULL), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_model_scale_convs(h, gemm, dir, missing, 1, 0, &out), SEER_STATUS_IO_ERROR);
    CHECK(strstr(seer_get_last_error(h), "/nonexistent/layers.csv") != NULL);
    CHECK_STATUS(seer_model_scale_convs(h, gemm, "/nonexistent-models", paths, 1, 0, &out), SEER_STATUS_IO_ERROR);
    /* a malformed row names its line */
    char bad[64];
    REQUIRE(test_write_temp(bad, "gpu,direction,dtype,layout,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,stride_w,dil_h,"
                                 "dil_w,groups,algo,time_ms\nh200,fwd,fp32,nchw,x,64,28,28,64,3,3,1,1,1,1,1,1,1,,1\n"));
    const char *badp[] = {bad};
    seer_status_t st = seer_model_scale_convs(h, gemm, dir, badp, 1, 0, &out);
    CHECK(st == SEER_STATUS_CSV_BAD_VALUE && strstr(seer_get_last_error(h), ":2") != NULL);
    CHECK(out == NULL);
    unlink(bad);
    unlink(csv);
    seer_model_destroy(base);
    seer_model_destroy(gemm);
    remove_dir(dir);
    seer_destroy(h);
}

/* seer_model_get_conv_scales: the shipped H200 model's, sorted; the count
 * when the array is short; bad arguments. */
TEST(scale_convs_listed)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_model_t m = NULL, t4 = NULL;
    if (seer_model_load(h, "models/h200-sxm-141gb.seer", &m) || seer_model_load(h, "models/t4.seer", &t4)) {
        seer_model_destroy(m);
        seer_destroy(h);
        SKIP("shipped models missing");
    }
    int n = -1;
    CHECK_STATUS(seer_model_get_conv_scales(m, NULL, 0, &n), SEER_STATUS_BUFFER_TOO_SMALL);
    REQUIRE(n == m->nscale && n > 8);
    seer_conv_scale_info_t all[192], two[2];
    int n2 = 0;
    CHECK_STATUS(seer_model_get_conv_scales(m, all, 192, &n2), SEER_STATUS_SUCCESS);
    CHECK(n2 == n);
    for (int i = 0; i < n2; i++) {
        CHECK(all[i].scale >= 0.1 && all[i].scale <= 10 && all[i].n_rows >= SEER_SCALE_MIN_ROWS);
        CHECK(all[i].math >= 0 && all[i].math <= 2 && all[i].algo >= -1 && all[i].algo <= 7);
        if (i)
            CHECK(all[i - 1].direction < all[i].direction ||
                  (all[i - 1].direction == all[i].direction &&
                   (all[i - 1].algo < all[i].algo || (all[i - 1].algo == all[i].algo && all[i - 1].math < all[i].math))));
        const seer_conv_scale_t *s = seer_model_scale(m, (int)all[i].direction, all[i].algo, all[i].math);
        CHECK(s && s->scale == all[i].scale && s->n_rows == all[i].n_rows);
    }
    CHECK_STATUS(seer_model_get_conv_scales(m, two, 2, &n2), SEER_STATUS_BUFFER_TOO_SMALL);
    CHECK(n2 == n && !memcmp(two, all, sizeof two));
    CHECK_STATUS(seer_model_get_conv_scales(t4, all, 192, &n2), SEER_STATUS_SUCCESS);
    CHECK(n2 == 0);
    CHECK_STATUS(seer_model_get_conv_scales(NULL, all, 192, &n2), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_model_get_conv_scales(m, all, 192, NULL), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_model_get_conv_scales(m, NULL, 4, &n2), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_model_get_conv_scales(m, all, -1, &n2), SEER_STATUS_BAD_PARAM);
    seer_model_destroy(t4);
    seer_model_destroy(m);
    seer_destroy(h);
}

/* Training, prediction, model files and their failure modes. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "test.h"

static seer_model_t trained(seer_handle_t h, const char *gpu)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/conv/%s.csv", test_data_dir(), gpu);
    if (access(path, R_OK) != 0) return NULL;
    const char *p = path;
    seer_model_t m = NULL;
    if (seer_train(h, gpu, &p, 1, 1, &m) != SEER_STATUS_SUCCESS) return NULL;
    return m;
}

static seer_conv_desc_t conv(seer_handle_t h, int n, int c, int hw, int k)
{
    seer_conv_desc_t d;
    if (seer_conv_desc_create(&d)) return NULL;
    if (seer_conv_desc_set(h, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, n, c, hw, hw, k, 3, 3, 1, 1, 1,
                           1, 1, 1, 1)) {
        seer_conv_desc_destroy(d);
        return NULL;
    }
    return d;
}

static char *write_tmp(const void *data, size_t n)
{
    static char path[64];
    strcpy(path, "/tmp/seer-test-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0) return NULL;
    if (write(fd, data, n) != (ssize_t)n) { close(fd); return NULL; }
    close(fd);
    return path;
}


TEST(model_train_predict_roundtrip)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_model_t m = trained(h, "t4");
    if (!m) { seer_destroy(h); SKIP("shared data not found"); }
    seer_model_info_t info;
    CHECK_STATUS(seer_model_get_info(m, &info), SEER_STATUS_SUCCESS);
    CHECK(strcmp(info.gpu_id, "t4") == 0);
    CHECK(info.n_families >= 3);
    CHECK(info.n_rows > 1000);
    CHECK(strstr(info.provenance, "t4.csv") != NULL);

    seer_conv_desc_t d = conv(h, 32, 256, 28, 256);
    REQUIRE(d != NULL);
    double t1, t2;
    seer_kernel_pred_t k[4];
    int nk = 0;
    CHECK_STATUS(seer_predict_conv(h, m, d, SEER_DIR_FWD, SEER_FWD_ALGO_WINOGRAD_NONFUSED, &t1, k, 4, &nk),
                 SEER_STATUS_SUCCESS);
    CHECK(t1 > 0.01 && t1 < 100);
    CHECK(nk == 4);
    CHECK(k[0].role == SEER_ROLE_MAIN && k[0].waves >= 1 && k[0].last_fill > 0 && k[0].last_fill <= 1);
    double sum = 0;
    for (int i = 0; i < nk; i++) sum += k[i].time_ms;
    CHECK_NEAR(sum, t1, 1e-9);
    /* bigger work takes longer */
    seer_conv_desc_t d2 = conv(h, 64, 256, 28, 256);
    CHECK_STATUS(seer_predict_conv(h, m, d2, SEER_DIR_FWD, SEER_FWD_ALGO_WINOGRAD_NONFUSED, &t2, NULL, 0, NULL),
                 SEER_STATUS_SUCCESS);
    CHECK(t2 > t1);

    /* save, load, same predictions bit for bit; saving is deterministic */
    char a[] = "/tmp/seer-model-XXXXXX";
    int fd = mkstemp(a);
    REQUIRE(fd >= 0);
    close(fd);
    CHECK_STATUS(seer_model_save(h, m, a), SEER_STATUS_SUCCESS);
    seer_model_t m2;
    CHECK_STATUS(seer_model_load(h, a, &m2), SEER_STATUS_SUCCESS);
    double t3;
    CHECK_STATUS(seer_predict_conv(h, m2, d, SEER_DIR_FWD, SEER_FWD_ALGO_WINOGRAD_NONFUSED, &t3, NULL, 0, NULL),
                 SEER_STATUS_SUCCESS);
    CHECK(memcmp(&t1, &t3, sizeof t1) == 0);
    seer_model_info_t i2;
    seer_model_get_info(m2, &i2);
    CHECK(i2.checksum == info.checksum);

    /* a second training run gives the same model */
    seer_model_t m3 = trained(h, "t4");
    REQUIRE(m3 != NULL);
    seer_model_info_t i3;
    seer_model_get_info(m3, &i3);
    CHECK(i3.checksum == info.checksum);

    /* buffer too small: total still written, status says so */
    double t4 = 0;
    CHECK_STATUS(seer_predict_conv(h, m, d, SEER_DIR_FWD, SEER_FWD_ALGO_WINOGRAD_NONFUSED, &t4, k, 2, &nk),
                 SEER_STATUS_BUFFER_TOO_SMALL);
    CHECK(nk == 4 && t4 == t1);

    unlink(a);
    seer_model_destroy(m);
    seer_model_destroy(m2);
    seer_model_destroy(m3);
    seer_conv_desc_destroy(d);
    seer_conv_desc_destroy(d2);
    seer_destroy(h);
}

/* The kernel breakdown sums to the total, and no helper kernel moves its
 * bytes faster than the DRAM bandwidth: a family fitted with its helper
 * term at 0 once showed a 257 MB im2col at 0 ms on an H100. */
TEST(model_helper_kernels_take_their_bytes)
{
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    static const char *const gpus[] = {"h100-sxm5-80gb", "t4", "l4", "a100-pcie-80gb"};
    int checked = 0;
    for (int g = 0; g < 4; g++) {
        seer_model_t m;
        REQUIRE(seer_model_open(h, "models", gpus[g], &m) == SEER_STATUS_SUCCESS);
        seer_gpu_info_t gi;
        REQUIRE(seer_model_get_gpu(m, &gi) == SEER_STATUS_SUCCESS);
        seer_conv_desc_t d = conv(h, 32, 64, 56, 64);
        REQUIRE(d != NULL);
        for (int dir = 0; dir < 3; dir++)
            for (int algo = 0; algo < 8; algo++) {
                seer_kernel_pred_t k[16];
                int nk = 0;
                double t;
                if (seer_predict_conv(h, m, d, (seer_direction_t)dir, algo, &t, k, 16, &nk)) continue;
                double sum = 0;
                for (int i = 0; i < nk; i++) {
                    sum += k[i].time_ms;
                    if (k[i].role == SEER_ROLE_MAIN || k[i].role == SEER_ROLE_HELPER) continue;
                    checked++;
                    CHECK(k[i].time_ms >= 0.999 * k[i].dram_bytes / (gi.dram_gbps * 1e9) * 1e3);
                }
                CHECK_NEAR(sum, t, 1e-9 * t);
            }
        seer_conv_desc_destroy(d);
        seer_model_destroy(m);
    }
    CHECK(checked > 50);
    seer_destroy(h);
}

/* A conv in tensor-core math timed as its SIMT twin (seer_conv_simt_twin:
 * TF32 as FP32 here) gives the twin's time and kernel count also with
 * BUFFER_TOO_SMALL, so the count sizes the array that then succeeds:
 * the too-small call once gave the TF32 kernels' 0.0556 ms and 5
 * kernels where the call with room gave the twin's 0.0156 ms and 2
 * (A100, NCHW IMPLICIT_PRECOMP_GEMM, 14 x 4 x 72 x 72 -> 60, 1x1). */
TEST(model_simt_twin_buffer_too_small)
{
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_model_t m;
    REQUIRE(seer_model_open(h, "models", "a100-pcie-80gb", &m) == SEER_STATUS_SUCCESS);
    seer_conv_desc_t d, d32;
    REQUIRE(seer_conv_desc_create(&d) == SEER_STATUS_SUCCESS && seer_conv_desc_create(&d32) == SEER_STATUS_SUCCESS);
    REQUIRE(seer_conv_desc_set(h, d, SEER_DTYPE_TF32, SEER_LAYOUT_NCHW, 14, 4, 72, 72, 60, 1, 1, 0, 0, 1, 1, 1, 1,
                               1) == SEER_STATUS_SUCCESS);
    REQUIRE(seer_conv_desc_set(h, d32, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, 14, 4, 72, 72, 60, 1, 1, 0, 0, 1, 1, 1, 1,
                               1) == SEER_STATUS_SUCCESS);
    const int algo = SEER_FWD_ALGO_IMPLICIT_PRECOMP_GEMM;
    seer_kernel_pred_t k[16];
    double t = 0, t32 = 0, t0 = 0, tc = 0;
    int n = 0, n32 = 0, n0 = 0, nc = 0;
    CHECK_STATUS(seer_predict_conv(h, m, d, SEER_DIR_FWD, algo, &t, NULL, 0, &n), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_predict_conv(h, m, d32, SEER_DIR_FWD, algo, &t32, NULL, 0, &n32), SEER_STATUS_SUCCESS);
    CHECK(t == t32 && n == n32); /* the twin is the faster here */
    CHECK_STATUS(seer_predict_conv(h, m, d, SEER_DIR_FWD, algo, &t0, k, 0, &n0), SEER_STATUS_BUFFER_TOO_SMALL);
    CHECK(t0 == t && n0 == n);
    CHECK(strstr(seer_get_last_error(h), "room for 0") != NULL);
    CHECK_STATUS(seer_predict_conv(h, m, d, SEER_DIR_FWD, algo, &tc, k, n0, &nc), SEER_STATUS_SUCCESS);
    CHECK(tc == t && nc == n);
    double sum = 0;
    for (int i = 0; i < nc; i++) sum += k[i].time_ms;
    CHECK_NEAR(sum, tc, 1e-9 * tc);
    seer_conv_desc_destroy(d);
    seer_conv_desc_destroy(d32);
    seer_model_destroy(m);
    seer_destroy(h);
}

/* BUFFER_TOO_SMALL writes the first kernels_cap kernels, the NCHW
 * transposes among them: a cap that cut into the transposes once left
 * those slots unwritten (V100 PCIe 32GB, FP16 NCHW bwd_data ALGO_1,
 * 36 x 3 x 6 x 69 -> 344, 3x7, pad 6,0, stride 3,2: 5 kernels, cap 3
 * and 4 got the main kernel and the precompute only). */
TEST(model_buffer_too_small_writes_transposes)
{
    if (access("models/v100-pcie-32gb.seer", R_OK) != 0) SKIP("shipped models missing");
    static const int shape[14] = {36, 3, 6, 69, 344, 3, 7, 6, 0, 3, 2, 1, 1, 1};
    seer_handle_t h;
    seer_model_t m;
    seer_conv_desc_t d;
    REQUIRE(test_served_conv("v100-pcie-32gb", SEER_DTYPE_FP16, SEER_LAYOUT_NCHW, shape, &h, &m, &d));
    seer_kernel_pred_t all[16];
    double t = 0;
    int n = 0;
    CHECK_STATUS(seer_predict_conv(h, m, d, SEER_DIR_BWD_DATA, SEER_BWD_DATA_ALGO_1, &t, all, 16, &n),
                 SEER_STATUS_SUCCESS);
    int transposes = 0;
    for (int i = 0; i < n; i++) transposes += strstr(all[i].name, "nchwToNhwc") || strstr(all[i].name, "nhwcToNchw");
    CHECK(transposes == 3 && n > 3);
    for (int cap = 0; cap < n; cap++) {
        seer_kernel_pred_t k[16];
        memset(k, 0xff, sizeof k);
        double tc = 0;
        int nc = 0;
        CHECK_STATUS(seer_predict_conv(h, m, d, SEER_DIR_BWD_DATA, SEER_BWD_DATA_ALGO_1, &tc, k, cap, &nc),
                     SEER_STATUS_BUFFER_TOO_SMALL);
        CHECK(tc == t && nc == n);
        for (int i = 0; i < cap; i++)
            CHECK(k[i].role == all[i].role && strcmp(k[i].name, all[i].name) == 0 && k[i].time_ms == all[i].time_ms &&
                  k[i].grid[0] == all[i].grid[0]);
        unsigned char ff[sizeof k[0]];
        memset(ff, 0xff, sizeof ff);
        CHECK(memcmp(&k[cap], ff, sizeof ff) == 0); /* nothing past the cap */
    }
    test_served_free(h, m, d);
}

/* A described GPU with under 256 threads per SM (the file format allows
 * 32) gave the elementwise helpers, the NCHW transposes among them, 0
 * blocks per SM: bmax 0, waves inf and last_fill NaN in a SUCCESS
 * record (FP32 NCHW fwd IMPLICIT_PRECOMP_GEMM's precompute kernel). */
TEST(model_kernel_records_on_tiny_sm)
{
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    static const char gpu[] = "seer-gpu=1\nid=tiny-sm\nname=Tiny SM\ncc=8.0\nsms=1\nboost_mhz=1000\n"
                              "fp32_tflops=1\nfp16_tflops=4\ndram_gbps=100\ndram_gib=1\nl2_bytes=1024\n"
                              "threads_per_sm=32\nthreads_per_block=32\nwarps_per_sm=1\nblocks_per_sm=1\n";
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    REQUIRE(seer_gpu_register_buffer(h, gpu, sizeof gpu - 1, NULL) == SEER_STATUS_SUCCESS);
    seer_model_t m;
    REQUIRE(seer_model_open(h, "models", "tiny-sm", &m) == SEER_STATUS_SUCCESS);
    seer_conv_desc_t d;
    REQUIRE(seer_conv_desc_create(&d) == SEER_STATUS_SUCCESS);
    static const int counts[3] = {SEER_FWD_ALGO_COUNT, SEER_BWD_DATA_ALGO_COUNT, SEER_BWD_FILTER_ALGO_COUNT};
    int checked = 0, helpers = 0;
    for (int dt = 0; dt < 2; dt++) {
        REQUIRE(seer_conv_desc_set(h, d, dt ? SEER_DTYPE_FP16 : SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, 8, 32, 28, 28, 32, 3,
                                   3, 1, 1, 1, 1, 1, 1, 1) == SEER_STATUS_SUCCESS);
        for (int dir = 0; dir < 3; dir++)
            for (int a = 0; a < counts[dir]; a++) {
                seer_kernel_pred_t k[16];
                double t = 0;
                int n = 0;
                if (seer_predict_conv(h, m, d, (seer_direction_t)dir, a, &t, k, 16, &n) != SEER_STATUS_SUCCESS) continue;
                for (int i = 0; i < n; i++, checked++) {
                    helpers += k[i].role != SEER_ROLE_MAIN;
                    CHECK(k[i].blocks_per_sm >= 1 && k[i].bmax >= 1);
                    CHECK(isfinite(k[i].waves) && k[i].waves >= 1);
                    CHECK(k[i].last_fill > 0 && k[i].last_fill <= 1);
                }
            }
    }
    CHECK(checked > 20 && helpers > 5);
    seer_conv_desc_destroy(d);
    seer_model_destroy(m);
    seer_destroy(h);
}

/* A narrow grouped conv whose roofline is in range but whose legacy
 * kernels' slowdown takes it out returns BAD_PREDICTION writing nothing:
 * *time_ms (1.19e9 ms) and *n_kernels were written (GTX 1080 Ti,
 * FP16_PSEUDO bwd_filter ALGO_0, 1 x 2 x 32767 x 32767 -> 2, 2 groups,
 * 32768 x 1000 filter, pad 16383,500). */
TEST(model_bad_prediction_writes_nothing_grouped)
{
    if (access("models/gtx1080ti.seer", R_OK) != 0) SKIP("shipped models missing");
    static const int shape[14] = {1, 2, 32767, 32767, 2, 32768, 1000, 16383, 500, 1, 1, 1, 1, 2};
    seer_handle_t h;
    seer_model_t m;
    seer_conv_desc_t d;
    REQUIRE(test_served_conv("gtx1080ti", SEER_DTYPE_FP16_PSEUDO, SEER_LAYOUT_NCHW, shape, &h, &m, &d));
    seer_kernel_pred_t k[8], before[8];
    memset(k, 0x5a, sizeof k);
    memcpy(before, k, sizeof k);
    double t = -7;
    int n = -7;
    CHECK_STATUS(seer_predict_conv(h, m, d, SEER_DIR_BWD_FILTER, SEER_BWD_FILTER_ALGO_0, &t, k, 8, &n),
                 SEER_STATUS_BAD_PREDICTION);
    CHECK(strstr(seer_get_last_error(h), "out of range") != NULL);
    CHECK(t == -7 && n == -7 && memcmp(k, before, sizeof k) == 0);
    test_served_free(h, m, d);
}

TEST(model_predict_errors)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_model_t m = trained(h, "t4");
    if (!m) { seer_destroy(h); SKIP("shared data not found"); }
    seer_conv_desc_t d = conv(h, 8, 64, 28, 64), unset;
    REQUIRE(d != NULL);
    double t;
    CHECK_STATUS(seer_predict_conv(h, m, d, SEER_DIR_FWD, 3, &t, NULL, 0, NULL), SEER_STATUS_UNSUPPORTED);
    CHECK(strstr(seer_get_last_error(h), "DIRECT") != NULL);
    CHECK_STATUS(seer_predict_conv(h, m, d, SEER_DIR_FWD, 99, &t, NULL, 0, NULL), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_predict_conv(h, m, d, (seer_direction_t)7, 0, &t, NULL, 0, NULL), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_predict_conv(h, m, d, SEER_DIR_BWD_FILTER, SEER_BWD_FILTER_ALGO_WINOGRAD, &t, NULL, 0, NULL),
                 SEER_STATUS_UNSUPPORTED);
    /* NeuSight data is forward only: backward comes from the analytical
     * model and says so; cuDNN's own choice has nothing to go on */
    seer_kernel_pred_t kp[4];
    int nk = 0;
    CHECK_STATUS(seer_predict_conv(h, m, d, SEER_DIR_BWD_DATA, 1, &t, kp, 4, &nk), SEER_STATUS_SUCCESS);
    CHECK(t > 0 && nk >= 1 && kp[0].source == SEER_SOURCE_ANALYTICAL);
    CHECK(strcmp(seer_source_name(kp[0].source), "analytical") == 0);
    CHECK_STATUS(seer_predict_conv(h, m, d, SEER_DIR_FWD, 1, &t, kp, 4, &nk), SEER_STATUS_SUCCESS);
    CHECK(kp[0].source == SEER_SOURCE_CALIBRATED);
    CHECK_STATUS(seer_predict_conv(h, m, d, SEER_DIR_BWD_DATA, SEER_ALGO_CUDNN_CHOICE, &t, NULL, 0, NULL),
                 SEER_STATUS_NOT_CALIBRATED);
    CHECK(strstr(seer_get_last_error(h), "bwd_data") != NULL);
    CHECK_STATUS(seer_predict_conv(h, m, NULL, SEER_DIR_FWD, 0, &t, NULL, 0, NULL), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_conv_desc_create(&unset), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_predict_conv(h, m, unset, SEER_DIR_FWD, 0, &t, NULL, 0, NULL), SEER_STATUS_BAD_PARAM);
    /* Winograd needs 3x3 stride 1 */
    seer_conv_desc_t s2;
    seer_conv_desc_create(&s2);
    CHECK_STATUS(seer_conv_desc_set(h, s2, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, 8, 64, 28, 28, 64, 3, 3, 1, 1, 2, 2, 1, 1, 1),
                 SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_predict_conv(h, m, s2, SEER_DIR_FWD, SEER_FWD_ALGO_WINOGRAD, &t, NULL, 0, NULL),
                 SEER_STATUS_UNSUPPORTED);
    CHECK(strstr(seer_get_last_error(h), "stride") != NULL);
    /* T4 has no BF16 */
    CHECK_STATUS(seer_conv_desc_set(h, s2, SEER_DTYPE_BF16, SEER_LAYOUT_NCHW, 8, 64, 28, 28, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1),
                 SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_predict_conv(h, m, s2, SEER_DIR_FWD, SEER_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, &t, NULL, 0, NULL),
                 SEER_STATUS_UNSUPPORTED);
    CHECK(strstr(seer_get_last_error(h), "bf16") != NULL);
    seer_conv_desc_destroy(s2);
    seer_conv_desc_destroy(unset);
    seer_conv_desc_destroy(d);
    seer_model_destroy(m);
    seer_destroy(h);
}

/* A wgrad GEMM's output (K x C*R*S) is small and its reduction (N*P*Q)
 * long: the analytical model splits the reduction over blocks, as cuDNN
 * does, instead of one block walking all of it (1.38 ms against a
 * 0.32 ms roofline on a T4 before; 0.48 now). */
TEST(model_analytical_wgrad_splits_its_reduction)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_model_t m = trained(h, "t4");
    if (!m) { seer_destroy(h); SKIP("shared data not found"); }
    seer_conv_desc_t d;
    REQUIRE(seer_conv_desc_create(&d) == SEER_STATUS_SUCCESS);
    REQUIRE(seer_conv_desc_set(h, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, 16, 64, 112, 112, 64, 1, 1, 0, 0, 1, 1,
                               1, 1, 1) == SEER_STATUS_SUCCESS);
    seer_kernel_pred_t kp[4];
    int nk = 0;
    double t, floor_ms;
    seer_gpu_info_t g;
    REQUIRE(seer_gpu_find(h, "t4", &g) == SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_predict_conv(h, m, d, SEER_DIR_BWD_FILTER, 1, &t, kp, 4, &nk), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_conv_floor(h, &g, d, SEER_DIR_BWD_FILTER, 1, &floor_ms), SEER_STATUS_SUCCESS);
    CHECK(nk >= 1 && kp[0].source == SEER_SOURCE_ANALYTICAL);
    CHECK(kp[0].grid[0] * kp[0].grid[1] * kp[0].grid[2] >= 8); /* 1 before */
    CHECK(t < 3 * floor_ms);
    seer_conv_desc_destroy(d);
    seer_model_destroy(m);
    seer_destroy(h);
}

/* An implicit GEMM algorithm no GPU has data for borrows its sibling's
 * family, else cuDNN's choice's (model.c, borrowed_family): DeepBench's
 * backward rows record no algorithm, so ALGO_0 (cuDNN's choice's own
 * kernels) times as cuDNN's choice above its floor, and is labelled a
 * guess. */
TEST(model_implicit_gemm_borrows_cudnn_choice)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_model_t m = trained(h, "v100-sxm2-16gb");
    if (!m) { seer_destroy(h); SKIP("shared data not found"); }
    seer_conv_desc_t d = conv(h, 1, 64, 7, 64);
    REQUIRE(d != NULL);
    seer_kernel_pred_t kp[4];
    int nk = 0;
    double choice, a0, a1;
    for (int dir = SEER_DIR_BWD_DATA; dir <= SEER_DIR_BWD_FILTER; dir++) {
        CHECK_STATUS(seer_predict_conv(h, m, d, (seer_direction_t)dir, SEER_ALGO_CUDNN_CHOICE, &choice, NULL, 0, NULL),
                     SEER_STATUS_SUCCESS);
        CHECK_STATUS(seer_predict_conv(h, m, d, (seer_direction_t)dir, 0, &a0, kp, 4, &nk), SEER_STATUS_SUCCESS);
        CHECK(nk == 1 && kp[0].source == SEER_SOURCE_ANALYTICAL);
        CHECK(a0 == choice);
        CHECK_STATUS(seer_predict_conv(h, m, d, (seer_direction_t)dir, 1, &a1, NULL, 0, NULL), SEER_STATUS_SUCCESS);
        CHECK(a1 >= a0 && a1 < 1.5 * a0); /* the same family, and the precompute helper */
    }
    /* backward filter's ALGO_3 runs ALGO_0's kernels (launch.c): its
     * family, its one kernel, its FP32 time */
    double a3 = 0;
    CHECK_STATUS(seer_predict_conv(h, m, d, SEER_DIR_BWD_FILTER, SEER_BWD_FILTER_ALGO_3, &a3, kp, 4, &nk),
                 SEER_STATUS_SUCCESS);
    CHECK(nk == 1 && kp[0].source == SEER_SOURCE_ANALYTICAL && a3 == a0);
    seer_conv_desc_destroy(d);
    seer_model_destroy(m);
    seer_destroy(h);
}

/* cuDNN's choice of a backward-filter algorithm is the faster of the
 * implicit GEMM's structure and the non-fused Winograd's under its
 * family (model.c, physics): on a 3x3 conv of many channels cuDNN
 * runs Winograd, so the choice is below ALGO_0 (the implicit GEMM under
 * the same family) and its kernels are Winograd's; on a 1x1 conv, which
 * no Winograd runs, the two are one. */
TEST(model_wgrad_choice_takes_the_faster_structure)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_model_t m = trained(h, "v100-sxm2-16gb");
    if (!m) { seer_destroy(h); SKIP("shared data not found"); }
    seer_conv_desc_t d = conv(h, 16, 256, 14, 256);
    REQUIRE(d != NULL);
    seer_kernel_pred_t kp[4];
    int nk = 0, wino = 0;
    double choice, a0;
    CHECK_STATUS(seer_predict_conv(h, m, d, SEER_DIR_BWD_FILTER, SEER_ALGO_CUDNN_CHOICE, &choice, kp, 4, &nk),
                 SEER_STATUS_SUCCESS);
    for (int i = 0; i < nk; i++) wino |= strstr(kp[i].name, "transform") != NULL;
    CHECK(wino);
    CHECK_STATUS(seer_predict_conv(h, m, d, SEER_DIR_BWD_FILTER, 0, &a0, NULL, 0, NULL), SEER_STATUS_SUCCESS);
    CHECK(choice < a0);
    REQUIRE(seer_conv_desc_set(h, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, 16, 256, 14, 14, 256, 1, 1, 0, 0, 1, 1,
                               1, 1, 1) == SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_predict_conv(h, m, d, SEER_DIR_BWD_FILTER, SEER_ALGO_CUDNN_CHOICE, &choice, kp, 4, &nk),
                 SEER_STATUS_SUCCESS);
    CHECK(nk == 1);
    CHECK_STATUS(seer_predict_conv(h, m, d, SEER_DIR_BWD_FILTER, 0, &a0, NULL, 0, NULL), SEER_STATUS_SUCCESS);
    CHECK(choice == a0);
    /* tensor-core math over NCHW: the implicit GEMM's structure has
     * cuDNN's NHWC transposes around it, the Winograd's reads NCHW */
    REQUIRE(seer_conv_desc_set(h, d, SEER_DTYPE_FP16, SEER_LAYOUT_NCHW, 1, 512, 56, 56, 512, 3, 3, 1, 1, 1, 1,
                               1, 1, 1) == SEER_STATUS_SUCCESS);
    seer_kernel_pred_t kt[8];
    CHECK_STATUS(seer_predict_conv(h, m, d, SEER_DIR_BWD_FILTER, SEER_ALGO_CUDNN_CHOICE, &choice, kt, 8, &nk),
                 SEER_STATUS_SUCCESS);
    int tr = 0;
    wino = 0;
    for (int i = 0; i < nk; i++) {
        wino |= strstr(kt[i].name, "transform") != NULL;
        tr |= strstr(kt[i].name, "nchwToNhwc") != NULL;
    }
    CHECK(wino && !tr && nk == 3);
    seer_conv_desc_destroy(d);
    seer_model_destroy(m);
    seer_destroy(h);
}

TEST(model_train_errors)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_model_t m = NULL;
    const char *missing = "/nonexistent/x.csv", *nullpath[2] = {"/nonexistent/x.csv", NULL};
    CHECK_STATUS(seer_train(h, "t4", nullpath, 2, 0, &m), SEER_STATUS_BAD_PARAM);
    CHECK(strstr(seer_get_last_error(h), "paths[1]") != NULL);
    CHECK_STATUS(seer_train(h, "t4", &missing, 1, 0, &m), SEER_STATUS_IO_ERROR);
    CHECK_STATUS(seer_train(h, "no-such-gpu", &missing, 1, 0, &m), SEER_STATUS_UNKNOWN_GPU);
    CHECK(strstr(seer_get_last_error(h), "no-such-gpu") != NULL);
    const char csv[] = "gpu,direction,dtype,layout,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,stride_w,dil_h,dil_w,groups,algo,time_ms\n"
                       "t4,fwd,fp32,nchw,1,8,8,8,8,3,3,1,1,1,1,1,1,1,IMPLICIT_GEMM,0.1\n";
    const char *p = write_tmp(csv, sizeof csv - 1);
    REQUIRE(p != NULL);
    char path[64];
    strcpy(path, p);
    const char *pp = path;
    CHECK_STATUS(seer_train(h, "a100-pcie-80gb", &pp, 1, 0, &m), SEER_STATUS_NO_DATA);
    CHECK_STATUS(seer_train(h, "t4", &pp, 1, 0, &m), SEER_STATUS_NO_DATA);
    CHECK(m == NULL);
    unlink(path);
    seer_destroy(h);
}


/* 8 threads on one handle and one model give bit-identical results to a
 * serial run. */
#define NSHAPES 64
struct job { seer_handle_t h; seer_model_t m; seer_conv_desc_t *d; double out[NSHAPES][8]; };

static void *worker(void *arg)
{
    struct job *j = arg;
    for (int rep = 0; rep < 3; rep++)
        for (int i = 0; i < NSHAPES; i++)
            for (int a = 0; a < 8; a++) {
                double t = -1;
                if (seer_predict_conv(j->h, j->m, j->d[i], SEER_DIR_FWD, a, &t, NULL, 0, NULL)) t = -1;
                j->out[i][a] = t;
            }
    return NULL;
}

TEST(model_threads_bit_identical)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_model_t m = trained(h, "a100-pcie-80gb");
    if (!m) { seer_destroy(h); SKIP("shared data not found"); }
    seer_conv_desc_t d[NSHAPES];
    for (int i = 0; i < NSHAPES; i++) d[i] = conv(h, 1 + i % 17, 3 + i * 29 % 500, 5 + i * 7 % 60, 8 + i * 37 % 700);
    static struct job serial, par[8];
    serial.h = h; serial.m = m; serial.d = d;
    worker(&serial);
    pthread_t th[8];
    for (int t = 0; t < 8; t++) {
        par[t].h = h; par[t].m = m; par[t].d = d;
        REQUIRE(pthread_create(&th[t], NULL, worker, &par[t]) == 0);
    }
    for (int t = 0; t < 8; t++) pthread_join(th[t], NULL);
    for (int t = 0; t < 8; t++) CHECK(memcmp(serial.out, par[t].out, sizeof serial.out) == 0);
    int some = 0;
    for (int i = 0; i < NSHAPES; i++) some += serial.out[i][7] > 0;
    CHECK(some > NSHAPES / 2);
    for (int i = 0; i < NSHAPES; i++) seer_conv_desc_destroy(d[i]);
    seer_model_destroy(m);
    seer_destroy(h);
}

TEST(model_predict_kernel)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_model_t m = trained(h, "t4");
    if (!m) { seer_destroy(h); SKIP("shared data not found"); }
    seer_kernel_desc_t k = {{160, 1, 1}, {256, 1, 1}, 64, 8192, 4e9, 1e8, SEER_DTYPE_FP32};
    seer_kernel_pred_t p;
    CHECK_STATUS(seer_predict_kernel(h, m, &k, &p), SEER_STATUS_SUCCESS);
    CHECK(p.blocks_per_sm == 4);
    CHECK(p.bmax == 160 && p.waves == 1 && p.last_fill == 1);
    CHECK(p.time_ms > 0);
    seer_kernel_desc_t k2 = k;
    k2.grid[0] = 1600;
    seer_kernel_pred_t p2;
    k2.flops *= 10;
    k2.dram_bytes *= 10;
    CHECK_STATUS(seer_predict_kernel(h, m, &k2, &p2), SEER_STATUS_SUCCESS);
    CHECK(p2.waves == 10 && p2.time_ms > p.time_ms);
    k2.block[0] = 2048;
    CHECK_STATUS(seer_predict_kernel(h, m, &k2, &p2), SEER_STATUS_BAD_PARAM);
    k2.block[0] = 256;
    k2.grid[1] = 0;
    CHECK_STATUS(seer_predict_kernel(h, m, &k2, &p2), SEER_STATUS_BAD_PARAM);
    CHECK(strstr(seer_get_last_error(h), "grid[1]") != NULL);
    seer_model_destroy(m);
    seer_destroy(h);
}

#include "model.h"

/* Training from a kernel trace: calls are summed into layers, and the
 * recorded registers give the residency exactly (occupancy calculator),
 * not the grid search. */
TEST(model_train_from_kernel_trace)
{
    char path[] = "/tmp/seer-trace-XXXXXX";
    int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    FILE *f = fdopen(fd, "w");
    REQUIRE(f != NULL);
    fprintf(f, "gpu,direction,dtype,layout,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,stride_w,dil_h,dil_w,groups,"
               "algo,call_id,kernel_index,kernel_name,grid_x,grid_y,grid_z,block_x,block_y,block_z,"
               "regs_per_thread,smem_static,smem_dynamic,time_ms,source\n");
    for (int i = 0; i < 60; i++) {
        int n = 1 + i % 16, c = 16 << (i % 5), hw = 7 + (i * 5) % 50, k = 32 << (i % 4);
        double flops = 2.0 * n * k * hw * hw * c * 9;
        /* main kernel + a small helper, as IMPLICIT_PRECOMP_GEMM launches */
        fprintf(f, "t4,fwd,fp32,nchw,%d,%d,%d,%d,%d,3,3,1,1,1,1,1,1,1,IMPLICIT_PRECOMP_GEMM,%d,0,"
                   "\"sgemm_128x64_nn\",1,1,1,256,1,1,128,16384,0,%.6f,test\n",
                n, c, hw, hw, k, i, 0.01 + flops / 5e9);
        fprintf(f, "t4,fwd,fp32,nchw,%d,%d,%d,%d,%d,3,3,1,1,1,1,1,1,1,IMPLICIT_PRECOMP_GEMM,%d,1,"
                   "\"computeOffsetsKernel\",1,1,1,128,1,1,16,0,0,0.003,test\n",
                n, c, hw, hw, k, i);
    }
    fclose(f);
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    const char *p = path;
    seer_model_t m = NULL;
    CHECK_STATUS(seer_train(h, "t4", &p, 1, 0, &m), SEER_STATUS_SUCCESS);
    REQUIRE(m != NULL);
    const seer_family_t *fam = seer_model_family(m, SEER_DIR_FWD, SEER_FWD_ALGO_IMPLICIT_PRECOMP_GEMM,
                                                 SEER_DTYPE_FP32);
    REQUIRE(fam != NULL);
    CHECK(fam->n_rows == 60);
    CHECK(strcmp(fam->var[0].name, "sgemm_128x64_nn") == 0);
    CHECK(fam->var[0].tm == 128 && fam->var[0].tn == 64 && fam->var[0].threads == 256);
    /* T4: 128 registers x 256 threads = 32768 per block -> 2 blocks per SM
     * (16 KB of shared memory would allow 3) */
    CHECK(fam->var[0].bps == 2);
    seer_conv_desc_t d = conv(h, 8, 64, 28, 128);
    double t;
    CHECK_STATUS(seer_predict_conv(h, m, d, SEER_DIR_FWD, SEER_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, &t, NULL, 0, NULL),
                 SEER_STATUS_SUCCESS);
    CHECK(t > 0.01);
    seer_conv_desc_destroy(d);
    seer_model_destroy(m);
    seer_destroy(h);
    unlink(path);
}

TEST(model_fill_scaled_by_measured_speed)
{
    /* A calibrated GPU's missing families come from the others, scaled by
     * how much slower its own measured kernels of the same direction and
     * math run than the others' transferred to it: 1 exactly against a
     * transfer from itself; the T4 (70 W) runs its forward fp32 kernels
     * slower than the others' efficiencies say, and has no backward data,
     * so its backward families come unscaled. */
    const char *ids[] = {"t4", "a100-pcie-80gb", "v100-pcie-32gb", "v100-sxm2-16gb", "gtx1080ti"};
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_model_t src[5] = {NULL}, self = NULL, others = NULL, served = NULL;
    int ok = 1;
    for (int i = 0; i < 5; i++) {
        char path[64];
        snprintf(path, sizeof path, "models/%s.seer", ids[i]);
        ok &= seer_model_load(h, path, &src[i]) == SEER_STATUS_SUCCESS;
    }
    if (!ok) {
        for (int i = 0; i < 5; i++) seer_model_destroy(src[i]);
        seer_destroy(h);
        SKIP("shipped models missing");
    }
    REQUIRE(seer_model_transfer(h, src, 1, "t4", &self) == SEER_STATUS_SUCCESS);
    REQUIRE(seer_model_transfer(h, src + 1, 4, "t4", &others) == SEER_STATUS_SUCCESS);
    REQUIRE(seer_model_open(h, "models", "t4", &served) == SEER_STATUS_SUCCESS);
    double one = seer_model_efficiency_ratio(src[0], self, SEER_DIR_FWD, 0);
    double q = seer_model_efficiency_ratio(src[0], others, SEER_DIR_FWD, 0);
    double qb = seer_model_efficiency_ratio(src[0], others, SEER_DIR_BWD_DATA, 0);
    printf("  t4 forward fp32 against itself %.6f, against the others %.3f; backward %.3f\n", one, q, qb);
    CHECK(fabs(one - 1) < 1e-12);
    CHECK(q > 1.05 && q <= 2);
    CHECK(qb == 1);
    char want[48];
    snprintf(want, sizeof want, "; scaled fwd fp32 x%.3f", q);
    CHECK(strstr(served->provenance, want) != NULL);
    /* filled families: the others' coefficients times the ratio of their
     * direction and math, but the launch gaps */
    struct { seer_direction_t dir; int algo; double q; } keys[] = {
        {SEER_DIR_FWD, SEER_FWD_ALGO_FFT_TILING, q}, {SEER_DIR_BWD_DATA, SEER_ALGO_CUDNN_CHOICE, 1}};
    for (int j = 0; j < 2; j++) {
        const seer_family_t *fs = seer_model_family(served, keys[j].dir, keys[j].algo, SEER_DTYPE_FP32);
        const seer_family_t *fo = seer_model_family(others, keys[j].dir, keys[j].algo, SEER_DTYPE_FP32);
        REQUIRE(fs && fo && !strcmp(served->src[fs->src].id, others->src[fo->src].id) &&
                strcmp(served->src[fs->src].id, "t4"));
        const double *cs = fs->var[0].coef[SEER_ALL_CLASSES], *co = fo->var[0].coef[SEER_ALL_CLASSES];
        for (int i = 0; i < SEER_NTERMS; i++)
            CHECK_NEAR(cs[i], i == SEER_T_CONST ? co[i] : keys[j].q * co[i], 1e-9);
    }
    seer_model_destroy(served);
    seer_model_destroy(others);
    seer_model_destroy(self);
    for (int i = 0; i < 5; i++) seer_model_destroy(src[i]);
    seer_destroy(h);
}

TEST(model_analytical_scaled_by_its_kind)
{
    /* A (direction, algorithm) no GPU has a family for is the analytical
     * family's time times the scale of its kind: how the model's forward
     * family of that kind runs against the analytical one (exactly that
     * ratio on the forward family's own layers), 1 for tensor-core math
     * without a tensor-core family of the kind. */
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_model_t m = NULL;
    if (seer_model_load(h, "models/a100-pcie-80gb.seer", &m) != SEER_STATUS_SUCCESS) {
        seer_destroy(h);
        SKIP("shipped models missing");
    }
    double s = m->ascale[0][SEER_K_FFT_TILING];
    printf("  a100-pcie-80gb FFT tiling scale %.3f, non-fused Winograd %.3f\n", s, m->ascale[0][SEER_K_WINO_NF]);
    CHECK(s >= 0.5 && s <= 2 && s != 1);
    CHECK(m->ascale[1][SEER_K_FFT_TILING] == 0);
    seer_conv_desc_t d;
    REQUIRE(seer_conv_desc_create(&d) == SEER_STATUS_SUCCESS);
    seer_conv_shape_t sh = {64, 256, 28, 28, 256, 3, 3, 1, 1, 1, 1, 1, 1, 1};
    REQUIRE(seer_conv_desc_set_shape(h, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, &sh) == SEER_STATUS_SUCCESS);
    double t, t0;
    REQUIRE(seer_predict_conv(h, m, d, SEER_DIR_BWD_DATA, SEER_BWD_DATA_ALGO_FFT_TILING, &t, NULL, 0, NULL) ==
            SEER_STATUS_SUCCESS);
    double saved[2][SEER_K_NONE];
    memcpy(saved, m->ascale, sizeof saved);
    memset(m->ascale, 0, sizeof m->ascale);
    REQUIRE(seer_predict_conv(h, m, d, SEER_DIR_BWD_DATA, SEER_BWD_DATA_ALGO_FFT_TILING, &t0, NULL, 0, NULL) ==
            SEER_STATUS_SUCCESS);
    memcpy(m->ascale, saved, sizeof saved);
    CHECK_NEAR(t / t0, s, 1e-9);
    /* recomputing gives the same scales (computed unscaled) */
    seer_model_set_analytical_scales(m);
    CHECK(!memcmp(saved, m->ascale, sizeof saved));
    seer_conv_desc_destroy(d);
    seer_model_destroy(m);
    seer_destroy(h);
}

/* Every kernel record keeps the documented invariants, the narrow
 * grouped conv's roofline path too (it once gave bmax, waves and
 * last_fill of 0, for callers that divide by them). */
TEST(model_kernel_records_keep_their_invariants)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_model_t m = NULL;
    if (seer_model_load(h, "models/t4.seer", &m)) { seer_destroy(h); SKIP("shipped models missing"); }
    seer_conv_desc_t d;
    REQUIRE(seer_conv_desc_create(&d) == SEER_STATUS_SUCCESS);
    static const int groups[] = {1, 32, 64};
    int checked = 0;
    for (int gi = 0; gi < 3; gi++) {
        REQUIRE(seer_conv_desc_set(h, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, 32, 64, 56, 56, 64, 3, 3, 1, 1, 1, 1, 1,
                                   1, groups[gi]) == SEER_STATUS_SUCCESS);
        for (int a = 0; a < SEER_FWD_ALGO_COUNT; a++) {
            seer_kernel_pred_t k[8];
            int nk = 0;
            double t;
            if (seer_predict_conv(h, m, d, SEER_DIR_FWD, a, &t, k, 8, &nk)) continue;
            for (int i = 0; i < nk; i++, checked++)
                CHECK(k[i].bmax >= 1 && k[i].waves >= 1 && k[i].last_fill > 0 && k[i].last_fill <= 1 &&
                      k[i].blocks_per_sm >= 1 && k[i].grid[0] >= 1 && k[i].block[0] >= 1);
        }
    }
    CHECK(checked > 10);
    seer_conv_desc_destroy(d);
    seer_model_destroy(m);
    seer_destroy(h);
}

/* A narrow grouped conv runs cuDNN's grouped or depthwise kernels on the
 * CUDA cores (model.c, grouped_conv): an algorithm's time is no faster in
 * FP16 than its FLOPs at 5 % of the FP32 rate, and a small MobileNetV2
 * depthwise layer is not held to a quarter of its dense conv (measured
 * on an H100, FP16 NHWC, 8 x 144 x 56 x 56: 15 us either way; the
 * roofline at 60 % of the FP16 tensor-core peak and the quarter took it
 * to 8 us). */
TEST(model_narrow_grouped_on_cuda_cores)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_model_t m = NULL;
    if (seer_model_open(h, "models", "h100-sxm5-80gb", &m)) { seer_destroy(h); SKIP("shipped models missing"); }
    seer_gpu_info_t g;
    REQUIRE(seer_model_get_gpu(m, &g) == SEER_STATUS_SUCCESS);
    seer_conv_desc_t d;
    REQUIRE(seer_conv_desc_create(&d) == SEER_STATUS_SUCCESS);
    double t[2];
    for (int dense = 0; dense < 2; dense++) {
        int groups = dense ? 1 : 144, algo;
        REQUIRE(seer_conv_desc_set(h, d, SEER_DTYPE_FP16, SEER_LAYOUT_NHWC, 8, 144, 56, 56, 144, 3, 3, 1, 1, 1, 1, 1, 1,
                                   groups) == SEER_STATUS_SUCCESS);
        REQUIRE(seer_pick_conv_fastest(h, m, d, SEER_DIR_FWD, &algo, &t[dense]) == SEER_STATUS_SUCCESS);
    }
    /* each algorithm's own time: the grouped kernels' FLOPs at 5 % of
     * the FP32 rate; the fastest may come from fewer groups (seer_picker_best:
     * the 3-group conv's 16 us, against 15 measured) */
    double flops = 2.0 * 8 * 144 * 56 * 56 * 9, own;
    REQUIRE(seer_conv_desc_set(h, d, SEER_DTYPE_FP16, SEER_LAYOUT_NHWC, 8, 144, 56, 56, 144, 3, 3, 1, 1, 1, 1, 1, 1,
                               144) == SEER_STATUS_SUCCESS);
    REQUIRE(seer_predict_conv(h, m, d, SEER_DIR_FWD, SEER_FWD_ALGO_IMPLICIT_GEMM, &own, NULL, 0, NULL) ==
            SEER_STATUS_SUCCESS);
    CHECK(own * 1e-3 >= flops / (0.05 * g.fp32_tflops * 1e12));
    CHECK(t[0] > 0.010 && t[0] < 0.05);
    CHECK(t[0] > t[1] / 4 && t[0] <= t[1]);
    /* its helpers are plain streaming kernels: im2col at 80 % of the
     * bandwidth, not the grouped kernel's 15 % (which put the explicit
     * GEMMs 4-8x over their measured times) */
    REQUIRE(seer_conv_desc_set(h, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, 8, 144, 56, 56, 144, 3, 3, 1, 1, 1, 1, 1, 1,
                               144) == SEER_STATUS_SUCCESS);
    seer_kernel_pred_t k[8];
    int nk = 0, helpers = 0;
    double ms = 0;
    REQUIRE(seer_predict_conv(h, m, d, SEER_DIR_FWD, SEER_FWD_ALGO_GEMM, &ms, k, 8, &nk) == SEER_STATUS_SUCCESS);
    for (int i = 0; i < nk; i++)
        if (k[i].role != SEER_ROLE_MAIN) {
            helpers++;
            CHECK(k[i].time_ms <= k[i].dram_bytes / (0.5 * g.dram_gbps * 1e9) * 1e3 + 0.01);
        }
    CHECK(helpers > 0);
    seer_conv_desc_destroy(d);
    seer_model_destroy(m);
    seer_destroy(h);
}

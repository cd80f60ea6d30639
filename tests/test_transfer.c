/* Models for uncalibrated GPUs (seer_model_transfer, seer_model_open). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gemm.h"
#include "model.h"
#include "test.h"

static int load2(seer_handle_t h, seer_model_t m[2])
{
    return seer_model_load(h, "models/t4.seer", &m[0]) == SEER_STATUS_SUCCESS &&
           seer_model_load(h, "models/a100-pcie-80gb.seer", &m[1]) == SEER_STATUS_SUCCESS;
}

TEST(transfer_to_hopper)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_model_t src[2] = {NULL, NULL}, x = NULL, y = NULL;
    if (!load2(h, src)) { seer_model_destroy(src[0]); seer_destroy(h); SKIP("shipped models missing"); }
    CHECK_STATUS(seer_model_transfer(h, src, 2, "h100", &x), SEER_STATUS_SUCCESS);
    seer_model_info_t info;
    CHECK_STATUS(seer_model_get_info(x, &info), SEER_STATUS_SUCCESS);
    CHECK(info.transferred == 1);
    CHECK(strcmp(info.gpu_id, "h100-sxm5-80gb") == 0);
    CHECK(strstr(info.source_gpus, "a100-pcie-80gb") != NULL); /* nearest architecture first */
    /* the same sources in another order give the same model */
    seer_model_t rev[2] = {src[1], src[0]};
    CHECK_STATUS(seer_model_transfer(h, rev, 2, "h100-sxm5-80gb", &y), SEER_STATUS_SUCCESS);
    seer_model_info_t iy;
    seer_model_get_info(y, &iy);
    CHECK(iy.checksum == info.checksum);

    /* a big conv is faster on the H100 than on the A100 it came from */
    seer_conv_desc_t d;
    seer_conv_desc_create(&d);
    REQUIRE(seer_conv_desc_set(h, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, 64, 256, 56, 56, 256, 3, 3, 1, 1,
                               1, 1, 1, 1, 1) == SEER_STATUS_SUCCESS);
    double th = 0, ta = 0;
    CHECK_STATUS(seer_predict_conv(h, x, d, SEER_DIR_FWD, SEER_FWD_ALGO_WINOGRAD_NONFUSED, &th, NULL, 0, NULL),
                 SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_predict_conv(h, src[1], d, SEER_DIR_FWD, SEER_FWD_ALGO_WINOGRAD_NONFUSED, &ta, NULL, 0, NULL),
                 SEER_STATUS_SUCCESS);
    CHECK(th > 0 && th < ta);
    /* the kernels' waves use the target's 132 SMs */
    seer_kernel_pred_t k[4];
    int nk;
    CHECK_STATUS(seer_predict_conv(h, x, d, SEER_DIR_FWD, SEER_FWD_ALGO_WINOGRAD_NONFUSED, &th, k, 4, &nk),
                 SEER_STATUS_SUCCESS);
    CHECK(k[0].bmax % 132 == 0);
    seer_conv_desc_destroy(d);
    seer_model_destroy(x);
    seer_model_destroy(y);
    seer_model_destroy(src[0]);
    seer_model_destroy(src[1]);
    seer_destroy(h);
}

TEST(transfer_bad_input)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_model_t src[2] = {NULL, NULL}, x = NULL;
    CHECK_STATUS(seer_model_transfer(h, NULL, 1, "h100", &x), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_model_transfer(h, src, 0, "h100", &x), SEER_STATUS_BAD_PARAM);
    if (!load2(h, src)) { seer_model_destroy(src[0]); seer_destroy(h); SKIP("shipped models missing"); }
    CHECK_STATUS(seer_model_transfer(h, src, 2, "h900", &x), SEER_STATUS_UNKNOWN_GPU);
    CHECK(strstr(seer_get_last_error(h), "h900") != NULL);
    CHECK(x == NULL);
    /* a dtype the target cannot run: BF16 on a Pascal GPU */
    CHECK_STATUS(seer_model_transfer(h, src, 2, "titan-xp", &x), SEER_STATUS_SUCCESS);
    seer_conv_desc_t d;
    seer_conv_desc_create(&d);
    REQUIRE(seer_conv_desc_set(h, d, SEER_DTYPE_BF16, SEER_LAYOUT_NCHW, 8, 64, 28, 28, 64, 3, 3, 1, 1, 1,
                               1, 1, 1, 1) == SEER_STATUS_SUCCESS);
    double t;
    CHECK_STATUS(seer_predict_conv(h, x, d, SEER_DIR_FWD, SEER_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, &t, NULL, 0, NULL),
                 SEER_STATUS_UNSUPPORTED);
    CHECK(strstr(seer_get_last_error(h), "titan-xp") != NULL);
    seer_conv_desc_destroy(d);
    seer_model_destroy(x);
    seer_model_destroy(src[0]);
    seer_model_destroy(src[1]);
    seer_destroy(h);
}

TEST(model_open_calibrated_or_transferred)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    if (access("models/t4.seer", R_OK) != 0) { seer_destroy(h); SKIP("shipped models missing"); }
    seer_model_t m = NULL;
    seer_model_info_t info;
    CHECK_STATUS(seer_model_open(h, "models", "t4", &m), SEER_STATUS_SUCCESS);
    seer_model_get_info(m, &info);
    /* calibrated, and what its data lacks (backward, tensor cores) comes
     * from the other calibrated GPUs */
    CHECK(info.transferred == 0 && strncmp(info.source_gpus, "t4 ", 3) == 0);
    CHECK(strstr(info.provenance, "what it has no data for transferred from:") != NULL);
    seer_conv_desc_t d;
    REQUIRE(seer_conv_desc_create(&d) == SEER_STATUS_SUCCESS);
    REQUIRE(seer_conv_desc_set(h, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, 8, 64, 28, 28, 64, 3, 3, 1, 1, 1, 1, 1,
                               1, 1) == SEER_STATUS_SUCCESS);
    seer_kernel_pred_t kp[4];
    double t;
    int nk;
    CHECK_STATUS(seer_predict_conv(h, m, d, SEER_DIR_FWD, SEER_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, &t, kp, 4, &nk),
                 SEER_STATUS_SUCCESS);
    CHECK(kp[0].source == SEER_SOURCE_CALIBRATED);
    CHECK_STATUS(seer_predict_conv(h, m, d, SEER_DIR_BWD_DATA, SEER_ALGO_CUDNN_CHOICE, &t, kp, 4, &nk),
                 SEER_STATUS_SUCCESS);
    CHECK(kp[0].source == SEER_SOURCE_TRANSFERRED);
    seer_conv_desc_destroy(d);
    seer_model_destroy(m);
    CHECK_STATUS(seer_model_open(h, "models", "l4", &m), SEER_STATUS_SUCCESS);
    seer_model_get_info(m, &info);
    CHECK(info.transferred == 1 && strcmp(info.gpu_id, "l4") == 0);
    seer_model_destroy(m);
    m = NULL;
    CHECK_STATUS(seer_model_open(h, "/nonexistent-models", "l4", &m), SEER_STATUS_IO_ERROR);
    CHECK_STATUS(seer_model_open(h, "models", "no-such-gpu", &m), SEER_STATUS_UNKNOWN_GPU);
    char dir[] = "/tmp/seer-empty-XXXXXX";
    REQUIRE(mkdtemp(dir) != NULL);
    CHECK_STATUS(seer_model_open(h, dir, "l4", &m), SEER_STATUS_NO_DATA);
    CHECK(m == NULL);
    rmdir(dir);
    seer_destroy(h);
}

/* Where calibrated GPUs of the nearest compute capability (several where
 * they tie) measured a family, the transferred model keeps each one's
 * family and predicts their geometric mean: an RTX 2080 Ti (7.5) from a
 * V100 PCIe (7.0) and an A100 (8.0).  One further off is left out: an
 * H100 (9.0) from a T4 (7.5) and that A100 is the A100's alone. */
TEST(transfer_averages_nearest_sources)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_model_t src[2] = {NULL, NULL}, both = NULL, one[2] = {NULL, NULL};
    if (!load2(h, src)) { seer_model_destroy(src[0]); seer_destroy(h); SKIP("shipped models missing"); }
    {
        seer_model_t h100 = NULL, a100 = NULL;
        CHECK_STATUS(seer_model_transfer(h, src, 2, "h100-sxm5-80gb", &h100), SEER_STATUS_SUCCESS);
        CHECK_STATUS(seer_model_transfer(h, &src[1], 1, "h100-sxm5-80gb", &a100), SEER_STATUS_SUCCESS);
        seer_conv_desc_t d;
        seer_conv_desc_create(&d);
        REQUIRE(seer_conv_desc_set(h, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, 32, 128, 28, 28, 128, 3, 3, 1, 1, 1,
                                   1, 1, 1, 1) == SEER_STATUS_SUCCESS);
        double tb = 0, ta = 0;
        CHECK_STATUS(seer_predict_conv(h, h100, d, SEER_DIR_FWD, SEER_FWD_ALGO_WINOGRAD_NONFUSED, &tb, NULL, 0, NULL),
                     SEER_STATUS_SUCCESS);
        CHECK_STATUS(seer_predict_conv(h, a100, d, SEER_DIR_FWD, SEER_FWD_ALGO_WINOGRAD_NONFUSED, &ta, NULL, 0, NULL),
                     SEER_STATUS_SUCCESS);
        CHECK_NEAR(tb, ta, 1e-12);
        seer_conv_desc_destroy(d);
        seer_model_destroy(h100);
        seer_model_destroy(a100);
    }
    /* the V100 PCIe in place of the T4 */
    seer_model_destroy(src[0]);
    src[0] = NULL;
    REQUIRE(seer_model_load(h, "models/v100-pcie-32gb.seer", &src[0]) == SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_model_transfer(h, src, 2, "rtx2080ti", &both), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_model_transfer(h, &src[0], 1, "rtx2080ti", &one[0]), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_model_transfer(h, &src[1], 1, "rtx2080ti", &one[1]), SEER_STATUS_SUCCESS);
    seer_model_info_t ib, i0, i1;
    seer_model_get_info(both, &ib);
    seer_model_get_info(one[0], &i0);
    seer_model_get_info(one[1], &i1);
    CHECK(ib.n_families > i0.n_families && ib.n_families > i1.n_families);
    seer_conv_desc_t d;
    seer_conv_desc_create(&d);
    REQUIRE(seer_conv_desc_set(h, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, 32, 128, 28, 28, 128, 3, 3, 1, 1,
                               1, 1, 1, 1, 1) == SEER_STATUS_SUCCESS);
    double tb = 0, t0 = 0, t1 = 0;
    seer_kernel_pred_t k[4];
    int nk = 0;
    CHECK_STATUS(seer_predict_conv(h, both, d, SEER_DIR_FWD, SEER_FWD_ALGO_WINOGRAD_NONFUSED, &tb, k, 4, &nk),
                 SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_predict_conv(h, one[0], d, SEER_DIR_FWD, SEER_FWD_ALGO_WINOGRAD_NONFUSED, &t0, NULL, 0, NULL),
                 SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_predict_conv(h, one[1], d, SEER_DIR_FWD, SEER_FWD_ALGO_WINOGRAD_NONFUSED, &t1, NULL, 0, NULL),
                 SEER_STATUS_SUCCESS);
    CHECK(t0 != t1);
    CHECK_NEAR(tb, sqrt(t0 * t1), 1e-9);
    /* the kernel breakdown still sums to the prediction */
    double sum = 0;
    for (int i = 0; i < nk; i++) sum += k[i].time_ms;
    CHECK_NEAR(sum, tb, 1e-9);
    seer_conv_desc_destroy(d);
    seer_model_destroy(both);
    seer_model_destroy(one[0]);
    seer_model_destroy(one[1]);
    seer_model_destroy(src[0]);
    seer_model_destroy(src[1]);
    seer_destroy(h);
}

/* GEMM: the one fit with the most breadth among the nearest
 * architectures, never an average (docs/transfer.md): a GPU whose GEMM
 * rows are few (DeepBench's V100 SXM2) does not serve a V100 PCIe over a
 * T4 fitted on thousands. */
TEST(transfer_gemm_from_broadest_nearest_source)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_model_t src[3] = {NULL, NULL, NULL}, x = NULL;
    if (seer_model_load(h, "models/t4.seer", &src[0]) || seer_model_load(h, "models/a100-pcie-80gb.seer", &src[1]) ||
        seer_model_load(h, "models/v100-sxm2-16gb.seer", &src[2])) {
        for (int i = 0; i < 3; i++) seer_model_destroy(src[i]);
        seer_destroy(h);
        SKIP("shipped models missing");
    }
    CHECK_STATUS(seer_model_transfer(h, src, 3, "v100-pcie-32gb", &x), SEER_STATUS_SUCCESS);
    double tx = 0, ts = 0;
    CHECK_STATUS(seer_predict_gemm(h, x, 1, 1024, 1024, 1024, SEER_DTYPE_FP32, 0, 0, 0, &tx, NULL), SEER_STATUS_SUCCESS);
    seer_model_t only_t4 = NULL;
    CHECK_STATUS(seer_model_transfer(h, src, 1, "v100-pcie-32gb", &only_t4), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_predict_gemm(h, only_t4, 1, 1024, 1024, 1024, SEER_DTYPE_FP32, 0, 0, 0, &ts, NULL), SEER_STATUS_SUCCESS);
    CHECK(tx == ts);
    /* each kind from its own kind: the T4's batched fit serves batched products */
    CHECK(memcmp(&x->gemm[0][0], &src[0]->gemm[0][0], sizeof x->gemm[0][0]) == 0);
    CHECK(memcmp(&x->gemm[0][1], &src[0]->gemm[0][1], sizeof x->gemm[0][1]) == 0);
    CHECK(x->gemm[0][1].tm != x->gemm[0][0].tm || x->gemm[0][1].bps != x->gemm[0][0].bps);
    /* tensor-core GEMMs: only the V100 SXM2 measured them, so it serves */
    CHECK_STATUS(seer_predict_gemm(h, x, 1, 1024, 1024, 1024, SEER_DTYPE_FP16, 0, 0, 0, &tx, NULL), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_predict_gemm(h, only_t4, 1, 1024, 1024, 1024, SEER_DTYPE_FP16, 0, 0, 0, &ts, NULL),
                 SEER_STATUS_NOT_CALIBRATED);
    seer_model_destroy(only_t4);
    seer_model_destroy(x);
    for (int i = 0; i < 3; i++) seer_model_destroy(src[i]);
    seer_destroy(h);
}

/* A GPU between two calibrated architectures (an L4, 8.9, between the
 * A100's 8.0 and Hopper's 9.0) is timed by both FP32 fits, their
 * geometric mean, which the file keeps: of the two Hopper fits the
 * H100's, whose FLOPs per DRAM byte are nearer the L4's (the H200's has
 * more rows); a Hopper GPU, which has a source of its own architecture,
 * and the tensor-core fits (no solid source on either side) take one. */
TEST(transfer_gemm_between_two_architectures_takes_both)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_model_t src[4] = {NULL, NULL, NULL, NULL}, x = NULL, y = NULL, one = NULL;
    if (seer_model_load(h, "models/t4.seer", &src[0]) || seer_model_load(h, "models/a100-pcie-80gb.seer", &src[1]) ||
        seer_model_load(h, "models/h100-sxm5-80gb.seer", &src[2]) ||
        seer_model_load(h, "models/h200-sxm-141gb.seer", &src[3])) {
        for (int i = 0; i < 4; i++) seer_model_destroy(src[i]);
        seer_destroy(h);
        SKIP("shipped models missing");
    }
    CHECK(src[3]->gemm[0][0].n_rows > src[2]->gemm[0][0].n_rows);
    REQUIRE(seer_model_transfer(h, src, 4, "l4", &x) == SEER_STATUS_SUCCESS);
    for (int kind = 0; kind < SEER_GEMM_KINDS; kind++) {
        CHECK(memcmp(&x->gemm[0][kind], &src[1]->gemm[0][kind], sizeof x->gemm[0][kind]) == 0);
        CHECK(memcmp(&x->gemm2[0][kind], &src[2]->gemm[0][kind], sizeof x->gemm2[0][kind]) == 0);
        CHECK(!x->gemm2[1][kind].present);
    }
    CHECK(strstr(x->provenance, "GEMM fp32 plain from a100-pcie-80gb and h100-sxm5-80gb") != NULL);
    /* the geometric mean of each fit alone, for both kinds */
    REQUIRE(seer_model_copy(h, x, &one) == SEER_STATUS_SUCCESS);
    static const double shapes[][4] = {{1, 4096, 4096, 4096}, {1, 1024, 1024, 1024}, {16, 128, 128, 64}};
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        const double *d = shapes[i];
        double t = seer_model_gemm_own_time(x, d[0], d[1], d[2], d[3], SEER_DTYPE_FP32, 1);
        memset(one->gemm2, 0, sizeof one->gemm2);
        double t1 = seer_model_gemm_own_time(one, d[0], d[1], d[2], d[3], SEER_DTYPE_FP32, 1);
        memcpy(one->gemm, x->gemm2, sizeof one->gemm);
        double t2 = seer_model_gemm_own_time(one, d[0], d[1], d[2], d[3], SEER_DTYPE_FP32, 1);
        memcpy(one->gemm, x->gemm, sizeof one->gemm);
        CHECK(t > 0 && t1 > 0 && t2 > 0 && t1 != t2 && fabs(t - sqrt(t1 * t2)) <= 1e-12 * t);
    }
    /* a Hopper GPU takes one Hopper fit alone */
    CHECK_STATUS(seer_model_transfer(h, src, 4, "h100-pcie-80gb", &y), SEER_STATUS_SUCCESS);
    CHECK(y && y->gemm[0][0].present && !y->gemm2[0][0].present);
    seer_model_destroy(one);
    seer_model_destroy(y);
    seer_model_destroy(x);
    for (int i = 0; i < 4; i++) seer_model_destroy(src[i]);
    seer_destroy(h);
}

/* A calibrated model with a GEMM fit of one kind only (DeepBench's GTX
 * 1080 Ti rows: one batched row of 480, pooled) keeps it for batched
 * products when served, not a batched fit transferred from another GPU
 * (a review found the served model had taken the V100 PCIe's). */
TEST(transfer_served_gemm_keeps_its_one_kind)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_model_t own = NULL, served = NULL;
    if (seer_model_load(h, "models/gtx1080ti.seer", &own)) {
        seer_destroy(h);
        SKIP("shipped models missing");
    }
    REQUIRE(own->gemm[0][0].present && !own->gemm[0][1].present);
    CHECK_STATUS(seer_model_open(h, "models", "gtx1080ti", &served), SEER_STATUS_SUCCESS);
    REQUIRE(served != NULL);
    CHECK(!served->gemm[0][1].present);
    CHECK(memcmp(&served->gemm[0][0], &own->gemm[0][0], sizeof own->gemm[0][0]) == 0);
    double t1 = 0, t2 = 0;
    CHECK_STATUS(seer_predict_gemm(h, served, 1, 64, 64, 64, SEER_DTYPE_FP32, 0, 0, 0, &t1, NULL), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_predict_gemm(h, served, 2, 64, 64, 64, SEER_DTYPE_FP32, 0, 0, 0, &t2, NULL), SEER_STATUS_SUCCESS);
    CHECK(t2 >= t1);
    seer_model_destroy(served);
    seer_model_destroy(own);
    seer_destroy(h);
}

/* A family moved to another GPU is read two ways, its formula there and
 * its source's time at the source's share of the math peak (model.c,
 * peak_share_blend): on a GPU with the T4's bandwidth and twice its math
 * peak, the T4's explicit-GEMM family puts a 3x3 conv at 0.84 of the T4's
 * time by its formula alone, which keeps most of the time on the DRAM and
 * per-wave terms, and at 0.84^0.75 * 0.5^0.25 = 0.74 read both ways; on
 * the T4's own facts nothing changes. */
TEST(transfer_reads_a_family_at_the_source_share_of_peak)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_model_t t4 = NULL, x = NULL, same = NULL;
    if (seer_model_load(h, "models/t4.seer", &t4)) {
        seer_destroy(h);
        SKIP("shipped models missing");
    }
    seer_gpu_info_t g;
    REQUIRE(seer_gpu_find(NULL, "t4", &g) == SEER_STATUS_SUCCESS);
    char desc[1024];
    for (int twice = 0; twice < 2; twice++) {
        double k = twice ? 2 : 1;
        snprintf(desc, sizeof desc, "seer-gpu=1\nid=t4-x%d\nname=T4 x%d\ncc=7.5\nsms=%d\nboost_mhz=%g\n"
                 "fp32_tflops=%.17g\nfp16_tflops=%.17g\nfp16_simt_tflops=%.17g\ndram_gbps=%g\ndram_gib=%g\n"
                 "l2_bytes=%d\n", 1 + twice, 1 + twice, g.sms, g.boost_mhz, k * g.fp32_tflops, k * g.fp16_tflops,
                 k * g.fp16_simt_tflops, g.dram_gbps, g.dram_gib, g.l2_bytes);
        REQUIRE(seer_gpu_register_buffer(h, desc, strlen(desc), NULL) == SEER_STATUS_SUCCESS);
    }
    CHECK_STATUS(seer_model_transfer(h, &t4, 1, "t4-x2", &x), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_model_transfer(h, &t4, 1, "t4-x1", &same), SEER_STATUS_SUCCESS);
    REQUIRE(x && same);
    seer_conv_desc_t d;
    REQUIRE(seer_conv_desc_create(&d) == SEER_STATUS_SUCCESS);
    REQUIRE(seer_conv_desc_set(h, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, 64, 128, 28, 28, 128, 3, 3, 1, 1, 1, 1, 1, 1,
                               1) == SEER_STATUS_SUCCESS);
    double tt = 0, tx = 0, ts = 0;
    const int a = SEER_FWD_ALGO_GEMM;
    CHECK_STATUS(seer_predict_conv(h, t4, d, SEER_DIR_FWD, a, &tt, NULL, 0, NULL), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_predict_conv(h, x, d, SEER_DIR_FWD, a, &tx, NULL, 0, NULL), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_predict_conv(h, same, d, SEER_DIR_FWD, a, &ts, NULL, 0, NULL), SEER_STATUS_SUCCESS);
    if (getenv("SEER_VERBOSE")) printf("    T4 x2 / T4: %.4f\n", tx / tt);
    CHECK(tx > 0);
    CHECK_NEAR(tx / tt, 0.735, 0.03);
    /* its kernels still split the time, each a positive share (the
     * correction and the split see the formula's time: the blended one
     * had put a main kernel at -0.007 ms) */
    seer_kernel_pred_t kp[8];
    int nk = 0;
    double sum = 0;
    CHECK_STATUS(seer_predict_conv(h, x, d, SEER_DIR_FWD, SEER_FWD_ALGO_WINOGRAD_NONFUSED, &tx, kp, 8, &nk),
                 SEER_STATUS_SUCCESS);
    for (int i = 0; i < nk; i++) {
        CHECK(kp[i].time_ms > 0);
        sum += kp[i].time_ms;
    }
    CHECK(nk > 1);
    CHECK_NEAR(sum, tx, 1e-9);
    CHECK_NEAR(ts, tt, 0.05); /* its learned correction is not transferred alike; its physics is */
    seer_conv_desc_destroy(d);
    seer_model_destroy(same);
    seer_model_destroy(x);
    seer_model_destroy(t4);
    seer_destroy(h);
}

/* The algorithm picker (seer_pick_conv_*, workspace formulas), and the
 * CLI run as a program (tools/net.c, pick.c, eval_net.c, eval_picker.c):
 * seer net, pick, eval-net and eval-picker (on a small hand-written
 * sweep: no real seer-bench sweep exists yet). */
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "test.h"
#include "launch.h"
#include "model.h"
#include "picker.h"

static seer_handle_t handle(void)
{
    seer_handle_t h = NULL;
    seer_create(&h);
    return h;
}

/* The A100 model from the shared data (conv + the A100 40GB GEMM rows),
 * trained once and saved to a temp file for the CLI tests. */
static seer_model_t a100(const char **path_out)
{
    static seer_model_t m;
    static int tried;
    static char path[64];
    if (!tried) {
        tried = 1;
        char conv[512], gemm[512];
        snprintf(conv, sizeof conv, "%s/conv/a100-pcie-80gb.csv", test_data_dir());
        snprintf(gemm, sizeof gemm, "%s/gemm/a100-pcie-40gb.csv", test_data_dir());
        if (access(conv, R_OK) == 0 && access(gemm, R_OK) == 0) {
            const char *p[2] = {conv, gemm};
            seer_handle_t h = handle();
            if (seer_train(h, "a100-pcie-80gb", p, 2, 1, &m)) m = NULL;
            strcpy(path, "/tmp/seer-test-a100-XXXXXX");
            int fd = m ? mkstemp(path) : -1;
            if (fd >= 0) {
                close(fd);
                if (seer_model_save(h, m, path)) path[0] = 0;
            } else {
                path[0] = 0;
            }
            seer_destroy(h);
        }
    }
    if (path_out) *path_out = path[0] ? path : NULL;
    return m;
}

static seer_conv_desc_t desc(seer_dtype_t dt, int n, int c, int hw, int k, int r, int pad, int stride)
{
    seer_conv_desc_t d = NULL;
    if (seer_conv_desc_create(&d)) return NULL;
    if (seer_conv_desc_set(NULL, d, dt, SEER_LAYOUT_NCHW, n, c, hw, hw, k, r, r, pad, pad, stride, stride,
                           1, 1, 1)) {
        seer_conv_desc_destroy(d);
        return NULL;
    }
    return d;
}

/* timed from measurements, timed by the analytical model only, untimed,
 * over the limit, unsupported */
static int rank_of(const seer_conv_algo_perf_t *p)
{
    seer_status_t st = p->status;
    return st == SEER_STATUS_SUCCESS ? p->source == SEER_SOURCE_ANALYTICAL : st == SEER_STATUS_NOT_CALIBRATED ? 2
         : st == SEER_STATUS_WORKSPACE_LIMIT ? 3 : st == SEER_STATUS_UNSUPPORTED ? 4 : 99;
}

static void check_sorted(const seer_conv_algo_perf_t *p, int n)
{
    for (int i = 1; i < n; i++) {
        CHECK(rank_of(&p[i - 1]) <= rank_of(&p[i]));
        if (rank_of(&p[i]) == rank_of(&p[i - 1]) && p[i].status == SEER_STATUS_SUCCESS)
            CHECK(p[i - 1].time <= p[i].time);
    }
    for (int i = 0; i < n; i++) {
        CHECK(rank_of(&p[i]) < 99);
        CHECK((p[i].time >= 0) == (p[i].status == SEER_STATUS_SUCCESS ||
                                   (p[i].status == SEER_STATUS_WORKSPACE_LIMIT && p[i].time >= 0)));
        for (int j = 0; j < i; j++) CHECK(p[i].algo != p[j].algo);
    }
}

TEST(picker_forward_sorted_fields)
{
    seer_model_t m = a100(NULL);
    if (!m) SKIP("shared data not found");
    seer_handle_t h = handle();
    seer_conv_desc_t d = desc(SEER_DTYPE_FP32, 32, 256, 14, 256, 3, 1, 1);
    REQUIRE(d != NULL);
    seer_conv_algo_perf_t p[8];
    int n = 0;
    CHECK_STATUS(seer_pick_conv_algo(h, m, d, SIZE_MAX, p, 8, &n), SEER_STATUS_SUCCESS);
    REQUIRE(n == SEER_FWD_ALGO_COUNT);
    check_sorted(p, n);
    CHECK(p[0].status == SEER_STATUS_SUCCESS && p[0].time > 0);
    CHECK(p[n - 1].algo == SEER_FWD_ALGO_DIRECT && p[n - 1].status == SEER_STATUS_UNSUPPORTED &&
          p[n - 1].memory == 0);
    for (int i = 0; i < n; i++) {
        CHECK(p[i].determinism == 1);
        CHECK(p[i].math_type == SEER_MATH_FMA);
        size_t ws = 0;
        if (p[i].status == SEER_STATUS_UNSUPPORTED) continue;
        CHECK_STATUS(seer_conv_workspace_size(h, d, SEER_DIR_FWD, p[i].algo, &ws), SEER_STATUS_SUCCESS);
        CHECK(ws == p[i].memory);
        if (p[i].algo == SEER_FWD_ALGO_IMPLICIT_GEMM) CHECK(ws == 0);
        if (p[i].algo == SEER_FWD_ALGO_GEMM) CHECK(ws == (size_t)256 * 9 * 32 * 14 * 14 * 4); /* im2col */
        if (p[i].algo == SEER_FWD_ALGO_WINOGRAD) CHECK(ws == (size_t)16 * 256 * 256 * 4);
    }
    /* the pick agrees with seer_predict_conv */
    double t = 0;
    CHECK_STATUS(seer_predict_conv(h, m, d, SEER_DIR_FWD, p[0].algo, &t, NULL, 0, NULL), SEER_STATUS_SUCCESS);
    CHECK(t == p[0].time);
    /* fewer slots: the best ones */
    seer_conv_algo_perf_t q[3];
    int nq = 0;
    CHECK_STATUS(seer_pick_conv_algo(h, m, d, SIZE_MAX, q, 3, &nq), SEER_STATUS_SUCCESS);
    CHECK(nq == 3 && memcmp(q, p, sizeof q) == 0);
    /* a 1x1 stride-2 conv: no Winograd, no FFT */
    seer_conv_desc_t d1 = desc(SEER_DTYPE_FP32, 32, 256, 28, 512, 1, 0, 2);
    REQUIRE(d1 != NULL);
    CHECK_STATUS(seer_pick_conv_algo(h, m, d1, SIZE_MAX, p, 8, &n), SEER_STATUS_SUCCESS);
    check_sorted(p, n);
    int unsupported = 0;
    for (int i = 0; i < n; i++) unsupported += p[i].status == SEER_STATUS_UNSUPPORTED;
    CHECK(unsupported == 5); /* DIRECT, FFT, FFT_TILING, WINOGRAD, WINOGRAD_NONFUSED */
    /* parameters */
    CHECK_STATUS(seer_pick_conv_algo(h, m, d, SIZE_MAX, NULL, 8, &n), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_pick_conv_algo(h, m, d, SIZE_MAX, p, 0, &n), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_pick_conv_algo(h, NULL, d, SIZE_MAX, p, 8, &n), SEER_STATUS_BAD_PARAM);
    seer_conv_desc_t unset;
    REQUIRE(seer_conv_desc_create(&unset) == SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_pick_conv_algo(h, m, unset, SIZE_MAX, p, 8, &n), SEER_STATUS_BAD_PARAM);
    seer_conv_desc_destroy(unset);
    seer_conv_desc_destroy(d);
    seer_conv_desc_destroy(d1);
    seer_destroy(h);
}

/* TF32 is FP32 data with tensor cores allowed: the FFT and Winograd
 * algorithms (no TF32 kernels) time as their FP32 kernels, so whatever the
 * picker chooses for a TF32 conv, seer_predict_conv answers the same for it;
 * BF16 has no FFT or fused Winograd kernels at all (its non-fused
 * Winograd: picker_bf16_winograd_nonfused_runs_fp32). */
TEST(picker_tf32_transform_algorithms_run_fp32)
{
    seer_model_t m = a100(NULL);
    if (!m) SKIP("shared data not found");
    seer_handle_t h = handle();
    seer_conv_desc_t t = desc(SEER_DTYPE_TF32, 32, 32, 224, 64, 5, 2, 1), f = desc(SEER_DTYPE_FP32, 32, 32, 224, 64, 5, 2, 1),
                     b = desc(SEER_DTYPE_BF16, 32, 32, 224, 64, 5, 2, 1);
    REQUIRE(t && f && b);
    double tt = 0, tf = 0, tb = 0;
    CHECK_STATUS(seer_predict_conv(h, m, t, SEER_DIR_FWD, SEER_FWD_ALGO_FFT_TILING, &tt, NULL, 0, NULL), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_predict_conv(h, m, f, SEER_DIR_FWD, SEER_FWD_ALGO_FFT_TILING, &tf, NULL, 0, NULL), SEER_STATUS_SUCCESS);
    CHECK(tt == tf && tt > 0);
    CHECK_STATUS(seer_predict_conv(h, m, b, SEER_DIR_FWD, SEER_FWD_ALGO_FFT_TILING, &tb, NULL, 0, NULL), SEER_STATUS_UNSUPPORTED);
    CHECK(strstr(seer_get_last_error(h), "no bf16 kernels") != NULL);
    for (int dir = 0; dir < 3; dir++) {
        int algo = -9;
        double ms = 0, again = 0;
        CHECK_STATUS(seer_pick_conv_fastest(h, m, t, (seer_direction_t)dir, &algo, &ms), SEER_STATUS_SUCCESS);
        CHECK_STATUS(seer_predict_conv(h, m, t, (seer_direction_t)dir, algo, &again, NULL, 0, NULL), SEER_STATUS_SUCCESS);
        CHECK(again == ms);
    }
    seer_conv_desc_destroy(t);
    seer_conv_desc_destroy(f);
    seer_conv_desc_destroy(b);
    seer_destroy(h);
}

TEST(picker_workspace_limit)
{
    seer_model_t m = a100(NULL);
    if (!m) SKIP("shared data not found");
    seer_handle_t h = handle();
    seer_conv_desc_t d = desc(SEER_DTYPE_FP32, 32, 128, 28, 128, 3, 1, 1);
    REQUIRE(d != NULL);
    seer_conv_algo_perf_t p[8], all[8];
    int n = 0, na = 0;
    CHECK_STATUS(seer_pick_conv_algo(h, m, d, SIZE_MAX, all, 8, &na), SEER_STATUS_SUCCESS);
    /* 0 is a legal limit: only algorithms without workspace qualify */
    CHECK_STATUS(seer_pick_conv_algo(h, m, d, 0, p, 8, &n), SEER_STATUS_SUCCESS);
    REQUIRE(n == na);
    check_sorted(p, n);
    CHECK(p[0].memory == 0 && p[0].algo == SEER_FWD_ALGO_IMPLICIT_GEMM);
    int over = 0;
    for (int i = 0; i < n; i++) {
        if (p[i].status == SEER_STATUS_SUCCESS) CHECK(p[i].memory == 0);
        if (p[i].status == SEER_STATUS_WORKSPACE_LIMIT) {
            over++;
            CHECK(p[i].memory > 0);
            /* its time is still predicted when the model can */
            for (int j = 0; j < na; j++)
                if (all[j].algo == p[i].algo) CHECK(p[i].time == all[j].time);
        }
    }
    CHECK(over >= 4);
    /* a limit between: exactly the algorithms within it */
    size_t limit = 5u << 20;
    CHECK_STATUS(seer_pick_conv_algo(h, m, d, limit, p, 8, &n), SEER_STATUS_SUCCESS);
    for (int i = 0; i < n; i++)
        if (p[i].status != SEER_STATUS_UNSUPPORTED)
            CHECK((p[i].memory > limit) == (p[i].status == SEER_STATUS_WORKSPACE_LIMIT));
    seer_conv_desc_destroy(d);
    seer_destroy(h);
}

/* No direction of d picks a SIMT algorithm on m. */
static void check_no_simt_pick(seer_handle_t h, const seer_model_t m, const seer_conv_desc_t d)
{
    for (int dir = 0; dir < 3; dir++) {
        int algo = -9;
        double t = 0;
        CHECK_STATUS(seer_pick_conv_fastest(h, m, d, (seer_direction_t)dir, &algo, &t), SEER_STATUS_SUCCESS);
        CHECK(!seer_algo_simt((seer_direction_t)dir, algo));
    }
}

/* d's bwd_data ALGO_0 time over its ALGO_1 time on m. */
static double bwd_data_algo0_over_algo1(seer_handle_t h, const seer_model_t m, const seer_conv_desc_t d)
{
    double t0 = 0, t1 = 0;
    CHECK_STATUS(seer_predict_conv(h, m, d, SEER_DIR_BWD_DATA, SEER_BWD_DATA_ALGO_0, &t0, NULL, 0, NULL),
                 SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_predict_conv(h, m, d, SEER_DIR_BWD_DATA, SEER_BWD_DATA_ALGO_1, &t1, NULL, 0, NULL),
                 SEER_STATUS_SUCCESS);
    return t1 > 0 ? t0 / t1 : 0;
}

/* The picker no longer takes the SIMT ALGO_0 of an fp16 backward pass
 * for tensor-core work (seer_conv_run_dtype): on the H100 with cuDNN
 * 9.14 it picked it for most fp16 bwd_data convs, 84 % wrong picks in
 * seer eval-picker, 34 % with the rule (docs/picker.md). */
TEST(picker_fp16_bwd_data_not_simt_algo0)
{
    seer_handle_t h = handle();
    seer_model_t m = NULL;
    /* as seer eval-picker opens it: its FP32 GEMMs, convs transferred */
    REQUIRE(seer_model_open(h, "models", "h100-sxm5-80gb", &m) == SEER_STATUS_SUCCESS);
    seer_conv_desc_t d = NULL;
    REQUIRE(!seer_conv_desc_create(&d));
    REQUIRE(!seer_conv_desc_set(NULL, d, SEER_DTYPE_FP16, SEER_LAYOUT_NHWC, 32, 64, 56, 56, 64, 3, 3, 1, 1, 1, 1,
                                1, 1, 1));
    seer_conv_algo_perf_t p[8];
    int n = 0, algo = -9;
    double t = 0;
    CHECK_STATUS(seer_pick_conv_bwd_data_algo(h, m, d, SIZE_MAX, p, 8, &n), SEER_STATUS_SUCCESS);
    CHECK(n > 0 && p[0].status == SEER_STATUS_SUCCESS && p[0].algo != SEER_BWD_DATA_ALGO_0);
    CHECK_STATUS(seer_pick_conv_fastest(h, m, d, SEER_DIR_BWD_DATA, &algo, &t), SEER_STATUS_SUCCESS);
    CHECK(algo != SEER_BWD_DATA_ALGO_0 && t > 0);
    seer_model_free(m);
    /* a model with FP32 data and no FP16 (the A100's, alone): its
     * measured FP32 families must not make the SIMT GEMMs every FP16
     * conv's pick over the analytical tensor-core ones */
    REQUIRE(seer_model_load(h, "models/a100-pcie-80gb.seer", &m) == SEER_STATUS_SUCCESS);
    check_no_simt_pick(h, m, d);
    seer_conv_desc_destroy(d);
    seer_model_free(m);
    seer_destroy(h);
}

/* BF16's one transform algorithm: the non-fused Winograd runs its FP32
 * kernels on BF16 data (cuDNN 9.14 on both Hopper sweeps), timed as the
 * FP32 call; BF16 FFTs and the fused Winograd do not exist */
TEST(picker_bf16_winograd_nonfused_runs_fp32)
{
    seer_handle_t h = handle();
    seer_model_t m = NULL;
    REQUIRE(seer_model_open(h, "models", "h100-sxm5-80gb", &m) == SEER_STATUS_SUCCESS);
    double t[2] = {0, 0};
    for (int bf = 0; bf < 2; bf++) {
        seer_conv_desc_t d = desc(bf ? SEER_DTYPE_BF16 : SEER_DTYPE_FP32, 64, 128, 28, 32, 3, 1, 1);
        REQUIRE(d != NULL);
        for (int dir = 0; dir < 3; dir++) {
            int wnf = dir == SEER_DIR_FWD ? SEER_FWD_ALGO_WINOGRAD_NONFUSED
                    : dir == SEER_DIR_BWD_DATA ? SEER_BWD_DATA_ALGO_WINOGRAD_NONFUSED
                                               : SEER_BWD_FILTER_ALGO_WINOGRAD_NONFUSED;
            double x = 0;
            CHECK_STATUS(seer_predict_conv(h, m, d, (seer_direction_t)dir, wnf, &x, NULL, 0, NULL), SEER_STATUS_SUCCESS);
            if (dir == SEER_DIR_FWD) t[bf] = x;
        }
        double x = 0;
        if (bf) {
            CHECK_STATUS(seer_predict_conv(h, m, d, SEER_DIR_FWD, SEER_FWD_ALGO_FFT_TILING, &x, NULL, 0, NULL),
                         SEER_STATUS_UNSUPPORTED);
            CHECK_STATUS(seer_predict_conv(h, m, d, SEER_DIR_FWD, SEER_FWD_ALGO_WINOGRAD, &x, NULL, 0, NULL),
                         SEER_STATUS_UNSUPPORTED);
        }
        seer_conv_desc_destroy(d);
    }
    CHECK(t[0] > 0 && t[1] == t[0]);
    seer_model_destroy(m);
    seer_destroy(h);
}

/* cuDNN's pseudo-half SIMT kernels are slower than their FP32 twins
 * (model.c, seer_conv_legacy_slowdown): an FP16 backward SIMT algorithm is no
 * faster than the FP32 one (2.3-6.0x its model's time outweigh half the
 * bytes; forward's 1.15-1.75x need not), and a small 1x1 FP16
 * backward-data conv, whose ALGO_0 was
 * predicted within 5 % of ALGO_1 and picked (measured on the H100: 0.22
 * against 0.0063 ms), picks a tensor-core algorithm; the other
 * directions' SIMT algorithms likewise. */
TEST(picker_pseudo_half_simt_slower_than_fp32)
{
    seer_handle_t h = handle();
    seer_model_t m = NULL;
    REQUIRE(seer_model_open(h, "models", "h100-sxm5-80gb", &m) == SEER_STATUS_SUCCESS);
    static const struct { seer_direction_t dir; int algo; } simt[] = {
        {SEER_DIR_BWD_DATA, SEER_BWD_DATA_ALGO_0}, {SEER_DIR_BWD_FILTER, SEER_BWD_FILTER_ALGO_0},
        {SEER_DIR_BWD_FILTER, SEER_BWD_FILTER_ALGO_3}};
    for (int i = 0; i < 3; i++) {
        double t[2];
        for (int half = 0; half < 2; half++) {
            seer_conv_desc_t d = desc(half ? SEER_DTYPE_FP16 : SEER_DTYPE_FP32, 32, 256, 28, 256, 3, 1, 1);
            REQUIRE(d != NULL);
            CHECK_STATUS(seer_predict_conv(h, m, d, simt[i].dir, simt[i].algo, &t[half], NULL, 0, NULL),
                         SEER_STATUS_SUCCESS);
            seer_conv_desc_destroy(d);
        }
        CHECK(t[1] >= t[0]);
    }
    /* the slowdown is the main kernel's: an FP16 explicit GEMM's im2col
     * keeps a streaming kernel's time, half the FP32 one's on half the
     * bytes (an FP16 ALGO_3's im2col once took 6.5x it, 10 % of the call) */
    double helper[2] = {0, 0};
    for (int half = 0; half < 2; half++) {
        seer_conv_desc_t d = desc(half ? SEER_DTYPE_FP16 : SEER_DTYPE_FP32, 32, 256, 28, 256, 3, 1, 1);
        REQUIRE(d != NULL);
        seer_kernel_pred_t k[8];
        int nk = 0;
        double total = 0;
        CHECK_STATUS(seer_predict_conv(h, m, d, SEER_DIR_FWD, SEER_FWD_ALGO_GEMM, &total, k, 8, &nk),
                     SEER_STATUS_SUCCESS);
        for (int i = 0; i < nk; i++)
            if (k[i].role != SEER_ROLE_MAIN) helper[half] += k[i].time_ms;
        CHECK(nk == 2 && helper[half] > 0 && helper[half] < 0.1 * total);
        seer_conv_desc_destroy(d);
    }
    CHECK(helper[1] <= 0.5 * helper[0] * 1.01);
    seer_conv_desc_t d = NULL;
    REQUIRE(!seer_conv_desc_create(&d));
    REQUIRE(!seer_conv_desc_set(NULL, d, SEER_DTYPE_FP16, SEER_LAYOUT_NHWC, 8, 64, 14, 14, 384, 1, 1, 0, 0, 1, 1,
                                1, 1, 1));
    int algo = -9;
    double t = 0;
    CHECK(bwd_data_algo0_over_algo1(h, m, d) > 2);
    check_no_simt_pick(h, m, d);
    /* NHWC bwd_data ALGO_0 runs cuDNN's direct dgrad kernel, whatever
     * the dtype: FP32 too (H100: 59.9 ms against ALGO_1's 3.69 for
     * 46 x 31 x 256 x 256 -> 40, 3x3) */
    REQUIRE(!seer_conv_desc_set(NULL, d, SEER_DTYPE_FP32, SEER_LAYOUT_NHWC, 46, 31, 256, 256, 40, 3, 3, 1, 1, 1, 1,
                                1, 1, 1));
    CHECK(bwd_data_algo0_over_algo1(h, m, d) > 4);
    CHECK_STATUS(seer_pick_conv_fastest(h, m, d, SEER_DIR_BWD_DATA, &algo, &t), SEER_STATUS_SUCCESS);
    CHECK(algo != SEER_BWD_DATA_ALGO_0);
    /* a narrow grouped conv's SIMT algorithms run pseudo-half kernels
     * too (MobileNetV2's first depthwise conv, FP16 NHWC: bwd_filter
     * ALGO_0 0.58 ms against ALGO_1's 0.021, measured on the H200; the
     * H100 model, whose convs are the same transferred ones) */
    REQUIRE(!seer_conv_desc_set(NULL, d, SEER_DTYPE_FP16, SEER_LAYOUT_NHWC, 8, 32, 112, 112, 32, 3, 3, 1, 1, 1, 1,
                                1, 1, 32));
    check_no_simt_pick(h, m, d);
    seer_conv_desc_destroy(d);
    seer_model_free(m);
    seer_destroy(h);
}

TEST(picker_backward_statuses)
{
    seer_model_t m = a100(NULL);
    if (!m) SKIP("shared data not found");
    seer_handle_t h = handle();
    seer_conv_desc_t d = desc(SEER_DTYPE_FP32, 32, 64, 56, 64, 3, 1, 1);
    REQUIRE(d != NULL);
    seer_conv_algo_perf_t p[8];
    int n = 0;
    /* NeuSight data is forward-only: the analytical model times backward */
    CHECK_STATUS(seer_pick_conv_bwd_data_algo(h, m, d, SIZE_MAX, p, 8, &n), SEER_STATUS_SUCCESS);
    REQUIRE(n == SEER_BWD_DATA_ALGO_COUNT);
    check_sorted(p, n);
    for (int i = 0; i < n; i++) {
        CHECK(p[i].status == SEER_STATUS_SUCCESS || p[i].status == SEER_STATUS_UNSUPPORTED);
        if (p[i].status == SEER_STATUS_SUCCESS) CHECK(p[i].source == SEER_SOURCE_ANALYTICAL && p[i].time > 0);
        CHECK(p[i].determinism == (p[i].algo != SEER_BWD_DATA_ALGO_0));
    }
    CHECK_STATUS(seer_pick_conv_bwd_filter_algo(h, m, d, SIZE_MAX, p, 8, &n), SEER_STATUS_SUCCESS);
    REQUIRE(n == SEER_BWD_FILTER_ALGO_COUNT);
    for (int i = 0; i < n; i++) {
        CHECK(p[i].determinism == (p[i].algo != SEER_BWD_FILTER_ALGO_0 && p[i].algo != SEER_BWD_FILTER_ALGO_3));
        if (p[i].algo == SEER_BWD_FILTER_ALGO_WINOGRAD) CHECK(p[i].status == SEER_STATUS_UNSUPPORTED);
    }
    check_sorted(p, n);
    size_t ws = 0;
    /* ALGO_3's small workspace, no im2col matrix: none in FP32 (or for
     * a grouped conv), an FP32 copy of dW for 2-byte data */
    CHECK_STATUS(seer_conv_workspace_size(h, d, SEER_DIR_BWD_FILTER, SEER_BWD_FILTER_ALGO_3, &ws), SEER_STATUS_SUCCESS);
    CHECK(ws == 0);
    {
        seer_conv_desc_t dh = desc(SEER_DTYPE_FP16, 8, 64, 28, 128, 3, 1, 1);
        REQUIRE(dh != NULL);
        CHECK_STATUS(seer_conv_workspace_size(h, dh, SEER_DIR_BWD_FILTER, SEER_BWD_FILTER_ALGO_3, &ws),
                     SEER_STATUS_SUCCESS);
        CHECK(ws == (size_t)128 * 64 * 3 * 3 * 4);
        REQUIRE(!seer_conv_desc_set(NULL, dh, SEER_DTYPE_FP16, SEER_LAYOUT_NCHW, 8, 64, 28, 28, 128, 3, 3, 1, 1, 1,
                                    1, 1, 1, 4));
        CHECK_STATUS(seer_conv_workspace_size(h, dh, SEER_DIR_BWD_FILTER, SEER_BWD_FILTER_ALGO_3, &ws),
                     SEER_STATUS_SUCCESS);
        CHECK(ws == 0);
        seer_conv_desc_destroy(dh);
    }
    CHECK_STATUS(seer_conv_workspace_size(h, d, SEER_DIR_FWD, SEER_FWD_ALGO_DIRECT, &ws), SEER_STATUS_UNSUPPORTED);
    CHECK_STATUS(seer_conv_workspace_size(h, d, SEER_DIR_FWD, 9, &ws), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_conv_workspace_size(h, NULL, SEER_DIR_FWD, 0, &ws), SEER_STATUS_BAD_PARAM);
    /* tensor-core math types */
    seer_conv_desc_t d16 = desc(SEER_DTYPE_FP16, 32, 64, 56, 64, 3, 1, 1);
    REQUIRE(d16 != NULL);
    CHECK_STATUS(seer_pick_conv_algo(h, m, d16, SIZE_MAX, p, 8, &n), SEER_STATUS_SUCCESS);
    for (int i = 0; i < n; i++) {
        int simt = seer_algo_simt(SEER_DIR_FWD, p[i].algo);
        CHECK(p[i].math_type == (simt ? SEER_MATH_DEFAULT : SEER_MATH_TENSOR_OP)); /* as cuDNN lists them */
        /* no fp16 data: analytical, but for the plain GEMMs' SIMT kernels
         * (FP32 math, seer_conv_run_dtype), which the FP32 rows time */
        if (p[i].status == SEER_STATUS_SUCCESS && !simt) CHECK(p[i].source == SEER_SOURCE_ANALYTICAL);
    }
    seer_conv_desc_destroy(d16);
    seer_conv_desc_destroy(d);
    seer_destroy(h);
}

/* A model that can time only GEMM (which needs workspace): with a limit
 * of 0 nothing it can time qualifies. */
TEST(picker_no_algorithm_and_unsupported)
{
    char csv[4096];
    int len = snprintf(csv, sizeof csv, "gpu,direction,dtype,layout,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,"
                                        "stride_w,dil_h,dil_w,groups,algo,time_ms\n");
    for (int i = 0; i < 16; i++)
        len += snprintf(csv + len, sizeof csv - (size_t)len, "t4,fwd,fp32,nchw,%d,%d,%d,%d,%d,3,3,1,1,1,1,1,1,1,GEMM,%g\n",
                        1 + i % 8, 16 << (i % 4), 14 + 2 * i, 14 + 2 * i, 32 << (i % 3), 0.05 + 0.03 * i);
    char path[] = "/tmp/seer-test-pick-XXXXXX";
    int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    REQUIRE(write(fd, csv, (size_t)len) == len);
    close(fd);
    seer_handle_t h = handle();
    seer_model_t m = NULL;
    const char *p = path;
    seer_status_t st = seer_train(h, "t4", &p, 1, 0, &m);
    unlink(path);
    if (st) printf("    %s\n", seer_get_last_error(h));
    REQUIRE(st == SEER_STATUS_SUCCESS);
    seer_conv_desc_t d = desc(SEER_DTYPE_FP32, 8, 64, 28, 64, 3, 1, 1);
    REQUIRE(d != NULL);
    seer_conv_algo_perf_t perf[8];
    int n = 0;
    CHECK_STATUS(seer_pick_conv_algo(h, m, d, SIZE_MAX, perf, 8, &n), SEER_STATUS_SUCCESS);
    CHECK(perf[0].algo == SEER_FWD_ALGO_GEMM);
    CHECK(perf[0].source == SEER_SOURCE_CALIBRATED);
    /* No workspace: the calibrated GEMM needs some, so the analytical
     * IMPLICIT_GEMM (none) is the one usable entry; GEMM is over the
     * limit with its time kept. */
    CHECK_STATUS(seer_pick_conv_algo(h, m, d, 0, perf, 8, &n), SEER_STATUS_SUCCESS);
    REQUIRE(n == 8);
    check_sorted(perf, n);
    CHECK(perf[0].algo == SEER_FWD_ALGO_IMPLICIT_GEMM && perf[0].status == SEER_STATUS_SUCCESS &&
          perf[0].source == SEER_SOURCE_ANALYTICAL);
    int gemm_over = 0;
    for (int i = 0; i < n; i++)
        gemm_over += perf[i].algo == SEER_FWD_ALGO_GEMM && perf[i].status == SEER_STATUS_WORKSPACE_LIMIT &&
                     perf[i].time > 0;
    CHECK(gemm_over == 1);
    /* bf16 on a T4: no algorithm can run it */
    seer_conv_desc_t b = desc(SEER_DTYPE_BF16, 8, 64, 28, 64, 3, 1, 1);
    REQUIRE(b != NULL);
    CHECK_STATUS(seer_pick_conv_algo(h, m, b, SIZE_MAX, perf, 8, &n), SEER_STATUS_UNSUPPORTED);
    REQUIRE(n == 8);
    for (int i = 0; i < n; i++) CHECK(perf[i].status == SEER_STATUS_UNSUPPORTED);
    seer_conv_desc_destroy(b);
    seer_conv_desc_destroy(d);
    seer_model_destroy(m);
    seer_destroy(h);
}

/* ----------------------------------------------------------------- CLI */

/* Every coefficient of a loaded model times scale: predictions far over
 * SEER_MAX_TIME_MS, the one hard error a prediction makes with a sane
 * shape. */
static seer_model_t absurd(seer_handle_t h, const char *path, double scale)
{
    seer_model_t m;
    if (seer_model_load(h, path, &m)) return NULL;
    for (int f = 0; f < m->nfam; f++)
        for (int v = 0; v < m->fam[f].nvar; v++)
            for (int c = 0; c < 4; c++)
                for (int i = 0; i < SEER_NTERMS; i++) m->fam[f].var[v].coef[c][i] *= scale;
    for (int c = 0; c < 3; c++)
        for (int i = 0; i < SEER_NTERMS; i++) m->kcoef[c][i] *= scale;
    return m;
}

/* The picker rule with every algorithm predicted whole, as it was before
 * the picker bounded them by their physics (docs/picker.md). */
static seer_status_t best_whole(const struct seer_model *m, const struct seer_conv *cv, seer_direction_t dir,
                                seer_algo_eval_t *out)
{
    seer_algo_eval_t ev[SEER_MAX_ALGOS];
    int n = seer_picker_eval(m, cv, dir, ev), best = -1, guess = -1, simt = -1, uncal = 0, bad = -1;
    for (int a = 0; a < n; a++) {
        seer_status_t st = ev[a].err.st;
        if (!st) {
            /* SIMT kernels in tensor-core math (a plain implicit or
             * explicit GEMM) rank after the guesses (picker.c) */
            int *b = seer_picker_simt(m, cv, dir, ev[a].algo) ? &simt
                   : ev[a].source == SEER_SOURCE_ANALYTICAL ? &guess : &best;
            if (*b < 0 || ev[a].time_ms < ev[*b].time_ms) *b = a;
        } else if (st == SEER_STATUS_NOT_CALIBRATED) {
            uncal = 1;
        } else if (st == SEER_STATUS_BAD_PREDICTION) {
            if (bad < 0) bad = a;
        } else if (!seer_picker_soft(st)) {
            *out = ev[a];
            return st;
        }
    }
    if (best >= 0) {
        *out = ev[best];
        return SEER_STATUS_SUCCESS;
    }
    seer_picker_predict(m, cv, dir, SEER_ALGO_CUDNN_CHOICE, out);
    seer_status_t st = out->err.st;
    if (!st && out->source != SEER_SOURCE_ANALYTICAL) return SEER_STATUS_SUCCESS;
    if (st && !seer_picker_soft(st) && st != SEER_STATUS_BAD_PREDICTION) return st;
    if (guess < 0) guess = simt;
    if (guess >= 0 && (st || ev[guess].time_ms <= out->time_ms)) {
        *out = ev[guess];
        return SEER_STATUS_SUCCESS;
    }
    if (!st) return SEER_STATUS_SUCCESS;
    if (bad >= 0) {
        *out = ev[bad];
        return SEER_STATUS_BAD_PREDICTION;
    }
    if (st == SEER_STATUS_BAD_PREDICTION) return st;
    return uncal ? SEER_STATUS_NOT_CALIBRATED : st;
}

TEST(picker_bounds_give_the_answer_of_every_algorithm_predicted)
{
    /* Served models (peers, measured and analytical families, cuDNN's
     * choice), FP32, FP16 (capped at the FP32 and pseudo-half convs'
     * times) and BF16 (at the FP32 one's), NCHW (tensor-core math with
     * its transposes) and NHWC, a strided 1x1 conv at the stride-1 one's
     * fastest: the same algorithm, time, class and source to the bit. */
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    static const char *gpus[] = {"h100-sxm5-80gb", "a100-pcie-80gb", "t4"};
    seer_handle_t h = handle();
    int compared = 0;
    for (int g = 0; g < 3; g++) {
        seer_model_t m;
        REQUIRE(seer_model_open(h, "models", gpus[g], &m) == SEER_STATUS_SUCCESS);
        for (int i = 0; i < 64; i++) {
            seer_dtype_t dt = i % 2 ? (i & 32 ? SEER_DTYPE_BF16 : SEER_DTYPE_FP16) : SEER_DTYPE_FP32;
            int n = i & 2 ? 64 : 8, c = i & 4 ? 256 : 64, k = i & 8 ? 64 : 512, hw = i & 16 ? 56 : 14;
            int r = i % 3 ? 3 : 1, stride = i % 5 ? 1 : 2;
            seer_conv_desc_t d = desc(dt, n, c, hw, k, r, r / 2, stride);
            REQUIRE(d);
            if (i & 32) d->layout = SEER_LAYOUT_NHWC;
            for (int dir = 0; dir < 3; dir++) {
                seer_algo_eval_t got, want, w32;
                seer_status_t sg = seer_picker_best(m, d, (seer_direction_t)dir, &got);
                seer_status_t sw = best_whole(m, d, (seer_direction_t)dir, &want);
                struct seer_conv f = *d;
                f.dtype = SEER_DTYPE_FP32;
                if (dt != SEER_DTYPE_FP32 && !sw && !best_whole(m, &f, (seer_direction_t)dir, &w32) &&
                    w32.time_ms < want.time_ms)
                    want.time_ms = w32.time_ms;
                f.dtype = SEER_DTYPE_FP16_PSEUDO; /* and at the pseudo-half conv's */
                if (dt == SEER_DTYPE_FP16 && !sw && !best_whole(m, &f, (seer_direction_t)dir, &w32) &&
                    w32.time_ms < want.time_ms)
                    want.time_ms = w32.time_ms;
                if (r == 1 && stride != 1 && !sw) { /* and at the stride-1 conv's fastest */
                    seer_conv_desc_t one = desc(dt, n, c, hw, k, 1, 0, 1);
                    REQUIRE(one);
                    one->layout = d->layout;
                    if (!seer_picker_best(m, one, (seer_direction_t)dir, &w32) && w32.time_ms < want.time_ms)
                        want.time_ms = w32.time_ms;
                    seer_conv_desc_destroy(one);
                }
                CHECK(sg == sw);
                if (sg == sw && !sg)
                    CHECK(got.algo == want.algo && got.time_ms == want.time_ms && got.cls == want.cls &&
                          got.source == want.source && got.n_kernels == want.n_kernels);
                if (sg == sw && sg && !seer_picker_soft(sg)) CHECK(strcmp(got.err.msg, want.err.msg) == 0);
                compared++;
            }
            seer_conv_desc_destroy(d);
        }
        seer_model_destroy(m);
    }
    CHECK(compared == 3 * 64 * 3);
    seer_destroy(h);
}

/* One grouping of seer_picker_best as it was before its bounds
 * (picker.c, best_own): every cap predicted whole. */
static seer_status_t own_whole(const struct seer_model *m, const struct seer_conv *cv, seer_direction_t dir,
                               const seer_algo_eval_t *dense, seer_algo_eval_t *out)
{
    seer_status_t st = best_whole(m, cv, dir, out);
    if (st && !seer_picker_soft(st)) return st;
    seer_algo_eval_t e;
    struct seer_conv o = *cv, wide;
    int capped = cv->dtype != SEER_DTYPE_TF32;
    o.dtype = SEER_DTYPE_FP32;
    if (seer_dtype_math(cv->dtype) && !(capped && st) && !best_whole(m, &o, dir, &e)) {
        int rank_e = e.source == SEER_SOURCE_ANALYTICAL, rank_o = out->source == SEER_SOURCE_ANALYTICAL;
        if (capped) {
            double t = e.time_ms < out->time_ms ? fmax(e.time_ms, seer_model_conv_floor(m, cv, dir)) : out->time_ms;
            if (t < out->time_ms) out->time_ms = t;
        } else if (st || rank_e < rank_o || (rank_e == rank_o && e.time_ms < out->time_ms)) {
            *out = e;
            st = SEER_STATUS_SUCCESS;
        }
    }
    o.dtype = SEER_DTYPE_FP16_PSEUDO;
    if (cv->dtype == SEER_DTYPE_FP16 && !st && seer_gpu_run_dtype(&m->gpu, SEER_DTYPE_FP16) == SEER_DTYPE_FP16 &&
        !best_whole(m, &o, dir, &e) && e.time_ms < out->time_ms)
        out->time_ms = e.time_ms;
    if (st || !dense) return st;
    double td = dense->time_ms, roof;
    out->time_ms = fmin(out->time_ms, td);
    if (seer_conv_padded_groups(cv, &wide) && !own_whole(m, &wide, dir, NULL, &e))
        out->time_ms = fmin(out->time_ms, e.time_ms);
    if (cv->shape.c == cv->shape.groups && !seer_roofline_conv(NULL, &m->gpu, cv, dir, &roof))
        out->time_ms = fmin(out->time_ms, fmax(fmax(td / 4, fmin(td, 0.25)), roof + seer_gpu_launch_gap_ms(&m->gpu)));
    /* in tensor-core math, the FP32 conv's grouped caps from its dense
     * conv's whole pick, at least cv's floor */
    o = *cv;
    o.dtype = SEER_DTYPE_FP32;
    o.shape.groups = 1;
    if (seer_dtype_math(cv->dtype) && !seer_conv_init(NULL, &o, o.dtype, o.layout, &o.shape) &&
        !seer_picker_best(m, &o, dir, &e)) {
        double cap = e.time_ms;
        o = *cv;
        o.dtype = SEER_DTYPE_FP32;
        if (cv->shape.c == cv->shape.groups && !seer_roofline_conv(NULL, &m->gpu, &o, dir, &roof))
            cap = fmin(cap, fmax(fmax(cap / 4, fmin(cap, 0.25)), roof + seer_gpu_launch_gap_ms(&m->gpu)));
        out->time_ms = fmin(out->time_ms, fmax(cap, seer_model_conv_floor(m, cv, dir)));
    }
    o = *cv;
    o.shape.c = cv->shape.c / cv->shape.groups;
    o.shape.k = cv->shape.k / cv->shape.groups;
    o.shape.groups = 1;
    if (!seer_conv_init(NULL, &o, cv->dtype, cv->layout, &o.shape) && !seer_picker_best(m, &o, dir, &e))
        out->time_ms = fmax(out->time_ms, fmin(e.time_ms, td));
    return st;
}

/* A grouped conv's seer_picker_best as it was before the walk's bounds:
 * every grouping under the roofline test timed whole (own_whole). */
static seer_status_t groups_whole(const struct seer_model *m, const struct seer_conv *cv, seer_direction_t dir,
                                  seer_algo_eval_t *out)
{
    struct seer_conv c = *cv;
    seer_algo_eval_t d, e;
    c.shape.groups = 1;
    const seer_algo_eval_t *dense =
        seer_conv_init(NULL, &c, cv->dtype, cv->layout, &c.shape) || seer_picker_best(m, &c, dir, &d) ? NULL : &d;
    seer_status_t st = own_whole(m, cv, dir, dense, out);
    for (int gp = cv->shape.groups - 1; !st && gp >= 2; gp--) {
        double roof;
        c = *cv;
        c.shape.groups = gp;
        if (cv->shape.groups % gp) continue;
        if (seer_conv_init(NULL, &c, cv->dtype, cv->layout, &c.shape) ||
            seer_roofline_conv(NULL, &m->gpu, &c, dir, &roof) || roof >= out->time_ms)
            break;
        if (!own_whole(m, &c, dir, dense, &e) && e.time_ms < out->time_ms) out->time_ms = e.time_ms;
    }
    return st;
}

TEST(picker_grouped_bounds_give_the_answer_of_every_grouping_timed)
{
    /* Depthwise, narrow and wide groups whose group counts have many
     * divisors, every dtype, both layouts, four GPUs (tensor-core and
     * not, calibrated and transferred): the walk's bounds, waiting
     * one-group floors and skipped padded and dual picks give the same
     * algorithm, time, class and source to the bit.  The last two, 13x13
     * convs, take the FP32 conv's grouped caps in BF16 forward
     * (fp32_dense_cap): the depthwise one on the H100, A100 and L4, the
     * 2-group one on the H100 and L4. */
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    static const char *gpus[] = {"h100-sxm5-80gb", "a100-pcie-80gb", "t4", "l4"};
    static const int shapes[][5] = {{96, 96, 96, 14, 3},  {48, 48, 48, 28, 3},   {120, 240, 120, 7, 3},
                                    {24, 192, 384, 14, 3}, {8, 256, 256, 28, 3}, {6, 96, 192, 14, 3},
                                    {4, 256, 256, 7, 3},   {60, 120, 60, 7, 3},  {256, 256, 256, 112, 13},
                                    {2, 256, 256, 112, 13}};
    enum { NS = sizeof shapes / sizeof shapes[0] };
    seer_handle_t h = handle();
    int compared = 0;
    for (int g = 0; g < 4; g++) {
        seer_model_t m;
        REQUIRE(seer_model_open(h, "models", gpus[g], &m) == SEER_STATUS_SUCCESS);
        for (int i = 0; i < NS * 5; i++) {
            const int *sh = shapes[i % NS];
            seer_dtype_t dt = (seer_dtype_t)(i / NS);
            seer_conv_desc_t d = desc(dt, 16, sh[1], sh[3], sh[2], sh[4], 1, 1);
            REQUIRE(d);
            d->shape.groups = sh[0];
            if ((i + g) % 2) d->layout = SEER_LAYOUT_NHWC;
            for (int dir = 0; dir < 3; dir++) {
                seer_algo_eval_t got, want;
                seer_status_t sg = seer_picker_best(m, d, (seer_direction_t)dir, &got);
                CHECK(sg == groups_whole(m, d, (seer_direction_t)dir, &want));
                if (!sg)
                    CHECK(got.algo == want.algo && got.time_ms == want.time_ms && got.cls == want.cls &&
                          got.source == want.source);
                compared += !sg;
            }
            seer_conv_desc_destroy(d);
        }
        seer_model_destroy(m);
    }
    CHECK(compared > 300);
    seer_destroy(h);
}

/* A narrow grouped conv's bounds are its prediction (both from its own
 * roofline, the legacy kernels' slowdown and the padded conv's cap), in
 * every dtype, layout, direction and algorithm: the picker skips by them. */
TEST(picker_narrow_grouped_bounds_are_the_prediction)
{
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    seer_handle_t h = handle();
    seer_model_t m;
    REQUIRE(seer_model_open(h, "models", "h100-sxm5-80gb", &m) == SEER_STATUS_SUCCESS);
    static const seer_dtype_t dts[] = {SEER_DTYPE_FP32, SEER_DTYPE_FP16, SEER_DTYPE_BF16, SEER_DTYPE_TF32};
    int compared = 0;
    for (int i = 0; i < 16; i++) {
        int g = i & 1 ? 144 : 8; /* depthwise, or 8 groups of 16 channels */
        seer_conv_desc_t d = desc(dts[i / 4], 8, 128 + (g == 144 ? 16 : 0), 28, 128 + (g == 144 ? 16 : 0), 3, 1, 1);
        REQUIRE(d);
        d->shape.groups = g;
        if (i & 2) d->layout = SEER_LAYOUT_NHWC;
        for (int dir = 0; dir < 3; dir++)
            for (int a = 0; a < seer_algo_count((seer_direction_t)dir); a++) {
                seer_conv_bounds_t b;
                double t = 0;
                if (seer_model_conv_bounds(NULL, m, d, (seer_direction_t)dir, a, 1, &b)) continue;
                CHECK(seer_model_predict_conv(NULL, m, d, (seer_direction_t)dir, a, NULL, NULL, &t, NULL, 0, NULL,
                                              NULL) == SEER_STATUS_SUCCESS);
                CHECK(b.lo <= t * (1 + 1e-12) && t <= b.hi * (1 + 1e-12) && fabs(t - b.lo) <= 1e-12 * t);
                compared++;
            }
        seer_conv_desc_destroy(d);
    }
    CHECK(compared > 100);
    seer_model_destroy(m);
    seer_destroy(h);
}

/* A wide grouped conv's bounds hold its grouped floor (the grouped
 * kernels' fixed cost, seer_model_grouped_floor) as its prediction takes
 * it: lo <= time <= hi, on GPUs with and without NCHW transposes, in the
 * served model (peers) and without them (peers 0). */
TEST(picker_wide_grouped_bounds_hold_the_prediction)
{
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    seer_handle_t h = handle();
    static const char *const gpus[] = {"h100-sxm5-80gb", "a100-pcie-80gb", "t4"};
    static const seer_dtype_t dts[] = {SEER_DTYPE_FP32, SEER_DTYPE_FP16, SEER_DTYPE_BF16, SEER_DTYPE_TF32};
    int compared = 0, floored = 0;
    for (int gi = 0; gi < 3; gi++) {
        seer_model_t m;
        REQUIRE(seer_model_open(h, "models", gpus[gi], &m) == SEER_STATUS_SUCCESS);
        for (int i = 0; i < 16; i++) {
            int g = i & 1 ? 16 : 4; /* 16 groups of 64 channels, or 4 of 256 */
            seer_conv_desc_t d = desc(dts[i / 4], i & 4 ? 1 : 8, 1024, 7, 1024, 3, 1, 1);
            REQUIRE(d);
            d->shape.groups = g;
            if (i & 2) d->layout = SEER_LAYOUT_NHWC;
            for (int dir = 0; dir < 3; dir++)
                for (int a = 0; a < seer_algo_count((seer_direction_t)dir); a++)
                    for (int peers = 0; peers < 2; peers++) {
                        seer_conv_bounds_t b;
                        double t = 0;
                        if (seer_model_conv_bounds(NULL, m, d, (seer_direction_t)dir, a, peers, &b)) continue;
                        CHECK(seer_model_predict_conv(NULL, m, d, (seer_direction_t)dir, a, NULL, NULL, &t, NULL, 0,
                                                      NULL, NULL) == SEER_STATUS_SUCCESS);
                        CHECK(b.lo <= t * (1 + 1e-12) && t <= b.hi * (1 + 1e-12));
                        CHECK(t >= seer_model_grouped_floor(m, d, (seer_direction_t)dir));
                        floored += t <= seer_model_grouped_floor(m, d, (seer_direction_t)dir) * (1 + 1e-12);
                        compared++;
                    }
            seer_conv_desc_destroy(d);
        }
        seer_model_destroy(m);
    }
    CHECK(compared > 300);
    CHECK(floored > 10); /* the floor decides some */
    seer_destroy(h);
}

/* A time out of range is the algorithm's own status, as cuDNN reports
 * each algorithm's: an absurd 20001 x 20001 filter on an A100 times
 * IMPLICIT_GEMM and GEMM over SEER_MAX_TIME_MS, IMPLICIT_PRECOMP_GEMM
 * under it (the served model, as seer --gpu serves it), which the picks
 * and a network take. */
TEST(picker_algorithm_out_of_range_leaves_the_others)
{
    seer_handle_t h;
    seer_model_t m;
    seer_conv_desc_t d;
    static const int shape[14] = {1, 1, 46339, 46339, 1, 20001, 20001, 10000, 10000, 1, 1, 1, 1, 1};
    REQUIRE(test_served_conv("a100-pcie-80gb", SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, shape, &h, &m, &d));
    double t = 0;
    CHECK_STATUS(seer_predict_conv(h, m, d, SEER_DIR_FWD, SEER_FWD_ALGO_IMPLICIT_GEMM, &t, NULL, 0, NULL),
                 SEER_STATUS_BAD_PREDICTION);
    int algo = -9, n = 0;
    CHECK_STATUS(seer_pick_conv_fastest(h, m, d, SEER_DIR_FWD, &algo, &t), SEER_STATUS_SUCCESS);
    CHECK(algo == SEER_FWD_ALGO_IMPLICIT_PRECOMP_GEMM && t > 1e7 && t < SEER_MAX_TIME_MS);
    seer_conv_algo_perf_t perf[8];
    CHECK_STATUS(seer_pick_conv_algo(h, m, d, SIZE_MAX, perf, 8, &n), SEER_STATUS_SUCCESS);
    REQUIRE(n == 8);
    CHECK(perf[0].algo == SEER_FWD_ALGO_IMPLICIT_PRECOMP_GEMM && perf[0].time == t);
    /* untimed, before the unsupported ones */
    CHECK(perf[1].status == SEER_STATUS_BAD_PREDICTION && perf[1].time == -1 &&
          perf[1].algo == SEER_FWD_ALGO_IMPLICIT_GEMM);
    CHECK(perf[2].status == SEER_STATUS_BAD_PREDICTION && perf[2].algo == SEER_FWD_ALGO_GEMM);
    for (int i = 3; i < n; i++) CHECK(perf[i].status == SEER_STATUS_UNSUPPORTED);
    const char *text = "input name=x c=1 h=46339 w=46339\nconv name=c k=1 r=20001 pad=10000\n";
    seer_network_t net;
    REQUIRE(seer_network_create(h, text, strlen(text), &net) == SEER_STATUS_SUCCESS);
    seer_layer_result_t r[4];
    double total = 0;
    CHECK_STATUS(seer_predict_network(h, m, net, 1, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, SEER_MODE_INFER, SEER_ALGO_AUTO,
                                      r, 4, &n, &total), SEER_STATUS_SUCCESS);
    CHECK(n == 1 && r[0].algo == SEER_FWD_ALGO_IMPLICIT_PRECOMP_GEMM && r[0].time_ms == t);
    seer_network_destroy(net);
    test_served_free(h, m, d);
}

/* cuDNN's choice out of range is its own failure too: with every
 * measured time scaled out of range, a GTX 1080 Ti's bwd_data 3x3 conv
 * keeps WINOGRAD's analytical time, which seer_pick_conv_fastest takes
 * as seer_pick_conv_bwd_data_algo ranks it first (it once returned
 * cuDNN's choice's BAD_PREDICTION). */
TEST(picker_choice_out_of_range_leaves_the_guesses)
{
    seer_handle_t h = handle();
    seer_model_t m = absurd(h, "models/gtx1080ti.seer", 1e12);
    REQUIRE(m);
    seer_conv_desc_t d = desc(SEER_DTYPE_FP32, 1, 16, 7, 16, 3, 1, 1);
    REQUIRE(d != NULL);
    seer_algo_eval_t choice;
    seer_picker_predict(m, d, SEER_DIR_BWD_DATA, SEER_ALGO_CUDNN_CHOICE, &choice);
    CHECK_STATUS(choice.err.st, SEER_STATUS_BAD_PREDICTION);
    seer_conv_algo_perf_t perf[8];
    int n = 0, algo = -9;
    double t = 0;
    CHECK_STATUS(seer_pick_conv_bwd_data_algo(h, m, d, SIZE_MAX, perf, 8, &n), SEER_STATUS_SUCCESS);
    CHECK(n > 0 && perf[0].algo == SEER_BWD_DATA_ALGO_WINOGRAD && perf[0].source == SEER_SOURCE_ANALYTICAL);
    CHECK_STATUS(seer_pick_conv_fastest(h, m, d, SEER_DIR_BWD_DATA, &algo, &t), SEER_STATUS_SUCCESS);
    CHECK(algo == perf[0].algo && t == perf[0].time);
    seer_conv_desc_destroy(d);
    seer_model_destroy(m);
    seer_destroy(h);
}

TEST(picker_hard_error_reports_the_prediction_message)
{
    /* The picker, the fastest pick, a network and the batch fit each
     * report a failing prediction's own message, kept from the attempt
     * that failed (nothing is predicted again for it). */
    seer_handle_t h = handle();
    seer_model_t m = absurd(h, "models/t4.seer", 1e12);
    REQUIRE(m);
    seer_conv_desc_t d;
    REQUIRE(seer_conv_desc_create(&d) == SEER_STATUS_SUCCESS);
    REQUIRE(seer_conv_desc_set(h, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, 32, 64, 56, 56, 64, 3, 3, 1, 1, 1, 1,
                               1, 1, 1) == SEER_STATUS_SUCCESS);
    double t;
    char want[1024], layer[1100];
    CHECK_STATUS(seer_predict_conv(h, m, d, SEER_DIR_FWD, SEER_FWD_ALGO_IMPLICIT_GEMM, &t, NULL, 0, NULL),
                 SEER_STATUS_BAD_PREDICTION);
    seer_get_last_error_copy(h, want, sizeof want);
    CHECK(strstr(want, "fwd IMPLICIT_GEMM convolution: predicted time ") == want);
    int algo = -9, n = 0;
    CHECK_STATUS(seer_pick_conv_fastest(h, m, d, SEER_DIR_FWD, &algo, &t), SEER_STATUS_BAD_PREDICTION);
    CHECK(strcmp(seer_get_last_error(h), want) == 0 && algo == -9);
    seer_conv_algo_perf_t perf[8];
    CHECK_STATUS(seer_pick_conv_algo(h, m, d, 1 << 30, perf, 8, &n), SEER_STATUS_BAD_PREDICTION);
    CHECK(strcmp(seer_get_last_error(h), want) == 0);

    const char *text = "input name=x c=64 h=56 w=56\nconv name=c k=64 r=3 pad=1\n";
    seer_network_t net;
    REQUIRE(seer_network_create(h, text, strlen(text), &net) == SEER_STATUS_SUCCESS);
    seer_net_options_t o = SEER_NET_OPTIONS_DEFAULT;
    o.batch = 32;
    o.algo_policy = SEER_FWD_ALGO_IMPLICIT_GEMM;
    seer_net_totals_t tot;
    CHECK_STATUS(seer_predict_network_opts(h, m, net, &o, NULL, 0, &tot), SEER_STATUS_BAD_PREDICTION);
    snprintf(layer, sizeof layer, "layer 'c' (line 2, conv fwd): %s", want);
    CHECK(strcmp(seer_get_last_error(h), layer) == 0);
    seer_model_destroy(m);

    /* Batch 1 fits; a larger batch the search probes fails: its message. */
    REQUIRE((m = absurd(h, "models/t4.seer", 1e8)) != NULL);
    o.mode = SEER_MODE_TRAIN;
    int b = -1;
    CHECK_STATUS(seer_network_fit_batch(h, m, net, &o, 1e12, &b), SEER_STATUS_BAD_PREDICTION);
    /* which direction fails first depends on the shipped model's numbers */
    CHECK(b == -1 && strstr(seer_get_last_error(h), "layer 'c' (line 2, conv ") == seer_get_last_error(h) &&
          strstr(seer_get_last_error(h), "convolution: predicted time ") != NULL);
    seer_network_destroy(net);
    seer_model_destroy(m);
    seer_conv_desc_destroy(d);
    seer_destroy(h);
}

TEST(cli_net_formats_and_errors)
{
    if (access(test_seer_bin(), X_OK) != 0) SKIP("seer binary not built");
    test_run_t r;
    /* no model needed for these */
    test_run_seer(&r, "net", "--help", NULL);
    CHECK(r.rc == 0 && strstr(r.out, "usage: seer net") != NULL);
    test_run_free(&r);
    test_run_seer(&r, "net", "resnet50", "--print", NULL);
    CHECK(r.rc == 0 && strstr(r.out, "network name=resnet50") != NULL && strstr(r.out, "layer4.2.conv3") != NULL);
    test_run_free(&r);
    test_run_seer(&r, "net", "resnet50", "--gpu", "a100-pcie-80gb", "--mode", "sideways", NULL);
    CHECK(r.rc == 2 && strstr(r.err, "--mode") != NULL);
    test_run_free(&r);
    test_run_seer(&r, "net", "resnet50", "--gpu", "a100-pcie-80gb", "--algo", "bogus", NULL);
    CHECK(r.rc == 2 && strstr(r.err, "--algo") != NULL);
    test_run_free(&r);
    test_run_seer(&r, "net", "lenet", "--gpu", "a100-pcie-80gb", NULL);
    CHECK(r.rc == 1 && strstr(r.err, "neither a built-in network") != NULL);
    test_run_free(&r);
    char bad[64];
    REQUIRE(test_write_temp(bad, "input c=3 h=32 w=32\nconv k=8 size=3\nadd in=conv_L2,nothere\n"));
    test_run_seer(&r, "net", bad, "--gpu", "a100-pcie-80gb", NULL);
    CHECK(r.rc == 1 && strstr(r.err, "line 3") != NULL && strstr(r.err, "NET_INPUT") != NULL);
    CHECK(strncmp(r.err, "seer net: ", 10) == 0 && strstr(r.err, bad) == r.err + 10);
    test_run_free(&r);
    unlink(bad);
    /* errors of predicting the network name it as parse errors do
     * (docs/cli.md), not "seer: ..." alone */
    if (access("models/a100-pcie-80gb.seer", R_OK) == 0 && access("models/t4.seer", R_OK) == 0) {
        test_run_seer(&r, "net", "resnet50", "--gpu", "a100-pcie-80gb", "--batch", "16777216", NULL);
        CHECK(r.rc == 1 && !*r.out && strncmp(r.err, "seer net: resnet50: SEER_STATUS_OVERFLOW: ", 42) == 0);
        CHECK(strstr(r.err, "layer 'conv1'") != NULL);
        test_run_free(&r);
        test_run_seer(&r, "net", "resnet50", "--gpu", "t4", "--amp", "--dtype", "bf16", NULL);
        CHECK(r.rc == 1 && !*r.out && strncmp(r.err, "seer net: resnet50: SEER_STATUS_UNSUPPORTED: ", 45) == 0);
        test_run_free(&r);
    }

    const char *mp = NULL;
    if (!a100(&mp) || !mp) SKIP("shared data not found");
    test_run_seer(&r, "net", "resnet50", "--model", mp, "--batch", "8", "--mode", "train", NULL);
    CHECK(r.rc == 0);
    CHECK(strstr(r.out, "layers by time") && strstr(r.out, "by operation") && strstr(r.out, "by class"));
    CHECK(strstr(r.out, "conv bwd_filter") != NULL && strstr(r.out, "total ") != NULL);
    CHECK(strstr(r.out, "B  the model has no data for this backward direction") != NULL);
    test_run_free(&r);
    test_run_seer(&r, "net", "mobilenet_v2", "--model", mp, "--batch", "4", "--format", "csv", NULL);
    CHECK(r.rc == 0 && strncmp(r.out, "rank,index,layer,op,direction,algo", 34) == 0);
    CHECK(strstr(r.out, ",,total,") != NULL);
    test_run_free(&r);
    test_run_seer(&r, "net", "vgg16", "--model", mp, "--batch", "2", "--format", "json", "--sort", "order", "--algo", "0", NULL);
    CHECK(r.rc == 0 && strstr(r.out, "\"network\": \"vgg16\"") && strstr(r.out, "\"total_ms\": "));
    CHECK(strstr(r.out, "\"algo\": \"IMPLICIT_GEMM\"") != NULL);
    test_run_free(&r);
    test_run_seer(&r, "net", "resnet18", "--model", mp, "--bench", "3", NULL);
    CHECK(r.rc == 0 && strstr(r.out, "prediction takes median") != NULL);
    test_run_free(&r);
    /* its line is text: no JSON or CSV to go with it */
    test_run_seer(&r, "net", "resnet18", "--model", mp, "--bench", "3", "--format", "json", NULL);
    CHECK(r.rc == 2 && strstr(r.err, "--bench") != NULL && !r.out[0]);
    test_run_free(&r);
    /* the A100 model has no fp16 data: the analytical model, marked A, for
     * the tensor-core kernels (IMPLICIT_PRECOMP_GEMM; the plain implicit
     * GEMM runs SIMT kernels its FP32 rows time, seer_conv_run_dtype) */
    test_run_seer(&r, "net", "resnet18", "--model", mp, "--dtype", "fp16", "--algo", "1", NULL);
    CHECK(r.rc == 0 && strstr(r.out, "A  no GPU has data for this conv's kernels") != NULL);
    test_run_free(&r);
    char good[64];
    REQUIRE(test_write_temp(good, "network name=mine\ninput c=3 h=32 w=32\nconv k=8 size=3 pad=1\nrelu\npool avg global\nfc k=10\n"));
    test_run_seer(&r, "net", good, "--model", mp, "--batch", "16", "--mode", "train", NULL);
    CHECK(r.rc == 0 && strstr(r.out, "network   mine") != NULL);
    test_run_free(&r);
    test_run_seer(&r, "net", good, "--model", mp, "--res", "64", NULL);
    CHECK(r.rc == 2 && strstr(r.err, "--res") != NULL);
    test_run_free(&r);
    unlink(good);
}

TEST(cli_pick)
{
    const char *mp = NULL;
    if (access(test_seer_bin(), X_OK) != 0) SKIP("seer binary not built");
    if (!a100(&mp) || !mp) SKIP("shared data not found");
    test_run_t r;
    test_run_seer(&r, "pick", "--model", mp, "--n", "32", "--c", "64", "--h", "56", "--w", "56", "--k", "64", NULL);
    CHECK(r.rc == 0 && strstr(r.out, "pick      ") != NULL && strstr(r.out, "DIRECT") != NULL);
    test_run_free(&r);
    test_run_seer(&r, "pick", "--model", mp, "--n", "32", "--c", "64", "--h", "56", "--w", "56", "--k", "64",
        "--workspace-mb", "0", "--format", "json", NULL);
    CHECK(r.rc == 0 && strstr(r.out, "\"status\": \"over_limit\"") != NULL);
    test_run_free(&r);
    test_run_seer(&r, "pick", "--model", mp, "--n", "32", "--c", "64", "--h", "56", "--w", "56", "--k", "64",
        "--direction", "bwd_data", NULL);
    CHECK(r.rc == 0 && strstr(r.out, "analytical") != NULL);
    test_run_free(&r);
    test_run_seer(&r, "pick", "--model", mp, "--n", "32", "--c", "64", "--h", "56", "--w", "56", NULL);
    CHECK(r.rc == 2 && strstr(r.err, "--k") != NULL);
    test_run_free(&r);
    test_run_seer(&r, "pick", "--model", mp, "--n", "32", "--c", "64", "--h", "56", "--w", "56", "--k", "64",
        "--workspace-mb", "-3", NULL);
    CHECK(r.rc == 2);
    test_run_free(&r);
    /* over the cap: the message gives the range, not just ">= 0" */
    test_run_seer(&r, "pick", "--model", mp, "--n", "32", "--c", "64", "--h", "56", "--w", "56", "--k", "64",
        "--workspace-mb", "1e13", NULL);
    CHECK(r.rc == 2 && strstr(r.err, "in [0, 1e12], got '1e13'") != NULL);
    test_run_free(&r);
}

/* A backward pass only the analytical model times, of a conv whose
 * forward pass is measured (a NeuSight-trained, forward-only model):
 * seer predict and seer pick say that seer net takes it from the
 * forward pass instead (mark B), in text and JSON; a forward pass never. */
TEST(cli_pick_and_predict_name_mark_b)
{
    const char *mp = NULL;
    if (access(test_seer_bin(), X_OK) != 0) SKIP("seer binary not built");
    if (!a100(&mp) || !mp) SKIP("shared data not found");
    static const char *const cmds[] = {"predict", "pick"};
    for (int c = 0; c < 2; c++)
        for (int dir = 0; dir < 2; dir++) {
            const char *d = dir ? "bwd_filter" : "fwd";
            test_run_t r;
            test_run_seer(&r, cmds[c], "--model", mp, "--n", "32", "--c", "256", "--h", "28", "--w", "28", "--k", "256",
                          "--direction", d, NULL);
            CHECK(r.rc == 0 && (strstr(r.out, "(mark B)") != NULL) == dir);
            test_run_free(&r);
            test_run_seer(&r, cmds[c], "--model", mp, "--n", "32", "--c", "256", "--h", "28", "--w", "28", "--k", "256",
                          "--direction", d, "--format", "json", NULL);
            CHECK(r.rc == 0 && strstr(r.out, dir ? "\"bwd_from_fwd\": true" : "\"bwd_from_fwd\": false") != NULL);
            test_run_free(&r);
        }
}

TEST(cli_eval_net)
{
    const char *mp = NULL;
    if (access(test_seer_bin(), X_OK) != 0) SKIP("seer binary not built");
    if (!a100(&mp) || !mp) SKIP("shared data not found");
    char csv[64];
    REQUIRE(test_write_temp(csv, "network,gpu,dtype,batch,mode,measured_ms\n"
                            "resnet50,a100-pcie-80gb,fp32,32,train,80\n"
                            "resnet50,a100-pcie-80gb,fp32,32,infer,25\n"
                            "vgg16,a100-pcie-80gb,fp32,16,infer,20\n"
                            "resnet50,t4,fp32,32,train,300\n"));
    test_run_t r;
    test_run_seer(&r, "eval-net", "--model", mp, "--data", csv, NULL);
    CHECK(r.rc == 0);
    CHECK(strstr(r.out, "resnet50") && strstr(r.out, "vgg16") && strstr(r.out, "MAPE"));
    CHECK(strstr(r.err, "1 rows of other GPUs") != NULL);
    test_run_free(&r);
    test_run_seer(&r, "eval-net", "--model", mp, "--data", csv, "--format", "json", NULL);
    CHECK(r.rc == 0 && strstr(r.out, "\"all\": {\"rows\": 3") != NULL);
    /* the training row is predicted as seer net predicts it, SGD step
     * included (it once left the optimizer out) */
    const char *p = strstr(r.out, "\"pred_ms\": ");
    double pred = 0, net = -1;
    CHECK(p && sscanf(p, "\"pred_ms\": %lf", &pred) == 1);
    test_run_free(&r);
    test_run_seer(&r, "net", "resnet50", "--model", mp, "--batch", "32", "--mode", "train", "--format", "json", NULL);
    p = strstr(r.out, "\"total_ms\": ");
    CHECK(r.rc == 0 && p && sscanf(p, "\"total_ms\": %lf", &net) == 1);
    CHECK(fabs(pred - net) <= 1e-5 * net);
    test_run_free(&r);
    unlink(csv);
    REQUIRE(test_write_temp(csv, "network,gpu,dtype,batch,mode,measured_ms\nresnet50,a100-pcie-80gb,fp32,32,sideways,80\n"));
    test_run_seer(&r, "eval-net", "--model", mp, "--data", csv, NULL);
    CHECK(r.rc == 1 && strstr(r.err, ":2:") != NULL && strstr(r.err, "mode") != NULL);
    test_run_free(&r);
    unlink(csv);
    REQUIRE(test_write_temp(csv, "network,gpu,batch,mode,measured_ms\nresnet50,a100-pcie-80gb,32,train,80\n"));
    test_run_seer(&r, "eval-net", "--model", mp, "--data", csv, NULL);
    CHECK(r.rc == 1 && strstr(r.err, "dtype") != NULL);
    test_run_free(&r);
    unlink(csv);
    /* a row's unknown GPU is the file's error, named with its line (it
     * was once a usage error about a --gpu no one gave); an ONNX model
     * is a network as seer net takes it, and predicts as the zoo's */
    REQUIRE(test_write_temp(csv, "network,gpu,dtype,batch,mode,measured_ms\n"
                            "tests/onnx/resnet50.onnx,a100-pcie-80gb,fp32,8,infer,10\n"
                            "resnet50,a100-pcie-80gb,fp32,8,infer,10\n"));
    test_run_seer(&r, "eval-net", "--data", csv, "--format", "json", NULL);
    const char *p1 = strstr(r.out, "\"pred_ms\": "), *p2 = p1 ? strstr(p1 + 1, "\"pred_ms\": ") : NULL;
    double o1 = 0, o2 = -1;
    CHECK(r.rc == 0 && p1 && p2 && sscanf(p1, "\"pred_ms\": %lf", &o1) == 1 && sscanf(p2, "\"pred_ms\": %lf", &o2) == 1);
    CHECK(fabs(o1 - o2) < 0.01 * o2);
    test_run_free(&r);
    /* the text tables print the path whole, aligned (once cut to 16
     * characters: "tests/onnx/resne") */
    test_run_seer(&r, "eval-net", "--data", csv, NULL);
    CHECK(r.rc == 0 && strstr(r.out, "tests/onnx/resnet50.onnx a100-pcie-80gb ") != NULL);
    CHECK(strncmp(r.out, "network                  gpu            dtype", 45) == 0);
    CHECK(strstr(r.out, "\ntests/onnx/resnet50.onnx     1 ") != NULL);
    CHECK(strstr(r.out, "\nresnet50                     1 ") != NULL);
    test_run_free(&r);
    unlink(csv);
    REQUIRE(test_write_temp(csv, "network,gpu,dtype,batch,mode,measured_ms\nresnet50,nosuch,fp32,8,infer,10\n"));
    test_run_seer(&r, "eval-net", "--data", csv, NULL);
    CHECK(r.rc == 1 && strstr(r.err, ":2: unknown GPU 'nosuch'") != NULL && strstr(r.err, "--gpu") == NULL);
    test_run_free(&r);
    unlink(csv);
    /* the optional columns run the row as seer net's options do: amp
     * without a layout is channels-last, as seer net --amp */
    REQUIRE(test_write_temp(csv, "network,gpu,dtype,batch,mode,measured_ms,layout,amp,optimizer,dispatch_us\n"
                            "resnet50,a100-pcie-80gb,fp16,32,train,50,,1,adam,7\n"));
    test_run_seer(&r, "eval-net", "--model", mp, "--data", csv, "--format", "json", NULL);
    p = strstr(r.out, "\"pred_ms\": ");
    CHECK(r.rc == 0 && p && sscanf(p, "\"pred_ms\": %lf", &pred) == 1);
    test_run_free(&r);
    test_run_seer(&r, "net", "resnet50", "--model", mp, "--batch", "32", "--mode", "train", "--amp", "--dtype", "half",
                  "--optimizer", "adam", "--dispatch-us", "7", "--format", "json", NULL);
    p = strstr(r.out, "\"total_ms\": ");
    CHECK(r.rc == 0 && p && sscanf(p, "\"total_ms\": %lf", &net) == 1);
    CHECK(fabs(pred - net) <= 1e-5 * net);
    test_run_free(&r);
    unlink(csv);
    static const char *const bad[][2] = {{"fp16,50,1,rmsprop,0", "column 'optimizer'"},
                                         {"fp16,50,2,sgd,0", "column 'amp'"},
                                         {"fp16,50,0,sgd,-1", "column 'dispatch_us'"},
                                         {"fp32,50,1,sgd,0", "column 'amp': mixed precision"},
                                         {"fp16,1e-300,0,sgd,0", "column 'measured_ms'"}};
    for (int i = 0; i < 5; i++) {
        char text[256];
        snprintf(text, sizeof text, "network,gpu,batch,mode,dtype,measured_ms,amp,optimizer,dispatch_us\n"
                 "resnet50,a100-pcie-80gb,32,train,%s\n", bad[i][0]);
        REQUIRE(test_write_temp(csv, text));
        test_run_seer(&r, "eval-net", "--model", mp, "--data", csv, NULL);
        CHECK(r.rc == 1 && strstr(r.err, ":2") != NULL && strstr(r.err, bad[i][1]) != NULL);
        test_run_free(&r);
        unlink(csv);
    }
}

/* A hand-made sweep of two shapes whose measured times are set from
 * libseer's own ranking, so the expected scores are known whatever the
 * model predicts. */
TEST(cli_eval_picker_synthetic_sweep)
{
    const char *mp = NULL;
    if (access(test_seer_bin(), X_OK) != 0) SKIP("seer binary not built");
    seer_model_t m = a100(&mp);
    if (!m || !mp) SKIP("shared data not found");
    seer_handle_t h = handle();
    static const char *const names[] = {"IMPLICIT_GEMM", "IMPLICIT_PRECOMP_GEMM", "GEMM", "DIRECT", "FFT",
                                        "FFT_TILING", "WINOGRAD", "WINOGRAD_NONFUSED"};
    const int hw[2] = {28, 14};
    char layers[8192], picks[4096];
    int nl = snprintf(layers, sizeof layers, "gpu,direction,dtype,layout,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,"
                                             "stride_w,dil_h,dil_w,groups,algo,time_ms,status\n");
    int np = snprintf(picks, sizeof picks, "gpu,direction,dtype,layout,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,"
                                           "stride_w,dil_h,dil_w,groups,source,rank,algo,time_ms,status\n");
    for (int s = 0; s < 2; s++) {
        seer_conv_desc_t d = desc(SEER_DTYPE_FP32, 16, 128, hw[s], 128, 3, 1, 1);
        REQUIRE(d != NULL);
        seer_conv_algo_perf_t p[8];
        int n = 0;
        REQUIRE(seer_pick_conv_algo(h, m, d, SIZE_MAX, p, 8, &n) == SEER_STATUS_SUCCESS);
        REQUIRE(n >= 3 && p[1].status == SEER_STATUS_SUCCESS);
        int mine = p[0].algo, other = p[1].algo;
        /* shape 0: libseer's pick is fastest, cuDNN picks `other` (2x: wrong);
         * shape 1: `other` is fastest and cuDNN's pick, libseer's 1.5x (wrong) */
        for (int i = 0; i < n; i++) {
            if (p[i].status == SEER_STATUS_UNSUPPORTED) continue;
            double t = s == 0 ? (p[i].algo == mine ? 1.0 : 2.0)
                              : (p[i].algo == other ? 1.0 : p[i].algo == mine ? 1.5 : 3.0);
            nl += snprintf(layers + nl, sizeof layers - (size_t)nl,
                           "a100-pcie-80gb,fwd,fp32,nchw,16,128,%d,%d,128,3,3,1,1,1,1,1,1,1,%s,%g,\n",
                           hw[s], hw[s], names[p[i].algo], t);
        }
        /* noise that must be ignored: a failed row, another GPU */
        nl += snprintf(layers + nl, sizeof layers - (size_t)nl,
                       "a100-pcie-80gb,fwd,fp32,nchw,16,128,%d,%d,128,3,3,1,1,1,1,1,1,1,%s,0.001,"
                       "CUDNN_STATUS_ALLOC_FAILED\n", hw[s], hw[s], names[mine]);
        nl += snprintf(layers + nl, sizeof layers - (size_t)nl,
                       "t4,fwd,fp32,nchw,16,128,%d,%d,128,3,3,1,1,1,1,1,1,1,%s,0.001,\n", hw[s], hw[s], names[mine]);
        /* cuDNN's v7 ranking as seer-bench writes it: rank 0 is marked
         * unusable, rank 1 was never measured (DIRECT), rank 2 is its pick */
        np += snprintf(picks + np, sizeof picks - (size_t)np,
                       "a100-pcie-80gb,fwd,fp32,nchw,16,128,%d,%d,128,3,3,1,1,1,1,1,1,1,v7,0,%s,,CUDNN_STATUS_NOT_SUPPORTED\n"
                       "a100-pcie-80gb,fwd,fp32,nchw,16,128,%d,%d,128,3,3,1,1,1,1,1,1,1,v7,1,DIRECT,,\n"
                       "a100-pcie-80gb,fwd,fp32,nchw,16,128,%d,%d,128,3,3,1,1,1,1,1,1,1,v7,2,%s,,\n"
                       "a100-pcie-80gb,fwd,fp32,nchw,16,128,%d,%d,128,3,3,1,1,1,1,1,1,1,find,,,,CUDNN_STATUS_ALLOC_FAILED\n"
                       "a100-pcie-80gb,fwd,fp32,nchw,16,128,%d,%d,128,3,3,1,1,1,1,1,1,1,find,0,%s,0.5,\n",
                       hw[s], hw[s], names[s ? mine : other], hw[s], hw[s], hw[s], hw[s], names[other], hw[s],
                       hw[s], hw[s], hw[s], names[s ? other : mine]);
        seer_conv_desc_destroy(d);
    }
    /* a shape with a single measured algorithm is not scored */
    nl += snprintf(layers + nl, sizeof layers - (size_t)nl,
                   "a100-pcie-80gb,fwd,fp32,nchw,4,64,7,7,64,3,3,1,1,1,1,1,1,1,IMPLICIT_GEMM,0.01,\n");
    char lp[64], pp[64];
    REQUIRE(test_write_temp(lp, layers));
    REQUIRE(test_write_temp(pp, picks));
    test_run_t r;
    test_run_seer(&r, "eval-picker", "--model", mp, "--data", lp, "--picks", pp, "--format", "json", NULL);
    CHECK(r.rc == 0);
    CHECK(strstr(r.out, "\"shapes\": 2, \"without_v7_pick\": 0, \"without_libseer_pick\": 0") != NULL);
    CHECK(strstr(r.out, "{\"picker\": \"libseer\", \"direction\": \"all\", \"shapes\": 2, \"wrong\": 1, "
                        "\"wrong_rate\": 0.5, \"regret\": 1.25}") != NULL);
    CHECK(strstr(r.out, "{\"picker\": \"cudnn_v7\", \"direction\": \"all\", \"shapes\": 2, \"wrong\": 1, "
                        "\"wrong_rate\": 0.5, \"regret\": 1.5}") != NULL);
    if (r.rc) printf("    %s%s\n", r.out, r.err);
    test_run_free(&r);
    test_run_seer(&r, "eval-picker", "--model", mp, "--data", lp, "--picks", pp, NULL);
    CHECK(r.rc == 0 && strstr(r.out, "libseer") && strstr(r.out, "cudnn_v7") && strstr(r.out, "50.00%"));
    test_run_free(&r);
    /* picks without the source (method) column */
    char bad[64];
    REQUIRE(test_write_temp(bad, "gpu,direction,dtype,layout,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,stride_w,dil_h,"
                            "dil_w,groups,algo\n"
                            "a100-pcie-80gb,fwd,fp32,nchw,16,128,28,28,128,3,3,1,1,1,1,1,1,1,GEMM\n"));
    test_run_seer(&r, "eval-picker", "--model", mp, "--data", lp, "--picks", bad, NULL);
    CHECK(r.rc == 1 && strstr(r.err, "source") != NULL);
    test_run_free(&r);
    test_run_seer(&r, "eval-picker", "--model", mp, "--data", lp, NULL);
    CHECK(r.rc == 2 && strstr(r.err, "--picks") != NULL);
    test_run_free(&r);
    unlink(lp);
    unlink(pp);
    unlink(bad);
    seer_destroy(h);
}

static seer_conv_desc_t laid_out(seer_dtype_t dt, seer_layout_t layout)
{
    seer_conv_desc_t d = NULL;
    if (seer_conv_desc_create(&d)) return NULL;
    if (seer_conv_desc_set(NULL, d, dt, layout, 64, 256, 28, 28, 128, 3, 3, 1, 1, 1, 1, 1, 1, 1)) {
        seer_conv_desc_destroy(d);
        return NULL;
    }
    return d;
}

TEST(picker_hopper_1x1_nchw_transposes_only_a_small_image)
{
    /* On Hopper an unpadded 1x1 NCHW conv is a GEMM per image (model.c,
     * measured on an H200): its transposes copy a 7 x 7 image's worth,
     * 49 / (H*W) of the tensors, and the whole of them at 7 x 7 or less.
     * An A100 copies all of them; a 3x3 conv does on Hopper too. */
    if (access("models/a100-pcie-80gb.seer", R_OK) != 0) SKIP("shipped models missing");
    seer_handle_t h = handle();
    seer_model_t hop, amp;
    REQUIRE(seer_model_open(h, "models", "h100-sxm5-80gb", &hop) == SEER_STATUS_SUCCESS);
    REQUIRE(seer_model_open(h, "models", "a100-pcie-80gb", &amp) == SEER_STATUS_SUCCESS);
    static const int sizes[3][2] = {{56, 1}, {7, 1}, {56, 3}}; /* image side, filter side */
    for (int i = 0; i < 3; i++) {
        int px = sizes[i][0], r = sizes[i][1];
        double full = 0, got[2] = {0, 0};
        seer_model_t ms[2] = {hop, amp};
        for (int j = 0; j < 2; j++) {
            seer_conv_desc_t d = NULL;
            REQUIRE(seer_conv_desc_create(&d) == SEER_STATUS_SUCCESS);
            REQUIRE(seer_conv_desc_set(NULL, d, SEER_DTYPE_BF16, SEER_LAYOUT_NCHW, 64, 256, px, px, 128, r, r,
                                       r / 2, r / 2, 1, 1, 1, 1, 1) == SEER_STATUS_SUCCESS);
            seer_kernel_pred_t k[SEER_MAX_KERNELS + 3];
            int nk = 0;
            double t;
            CHECK_STATUS(seer_predict_conv(h, ms[j], d, SEER_DIR_FWD, SEER_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, &t, k,
                                           SEER_MAX_KERNELS + 3, &nk), SEER_STATUS_SUCCESS);
            for (int q = 0; q < nk; q++)
                if (!strncmp(k[q].name, "nchwToNhwc x", 12)) got[j] = k[q].dram_bytes;
            seer_conv_desc_destroy(d);
        }
        full = 2.0 * 64 * 256 * px * px * 2; /* read and write x in bf16 */
        double share = r == 1 && px * px > 49 ? 49.0 / (px * px) : 1;
        CHECK_NEAR(got[0], full * share, 1e-9 * full);
        CHECK_NEAR(got[1], full, 1e-9 * full);
    }
    seer_model_destroy(hop);
    seer_model_destroy(amp);
    seer_destroy(h);
}

TEST(picker_nhwc_runs_the_implicit_gemms_alone)
{
    /* cuDNN 9.14 answered NOT_SUPPORTED for every FFT, Winograd and
     * explicit GEMM algorithm of every NHWC conv of the Hopper sweeps
     * (data/GPU/bench/picks.csv): NHWC predicts IMPLICIT_GEMM,
     * IMPLICIT_PRECOMP_GEMM (ALGO_0, ALGO_1 backward) and cuDNN's choice
     * only, in every dtype, while NCHW keeps the others. */
    if (access("models/a100-pcie-80gb.seer", R_OK) != 0) SKIP("shipped models missing");
    seer_handle_t h = handle();
    seer_model_t m;
    REQUIRE(seer_model_open(h, "models", "a100-pcie-80gb", &m) == SEER_STATUS_SUCCESS);
    const seer_dtype_t dts[3] = {SEER_DTYPE_FP32, SEER_DTYPE_FP16, SEER_DTYPE_TF32};
    for (int i = 0; i < 3; i++) {
        seer_conv_desc_t a = laid_out(dts[i], SEER_LAYOUT_NCHW), b = laid_out(dts[i], SEER_LAYOUT_NHWC);
        REQUIRE(a && b);
        for (int dir = 0; dir < 3; dir++) {
            int count = dir == 0 ? SEER_FWD_ALGO_COUNT : dir == 1 ? SEER_BWD_DATA_ALGO_COUNT
                                                                  : SEER_BWD_FILTER_ALGO_COUNT;
            int nchw_more = 0;
            for (int algo = 0; algo < count; algo++) {
                double ta, tb;
                seer_status_t sa = seer_predict_conv(h, m, a, (seer_direction_t)dir, algo, &ta, NULL, 0, NULL);
                seer_status_t sb = seer_predict_conv(h, m, b, (seer_direction_t)dir, algo, &tb, NULL, 0, NULL);
                if (algo < 2) {
                    CHECK_STATUS(sb, SEER_STATUS_SUCCESS);
                } else {
                    CHECK_STATUS(sb, SEER_STATUS_UNSUPPORTED);
                    nchw_more += sa == SEER_STATUS_SUCCESS;
                }
            }
            /* the 3x3 conv has Winograd in FP32 and FP16 at least */
            CHECK(nchw_more > 0 || dts[i] == SEER_DTYPE_TF32);
            /* cuDNN's choice is no algorithm of its own: as in NCHW */
            double t;
            CHECK_STATUS(seer_predict_conv(h, m, b, (seer_direction_t)dir, SEER_ALGO_CUDNN_CHOICE, &t, NULL, 0, NULL),
                         seer_predict_conv(h, m, a, (seer_direction_t)dir, SEER_ALGO_CUDNN_CHOICE, &t, NULL, 0, NULL));
        }
        double t;
        CHECK_STATUS(seer_predict_conv(h, m, b, SEER_DIR_FWD, SEER_FWD_ALGO_FFT_TILING, &t, NULL, 0, NULL),
                     SEER_STATUS_UNSUPPORTED);
        CHECK(strstr(seer_get_last_error(h), "needs the NCHW layout") != NULL);
        seer_conv_desc_destroy(a);
        seer_conv_desc_destroy(b);
    }
    seer_model_destroy(m);
    seer_destroy(h);
}

TEST(picker_nchw_tensor_cores_add_the_transposes)
{
    /* cuDNN's tensor-core kernels run NHWC: in NCHW a tensor-core conv
     * adds three transposes (both inputs, the output), each a read and a
     * write of its tensor at the streaming rate plus a launch gap; FMA
     * math, Winograd and FFT read NCHW as it is. */
    if (access("models/a100-pcie-80gb.seer", R_OK) != 0) SKIP("shipped models missing");
    seer_handle_t h = handle();
    seer_model_t m;
    REQUIRE(seer_model_open(h, "models", "a100-pcie-80gb", &m) == SEER_STATUS_SUCCESS);
    seer_gpu_info_t g;
    double gbps, gap_us;
    REQUIRE(seer_model_get_gpu(m, &g) == SEER_STATUS_SUCCESS && seer_gpu_streaming(&g, &gbps, &gap_us) == 0);
    static const char *const last[3] = {"nhwcToNchw y", "nhwcToNchw dx", "nhwcToNchw dw"};
    const double x = 64.0 * 256 * 28 * 28, w = 128.0 * 256 * 9, y = 64.0 * 128 * 28 * 28;
    seer_dtype_t dts[3] = {SEER_DTYPE_FP16, SEER_DTYPE_TF32, SEER_DTYPE_FP32};
    for (int i = 0; i < 3; i++) {
        seer_conv_desc_t a = laid_out(dts[i], SEER_LAYOUT_NCHW), b = laid_out(dts[i], SEER_LAYOUT_NHWC);
        REQUIRE(a && b);
        double es = dts[i] == SEER_DTYPE_FP16 ? 2 : 4;
        double want = (2 * (x + w + y) * es / (gbps * 1e9) * 1e3 + 3 * gap_us * 1e-3) * (i < 2);
        for (int dir = 0; dir < 3; dir++) {
            seer_kernel_pred_t ka[SEER_MAX_KERNELS + 3], kb[SEER_MAX_KERNELS + 3];
            int na = 0, nb = 0;
            double ta, tb;
            CHECK_STATUS(seer_predict_conv(h, m, a, (seer_direction_t)dir, 1, &ta, ka, 7, &na), SEER_STATUS_SUCCESS);
            CHECK_STATUS(seer_predict_conv(h, m, b, (seer_direction_t)dir, 1, &tb, kb, 7, &nb), SEER_STATUS_SUCCESS);
            CHECK_NEAR(ta - tb, want, 1e-9 * ta);
            CHECK(na == nb + 3 * (i < 2));
            if (i < 2 && na == nb + 3) {
                double sum = 0;
                for (int j = 0; j < na; j++) sum += ka[j].time_ms;
                CHECK_NEAR(sum, ta, 1e-9 * ta);
                CHECK(strcmp(ka[na - 1].name, last[dir]) == 0 && ka[na - 1].role == SEER_ROLE_HELPER &&
                      ka[na - 1].source == SEER_SOURCE_ANALYTICAL && ka[na - 1].cls == SEER_CLASS_DRAM);
                CHECK(strncmp(ka[nb].name, "nchwToNhwc", 10) == 0 && ka[nb].dram_bytes > 0);
                /* too small a buffer: told, with the count */
                CHECK_STATUS(seer_predict_conv(h, m, a, (seer_direction_t)dir, 1, &ta, ka, nb, &na),
                             SEER_STATUS_BUFFER_TOO_SMALL);
                CHECK(na == nb + 3);
            }
        }
        /* Winograd (FP16 and FP32 kernels; TF32 runs FP32 there) reads
         * NCHW as it is, and cuDNN has it for NCHW only */
        double ta, tb;
        CHECK_STATUS(seer_predict_conv(h, m, a, SEER_DIR_FWD, SEER_FWD_ALGO_WINOGRAD_NONFUSED, &ta, NULL, 0, NULL),
                     SEER_STATUS_SUCCESS);
        CHECK_STATUS(seer_predict_conv(h, m, b, SEER_DIR_FWD, SEER_FWD_ALGO_WINOGRAD_NONFUSED, &tb, NULL, 0, NULL),
                     SEER_STATUS_UNSUPPORTED);
        /* the picker's NCHW answer never exceeds the NHWC one by more than
         * the transposes (NCHW runs every NHWC algorithm, and more) */
        seer_algo_eval_t pa, pb;
        CHECK(seer_picker_best(m, a, SEER_DIR_FWD, &pa) == 0 && seer_picker_best(m, b, SEER_DIR_FWD, &pb) == 0);
        CHECK(pa.time_ms <= pb.time_ms + want * (1 + 1e-9));
        seer_conv_desc_destroy(a);
        seer_conv_desc_destroy(b);
    }
    seer_model_destroy(m);
    seer_destroy(h);
}

TEST(picker_bwd_data_dual_shape)
{
    /* dx of a unit-stride conv is a forward conv of dy: C and K swapped,
     * the flipped filter padded to give back H x W */
    static const struct { int h, r, pad, stride, dil, ok, dh, dpad, dout; } t[] = {
        {56, 3, 1, 1, 1, 1, 58, 0, 56}, /* same padding: dy 56, padded by 1 as data */
        {56, 3, 0, 1, 1, 1, 58, 0, 56}, /* valid: dy 54, padded by 2: the same conv */
        {56, 1, 0, 1, 1, 1, 56, 0, 56}, /* pointwise */
        {56, 3, 2, 1, 2, 1, 60, 0, 56}, /* dilated */
        {7, 7, 3, 1, 1, 1, 13, 0, 7},
        {56, 3, 3, 1, 1, 1, 60, 0, 58}, /* padded past the filter: dy, a larger dx */
        {56, 1, 1, 1, 1, 1, 58, 0, 58},
        {56, 3, 1, 2, 1, 0, 0, 0, 0},   /* strided: none */
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        seer_conv_shape_t s = {.n = 8, .c = 64, .h = t[i].h, .w = t[i].h, .k = 256, .r = t[i].r, .s = t[i].r,
                               .pad_h = t[i].pad, .pad_w = t[i].pad, .stride_h = t[i].stride,
                               .stride_w = t[i].stride, .dil_h = t[i].dil, .dil_w = t[i].dil, .groups = 1};
        struct seer_conv cv, d;
        REQUIRE(seer_conv_init(NULL, &cv, SEER_DTYPE_FP32, SEER_LAYOUT_NHWC, &s) == SEER_STATUS_SUCCESS);
        CHECK(seer_bwd_data_dual(&cv, &d) == t[i].ok);
        if (!t[i].ok) continue;
        CHECK(d.shape.c == 256 && d.shape.k == 64 && d.shape.n == 8 && d.shape.r == t[i].r);
        CHECK(d.shape.h == t[i].dh && d.shape.pad_h == t[i].dpad && d.shape.stride_h == 1);
        CHECK(d.shape.dil_h == t[i].dil && d.dtype == SEER_DTYPE_FP32 && d.layout == SEER_LAYOUT_NHWC);
        CHECK(d.p == t[i].dout && d.q == t[i].dout);
    }
    /* grouped: the groups stay, each group's channels swap */
    seer_conv_shape_t s = {.n = 8, .c = 64, .h = 28, .w = 20, .k = 128, .r = 3, .s = 5, .pad_h = 1, .pad_w = 2,
                           .stride_h = 1, .stride_w = 1, .dil_h = 1, .dil_w = 1, .groups = 32};
    struct seer_conv cv, d;
    REQUIRE(seer_conv_init(NULL, &cv, SEER_DTYPE_FP16, SEER_LAYOUT_NCHW, &s) == SEER_STATUS_SUCCESS);
    CHECK(seer_bwd_data_dual(&cv, &d) == 1);
    CHECK(d.shape.c == 128 && d.shape.k == 64 && d.shape.groups == 32 && d.p == 28 && d.q == 20);
    CHECK(d.shape.h == 30 && d.shape.w == 24 && d.shape.pad_h == 0 && d.shape.pad_w == 0 && d.shape.s == 5);
    /* past the size limits: none (the dgrad keeps its family's time) */
    seer_conv_shape_t big = {.n = 1, .c = 1024, .h = 1400, .w = 1400, .k = 64, .r = 1, .s = 1, .pad_h = 30,
                             .pad_w = 30, .stride_h = 1, .stride_w = 1, .dil_h = 1, .dil_w = 1, .groups = 1};
    REQUIRE(seer_conv_init(NULL, &cv, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, &big) == SEER_STATUS_SUCCESS);
    CHECK(seer_bwd_data_dual(&cv, &d) == 0);
    /* a padded dy past 2^31 elements: equal chunks of the batch that fit,
     * and the batch over one (58 * 58 * 1024 elements an image: 623 fit,
     * so 624 images are two chunks of 312) */
    seer_conv_shape_t many = {.n = 624, .c = 64, .h = 56, .w = 56, .k = 1024, .r = 3, .s = 3, .pad_h = 1,
                              .pad_w = 1, .stride_h = 1, .stride_w = 1, .dil_h = 1, .dil_w = 1, .groups = 1};
    REQUIRE(seer_conv_init(NULL, &cv, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, &many) == SEER_STATUS_SUCCESS);
    CHECK(seer_bwd_data_dual(&cv, &d) == 2 && d.shape.n == 312 && d.shape.h == 58 && d.p == 56);
    many.n = 623;
    REQUIRE(seer_conv_init(NULL, &cv, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, &many) == SEER_STATUS_SUCCESS);
    CHECK(seer_bwd_data_dual(&cv, &d) == 1 && d.shape.n == 623);
}

TEST(picker_bwd_data_blends_its_dual_forward)
{
    /* cuDNN's choice of a backward data on FMA math: the geometric mean of
     * its family and the forward pick of its dual, in the picker and in
     * the choice's own prediction alike; tensor-core math keeps its
     * family; a strided 1x1 is at most the stride-1 one */
    if (access("models/v100-sxm2-16gb.seer", R_OK) != 0) SKIP("shipped models missing");
    seer_handle_t h = handle();
    seer_model_t m;
    REQUIRE(seer_model_open(h, "models", "v100-sxm2-16gb", &m) == SEER_STATUS_SUCCESS);
    for (int i = 0; i < 2; i++) {
        seer_conv_desc_t d = desc(SEER_DTYPE_FP32, 16, 128, 28, 256, i ? 1 : 3, i ? 0 : 1, 1);
        REQUIRE(d);
        seer_algo_eval_t got, choice, fwd;
        struct seer_conv dual;
        double fam;
        REQUIRE(seer_bwd_data_dual(d, &dual));
        CHECK_STATUS(seer_predict_conv(h, m, d, SEER_DIR_BWD_DATA, SEER_ALGO_CUDNN_CHOICE, &fam, NULL, 0, NULL),
                     SEER_STATUS_SUCCESS);
        CHECK(seer_picker_best(m, &dual, SEER_DIR_FWD, &fwd) == SEER_STATUS_SUCCESS && fwd.time_ms != fam);
        CHECK(seer_picker_best(m, d, SEER_DIR_BWD_DATA, &got) == SEER_STATUS_SUCCESS);
        seer_picker_predict(m, d, SEER_DIR_BWD_DATA, SEER_ALGO_CUDNN_CHOICE, &choice);
        CHECK(got.algo == SEER_ALGO_CUDNN_CHOICE && choice.err.st == SEER_STATUS_SUCCESS);
        CHECK(got.time_ms == choice.time_ms);
        double floor = seer_model_conv_floor(m, d, SEER_DIR_BWD_DATA);
        CHECK(sqrt(fam * fwd.time_ms) > floor);
        CHECK_NEAR(got.time_ms, sqrt(fam * fwd.time_ms), 1e-12 * got.time_ms);
        printf("%s: family %.4f, dual forward %.4f, pick %.4f ms  ", i ? "1x1" : "3x3", fam, fwd.time_ms,
               got.time_ms);
        seer_conv_desc_destroy(d);
    }
    {   /* the floor binds where the dual's pick is an FFT the dgrad cannot run */
        seer_conv_desc_t d = desc(SEER_DTYPE_FP32, 64, 486, 25, 238, 7, 7, 1);
        seer_algo_eval_t got, fwd;
        struct seer_conv dual;
        double fam;
        REQUIRE(d && seer_bwd_data_dual(d, &dual) == 1);
        CHECK_STATUS(seer_predict_conv(h, m, d, SEER_DIR_BWD_DATA, SEER_ALGO_CUDNN_CHOICE, &fam, NULL, 0, NULL),
                     SEER_STATUS_SUCCESS);
        CHECK(seer_picker_best(m, &dual, SEER_DIR_FWD, &fwd) == SEER_STATUS_SUCCESS);
        CHECK(seer_picker_best(m, d, SEER_DIR_BWD_DATA, &got) == SEER_STATUS_SUCCESS);
        double floor = seer_model_conv_floor(m, d, SEER_DIR_BWD_DATA);
        CHECK(sqrt(fam * fwd.time_ms) < floor && got.time_ms == floor);
        seer_conv_desc_destroy(d);
    }
    {   /* a strided 1x1 held to the stride-1 one, under its own family */
        seer_conv_desc_t d1 = desc(SEER_DTYPE_FP32, 8, 8, 92, 8, 1, 0, 1);
        seer_conv_desc_t d2 = desc(SEER_DTYPE_FP32, 8, 8, 92, 8, 1, 0, 2);
        seer_algo_eval_t g1, g2;
        double fam;
        REQUIRE(d1 && d2);
        CHECK_STATUS(seer_predict_conv(h, m, d2, SEER_DIR_BWD_DATA, SEER_ALGO_CUDNN_CHOICE, &fam, NULL, 0, NULL),
                     SEER_STATUS_SUCCESS);
        CHECK(seer_picker_best(m, d1, SEER_DIR_BWD_DATA, &g1) == SEER_STATUS_SUCCESS);
        CHECK(seer_picker_best(m, d2, SEER_DIR_BWD_DATA, &g2) == SEER_STATUS_SUCCESS);
        CHECK(g1.time_ms < fam && g2.time_ms == g1.time_ms);
        seer_conv_desc_destroy(d1);
        seer_conv_desc_destroy(d2);
    }
    seer_conv_desc_t d = desc(SEER_DTYPE_FP16, 16, 128, 28, 256, 3, 1, 1);
    REQUIRE(d);
    seer_algo_eval_t choice;
    double fam;
    seer_picker_predict(m, d, SEER_DIR_BWD_DATA, SEER_ALGO_CUDNN_CHOICE, &choice);
    CHECK_STATUS(seer_predict_conv(h, m, d, SEER_DIR_BWD_DATA, SEER_ALGO_CUDNN_CHOICE, &fam, NULL, 0, NULL),
                 SEER_STATUS_SUCCESS);
    CHECK(choice.err.st == SEER_STATUS_SUCCESS && choice.time_ms == fam);
    seer_conv_desc_destroy(d);
    /* a padded 1x1 whose dual is past the size limits, at stride 1 and
     * 2: its family's time, read once (it once recursed without end) */
    for (int stride = 1; stride <= 2; stride++) {
        seer_conv_desc_t b = NULL;
        REQUIRE(seer_conv_desc_create(&b) == SEER_STATUS_SUCCESS);
        REQUIRE(seer_conv_desc_set(h, b, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, 1, 1024, 1400, 1400, 64, 1, 1, 30, 30,
                                   stride, stride, 1, 1, 1) == SEER_STATUS_SUCCESS);
        int algo;
        double t;
        CHECK_STATUS(seer_pick_conv_fastest(h, m, b, SEER_DIR_BWD_DATA, &algo, &t), SEER_STATUS_SUCCESS);
        CHECK(isfinite(t) && t > 0);
        seer_conv_desc_destroy(b);
    }
    seer_model_destroy(m);
    /* one image more never takes much less time where the padded dy
     * passes 2^31 elements (it once took 17 % less on the A100) */
    REQUIRE(seer_model_open(h, "models", "a100-pcie-80gb", &m) == SEER_STATUS_SUCCESS);
    double t[2];
    for (int i = 0; i < 2; i++) {
        seer_conv_desc_t b = desc(SEER_DTYPE_FP32, 623 + i, 64, 56, 1024, 3, 1, 1);
        int algo;
        REQUIRE(b);
        CHECK_STATUS(seer_pick_conv_fastest(h, m, b, SEER_DIR_BWD_DATA, &algo, &t[i]), SEER_STATUS_SUCCESS);
        seer_conv_desc_destroy(b);
    }
    CHECK(t[1] >= t[0] && t[1] <= t[0] * 1.01);
    printf("623 / 624 images: %.3f / %.3f ms  ", t[0], t[1]);
    seer_model_destroy(m);
    seer_destroy(h);
}

TEST(picker_fft_tiling_one_axis_workspace_is_cudnns)
{
    /* A filter one tap wide is transformed along one axis (launch.c,
     * seer_fft_tiling): the workspace cuDNN 9.14 reported for these
     * calls of the H100 sweep (data/h100-sxm5-80gb/bench/layers.csv),
     * forward and backward data alike, and a 3x3's 32x32 tiles forward
     * (its backward data, the dual conv of padding 2, took 787316752) */
    static const struct { int n, c, hw, k, r, s, ph, pw; size_t ws; } cases[] = {
        {32, 2048, 8, 448, 1, 1, 0, 0, 211681280},
        {32, 192, 17, 192, 7, 1, 3, 0, 33423360},
        {32, 192, 17, 192, 1, 7, 0, 3, 33423360},
        {32, 384, 8, 384, 1, 3, 0, 1, 46792704},
        {32, 192, 17, 192, 3, 3, 0, 0, 213909504},
    };
    seer_handle_t h = handle();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        seer_conv_desc_t d = NULL;
        REQUIRE(seer_conv_desc_create(&d) == SEER_STATUS_SUCCESS);
        REQUIRE(seer_conv_desc_set(NULL, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, cases[i].n, cases[i].c, cases[i].hw,
                                   cases[i].hw, cases[i].k, cases[i].r, cases[i].s, cases[i].ph, cases[i].pw, 1, 1,
                                   1, 1, 1) == SEER_STATUS_SUCCESS);
        size_t fwd = 0, bwd = 0;
        CHECK_STATUS(seer_conv_workspace_size(h, d, SEER_DIR_FWD, SEER_FWD_ALGO_FFT_TILING, &fwd),
                     SEER_STATUS_SUCCESS);
        CHECK_STATUS(seer_conv_workspace_size(h, d, SEER_DIR_BWD_DATA, SEER_BWD_DATA_ALGO_FFT_TILING, &bwd),
                     SEER_STATUS_SUCCESS);
        CHECK(fwd == cases[i].ws && (bwd == cases[i].ws || cases[i].r == 3));
        seer_conv_desc_destroy(d);
    }
    seer_destroy(h);
}

/* The plain implicit GEMM is the precomputed one computing its offsets
 * as it goes (model.c, implicit_after_precomp): where both run the same
 * math it is never faster, and at a tie the precomputed one ranks
 * first.  The transferred families timed the two alike, and on the
 * H200 sweep of seed 3 the picker took the plain one for 19 of ResNet-50's
 * FP32 batch-1 convs, at up to 4x the precomputed one's measured time
 * (1024 -> 256, 14x14: 0.174 ms against 0.042). */
TEST(picker_plain_implicit_gemm_never_beats_precomputed)
{
    static const char *gpus[] = {"h200-sxm-141gb", "h100-sxm5-80gb", "a100-pcie-80gb", "t4", "v100-sxm2-16gb",
                                 "l4"};
    seer_handle_t h = handle();
    unsigned seed = 20261128u, x = seed;
    int compared = 0;
    for (size_t g = 0; g < sizeof gpus / sizeof *gpus; g++) {
        seer_model_t m;
        if (seer_model_open(h, "models", gpus[g], &m)) SKIP("shipped models missing");
        for (int i = 0; i < 60; i++) {
            x = x * 1103515245u + 12345u;
            int n = 1 << (x >> 8) % 7, c = 8 << (x >> 12) % 8, k = 8 << (x >> 16) % 8, hw = 7 << (x >> 20) % 5,
                r = (x >> 24) % 2 ? 3 : 1;
            seer_conv_desc_t d = desc(SEER_DTYPE_FP32, n, c, hw, k, r, r / 2, 1 + (x >> 28) % 2);
            REQUIRE(d);
            if (i % 2) d->layout = SEER_LAYOUT_NHWC;
            double ti = 0, tp = 0;
            if (!seer_predict_conv(h, m, d, SEER_DIR_FWD, SEER_FWD_ALGO_IMPLICIT_GEMM, &ti, NULL, 0, NULL) &&
                !seer_predict_conv(h, m, d, SEER_DIR_FWD, SEER_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, &tp, NULL, 0, NULL)) {
                if (!(ti > tp))
                    printf("    seed %u %s %dx%dx%dx%d -> %d, %dx%d: implicit %g ms, precomputed %g ms\n", seed,
                           gpus[g], n, c, hw, hw, k, r, r, ti, tp);
                CHECK(ti > tp);
                seer_conv_algo_perf_t p[SEER_FWD_ALGO_COUNT];
                int np = 0, at[2] = {-1, -1};
                CHECK_STATUS(seer_pick_conv_algo(h, m, d, SIZE_MAX, p, SEER_FWD_ALGO_COUNT, &np), SEER_STATUS_SUCCESS);
                for (int j = 0; j < np; j++)
                    if (p[j].algo <= SEER_FWD_ALGO_IMPLICIT_PRECOMP_GEMM) at[p[j].algo] = j;
                CHECK(at[1] >= 0 && at[1] < at[0]);
                compared++;
            }
            seer_conv_desc_destroy(d);
        }
        seer_model_destroy(m);
    }
    CHECK(compared > 200);
    /* ResNet-50's layer3 1x1 reduce at batch 1 on the H200: not the plain one */
    seer_model_t m;
    REQUIRE(seer_model_open(h, "models", "h200-sxm-141gb", &m) == SEER_STATUS_SUCCESS);
    seer_conv_desc_t d = desc(SEER_DTYPE_FP32, 1, 1024, 14, 256, 1, 0, 1);
    REQUIRE(d);
    int algo = -1;
    double t = 0;
    CHECK_STATUS(seer_pick_conv_fastest(h, m, d, SEER_DIR_FWD, &algo, &t), SEER_STATUS_SUCCESS);
    CHECK(algo != SEER_FWD_ALGO_IMPLICIT_GEMM);
    seer_conv_desc_destroy(d);
    seer_model_destroy(m);
    seer_destroy(h);
}

/* SIMT kernels in tensor-core math rank after every tensor-core guess
 * (picker.c, seer_picker_simt), FP16's non-fused Winograd on Hopper
 * among them (cuDNN 9 runs FP32 SIMT GEMMs for it): the H200 sweep of
 * seed 3 measured it at 0.63 ms for VGG-16's conv2_2 backward filter
 * (FP16 NCHW, batch 32), ALGO_1 at 0.17, and the picker took it at 0.07
 * predicted.  A V100 keeps its FP16 Winograd among the tensor-core ones. */
TEST(picker_hopper_fp16_winograd_ranks_after_tensor_cores)
{
    seer_handle_t h = handle();
    seer_model_t m, v;
    if (seer_model_open(h, "models", "h200-sxm-141gb", &m)) SKIP("shipped models missing");
    REQUIRE(seer_model_open(h, "models", "v100-sxm2-16gb", &v) == SEER_STATUS_SUCCESS);
    seer_conv_desc_t d = desc(SEER_DTYPE_FP16, 32, 128, 56, 128, 3, 1, 1);
    REQUIRE(d);
    const int w = SEER_BWD_FILTER_ALGO_WINOGRAD_NONFUSED;
    CHECK(seer_picker_simt(m, d, SEER_DIR_BWD_FILTER, w));
    CHECK(!seer_picker_simt(v, d, SEER_DIR_BWD_FILTER, w));
    d->dtype = SEER_DTYPE_BF16; /* BF16's runs FP32 kernels, timed as such (launch.h): not a guess */
    CHECK(!seer_picker_simt(m, d, SEER_DIR_BWD_FILTER, w));
    d->dtype = SEER_DTYPE_FP16;
    seer_conv_algo_perf_t p[SEER_BWD_FILTER_ALGO_COUNT];
    int np = 0, seen_w = 0;
    CHECK_STATUS(seer_pick_conv_bwd_filter_algo(h, m, d, SIZE_MAX, p, SEER_BWD_FILTER_ALGO_COUNT, &np),
                 SEER_STATUS_SUCCESS);
    CHECK(np > 0 && p[0].algo != w);
    for (int j = 0; j < np; j++) {
        seen_w |= p[j].algo == w;
        /* after it, no tensor-core algorithm that answered */
        if (seen_w && p[j].algo != w && p[j].status == SEER_STATUS_SUCCESS)
            CHECK(seer_picker_simt(m, d, SEER_DIR_BWD_FILTER, p[j].algo));
    }
    CHECK(seen_w);
    /* seer predict lists them in seer pick's order */
    if (access(test_seer_bin(), X_OK) == 0) {
        test_run_t r;
        test_run_seer(&r, "predict", "--gpu", "h200-sxm-141gb", "--models", "models", "--n", "32", "--c", "128", "--h",
                      "56", "--w", "56", "--k", "128", "--dtype", "fp16", "--direction", "bwd_filter", NULL);
        const char *a1 = r.rc ? NULL : strstr(r.out, "ALGO_1 "), *wn = r.rc ? NULL : strstr(r.out, "WINOGRAD_NONFUSED");
        CHECK(a1 && wn && a1 < wn);
        test_run_free(&r);
    }
    seer_conv_desc_destroy(d);
    seer_model_destroy(v);
    seer_model_destroy(m);
    seer_destroy(h);
}

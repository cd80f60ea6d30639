/* launch.c: the kernels cuDNN launches per direction and algorithm (main
 * kernel first), the GEMM each main kernel computes and its work, and the
 * combinations cuDNN does not have. */
#include <stdlib.h>
#include "conv.h"
#include "gpu.h"
#include "launch.h"
#include "model.h"
#include "test.h"

typedef struct { int n, c, h, k, r, pad, stride, dil, groups; seer_dtype_t dt; } shape_t;

static int mk(struct seer_conv *cv, shape_t s)
{
    const seer_conv_shape_t sh = {s.n, s.c, s.h, s.h, s.k, s.r, s.r, s.pad, s.pad, s.stride, s.stride,
                                  s.dil, s.dil, s.groups};
    return seer_conv_init(NULL, cv, s.dt, SEER_LAYOUT_NCHW, &sh) == SEER_STATUS_SUCCESS;
}

/* 3x3, stride 1, "same" padding: every algorithm cuDNN has applies. */
static const shape_t BASE = {8, 64, 28, 128, 3, 1, 1, 1, 1, SEER_DTYPE_FP32};

TEST(launch_algo_count_per_direction)
{
    CHECK(seer_algo_count(SEER_DIR_FWD) == 8);
    CHECK(seer_algo_count(SEER_DIR_BWD_DATA) == 6);
    CHECK(seer_algo_count(SEER_DIR_BWD_FILTER) == 7);
    CHECK(seer_algo_count((seer_direction_t)3) == 0);
    CHECK(seer_algo_count((seer_direction_t)-1) == 0);
}

TEST(launch_kernels_per_direction_and_algorithm)
{
    /* what each algorithm launches, main kernel first; NULL: cuDNN has no
     * such algorithm (fwd DIRECT, bwd_filter WINOGRAD) */
    static const char *const want[3][8][4] = {
        {{"gemm"}, {"gemm", "precompute"}, {"gemm", "im2col"}, {NULL},
         {"cgemm", "fft_data", "fft_filter", "ifft_output"},
         {"cgemm", "fft_data", "fft_filter", "ifft_output"}, {"winograd", "filter_transform"},
         {"gemm", "data_transform", "filter_transform", "output_transform"}},
        {{"gemm"}, {"gemm", "precompute"}, {"cgemm", "fft_data", "fft_filter", "ifft_output"},
         {"cgemm", "fft_data", "fft_filter", "ifft_output"}, {"winograd", "filter_transform"},
         {"gemm", "data_transform", "filter_transform", "output_transform"}},
        {{"gemm"}, {"gemm", "precompute"}, {"cgemm", "fft_data", "fft_filter", "ifft_output"},
         {"gemm"}, {NULL}, {"gemm", "data_transform", "filter_output"},
         {"cgemm", "fft_data", "fft_filter", "ifft_output"}},
    };
    struct seer_conv cv;
    REQUIRE(mk(&cv, BASE));
    seer_err_t e;
    for (int d = 0; d < 3; d++)
        for (int a = 0; a < seer_algo_count((seer_direction_t)d); a++) {
            seer_kview_t k[SEER_MAX_KERNELS];
            int nk = -1;
            seer_status_t st = seer_conv_kernels(&e, &cv, (seer_direction_t)d, a, k, &nk);
            if (!want[d][a][0]) {
                CHECK(st == SEER_STATUS_UNSUPPORTED);
                CHECK(strstr(e.msg, "not implemented") != NULL);
                CHECK(strstr(e.msg, seer_direction_name((seer_direction_t)d)) != NULL);
                continue;
            }
            if (st) printf("\n    %s %s: %s", seer_direction_name((seer_direction_t)d),
                           seer_algo_name((seer_direction_t)d, a), e.msg);
            REQUIRE(st == SEER_STATUS_SUCCESS);
            int expect = 0;
            while (expect < 4 && want[d][a][expect]) expect++;
            CHECK(nk == expect);
            REQUIRE(nk >= 1 && nk <= SEER_MAX_KERNELS);
            CHECK(k[0].role == SEER_ROLE_MAIN);
            CHECK(k[0].flops > 0 && k[0].gm >= 1 && k[0].gn >= 1 && k[0].gk >= 1 && k[0].gbatch >= 1);
            for (int i = 0; i < nk; i++) {
                CHECK(strcmp(k[i].what, want[d][a][i]) == 0);
                CHECK(k[i].bytes > 0);
                if (i > 0) /* helpers move data: no role of main, no GEMM, no FLOPs */
                    CHECK(k[i].role != SEER_ROLE_MAIN && k[i].flops == 0 && k[i].gm == 0);
                /* the role follows the name */
                if (strstr(k[i].what, "data") || !strcmp(k[i].what, "im2col"))
                    CHECK(k[i].role == SEER_ROLE_INPUT_TRANSFORM);
                if (!strcmp(k[i].what, "filter_transform") || !strcmp(k[i].what, "fft_filter"))
                    CHECK(k[i].role == SEER_ROLE_FILTER_TRANSFORM);
                if (strstr(k[i].what, "output"))
                    CHECK(k[i].role == SEER_ROLE_OUTPUT_TRANSFORM);
            }
        }
}

TEST(launch_implicit_gemm_dims_and_work)
{
    /* groups and stride: fwd M = N*P*Q, N = K/g, K = C/g*R*S batched over
     * g; bwd_data M = N*H*W, N = C/g, K = K/g*R*S; bwd_filter M = K/g,
     * N = C/g*R*S, K = N*P*Q.  The main kernel reads two tensors and
     * writes the third once: the direction's minimum bytes. */
    static const shape_t shapes[] = {
        {4, 64, 14, 128, 3, 1, 2, 1, 4, SEER_DTYPE_FP32},
        {2, 32, 17, 64, 5, 2, 1, 2, 1, SEER_DTYPE_FP16},
        {16, 256, 7, 512, 1, 0, 1, 1, 1, SEER_DTYPE_FP32},
        {1, 8, 9, 8, 3, 1, 1, 1, 8, SEER_DTYPE_BF16}, /* depthwise */
    };
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        struct seer_conv cv;
        REQUIRE(mk(&cv, shapes[i]));
        const seer_conv_shape_t *sh = &cv.shape;
        double N = sh->n, C = sh->c, H = sh->h, W = sh->w, K = sh->k, RS = sh->r * sh->s, g = sh->groups;
        double PQ = (double)cv.p * cv.q;
        const double dims[3][4] = {
            {N * PQ, K / g, C / g * RS, g}, {N * H * W, C / g, K / g * RS, g}, {K / g, C / g * RS, N * PQ, g}};
        for (int d = 0; d < 3; d++)
            for (int a = 0; a < 2; a++) { /* IMPLICIT_GEMM / ALGO_0 and PRECOMP / ALGO_1 */
                seer_kview_t k[SEER_MAX_KERNELS];
                int nk = 0;
                REQUIRE(seer_conv_kernels(NULL, &cv, (seer_direction_t)d, a, k, &nk) == SEER_STATUS_SUCCESS);
                CHECK(k[0].gm == dims[d][0] && k[0].gn == dims[d][1] && k[0].gk == dims[d][2] &&
                      k[0].gbatch == dims[d][3]);
                CHECK(k[0].flops == seer_conv_flops(&cv));
                CHECK(k[0].bytes == seer_conv_min_bytes(&cv, (seer_direction_t)d));
                if (a == 1) /* the precompute kernel reads the filter once */
                    CHECK(k[1].bytes == (double)seer_conv_w_elems(&cv) * seer_dtype_size(cv.dtype));
            }
        /* the GEMM of fwd and bwd_filter is exactly the conv's work */
        for (int d = 0; d < 3; d += 2) {
            seer_kview_t k[SEER_MAX_KERNELS];
            int nk = 0;
            REQUIRE(seer_conv_kernels(NULL, &cv, (seer_direction_t)d, 0, k, &nk) == SEER_STATUS_SUCCESS);
            CHECK_NEAR(2 * k[0].gm * k[0].gn * k[0].gk * k[0].gbatch, k[0].flops, 1e-12);
        }
    }
}

/* Tensor-core math pads a dense conv's channels to 64 bytes per filter
 * tap, 32 (FP16, BF16) or 16 (TF32): a first layer's 3 channels run the
 * GEMM of 32 (or 16), and move only their own bytes; FP32 math does not
 * pad. */
TEST(launch_tensor_core_channels_padded)
{
    static const struct { seer_dtype_t dt; double c_run, k_run; } cases[] = {
        {SEER_DTYPE_FP16, 32, 64}, {SEER_DTYPE_BF16, 32, 64}, {SEER_DTYPE_TF32, 16, 64},
        {SEER_DTYPE_FP32, 3, 61}, {SEER_DTYPE_FP16_PSEUDO, 3, 61},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct seer_conv cv;
        REQUIRE(mk(&cv, (shape_t){8, 3, 56, 61, 7, 3, 2, 1, 1, cases[i].dt}));
        double RS = 49, NPQ = 8.0 * cv.p * cv.q;
        const double dims[3][3] = {{NPQ, cases[i].k_run, cases[i].c_run * RS},
                                   {8.0 * 56 * 56, cases[i].c_run, cases[i].k_run * RS},
                                   {cases[i].k_run, cases[i].c_run * RS, NPQ}};
        for (int d = 0; d < 3; d++) {
            seer_kview_t k[SEER_MAX_KERNELS];
            int nk = 0;
            REQUIRE(seer_conv_kernels(NULL, &cv, (seer_direction_t)d, 1, k, &nk) == SEER_STATUS_SUCCESS);
            CHECK(k[0].gm == dims[d][0] && k[0].gn == dims[d][1] && k[0].gk == dims[d][2]);
            if (d != SEER_DIR_BWD_DATA) /* its GEMM walks the input, not the output */
                CHECK_NEAR(2 * k[0].gm * k[0].gn * k[0].gk, k[0].flops, 1e-12);
            CHECK(k[0].bytes == seer_conv_min_bytes(&cv, (seer_direction_t)d));
            CHECK_NEAR(k[0].pad, cases[i].c_run * cases[i].k_run / (3.0 * 61), 1e-12);
        }
    }
    /* cuDNN runs FMA kernels where padding costs more: an RTX 2070's
     * FP16 tensor cores (29.9 TFLOP/s) on 32 channels of 1 (32x the
     * FLOPs) lose to its FP32 FMA rate (7.46) on the conv's own FLOPs */
    const seer_gpu_info_t *g = seer_gpu_lookup("rtx2070");
    REQUIRE(g);
    struct seer_conv cv;
    REQUIRE(mk(&cv, (shape_t){8, 1, 56, 64, 7, 3, 2, 1, 1, SEER_DTYPE_FP16}));
    seer_kview_t k[SEER_MAX_KERNELS];
    int nk = 0;
    REQUIRE(seer_conv_kernels(NULL, &cv, SEER_DIR_FWD, 1, k, &nk) == SEER_STATUS_SUCCESS);
    CHECK(k[0].pad == 32);
    CHECK_NEAR(seer_main_flops_ms(g, SEER_DTYPE_FP16, k), seer_conv_flops(&cv) / (g->fp32_tflops * 1e12) * 1e3, 1e-12);
    REQUIRE(mk(&cv, (shape_t){8, 16, 56, 64, 7, 3, 2, 1, 1, SEER_DTYPE_FP16})); /* 2x: the tensor cores win */
    REQUIRE(seer_conv_kernels(NULL, &cv, SEER_DIR_FWD, 1, k, &nk) == SEER_STATUS_SUCCESS);
    CHECK_NEAR(seer_main_flops_ms(g, SEER_DTYPE_FP16, k), k[0].flops / (g->fp16_tflops * 1e12) * 1e3, 1e-12);
}

/* ResNet's stem in FP16 NHWC runs cuDNN's first-layer kernels forward
 * and backward filter, costed as 12 channels (launch.c, first_layer);
 * backward data, BF16, NCHW and other stems keep the 64-byte slice's 32
 * (measured: the H200's ResNet-50 stem forward took 0.40 ms at batch 256,
 * 2.6x under the 32-channel prediction). */
TEST(launch_resnet_stem_first_layer_kernels)
{
    static const struct { seer_dtype_t dt; seer_layout_t l; int c, k, r, stride; double c_run[3]; } cases[] = {
        {SEER_DTYPE_FP16, SEER_LAYOUT_NHWC, 3, 64, 7, 2, {12, 32, 12}},
        {SEER_DTYPE_FP16, SEER_LAYOUT_NHWC, 4, 32, 7, 2, {12, 32, 12}},
        {SEER_DTYPE_FP16, SEER_LAYOUT_NHWC, 3, 128, 7, 2, {32, 32, 32}},
        {SEER_DTYPE_FP16, SEER_LAYOUT_NHWC, 5, 64, 7, 2, {32, 32, 32}},
        {SEER_DTYPE_FP16, SEER_LAYOUT_NHWC, 3, 64, 7, 1, {32, 32, 32}},
        {SEER_DTYPE_FP16, SEER_LAYOUT_NHWC, 3, 64, 5, 2, {32, 32, 32}},
        {SEER_DTYPE_FP16, SEER_LAYOUT_NCHW, 3, 64, 7, 2, {32, 32, 32}},
        {SEER_DTYPE_BF16, SEER_LAYOUT_NHWC, 3, 64, 7, 2, {32, 32, 32}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const seer_conv_shape_t sh = {32, cases[i].c, 224, 224, cases[i].k, cases[i].r, cases[i].r, cases[i].r / 2,
                                      cases[i].r / 2, cases[i].stride, cases[i].stride, 1, 1, 1};
        struct seer_conv cv;
        REQUIRE(seer_conv_init(NULL, &cv, cases[i].dt, cases[i].l, &sh) == SEER_STATUS_SUCCESS);
        for (int d = 0; d < 3; d++) {
            seer_kview_t k[SEER_MAX_KERNELS];
            int nk = 0;
            REQUIRE(seer_conv_kernels(NULL, &cv, (seer_direction_t)d, 1, k, &nk) == SEER_STATUS_SUCCESS);
            CHECK_NEAR(k[0].pad, cases[i].c_run[d] / cases[i].c, 1e-12);
        }
    }
}

TEST(launch_explicit_gemm_im2col)
{
    struct seer_conv cv;
    shape_t s = BASE;
    s.groups = 2;
    REQUIRE(mk(&cv, s));
    double es = 4, cols = (double)cv.shape.n * cv.p * cv.q * (cv.shape.c / 2) * 9 * 2;
    seer_kview_t k[SEER_MAX_KERNELS], imp[SEER_MAX_KERNELS];
    int nk = 0, ni = 0;
    REQUIRE(seer_conv_kernels(NULL, &cv, SEER_DIR_FWD, SEER_FWD_ALGO_GEMM, k, &nk) == SEER_STATUS_SUCCESS);
    REQUIRE(seer_conv_kernels(NULL, &cv, SEER_DIR_FWD, SEER_FWD_ALGO_IMPLICIT_GEMM, imp, &ni) == SEER_STATUS_SUCCESS);
    /* the same GEMM as the implicit one, fed from an im2col matrix */
    CHECK(k[0].gm == imp[0].gm && k[0].gn == imp[0].gn && k[0].gk == imp[0].gk && k[0].gbatch == imp[0].gbatch);
    CHECK(k[0].flops == imp[0].flops);
    CHECK(k[1].bytes == ((double)seer_conv_x_elems(&cv) + cols) * es);
    CHECK(k[0].bytes == (cols + (double)seer_conv_w_elems(&cv) + (double)seer_conv_y_elems(&cv)) * es);
    CHECK(k[0].bytes > imp[0].bytes); /* the column matrix is 9x the input */
}

TEST(launch_winograd_and_fft_geometry)
{
    struct seer_conv cv;
    REQUIRE(mk(&cv, BASE)); /* n 8, c 64, 28x28, k 128, 3x3 */
    seer_kview_t k[SEER_MAX_KERNELS];
    int nk = 0;
    /* fused Winograd F(2x2, 3x3): alpha 4, 14x14 tiles per image, and
     * 16/36 of the direct multiplies */
    REQUIRE(seer_conv_kernels(NULL, &cv, SEER_DIR_FWD, SEER_FWD_ALGO_WINOGRAD, k, &nk) == SEER_STATUS_SUCCESS);
    CHECK(k[0].gm == 8 * 14 * 14 && k[0].gn == 128 && k[0].gk == 64 * 4 && k[0].gbatch == 1);
    CHECK(k[0].flops == 2.0 * 8 * 14 * 14 * 128 * 64 * 16);
    CHECK(k[0].flops < seer_conv_flops(&cv));
    /* non-fused F(4x4, 3x3): 36 GEMMs over 7x7 tiles per image */
    REQUIRE(seer_conv_kernels(NULL, &cv, SEER_DIR_FWD, SEER_FWD_ALGO_WINOGRAD_NONFUSED, k, &nk) == SEER_STATUS_SUCCESS);
    CHECK(k[0].gm == 8 * 7 * 7 && k[0].gn == 128 && k[0].gk == 64 && k[0].gbatch == 36);
    CHECK_NEAR(k[0].flops, 2 * k[0].gm * k[0].gn * k[0].gk * k[0].gbatch, 1e-12);
    /* backward data swaps the channel roles */
    REQUIRE(seer_conv_kernels(NULL, &cv, SEER_DIR_BWD_DATA, SEER_BWD_DATA_ALGO_WINOGRAD_NONFUSED, k, &nk) == SEER_STATUS_SUCCESS);
    CHECK(k[0].gm == 8 * 7 * 7 && k[0].gn == 64 && k[0].gk == 128 && k[0].gbatch == 36);
    /* backward filter: a GEMM over the tiles per point */
    REQUIRE(seer_conv_kernels(NULL, &cv, SEER_DIR_BWD_FILTER, SEER_BWD_FILTER_ALGO_WINOGRAD_NONFUSED, k, &nk) == SEER_STATUS_SUCCESS);
    CHECK(nk == 3 && k[0].gm == 64 && k[0].gn == 128 && k[0].gk == 8 * 7 * 7 && k[0].gbatch == 36);
    /* non-fused 5x5: F(4x4, 5x5), alpha 8 */
    shape_t s5 = BASE;
    s5.r = 5;
    s5.pad = 2;
    REQUIRE(mk(&cv, s5));
    REQUIRE(seer_conv_kernels(NULL, &cv, SEER_DIR_FWD, SEER_FWD_ALGO_WINOGRAD_NONFUSED, k, &nk) == SEER_STATUS_SUCCESS);
    CHECK(k[0].gbatch == 64);

    /* FFT: the padded 30x30 image in a 32-point transform, 32 * 17
     * frequencies, one complex GEMM per frequency */
    REQUIRE(mk(&cv, BASE));
    REQUIRE(seer_conv_kernels(NULL, &cv, SEER_DIR_FWD, SEER_FWD_ALGO_FFT, k, &nk) == SEER_STATUS_SUCCESS);
    CHECK(k[0].gbatch == 32 * 17 && k[0].gm == 8 && k[0].gn == 128 && k[0].gk == 64);
    CHECK(k[0].flops == 8.0 * 32 * 17 * 8 * 64 * 128);
    /* FFT_TILING: 32x32 tiles overlapping by the filter; 16x16 for small
     * images where they are less work */
    shape_t big = BASE;
    big.h = 64;
    REQUIRE(mk(&cv, big));
    REQUIRE(seer_conv_kernels(NULL, &cv, SEER_DIR_FWD, SEER_FWD_ALGO_FFT_TILING, k, &nk) == SEER_STATUS_SUCCESS);
    CHECK(k[0].gbatch == 32 * 17 && k[0].gm == 8 * 9); /* ceil(64 / 30)^2 tiles per image */
    shape_t small = BASE;
    small.h = 14;
    REQUIRE(mk(&cv, small));
    REQUIRE(seer_conv_kernels(NULL, &cv, SEER_DIR_FWD, SEER_FWD_ALGO_FFT_TILING, k, &nk) == SEER_STATUS_SUCCESS);
    CHECK(k[0].gbatch == 16 * 9 && k[0].gm == 8); /* ceil(14 / 14)^2 */
    small.h = 16; /* 4 tiles of 16 x 9 points against one of 32 x 17 */
    REQUIRE(mk(&cv, small));
    REQUIRE(seer_conv_kernels(NULL, &cv, SEER_DIR_FWD, SEER_FWD_ALGO_FFT_TILING, k, &nk) == SEER_STATUS_SUCCESS);
    CHECK(k[0].gbatch == 32 * 17 && k[0].gm == 8);
    small.h = 17;
    REQUIRE(mk(&cv, small));
    REQUIRE(seer_conv_kernels(NULL, &cv, SEER_DIR_FWD, SEER_FWD_ALGO_FFT_TILING, k, &nk) == SEER_STATUS_SUCCESS);
    CHECK(k[0].gbatch == 32 * 17 && k[0].gm == 8);
}

TEST(launch_bytes_follow_dtype)
{
    struct seer_conv c32, c16;
    shape_t s = BASE;
    REQUIRE(mk(&c32, s));
    s.dt = SEER_DTYPE_FP16;
    REQUIRE(mk(&c16, s));
    for (int d = 0; d < 3; d++) {
        seer_kview_t a[SEER_MAX_KERNELS], b[SEER_MAX_KERNELS];
        int na = 0, nb = 0;
        REQUIRE(seer_conv_kernels(NULL, &c32, (seer_direction_t)d, 1, a, &na) == SEER_STATUS_SUCCESS);
        REQUIRE(seer_conv_kernels(NULL, &c16, (seer_direction_t)d, 1, b, &nb) == SEER_STATUS_SUCCESS);
        CHECK(na == nb);
        for (int i = 0; i < na; i++) CHECK(b[i].bytes * 2 == a[i].bytes);
        CHECK(b[0].flops == a[0].flops);
    }
}

/* seer_conv_kernels for one shape; the status, the message in msg. */
static seer_status_t try(shape_t s, seer_direction_t d, int algo, char msg[256])
{
    struct seer_conv cv;
    msg[0] = 0;
    if (!mk(&cv, s)) return SEER_STATUS_BAD_SHAPE;
    seer_kview_t k[SEER_MAX_KERNELS];
    int nk = 0;
    seer_err_t e;
    seer_status_t st = seer_conv_kernels(&e, &cv, d, algo, k, &nk);
    if (st) snprintf(msg, 256, "%s", e.msg);
    return st;
}

TEST(launch_unsupported_and_bad_algo)
{
    seer_err_t e;
    char msg[256];
    shape_t s;
    /* algorithm out of range: BAD_PARAM naming the direction */
    CHECK(try(BASE, SEER_DIR_FWD, -1, msg) == SEER_STATUS_BAD_PARAM && strstr(msg, "fwd"));
    CHECK(try(BASE, SEER_DIR_FWD, 8, msg) == SEER_STATUS_BAD_PARAM && strstr(msg, "algo 8"));
    CHECK(try(BASE, SEER_DIR_BWD_DATA, 6, msg) == SEER_STATUS_BAD_PARAM && strstr(msg, "bwd_data"));
    CHECK(try(BASE, SEER_DIR_BWD_FILTER, 7, msg) == SEER_STATUS_BAD_PARAM);
    CHECK(try(BASE, SEER_DIR_BWD_FILTER, 6, msg) == SEER_STATUS_SUCCESS);
    CHECK(try(BASE, (seer_direction_t)3, 0, msg) == SEER_STATUS_BAD_PARAM);

    /* transforms need stride 1, dilation 1, no groups */
    static const struct { seer_direction_t d; int a; } tf[] = {
        {SEER_DIR_FWD, SEER_FWD_ALGO_FFT}, {SEER_DIR_FWD, SEER_FWD_ALGO_FFT_TILING},
        {SEER_DIR_FWD, SEER_FWD_ALGO_WINOGRAD}, {SEER_DIR_FWD, SEER_FWD_ALGO_WINOGRAD_NONFUSED},
        {SEER_DIR_BWD_DATA, SEER_BWD_DATA_ALGO_FFT}, {SEER_DIR_BWD_DATA, SEER_BWD_DATA_ALGO_WINOGRAD},
        {SEER_DIR_BWD_FILTER, SEER_BWD_FILTER_ALGO_FFT_TILING},
        {SEER_DIR_BWD_FILTER, SEER_BWD_FILTER_ALGO_WINOGRAD_NONFUSED},
    };
    for (size_t i = 0; i < sizeof tf / sizeof *tf; i++) {
        s = BASE;
        s.stride = 2;
        CHECK(try(s, tf[i].d, tf[i].a, msg) == SEER_STATUS_UNSUPPORTED && strstr(msg, "stride 1"));
        s = BASE;
        s.dil = 2;
        s.pad = 2;
        CHECK(try(s, tf[i].d, tf[i].a, msg) == SEER_STATUS_UNSUPPORTED && strstr(msg, "dilation 1"));
        s = BASE;
        s.groups = 2;
        CHECK(try(s, tf[i].d, tf[i].a, msg) == SEER_STATUS_UNSUPPORTED && strstr(msg, "groups"));
        s = BASE;
        s.dt = SEER_DTYPE_BF16;
        CHECK(try(s, tf[i].d, tf[i].a, msg) == SEER_STATUS_UNSUPPORTED && strstr(msg, "bf16"));
        s.dt = SEER_DTYPE_TF32;
        CHECK(try(s, tf[i].d, tf[i].a, msg) == SEER_STATUS_UNSUPPORTED && strstr(msg, "tf32"));
        s.dt = SEER_DTYPE_FP16;
        CHECK(try(s, tf[i].d, tf[i].a, msg) == SEER_STATUS_SUCCESS);
    }
    /* GEMM algorithms take any of those */
    s = BASE;
    s.stride = 2;
    s.dil = 2;
    s.pad = 2;
    s.groups = 4;
    s.dt = SEER_DTYPE_BF16;
    for (int d = 0; d < 3; d++)
        for (int a = 0; a < 2; a++) CHECK(try(s, (seer_direction_t)d, a, msg) == SEER_STATUS_SUCCESS);

    /* Winograd: 3x3 only; the non-fused kind also 5x5; square filters */
    s = BASE;
    s.r = 1;
    s.pad = 0;
    CHECK(try(s, SEER_DIR_FWD, SEER_FWD_ALGO_WINOGRAD, msg) == SEER_STATUS_UNSUPPORTED && strstr(msg, "1x1"));
    CHECK(try(s, SEER_DIR_FWD, SEER_FWD_ALGO_WINOGRAD_NONFUSED, msg) == SEER_STATUS_UNSUPPORTED &&
          strstr(msg, "3x3 or 5x5"));
    s.r = 5;
    s.pad = 2;
    CHECK(try(s, SEER_DIR_FWD, SEER_FWD_ALGO_WINOGRAD, msg) == SEER_STATUS_UNSUPPORTED && strstr(msg, "5x5"));
    CHECK(try(s, SEER_DIR_FWD, SEER_FWD_ALGO_WINOGRAD_NONFUSED, msg) == SEER_STATUS_SUCCESS);
    CHECK(try(s, SEER_DIR_BWD_DATA, SEER_BWD_DATA_ALGO_WINOGRAD, msg) == SEER_STATUS_UNSUPPORTED);
    struct seer_conv cv;
    const seer_conv_shape_t sh = {8, 64, 28, 28, 128, 3, 5, 1, 2, 1, 1, 1, 1, 1};
    REQUIRE(seer_conv_init(NULL, &cv, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, &sh) == SEER_STATUS_SUCCESS);
    seer_kview_t k[SEER_MAX_KERNELS];
    int nk;
    CHECK(seer_conv_kernels(&e, &cv, SEER_DIR_FWD, SEER_FWD_ALGO_WINOGRAD_NONFUSED, k, &nk) ==
          SEER_STATUS_UNSUPPORTED);
    CHECK(strstr(e.msg, "3x5") != NULL);

    /* FFT: padding smaller than the filter; the plain FFT also a padded
     * input of at most 256x256 (254 + 2 * 1 fits, 255 + 2 does not) */
    s = BASE;
    s.pad = 3;
    CHECK(try(s, SEER_DIR_FWD, SEER_FWD_ALGO_FFT, msg) == SEER_STATUS_UNSUPPORTED && strstr(msg, "padding"));
    CHECK(try(s, SEER_DIR_FWD, SEER_FWD_ALGO_FFT_TILING, msg) == SEER_STATUS_UNSUPPORTED);
    s.pad = 2;
    CHECK(try(s, SEER_DIR_FWD, SEER_FWD_ALGO_FFT, msg) == SEER_STATUS_SUCCESS);
    s = BASE;
    s.n = 1;
    s.c = s.k = 4;
    s.h = 254;
    CHECK(try(s, SEER_DIR_FWD, SEER_FWD_ALGO_FFT, msg) == SEER_STATUS_SUCCESS);
    s.h = 255;
    CHECK(try(s, SEER_DIR_FWD, SEER_FWD_ALGO_FFT, msg) == SEER_STATUS_UNSUPPORTED && strstr(msg, "256x256"));
    CHECK(try(s, SEER_DIR_FWD, SEER_FWD_ALGO_FFT_TILING, msg) == SEER_STATUS_SUCCESS);
}

TEST(launch_never_more_than_max_kernels)
{
    /* a sweep of shapes through every (direction, algorithm): success or
     * a clear refusal, never more than SEER_MAX_KERNELS, work >= 0 */
    int ok = 0;
    for (int r = 1; r <= 5; r += 2)
        for (int stride = 1; stride <= 2; stride++)
            for (int g = 1; g <= 2; g++)
                for (int hw = 5; hw <= 40; hw += 7) {
                    shape_t s = {3, 8 * g, hw, 16, r, r / 2, stride, 1, g, SEER_DTYPE_FP16};
                    struct seer_conv cv;
                    if (!mk(&cv, s)) continue;
                    for (int d = 0; d < 3; d++)
                        for (int a = 0; a < seer_algo_count((seer_direction_t)d); a++) {
                            seer_kview_t k[SEER_MAX_KERNELS];
                            int nk = 0;
                            seer_status_t st = seer_conv_kernels(NULL, &cv, (seer_direction_t)d, a, k, &nk);
                            CHECK(st == SEER_STATUS_SUCCESS || st == SEER_STATUS_UNSUPPORTED);
                            if (st) continue;
                            ok++;
                            CHECK(nk >= 1 && nk <= SEER_MAX_KERNELS);
                            for (int i = 0; i < nk; i++) CHECK(k[i].bytes > 0 && k[i].flops >= 0);
                            CHECK(k[0].role == SEER_ROLE_MAIN && k[0].flops > 0);
                        }
                }
    CHECK(ok > 300);
}

TEST(launch_fft_tiling_filter_fits_the_tile)
{
    /* An FFT_TILING transform is at least as large as the filter: 16x16
     * for small images and filters, else 32x32, and a filter over 32x32
     * is UNSUPPORTED; never infinite or negative tile steps. */
    int bad = 0;
    for (int hw = 4; hw <= 40; hw += 3)
        for (int r = 1; r <= 33; r += 2) {
            shape_t s = {2, 8, hw, 8, r, r / 2, 1, 1, 1, SEER_DTYPE_FP32};
            struct seer_conv cv;
            if (!mk(&cv, s)) continue;
            for (int d = 0; d < 3; d++) {
                static const int algo[3] = {SEER_FWD_ALGO_FFT_TILING, SEER_BWD_DATA_ALGO_FFT_TILING,
                                            SEER_BWD_FILTER_ALGO_FFT_TILING};
                seer_kview_t k[SEER_MAX_KERNELS];
                int nk = 0;
                if (seer_conv_kernels(NULL, &cv, (seer_direction_t)d, algo[d], k, &nk)) continue;
                double side = k[0].gbatch == 16 * 9 ? 16 : 32; /* side * (side / 2 + 1) frequencies */
                int ok = isfinite(k[0].flops) && isfinite(k[0].bytes) && isfinite(k[0].gm) && r <= side;
                if (!ok && bad++ < 3)
                    printf("\n    %s FFT_TILING %dx%d filter on %dx%d: %g-point tiles, flops %g",
                           seer_direction_name((seer_direction_t)d), r, r, hw, hw, side, k[0].flops);
            }
        }
    CHECK(bad == 0);
}

/* The floor from the kernels' reduced work (what cuDNN's choice's tie
 * caches per algorithm) is the floor from the kernels: the main kernel's
 * FLOPs at peak (padding at the FMA rate where that is faster) or its
 * bytes, then the helper kernels' bytes, plus a gap per kernel; 0
 * without kernels or math. */
static double work_floor(const seer_gpu_info_t *g, seer_dtype_t dt, const seer_kwork_t *w)
{
    return seer_work_floor_at(seer_gpu_peak_flops(g, dt), seer_gpu_peak_flops(g, SEER_DTYPE_FP32),
                              seer_gpu_dram_bw(g), seer_gpu_launch_gap_ms(g), w);
}

TEST(launch_floor_from_reduced_work)
{
    struct seer_conv cv;
    const seer_gpu_info_t *gpus[] = {seer_gpu_lookup("rtx2070"), seer_gpu_lookup("a100-pcie-80gb"), seer_gpu_lookup("gtx1080ti")};
    const seer_dtype_t dts[] = {SEER_DTYPE_FP32, SEER_DTYPE_FP16, SEER_DTYPE_BF16};
    int compared = 0;
    for (int gi = 0; gi < 3; gi++)
        for (int di = 0; di < 3; di++)
            for (int d = 0; d < 3; d++)
                for (int a = 0; a < seer_algo_count((seer_direction_t)d); a++) {
                    REQUIRE(gpus[gi] && mk(&cv, (shape_t){8, 3 + 61 * di, 28, 64, 3, 1, 1, 1, 1, dts[di]}));
                    seer_kview_t k[SEER_MAX_KERNELS];
                    seer_kwork_t w;
                    int nk = 0;
                    if (seer_conv_kernels(NULL, &cv, (seer_direction_t)d, a, k, &nk)) continue;
                    seer_kernels_work(k, nk, &w);
                    double f = work_floor(gpus[gi], dts[di], &w);
                    CHECK(f == seer_kernels_floor_ms(gpus[gi], dts[di], k, nk));
                    /* the formula, written out */
                    double peak = seer_gpu_peak_flops(gpus[gi], dts[di]), bw = gpus[gi]->dram_gbps * 1e9;
                    double helpers = 0, want = 0;
                    for (int i = 1; i < nk; i++) helpers += k[i].bytes;
                    if (peak > 0) {
                        double main = k[0].flops / peak * 1e3;
                        if (k[0].pad > 1) main = fmin(main, k[0].flops / k[0].pad / (gpus[gi]->fp32_tflops * 1e12) * 1e3);
                        want = fmax(main, k[0].bytes / bw * 1e3) + helpers / bw * 1e3 + nk * SEER_LAUNCH_GAP_MS;
                    }
                    CHECK_NEAR(f, want, 1e-12 * want);
                    /* where the algorithm runs the dtype itself (not the
                     * SIMT kernels of the plain GEMMs, seer_conv_run_dtype) */
                    if (seer_conv_run_dtype(gpus[gi], dts[di], (seer_direction_t)d, a) == dts[di])
                        CHECK(f == seer_conv_floor_ms(gpus[gi], &cv, (seer_direction_t)d, a));
                    CHECK(seer_gpu_peak_flops(gpus[gi], dts[di]) > 0 ? f > 0 : f == 0);
                    compared++;
                    seer_kernels_work(k, 0, &w);
                    CHECK(w.nk == 0 && work_floor(gpus[gi], dts[di], &w) == 0);
                }
    CHECK(compared > 100);
}

/* Tensor-core math is allowed, not required, and cuDNN 9.14 has
 * tensor-core kernels of the precomputed implicit GEMM only: on an H200
 * and an H100 (data/h200-sxm-141gb, data/h100-sxm5-80gb bench/layers.csv)
 * the plain implicit and explicit GEMMs of FP16/BF16 data ran SIMT
 * kernels (implicit_convolve_sgemm<__half...>, dgrad_engine,
 * wgrad_alg1_engine) under DEFAULT math: FP16_PSEUDO, and TF32 ran FP32.
 * The transform algorithms keep their rule; cuDNN's choice runs the
 * requested math; BF16 on a GPU without BF16 stays unrunnable. */
TEST(launch_plain_gemms_run_simt)
{
    const seer_gpu_info_t *h100 = seer_gpu_lookup("h100-sxm5-80gb"), *maxwell = seer_gpu_lookup("titan-x-maxwell");
    REQUIRE(h100 && maxwell);
    const seer_gpu_info_t *gs[] = {h100, NULL};
    static const seer_dtype_t dts[] = {SEER_DTYPE_FP16, SEER_DTYPE_BF16, SEER_DTYPE_TF32};
    int simt = 0, tc = 0;
    for (int gi = 0; gi < 2; gi++)
        for (int d = 0; d < 3; d++)
            for (int a = -1; a < seer_algo_count((seer_direction_t)d); a++)
                for (int di = 0; di < 3; di++) {
                    seer_dtype_t dt = dts[di], run = seer_conv_run_dtype(gs[gi], dt, (seer_direction_t)d, a);
                    int kind = seer_algo_kind((seer_direction_t)d, a);
                    seer_dtype_t fma = dt == SEER_DTYPE_TF32 ? SEER_DTYPE_FP32 : SEER_DTYPE_FP16_PSEUDO;
                    if (kind == SEER_K_GEMM_IMPLICIT || kind == SEER_K_GEMM_EXPLICIT) {
                        CHECK(run == fma);
                        simt++;
                    } else if (kind == SEER_K_GEMM_PRECOMP || a == SEER_ALGO_CUDNN_CHOICE) {
                        CHECK(run == dt);
                        tc++;
                    } else if (kind == SEER_K_WINO_NF) { /* TF32 and BF16 run FP32 kernels */
                        CHECK(run == (dt == SEER_DTYPE_FP16 ? dt : SEER_DTYPE_FP32));
                    } else {
                        CHECK(run == (dt == SEER_DTYPE_TF32 && seer_algo_transform((seer_direction_t)d, a) ? SEER_DTYPE_FP32 : dt));
                    }
                    CHECK(seer_conv_run_dtype(gs[gi], SEER_DTYPE_FP32, (seer_direction_t)d, a) == SEER_DTYPE_FP32);
                    /* what the GPU lacks first: BF16 before Ampere runs nowhere */
                    CHECK(seer_conv_run_dtype(maxwell, SEER_DTYPE_BF16, (seer_direction_t)d, a) == SEER_DTYPE_BF16);
                    CHECK(seer_conv_run_dtype(maxwell, SEER_DTYPE_FP16, (seer_direction_t)d, a) ==
                          SEER_DTYPE_FP16_PSEUDO);
                }
    CHECK(simt == 2 * 3 * 5 && tc == 2 * 3 * 3 * 2);
    /* the floor follows: an fp16 3x3 conv's ALGO_0 at the FP32 FMA rate,
     * ALGO_1 at the tensor cores' */
    struct seer_conv cv;
    REQUIRE(mk(&cv, (shape_t){32, 64, 56, 64, 3, 1, 1, 1, 1, SEER_DTYPE_FP16}));
    CHECK(seer_conv_floor_ms(h100, &cv, SEER_DIR_BWD_DATA, SEER_BWD_DATA_ALGO_0) >
          3 * seer_conv_floor_ms(h100, &cv, SEER_DIR_BWD_DATA, SEER_BWD_DATA_ALGO_1));
}

/* cuDNN's choice's floor, which the tie computes from each algorithm's
 * reduced work on every GPU (model.c), is the lowest of the algorithms'
 * own floors: TF32 running its transform algorithms (Winograd, FFT) in
 * FP32, FP16 on a GPU without tensor cores as pseudo-half. */
TEST(launch_choice_floor_is_the_lowest_algorithm_floor)
{
    static const char *const gpus[] = {"a100-pcie-80gb", "t4", "gtx1080ti", "h100-sxm5-80gb"};
    static const seer_dtype_t dts[] = {SEER_DTYPE_FP32, SEER_DTYPE_TF32, SEER_DTYPE_FP16, SEER_DTYPE_BF16};
    int compared = 0;
    for (int gi = 0; gi < 4; gi++) {
        struct seer_model *m = calloc(1, sizeof *m);
        REQUIRE(m && seer_gpu_lookup(gpus[gi]));
        m->gpu = *seer_gpu_lookup(gpus[gi]);
        /* a 5x5 filter at 112 px: there non-fused Winograd or FFT, in FP32
         * for TF32, has the lowest floor */
        for (int si = 0; si < 2; si++)
        for (int di = 0; di < 4; di++)
            for (int d = 0; d < 3; d++) {
                struct seer_conv cv;
                REQUIRE(mk(&cv, si ? (shape_t){16, 64, 112, 64, 5, 2, 1, 1, 1, dts[di]}
                                   : (shape_t){16, 64, 28, 96, 3, 1, 1, 1, 1, dts[di]}));
                double lo = 0;
                for (int a = 0; a < seer_algo_count((seer_direction_t)d); a++) {
                    double f = seer_conv_floor_ms(&m->gpu, &cv, (seer_direction_t)d, a);
                    if (f > 0 && (lo == 0 || f < lo)) lo = f;
                }
                CHECK(seer_model_conv_floor(m, &cv, (seer_direction_t)d) == lo);
                compared += lo > 0;
            }
        free(m);
    }
    CHECK(compared >= 80);
}

/* The public floor is the one host-time estimates use. */
TEST(launch_public_conv_floor)
{
    struct seer_conv cv;
    REQUIRE(mk(&cv, BASE));
    const seer_gpu_info_t *g = seer_gpu_lookup("t4");
    REQUIRE(g != NULL);
    double ms = -1;
    CHECK_STATUS(seer_conv_floor(NULL, g, &cv, SEER_DIR_FWD, 1, &ms), SEER_STATUS_SUCCESS);
    CHECK(ms > 0 && ms == seer_conv_floor_ms(g, &cv, SEER_DIR_FWD, 1));
    CHECK_STATUS(seer_conv_floor(NULL, g, &cv, SEER_DIR_FWD, 1, NULL), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_conv_floor(NULL, NULL, &cv, SEER_DIR_FWD, 1, &ms), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_conv_floor(NULL, g, &cv, (seer_direction_t)3, 1, &ms), SEER_STATUS_BAD_PARAM);
    /* an algorithm out of range, as seer_predict_conv says */
    CHECK_STATUS(seer_conv_floor(NULL, g, &cv, SEER_DIR_FWD, -1, &ms), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_conv_floor(NULL, g, &cv, SEER_DIR_FWD, SEER_FWD_ALGO_COUNT, &ms), SEER_STATUS_BAD_PARAM);
    /* TF32 on a T4 (no TF32 tensor cores) is FP32, as the predictions take it */
    double fp32 = 0;
    cv.dtype = SEER_DTYPE_TF32;
    CHECK_STATUS(seer_conv_floor(NULL, g, &cv, SEER_DIR_FWD, 1, &ms), SEER_STATUS_SUCCESS);
    cv.dtype = SEER_DTYPE_FP32;
    CHECK_STATUS(seer_conv_floor(NULL, g, &cv, SEER_DIR_FWD, 1, &fp32), SEER_STATUS_SUCCESS);
    CHECK(ms == fp32 && ms > 0);
    cv.set = 0;
    CHECK_STATUS(seer_conv_floor(NULL, g, &cv, SEER_DIR_FWD, 1, &ms), SEER_STATUS_BAD_PARAM);
}

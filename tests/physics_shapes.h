/* The physical-sanity properties' own definitions, shared by their test
 * (tests/test_physics.c) and their report (tools/bench/physics.c, make
 * eval): the shapes sampled, the fastest algorithm's time, and what "a GPU
 * at least as fast" means.  Not libseer's, which they check. */
#ifndef SEER_TESTS_PHYSICS_SHAPES_H
#define SEER_TESTS_PHYSICS_SHAPES_H
#include "seer.h"

typedef struct {
    int n, c, hw, k, r, g;
    seer_direction_t dir;
    seer_dtype_t dt;
    int pad, stride;
    seer_layout_t ly;
} shape_t;

/* A dense FP32 conv of powers of two, square filter 1, 3 or 5, any
 * direction; rnd(lo, hi) is the caller's seeded generator. */
static inline shape_t physics_random_shape(int (*rnd)(int lo, int hi))
{
    shape_t s = {1 << rnd(0, 6), 1 << rnd(3, 10), 1 << rnd(3, 7), 1 << rnd(3, 10), 2 * rnd(0, 2) + 1, 1,
                 (seer_direction_t)rnd(0, 2), SEER_DTYPE_FP32, 0, 1, SEER_LAYOUT_NCHW};
    s.pad = s.r / 2;
    return s;
}

/* Any geometry: 1 to 1024 channels in and out, filters up to 7x7, any
 * image side up to 100, padding 0 to r/2 + 1, stride 1 to 3, either
 * layout: where P*Q grows faster than H*W, tile padding and gathered
 * operands once made time drop as H*W grew. */
static inline shape_t physics_random_geometry(int (*rnd)(int lo, int hi))
{
    shape_t s = physics_random_shape(rnd);
    s.c = 1 << rnd(0, 10);
    s.k = 1 << rnd(0, 10);
    s.r = 2 * rnd(0, 3) + 1;
    s.hw = rnd(s.r, 100);
    s.pad = rnd(0, s.r / 2 + 1);
    s.stride = rnd(1, 3);
    s.ly = (seer_layout_t)rnd(0, 1);
    return s;
}

/* The time of algorithm algo (SEER_ALGO_AUTO: the fastest, what seer net
 * uses), or -1 where the shape, dtype or algorithm cannot run. */
static inline double physics_time(seer_handle_t h, const seer_model_t m, shape_t s, int algo)
{
    seer_conv_desc_t d;
    double t = -1;
    if (seer_conv_desc_create(&d)) return -1;
    if (seer_conv_desc_set(h, d, s.dt, s.ly, s.n, s.c, s.hw, s.hw, s.k, s.r, s.r, s.pad, s.pad, s.stride, s.stride,
                           1, 1, s.g) ||
        (algo == SEER_ALGO_AUTO ? seer_pick_conv_fastest(h, m, d, s.dir, &algo, &t)
                                : seer_predict_conv(h, m, d, s.dir, algo, &t, NULL, 0, NULL)))
        t = -1;
    seer_conv_desc_destroy(d);
    return t;
}

static inline double physics_fastest(seer_handle_t h, const seer_model_t m, shape_t s)
{
    return physics_time(h, m, s, SEER_ALGO_AUTO);
}

/* The lowest datasheet floor of any algorithm that can run s
 * (seer_conv_floor), or -1 where none can.  A tensor-core conv is no
 * slower than the FP32 one except where the FP32 time beats this floor:
 * BF16 has no FFT or fused Winograd kernels, and where its tensor cores
 * run at only twice the FP32 rate (GeForce Ampere, Ada) an FP32 FFT of
 * a large filter can beat any BF16 kernel. */
static inline double physics_floor(seer_handle_t h, const seer_model_t m, shape_t s)
{
    seer_conv_desc_t d;
    seer_gpu_info_t g;
    double lo = -1;
    if (seer_model_get_gpu(m, &g) || seer_conv_desc_create(&d)) return -1;
    if (!seer_conv_desc_set(h, d, s.dt, s.ly, s.n, s.c, s.hw, s.hw, s.k, s.r, s.r, s.pad, s.pad, s.stride, s.stride,
                            1, 1, s.g))
        for (int a = 0, n = s.dir == SEER_DIR_FWD        ? SEER_FWD_ALGO_COUNT
                             : s.dir == SEER_DIR_BWD_DATA ? SEER_BWD_DATA_ALGO_COUNT
                                                          : SEER_BWD_FILTER_ALGO_COUNT;
             a < n; a++) {
            double f = 0;
            if (!seer_conv_floor(h, &g, d, s.dir, a, &f) && f > 0 && (lo < 0 || f < lo)) lo = f;
        }
    seer_conv_desc_destroy(d);
    return lo;
}

/* What a depthwise conv w may take at most against its dense conv's
 * tdense: a quarter of it, or w's own datasheet roofline plus a launch
 * gap where that is more (no prediction beats the datasheet: against a
 * dense conv that Winograd runs at a quarter of its direct FLOPs, a
 * depthwise conv that streams the same activations can be DRAM-bound
 * over the quarter); -1 when it cannot be told, which the callers count
 * as a violation (every time under it is). */
static inline double physics_depthwise_bound(seer_handle_t h, const seer_model_t m, shape_t w, double tdense)
{
    seer_conv_desc_t d;
    seer_gpu_info_t g;
    double roof = -1, gap_us = 0;
    if (seer_model_get_gpu(m, &g) || seer_gpu_streaming(&g, NULL, &gap_us) || seer_conv_desc_create(&d)) return -1;
    if (seer_conv_desc_set(h, d, w.dt, w.ly, w.n, w.c, w.hw, w.hw, w.k, w.r, w.r, w.pad, w.pad, w.stride, w.stride,
                           1, 1, w.g) ||
        seer_roofline_conv(h, &g, d, w.dir, &roof))
        roof = -1;
    seer_conv_desc_destroy(d);
    if (roof < 0) return -1;
    double q = 0.25 * tdense, r = roof + gap_us / 1e3;
    return q > r ? q : r;
}

/* A at least as fast as B on every ceiling: FP32 rate, DRAM bandwidth,
 * SMs, L2. */
static inline int at_least_as_fast(const seer_gpu_info_t *A, const seer_gpu_info_t *B)
{
    return A->fp32_tflops >= B->fp32_tflops && A->dram_gbps >= B->dram_gbps && A->sms >= B->sms &&
           A->l2_bytes >= B->l2_bytes;
}

/* The tensor-core rate of dt's math (0 without such tensor cores), or the
 * FP32 rate. */
static inline double tensor_rate(const seer_gpu_info_t *g, seer_dtype_t dt)
{
    return dt == SEER_DTYPE_FP16 ? g->fp16_tflops : dt == SEER_DTYPE_BF16 ? g->bf16_tflops
         : dt == SEER_DTYPE_TF32 ? g->tf32_tflops : g->fp32_tflops;
}
#endif

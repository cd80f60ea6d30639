/* The physical-sanity properties' own definitions, shared by their test
 * (tests/test_physics.c) and their report (tools/bench/physics.c, make
 * eval): the shapes sampled, the fastest algorithm's time, and what "a GPU
 * at least as fast" means.  Not libseer's, which they check. */
#ifndef SEER_TESTS_PHYSICS_SHAPES_H
#define SEER_TESTS_PHYSICS_SHAPES_H
#include "seer.h"

typedef struct { int n, c, hw, k, r, g; seer_direction_t dir; seer_dtype_t dt; } shape_t;

/* A dense FP32 conv of powers of two, square filter 1, 3 or 5, any
 * direction; rnd(lo, hi) is the caller's seeded generator. */
static inline shape_t physics_random_shape(int (*rnd)(int lo, int hi))
{
    shape_t s = {1 << rnd(0, 6), 1 << rnd(3, 10), 1 << rnd(3, 7), 1 << rnd(3, 10), 2 * rnd(0, 2) + 1, 1,
                 (seer_direction_t)rnd(0, 2), SEER_DTYPE_FP32};
    return s;
}

/* The fastest algorithm's time (what seer net uses), or -1 where the
 * shape or dtype cannot run. */
static inline double physics_fastest(seer_handle_t h, const seer_model_t m, shape_t s)
{
    seer_conv_desc_t d;
    double t = -1;
    int algo;
    if (seer_conv_desc_create(&d)) return -1;
    if (!seer_conv_desc_set(h, d, s.dt, SEER_LAYOUT_NCHW, s.n, s.c, s.hw, s.hw, s.k, s.r, s.r, s.r / 2, s.r / 2, 1,
                            1, 1, 1, s.g) &&
        seer_pick_conv_fastest(h, m, d, s.dir, &algo, &t))
        t = -1;
    seer_conv_desc_destroy(d);
    return t;
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

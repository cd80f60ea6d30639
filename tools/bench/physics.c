/* make eval: how often the predictions break the physical-sanity
 * properties (docs/accuracy.md, "Physical sanity").  Seeded, so the
 * report is the same every run:
 *
 *   seer-physics [MODELS_DIR [SAMPLES [SEED]]]
 *
 * For every GPU of the table, served as `seer --gpu` serves it
 * (seer_model_open), over random shapes: the fastest algorithm's time
 * (seer_pick_conv_fastest) when N, C, K or H*W doubles (a drop of more
 * than 5 % counts), a narrow grouped conv (32 groups) against the dense
 * one, a depthwise conv against the dense one on compute-bound shapes
 * (more than a quarter counts), TF32/FP16/BF16 against FP32 on
 * compute-bound shapes (but where the FP32 time beats every floor of the
 * dtype's own kernels: physics_floor), and a 1x64x7x7->64 conv; then every pair of GPUs
 * where one is at least as fast on every ceiling (5 % slower counts). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "seer.h"
#include "../../tests/physics_shapes.h"

static unsigned long long seed;
static int rnd(int lo, int hi)
{
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (int)((seed >> 33) % (unsigned long long)(hi - lo + 1));
}



/* FLOPs at peak over bytes at bandwidth, direct conv, fp32 */
static double intensity_ratio(const seer_gpu_info_t *g, shape_t s)
{
    double flops = 2.0 * s.n * s.k * s.hw * s.hw * s.c * s.r * s.r;
    double bytes = 4.0 * ((double)s.n * s.c * s.hw * s.hw + (double)s.n * s.k * s.hw * s.hw + (double)s.k * s.c * s.r * s.r);
    return (flops / (g->fp32_tflops * 1e12)) / (bytes / (g->dram_gbps * 1e9));
}

static const seer_dtype_t pair_dts[4] = {SEER_DTYPE_FP32, SEER_DTYPE_FP16, SEER_DTYPE_TF32, SEER_DTYPE_BF16};



int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "models";
    int samples = argc > 2 ? atoi(argv[2]) : 300;
    unsigned long long seed0 = argc > 3 ? strtoull(argv[3], NULL, 10) : 12345;
    seer_handle_t h;
    int ng = 0;
    if (seer_create(&h) || seer_gpu_count(&ng) || samples < 1) return 2;
    seer_gpu_info_t *gs = calloc((size_t)ng, sizeof *gs);
    seer_model_t *ms = calloc((size_t)ng, sizeof *ms);
    if (!gs || !ms) return 1;
    printf("| GPU | failed | 2N | 2C | 2K | 2HW | worst ratio | grouped > dense | depthwise > dense/4 | TC > FP32 | "
           "1x64x7x7->64 |\n");
    printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
    for (int i = 0; i < ng; i++) {
        seer_gpu_get(i, &gs[i]);
        if (seer_model_open(h, dir, gs[i].id, &ms[i])) { ms[i] = NULL; continue; }
        seed = seed0;
        int fail = 0, grow[4] = {0}, grp = 0, ngrp = 0, dw = 0, ndw = 0, tc = 0, ntc = 0;
        double worst = 1; /* the smallest time ratio of double the work over the shape */
        for (int it = 0; it < samples; it++) {
            shape_t s = physics_random_shape(rnd);
            double t0 = physics_fastest(h, ms[i], s);
            if (!(t0 > 0) || !isfinite(t0)) { fail++; continue; }
            shape_t d[4] = {s, s, s, s};
            d[0].n *= 2; d[1].c *= 2; d[2].k *= 2; d[3].hw = (int)(s.hw * 1.41422);
            for (int q = 0; q < 4; q++) {
                double t = physics_fastest(h, ms[i], d[q]);
                grow[q] += t > 0 && t < 0.95 * t0;
                if (t > 0 && t / t0 < worst) worst = t / t0;
            }
            if (s.c >= 64 && s.k >= 64 && intensity_ratio(&gs[i], s) >= 1) {
                shape_t g = s;
                g.g = 32;
                double tg = physics_fastest(h, ms[i], g);
                ngrp++;
                grp += tg > t0;
                {
                    shape_t w = s;
                    w.k = s.c;
                    w.g = s.c;
                    double td = physics_fastest(h, ms[i], w),
                           tdense = physics_fastest(h, ms[i], (shape_t){s.n, s.c, s.hw, s.c, s.r, 1, s.dir, s.dt, s.pad, s.stride, s.ly});
                    if (intensity_ratio(&gs[i], w) >= 4 && tdense > 1) {
                        ndw++;
                        dw += td > physics_depthwise_bound(h, ms[i], w, tdense) * (1 + 1e-9);
                    }
                }
            }
            if (gs[i].fp16_tflops > 0 && intensity_ratio(&gs[i], s) >= 4) {
                static const seer_dtype_t dts[] = {SEER_DTYPE_TF32, SEER_DTYPE_FP16, SEER_DTYPE_BF16};
                for (int q = 0; q < 3; q++) {
                    shape_t x = s;
                    x.dt = dts[q];
                    double t = physics_fastest(h, ms[i], x);
                    /* FP32 under every floor of x's kernels: x cannot
                     * match it (physics_floor), only sit at its floor */
                    if (t < 0 || t0 < physics_floor(h, ms[i], x)) continue;
                    ntc++;
                    tc += t > t0;
                }
            }
        }
        double tiny = physics_fastest(h, ms[i], (shape_t){1, 64, 7, 64, 3, 1, SEER_DIR_FWD, SEER_DTYPE_FP32, 1, 1, SEER_LAYOUT_NCHW});
        printf("| %s | %d | %d | %d | %d | %d | %.2f | %d/%d | %d/%d | %d/%d | %.1f us |\n", gs[i].id, fail, grow[0],
               grow[1], grow[2], grow[3], worst, grp, ngrp, dw, ndw, tc, ntc, tiny * 1e3);
    }
    int pairs = 0, bad = 0;
    double pworst = 1; /* the largest time ratio, faster GPU over slower */
    for (int a = 0; a < ng; a++)
        for (int b = 0; b < ng; b++) {
            const seer_gpu_info_t *A = &gs[a], *B = &gs[b];
            if (a == b || !ms[a] || !ms[b] || !at_least_as_fast(A, B)) continue;
            seed = seed0;
            int v = 0;
            for (int it = 0; it < 50; it++) {
                shape_t s = physics_random_shape(rnd);
                s.dt = pair_dts[it % 4];
                if (tensor_rate(A, s.dt) < tensor_rate(B, s.dt)) continue;
                double ta = physics_fastest(h, ms[a], s), tb = physics_fastest(h, ms[b], s);
                v += ta > 0 && tb > 0 && ta > 1.05 * tb;
                if (ta > 0 && tb > 0 && ta / tb > pworst) pworst = ta / tb;
            }
            pairs++;
            bad += v > 0;
        }
    printf("\n%d samples per GPU (seed %llu).  Pairs of GPUs where one is at least as fast on every ceiling "
           "(FP32 rate, DRAM bandwidth, SMs, L2): %d; pairs where the faster one predicts over 5 %% slower on some "
           "of 50 shapes (FP32, FP16, TF32, BF16 in turn, where it is at least as fast on that dtype's tensor "
           "cores too): %d; the worst, %.2fx the slower one's time.\n", samples, seed0, pairs, bad, pworst);
    /* GEMMs (fully connected layers), fp32 and fp16, the same pairs */
    int gbad = 0, gn = 0;
    double gworst = 1;
    for (int a = 0; a < ng; a++)
        for (int b = 0; b < ng; b++) {
            const seer_gpu_info_t *A = &gs[a], *B = &gs[b];
            if (a == b || !ms[a] || !ms[b] || !at_least_as_fast(A, B)) continue;
            seed = seed0;
            for (int it = 0; it < 100; it++) {
                int q[4] = {1 << rnd(0, 6), 1 << rnd(0, 13), 1 << rnd(0, 13), 1 << rnd(0, 13)};
                seer_dtype_t dt = it % 2 ? SEER_DTYPE_FP16 : SEER_DTYPE_FP32;
                double ta, tb;
                if (tensor_rate(A, dt) < tensor_rate(B, dt) ||
                    seer_predict_gemm(h, ms[a], q[0], q[1], q[2], q[3], dt, 0, 0, 0, &ta, NULL) ||
                    seer_predict_gemm(h, ms[b], q[0], q[1], q[2], q[3], dt, 0, 0, 0, &tb, NULL))
                    continue;
                gn++;
                gbad += ta > 1.05 * tb;
                if (ta / tb > gworst) gworst = ta / tb;
            }
        }
    printf("\nGEMMs (batch, m, n, k powers of two; fp32 and fp16), the same pairs: %d of %d predictions of the "
           "faster GPU over 5 %% slower; the worst, %.2fx.\n", gbad, gn, gworst);
    for (int i = 0; i < ng; i++) seer_model_destroy(ms[i]);
    free(ms);
    free(gs);
    seer_destroy(h);
    return 0;
}

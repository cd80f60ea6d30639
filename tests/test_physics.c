/* Physical sanity over random shapes on every GPU of the table, served as
 * `seer --gpu` serves it (seer_model_open on models/): the developers'
 * guide's "physics is the prior" as properties that can fail (issue #13
 * item 3).  They hold by construction (docs/method.md, "Physical sanity
 * by construction"); every failure prints the seed and the offending GPU
 * and shape.  make eval reports the same properties over other shapes
 * (tools/bench/physics.c, docs/accuracy.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "test.h"
#include "gpu.h"
#include "physics_shapes.h"
#include "launch.h"

#define SEED 20261123ULL

static unsigned long long rng = SEED;
static int rnd(int lo, int hi)
{
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (int)((rng >> 33) % (unsigned long long)(hi - lo + 1));
}

/* Every GPU of the table, served as `seer --gpu` serves it. */
typedef struct {
    seer_handle_t h;
    int ng;
    seer_gpu_info_t g[64];
    seer_model_t m[64];
} fleet_t;

static int fleet_open(fleet_t *f)
{
    memset(f, 0, sizeof *f);
    if (seer_create(&f->h) || seer_gpu_count(&f->ng) || f->ng > 64) return 0;
    for (int i = 0; i < f->ng; i++)
        if (seer_gpu_get(i, &f->g[i]) || seer_model_open(f->h, "models", f->g[i].id, &f->m[i])) return 0;
    return 1;
}

static void fleet_close(fleet_t *f)
{
    for (int i = 0; i < f->ng; i++) seer_model_destroy(f->m[i]);
    seer_destroy(f->h);
}

/* Every GPU, every direction, every algorithm, every dtype and layout,
 * with groups and dilation: a prediction is either finite and positive,
 * or UNSUPPORTED (cuDNN has no such algorithm for the case); nothing is
 * left NOT_CALIBRATED. */
TEST(physics_every_case_predicts_finite_positive)
{
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    fleet_t f;
    REQUIRE(fleet_open(&f));
    seer_handle_t h = f.h;
    printf("(seed %llu) ", SEED);
    rng = SEED;
    int bad = 0, ok = 0;
    for (int gi = 0; gi < f.ng; gi++) {
        const seer_gpu_info_t g = f.g[gi];
        seer_model_t m = f.m[gi];
        seer_conv_desc_t d;
        REQUIRE(seer_conv_desc_create(&d) == SEER_STATUS_SUCCESS);
        for (int it = 0; it < 12; it++) {
            int n = 1 << rnd(0, 6), c = 1 << rnd(2, 9), k = 1 << rnd(2, 9), hw = 1 << rnd(2, 7);
            int r = 2 * rnd(0, 2) + 1, dil = rnd(1, 2), grp = rnd(0, 2) ? 1 : (c < k ? c : k);
            seer_dtype_t dt = (seer_dtype_t)rnd(0, SEER_DTYPE_FP16_PSEUDO);
            seer_layout_t ly = (seer_layout_t)rnd(0, 1);
            if (seer_conv_desc_set(h, d, dt, ly, n, c, hw, hw, k, r, r, dil * (r / 2), dil * (r / 2), 1, 1, dil, dil,
                                   grp))
                continue;
            for (int dir = 0; dir < 3; dir++) {
                int na = seer_algo_count((seer_direction_t)dir);
                for (int a = 0; a < na; a++) {
                    double t = -1;
                    seer_status_t st = seer_predict_conv(h, m, d, (seer_direction_t)dir, a, &t, NULL, 0, NULL);
                    if (st == SEER_STATUS_UNSUPPORTED) continue;
                    if (st != SEER_STATUS_SUCCESS || !(t > 0) || !isfinite(t)) {
                        if (bad++ < 5)
                            printf("\n    %s %s algo %d n=%d c=%d k=%d hw=%d r=%d dil=%d g=%d %s %s: %s %g", g.id,
                                   seer_direction_name((seer_direction_t)dir), a, n, c, k, hw, r, dil, grp,
                                   seer_dtype_name(dt), seer_layout_name(ly), seer_status_string(st), t);
                    } else {
                        ok++;
                    }
                }
            }
        }
        seer_conv_desc_destroy(d);
    }
    CHECK(bad == 0);
    CHECK(ok > 1000);
    fleet_close(&f);
}

/* No prediction beats the datasheet: every algorithm's time is at least
 * the roofline floor of its own kernels, and cuDNN's choice at least the
 * lowest floor of the algorithms it may choose (a correction fitted on
 * few rows once predicted DeepBench backward convs 12x under it). */
TEST(physics_no_prediction_below_the_roofline)
{
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    fleet_t fl;
    REQUIRE(fleet_open(&fl));
    seer_handle_t h = fl.h;
    rng = SEED;
    int checked = 0, below = 0;
    for (int gi = 0; gi < fl.ng; gi++) {
        const seer_gpu_info_t g = fl.g[gi];
        seer_model_t m = fl.m[gi];
        seer_conv_desc_t d;
        REQUIRE(seer_conv_desc_create(&d) == SEER_STATUS_SUCCESS);
        for (int it = 0; it < 20; it++) {
            int n = 1 << rnd(0, 6), c = 1 << rnd(3, 10), k = 1 << rnd(3, 10), hw = 1 << rnd(3, 7), r = 2 * rnd(0, 2) + 1;
            /* every dtype and layout in turn: a half-precision pick capped
             * by the FP32 conv's time must stay above its own floor */
            static const seer_dtype_t dts[] = {SEER_DTYPE_FP32, SEER_DTYPE_TF32, SEER_DTYPE_FP16, SEER_DTYPE_BF16,
                                               SEER_DTYPE_FP16_PSEUDO};
            seer_dtype_t dt = dts[it % 5];
            seer_layout_t lay = it % 2 ? SEER_LAYOUT_NHWC : SEER_LAYOUT_NCHW;
            if (seer_conv_desc_set(h, d, dt, lay, n, c, hw, hw, k, r, r, r / 2, r / 2, 1, 1, 1, 1, 1))
                continue;
            for (int dir = 0; dir < 3; dir++) {
                double lo = INFINITY;
                for (int a = 0; a < seer_algo_count((seer_direction_t)dir); a++) {
                    double t, f = seer_conv_floor_ms(&g, (const struct seer_conv *)d, (seer_direction_t)dir, a);
                    if (f > 0 && f < lo) lo = f;
                    if (seer_predict_conv(h, m, d, (seer_direction_t)dir, a, &t, NULL, 0, NULL)) continue;
                    checked++;
                    if (t < f * (1 - 1e-12)) {
                        if (below++ < 5)
                            printf("\n    %s %s %s algo %d n=%d c=%d k=%d hw=%d r=%d: %g ms < floor %g ms", g.id,
                                   seer_dtype_name(dt), seer_direction_name((seer_direction_t)dir), a, n, c, k, hw, r,
                                   t, f);
                    }
                }
                double t;
                if (!seer_predict_conv(h, m, d, (seer_direction_t)dir, SEER_ALGO_CUDNN_CHOICE, &t, NULL, 0, NULL)) {
                    checked++;
                    below += isfinite(lo) && t < lo * (1 - 1e-12);
                }
                /* the pick too: a backward data read as its dual forward
                 * conv once went under its floor through the dual's FFT */
                int algo;
                if (!seer_pick_conv_fastest(h, m, d, (seer_direction_t)dir, &algo, &t)) {
                    checked++;
                    if (isfinite(lo) && t < lo * (1 - 1e-12) && below++ < 5)
                        printf("\n    %s %s %s pick n=%d c=%d k=%d hw=%d r=%d: %g ms < floor %g ms", g.id,
                               seer_dtype_name(dt), seer_direction_name((seer_direction_t)dir), n, c, k, hw, r, t,
                               lo);
                }
            }
        }
        seer_conv_desc_destroy(d);
        /* GEMMs too: a transferred fit moves FLOP-proportional time with
         * DRAM bandwidth and once predicted an A100 SXM4 over its peak */
        for (int it = 0; it < 20; it++) {
            int b = 1 << rnd(0, 6), mm = 1 << rnd(0, 13), nn = 1 << rnd(0, 13), kk = 1 << rnd(0, 13);
            seer_dtype_t dt = it % 2 ? SEER_DTYPE_FP16 : SEER_DTYPE_FP32;
            double t, f;
            if (seer_predict_gemm(h, m, b, mm, nn, kk, dt, 0, 0, it % 3 == 0, &t, NULL)) continue;
            REQUIRE(seer_gemm_floor(h, &g, b, mm, nn, kk, dt, it % 3 == 0, &f) == SEER_STATUS_SUCCESS);
            checked++;
            if (t < f * (1 - 1e-12) && below++ < 5)
                printf("\n    %s GEMM %dx%dx%dx%d %s: %g ms < floor %g ms", g.id, b, mm, nn, kk, seer_dtype_name(dt), t, f);
        }
    }
    CHECK(below == 0);
    CHECK(checked > 500);
    fleet_close(&fl);
}

/* GPUs whose datasheet facts are the same but for their memory size
 * predict the same time for every conv. */
TEST(physics_identical_hardware_predicts_identically)
{
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    int ng = 0, pairs = 0;
    seer_gpu_count(&ng);
    for (int i = 0; i < ng; i++)
        for (int j = i + 1; j < ng; j++) {
            seer_gpu_info_t a, b;
            seer_gpu_get(i, &a);
            seer_gpu_get(j, &b);
            seer_gpu_info_t x = a, y = b;
            memset(x.id, 0, sizeof x.id);
            memset(y.id, 0, sizeof y.id);
            memset(x.name, 0, sizeof x.name);
            memset(y.name, 0, sizeof y.name);
            x.dram_gib = y.dram_gib = 0;
            if (memcmp(&x, &y, sizeof x)) continue;
            pairs++;
            seer_model_t ma, mb;
            REQUIRE(seer_model_open(h, "models", a.id, &ma) == SEER_STATUS_SUCCESS);
            REQUIRE(seer_model_open(h, "models", b.id, &mb) == SEER_STATUS_SUCCESS);
            seer_conv_desc_t d;
            REQUIRE(seer_conv_desc_create(&d) == SEER_STATUS_SUCCESS);
            rng = SEED;
            for (int it = 0; it < 40; it++) {
                int n = 1 << rnd(0, 6), c = 1 << rnd(2, 10), k = 1 << rnd(2, 10), hw = 1 << rnd(2, 7);
                if (seer_conv_desc_set(h, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, n, c, hw, hw, k, 3, 3, 1, 1, 1, 1, 1,
                                       1, 1))
                    continue;
                for (int dir = 0; dir < 3; dir++) {
                    int aa, ab;
                    double ta = -1, tb = -2;
                    seer_pick_conv_fastest(h, ma, d, (seer_direction_t)dir, &aa, &ta);
                    seer_pick_conv_fastest(h, mb, d, (seer_direction_t)dir, &ab, &tb);
                    if (ta != tb || aa != ab) printf("\n    %s %g vs %s %g (n=%d c=%d k=%d hw=%d %s)", a.id, ta, b.id,
                                                     tb, n, c, k, hw, seer_direction_name((seer_direction_t)dir));
                    CHECK(ta == tb && aa == ab);
                }
            }
            seer_conv_desc_destroy(d);
            seer_model_destroy(ma);
            seer_model_destroy(mb);
        }
    CHECK(pairs >= 2); /* V100 16/32 GB, A100 40 GB PCIe/SXM4 */
    seer_destroy(h);
}

/* ---- the properties of issue #13 item 3 ---------------------------- */


static const char *shape_str(shape_t s)
{
    static char buf[128];
    snprintf(buf, sizeof buf, "n=%d c=%d hw=%d k=%d r=%d g=%d pad %d stride %d %s %s %s", s.n, s.c, s.hw, s.k, s.r,
             s.g, s.pad, s.stride, seer_direction_name(s.dir), seer_dtype_name(s.dt),
             seer_layout_name(s.ly));
    return buf;
}


/* FLOPs at the dtype's peak over minimum bytes at the DRAM bandwidth of
 * the dense direct conv: >= 1 is compute-bound. */
static double intensity(const seer_gpu_info_t *g, shape_t s)
{
    double peak = s.dt == SEER_DTYPE_FP32 ? g->fp32_tflops : g->fp16_tflops;
    double flops = 2.0 * s.n * s.k * s.hw * s.hw * s.c * s.r * s.r;
    double bytes = 4.0 * ((double)s.n * s.c * s.hw * s.hw + (double)s.n * s.k * s.hw * s.hw + (double)s.k * s.c * s.r * s.r);
    return (flops / (peak * 1e12)) / (bytes / (g->dram_gbps * 1e9));
}

/* Over the pairs (A at least as fast as B on every ceiling and on dt's
 * tensor cores), the predictions t[gpu * S + i] of A over 5 % above B's;
 * the first five printed with label(ctx, i). */
static int slower_pairs(const fleet_t *f, const double *t, int S, seer_dtype_t dt,
                        const char *(*label)(const void *ctx, int i), const void *ctx, int *pairs, int *checked)
{
    int bad = 0;
    for (int a = 0; a < f->ng; a++)
        for (int b = 0; b < f->ng; b++) {
            const seer_gpu_info_t *A = &f->g[a], *B = &f->g[b];
            if (a == b || !at_least_as_fast(A, B) || tensor_rate(A, dt) < tensor_rate(B, dt)) continue;
            (*pairs)++;
            for (int i = 0; i < S; i++) {
                double ta = t[a * S + i], tb = t[b * S + i];
                if (ta < 0 || tb < 0) continue;
                (*checked)++;
                if (ta > 1.05 * tb && bad++ < 5)
                    printf("\n    seed %llu %s: %s %g ms > %s %g ms", SEED, label(ctx, i), A->id, ta, B->id, tb);
            }
        }
    return bad;
}

/* (a) More work never takes much less time: doubling N, C, K or H*W
 * never drops the fastest algorithm's time by more than 5 %, dense,
 * grouped (32 groups) or depthwise (doubling C doubles K and the groups). */
TEST(physics_more_work_never_much_faster)
{
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    fleet_t f;
    REQUIRE(fleet_open(&f));
    static const seer_dtype_t dts[] = {SEER_DTYPE_FP32, SEER_DTYPE_FP32, SEER_DTYPE_TF32, SEER_DTYPE_FP16, SEER_DTYPE_BF16};
    rng = SEED;
    int checked = 0, bad = 0;
    for (int gi = 0; gi < f.ng; gi++)
        for (int it = 0; it < 100; it++) {
            /* every other shape of any side, padding, stride and layout */
            shape_t s = it % 2 ? physics_random_geometry(rnd) : physics_random_shape(rnd), d[4];
            s.dt = dts[rnd(0, 4)];
            int kind = rnd(0, 3); /* 0, 1: dense; 2: grouped; 3: depthwise */
            if (kind == 2 && s.c >= 32 && s.k >= 32) s.g = 32;
            if (kind == 3 && s.c == 1) kind = 0; /* one channel: a dense conv, not a grouped one */
            if (kind == 3) s.k = s.g = s.c;
            /* the fastest algorithm, and the implicit GEMM (ALGO_1 in every
             * direction) on its own: a minimum can hide one algorithm's drop */
            int algo = it % 4 == 3 ? 1 : SEER_ALGO_AUTO;
            double t0 = physics_time(f.h, f.m[gi], s, algo);
            if (t0 < 0) continue;
            for (int q = 0; q < 4; q++) d[q] = s;
            d[0].n *= 2; d[1].c *= 2; d[2].k *= 2; d[3].hw = (int)(s.hw * 1.41422);
            if (kind == 3) { d[1].k = d[1].g = d[1].c; d[2] = d[1]; }
            for (int q = 0; q < 4; q++) {
                double t = physics_time(f.h, f.m[gi], d[q], algo);
                if (t < 0) continue;
                checked++;
                if (t < 0.95 * t0 && bad++ < 5)
                    printf("\n    seed %llu %s: %s (algo %d) takes %g ms, %s %g ms", SEED, f.g[gi].id, shape_str(s),
                           algo, t0, (const char *[]){"2N", "2C", "2K", "2HW"}[q], t);
            }
        }
    CHECK(bad == 0);
    CHECK(checked > 4000);
    fleet_close(&f);
}

/* FFT_TILING on small images: large filters on 16-point tiles leave few
 * outputs per tile, and an 11-pixel image of a 7x7 filter, or a 13-pixel
 * one of 13x13, took more time than the image of twice the side on
 * 32-point tiles (1.1 ms against 0.27).  Doubling the side never makes
 * the algorithm, or the pick, more than 5 % faster. */
TEST(physics_fft_tiling_small_images_never_faster)
{
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    fleet_t f;
    REQUIRE(fleet_open(&f));
    static const int fft[3] = {SEER_FWD_ALGO_FFT_TILING, SEER_BWD_DATA_ALGO_FFT_TILING, SEER_BWD_FILTER_ALGO_FFT_TILING};
    int checked = 0, bad = 0;
    for (int gi = 0; gi < f.ng; gi += 3)
        for (int r = 5; r <= 13; r += 2)
            for (int hw = r; hw <= 16; hw += 2)
                for (int p = 0; p < 3; p++)
                    for (int q = 0; q < 6; q++) {
                        shape_t s = {32, 64, hw, 64, r, 1, (seer_direction_t)(q % 3), SEER_DTYPE_FP32,
                                     (int[]){0, r / 2, r - 1}[p], 1, SEER_LAYOUT_NCHW}, d = s;
                        d.hw *= 2;
                        int algo = q < 3 ? fft[q] : SEER_ALGO_AUTO;
                        double t0 = physics_time(f.h, f.m[gi], s, algo), t = physics_time(f.h, f.m[gi], d, algo);
                        if (t0 < 0 || t < 0) continue;
                        checked++;
                        if (t < 0.95 * t0 && bad++ < 5)
                            printf("\n    %s: %s (algo %d) takes %g ms, twice the side %g ms", f.g[gi].id,
                                   shape_str(s), algo, t0, t);
                    }
    CHECK(bad == 0);
    CHECK(checked > 1000);
    fleet_close(&f);
}

/* A strided 1x1 conv computes a subset of the outputs of the stride-1
 * one on the same input, the same GEMM over fewer rows: never over 5 %
 * slower than it (the 1x1 GEMM bound once covered stride 1 alone, and
 * stride 2 came out up to 6x slower).  Not a property of larger filters:
 * cuDNN's Winograd and FFT run at stride 1 only, and the stride-1 conv
 * can be faster through them. */
TEST(physics_strided_1x1_never_slower_than_stride_1)
{
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    fleet_t f;
    REQUIRE(fleet_open(&f));
    static const seer_dtype_t dts[] = {SEER_DTYPE_FP32, SEER_DTYPE_TF32, SEER_DTYPE_FP16, SEER_DTYPE_BF16};
    rng = SEED + 7;
    int checked = 0, bad = 0;
    for (int gi = 0; gi < f.ng; gi++)
        for (int it = 0; it < 60; it++) {
            shape_t s = physics_random_geometry(rnd);
            s.dt = dts[rnd(0, 3)];
            s.r = 1;
            s.pad = rnd(0, 1);
            if (it % 2) { /* every other wide (pointwise convs, ResNet's strided shortcuts) */
                s.c = 1 << rnd(4, 13);
                s.k = 1 << rnd(4, 13);
            }
            s.stride = rnd(2, 3);
            shape_t one = s;
            one.stride = 1;
            double ts = physics_fastest(f.h, f.m[gi], s), t1 = physics_fastest(f.h, f.m[gi], one);
            if (ts < 0 || t1 < 0) continue;
            checked++;
            if (ts > 1.05 * t1 && bad++ < 5)
                printf("\n    seed %llu %s: %s takes %g ms, at stride 1 %g ms", SEED + 7, f.g[gi].id, shape_str(s), ts,
                       t1);
        }
    CHECK(bad == 0);
    CHECK(checked > 1000);
    fleet_close(&f);
}

static const char *conv_label(const void *ctx, int i) { return shape_str(((const shape_t *)ctx)[i]); }

/* (c) Faster hardware is not slower: a GPU at least as fast on every
 * ceiling (FP32 rate, DRAM bandwidth, SMs, L2) never predicts more than
 * 5 % over the other, for any shape. */
TEST(physics_faster_gpu_never_slower)
{
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    fleet_t f;
    REQUIRE(fleet_open(&f));
    enum { S = 80 };
    static const seer_dtype_t dts[] = {SEER_DTYPE_FP32, SEER_DTYPE_FP16, SEER_DTYPE_TF32, SEER_DTYPE_BF16};
    shape_t sh[S];
    rng = SEED;
    double *t = malloc(sizeof *t * (size_t)f.ng * S);
    REQUIRE(t);
    int pairs = 0, checked = 0, bad = 0;
    for (size_t d = 0; d < sizeof dts / sizeof *dts; d++) {
        for (int i = 0; i < S; i++) {
            sh[i] = physics_random_shape(rnd);
            sh[i].dt = dts[d];
        }
        for (int gi = 0; gi < f.ng; gi++)
            for (int i = 0; i < S; i++) t[gi * S + i] = physics_fastest(f.h, f.m[gi], sh[i]);
        bad += slower_pairs(&f, t, S, dts[d], conv_label, sh, &pairs, &checked);
    }
    CHECK(bad == 0);
    CHECK(pairs > 400 && checked > 20000);
    free(t);
    fleet_close(&f);
}

/* (c) per algorithm: one algorithm's time (seer_predict_conv, what
 * seer predict --algo prints) holds the property too.  The tie between
 * GPUs works per math type, and a dtype in tensor-core math on one GPU
 * may run as FP32 or pseudo-half on the other: each algorithm is held to
 * its SIMT twin (seer_conv_simt_twin).  Without it 2-3 % of the pairs
 * broke it, up to 21x (cuDNN's choice of a TF32 bwd_filter of one
 * channel, A100 against V100 SXM2: 1.01 against 0.24 ms). */
static const char *algo_label(const void *ctx, int i)
{
    static char buf[160];
    const shape_t *sh = ctx;
    int algo = i % 9 - 1;
    snprintf(buf, sizeof buf, "%s %s", shape_str(sh[i / 9]),
             algo < 0 ? "CUDNN_CHOICE" : seer_algo_name(sh[i / 9].dir, algo));
    return buf;
}

TEST(physics_faster_gpu_never_slower_per_algorithm)
{
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    fleet_t f;
    REQUIRE(fleet_open(&f));
    enum { S = 24, A = 9 }; /* cuDNN's choice and up to 8 algorithms */
    static const seer_dtype_t dts[] = {SEER_DTYPE_TF32, SEER_DTYPE_FP16};
    shape_t sh[S];
    rng = SEED + 29;
    double *t = malloc(sizeof *t * (size_t)f.ng * S * A);
    REQUIRE(t);
    int pairs = 0, checked = 0, bad = 0;
    for (size_t d = 0; d < sizeof dts / sizeof *dts; d++) {
        for (int i = 0; i < S; i++) {
            sh[i] = i % 2 ? physics_random_geometry(rnd) : physics_random_shape(rnd);
            sh[i].dt = dts[d];
        }
        sh[0] = (shape_t){21, 1, 422, 1, 7, 1, SEER_DIR_BWD_FILTER, SEER_DTYPE_TF32, 3, 1, SEER_LAYOUT_NCHW};
        sh[0].dt = dts[d];
        for (int gi = 0; gi < f.ng; gi++)
            for (int i = 0; i < S * A; i++) {
                int algo = i % A - 1, n = seer_algo_count(sh[i / A].dir);
                t[gi * S * A + i] = algo < n ? physics_time(f.h, f.m[gi], sh[i / A], algo < 0 ? SEER_ALGO_CUDNN_CHOICE : algo)
                                             : -1;
            }
        bad += slower_pairs(&f, t, S * A, dts[d], algo_label, sh, &pairs, &checked);
    }
    CHECK(bad == 0);
    CHECK(pairs > 200 && checked > 20000);
    free(t);
    fleet_close(&f);
}

/* (d) per algorithm: a grouped conv is never slower than the dense conv
 * of the same N, C, K, H, W with the same algorithm (seer_predict_conv:
 * the dense conv with block-diagonal weights computes it).  Per algorithm
 * it was in a third of random convs, up to 9x (A100, BF16, 16 x 64 x 64
 * x 64 -> 512, 1x1, 32 groups, IMPLICIT_PRECOMP_GEMM: 0.274 against
 * 0.186 ms). */
TEST(physics_grouped_never_slower_than_dense_per_algorithm)
{
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    fleet_t f;
    REQUIRE(fleet_open(&f));
    static const seer_dtype_t dts[] = {SEER_DTYPE_FP32, SEER_DTYPE_TF32, SEER_DTYPE_FP16, SEER_DTYPE_BF16};
    rng = SEED + 31;
    int checked = 0, bad = 0;
    for (int gi = 0; gi < f.ng; gi++)
        for (int it = 0; it < 24; it++) {
            shape_t s = physics_random_geometry(rnd);
            s.dt = dts[rnd(0, 3)];
            s.c = 1 << rnd(3, 10);
            s.k = 1 << rnd(3, 10);
            s.g = 1 << rnd(1, 5);
            if (rnd(0, 3) == 0) s.k = s.g = s.c; /* depthwise */
            if (it == 0) s = (shape_t){16, 64, 64, 512, 1, 32, SEER_DIR_FWD, SEER_DTYPE_BF16, 0, 1, SEER_LAYOUT_NCHW};
            shape_t d = s;
            d.g = 1;
            for (int algo = SEER_ALGO_CUDNN_CHOICE; algo < 8; algo++) {
                double tg = physics_time(f.h, f.m[gi], s, algo), td = physics_time(f.h, f.m[gi], d, algo);
                if (tg < 0 || td < 0) continue;
                checked++;
                if (tg > 1.05 * td && bad++ < 5)
                    printf("\n    seed %llu %s: %s algo %d: %g ms, dense %g ms", SEED + 31, f.g[gi].id, shape_str(s), algo,
                           tg, td);
            }
        }
    CHECK(bad == 0);
    CHECK(checked > 1500);
    fleet_close(&f);
}

static const char *gemm_label(const void *ctx, int i)
{
    static char buf[64];
    const int(*sh)[4] = ctx;
    snprintf(buf, sizeof buf, "GEMM %dx%dx%dx%d", sh[i][0], sh[i][1], sh[i][2], sh[i][3]);
    return buf;
}

/* (c') GEMMs too (fully connected layers): a GPU at least as fast on
 * every ceiling and on the dtype's math is never over 5 % slower (the
 * fits of different GPUs are tied: libseer/gemm.c), and doubling batch,
 * m, n or k never takes over 5 % less time. */
TEST(physics_gemm_faster_gpu_and_more_work)
{
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    fleet_t f;
    REQUIRE(fleet_open(&f));
    enum { S = 150 };
    int sh[S][4];
    rng = SEED;
    for (int i = 0; i < S; i++)
        for (int j = 0; j < 4; j++) sh[i][j] = 1 << (j ? rnd(0, 13) : rnd(0, 6));
    double *t = malloc(sizeof *t * (size_t)f.ng * S);
    REQUIRE(t);
    int pairs = 0, checked = 0, bad = 0;
    static const seer_dtype_t gdts[4] = {SEER_DTYPE_FP32, SEER_DTYPE_FP16, SEER_DTYPE_BF16, SEER_DTYPE_TF32};
    for (int d = 0; d < 4; d++) {
        seer_dtype_t dt = gdts[d];
        for (int gi = 0; gi < f.ng; gi++)
            for (int i = 0; i < S; i++) {
                double *x = &t[gi * S + i];
                if (seer_predict_gemm(f.h, f.m[gi], sh[i][0], sh[i][1], sh[i][2], sh[i][3], dt, 0, 0, 0, x, NULL))
                    *x = -1;
                for (int j = 0; j < 4 && *x > 0; j++) {
                    int q[4] = {sh[i][0], sh[i][1], sh[i][2], sh[i][3]};
                    double t2;
                    q[j] *= 2;
                    if (seer_predict_gemm(f.h, f.m[gi], q[0], q[1], q[2], q[3], dt, 0, 0, 0, &t2, NULL)) continue;
                    checked++;
                    if (t2 < 0.95 * *x && bad++ < 5)
                        printf("\n    seed %llu %s GEMM %dx%dx%dx%d %s, %c doubled: %g -> %g ms", SEED, f.g[gi].id,
                               sh[i][0], sh[i][1], sh[i][2], sh[i][3], seer_dtype_name(dt), "bmnk"[j], *x, t2);
                }
            }
        bad += slower_pairs(&f, t, S, dt, gemm_label, sh, &pairs, &checked);
    }
    /* the tensor-core dtypes in order of their rates: BF16 as FP16 where
     * the rates are equal, TF32 (half the rate, twice the bytes) never
     * faster than FP16 */
    for (int gi = 0; gi < f.ng; gi++)
        for (int i = 0; i < S; i++) {
            double t16, tb, t32;
            if (seer_predict_gemm(f.h, f.m[gi], sh[i][0], sh[i][1], sh[i][2], sh[i][3], SEER_DTYPE_FP16, 0, 0, 0,
                                  &t16, NULL))
                continue;
            if (f.g[gi].bf16_tflops == f.g[gi].fp16_tflops &&
                !seer_predict_gemm(f.h, f.m[gi], sh[i][0], sh[i][1], sh[i][2], sh[i][3], SEER_DTYPE_BF16, 0, 0, 0,
                                   &tb, NULL)) {
                checked++;
                if (fabs(tb - t16) > 0.01 * t16 && bad++ < 5)
                    printf("\n    %s GEMM %dx%dx%dx%d: bf16 %g ms, fp16 %g ms", f.g[gi].id, sh[i][0], sh[i][1],
                           sh[i][2], sh[i][3], tb, t16);
            }
            if (f.g[gi].tf32_tflops > 0 && f.g[gi].tf32_tflops <= f.g[gi].fp16_tflops &&
                !seer_predict_gemm(f.h, f.m[gi], sh[i][0], sh[i][1], sh[i][2], sh[i][3], SEER_DTYPE_TF32, 0, 0, 0,
                                   &t32, NULL)) {
                checked++;
                if (t32 < 0.95 * t16 && bad++ < 5)
                    printf("\n    %s GEMM %dx%dx%dx%d: tf32 %g ms < fp16 %g ms", f.g[gi].id, sh[i][0], sh[i][1],
                           sh[i][2], sh[i][3], t32, t16);
            }
        }
    CHECK(bad == 0);
    CHECK(pairs > 600 && checked > 100000);
    free(t);
    fleet_close(&f);
}

/* (c'') Pseudo-half GEMMs (FP16 data, FP32 math; what FP16 runs as
 * without FP16 tensor cores) too, on sizes that are no powers of two: the
 * GPU a measured fit's rows were timed on lifted the GPUs below it with
 * that fit read without the pseudo-half rule its own time takes, so a
 * V100S came out under an A100 40GB (111x143x30011: 0.109 against 0.121
 * ms, 11 % slower on the faster GPU). */
TEST(physics_gemm_pseudo_half_faster_gpu_never_slower)
{
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    fleet_t f;
    REQUIRE(fleet_open(&f));
    enum { S = 120 };
    int sh[S][4];
    rng = SEED + 13;
    sh[0][0] = 1, sh[0][1] = 111, sh[0][2] = 143, sh[0][3] = 30011;
    for (int i = 1; i < S; i++) {
        sh[i][0] = i % 3 ? 1 : rnd(1, 64);
        for (int j = 1; j < 4; j++) sh[i][j] = (int)exp(rnd(0, 10300) / 1000.0); /* 1 .. ~30000, log-uniform */
    }
    double *t = malloc(sizeof *t * (size_t)f.ng * S);
    REQUIRE(t);
    int pairs = 0, checked = 0;
    for (int gi = 0; gi < f.ng; gi++)
        for (int i = 0; i < S; i++)
            if (seer_predict_gemm(f.h, f.m[gi], sh[i][0], sh[i][1], sh[i][2], sh[i][3], SEER_DTYPE_FP16_PSEUDO, 0, 0,
                                  i % 2, &t[gi * S + i], NULL))
                t[gi * S + i] = -1;
    int bad = slower_pairs(&f, t, S, SEER_DTYPE_FP16_PSEUDO, gemm_label, sh, &pairs, &checked);
    if (bad) printf("\n    seed %llu", SEED + 13);
    CHECK(bad == 0);
    CHECK(pairs > 400 && checked > 40000);
    free(t);
    fleet_close(&f);
}

/* Algorithm algo of s against each of its steps d[0..nd-1] on GPU gi:
 * none may take over 5 % less time. */
static void steps_never_faster(const fleet_t *f, int gi, shape_t s, int algo, const shape_t *d,
                               const char *const *label, int nd, int *checked, int *bad)
{
    double t0 = physics_time(f->h, f->m[gi], s, algo);
    for (int q = 0; q < nd && t0 >= 0; q++) {
        double t = physics_time(f->h, f->m[gi], d[q], algo);
        if (t < 0) continue;
        ++*checked;
        if (t < 0.95 * t0 && (*bad)++ < 5)
            printf("\n    seed %llu %s: %s (algo %d) takes %g ms, %s %g ms", SEED, f->g[gi].id, shape_str(s), algo, t0,
                   label[q], t);
    }
}

/* One algorithm at a time (not the fastest, which can hide a drop), with
 * steps of one (N, C, K, the image side) and of a half (the image side),
 * channels from 1 up (tensor-core padding), in every dtype: the split
 * reduction of the analytical wgrad GEMM once made a block's reduction
 * shorter as N*P*Q grew by less than a doubling (-36 %, H100 PCIe, N 56
 * -> 57).  FFT algorithms are left out: their tile size switches at 16
 * and 32 pixels (docs/method.md). */
TEST(physics_fixed_algorithm_small_steps)
{
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    fleet_t f;
    REQUIRE(fleet_open(&f));
    static const seer_dtype_t dts[] = {SEER_DTYPE_FP32, SEER_DTYPE_TF32, SEER_DTYPE_FP16, SEER_DTYPE_BF16};
    /* per direction: the implicit GEMMs, the explicit one, non-fused Winograd */
    static const int algos[3][4] = {{0, 1, 2, 7}, {0, 1, 5, 1}, {0, 1, 3, 5}};
    rng = SEED;
    int checked = 0, bad = 0;
    for (int gi = 0; gi < f.ng; gi++)
        for (int it = 0; it < 120; it++) {
            /* two in three: a wgrad with a short reduction (small images),
             * where the split has room to move */
            int r = 2 * rnd(0, 3) + 1, wgrad = it % 3 != 0;
            shape_t s = {rnd(1, 64), rnd(1, 600), rnd(r, wgrad ? 16 : 64), rnd(1, 600), r, 1,
                         wgrad ? SEER_DIR_BWD_FILTER : (seer_direction_t)rnd(0, 2), dts[rnd(0, 3)], rnd(0, r / 2),
                         rnd(1, 2), (seer_layout_t)rnd(0, 1)};
            int algo = algos[s.dir][rnd(0, 3)];
            shape_t d[5] = {s, s, s, s, s};
            d[0].n++; d[1].c++; d[2].k++; d[3].hw++; d[4].hw += s.hw / 2;
            static const char *const label[5] = {"N+1", "C+1", "K+1", "HW+1", "HW*1.5"};
            steps_never_faster(&f, gi, s, algo, d, label, 5, &checked, &bad);
        }
    /* channels across the tensor cores' multiples of 4 and 8, on every
     * GPU with them: an FMA-or-tensor-core switch in the formula once made
     * a TF32 conv 32 % faster from C = 4 to 5 (RTX 3090) */
    for (int gi = 0; gi < f.ng; gi++)
        for (int it = 0; it < 96 && f.g[gi].fp16_tflops > 0; it++) {
            int side = it % 2, ch = it / 6 + 1, r = 2 * rnd(0, 2) + 1; /* every channel count 1..16 */
            shape_t s = {rnd(1, 96), side ? ch : rnd(1, 600), rnd(r, 32), side ? rnd(1, 600) : ch, r, 1,
                         (seer_direction_t)(it / 2 % 3), dts[rnd(1, 3)], r / 2, rnd(1, 2), (seer_layout_t)rnd(0, 1)};
            int algo = algos[s.dir][rnd(0, 3)];
            shape_t d = s;
            if (side) d.c++; else d.k++;
            steps_never_faster(&f, gi, s, algo, &d, (const char *const[]){side ? "C+1" : "K+1"}, 1, &checked, &bad);
        }
    CHECK(bad == 0);
    CHECK(checked > 10000);
    fleet_close(&f);
}

/* (d) FLOPs and bytes saved cost less: a grouped conv (32 groups) is
 * never slower than the dense conv of the same N, C, K, H, W (by
 * construction), and a depthwise conv is at most a quarter of the dense
 * one where that is over a millisecond and four times compute-bound in
 * its direct FLOPs, or at its own roofline where that is more (by
 * construction too: seer_picker_best's cap, docs/method.md; a Winograd
 * dense conv can be a quarter of its direct FLOPs' time, under the
 * depthwise conv's DRAM time). */
/* The direction, dtype (fp32, fp16) and layout case i enumerates; the
 * rest of i for the caller's own cases. */
static int dir_dtype_layout(int i, seer_direction_t *dir, seer_dtype_t *dt, seer_layout_t *ly)
{
    *dir = (seer_direction_t)(i % 3);
    i /= 3;
    *dt = i % 2 ? SEER_DTYPE_FP16 : SEER_DTYPE_FP32;
    i /= 2;
    *ly = (seer_layout_t)(i % 2);
    return i / 2;
}

/* d, which holds s's work and more, is never over 5 % faster than s. */
static void never_faster(const fleet_t *f, int gi, shape_t s, shape_t d, const char *what, int *checked, int *bad)
{
    double t0 = physics_fastest(f->h, f->m[gi], s), t1 = physics_fastest(f->h, f->m[gi], d);
    if (t0 < 0 || t1 < 0) return;
    ++*checked;
    if (t1 < 0.95 * t0 && (*bad)++ < 5)
        printf("\n    %s: %s takes %g ms, %s %g ms", f->g[gi].id, shape_str(s), t0, what, t1);
}

/* Across the narrow/wide grouped-conv boundary (SEER_GROUP_NARROW
 * channels per group): doubling C or K from 16 to 32 per group moves the
 * conv from the grouped roofline to the dense families, which once made
 * it 16 % faster (L40S bwd_data). */
TEST(physics_grouped_boundary_never_faster)
{
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    fleet_t f;
    REQUIRE(fleet_open(&f));
    int checked = 0, bad = 0;
    static const int rs[4][2] = {{1, 1}, {1, 3}, {3, 1}, {3, 2}};
    for (int gi = 0; gi < f.ng; gi++)
        for (int i = 0; i < 192; i++) {
            /* direction, dtype, layout, which side crosses, filter and
             * stride, image side: every combination */
            seer_direction_t dir;
            seer_dtype_t dt;
            seer_layout_t ly;
            int q = dir_dtype_layout(i, &dir, &dt, &ly);
            int k_crosses = q % 2;
            q /= 2;
            const int *f2 = rs[q % 4];
            q /= 4;
            shape_t s = {45, k_crosses ? 1024 : 512, q ? 40 : 18, k_crosses ? 512 : 1024, f2[0], 32, dir, dt,
                         f2[0] / 2, f2[1], ly};
            shape_t d = s;
            if (k_crosses) d.k = 1024; else d.c = 1024;
            never_faster(&f, gi, s, d, "32 per group", &checked, &bad);
        }
    CHECK(bad == 0);
    CHECK(checked > 2000);
    fleet_close(&f);
}

/* ... and at the other end, one group: a depthwise conv of 2 groups does
 * twice the work of the 1-channel dense conv (C = g = 1), which the dense
 * families time, and its roofline path once made it 5.6x faster (T4
 * bwd_filter, 32 x 56 x 56).  Channel multipliers 1 and 4, every
 * direction, both layouts, fp32 and fp16, on every GPU. */
TEST(physics_depthwise_from_one_group_never_faster)
{
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    fleet_t f;
    REQUIRE(fleet_open(&f));
    int checked = 0, bad = 0;
    for (int gi = 0; gi < f.ng; gi++)
        for (int i = 0; i < 48; i++) {
            seer_direction_t dir;
            seer_dtype_t dt;
            seer_layout_t ly;
            int q = dir_dtype_layout(i, &dir, &dt, &ly);
            int mult = q % 2 ? 4 : 1, hw = q / 2 % 2 ? 56 : 14;
            shape_t s = {q / 2 % 2 ? 32 : 4, 1, hw, mult, 3, 1, dir, dt, 1, 1, ly};
            shape_t d = s;
            d.c = 2;
            d.k = 2 * mult;
            d.g = 2;
            never_faster(&f, gi, s, d, "two groups", &checked, &bad);
        }
    CHECK(bad == 0);
    CHECK(checked > 1000);
    fleet_close(&f);
}

/* More groups, less work: a conv of g groups computes a subset of the
 * products of the same conv in g' groups for any g' dividing g (each of
 * its groups lies inside one of theirs), so it is never over 5 % slower.
 * The narrow grouped path once made ResNeXt-like convs of 16 channels
 * per group twice as slow as with 32 (A100, 64 x 256 x 56 x 56, groups 8
 * -> 16: 2.44 -> 4.86 ms) and as slow as the dense conv at 32 groups;
 * walking only g, g/2, g/4, ... left 240 groups slower than 8.  Every
 * GPU, every direction, fp32, tf32, fp16 and bf16, both layouts, channel
 * counts of 2^k and 3 x 2^k (MobileNet's 144, 240, 960), every divisor
 * pair. */
TEST(physics_more_groups_never_slower)
{
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    fleet_t f;
    REQUIRE(fleet_open(&f));
    rng = SEED + 11;
    int checked = 0, bad = 0;
    for (int gi = 0; gi < f.ng; gi++)
        for (int i = 0; i < 48; i++) {
            seer_direction_t dir;
            seer_dtype_t dt;
            seer_layout_t ly;
            int q = dir_dtype_layout(i, &dir, &dt, &ly);
            if (q % 2) dt = dt == SEER_DTYPE_FP16 ? SEER_DTYPE_BF16 : SEER_DTYPE_TF32; /* the other tensor-core maths */
            int r = 2 * rnd(0, 1) + 1, c = (q / 2 ? 3 : 4) << rnd(2, 6);
            shape_t base = {1 << rnd(0, 6), c, 1 << rnd(3, 6), c, r, 1, dir, dt, r / 2, rnd(1, 2), ly};
            double t[1024];
            for (int g = 1; g <= c; g++) {
                t[g] = -1;
                if (c % g) continue;
                shape_t s = base;
                s.g = g;
                t[g] = physics_fastest(f.h, f.m[gi], s);
            }
            for (int g = 2; g <= c; g++)
                for (int gp = 1; gp < g; gp++) {
                    if (c % g || g % gp || t[g] < 0 || t[gp] < 0) continue;
                    checked++;
                    if (t[g] > 1.05 * t[gp] && bad++ < 5) {
                        shape_t s = base;
                        s.g = g;
                        printf("\n    %s: %s takes %g ms, %d groups %g ms", f.g[gi].id, shape_str(s), t[g], gp, t[gp]);
                    }
                }
        }
    if (bad) printf("\n    seed %llu", SEED + 11);
    CHECK(bad == 0);
    CHECK(checked > 10000);
    fleet_close(&f);
}

TEST(physics_grouped_and_depthwise_cost_less)
{
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    fleet_t f;
    REQUIRE(fleet_open(&f));
    rng = SEED;
    int grouped = 0, depthwise = 0, bad = 0;
    for (int gi = 0; gi < f.ng; gi++)
        for (int it = 0; it < 60; it++) {
            shape_t s = physics_random_shape(rnd);
            if (s.c < 64 || s.k < 64) continue;
            double dense = physics_fastest(f.h, f.m[gi], s);
            shape_t g = s;
            g.g = 32;
            double tg = physics_fastest(f.h, f.m[gi], g);
            if (dense > 0 && tg > 0) {
                grouped++;
                if (tg > dense * (1 + 1e-12) && bad++ < 5)
                    printf("\n    seed %llu %s: %s %g ms, dense %g ms", SEED, f.g[gi].id, shape_str(g), tg, dense);
            }
            shape_t sq = s, w = s;
            sq.k = w.k = w.g = s.c;
            double tsq = physics_fastest(f.h, f.m[gi], sq), tw = physics_fastest(f.h, f.m[gi], w);
            if (tsq > 1 && tw > 0 && intensity(&f.g[gi], sq) >= 4) {
                depthwise++;
                if (tw > physics_depthwise_bound(f.h, f.m[gi], w, tsq) * (1 + 1e-9) && bad++ < 5)
                    printf("\n    seed %llu %s: %s %g ms, dense %g ms", SEED, f.g[gi].id, shape_str(w), tw, tsq);
            }
        }
    CHECK(bad == 0);
    CHECK(grouped > 500 && depthwise > 100);
    fleet_close(&f);
}

/* (e) Tensor cores are no slower: on GPUs with them, TF32, FP16 and BF16
 * convs are never slower than the FP32 conv on compute-bound shapes,
 * unless the FP32 time is under every floor of the dtype's own kernels
 * (physics_floor: BF16 has no FFT or fused Winograd). */
TEST(physics_tensor_cores_no_slower_than_fp32)
{
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    fleet_t f;
    REQUIRE(fleet_open(&f));
    static const seer_dtype_t dts[] = {SEER_DTYPE_TF32, SEER_DTYPE_FP16, SEER_DTYPE_BF16};
    rng = SEED;
    int checked = 0, bad = 0, beyond = 0;
    for (int gi = 0; gi < f.ng; gi++) {
        if (f.g[gi].fp16_tflops <= 0) continue;
        for (int it = 0; it < 60; it++) {
            shape_t s = physics_random_shape(rnd);
            if (intensity(&f.g[gi], s) < 1) continue;
            double t32 = physics_fastest(f.h, f.m[gi], s);
            for (int q = 0; q < 3 && t32 > 0; q++) {
                shape_t x = s;
                x.dt = dts[q];
                double t = physics_fastest(f.h, f.m[gi], x), lo = physics_floor(f.h, f.m[gi], x);
                if (t < 0) continue;
                checked++;
                if (t32 < lo) { /* no kernel of x can: t must sit at its floor */
                    beyond++;
                    if (t > lo * (1 + 1e-12) && t > t32 * (1 + 1e-12) && bad++ < 5)
                        printf("\n    seed %llu %s: %s %g ms > its floor %g ms", SEED, f.g[gi].id, shape_str(x), t, lo);
                    continue;
                }
                if (t > t32 * (1 + 1e-12) && bad++ < 5)
                    printf("\n    seed %llu %s: %s %g ms > fp32 %g ms", SEED, f.g[gi].id, shape_str(x), t, t32);
            }
        }
    }
    CHECK(bad == 0);
    CHECK(checked > 1000 && beyond < checked / 20);
    if (getenv("SEER_VERBOSE")) printf("\n    %d of %d beyond the dtype's floor", beyond, checked);
    fleet_close(&f);
}

/* ... grouped and depthwise convs too, whose fastest is capped by the
 * dense conv's and a depthwise one's by a quarter of it (best_own,
 * picker.c): the FP32 dense conv can run FFT, which BF16 has not (nor
 * a fused Winograd), so the tensor-core conv's own caps were the higher ones,
 * and a BF16 depthwise conv took up to 1.7x the FP32 one (RTX 3080, 1 x 403
 * x 281 x 281, 13 x 13, forward: 6.58 against 3.92 ms; H100, 4 x 1438 x
 * 346 x 78, 11 x 11: 11.24 against 8.82), a 4-group one 36.6 ms where its
 * floor is 35.0 and the FP32 conv takes its dense conv's FFT time, 30.1
 * (RTX 3080, 1 x 1024 x 256 x 256 -> 512, 11 x 11).  Depthwise convs
 * with filters of 5 to 13 (multipliers 1 to 4) and convs of 2 to 8
 * groups, compute-bound in FP32 (their FLOPs at the FP32 peak over their
 * bytes at the bandwidth), every direction, both layouts, every GPU with
 * tensor cores, as the test above. */
TEST(physics_tensor_cores_grouped_no_slower_than_fp32)
{
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    fleet_t f;
    REQUIRE(fleet_open(&f));
    static const seer_dtype_t dts[] = {SEER_DTYPE_TF32, SEER_DTYPE_FP16, SEER_DTYPE_BF16};
    rng = SEED + 23;
    int checked = 0, bad = 0, beyond = 0;
    for (int gi = 0; gi < f.ng; gi++) {
        const seer_gpu_info_t *g = &f.g[gi];
        if (g->fp16_tflops <= 0) continue;
        for (int it = 0; it < 36; it++) {
            int r = 2 * rnd(2, 6) + 1, c = rnd(16, 1536), k = c * (rnd(0, 2) ? 1 : rnd(2, 4)), groups = c;
            if (it % 3 == 2) { /* 2, 4 or 8 groups of 16 to 256 channels */
                groups = 1 << rnd(1, 3);
                c = groups * rnd(16, 256);
                k = groups * rnd(16, 256);
            }
            shape_t s = {1 << rnd(0, 4), c, rnd(32, 320), k, r, groups, (seer_direction_t)rnd(0, 2),
                         SEER_DTYPE_FP32, r / 2, 1, (seer_layout_t)rnd(0, 1)};
            double px = (double)s.hw * s.hw;
            while (s.n > 1 && (double)s.n * (s.c > s.k ? s.c : s.k) * px > 3e8) s.n /= 2;
            double flops = 2.0 * s.n * s.k * px * r * r * (c / groups),
                   bytes = 4.0 * ((double)s.n * (s.c + s.k) * px + (double)s.k * (c / groups) * r * r);
            if ((double)s.n * (s.c > s.k ? s.c : s.k) * px > 3e8 ||
                flops / (g->fp32_tflops * 1e12) < bytes / (g->dram_gbps * 1e9))
                continue;
            double t32 = physics_fastest(f.h, f.m[gi], s);
            for (int q = 0; q < 3 && t32 > 0; q++) {
                shape_t x = s;
                x.dt = dts[q];
                double t = physics_fastest(f.h, f.m[gi], x), lo = physics_floor(f.h, f.m[gi], x);
                if (t < 0) continue;
                checked++;
                if (t32 < lo) {
                    beyond++;
                    if (t > lo * (1 + 1e-12) && t > t32 * (1 + 1e-12) && bad++ < 5)
                        printf("\n    seed %llu %s: %s %g ms > its floor %g ms", SEED + 23, g->id, shape_str(x), t, lo);
                    continue;
                }
                if (t > t32 * (1 + 1e-12) && bad++ < 5)
                    printf("\n    seed %llu %s: %s %g ms > fp32 %g ms", SEED + 23, g->id, shape_str(x), t, t32);
            }
        }
    }
    /* the cases the sweeps found */
    int gi = -1;
    for (int i = 0; i < f.ng; i++)
        if (!strcmp(f.g[i].id, "rtx3080")) gi = i;
    REQUIRE(gi >= 0);
    static const shape_t pin[] = {{1, 403, 281, 403, 13, 403, SEER_DIR_FWD, SEER_DTYPE_FP32, 6, 1, SEER_LAYOUT_NCHW},
                                  {1, 1024, 256, 512, 11, 4, SEER_DIR_FWD, SEER_DTYPE_FP32, 5, 1, SEER_LAYOUT_NCHW}};
    for (int i = 0; i < 2; i++) {
        shape_t x = pin[i];
        x.dt = SEER_DTYPE_BF16;
        double t32 = physics_fastest(f.h, f.m[gi], pin[i]), t = physics_fastest(f.h, f.m[gi], x),
               lo = fmax(t32, physics_floor(f.h, f.m[gi], x));
        if (!(t > 0 && t <= lo * (1 + 1e-12)))
            printf("\n    rtx3080: %s %g ms > fp32 %g ms and its floor", shape_str(x), t, t32);
        CHECK(t > 0 && t <= lo * (1 + 1e-12));
    }
    CHECK(bad == 0);
    CHECK(checked > 500 && beyond < checked / 10);
    if (getenv("SEER_VERBOSE")) printf("\n    %d of %d beyond the dtype's floor", beyond, checked);
    fleet_close(&f);
}

/* FP16 on a GPU without FP16 tensor cores is pseudo-half, TF32 without
 * TF32 ones FP32 (seer_gpu_run_dtype): the fastest time is the same to
 * the bit, as every algorithm's is.  The picker's tensor-core steps read
 * the dtype asked for and took a TITAN Xp's FP16 backward data under its
 * pseudo-half time (0.0178 against 0.0228 ms), and so under a TITAN V's
 * FP16 time (0.0192 ms), a GPU at least as fast on every ceiling: few
 * channels, which the other properties' shapes do not sample. */
TEST(physics_dtype_as_the_gpu_runs_it)
{
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    fleet_t f;
    REQUIRE(fleet_open(&f));
    rng = SEED + 17;
    int checked = 0, bad = 0;
    for (int gi = 0; gi < f.ng; gi++)
        for (int it = 0; it < 40; it++) {
            int tf32 = it % 2;
            if ((tf32 ? f.g[gi].tf32_tflops : f.g[gi].fp16_tflops) > 0) continue;
            int r = 2 * rnd(0, 2) + 1;
            shape_t s = {1 << rnd(0, 5), rnd(1, 48), rnd(r, 64), rnd(1, 48), r, 1, (seer_direction_t)rnd(0, 2),
                         tf32 ? SEER_DTYPE_TF32 : SEER_DTYPE_FP16, r / 2, rnd(1, 2), (seer_layout_t)rnd(0, 1)};
            shape_t a = s;
            a.dt = tf32 ? SEER_DTYPE_FP32 : SEER_DTYPE_FP16_PSEUDO;
            double t = physics_fastest(f.h, f.m[gi], s), ta = physics_fastest(f.h, f.m[gi], a);
            if (t < 0 && ta < 0) continue;
            checked++;
            if (t != ta && bad++ < 5)
                printf("\n    seed %llu %s: %s %g ms, as %s %g ms", SEED + 17, f.g[gi].id, shape_str(s), t,
                       seer_dtype_name(a.dt), ta);
        }
    /* the pair the sweep found */
    int xp = -1, v = -1;
    for (int gi = 0; gi < f.ng; gi++) {
        if (!strcmp(f.g[gi].id, "titan-xp")) xp = gi;
        if (!strcmp(f.g[gi].id, "titan-v")) v = gi;
    }
    REQUIRE(xp >= 0 && v >= 0 && at_least_as_fast(&f.g[v], &f.g[xp]));
    shape_t s = {1, 3, 122, 12, 5, 1, SEER_DIR_BWD_DATA, SEER_DTYPE_FP16, 2, 1, SEER_LAYOUT_NCHW};
    double tv = physics_fastest(f.h, f.m[v], s), txp = physics_fastest(f.h, f.m[xp], s);
    if (!(tv > 0 && tv <= 1.05 * txp)) printf("\n    titan-v %g ms, titan-xp %g ms: %s", tv, txp, shape_str(s));
    CHECK(tv > 0 && tv <= 1.05 * txp);
    CHECK(bad == 0);
    CHECK(checked > 300);
    fleet_close(&f);
}

/* (f) A tiny conv is tiny: 1x64x7x7 -> 64, 3x3, at most 30 us of GPU
 * time on V100 and newer. */
TEST(physics_tiny_conv_is_tiny)
{
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    fleet_t f;
    REQUIRE(fleet_open(&f));
    int checked = 0;
    for (int gi = 0; gi < f.ng; gi++) {
        if (f.g[gi].cc_major < 7) continue;
        double t = physics_fastest(f.h, f.m[gi], (shape_t){1, 64, 7, 64, 3, 1, SEER_DIR_FWD, SEER_DTYPE_FP32, 1, 1, SEER_LAYOUT_NCHW});
        checked++;
        if (!(t > 0 && t <= 0.030)) printf("\n    %s: 1x64x7x7->64 takes %g ms", f.g[gi].id, t);
        CHECK(t > 0 && t <= 0.030);
    }
    CHECK(checked >= 10);
    fleet_close(&f);
}

/* A grouped conv pays cuDNN's grouped kernels' fixed cost
 * (seer_model_grouped_floor, SEER_GROUP_KERNEL_MS = 8 us, model.c), wide
 * groups too: a MobileNetV2 depthwise layer (batch 8, FP16 NHWC), never
 * slower than its conv in fewer groups, once took a wide grouping's few
 * microseconds (6.9-7.7 us on the H100 and H200).  Every GPU as served,
 * every direction; every algorithm that answers of a 32-group FP32 conv
 * of 64 channels per group and of a 16-group FP16 NHWC one (its
 * IMPLICIT_PRECOMP_GEMM once 7.4 us on the H100). */
TEST(physics_grouped_convs_pay_the_grouped_kernels_cost)
{
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    fleet_t f;
    REQUIRE(fleet_open(&f));
    seer_conv_desc_t d;
    REQUIRE(seer_conv_desc_create(&d) == SEER_STATUS_SUCCESS);
    int checked = 0;
    for (int gi = 0; gi < f.ng; gi++)
        for (int dir = 0; dir < 3; dir++) {
            shape_t dw = {8, 576, 14, 576, 3, 576, (seer_direction_t)dir, SEER_DTYPE_FP16, 1, 1, SEER_LAYOUT_NHWC};
            double t = physics_fastest(f.h, f.m[gi], dw);
            if (!(t >= 0.008)) printf("\n    %s: depthwise %s %g ms", f.g[gi].id, seer_direction_name(dw.dir), t);
            CHECK(t >= 0.008);
            for (int wide = 0; wide < 2; wide++) {
                REQUIRE(wide ? seer_conv_desc_set(f.h, d, SEER_DTYPE_FP16, SEER_LAYOUT_NHWC, 8, 1024, 7, 7, 1024, 3, 3, 1,
                                                  1, 1, 1, 1, 1, 16) == SEER_STATUS_SUCCESS
                             : seer_conv_desc_set(f.h, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, 1, 2048, 15, 15, 2048, 1, 1, 0,
                                                  0, 1, 1, 1, 1, 32) == SEER_STATUS_SUCCESS);
                for (int a = SEER_ALGO_CUDNN_CHOICE; a < seer_algo_count((seer_direction_t)dir); a++) {
                    double ta;
                    if (seer_predict_conv(f.h, f.m[gi], d, (seer_direction_t)dir, a, &ta, NULL, 0, NULL)) continue;
                    checked++;
                    if (!(ta >= 0.008)) printf("\n    %s: %d groups, %s algo %d: %g ms", f.g[gi].id, wide ? 16 : 32,
                                               seer_direction_name((seer_direction_t)dir), a, ta);
                    CHECK(ta >= 0.008);
                }
            }
        }
    CHECK(checked > 100);
    seer_conv_desc_destroy(d);
    fleet_close(&f);
}

/* A grouped NHWC FP32 conv's backward filter ALGO_0 runs cuDNN's
 * grouped-direct fallback, 2.5x ALGO_1 (seer_conv_legacy_slowdown): the
 * narrow path's fewer helper kernels once made it the fastest predicted
 * (H200: 18.2 ms measured against ALGO_1's 7.4). */
TEST(physics_grouped_nhwc_wgrad_algo0_slower_than_algo1)
{
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    fleet_t f;
    REQUIRE(fleet_open(&f));
    seer_conv_desc_t d;
    REQUIRE(seer_conv_desc_create(&d) == SEER_STATUS_SUCCESS);
    REQUIRE(seer_conv_desc_set(f.h, d, SEER_DTYPE_FP32, SEER_LAYOUT_NHWC, 5, 224, 101, 101, 576, 3, 3, 1, 1, 1, 1, 1, 1,
                               32) == SEER_STATUS_SUCCESS);
    int checked = 0;
    for (int gi = 0; gi < f.ng; gi++) {
        double t0, t1;
        if (seer_predict_conv(f.h, f.m[gi], d, SEER_DIR_BWD_FILTER, SEER_BWD_FILTER_ALGO_0, &t0, NULL, 0, NULL) ||
            seer_predict_conv(f.h, f.m[gi], d, SEER_DIR_BWD_FILTER, SEER_BWD_FILTER_ALGO_1, &t1, NULL, 0, NULL))
            continue;
        checked++;
        if (!(t0 > t1)) printf("\n    %s: ALGO_0 %g ms, ALGO_1 %g ms", f.g[gi].id, t0, t1);
        CHECK(t0 > t1);
    }
    CHECK(checked >= 20);
    seer_conv_desc_destroy(d);
    fleet_close(&f);
}

/* A padding one larger is more work on the same input (a larger output,
 * or for backward data the same dx from a larger dy): the fastest time
 * never drops more than 5 %.  Backward data read as its dual forward conv
 * once did, 18 %, when the padding moved the forward FFT's tiling. */
TEST(physics_more_padding_never_faster)
{
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    fleet_t f;
    REQUIRE(fleet_open(&f));
    seer_conv_desc_t a, b;
    REQUIRE(seer_conv_desc_create(&a) == SEER_STATUS_SUCCESS && seer_conv_desc_create(&b) == SEER_STATUS_SUCCESS);
    static const seer_dtype_t dts[] = {SEER_DTYPE_FP32, SEER_DTYPE_TF32, SEER_DTYPE_FP16, SEER_DTYPE_FP16_PSEUDO};
    rng = SEED + 11;
    int checked = 0, bad = 0;
    for (int gi = 0; gi < f.ng; gi++)
        for (int it = 0; it < 40; it++) {
            int n = 1 << rnd(0, 6), c = 3 * rnd(1, 40), k = 1 << rnd(3, 9), hh = rnd(7, 60), ww = rnd(7, 60);
            int r = rnd(1, 7), s = rnd(1, 7), ph = rnd(0, r), pw = rnd(0, s), dil = rnd(1, 2), dir = rnd(0, 2);
            int more_h = rnd(0, 1);
            seer_dtype_t dt = dts[rnd(0, 3)];
            seer_layout_t ly = (seer_layout_t)rnd(0, 1);
            if (seer_conv_desc_set(NULL, a, dt, ly, n, c, hh, ww, k, r, s, ph, pw, 1, 1, dil, dil, 1) ||
                seer_conv_desc_set(NULL, b, dt, ly, n, c, hh, ww, k, r, s, ph + more_h, pw + !more_h, 1, 1, dil, dil,
                                   1))
                continue;
            int algo;
            double ta, tb;
            if (seer_pick_conv_fastest(f.h, f.m[gi], a, (seer_direction_t)dir, &algo, &ta) ||
                seer_pick_conv_fastest(f.h, f.m[gi], b, (seer_direction_t)dir, &algo, &tb))
                continue;
            checked++;
            if (tb < 0.95 * ta && bad++ < 5)
                printf("\n    seed %llu %s %s %s %s n=%d c=%d %dx%d k=%d %dx%d pad %d,%d dil %d: %g ms, one more "
                       "padding on %s %g ms",
                       SEED + 11, f.g[gi].id, seer_direction_name((seer_direction_t)dir), seer_dtype_name(dt),
                       seer_layout_name(ly), n, c, hh, ww, k, r, s, ph, pw, dil, ta, more_h ? "h" : "w", tb);
        }
    /* and the two a reviewer's sweep of 315k pairs found, and one where
     * the dual's padded dy passes 2^31 elements */
    static const struct { const char *gpu; int n, c, h, w, k, r, s, ph, pw, more_h; seer_layout_t ly; } pin[] = {
        {"a100-sxm4-80gb", 64, 48, 13, 13, 512, 7, 6, 4, 2, 1, SEER_LAYOUT_NHWC},
        {"h100-pcie-80gb", 64, 48, 13, 14, 128, 6, 6, 0, 3, 0, SEER_LAYOUT_NCHW},
        {"v100-sxm2-16gb", 66, 1024, 123, 256, 109, 3, 3, 3, 3, 1, SEER_LAYOUT_NCHW},
    };
    int pinned = 0;
    for (size_t i = 0; i < sizeof pin / sizeof pin[0]; i++)
        for (int gi = 0; gi < f.ng; gi++) {
            if (strcmp(f.g[gi].id, pin[i].gpu)) continue;
            pinned++;
            int algo;
            double ta = 0, tb = 0;
            REQUIRE(!seer_conv_desc_set(NULL, a, SEER_DTYPE_FP32, pin[i].ly, pin[i].n, pin[i].c, pin[i].h, pin[i].w,
                                        pin[i].k, pin[i].r, pin[i].s, pin[i].ph, pin[i].pw, 1, 1, 1, 1, 1) &&
                    !seer_conv_desc_set(NULL, b, SEER_DTYPE_FP32, pin[i].ly, pin[i].n, pin[i].c, pin[i].h, pin[i].w,
                                        pin[i].k, pin[i].r, pin[i].s, pin[i].ph + pin[i].more_h,
                                        pin[i].pw + !pin[i].more_h, 1, 1, 1, 1, 1));
            CHECK(!seer_pick_conv_fastest(f.h, f.m[gi], a, SEER_DIR_BWD_DATA, &algo, &ta) &&
                  !seer_pick_conv_fastest(f.h, f.m[gi], b, SEER_DIR_BWD_DATA, &algo, &tb));
            CHECK(tb >= 0.95 * ta);
            checked++;
        }
    CHECK(pinned == 3);
    CHECK(bad == 0);
    CHECK(checked > 1000);
    seer_conv_desc_destroy(a);
    seer_conv_desc_destroy(b);
    fleet_close(&f);
}

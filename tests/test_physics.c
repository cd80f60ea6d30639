/* Physical sanity over random shapes on every GPU of the table, served as
 * `seer --gpu` serves it (seer_model_open on models/).  The properties
 * the models do not yet hold everywhere (monotone in work, faster GPUs
 * never slower) are reported by `make eval`
 * (tools/bench/physics.c, docs/accuracy.md) instead of tested here. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "test.h"
#include "gpu.h"
#include "launch.h"

#define SEED 20261123ULL

static unsigned long long rng = SEED;
static int rnd(int lo, int hi)
{
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (int)((rng >> 33) % (unsigned long long)(hi - lo + 1));
}

/* Every GPU, every direction, every algorithm, every dtype and layout,
 * with groups and dilation: a prediction is either finite and positive,
 * or UNSUPPORTED (cuDNN has no such algorithm for the case); nothing is
 * left NOT_CALIBRATED. */
TEST(physics_every_case_predicts_finite_positive)
{
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    printf("(seed %llu) ", SEED);
    rng = SEED;
    int ng = 0, bad = 0, ok = 0;
    seer_gpu_count(&ng);
    for (int gi = 0; gi < ng; gi++) {
        seer_gpu_info_t g;
        seer_model_t m;
        seer_gpu_get(gi, &g);
        REQUIRE(seer_model_open(h, "models", g.id, &m) == SEER_STATUS_SUCCESS);
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
                int na = dir == SEER_DIR_FWD ? SEER_FWD_ALGO_COUNT
                       : dir == SEER_DIR_BWD_DATA ? SEER_BWD_DATA_ALGO_COUNT : SEER_BWD_FILTER_ALGO_COUNT;
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
        seer_model_destroy(m);
    }
    CHECK(bad == 0);
    CHECK(ok > 1000);
    seer_destroy(h);
}

/* No prediction beats the datasheet: every algorithm's time is at least
 * the roofline floor of its own kernels, and cuDNN's choice at least the
 * lowest floor of the algorithms it may choose (a correction fitted on
 * few rows once predicted DeepBench backward convs 12x under it). */
TEST(physics_no_prediction_below_the_roofline)
{
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    rng = SEED;
    int ng = 0, checked = 0, below = 0;
    seer_gpu_count(&ng);
    for (int gi = 0; gi < ng; gi++) {
        seer_gpu_info_t g;
        seer_model_t m;
        seer_gpu_get(gi, &g);
        REQUIRE(seer_model_open(h, "models", g.id, &m) == SEER_STATUS_SUCCESS);
        seer_conv_desc_t d;
        REQUIRE(seer_conv_desc_create(&d) == SEER_STATUS_SUCCESS);
        for (int it = 0; it < 10; it++) {
            int n = 1 << rnd(0, 6), c = 1 << rnd(3, 10), k = 1 << rnd(3, 10), hw = 1 << rnd(3, 7), r = 2 * rnd(0, 2) + 1;
            if (seer_conv_desc_set(h, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, n, c, hw, hw, k, r, r, r / 2, r / 2, 1, 1,
                                   1, 1, 1))
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
                            printf("\n    %s %s algo %d n=%d c=%d k=%d hw=%d r=%d: %g ms < floor %g ms", g.id,
                                   seer_direction_name((seer_direction_t)dir), a, n, c, k, hw, r, t, f);
                    }
                }
                double t;
                if (!seer_predict_conv(h, m, d, (seer_direction_t)dir, SEER_ALGO_CUDNN_CHOICE, &t, NULL, 0, NULL)) {
                    checked++;
                    below += isfinite(lo) && t < lo * (1 - 1e-12);
                }
            }
        }
        seer_conv_desc_destroy(d);
        seer_model_destroy(m);
    }
    CHECK(below == 0);
    CHECK(checked > 500);
    seer_destroy(h);
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

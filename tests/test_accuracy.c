/* Accuracy gates on the shipped models (held-out 20 % test split of the
 * NeuSight rows), and a check that the shipped models are exactly what
 * `make models` produces from the data.
 *
 * The models predict GPU time; NeuSight's times are host dispatch plus
 * GPU time (docs/method.md, "GPU time").  The host time is estimated from
 * the rows outside the split (libseer/dispatch.c, model-independent), so
 * the test rows are scored three ways:
 *  - published, position-free: prediction + the file's median host time,
 *    what a user without the row order gets (gate: 13 % MAPE);
 *  - published, with the host time at the row's place in the file (the
 *    bar of 10 % MAPE, 15 % RMSPE);
 *  - GPU-time targets: published - host time (regression gate).
 * This scoring is written out here on purpose rather than taken from
 * seer eval, so the gate does not trust the code it checks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "test.h"
#include "csv.h"
#include "dispatch.h"
#include "launch.h"

#define GATE_MAPE 0.13          /* published, position-free */
#define GATE_RMSPE 0.185
#define BAR_MAPE 0.10           /* published, host time at the row's place */
#define BAR_RMSPE 0.15
#define GATE_GPU_MAPE 0.10      /* GPU-time targets */

typedef struct {
    int n;
    double mape, rmspe;         /* published vs prediction + median host time */
    double pmape, prmspe;       /* published vs prediction + host time at the row */
    double gmape;               /* targets vs prediction */
    double floor_mape;          /* the targets themselves + median host time vs published */
} score_t;

typedef struct { double s, s2; } acc_t;
static void acc(acc_t *a, double pred, double meas)
{
    double e = fabs(pred - meas) / meas;
    a->s += e;
    a->s2 += e * e;
}

static void score(const char *gpu, score_t *sc)
{
    char mpath[256], dpath[512];
    snprintf(mpath, sizeof mpath, "models/%s.seer", gpu);
    snprintf(dpath, sizeof dpath, "%s/conv/%s.csv", test_data_dir(), gpu);
    memset(sc, 0, sizeof *sc);
    sc->n = -1;
    if (access(dpath, R_OK) != 0) return;
    seer_handle_t h;
    seer_model_t m;
    seer_conv_row_t *rows;
    size_t nr;
    seer_gpu_info_t g;
    if (seer_create(&h)) return;
    if (seer_model_load(h, mpath, &m) || seer_model_get_gpu(m, &g) ||
        seer_conv_csv_read(h, dpath, &rows, &nr)) {
        printf("    %s\n", seer_get_last_error(h));
        seer_destroy(h);
        sc->n = -2;
        return;
    }
    seer_conv_desc_t d;
    seer_conv_desc_create(&d);
    /* test rows: position, measured, predicted, floor; the others: the host time */
    double *pos = calloc(nr + 1, sizeof *pos), *meas = calloc(nr + 1, sizeof *meas),
           *pred = calloc(nr + 1, sizeof *pred), *floor = calloc(nr + 1, sizeof *floor),
           *tpos = calloc(nr + 1, sizeof *tpos), *ttime = calloc(nr + 1, sizeof *ttime),
           *tfloor = calloc(nr + 1, sizeof *tfloor);
    int cnt = 0, nt = 0;
    for (size_t i = 0; pos && meas && pred && floor && tpos && ttime && tfloor && i < nr; i++) {
        const seer_conv_row_t *r = &rows[i];
        double t;
        if (r->algo < 0 || !(r->time_ms > 0)) continue;
        if (seer_conv_desc_set_shape(h, d, r->dtype, r->layout, &r->shape))
            continue;
        double f = seer_conv_floor_ms(&g, d, r->dir, r->algo);
        if (!seer_conv_in_test_split(d)) {
            tpos[nt] = (double)i / nr;
            ttime[nt] = r->time_ms;
            tfloor[nt++] = f;
            continue;
        }
        if (seer_predict_conv(h, m, d, r->dir, r->algo, &t, NULL, 0, NULL)) continue;
        pos[cnt] = (double)i / nr;
        meas[cnt] = r->time_ms;
        floor[cnt] = f;
        pred[cnt++] = t;
    }
    seer_dispatch_t dp;
    int has = seer_dispatch_fit(tpos, ttime, tfloor, nt, &dp);
    acc_t a = {0}, b = {0}, c = {0}, e = {0};
    for (int i = 0; i < cnt; i++) {
        double host = has ? seer_dispatch_at(&dp, pos[i]) : 0;
        acc(&a, pred[i] + (has ? dp.median : 0), meas[i]);
        acc(&b, pred[i] + host, meas[i]);
        acc(&c, pred[i], fmax(meas[i] - host, floor[i]));
        acc(&e, fmax(meas[i] - host, floor[i]) + (has ? dp.median : 0), meas[i]);
    }
    sc->n = cnt;
    sc->mape = cnt ? a.s / cnt : 1;
    sc->rmspe = cnt ? sqrt(a.s2 / cnt) : 1;
    sc->pmape = cnt ? b.s / cnt : 1;
    sc->prmspe = cnt ? sqrt(b.s2 / cnt) : 1;
    sc->gmape = cnt ? c.s / cnt : 1;
    sc->floor_mape = cnt ? e.s / cnt : 1;
    printf("    %s: n=%d published %.3f / %.3f (floor %.3f); host time at the row %.3f / %.3f; "
           "GPU time %.3f\n", gpu, cnt, sc->mape, sc->rmspe, sc->floor_mape, sc->pmape, sc->prmspe,
           sc->gmape);
    free(pos);
    free(meas);
    free(pred);
    free(floor);
    free(tpos);
    free(ttime);
    free(tfloor);
    free(rows);
    seer_conv_desc_destroy(d);
    seer_model_destroy(m);
    seer_destroy(h);
}

static void gate(const char *gpu)
{
    score_t sc;
    score(gpu, &sc);
    if (sc.n == -1) SKIP("shared data not found");
    REQUIRE(sc.n > 500);
    CHECK(sc.mape <= GATE_MAPE);
    CHECK(sc.rmspe <= GATE_RMSPE);
    CHECK(sc.pmape <= BAR_MAPE);
    CHECK(sc.prmspe <= BAR_RMSPE);
    CHECK(sc.gmape <= GATE_GPU_MAPE);
}

TEST(accuracy_gate_a100) { gate("a100-pcie-80gb"); }
TEST(accuracy_gate_v100) { gate("v100-pcie-32gb"); }
TEST(accuracy_gate_t4) { gate("t4"); }

/* The shipped models are reproducible from the data: retraining gives the
 * same checksum (training is deterministic and holds the test split out). */
TEST(shipped_models_reproducible)
{
    const char *gpus[] = {"a100-pcie-80gb", "v100-pcie-32gb", "t4", "v100-sxm2-16gb", "gtx1080ti"};
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    int checked = 0;
    for (size_t i = 0; i < sizeof gpus / sizeof *gpus; i++) {
        char mpath[256], dpath[512];
        snprintf(mpath, sizeof mpath, "models/%s.seer", gpus[i]);
        snprintf(dpath, sizeof dpath, "%s/conv/%s.csv", test_data_dir(), gpus[i]);
        if (access(dpath, R_OK) != 0) continue;
        seer_model_t shipped, fresh;
        REQUIRE(seer_model_load(h, mpath, &shipped) == SEER_STATUS_SUCCESS);
        seer_model_info_t a, b;
        seer_model_get_info(shipped, &a);
        /* train from the files the provenance names: the GPU's conv file
         * and, where it says "NAME.csv (GEMM", that GEMM file */
        const char *paths[2] = {dpath, NULL};
        char gpath[512];
        int np = 1;
        const char *g = strstr(a.provenance, ".csv (GEMM");
        if (g) {
            const char *start = g;
            while (start > a.provenance && start[-1] != ' ') start--;
            snprintf(gpath, sizeof gpath, "%s/gemm/%.*s.csv", test_data_dir(), (int)(g - start), start);
            paths[np++] = gpath;
        }
        CHECK_STATUS(seer_train(h, gpus[i], paths, np, 1, &fresh), SEER_STATUS_SUCCESS);
        seer_model_get_info(fresh, &b);
        if (a.checksum != b.checksum) printf("    %s is stale: run make models\n", mpath);
        CHECK(a.checksum == b.checksum);
        seer_model_destroy(fresh);
        seer_model_destroy(shipped);
        checked++;
    }
    seer_destroy(h);
    if (!checked) SKIP("shared data not found");
}

/* Tensor-core GEMMs on the GPUs seer-bench measured (gpu-ceilings.csv:
 * cuBLAS 8192^3 in FP16, BF16 and TF32 on an H100 SXM5 and an H200),
 * served from the shipped models by transfer: a regression gate with a
 * margin over the -4..+6 % of docs/accuracy.md.  In-sample (these six
 * chose SEER_GEMM_TC_PEAK_SHARE_WEIGHT); the FP32 column is an FMA
 * microbenchmark, no GEMM. */
TEST(accuracy_gate_hopper_tensor_core_gemm)
{
    char path[512], line[1024];
    snprintf(path, sizeof path, "%s/gpu-ceilings.csv", test_data_dir());
    FILE *f = fopen(path, "r");
    if (!f) SKIP("shared data not found");
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    int checked = 0, col_gpu = -1, col[3] = {-1, -1, -1};
    static const char *names[3] = {"fp16_tflops", "bf16_tflops", "tf32_tflops"};
    static const seer_dtype_t dts[3] = {SEER_DTYPE_FP16, SEER_DTYPE_BF16, SEER_DTYPE_TF32};
    while (fgets(line, sizeof line, f)) {
        char *fields[32];
        int nf = 0;
        line[strcspn(line, "\r\n")] = 0;
        for (char *p = line; nf < 32; p++) { /* split at commas, in place */
            fields[nf++] = p;
            if (!(p = strchr(p, ','))) break;
            *p = 0;
        }
        if (col_gpu < 0) { /* the header */
            for (int i = 0; i < nf; i++) {
                if (!strcmp(fields[i], "gpu")) col_gpu = i;
                for (int d = 0; d < 3; d++)
                    if (!strcmp(fields[i], names[d])) col[d] = i;
            }
            REQUIRE(col_gpu >= 0 && col[0] >= 0 && col[1] >= 0 && col[2] >= 0);
            continue;
        }
        if (nf <= col_gpu || !*fields[col_gpu]) continue;
        seer_model_t m = NULL;
        REQUIRE(seer_model_open(h, "models", fields[col_gpu], &m) == SEER_STATUS_SUCCESS);
        for (int d = 0; d < 3; d++) {
            REQUIRE(nf > col[d]);
            double meas = atof(fields[col[d]]), t = 0;
            CHECK_STATUS(seer_predict_gemm(h, m, 1, 8192, 8192, 8192, dts[d], 0, 0, 0, &t, NULL), SEER_STATUS_SUCCESS);
            double err = 2.0 * 8192 * 8192 * 8192 / (meas * 1e12) * 1e3 / t; /* measured time / predicted */
            if (getenv("SEER_VERBOSE"))
                printf("    %s %s: measured %.0f TFLOP/s, predicted time %+.1f %%\n", fields[col_gpu], names[d],
                       meas, 100 * (1 / err - 1));
            CHECK(err > 0.85 && err < 1.15);
            checked++;
        }
        seer_model_destroy(m);
    }
    fclose(f);
    seer_destroy(h);
    CHECK(checked >= 6);
}

/* The number after `"key": ` at the first match of `after` and beyond in
 * s; -1 when absent. */
static double json_after(const char *s, const char *after, const char *key)
{
    const char *p = after ? strstr(s, after) : s;
    char k[64];
    snprintf(k, sizeof k, "\"%s\": ", key);
    if (!p || !(p = strstr(p, k))) return -1;
    return atof(p + strlen(k));
}

/* Regression gates on this project's Hopper sweeps (data/: committed, so
 * CI has them), with a margin of 2 points over docs/accuracy.md: the
 * fastest algorithm per conv (`seer eval --fastest`) and the picker's
 * wrong picks (`seer eval-picker`, all directions), the sweeps the
 * shipped scales were fitted on and the H200's held-out seeds 2 and 3.
 * Accuracy on rows the models never saw is what users get; a change
 * that buys the fitted sweeps at the held-out ones' cost fails here. */
TEST(accuracy_gate_hopper_sweeps)
{
    static const struct { const char *gpu, *dir; double mape, wrong; } s[] = {
        {"h100-sxm5-80gb", "data/h100-sxm5-80gb/bench", 0.264, 0.077},
        {"h200-sxm-141gb", "data/h200-sxm-141gb/bench", 0.333, 0.083},
        {"h200-sxm-141gb", "data/h200-sxm-141gb/bench-cudnn9.19", 0.283, 0.075},
        {"h200-sxm-141gb", "data/h200-sxm-141gb/seed2/bench", 0.303, 0.102},
        {"h200-sxm-141gb", "data/h200-sxm-141gb/seed3/bench", 0.378, 0.130},
    };
    if (access(test_seer_bin(), X_OK) != 0) SKIP("seer binary not built");
    for (size_t i = 0; i < sizeof s / sizeof *s; i++) {
        char layers[256], picks[256];
        snprintf(layers, sizeof layers, "%s/layers.csv", s[i].dir);
        snprintf(picks, sizeof picks, "%s/picks.csv", s[i].dir);
        REQUIRE(access(layers, R_OK) == 0 && access(picks, R_OK) == 0);
        test_run_t r;
        test_run_seer(&r, "eval", "--gpu", s[i].gpu, "--models", "models", "--data", layers, "--fastest", "--format",
                      "json", NULL);
        double mape = r.rc ? -1 : json_after(r.out, NULL, "mape");
        test_run_free(&r);
        test_run_seer(&r, "eval-picker", "--gpu", s[i].gpu, "--models", "models", "--data", layers, "--picks", picks,
                      "--format", "json", NULL);
        double wrong = r.rc ? -1 : json_after(r.out, "\"picker\": \"libseer\", \"direction\": \"all\"", "wrong_rate");
        test_run_free(&r);
        printf("    %s: fastest MAPE %.3f (gate %.3f), wrong picks %.3f (gate %.3f)\n", s[i].dir, mape, s[i].mape,
               wrong, s[i].wrong);
        CHECK(mape > 0 && mape <= s[i].mape);
        CHECK(wrong >= 0 && wrong <= s[i].wrong);
    }
}

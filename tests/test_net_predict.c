/* Networks: GEMM prediction for fc layers, the backward-from-forward
 * table, and seer_predict_network with models trained from the shared
 * data (skipped when it is missing) (libseer/net_predict.c). */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "test.h"
#include "common.h"
#include "picker.h"
#include "gemm.h"
#include "gpu.h"
#include "launch.h"
#include "net.h"

static seer_handle_t handle(void)
{
    seer_handle_t h = NULL;
    seer_create(&h);
    return h;
}

/* A model trained from the shared data (conv CSV of gpu, plus gemm CSV
 * gemm if not NULL), once per process; NULL when the data is missing. */
static seer_model_t model_for(const char *gpu, const char *gemm)
{
    static struct { char key[96]; seer_model_t m; int tried; } cache[8];
    char key[96];
    snprintf(key, sizeof key, "%s+%s", gpu, gemm ? gemm : "");
    int i;
    for (i = 0; i < 8 && cache[i].tried; i++)
        if (!strcmp(cache[i].key, key)) return cache[i].m;
    if (i == 8) return NULL;
    cache[i].tried = 1;
    snprintf(cache[i].key, sizeof cache[i].key, "%s", key);
    char conv[512], gm[512];
    snprintf(conv, sizeof conv, "%s/conv/%s.csv", test_data_dir(), gpu);
    snprintf(gm, sizeof gm, "%s/gemm/%s.csv", test_data_dir(), gemm ? gemm : "");
    if (access(conv, R_OK) != 0 || (gemm && access(gm, R_OK) != 0)) return NULL;
    const char *paths[2] = {conv, gm};
    seer_handle_t h = handle();
    if (seer_train(h, gpu, paths, gemm ? 2 : 1, 1, &cache[i].m)) cache[i].m = NULL;
    seer_destroy(h);
    return cache[i].m;
}

TEST(net_gemm_model)
{
    seer_model_t m = model_for("a100-pcie-80gb", "a100-pcie-40gb");
    seer_model_t bare = model_for("a100-pcie-80gb", NULL);
    seer_model_t other = model_for("a100-pcie-80gb", "t4");
    if (!m || !bare || !other) SKIP("shared data not found");
    seer_handle_t h = handle();
    double t1 = 0, t2 = 0, t3 = 0;
    /* same architecture and SM count: the 40 GB card's rows train the 80 GB model */
    CHECK_STATUS(seer_predict_gemm(h, m, 1, 64, 1000, 2048, SEER_DTYPE_FP32, 0, 1, 1, &t1, NULL), SEER_STATUS_SUCCESS);
    CHECK(t1 > 0.001 && t1 < 10);
    seer_class_t cls = SEER_CLASS_UNDER;
    CHECK_STATUS(seer_predict_gemm(h, m, 1, 4096, 4096, 4096, SEER_DTYPE_FP32, 0, 0, 0, &t2, &cls), SEER_STATUS_SUCCESS);
    /* 137 GFLOP at 19.5 TFLOP/s: several ms, not far from the roofline */
    CHECK(t2 > 5 && t2 < 30);
    CHECK(cls == SEER_CLASS_COMPUTE || cls == SEER_CLASS_DRAM); /* the larger fitted term; not under-utilized */
    CHECK_STATUS(seer_predict_gemm(h, m, 8, 4096, 4096, 4096, SEER_DTYPE_FP32, 0, 0, 0, &t3, NULL), SEER_STATUS_SUCCESS);
    CHECK(t3 > 6 * t2);
    /* no tensor-core GEMM rows for Ampere */
    CHECK_STATUS(seer_predict_gemm(h, m, 1, 64, 64, 64, SEER_DTYPE_FP16, 0, 0, 0, &t1, NULL), SEER_STATUS_NOT_CALIBRATED);
    /* no GEMM files, or only another architecture's */
    CHECK_STATUS(seer_predict_gemm(h, bare, 1, 64, 64, 64, SEER_DTYPE_FP32, 0, 0, 0, &t1, NULL), SEER_STATUS_NOT_CALIBRATED);
    CHECK_STATUS(seer_predict_gemm(h, other, 1, 64, 64, 64, SEER_DTYPE_FP32, 0, 0, 0, &t1, NULL), SEER_STATUS_NOT_CALIBRATED);
    CHECK(strstr(seer_get_last_error(h), "GEMM") != NULL);
    CHECK_STATUS(seer_predict_gemm(h, m, 0, 64, 64, 64, SEER_DTYPE_FP32, 0, 0, 0, &t1, NULL), SEER_STATUS_BAD_SHAPE);
    CHECK_STATUS(seer_predict_gemm(h, m, 1, 64, 64, 64, SEER_DTYPE_FP32, 2, 0, 0, &t1, NULL), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_predict_gemm(h, m, 1, 1 << 20, 1 << 20, 4, SEER_DTYPE_FP32, 0, 0, 0, &t1, NULL), SEER_STATUS_OVERFLOW);
    CHECK_STATUS(seer_predict_gemm(h, NULL, 1, 64, 64, 64, SEER_DTYPE_FP32, 0, 0, 0, &t1, NULL), SEER_STATUS_BAD_PARAM);
    /* the fit survives the model file */
    char path[] = "/tmp/seer-test-net-XXXXXX";
    int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    close(fd);
    seer_model_t back = NULL;
    CHECK_STATUS(seer_model_save(h, m, path), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_model_load(h, path, &back), SEER_STATUS_SUCCESS);
    unlink(path);
    double tb = 0;
    CHECK_STATUS(seer_predict_gemm(h, back, 1, 4096, 4096, 4096, SEER_DTYPE_FP32, 0, 0, 0, &tb, NULL), SEER_STATUS_SUCCESS);
    CHECK(tb == t2);
    seer_model_destroy(back);
    seer_destroy(h);
}

/* Held-out accuracy of the GEMM fit: train on the A100 40GB rows outside
 * seer_gemm_in_test_split, score the rest (about a fifth).  A regression gate, and the
 * figure docs/networks.md quotes (printed with SEER_VERBOSE=1). */
TEST(net_gemm_heldout_accuracy)
{
    char path[512];
    snprintf(path, sizeof path, "%s/gemm/a100-pcie-40gb.csv", test_data_dir());
    if (access(path, R_OK) != 0) SKIP("shared data not found");
    seer_handle_t h = handle();
    seer_gemm_row_t *rows = NULL;
    size_t n = 0;
    REQUIRE(seer_gemm_csv_read(h, path, &rows, &n) == SEER_STATUS_SUCCESS);
    seer_gemm_row_t *tr = malloc(n * sizeof *tr), *te = malloc(n * sizeof *te);
    REQUIRE(tr && te);
    size_t ntr = 0, nte = 0;
    for (size_t i = 0; i < n; i++) {
        if (seer_gemm_in_test_split(&rows[i])) te[nte++] = rows[i];
        else tr[ntr++] = rows[i];
    }
    struct seer_model m;
    memset(&m, 0, sizeof m);
    m.gpu = *seer_gpu_lookup("a100-pcie-80gb");
    CHECK_STATUS(seer_gemm_fit(h, &m, tr, ntr, m.gemm), SEER_STATUS_SUCCESS);
    REQUIRE(m.gemm[0][0].present && m.gemm[0][1].present && !m.gemm[1][0].present && !m.gemm[1][1].present);
    CHECK(strcmp(m.gemm[0][0].source_gpu, "a100-pcie-40gb") == 0);
    CHECK(strcmp(m.gemm[0][1].source_gpu, "a100-pcie-40gb") == 0);
    const seer_gpu_info_t *src = seer_gpu_lookup("a100-pcie-40gb");
    double e = 0, e2 = 0;
    for (size_t i = 0; i < nte; i++) {
        double p = seer_gemm_time(src, seer_model_gemm_fit(&m, 0, te[i].batch), te[i].batch, te[i].m, te[i].n,
                                  te[i].k, te[i].dtype, te[i].bias, NULL);
        double a = fabs(p / te[i].time_ms - 1);
        e += a;
        e2 += a * a;
    }
    double mape = e / (double)nte, rmspe = sqrt(e2 / (double)nte);
    if (getenv("SEER_VERBOSE"))
        printf("    GEMM a100-pcie-40gb held out: %zu rows, MAPE %.1f %%, RMSPE %.1f %%\n", nte, 100 * mape, 100 * rmspe);
    CHECK(nte > 3000);
    CHECK(mape < 0.15);
    CHECK(rmspe < 0.25);
    free(tr);
    free(te);
    free(rows);
    seer_destroy(h);
}

/* The shipped backward-from-forward table is what the data gives. */
TEST(net_bwd_ratio_table_matches_data)
{
    char path[512];
    snprintf(path, sizeof path, "%s/conv/v100-sxm2-16gb.csv", test_data_dir());
    if (access(path, R_OK) != 0) SKIP("shared data not found");
    seer_handle_t h = handle();
    seer_conv_row_t *rows = NULL;
    size_t n = 0;
    REQUIRE(seer_conv_csv_read(h, path, &rows, &n) == SEER_STATUS_SUCCESS);
    seer_bwd_ratio_t fit[2][2];
    seer_bwd_ratio_fit(rows, n, fit);
    int same = 1;
    for (int d = 0; d < 2; d++)
        for (int m = 0; m < 2; m++) {
            CHECK(fit[d][m].n > 50);
            CHECK(fit[d][m].a > 0.3 && fit[d][m].a < 3);
            same &= fit[d][m].n == seer_bwd_ratio[d][m].n &&
                    fabs(fit[d][m].a - seer_bwd_ratio[d][m].a) <= 1e-12 * fit[d][m].a &&
                    fabs(fit[d][m].b - seer_bwd_ratio[d][m].b) <= 1e-12 + 1e-12 * fit[d][m].b;
        }
    if (!same) {
        printf("    libseer/net_predict.c's seer_bwd_ratio is stale; the data gives:\n");
        for (int d = 0; d < 2; d++)
            printf("    {{%.17g, %.17g, %d}, {%.17g, %.17g, %d}},\n", fit[d][0].a, fit[d][0].b, fit[d][0].n,
                   fit[d][1].a, fit[d][1].b, fit[d][1].n);
        test_fail(__FILE__, __LINE__, "seer_bwd_ratio matches seer_bwd_ratio_fit(v100-sxm2-16gb.csv)");
    }
    free(rows);
    seer_destroy(h);
}

/* -------------------------------------------------------------- predict */

static double sum_rows(const seer_layer_result_t *r, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++) s += r[i].time_ms;
    return s;
}

static seer_layer_result_t *predict(seer_handle_t h, seer_model_t m, seer_network_t net, int batch,
                                    seer_dtype_t dt, seer_mode_t mode, int policy, int *n, double *total,
                                    seer_status_t *st)
{
    *st = seer_predict_network(h, m, net, batch, dt, SEER_LAYOUT_NCHW, mode, policy, NULL, 0, n, total);
    if (*st) return NULL;
    seer_layer_result_t *r = calloc((size_t)*n + 1, sizeof *r);
    if (!r) return NULL;
    *st = seer_predict_network(h, m, net, batch, dt, SEER_LAYOUT_NCHW, mode, policy, r, *n, n, total);
    if (*st) { free(r); return NULL; }
    return r;
}

TEST(net_predict_zoo_infer_and_train)
{
    seer_model_t m = model_for("a100-pcie-80gb", "a100-pcie-40gb");
    if (!m) SKIP("shared data not found");
    seer_handle_t h = handle();
    static const int batches[] = {1, 32};
    for (int i = 0; seer_network_zoo_name(i); i++)
        for (size_t b = 0; b < 2; b++) {
            seer_network_t net;
            REQUIRE(seer_network_create_zoo(h, seer_network_zoo_name(i), i == 5 ? 0 : 192, &net) == 0);
            seer_network_info_t info;
            seer_network_get_info(net, &info);
            int ni = 0, nt = 0;
            double ti = 0, tt = 0;
            seer_status_t st;
            seer_layer_result_t *ri = predict(h, m, net, batches[b], SEER_DTYPE_FP32, SEER_MODE_INFER,
                                              SEER_ALGO_AUTO, &ni, &ti, &st);
            if (st) printf("    %s: %s\n", info.name, seer_get_last_error(h));
            seer_layer_result_t *rt = predict(h, m, net, batches[b], SEER_DTYPE_FP32, SEER_MODE_TRAIN,
                                              SEER_ALGO_AUTO, &nt, &tt, &st);
            REQUIRE(ri && rt);
            CHECK(ti > 0 && tt > ti);
            CHECK(nt > ni);
            CHECK(ti == sum_rows(ri, ni)); /* summed in row order */
            CHECK(tt == sum_rows(rt, nt));
            int conv_fwd = 0, conv_bd = 0, conv_bf = 0, fc_rows = 0, first_conv = -1;
            for (int k = 0; k < nt; k++) {
                const seer_layer_result_t *x = &rt[k];
                CHECK(x->time_ms > 0 && isfinite(x->time_ms));
                CHECK(x->layer >= 0 && x->layer < info.n_layers);
                if (x->flags & SEER_RESULT_GRAD_ACCUM) { /* summing the gradients of a reused output */
                    CHECK(x->direction == SEER_DIR_BWD_DATA && x->n_kernels >= 1);
                } else if (x->op == SEER_OP_CONV) {
                    if (first_conv < 0) first_conv = x->layer;
                    conv_fwd += x->direction == SEER_DIR_FWD;
                    conv_bd += x->direction == SEER_DIR_BWD_DATA;
                    conv_bf += x->direction == SEER_DIR_BWD_FILTER;
                    if (x->direction == SEER_DIR_BWD_DATA) CHECK(x->layer != first_conv);
                    /* NeuSight data is forward-only: backward comes from
                     * forward, or is the analytical model's where the
                     * forward is analytical too (grouped convs) */
                    if (x->direction != SEER_DIR_FWD)
                        CHECK((x->flags & SEER_RESULT_BWD_FROM_FWD)
                                  ? x->n_kernels == 0
                                  : (x->flags & SEER_RESULT_ANALYTICAL) && x->n_kernels >= 1 && x->algo >= 0);
                    else CHECK(x->algo >= 0 && x->n_kernels >= 1 && !(x->flags & SEER_RESULT_BWD_FROM_FWD));
                } else {
                    CHECK(x->algo == SEER_ALGO_NA);
                }
                if (x->op == SEER_OP_FC && !(x->flags & SEER_RESULT_MEMORY_BOUND)) { /* GEMMs */
                    fc_rows++;
                    CHECK(!(x->flags & SEER_RESULT_GEMM_ROOFLINE));
                }
                if (x->op == SEER_OP_FC && (x->flags & SEER_RESULT_MEMORY_BOUND)) /* its bias gradient */
                    CHECK(x->direction == SEER_DIR_BWD_FILTER && x->n_kernels == 1);
                if (x->op == SEER_OP_BATCHNORM) CHECK(x->flags & SEER_RESULT_MEMORY_BOUND);
            }
            CHECK(conv_fwd == info.n_conv && conv_bf == info.n_conv && conv_bd == info.n_conv - 1);
            CHECK(fc_rows == 3 * info.n_fc);
            /* forward rows come first, in layer order */
            for (int k = 1; k < ni; k++) CHECK(ri[k].layer > ri[k - 1].layer);
            free(ri);
            free(rt);
            seer_network_destroy(net);
        }
    seer_destroy(h);
}

TEST(net_predict_policies_fallbacks_errors)
{
    seer_model_t m = model_for("a100-pcie-80gb", NULL);
    seer_model_t v = model_for("v100-sxm2-16gb", "v100-sxm2-16gb");
    if (!m || !v) SKIP("shared data not found");
    seer_handle_t h = handle();
    seer_network_t net;
    REQUIRE(seer_network_create_zoo(h, "resnet18", 0, &net) == SEER_STATUS_SUCCESS);
    int n;
    double t, t2;
    seer_status_t st;
    /* no GEMM fit: the fc comes from the roofline, flagged */
    seer_layer_result_t *r = predict(h, m, net, 16, SEER_DTYPE_FP32, SEER_MODE_INFER, SEER_ALGO_AUTO, &n, &t, &st);
    REQUIRE(r);
    int flagged = 0;
    for (int i = 0; i < n; i++) flagged += r[i].op == SEER_OP_FC && (r[i].flags & SEER_RESULT_GEMM_ROOFLINE);
    CHECK(flagged == 1);
    free(r);
    /* fixed algorithm: Winograd cannot run the 1x1 and strided convs */
    r = predict(h, m, net, 16, SEER_DTYPE_FP32, SEER_MODE_INFER, SEER_FWD_ALGO_WINOGRAD, &n, &t, &st);
    REQUIRE(r);
    int wino = 0, replaced = 0;
    for (int i = 0; i < n; i++) {
        if (r[i].op != SEER_OP_CONV) continue;
        wino += r[i].algo == SEER_FWD_ALGO_WINOGRAD;
        replaced += !!(r[i].flags & SEER_RESULT_ALGO_REPLACED);
        CHECK((r[i].algo == SEER_FWD_ALGO_WINOGRAD) == !(r[i].flags & SEER_RESULT_ALGO_REPLACED));
    }
    CHECK(wino > 0 && replaced > 0);
    free(r);
    /* DeepBench rows time the backward passes as cuDNN's choice */
    r = predict(h, v, net, 16, SEER_DTYPE_FP32, SEER_MODE_TRAIN, SEER_ALGO_AUTO, &n, &t, &st);
    REQUIRE(r);
    int choice = 0;
    for (int i = 0; i < n; i++)
        if (r[i].op == SEER_OP_CONV && r[i].direction != SEER_DIR_FWD) {
            choice += r[i].algo == SEER_ALGO_CUDNN_CHOICE && !(r[i].flags & SEER_RESULT_BWD_FROM_FWD);
        }
    CHECK(choice == 2 * 20 - 1);
    free(r);
    CHECK_STATUS(seer_predict_network(h, v, net, 16, SEER_DTYPE_FP16, SEER_LAYOUT_NCHW, SEER_MODE_TRAIN,
                                      SEER_ALGO_CUDNN_CHOICE, NULL, 0, &n, &t2), SEER_STATUS_SUCCESS);
    /* the A100 model has no fp16 data at all: every conv on tensor
     * cores from the analytical model, each row marked; the plain
     * implicit and explicit GEMMs run FP32-math (SIMT) kernels on fp16
     * data (seer_conv_run_dtype), whose families its FP32 rows trained */
    r = predict(h, m, net, 16, SEER_DTYPE_FP16, SEER_MODE_INFER, SEER_ALGO_AUTO, &n, &t, &st);
    REQUIRE(r);
    CHECK(st == SEER_STATUS_SUCCESS && t > 0);
    const seer_gpu_info_t *a100g = seer_gpu_lookup("a100-pcie-80gb");
    REQUIRE(a100g);
    for (int i = 0; i < n; i++)
        if (r[i].op == SEER_OP_CONV &&
            seer_dtype_math(seer_conv_run_dtype(a100g, SEER_DTYPE_FP16, r[i].direction, r[i].algo)))
            CHECK(r[i].flags & SEER_RESULT_ANALYTICAL);
    free(r);
    r = predict(h, m, net, 16, SEER_DTYPE_FP16, SEER_MODE_INFER, SEER_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, &n, &t, &st);
    REQUIRE(r);
    for (int i = 0; i < n; i++)
        if (r[i].op == SEER_OP_CONV) CHECK(r[i].flags & SEER_RESULT_ANALYTICAL);
    free(r);
    /* a batch that makes a tensor too big */
    CHECK_STATUS(seer_predict_network(h, m, net, 1 << 20, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, SEER_MODE_INFER,
                                      SEER_ALGO_AUTO, NULL, 0, &n, &t), SEER_STATUS_OVERFLOW);
    CHECK(strstr(seer_get_last_error(h), "conv1") != NULL);
    /* parameters */
    CHECK_STATUS(seer_predict_network(h, NULL, net, 1, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, SEER_MODE_INFER,
                                      SEER_ALGO_AUTO, NULL, 0, &n, &t), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_predict_network(h, m, net, 0, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, SEER_MODE_INFER,
                                      SEER_ALGO_AUTO, NULL, 0, &n, &t), SEER_STATUS_BAD_SHAPE);
    CHECK_STATUS(seer_predict_network(h, m, net, 1, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, (seer_mode_t)2,
                                      SEER_ALGO_AUTO, NULL, 0, &n, &t), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_predict_network(h, m, net, 1, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, SEER_MODE_INFER,
                                      99, NULL, 0, &n, &t), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_predict_network(h, m, net, 1, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, SEER_MODE_INFER,
                                      SEER_ALGO_AUTO, NULL, 5, &n, &t), SEER_STATUS_BAD_PARAM);
    /* too small an array: count and total, results untouched */
    seer_layer_result_t few[3];
    memset(few, 0xab, sizeof few);
    int cnt = 0;
    double tot = 0, ref = 0;
    CHECK_STATUS(seer_predict_network(h, m, net, 4, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, SEER_MODE_INFER,
                                      SEER_ALGO_AUTO, NULL, 0, &n, &ref), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_predict_network(h, m, net, 4, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, SEER_MODE_INFER,
                                      SEER_ALGO_AUTO, few, 3, &cnt, &tot), SEER_STATUS_BUFFER_TOO_SMALL);
    CHECK(cnt == n && tot == ref);
    unsigned char ab[sizeof few];
    memset(ab, 0xab, sizeof ab);
    CHECK(memcmp(few, ab, sizeof few) == 0);
    seer_network_destroy(net);
    seer_destroy(h);
}

typedef struct {
    seer_model_t m;
    seer_network_t net;
    seer_layer_result_t *r;
    int n;
    double total;
    seer_status_t st;
} job_t;

static void *run_job(void *arg)
{
    job_t *j = arg;
    seer_handle_t h = handle();
    for (int rep = 0; rep < 3 && !j->st; rep++)
        j->st = seer_predict_network(h, j->m, j->net, 32, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, SEER_MODE_TRAIN,
                                     SEER_ALGO_AUTO, j->r, j->n, &j->n, &j->total);
    seer_destroy(h);
    return NULL;
}

TEST(net_predict_8_threads_bit_identical)
{
    seer_model_t m = model_for("a100-pcie-80gb", "a100-pcie-40gb");
    if (!m) SKIP("shared data not found");
    seer_handle_t h = handle();
    seer_network_t net;
    REQUIRE(seer_network_create_zoo(h, "inception_v3", 0, &net) == SEER_STATUS_SUCCESS);
    int n;
    double total;
    seer_status_t st;
    seer_layer_result_t *ref = predict(h, m, net, 32, SEER_DTYPE_FP32, SEER_MODE_TRAIN, SEER_ALGO_AUTO, &n, &total, &st);
    REQUIRE(ref);
    job_t jobs[8];
    pthread_t tid[8];
    for (int i = 0; i < 8; i++) {
        jobs[i] = (job_t){m, net, calloc((size_t)n, sizeof *ref), n, 0, SEER_STATUS_SUCCESS};
        REQUIRE(jobs[i].r != NULL);
        REQUIRE(pthread_create(&tid[i], NULL, run_job, &jobs[i]) == 0);
    }
    for (int i = 0; i < 8; i++) pthread_join(tid[i], NULL);
    for (int i = 0; i < 8; i++) {
        CHECK(jobs[i].st == SEER_STATUS_SUCCESS);
        CHECK(jobs[i].n == n && jobs[i].total == total);
        CHECK(memcmp(jobs[i].r, ref, (size_t)n * sizeof *ref) == 0);
        free(jobs[i].r);
    }
    free(ref);
    seer_network_destroy(net);
    seer_destroy(h);
}

/* The options struct: defaults, threads changing nothing, totals split,
 * and the host-dispatch pipeline. */
TEST(net_predict_opts_totals_and_dispatch)
{
    seer_model_t m = model_for("a100-pcie-80gb", "a100-pcie-40gb");
    if (!m) SKIP("shared data not found");
    seer_handle_t h = handle();
    seer_network_t net;
    REQUIRE(seer_network_create_zoo(h, "resnet18", 0, &net) == SEER_STATUS_SUCCESS);
    seer_net_options_t o = SEER_NET_OPTIONS_DEFAULT;
    CHECK(o.batch == 1 && o.threads == 1 && o.mode == SEER_MODE_INFER && o.dispatch_ms == 0 &&
          o.algo_policy == SEER_ALGO_AUTO && o.optimizer == SEER_OPTIMIZER_SGD);
    o.batch = 16;
    o.mode = SEER_MODE_TRAIN;
    seer_net_totals_t t1, t8;
    CHECK_STATUS(seer_predict_network_opts(h, m, net, &o, NULL, 0, &t1), SEER_STATUS_SUCCESS);
    seer_layer_result_t *r1 = calloc((size_t)t1.rows, sizeof *r1), *r8 = calloc((size_t)t1.rows, sizeof *r8);
    REQUIRE(r1 && r8);
    CHECK_STATUS(seer_predict_network_opts(h, m, net, &o, r1, t1.rows, &t1), SEER_STATUS_SUCCESS);
    o.threads = 8;
    CHECK_STATUS(seer_predict_network_opts(h, m, net, &o, r8, t1.rows, &t8), SEER_STATUS_SUCCESS);
    CHECK(memcmp(r1, r8, (size_t)t1.rows * sizeof *r1) == 0);
    CHECK(t1.rows == t8.rows && t1.gpu_ms == t8.gpu_ms && t1.conv_ms == t8.conv_ms && t1.total_ms == t8.total_ms);
    double sum = 0, conv = 0;
    for (int i = 0; i < t1.rows; i++) {
        sum += r1[i].time_ms;
        if (r1[i].op == SEER_OP_CONV) conv += r1[i].time_ms;
    }
    CHECK_NEAR(t1.gpu_ms, sum, 1e-12);
    CHECK_NEAR(t1.conv_ms, conv, 1e-12);
    CHECK_NEAR(t1.conv_ms + t1.other_ms + t1.optimizer_ms, t1.gpu_ms, 1e-12);
    CHECK(t1.dispatch_ms == 0 && t1.total_ms == t1.gpu_ms);
    /* the old entry point agrees, without the optimizer step (0.1's rows) */
    int n;
    double total;
    CHECK_STATUS(seer_predict_network(h, m, net, 16, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, SEER_MODE_TRAIN,
                                      SEER_ALGO_AUTO, NULL, 0, &n, &total), SEER_STATUS_SUCCESS);
    CHECK(n == t1.rows - 1);
    CHECK_NEAR(total, t1.total_ms - t1.optimizer_ms, 1e-9);
    /* A host slower than every row: the GPU waits for each dispatch, so
     * the pass ends one dispatch after the last but one row was sent plus
     * the last row's time. */
    double longest = 0;
    for (int i = 0; i < t1.rows; i++) longest = fmax(longest, r1[i].time_ms);
    o.dispatch_ms = longest + 1;
    seer_net_totals_t td;
    CHECK_STATUS(seer_predict_network_opts(h, m, net, &o, NULL, 0, &td), SEER_STATUS_SUCCESS);
    CHECK_NEAR(td.total_ms, t1.rows * o.dispatch_ms + r1[t1.rows - 1].time_ms, 1e-9);
    CHECK_NEAR(td.dispatch_ms, td.total_ms - td.gpu_ms, 1e-12);
    CHECK(td.gpu_ms == t1.gpu_ms);
    /* a host that keeps ahead adds less than one dispatch */
    o.dispatch_ms = 1e-6;
    CHECK_STATUS(seer_predict_network_opts(h, m, net, &o, NULL, 0, &td), SEER_STATUS_SUCCESS);
    CHECK(td.dispatch_ms >= 0 && td.dispatch_ms <= t1.rows * 1e-6 + 1e-12);
    /* over a second a row is no host (1e300 once gave a SUCCESS of
     * 1.8e302 ms, DBL_MAX an infinite one) */
    o.dispatch_ms = 1e300;
    td.total_ms = -1;
    CHECK_STATUS(seer_predict_network_opts(h, m, net, &o, NULL, 0, &td), SEER_STATUS_BAD_PARAM);
    CHECK(td.total_ms == -1 && strstr(seer_get_last_error(h), "dispatch_ms must be in [0, 1000]") != NULL);
    o.dispatch_ms = SEER_NET_DISPATCH_MAX_MS;
    CHECK_STATUS(seer_predict_network_opts(h, m, net, &o, NULL, 0, &td), SEER_STATUS_SUCCESS);
    /* bad options name the field */
    o.dispatch_ms = -1;
    CHECK_STATUS(seer_predict_network_opts(h, m, net, &o, NULL, 0, &td), SEER_STATUS_BAD_PARAM);
    CHECK(strstr(seer_get_last_error(h), "dispatch_ms") != NULL);
    o.dispatch_ms = 0;
    o.threads = 0;
    CHECK_STATUS(seer_predict_network_opts(h, m, net, &o, NULL, 0, &td), SEER_STATUS_BAD_PARAM);
    CHECK(strstr(seer_get_last_error(h), "threads") != NULL);
    o.threads = 1;
    CHECK_STATUS(seer_predict_network_opts(h, m, net, NULL, NULL, 0, &td), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_predict_network_opts(h, m, net, &o, NULL, 0, NULL), SEER_STATUS_BAD_PARAM);
    o.batch = 0;
    CHECK_STATUS(seer_predict_network_opts(h, m, net, &o, NULL, 0, &td), SEER_STATUS_BAD_SHAPE);
    free(r1);
    free(r8);
    seer_network_destroy(net);
    seer_destroy(h);
}

/* The optimizer step: one memory-bound row after the backward pass,
 * numbered after the last layer, moving 5 (SGD) or 7 (Adam) fp32 words
 * per parameter; none in inference or with SEER_OPTIMIZER_NONE. */
TEST(net_predict_optimizer_step)
{
    seer_model_t m = model_for("a100-pcie-80gb", "a100-pcie-40gb");
    if (!m) SKIP("shared data not found");
    seer_handle_t h = handle();
    seer_network_t net;
    REQUIRE(seer_network_create_zoo(h, "resnet50", 0, &net) == SEER_STATUS_SUCCESS);
    seer_network_info_t ni;
    REQUIRE(seer_network_get_info(net, &ni) == SEER_STATUS_SUCCESS);
    seer_net_options_t o = SEER_NET_OPTIONS_DEFAULT;
    o.batch = 32;
    o.mode = SEER_MODE_TRAIN;
    seer_layer_result_t r[1024];
    seer_net_totals_t ts, ta, tn, ti;
    CHECK_STATUS(seer_predict_network_opts(h, m, net, &o, r, 1024, &ts), SEER_STATUS_SUCCESS);
    REQUIRE(ts.rows > 0 && ts.rows <= 1024);
    const seer_layer_result_t *last = &r[ts.rows - 1];
    CHECK(last->op == SEER_OP_OPTIMIZER && last->layer == ni.n_layers);
    CHECK(strcmp(seer_op_name(SEER_OP_OPTIMIZER), "optimizer") == 0);
    CHECK(last->time_ms > 0 && last->time_ms == ts.optimizer_ms);
    CHECK_NEAR(last->bytes, 5 * 4.0 * (double)ni.params, 1);
    for (int i = 0; i + 1 < ts.rows; i++) CHECK(r[i].op != SEER_OP_OPTIMIZER);
    o.optimizer = SEER_OPTIMIZER_ADAM;
    CHECK_STATUS(seer_predict_network_opts(h, m, net, &o, r, 1024, &ta), SEER_STATUS_SUCCESS);
    CHECK(ta.rows == ts.rows && ta.optimizer_ms > ts.optimizer_ms);
    CHECK_NEAR(r[ta.rows - 1].bytes, 7 * 4.0 * (double)ni.params, 1);
    CHECK(ta.conv_ms == ts.conv_ms && ta.other_ms == ts.other_ms);
    o.optimizer = SEER_OPTIMIZER_NONE;
    CHECK_STATUS(seer_predict_network_opts(h, m, net, &o, NULL, 0, &tn), SEER_STATUS_SUCCESS);
    CHECK(tn.rows == ts.rows - 1 && tn.optimizer_ms == 0 && tn.conv_ms == ts.conv_ms);
    o.optimizer = SEER_OPTIMIZER_ADAM;
    o.mode = SEER_MODE_INFER;
    CHECK_STATUS(seer_predict_network_opts(h, m, net, &o, NULL, 0, &ti), SEER_STATUS_SUCCESS);
    CHECK(ti.optimizer_ms == 0);
    o.optimizer = (seer_optimizer_t)3;
    CHECK_STATUS(seer_predict_network_opts(h, m, net, &o, NULL, 0, &ti), SEER_STATUS_BAD_PARAM);
    CHECK(strstr(seer_get_last_error(h), "optimizer") != NULL);
    seer_network_destroy(net);
    seer_destroy(h);
}

/* Mixed precision: the same convolutions as plain fp16, plus one weight
 * cast per conv / fc forward (and its gradient's cast back in training)
 * and GradScaler's unscale in the optimizer row; fp32 is refused. */
TEST(net_predict_amp)
{
    seer_model_t m = model_for("a100-pcie-80gb", "a100-pcie-40gb");
    if (!m) SKIP("shared data not found");
    seer_handle_t h = handle();
    seer_network_t net;
    REQUIRE(seer_network_create_zoo(h, "resnet18", 0, &net) == SEER_STATUS_SUCCESS);
    seer_network_info_t ni;
    REQUIRE(seer_network_get_info(net, &ni) == SEER_STATUS_SUCCESS);
    seer_net_options_t o = SEER_NET_OPTIONS_DEFAULT;
    CHECK(o.amp == 0);
    o.batch = 32;
    o.dtype = SEER_DTYPE_FP16;
    o.layout = SEER_LAYOUT_NHWC;
    static seer_layer_result_t r[1024];
    seer_net_totals_t plain, amp;
    for (int mode = 0; mode < 2; mode++) {
        o.mode = mode ? SEER_MODE_TRAIN : SEER_MODE_INFER;
        o.amp = 0;
        CHECK_STATUS(seer_predict_network_opts(h, m, net, &o, NULL, 0, &plain), SEER_STATUS_SUCCESS);
        o.amp = 1;
        CHECK_STATUS(seer_predict_network_opts(h, m, net, &o, r, 1024, &amp), SEER_STATUS_SUCCESS);
        int casts = 0;
        double cast_bytes = 0;
        for (int i = 0; i < amp.rows; i++)
            if (r[i].flags & SEER_RESULT_AMP_CAST) {
                casts++;
                cast_bytes += r[i].bytes;
                CHECK(r[i].op == SEER_OP_CONV || r[i].op == SEER_OP_FC);
            }
        int weighted = ni.n_conv + ni.n_fc; /* every resnet18 conv and fc has weights */
        CHECK(casts == (mode ? 2 : 1) * weighted);
        CHECK(amp.rows == plain.rows + casts);
        CHECK_NEAR(cast_bytes, (mode ? 2 : 1) * 6.0 * (double)ni.params, 1e-6 * (double)ni.params);
        CHECK(amp.conv_ms == plain.conv_ms);
        CHECK(amp.other_ms > plain.other_ms);
        CHECK(mode ? amp.optimizer_ms > plain.optimizer_ms : amp.optimizer_ms == 0);
    }
    o.dtype = SEER_DTYPE_FP32;
    CHECK_STATUS(seer_predict_network_opts(h, m, net, &o, NULL, 0, &amp), SEER_STATUS_BAD_PARAM);
    CHECK(strstr(seer_get_last_error(h), "amp") != NULL);
    o.dtype = SEER_DTYPE_FP16;
    o.amp = 2;
    CHECK_STATUS(seer_predict_network_opts(h, m, net, &o, NULL, 0, &amp), SEER_STATUS_BAD_PARAM);
    seer_network_destroy(net);
    seer_destroy(h);
}

/* A dtype the GPU has no tensor cores for runs what cuDNN runs instead
 * (seer_gpu_run_dtype): TF32 on a T4 is FP32, FP16 on a GTX 1080 Ti is
 * FP16 data with FP32 math; BF16 before Ampere stays UNSUPPORTED. */
TEST(net_predict_dtype_without_tensor_cores)
{
    seer_model_t t4 = model_for("t4", "t4"), gp = model_for("gtx1080ti", NULL);
    if (!t4 || !gp) SKIP("shared data not found");
    seer_handle_t h = handle();
    seer_network_t net;
    REQUIRE(seer_network_create_zoo(h, "resnet18", 0, &net) == SEER_STATUS_SUCCESS);
    seer_net_options_t o = SEER_NET_OPTIONS_DEFAULT;
    o.batch = 16;
    o.mode = SEER_MODE_TRAIN;
    seer_net_totals_t a, b;
    o.dtype = SEER_DTYPE_TF32;
    CHECK_STATUS(seer_predict_network_opts(h, t4, net, &o, NULL, 0, &a), SEER_STATUS_SUCCESS);
    o.dtype = SEER_DTYPE_FP32;
    CHECK_STATUS(seer_predict_network_opts(h, t4, net, &o, NULL, 0, &b), SEER_STATUS_SUCCESS);
    CHECK(a.total_ms == b.total_ms && a.rows == b.rows && a.total_ms > 0);
    double g1 = 0, g2 = 0;
    CHECK_STATUS(seer_predict_gemm(h, t4, 1, 256, 1000, 2048, SEER_DTYPE_TF32, 0, 0, 1, &g1, NULL), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_predict_gemm(h, t4, 1, 256, 1000, 2048, SEER_DTYPE_FP32, 0, 0, 1, &g2, NULL), SEER_STATUS_SUCCESS);
    CHECK(g1 == g2 && g1 > 0);
    o.dtype = SEER_DTYPE_FP16;
    CHECK_STATUS(seer_predict_network_opts(h, gp, net, &o, NULL, 0, &a), SEER_STATUS_SUCCESS);
    o.dtype = SEER_DTYPE_FP16_PSEUDO;
    CHECK_STATUS(seer_predict_network_opts(h, gp, net, &o, NULL, 0, &b), SEER_STATUS_SUCCESS);
    CHECK(a.total_ms == b.total_ms && a.total_ms > 0);
    o.dtype = SEER_DTYPE_BF16;
    CHECK_STATUS(seer_predict_network_opts(h, t4, net, &o, NULL, 0, &a), SEER_STATUS_UNSUPPORTED);
    CHECK(strstr(seer_get_last_error(h), "bf16") != NULL);
    seer_network_destroy(net);
    seer_destroy(h);
}

/* The conv rows of a one-conv network in train mode: fwd, bwd_data
 * (none: the input needs no gradient), bwd_filter. */
static int one_conv_rows(seer_handle_t h, seer_model_t m, int c, int hw, int k, int groups, int batch,
                         seer_dtype_t dt, double t[3])
{
    char text[160];
    snprintf(text, sizeof text, "input c=%d h=%d w=%d\nconv k=%d size=3 pad=1 groups=%d\n", c, hw, hw, k, groups);
    seer_network_t net;
    if (seer_network_create(h, text, strlen(text), &net)) return 0;
    seer_net_options_t o = SEER_NET_OPTIONS_DEFAULT;
    o.batch = batch;
    o.mode = SEER_MODE_TRAIN;
    o.dtype = dt;
    seer_layer_result_t r[8];
    seer_net_totals_t tot;
    seer_status_t st = seer_predict_network_opts(h, m, net, &o, r, 8, &tot);
    seer_network_destroy(net);
    t[0] = t[1] = t[2] = 0;
    for (int i = 0; !st && i < tot.rows && i < 8; i++)
        if (r[i].op == SEER_OP_CONV) t[r[i].direction] = r[i].time_ms;
    return !st;
}

/* A TF32 conv whose forward pass runs FP32 kernels (the non-fused
 * Winograd, which has no TF32 ones) takes its backward passes from the
 * forward one with the FP32 ratio: the same rows as the FP32 conv (the
 * tensor-core ratio once made them 1.09x slower). */
TEST(net_backward_ratio_of_the_math_run)
{
    seer_model_t m = model_for("a100-pcie-80gb", NULL); /* forward-only */
    if (!m) SKIP("shared data not found");
    seer_handle_t h = handle();
    double f32[3], t32[3];
    REQUIRE(one_conv_rows(h, m, 256, 28, 256, 1, 32, SEER_DTYPE_FP32, f32));
    REQUIRE(one_conv_rows(h, m, 256, 28, 256, 1, 32, SEER_DTYPE_TF32, t32));
    CHECK(f32[0] > 0 && f32[0] == t32[0]);
    CHECK(f32[2] > 0 && f32[2] == t32[2]);
    seer_destroy(h);
}

/* A forward pass on SIMT kernels in tensor-core math (seer_picker_simt:
 * FP32 families' time) measures no tensor-core backward pass: like an
 * analytical one, it leaves the picker's own backward passes standing
 * (no flag B).  The picker ranks such kernels after every tensor-core
 * guess, so the forward pass is held to the plain implicit GEMM by the
 * network's policy; the shipped A100 model alone has FP32 data only. */
TEST(net_simt_forward_gives_no_backward)
{
    if (access("models/a100-pcie-80gb.seer", R_OK) != 0) SKIP("shipped models missing");
    seer_handle_t h = handle();
    seer_model_t m;
    REQUIRE(seer_model_load(h, "models/a100-pcie-80gb.seer", &m) == SEER_STATUS_SUCCESS);
    seer_conv_desc_t d;
    REQUIRE(seer_conv_desc_create(&d) == SEER_STATUS_SUCCESS);
    REQUIRE(seer_conv_desc_set(h, d, SEER_DTYPE_FP16, SEER_LAYOUT_NCHW, 64, 32, 112, 112, 32, 3, 3, 1, 1, 1, 1, 1, 1, 1) ==
            SEER_STATUS_SUCCESS);
    CHECK(seer_picker_simt(m, d, SEER_DIR_FWD, SEER_FWD_ALGO_IMPLICIT_GEMM));
    static const char text[] = "input c=32 h=112 w=112\nconv k=32 size=3 pad=1\nconv k=32 size=3 pad=1\n";
    seer_network_t net;
    REQUIRE(seer_network_create(h, text, strlen(text), &net) == SEER_STATUS_SUCCESS);
    seer_net_options_t o = SEER_NET_OPTIONS_DEFAULT;
    o.batch = 64;
    o.dtype = SEER_DTYPE_FP16;
    o.mode = SEER_MODE_TRAIN;
    o.algo_policy = SEER_FWD_ALGO_IMPLICIT_GEMM;
    seer_layer_result_t r[16];
    seer_net_totals_t tot;
    REQUIRE(seer_predict_network_opts(h, m, net, &o, r, 16, &tot) == SEER_STATUS_SUCCESS);
    int fwd = 0, bwd = 0;
    for (int i = 0; i < tot.rows && i < 16; i++) {
        if (r[i].op != SEER_OP_CONV) continue;
        if (r[i].direction == SEER_DIR_FWD) {
            fwd += r[i].algo == SEER_FWD_ALGO_IMPLICIT_GEMM;
        } else {
            CHECK(!(r[i].flags & SEER_RESULT_BWD_FROM_FWD));
            bwd++;
        }
    }
    CHECK(fwd == 2 && bwd == 3);
    seer_network_destroy(net);
    seer_conv_desc_destroy(d);
    seer_model_destroy(m);
    seer_destroy(h);
}

/* seer_conv_bwd_from_fwd says what the network's rows do: on a
 * forward-only model a dense conv's backward passes come from the
 * forward pass (flag B), a narrow grouped conv's do not (its forward is
 * analytical too), a forward pass never. */
TEST(net_bwd_from_fwd_says_what_the_rows_do)
{
    seer_model_t m = model_for("a100-pcie-80gb", NULL); /* forward-only */
    if (!m) SKIP("shared data not found");
    seer_handle_t h = handle();
    for (int g = 1; g <= 32; g += 31) {
        char text[128];
        snprintf(text, sizeof text, "input c=256 h=28 w=28\nconv k=256 size=3 pad=1 groups=%d\n"
                 "conv k=256 size=3 pad=1 groups=%d\n", g, g);
        seer_network_t net;
        REQUIRE(seer_network_create(h, text, strlen(text), &net) == SEER_STATUS_SUCCESS);
        seer_net_options_t o = SEER_NET_OPTIONS_DEFAULT;
        o.batch = 32;
        o.mode = SEER_MODE_TRAIN;
        seer_layer_result_t r[16];
        seer_net_totals_t tot;
        REQUIRE(seer_predict_network_opts(h, m, net, &o, r, 16, &tot) == SEER_STATUS_SUCCESS);
        seer_conv_desc_t d;
        REQUIRE(seer_conv_desc_create(&d) == SEER_STATUS_SUCCESS);
        REQUIRE(seer_conv_desc_set(h, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, 32, 256, 28, 28, 256, 3, 3, 1, 1, 1, 1, 1, 1,
                                   g) == SEER_STATUS_SUCCESS);
        int rows = 0;
        for (int i = 0; i < tot.rows && i < 16; i++) {
            if (r[i].op != SEER_OP_CONV) continue;
            int b = -1;
            CHECK_STATUS(seer_conv_bwd_from_fwd(h, m, d, r[i].direction, &b), SEER_STATUS_SUCCESS);
            CHECK(b == !!(r[i].flags & SEER_RESULT_BWD_FROM_FWD));
            CHECK(b == (g == 1 && r[i].direction != SEER_DIR_FWD));
            rows++;
        }
        CHECK(rows == 5); /* 2 fwd, 1 bwd_data (the first conv's input needs none), 2 bwd_filter */
        int b = 0;
        CHECK_STATUS(seer_conv_bwd_from_fwd(h, m, d, (seer_direction_t)3, &b), SEER_STATUS_BAD_PARAM);
        CHECK_STATUS(seer_conv_bwd_from_fwd(h, m, d, SEER_DIR_BWD_DATA, NULL), SEER_STATUS_BAD_PARAM);
        CHECK_STATUS(seer_conv_bwd_from_fwd(h, NULL, d, SEER_DIR_BWD_DATA, &b), SEER_STATUS_BAD_PARAM);
        seer_conv_desc_destroy(d);
        seer_network_destroy(net);
    }
    seer_conv_desc_t unset;
    REQUIRE(seer_conv_desc_create(&unset) == SEER_STATUS_SUCCESS);
    int b = 0;
    CHECK_STATUS(seer_conv_bwd_from_fwd(h, m, unset, SEER_DIR_BWD_DATA, &b), SEER_STATUS_BAD_PARAM);
    seer_conv_desc_destroy(unset);
    seer_destroy(h);
}

/* The network's conv rows keep the picker's physics in every direction,
 * the backward passes no GPU has data for included: a grouped conv is no
 * slower than the dense one, tensor-core math no slower than FP32 (a
 * grouped bwd_filter taken from its analytical forward pass by the
 * backward ratio was 1.24x the dense one on an H200; a TF32 one 1.09x
 * the FP32 one on an L4). */
TEST(net_backward_rows_keep_physics)
{
    static const char *const gpus[] = {"h200-sxm-141gb", "l4", "a100-sxm4-80gb", "t4"};
    static const int shapes[][3] = {{512, 7, 32}, {96, 112, 96}, {64, 56, 2}, {256, 14, 256}};
    seer_handle_t h = handle();
    int n = 0;
    for (size_t g = 0; g < sizeof gpus / sizeof *gpus; g++) {
        seer_model_t m;
        if (seer_model_open(h, "models", gpus[g], &m)) SKIP("shipped models not found");
        for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
            for (int batch = 1; batch <= 256; batch *= 16) {
                int c = shapes[s][0], hw = shapes[s][1], groups = shapes[s][2];
                double dense[3], grouped[3], tf[3];
                REQUIRE(one_conv_rows(h, m, c, hw, c, 1, batch, SEER_DTYPE_FP32, dense));
                REQUIRE(one_conv_rows(h, m, c, hw, c, groups, batch, SEER_DTYPE_FP32, grouped));
                REQUIRE(one_conv_rows(h, m, c, hw, c, groups, batch, SEER_DTYPE_TF32, tf));
                for (int d = 0; d < 3; d += 2, n++) {
                    if (!(grouped[d] <= 1.05 * dense[d] && tf[d] <= 1.05 * grouped[d]))
                        printf("    %s c=%d hw=%d groups=%d batch %d %s: dense %.4f grouped %.4f tf32 %.4f ms\n",
                               gpus[g], c, hw, groups, batch, seer_direction_name((seer_direction_t)d), dense[d],
                               grouped[d], tf[d]);
                    CHECK(grouped[d] > 0 && grouped[d] <= 1.05 * dense[d]);
                    CHECK(tf[d] > 0 && tf[d] <= 1.05 * grouped[d]);
                }
            }
        seer_model_destroy(m);
    }
    CHECK(n == 4 * 4 * 3 * 2);
    seer_destroy(h);
}

/* mul: equal shapes or a per-channel gate; costed as a memory-bound
 * product, two kernels backward (dx and the gate's gradient). */
TEST(net_mul_gate_and_shapes)
{
    seer_handle_t h;
    seer_model_t m;
    seer_network_t net = NULL;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    REQUIRE(seer_model_load(h, "models/a100-pcie-80gb.seer", &m) == SEER_STATUS_SUCCESS);
    static const char ok[] = "input c=8 h=4 w=4\nconv name=a k=8 size=1\npool name=g avg global\n"
                             "sigmoid name=s\nmul name=m in=a,s\nmul name=m2 in=m,a\n";
    CHECK_STATUS(seer_network_create(h, ok, strlen(ok), &net), SEER_STATUS_SUCCESS);
    if (net) {
        seer_layer_info_t L;
        seer_network_get_layer(net, 4, &L);
        CHECK(L.op == SEER_OP_MUL && L.n_inputs == 2 && L.c == 8 && L.h == 4 && L.w == 4);
        CHECK(!strcmp(seer_op_name(SEER_OP_MUL), "mul"));
        seer_layer_result_t r[32];
        int n = 0;
        double total;
        CHECK_STATUS(seer_predict_network(h, m, net, 2, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, SEER_MODE_TRAIN,
                                          SEER_ALGO_AUTO, r, 32, &n, &total), SEER_STATUS_SUCCESS);
        int fwd = 0, bwd = 0;
        for (int i = 0; i < n; i++)
            if (r[i].op == SEER_OP_MUL && r[i].layer == 4) {
                if (r[i].direction == SEER_DIR_FWD) { fwd++; CHECK(r[i].bytes == (2 * 256 + 16) * 4.0); }
                else { bwd++; CHECK(r[i].n_kernels == 2); }
            }
        CHECK(fwd == 1 && bwd == 1);
    }
    seer_network_destroy(net);
    static const char one[] = "input c=8 h=4 w=4\nmul name=m\n";
    static const char three[] = "input name=x c=8 h=4 w=4\nmul name=m in=x,x,x\n";
    net = NULL;
    CHECK_STATUS(seer_network_create(h, one, strlen(one), &net), SEER_STATUS_NET_INPUT);
    CHECK_STATUS(seer_network_create(h, three, strlen(three), &net), SEER_STATUS_NET_PARSE);
    /* the gate goes second */
    static const char bad[] = "input name=x c=8 h=4 w=4\npool name=g avg global\nmul name=m in=g,x\n";
    CHECK_STATUS(seer_network_create(h, bad, strlen(bad), &net), SEER_STATUS_NET_SHAPE);
    CHECK(net == NULL);
    seer_model_free(m);
    seer_destroy(h);
}

/* PyTorch pools with its own kernels: max pooling moves its int64
 * argmax indices with the tensors, at a share of the streaming rate
 * measured on an H200, and slower backward than forward; an average
 * pool streams x and y alone. */
TEST(net_max_pool_is_atens)
{
    seer_handle_t h;
    seer_model_t m;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    REQUIRE(seer_model_load(h, "models/a100-pcie-80gb.seer", &m) == SEER_STATUS_SUCCESS);
    /* a conv first, so that the pool's input takes a gradient */
    static const char *const text[2] = {"input c=64 h=112 w=112\nconv k=64 size=1\npool name=p max size=3 stride=2 pad=1\n",
                                        "input c=64 h=112 w=112\nconv k=64 size=1\npool name=p avg size=3 stride=2 pad=1\n"};
    double t[2][2][2] = {{{0}}}; /* [max, avg][nchw, nhwc][fwd, bwd] */
    for (int k = 0; k < 2; k++) {
        seer_network_t net = NULL;
        REQUIRE(seer_network_create(h, text[k], strlen(text[k]), &net) == SEER_STATUS_SUCCESS);
        for (int lay = 0; lay < 2; lay++) {
            seer_layer_result_t r[8];
            int n = 0;
            double total;
            CHECK_STATUS(seer_predict_network(h, m, net, 32, SEER_DTYPE_FP16, (seer_layout_t)lay, SEER_MODE_TRAIN,
                                              SEER_ALGO_AUTO, r, 8, &n, &total), SEER_STATUS_SUCCESS);
            double ein = 32.0 * 64 * 112 * 112, eout = 32.0 * 64 * 56 * 56;
            for (int i = 0; i < n; i++) {
                if (r[i].op != SEER_OP_POOL) continue;
                int b = r[i].direction != SEER_DIR_FWD;
                t[k][lay][b] = r[i].time_ms;
                CHECK(r[i].bytes == (ein + eout) * 2 + (k == 0 ? 8 * eout : 0));
            }
        }
        seer_network_destroy(net);
    }
    for (int lay = 0; lay < 2; lay++) {
        CHECK(t[0][lay][0] > 2 * t[1][lay][0]);
        CHECK(t[0][lay][1] > 2 * t[0][lay][0]);
        CHECK(t[1][lay][1] > 0);
    }
    CHECK(t[0][1][0] > t[0][0][0]); /* NHWC's forward kernel was the slower */
    seer_model_free(m);
    seer_destroy(h);
}

/* seer_conv_bwd_from_fwd writes *from_fwd on SUCCESS only: a backward
 * direction whose forward pick fails (BF16 on a Maxwell GPU: UNSUPPORTED)
 * set it to 0 before failing. */
TEST(net_bwd_from_fwd_writes_nothing_on_failure)
{
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    static const int shape[14] = {8, 64, 28, 28, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1};
    seer_handle_t h;
    seer_model_t m;
    seer_conv_desc_t d;
    REQUIRE(test_served_conv("titan-x-maxwell", SEER_DTYPE_BF16, SEER_LAYOUT_NHWC, shape, &h, &m, &d));
    for (int dir = SEER_DIR_BWD_DATA; dir <= SEER_DIR_BWD_FILTER; dir++) {
        int b = -1;
        CHECK_STATUS(seer_conv_bwd_from_fwd(h, m, d, (seer_direction_t)dir, &b), SEER_STATUS_UNSUPPORTED);
        CHECK(b == -1);
        CHECK(strstr(seer_get_last_error(h), "bf16") != NULL);
    }
    test_served_free(h, m, d);
}

/* A deconv runs as the backward data pass of the conv from its output to
 * its input: its forward is that conv's bwd_data, its input's gradient
 * that conv's forward, its weight gradient that conv's bwd_filter, and
 * each row names the algorithm in the direction cuDNN runs. */
TEST(net_deconv_is_the_transposed_conv)
{
    seer_handle_t h;
    seer_model_t m;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    REQUIRE(seer_model_load(h, "models/a100-pcie-80gb.seer", &m) == SEER_STATUS_SUCCESS);
    /* a batch norm first, so that the conv's input takes a gradient */
    static const char *const text[2] = {"input c=64 h=28 w=28\nbn\ndeconv name=x k=32 size=4 stride=2 pad=1 outpad=1\n",
                                        "input c=32 h=57 w=57\nbn\nconv name=x k=64 size=4 stride=2 pad=1\n"};
    seer_layer_result_t r[2][16];
    int n[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        seer_network_t net = NULL;
        double total;
        REQUIRE(seer_network_create(h, text[k], strlen(text[k]), &net) == SEER_STATUS_SUCCESS);
        CHECK_STATUS(seer_predict_network(h, m, net, 16, SEER_DTYPE_FP16, SEER_LAYOUT_NHWC, SEER_MODE_TRAIN,
                                          SEER_ALGO_AUTO, r[k], 16, &n[k], &total), SEER_STATUS_SUCCESS);
        seer_network_destroy(net);
    }
    int seen = 0;
    for (int i = 0; i < n[0]; i++) {
        if (r[0][i].op != SEER_OP_DECONV) continue;
        seer_direction_t d = r[0][i].direction;
        seer_direction_t run = d == SEER_DIR_FWD ? SEER_DIR_BWD_DATA : d == SEER_DIR_BWD_DATA ? SEER_DIR_FWD : d;
        for (int j = 0; j < n[1]; j++) {
            if (r[1][j].op != SEER_OP_CONV || r[1][j].direction != run) continue;
            seen++;
            CHECK(r[0][i].time_ms == r[1][j].time_ms && r[0][i].algo == r[1][j].algo &&
                  r[0][i].flops == r[1][j].flops && r[0][i].bytes == r[1][j].bytes);
            CHECK(!strcmp(seer_layer_algo_name(&r[0][i]), seer_algo_name(run, r[1][j].algo)));
            CHECK(!strcmp(seer_layer_algo_name(&r[1][j]), seer_algo_name(run, r[1][j].algo)));
        }
    }
    CHECK(seen == 3);
    CHECK(seer_layer_algo_name(NULL) == NULL);
    for (int i = 0; i < n[0]; i++)
        if (r[0][i].op == SEER_OP_BATCHNORM) CHECK(seer_layer_algo_name(&r[0][i]) == NULL);
    seer_model_free(m);
    seer_destroy(h);
}

/* A group norm computes its statistics in either mode: two passes
 * forward (3 x its elements), three backward (5 x), as a layer norm's
 * under autocast in fp32; no backward for one without parameters whose
 * input takes no gradient. */
TEST(net_groupnorm_rows)
{
    seer_handle_t h;
    seer_model_t m;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    REQUIRE(seer_model_load(h, "models/a100-pcie-80gb.seer", &m) == SEER_STATUS_SUCCESS);
    const char *text = "input c=64 h=56 w=56\ngroupnorm name=plain groups=64 learnable=0\nconv k=64 size=1\n"
                       "groupnorm name=g groups=32\ngroupnorm name=p2 groups=64 learnable=0\n";
    seer_network_t net = NULL;
    REQUIRE(seer_network_create(h, text, strlen(text), &net) == SEER_STATUS_SUCCESS);
    double e = 32.0 * 64 * 56 * 56;
    for (int mode = 0; mode < 2; mode++) {
        seer_layer_result_t r[16];
        int n = 0, fwd = 0, bwd = 0;
        double total;
        CHECK_STATUS(seer_predict_network(h, m, net, 32, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, (seer_mode_t)mode,
                                          SEER_ALGO_AUTO, r, 16, &n, &total), SEER_STATUS_SUCCESS);
        for (int i = 0; i < n; i++) {
            if (r[i].op != SEER_OP_GROUPNORM) continue;
            if (r[i].direction == SEER_DIR_FWD) {
                fwd++;
                CHECK(r[i].n_kernels == 2 && r[i].bytes == 3 * e * 4 && r[i].time_ms > 0);
            } else {
                bwd++;
                /* without parameters no dgamma, dbeta kernel */
                CHECK(r[i].n_kernels == (strcmp(r[i].name, "g") ? 2 : 3) && r[i].bytes == 5 * e * 4 &&
                      strcmp(r[i].name, "plain"));
            }
        }
        CHECK(fwd == 3 && bwd == (mode == SEER_MODE_TRAIN ? 2 : 0));
    }
    seer_network_destroy(net);
    seer_model_free(m);
    seer_destroy(h);
}

/* One op's rows of a description's prediction (the options o; the
 * network has the op once): their times by pass, bytes, count and how
 * many are under-utilized. */
typedef struct {
    double t[2]; /* forward, backward */
    double bytes;
    int rows, under;
} op_rows_t;

static op_rows_t op_rows(seer_handle_t h, seer_model_t m, const char *text, const seer_net_options_t *o,
                         seer_op_t op)
{
    op_rows_t s = {{0, 0}, 0, 0, 0};
    seer_network_t net = NULL;
    seer_layer_result_t r[64];
    seer_net_totals_t tot = {0, 0, 0, 0, 0, 0, 0};
    CHECK_STATUS(seer_network_create(h, text, strlen(text), &net), SEER_STATUS_SUCCESS);
    if (!net) return s;
    CHECK_STATUS(seer_predict_network_opts(h, m, net, o, r, 64, &tot), SEER_STATUS_SUCCESS);
    CHECK(tot.rows <= 64);
    for (int i = 0; i < tot.rows && i < 64; i++) {
        if (r[i].op != op) continue;
        s.t[r[i].direction != SEER_DIR_FWD] += r[i].time_ms;
        s.bytes += r[i].bytes;
        s.rows++;
        s.under += r[i].cls == SEER_CLASS_UNDER;
    }
    seer_network_destroy(net);
    return s;
}

/* Training batch norm in NCHW takes cuDNN's per-channel latency: at
 * least P = N*H*W times 0.6 ns forward, 1.5 ns backward for a plane of
 * P above its singleread threshold (net_predict.c), whatever C, where
 * NHWC, inference and small planes stream. */
TEST(net_batchnorm_nchw_per_channel_latency)
{
    seer_handle_t h;
    seer_model_t m;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    REQUIRE(seer_model_load(h, "models/a100-pcie-80gb.seer", &m) == SEER_STATUS_SUCCESS);
    /* MobileNet-V2's 32-channel 112x112 layer; ResNet-50's layer4 plane */
    static const char *const text[2] = {"input c=32 h=112 w=112\nconv k=32 size=1\nbn name=b\n",
                                        "input c=512 h=7 w=7\nconv k=512 size=1\nbn name=b\n"};
    for (int k = 0; k < 2; k++) {
        double P = 128.0 * (k ? 49 : 12544);
        op_rows_t s[2][2]; /* [nchw, nhwc][infer, train] */
        for (int lay = 0; lay < 2; lay++)
            for (int mode = 0; mode < 2; mode++) {
                seer_net_options_t o = SEER_NET_OPTIONS_DEFAULT;
                o.batch = 128;
                o.layout = (seer_layout_t)lay;
                o.mode = (seer_mode_t)mode;
                s[lay][mode] = op_rows(h, m, text[k], &o, SEER_OP_BATCHNORM);
            }
        const double *nchw = s[0][1].t, *nhwc = s[1][1].t;
        if (k == 0) {
            CHECK(nchw[0] >= P * 0.6e-6 && nchw[1] >= P * 1.5e-6);
            CHECK(nchw[0] > 2 * nhwc[0] && nchw[1] > 2 * nhwc[1]);
        } else {
            CHECK(nchw[0] == nhwc[0] && nchw[1] == nhwc[1]);
        }
        /* inference: one elementwise pass */
        CHECK(s[0][0].t[0] == s[1][0].t[0] && s[0][0].t[0] > 0);
    }
    seer_model_free(m);
    seer_destroy(h);
}

/* A channels-last group norm adds PyTorch's two layout copies per pass
 * (x or dy to NCHW in fp32 under autocast, y or dx back in the compute
 * dtype): one row of its own each way. */
TEST(net_groupnorm_nhwc_layout_copies)
{
    seer_handle_t h;
    seer_model_t m;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    REQUIRE(seer_model_load(h, "models/a100-pcie-80gb.seer", &m) == SEER_STATUS_SUCCESS);
    const char *text = "input c=64 h=56 w=56\nconv k=64 size=1\ngroupnorm name=g groups=32\nconv k=64 size=1\n";
    double e = 32.0 * 64 * 56 * 56;
    op_rows_t s[2]; /* nchw, nhwc */
    for (int lay = 0; lay < 2; lay++) {
        seer_net_options_t o = SEER_NET_OPTIONS_DEFAULT;
        o.batch = 32;
        o.layout = (seer_layout_t)lay;
        o.mode = SEER_MODE_TRAIN;
        o.dtype = SEER_DTYPE_FP16;
        o.amp = 1;
        s[lay] = op_rows(h, m, text, &o, SEER_OP_GROUPNORM);
    }
    /* forward and backward: one copy row each, x and y (dy and dx) */
    CHECK(s[1].rows == s[0].rows + 2 && s[1].bytes == s[0].bytes + 2 * (2 * e * (4 + 2)));
    CHECK(s[1].t[0] + s[1].t[1] > s[0].t[0] + s[0].t[1]);
    seer_model_free(m);
    seer_destroy(h);
}

/* A layer norm written out in element-wise ops (unfused=1: ConvNeXt's
 * reference channels-first one) runs them as kernels of their own: 12 of
 * x's element passes in 9 kernels forward, 25 in 14 backward
 * (net_predict.c), so it costs more than the fused one in either pass. */
TEST(net_layernorm_unfused_runs_its_ops)
{
    seer_handle_t h;
    seer_model_t m;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    REQUIRE(seer_model_load(h, "models/a100-pcie-80gb.seer", &m) == SEER_STATUS_SUCCESS);
    seer_net_options_t o = SEER_NET_OPTIONS_DEFAULT;
    o.batch = 64;
    o.mode = SEER_MODE_TRAIN;
    op_rows_t f = op_rows(h, m, "input c=96 h=56 w=56\nconv k=96 size=4 stride=4\nlayernorm name=n\n", &o,
                          SEER_OP_LAYERNORM);
    op_rows_t u = op_rows(h, m, "input c=96 h=56 w=56\nconv k=96 size=4 stride=4\nlayernorm name=n unfused=1\n", &o,
                          SEER_OP_LAYERNORM);
    double e = 64.0 * 96 * 14 * 14 * 4; /* x's bytes */
    CHECK(u.rows == 2 && fabs(u.bytes - 37 * e) < 1e-6 * e);
    CHECK(u.t[0] > f.t[0] && u.t[1] > f.t[1]);
    seer_network_t net = NULL;
    seer_layer_result_t r[8];
    seer_net_totals_t tot = {0, 0, 0, 0, 0, 0, 0};
    static const char text[] = "input c=96 h=56 w=56\nconv k=96 size=4 stride=4\nlayernorm name=n unfused=1\n";
    REQUIRE(seer_network_create(h, text, strlen(text), &net) == SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_predict_network_opts(h, m, net, &o, r, 8, &tot), SEER_STATUS_SUCCESS);
    for (int i = 0; i < tot.rows && i < 8; i++)
        if (r[i].op == SEER_OP_LAYERNORM) CHECK(r[i].n_kernels == (r[i].direction == SEER_DIR_FWD ? 9 : 14));
    /* training keeps x - mean and the quotient, where the fused one keeps
     * x and 8 bytes a position: one tensor of x's size more, less the
     * statistics (the same before net_memory.c told them apart) */
    seer_net_memory_t mu, mf;
    seer_network_t fused = NULL;
    static const char ftext[] = "input c=96 h=56 w=56\nconv k=96 size=4 stride=4\nlayernorm name=n\n";
    REQUIRE(seer_network_create(h, ftext, strlen(ftext), &fused) == SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_network_memory(h, m, net, &o, &mu), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_network_memory(h, m, fused, &o, &mf), SEER_STATUS_SUCCESS);
    CHECK(mu.activations > mf.activations);
    seer_network_destroy(fused);
    seer_network_destroy(net);
    seer_model_free(m);
    seer_destroy(h);
}

/* A layer norm of short rows is bound by PyTorch's CTA a row: at least
 * rows x 1.68 ns x 132 / SMs forward, 2.1 backward (net_predict.c); a
 * wide one (few rows of many values) streams: its time is its bytes'. */
TEST(net_layernorm_row_latency)
{
    seer_handle_t h;
    seer_model_t m;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    REQUIRE(seer_model_load(h, "models/a100-pcie-80gb.seer", &m) == SEER_STATUS_SUCCESS);
    static const char *const text[2] = {"input c=96 h=56 w=56\nconv k=96 size=1\nlayernorm name=n\n",
                                        "input c=8192 h=1 w=1\nconv k=8192 size=1\nlayernorm name=n\n"};
    double sms = m->gpu.sms;
    for (int k = 0; k < 2; k++) {
        double rows = 64.0 * (k ? 1 : 56 * 56);
        seer_net_options_t o = SEER_NET_OPTIONS_DEFAULT;
        o.batch = 64;
        o.layout = SEER_LAYOUT_NHWC;
        o.mode = SEER_MODE_TRAIN;
        op_rows_t s = op_rows(h, m, text[k], &o, SEER_OP_LAYERNORM);
        CHECK(s.rows == 2 && s.under == (k == 0 ? 2 : 0));
        if (k == 0) CHECK(s.t[0] >= rows * 1.68e-6 * 132 / sms && s.t[1] >= rows * 2.1e-6 * 132 / sms);
        else CHECK(s.t[0] > rows * 1.68e-6 * 132 / sms + 0.003); /* above the floor and its 3 us launch */
    }
    seer_model_free(m);
    seer_destroy(h);
}

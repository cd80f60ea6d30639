/* gemm.c: the GEMM time and class (monotone in every size, the half-wave
 * boundary in tiles), the 20 % GEMM test split, the fit (recovery from
 * noiseless rows, which GPU's rows train which model, the row minimum)
 * and seer_predict_gemm on a model built by hand (no shared data). */
#include <stdlib.h>
#include "common.h"
#include "gemm.h"
#include "gpu.h"
#include "test.h"

/* A100: 108 SMs; two resident 128x64 tiles per SM, B_max = 216. */
static seer_gemm_fit_t a_fit(void)
{
    seer_gemm_fit_t f;
    memset(&f, 0, sizeof f);
    f.present = 1;
    f.tm = 128;
    f.tn = 64;
    f.bps = 2;
    /* the constant (launch gaps) keeps coefficient 1, as seer_gemm_fit fixes it */
    const double c[SEER_GEMM_TERMS] = {1.1, 0.8, 1.3, 1.0, 1.0};
    memcpy(f.coef, c, sizeof c);
    return f;
}

static double gt(const seer_gemm_fit_t *f, double b, double m, double n, double k, seer_dtype_t dt,
                 int bias, seer_class_t *cls)
{
    return seer_gemm_time(seer_gpu_lookup("a100-pcie-80gb"), f, b, m, n, k, dt, bias, cls);
}

TEST(gemm_time_monotone_in_every_size)
{
    seer_gemm_fit_t f = a_fit();
    REQUIRE(seer_gpu_lookup("a100-pcie-80gb") != NULL);
    for (int dim = 0; dim < 4; dim++) {
        double prev = 0;
        int mono = 1;
        for (double v = 1; v <= 20000; v += v < 300 ? 7 : 331) {
            double s[4] = {2, 512, 384, 256}; /* batch, m, n, k */
            s[dim] = dim == 0 ? 1 + v / 100 : v;
            double t = gt(&f, s[0], s[1], s[2], s[3], SEER_DTYPE_FP32, 0, NULL);
            mono &= t >= prev && t > 0;
            prev = t;
        }
        CHECK(mono);
    }
    /* clearly more work: clearly more time */
    CHECK(gt(&f, 1, 4096, 4096, 4096, SEER_DTYPE_FP32, 0, NULL) >
          4 * gt(&f, 1, 1024, 4096, 4096, SEER_DTYPE_FP32, 0, NULL) / 1.5);
    CHECK(gt(&f, 8, 2048, 2048, 2048, SEER_DTYPE_FP32, 0, NULL) >
          6 * gt(&f, 1, 2048, 2048, 2048, SEER_DTYPE_FP32, 0, NULL));
    /* the bias is the GEMM kernel's epilogue: its vector read (batch * n
     * * es at bandwidth), no kernel of its own */
    const seer_gpu_info_t *a100 = seer_gpu_lookup("a100-pcie-80gb");
    double bw_ms = seer_gpu_dram_bw(a100) / 1e3;
    double t0 = gt(&f, 3, 1000, 500, 64, SEER_DTYPE_FP32, 0, NULL);
    double t1 = gt(&f, 3, 1000, 500, 64, SEER_DTYPE_FP32, 1, NULL);
    CHECK_NEAR(t1 - t0, f.coef[SEER_G_OUT] * 3 * 500 * 4 / bw_ms, 1e-9);
    CHECK(t1 - t0 < 0.01 * t0);
    /* tensor-core math with half the bytes: faster with the same coefficients */
    CHECK(gt(&f, 1, 4096, 4096, 4096, SEER_DTYPE_FP16, 0, NULL) <
          gt(&f, 1, 4096, 4096, 4096, SEER_DTYPE_FP32, 0, NULL));
    /* a fit of zeros predicts the floor: the roofline plus the launch
     * gaps (a transfer's fit can lose the FLOP-proportional time, never
     * beat the GPU's peak) */
    seer_gemm_fit_t z;
    memset(&z, 0, sizeof z);
    z.present = 1;
    z.tm = z.tn = 64;
    z.bps = 1;
    double floor_ms = 0;
    for (int bias = 0; bias < 2; bias++)
        for (int e = 6; e <= 12; e += 3) {
            REQUIRE(seer_gemm_floor(NULL, a100, 1, 1 << e, 1 << e, 1 << e, SEER_DTYPE_FP32, bias, &floor_ms) == 0);
            CHECK(floor_ms > 0);
            CHECK_NEAR(gt(&z, 1, 1 << e, 1 << e, 1 << e, SEER_DTYPE_FP32, bias, NULL), floor_ms, 1e-12);
        }
}

TEST(gemm_class_half_wave_and_terms)
{
    seer_gemm_fit_t f = a_fit();
    seer_class_t c = (seer_class_t)-1;
    /* 108 tiles of 128x64 are exactly half of B_max = 216: not under */
    gt(&f, 1, 128 * 108, 64, 4096, SEER_DTYPE_FP32, 0, &c);
    CHECK(c != SEER_CLASS_UNDER && c != (seer_class_t)-1);
    gt(&f, 1, 128 * 107, 64, 4096, SEER_DTYPE_FP32, 0, &c);
    CHECK(c == SEER_CLASS_UNDER);
    /* the batch counts tiles too */
    gt(&f, 2, 128 * 54, 64, 4096, SEER_DTYPE_FP32, 0, &c);
    CHECK(c != SEER_CLASS_UNDER);
    gt(&f, 1, 64, 64, 64, SEER_DTYPE_FP32, 0, &c);
    CHECK(c == SEER_CLASS_UNDER);
    /* square and deep: compute; k = 1 (an outer product): writing C dominates */
    gt(&f, 1, 8192, 8192, 8192, SEER_DTYPE_FP32, 0, &c);
    CHECK(c == SEER_CLASS_COMPUTE);
    gt(&f, 1, 8192, 8192, 1, SEER_DTYPE_FP32, 0, &c);
    CHECK(c == SEER_CLASS_DRAM);
    /* the class follows the work, not the fitted coefficients: a fit
     * that put all its time on the panel term (as the shipped ones
     * nearly do) still has a compute-bound 8192^3 */
    seer_gemm_fit_t mem = f;
    mem.coef[0] = 0;
    gt(&mem, 1, 8192, 8192, 8192, SEER_DTYPE_FP32, 0, &c);
    CHECK(c == SEER_CLASS_COMPUTE);
    /* the class does not change the time; cls may be NULL */
    CHECK(gt(&f, 1, 8192, 8192, 1, SEER_DTYPE_FP32, 0, &c) == gt(&f, 1, 8192, 8192, 1, SEER_DTYPE_FP32, 0, NULL));
    /* time and class are monotone together: once compute-bound, bigger k stays so */
    int stays = 1;
    for (int k = 8192; k <= 65536; k *= 2) {
        gt(&f, 1, 8192, 8192, k, SEER_DTYPE_FP32, 0, &c);
        stays &= c == SEER_CLASS_COMPUTE;
    }
    CHECK(stays);
}

static seer_gemm_row_t row(const char *gpu, int b, int m, int n, int k, seer_dtype_t dt, int bias, double ms)
{
    seer_gemm_row_t r;
    memset(&r, 0, sizeof r);
    seer_strlcpy(r.gpu, gpu, sizeof r.gpu);
    seer_strlcpy(r.op, "gemm", sizeof r.op);
    r.batch = b;
    r.m = m;
    r.n = n;
    r.k = k;
    r.dtype = dt;
    r.bias = bias;
    r.time_ms = ms;
    return r;
}

TEST(gemm_test_split_definition)
{
    /* the split is seer_in_test_split over batch, m, n, k, trans_a,
     * trans_b, bias, dtype in that order: the held-out GEMM rows of the
     * shipped models depend on it */
    int in = 0, n = 0, same = 1;
    for (int m = 16; m <= 4096; m += 16)
        for (int k = 1; k <= 31; k += 3) {
            seer_gemm_row_t r = row("a100-pcie-40gb", 1 + m % 3, m, 2 * k + 7, k * 64, SEER_DTYPE_FP32, k % 2, 1.0);
            r.trans_b = m % 5 == 0;
            const int32_t v[8] = {r.batch, r.m, r.n, r.k, r.trans_a, r.trans_b, r.bias, (int32_t)r.dtype};
            int x = seer_gemm_in_test_split(&r);
            same &= x == seer_in_test_split(v, 8);
            /* never the time, the GPU, the op or the line */
            seer_gemm_row_t o = r;
            o.time_ms = 77;
            seer_strlcpy(o.gpu, "t4", sizeof o.gpu);
            seer_strlcpy(o.op, "linear", sizeof o.op);
            o.line = 12345;
            seer_strlcpy(o.main_kernel, "ampere_sgemm_128x64_nn", sizeof o.main_kernel);
            same &= x == seer_gemm_in_test_split(&o);
            in += x;
            n++;
        }
    CHECK(same);
    CHECK(in > 0.17 * n && in < 0.23 * n);
    /* every shape field takes part */
    int flips[8] = {0};
    for (int m = 1; m <= 200; m++) {
        seer_gemm_row_t r = row("x", 1, m, 64, 64, SEER_DTYPE_FP32, 0, 1.0);
        int x = seer_gemm_in_test_split(&r);
        for (int fld = 0; fld < 8; fld++) {
            seer_gemm_row_t o = r;
            switch (fld) {
            case 0: o.batch = 2; break;
            case 1: o.m = m + 1000; break;
            case 2: o.n = 65; break;
            case 3: o.k = 65; break;
            case 4: o.trans_a = 1; break;
            case 5: o.trans_b = 1; break;
            case 6: o.bias = 1; break;
            default: o.dtype = SEER_DTYPE_FP16; break;
            }
            flips[fld] += seer_gemm_in_test_split(&o) != x;
        }
    }
    for (int fld = 0; fld < 8; fld++) CHECK(flips[fld] > 0);
}

/* n rows for gpu whose times the fit f gives exactly on GPU src. */
static size_t exact_rows(seer_gemm_row_t *out, size_t n, const char *gpu, const seer_gemm_fit_t *f,
                         seer_dtype_t dt, unsigned seed)
{
    const seer_gpu_info_t *g = seer_gpu_lookup(gpu);
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        int b = 1 + (seed >> 28) % 4, m = 16 << ((seed >> 8) % 9), nn = 16 << ((seed >> 12) % 9),
            k = 16 << ((seed >> 16) % 9), bias = (seed >> 20) & 1;
        out[i] = row(gpu, b, m, nn, k, dt, bias, seer_gemm_time(g, f, b, m, nn, k, dt, bias, NULL));
        out[i].line = (long)i + 2;
    }
    return n;
}

static struct seer_model *model_of(const char *gpu)
{
    struct seer_model *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->gpu = *seer_gpu_lookup(gpu);
    seer_strlcpy(m->gpu_id, m->gpu.id, sizeof m->gpu_id);
    return m;
}

/* The rows of both kinds (model.h) a fit of math type f[] has, summed;
 * the GPU that trained them ("mixed" when the kinds disagree). */
static int kind_rows(const seer_gemm_fit_t f[SEER_GEMM_KINDS])
{
    return (f[0].present ? f[0].n_rows : 0) + (f[1].present ? f[1].n_rows : 0);
}

static const char *kind_source(const seer_gemm_fit_t f[SEER_GEMM_KINDS])
{
    if (f[0].present && f[1].present && strcmp(f[0].source_gpu, f[1].source_gpu)) return "mixed";
    return f[0].present ? f[0].source_gpu : f[1].present ? f[1].source_gpu : "";
}

TEST(gemm_fit_recovers_noiseless_rows)
{
    seer_gemm_fit_t truth = a_fit();
    truth.tm = 128;
    truth.tn = 128;
    seer_gemm_row_t rows[120];
    exact_rows(rows, 120, "a100-pcie-80gb", &truth, SEER_DTYPE_FP32, 1);
    struct seer_model *m = model_of("a100-pcie-80gb");
    REQUIRE(m != NULL);
    seer_gemm_fit_t out[2][SEER_GEMM_KINDS], again[2][SEER_GEMM_KINDS];
    CHECK_STATUS(seer_gemm_fit(NULL, m, rows, 120, out), SEER_STATUS_SUCCESS);
    /* a fit per kind, one product and batched, from their own rows */
    REQUIRE(out[0][0].present && out[0][1].present);
    CHECK(!out[1][0].present && !out[1][1].present); /* no tensor-core rows */
    CHECK(kind_rows(out[0]) == 120);
    CHECK(strcmp(kind_source(out[0]), "a100-pcie-80gb") == 0);
    /* the generating tile is found and new shapes are predicted as the truth does */
    seer_gemm_row_t fresh[40];
    exact_rows(fresh, 40, "a100-pcie-80gb", &truth, SEER_DTYPE_FP32, 777);
    for (int kind = 0; kind < SEER_GEMM_KINDS; kind++) {
        CHECK(out[0][kind].tm == 128 && out[0][kind].tn == 128 && out[0][kind].bps == 2);
        double worst = 0;
        for (int i = 0; i < 40; i++) {
            double p = gt(&out[0][kind], fresh[i].batch, fresh[i].m, fresh[i].n, fresh[i].k, SEER_DTYPE_FP32,
                          fresh[i].bias, NULL);
            worst = fmax(worst, fabs(p / fresh[i].time_ms - 1));
        }
        CHECK(worst < 1e-4);
    }
    /* deterministic */
    CHECK_STATUS(seer_gemm_fit(NULL, m, rows, 120, again), SEER_STATUS_SUCCESS);
    CHECK(memcmp(out, again, sizeof out) == 0);
    free(m);
}

/* cuBLAS tiles batched products apart from single ones (gemm.c): each
 * kind's rows find their own tile, and a prediction takes its kind's fit,
 * or the other kind's on a GPU timed on one kind only. */
TEST(gemm_fit_per_kind)
{
    seer_gemm_fit_t one = a_fit(), batched = a_fit();
    one.tm = 32;
    one.tn = 64;
    batched.tm = batched.tn = 128;
    batched.bps = 1;
    enum { N = 60 };
    seer_gemm_row_t rows[2 * N];
    exact_rows(rows, N, "a100-pcie-80gb", &one, SEER_DTYPE_FP32, 11);
    exact_rows(rows + N, N, "a100-pcie-80gb", &batched, SEER_DTYPE_FP32, 12);
    size_t n = 0; /* keep each generator's own kind */
    for (size_t i = 0; i < 2 * N; i++)
        if ((rows[i].batch > 1) == (i >= N)) rows[n++] = rows[i];
    struct seer_model *m = model_of("a100-pcie-80gb");
    REQUIRE(m != NULL);
    CHECK_STATUS(seer_gemm_fit(NULL, m, rows, n, m->gemm), SEER_STATUS_SUCCESS);
    REQUIRE(m->gemm[0][0].present && m->gemm[0][1].present);
    CHECK(m->gemm[0][0].tm == 32 && m->gemm[0][0].tn == 64);
    CHECK(m->gemm[0][1].tm == 128 && m->gemm[0][1].tn == 128 && m->gemm[0][1].bps == 1);
    CHECK(seer_model_gemm_fit(m, 0, 1) == &m->gemm[0][0]);
    CHECK(seer_model_gemm_fit(m, 0, 3) == &m->gemm[0][1]);
    /* under 8 rows of one kind: one fit of both, no row left out */
    size_t ones = 0;
    while (ones < n && rows[ones].batch == 1) ones++;
    seer_gemm_fit_t few[2][SEER_GEMM_KINDS];
    REQUIRE(ones >= 8 && n - ones >= 8);
    CHECK_STATUS(seer_gemm_fit(NULL, m, rows, ones + 7, few), SEER_STATUS_SUCCESS);
    CHECK(few[0][0].present && few[0][0].n_rows == (int)ones + 7 && !few[0][1].present);
    /* in the slot of the kind most of them are: 7 single, the rest batched */
    CHECK_STATUS(seer_gemm_fit(NULL, m, rows + ones - 7, n - ones + 7, few), SEER_STATUS_SUCCESS);
    CHECK(!few[0][0].present && few[0][1].present && few[0][1].n_rows == (int)(n - ones) + 7);
    double t1 = seer_model_gemm_own_time(m, 1, 100, 40, 500, SEER_DTYPE_FP32, 0),
           t3 = seer_model_gemm_own_time(m, 3, 100, 40, 500, SEER_DTYPE_FP32, 0);
    CHECK(t1 == seer_gemm_time(&m->gpu, &m->gemm[0][0], 1, 100, 40, 500, SEER_DTYPE_FP32, 0, NULL));
    CHECK(t3 == seer_gemm_time(&m->gpu, &m->gemm[0][1], 3, 100, 40, 500, SEER_DTYPE_FP32, 0, NULL));
    CHECK(fabs(t3 / seer_gemm_time(&m->gpu, &batched, 3, 100, 40, 500, SEER_DTYPE_FP32, 0, NULL) - 1) < 1e-4);
    /* one kind only: the other kind is timed with it */
    m->gemm[0][1].present = 0;
    CHECK(seer_model_gemm_fit(m, 0, 3) == &m->gemm[0][0]);
    m->gemm[0][1].present = 1;
    m->gemm[0][0].present = 0;
    CHECK(seer_model_gemm_fit(m, 0, 1) == &m->gemm[0][1]);
    m->gemm[0][1].present = 0;
    CHECK(!seer_model_gemm_fit(m, 0, 1)->present);
    free(m);
}

TEST(gemm_fit_which_rows_train)
{
    seer_gemm_fit_t truth = a_fit();
    enum { N = 80 }; /* of both kinds, at least 8 each */
    seer_gemm_row_t *r = calloc(4 * N, sizeof *r);
    REQUIRE(r != NULL);
    struct seer_model *m = model_of("a100-pcie-80gb");
    REQUIRE(m != NULL);
    seer_gemm_fit_t out[2][SEER_GEMM_KINDS];
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);

    /* nothing, or only GPUs of another architecture or SM count: no fit */
    CHECK_STATUS(seer_gemm_fit(h, m, NULL, 0, out), SEER_STATUS_SUCCESS);
    CHECK(!kind_rows(out[0]) && !kind_rows(out[1]));
    exact_rows(r, N, "t4", &truth, SEER_DTYPE_FP32, 3);
    exact_rows(r + N, N, "a30", &truth, SEER_DTYPE_FP32, 4); /* Ampere, 56 SMs */
    CHECK_STATUS(seer_gemm_fit(h, m, r, 2 * N, out), SEER_STATUS_SUCCESS);
    CHECK(!kind_rows(out[0]) && !kind_rows(out[1]));

    /* a sibling (same architecture, SMs and clock) trains it */
    exact_rows(r, N, "a100-pcie-40gb", &truth, SEER_DTYPE_FP32, 5);
    CHECK_STATUS(seer_gemm_fit(h, m, r, 2 * N, out), SEER_STATUS_SUCCESS);
    CHECK(kind_rows(out[0]) == N && strcmp(kind_source(out[0]), "a100-pcie-40gb") == 0);
    /* among siblings the one with more rows, on a tie the smaller id */
    exact_rows(r + N, N + 1, "a100-sxm4-40gb", &truth, SEER_DTYPE_FP32, 6);
    CHECK_STATUS(seer_gemm_fit(h, m, r, 2 * N + 1, out), SEER_STATUS_SUCCESS);
    CHECK(strcmp(kind_source(out[0]), "a100-sxm4-40gb") == 0 && kind_rows(out[0]) == N + 1);
    CHECK_STATUS(seer_gemm_fit(h, m, r, 2 * N, out), SEER_STATUS_SUCCESS);
    CHECK(strcmp(kind_source(out[0]), "a100-pcie-40gb") == 0);
    /* own rows always win, however few: under 8 of each kind, one fit of both */
    exact_rows(r + 2 * N, 9, "a100-pcie-80gb", &truth, SEER_DTYPE_FP32, 7);
    CHECK_STATUS(seer_gemm_fit(h, m, r, 2 * N + 9, out), SEER_STATUS_SUCCESS);
    CHECK(strcmp(kind_source(out[0]), "a100-pcie-80gb") == 0 && kind_rows(out[0]) == 9);
    CHECK(!(out[0][0].present && out[0][1].present));
    /* aliases name the same GPU ("a100" is the SXM4 40GB) */
    exact_rows(r, N, "A100", &truth, SEER_DTYPE_FP32, 8);
    CHECK_STATUS(seer_gemm_fit(h, m, r, N, out), SEER_STATUS_SUCCESS);
    CHECK(strcmp(kind_source(out[0]), "a100-sxm4-40gb") == 0);

    /* the minimum is 8 usable rows of a math type; unusable rows do not count */
    exact_rows(r, 8, "a100-pcie-80gb", &truth, SEER_DTYPE_FP32, 9);
    CHECK_STATUS(seer_gemm_fit(h, m, r, 8, out), SEER_STATUS_SUCCESS);
    CHECK(kind_rows(out[0]) == 8);
    CHECK_STATUS(seer_gemm_fit(h, m, r, 7, out), SEER_STATUS_SUCCESS);
    CHECK(!kind_rows(out[0]));
    r[0].time_ms = 0;
    r[1].time_ms = NAN;
    r[2].m = 0;
    CHECK_STATUS(seer_gemm_fit(h, m, r, 8, out), SEER_STATUS_SUCCESS);
    CHECK(!kind_rows(out[0]));

    /* each math type from its own rows: fp16 trains the tensor-core fit */
    exact_rows(r, N, "a100-pcie-80gb", &truth, SEER_DTYPE_FP16, 10);
    CHECK_STATUS(seer_gemm_fit(h, m, r, N, out), SEER_STATUS_SUCCESS);
    CHECK(!kind_rows(out[0]) && kind_rows(out[1]) == N);
    CHECK_STATUS(seer_gemm_fit(h, NULL, r, N, out), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_gemm_fit(h, m, NULL, 3, out), SEER_STATUS_BAD_PARAM);
    seer_destroy(h);
    free(m);
    free(r);
}

TEST(gemm_predict_on_hand_built_model)
{
    struct seer_model *m = model_of("t4");
    REQUIRE(m != NULL);
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    m->gemm[0][0] = a_fit();
    double t = -1;
    CHECK_STATUS(seer_predict_gemm(h, m, 2, 300, 200, 100, SEER_DTYPE_FP32, 1, 0, 1, &t, NULL), SEER_STATUS_SUCCESS);
    CHECK(t == seer_gemm_time(&m->gpu, &m->gemm[0][0], 2, 300, 200, 100, SEER_DTYPE_FP32, 1, NULL));
    /* fp16 pseudo runs on the SIMT fit; tensor-core math has none */
    CHECK_STATUS(seer_predict_gemm(h, m, 1, 64, 64, 64, SEER_DTYPE_FP16_PSEUDO, 0, 0, 0, &t, NULL), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_predict_gemm(h, m, 1, 64, 64, 64, SEER_DTYPE_FP16, 0, 0, 0, &t, NULL), SEER_STATUS_NOT_CALIBRATED);
    CHECK(strstr(seer_get_last_error(h), "tensor-core") != NULL);
    /* Turing has no bf16 */
    CHECK_STATUS(seer_predict_gemm(h, m, 1, 64, 64, 64, SEER_DTYPE_BF16, 0, 0, 0, &t, NULL), SEER_STATUS_UNSUPPORTED);
    CHECK(strstr(seer_get_last_error(h), "bf16") != NULL);
    CHECK_STATUS(seer_predict_gemm(h, m, 1, 64, 64, 64, (seer_dtype_t)5, 0, 0, 0, &t, NULL), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_predict_gemm(h, m, 1, 64, 64, 64, SEER_DTYPE_FP32, 0, -1, 0, &t, NULL), SEER_STATUS_BAD_PARAM);
    CHECK(strstr(seer_get_last_error(h), "trans_b") != NULL);
    CHECK_STATUS(seer_predict_gemm(h, m, 1, 64, 64, 64, SEER_DTYPE_FP32, 0, 0, 3, &t, NULL), SEER_STATUS_BAD_PARAM);
    CHECK(strstr(seer_get_last_error(h), "bias") != NULL);
    CHECK_STATUS(seer_predict_gemm(h, m, 1, 64, 0, 64, SEER_DTYPE_FP32, 0, 0, 0, &t, NULL), SEER_STATUS_BAD_SHAPE);
    CHECK(strstr(seer_get_last_error(h), "GEMM n") != NULL);
    CHECK_STATUS(seer_predict_gemm(h, m, 1, 64, 64, -2, SEER_DTYPE_FP32, 0, 0, 0, &t, NULL), SEER_STATUS_BAD_SHAPE);
    /* one matrix of 2^31 elements is too many; 2^31 - 1 is not */
    CHECK_STATUS(seer_predict_gemm(h, m, 1, 65536, 8, 32768, SEER_DTYPE_FP32, 0, 0, 0, &t, NULL), SEER_STATUS_OVERFLOW);
    CHECK_STATUS(seer_predict_gemm(h, m, 1, INT32_MAX, 1, 1, SEER_DTYPE_FP32, 0, 0, 0, &t, NULL), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_predict_gemm(h, m, 1, 64, 64, 64, SEER_DTYPE_FP32, 0, 0, 0, NULL, NULL), SEER_STATUS_BAD_PARAM);
    seer_destroy(h);
    free(m);
}

/* The public GEMM bounds (seer eval's baseline and the host-time
 * floors): the floor is the roofline plus the launch gaps, the row
 * version is the shape version, and a GPU without the math has no bound. */
TEST(gemm_public_roofline_floor_split)
{
    const seer_gpu_info_t *g = seer_gpu_lookup("v100-sxm2-16gb"), *p = seer_gpu_lookup("gtx1080ti");
    REQUIRE(g && p);
    double roof = 0, floor = 0;
    CHECK_STATUS(seer_roofline_gemm(NULL, g, 2, 512, 1024, 256, SEER_DTYPE_FP16, &roof), SEER_STATUS_SUCCESS);
    double fl = 2.0 * 2 * 512 * 1024 * 256 / seer_gpu_peak_flops(g, SEER_DTYPE_FP16);
    double by = 2.0 * (512.0 * 256 + 256.0 * 1024 + 512.0 * 1024) * 2 / seer_gpu_dram_bw(g);
    CHECK(roof == 1e3 * (fl > by ? fl : by));
    CHECK_STATUS(seer_gemm_floor(NULL, g, 2, 512, 1024, 256, SEER_DTYPE_FP16, 1, &floor), SEER_STATUS_SUCCESS);
    /* one kernel, the bias vector read by its epilogue */
    double byb = 2.0 * (512.0 * 256 + 256.0 * 1024 + 513.0 * 1024) * 2 / seer_gpu_dram_bw(g);
    CHECK_NEAR(floor, 1e3 * (fl > byb ? fl : byb) + seer_gpu_launch_gap_ms(g), 1e-12);
    double f7 = -1; /* a bias is 0 or 1, as seer_predict_gemm takes it */
    CHECK_STATUS(seer_gemm_floor(NULL, g, 2, 512, 1024, 256, SEER_DTYPE_FP16, 7, &f7), SEER_STATUS_BAD_PARAM);
    CHECK(f7 == -1);
    seer_gemm_row_t r = row("v100-sxm2-16gb", 2, 512, 1024, 256, SEER_DTYPE_FP16, 1, 1.0);
    CHECK(seer_gemm_floor_ms(NULL, &r) == floor);
    CHECK(seer_gemm_in_test_split(&r) == seer_gemm_shape_in_test_split(2, 512, 1024, 256, r.trans_a, r.trans_b, 1,
                                                                        SEER_DTYPE_FP16));
    /* FP16 on a Pascal GPU runs as FP16 data with FP32 math (seer_gpu_run_dtype);
     * BF16 it cannot run at all */
    double pseudo = 0;
    CHECK_STATUS(seer_roofline_gemm(NULL, p, 2, 512, 1024, 256, SEER_DTYPE_FP16, &roof), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_roofline_gemm(NULL, p, 2, 512, 1024, 256, SEER_DTYPE_FP16_PSEUDO, &pseudo), SEER_STATUS_SUCCESS);
    CHECK(roof == pseudo && roof > 0);
    CHECK_STATUS(seer_roofline_gemm(NULL, p, 2, 512, 1024, 256, SEER_DTYPE_BF16, &roof), SEER_STATUS_UNSUPPORTED);
    CHECK_STATUS(seer_gemm_floor(NULL, p, 2, 512, 1024, 256, SEER_DTYPE_BF16, 0, &floor), SEER_STATUS_SUCCESS);
    CHECK(floor == 0);
    CHECK_STATUS(seer_gemm_floor(NULL, g, 1, 0, 1, 1, SEER_DTYPE_FP32, 0, &floor), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_gemm_floor(NULL, g, 1, 1, 1, 1, (seer_dtype_t)9, 0, &floor), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_roofline_gemm(NULL, g, 0, 512, 1024, 256, SEER_DTYPE_FP32, &roof), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_roofline_gemm(NULL, NULL, 1, 1, 1, 1, SEER_DTYPE_FP32, &roof), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_gemm_floor(NULL, g, 1, 1, 1, 1, SEER_DTYPE_FP32, 0, NULL), SEER_STATUS_BAD_PARAM);
    int tc = -1;
    CHECK(seer_dtype_tensor_cores(SEER_DTYPE_FP32, &tc) == SEER_STATUS_SUCCESS && tc == 0);
    CHECK(seer_dtype_tensor_cores(SEER_DTYPE_FP16_PSEUDO, &tc) == SEER_STATUS_SUCCESS && tc == 0);
    CHECK(seer_dtype_tensor_cores(SEER_DTYPE_BF16, &tc) == SEER_STATUS_SUCCESS && tc == 1);
    CHECK(seer_dtype_tensor_cores(SEER_DTYPE_TF32, &tc) == SEER_STATUS_SUCCESS && tc == 1);
    CHECK_STATUS(seer_dtype_tensor_cores((seer_dtype_t)99, &tc), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_dtype_tensor_cores(SEER_DTYPE_FP16, NULL), SEER_STATUS_BAD_PARAM);
}

/* A fit used on a GPU other than the one its rows were timed on
 * (fit_time in gemm.c): the shipped A100 40GB fit, all of its
 * FLOP-proportional time on the panel term, on the L4 (8x the A100's
 * FLOPs per DRAM byte) puts a 4096^3 FP32 GEMM 8.7x over the roofline by
 * the formula alone; the prediction is the geometric mean of that and the
 * source's time at its share of the compute peak (the L4's FLOP-bound
 * part at its FMA issue share), weighted 0.2 / 0.8
 * (SEER_GEMM_FMA_PEAK_SHARE_WEIGHT).  On the source GPU and on a
 * sibling (same chip, other memory) the formula alone. */
TEST(gemm_transferred_fit_meets_the_source_share_of_peak)
{
    seer_gemm_fit_t f;
    memset(&f, 0, sizeof f);
    f.present = 1;
    f.tm = f.tn = 128;
    f.bps = 4;
    const double c[SEER_GEMM_TERMS] = {0, 7.3865, 2.7632, 0.0774, 1.0};
    memcpy(f.coef, c, sizeof c);
    seer_strlcpy(f.source_gpu, "a100-pcie-40gb", sizeof f.source_gpu);
    struct seer_model *src = model_of("a100-pcie-40gb"), *sib = model_of("a100-pcie-80gb"), *l4 = model_of("l4");
    seer_handle_t h;
    REQUIRE(src && sib && l4 && seer_create(&h) == SEER_STATUS_SUCCESS);
    src->gemm[0][0] = sib->gemm[0][0] = l4->gemm[0][0] = f;
    const int n = 4096;
    double t = 0, roof = 0;
    CHECK_STATUS(seer_predict_gemm(h, src, 1, n, n, n, SEER_DTYPE_FP32, 0, 0, 0, &t, NULL), SEER_STATUS_SUCCESS);
    double ts = seer_gemm_time(&src->gpu, &f, 1, n, n, n, SEER_DTYPE_FP32, 0, NULL);
    CHECK(t == ts);
    CHECK_STATUS(seer_predict_gemm(h, sib, 1, n, n, n, SEER_DTYPE_FP32, 0, 0, 0, &t, NULL), SEER_STATUS_SUCCESS);
    CHECK(t == seer_gemm_time(&sib->gpu, &f, 1, n, n, n, SEER_DTYPE_FP32, 0, NULL));

    CHECK_STATUS(seer_roofline_gemm(h, &l4->gpu, 1, n, n, n, SEER_DTYPE_FP32, &roof), SEER_STATUS_SUCCESS);
    double td = seer_gemm_time(&l4->gpu, &f, 1, n, n, n, SEER_DTYPE_FP32, 0, NULL);
    double gap = seer_gpu_launch_gap_ms(&l4->gpu);
    /* the L4's SMs issue FFMAs at their share of the peak
     * (seer_gpu_fma_issue_share) on the FLOP-bound part of the time */
    double pl4 = seer_gpu_peak_flops(&l4->gpu, SEER_DTYPE_FP32), tf = 2.0 * n * n * n / pl4,
           tb = 3.0 * n * n * 4 / seer_gpu_dram_bw(&l4->gpu);
    double tc = (ts - gap) * seer_gpu_peak_flops(&src->gpu, SEER_DTYPE_FP32) /
                    (pl4 * (1 - (1 - SEER_FMA_ISSUE_SHARE) * tf / (tf + tb))) + gap;
    CHECK(td > 6 * roof && tc < 1.5 * roof);
    CHECK_STATUS(seer_predict_gemm(h, l4, 1, n, n, n, SEER_DTYPE_FP32, 0, 0, 0, &t, NULL), SEER_STATUS_SUCCESS);
    CHECK(fabs(log(t) - (0.2 * log(td) + 0.8 * log(tc))) < 1e-9);
    CHECK(t > 1.3 * roof && t < 2.6 * roof);
    /* more work is never faster, and nothing is under the floor */
    double prev = 0, floor = 0;
    for (int m = 1; m <= 1 << 14; m *= 2) {
        CHECK_STATUS(seer_predict_gemm(h, l4, 1, m, 512, 300, SEER_DTYPE_FP32, 0, 0, 1, &t, NULL), SEER_STATUS_SUCCESS);
        CHECK_STATUS(seer_gemm_floor(h, &l4->gpu, 1, m, 512, 300, SEER_DTYPE_FP32, 1, &floor), SEER_STATUS_SUCCESS);
        CHECK(t >= prev && t >= floor);
        prev = t;
    }
    seer_destroy(h);
    free(src);
    free(sib);
    free(l4);
}

/* A bias is the GEMM kernel's epilogue: it never makes a served GEMM
 * faster, on any GPU or dtype, and adds little. */
TEST(gemm_bias_never_faster_served)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    static const char *gpus[] = {"h100-sxm5-80gb", "a100-pcie-80gb", "t4", "l4", "v100-sxm2-16gb"};
    static const int shapes[][4] = {{1, 1, 1000, 2048}, {1, 64, 64, 8}, {1, 4096, 4096, 4096}, {8, 17, 300, 96},
                                    {1, 256, 1000, 2048}};
    static const seer_dtype_t dts[] = {SEER_DTYPE_FP32, SEER_DTYPE_FP16, SEER_DTYPE_TF32};
    for (size_t g = 0; g < sizeof gpus / sizeof *gpus; g++) {
        seer_model_t m = NULL;
        if (seer_model_open(h, "models", gpus[g], &m)) {
            seer_destroy(h);
            SKIP("shipped models missing");
        }
        for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
            for (size_t d = 0; d < sizeof dts / sizeof *dts; d++) {
                double t0 = 0, t1 = 0;
                const int *q = shapes[s];
                if (seer_predict_gemm(h, m, q[0], q[1], q[2], q[3], dts[d], 0, 1, 0, &t0, NULL) ||
                    seer_predict_gemm(h, m, q[0], q[1], q[2], q[3], dts[d], 0, 1, 1, &t1, NULL))
                    continue;
                CHECK(t1 >= t0 && t1 <= 1.05 * t0 + 1e-4);
            }
        seer_model_destroy(m);
    }
    seer_destroy(h);
}

/* Pseudo-half (FP16 data, FP32 math) does the FP32 GEMM's FMAs on half
 * the bytes: served, never faster than the FP32 GEMM scaled by the ratio
 * of their rooflines (the FP32 time where the FMAs bind), and never
 * slower than the FP32 GEMM.  FP16 on a GPU without FP16 tensor cores
 * (Pascal) is that pseudo-half GEMM.  The FP32 fit read in 2-byte
 * elements once put a T4's 4096^3 at the FP32 peak: 20.7 ms against
 * 38.0 in FP32. */
TEST(gemm_pseudo_half_is_fp32_math)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    static const char *gpus[] = {"t4", "v100-pcie-32gb", "a100-pcie-80gb", "gtx1080ti", "tesla-p4"};
    static const int shapes[][4] = {{1, 4096, 4096, 4096}, {1, 64, 4096, 4096}, {8, 512, 512, 512}, {1, 1, 1000, 2048}};
    for (size_t g = 0; g < sizeof gpus / sizeof *gpus; g++) {
        seer_model_t m = NULL;
        if (seer_model_open(h, "models", gpus[g], &m)) {
            seer_destroy(h);
            SKIP("shipped models missing");
        }
        seer_gpu_info_t gi;
        REQUIRE(seer_model_get_gpu(m, &gi) == SEER_STATUS_SUCCESS);
        for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
            const int *q = shapes[s];
            double t32, tp, r32, rp;
            REQUIRE(seer_predict_gemm(h, m, q[0], q[1], q[2], q[3], SEER_DTYPE_FP32, 0, 0, 0, &t32, NULL) == 0);
            REQUIRE(seer_predict_gemm(h, m, q[0], q[1], q[2], q[3], SEER_DTYPE_FP16_PSEUDO, 0, 0, 0, &tp, NULL) == 0);
            REQUIRE(seer_roofline_gemm(h, &gi, q[0], q[1], q[2], q[3], SEER_DTYPE_FP32, &r32) == 0);
            REQUIRE(seer_roofline_gemm(h, &gi, q[0], q[1], q[2], q[3], SEER_DTYPE_FP16_PSEUDO, &rp) == 0);
            CHECK(tp >= 0.95 * t32 * rp / r32 && tp <= 1.05 * t32);
            if (gi.fp16_tflops <= 0) { /* FP16 runs as pseudo-half */
                double t16;
                REQUIRE(seer_predict_gemm(h, m, q[0], q[1], q[2], q[3], SEER_DTYPE_FP16, 0, 0, 0, &t16, NULL) == 0);
                CHECK(t16 >= 0.95 * t32 * rp / r32);
            }
        }
        seer_model_destroy(m);
    }
    seer_destroy(h);
}

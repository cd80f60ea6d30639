/* train.c on small synthetic files (no shared data): which rows train a
 * GPU's model (its own and its aliases'; not other GPUs', unknown
 * algorithms or rows without a time), the families it fits, the flags,
 * NO_DATA and its boundary, GEMM files beside conv files, determinism
 * and the provenance line. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>
#include "common.h"
#include "gemm.h"
#include "launch.h"
#include "model.h"
#include "test.h"

typedef struct {
    char *s;
    size_t n, cap;
} text_t;

static void put(text_t *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text_t *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (len < 0) return;
    if (t->n + (size_t)len + 1 > t->cap) {
        size_t cap = (t->n + (size_t)len + 1) * 2;
        char *s = realloc(t->s, cap);
        if (!s) return;
        t->s = s;
        t->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(t->s + t->n, (size_t)len + 1, fmt, ap);
    va_end(ap);
    t->n += (size_t)len;
}

#define CONV_HEADER "gpu,direction,dtype,layout,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,stride_w,dil_h,dil_w," \
                    "groups,algo,time_ms,main_kernel,source\n"

/* count rows of one (gpu, direction, algo) with varied 3x3 shapes and
 * roofline-like times; time NULL: a time from the shape, else that text. */
static void rows(text_t *t, const char *gpu, const char *dir, const char *algo, int count, int seed,
                 const char *time)
{
    for (int i = 0; i < count; i++) {
        int j = i + seed;
        int n = 1 + j % 8, c = 16 << (j % 4), hw = 7 + (j * 5) % 29, k = 16 << ((j / 3) % 4);
        double flops = 2.0 * n * k * hw * hw * c * 9;
        double noise = 1 + 0.1 * ((j * 7919) % 11 - 5) / 5.0;
        put(t, "%s,%s,fp32,nchw,%d,%d,%d,%d,%d,3,3,1,1,1,1,1,1,1,%s,", gpu, dir, n, c, hw, hw, k, algo);
        if (time) put(t, "%s", time);
        else put(t, "%.6f", (0.004 + flops / 5e9) * noise);
        put(t, ",volta_sgemm_128x64_nn,synthetic:%d\n", seed);
    }
}

/* Train gpu on the files; the status, the model in *m. */
static seer_status_t train(seer_handle_t h, const char *gpu, const char *const *paths, int n,
                           unsigned flags, seer_model_t *m)
{
    *m = NULL;
    return seer_train(h, gpu, paths, n, flags, m);
}

static int write_file(char path[64], text_t *t)
{
    int ok = t->s && test_write_temp(path, t->s);
    free(t->s);
    memset(t, 0, sizeof *t);
    return ok;
}

TEST(train_rows_of_the_gpu_only)
{
    text_t t = {0};
    put(&t, CONV_HEADER);
    rows(&t, "t4", "fwd", "IMPLICIT_PRECOMP_GEMM", 30, 0, NULL);
    rows(&t, "a100-pcie-80gb", "fwd", "IMPLICIT_PRECOMP_GEMM", 20, 100, NULL);
    rows(&t, "T4", "fwd", "IMPLICIT_PRECOMP_GEMM", 5, 200, NULL);  /* the id in another case */
    rows(&t, "t4", "fwd", "MIXED", 6, 300, NULL);                  /* algorithm not known */
    rows(&t, "t4", "fwd", "IMPLICIT_PRECOMP_GEMM", 4, 400, "");    /* no time */
    char path[64];
    REQUIRE(write_file(path, &t));
    const char *p = path;
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_model_t m;
    seer_model_info_t info;
    CHECK_STATUS(train(h, "t4", &p, 1, 0, &m), SEER_STATUS_SUCCESS);
    REQUIRE(m != NULL);
    seer_model_get_info(m, &info);
    CHECK(info.n_rows == 35);
    CHECK(info.n_families == 1);
    CHECK(strcmp(info.gpu_id, "t4") == 0);
    seer_model_destroy(m);
    CHECK_STATUS(train(h, "a100-pcie-80gb", &p, 1, 0, &m), SEER_STATUS_SUCCESS);
    REQUIRE(m != NULL);
    seer_model_get_info(m, &info);
    CHECK(info.n_rows == 20);
    seer_model_destroy(m);
    /* a GPU without rows: NO_DATA naming it and what was skipped */
    CHECK_STATUS(train(h, "v100-sxm2-16gb", &p, 1, 0, &m), SEER_STATUS_NO_DATA);
    CHECK(m == NULL);
    CHECK(strstr(seer_get_last_error(h), "v100-sxm2-16gb") != NULL);
    CHECK(strstr(seer_get_last_error(h), "65 skipped") != NULL);
    /* an alias trains the GPU it names */
    CHECK_STATUS(train(h, "T4", &p, 1, 0, &m), SEER_STATUS_SUCCESS);
    REQUIRE(m != NULL);
    seer_model_get_info(m, &info);
    CHECK(strcmp(info.gpu_id, "t4") == 0 && info.n_rows == 35);
    seer_model_destroy(m);
    unlink(path);
    seer_destroy(h);
}

TEST(train_no_data_boundary)
{
    /* a family needs 8 rows: 7 are not enough, 8 are */
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    for (int n = 7; n <= 8; n++) {
        text_t t = {0};
        put(&t, CONV_HEADER);
        rows(&t, "t4", "fwd", "IMPLICIT_GEMM", n, 0, NULL);
        char path[64];
        REQUIRE(write_file(path, &t));
        const char *p = path;
        seer_model_t m;
        seer_status_t st = train(h, "t4", &p, 1, 0, &m);
        if (n == 7) {
            CHECK(st == SEER_STATUS_NO_DATA && m == NULL);
            CHECK(strstr(seer_get_last_error(h), "no family has 8 rows") != NULL);
        } else {
            CHECK(st == SEER_STATUS_SUCCESS && m != NULL);
            seer_model_info_t info;
            if (m) seer_model_get_info(m, &info);
            CHECK(m && info.n_families == 1 && info.n_rows == 8);
        }
        seer_model_destroy(m);
        unlink(path);
    }
    /* only rows that cannot be used: NO_DATA, every one counted as skipped */
    text_t t = {0};
    put(&t, CONV_HEADER);
    rows(&t, "t4", "fwd", "UNKNOWN", 10, 0, NULL);
    rows(&t, "t4", "fwd", "IMPLICIT_GEMM", 3, 0, "");
    char path[64];
    REQUIRE(write_file(path, &t));
    const char *p = path;
    seer_model_t m;
    CHECK_STATUS(train(h, "t4", &p, 1, 0, &m), SEER_STATUS_NO_DATA);
    CHECK(strstr(seer_get_last_error(h), "(13 skipped)") != NULL);
    unlink(path);
    /* an empty paths list or missing out-parameter */
    CHECK_STATUS(seer_train(h, "t4", &p, 0, 0, &m), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_train(h, "t4", NULL, 1, 0, &m), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_train(h, NULL, &p, 1, 0, &m), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_train(h, "t4", &p, 1, 0, NULL), SEER_STATUS_BAD_PARAM);
    /* flags: only the SEER_TRAIN_* bits */
    CHECK_STATUS(seer_train(h, "t4", &p, 1, SEER_TRAIN_HOLDOUT | 0x80u, &m), SEER_STATUS_BAD_PARAM);
    CHECK(strstr(seer_get_last_error(h), "0x80") != NULL);
    /* a file given twice (its rows would train twice), checked before
     * any is read: the path need not exist */
    const char *twice[] = {"a.csv", "b.csv", "a.csv"};
    CHECK_STATUS(seer_train(h, "t4", twice, 3, 0, &m), SEER_STATUS_BAD_PARAM);
    CHECK(strstr(seer_get_last_error(h), "a.csv is given twice (paths[0] and paths[2])") != NULL);
    seer_destroy(h);
}

TEST(train_families_and_cudnn_choice)
{
    /* one family per (direction, algorithm, math) with 8 or more rows;
     * an empty algo (cuDNN chose) is a family of its own */
    text_t t = {0};
    put(&t, CONV_HEADER);
    rows(&t, "t4", "fwd", "IMPLICIT_PRECOMP_GEMM", 20, 0, NULL);
    rows(&t, "t4", "bwd_data", "ALGO_1", 12, 50, NULL);
    rows(&t, "t4", "fwd", "", 10, 100, NULL);
    rows(&t, "t4", "bwd_filter", "ALGO_0", 7, 150, NULL); /* too few: no family, not counted */
    char path[64];
    REQUIRE(write_file(path, &t));
    const char *p = path;
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_model_t m;
    CHECK_STATUS(train(h, "t4", &p, 1, 0, &m), SEER_STATUS_SUCCESS);
    REQUIRE(m != NULL);
    seer_model_info_t info;
    seer_model_get_info(m, &info);
    CHECK(info.n_families == 3);
    CHECK(info.n_rows == 42);
    /* families in a fixed order: direction, then algorithm (-1 first), then math */
    REQUIRE(m->nfam == 3);
    CHECK(m->fam[0].dir == SEER_DIR_FWD && m->fam[0].algo == -1);
    CHECK(m->fam[1].dir == SEER_DIR_FWD && m->fam[1].algo == SEER_FWD_ALGO_IMPLICIT_PRECOMP_GEMM);
    CHECK(m->fam[2].dir == SEER_DIR_BWD_DATA && m->fam[2].algo == SEER_BWD_DATA_ALGO_1);
    CHECK(m->fam[0].n_rows == 10 && m->fam[1].n_rows == 20 && m->fam[2].n_rows == 12);
    /* the trained families predict from their data; the rest only from
     * the analytical model, and cuDNN's choice not at all */
    seer_conv_desc_t d;
    REQUIRE(seer_conv_desc_create(&d) == SEER_STATUS_SUCCESS);
    REQUIRE(seer_conv_desc_set(h, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, 4, 64, 20, 20, 64, 3, 3, 1, 1,
                               1, 1, 1, 1, 1) == SEER_STATUS_SUCCESS);
    static const struct { seer_direction_t dir; int algo; seer_status_t st; seer_source_t src; } want[] = {
        {SEER_DIR_FWD, SEER_ALGO_CUDNN_CHOICE, SEER_STATUS_SUCCESS, SEER_SOURCE_CALIBRATED},
        {SEER_DIR_FWD, SEER_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, SEER_STATUS_SUCCESS, SEER_SOURCE_CALIBRATED},
        {SEER_DIR_BWD_DATA, SEER_BWD_DATA_ALGO_1, SEER_STATUS_SUCCESS, SEER_SOURCE_CALIBRATED},
        {SEER_DIR_FWD, SEER_FWD_ALGO_IMPLICIT_GEMM, SEER_STATUS_SUCCESS, SEER_SOURCE_ANALYTICAL},
        {SEER_DIR_BWD_FILTER, SEER_BWD_FILTER_ALGO_0, SEER_STATUS_SUCCESS, SEER_SOURCE_ANALYTICAL},
        {SEER_DIR_BWD_DATA, SEER_ALGO_CUDNN_CHOICE, SEER_STATUS_NOT_CALIBRATED, SEER_SOURCE_ANALYTICAL},
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        double ms = 0;
        seer_kernel_pred_t k[SEER_MAX_KERNELS];
        int nk = 0;
        seer_status_t st = seer_predict_conv(h, m, d, want[i].dir, want[i].algo, &ms, k, SEER_MAX_KERNELS, &nk);
        CHECK(st == want[i].st);
        if (st == SEER_STATUS_SUCCESS && want[i].st == SEER_STATUS_SUCCESS)
            CHECK(ms > 0 && nk >= 1 && k[0].source == want[i].src);
    }
    seer_conv_desc_destroy(d);
    seer_model_destroy(m);
    unlink(path);
    seer_destroy(h);
}

TEST(train_holdout_flag_and_provenance)
{
    text_t t = {0};
    put(&t, CONV_HEADER);
    rows(&t, "t4", "fwd", "IMPLICIT_PRECOMP_GEMM", 120, 0, NULL);
    char path[64];
    REQUIRE(write_file(path, &t));
    const char *p = path;
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);

    /* the rows the split holds out, from the public split function */
    text_t again = {0};
    rows(&again, "t4", "fwd", "IMPLICIT_PRECOMP_GEMM", 120, 0, NULL);
    int held = 0;
    char *line = again.s;
    for (int i = 0; i < 120 && line; i++) {
        int v[5];
        REQUIRE(sscanf(line, "t4,fwd,fp32,nchw,%d,%d,%d,%d,%d", &v[0], &v[1], &v[2], &v[3], &v[4]) == 5);
        seer_conv_desc_t d;
        REQUIRE(seer_conv_desc_create(&d) == SEER_STATUS_SUCCESS);
        REQUIRE(seer_conv_desc_set(h, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, v[0], v[1], v[2], v[3], v[4],
                                   3, 3, 1, 1, 1, 1, 1, 1, 1) == SEER_STATUS_SUCCESS);
        held += seer_conv_in_test_split(d);
        seer_conv_desc_destroy(d);
        line = strchr(line, '\n');
        if (line) line++;
    }
    free(again.s);
    CHECK(held > 0 && held < 60);

    seer_model_t all, ho, kept;
    seer_model_info_t ia, ih, ik;
    CHECK_STATUS(train(h, "t4", &p, 1, 0, &all), SEER_STATUS_SUCCESS);
    CHECK_STATUS(train(h, "t4", &p, 1, SEER_TRAIN_HOLDOUT, &ho), SEER_STATUS_SUCCESS);
    /* a source without host dispatch has none to take off: KEEP_DISPATCH changes nothing */
    CHECK_STATUS(train(h, "t4", &p, 1, SEER_TRAIN_KEEP_DISPATCH, &kept), SEER_STATUS_SUCCESS);
    REQUIRE(all && ho && kept);
    seer_model_get_info(all, &ia);
    seer_model_get_info(ho, &ih);
    seer_model_get_info(kept, &ik);
    CHECK(ia.n_rows == 120);
    CHECK(ih.n_rows == 120 - held);
    CHECK(ik.checksum == ia.checksum);
    CHECK(ih.checksum != ia.checksum);
    CHECK(strstr(ia.provenance, "all rows") != NULL);
    CHECK(strstr(ih.provenance, "20% test split held out") != NULL);
    CHECK(strstr(ia.provenance, "libseer " SEER_VERSION_STRING) != NULL);
    /* the file's base name, its rows kept of its rows (a bare count read
     * as the file's size) and its source up to the colon */
    char want[96];
    snprintf(want, sizeof want, "%s (120 of its 120 rows kept, synthetic)", strrchr(path, '/') + 1);
    CHECK(strstr(ia.provenance, want) != NULL);
    snprintf(want, sizeof want, "%s (%d of its 120 rows kept, synthetic)", strrchr(path, '/') + 1, 120 - held);
    CHECK(strstr(ih.provenance, want) != NULL);
    CHECK(strstr(ia.provenance, "dispatch") == NULL);

    /* deterministic: the same files, the same model */
    seer_model_t twice;
    CHECK_STATUS(train(h, "t4", &p, 1, 0, &twice), SEER_STATUS_SUCCESS);
    seer_model_info_t i2;
    REQUIRE(twice != NULL);
    seer_model_get_info(twice, &i2);
    CHECK(i2.checksum == ia.checksum);
    seer_model_destroy(all);
    seer_model_destroy(ho);
    seer_model_destroy(kept);
    seer_model_destroy(twice);
    unlink(path);
    seer_destroy(h);
}

TEST(train_holdout_splits_by_the_asked_dtype)
{
    /* an FP16 row of IMPLICIT_GEMM trains in FP32 math (SIMT), but its
     * test split is that of the dtype it asked for, as seer eval splits
     * it: otherwise some test rows are trained on */
    text_t t = {0};
    put(&t, CONV_HEADER);
    int held = 0, total = 0;
    for (int i = 0; i < 60; i++) {
        int n = 1 + i % 8, c = 16 << (i % 4), hw = 7 + (i * 5) % 29, k = 16 << ((i / 3) % 4);
        put(&t, "a100-pcie-80gb,fwd,fp16,nhwc,%d,%d,%d,%d,%d,3,3,1,1,1,1,1,1,1,IMPLICIT_GEMM,%.6f,k,x\n", n, c, hw, hw,
            k, 0.004 + 2.0 * n * k * hw * hw * c * 9 / 5e9);
        struct seer_conv cv;
        const seer_conv_shape_t sh = {n, c, hw, hw, k, 3, 3, 1, 1, 1, 1, 1, 1, 1};
        REQUIRE(!seer_conv_init(NULL, &cv, SEER_DTYPE_FP16, SEER_LAYOUT_NHWC, &sh));
        held += seer_conv_in_test_split(&cv);
        total++;
    }
    char path[64];
    REQUIRE(write_file(path, &t));
    const char *paths[1] = {path};
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_model_t m = NULL;
    CHECK_STATUS(train(h, "a100-pcie-80gb", paths, 1, SEER_TRAIN_HOLDOUT, &m), SEER_STATUS_SUCCESS);
    seer_model_info_t info;
    REQUIRE(m && seer_model_get_info(m, &info) == SEER_STATUS_SUCCESS);
    CHECK(held > 0 && held < total && info.n_rows == total - held);
    seer_model_destroy(m);
    unlink(path);
    seer_destroy(h);
}

TEST(train_gemm_only_model)
{
    /* GEMM files alone make a GEMM-only model (the Hopper ones shipped):
     * it times GEMMs by its own fit, refuses convs by itself, and from a
     * models directory serves the convs of the transferred model */
    text_t t = {0};
    put(&t, "gpu,op,dtype,batch,m,n,k,trans_a,trans_b,bias,time_ms\n");
    for (int m = 64; m <= 4096; m *= 2)
        for (int k = 64; k <= 2048; k *= 4)
            put(&t, "h200-sxm-141gb,bmm,fp32,4,%d,512,%d,N,N,0,%.6f\n", m, k, 0.004 + 8.0 * m * 512 * k / 40e9);
    char gemm[64], dir[] = "/tmp/seer-test-gemm-only-XXXXXX", path[128];
    REQUIRE(write_file(gemm, &t));
    REQUIRE(mkdtemp(dir) != NULL);
    const char *paths[1] = {gemm};
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_model_t g = NULL, served = NULL, transferred = NULL;
    CHECK_STATUS(train(h, "h200-sxm-141gb", paths, 1, 0, &g), SEER_STATUS_SUCCESS);
    REQUIRE(g);
    seer_model_info_t info;
    seer_model_get_info(g, &info);
    CHECK(info.n_families == 0 && g->gemm[0][1].present);
    double ms = 0, a = 0, b = 0;
    CHECK_STATUS(seer_predict_gemm(h, g, 4, 512, 512, 512, SEER_DTYPE_FP32, 0, 0, 0, &ms, NULL), SEER_STATUS_SUCCESS);
    CHECK(ms > 0);
    seer_conv_desc_t d = NULL;
    REQUIRE(seer_conv_desc_create(&d) == SEER_STATUS_SUCCESS);
    REQUIRE(seer_conv_desc_set(NULL, d, SEER_DTYPE_FP32, SEER_LAYOUT_NHWC, 8, 64, 56, 56, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1) ==
            SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_predict_conv(h, g, d, SEER_DIR_FWD, SEER_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, &a, NULL, 0, NULL),
                 SEER_STATUS_NOT_CALIBRATED);
    CHECK(strstr(seer_get_last_error(h), "GEMM data only") != NULL);
    /* beside the shipped conv models: its convs are theirs, transferred */
    snprintf(path, sizeof path, "%s/h200-sxm-141gb.seer", dir);
    CHECK_STATUS(seer_model_save(h, g, path), SEER_STATUS_SUCCESS);
    static const char *const conv_models[] = {"a100-pcie-80gb", "v100-pcie-32gb", "t4"};
    for (int i = 0; i < 3; i++) {
        char src[128], dst[160];
        snprintf(src, sizeof src, "models/%s.seer", conv_models[i]);
        snprintf(dst, sizeof dst, "%s/%s.seer", dir, conv_models[i]);
        FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
        REQUIRE(in && out);
        char buf[65536];
        size_t k;
        while ((k = fread(buf, 1, sizeof buf, in)) > 0) fwrite(buf, 1, k, out);
        fclose(in);
        fclose(out);
    }
    CHECK_STATUS(seer_model_open(h, dir, "h200-sxm-141gb", &served), SEER_STATUS_SUCCESS);
    unlink(path);
    CHECK_STATUS(seer_model_open(h, dir, "h200-sxm-141gb", &transferred), SEER_STATUS_SUCCESS);
    REQUIRE(served && transferred);
    CHECK_STATUS(seer_predict_conv(h, served, d, SEER_DIR_FWD, SEER_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, &a, NULL, 0, NULL),
                 SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_predict_conv(h, transferred, d, SEER_DIR_FWD, SEER_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, &b, NULL, 0,
                                   NULL), SEER_STATUS_SUCCESS);
    CHECK(a > 0 && a == b);
    double ms2 = 0;
    CHECK_STATUS(seer_predict_gemm(h, served, 4, 512, 512, 512, SEER_DTYPE_FP32, 0, 0, 0, &ms2, NULL),
                 SEER_STATUS_SUCCESS);
    CHECK(ms2 > 0);
    for (int i = 0; i < 3; i++) {
        char dst[160];
        snprintf(dst, sizeof dst, "%s/%s.seer", dir, conv_models[i]);
        unlink(dst);
    }
    /* a directory of GEMM-only models alone still opens them (no conv
     * peer can be transferred: none is tied) */
    seer_model_t alone = NULL;
    CHECK_STATUS(seer_model_save(h, g, path), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_model_open(h, dir, "h200-sxm-141gb", &alone), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_predict_gemm(h, alone, 4, 512, 512, 512, SEER_DTYPE_FP32, 0, 0, 0, &ms2, NULL),
                 SEER_STATUS_SUCCESS);
    seer_model_destroy(alone);
    unlink(path);
    rmdir(dir);
    /* no kernel formula on it alone either */
    seer_kernel_desc_t kd;
    memset(&kd, 0, sizeof kd);
    kd.grid[0] = kd.grid[1] = kd.grid[2] = kd.block[0] = kd.block[1] = kd.block[2] = 1;
    seer_kernel_pred_t kp;
    CHECK_STATUS(seer_predict_kernel(h, g, &kd, &kp), SEER_STATUS_NOT_CALIBRATED);
    /* conv files whose rows train nothing are an error, not a GEMM-only model */
    put(&t, CONV_HEADER);
    rows(&t, "a100-pcie-80gb", "fwd", "IMPLICIT_PRECOMP_GEMM", 20, 0, NULL);
    char conv[64];
    REQUIRE(write_file(conv, &t));
    const char *both[2] = {conv, gemm};
    seer_model_t bad = NULL;
    CHECK_STATUS(train(h, "h200-sxm-141gb", both, 2, 0, &bad), SEER_STATUS_NO_DATA);
    CHECK(bad == NULL && strstr(seer_get_last_error(h), "GEMM files alone"));
    unlink(conv);
    /* too few GEMM rows to fit anything: NO_DATA, not a corrupt model */
    put(&t, "gpu,op,dtype,batch,m,n,k,trans_a,trans_b,bias,time_ms\n"
            "h200-sxm-141gb,bmm,fp32,4,64,64,64,N,N,0,0.01\n");
    REQUIRE(write_file(gemm, &t));
    CHECK_STATUS(train(h, "h200-sxm-141gb", paths, 1, 0, &bad), SEER_STATUS_NO_DATA);
    CHECK(bad == NULL && strstr(seer_get_last_error(h), "fit nothing"));
    unlink(gemm);
    seer_conv_desc_destroy(d);
    seer_model_destroy(g);
    seer_model_destroy(served);
    seer_model_destroy(transferred);
    seer_destroy(h);
}

TEST(train_gemm_file_beside_conv_file)
{
    text_t t = {0};
    put(&t, CONV_HEADER);
    rows(&t, "a100-pcie-80gb", "fwd", "IMPLICIT_PRECOMP_GEMM", 20, 0, NULL);
    char conv[64], gemm[64];
    REQUIRE(write_file(conv, &t));
    put(&t, "gpu,op,dtype,batch,m,n,k,trans_a,trans_b,bias,time_ms,main_kernel,source\n");
    int n = 0, held = 0;
    for (int m = 64; m <= 4096; m *= 2)
        for (int k = 64; k <= 2048; k *= 4) {
            /* the sibling A100 40GB PCIe's rows train the 80GB model */
            double ms = 0.01 + 2.0 * m * 1024 * k / 15e9;
            put(&t, "a100-pcie-40gb,linear,fp32,1,%d,1024,%d,N,T,1,%.6f,,synthetic\n", m, k, ms);
            /* a row without a time is a prediction input: it trains nothing */
            put(&t, "a100-pcie-40gb,linear,fp32,1,%d,1024,%d,N,T,0,,,synthetic\n", m, 3 * k);
            seer_gemm_row_t r;
            memset(&r, 0, sizeof r);
            r.batch = 1;
            r.m = m;
            r.n = 1024;
            r.k = k;
            r.trans_b = 1;
            r.bias = 1;
            r.dtype = SEER_DTYPE_FP32;
            held += seer_gemm_in_test_split(&r);
            n++;
        }
    REQUIRE(write_file(gemm, &t));
    const char *paths[2] = {conv, gemm};
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_model_t only_conv, both, ho;
    CHECK_STATUS(train(h, "a100-pcie-80gb", paths, 1, 0, &only_conv), SEER_STATUS_SUCCESS);
    CHECK_STATUS(train(h, "a100-pcie-80gb", paths, 2, 0, &both), SEER_STATUS_SUCCESS);
    CHECK_STATUS(train(h, "a100-pcie-80gb", paths, 2, SEER_TRAIN_HOLDOUT, &ho), SEER_STATUS_SUCCESS);
    REQUIRE(only_conv && both && ho);
    double ms = 0;
    CHECK_STATUS(seer_predict_gemm(h, only_conv, 1, 512, 1024, 512, SEER_DTYPE_FP32, 0, 1, 1, &ms, NULL),
                 SEER_STATUS_NOT_CALIBRATED);
    CHECK_STATUS(seer_predict_gemm(h, both, 1, 512, 1024, 512, SEER_DTYPE_FP32, 0, 1, 1, &ms, NULL), SEER_STATUS_SUCCESS);
    CHECK(ms > 0);
    CHECK(both->gemm[0][0].present && both->gemm[0][0].n_rows == n);
    CHECK(strcmp(both->gemm[0][0].source_gpu, "a100-pcie-40gb") == 0);
    /* --holdout leaves the GEMM split out too */
    CHECK(ho->gemm[0][0].n_rows == n - held);
    char want[96];
    snprintf(want, sizeof want, "%s (GEMM, %d rows, %d without a time)", strrchr(gemm, '/') + 1, 2 * n, n);
    CHECK(strstr(both->provenance, want) != NULL);
    /* conv rows are the conv model's; the GEMM file adds no families */
    seer_model_info_t a, b;
    seer_model_get_info(only_conv, &a);
    seer_model_get_info(both, &b);
    CHECK(a.n_families == b.n_families && a.n_rows == b.n_rows);
    seer_model_destroy(only_conv);
    seer_model_destroy(both);
    seer_model_destroy(ho);
    unlink(gemm);
    /* a GEMM file of no timed row is refused by name: it would leave the
     * model without a GEMM fit, silently */
    put(&t, "gpu,op,dtype,batch,m,n,k,trans_a,trans_b,bias\na100-pcie-40gb,linear,fp32,1,64,64,64,N,T,1\n");
    REQUIRE(write_file(gemm, &t));
    CHECK_STATUS(train(h, "a100-pcie-80gb", paths, 2, 0, &both), SEER_STATUS_NO_DATA);
    CHECK(strstr(seer_get_last_error(h), gemm) && strstr(seer_get_last_error(h), "no GEMM row to train (1 without a time"));
    CHECK(both == NULL);
    unlink(conv);
    unlink(gemm);
    seer_destroy(h);
}

TEST(train_nchw_tensor_core_rows_lose_their_transposes)
{
    /* An NCHW fp16 row ran cuDNN's transposes around the tensor-core
     * kernels the family times: training takes them off (the same rows in
     * NHWC train the same model), except for a source naming cuDNN 7,
     * whose NCHW kernels ran none (docs/method.md, "Layouts"). */
    seer_gpu_info_t g;
    double gbps, gap_us;
    REQUIRE(seer_gpu_find(NULL, "a100-pcie-80gb", &g) == SEER_STATUS_SUCCESS);
    REQUIRE(seer_gpu_streaming(&g, &gbps, &gap_us) == SEER_STATUS_SUCCESS);
    static const char *const layout[3] = {"nhwc", "nchw", "nchw"};
    static const char *const source[3] = {"lab", "lab", "deepbench-cudnn7.6.2:Resnet"};
    char path[3][64];
    for (int f = 0; f < 3; f++) {
        text_t t = {0};
        put(&t, CONV_HEADER);
        for (int j = 0; j < 40; j++) {
            int n = 1 + j % 8, c = 16 << (j % 4), hw = 7 + (j * 5) % 29, k = 16 << ((j / 3) % 4);
            double ms = 0.02 + 2.0 * n * k * hw * hw * c * 9 / 8e10 * (1 + 0.1 * ((j * 7919) % 11 - 5) / 5.0);
            double x = (double)n * c * hw * hw, w = (double)k * c * 9, y = (double)n * k * hw * hw;
            if (f) ms += 2 * (x + w + y) * 2 / (gbps * 1e9) * 1e3 + 3 * gap_us * 1e-3;
            put(&t, "a100-pcie-80gb,fwd,fp16,%s,%d,%d,%d,%d,%d,3,3,1,1,1,1,1,1,1,IMPLICIT_PRECOMP_GEMM,%.9f,,%s\n",
                layout[f], n, c, hw, hw, k, ms, source[f]);
        }
        REQUIRE(write_file(path[f], &t));
    }
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_conv_desc_t d;
    REQUIRE(seer_conv_desc_create(&d) == SEER_STATUS_SUCCESS);
    REQUIRE(seer_conv_desc_set(h, d, SEER_DTYPE_FP16, SEER_LAYOUT_NHWC, 4, 64, 20, 20, 64, 3, 3, 1, 1, 1, 1, 1, 1,
                               1) == SEER_STATUS_SUCCESS);
    double ms[3] = {0, 0, 0};
    for (int f = 0; f < 3; f++) {
        const char *p = path[f];
        seer_model_t m;
        CHECK_STATUS(train(h, "a100-pcie-80gb", &p, 1, 0, &m), SEER_STATUS_SUCCESS);
        if (m) CHECK_STATUS(seer_predict_conv(h, m, d, SEER_DIR_FWD, 1, &ms[f], NULL, 0, NULL), SEER_STATUS_SUCCESS);
        seer_model_destroy(m);
        unlink(path[f]);
    }
    CHECK(ms[0] > 0 && fabs(ms[1] - ms[0]) <= 1e-6 * ms[0]);
    CHECK(ms[2] > 1.01 * ms[0]);
    seer_conv_desc_destroy(d);
    seer_destroy(h);
}

/* Training takes the legacy kernels' measured slowdown off its rows, as
 * it takes the transposes (seer_conv_legacy_slowdown): fitted on the raw
 * times, a model predicted its own FP16 bwd_data ALGO_0 rows (pseudo-half
 * kernels, 2.3x) at twice and more their time, the factor twice. */
TEST(train_legacy_rows_lose_their_slowdown)
{
    struct { int n, c, hw, k; double ms; } row[40];
    text_t t = {0};
    put(&t, CONV_HEADER);
    for (int j = 0; j < 40; j++) {
        int n = 1 + j % 8, c = 16 << (j % 4), hw = 7 + (j * 5) % 29, k = 16 << ((j / 3) % 4);
        double ms = 0.02 + 2.0 * n * k * hw * hw * c * 9 / 4e12 * (1 + 0.1 * ((j * 7919) % 11 - 5) / 5.0);
        row[j].n = n, row[j].c = c, row[j].hw = hw, row[j].k = k, row[j].ms = ms;
        put(&t, "a100-pcie-80gb,bwd_data,fp16,nchw,%d,%d,%d,%d,%d,3,3,1,1,1,1,1,1,1,ALGO_0,%.9f,,lab\n", n, c, hw, hw,
            k, ms);
    }
    char path[64];
    REQUIRE(write_file(path, &t));
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    const char *p = path;
    seer_model_t m = NULL;
    CHECK_STATUS(train(h, "a100-pcie-80gb", &p, 1, 0, &m), SEER_STATUS_SUCCESS);
    seer_conv_desc_t d;
    REQUIRE(seer_conv_desc_create(&d) == SEER_STATUS_SUCCESS);
    double r[40];
    size_t nr = 0;
    for (int j = 0; m && j < 40; j++) {
        double pred = 0;
        REQUIRE(seer_conv_desc_set(h, d, SEER_DTYPE_FP16, SEER_LAYOUT_NCHW, row[j].n, row[j].c, row[j].hw, row[j].hw,
                                   row[j].k, 3, 3, 1, 1, 1, 1, 1, 1, 1) == SEER_STATUS_SUCCESS);
        if (!seer_predict_conv(h, m, d, SEER_DIR_BWD_DATA, SEER_BWD_DATA_ALGO_0, &pred, NULL, 0, NULL))
            r[nr++] = pred / row[j].ms;
    }
    seer_sort_doubles(r, nr);
    double med = seer_median_sorted(r, nr);
    CHECK(nr == 40 && med > 0.7 && med < 1.5);
    seer_conv_desc_destroy(d);
    seer_model_destroy(m);
    unlink(path);
    seer_destroy(h);
}

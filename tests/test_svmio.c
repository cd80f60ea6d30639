/* svmio.c: the little-endian writers and readers of model files, their
 * sticky errors (what was read, at which byte), and LIBSVM models
 * serialized and cloned bit for bit. */
#include <float.h>
#include <stdlib.h>
#include "svmio.h"
#include "test.h"

static seer_rbuf_t reader(const seer_wbuf_t *b)
{
    seer_rbuf_t r = {b->p, b->n, 0, SEER_STATUS_SUCCESS, ""};
    return r;
}

TEST(svmio_scalars_round_trip_little_endian)
{
    seer_wbuf_t b = {0};
    seer_w_u32(&b, 0x01020304u);
    REQUIRE(!b.oom && b.n == 4);
    CHECK(b.p[0] == 4 && b.p[1] == 3 && b.p[2] == 2 && b.p[3] == 1); /* the file is little-endian */
    const uint32_t u32[] = {0, 1, UINT32_MAX, 0x80000000u};
    const int32_t i32[] = {0, -1, INT32_MIN, INT32_MAX};
    const uint64_t u64[] = {0, UINT64_MAX, 0x0102030405060708ULL};
    const double f64[] = {0.0, -0.0, 1.5, -DBL_MAX, DBL_MAX, DBL_MIN, DBL_MIN / 4 /* subnormal */, 0.1};
    for (size_t i = 0; i < 4; i++) seer_w_u32(&b, u32[i]);
    for (size_t i = 0; i < 4; i++) seer_w_i32(&b, i32[i]);
    for (size_t i = 0; i < 3; i++) seer_w_u64(&b, u64[i]);
    for (size_t i = 0; i < 8; i++) seer_w_f64(&b, f64[i]);
    seer_w_str(&b, "");
    seer_w_str(&b, "t4 model");
    seer_w_bytes(&b, "xyz", 3);
    REQUIRE(!b.oom);
    CHECK(b.n == 4 + 16 + 16 + 24 + 64 + 4 + 12 + 3);
    CHECK(memcmp(b.p + 4 + 16 + 16 + 16, "\x08\x07\x06\x05\x04\x03\x02\x01", 8) == 0);

    seer_rbuf_t r = reader(&b);
    CHECK(seer_r_u32(&r, "magic") == 0x01020304u);
    for (size_t i = 0; i < 4; i++) CHECK(seer_r_u32(&r, "u32") == u32[i]);
    for (size_t i = 0; i < 4; i++) CHECK(seer_r_i32(&r, "i32", INT32_MIN, INT32_MAX) == i32[i]);
    for (size_t i = 0; i < 3; i++) CHECK(seer_r_u64(&r, "u64") == u64[i]);
    for (size_t i = 0; i < 8; i++) { /* any finite value with a range that takes it */
        double v = seer_r_f64_in(&r, "f64", -DBL_MAX, DBL_MAX);
        CHECK(memcmp(&v, &f64[i], sizeof v) == 0); /* bit for bit: -0.0 stays negative */
    }
    char s[16] = "junk";
    seer_r_str(&r, "empty", s, sizeof s);
    CHECK(s[0] == 0);
    seer_r_str(&r, "name", s, sizeof s);
    CHECK(strcmp(s, "t4 model") == 0);
    CHECK(r.st == SEER_STATUS_SUCCESS && r.off == b.n - 3);
    free(b.p);
}

TEST(svmio_f64_rejects_nan_and_inf)
{
    const double bad[] = {NAN, -NAN, INFINITY, -INFINITY};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        seer_wbuf_t b = {0};
        seer_w_f64(&b, 2.0);
        seer_w_f64(&b, bad[i]);
        seer_w_f64(&b, 3.0);
        seer_rbuf_t r = reader(&b);
        CHECK(seer_r_f64(&r, "rate") == 2.0);
        CHECK(seer_r_f64(&r, "svm gamma") == 0);
        CHECK(r.st == SEER_STATUS_MODEL_CORRUPT);
        CHECK(strstr(r.why, "svm gamma") != NULL && strstr(r.why, "at byte 16") != NULL);
        /* sticky: later reads give 0 and keep the first reason */
        CHECK(seer_r_f64(&r, "later") == 0);
        CHECK(strstr(r.why, "svm gamma") != NULL);
        free(b.p);
    }
}

TEST(svmio_f64_range)
{
    /* a model's numbers lie within +-SEER_MODEL_VALUE_MAX, bounds included */
    const double ok[] = {SEER_MODEL_VALUE_MAX, -SEER_MODEL_VALUE_MAX, 0.0, -0.0, 1e-300};
    const double bad[] = {nextafter(SEER_MODEL_VALUE_MAX, INFINITY), -2 * SEER_MODEL_VALUE_MAX, DBL_MAX};
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        seer_wbuf_t b = {0};
        seer_w_f64(&b, ok[i]);
        seer_rbuf_t r = reader(&b);
        double v = seer_r_f64(&r, "coef");
        CHECK(r.st == SEER_STATUS_SUCCESS && memcmp(&v, &ok[i], sizeof v) == 0);
        free(b.p);
    }
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        seer_wbuf_t b = {0};
        seer_w_f64(&b, bad[i]);
        seer_rbuf_t r = reader(&b);
        CHECK(seer_r_f64(&r, "kernel coefficient") == 0);
        CHECK(r.st == SEER_STATUS_MODEL_CORRUPT);
        CHECK(strstr(r.why, "kernel coefficient") && strstr(r.why, "must be in") && strstr(r.why, "at byte 8"));
        free(b.p);
    }
    /* an explicit range: gamma must be positive */
    seer_wbuf_t b = {0};
    seer_w_f64(&b, SEER_SVM_GAMMA_MIN);
    seer_w_f64(&b, 0.0);
    seer_rbuf_t r = reader(&b);
    CHECK(seer_r_f64_in(&r, "svm gamma", SEER_SVM_GAMMA_MIN, SEER_SVM_GAMMA_MAX) == SEER_SVM_GAMMA_MIN);
    CHECK(seer_r_f64_in(&r, "svm gamma", SEER_SVM_GAMMA_MIN, SEER_SVM_GAMMA_MAX) == 0 &&
          r.st == SEER_STATUS_MODEL_CORRUPT && strstr(r.why, "svm gamma 0 "));
    free(b.p);
}

TEST(svmio_truncated_names_the_field)
{
    const unsigned char three[3] = {1, 2, 3};
    seer_rbuf_t r = {three, 3, 0, SEER_STATUS_SUCCESS, ""};
    CHECK(seer_r_u32(&r, "family count") == 0);
    CHECK(r.st == SEER_STATUS_MODEL_TRUNCATED);
    CHECK(strcmp(r.why, "family count at byte 0") == 0);
    CHECK(r.off == 0);
    CHECK(seer_r_u64(&r, "next") == 0);
    CHECK(strcmp(r.why, "family count at byte 0") == 0);

    /* a u64 whose high half is missing */
    const unsigned char six[6] = {0};
    seer_rbuf_t r2 = {six, 6, 0, SEER_STATUS_SUCCESS, ""};
    seer_r_u64(&r2, "row count");
    CHECK(r2.st == SEER_STATUS_MODEL_TRUNCATED && strstr(r2.why, "row count at byte 4"));
    /* an empty buffer */
    seer_rbuf_t r3 = {(const unsigned char *)"", 0, 0, SEER_STATUS_SUCCESS, ""};
    CHECK(seer_r_f64(&r3, "coef") == 0 && r3.st == SEER_STATUS_MODEL_TRUNCATED);
    CHECK(seer_r_i32(&r3, "n", 5, 9) == 5); /* failed reads give the low bound */
    /* an explicit failure is sticky too: the first reason stays */
    seer_rbuf_t r4 = {six, 6, 0, SEER_STATUS_SUCCESS, ""};
    seer_r_fail(&r4, SEER_STATUS_MODEL_CORRUPT, "checksum");
    seer_r_fail(&r4, SEER_STATUS_MODEL_TRUNCATED, "other");
    CHECK(r4.st == SEER_STATUS_MODEL_CORRUPT && strcmp(r4.why, "checksum at byte 0") == 0);
    CHECK(seer_r_u32(&r4, "x") == 0 && r4.off == 0);
}

TEST(svmio_int_range_and_strings)
{
    seer_wbuf_t b = {0};
    seer_w_i32(&b, 10);
    seer_w_i32(&b, 11);
    seer_w_i32(&b, -1);
    REQUIRE(!b.oom);
    seer_rbuf_t r = reader(&b);
    CHECK(seer_r_i32(&r, "degree", 0, 10) == 10); /* the bound itself is in range */
    CHECK(seer_r_i32(&r, "degree", 0, 10) == 0);  /* out of range: the low bound */
    CHECK(r.st == SEER_STATUS_MODEL_CORRUPT && strcmp(r.why, "degree at byte 8") == 0);
    r = reader(&b);
    r.off = 8;
    CHECK(seer_r_i32(&r, "count", 0, 100) == 0 && r.st == SEER_STATUS_MODEL_CORRUPT);
    free(b.p);

    /* strings: longer than the destination, an embedded NUL, a body cut short */
    char dst[8];
    seer_wbuf_t s = {0};
    seer_w_str(&s, "exactly8");
    r = reader(&s);
    seer_r_str(&r, "gpu id", dst, sizeof dst);
    CHECK(r.st == SEER_STATUS_MODEL_CORRUPT && strstr(r.why, "gpu id") && dst[0] == 0);
    r = reader(&s);
    char dst9[9];
    seer_r_str(&r, "gpu id", dst9, sizeof dst9);
    CHECK(r.st == SEER_STATUS_SUCCESS && strcmp(dst9, "exactly8") == 0);
    free(s.p);
    seer_wbuf_t z = {0};
    seer_w_u32(&z, 3);
    seer_w_bytes(&z, "a\0b", 3);
    r = reader(&z);
    seer_r_str(&r, "name", dst, sizeof dst);
    CHECK(r.st == SEER_STATUS_MODEL_CORRUPT && strstr(r.why, "name"));
    free(z.p);
    seer_wbuf_t t = {0};
    seer_w_u32(&t, 5);
    seer_w_bytes(&t, "ab", 2);
    r = reader(&t);
    seer_r_str(&r, "provenance", dst, sizeof dst);
    CHECK(r.st == SEER_STATUS_MODEL_TRUNCATED && strcmp(r.why, "provenance at byte 4") == 0);
    CHECK(dst[0] == 0);
    free(t.p);
}

/* ------------------------------------------------------------- LIBSVM */

#define NFEAT 5

static void quiet(const char *s) { (void)s; }

typedef struct {
    struct svm_node nodes[60 * (NFEAT + 1)], *x[60];
    double y[60];
} problem_t;

/* A small problem: three classes (or a regression target) over NFEAT
 * dense features, some of them zero (written as zeros, not skipped). */
static struct svm_model *train(problem_t *p, int type)
{
    unsigned s = 99;
    for (int i = 0; i < 60; i++) {
        struct svm_node *r = p->nodes + i * (NFEAT + 1);
        double sum = 0;
        for (int f = 0; f < NFEAT; f++) {
            s = s * 1664525u + 1013904223u;
            r[f].index = f + 1;
            r[f].value = f == 2 ? 0 : (s >> 8) / 16777216.0 - 0.5;
            sum += r[f].value * (f + 1);
        }
        r[NFEAT].index = -1;
        p->x[i] = r;
        p->y[i] = type == C_SVC || type == NU_SVC ? (sum < -0.3 ? 0 : sum < 0.3 ? 1 : 2) : sum;
    }
    struct svm_problem prob = {60, p->y, p->x};
    struct svm_parameter par;
    memset(&par, 0, sizeof par);
    par.svm_type = type;
    par.kernel_type = RBF;
    par.gamma = 0.5;
    par.cache_size = 16;
    par.eps = 1e-3;
    par.C = 10;
    par.p = 0.05;
    par.nu = 0.3;
    par.shrinking = 1;
    if (svm_check_parameter(&prob, &par)) return NULL;
    svm_set_print_string_function(quiet);
    return svm_train(&prob, &par);
}

static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* Every field the predictor reads is bit-identical; SVs compared densely. */
static int same_model(const struct svm_model *a, const struct svm_model *b)
{
    int k = a->nr_class, l = a->l;
    if (b->nr_class != k || b->l != l || a->param.svm_type != b->param.svm_type ||
        a->param.kernel_type != b->param.kernel_type || a->param.degree != b->param.degree ||
        !same_bits(a->param.gamma, b->param.gamma) || !same_bits(a->param.coef0, b->param.coef0))
        return 0;
    for (int i = 0; i < k * (k - 1) / 2; i++) if (!same_bits(a->rho[i], b->rho[i])) return 0;
    if (a->label)
        for (int i = 0; i < k; i++) if (a->label[i] != b->label[i] || a->nSV[i] != b->nSV[i]) return 0;
    for (int j = 0; j < k - 1; j++)
        for (int i = 0; i < l; i++) if (!same_bits(a->sv_coef[j][i], b->sv_coef[j][i])) return 0;
    for (int i = 0; i < l; i++) {
        double da[NFEAT] = {0}, db[NFEAT] = {0};
        for (const struct svm_node *x = a->SV[i]; x->index != -1; x++) da[x->index - 1] = x->value;
        for (const struct svm_node *x = b->SV[i]; x->index != -1; x++) db[x->index - 1] = x->value;
        if (memcmp(da, db, sizeof da)) return 0;
    }
    return 1;
}

TEST(svmio_libsvm_clone_bit_identical)
{
    static const int types[] = {C_SVC, EPSILON_SVR};
    for (int t = 0; t < 2; t++) {
        problem_t *p = malloc(sizeof *p);
        REQUIRE(p != NULL);
        struct svm_model *m = train(p, types[t]);
        REQUIRE(m != NULL);
        CHECK(types[t] != C_SVC || m->nr_class == 3);
        struct svm_model *c = seer_svm_clone(m, NFEAT);
        REQUIRE(c != NULL);
        CHECK(same_model(m, c));
        /* the same answers, bit for bit, on the training points and between them */
        int same = 1;
        for (int i = 0; i < 60; i++) {
            struct svm_node q[NFEAT + 1];
            memcpy(q, p->x[i], sizeof q);
            q[0].value += 0.013 * (i % 7);
            same &= same_bits(svm_predict(m, p->x[i]), svm_predict(c, p->x[i]));
            same &= same_bits(svm_predict(m, q), svm_predict(c, q));
        }
        CHECK(same);
        /* serializing the clone gives the same bytes */
        seer_wbuf_t b1 = {0}, b2 = {0};
        seer_w_svm(&b1, m);
        seer_w_svm(&b2, c);
        CHECK(!b1.oom && b1.n == b2.n && memcmp(b1.p, b2.p, b1.n) == 0);
        /* the clone owns its memory: the original and its problem can go */
        svm_free_and_destroy_model(&m);
        free(p);
        struct svm_node q[NFEAT + 1] = {{1, 0.1}, {2, -0.2}, {3, 0}, {4, 0.3}, {5, 0}, {-1, 0}};
        CHECK(isfinite(svm_predict(c, q)));

        /* every truncation fails cleanly (NULL, TRUNCATED or CORRUPT, a reason) */
        int clean = 1;
        for (size_t n = 0; n < b1.n; n++) {
            seer_rbuf_t r = {b1.p, n, 0, SEER_STATUS_SUCCESS, ""};
            struct svm_model *x = seer_r_svm(&r, NFEAT);
            if (x || (r.st != SEER_STATUS_MODEL_TRUNCATED && r.st != SEER_STATUS_MODEL_CORRUPT) || !r.why[0]) {
                clean = 0;
                seer_svm_free(x);
            }
        }
        CHECK(clean);
        /* more features in a vector than the reader allows: CORRUPT */
        seer_rbuf_t r = {b1.p, b1.n, 0, SEER_STATUS_SUCCESS, ""};
        CHECK(seer_r_svm(&r, NFEAT - 1) == NULL);
        CHECK(r.st == SEER_STATUS_MODEL_CORRUPT && strstr(r.why, "svm vector size"));
        seer_svm_free(c);
        free(b1.p);
        free(b2.p);
    }
}

TEST(svmio_absent_model_and_bad_counts)
{
    /* NULL is written as absent and read back as NULL with no error */
    seer_wbuf_t b = {0};
    seer_w_svm(&b, NULL);
    CHECK(!b.oom && b.n == 4);
    seer_rbuf_t r = reader(&b);
    CHECK(seer_r_svm(&r, NFEAT) == NULL);
    CHECK(r.st == SEER_STATUS_SUCCESS && r.off == 4);
    CHECK(seer_svm_clone(NULL, NFEAT) == NULL);
    seer_svm_free(NULL);
    free(b.p);

    /* a C-SVC whose nSV do not add up to l */
    problem_t *p = malloc(sizeof *p);
    REQUIRE(p != NULL);
    struct svm_model *m = train(p, C_SVC);
    REQUIRE(m != NULL);
    m->nSV[0]--;
    m->nSV[1]++;
    seer_wbuf_t ok = {0};
    seer_w_svm(&ok, m); /* still sums to l */
    r = reader(&ok);
    struct svm_model *c = seer_r_svm(&r, NFEAT);
    CHECK(c != NULL && r.st == SEER_STATUS_SUCCESS);
    seer_svm_free(c);
    m->nSV[1]--;
    seer_wbuf_t bad = {0};
    seer_w_svm(&bad, m);
    r = reader(&bad);
    CHECK(seer_r_svm(&r, NFEAT) == NULL);
    CHECK(r.st == SEER_STATUS_MODEL_CORRUPT && strstr(r.why, "svm nSV sum"));
    m->nSV[1]++;
    m->nSV[0]++;
    /* a vector count far beyond what is left in the file: TRUNCATED
     * before anything is allocated for it */
    seer_wbuf_t head = {0};
    seer_w_u32(&head, 1);
    seer_w_i32(&head, m->param.svm_type);
    seer_w_i32(&head, m->param.kernel_type);
    seer_w_i32(&head, m->param.degree);
    seer_w_f64(&head, m->param.gamma);
    seer_w_f64(&head, m->param.coef0);
    seer_w_i32(&head, 3);
    seer_w_i32(&head, 1 << 20);
    r = reader(&head);
    CHECK(seer_r_svm(&r, NFEAT) == NULL);
    CHECK(r.st == SEER_STATUS_MODEL_TRUNCATED && strstr(r.why, "svm vectors"));
    /* a class count out of range */
    head.n -= 8;
    seer_w_i32(&head, 1);
    seer_w_i32(&head, 4);
    r = reader(&head);
    CHECK(seer_r_svm(&r, NFEAT) == NULL);
    CHECK(r.st == SEER_STATUS_MODEL_CORRUPT && strstr(r.why, "svm classes"));
    svm_free_and_destroy_model(&m);
    free(ok.p);
    free(bad.p);
    free(head.p);
    free(p);
}

TEST(svmio_empty_write_of_null_is_a_no_op)
{
    /* An empty write of a NULL buffer is a no-op (seer_model_serialize
     * copies an empty payload after a failed grow): memcpy never sees
     * NULL (make ubsan). */
    seer_wbuf_t b = {0};
    seer_w_bytes(&b, NULL, 0);
    CHECK(!b.oom && b.n == 0 && b.p == NULL);
    seer_w_u32(&b, 7);
    seer_w_bytes(&b, NULL, 0);
    CHECK(!b.oom && b.n == 4);
    free(b.p);
}

TEST(svmio_every_libsvm_type_clones)
{
    /* Every LIBSVM model type survives seer_svm_clone: the writer puts
     * labels and per-class counts for C_SVC and NU_SVC, as the reader
     * expects. */
    static const int types[] = {NU_SVR, NU_SVC};
    for (int t = 0; t < 2; t++) {
        problem_t *p = malloc(sizeof *p);
        REQUIRE(p != NULL);
        struct svm_model *m = train(p, types[t]);
        REQUIRE(m != NULL);
        struct svm_model *c = seer_svm_clone(m, NFEAT);
        if (!c || !same_model(m, c)) printf("\n    %s does not clone", t ? "NU_SVC" : "NU_SVR");
        CHECK(c != NULL && same_model(m, c));
        seer_svm_free(c);
        svm_free_and_destroy_model(&m);
        free(p);
    }
}

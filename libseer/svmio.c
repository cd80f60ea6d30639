/* Binary buffers and LIBSVM models inside model files. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "svmio.h"

void seer_w_bytes(seer_wbuf_t *b, const void *d, size_t n)
{
    if (b->oom || n == 0) return; /* d may be NULL then: memcpy must not see it */
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->n + n) cap *= 2;
        unsigned char *np = realloc(b->p, cap);
        if (!np) { b->oom = 1; return; }
        b->p = np;
        b->cap = cap;
    }
    memcpy(b->p + b->n, d, n);
    b->n += n;
}

void seer_w_u32(seer_wbuf_t *b, uint32_t v)
{
    unsigned char x[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 24)};
    seer_w_bytes(b, x, 4);
}
void seer_w_i32(seer_wbuf_t *b, int32_t v) { seer_w_u32(b, (uint32_t)v); }
void seer_w_u64(seer_wbuf_t *b, uint64_t v)
{
    seer_w_u32(b, (uint32_t)v);
    seer_w_u32(b, (uint32_t)(v >> 32));
}
void seer_w_f64(seer_wbuf_t *b, double v)
{
    uint64_t u;
    memcpy(&u, &v, 8);
    seer_w_u64(b, u);
}
void seer_w_str(seer_wbuf_t *b, const char *s)
{
    size_t n = strlen(s);
    seer_w_u32(b, (uint32_t)n);
    seer_w_bytes(b, s, n);
}

void seer_r_fail(seer_rbuf_t *r, seer_status_t st, const char *why)
{
    if (r->st != SEER_STATUS_SUCCESS) return;
    r->st = st;
    snprintf(r->why, sizeof r->why, "%s at byte %zu", why, r->off);
}

static const unsigned char *take(seer_rbuf_t *r, size_t n, const char *what)
{
    if (r->st) return NULL;
    if (n > r->n - r->off) {
        seer_r_fail(r, SEER_STATUS_MODEL_TRUNCATED, what);
        return NULL;
    }
    const unsigned char *p = r->p + r->off;
    r->off += n;
    return p;
}

uint32_t seer_r_u32(seer_rbuf_t *r, const char *what)
{
    const unsigned char *p = take(r, 4, what);
    if (!p) return 0;
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int32_t seer_r_i32(seer_rbuf_t *r, const char *what, int32_t lo, int32_t hi)
{
    int32_t v = (int32_t)seer_r_u32(r, what);
    if (!r->st && (v < lo || v > hi)) {
        seer_r_fail(r, SEER_STATUS_MODEL_CORRUPT, what);
        return lo;
    }
    return r->st ? lo : v;
}

uint64_t seer_r_u64(seer_rbuf_t *r, const char *what)
{
    uint64_t lo = seer_r_u32(r, what);
    return lo | (uint64_t)seer_r_u32(r, what) << 32;
}

double seer_r_f64_in(seer_rbuf_t *r, const char *what, double lo, double hi)
{
    uint64_t u = seer_r_u64(r, what);
    double v;
    memcpy(&v, &u, 8);
    if (r->st) return 0;
    /* A checksum only says the file is what was written; a crafted or
     * buggy file with a valid one must still not make NaN or 1e299 ms. */
    if (!(v >= lo && v <= hi)) {
        char why[96];
        snprintf(why, sizeof why, "%s %g (must be in [%g, %g])", what, v, lo, hi);
        seer_r_fail(r, SEER_STATUS_MODEL_CORRUPT, why);
        return 0;
    }
    return v;
}

double seer_r_f64(seer_rbuf_t *r, const char *what)
{
    return seer_r_f64_in(r, what, -SEER_MODEL_VALUE_MAX, SEER_MODEL_VALUE_MAX);
}

void seer_r_str(seer_rbuf_t *r, const char *what, char *dst, size_t size)
{
    uint32_t n = seer_r_u32(r, what);
    dst[0] = 0;
    if (r->st) return;
    if (n >= size) {
        seer_r_fail(r, SEER_STATUS_MODEL_CORRUPT, what);
        return;
    }
    const unsigned char *p = take(r, n, what);
    if (!p) return;
    memcpy(dst, p, n);
    dst[n] = 0;
    if (strlen(dst) != n) seer_r_fail(r, SEER_STATUS_MODEL_CORRUPT, what);
}

/* Layout: u8-as-u32 present; svm_type, kernel_type, degree; gamma, coef0;
 * nr_class, l; rho[k(k-1)/2]; label[k], nSV[k] (classification only);
 * sv_coef[(k-1) * l]; per SV: dense nfeat values (SVs are always dense
 * here: libseer writes every feature). */
void seer_w_svm(seer_wbuf_t *b, const struct svm_model *m)
{
    seer_w_u32(b, m != NULL);
    if (!m) return;
    /* labels and per-class counts: every classifier type, as the reader expects */
    int k = m->nr_class, l = m->l, cls = m->param.svm_type == C_SVC || m->param.svm_type == NU_SVC;
    seer_w_i32(b, m->param.svm_type);
    seer_w_i32(b, m->param.kernel_type);
    seer_w_i32(b, m->param.degree);
    seer_w_f64(b, m->param.gamma);
    seer_w_f64(b, m->param.coef0);
    seer_w_i32(b, k);
    seer_w_i32(b, l);
    for (int i = 0; i < k * (k - 1) / 2; i++) seer_w_f64(b, m->rho[i]);
    if (cls) {
        for (int i = 0; i < k; i++) seer_w_i32(b, m->label[i]);
        for (int i = 0; i < k; i++) seer_w_i32(b, m->nSV[i]);
    }
    for (int j = 0; j < k - 1; j++)
        for (int i = 0; i < l; i++) seer_w_f64(b, m->sv_coef[j][i]);
    for (int i = 0; i < l; i++) {
        /* sparse -> dense: features are 1-based indices */
        double dense[64] = {0};
        int nf = 0;
        for (const struct svm_node *x = m->SV[i]; x->index != -1; x++)
            if (x->index >= 1 && x->index <= 64) {
                dense[x->index - 1] = x->value;
                if (x->index > nf) nf = x->index;
            }
        seer_w_i32(b, nf);
        for (int f = 0; f < nf; f++) seer_w_f64(b, dense[f]);
    }
}

void seer_svm_free(struct svm_model *m)
{
    if (m) svm_free_and_destroy_model(&m); /* free_sv = 1: SV[0] owns the nodes */
}

struct svm_model *seer_r_svm(seer_rbuf_t *r, int nfeat)
{
    if (!seer_r_u32(r, "svm presence")) return NULL;
    struct svm_model *m = calloc(1, sizeof *m);
    if (!m) { seer_r_fail(r, SEER_STATUS_ALLOC_FAILED, "svm model"); return NULL; }
    m->free_sv = 1;
    m->param.svm_type = seer_r_i32(r, "svm type", C_SVC, NU_SVR);
    /* libseer trains RBF kernels only; a polynomial one could overflow. */
    m->param.kernel_type = seer_r_i32(r, "svm kernel", RBF, RBF);
    m->param.degree = seer_r_i32(r, "svm degree", 0, 10);
    m->param.gamma = seer_r_f64_in(r, "svm gamma", SEER_SVM_GAMMA_MIN, SEER_SVM_GAMMA_MAX);
    m->param.coef0 = seer_r_f64(r, "svm coef0");
    int k = m->nr_class = seer_r_i32(r, "svm classes", 2, 64);
    int l = m->l = seer_r_i32(r, "svm vector count", 1, 1 << 20);
    /* Bound l by what is left in the file before allocating. */
    if (!r->st && (size_t)l * (8 * (size_t)(k - 1) + 4) > r->n - r->off)
        seer_r_fail(r, SEER_STATUS_MODEL_TRUNCATED, "svm vectors");
    if (r->st) { free(m); return NULL; }
    int cls = m->param.svm_type == C_SVC || m->param.svm_type == NU_SVC;
    m->rho = calloc((size_t)(k * (k - 1) / 2), sizeof *m->rho);
    m->sv_coef = calloc((size_t)(k - 1), sizeof *m->sv_coef);
    m->SV = calloc((size_t)l, sizeof *m->SV);
    struct svm_node *nodes = calloc((size_t)l * (size_t)(nfeat + 1), sizeof *nodes);
    if (cls) {
        m->label = calloc((size_t)k, sizeof *m->label);
        m->nSV = calloc((size_t)k, sizeof *m->nSV);
    }
    int ok = m->rho && m->sv_coef && m->SV && nodes && (!cls || (m->label && m->nSV));
    for (int j = 0; ok && j < k - 1; j++) ok = (m->sv_coef[j] = calloc((size_t)l, sizeof(double))) != NULL;
    if (!ok) {
        free(nodes);
        if (m->sv_coef) for (int j = 0; j < k - 1; j++) free(m->sv_coef[j]);
        free(m->sv_coef); free(m->rho); free(m->SV); free(m->label); free(m->nSV); free(m);
        seer_r_fail(r, SEER_STATUS_ALLOC_FAILED, "svm model");
        return NULL;
    }
    m->SV[0] = nodes;
    for (int i = 0; i < k * (k - 1) / 2; i++) m->rho[i] = seer_r_f64(r, "svm rho");
    if (cls) {
        long total = 0;
        for (int i = 0; i < k; i++) m->label[i] = seer_r_i32(r, "svm label", -1000000, 1000000);
        for (int i = 0; i < k; i++) total += m->nSV[i] = seer_r_i32(r, "svm nSV", 0, l);
        if (!r->st && total != l) seer_r_fail(r, SEER_STATUS_MODEL_CORRUPT, "svm nSV sum");
    }
    for (int j = 0; j < k - 1; j++)
        for (int i = 0; i < l; i++) m->sv_coef[j][i] = seer_r_f64(r, "svm coefficient");
    for (int i = 0; i < l && !r->st; i++) {
        struct svm_node *x = nodes + (size_t)i * (size_t)(nfeat + 1);
        m->SV[i] = x;
        int nf = seer_r_i32(r, "svm vector size", 0, nfeat);
        for (int f = 0; f < nf; f++) {
            x[f].index = f + 1;
            x[f].value = seer_r_f64(r, "svm vector");
        }
        x[nf].index = -1;
    }
    if (r->st) {
        /* SV[0] is the node block, so this frees everything. */
        seer_svm_free(m);
        return NULL;
    }
    return m;
}

struct svm_model *seer_svm_clone(const struct svm_model *m, int nfeat)
{
    seer_wbuf_t b = {0};
    seer_w_svm(&b, m);
    if (b.oom) { free(b.p); return NULL; }
    seer_rbuf_t r = {b.p, b.n, 0, SEER_STATUS_SUCCESS, ""};
    struct svm_model *c = seer_r_svm(&r, nfeat);
    free(b.p);
    return c;
}

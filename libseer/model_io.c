/* Model files (docs/model-format.md): serialization, loading with every
 * field range-checked, saving, and what a model says about itself. */
#define _XOPEN_SOURCE 700 /* realpath (XSI): a symbolic link saves to the file it names */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include "common.h"
#include "fileio.h"
#include "gemm.h"
#include "gpu.h"
#include "gpufile.h"
#include "model.h"
#include "svmio.h"

static void w_family(seer_wbuf_t *b, const seer_family_t *f)
{
    seer_w_i32(b, f->dir);
    seer_w_i32(b, f->algo);
    seer_w_i32(b, f->math);
    seer_w_i32(b, f->n_rows);
    seer_w_i32(b, f->src);
    seer_w_i32(b, f->major_cls);
    seer_w_i32(b, f->nvar);
    for (int i = 0; i < f->nvar; i++) {
        const seer_variant_t *v = &f->var[i];
        seer_w_str(b, v->name);
        seer_w_i32(b, v->tm);
        seer_w_i32(b, v->tn);
        seer_w_i32(b, v->threads);
        seer_w_i32(b, v->geo);
        seer_w_i32(b, v->bps);
        for (int c = 0; c < 4; c++) {
            seer_w_i32(b, v->has[c]);
            for (int j = 0; j < SEER_NTERMS; j++) seer_w_f64(b, v->coef[c][j]);
        }
    }
    for (int i = 0; i < SEER_NF; i++) seer_w_f64(b, f->mu[i]);
    for (int i = 0; i < SEER_NF; i++) seer_w_f64(b, f->sd[i]);
    seer_w_svm(b, f->vclf);
    seer_w_svm(b, f->cclf);
    seer_w_svm(b, f->svr);
}

/* Model file format 3 stores, per family, SEER_NF standardization pairs
 * and SEER_NTERMS coefficients per class, and SEER_GEMM_TERMS per GEMM
 * fit, one per math type and kind (docs/model-format.md): a change to any
 * count is a new format. */
_Static_assert(SEER_NTERMS == 7 && SEER_NF_SHAPE == 11 && SEER_NF_CLASS == 13 && SEER_NF == 14,
               "model file format 3: 7 terms, 11/13/14 features");
_Static_assert(SEER_GEMM_TERMS == 5 && SEER_GEMM_KINDS == 2, "model file format 3: 5 GEMM terms, 2 kinds");
_Static_assert(SEER_ALL_CLASSES == 3, "model file format 3: three classes and an all-class fit per variant");

static void w_gemm(seer_wbuf_t *p, const seer_gemm_fit_t *g)
{
    seer_w_i32(p, g->present);
    seer_w_i32(p, g->tm);
    seer_w_i32(p, g->tn);
    seer_w_i32(p, g->bps);
    for (int j = 0; j < SEER_GEMM_TERMS; j++) seer_w_f64(p, g->coef[j]);
    seer_w_i32(p, g->n_rows);
    seer_w_str(p, g->source_gpu);
}

int seer_model_serialize(const struct seer_model *m, unsigned char **buf, size_t *size)
{
    seer_wbuf_t p = {0};
    seer_w_str(&p, m->gpu_id);
    seer_w_u32(&p, m->lib_version);
    seer_w_str(&p, m->provenance);
    seer_w_u64(&p, (uint64_t)m->n_rows);
    for (int c = 0; c < 3; c++)
        for (int j = 0; j < SEER_NTERMS; j++) seer_w_f64(&p, m->kcoef[c][j]);
    seer_w_i32(&p, m->transferred);
    seer_w_i32(&p, m->nsrc);
    for (int i = 0; i < m->nsrc; i++) seer_w_str(&p, m->src[i].id);
    seer_w_u32(&p, (uint32_t)m->nfam);
    for (int i = 0; i < m->nfam; i++) w_family(&p, &m->fam[i]);
    for (int i = 0; i < 2 * SEER_GEMM_KINDS; i++) w_gemm(&p, &m->gemm[0][0] + i); /* [math][kind] in order */
    seer_w_u32(&p, (uint32_t)m->nscale);
    for (int i = 0; i < m->nscale; i++) {
        const seer_conv_scale_t *c = &m->scale[i];
        seer_w_i32(&p, c->dir);
        seer_w_i32(&p, c->algo);
        seer_w_i32(&p, c->cls);
        seer_w_i32(&p, c->n_rows);
        seer_w_f64(&p, c->scale);
    }
    for (int i = 0; i < 2 * SEER_GEMM_KINDS; i++) w_gemm(&p, &m->gemm2[0][0] + i); /* format 5 */
    seer_wbuf_t out = {0};
    seer_w_bytes(&out, SEER_MODEL_MAGIC, 8);
    seer_w_u32(&out, SEER_MODEL_FORMAT);
    seer_w_u64(&out, p.n);
    seer_w_u32(&out, (uint32_t)crc32_z(0, p.p, p.n)); /* zlib: IEEE 802.3 CRC-32 */
    seer_w_bytes(&out, p.p, p.n);
    free(p.p);
    if (p.oom || out.oom) { free(out.p); return 0; }
    *buf = out.p;
    *size = out.n;
    return 1;
}

int seer_family_copy(seer_family_t *dst, const seer_family_t *src)
{
    *dst = *src;
    dst->vclf = src->vclf ? seer_svm_clone(src->vclf, SEER_NF) : NULL;
    dst->cclf = src->cclf ? seer_svm_clone(src->cclf, SEER_NF) : NULL;
    dst->svr = src->svr ? seer_svm_clone(src->svr, SEER_NF) : NULL;
    if ((src->vclf && !dst->vclf) || (src->cclf && !dst->cclf) || (src->svr && !dst->svr)) {
        seer_family_free(dst);
        return 0;
    }
    return 1;
}

void seer_family_free(seer_family_t *f)
{
    seer_svm_free(f->vclf);
    seer_svm_free(f->cclf);
    seer_svm_free(f->svr);
    f->vclf = f->cclf = f->svr = NULL;
}

seer_status_t seer_model_destroy(seer_model_t m)
{
    if (!m) return SEER_STATUS_SUCCESS;
    for (int i = 0; i < m->nfam; i++) seer_family_free(&m->fam[i]);
    for (int i = 0; i < m->npeer; i++) seer_model_destroy(m->peer[i]);
    free(m->peer);
    free(m->peer_role);
    free(m->fam);
    free(m);
    return SEER_STATUS_SUCCESS;
}

seer_status_t seer_model_free(seer_model_t m) { return seer_model_destroy(m); }

static void r_family(seer_rbuf_t *r, seer_family_t *f)
{
    f->dir = seer_r_i32(r, "family direction", 0, 2);
    f->algo = seer_r_i32(r, "family algo", -1, 7);
    f->math = seer_r_i32(r, "family math", 0, 1);
    f->n_rows = seer_r_i32(r, "family rows", 0, 1 << 30);
    f->src = seer_r_i32(r, "family source", 0, SEER_MAX_SOURCES - 1);
    f->major_cls = seer_r_i32(r, "family class", 0, 2);
    f->nvar = seer_r_i32(r, "variant count", 1, SEER_MAX_VARIANTS);
    for (int i = 0; i < f->nvar && !r->st; i++) {
        seer_variant_t *v = &f->var[i];
        seer_r_str(r, "variant name", v->name, sizeof v->name);
        v->tm = seer_r_i32(r, "variant tile", 1, 4096);
        v->tn = seer_r_i32(r, "variant tile", 1, 4096);
        v->threads = seer_r_i32(r, "variant threads", 1, 1024);
        v->geo = seer_r_i32(r, "variant geometry", SEER_GEO_TILED, SEER_GEO_TILED_SPLIT);
        if (!r->st && v->geo == SEER_GEO_TILED_SPLIT && f->dir != SEER_DIR_BWD_FILTER) /* wgrad only */
            seer_r_fail(r, SEER_STATUS_MODEL_CORRUPT, "variant geometry");
        v->bps = seer_r_i32(r, "variant blocks per SM", 1, 64);
        for (int c = 0; c < 4; c++) {
            v->has[c] = seer_r_i32(r, "class flag", 0, 1);
            for (int j = 0; j < SEER_NTERMS; j++) v->coef[c][j] = seer_r_f64(r, "coefficient");
        }
    }
    for (int i = 0; i < SEER_NF; i++) f->mu[i] = seer_r_f64(r, "feature mean");
    for (int i = 0; i < SEER_NF; i++) {
        f->sd[i] = seer_r_f64_in(r, "feature scale", 1e-9, SEER_MODEL_VALUE_MAX);
    }
    f->vclf = seer_r_svm(r, SEER_NF);
    f->cclf = seer_r_svm(r, SEER_NF);
    f->svr = seer_r_svm(r, SEER_NF);
    /* A classifier must only name classes/variants that exist. */
    if (!r->st && f->vclf)
        for (int i = 0; i < f->vclf->nr_class; i++)
            if (!f->vclf->label || f->vclf->label[i] < 0 || f->vclf->label[i] >= f->nvar)
                seer_r_fail(r, SEER_STATUS_MODEL_CORRUPT, "variant classifier labels");
    if (!r->st && f->cclf)
        for (int i = 0; i < f->cclf->nr_class; i++)
            if (!f->cclf->label || f->cclf->label[i] < 0 || f->cclf->label[i] > 2)
                seer_r_fail(r, SEER_STATUS_MODEL_CORRUPT, "class classifier labels");
    if (!r->st && f->svr && f->svr->param.svm_type != EPSILON_SVR)
        seer_r_fail(r, SEER_STATUS_MODEL_CORRUPT, "correction model type");
}

/* The 24-byte header: magic, version, payload length (all of what
 * follows), checksum.  *plen and *crc on success. */
static seer_status_t check_header(seer_handle_t h, const unsigned char *d, size_t size, uint64_t *plen,
                                  uint32_t *crc, uint32_t *version)
{
    if (size < 24) {
        /* what bytes there are of the magic must be the magic's
         * ("XEERMOD" is no model cut short) */
        if (memcmp(d, SEER_MODEL_MAGIC, size < 8 ? size : 8) != 0)
            return seer_error(h, SEER_STATUS_MODEL_CORRUPT, "not a libseer model (bad magic)");
        return seer_error(h, SEER_STATUS_MODEL_TRUNCATED, "model file has %zu bytes, header needs 24",
                          size);
    }
    if (memcmp(d, SEER_MODEL_MAGIC, 8) != 0)
        return seer_error(h, SEER_STATUS_MODEL_CORRUPT, "not a libseer model (bad magic)");
    seer_rbuf_t hr = {d, size, 8, SEER_STATUS_SUCCESS, ""};
    uint32_t ver = seer_r_u32(&hr, "version");
    *plen = seer_r_u64(&hr, "payload length");
    *crc = seer_r_u32(&hr, "checksum");
    *version = ver;
    if (ver < SEER_MODEL_FORMAT_OLDEST || ver > SEER_MODEL_FORMAT)
        return seer_error(h, SEER_STATUS_MODEL_VERSION,
                          "model format version %u, this libseer reads versions %d to %d%s", ver,
                          SEER_MODEL_FORMAT_OLDEST, SEER_MODEL_FORMAT,
                          ver == 1   ? " (version 1 models predicted host and GPU time together: "
                                       "train it again with seer train)"
                          : ver == 2 ? " (version 2 models have one GEMM fit for single and batched "
                                       "products: train it again with seer train)"
                                     : "");
    if (*plen > size - 24)
        return seer_error(h, SEER_STATUS_MODEL_TRUNCATED,
                          "model payload is %llu bytes but only %zu follow the header",
                          (unsigned long long)*plen, size - 24);
    if (*plen < size - 24)
        return seer_error(h, SEER_STATUS_MODEL_CORRUPT, "%zu unexpected bytes after the payload",
                          (size_t)(size - 24 - *plen));
    if ((uint32_t)crc32_z(0, d + 24, (size_t)*plen) != *crc)
        return seer_error(h, SEER_STATUS_MODEL_CORRUPT, "model checksum mismatch");
    return SEER_STATUS_SUCCESS;
}

/* The GEMM fits of the payload. */
static void r_gemm(seer_rbuf_t *r, seer_gemm_fit_t *g)
{
    g->present = seer_r_i32(r, "gemm flag", 0, 1);
    g->tm = seer_r_i32(r, "gemm tile", 0, 4096);
    g->tn = seer_r_i32(r, "gemm tile", 0, 4096);
    g->bps = seer_r_i32(r, "gemm blocks per SM", 0, 64);
    for (int j = 0; j < SEER_GEMM_TERMS; j++) g->coef[j] = seer_r_f64(r, "gemm coefficient");
    g->n_rows = seer_r_i32(r, "gemm rows", 0, 1 << 30);
    seer_r_str(r, "gemm source", g->source_gpu, sizeof g->source_gpu);
    if (!r->st && g->present && (g->tm < 1 || g->tn < 1 || g->bps < 1))
        seer_r_fail(r, SEER_STATUS_MODEL_CORRUPT, "gemm tile");
}

seer_status_t seer_model_load_buffer(seer_handle_t h, const void *data, size_t size,
                                     seer_model_t *out)
{
    if (!data || !out) return seer_error(h, SEER_STATUS_BAD_PARAM, "model buffer or out is NULL");
    const unsigned char *d = data;
    uint64_t plen = 0;
    uint32_t crc = 0, ver = 0;
    seer_status_t hst = check_header(h, d, size, &plen, &crc, &ver);
    if (hst) return hst;

    struct seer_model *m = calloc(1, sizeof *m);
    if (!m) return seer_error(h, SEER_STATUS_ALLOC_FAILED, "model");
    m->checksum = crc;
    seer_rbuf_t r = {d + 24, (size_t)plen, 0, SEER_STATUS_SUCCESS, ""};
    char unknown[32] = "";      /* a GPU id neither the table nor h knows */
    seer_r_str(&r, "gpu id", m->gpu_id, sizeof m->gpu_id);
    m->lib_version = seer_r_u32(&r, "library version");
    seer_r_str(&r, "provenance", m->provenance, sizeof m->provenance);
    m->n_rows = (int64_t)(seer_r_u64(&r, "row count") & 0x7fffffffffffffffULL);
    for (int c = 0; c < 3; c++)
        for (int j = 0; j < SEER_NTERMS; j++) m->kcoef[c][j] = seer_r_f64(&r, "kernel coefficient");
    m->transferred = seer_r_i32(&r, "transfer flag", 0, 1);
    m->nsrc = seer_r_i32(&r, "source count", 1, SEER_MAX_SOURCES);
    for (int i = 0; i < m->nsrc && !r.st; i++) {
        char id[32];
        seer_r_str(&r, "source gpu", id, sizeof id);
        const seer_gpu_info_t *g = seer_gpu_lookup_h(h, id);
        if (!r.st && !g) {
            seer_strlcpy(unknown, id, sizeof unknown);
            seer_r_fail(&r, SEER_STATUS_UNKNOWN_GPU, "source GPU id");
        }
        if (g) m->src[i] = *g;
    }
    uint32_t nfam = seer_r_u32(&r, "family count");
    if (!r.st && nfam > 1024) seer_r_fail(&r, SEER_STATUS_MODEL_CORRUPT, "family count");
    if (!r.st && nfam) {
        m->fam = calloc(nfam, sizeof *m->fam);
        if (!m->fam) seer_r_fail(&r, SEER_STATUS_ALLOC_FAILED, "families");
    }
    for (uint32_t i = 0; i < nfam && !r.st; i++) {
        r_family(&r, &m->fam[i]);
        m->nfam = (int)i + 1;
        if (!r.st && m->fam[i].src >= m->nsrc) seer_r_fail(&r, SEER_STATUS_MODEL_CORRUPT, "family source");
    }
    for (int math = 0; math < 2; math++)
        for (int kind = 0; kind < SEER_GEMM_KINDS && !r.st; kind++) r_gemm(&r, &m->gemm[math][kind]);
    /* format 4: the conv scales, each key once */
    uint32_t nscale = ver >= 4 ? seer_r_u32(&r, "scale count") : 0;
    if (!r.st && nscale > SEER_MAX_SCALES) seer_r_fail(&r, SEER_STATUS_MODEL_CORRUPT, "scale count");
    for (uint32_t i = 0; i < nscale && !r.st; i++) {
        seer_conv_scale_t *c = &m->scale[i];
        c->dir = seer_r_i32(&r, "scale direction", 0, 2);
        c->algo = seer_r_i32(&r, "scale algorithm", -1, 7);
        c->cls = seer_r_i32(&r, "scale class", 0, SEER_SCALE_CLASSES - 1);
        c->n_rows = seer_r_i32(&r, "scale rows", 0, 1 << 30);
        c->scale = seer_r_f64(&r, "scale");
        if (!r.st && !(c->scale >= 1 / SEER_SCALE_MAX && c->scale <= SEER_SCALE_MAX))
            seer_r_fail(&r, SEER_STATUS_MODEL_CORRUPT, "scale");
        if (!r.st && seer_model_scale(m, c->dir, c->algo, c->cls))
            seer_r_fail(&r, SEER_STATUS_MODEL_CORRUPT, "scale key (twice)");
        m->nscale = (int)i + 1;
    }
    /* format 5: the second GEMM fits of a transferred model */
    for (int math = 0; math < 2 && ver >= 5; math++)
        for (int kind = 0; kind < SEER_GEMM_KINDS && !r.st; kind++) {
            r_gemm(&r, &m->gemm2[math][kind]);
            /* a second fit times a GEMM beside the first, never alone */
            if (!r.st && m->gemm2[math][kind].present && !m->gemm[math][kind].present)
                seer_r_fail(&r, SEER_STATUS_MODEL_CORRUPT, "second gemm fit (no first)");
        }
    /* no family: a GEMM-only model, which must then have a GEMM fit */
    int gemm_fits = 0;
    for (int math = 0; math < 2; math++)
        for (int kind = 0; kind < SEER_GEMM_KINDS; kind++) gemm_fits += m->gemm[math][kind].present;
    if (!r.st && !nfam && !gemm_fits) seer_r_fail(&r, SEER_STATUS_MODEL_CORRUPT, "family count (0, and no GEMM fit)");
    if (!r.st && r.off != r.n) seer_r_fail(&r, SEER_STATUS_MODEL_CORRUPT, "trailing payload bytes");
    if (!r.st) {
        const seer_gpu_info_t *g = seer_gpu_lookup_h(h, m->gpu_id);
        if (!g) {
            seer_strlcpy(unknown, m->gpu_id, sizeof unknown);
            seer_r_fail(&r, SEER_STATUS_UNKNOWN_GPU, "GPU id");
        } else {
            m->gpu = *g;
        }
    }
    if (unknown[0]) {
        /* a model trained for a GPU from a description file: the file is
         * not embedded, so the loading handle must know the GPU */
        seer_model_destroy(m);
        return seer_error(h, SEER_STATUS_UNKNOWN_GPU, "model is for GPU '%s', not in the GPU table: "
                          "register its GPU description file first (seer_gpu_register_file; "
                          "the CLI's --gpu FILE)", unknown);
    }
    if (r.st) {
        /* checksum passed, so this is a bug in the writer or a crafted file */
        seer_status_t st = r.st;
        char why[160];
        snprintf(why, sizeof why, "%s", r.why);
        seer_model_destroy(m);
        return seer_error(h, st, "model payload: bad %s", why);
    }
    seer_model_set_analytical_scales(m);
    *out = m;
    return SEER_STATUS_SUCCESS;
}

seer_status_t seer_model_load(seer_handle_t h, const char *path, seer_model_t *out)
{
    if (!path || !out) return seer_error(h, SEER_STATUS_BAD_PARAM, "path or model is NULL");
    char *buf = NULL;
    size_t n = 0;
    seer_status_t st = seer_read_file(h, path, "model", SEER_MODEL_MAX_BYTES, SEER_MODEL_MAGIC, 8,
                                      &buf, &n);
    if (st) return st;
    st = seer_model_load_buffer(h, buf, n, out);
    free(buf);
    if (st && h) {
        char msg[900];
        seer_get_last_error_copy(h, msg, sizeof msg); /* under the handle's lock */
        seer_error(h, st, "%s: %s", path, msg);
    }
    return st;
}

seer_status_t seer_model_save(seer_handle_t h, const seer_model *m, const char *path)
{
    if (!m || !path) return seer_error(h, SEER_STATUS_BAD_PARAM, "model or path is NULL");
    unsigned char *buf;
    size_t n;
    if (!seer_model_serialize(m, &buf, &n)) return seer_error(h, SEER_STATUS_ALLOC_FAILED, "model");
    /* Only a regular file is replaced, through a symbolic link the file
     * it names: the rename below would put a model file in place of a
     * device, a FIFO or the link itself (a model saved to /dev/full
     * replaced the device and reported success). */
    struct stat sb;
    char *real = NULL, why[128];
    if (lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode)) {
        if (!(real = realpath(path, NULL))) {
            int err = errno;
            free(buf);
            return seer_error(h, SEER_STATUS_IO_ERROR, "'%s': %s: no model written", path,
                              err == ENOENT ? "a symbolic link to nothing" : seer_errno_text(err, why, sizeof why));
        }
        path = real;
    }
    int exists = lstat(path, &sb) == 0;
    if (exists && !S_ISREG(sb.st_mode)) {
        free(buf);
        seer_status_t st = seer_error(h, SEER_STATUS_IO_ERROR, "'%s' is %s: not replaced by a model file", path,
                                      S_ISDIR(sb.st_mode) ? "a directory" : "not a regular file");
        free(real);
        return st;
    }
    /* Write beside the target, in its directory under a short name of
     * its own (".seer-" and 6 hex digits: a target name near the
     * system's 255-byte limit still saves; O_EXCL, the next name on a
     * clash, never another save's), and rename: a failed write never
     * leaves a half model under the real name.  A new file gets 0666
     * less the umask, as fopen's; a replaced one keeps its mode where
     * the file system allows. */
    const char *slash = strrchr(path, '/');
    int dlen = slash ? (int)(slash - path + 1) : 0;
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 16);
    if (!tmp) {
        free(buf);
        free(real);
        return seer_error(h, SEER_STATUS_ALLOC_FAILED, "path");
    }
    int fd = -1, err = 0;
    unsigned seed = (unsigned)getpid() * 2654435761u;
    for (unsigned i = 0; fd < 0 && i < 1000; i++) {
        snprintf(tmp, plen + 16, "%.*s.seer-%06x", dlen, path, (seed + i * 40503u) & 0xffffffu);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
        if (fd < 0 && (err = errno) != EEXIST) break;
    }
    if (fd >= 0 && exists) fchmod(fd, sb.st_mode & 07777); /* best effort: some mounts have no modes */
    FILE *fp = fd < 0 ? NULL : fdopen(fd, "wb");
    if (!fp) {
        if (fd >= 0) {
            err = errno;
            close(fd);
            remove(tmp);
        }
        free(buf);
        free(tmp);
        seer_status_t st = seer_error(h, SEER_STATUS_IO_ERROR, "cannot create '%s': %s", path,
                                      seer_errno_text(err, why, sizeof why));
        free(real);
        return st;
    }
    int ok = fwrite(buf, 1, n, fp) == n;
    ok = (fclose(fp) == 0) && ok;
    ok = ok && rename(tmp, path) == 0;
    if (!ok) remove(tmp);
    free(buf);
    free(tmp);
    seer_status_t st = ok ? SEER_STATUS_SUCCESS : seer_error(h, SEER_STATUS_IO_ERROR, "cannot write '%s'", path);
    free(real);
    return st;
}

static int cmp_scale(const void *a, const void *b)
{
    const seer_conv_scale_info_t *x = a, *y = b;
    if (x->direction != y->direction) return x->direction < y->direction ? -1 : 1;
    if (x->algo != y->algo) return x->algo < y->algo ? -1 : 1;
    return (x->math > y->math) - (x->math < y->math);
}

seer_status_t seer_model_get_conv_scales(const seer_model *m, seer_conv_scale_info_t *scales, int cap, int *n)
{
    if (!m || !n || cap < 0 || (cap > 0 && !scales)) return SEER_STATUS_BAD_PARAM;
    seer_conv_scale_info_t all[SEER_MAX_SCALES];
    for (int i = 0; i < m->nscale; i++)
        all[i] = (seer_conv_scale_info_t){(seer_direction_t)m->scale[i].dir, m->scale[i].algo, m->scale[i].cls,
                                          m->scale[i].n_rows, m->scale[i].scale};
    qsort(all, (size_t)m->nscale, sizeof *all, cmp_scale);
    *n = m->nscale;
    if (cap) memcpy(scales, all, sizeof *all * (size_t)(cap < m->nscale ? cap : m->nscale));
    return cap < m->nscale ? SEER_STATUS_BUFFER_TOO_SMALL : SEER_STATUS_SUCCESS;
}

seer_status_t seer_model_get_info(const seer_model *m, seer_model_info_t *info)
{
    if (!m || !info) return SEER_STATUS_BAD_PARAM;
    memset(info, 0, sizeof *info);
    seer_strlcpy(info->gpu_id, m->gpu_id, sizeof info->gpu_id);
    info->format_version = SEER_MODEL_FORMAT;
    info->lib_version = m->lib_version;
    info->n_families = m->nfam;
    for (int i = 0; i < m->nfam; i++)
        info->n_svm += !!m->fam[i].vclf + !!m->fam[i].cclf + !!m->fam[i].svr;
    info->n_rows = m->n_rows;
    info->checksum = m->checksum;
    seer_strlcpy(info->provenance, m->provenance, sizeof info->provenance);
    info->transferred = m->transferred;
    for (int i = 0; i < m->nsrc; i++) {
        size_t len = strlen(info->source_gpus);
        snprintf(info->source_gpus + len, sizeof info->source_gpus - len, "%s%s", i ? " " : "",
                 m->src[i].id);
    }
    for (int i = 0; i < 2; i++) {
        const seer_gemm_fit_t *g = seer_model_gemm_fit(m, i, 1); /* one product's, as seer.h says */
        if (g->present) seer_strlcpy(info->gemm_source_gpu[i], g->source_gpu, sizeof info->gemm_source_gpu[i]);
    }
    return SEER_STATUS_SUCCESS;
}

seer_status_t seer_model_get_gpu(const seer_model *m, seer_gpu_info_t *gpu)
{
    if (!m || !gpu) return SEER_STATUS_BAD_PARAM;
    *gpu = m->gpu;
    return SEER_STATUS_SUCCESS;
}

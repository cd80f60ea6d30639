/* Models for GPUs nobody has calibrated: families of calibrated GPUs
 * evaluated with the target GPU's datasheet facts (docs/transfer.md). */
#include <dirent.h>
#include <math.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "gpu.h"
#include "gpufile.h"
#include "model.h"

/* The compute capability as one number, in tenths. */
static int cc_of(const seer_gpu_info_t *g)
{
    return g->cc_major * 10 + g->cc_minor;
}

/* Architectural distance: compute capability apart, in tenths. */
static int cc_distance(const seer_gpu_info_t *a, const seer_gpu_info_t *b)
{
    return abs(cc_of(a) - cc_of(b));
}

static seer_status_t finish(seer_handle_t h, struct seer_model *m, seer_model_t *out);


/* Whether a fit of cn rows from GPU cg is a better source for target
 * than one of bn rows from bg: fits from `solid` rows or more first,
 * then the nearest architecture, then more rows. */
static int better_source(int cn, const seer_gpu_info_t *cg, int bn, const seer_gpu_info_t *bg,
                         const seer_gpu_info_t *target, int solid)
{
    int cs = cn >= solid, bs = bn >= solid;
    if (cs != bs) return cs > bs;
    int cd = cc_distance(cg, target), bd = cc_distance(bg, target);
    if (cd != bd) return cd < bd;
    if (cn != bn) return cn > bn;
    return strcmp(cg->id, bg->id) < 0; /* deterministic whatever the order of sources */
}

/* better_source for GEMM fits: a source of the target's generation (cc
 * major) before one of another, so that Ada (8.9) takes the A100's fit
 * (8.0) first rather than a Hopper one (9.0) from its sm90 cuBLAS
 * kernels, which Ada cannot run (bracketing_gemm_source adds the Hopper
 * fit beside it); among those, better_source. */
static int better_gemm_source(int cn, const seer_gpu_info_t *cg, int bn, const seer_gpu_info_t *bg,
                              const seer_gpu_info_t *target, int solid)
{
    int cs = cn >= solid, bs = bn >= solid;
    int cm = cg->cc_major == target->cc_major, bm = bg->cc_major == target->cc_major;
    if (cs == bs && cm != bm) return cm > bm;
    return better_source(cn, cg, bn, bg, target, solid);
}

/* How far GPU g's math rate per DRAM byte is from the target's (log
 * ratio; FP32 for SIMT fits, FP16 tensor cores for tensor-core ones). */
static double flops_per_byte_distance(const seer_gpu_info_t *g, const seer_gpu_info_t *tg, int math)
{
    seer_dtype_t dt = math ? SEER_DTYPE_FP16 : SEER_DTYPE_FP32;
    double a = seer_gpu_peak_flops(g, dt) / seer_gpu_dram_bw(g), b = seer_gpu_peak_flops(tg, dt) / seer_gpu_dram_bw(tg);
    return a > 0 && b > 0 ? fabs(log(a / b)) : INFINITY;
}

/* Whether the fit of kind `kind` of source s is a better second GEMM
 * source for target than b's (bracketing_gemm_source): the nearest
 * compute capability, then the math rate per DRAM byte nearest the
 * target's, then better_source. */
static int better_bracketing_source(const struct seer_model *s, const struct seer_model *b, int math, int kind,
                                    const seer_gpu_info_t *tg, int solid)
{
    int cd = cc_distance(&s->gpu, tg), bd = cc_distance(&b->gpu, tg);
    if (cd != bd) return cd < bd;
    double fd = flops_per_byte_distance(&s->gpu, tg, math), bfd = flops_per_byte_distance(&b->gpu, tg, math);
    if (fd != bfd) return fd < bfd;
    return better_source(s->gemm[math][kind].n_rows, &s->gpu, b->gemm[math][kind].n_rows, &b->gpu, tg, solid);
}

/* The source of a second GEMM fit for target, whose first (of `solid`
 * rows or more) comes from first: where first is of another compute
 * capability and a source on the other side of the target's has a fit
 * of `solid` rows or more, the nearest compute capability of those, then
 * the math rate per DRAM byte nearest the target's (the reading of a
 * fit's FLOP-proportional time that moves least: gemm.c, fit_time), then
 * the most rows; else NULL.  A target between two calibrated
 * architectures is timed by both fits, their geometric mean (gemm.c):
 * each architecture's fit alone missed the others' rows by more than
 * their mean did.  FP32 rows of each GPU predicted from the single fit
 * of another, published-time MAPE over all rows (scratch,
 * docs/transfer.md): the A100's fit / the H100's / their mean, T4 36.7 /
 * 30.4 / 28.1 %, V100 PCIe 32.5 / 14.2 / 14.9 %, V100 SXM2 19.7 / 33.8
 * / 20.2 %, GTX 1080 Ti 35.0 / 33.0 / 29.6 % (with the H200's fit, of
 * fewer FLOPs per byte and more rows, in place of the H100's: 27.3 /
 * 15.6 / 25.9 / 36.0 %); the A100's fit alone scored 62-66 % on all the
 * Hopper sweeps' FP32 GEMMs, which an Ada GPU (8.9, between 8.0 and
 * 9.0) took from it alone. */
static const struct seer_model *bracketing_gemm_source(const seer_model_t *sources, int n_sources, int math,
                                                       int kind, const struct seer_model *first,
                                                       const seer_gpu_info_t *tg, int solid)
{
    int side = cc_of(&first->gpu) - cc_of(tg);
    if (!side || first->gemm[math][kind].n_rows < solid) return NULL;
    const struct seer_model *best = NULL;
    for (int i = 0; i < n_sources; i++) {
        const struct seer_model *s = sources[i];
        const seer_gemm_fit_t *f = &s->gemm[math][kind];
        if (s->transferred || !f->present || f->n_rows < solid || (cc_of(&s->gpu) - cc_of(tg)) * side >= 0)
            continue;
        if (!best || better_bracketing_source(s, best, math, kind, tg, solid)) best = s;
    }
    return best;
}

/* A GEMM fit is five coefficients and one representative tile: what
 * makes it carry over is the breadth of shapes behind it more than the
 * architecture (cuBLAS tiles are much alike across GPUs), so a fit from
 * thousands of rows beats one of the target's own architecture from a
 * few hundred. */
#define SOLID_GEMM_ROWS 1000

/* A family worth averaging in: measured on enough rows, or on a GPU of
 * the target's own architecture (the same kernels cuDNN picks). */
static int usable(const seer_family_t *f, const seer_gpu_info_t *g, const seer_gpu_info_t *target)
{
    return f->n_rows >= SEER_OWN_FAMILY_ROWS || cc_distance(g, target) == 0;
}

/* Append a copy of family f of source GPU g (its slot in m->src added
 * if new).  Returns nonzero when out of memory; a ninth source GPU is
 * skipped. */
static int add_family(struct seer_model *m, const seer_family_t *f, const seer_gpu_info_t *g, int *pn, int lite)
{
    int si;
    for (si = 0; si < m->nsrc; si++) if (!strcmp(m->src[si].id, g->id)) break;
    if (si == m->nsrc) {
        if (m->nsrc == SEER_MAX_SOURCES) return 0;
        m->src[m->nsrc++] = *g;
        if (*pn < (int)sizeof m->provenance)
            *pn += snprintf(m->provenance + *pn, sizeof m->provenance - (size_t)*pn, " %s", g->id);
    }
    seer_family_t *nf = realloc(m->fam, (size_t)(m->nfam + 1) * sizeof *nf);
    if (!nf) return 1;
    m->fam = nf;
    if (lite) {
        m->fam[m->nfam] = *f;
        m->fam[m->nfam].vclf = m->fam[m->nfam].cclf = m->fam[m->nfam].svr = NULL;
    } else if (!seer_family_copy(&m->fam[m->nfam], f)) {
        return 1;
    }
    m->fam[m->nfam].src = si;
    m->n_rows += f->n_rows;
    m->nfam++;
    return 0;
}

/* Every family key any source knows, in a fixed order.  Each key takes
 * the family of every source that measured it on SEER_OWN_FAMILY_ROWS or
 * more rows or shares the target's architecture, of the nearest
 * architecture among them (prediction averages them: model.c), else the
 * single best one; a source of the target's own architecture on fewer
 * rows is kept beside them.  Averaging every architecture's instead put
 * one GPU's efficiency on another further off: left out one at a time
 * (make eval), the A100 80GB PCIe scored 21.6 % (now 17.3 %), the GTX
 * 1080 Ti 33.2 % (28.2 %), the V100 PCIe 18.0 % (17.5 %), the V100 SXM2
 * 39.4 % (39.1 %), the T4 15.6 % (15.9 %) (docs/transfer.md).  1 when
 * memory ran out. */
static int transfer_families(struct seer_model *m, const seer_model_t *sources, int n_sources,
                             const seer_gpu_info_t *tg, int *pn, int lite)
{
    for (int dir = 0; dir < 3; dir++)
        for (int algo = -1; algo < 8; algo++)
            for (int math = 0; math < 2; math++) {
                const seer_family_t *best = NULL;
                const struct seer_model *bm = NULL;
                int solid = 0;
                for (int i = 0; i < n_sources; i++) {
                    const struct seer_model *s = sources[i];
                    if (s->transferred) continue; /* transfer only what was measured */
                    for (int j = 0; j < s->nfam; j++) {
                        const seer_family_t *f = &s->fam[j];
                        if (f->dir != dir || f->algo != algo || f->math != math) continue;
                        solid += usable(f, &s->gpu, tg);
                        if (!best || better_source(f->n_rows, &s->gpu, best->n_rows, &bm->gpu, tg, SEER_OWN_FAMILY_ROWS)) { best = f; bm = s; }
                    }
                }
                if (!best) continue;
                /* the best first: it gives the per-kernel breakdown */
                if (add_family(m, best, &bm->gpu, pn, lite)) return 1;
                for (int i = 0; i < n_sources && solid > 1; i++) {
                    const struct seer_model *s = sources[i];
                    if (s->transferred || s == bm) continue;
                    for (int j = 0; j < s->nfam; j++) {
                        const seer_family_t *f = &s->fam[j];
                        if (f->dir == dir && f->algo == algo && f->math == math &&
                            usable(f, &s->gpu, tg) && cc_distance(&s->gpu, tg) <= cc_distance(&bm->gpu, tg) &&
                            add_family(m, f, &s->gpu, pn, lite))
                            return 1;
                    }
                }
            }
    return 0;
}

/* Every term but the launch gaps, in every variant and class: the
 * family's time above them times q. */
static void scale_family(seer_family_t *f, double q)
{
    for (int v = 0; v < f->nvar; v++)
        for (int c = 0; c < 4; c++)
            for (int i = 0; i < SEER_NTERMS; i++)
                if (i != SEER_T_CONST) f->var[v].coef[c][i] *= q;
}

/* A source of the target's compute capability that scaled its conv keys
 * to its own measurements (seer_conv_scale_t) measured that
 * architecture's cuDNN kernels against the same transferred families:
 * m takes, per key, the geometric mean of their scales, as a scale with
 * no rows of its own (not its measurement: model.c, key_measured).
 * Keys own (if not NULL), the calibrated model m will fill, has scales
 * of are left out: its own come first (fill_missing).  Returns how many
 * keys were scaled. */
static int sibling_scales(struct seer_model *m, const seer_model_t *sources, int n_sources,
                          const seer_gpu_info_t *tg, const struct seer_model *own)
{
    for (int dir = 0; dir < 3; dir++)
        for (int algo = -1; algo < 8; algo++)
            for (int cls = 0; cls < SEER_SCALE_CLASSES; cls++) {
                if (own && seer_model_scale(own, dir, algo, cls)) continue;
                double sum = 0;
                int k = 0;
                for (int j = 0; j < n_sources; j++) {
                    const seer_conv_scale_t *c = seer_model_scale(sources[j], dir, algo, cls);
                    if (c && !sources[j]->transferred && cc_distance(&sources[j]->gpu, tg) == 0) {
                        sum += log(c->scale);
                        k++;
                    }
                }
                if (k && m->nscale < SEER_MAX_SCALES)
                    m->scale[m->nscale++] = (seer_conv_scale_t){dir, algo, cls, 0, exp(sum / k)};
            }
    return m->nscale;
}

/* lite: without classifiers and corrections, and not round-tripped
 * through the file format (a peer: model.c uses its physics only). */
static seer_status_t transfer(seer_handle_t h, const seer_model_t *sources, int n_sources,
                              const char *target_gpu_id, const struct seer_model *own, int lite, seer_model_t *out)
{
    if (!sources || n_sources < 1 || !target_gpu_id || !out)
        return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_model_transfer: sources, target and model are required");
    const seer_gpu_info_t *tg = seer_gpu_lookup_h(h, target_gpu_id);
    if (!tg) return seer_gpu_unknown(h, target_gpu_id);
    for (int i = 0; i < n_sources; i++)
        if (!sources[i]) return seer_error(h, SEER_STATUS_BAD_PARAM, "source model %d is NULL", i);

    struct seer_model *m = calloc(1, sizeof *m);
    if (!m) return seer_error(h, SEER_STATUS_ALLOC_FAILED, "model");
    seer_strlcpy(m->gpu_id, tg->id, sizeof m->gpu_id);
    m->gpu = *tg;
    m->lib_version = SEER_VERSION_NUMBER;
    m->transferred = 1;
    int pn = snprintf(m->provenance, sizeof m->provenance, "transferred to %s from:", tg->id);

    if (transfer_families(m, sources, n_sources, tg, &pn, lite)) {
        seer_model_destroy(m);
        return seer_error(h, SEER_STATUS_ALLOC_FAILED, "families");
    }
    if (m->nfam == 0) {
        seer_model_destroy(m);
        return seer_error(h, SEER_STATUS_NO_DATA, "no calibrated source model to transfer to %s from", tg->id);
    }
    int scaled = sibling_scales(m, sources, n_sources, tg, own);
    if (scaled && pn < (int)sizeof m->provenance)
        pn += snprintf(m->provenance + pn, sizeof m->provenance - (size_t)pn,
                       "; %d kernel families scaled as GPUs of its architecture measured them", scaled);
    /* GEMM, per math type and kind: the single best fit of that kind by
     * better_gemm_source (measured on enough rows, the target's
     * generation, nearest architecture, most rows), and beside it, where
     * the target lies between two calibrated architectures, the best one
     * on the other side (bracketing_gemm_source); a kind no source fitted
     * is timed with the other kind's (gemm.c).  Not averaged over every
     * source: GEMM fits transfer unevenly (docs/transfer.md). */
    for (int math = 0; math < 2; math++)
        for (int kind = 0; kind < SEER_GEMM_KINDS; kind++) {
            const struct seer_model *gb = NULL;
            for (int i = 0; i < n_sources; i++) {
                const struct seer_model *s = sources[i];
                const seer_gemm_fit_t *f = &s->gemm[math][kind];
                if (s->transferred || !f->present) continue;
                if (!gb || better_gemm_source(f->n_rows, &s->gpu, gb->gemm[math][kind].n_rows, &gb->gpu, tg,
                                              SOLID_GEMM_ROWS)) gb = s;
            }
            if (!gb) continue;
            m->gemm[math][kind] = gb->gemm[math][kind];
            const struct seer_model *g2 = bracketing_gemm_source(sources, n_sources, math, kind, gb, tg,
                                                                 SOLID_GEMM_ROWS);
            if (g2) m->gemm2[math][kind] = g2->gemm[math][kind];
            if (pn < (int)sizeof m->provenance) /* a GEMM-only source is no family source: say it */
                pn += snprintf(m->provenance + pn, sizeof m->provenance - (size_t)pn, "; GEMM %s %s from %s%s%s",
                               math ? "tensor-core" : "fp32", kind ? "batched" : "plain", gb->gpu_id,
                               g2 ? " and " : "", g2 ? g2->gpu_id : "");
        }
    /* the generic kernel formula: from the nearest source */
    const struct seer_model *near = NULL;
    for (int i = 0; i < n_sources; i++) /* of a source with convs: a GEMM-only one fitted none */
        if (!sources[i]->transferred && sources[i]->nfam &&
            (!near || cc_distance(&sources[i]->gpu, tg) < cc_distance(&near->gpu, tg)))
            near = sources[i];
    memcpy(m->kcoef, near->kcoef, sizeof m->kcoef);
    if (lite) {
        seer_model_set_analytical_scales(m);
        *out = m;
        return SEER_STATUS_SUCCESS;
    }
    return finish(h, m, out);
}

seer_status_t seer_model_transfer(seer_handle_t h, const seer_model_t *sources, int n_sources,
                                  const char *target_gpu_id, seer_model_t *out)
{
    return transfer(h, sources, n_sources, target_gpu_id, NULL, 0, out);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Give calibrated model m the families of every key it has no data for
 * from t, a model transferred to m's GPU from the other calibrated
 * models (the same rule as seer_model_transfer), each scaled by how much
 * slower m's measured kernels of its direction and math run than t says
 * they would (seer_model_efficiency_ratio), and GEMM fits where it has
 * none.  Its own families are untouched.  1 when out of memory. */
static int fill_missing(struct seer_model *m, const struct seer_model *t, int lite)
{
    int pn = (int)strlen(m->provenance), n = m->nfam, added = 0;
    /* a GEMM-only model: its convs, the generic kernel formula included, are t's */
    if (!n) memcpy(m->kcoef, t->kcoef, sizeof m->kcoef);
    double q[3][2] = {{0}}; /* 0: not computed yet (only for what is filled: peers open often) */
    for (int i = 0; i < t->nfam; i++) {
        const seer_family_t *f = &t->fam[i];
        int have = 0;
        for (int j = 0; j < n && !have; j++)
            have = m->fam[j].dir == f->dir && m->fam[j].algo == f->algo && m->fam[j].math == f->math;
        if (have) continue;
        if (!added++ && pn < (int)sizeof m->provenance)
            pn += snprintf(m->provenance + pn, sizeof m->provenance - (size_t)pn,
                           "; what it has no data for transferred from:");
        /* before the family is added: the ratio is of m's own families */
        if (!q[f->dir][f->math]) q[f->dir][f->math] = seer_model_efficiency_ratio(m, t, f->dir, f->math);
        if (add_family(m, f, &t->src[f->src], &pn, lite)) return 1;
        scale_family(&m->fam[m->nfam - 1], q[f->dir][f->math]);
    }
    /* the scales of its architecture for keys it has none of: the
     * physics takes them after q (model.c, physics_at) */
    for (int i = 0; i < t->nscale && m->nscale < SEER_MAX_SCALES; i++) {
        const seer_conv_scale_t *c = &t->scale[i];
        if (!seer_model_scale(m, c->dir, c->algo, c->cls)) m->scale[m->nscale++] = *c;
    }

    /* the scales that were applied, where not 1 */
    for (int dir = 0, said = 0; dir < 3; dir++)
        for (int math = 0; math < 2; math++) {
            int used = 0;
            for (int j = n; j < m->nfam && !used; j++) used = m->fam[j].dir == dir && m->fam[j].math == math;
            if (used && q[dir][math] != 1 && pn < (int)sizeof m->provenance)
                pn += snprintf(m->provenance + pn, sizeof m->provenance - (size_t)pn, "%s %s %s x%.3f",
                               said++ ? "," : "; scaled", seer_direction_name((seer_direction_t)dir),
                               math ? "tensor-core" : "fp32", q[dir][math]);
        }
    /* a math type without a fit of either kind; one with a fit of one
     * kind times the other with it (gemm.c) */
    for (int math = 0; math < 2; math++)
        if (!m->gemm[math][0].present && !m->gemm[math][1].present) {
            memcpy(m->gemm[math], t->gemm[math], sizeof m->gemm[math]);
            memcpy(m->gemm2[math], t->gemm2[math], sizeof m->gemm2[math]);
        }
    return 0;
}

/* A model file in a models directory is named <gpu-id>.seer after the GPU
 * it was trained for; want (if not NULL) is the GPU asked for. */
static seer_status_t check_named(seer_handle_t h, const char *path, const seer_model *m,
                                 const char *want)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t len = strlen(m->gpu_id);
    if (want && strcmp(m->gpu_id, want) != 0)
        return seer_error(h, SEER_STATUS_MODEL_CORRUPT,
                          "%s: model is for GPU %s, not %s (a models directory names each file "
                          "<gpu-id>.seer)", path, m->gpu_id, want);
    if (strncmp(base, m->gpu_id, len) != 0 || strcmp(base + len, ".seer") != 0)
        return seer_error(h, SEER_STATUS_MODEL_CORRUPT,
                          "%s: model is for GPU %s, so a models directory must name it %s.seer",
                          path, m->gpu_id, m->gpu_id);
    return SEER_STATUS_SUCCESS;
}

/* Every calibrated model in dir but the one named skip (NULL: none), in
 * name order, so the result never depends on readdir.  A file that does
 * not load, or holds another GPU's model than its name says, is an error
 * naming it (on failure the models loaded so far are freed). */
static seer_status_t load_sources(seer_handle_t h, const char *dir, const char *skip, seer_model_t *src,
                                  int cap, int *ns)
{
    DIR *d = opendir(dir);
    if (!d) return seer_error(h, SEER_STATUS_IO_ERROR, "cannot read models directory '%s'", dir);
    char *names[64], path[4096];
    int nn = 0;
    struct dirent *e;
    while ((e = readdir(d)) && nn < 64) {
        size_t len = strlen(e->d_name);
        if (len > 5 && !strcmp(e->d_name + len - 5, ".seer") && !(skip && !strcmp(e->d_name, skip)) &&
            (names[nn] = strdup(e->d_name)))
            nn++;
    }
    closedir(d);
    qsort(names, (size_t)nn, sizeof *names, cmp_str);
    seer_status_t st = SEER_STATUS_SUCCESS;
    *ns = 0;
    for (int i = 0; i < nn && *ns < cap && !st; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        seer_model_t m;
        /* Every source must load and carry its own GPU's name: a truncated
         * or misnamed file would change the transfer without a word. */
        if ((st = seer_model_load(h, path, &m))) break;
        if ((st = check_named(h, path, m, NULL))) {
            seer_model_destroy(m);
            break;
        }
        src[(*ns)++] = m;
    }
    for (int i = 0; i < nn; i++) free(names[i]);
    if (st) {
        for (int i = 0; i < *ns; i++) seer_model_destroy(src[i]);
        *ns = 0;
    }
    return st;
}

/* Round-trip through the file format: the checksum, and a model identical
 * to what its saved file gives back.  Frees m. */
static seer_status_t finish(seer_handle_t h, struct seer_model *m, seer_model_t *out)
{
    seer_status_t st = seer_model_copy(h, m, out);
    seer_model_destroy(m);
    return st;
}

/* A GPU of the table with g's facts that has a model in dir, or NULL. */
static const seer_gpu_info_t *twin_in(const char *dir, const seer_gpu_info_t *g)
{
    int n = 0;
    seer_gpu_count(&n);
    for (int i = 0; i < n; i++) {
        seer_gpu_info_t e;
        char path[4096];
        if (seer_gpu_get(i, &e)) continue;
        const seer_gpu_info_t *t = seer_gpu_lookup(e.id);
        if (!t || !strcmp(t->id, g->id) || !seer_gpu_same_facts(t, g)) continue;
        if (snprintf(path, sizeof path, "%s/%s.seer", dir, t->id) >= (int)sizeof path) continue;
        FILE *fp = fopen(path, "rb");
        if (fp) {
            fclose(fp);
            return t;
        }
    }
    return NULL;
}

seer_status_t seer_model_copy(seer_handle_t h, const struct seer_model *m, seer_model_t *out)
{
    unsigned char *buf;
    size_t size;
    if (!seer_model_serialize(m, &buf, &size)) return seer_error(h, SEER_STATUS_ALLOC_FAILED, "model");
    seer_status_t st = seer_model_load_buffer(h, buf, size, out);
    free(buf);
    return st;
}

/* The model seer_model_open serves for gpu_id, without its peers; all
 * (if not NULL): every calibrated model of dir, already loaded, to
 * transfer from instead of reading them again; given (if not NULL): the
 * GPU's own model, in place of its file in dir. */
static seer_status_t open_served(seer_handle_t h, const char *dir, const char *gpu_id, const seer_model_t *all,
                                 int nall, const struct seer_model *given, int lite, seer_model_t *out)
{
    const seer_gpu_info_t *g = seer_gpu_lookup_h(h, gpu_id);
    if (!g) return seer_gpu_unknown(h, gpu_id);
    char path[4096], own[64];
    if (snprintf(path, sizeof path, "%s/%s.seer", dir, g->id) >= (int)sizeof path)
        return seer_error(h, SEER_STATUS_BAD_PARAM, "models directory name too long");
    snprintf(own, sizeof own, "%s.seer", g->id);
    seer_model_t cal = NULL;
    if (given) {
        seer_status_t st = seer_model_copy(h, given, &cal);
        if (st) return st;
    } else if (access(path, F_OK) == 0) {
        /* Present but not loadable (directory, truncated, corrupt, another
         * GPU's model): an error naming the file, never a silent transfer. */
        seer_status_t st = seer_model_load(h, path, &cal);
        if (st) return st;
        if ((st = check_named(h, path, cal, g->id))) {
            seer_model_destroy(cal);
            return st;
        }
    } else {
        /* A GPU with the same facts as a calibrated one is served its
         * model, so that identical hardware predicts identically. */
        const seer_gpu_info_t *twin = twin_in(dir, g);
        if (twin) {
            seer_model_t m;
            seer_status_t st = open_served(h, dir, twin->id, all, nall, NULL, lite, &m);
            if (st) return st;
            seer_strlcpy(m->gpu_id, g->id, sizeof m->gpu_id);
            m->gpu = *g;
            m->transferred = 1;
            size_t pn = strlen(m->provenance);
            snprintf(m->provenance + pn, sizeof m->provenance - pn, "; served to %s, which has %s's datasheet facts",
                     g->id, twin->id);
            if (lite) {
                *out = m;
                return SEER_STATUS_SUCCESS;
            }
            return finish(h, m, out);
        }
    }
    seer_model_t src[64];
    int ns = 0;
    seer_status_t st = SEER_STATUS_SUCCESS;
    if (all) {
        for (int i = 0; i < nall; i++)
            if (!cal || strcmp(all[i]->gpu_id, g->id)) src[ns++] = all[i];
    } else {
        st = load_sources(h, dir, cal ? own : NULL, src, 64, &ns);
    }
    if (!st && !cal && ns == 0)
        st = seer_error(h, SEER_STATUS_NO_DATA, "no model for %s and none to transfer from in '%s'", g->id, dir);
    seer_model_t t = NULL;
    if (!st && ns) {
        st = transfer(h, src, ns, g->id, cal, lite, &t);
        /* a calibrated model with nothing to add from elsewhere is whole */
        if (st == SEER_STATUS_NO_DATA && cal) st = SEER_STATUS_SUCCESS;
    }
    for (int i = 0; i < ns && !all; i++) seer_model_destroy(src[i]);
    if (st || !cal) {
        seer_model_destroy(cal);
        if (!st) *out = t;
        else seer_model_destroy(t);
        return st;
    }
    if (t && fill_missing(cal, t, lite)) st = seer_error(h, SEER_STATUS_ALLOC_FAILED, "families");
    seer_model_destroy(t);
    if (st) {
        seer_model_destroy(cal);
        return st;
    }
    if (lite) {
        seer_model_set_analytical_scales(cal);
        *out = cal;
        return SEER_STATUS_SUCCESS;
    }
    return finish(h, cal, out);
}

/* Faster hardware is not slower, by construction: the served model holds
 * the served models of every GPU of the table it is at least as fast as
 * (seer_gpu_dominates; not those with its own facts, which predict as it
 * does) and of every calibrated GPU, and predict_conv ties its physics to
 * theirs.  Their classifiers and corrections are never used there, so
 * they are freed. */
static seer_status_t attach_peers(seer_handle_t h, const char *dir, struct seer_model *m)
{
    int n = 0, nall = 0;
    seer_model_t all[64];
    seer_status_t st = load_sources(h, dir, NULL, all, 64, &nall);
    seer_gpu_count(&n);
    for (int i = 0; i < n && m->npeer < SEER_MAX_PEERS && !st; i++) {
        seer_gpu_info_t e;
        if (seer_gpu_get(i, &e)) continue;
        const seer_gpu_info_t *g = seer_gpu_lookup(e.id);
        if (!g || seer_gpu_same_facts(g, &m->gpu)) continue;
        char path[4096];
        int below = seer_gpu_dominates(&m->gpu, g);
        int cal = snprintf(path, sizeof path, "%s/%s.seer", dir, g->id) < (int)sizeof path && access(path, F_OK) == 0;
        if (!below && !cal) continue;
        struct seer_model **np = realloc(m->peer, (size_t)(m->npeer + 1) * sizeof *np);
        if (np) m->peer = np;
        unsigned char *nr = realloc(m->peer_role, (size_t)(m->npeer + 1));
        if (nr) m->peer_role = nr;
        if (!np || !nr) {
            st = seer_error(h, SEER_STATUS_ALLOC_FAILED, "peer models");
            break;
        }
        st = open_served(h, dir, g->id, all, nall, NULL, 1, &m->peer[m->npeer]);
        if (st == SEER_STATUS_NO_DATA && !cal) { /* DIR has GEMM-only models alone: no conv to tie */
            st = SEER_STATUS_SUCCESS;
            continue;
        }
        if (st) break;
        m->peer_role[m->npeer] = (unsigned char)((below ? SEER_PEER_BELOW : 0) | (cal ? SEER_PEER_ANCHOR : 0));
        struct seer_model *p = m->peer[m->npeer++];
        for (int j = 0; j < p->nfam; j++) seer_family_free(&p->fam[j]);
    }
    for (int i = 0; i < nall; i++) seer_model_destroy(all[i]);
    return st;
}

seer_status_t seer_model_open(seer_handle_t h, const char *dir, const char *gpu_id, seer_model_t *out)
{
    if (!dir || !gpu_id || !out) return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_model_open: NULL argument");
    seer_model_t m;
    seer_status_t st = open_served(h, dir, gpu_id, NULL, 0, NULL, 0, &m);
    if (st) return st;
    if ((st = attach_peers(h, dir, m))) {
        seer_model_destroy(m);
        return st;
    }
    *out = m;
    return SEER_STATUS_SUCCESS;
}

seer_status_t seer_model_others(seer_handle_t h, const char *dir, const char *gpu_id, seer_model_t *all, int cap,
                                int *n)
{
    char own[64];
    snprintf(own, sizeof own, "%s.seer", gpu_id);
    seer_status_t st = load_sources(h, dir, own, all, cap, n);
    /* the others' scales out: a fit for gpu_id must not rest on them */
    for (int i = 0; i < *n; i++) all[i]->nscale = 0;
    return st;
}

seer_status_t seer_model_open_given(seer_handle_t h, const char *dir, const struct seer_model *given,
                                    const seer_model_t *others, int n_others, seer_model_t *out)
{
    return open_served(h, dir, given->gpu_id, others, n_others, given, 0, out);
}

/* Training: fit every kernel family of a GPU from measured layer times
 * (conv timing CSV v1) and kernel traces (kernel trace CSV v1, summed per
 * call).  Deterministic: rows are processed in file order, LIBSVM's
 * solvers are deterministic, and no random numbers are drawn. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "csv.h"
#include "drift.h"
#include "fit.h"
#include "gemm.h"
#include "gpu.h"
#include "gpufile.h"
#include "model.h"
#include "svmio.h"

#define MIN_FAMILY_ROWS 8
#define MIN_VARIANT_ROWS 8
#define MIN_CLASS_ROWS 30
#define SVM_MAX_ROWS 500        /* bounds support vectors, hence prediction time (make bench) */

typedef struct {
    seer_conv_row_t row;
    struct seer_conv cv;
    seer_terms_t t;
    int var;                    /* true variant (from main_kernel) */
    int cls;                    /* label */
    int pvar, pcls;             /* what the classifiers predict */
    double base;
    int check;                  /* 1: in the validation part used to accept the SVR */
    int file;                   /* index of the file it came from */
    double pos;                 /* its position in that file, [0, 1) */
} trow_t;

static void quiet(const char *s) { (void)s; }

/* ---- fitting -------------------------------------------------------- */

/* Fit coef over the rows (fit.h) and return the root mean squared
 * relative error of the fit. */
static double fit_rel_mask(trow_t **rows, int n, double *coef, unsigned mask)
{
    seer_relfit_t fit;
    seer_relfit_init(&fit, SEER_NTERMS);
    for (int r = 0; r < n; r++) seer_relfit_add(&fit, rows[r]->t.x, rows[r]->row.time_ms);
    seer_relfit_solve(&fit, mask, coef);
    /* root mean squared relative error of the fit */
    double e = 0;
    for (int r = 0; r < n; r++) {
        double p = 0;
        for (int i = 0; i < SEER_NTERMS; i++) p += coef[i] * rows[r]->t.x[i];
        e += (p / rows[r]->row.time_ms - 1) * (p / rows[r]->row.time_ms - 1);
    }
    return n ? sqrt(e / n) : 0;
}

/* Few rows cannot pin down seven terms: small variants keep compute,
 * DRAM and the constant only. */
#define SMALL_VARIANT_ROWS 40
#define SMALL_MASK ((1u << 0) | (1u << 2) | (1u << SEER_T_CONST))
static double fit_rel(trow_t **rows, int n, double *coef)
{
    return fit_rel_mask(rows, n, coef, n < SMALL_VARIANT_ROWS ? SMALL_MASK : ~0u);
}

/* ---- LIBSVM -------------------------------------------------------- */

/* Train on at most SVM_MAX_ROWS rows (an even stride through them), dense
 * standardized features 0..nf-1 with targets y. */
static struct svm_model *svm_fit(const seer_family_t *f, trow_t **rows, const double *y, int n,
                                 int nf, int type, double C, double gamma, double p)
{
    int step = n > SVM_MAX_ROWS ? (n + SVM_MAX_ROWS - 1) / SVM_MAX_ROWS : 1;
    int m = (n + step - 1) / step;
    struct svm_problem prob = {m, calloc((size_t)m, sizeof(double)),
                               calloc((size_t)m, sizeof(struct svm_node *))};
    struct svm_node *nodes = calloc((size_t)m * (size_t)(nf + 1), sizeof *nodes);
    struct svm_model *out = NULL;
    if (prob.y && prob.x && nodes) {
        for (int i = 0; i < m; i++) {
            const trow_t *r = rows[i * step];
            double raw[SEER_NF];
            memcpy(raw, r->t.f, sizeof raw);
            raw[13] = log(r->base > 1e-30 ? r->base : 1e-30);
            prob.x[i] = nodes + (size_t)i * (size_t)(nf + 1);
            seer_family_nodes(f, raw, nf, prob.x[i]);
            prob.y[i] = y[i * step];
        }
        struct svm_parameter par = {0};
        par.svm_type = type;
        par.kernel_type = RBF;
        par.gamma = gamma;
        par.cache_size = 64;
        par.eps = 1e-3;
        par.C = C;
        par.p = p;
        par.shrinking = 1;
        if (!svm_check_parameter(&prob, &par)) {
            struct svm_model *tm = svm_train(&prob, &par);
            if (tm) {
                out = seer_svm_clone(tm, SEER_NF); /* self-owned, as after a load */
                svm_free_and_destroy_model(&tm);
            }
        }
    }
    free(prob.y);
    free(prob.x);
    free(nodes);
    return out;
}

/* ---- variants ------------------------------------------------------ */

/* Tile and grid geometry of a kernel variant from its name.  cuDNN's
 * names carry the tile ("128x64"); the legacy implicit/explicit/
 * precomputed kernels use 32x32 tiles whatever their template says. */
static void parse_variant(const char *name, seer_variant_t *v)
{
    v->tm = 128;
    v->tn = 64;
    v->geo = SEER_GEO_TILED;
    if (strstr(name, "convolve_sgemm") || strstr(name, "convolve_hgemm")) {
        v->tm = v->tn = 32;
        return;
    }
    for (const char *p = name; *p; p++) {
        if (*p < '0' || *p > '9' || (p > name && p[-1] >= '0' && p[-1] <= '9')) continue;
        char *e;
        long a = strtol(p, &e, 10);
        if (*e == 'x' && e[1] >= '0' && e[1] <= '9') {
            long b = strtol(e + 1, NULL, 10);
            if (a >= 8 && a <= 512 && b >= 8 && b <= 512) { v->tm = (int)a; v->tn = (int)b; break; }
        }
    }
    if (strstr(name, "winograd") && strstr(name, "tile148")) v->geo = SEER_GEO_WINO_148;
    else if (strstr(name, "winograd") && strstr(name, "tile442")) v->geo = SEER_GEO_WINO_442;
    else if (strstr(name, "gcgemm")) v->geo = SEER_GEO_FFT;
}

static int cmp_count(const void *a, const void *b)
{
    const int *x = a, *y = b; /* {count, first index} */
    return x[0] != y[0] ? y[0] - x[0] : x[1] - y[1];
}

static void find_variants(seer_family_t *f, trow_t **rows, int n)
{
    /* Count distinct main kernel names in order of first appearance. */
    int (*cnt)[2] = calloc((size_t)n, sizeof *cnt);
    int nd = 0;
    int *id = calloc((size_t)n, sizeof *id);
    if (!cnt || !id) { free(cnt); free(id); f->nvar = 0; return; }
    for (int i = 0; i < n; i++) {
        int j;
        for (j = 0; j < nd; j++)
            if (!strcmp(rows[cnt[j][1]]->row.main_kernel, rows[i]->row.main_kernel)) break;
        if (j == nd) { cnt[nd][0] = 0; cnt[nd][1] = i; nd++; }
        cnt[j][0]++;
        id[i] = j;
    }
    int (*sorted)[2] = calloc((size_t)nd, sizeof *sorted);
    if (!sorted) { free(cnt); free(id); f->nvar = 0; return; }
    memcpy(sorted, cnt, (size_t)nd * sizeof *sorted);
    qsort(sorted, (size_t)nd, sizeof *sorted, cmp_count);
    int min = MIN_VARIANT_ROWS > n / 50 ? MIN_VARIANT_ROWS : n / 50;
    f->nvar = 0;
    for (int s = 0; s < nd && f->nvar < SEER_MAX_VARIANTS; s++) {
        if (f->nvar > 0 && sorted[s][0] < min) break;
        seer_variant_t *v = &f->var[f->nvar++];
        const char *name = rows[sorted[s][1]]->row.main_kernel;
        seer_strlcpy(v->name, *name ? name : "default", sizeof v->name);
        parse_variant(name, v);
        /* Winograd's non-fused GEMM is a plain sgemm whose grid pads the batch. */
        if (f->algo >= 0 && v->geo == SEER_GEO_TILED &&
            !strcmp(seer_algo_name((seer_direction_t)f->dir, f->algo), "WINOGRAD_NONFUSED"))
            v->geo = SEER_GEO_WINO_NF;
        /* threads: the block of the variant's first row with a plausible
         * one (cuDNN compiles each variant for one block size) */
        v->threads = 256;
        for (int i = 0; i < n; i++) {
            const seer_conv_row_t *r = &rows[i]->row;
            if (strcmp(r->main_kernel, name)) continue;
            int th = r->block[0] * (r->block[1] ? r->block[1] : 1) * (r->block[2] ? r->block[2] : 1);
            if (th >= 32 && th <= 1024) {
                v->threads = th;
                break;
            }
        }
    }
    /* Rows of variants too rare to model go with the most common one. */
    for (int i = 0; i < n; i++) {
        rows[i]->var = 0;
        for (int v = 0; v < f->nvar; v++)
            if (sorted[v][1] == cnt[id[i]][1]) rows[i]->var = v;
    }
    free(cnt);
    free(id);
    free(sorted);
}

/* ---- families ------------------------------------------------------ */

static void standardize(seer_family_t *f, trow_t **rows, int n, int lo, int hi)
{
    for (int i = lo; i < hi; i++) {
        double s = 0, ss = 0;
        for (int r = 0; r < n; r++) {
            double v = i == 13 ? log(rows[r]->base) : rows[r]->t.f[i];
            s += v;
            ss += v * v;
        }
        double mu = s / n, var = ss / n - mu * mu;
        f->mu[i] = mu;
        f->sd[i] = var > 1e-12 ? sqrt(var) : 1.0;
    }
}

static double mape_of(trow_t **rows, int n, int check, const seer_family_t *f, int corrected)
{
    double e = 0;
    int m = 0;
    for (int r = 0; r < n; r++) {
        if (rows[r]->check != check) continue;
        double p = rows[r]->base * (corrected ? seer_family_correction(f, &rows[r]->t, rows[r]->base) : 1);
        e += fabs(p / rows[r]->row.time_ms - 1);
        m++;
    }
    return m ? e / m : 0;
}

static seer_status_t train_family(const struct seer_model *m, seer_family_t *f, trow_t **rows, int n)
{
    f->n_rows = n;
    if (n < MIN_FAMILY_ROWS) return SEER_STATUS_NO_DATA;
    find_variants(f, rows, n);
    if (f->nvar < 1) return SEER_STATUS_ALLOC_FAILED;
    standardize(f, rows, n, 0, SEER_NF_SHAPE);
    double *y = malloc((size_t)n * sizeof *y);
    trow_t **sub = malloc((size_t)n * sizeof *sub);
    if (!y || !sub) { free(y); free(sub); return SEER_STATUS_ALLOC_FAILED; }

    if (f->nvar > 1) {
        for (int r = 0; r < n; r++) y[r] = rows[r]->var;
        f->vclf = svm_fit(f, rows, y, n, SEER_NF_SHAPE, C_SVC, 100, 0.2, 0);
    }

    /* Per variant: resident blocks per SM from the wave pattern, then the
     * all-class and per-class coefficients. */
    for (int v = 0; v < f->nvar; v++) {
        seer_variant_t *var = &f->var[v];
        int nv = 0;
        for (int r = 0; r < n; r++) if (rows[r]->var == v) sub[nv++] = rows[r];
        static const int cand[] = {1, 2, 3, 4, 5, 6, 8, 12, 16};
        double best = INFINITY;
        int limit = m->gpu.threads_per_sm / var->threads;
        if (limit > m->gpu.blocks_per_sm) limit = m->gpu.blocks_per_sm;
        if (limit < 1) limit = 1;
        /* A kernel trace records registers and shared memory: then the
         * occupancy calculator gives residency exactly (first row of the
         * variant; cuDNN compiles each variant once). */
        int exact = 0;
        for (int r = 0; r < nv && !exact; r++)
            if (sub[r]->row.regs_per_thread > 0 &&
                seer_occupancy(&m->gpu, var->threads, sub[r]->row.regs_per_thread, sub[r]->row.smem_bytes,
                               &exact) != SEER_STATUS_SUCCESS)
                exact = 0;
        if (exact) var->bps = exact;
        for (size_t c = 0; !exact && c < sizeof cand / sizeof *cand && cand[c] <= limit; c++) {
            seer_variant_t trial = *var;
            trial.bps = cand[c];
            for (int r = 0; r < nv; r++) seer_model_terms(m, &trial, &sub[r]->t);
            double coef[SEER_NTERMS];
            double e = fit_rel(sub, nv, coef);
            if (e < best - 1e-9) { best = e; var->bps = cand[c]; }
        }
        if (!var->bps) var->bps = 1;
        for (int r = 0; r < nv; r++) seer_model_terms(m, var, &sub[r]->t);
        fit_rel(sub, nv, var->coef[SEER_ALL_CLASSES]);
        var->has[SEER_ALL_CLASSES] = 1;
        for (int r = 0; r < nv; r++) sub[r]->cls = seer_class_of_measured(&sub[r]->t, sub[r]->row.time_ms);
        for (int c = 0; c < 3; c++) {
            int nc = 0;
            for (int r = 0; r < nv; r++) if (sub[r]->cls == c) sub[nc++] = sub[r];
            if (nc >= MIN_CLASS_ROWS) { fit_rel(sub, nc, var->coef[c]); var->has[c] = 1; }
            nc = 0; /* restore the variant's rows for the next class */
            for (int r = 0; r < n; r++) if (rows[r]->var == v) sub[nc++] = rows[r];
        }
    }

    /* Class classifier over the family, on the true variants' features. */
    int per[3] = {0}, ncls = 0;
    for (int r = 0; r < n; r++) per[rows[r]->cls]++;
    for (int c = 0; c < 3; c++) {
        ncls += per[c] >= 10;
        if (per[c] > per[f->major_cls]) f->major_cls = c;
    }
    standardize(f, rows, n, SEER_NF_SHAPE, SEER_NF_CLASS);
    if (ncls >= 2) {
        for (int r = 0; r < n; r++) y[r] = rows[r]->cls;
        f->cclf = svm_fit(f, rows, y, n, SEER_NF_CLASS, C_SVC, 10, 1.0 / SEER_NF_CLASS, 0);
    }

    /* What the pipeline predicts without the correction, as at prediction time. */
    for (int r = 0; r < n; r++) {
        trow_t *t = rows[r];
        t->pvar = seer_family_variant(f, &t->t);
        seer_model_terms(m, &f->var[t->pvar], &t->t);
        t->pcls = seer_family_class(f, &t->t);
        t->base = seer_family_base(&f->var[t->pvar], t->pcls, &t->t);
        t->check = (seer_fnv1a(SEER_FNV_OFFSET, &t->row.line, sizeof t->row.line) >> 7) % 5 == 0;
        y[r] = log(t->row.time_ms / t->base);
    }
    standardize(f, rows, n, SEER_NF_CLASS, SEER_NF);

    /* The learned correction, kept only where it measurably helps on rows
     * it was not fitted on. */
    if (n >= 40) {
        int nf = 0;
        for (int r = 0; r < n; r++) if (!rows[r]->check) { sub[nf] = rows[r]; y[nf] = log(rows[r]->row.time_ms / rows[r]->base); nf++; }
        f->svr = svm_fit(f, sub, y, nf, SEER_NF, EPSILON_SVR, 3, 1.0 / SEER_NF, 0.05);
        double before = mape_of(rows, n, 1, f, 0), after = mape_of(rows, n, 1, f, 1);
        seer_svm_free(f->svr);
        f->svr = NULL;
        if (after < 0.98 * before) {
            for (int r = 0; r < n; r++) y[r] = log(rows[r]->row.time_ms / rows[r]->base);
            f->svr = svm_fit(f, rows, y, n, SEER_NF, EPSILON_SVR, 3, 1.0 / SEER_NF, 0.05);
        }
    }
    free(y);
    free(sub);
    return SEER_STATUS_SUCCESS;
}

/* ---- reading ------------------------------------------------------- */

/* Kernel traces become layer rows: one per call, time summed, the
 * longest kernel as the main one. */
static seer_status_t read_trace(seer_handle_t h, const char *path, seer_conv_row_t **out, size_t *nout)
{
    seer_kernel_row_t *k;
    size_t nk;
    seer_status_t st = seer_kernel_csv_read(h, path, &k, &nk);
    if (st) return st;
    seer_conv_row_t *rows = calloc(nk ? nk : 1, sizeof *rows);
    if (!rows) { free(k); return seer_error(h, SEER_STATUS_ALLOC_FAILED, "trace rows"); }
    size_t n = 0;
    double longest = 0;
    for (size_t i = 0; i < nk; i++) {
        if (i == 0 || k[i].call_id != k[i - 1].call_id) {
            rows[n++] = k[i].conv;
            rows[n - 1].time_ms = 0;
            rows[n - 1].n_kernels = 0;
            longest = -1;
        }
        seer_conv_row_t *r = &rows[n - 1];
        r->time_ms += k[i].conv.time_ms;
        r->n_kernels++;
        if (k[i].conv.time_ms > longest) {
            longest = k[i].conv.time_ms;
            seer_strlcpy(r->main_kernel, k[i].kernel_name, sizeof r->main_kernel);
            memcpy(r->grid, k[i].conv.grid, sizeof r->grid);
            memcpy(r->block, k[i].conv.block, sizeof r->block);
            r->regs_per_thread = k[i].regs_per_thread;
            r->smem_bytes = k[i].smem_bytes;
        }
    }
    free(k);
    *out = rows;
    *nout = n;
    return SEER_STATUS_SUCCESS;
}

/* Families in a fixed order: direction, algo, math. */
static seer_status_t train_families(seer_handle_t h, struct seer_model *m, trow_t *all, size_t nall,
                                    trow_t **fr)
{
    seer_status_t st = SEER_STATUS_SUCCESS;
    for (int dir = 0; dir < 3 && !st; dir++)
        for (int algo = -1; algo < 8 && !st; algo++)
            for (int math = 0; math < 2 && !st; math++) {
                int n = 0;
                for (size_t i = 0; i < nall; i++)
                    if ((int)all[i].row.dir == dir && all[i].row.algo == algo &&
                        seer_dtype_math(all[i].row.dtype) == math)
                        fr[n++] = &all[i];
                if (n < MIN_FAMILY_ROWS) continue;
                seer_family_t *nf = realloc(m->fam, (size_t)(m->nfam + 1) * sizeof *nf);
                if (!nf) { st = seer_error(h, SEER_STATUS_ALLOC_FAILED, "families"); break; }
                m->fam = nf;
                seer_family_t *f = &m->fam[m->nfam++];
                memset(f, 0, sizeof *f);
                f->dir = dir;
                f->algo = algo;
                f->math = math;
                st = train_family(m, f, fr, n);
                if (st) seer_error(h, st, "training family %s %s", seer_direction_name(dir),
                                   algo < 0 ? "(cuDNN's choice)" : seer_algo_name(dir, algo));
                m->n_rows += n;
            }
    if (!st && m->nfam == 0)
        st = seer_error(h, SEER_STATUS_NO_DATA, "GPU %s: %zu rows, but no family has %d rows",
                        m->gpu_id, nall, MIN_FAMILY_ROWS);

    return st;
}

/* A row's GPU is the trained one: its id (a registered GPU has no alias),
 * or a table alias of it. */
static int same_gpu(const char *a, const seer_gpu_info_t *g)
{
    if (seer_streq_ci(a, g->id)) return 1;
    const seer_gpu_info_t *x = seer_gpu_lookup(a);
    return x && !strcmp(x->id, g->id);
}

seer_status_t seer_train(seer_handle_t h, const char *gpu_id, const char *const *paths, int n_paths,
                         unsigned flags, seer_model_t *out)
{
    if (!gpu_id || !paths || n_paths < 1 || !out)
        return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_train: gpu_id, paths and model are required");
    for (int i = 0; i < n_paths; i++)
        if (!paths[i]) return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_train: paths[%d] is NULL", i);
    const seer_gpu_info_t *g = seer_gpu_lookup_h(h, gpu_id);
    if (!g) return seer_error(h, SEER_STATUS_UNKNOWN_GPU, "unknown GPU '%s' (see seer gpus)", gpu_id);
    struct seer_model *m = calloc(1, sizeof *m);
    if (!m) return seer_error(h, SEER_STATUS_ALLOC_FAILED, "model");
    seer_strlcpy(m->gpu_id, g->id, sizeof m->gpu_id);
    m->gpu = *g;
    m->nsrc = 1;
    m->src[0] = *g;
    m->lib_version = SEER_VERSION_NUMBER;
    svm_set_print_string_function(quiet);

    trow_t *all = NULL;
    size_t nall = 0, skipped = 0, ngemm = 0;
    seer_gemm_row_t *gemm = NULL;
    seer_status_t st = SEER_STATUS_SUCCESS;
    char prov[512];
    int pn = snprintf(prov, sizeof prov, "libseer %s; %s; data:", SEER_VERSION_STRING,
                      flags & SEER_TRAIN_HOLDOUT ? "20% test split held out" : "all rows");
    for (int p = 0; p < n_paths && !st; p++) {
        seer_conv_row_t *rows = NULL;
        size_t nr = 0;
        int kind = seer_csv_kind(paths[p]);
        const char *base = strrchr(paths[p], '/');
        if (kind == 'g') {
            seer_gemm_row_t *gr;
            size_t ng;
            if ((st = seer_gemm_csv_read(h, paths[p], &gr, &ng))) break;
            seer_gemm_row_t *grown = realloc(gemm, (ngemm + ng + 1) * sizeof *gemm);
            if (!grown) { free(gr); st = seer_error(h, SEER_STATUS_ALLOC_FAILED, "GEMM rows"); break; }
            gemm = grown;
            size_t kept = 0; /* --holdout leaves the GEMM test split out too */
            for (size_t i = 0; i < ng; i++)
                if (!(flags & SEER_TRAIN_HOLDOUT) || !seer_gemm_in_test_split(&gr[i])) gemm[ngemm + kept++] = gr[i];
            ngemm += kept;
            free(gr);
            if (pn < (int)sizeof prov)
                pn += snprintf(prov + pn, sizeof prov - (size_t)pn, " %s (GEMM, %zu rows)",
                               base ? base + 1 : paths[p], ng);
            continue;
        }
        st = kind == 'k' ? read_trace(h, paths[p], &rows, &nr) : seer_conv_csv_read(h, paths[p], &rows, &nr);
        if (st) break;
        trow_t *grown = realloc(all, (nall + nr + 1) * sizeof *all);
        if (!grown) { free(rows); st = seer_error(h, SEER_STATUS_ALLOC_FAILED, "training rows"); break; }
        all = grown;
        size_t used = 0;
        char src[64] = "";
        for (size_t i = 0; i < nr; i++) {
            const seer_conv_row_t *r = &rows[i];
            if (!same_gpu(r->gpu, g) || r->algo == SEER_ALGO_UNKNOWN || !(r->time_ms > 0)) { skipped++; continue; }
            trow_t *t = &all[nall];
            memset(t, 0, sizeof *t);
            t->row = *r;
            t->file = p;
            t->pos = (double)i / (double)nr;
            if (seer_conv_init(NULL, &t->cv, r->dtype, r->layout, r->n, r->c, r->h, r->w, r->k, r->r,
                               r->s, r->pad_h, r->pad_w, r->stride_h, r->stride_w, r->dil_h, r->dil_w,
                               r->groups)) { skipped++; continue; }
            if ((flags & SEER_TRAIN_HOLDOUT) && seer_conv_in_test_split(&t->cv)) { skipped++; continue; }
            /* An empty algo (cuDNN chose) trains the pseudo-family -1,
             * costed with the structure of the direction's plain GEMM. */
            int algo = r->algo == SEER_ALGO_NONE ? 0 : r->algo;
            if (seer_model_kernels(NULL, m, &t->cv, r->dir, algo, &t->t)) { skipped++; continue; }
            if (!src[0]) {
                seer_strlcpy(src, r->source, sizeof src);
                char *colon = strchr(src, ':');
                if (colon) *colon = 0;
            }
            nall++;
            used++;
        }
        free(rows);
        if (pn < (int)sizeof prov)
            pn += snprintf(prov + pn, sizeof prov - (size_t)pn, " %s (%zu rows, %s)", base ? base + 1 : paths[p],
                           used, src[0] ? src : "no source");
    }
    if (!st && nall == 0)
        st = seer_error(h, SEER_STATUS_NO_DATA, "no usable rows for GPU %s (%zu skipped)", g->id, skipped);

    trow_t **fr = st ? NULL : malloc(nall * sizeof *fr);
    if (!st && !fr) st = seer_error(h, SEER_STATUS_ALLOC_FAILED, "families");
    if (!st) st = train_families(h, m, all, nall, fr);
    /* Measurement-order drift (drift.h): per file, the trend of the
     * residuals along the row order is removed from the measured times
     * and every family is fitted again on the corrected times. */
    int drifted = 0;
    double *pos = NULL, *res = NULL;
    if (!st && !(flags & SEER_TRAIN_KEEP_DRIFT)) {
        pos = malloc((nall + 1) * sizeof *pos);
        res = malloc((nall + 1) * sizeof *res);
        if (!pos || !res) st = seer_error(h, SEER_STATUS_ALLOC_FAILED, "drift");
    }
    for (int p = 0; p < n_paths && !st && pos; p++) {
        int n = 0;
        for (size_t i = 0; i < nall; i++)
            if (all[i].file == p && all[i].base > 0) {
                pos[n] = all[i].pos;
                res[n++] = all[i].row.time_ms - all[i].base;
            }
        seer_drift_t d;
        if (seer_drift_fit(pos, res, n, &d)) {
            for (size_t i = 0; i < nall; i++)
                if (all[i].file == p) all[i].row.time_ms = seer_drift_correct(&d, all[i].pos, all[i].row.time_ms);
            const char *base = strrchr(paths[p], '/');
            if (pn < (int)sizeof prov)
                pn += snprintf(prov + pn, sizeof prov - (size_t)pn, "%s %s %+.3f..%+.3f ms",
                               drifted ? "," : "; drift removed:", base ? base + 1 : paths[p], d.lo, d.hi);
            drifted = 1;
        }
    }
    free(pos);
    free(res);
    seer_strlcpy(m->provenance, prov, sizeof m->provenance);
    if (drifted) {
        for (int i = 0; i < m->nfam; i++) seer_family_free(&m->fam[i]);
        free(m->fam);
        m->fam = NULL;
        m->nfam = 0;
        m->n_rows = 0;
        st = train_families(h, m, all, nall, fr);
    }

    /* The generic kernel formula (seer_predict_kernel): per class, a fit of
     * the main-kernel terms over every row of that class. */
    if (!st) {
        for (int c = 0; c < 3; c++) {
            int n = 0;
            for (size_t i = 0; i < nall; i++) if (all[i].cls == c) fr[n++] = &all[i];
            if (n < MIN_CLASS_ROWS) {
                n = 0;
                for (size_t i = 0; i < nall; i++) fr[n++] = &all[i];
            }
            for (int i = 0; i < n; i++) /* no helpers in a single kernel */
                fr[i]->t.x[3] = fr[i]->t.x[4] = fr[i]->t.x[5] = 0;
            fit_rel(fr, n, m->kcoef[c]);
        }
    }
    if (!st && ngemm) st = seer_gemm_fit(h, m, gemm, ngemm, m->gemm);
    free(gemm);
    free(fr);
    free(all);
    if (st) { seer_model_free(m); return st; }
    /* Round-trip through the file format: a trained model is exactly what
     * loading its file gives back, and gets its checksum. */
    unsigned char *buf;
    size_t size;
    if (!seer_model_serialize(m, &buf, &size)) { seer_model_free(m); return seer_error(h, SEER_STATUS_ALLOC_FAILED, "model"); }
    seer_model_free(m);
    st = seer_model_load_buffer(h, buf, size, out);
    free(buf);
    return st;
}

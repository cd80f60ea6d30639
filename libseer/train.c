/* Training: fit every kernel family of a GPU from measured layer times
 * (conv timing CSV v1) and kernel traces (kernel trace CSV v1, summed per
 * call).  Deterministic: rows are processed in file order, LIBSVM's
 * solvers are deterministic, and no random numbers are drawn. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "classify.h"
#include "common.h"
#include "csv.h"
#include "dispatch.h"
#include "fileio.h"
#include "fit.h"
#include "gemm.h"
#include "gpu.h"
#include "gpufile.h"
#include "launch.h"
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
    int pvar;                   /* the fastest variant (what prediction uses) */
    double base;
    int check;                  /* 1: in the validation part used to accept the SVR */
    int file;                   /* index of the file it came from */
    double pos;                 /* its position in that file, [0, 1) */
    double slow;                /* its legacy kernels' slowdown (seer_conv_legacy_slowdown) */
} trow_t;

static void quiet(const char *s) { (void)s; }

/* ---- fitting -------------------------------------------------------- */

/* Fit coef over the rows (fit.h) and return the root mean squared
 * relative error of the fit. */
static double fit_rel_mask(trow_t **rows, int n, double *coef, unsigned mask)
{
    seer_relfit_t fit;
    seer_relfit_init(&fit, SEER_NTERMS, 1u << SEER_T_CONST);
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

/* Few rows cannot pin down six terms: small variants fit compute and
 * DRAM only (the launch gaps are never fitted). */
#define SMALL_VARIANT_ROWS 40
#define SMALL_MASK ((1u << SEER_T_COMPUTE) | (1u << SEER_T_DRAM))
static double fit_rel(trow_t **rows, int n, double *coef)
{
    return fit_rel_mask(rows, n, coef, n < SMALL_VARIANT_ROWS ? SMALL_MASK : ~0u);
}

/* ---- LIBSVM -------------------------------------------------------- */

/* Train *out on at most SVM_MAX_ROWS rows (an even stride through them),
 * dense standardized features 0..nf-1 with targets y.  ALLOC_FAILED when
 * memory runs out, so that training never goes on with a different
 * model than it meant to fit. */
static seer_status_t svm_fit(const seer_family_t *f, trow_t **rows, const double *y, int n, int nf,
                             int type, double C, double gamma, double p, struct svm_model **out)
{
    int step = n > SVM_MAX_ROWS ? (n + SVM_MAX_ROWS - 1) / SVM_MAX_ROWS : 1;
    int m = (n + step - 1) / step;
    struct svm_problem prob = {m, calloc((size_t)m, sizeof(double)),
                               calloc((size_t)m, sizeof(struct svm_node *))};
    struct svm_node *nodes = calloc((size_t)m * (size_t)(nf + 1), sizeof *nodes);
    seer_status_t st = SEER_STATUS_ALLOC_FAILED;
    *out = NULL;
    if (prob.y && prob.x && nodes) {
        for (int i = 0; i < m; i++) {
            const trow_t *r = rows[i * step];
            double raw[SEER_NF];
            memcpy(raw, r->t.f, sizeof raw);
            raw[SEER_F_LOG_BASE] = log(r->base > 1e-30 ? r->base : 1e-30);
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
        /* The parameters are constants of this file: a refusal is a bug. */
        st = svm_check_parameter(&prob, &par) ? SEER_STATUS_INTERNAL : SEER_STATUS_SUCCESS;
        struct svm_model *tm = st ? NULL : svm_train(&prob, &par);
        /* no support vector (every target within the tube): nothing to
         * learn, no model (it used to fail as out of memory) */
        int empty = tm && tm->l == 0;
        if (tm && !empty) *out = seer_svm_clone(tm, SEER_NF); /* self-owned, as after a load */
        if (tm) svm_free_and_destroy_model(&tm);
        if (!st && !*out && !empty) st = SEER_STATUS_ALLOC_FAILED;
    }
    free(prob.y);
    free(prob.x);
    free(nodes);
    return st;
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
            double v = i == SEER_F_LOG_BASE ? log(rows[r]->base) : rows[r]->t.f[i];
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

/* Per variant: resident blocks per SM (exact from a kernel trace's
 * registers and shared memory, else the wave pattern that best explains
 * the times; for rows without kernel names the tile too), then the
 * all-class and per-class coefficients.  sub has room for n rows. */
static void fit_variant(const struct seer_model *m, seer_variant_t *var, int v, trow_t **rows, int n,
                        trow_t **sub)
{
    int nv = 0;
    for (int r = 0; r < n; r++) if (rows[r]->var == v) sub[nv++] = rows[r];
    static const int cand[] = {1, 2, 3, 4, 5, 6, 8, 12, 16};
    double best = INFINITY;
    int limit = m->gpu.threads_per_sm / var->threads;
    if (limit > m->gpu.blocks_per_sm) limit = m->gpu.blocks_per_sm;
    if (limit < 1) limit = 1;
    /* cuDNN compiles each variant once: the first traced row does. */
    int exact = 0;
    for (int r = 0; r < nv && !exact; r++)
        if (sub[r]->row.regs_per_thread > 0 &&
            seer_occupancy(&m->gpu, var->threads, sub[r]->row.regs_per_thread, sub[r]->row.smem_bytes,
                           &exact) != SEER_STATUS_SUCCESS)
            exact = 0;
    if (exact) var->bps = exact;
    /* Rows without kernel names (DeepBench) do not tell the tile either:
     * it is chosen with the resident blocks, on the training error, as
     * the GEMM model chooses its tile (DeepBench test split: V100 SXM2
     * 26.4 -> 25.7 %, GTX 1080 Ti 28.8 -> 25.3 % MAPE). */
    static const int tiles[][2] = {{128, 64}, {64, 64}, {128, 128}, {64, 128},
                                   {256, 64}, {256, 128}, {128, 32}, {32, 32}};
    int ntiles = strcmp(var->name, "default") ? 1 : (int)(sizeof tiles / sizeof *tiles);
    seer_variant_t named = *var; /* its tile from its kernel's name (parse_variant) */
    /* the residencies to try: the traced one, else every one that fits */
    int bps[sizeof cand / sizeof *cand], nb = 0;
    if (exact) bps[nb++] = exact;
    for (size_t c = 0; !exact && c < sizeof cand / sizeof *cand; c++)
        if (cand[c] <= limit) bps[nb++] = cand[c];
    /* a wgrad GEMM may split its reduction (model.c): chosen as the tile is */
    int nsplit = nv > 0 && sub[0]->t.dir == SEER_DIR_BWD_FILTER && named.geo == SEER_GEO_TILED ? 2 : 1;
    for (int sp = 0; sp < nsplit; sp++) {
        for (int ti = 0; ti < ntiles; ti++) {
            for (int b = 0; b < nb; b++) {
                seer_variant_t trial = named;
                trial.bps = bps[b];
                if (sp) trial.geo = SEER_GEO_TILED_SPLIT;
                if (ntiles > 1) trial.tm = tiles[ti][0], trial.tn = tiles[ti][1];
                for (int r = 0; r < nv; r++) seer_model_terms(m, &trial, &sub[r]->t);
                double coef[SEER_NTERMS];
                double e = fit_rel(sub, nv, coef);
                if (e < best - 1e-9) {
                    best = e;
                    *var = trial;
                }
            }
        }
    }
    if (!var->bps) var->bps = 1;
    for (int r = 0; r < nv; r++) seer_model_terms(m, var, &sub[r]->t);
    fit_rel(sub, nv, var->coef[SEER_ALL_CLASSES]);
    var->has[SEER_ALL_CLASSES] = 1;
    /* the class labels the kernel (the classifier); the time uses the
     * all-class fit only (model.c, "physics") */
    for (int r = 0; r < nv; r++) sub[r]->cls = seer_class_of_measured(&sub[r]->t, sub[r]->row.time_ms);
}

/* Prediction takes the fastest variant (model.c, "physics"), which picks
 * a variant on shapes cuDNN never gives it wherever its formula comes out
 * lower.  Scaling each variant's fitted terms (not the launch gaps) by a
 * weight keeps the formula monotone in work and lets the fastest-of rule
 * fit the rows: coordinate descent on a grid of weights, least squares in
 * log time.  Returns nonzero when out of memory. */
#define WEIGHT_STEPS 41
static int weigh_variants(const struct seer_model *m, seer_family_t *f, trow_t **rows, int n)
{
    int nv = f->nvar;
    if (nv < 2) return 0;
    double *b = malloc((size_t)n * (size_t)(nv + 1) * sizeof *b), w[SEER_MAX_VARIANTS];
    if (!b) return 1;
    for (int r = 0; r < n; r++) {
        for (int v = 0; v < nv; v++) {
            seer_terms_t t = rows[r]->t;
            seer_model_terms(m, &f->var[v], &t);
            double gap = f->var[v].coef[SEER_ALL_CLASSES][SEER_T_CONST] * t.x[SEER_T_CONST];
            b[r * (nv + 1) + v] = seer_family_base(&f->var[v], &t) - gap;
            b[r * (nv + 1) + nv] = gap;
        }
    }
    for (int v = 0; v < nv; v++) w[v] = 1;
    for (int pass = 0; pass < 3; pass++)
        for (int v = 0; v < nv; v++) {
            double best = INFINITY, bw = w[v];
            for (int k = 0; k < WEIGHT_STEPS; k++) {
                w[v] = 0.5 * pow(1.05, k); /* 0.5 .. 3.5 */
                double e = 0;
                for (int r = 0; r < n; r++) {
                    const double *br = &b[r * (nv + 1)];
                    double p = INFINITY;
                    for (int u = 0; u < nv; u++) p = fmin(p, w[u] * br[u] + br[nv]);
                    double d = log(fmax(p, 1e-4) / rows[r]->row.time_ms);
                    e += d * d;
                }
                if (e < best) { best = e; bw = w[v]; }
            }
            w[v] = bw;
        }
    for (int v = 0; v < nv; v++)
        for (int i = 0; i < SEER_NTERMS; i++)
            if (i != SEER_T_CONST) f->var[v].coef[SEER_ALL_CLASSES][i] *= w[v];
    free(b);
    return 0;
}

/* The learned correction, kept only where it measurably helps on the
 * check rows it was not fitted on (docs/method.md, section 5).  y and
 * sub have room for n rows. */
static seer_status_t fit_correction(seer_family_t *f, trow_t **rows, int n, double *y, trow_t **sub)
{
    if (n < 40) return SEER_STATUS_SUCCESS;
    int nf = 0;
    for (int r = 0; r < n; r++)
        if (!rows[r]->check) { sub[nf] = rows[r]; y[nf] = log(rows[r]->row.time_ms / rows[r]->base); nf++; }
    seer_status_t st = svm_fit(f, sub, y, nf, SEER_NF, EPSILON_SVR, 3, 1.0 / SEER_NF, 0.05, &f->svr);
    if (st) return st;
    double before = mape_of(rows, n, 1, f, 0), after = mape_of(rows, n, 1, f, 1);
    seer_svm_free(f->svr);
    f->svr = NULL;
    if (after >= 0.98 * before) return SEER_STATUS_SUCCESS;
    for (int r = 0; r < n; r++) y[r] = log(rows[r]->row.time_ms / rows[r]->base);
    return svm_fit(f, rows, y, n, SEER_NF, EPSILON_SVR, 3, 1.0 / SEER_NF, 0.05, &f->svr);
}

/* One family: its variants and their coefficients, the variant and class
 * classifiers, and the learned correction. */
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

    seer_status_t st = SEER_STATUS_SUCCESS;
    for (int v = 0; v < f->nvar; v++) fit_variant(m, &f->var[v], v, rows, n, sub);
    if (weigh_variants(m, f, rows, n)) { st = SEER_STATUS_ALLOC_FAILED; goto out; }

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
        st = svm_fit(f, rows, y, n, SEER_NF_CLASS, C_SVC, 10, 1.0 / SEER_NF_CLASS, 0, &f->cclf);
        if (st) goto out;
    }

    /* What the pipeline predicts without the correction, as at prediction
     * time: the fastest variant, all-class coefficients. */
    for (int r = 0; r < n; r++) {
        trow_t *t = rows[r];
        t->base = seer_family_fastest(m, f, &t->t, &t->pvar);
        t->check = seer_in_check_split(t->row.line);
    }
    standardize(f, rows, n, SEER_NF_CLASS, SEER_NF);
    st = fit_correction(f, rows, n, y, sub);
    /* the generic kernel formula (fit_generic_kernel) is fitted on the
     * launches that ran */
    for (int r = 0; r < n; r++) seer_model_terms(m, &f->var[rows[r]->var], &rows[r]->t);
out:
    free(y);
    free(sub);
    return st;
}

/* ---- reading ------------------------------------------------------- */

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
                        seer_dtype_math(all[i].cv.dtype) == math) /* the run math (read_rows) */
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

/* Everything one training run gathers before and while fitting. */
typedef struct {
    seer_handle_t h;
    struct seer_model *m;
    unsigned flags;
    trow_t *all;                /* conv rows of the model's GPU, in file order */
    size_t nall, skipped;
    seer_gemm_row_t *gemm;
    size_t ngemm;
    int nconv_files;            /* conv or kernel-trace files read (GEMM-only: none) */
    char prov[512];             /* the model's provenance line, as it grows */
    int pn;
} train_t;

/* A file's rows' GPU time in the families' terms: divided by their
 * legacy kernels' slowdown (trow_t.slow). */
static void slow_down_rows(trow_t *t, size_t n)
{
    for (size_t i = 0; i < n; i++) t[i].row.time_ms /= t[i].slow;
}

static void prov_add(train_t *T, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void prov_add(train_t *T, const char *fmt, ...)
{
    if (T->pn >= (int)sizeof T->prov) return;
    va_list ap;
    va_start(ap, fmt);
    T->pn += vsnprintf(T->prov + T->pn, sizeof T->prov - (size_t)T->pn, fmt, ap);
    va_end(ap);
}

static const char *base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

/* The rows of one file as the dispatch estimate sees them. */
typedef struct {
    double *pos, *time, *floor;
    unsigned char *keep;
    int *call;                  /* the kind of call (take_off_dispatch) */
} drows_t;

static int drows_alloc(drows_t *d, size_t n)
{
    n = n ? n : 1;
    d->pos = malloc(n * sizeof *d->pos);
    d->time = malloc(n * sizeof *d->time);
    d->floor = malloc(n * sizeof *d->floor);
    d->keep = malloc(n);
    d->call = malloc(n * sizeof *d->call);
    return d->pos && d->time && d->floor && d->keep && d->call;
}

static void drows_free(drows_t *d)
{
    free(d->pos);
    free(d->time);
    free(d->floor);
    free(d->keep);
    free(d->call);
}

/* GPU-time targets for the n rows of one file whose source carries host
 * dispatch (dispatch.h), each kind of call (d->call[i] in [0, ncall), named
 * names[]) with its own estimate: a framework dispatches each its own
 * way (NeuSight's nn.Linear calls take about 0.02 ms more than its bmm
 * calls).  d->time becomes the targets, d->keep[i] 0 for rows whose GPU
 * time cannot be told from the estimate's uncertainty; note says what was
 * done, for the provenance.  A kind too small for a fit of its own takes
 * the whole file's; without either it stays as published, and the note
 * says so.  0 when memory runs out. */
static int take_off_dispatch(drows_t *d, int n, int ncall, const char *const *names, char *note,
                             size_t size)
{
    drows_t k = {0};
    seer_dispatch_t whole;
    int kinds = 0, len = 0, have_whole = 0, *at = malloc((size_t)(n ? n : 1) * sizeof *at);
    if (!at || !drows_alloc(&k, (size_t)n)) {
        free(at);
        drows_free(&k);
        return 0;
    }
    for (int c = 0; c < ncall; c++)
        for (int i = 0; i < n; i++)
            if (d->call[i] == c) { kinds++; break; }
    note[0] = 0;
    memset(d->keep, 1, (size_t)n);
    /* the file's curve, for a kind too small for its own: fitted before
     * any kind's host time is taken off (fitted after, on those targets,
     * it came out near 0) */
    if (kinds > 1) have_whole = seer_dispatch_fit(d->pos, d->time, d->floor, n, &whole);
    for (int c = 0; c < ncall; c++) {
        int m = 0;
        for (int i = 0; i < n; i++)
            if (d->call[i] == c) {
                at[m] = i;
                k.pos[m] = d->pos[i];
                k.time[m] = d->time[i];
                k.floor[m] = d->floor[i];
                k.keep[m++] = 1;
            }
        if (!m) continue;
        char who[64] = "";
        if (kinds > 1) snprintf(who, sizeof who, " of %s", names[c]);
        seer_dispatch_t e;
        int w = 0, fitted = seer_dispatch_remove(k.pos, k.time, k.floor, m, k.keep, &e);
        if (!fitted && kinds > 1) { /* too few rows: the file's curve */
            if ((fitted = have_whole)) {
                e = whole;
                seer_dispatch_take_off(&e, k.pos, k.time, k.floor, m, k.keep);
                snprintf(who, sizeof who, " of %s (the file's)", names[c]);
            }
        }
        if (!fitted) {
            w = snprintf(note + len, size - (size_t)len, "; host dispatch%s NOT taken off (no fit from these %d rows)",
                         who, m);
        } else {
            int dropped = 0;
            for (int i = 0; i < m; i++) dropped += !k.keep[i];
            w = snprintf(note + len, size - (size_t)len, "; host dispatch%s %.3f..%.3f ms +-%.3f taken off, %d rows too small",
                         who, seer_dispatch_at(&e, k.pos[0]), seer_dispatch_at(&e, k.pos[m - 1]), e.spread, dropped);
        }
        len = w > 0 && (size_t)(len + w) < size ? len + w : (int)strlen(note);
        for (int i = 0; i < m; i++) {
            d->time[at[i]] = k.time[i];
            d->keep[at[i]] = k.keep[i];
        }
    }
    free(at);
    drows_free(&k);
    return 1;
}

/* GEMM rows are kept whole (gemm.c picks the GPU's), less the GEMM test
 * split when held out. */
static seer_status_t add_gemm_file(train_t *T, const char *path)
{
    seer_gemm_row_t *gr;
    size_t ng;
    seer_status_t st = seer_gemm_csv_read(T->h, path, &gr, &ng);
    if (st) return st;
    seer_gemm_row_t *grown = realloc(T->gemm, (T->ngemm + ng + 1) * sizeof *T->gemm);
    if (!grown) { free(gr); return seer_error(T->h, SEER_STATUS_ALLOC_FAILED, "GEMM rows"); }
    T->gemm = grown;
    drows_t d = {0};
    if (!drows_alloc(&d, ng)) {
        free(gr);
        drows_free(&d);
        return seer_error(T->h, SEER_STATUS_ALLOC_FAILED, "GEMM rows");
    }
    seer_gemm_row_t *at = T->gemm + T->ngemm;
    int n = 0, dispatch = 0;
    size_t untimed = 0, held = 0;
    for (size_t i = 0; i < ng; i++) {
        if ((T->flags & SEER_TRAIN_HOLDOUT) && seer_gemm_in_test_split(&gr[i])) { held++; continue; }
        if (!(gr[i].time_ms > 0)) { untimed++; continue; } /* not timed: a prediction input */
        at[n] = gr[i];
        d.pos[n] = (double)i / (double)ng;
        d.time[n] = gr[i].time_ms;
        d.floor[n] = seer_gemm_floor_ms(T->h, &gr[i]);
        d.call[n] = gr[i].op_kind;
        dispatch |= seer_source_has_dispatch(gr[i].source);
        n++;
    }
    if (untimed) {
        T->skipped += untimed;
        if (!n) { /* a prediction input given to training: no GEMM fit would come of it, silently */
            free(gr);
            drows_free(&d);
            return seer_error(T->h, SEER_STATUS_NO_DATA,
                              "%s: no GEMM row to train (%zu without a time: time_ms empty or absent; %zu in the "
                              "held-out test split)", path, untimed, held);
        }
    }
    char note[512] = "";
    if (dispatch && !(T->flags & SEER_TRAIN_KEEP_DISPATCH)) {
        if (!take_off_dispatch(&d, n, SEER_GEMM_OPS, seer_gemm_op_names, note, sizeof note)) {
            free(gr);
            drows_free(&d);
            return seer_error(T->h, SEER_STATUS_ALLOC_FAILED, "dispatch");
        }
    } else {
        memset(d.keep, 1, (size_t)n);
    }
    char untimed_note[48] = "";
    if (untimed) snprintf(untimed_note, sizeof untimed_note, ", %zu without a time", untimed);
    prov_add(T, " %s (GEMM, %zu rows%s%s)", base_name(path), ng, untimed_note, note);
    size_t kept = 0;
    for (int i = 0; i < n; i++)
        if (d.keep[i]) {
            at[kept] = at[i];
            at[kept++].time_ms = d.time[i];
        }
    T->ngemm += kept;
    free(gr);
    drows_free(&d);
    return SEER_STATUS_SUCCESS;
}

/* The floor of the kernels a row's family costs (cv: in its run math). */
static double row_floor(const seer_gpu_info_t *g, const struct seer_conv *cv, const seer_conv_row_t *r)
{
    return r->algo == SEER_ALGO_NONE ? seer_choice_kernels_floor_ms(g, cv, r->dir)
                                     : seer_conv_floor_ms(g, cv, r->dir, r->algo);
}

/* Conv rows (a timing CSV, or a kernel trace summed per call) of the
 * model's GPU that the kernel view can cost, less the test split when
 * held out. */
static seer_status_t add_conv_file(train_t *T, const char *path, int file, int kind)
{
    seer_conv_row_t *rows = NULL;
    size_t nr = 0;
    seer_status_t st = seer_conv_rows_read(T->h, path, 0, &rows, &nr);
    if (st) return st;
    T->nconv_files++;
    size_t read = nr;
    if ((st = seer_conv_rows_framework_math(T->h, rows, &nr))) { free(rows); return st; }
    T->skipped += (long)(read - nr);
    trow_t *grown = realloc(T->all, (T->nall + nr + 1) * sizeof *T->all);
    if (!grown) { free(rows); return seer_error(T->h, SEER_STATUS_ALLOC_FAILED, "training rows"); }
    T->all = grown;
    size_t used = 0;
    char src[64] = "";
    for (size_t i = 0; i < nr; i++) {
        const seer_conv_row_t *r = &rows[i];
        if (!same_gpu(r->gpu, &T->m->gpu) || r->algo == SEER_ALGO_UNKNOWN || r->algo == SEER_ALGO_BAD_NAME ||
            !(r->time_ms > 0)) { T->skipped++; continue; }
        trow_t *t = &T->all[T->nall];
        memset(t, 0, sizeof *t);
        t->row = *r;
        t->file = file;
        t->pos = (double)i / (double)nr;
        /* A row trains, and its features are costed, in the math cuDNN
         * ran it in (seer_conv_run_dtype), the family a prediction of it
         * reads (model.c, conv_kernels): an FP16 row of IMPLICIT_GEMM is
         * FP32-math (SIMT) work, as an FP16 row of a GPU without FP16
         * tensor cores is; cuDNN's choice runs the requested math. */
        int ralgo = r->algo == SEER_ALGO_NONE ? SEER_ALGO_CUDNN_CHOICE : r->algo;
        /* the test split by the dtype the row asked for, as seer eval splits it */
        if (seer_conv_init(NULL, &t->cv, r->dtype, r->layout, &r->shape)) { T->skipped++; continue; }
        if ((T->flags & SEER_TRAIN_HOLDOUT) && seer_conv_in_test_split(&t->cv)) { T->skipped++; continue; }
        if (seer_conv_init(NULL, &t->cv, seer_conv_run_dtype(&T->m->gpu, r->dtype, r->dir, ralgo), r->layout,
                           &r->shape)) { T->skipped++; continue; }
        /* An empty algo (cuDNN chose) trains the pseudo-family -1,
         * costed with the structure of the direction's plain GEMM, or in
         * backward filter of the one seer_choice_algo names. */
        int algo = r->algo == SEER_ALGO_NONE ? seer_choice_algo(&T->m->gpu, &t->cv, r->dir) : r->algo;
        if (seer_model_kernels(NULL, T->m, &t->cv, r->dir, algo, &t->t)) { T->skipped++; continue; }
        /* The families time cuDNN's own kernels: an NCHW tensor-core row
         * ran the transposes around them too (model.h), unless its cuDNN
         * (7 or older) ran NCHW kernels or what is left would beat the
         * kernels' floor (it cannot have run them). */
        int major = seer_source_cudnn_major(r->source);
        double tr = major > 0 && major < 8 ? 0 : seer_conv_nchw_transposes_ms(T->m, &t->cv, r->dir, algo);
        if (tr > 0 && t->row.time_ms - tr >= row_floor(&T->m->gpu, &t->cv, r))
            t->row.time_ms -= tr;
        /* ... and legacy kernels ran slower than the families' FP32 twins
         * by a factor the physics puts back (seer_conv_legacy_slowdown):
         * fitted on the raw time, a pseudo-half row would take it twice.
         * It divides the GPU time, after any host time is taken off
         * (slow_down_rows). */
        t->slow = seer_conv_legacy_slowdown(r->dir, ralgo, &t->cv);
        if (!src[0]) {
            seer_strlcpy(src, r->source, sizeof src);
            char *colon = strchr(src, ':');
            if (colon) *colon = 0;
        }
        T->nall++;
        used++;
    }
    free(rows);
    /* "N of its M rows kept": the rows kept (the GPU's, usable, outside
     * the test split when held out) of the file's; a bare count read as
     * the file's size.  A trace counts calls, its kernels summed. */
    char count[80];
    snprintf(count, sizeof count, "%zu of its %zu %s kept", used, read, kind == 'k' ? "calls" : "rows");
    if (T->flags & SEER_TRAIN_KEEP_DISPATCH || !seer_source_has_dispatch(src)) {
        prov_add(T, " %s (%s, %s)", base_name(path), count, src[0] ? src : "no source");
        slow_down_rows(T->all + T->nall - used, used);
        return SEER_STATUS_SUCCESS;
    }
    trow_t *at = T->all + T->nall - used;
    drows_t d = {0};
    if (!drows_alloc(&d, used)) {
        drows_free(&d);
        return seer_error(T->h, SEER_STATUS_ALLOC_FAILED, "dispatch");
    }
    for (size_t i = 0; i < used; i++) {
        d.pos[i] = at[i].pos;
        d.time[i] = at[i].row.time_ms;
        d.floor[i] = row_floor(&T->m->gpu, &at[i].cv, &at[i].row);
        d.call[i] = (int)at[i].row.dir;
    }
    const char *const dirs[] = {seer_direction_name(SEER_DIR_FWD), seer_direction_name(SEER_DIR_BWD_DATA),
                                seer_direction_name(SEER_DIR_BWD_FILTER)};
    char note[512];
    if (!take_off_dispatch(&d, (int)used, 3, dirs, note, sizeof note)) {
        drows_free(&d);
        return seer_error(T->h, SEER_STATUS_ALLOC_FAILED, "dispatch");
    }
    prov_add(T, " %s (%s, %s%s)", base_name(path), count, src, note);
    size_t kept = 0;
    for (size_t i = 0; i < used; i++)
        if (d.keep[i]) {
            at[kept] = at[i];
            at[kept++].row.time_ms = d.time[i];
        }
    T->nall -= used - kept;
    slow_down_rows(at, kept);
    drows_free(&d);
    return SEER_STATUS_SUCCESS;
}

/* The generic kernel formula (seer_predict_kernel): per class, a fit of
 * the main-kernel terms over every row of that class. */
static void fit_generic_kernel(train_t *T, trow_t **fr)
{
    for (int c = 0; c < 3; c++) {
        int n = 0;
        for (size_t i = 0; i < T->nall; i++) if (T->all[i].cls == c) fr[n++] = &T->all[i];
        if (n < MIN_CLASS_ROWS) {
            n = 0;
            for (size_t i = 0; i < T->nall; i++) fr[n++] = &T->all[i];
        }
        for (int i = 0; i < n; i++) /* no helpers in a single kernel */
            fr[i]->t.x[SEER_T_HELP_IN] = fr[i]->t.x[SEER_T_HELP_OUT] = fr[i]->t.x[SEER_T_HELP_W] = 0;
        fit_rel(fr, n, T->m->kcoef[c]);
    }
}

/* Read every file (GPU-time targets where a source carries host
 * dispatch), fit the families, the generic kernel formula and the GEMM
 * model. */
static seer_status_t train_all(train_t *T, const char *const *paths, int n_paths)
{
    seer_status_t st = SEER_STATUS_SUCCESS;
    for (int p = 0; p < n_paths && !st; p++) {
        int kind = seer_csv_kind(paths[p]);
        st = kind == 'g' ? add_gemm_file(T, paths[p]) : add_conv_file(T, paths[p], p, kind);
    }
    if (st) return st;
    if (T->nall == 0 && T->ngemm == 0)
        return seer_error(T->h, SEER_STATUS_NO_DATA, "no usable rows for GPU %s (%zu skipped)",
                          T->m->gpu_id, T->skipped);
    if (T->nall == 0 && T->nconv_files)
        return seer_error(T->h, SEER_STATUS_NO_DATA, "no usable conv rows for GPU %s in %d conv file(s) "
                          "(%zu skipped): give GEMM files alone for a GEMM-only model", T->m->gpu_id,
                          T->nconv_files, T->skipped);
    if (T->nall == 0) { /* GEMM files alone: a GEMM-only model (transfer.c gives it its convs) */
        seer_strlcpy(T->m->provenance, T->prov, sizeof T->m->provenance);
        seer_status_t gst = seer_gemm_fit(T->h, T->m, T->gemm, T->ngemm, T->m->gemm);
        int fits = 0;
        for (int math = 0; math < 2; math++)
            for (int kind = 0; kind < SEER_GEMM_KINDS; kind++) fits += T->m->gemm[math][kind].present;
        if (!gst && !fits)
            return seer_error(T->h, SEER_STATUS_NO_DATA, "%zu GEMM rows for GPU %s fit nothing (a fit needs 8 "
                              "timed rows of one math type the GPU runs)", T->ngemm, T->m->gpu_id);
        return gst;
    }
    /* Rows moved (realloc across files, dropped rows): their terms point
     * at their own descriptor again. */
    for (size_t i = 0; i < T->nall; i++) T->all[i].t.cv = &T->all[i].cv;
    trow_t **fr = malloc(T->nall * sizeof *fr);
    if (!fr) return seer_error(T->h, SEER_STATUS_ALLOC_FAILED, "families");
    struct seer_model *m = T->m;
    seer_strlcpy(m->provenance, T->prov, sizeof m->provenance);
    st = train_families(T->h, m, T->all, T->nall, fr);
    if (!st) fit_generic_kernel(T, fr);
    if (!st && T->ngemm) st = seer_gemm_fit(T->h, m, T->gemm, T->ngemm, m->gemm);
    free(fr);
    return st;
}

seer_status_t seer_train(seer_handle_t h, const char *gpu_id, const char *const *paths, int n_paths,
                         unsigned flags, seer_model_t *out)
{
    if (!gpu_id || !paths || n_paths < 1 || !out)
        return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_train: gpu_id, paths and model are required");
    for (int i = 0; i < n_paths; i++)
        if (!paths[i]) return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_train: paths[%d] is NULL", i);
    /* A file given twice trains every row of it twice, weighting its
     * shapes double, and nothing says so: never what was meant. */
    for (int i = 1; i < n_paths; i++)
        for (int j = 0; j < i; j++)
            if (seer_same_file(paths[j], paths[i]))
                return strcmp(paths[j], paths[i])
                           ? seer_error(h, SEER_STATUS_BAD_PARAM, "seer_train: %s (paths[%d]) is the same file "
                                        "as %s (paths[%d]): its rows would train twice", paths[i], i, paths[j], j)
                           : seer_error(h, SEER_STATUS_BAD_PARAM, "seer_train: %s is given twice (paths[%d] and "
                                        "paths[%d]): its rows would train twice", paths[i], j, i);
    /* An undefined bit is a caller bug or a flag of a newer libseer:
     * training as if it were absent would silently differ. */
    if (flags & ~(SEER_TRAIN_HOLDOUT | SEER_TRAIN_KEEP_DISPATCH))
        return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_train: flags 0x%x has undefined bits 0x%x",
                          flags, flags & ~(SEER_TRAIN_HOLDOUT | SEER_TRAIN_KEEP_DISPATCH));
    const seer_gpu_info_t *g = seer_gpu_lookup_h(h, gpu_id);
    if (!g) return seer_gpu_unknown(h, gpu_id);
    struct seer_model *m = calloc(1, sizeof *m);
    if (!m) return seer_error(h, SEER_STATUS_ALLOC_FAILED, "model");
    seer_strlcpy(m->gpu_id, g->id, sizeof m->gpu_id);
    m->gpu = *g;
    m->nsrc = 1;
    m->src[0] = *g;
    m->lib_version = SEER_VERSION_NUMBER;
    /* LIBSVM prints its solver's progress to stdout unless told not to;
     * it has only this process-wide switch (docs/api.md says so). */
    svm_set_print_string_function(quiet);

    train_t T = {.h = h, .m = m, .flags = flags};
    prov_add(&T, "libseer %s; %s; data:", SEER_VERSION_STRING,
             flags & SEER_TRAIN_HOLDOUT ? "20% test split held out" : "all rows");
    seer_status_t st = train_all(&T, paths, n_paths);
    free(T.gemm);
    free(T.all);
    if (st) { seer_model_destroy(m); return st; }
    /* Round-trip through the file format: a trained model is exactly what
     * loading its file gives back, and gets its checksum. */
    unsigned char *buf;
    size_t size;
    if (!seer_model_serialize(m, &buf, &size)) { seer_model_destroy(m); return seer_error(h, SEER_STATUS_ALLOC_FAILED, "model"); }
    seer_model_destroy(m);
    st = seer_model_load_buffer(h, buf, size, out);
    free(buf);
    return st;
}

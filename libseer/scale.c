/* Conv scales: how much slower a GPU ran the conv families its model
 * takes from the other GPUs' models than those families say (model.h,
 * seer_conv_scale_t; docs/transfer.md, "Scaled to a GPU's own
 * measurements").  One number per family and class of math, the one of
 * least absolute percentage error over the GPU's rows: the shape
 * dependence stays the calibrated sources', which families fitted on a
 * sweep's few hundred shapes did not beat (docs/method.md, "Measured on
 * Hopper"). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "csv.h"
#include "gpu.h"
#include "gpufile.h"
#include "launch.h"
#include "model.h"

#define NKEYS (3 * 9 * SEER_SCALE_CLASSES)
/* The scales tried: a coarse grid over [1/SEER_SCALE_MAX, SEER_SCALE_MAX]
 * in steps of GRID_STEP, then FINE_STEPS steps of GRID_STEP^(1/FINE_STEPS)
 * either side of each key's best. */
#define GRID_STEP 1.1
#define FINE_STEPS 10

static int key_of(int dir, int algo, int cls) { return (dir * 9 + algo + 1) * SEER_SCALE_CLASSES + cls; }

/* The rows a scale is fitted on: the model's GPU, a named algorithm (or
 * cuDNN's choice: the conv's fastest), a time, the framework's math
 * (csv.h), the train split when held out, and not a narrow grouped conv
 * (its own roofline, no family: model.c). */
static seer_status_t read_rows(seer_handle_t h, const struct seer_model *m, const char *const *paths, int n_paths,
                               unsigned flags, seer_conv_row_t **out, size_t *nout, size_t *ncalls)
{
    *ncalls = 0;
    seer_conv_row_t *all = NULL;
    size_t n = 0;
    for (int p = 0; p < n_paths; p++) {
        seer_conv_row_t *rows = NULL;
        size_t nr = 0;
        /* a kernel trace as training reads it: its calls, not its kernels */
        seer_status_t st = seer_conv_rows_read(h, paths[p], 0, &rows, &nr);
        if (!st) st = seer_conv_rows_framework_math(h, rows, &nr);
        /* and each conv's fastest row as cuDNN's choice, the family a
         * row without an algorithm takes where the model has one */
        seer_conv_row_t *grown = st ? NULL : realloc(rows, (2 * nr + 1) * sizeof *rows);
        size_t nf = nr, ncopy = nr;
        if (grown) {
            rows = grown;
            memcpy(rows + nr, rows, nr * sizeof *rows);
            st = seer_conv_rows_fastest(h, rows + nr, &nf);
            for (size_t i = nr; i < nr + nf; i++) rows[i].algo = SEER_ALGO_CUDNN_CHOICE;
            nr += nf;
        }
        grown = st || !grown ? NULL : realloc(all, (n + nr + 1) * sizeof *all);
        if (!st && !grown) st = seer_error(h, SEER_STATUS_ALLOC_FAILED, "scale rows");
        if (st) {
            free(rows);
            free(all);
            return st;
        }
        all = grown;
        for (size_t i = 0; i < nr; i++) {
            const seer_conv_row_t *r = &rows[i];
            /* a time of the fastest algorithm, its algo a hint (DeepBench's
             * forward rows): not that algorithm's */
            if (r->fastest) continue;
            const seer_gpu_info_t *g = seer_gpu_lookup_h(h, r->gpu);
            struct seer_conv cv, wide;
            if (!g || strcmp(g->id, m->gpu.id) || r->algo < SEER_ALGO_CUDNN_CHOICE || !(r->time_ms > 0) ||
                seer_conv_init(NULL, &cv, r->dtype, r->layout, &r->shape) ||
                ((flags & SEER_TRAIN_HOLDOUT) && seer_conv_in_test_split(&cv)) || seer_conv_padded_groups(&cv, &wide))
                continue;
            all[n++] = *r;
            *ncalls += i < ncopy;
        }
        free(rows);
    }
    *out = all;
    *nout = n;
    return SEER_STATUS_SUCCESS;
}

/* What every candidate is served from: the models directory, its other
 * models read once (seer_model_others), and a copy of the model being
 * scaled whose scales each candidate sets. */
typedef struct {
    seer_handle_t h;
    const char *dir;
    seer_model_t others[64];
    int n_others;
    struct seer_model *cand;
} serve_t;

/* The model served with every key scaled by g[key] (no ties to other
 * GPUs: seer_model_open_given), and each row's time under it (t[i] < 0:
 * row i is skipped). */
static seer_status_t times_at(serve_t *S, const double *g, const seer_conv_row_t *rows, const int *key, size_t n,
                              double *t)
{
    struct seer_model *m = S->cand;
    seer_model_t served;
    m->nscale = 0;
    for (int d = 0; d < 3; d++)
        for (int a = -1; a < 8; a++)
            for (int c = 0; c < SEER_SCALE_CLASSES; c++)
                m->scale[m->nscale++] = (seer_conv_scale_t){d, a, c, 0, g[key_of(d, a, c)]};
    seer_status_t st = seer_model_open_given(S->h, S->dir, m, S->others, S->n_others, &served);
    if (st) return st;
    for (size_t i = 0; i < n; i++) {
        struct seer_conv cv;
        const seer_conv_row_t *r = &rows[i];
        if (key[i] < 0 || seer_conv_init(NULL, &cv, r->dtype, r->layout, &r->shape) ||
            seer_model_predict_conv(NULL, served, &cv, r->dir, r->algo, NULL, NULL, &t[i], NULL, 0, NULL, NULL))
            t[i] = -1;
    }
    seer_model_destroy(served);
    return SEER_STATUS_SUCCESS;
}

/* Each row's key, or -1 where its family is the model's own (never
 * scaled). */
static seer_status_t row_keys(serve_t *S, const struct seer_model *base, const seer_conv_row_t *rows, size_t n,
                              int *key)
{
    seer_model_t served;
    seer_status_t st = seer_model_open_given(S->h, S->dir, base, S->others, S->n_others, &served);
    if (st) return st;
    for (size_t i = 0; i < n; i++) {
        const seer_conv_row_t *r = &rows[i];
        seer_dtype_t run = seer_conv_run_dtype(&served->gpu, r->dtype, r->dir, r->algo);
        const seer_family_t *f = seer_model_family(served, r->dir, r->algo, run);
        key[i] = f && seer_gpu_same_facts(&served->src[f->src], &served->gpu)
                     ? -1 : key_of((int)r->dir, r->algo, seer_scale_class(run));
    }
    seer_model_destroy(served);
    return SEER_STATUS_SUCCESS;
}

/* Per key, the scale of least absolute percentage error over its rows,
 * searched: a row's time follows its own key's scale alone (model.c,
 * physics_at), but not in proportion where a floor, a GEMM bound or the
 * NCHW transposes hold it, so each candidate is scored on a served
 * model's predictions.  Keys of fewer than SEER_SCALE_MIN_ROWS rows get
 * none. */
static seer_status_t fit(serve_t *S, struct seer_model *cur, const seer_conv_row_t *rows, size_t n)
{
    int *key = malloc((n + 1) * sizeof *key), cnt[NKEYS] = {0};
    double *t = malloc((n + 1) * sizeof *t), g[NKEYS], best[NKEYS], err[NKEYS], best_err[NKEYS], centre[NKEYS],
           worst_err[NKEYS] = {0};
    seer_status_t st = key && t ? row_keys(S, cur, rows, n, key)
                                : seer_error(S->h, SEER_STATUS_ALLOC_FAILED, "scale rows");
    for (int k = 0; k < NKEYS; k++) {
        best[k] = 1;
        best_err[k] = INFINITY;
    }
    double step = log(GRID_STEP);
    int coarse = (int)ceil(2 * log(SEER_SCALE_MAX) / step);
    for (int pass = 0; pass < 2 && !st; pass++) {
        int steps = pass ? 2 * FINE_STEPS + 1 : coarse + 1;
        memcpy(centre, best, sizeof centre);
        for (int j = 0; j < steps && !st; j++) {
            for (int k = 0; k < NKEYS; k++) {
                double lg = pass ? log(centre[k]) + (j - FINE_STEPS) * step / FINE_STEPS
                                 : -log(SEER_SCALE_MAX) + j * step;
                g[k] = fmin(fmax(exp(lg), 1 / SEER_SCALE_MAX), SEER_SCALE_MAX);
            }
            if ((st = times_at(S, g, rows, key, n, t))) break;
            memset(err, 0, sizeof err);
            memset(cnt, 0, sizeof cnt);
            for (size_t i = 0; i < n; i++)
                if (t[i] > 0) {
                    err[key[i]] += fabs(t[i] / rows[i].time_ms - 1);
                    cnt[key[i]]++;
                }
            /* ties to the scale nearest 1: what the model said stands
             * unless the rows say otherwise */
            for (int k = 0; k < NKEYS; k++) {
                if (err[k] < best_err[k] || (err[k] == best_err[k] && fabs(log(g[k])) < fabs(log(best[k])))) {
                    best_err[k] = err[k];
                    best[k] = g[k];
                }
                worst_err[k] = fmax(worst_err[k], err[k]);
            }
        }
    }
    cur->nscale = 0;
    for (int d = 0; d < 3 && !st; d++)
        for (int a = -1; a < 8; a++)
            for (int c = 0; c < SEER_SCALE_CLASSES; c++) {
                int k = key_of(d, a, c);
                /* rows that no scale moves (held at a floor or bound) say nothing */
                if (cnt[k] >= SEER_SCALE_MIN_ROWS && best_err[k] < worst_err[k])
                    cur->scale[cur->nscale++] = (seer_conv_scale_t){d, a, c, cnt[k], best[k]};
            }
    free(key);
    free(t);
    return st;
}

/* Take out the clause of a provenance ("; ...") holding what: a model
 * scaled again says only how it was scaled last. */
static void drop_clause(char *prov, const char *what)
{
    char *w = strstr(prov, what);
    if (!w) return;
    char *from = w, *to = strstr(w, "; ");
    while (from > prov && strncmp(from, "; ", 2)) from--;
    memmove(from, to ? to : w + strlen(w), strlen(to ? to : w + strlen(w)) + 1);
}

seer_status_t seer_model_scale_convs(seer_handle_t h, const seer_model *model, const char *models_dir,
                                     const char *const *paths, int n_paths, unsigned flags, seer_model_t *out)
{
    if (!model || !models_dir || !paths || n_paths < 1 || !out)
        return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_model_scale_convs: model, models_dir, paths and out "
                          "are required");
    if (flags & ~SEER_TRAIN_HOLDOUT)
        return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_model_scale_convs: flags 0x%x unknown",
                          flags & ~SEER_TRAIN_HOLDOUT);
    for (int i = 0; i < n_paths; i++)
        if (!paths[i]) return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_model_scale_convs: path %d is NULL", i);
    _Static_assert(3 * 9 * SEER_SCALE_CLASSES <= SEER_MAX_SCALES, "a scale per family key");
    seer_conv_row_t *rows;
    size_t n, ncalls;
    seer_status_t st = read_rows(h, model, paths, n_paths, flags, &rows, &n, &ncalls);
    if (st) return st;
    struct seer_model *cur = NULL;
    if (n < SEER_SCALE_MIN_ROWS) {
        free(rows);
        return seer_error(h, SEER_STATUS_NO_DATA, "%zu conv rows of %s in the files: too few to scale a family by",
                          n, model->gpu_id);
    }
    serve_t S = {.h = h, .dir = models_dir};
    st = seer_model_others(h, models_dir, model->gpu_id, S.others, 64, &S.n_others);
    if (!st) st = seer_model_copy(h, model, &cur);
    if (!st) st = seer_model_copy(h, model, &S.cand);
    if (!st) st = fit(&S, cur, rows, n);
    for (int i = 0; i < S.n_others; i++) seer_model_destroy(S.others[i]);
    seer_model_destroy(S.cand);
    free(rows);
    if (!st && !cur->nscale)
        st = seer_error(h, SEER_STATUS_NO_DATA, "no conv family of %s has %d rows in the files to scale it by",
                        model->gpu_id, SEER_SCALE_MIN_ROWS);
    if (!st) {
        drop_clause(cur->provenance, " conv scales fitted on ");
        size_t pn = strlen(cur->provenance);
        snprintf(cur->provenance + pn, sizeof cur->provenance - pn,
                 "; %d conv scales fitted on %zu of its conv timings (each conv's fastest again as cuDNN's choice)",
                 cur->nscale, ncalls);
        st = seer_model_copy(h, cur, out); /* the round trip every saved model makes */
    }
    seer_model_destroy(cur);
    return st;
}

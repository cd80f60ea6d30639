/* Conv scales: how much slower a GPU ran the conv families its model
 * takes from the other GPUs' models than those families say (model.h,
 * seer_conv_scale_t; docs/transfer.md, "Scaled to a GPU's own
 * measurements").  One number per family, the median of the GPU's rows:
 * the shape dependence stays the calibrated sources', which families
 * fitted on a sweep's few hundred shapes did not beat (docs/method.md,
 * "Measured on Hopper"). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "csv.h"
#include "gpu.h"
#include "gpufile.h"
#include "launch.h"
#include "model.h"

typedef struct {
    int key;                    /* (dir * 9 + algo + 1) * SEER_SCALE_CLASSES + class */
    double lr;                  /* log(measured / predicted) */
} sample_t;

static int cmp_sample(const void *a, const void *b)
{
    const sample_t *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->lr > y->lr) - (x->lr < y->lr);
}

/* The rows a scale is fitted on: the model's GPU, a named algorithm (or
 * cuDNN's choice: the conv's fastest), a time, the framework's math
 * (csv.h), the train split when held out, and not a narrow grouped conv
 * (its own roofline, no family: model.c). */
static seer_status_t read_rows(seer_handle_t h, const struct seer_model *m, const char *const *paths, int n_paths,
                               unsigned flags, seer_conv_row_t **out, size_t *nout)
{
    seer_conv_row_t *all = NULL;
    size_t n = 0;
    for (int p = 0; p < n_paths; p++) {
        seer_conv_row_t *rows = NULL;
        size_t nr = 0;
        seer_status_t st = seer_conv_csv_read(h, paths[p], &rows, &nr);
        if (!st) st = seer_conv_rows_framework_math(h, rows, &nr);
        /* and each conv's fastest row as cuDNN's choice, the family a
         * row without an algorithm takes where the model has one */
        seer_conv_row_t *grown = st ? NULL : realloc(rows, (2 * nr + 1) * sizeof *rows);
        size_t nf = nr;
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
            const seer_gpu_info_t *g = seer_gpu_lookup_h(h, r->gpu);
            struct seer_conv cv, wide;
            if (!g || strcmp(g->id, m->gpu.id) || r->algo < SEER_ALGO_CUDNN_CHOICE || !(r->time_ms > 0) ||
                seer_conv_init(NULL, &cv, r->dtype, r->layout, &r->shape) ||
                ((flags & SEER_TRAIN_HOLDOUT) && seer_conv_in_test_split(&cv)) || seer_conv_padded_groups(&cv, &wide))
                continue;
            all[n++] = *r;
        }
        free(rows);
    }
    *out = all;
    *nout = n;
    return SEER_STATUS_SUCCESS;
}

/* One pass: cur's scales times the median residual of the model served
 * with them, per key with SEER_SCALE_MIN_ROWS rows. */
static seer_status_t refit(seer_handle_t h, const char *dir, struct seer_model *cur, const seer_conv_row_t *rows,
                           size_t n, sample_t *s)
{
    seer_model_t served;
    seer_status_t st = seer_model_open_given(h, dir, cur, &served);
    if (st) return st;
    size_t ns = 0;
    for (size_t i = 0; i < n; i++) {
        const seer_conv_row_t *r = &rows[i];
        struct seer_conv cv;
        double t;
        seer_dtype_t run = seer_conv_run_dtype(&served->gpu, r->dtype, r->dir, r->algo);
        const seer_family_t *f = seer_model_family(served, r->dir, r->algo, run);
        /* only what the model takes from the others or the analytical
         * family: its own families stay */
        if ((f && seer_gpu_same_facts(&served->src[f->src], &served->gpu)) ||
            seer_conv_init(NULL, &cv, r->dtype, r->layout, &r->shape) ||
            seer_model_predict_conv(NULL, served, &cv, r->dir, r->algo, NULL, NULL, &t, NULL, 0, NULL, NULL))
            continue;
        s[ns].key = ((int)r->dir * 9 + r->algo + 1) * SEER_SCALE_CLASSES + seer_scale_class(run);
        s[ns++].lr = log(r->time_ms / t);
    }
    seer_model_destroy(served);
    qsort(s, ns, sizeof *s, cmp_sample);
    for (size_t i = 0, j; i < ns; i = j) {
        for (j = i; j < ns && s[j].key == s[i].key; j++) {}
        size_t k = j - i;
        if (k < SEER_SCALE_MIN_ROWS) continue;
        /* the scale of least absolute percentage error: the median of
         * the log ratios, each weighted by predicted / measured (the
         * error a scale q makes on a row is |q p / t - 1| = (p / t) |q -
         * t / p|); sorted by lr, the first where the weight reaches half */
        double wsum = 0, acc = 0, med = s[j - 1].lr;
        for (size_t q = i; q < j; q++) wsum += exp(-s[q].lr);
        for (size_t q = i; q < j; q++)
            if ((acc += exp(-s[q].lr)) >= 0.5 * wsum) {
                med = s[q].lr;
                break;
            }
        int key = s[i].key, cls = key % SEER_SCALE_CLASSES, algo = key / SEER_SCALE_CLASSES % 9 - 1,
            d = key / (SEER_SCALE_CLASSES * 9);
        seer_conv_scale_t *c = (seer_conv_scale_t *)seer_model_scale(cur, d, algo, cls);
        if (!c) {
            c = &cur->scale[cur->nscale++]; /* at most 3 x 9 x 3 keys: room by SEER_MAX_SCALES */
            *c = (seer_conv_scale_t){d, algo, cls, 0, 1};
        }
        c->n_rows = (int)k;
        c->scale = fmin(fmax(c->scale * exp(med), 1 / SEER_SCALE_MAX), SEER_SCALE_MAX);
    }
    return SEER_STATUS_SUCCESS;
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
    size_t n;
    seer_status_t st = read_rows(h, model, paths, n_paths, flags, &rows, &n);
    if (st) return st;
    sample_t *s = malloc((n + 1) * sizeof *s);
    struct seer_model *cur = NULL;
    if (!s) st = seer_error(h, SEER_STATUS_ALLOC_FAILED, "scale samples");
    if (!st) st = seer_model_copy(h, model, &cur);
    if (!st) cur->nscale = 0;
    /* a family's scale moves its terms but not the launch gaps, the
     * floors or the transposes: a second pass takes what is left */
    for (int pass = 0; pass < 2 && !st; pass++) st = refit(h, models_dir, cur, rows, n, s);
    free(s);
    free(rows);
    if (!st && !cur->nscale)
        st = seer_error(h, SEER_STATUS_NO_DATA, "no conv family of %s has %d rows in the files to scale it by",
                        model->gpu_id, SEER_SCALE_MIN_ROWS);
    if (!st) {
        size_t pn = strlen(cur->provenance);
        snprintf(cur->provenance + pn, sizeof cur->provenance - pn, "; %d conv families scaled to %zu of its rows",
                 cur->nscale, n);
        st = seer_model_copy(h, cur, out); /* the round trip every saved model makes */
    }
    seer_model_destroy(cur);
    return st;
}

/* seer eval: score a model against measured conv timings.
 *
 * The prediction of a row is made from its shape, dtype, layout,
 * direction and algo only; time_ms is read to score it and nothing else
 * of the measurement (source, main_kernel, grid, block, kernels) reaches
 * the model.  A roofline scaled by one fitted constant is reported beside
 * it so the numbers have a baseline. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

typedef struct {
    double meas;                /* as published */
    double gpu;                 /* the model's prediction: GPU time */
    double pred;                /* of the published time: gpu + the file's typical host time */
    double host, floor;         /* host time at the row's place (0 without dispatch); GPU floor */
    double roof;                /* NAN when the roofline is unavailable */
    double given;               /* --given-launch: with the measured main kernel; NAN if none */
    const char *file;
    int fidx;                   /* index of the file in --data */
    double pos;                 /* position of the row in its file, [0, 1) */
    int dir, algo_rank, cls_rank;
    const seer_conv_row_t *row; /* conv rows: for the class check after the host time is known */
    int algo;                   /* the algorithm predicted */
    char algo_key[48];
} point_t;

typedef struct {
    int n;
    double mape, rmspe, median, p90;
} metrics_t;

typedef struct {
    int rank;
    char key[48];
    metrics_t m;
} group_t;

static void usage_eval(FILE *f)
{
    fprintf(f,
            "usage: seer eval (--model FILE | --gpu GPU [--models DIR]) --data CSV...\n"
            "                 [--source PREFIX] [--split test|train|all] [--given-launch]\n"
            "                 [--format text|json] [--plot FILE.svg]\n"
            "\n"
            "Predict every measured row of the model's GPU in conv timing CSV v1\n"
            "files from its shape and algorithm alone (GEMM timing CSV v1 files: from\n"
            "batch, m, n, k, dtype and bias) and compare with time_ms.\n"
            "  --data CSV...    one or more files (or repeat --data)\n"
            "  --source PREFIX  only rows whose source starts with PREFIX\n"
            "  --split S        test: only rows in the 20%% held-out test split\n"
            "                   (seer_conv_in_test_split; GEMM rows: seer_gemm_in_test_split),\n"
            "                   train: the others,\n"
            "                   all (default)\n"
            "  --given-launch   also predict with the measured main kernel choosing the\n"
            "                   variant (instead of the variant classifier); both figures\n"
            "                   are printed.  Diagnostic only: before running a\n"
            "                   convolution a user does not know which kernel cuDNN\n"
            "                   will launch\n"

            "  --format F       text (default) or json\n"
            "  --plot FILE.svg  log-log scatter of predicted vs measured times\n"
            "Rows with algo MIXED/UNKNOWN or without time_ms are skipped; rows with\n"
            "an empty algo use the fastest predicted algorithm.  Rows that cannot be\n"
            "predicted (an algorithm name libseer does not know, an impossible or\n"
            "over-limit shape, an unsupported or uncalibrated case) are counted as\n"
            "failed and listed with their line; the others are scored.  Metrics are\n"
            "fractions: ape = |pred - meas| / meas; MAPE = mean ape, RMSPE = root\n"
            "mean square ape, p90 by nearest rank.  baseline_roofline scales the\n"
            "datasheet roofline by exp(median(log(meas / roofline))).\n"
            "The model predicts GPU time.  Rows whose source times host dispatch too\n"
            "(neusight) are scored against the prediction plus the host time that\n"
            "libseer/dispatch.c estimates from the file's rows outside the scored\n"
            "split (from the scored rows with --split all): the file's typical\n"
            "(median) host time for the headline figures, the host time at the row's\n"
            "place for published_at_row; gpu_time scores the prediction against the\n"
            "published time less that host time, and floor what exact GPU times plus\n"
            "the typical host time would score (docs/method.md, \"GPU time\").\n");
}

/* Metrics of the absolute percentage errors ape[0..n-1] (reordered). */
static void metrics(double *ape, int n, metrics_t *m)
{
    m->n = n;
    if (n == 0) {
        m->mape = m->rmspe = m->median = m->p90 = NAN;
        return;
    }
    double s = 0, s2 = 0;
    for (int i = 0; i < n; i++) {
        s += ape[i];
        s2 += ape[i] * ape[i];
    }
    cli_sort_doubles(ape, (size_t)n);
    m->mape = s / n;
    m->rmspe = sqrt(s2 / n);
    m->median = cli_median_sorted(ape, (size_t)n);
    int rank = (int)ceil(0.9 * n); /* nearest rank */
    m->p90 = ape[(rank < 1 ? 1 : rank) - 1];
}

static double ape_of(double pred, double meas) { return fabs(pred - meas) / meas; }

/* point_t.dir of a GEMM row (after the three conv directions). */
#define DIR_GEMM 3

/* A row's times and place in its file, the rest unset (NAN roofline and
 * given-launch time).  Scored rows and the rows outside the split that
 * locate a file's host time are both kept as points (the latter without
 * a prediction). */
static point_t *put_point(point_t *pt, double meas, double gpu, double floor, const char *file, int fidx,
                          double pos, int dir)
{
    memset(pt, 0, sizeof *pt);
    pt->meas = meas;
    pt->gpu = pt->pred = gpu;
    pt->floor = floor;
    pt->roof = pt->given = NAN;
    pt->file = file;
    pt->fidx = fidx;
    pt->pos = pos;
    pt->dir = dir;
    return pt;
}

#define MAX_FAIL_LIST 10

/* Count a row the model could not predict; the first MAX_FAIL_LIST are
 * listed as "FILE:LINE: WHAT1 WHAT2: WHY". */
static void note_failure(char list[][256], long *failed, const char *file, long line, const char *what1,
                         const char *what2, const char *why)
{
    if (*failed < MAX_FAIL_LIST)
        snprintf(list[*failed], sizeof list[0], "%s:%ld: %s %s: %s", file, line, what1, what2, why);
    (*failed)++;
}

/* A row-level failure: the row is counted as failed (with its line) and
 * the others are still scored.  Anything else is an error of the run. */
static int row_failure(seer_status_t st)
{
    return cli_soft_failure(st) || st == SEER_STATUS_BAD_SHAPE || st == SEER_STATUS_BAD_GROUPS ||
           st == SEER_STATUS_OVERFLOW || st == SEER_STATUS_BAD_PREDICTION ||
           st == SEER_STATUS_CSV_BAD_VALUE;
}

/* Why a row failed: the status for the soft failures (as the JSON has
 * always said), the library's message (which names the field) otherwise. */
static const char *failure_why(seer_handle_t h, seer_status_t st)
{
    return cli_soft_failure(st) ? seer_status_string(st) : seer_get_last_error(h);
}

/* Group the points by an integer rank (which also orders the groups). */
enum { BY_DIR, BY_ALGO, BY_CLASS };

static int point_rank(const point_t *p, int by)
{
    return by == BY_DIR ? p->dir : by == BY_ALGO ? p->algo_rank : p->cls_rank;
}

static void point_key(const point_t *p, int by, char *key, size_t size)
{
    if (by == BY_DIR) snprintf(key, size, "%s", p->dir == DIR_GEMM ? "gemm" : seer_direction_name((seer_direction_t)p->dir));
    else if (by == BY_ALGO) snprintf(key, size, "%s", p->algo_key);
    else if (p->cls_rank < 3) snprintf(key, size, "%s", seer_class_name((seer_class_t)p->cls_rank));
    else snprintf(key, size, "unknown");
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return x < y ? -1 : x > y;
}

/* Groups of `by` into *out (malloc'ed); returns the count or -1. */
static int make_groups(const point_t *pts, int n, int by, double *scratch, group_t **out)
{
    int *ranks = malloc((size_t)(n ? n : 1) * sizeof *ranks);
    group_t *g = malloc((size_t)(n ? n : 1) * sizeof *g);
    int ng = 0;
    if (!ranks || !g) {
        free(ranks);
        free(g);
        return -1;
    }
    for (int i = 0; i < n; i++) ranks[i] = point_rank(&pts[i], by);
    qsort(ranks, (size_t)n, sizeof *ranks, cmp_int);
    for (int i = 0; i < n; i++) {
        if (i && ranks[i] == ranks[i - 1]) continue;
        int m = 0, first = -1;
        for (int j = 0; j < n; j++)
            if (point_rank(&pts[j], by) == ranks[i]) {
                if (first < 0) first = j;
                scratch[m++] = ape_of(pts[j].pred, pts[j].meas);
            }
        g[ng].rank = ranks[i];
        point_key(&pts[first], by, g[ng].key, sizeof g[ng].key);
        metrics(scratch, m, &g[ng].m);
        ng++;
    }
    free(ranks);
    *out = g;
    return ng;
}

static void json_metrics(const metrics_t *m)
{
    printf("\"n\": %d", m->n);
    cli_json_num_field("mape", m->mape);
    cli_json_num_field("rmspe", m->rmspe);
    cli_json_num_field("median_ape", m->median);
    cli_json_num_field("p90_ape", m->p90);
}

static void json_groups(const char *name, const group_t *g, int n, int last)
{
    printf("  \"%s\": [", name);
    for (int i = 0; i < n; i++) {
        printf("%s\n    {\"key\": ", i ? "," : "");
        cli_json_str(stdout, g[i].key);
        printf(", ");
        json_metrics(&g[i].m);
        printf("}");
    }
    printf("]%s\n", last ? "" : ",");
}

static void text_row(const char *key, int w, const metrics_t *m)
{
    printf("%-*s %6d %8.1f %8.1f %8.1f %8.1f\n", w, key, m->n, 100 * m->mape, 100 * m->rmspe,
           100 * m->median, 100 * m->p90);
}

static void text_groups(const char *title, const group_t *g, int n)
{
    int w = 8;
    for (int i = 0; i < n; i++)
        if ((int)strlen(g[i].key) > w) w = (int)strlen(g[i].key);
    printf("\nby %s\n%-*s %6s %8s %8s %8s %8s\n", title, w, "key", "n", "MAPE %", "RMSPE %",
           "median %", "p90 %");
    for (int i = 0; i < n; i++) text_row(g[i].key, w, &g[i].m);
}

static double host_at(const seer_dispatch_t *d, double u)
{
    double ms = 0;
    seer_dispatch_host_ms(d, u, &ms);
    return ms;
}

/* Per file with host dispatch: fit its host time on the aux rows (or on
 * the scored rows when from_scored), then give every scored row of it
 * its host time at its place and, in pred, the GPU prediction plus the
 * file's typical host time.  1 when memory runs out. */
static int locate_dispatch(point_t *pts, int n, const point_t *aux, int naux, int from_scored, int n_data,
                           const int *has_disp, seer_dispatch_t *disp)
{
    int cap = n + naux + 1;
    double *pos = malloc((size_t)cap * sizeof *pos), *t = malloc((size_t)cap * sizeof *t),
           *fl = malloc((size_t)cap * sizeof *fl);
    if (!pos || !t || !fl) {
        free(pos);
        free(t);
        free(fl);
        return 1;
    }
    for (int f = 0; f < n_data; f++) {
        if (!has_disp[f]) continue;
        const point_t *src = from_scored ? pts : aux;
        int ns = from_scored ? n : naux, m = 0;
        for (int i = 0; i < ns; i++)
            if (src[i].fidx == f) { pos[m] = src[i].pos; t[m] = src[i].meas; fl[m++] = src[i].floor; }
        if (seer_dispatch_estimate(NULL, pos, t, fl, m, &disp[f]) || !disp[f].windows) continue;
        for (int i = 0; i < n; i++)
            if (pts[i].fidx == f) {
                pts[i].host = host_at(&disp[f], pts[i].pos);
                pts[i].pred = pts[i].gpu + disp[f].median;
            }
    }
    free(pos);
    free(t);
    free(fl);
    return 0;
}

int cli_eval(int argc, char **argv)
{
    static const char *const splits[] = {"all", "test", "train", NULL};
    static const char *const formats[] = {"text", "json", NULL};
    cli_args_t a;
    const char *model_opt = NULL, *gpu_opt = NULL, *models_opt = NULL, *source = NULL;
    const char *plot = NULL;
    const char **data = NULL;
    int n_data = 0, split = 0, json = 0, given_launch = 0, rc = CLI_USAGE;

    seer_handle_t h = NULL;
    seer_model_t model = NULL;
    seer_conv_desc_t d = NULL;
    seer_conv_row_t **rows = NULL;
    seer_gemm_row_t **grows = NULL;
    size_t *nrows = NULL;
    point_t *pts = NULL;
    double *scratch = NULL;
    point_t *aux = NULL; /* rows outside the scored split of files with host dispatch */
    int naux = 0;
    seer_dispatch_t *disp = NULL; /* per file */
    int *has_disp = NULL;
    group_t *groups[3] = {NULL, NULL, NULL};
    int ngroups[3] = {0, 0, 0};
    const char **plot_keys = NULL;
    double *plot_meas = NULL, *plot_pred = NULL;
    char fail_list[MAX_FAIL_LIST][256];
    seer_status_t st;

    static const struct option opts[] = {CLI_FLAG("help"), CLI_FLAG("given-launch"), CLI_VALUE("model"),
                                         CLI_VALUE("gpu"), CLI_VALUE("models"), CLI_VALUE("data"),
                                         CLI_VALUE("source"), CLI_VALUE("split"), CLI_VALUE("format"),
                                         CLI_VALUE("plot"), CLI_END};
    cli_args_init(&a, "eval", opts, argc, argv);
    while (cli_next(&a)) {
        if (cli_is(&a, "--help") || cli_is(&a, "-h")) {
            usage_eval(stdout);
            rc = CLI_OK;
            goto out;
        } else if (cli_is(&a, "--model")) {
            if (!(model_opt = cli_value(&a))) goto out;
        } else if (cli_is(&a, "--gpu")) {
            if (!(gpu_opt = cli_value(&a))) goto out;
        } else if (cli_is(&a, "--models")) {
            if (!(models_opt = cli_value(&a))) goto out;
        } else if (cli_is(&a, "--data")) {
            if (!cli_values(&a, &data, &n_data)) goto out;
        } else if (cli_is(&a, "--source")) {
            if (!(source = cli_value(&a))) goto out;
        } else if (cli_is(&a, "--split")) {
            if ((split = cli_choice(&a, splits)) < 0) goto out;
        } else if (cli_is(&a, "--format")) {
            int f = cli_choice(&a, formats);
            if (f < 0) goto out;
            json = f == 1;
        } else if (cli_is(&a, "--plot")) {
            if (!(plot = cli_value(&a))) goto out;
        } else if (cli_is(&a, "--given-launch")) {
            if (!cli_flag(&a)) goto out;
            given_launch = 1;
        } else {
            rc = cli_unknown(&a);
            goto out;
        }
    }
    if (!n_data) {
        rc = cli_usage_error("eval", "option --data is required");
        goto out;
    }
    const char *model_path = cli_model_path("eval", model_opt, gpu_opt, models_opt);
    if (!model_path) goto out;

    if ((st = seer_create(&h))) {
        rc = cli_lib_error(NULL, st);
        goto out;
    }
    /* Data first: a malformed file is reported whatever the model. */
    rows = calloc((size_t)n_data, sizeof *rows);
    grows = calloc((size_t)n_data, sizeof *grows);
    nrows = calloc((size_t)n_data, sizeof *nrows);
    if (!rows || !grows || !nrows) goto oom;
    size_t total = 0;
    for (int f = 0; f < n_data; f++) {
        if (seer_csv_kind(data[f]) == 'g') st = seer_gemm_csv_read(h, data[f], &grows[f], &nrows[f]);
        else st = seer_conv_csv_read_keep(h, data[f], &rows[f], &nrows[f]);
        if (st) goto lib_error;
        total += nrows[f];
    }
    seer_model_info_t info;
    seer_gpu_info_t gpu;
    if ((rc = cli_open_model(h, "eval", model_opt, gpu_opt, models_opt, &model))) goto out;
    rc = CLI_FAIL;
    if ((st = seer_model_get_info(model, &info)) || (st = seer_model_get_gpu(model, &gpu)) ||
        (st = seer_conv_desc_create(&d)))
        goto lib_error;

    pts = malloc((total ? total : 1) * sizeof *pts);
    scratch = malloc((total ? total : 1) * sizeof *scratch);
    aux = malloc((total ? total : 1) * sizeof *aux);
    disp = calloc((size_t)n_data, sizeof *disp);
    has_disp = calloc((size_t)n_data, sizeof *has_disp);
    if (!pts || !scratch || !aux || !disp || !has_disp) goto oom;
    int n = 0;
    long skipped = 0, failed = 0, cls_n = 0, cls_hit = 0;
    size_t src_len = source ? strlen(source) : 0;
    for (int f = 0; f < n_data; f++)
        for (size_t i = 0; i < nrows[f] && grows[f]; i++) {
            /* GEMM rows: seer_predict_gemm on the row's shape and dtype. */
            const seer_gemm_row_t *r = &grows[f][i];
            if (!cli_same_gpu(r->gpu, info.gpu_id)) continue;
            if (source && strncmp(r->source, source, src_len) != 0) continue;
            int scored = !split || seer_gemm_shape_in_test_split(r->batch, r->m, r->n, r->k, r->trans_a, r->trans_b, r->bias,
                                                                  r->dtype) == (split == 1);
            int dispatch = seer_source_has_dispatch(r->source);
            if (!scored && !dispatch) continue;
            if (!(r->time_ms > 0)) {
                skipped += scored;
                continue;
            }
            double t = NAN, pos = (double)i / (double)nrows[f], floor = 0;
            seer_gemm_floor(NULL, &gpu, r->batch, r->m, r->n, r->k, r->dtype, r->bias, &floor);
            has_disp[f] |= dispatch;
            if (!scored) { /* only locates the file's host time: no prediction */
                put_point(&aux[naux++], r->time_ms, NAN, floor, data[f], f, pos, DIR_GEMM);
                continue;
            }
            seer_class_t cls = SEER_CLASS_UNDER;
            st = seer_predict_gemm(h, model, r->batch, r->m, r->n, r->k, r->dtype, r->trans_a, r->trans_b,
                                   r->bias, &t, &cls);
            if (row_failure(st)) {
                note_failure(fail_list, &failed, data[f], r->line, r->op, seer_dtype_name(r->dtype),
                             failure_why(h, st));
                continue;
            }
            if (st) goto lib_error;
            point_t *pt = put_point(&pts[n++], r->time_ms, t, floor, data[f], f, pos, DIR_GEMM);
            int math = 0;
            seer_dtype_tensor_cores(r->dtype, &math);
            pt->cls_rank = (int)cls;
            pt->algo_rank = DIR_GEMM * 100 + (r->op[0] == 'l' ? 0 : r->op[0] == 'b' ? 2 : 4) + math;
            snprintf(pt->algo_key, sizeof pt->algo_key, "gemm/%s/%s", r->op, math ? "tensor" : "fp32");
            double roof;
            pt->roof = seer_roofline_gemm(NULL, &gpu, r->batch, r->m, r->n, r->k, r->dtype, &roof) ? NAN : roof;
        }
    for (int f = 0; f < n_data; f++)
        for (size_t i = 0; i < nrows[f] && rows[f]; i++) {
            const seer_conv_row_t *r = &rows[f][i];
            if (!cli_same_gpu(r->gpu, info.gpu_id)) continue;
            if (source && strncmp(r->source, source, src_len) != 0) continue;
            if (r->shape_st) {
                /* an impossible or over-limit shape (it has no test-split
                 * hash): this row fails, the others are still scored */
                if (!(st = cli_desc_from_row(h, r, d))) st = SEER_STATUS_INTERNAL;
                if (!row_failure(st)) goto lib_error;
                note_failure(fail_list, &failed, data[f], r->line, seer_direction_name(r->dir),
                             r->algo_text[0] ? r->algo_text : "(every algorithm)", failure_why(h, st));
                continue;
            }
            if ((st = cli_desc_from_row(h, r, d))) goto lib_error;
            int scored = !split || seer_conv_in_test_split(d) == (split == 1);
            int dispatch = seer_source_has_dispatch(r->source);
            if (!scored && !dispatch) continue;
            if (r->algo == SEER_ALGO_BAD_NAME) {
                if (scored)
                    note_failure(fail_list, &failed, data[f], r->line, seer_direction_name(r->dir),
                                 r->algo_text, "not an algorithm name libseer knows");
                continue;
            }
            if (r->algo == SEER_ALGO_UNKNOWN || !(r->time_ms > 0)) {
                skipped += scored;
                continue;
            }
            double pos = (double)i / (double)nrows[f];
            double floor = 0;
            seer_conv_floor(NULL, &gpu, d, r->dir, r->algo >= 0 ? r->algo : 0, &floor);
            has_disp[f] |= dispatch;
            if (!scored) { /* only locates the file's host time: no prediction */
                put_point(&aux[naux++], r->time_ms, NAN, floor, data[f], f, pos, (int)r->dir);
                continue;
            }
            cli_pred_t p = {0};
            if (r->algo >= 0) st = cli_predict(h, model, d, r->dir, r->algo, 0, &p);
            else st = cli_predict_fastest(h, model, d, r->dir, 0, &p);
            if (row_failure(st)) {
                note_failure(fail_list, &failed, data[f], r->line, seer_direction_name(r->dir),
                             r->algo >= 0 ? seer_algo_name(r->dir, r->algo) : "(every algorithm)",
                             failure_why(h, st));
                continue;
            }
            if (st) goto lib_error;
            point_t *pt = put_point(&pts[n++], r->time_ms, p.time_ms, floor, data[f], f, pos, (int)r->dir);
            pt->cls_rank = (int)p.cls >= 0 && (int)p.cls < 3 ? (int)p.cls : 3;
            pt->algo_rank = pt->dir * 100 + (r->algo >= 0 ? r->algo : 99);
            snprintf(pt->algo_key, sizeof pt->algo_key, "%s/%s", seer_direction_name(r->dir),
                     r->algo >= 0 ? seer_algo_name(r->dir, r->algo) : "auto");
            pt->row = r;
            pt->algo = p.algo;
            /* --given-launch: the measured main kernel picks the variant;
             * only the scoring below ever compares it with the time. */
            if (given_launch && r->algo >= 0 && r->main_kernel[0]) {
                int matched = 0;
                double g;
                if (seer_predict_conv_variant(h, model, d, r->dir, r->algo, r->main_kernel, &matched, &g) ==
                        SEER_STATUS_SUCCESS && matched)
                    pt->given = g;
            }
            double roof;
            pt->roof = seer_roofline_conv(h, &gpu, d, r->dir, &roof) == SEER_STATUS_SUCCESS &&
                               roof > 0 && isfinite(roof)
                           ? roof
                           : NAN;
        }

    /* Host dispatch per file (model-independent: positions, times and
     * floors of the rows outside the split, or of the scored ones with
     * --split all), then every scored row's published-time prediction. */
    if (locate_dispatch(pts, n, aux, naux, !split, n_data, has_disp, disp)) goto oom;
    /* The classifier against the class the training rule gives the GPU
     * time (the published time less the host time, as training sees it). */
    for (int i = 0; i < n; i++) {
        seer_class_t mc;
        if (!pts[i].row || cli_desc_from_row(h, pts[i].row, d)) continue;
        if (seer_classify_measured(h, model, d, pts[i].row->dir, pts[i].algo,
                                   fmax(pts[i].meas - pts[i].host, pts[i].floor), &mc) == SEER_STATUS_SUCCESS) {
            cls_n++;
            cls_hit += (int)mc == pts[i].cls_rank;
        }
    }
    metrics_t at_row, gpu_time, floor_m;
    for (int i = 0; i < n; i++) scratch[i] = ape_of(pts[i].gpu + pts[i].host, pts[i].meas);
    metrics(scratch, n, &at_row);
    for (int i = 0; i < n; i++) scratch[i] = ape_of(pts[i].gpu, fmax(pts[i].meas - pts[i].host, pts[i].floor));
    metrics(scratch, n, &gpu_time);
    for (int i = 0; i < n; i++)
        scratch[i] = ape_of(fmax(pts[i].meas - pts[i].host, pts[i].floor) + (pts[i].pred - pts[i].gpu), pts[i].meas);
    metrics(scratch, n, &floor_m);

    /* Overall metrics, roofline baseline, groups. */
    metrics_t all, base;
    for (int i = 0; i < n; i++) scratch[i] = ape_of(pts[i].pred, pts[i].meas);
    metrics(scratch, n, &all);
    int nb = 0;
    for (int i = 0; i < n; i++)
        if (!isnan(pts[i].roof)) scratch[nb++] = log(pts[i].meas / pts[i].roof);
    cli_sort_doubles(scratch, (size_t)nb);
    double scale = nb ? exp(cli_median_sorted(scratch, (size_t)nb)) : NAN;
    nb = 0;
    for (int i = 0; i < n; i++)
        if (!isnan(pts[i].roof)) scratch[nb++] = ape_of(pts[i].roof * scale, pts[i].meas);
    metrics(scratch, nb, &base);
    metrics_t gm = {0}, gm_same = {0};
    if (given_launch) { /* both figures on the same rows */
        int ng = 0;
        for (int i = 0; i < n; i++)
            if (!isnan(pts[i].given)) scratch[ng++] = ape_of(pts[i].given + (pts[i].pred - pts[i].gpu), pts[i].meas);
        metrics(scratch, ng, &gm);
        ng = 0;
        for (int i = 0; i < n; i++)
            if (!isnan(pts[i].given)) scratch[ng++] = ape_of(pts[i].pred, pts[i].meas);
        metrics(scratch, ng, &gm_same);
    }
    for (int by = 0; by < 3; by++)
        if ((ngroups[by] = make_groups(pts, n, by, scratch, &groups[by])) < 0) goto oom;

    if (n == 0) {
        rc = cli_fail("eval", "no rows of GPU %s left to score (%ld skipped, %ld failed%s%s)",
                      info.gpu_id, skipped, failed, failed ? "; first: " : "",
                      failed ? fail_list[0] : "");
        goto out;
    }
    static const char *const split_names[] = {"all", "test", "train"};
    if (plot) {
        plot_keys = malloc((size_t)(n ? n : 1) * sizeof *plot_keys);
        plot_meas = malloc((size_t)(n ? n : 1) * sizeof *plot_meas);
        plot_pred = malloc((size_t)(n ? n : 1) * sizeof *plot_pred);
        if (!plot_keys || !plot_meas || !plot_pred) goto oom;
        for (int i = 0; i < n; i++) {
            plot_keys[i] = pts[i].algo_key;
            plot_meas[i] = pts[i].meas;
            plot_pred[i] = pts[i].pred;
        }
        char title[160];
        snprintf(title, sizeof title, "%s: predicted vs measured (n=%d, split %s, MAPE %.1f%%)",
                 info.gpu_id, n, split_names[split], 100 * all.mape);
        if (cli_svg_scatter(plot, title, plot_meas, plot_pred, plot_keys, n)) {
            rc = cli_fail("eval", "cannot write %s: %s", plot, strerror(errno));
            goto out;
        }
    }
    if (json) {
        printf("{\"gpu\": ");
        cli_json_str(stdout, info.gpu_id);
        cli_json_str_field("model", model_opt ? model_path : NULL);
        cli_json_str_field("served", info.transferred ? "transferred" : "calibrated");
        cli_json_str_field("source_gpus", info.source_gpus);
        /* the GPU whose rows fitted each GEMM math type (one source even
         * in a transferred model) */
        printf(", \"gemm_source_gpu\": {\"fp32\": ");
        if (info.gemm_source_gpu[0][0]) cli_json_str(stdout, info.gemm_source_gpu[0]);
        else printf("null");
        cli_json_str_field("tensor", info.gemm_source_gpu[1][0] ? info.gemm_source_gpu[1] : NULL);
        printf("}");
        printf(", \"split\": \"%s\", \"source\": ", split_names[split]);
        if (source) cli_json_str(stdout, source);
        else printf("null");
        printf(", \"data\": [");
        for (int f = 0; f < n_data; f++) {
            if (f) printf(", ");
            cli_json_str(stdout, data[f]);
        }
        printf("],\n");
        if (given_launch) {
            printf("  \"given_launch\": {");
            json_metrics(&gm);
            printf(", \"predicted_launch\": {");
            json_metrics(&gm_same);
            printf("}},\n");
        }
        printf("  \"n\": %d, \"skipped\": %ld, \"failed\": %ld,\n  \"mape\": ", n, skipped, failed);
        cli_json_num(stdout, all.mape);
        cli_json_num_field("rmspe", all.rmspe);
        cli_json_num_field("median_ape", all.median);
        cli_json_num_field("p90_ape", all.p90);
        printf(",\n  \"baseline_roofline\": {\"scale\": ");
        cli_json_num(stdout, scale);
        printf(", ");
        json_metrics(&base);
        printf("},\n");
        printf("  \"class_accuracy\": ");
        cli_json_num(stdout, cls_n ? (double)cls_hit / cls_n : NAN);
        printf(",\n");
        printf("  \"published_at_row\": {");
        json_metrics(&at_row);
        printf("},\n  \"gpu_time\": {");
        json_metrics(&gpu_time);
        printf("},\n  \"floor\": {");
        json_metrics(&floor_m);
        printf("},\n  \"dispatch\": [");
        for (int f = 0; f < n_data; f++) {
            printf("%s{\"data\": ", f ? ", " : "");
            cli_json_str(stdout, data[f]);
            if (has_disp[f] && disp[f].windows)
                printf(", \"host_ms_start\": %.6g, \"host_ms_end\": %.6g, \"typical_ms\": %.6g, \"spread_ms\": %.6g}",
                       host_at(&disp[f], 0), host_at(&disp[f], 1), disp[f].median, disp[f].spread);
            else
                printf(", \"host_ms_start\": 0, \"host_ms_end\": 0, \"typical_ms\": 0, \"spread_ms\": 0}");
        }
        printf("],\n");
        json_groups("by_direction", groups[BY_DIR], ngroups[BY_DIR], 0);
        json_groups("by_algo", groups[BY_ALGO], ngroups[BY_ALGO], 0);
        json_groups("by_class", groups[BY_CLASS], ngroups[BY_CLASS], 0);
        printf("  \"failed_rows\": [");
        for (long i = 0; i < failed && i < MAX_FAIL_LIST; i++) {
            printf("%s\n    ", i ? "," : "");
            cli_json_str(stdout, fail_list[i]);
        }
        printf("]\n}\n");
    } else {
        if (info.transferred)
            printf("model     transferred to %s from %s (no calibrated model in the models directory)\n",
                   info.gpu_id, info.source_gpus);
        else
            printf("model     %s (gpu %s)\n", model_opt ? model_path : "calibrated", info.gpu_id);
        for (int f = 0; f < n_data; f++) printf("data      %s\n", data[f]);
        printf("split     %s%s%s\n", split_names[split], source ? ", source " : "",
               source ? source : "");
        if (given_launch)
            printf("given launch: %d rows whose measured main kernel the model knows\n", gm.n);
        printf("rows      %d scored, %ld skipped (algo MIXED/UNKNOWN or no time), %ld failed\n", n,
               skipped, failed);
        for (long i = 0; i < failed && i < MAX_FAIL_LIST; i++) printf("  failed: %s\n", fail_list[i]);
        if (failed > MAX_FAIL_LIST) printf("  ... and %ld more\n", failed - MAX_FAIL_LIST);
        printf("\n%-22s %6s %8s %8s %8s %8s\n", "", "n", "MAPE %", "RMSPE %", "median %", "p90 %");
        text_row("seer", 22, &all);
        char label[64];
        snprintf(label, sizeof label, "roofline x %.3g", scale);
        text_row(label, 22, &base);
        text_row("seer, host at the row", 22, &at_row);
        text_row("seer vs GPU time", 22, &gpu_time);
        text_row("floor", 22, &floor_m);
        if (given_launch && gm.n) {
            text_row("seer, given launch", 22, &gm);
            text_row("seer, same rows", 22, &gm_same);
        }
        for (int f = 0; f < n_data; f++)
            if (has_disp[f] && disp[f].windows)
                printf("%shost      %s: %.3f..%.3f ms along the file, typical %.3f ms (+-%.3f): added to\n"
                       "          the GPU-time predictions (docs/method.md, \"GPU time\")\n", f ? "" : "\n", data[f],
                       host_at(&disp[f], 0), host_at(&disp[f], 1), disp[f].median, disp[f].spread);
        if (cls_n)
            printf("\nclass classifier: %.1f %% of %ld rows agree with the class of the measured time\n",
                   100.0 * cls_hit / cls_n, cls_n);
        text_groups("direction", groups[BY_DIR], ngroups[BY_DIR]);
        text_groups("algo", groups[BY_ALGO], ngroups[BY_ALGO]);
        text_groups("class", groups[BY_CLASS], ngroups[BY_CLASS]);
    }

    rc = CLI_OK;
    goto out;
oom:
    rc = cli_fail("eval", "out of memory");
    goto out;
lib_error:
    rc = cli_lib_error(h, st);
out:
    for (int f = 0; f < n_data && rows && grows; f++) {
        free(rows[f]);
        free(grows[f]);
    }
    free(rows);
    free(grows);
    free(nrows);
    free(pts);
    free(scratch);
    free(aux);
    free(disp);
    free(has_disp);
    for (int by = 0; by < 3; by++) free(groups[by]);
    free(plot_keys);
    free(plot_meas);
    free(plot_pred);
    free(data);
    seer_conv_desc_destroy(d);
    seer_model_destroy(model);
    seer_destroy(h);
    return rc;
}

/* seer eval: score a model against measured conv timings.
 *
 * The prediction of a row is made from its shape, dtype, layout,
 * direction and algo only; time_ms is read to score it and nothing else
 * of the measurement (source, main_kernel, grid, block, kernels) reaches
 * the model.  A roofline scaled by one fitted constant is reported beside
 * it so the numbers have a baseline. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
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
    double picked;              /* --pick: the fastest predicted algorithm's time; NAN if none */
    int pick_agrees;            /* --pick: that algorithm is the row's */
    const char *file;
    int fidx;                   /* index of the file in --data */
    double pos;                 /* position of the row in its file, [0, 1) */
    int dir, algo_rank, cls_rank, dtype_rank; /* dtype_rank: dir * 10 + dtype */
    int call;                   /* the kind of call, whose host time is fitted apart (NCALL) */
    const seer_conv_row_t *row; /* conv rows: for the class check after the host time is known */
    int algo;                   /* the algorithm predicted */
    char algo_key[48];
} point_t;

typedef struct { int n; double mape, rmspe, median, p90; } metrics_t;
typedef struct { int rank; char key[48]; metrics_t m; } group_t;

static void usage_eval(FILE *f)
{
    fprintf(f,
            "usage: seer eval [--model FILE | --gpu GPU] [--models DIR] --data CSV...\n"
            "                 [--source PREFIX] [--split test|train|all] [--given-launch]\n"
            "                 [--pick] [--fastest]\n"
            "                 [--format text|json] [--plot FILE.svg]\n"
            "\n"
            "Predict every measured row of the model's GPU in conv timing CSV v1\n"
            "files from its shape and algorithm alone (GEMM timing CSV v1 files: from\n"
            "batch, m, n, k, dtype and bias) and compare with time_ms.  A kernel\n"
            "trace (seer-bench's kernels.csv) is scored per call, its kernels summed\n"
            "as seer train sums them.  Without --model or --gpu, the GPU is the one\n"
            "the rows name.\n"
            "  --data CSV...    one or more files (or repeat --data)\n"
            "  --source PREFIX  only rows whose source starts with PREFIX\n"
            "  --split S        test: only rows in the 20%% held-out test split\n"
            "                   (seer_conv_in_test_split; GEMM rows: seer_gemm_shape_in_test_split),\n"
            "                   train: the others,\n"
            "                   all (default)\n"
            "  --given-launch   also predict with the measured main kernel choosing the\n"
            "                   variant (instead of the fastest variant); both figures\n"
            "                   are printed.  Diagnostic only: before running a\n"
            "                   convolution a user does not know which kernel cuDNN\n"
            "                   will launch\n"
            "  --pick           also predict each row with a recorded algorithm as if\n"
            "                   its algo were empty (the fastest predicted algorithm,\n"
            "                   what seer predict --data gives such rows) and count how\n"
            "                   often that is the recorded one; both figures are printed\n"

            "  --fastest        one row per convolution: its fastest measured algorithm's\n"
            "                   time, scored against the fastest predicted algorithm (what\n"
            "                   a framework that benchmarks runs, and what seer net and\n"
            "                   predict --data take); for seer-bench sweeps, which time\n"
            "                   every algorithm\n"
            "  --format F       text (default) or json\n"
            "  --plot FILE.svg  log-log scatter of predicted vs measured times\n"
            "Rows with algo MIXED/UNKNOWN or without time_ms are skipped; rows with\n"
            "an empty algo or one whose name libseer does not know (counted as\n"
            "algo_unknown, the first ten named on stderr) use the fastest predicted\n"
            "algorithm, as do DeepBench forward fp32 rows (their times are\n"
            "cudnnFind's fastest, their algo a hint).  Rows that cannot be predicted\n"
            "(an impossible or over-limit shape, an unsupported or uncalibrated case)\n"
            "are counted as failed and listed with their line; the others are\n"
            "scored.  Metrics are\n"
            "fractions: ape = |pred - meas| / meas; MAPE = mean ape, RMSPE = root\n"
            "mean square ape, p90 by nearest rank.  baseline_roofline scales the\n"
            "datasheet roofline by exp(median(log(meas / roofline))).\n"
            "The model predicts GPU time.  Rows whose source times host dispatch too\n"
            "(neusight) are scored against the prediction plus the host time that\n"
            "libseer/dispatch.c estimates, for each kind of call apart (conv\n"
            "direction, GEMM op), from the file's rows outside the scored split\n"
            "(from the scored rows with --split all): the typical (median) host\n"
            "time of its kind in its file for the headline figures, the host time at the row's\n"
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

/* Kinds of call, each with its own host time: a framework dispatches
 * each its own way (NeuSight's nn.Linear calls take 0.02 ms more than
 * its bmm calls, which one curve along a file of both took for drift):
 * the three conv directions, then the GEMM ops linear, bmm and gemm. */
#define NCALL (DIR_GEMM + SEER_GEMM_OPS)
static const char *call_name(int call)
{
    return call < DIR_GEMM ? seer_direction_name((seer_direction_t)call) : seer_gemm_op_names[call - DIR_GEMM];
}

/* A row's times and place in its file, the rest unset (NAN roofline and
 * given-launch time).  Scored rows and the rows outside the split that
 * locate a file's host time are both kept as points (the latter without
 * a prediction). */
static point_t *put_point(point_t *pt, double meas, double gpu, double floor, const char *file, int fidx,
                          double pos, int dir, int call)
{
    memset(pt, 0, sizeof *pt);
    pt->meas = meas;
    pt->gpu = pt->pred = gpu;
    pt->floor = floor;
    pt->roof = pt->given = pt->picked = NAN;
    pt->file = file;
    pt->fidx = fidx;
    pt->pos = pos;
    pt->dir = dir;
    pt->call = call;
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


/* Why a row failed: the library's message (it names the field, or the
 * model and what it cannot time); the status where there is none. */
static const char *failure_why(seer_handle_t h, seer_status_t st)
{
    return cli_soft_failure(st) && !seer_get_last_error(h)[0] ? seer_status_string(st) : seer_get_last_error(h);
}

/* Group the points by an integer rank (which also orders the groups). */
enum { BY_DIR, BY_ALGO, BY_CLASS, BY_DTYPE, NBY };

static int point_rank(const point_t *p, int by)
{
    return by == BY_DIR ? p->dir : by == BY_ALGO ? p->algo_rank : by == BY_DTYPE ? p->dtype_rank : p->cls_rank;
}

static void point_key(const point_t *p, int by, char *key, size_t size)
{
    const char *dir = p->dir == DIR_GEMM ? "gemm" : seer_direction_name((seer_direction_t)p->dir);
    if (by == BY_DIR) snprintf(key, size, "%s", dir);
    else if (by == BY_ALGO) snprintf(key, size, "%s", p->algo_key);
    else if (by == BY_DTYPE) snprintf(key, size, "%s/%s", dir, seer_dtype_name((seer_dtype_t)(p->dtype_rank % 10)));
    else if (p->cls_rank < 3) snprintf(key, size, "%s", seer_class_name((seer_class_t)p->cls_rank));
    else snprintf(key, size, "unknown");
}

/* Groups of `by` into *out (malloc'ed), in rank order; returns the count
 * or -1. */
static int make_groups(const point_t *pts, int n, int by, double *scratch, group_t **out)
{
    group_t *g = malloc((size_t)(n ? n : 1) * sizeof *g);
    if (!g) return -1;
    int ng = 0;
    for (int prev = INT_MIN;;) {
        int r = INT_MAX, m = 0, first = -1;
        for (int i = 0; i < n; i++) {
            int k = point_rank(&pts[i], by);
            if (k > prev && k < r) r = k;
        }
        if (r == INT_MAX) break;
        for (int j = 0; j < n; j++)
            if (point_rank(&pts[j], by) == r) {
                if (first < 0) first = j;
                scratch[m++] = ape_of(pts[j].pred, pts[j].meas);
            }
        g[ng].rank = r;
        point_key(&pts[first], by, g[ng].key, sizeof g[ng].key);
        metrics(scratch, m, &g[ng].m);
        ng++;
        prev = r;
    }
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

/* The host time of file f's rows of kind call (-1: of every kind) in
 * src[0..ns-1], into *d; its first and last place in span[0..1]. */
static void fit_stream(const point_t *src, int ns, int f, int call, double *pos, double *t, double *fl,
                       seer_dispatch_t *d, double *span)
{
    int m = 0;
    for (int i = 0; i < ns; i++)
        if (src[i].fidx == f && (call < 0 || src[i].call == call)) {
            pos[m] = src[i].pos;
            t[m] = src[i].meas;
            fl[m++] = src[i].floor;
        }
    if (seer_dispatch_estimate(NULL, pos, t, fl, m, d)) d->windows = 0;
    if (d->windows) {
        span[0] = pos[0];
        span[1] = pos[m - 1];
    }
}

/* Per file and kind of call with host dispatch: fit its host time on
 * the aux rows (or on the scored rows when from_scored; a kind of too
 * few rows takes the curve of the file's rows of every kind, whole[s]
 * set), then give every scored row of it its host time at its place
 * and, in pred, the GPU prediction plus the typical host time of its
 * kind of call in its file.  span[2 * s], span[2 * s + 1]: the first and
 * last place of the rows fitted.  1 when memory runs out. */
static int locate_dispatch(point_t *pts, int n, const point_t *aux, int naux, int from_scored, int n_data,
                           const int *has_disp, seer_dispatch_t *disp, double *span, int *whole)
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
    const point_t *src = from_scored ? pts : aux;
    int ns = from_scored ? n : naux, wf = -1; /* the file whose whole curve is in wd, wspan */
    seer_dispatch_t wd;
    double wspan[2] = {0, 0};
    for (int s = 0; s < n_data * NCALL; s++) {
        int f = s / NCALL, call = s % NCALL, kinds = 0;
        if (!has_disp[s]) continue;
        fit_stream(src, ns, f, call, pos, t, fl, &disp[s], &span[2 * s]);
        for (int c = 0; c < NCALL; c++) kinds += has_disp[f * NCALL + c];
        if (!disp[s].windows && kinds > 1) {
            if (wf != f) { /* once per file, however many of its kinds need it */
                fit_stream(src, ns, f, -1, pos, t, fl, &wd, wspan);
                wf = f;
            }
            disp[s] = wd;
            span[2 * s] = wspan[0];
            span[2 * s + 1] = wspan[1];
            whole[s] = disp[s].windows > 0;
        }
        if (!disp[s].windows) continue;
        for (int i = 0; i < n; i++)
            if (pts[i].fidx == f && pts[i].call == call) {
                pts[i].host = host_at(&disp[s], pts[i].pos);
                pts[i].pred = pts[i].gpu + disp[s].median;
            }
    }
    free(pos);
    free(t);
    free(fl);
    return 0;
}

static const char *const split_names[] = {"all", "test", "train"};

/* What the options ask for. */
typedef struct {
    const char *model_opt, *gpu_opt, *models_opt, *source, *plot;
    const char **data;          /* the --data files (malloc'ed list) */
    int n_data;
    int split;                  /* index in split_names */
    int json, given_launch, pick, fastest;
} eval_opts_t;

/* One run: the model, the rows read, the points scored from them. */
typedef struct {
    const eval_opts_t *o;
    seer_handle_t h;
    seer_model_t model;
    seer_model_info_t info;
    seer_gpu_info_t gpu;
    seer_conv_desc_t d;
    seer_conv_row_t **rows;     /* per file: conv rows, or NULL */
    seer_gemm_row_t **grows;    /* per file: GEMM rows, or NULL */
    size_t *nrows;
    point_t *pts;               /* the scored rows */
    point_t *aux;               /* rows outside the scored split of files with host dispatch */
    int n, naux;
    double *scratch;
    seer_dispatch_t *disp;      /* per file and kind of call (f * NCALL + call) */
    int *has_disp;              /* likewise */
    double *span;               /* likewise: first and last place of its rows */
    int *whole;                 /* likewise: the file's curve, its own rows too few */
    long skipped, failed, cls_n, cls_hit;
    long other_math;            /* rows left out for a twin of the framework's math type */
    long folded;                /* --fastest: rows left out beside their conv's fastest */
    long algo_unknown;          /* scored rows whose algo name libseer does not know */
    long fastest;               /* scored labelled rows whose source times the fastest algorithm */
    long replaced;              /* scored rows whose algorithm libseer says cannot run there */
    char data_gpu[64];          /* neither --model nor --gpu: the one GPU the rows name */
    int any_gpu;                /* no row names the model's GPU nor any GPU libseer knows:
                                 * every row is taken as the model's GPU's */
    char fail_list[MAX_FAIL_LIST][256];
} eval_run_t;

/* What a run scores. */
typedef struct {
    metrics_t all;              /* the headline: against the published times */
    metrics_t base;             /* the roofline baseline, scaled by `scale` */
    double scale;
    metrics_t at_row, gpu_time, floor_m;
    metrics_t gm, gm_same;      /* --given-launch, and the same rows predicted */
    metrics_t pk, pk_same;      /* --pick, and the same rows with their algorithm */
    int pk_agree;               /* --pick: rows whose fastest predicted algorithm is theirs */
    group_t *groups[NBY];
    int ngroups[NBY];
} eval_scores_t;

/* The options into *o: CLI_OK with *done set after --help, else the exit
 * code of a usage error. */
static int eval_parse(int argc, char **argv, eval_opts_t *o, int *done)
{
    static const char *const splits[] = {"all", "test", "train", NULL};
    static const char *const formats[] = {"text", "json", NULL};
    static const struct option opts[] = {CLI_FLAG("help"), CLI_FLAG("given-launch"), CLI_FLAG("pick"),
                                         CLI_FLAG("fastest"), CLI_VALUE("model"),
                                         CLI_VALUE("gpu"), CLI_VALUE("models"), CLI_VALUE("data"),
                                         CLI_VALUE("source"), CLI_VALUE("split"), CLI_VALUE("format"),
                                         CLI_VALUE("plot"), CLI_END};
    cli_args_t a;
    int f;
    cli_args_init(&a, "eval", opts, argc, argv);
    while (cli_next(&a)) {
        if (cli_is(&a, "--help") || cli_is(&a, "-h")) { usage_eval(stdout); *done = 1; return CLI_OK; }
        else if (cli_is(&a, "--model")) { if (!(o->model_opt = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--gpu")) { if (!(o->gpu_opt = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--models")) { if (!(o->models_opt = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--data")) { if (!cli_values(&a, &o->data, &o->n_data)) return CLI_USAGE; }
        else if (cli_is(&a, "--source")) { if (!(o->source = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--split")) { if ((o->split = cli_choice(&a, splits)) < 0) return CLI_USAGE; }
        else if (cli_is(&a, "--format")) { if ((f = cli_choice(&a, formats)) < 0) return CLI_USAGE; o->json = f == 1; }
        else if (cli_is(&a, "--plot")) { if (!(o->plot = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--given-launch")) { if (!cli_flag(&a)) return CLI_USAGE; o->given_launch = 1; }
        else if (cli_is(&a, "--pick")) { if (!cli_flag(&a)) return CLI_USAGE; o->pick = 1; }
        else if (cli_is(&a, "--fastest")) { if (!cli_flag(&a)) return CLI_USAGE; o->fastest = 1; }
        else return cli_unknown(&a);
    }
    if (!o->n_data) return cli_usage_error("eval", "option --data is required");
    return CLI_OK;
}

/* Without --model or --gpu, the one GPU every row of every file names
 * (ids, aliases and driver names alike), into out; a usage error where
 * the rows name several or none. */
static int data_gpu(eval_run_t *R, char *out, size_t size)
{
    const eval_opts_t *o = R->o;
    out[0] = 0;
    for (int f = 0; f < o->n_data; f++)
        for (size_t i = 0; i < R->nrows[f]; i++) {
            const char *name = R->grows[f] ? R->grows[f][i].gpu : R->rows[f][i].gpu;
            seer_gpu_info_t g;
            const char *id = cli_gpu_id(R->h, name, &g);
            if (!out[0]) snprintf(out, size, "%s", id);
            else if (strcmp(out, id))
                return cli_usage_error("eval", "the rows name GPUs %s and %s: give --gpu GPU (or --model FILE)",
                                       out, id);
        }
    if (!out[0]) return cli_usage_error("eval", "no rows to tell the GPU from: give --gpu GPU or --model FILE");
    if (!cli_gpu_known(R->h, out))
        return cli_usage_error("eval", "the rows name GPU '%s', which libseer does not know (see seer gpus): give "
                                       "--gpu GPU or --model FILE", out);
    return CLI_OK;
}

/* The handle, the data (first: a malformed file is reported whatever the
 * model), the model and room for a point per row. */
static int eval_open(eval_run_t *R)
{
    const eval_opts_t *o = R->o;
    seer_status_t st;
    if ((st = seer_create(&R->h))) return cli_lib_error(NULL, st);
    R->rows = calloc((size_t)o->n_data, sizeof *R->rows);
    R->grows = calloc((size_t)o->n_data, sizeof *R->grows);
    R->nrows = calloc((size_t)o->n_data, sizeof *R->nrows);
    if (!R->rows || !R->grows || !R->nrows) return cli_fail("eval", "out of memory");
    size_t total = 0;
    for (int f = 0; f < o->n_data; f++) {
        if (seer_csv_kind(o->data[f]) == 'g') st = seer_gemm_csv_read(R->h, o->data[f], &R->grows[f], &R->nrows[f]);
        else {
            /* a kernel trace is summed per call, as training reads it:
             * its rows are kernels, and a model predicts calls */
            st = seer_conv_rows_read(R->h, o->data[f], 1, &R->rows[f], &R->nrows[f]);
            size_t read = R->nrows[f];
            if (!st) st = seer_conv_rows_framework_math(R->h, R->rows[f], &R->nrows[f]);
            R->other_math += (long)(read - R->nrows[f]);
            read = R->nrows[f];
            if (!st && o->fastest) st = seer_conv_rows_fastest(R->h, R->rows[f], &R->nrows[f]);
            R->folded += (long)(read - R->nrows[f]);
        }
        if (st) return cli_lib_error(R->h, st);
        total += R->nrows[f];
    }
    const char *gpu = o->gpu_opt;
    if (!gpu && !o->model_opt) { /* the GPU the rows name, when they name one */
        int rc = data_gpu(R, R->data_gpu, sizeof R->data_gpu);
        if (rc) return rc;
        gpu = R->data_gpu;
    }
    int rc = cli_open_model(R->h, "eval", o->model_opt, gpu, o->models_opt, &R->model);
    if (rc) return rc;
    if ((st = seer_model_get_info(R->model, &R->info)) || (st = seer_model_get_gpu(R->model, &R->gpu)) ||
        (st = seer_conv_desc_create(&R->d)))
        return cli_lib_error(R->h, st);
    size_t cap = total ? total : 1;
    R->pts = malloc(cap * sizeof *R->pts);
    R->scratch = malloc(cap * sizeof *R->scratch);
    R->aux = malloc(cap * sizeof *R->aux);
    R->disp = calloc((size_t)o->n_data * NCALL, sizeof *R->disp);
    R->has_disp = calloc((size_t)o->n_data * NCALL, sizeof *R->has_disp);
    R->span = calloc((size_t)o->n_data * NCALL * 2, sizeof *R->span);
    R->whole = calloc((size_t)o->n_data * NCALL, sizeof *R->whole);
    if (!R->pts || !R->scratch || !R->aux || !R->disp || !R->has_disp || !R->span || !R->whole)
        return cli_fail("eval", "out of memory");
    return CLI_OK;
}

static void eval_close(eval_run_t *R, eval_scores_t *S)
{
    for (int f = 0; f < R->o->n_data && R->rows && R->grows; f++) {
        free(R->rows[f]);
        free(R->grows[f]);
    }
    free(R->rows);
    free(R->grows);
    free(R->nrows);
    free(R->pts);
    free(R->scratch);
    free(R->aux);
    free(R->disp);
    free(R->has_disp);
    free(R->span);
    free(R->whole);
    for (int by = 0; by < NBY; by++) free(S->groups[by]);
    seer_conv_desc_destroy(R->d);
    seer_model_destroy(R->model);
    seer_destroy(R->h);
}

/* A GEMM row: seer_predict_gemm on its shape and dtype.  CLI_OK, also for
 * a row that is skipped or fails, else the exit code of an error of the
 * run (said). */
static int score_gemm_row(eval_run_t *R, int f, size_t i)
{
    const eval_opts_t *o = R->o;
    const seer_gemm_row_t *r = &R->grows[f][i];
    if (!R->any_gpu && !cli_same_gpu(r->gpu, R->info.gpu_id)) return CLI_OK;
    if (o->source && strncmp(r->source, o->source, strlen(o->source)) != 0) return CLI_OK;
    int scored = !o->split || seer_gemm_shape_in_test_split(r->batch, r->m, r->n, r->k, r->trans_a, r->trans_b,
                                                            r->bias, r->dtype) == (o->split == 1);
    int dispatch = seer_source_has_dispatch(r->source);
    if (!scored && !dispatch) return CLI_OK;
    if (!(r->time_ms > 0)) {
        R->skipped += scored;
        return CLI_OK;
    }
    double t = NAN, pos = (double)i / (double)R->nrows[f], floor = 0;
    seer_gemm_floor(NULL, &R->gpu, r->batch, r->m, r->n, r->k, r->dtype, r->bias, &floor);
    int call = DIR_GEMM + r->op_kind;
    R->has_disp[f * NCALL + call] |= dispatch;
    if (!scored) { /* only locates the file's host time: no prediction */
        put_point(&R->aux[R->naux++], r->time_ms, NAN, floor, o->data[f], f, pos, DIR_GEMM, call);
        return CLI_OK;
    }
    seer_class_t cls = SEER_CLASS_UNDER;
    seer_status_t st = seer_predict_gemm(R->h, R->model, r->batch, r->m, r->n, r->k, r->dtype, r->trans_a,
                                         r->trans_b, r->bias, &t, &cls);
    if (cli_row_failure(st)) {
        note_failure(R->fail_list, &R->failed, o->data[f], r->line, r->op, seer_dtype_name(r->dtype),
                     failure_why(R->h, st));
        return CLI_OK;
    }
    if (st) return cli_lib_error(R->h, st);
    point_t *pt = put_point(&R->pts[R->n++], r->time_ms, t, floor, o->data[f], f, pos, DIR_GEMM, call);
    int math = 0;
    seer_dtype_tensor_cores(r->dtype, &math);
    pt->cls_rank = (int)cls;
    pt->dtype_rank = DIR_GEMM * 10 + (int)r->dtype;
    pt->algo_rank = DIR_GEMM * 100 + 2 * r->op_kind + math;
    snprintf(pt->algo_key, sizeof pt->algo_key, "gemm/%s/%s", r->op, math ? "tensor" : "fp32");
    double roof;
    pt->roof = seer_roofline_gemm(NULL, &R->gpu, r->batch, r->m, r->n, r->k, r->dtype, &roof) ? NAN : roof;
    return CLI_OK;
}

/* A scored conv row's point: class, groups, --given-launch, roofline;
 * replaced: its algorithm could not run there (cli_predict_row). */
static void conv_point(eval_run_t *R, point_t *pt, const seer_conv_row_t *r, const cli_pred_t *p, int replaced)
{
    pt->cls_rank = (int)p->cls >= 0 && (int)p->cls < 3 ? (int)p->cls : 3;
    int labelled = cli_row_algo(r) >= 0 && !replaced; /* else predicted as the fastest */
    pt->algo_rank = pt->dir * 100 + (labelled ? r->algo : 99);
    pt->dtype_rank = pt->dir * 10 + (int)r->dtype;
    snprintf(pt->algo_key, sizeof pt->algo_key, "%s/%s", seer_direction_name(r->dir),
             labelled ? seer_algo_name(r->dir, r->algo) : "auto");
    pt->row = r;
    pt->algo = p->algo;
    /* --given-launch: the measured main kernel picks the variant; only
     * the scoring ever compares it with the time. */
    if (R->o->given_launch && labelled && r->main_kernel[0]) {
        int matched = 0;
        double g;
        if (seer_predict_conv_variant(R->h, R->model, R->d, r->dir, r->algo, r->main_kernel, &matched, &g) ==
                SEER_STATUS_SUCCESS && matched)
            pt->given = g;
    }
    /* --pick: what the row would get without its algorithm */
    if (R->o->pick && labelled) {
        int a;
        double t;
        if (seer_pick_conv_fastest(R->h, R->model, R->d, r->dir, &a, &t) == SEER_STATUS_SUCCESS) {
            pt->picked = t;
            pt->pick_agrees = a == r->algo;
        }
    }
    double roof;
    pt->roof = seer_roofline_conv(R->h, &R->gpu, R->d, r->dir, &roof) == SEER_STATUS_SUCCESS && roof > 0 &&
                       isfinite(roof)
                   ? roof
                   : NAN;
}

/* A lower bound of a conv row's GPU time: its algorithm's floor, or,
 * where the row is predicted as the fastest (no algo, or a label that is
 * a hint), the lowest floor of any algorithm: a label's own (FFT's, on a
 * GTX 1080 Ti row cudnnFind timed at a third of it) would lift the
 * GPU-time target over the measured time. */
static double row_floor(const eval_run_t *R, const seer_conv_row_t *r)
{
    if (cli_row_algo(r) >= 0) {
        double t = 0;
        /* 0 where the algorithm cannot run there: the row takes the
         * fastest (cli_predict_row), so its floor is the lowest below */
        if (seer_conv_floor(NULL, &R->gpu, R->d, r->dir, r->algo, &t) == SEER_STATUS_SUCCESS && t > 0) return t;
    }
    double lo = 0;
    for (int a = 0; a < cli_algo_count(r->dir); a++) {
        double t = 0;
        if (seer_conv_floor(NULL, &R->gpu, R->d, r->dir, a, &t) == SEER_STATUS_SUCCESS && t > 0 &&
            (lo == 0 || t < lo))
            lo = t;
    }
    return lo;
}

/* A conv row: predicted from its shape, dtype, layout, direction and
 * algo only.  Returns as score_gemm_row. */
static int score_conv_row(eval_run_t *R, int f, size_t i)
{
    const eval_opts_t *o = R->o;
    const seer_conv_row_t *r = &R->rows[f][i];
    const char *every = "(every algorithm)";
    seer_status_t st;
    if (!R->any_gpu && !cli_same_gpu(r->gpu, R->info.gpu_id)) return CLI_OK;
    if (o->source && strncmp(r->source, o->source, strlen(o->source)) != 0) return CLI_OK;
    if (r->shape_st) {
        /* an impossible or over-limit shape (it has no test-split hash):
         * this row fails, the others are still scored */
        if (!(st = cli_desc_from_row(R->h, r, R->d))) st = SEER_STATUS_INTERNAL;
        if (!cli_row_failure(st)) return cli_lib_error(R->h, st);
        note_failure(R->fail_list, &R->failed, o->data[f], r->line, seer_direction_name(r->dir),
                     r->algo_text[0] ? r->algo_text : every, failure_why(R->h, st));
        return CLI_OK;
    }
    if ((st = cli_desc_from_row(R->h, r, R->d))) return cli_lib_error(R->h, st);
    int scored = !o->split || seer_conv_in_test_split(R->d) == (o->split == 1);
    int dispatch = seer_source_has_dispatch(r->source);
    if (!scored && !dispatch) return CLI_OK;
    if (r->algo == SEER_ALGO_UNKNOWN || !(r->time_ms > 0)) {
        R->skipped += scored;
        return CLI_OK;
    }
    double pos = (double)i / (double)R->nrows[f], floor = row_floor(R, r);
    R->has_disp[f * NCALL + (int)r->dir] |= dispatch;
    if (!scored) { /* only locates the file's host time: no prediction */
        put_point(&R->aux[R->naux++], r->time_ms, NAN, floor, o->data[f], f, pos, (int)r->dir, (int)r->dir);
        return CLI_OK;
    }
    cli_pred_t p = {0};
    if ((st = cli_desc_as_measured(R->h, r, R->d))) return cli_lib_error(R->h, st);
    char why[256];
    st = cli_predict_row(R->h, R->model, R->d, r, &p, why, sizeof why);
    if (cli_row_failure(st)) {
        note_failure(R->fail_list, &R->failed, o->data[f], r->line, seer_direction_name(r->dir),
                     cli_row_algo(r) >= 0 ? seer_algo_name(r->dir, r->algo) : every, failure_why(R->h, st));
        return CLI_OK;
    }
    if (st) return cli_lib_error(R->h, st);
    conv_point(R, put_point(&R->pts[R->n++], r->time_ms, p.time_ms, floor, o->data[f], f, pos, (int)r->dir, (int)r->dir), r, &p,
               why[0] != 0);
    R->fastest += r->fastest && r->algo >= 0;
    R->replaced += why[0] != 0;
    if (why[0] && R->replaced <= 10)
        fprintf(stderr, "seer eval: %s:%ld: %s: scored with the fastest predicted algorithm\n", o->data[f], r->line,
                why);
    if (r->algo == SEER_ALGO_BAD_NAME && R->algo_unknown++ < 10)
        /* a typo or a truncated name: the data could not tell the algo,
         * as with an empty one (seer predict --data does the same) */
        fprintf(stderr, "seer eval: %s:%ld: %s algo '%s' is not a name libseer knows: scored with the fastest "
                        "predicted algorithm\n", o->data[f], r->line, seer_direction_name(r->dir), r->algo_text);
    return CLI_OK;
}

/* Every row of every file, GEMM rows first (the points' order). */
static int score_rows(eval_run_t *R)
{
    int rc;
    /* Files that name the GPU only by a name libseer does not know (cli.h) are meant for it. */
    const char *first = NULL;
    int named = 0;
    for (int f = 0; f < R->o->n_data; f++)
        for (size_t i = 0; i < R->nrows[f] && !named; i++) {
            const char *g = R->rows[f] ? R->rows[f][i].gpu : R->grows[f][i].gpu;
            if (!first) first = g;
            named = cli_same_gpu(g, R->info.gpu_id) || cli_gpu_known(R->h, g);
        }
    if ((R->any_gpu = first && !named)) cli_note_meant_for("eval", R->info.gpu_id, first);
    for (int f = 0; f < R->o->n_data; f++)
        for (size_t i = 0; i < R->nrows[f] && R->grows[f]; i++)
            if ((rc = score_gemm_row(R, f, i))) return rc;
    for (int f = 0; f < R->o->n_data; f++)
        for (size_t i = 0; i < R->nrows[f] && R->rows[f]; i++)
            if ((rc = score_conv_row(R, f, i))) return rc;
    return CLI_OK;
}

/* The classifier against the class the training rule gives the GPU time
 * (the published time less the host time, as training sees it). */
static void check_classes(eval_run_t *R)
{
    const point_t *pts = R->pts;
    for (int i = 0; i < R->n; i++) {
        seer_class_t mc;
        if (!pts[i].row || cli_desc_as_measured(R->h, pts[i].row, R->d)) continue;
        if (seer_classify_measured(R->h, R->model, R->d, pts[i].row->dir, pts[i].algo,
                                   fmax(pts[i].meas - pts[i].host, pts[i].floor), &mc) == SEER_STATUS_SUCCESS) {
            R->cls_n++;
            R->cls_hit += (int)mc == pts[i].cls_rank;
        }
    }
}

/* A second prediction of the points (the double at offset alt of each,
 * NAN where it has none: --given-launch, --pick) and the first, both on
 * the rows that have the second; host time as the headline's. */
static void both_ways(const point_t *pts, int n, size_t alt, double *scratch, metrics_t *second, metrics_t *first)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        double t = *(const double *)((const char *)&pts[i] + alt);
        if (!isnan(t)) scratch[k++] = ape_of(t + (pts[i].pred - pts[i].gpu), pts[i].meas);
    }
    metrics(scratch, k, second);
    k = 0;
    for (int i = 0; i < n; i++)
        if (!isnan(*(const double *)((const char *)&pts[i] + alt))) scratch[k++] = ape_of(pts[i].pred, pts[i].meas);
    metrics(scratch, k, first);
}

/* The headline figures (published time, host time at the row, GPU time,
 * floor) and the roofline baseline. */
static void score_times(const eval_run_t *R, eval_scores_t *S)
{
    const point_t *pts = R->pts;
    double *scratch = R->scratch;
    int n = R->n;
    for (int i = 0; i < n; i++) scratch[i] = ape_of(pts[i].gpu + pts[i].host, pts[i].meas);
    metrics(scratch, n, &S->at_row);
    for (int i = 0; i < n; i++) scratch[i] = ape_of(pts[i].gpu, fmax(pts[i].meas - pts[i].host, pts[i].floor));
    metrics(scratch, n, &S->gpu_time);
    for (int i = 0; i < n; i++)
        scratch[i] = ape_of(fmax(pts[i].meas - pts[i].host, pts[i].floor) + (pts[i].pred - pts[i].gpu), pts[i].meas);
    metrics(scratch, n, &S->floor_m);
    for (int i = 0; i < n; i++) scratch[i] = ape_of(pts[i].pred, pts[i].meas);
    metrics(scratch, n, &S->all);
    int nb = 0;
    for (int i = 0; i < n; i++)
        if (!isnan(pts[i].roof)) scratch[nb++] = log(pts[i].meas / pts[i].roof);
    cli_sort_doubles(scratch, (size_t)nb);
    S->scale = nb ? exp(cli_median_sorted(scratch, (size_t)nb)) : NAN;
    nb = 0;
    for (int i = 0; i < n; i++)
        if (!isnan(pts[i].roof)) scratch[nb++] = ape_of(pts[i].roof * S->scale, pts[i].meas);
    metrics(scratch, nb, &S->base);
    if (R->o->given_launch) both_ways(pts, n, offsetof(point_t, given), scratch, &S->gm, &S->gm_same);
    if (R->o->pick) {
        both_ways(pts, n, offsetof(point_t, picked), scratch, &S->pk, &S->pk_same);
        for (int i = 0; i < n; i++) S->pk_agree += !isnan(pts[i].picked) && pts[i].pick_agrees;
    }
}

/* Host dispatch per file (model-independent: positions, times and floors
 * of the rows outside the split, or of the scored ones with --split all),
 * every scored row's published-time prediction, then the scores. */
static int eval_score(eval_run_t *R, eval_scores_t *S)
{
    if (locate_dispatch(R->pts, R->n, R->aux, R->naux, !R->o->split, R->o->n_data, R->has_disp, R->disp, R->span, R->whole))
        return cli_fail("eval", "out of memory");
    check_classes(R);
    score_times(R, S);
    for (int by = 0; by < NBY; by++)
        if ((S->ngroups[by] = make_groups(R->pts, R->n, by, R->scratch, &S->groups[by])) < 0)
            return cli_fail("eval", "out of memory");
    return CLI_OK;
}

static int eval_plot(const eval_run_t *R, const eval_scores_t *S)
{
    int n = R->n, rc = CLI_OK;
    const char **keys = malloc((size_t)(n ? n : 1) * sizeof *keys);
    double *meas = malloc((size_t)(n ? n : 1) * sizeof *meas), *pred = malloc((size_t)(n ? n : 1) * sizeof *pred);
    if (!keys || !meas || !pred) {
        rc = cli_fail("eval", "out of memory");
    } else {
        for (int i = 0; i < n; i++) {
            keys[i] = R->pts[i].algo_key;
            meas[i] = R->pts[i].meas;
            pred[i] = R->pts[i].pred;
        }
        char title[160];
        snprintf(title, sizeof title, "%s: predicted vs measured (n=%d, split %s, MAPE %.1f%%)", R->info.gpu_id, n,
                 split_names[R->o->split], 100 * S->all.mape);
        if (cli_svg_scatter(R->o->plot, title, meas, pred, keys, n))
            rc = cli_fail("eval", "cannot write %s: %s", R->o->plot, strerror(errno));
    }
    free(keys);
    free(meas);
    free(pred);
    return rc;
}

/* The JSON's first lines: the model, the run's options and data. */
static void json_eval_head(const eval_run_t *R)
{
    const eval_opts_t *o = R->o;
    printf("{\"gpu\": ");
    cli_json_str(stdout, R->info.gpu_id);
    cli_json_str_field("model", o->model_opt);
    cli_json_served(&R->info);
    /* the GPU whose rows fitted each GEMM math type (one source even in a
     * transferred model) */
    printf(", \"gemm_source_gpu\": {\"fp32\": ");
    cli_json_str(stdout, R->info.gemm_source_gpu[0][0] ? R->info.gemm_source_gpu[0] : NULL);
    cli_json_str_field("tensor", R->info.gemm_source_gpu[1][0] ? R->info.gemm_source_gpu[1] : NULL);
    printf("}");
    cli_json_str_field("split", split_names[o->split]);
    cli_json_str_field("source", o->source);
    printf(", \"data\": [");
    for (int f = 0; f < o->n_data; f++) {
        if (f) printf(", ");
        cli_json_str(stdout, o->data[f]);
    }
    printf("],\n");
}

static void print_eval_json(const eval_run_t *R, const eval_scores_t *S)
{
    const eval_opts_t *o = R->o;
    json_eval_head(R);
    if (o->given_launch) {
        printf("  \"given_launch\": {");
        json_metrics(&S->gm);
        printf(", \"predicted_launch\": {");
        json_metrics(&S->gm_same);
        printf("}},\n");
    }
    printf("  \"n\": %d, \"skipped\": %ld, \"failed\": %ld, \"algo_unknown\": %ld, \"fastest\": %ld, "
           "\"algo_replaced\": %ld, \"other_math\": %ld, \"folded\": %ld,\n  \"mape\": ", R->n, R->skipped, R->failed,
           R->algo_unknown, R->fastest, R->replaced, R->other_math, R->folded);
    cli_json_num(stdout, S->all.mape);
    cli_json_num_field("rmspe", S->all.rmspe);
    cli_json_num_field("median_ape", S->all.median);
    cli_json_num_field("p90_ape", S->all.p90);
    printf(",\n  \"baseline_roofline\": {\"scale\": ");
    cli_json_num(stdout, S->scale);
    printf(", ");
    json_metrics(&S->base);
    printf("},\n  \"class_accuracy\": ");
    cli_json_num(stdout, R->cls_n ? (double)R->cls_hit / R->cls_n : NAN);
    printf(",\n  \"published_at_row\": {");
    json_metrics(&S->at_row);
    printf("},\n  \"gpu_time\": {");
    json_metrics(&S->gpu_time);
    printf("},\n  \"floor\": {");
    json_metrics(&S->floor_m);
    printf("},\n  \"dispatch\": [");
    for (int f = 0, first = 1; f < o->n_data; f++) {
        int any = 0;
        for (int c = 0; c < NCALL; c++) {
            int s = f * NCALL + c;
            const seer_dispatch_t *dp = &R->disp[s];
            if (!R->has_disp[s] || !dp->windows) continue;
            printf("%s{\"data\": ", first ? "" : ", ");
            cli_json_str(stdout, o->data[f]);
            printf(", \"call\": \"%s\", \"whole_file\": %s, \"host_ms_start\": %.6g, \"host_ms_end\": %.6g, \"typical_ms\": %.6g, "
                   "\"spread_ms\": %.6g}",
                   call_name(c), R->whole[s] ? "true" : "false", host_at(dp, R->span[2 * s]),
                   host_at(dp, R->span[2 * s + 1]), dp->median, dp->spread);
            first = 0;
            any = 1;
        }
        if (any) continue;
        printf("%s{\"data\": ", first ? "" : ", ");
        cli_json_str(stdout, o->data[f]);
        printf(", \"call\": \"\", \"whole_file\": false, \"host_ms_start\": 0, \"host_ms_end\": 0, \"typical_ms\": 0, "
               "\"spread_ms\": 0}");
        first = 0;
    }
    printf("],\n");
    /* after the headline figures: a reader taking the first "mape" gets
     * the headline's */
    if (o->pick) {
        printf("  \"pick\": {");
        json_metrics(&S->pk);
        printf(", \"agree\": %d, \"own_algo\": {", S->pk_agree);
        json_metrics(&S->pk_same);
        printf("}},\n");
    }
    json_groups("by_direction", S->groups[BY_DIR], S->ngroups[BY_DIR], 0);
    json_groups("by_algo", S->groups[BY_ALGO], S->ngroups[BY_ALGO], 0);
    json_groups("by_class", S->groups[BY_CLASS], S->ngroups[BY_CLASS], 0);
    json_groups("by_dtype", S->groups[BY_DTYPE], S->ngroups[BY_DTYPE], 0);
    printf("  \"failed_rows\": [");
    for (long i = 0; i < R->failed && i < MAX_FAIL_LIST; i++) {
        printf("%s\n    ", i ? "," : "");
        cli_json_str(stdout, R->fail_list[i]);
    }
    printf("]\n}\n");
}

static void print_eval_text(const eval_run_t *R, const eval_scores_t *S)
{
    const eval_opts_t *o = R->o;
    const seer_model_info_t *info = &R->info;
    if (info->transferred)
        printf("model     transferred to %s from %s (no calibrated model in the models directory)\n", info->gpu_id,
               info->source_gpus);
    else
        printf("model     %s (gpu %s)\n", o->model_opt ? o->model_opt : cli_served_kind(info), info->gpu_id);
    for (int f = 0; f < o->n_data; f++) printf("data      %s\n", o->data[f]);
    printf("split     %s%s%s\n", split_names[o->split], o->source ? ", source " : "", o->source ? o->source : "");
    if (o->given_launch) printf("given launch: %d rows whose measured main kernel the model knows\n", S->gm.n);
    printf("rows      %d scored, %ld skipped (algo MIXED/UNKNOWN or no time), %ld failed\n", R->n, R->skipped,
           R->failed);
    if (R->folded)
        printf("  %ld folded (--fastest): other algorithms of a conv scored, or rows of a conv with no timed\n"
               "  row of a known algorithm\n", R->folded);
    if (R->other_math)
        printf("  %ld left out: a twin row ran the framework's math type (TENSOR_OP for fp16/bf16, FMA for fp32,\n"
               "  DEFAULT for tf32), and these another (seer-bench's math_type)\n", R->other_math);
    if (R->algo_unknown)
        printf("  %ld scored with the fastest predicted algorithm: an algo name libseer does not know\n",
               R->algo_unknown);
    if (R->fastest)
        printf("  %ld scored with the fastest predicted algorithm: their source times the fastest, the algo\n"
               "  column is a hint (DeepBench forward, docs/formats.md)\n", R->fastest);
    if (R->replaced)
        printf("  %ld scored with the fastest predicted algorithm: libseer says theirs cannot run there\n",
               R->replaced);
    for (long i = 0; i < R->failed && i < MAX_FAIL_LIST; i++) printf("  failed: %s\n", R->fail_list[i]);
    if (R->failed > MAX_FAIL_LIST) printf("  ... and %ld more\n", R->failed - MAX_FAIL_LIST);
    printf("\n%-22s %6s %8s %8s %8s %8s\n", "", "n", "MAPE %", "RMSPE %", "median %", "p90 %");
    text_row("seer", 22, &S->all);
    char label[64];
    snprintf(label, sizeof label, "roofline x %.3g", S->scale);
    text_row(label, 22, &S->base);
    text_row("seer, host at the row", 22, &S->at_row);
    text_row("seer vs GPU time", 22, &S->gpu_time);
    text_row("floor", 22, &S->floor_m);
    if (o->given_launch && S->gm.n) {
        text_row("seer, given launch", 22, &S->gm);
        text_row("seer, same rows", 22, &S->gm_same);
    }
    if (o->pick && S->pk.n) {
        text_row("seer, fastest algo", 22, &S->pk);
        text_row("seer, their algo", 22, &S->pk_same);
    }
    for (int s = 0, first = 1; s < o->n_data * NCALL; s++) {
        const seer_dispatch_t *dp = &R->disp[s];
        if (!R->has_disp[s] || !dp->windows) continue;
        int f = s / NCALL, kinds = 0;
        for (int c = 0; c < NCALL; c++) kinds += R->has_disp[f * NCALL + c] && R->disp[f * NCALL + c].windows;
        printf("%shost      %s%s%s%s: %.3f..%.3f ms along %s, typical %.3f ms (+-%.3f): added to\n"
               "          the GPU-time predictions (docs/method.md, \"GPU time\")\n", first ? "\n" : "", o->data[f],
               kinds > 1 ? ", " : "", kinds > 1 ? call_name(s % NCALL) : "",
               R->whole[s] ? " (too few rows: the file's curve)" : "", host_at(dp, R->span[2 * s]),
               host_at(dp, R->span[2 * s + 1]), kinds > 1 && !R->whole[s] ? "its rows" : "the file", dp->median,
               dp->spread);
        first = 0;
    }
    if (o->pick && S->pk.n)
        printf("\npicker: the fastest predicted algorithm is the row's on %.1f %% of %d rows with one\n",
               100.0 * S->pk_agree / S->pk.n, S->pk.n);
    if (R->cls_n)
        printf("\nclass classifier: %.1f %% of %ld rows agree with the class of the measured time\n",
               100.0 * R->cls_hit / R->cls_n, R->cls_n);
    text_groups("direction", S->groups[BY_DIR], S->ngroups[BY_DIR]);
    text_groups("algo", S->groups[BY_ALGO], S->ngroups[BY_ALGO]);
    text_groups("class", S->groups[BY_CLASS], S->ngroups[BY_CLASS]);
    text_groups("direction/dtype", S->groups[BY_DTYPE], S->ngroups[BY_DTYPE]);
}

int cli_eval(int argc, char **argv)
{
    eval_opts_t o;
    eval_run_t R;
    eval_scores_t S;
    int done = 0, rc;
    memset(&o, 0, sizeof o);
    memset(&R, 0, sizeof R);
    memset(&S, 0, sizeof S);
    R.o = &o;
    if ((rc = eval_parse(argc, argv, &o, &done)) || done) goto out;
    /* the model's name is checked before any data is read (without one,
     * the rows name the GPU: eval_open) */
    if ((o.model_opt || o.gpu_opt) && !cli_model_path("eval", o.model_opt, o.gpu_opt, o.models_opt)) {
        rc = CLI_USAGE;
        goto out;
    }
    if ((rc = eval_open(&R)) || (rc = score_rows(&R)) || (rc = eval_score(&R, &S))) goto out;
    if (R.n == 0) {
        rc = cli_fail("eval", "no rows of GPU %s left to score (%ld skipped, %ld failed%s%s)", R.info.gpu_id,
                      R.skipped, R.failed, R.failed ? "; first: " : "", R.failed ? R.fail_list[0] : "");
        goto out;
    }
    if (o.plot && (rc = eval_plot(&R, &S))) goto out;
    if (o.json) print_eval_json(&R, &S);
    else print_eval_text(&R, &S);
out:
    eval_close(&R, &S);
    free(o.data);
    return rc;
}

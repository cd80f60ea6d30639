/* seer eval-picker: the picker (and cuDNN's heuristic) against a
 * seer-bench sweep that timed every algorithm of each shape. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "cli.h"
#include "net.h"

/* ------------------------------------------------------------------ */
/* seer eval-picker                                                    */
/* ------------------------------------------------------------------ */

static void usage_eval_picker(FILE *f)
{
    fprintf(f,
            "usage: seer eval-picker (--model FILE | --gpu GPU [--models DIR])\n"
            "                        --data LAYERS.csv --picks PICKS.csv\n"
            "                        [--workspace-mb MB] [--format table|json]\n"
            "\n"
            "Score libseer's picker against cuDNN's on a seer-bench sweep\n"
            "(docs/picker.md): LAYERS.csv holds measured times of every algorithm\n"
            "per shape (conv timing CSV v1, or a kernel trace summed per call; rows\n"
            "with a non-empty status or no time are skipped), PICKS.csv cuDNN's\n"
            "rankings per shape as seer-bench writes them (the conv shape columns\n"
            "plus source = v7|find, rank, algo, status; rows with a status are\n"
            "skipped).  For every shape of the model's GPU with at least two\n"
            "measured algorithms: a pick is wrong when\n"
            "its measured time exceeds 1.10 x the fastest measured; regret = sum of\n"
            "picked times / sum of fastest.  Each picker's pick is its best-ranked\n"
            "algorithm that was measured.\n");
}

typedef struct {
    seer_conv_row_t r;
    int method;                 /* picks: 0 v7, 1 find */
    int rank;
} prow_t;

static int shape_cmp(const seer_conv_row_t *a, const seer_conv_row_t *b)
{
    const seer_conv_shape_t *s = &a->shape, *t = &b->shape;
    int x[] = {a->dir, a->dtype, a->layout, s->n, s->c, s->h, s->w, s->k, s->r, s->s, s->pad_h,
               s->pad_w, s->stride_h, s->stride_w, s->dil_h, s->dil_w, s->groups};
    int y[] = {b->dir, b->dtype, b->layout, t->n, t->c, t->h, t->w, t->k, t->r, t->s, t->pad_h,
               t->pad_w, t->stride_h, t->stride_w, t->dil_h, t->dil_w, t->groups};
    for (size_t i = 0; i < sizeof x / sizeof *x; i++)
        if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
}

static int prow_cmp(const void *x, const void *y)
{
    const prow_t *a = x, *b = y;
    int c = shape_cmp(&a->r, &b->r);
    if (c) return c;
    if (a->method != b->method) return a->method - b->method;
    if (a->rank != b->rank) return a->rank - b->rank;
    return a->r.line < b->r.line ? -1 : a->r.line > b->r.line;
}

/* Read a conv-shaped CSV plus the per-line extra columns. picks: method
 * and rank required; else status (optional) filters rows. */
static int read_rows(seer_handle_t h, const char *path, int picks, const char *gpu, prow_t **out, size_t *nout)
{
    seer_conv_row_t *cr = NULL;
    size_t n = 0;
    seer_csv_t *c = NULL;
    prow_t *p = NULL;
    seer_status_t st;
    /* a kernel trace's calls, summed as training sums them: each is
     * matched below by its first kernel's line */
    if ((st = seer_conv_rows_read(h, path, 0, &cr, &n))) return cli_lib_error(h, st);
    if ((st = seer_csv_open_file(h, path, &c))) { free(cr); return cli_lib_error(h, st); }
    /* seer-bench names the method column `source` (docs/seer-bench.md) */
    int cm = seer_csv_col(c, "method"), ck = seer_csv_col(c, "rank"), cs = seer_csv_col(c, "status");
    if (cm < 0) cm = seer_csv_col(c, "source");
    if (picks && (cm < 0 || ck < 0)) {
        seer_csv_close(c);
        free(cr);
        return cli_fail("eval-picker", "%s: missing column '%s' (picks need source (v7|find) and rank)",
                        path, cm < 0 ? "source" : "rank");
    }
    p = malloc((n ? n : 1) * sizeof *p);
    if (!p) { seer_csv_close(c); free(cr); return cli_fail("eval-picker", "out of memory"); }
    size_t j = 0, k = 0;
    for (;;) {
        int eof = 0;
        if ((st = seer_csv_next(h, c, &eof))) { free(p); free(cr); seer_csv_close(c); return cli_lib_error(h, st); }
        if (eof) break;
        long line = seer_csv_line(c);
        while (j < n && cr[j].line < line) j++;
        if (j >= n || cr[j].line != line) continue;
        const seer_conv_row_t *r = &cr[j];
        if (!cli_same_gpu(r->gpu, gpu)) continue;
        if ((st = seer_conv_row_algo_error(h, path, r))) {
            free(p); free(cr); seer_csv_close(c);
            return cli_lib_error(h, st);
        }
        prow_t *o = &p[k];
        o->r = *r;
        o->method = 0;
        o->rank = 0;
        if (picks) {
            const char *mth = seer_csv_field(c, cm);
            if (!strcasecmp(mth, "v7") || !strcasecmp(mth, "heuristic")) o->method = 0;
            else if (!strcasecmp(mth, "find")) o->method = 1;
            else continue; /* other methods are not scored */
            /* a failed Find (empty rank) or an entry cuDNN marks unusable */
            if (!*seer_csv_field(c, ck) || (cs >= 0 && *seer_csv_field(c, cs))) continue;
            int rank;
            if ((st = seer_csv_int(h, c, ck, "rank", 0, 1000, &rank))) {
                free(p); free(cr); seer_csv_close(c);
                return cli_lib_error(h, st);
            }
            o->rank = rank;
            if (r->algo < 0) continue;
        } else {
            if (cs >= 0 && *seer_csv_field(c, cs)) continue;
            if (!(r->time_ms > 0) || r->algo < 0) continue;
        }
        k++;
    }
    seer_csv_close(c);
    free(cr);
    qsort(p, k, sizeof *p, prow_cmp);
    *out = p;
    *nout = k;
    return CLI_OK;
}

typedef struct {
    long shapes, wrong;
    double picked, fastest;
} score_t;

static void score(score_t *s, double picked, double fastest)
{
    s->shapes++;
    s->wrong += picked > 1.10 * fastest;
    s->picked += picked;
    s->fastest += fastest;
}

/* What the options ask for. */
typedef struct {
    const char *model_opt, *gpu_opt, *models_opt, *data, *picks;
    int format;                 /* 0 table, 1 json */
    size_t limit;               /* workspace, bytes; SIZE_MAX: none */
} epick_opts_t;

/* The sweep's scores. */
typedef struct {
    score_t sc[2][4];           /* [libseer, v7][dir 0..2, all] */
    long shapes, no_v7, no_seer;
} epick_t;

static int epick_parse(int argc, char **argv, epick_opts_t *o, int *done)
{
    static const char *const formats[] = {"table", "json", NULL};
    static const struct option opts[] = {CLI_FLAG("help"), CLI_VALUE("model"), CLI_VALUE("gpu"), CLI_VALUE("models"),
                                         CLI_VALUE("data"), CLI_VALUE("picks"), CLI_VALUE("workspace-mb"),
                                         CLI_VALUE("format"), CLI_END};
    const char *ws_s = NULL;
    cli_args_t a;
    cli_args_init(&a, "eval-picker", opts, argc, argv);
    while (cli_next(&a)) {
        if (cli_is(&a, "--help") || cli_is(&a, "-h")) { usage_eval_picker(stdout); *done = 1; return CLI_OK; }
        else if (cli_is(&a, "--model")) { if (!(o->model_opt = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--gpu")) { if (!(o->gpu_opt = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--models")) { if (!(o->models_opt = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--data")) { if (!(o->data = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--picks")) { if (!(o->picks = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--workspace-mb")) { if (!(ws_s = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--format")) { if ((o->format = cli_choice(&a, formats)) < 0) return CLI_USAGE; }
        else return cli_unknown(&a);
    }
    if (!o->data) return cli_usage_error("eval-picker", "option --data is required (layers.csv)");
    if (!o->picks) return cli_usage_error("eval-picker", "option --picks is required (picks.csv)");
    o->limit = SIZE_MAX;
    if (ws_s) {
        char *end;
        double mb = strtod(ws_s, &end);
        if (!*ws_s || *end || !(mb >= 0) || mb > 1e12)
            return cli_usage_error("eval-picker", "option --workspace-mb: expected a size in MiB in [0, 1e12], got '%s'", ws_s);
        o->limit = (size_t)(mb * 1048576.0);
    }
    return CLI_OK;
}

/* One shape, rows L[0..n-1] of the sweep: the fastest measured time of
 * each algorithm, the v7 pick (P from *pj on, sorted alike) and
 * libseer's, scored when both were measured. */
static int score_shape(seer_handle_t h, seer_model_t m, seer_conv_desc_t d, size_t limit, const prow_t *L,
                       size_t n, const prow_t *P, size_t np, size_t *pj, epick_t *E)
{
    double meas[SEER_FWD_ALGO_COUNT];
    int nmeas = 0;
    for (int k = 0; k < SEER_FWD_ALGO_COUNT; k++) meas[k] = -1;
    for (size_t j = 0; j < n; j++) {
        int al = L[j].r.algo;
        if (al >= 0 && al < SEER_FWD_ALGO_COUNT && (meas[al] < 0 || L[j].r.time_ms < meas[al])) {
            nmeas += meas[al] < 0;
            meas[al] = L[j].r.time_ms;
        }
    }
    const seer_conv_row_t *r = &L[0].r;
    if (nmeas < 2) return CLI_OK;
    E->shapes++;
    double fastest = INFINITY;
    for (int k = 0; k < SEER_FWD_ALGO_COUNT; k++) if (meas[k] > 0 && meas[k] < fastest) fastest = meas[k];
    /* cuDNN v7: best-ranked measured */
    while (*pj < np && shape_cmp(&P[*pj].r, r) < 0) (*pj)++;
    double v7 = -1;
    for (size_t q = *pj; q < np && !shape_cmp(&P[q].r, r); q++)
        if (P[q].method == 0 && P[q].r.algo < SEER_FWD_ALGO_COUNT && meas[P[q].r.algo] > 0) {
            v7 = meas[P[q].r.algo];
            break;
        }
    /* libseer */
    seer_status_t st;
    if ((st = cli_desc_as_measured(h, r, d))) return cli_lib_error(h, st);
    seer_conv_algo_perf_t perf[SEER_FWD_ALGO_COUNT];
    int np2 = 0;
    st = cli_pick_algos(h, m, d, r->dir, limit, perf, SEER_FWD_ALGO_COUNT, &np2);
    double mine = -1;
    if (st == SEER_STATUS_SUCCESS)
        for (int q = 0; q < np2 && perf[q].status == SEER_STATUS_SUCCESS; q++)
            if (meas[perf[q].algo] > 0) { mine = meas[perf[q].algo]; break; }
    E->no_v7 += v7 < 0;
    E->no_seer += mine < 0;
    if (v7 < 0 || mine < 0) return CLI_OK;
    score(&E->sc[0][r->dir], mine, fastest);
    score(&E->sc[0][3], mine, fastest);
    score(&E->sc[1][r->dir], v7, fastest);
    score(&E->sc[1][3], v7, fastest);
    return CLI_OK;
}

static void print_epick(const epick_t *E, const seer_model_info_t *mi, int json)
{
    static const char *const who[] = {"libseer", "cudnn_v7"};
    static const char *const grp[] = {"fwd", "bwd_data", "bwd_filter", "all"};
    if (json) {
        printf("{\"gpu\": ");
        cli_json_str(stdout, mi->gpu_id);
        printf(", \"shapes\": %ld, \"without_v7_pick\": %ld, \"without_libseer_pick\": %ld, \"scores\": [",
               E->shapes, E->no_v7, E->no_seer);
    } else {
        cli_print_model_line(mi);
        printf("shapes    %ld with >= 2 measured algorithms; %ld scored (%ld without a measured v7 "
               "pick, %ld without a measured libseer pick)\n\n", E->shapes, E->sc[0][3].shapes, E->no_v7, E->no_seer);
        printf("%-11s %-9s %7s %7s %8s %8s\n", "direction", "picker", "shapes", "wrong", "rate", "regret");
    }
    int first = 1;
    for (int g = 0; g < 4; g++)
        for (int w = 0; w < 2; w++) {
            const score_t *s = &E->sc[w][g];
            if (!s->shapes) continue;
            if (json)
                printf("%s\n  {\"picker\": \"%s\", \"direction\": \"%s\", \"shapes\": %ld, \"wrong\": %ld, "
                       "\"wrong_rate\": %.6g, \"regret\": %.6g}", first ? "" : ",", who[w], grp[g], s->shapes,
                       s->wrong, (double)s->wrong / s->shapes, s->picked / s->fastest);
            else
                printf("%-11s %-9s %7ld %7ld %7.2f%% %8.4f\n", grp[g], who[w], s->shapes, s->wrong,
                       100.0 * s->wrong / s->shapes, s->picked / s->fastest);
            first = 0;
        }
    if (json) printf("]}\n");
}

int seer_cli_eval_picker(int argc, char **argv)
{
    epick_opts_t o;
    epick_t E;
    int done = 0, rc;
    memset(&o, 0, sizeof o);
    memset(&E, 0, sizeof E);
    if ((rc = epick_parse(argc, argv, &o, &done)) || done) return rc;
    seer_handle_t h = NULL;
    seer_model_t m = NULL;
    prow_t *L = NULL, *P = NULL;
    size_t nl = 0, np = 0, pj = 0;
    seer_conv_desc_t d = NULL;
    seer_model_info_t mi;
    seer_status_t st = seer_create(&h);
    if (st) return cli_lib_error(NULL, st);
    if ((rc = cli_open_model(h, "eval-picker", o.model_opt, o.gpu_opt, o.models_opt, &m))) goto out;
    seer_model_get_info(m, &mi);
    if ((rc = read_rows(h, o.data, 0, mi.gpu_id, &L, &nl)) || (rc = read_rows(h, o.picks, 1, mi.gpu_id, &P, &np)))
        goto out;
    if ((st = seer_conv_desc_create(&d))) { rc = cli_lib_error(h, st); goto out; }
    for (size_t i = 0, e; i < nl && !rc; i = e) { /* a shape's rows are adjacent: sorted */
        for (e = i; e < nl && !shape_cmp(&L[e].r, &L[i].r); e++) {}
        rc = score_shape(h, m, d, o.limit, &L[i], e - i, P, np, &pj, &E);
    }
    if (rc) goto out;
    if (!E.sc[0][3].shapes) {
        rc = cli_fail("eval-picker", "no shape could be scored: %ld shapes with >= 2 measured "
                      "algorithms, %ld without a measured v7 pick, %ld without a measured libseer pick",
                      E.shapes, E.no_v7, E.no_seer);
        goto out;
    }
    print_epick(&E, &mi, o.format == 1);
out:
    seer_conv_desc_destroy(d);
    free(L);
    free(P);
    seer_model_destroy(m);
    seer_destroy(h);
    return rc;
}

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
            "per shape (conv timing CSV v1; rows with a non-empty status or no time\n"
            "are skipped), PICKS.csv cuDNN's rankings per shape as seer-bench writes\n"
            "them (the conv shape columns plus source = v7|find, rank, algo, status;\n"
            "rows with a status are skipped).  For every shape of the\n"
            "model's GPU with at least two measured algorithms: a pick is wrong when\n"
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
    int x[] = {a->dir, a->dtype, a->layout, a->n, a->c, a->h, a->w, a->k, a->r, a->s, a->pad_h,
               a->pad_w, a->stride_h, a->stride_w, a->dil_h, a->dil_w, a->groups};
    int y[] = {b->dir, b->dtype, b->layout, b->n, b->c, b->h, b->w, b->k, b->r, b->s, b->pad_h,
               b->pad_w, b->stride_h, b->stride_w, b->dil_h, b->dil_w, b->groups};
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
    if ((st = seer_conv_csv_read(h, path, &cr, &n))) return cli_lib_error(h, st);
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

int seer_cli_eval_picker(int argc, char **argv)
{
    static const char *const formats[] = {"table", "json", NULL};
    cli_args_t a;
    const char *model_opt = NULL, *gpu_opt = NULL, *models_opt = NULL, *data = NULL, *picks = NULL, *ws_s = NULL;
    int format = 0;
    static const struct option opts[] = {CLI_FLAG("help"), CLI_VALUE("model"), CLI_VALUE("gpu"),
                                         CLI_VALUE("models"), CLI_VALUE("data"), CLI_VALUE("picks"),
                                         CLI_VALUE("workspace-mb"), CLI_VALUE("format"), CLI_END};
    cli_args_init(&a, "eval-picker", opts, argc, argv);
    while (cli_next(&a)) {
        if (cli_is(&a, "--help") || cli_is(&a, "-h")) { usage_eval_picker(stdout); return CLI_OK; }
        else if (cli_is(&a, "--model")) { if (!(model_opt = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--gpu")) { if (!(gpu_opt = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--models")) { if (!(models_opt = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--data")) { if (!(data = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--picks")) { if (!(picks = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--workspace-mb")) { if (!(ws_s = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--format")) { if ((format = cli_choice(&a, formats)) < 0) return CLI_USAGE; }
        else return cli_unknown(&a);
    }
    if (!data) return cli_usage_error("eval-picker", "option --data is required (layers.csv)");
    if (!picks) return cli_usage_error("eval-picker", "option --picks is required (picks.csv)");
    size_t limit = SIZE_MAX;
    if (ws_s) {
        char *end;
        double mb = strtod(ws_s, &end);
        if (!*ws_s || *end || !(mb >= 0) || mb > 1e12)
            return cli_usage_error("eval-picker", "option --workspace-mb: expected a size in MiB >= 0, got '%s'", ws_s);
        limit = (size_t)(mb * 1048576.0);
    }
    seer_handle_t h = NULL;
    seer_model_t m = NULL;
    prow_t *L = NULL, *P = NULL;
    size_t nl = 0, np = 0;
    seer_conv_desc_t d = NULL;
    int rc;
    seer_status_t st = seer_create(&h);
    if (st) return cli_lib_error(NULL, st);
    if ((rc = cli_open_model(h, "eval-picker", model_opt, gpu_opt, models_opt, &m))) goto out;
    seer_model_info_t mi;
    seer_model_get_info(m, &mi);
    if ((rc = read_rows(h, data, 0, mi.gpu_id, &L, &nl)) || (rc = read_rows(h, picks, 1, mi.gpu_id, &P, &np)))
        goto out;
    if ((st = seer_conv_desc_create(&d))) { rc = cli_lib_error(h, st); goto out; }

    score_t sc[2][4]; /* [libseer, v7][dir 0..2, all] */
    memset(sc, 0, sizeof sc);
    long shapes = 0, no_v7 = 0, no_seer = 0;
    size_t pj = 0;
    for (size_t i = 0; i < nl;) {
        size_t e = i;
        while (e < nl && !shape_cmp(&L[e].r, &L[i].r)) e++;
        double meas[SEER_FWD_ALGO_COUNT];
        int nmeas = 0;
        for (int k = 0; k < SEER_FWD_ALGO_COUNT; k++) meas[k] = -1;
        for (size_t j = i; j < e; j++) {
            int al = L[j].r.algo;
            if (al >= 0 && al < SEER_FWD_ALGO_COUNT && (meas[al] < 0 || L[j].r.time_ms < meas[al])) {
                nmeas += meas[al] < 0;
                meas[al] = L[j].r.time_ms;
            }
        }
        const seer_conv_row_t *r = &L[i].r;
        i = e;
        if (nmeas < 2) continue;
        shapes++;
        double fastest = INFINITY;
        for (int k = 0; k < SEER_FWD_ALGO_COUNT; k++) if (meas[k] > 0 && meas[k] < fastest) fastest = meas[k];
        /* cuDNN v7: best-ranked measured */
        while (pj < np && shape_cmp(&P[pj].r, r) < 0) pj++;
        double v7 = -1;
        for (size_t q = pj; q < np && !shape_cmp(&P[q].r, r); q++)
            if (P[q].method == 0 && P[q].r.algo < SEER_FWD_ALGO_COUNT && meas[P[q].r.algo] > 0) {
                v7 = meas[P[q].r.algo];
                break;
            }
        /* libseer */
        if ((st = cli_desc_from_row(h, r, d))) { rc = cli_lib_error(h, st); goto out; }
        seer_conv_algo_perf_t perf[SEER_FWD_ALGO_COUNT];
        int np2 = 0;
        seer_status_t (*fn[])(seer_handle_t, const seer_model *, const seer_conv *, size_t,
                              seer_conv_algo_perf_t *, int, int *) = {
            seer_pick_conv_algo, seer_pick_conv_bwd_data_algo, seer_pick_conv_bwd_filter_algo};
        st = fn[r->dir](h, m, d, limit, perf, SEER_FWD_ALGO_COUNT, &np2);
        double mine = -1;
        if (st == SEER_STATUS_SUCCESS)
            for (int q = 0; q < np2 && perf[q].status == SEER_STATUS_SUCCESS; q++)
                if (meas[perf[q].algo] > 0) { mine = meas[perf[q].algo]; break; }
        no_v7 += v7 < 0;
        no_seer += mine < 0;
        if (v7 < 0 || mine < 0) continue;
        score(&sc[0][r->dir], mine, fastest);
        score(&sc[0][3], mine, fastest);
        score(&sc[1][r->dir], v7, fastest);
        score(&sc[1][3], v7, fastest);
    }
    if (!sc[0][3].shapes) {
        rc = cli_fail("eval-picker", "no shape could be scored: %ld shapes with >= 2 measured "
                      "algorithms, %ld without a measured v7 pick, %ld without a measured libseer pick",
                      shapes, no_v7, no_seer);
        goto out;
    }
    static const char *const who[] = {"libseer", "cudnn_v7"};
    static const char *const grp[] = {"fwd", "bwd_data", "bwd_filter", "all"};
    if (format == 1) {
        printf("{\"gpu\": ");
        cli_json_str(stdout, mi.gpu_id);
        printf(", \"shapes\": %ld, \"without_v7_pick\": %ld, \"without_libseer_pick\": %ld, \"scores\": [",
               shapes, no_v7, no_seer);
        int first = 1;
        for (int g = 0; g < 4; g++)
            for (int w = 0; w < 2; w++) {
                const score_t *s = &sc[w][g];
                if (!s->shapes) continue;
                printf("%s\n  {\"picker\": \"%s\", \"direction\": \"%s\", \"shapes\": %ld, \"wrong\": %ld, "
                       "\"wrong_rate\": %.6g, \"regret\": %.6g}", first ? "" : ",", who[w], grp[g], s->shapes,
                       s->wrong, (double)s->wrong / s->shapes, s->picked / s->fastest);
                first = 0;
            }
        printf("]}\n");
    } else {
        printf("model     %s (%s%s)\n", mi.gpu_id, mi.transferred ? "transferred from " : "calibrated", mi.transferred ? mi.source_gpus : "");
        printf("shapes    %ld with >= 2 measured algorithms; %ld scored (%ld without a measured v7 "
               "pick, %ld without a measured libseer pick)\n\n", shapes, sc[0][3].shapes, no_v7, no_seer);
        printf("%-11s %-9s %7s %7s %8s %8s\n", "direction", "picker", "shapes", "wrong", "rate", "regret");
        for (int g = 0; g < 4; g++)
            for (int w = 0; w < 2; w++) {
                const score_t *s = &sc[w][g];
                if (!s->shapes) continue;
                printf("%-11s %-9s %7ld %7ld %7.2f%% %8.4f\n", grp[g], who[w], s->shapes, s->wrong,
                       100.0 * s->wrong / s->shapes, s->picked / s->fastest);
            }
    }
    rc = CLI_OK;
out:
    seer_conv_desc_destroy(d);
    free(L);
    free(P);
    seer_model_destroy(m);
    seer_destroy(h);
    return rc;
}

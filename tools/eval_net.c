/* seer eval-net: predicted network iterations against measured ones. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "cli.h"
#include "net.h"

/* ------------------------------------------------------------------ */
/* seer eval-net                                                       */
/* ------------------------------------------------------------------ */

static void usage_eval_net(FILE *f)
{
    fprintf(f,
            "usage: seer eval-net (--model FILE | [--models DIR]) --data CSV [--algo A]\n"
            "                     [--format table|json]\n"
            "\n"
            "Compare predicted network times with measured ones.  CSV columns:\n"
            "network,gpu,dtype,batch,mode,measured_ms, and optionally res (input\n"
            "resolution), layout, amp (0 or 1: seer net --amp), optimizer (sgd, adam,\n"
            "none: seer net --optimizer; train rows only) and dispatch_us (seer net\n"
            "--dispatch-us); an empty field takes seer net's default (amp: nhwc).\n"
            "network: a built-in name, a description file or an ONNX model (.onnx);\n"
            "mode: infer or train; measured_ms: one forward pass or training iteration.\n"
            "With --model only rows of the model's GPU are scored; otherwise each row\n"
            "uses DIR/<gpu>.seer.  Prints each row's error, then MAPE per network.\n");
}

typedef struct {
    char network[256], gpu[32];
    seer_dtype_t dtype;
    seer_layout_t layout;
    int batch, mode, res, amp;
    seer_optimizer_t optimizer;
    double dispatch_us, meas, pred;
    long line;
} netrow_t;

/* Optional columns, after the six required ones. */
enum { COL_RES = 6, COL_LAYOUT, COL_AMP, COL_OPTIMIZER, COL_DISPATCH, NCOL };

/* One run: the options, the models opened, the rows read. */
typedef struct {
    const char *model_opt, *models_opt, *data;
    int format, policy;         /* format: 0 table, 1 json */
    seer_handle_t h;
    seer_model_t fixed;         /* --model, else NULL: each row's GPU's model */
    seer_model_info_t fixed_info;
    struct { char gpu[32]; seer_model_t m; } models[32];
    int nmodels;
    netrow_t *rows;
    size_t n, cap;
    long skipped;               /* rows of other GPUs than --model's */
} enet_t;

/* CLI_OK with *done set after --help, else the exit code of a usage error. */
static int enet_parse(int argc, char **argv, enet_t *E, int *done)
{
    static const char *const formats[] = {"table", "json", NULL};
    static const struct option opts[] = {CLI_FLAG("help"), CLI_VALUE("model"), CLI_VALUE("models"),
                                         CLI_VALUE("data"), CLI_VALUE("format"), CLI_VALUE("algo"), CLI_END};
    cli_args_t a;
    cli_args_init(&a, "eval-net", opts, argc, argv);
    while (cli_next(&a)) {
        if (cli_is(&a, "--help") || cli_is(&a, "-h")) { usage_eval_net(stdout); *done = 1; return CLI_OK; }
        else if (cli_is(&a, "--model")) { if (!(E->model_opt = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--models")) { if (!(E->models_opt = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--data")) { if (!(E->data = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--format")) { if ((E->format = cli_choice(&a, formats)) < 0) return CLI_USAGE; }
        else if (cli_is(&a, "--algo")) {
            const char *v = cli_value(&a);
            if (!v || !cli_parse_policy("eval-net", v, &E->policy)) return CLI_USAGE;
        } else return cli_unknown(&a);
    }
    if (!E->data) return cli_usage_error("eval-net", "option --data is required");
    return CLI_OK;
}

/* The current record into *r; col: the required columns, then the
 * optional ones (-1 when absent; an empty field takes seer net's
 * default).  CLI_OK or the exit code (said). */
static int read_netrow(enet_t *E, seer_csv_t *c, const int col[NCOL], netrow_t *r)
{
    seer_status_t st;
    memset(r, 0, sizeof *r);
    r->line = seer_csv_line(c);
    snprintf(r->network, sizeof r->network, "%s", seer_csv_field(c, col[0]));
    snprintf(r->gpu, sizeof r->gpu, "%s", seer_csv_field(c, col[1]));
    const char *mode = seer_csv_field(c, col[4]);
    if (seer_dtype_from_name(seer_csv_field(c, col[2]), &r->dtype))
        return cli_fail("eval-net", "%s:%ld: column 'dtype': unknown dtype '%s'", E->data, r->line,
                        seer_csv_field(c, col[2]));
    if (strcmp(mode, "infer") && strcmp(mode, "train"))
        return cli_fail("eval-net", "%s:%ld: column 'mode': expected infer or train, got '%s'", E->data, r->line,
                        mode);
    r->mode = mode[0] == 't';
    int layout_given = col[COL_LAYOUT] >= 0 && *seer_csv_field(c, col[COL_LAYOUT]);
    r->layout = SEER_LAYOUT_NCHW;
    if (layout_given && seer_layout_from_name(seer_csv_field(c, col[COL_LAYOUT]), &r->layout))
        return cli_fail("eval-net", "%s:%ld: column 'layout': unknown layout", E->data, r->line);
    r->optimizer = SEER_OPTIMIZER_SGD;
    const char *opt = col[COL_OPTIMIZER] >= 0 ? seer_csv_field(c, col[COL_OPTIMIZER]) : "";
    if (*opt) {
        int k = 0;
        while (cli_optimizers[k] && strcasecmp(opt, cli_optimizers[k])) k++;
        if (!cli_optimizers[k])
            return cli_fail("eval-net", "%s:%ld: column 'optimizer': expected sgd, adam or none, got '%s'", E->data,
                            r->line, opt);
        r->optimizer = (seer_optimizer_t)k;
    }
#define HAS(i) (col[i] >= 0 && *seer_csv_field(c, col[i]))
    if ((st = seer_csv_int(E->h, c, col[3], "batch", 1, 1 << 24, &r->batch)) ||
        (st = seer_csv_dbl(E->h, c, col[5], "measured_ms", &r->meas)) ||
        (HAS(COL_RES) && (st = seer_csv_int(E->h, c, col[COL_RES], "res", 1, 1 << 24, &r->res))) ||
        (HAS(COL_AMP) && (st = seer_csv_flag(E->h, c, col[COL_AMP], "amp", &r->amp))) ||
        (HAS(COL_DISPATCH) && (st = seer_csv_dbl(E->h, c, col[COL_DISPATCH], "dispatch_us", &r->dispatch_us))))
        return cli_lib_error(E->h, st);
#undef HAS
    if (!(r->meas >= SEER_MIN_TIME_MS && r->meas <= SEER_MAX_TIME_MS))
        return cli_fail("eval-net", "%s:%ld: column 'measured_ms' must be in [%g, %g]", E->data, r->line,
                        SEER_MIN_TIME_MS, SEER_MAX_TIME_MS);
    /* as seer net --amp: fp16 or bf16 compute, channels-last unless told */
    if (r->amp && r->dtype != SEER_DTYPE_FP16 && r->dtype != SEER_DTYPE_BF16)
        return cli_fail("eval-net", "%s:%ld: column 'amp': mixed precision computes in fp16 or bf16, not %s",
                        E->data, r->line, seer_dtype_name(r->dtype));
    if (r->amp && !layout_given) r->layout = SEER_LAYOUT_NHWC;
    if (!(r->dispatch_us >= 0 && r->dispatch_us <= SEER_NET_DISPATCH_MAX_MS * 1e3))
        return cli_fail("eval-net", "%s:%ld: column 'dispatch_us' must be in 0..%g", E->data, r->line,
                        SEER_NET_DISPATCH_MAX_MS * 1e3);
    return CLI_OK;
}

/* Every row of --data (of --model's GPU with --model). */
static int read_netrows(enet_t *E)
{
    static const char *const req[] = {"network", "gpu", "dtype", "batch", "mode", "measured_ms"};
    seer_csv_t *c = NULL;
    seer_status_t st;
    int col[NCOL], rc = CLI_OK;
    if ((st = seer_csv_open_file(E->h, E->data, &c))) return cli_lib_error(E->h, st);
    for (int i = 0; i < 6 && !rc; i++)
        if ((col[i] = seer_csv_col(c, req[i])) < 0)
            rc = cli_fail("eval-net", "%s: missing column '%s' (need network,gpu,dtype,batch,mode,measured_ms)",
                          E->data, req[i]);
    col[COL_RES] = seer_csv_col(c, "res");
    col[COL_LAYOUT] = seer_csv_col(c, "layout");
    col[COL_AMP] = seer_csv_col(c, "amp");
    col[COL_OPTIMIZER] = seer_csv_col(c, "optimizer");
    col[COL_DISPATCH] = seer_csv_col(c, "dispatch_us");
    while (!rc) {
        int eof = 0;
        if ((st = seer_csv_next(E->h, c, &eof))) { rc = cli_lib_error(E->h, st); break; }
        if (eof) break;
        if (E->n == E->cap) {
            netrow_t *nr = realloc(E->rows, (E->cap = E->cap ? 2 * E->cap : 64) * sizeof *nr);
            if (!nr) { rc = cli_fail("eval-net", "out of memory"); break; }
            E->rows = nr;
        }
        netrow_t *r = &E->rows[E->n];
        if ((rc = read_netrow(E, c, col, r))) break;
        if (E->fixed && !cli_same_gpu(r->gpu, E->fixed_info.gpu_id)) { E->skipped++; continue; }
        E->n++;
    }
    seer_csv_close(c);
    return rc;
}

/* The model of a row: --model's, else its GPU's (opened once). */
static int model_for(enet_t *E, const netrow_t *r, seer_model_t *m)
{
    int rc;
    if ((*m = E->fixed)) return CLI_OK;
    for (int j = 0; j < E->nmodels; j++)
        if (cli_same_gpu(E->models[j].gpu, r->gpu)) { *m = E->models[j].m; return CLI_OK; }
    if (E->nmodels == 32) return cli_fail("eval-net", "more than 32 GPUs");
    /* a row's GPU is data: unknown, it is the file's error (1), not a
     * usage error naming an option no one gave */
    if (!cli_gpu_is_file(r->gpu) && !cli_gpu_known(E->h, r->gpu))
        return cli_fail("eval-net", "%s:%ld: unknown GPU '%s' (seer gpus lists them)", E->data, r->line, r->gpu);
    if ((rc = cli_open_model(E->h, "eval-net", NULL, r->gpu, E->models_opt, m))) {
        fprintf(stderr, "seer eval-net: (row at %s:%ld)\n", E->data, r->line);
        return rc;
    }
    snprintf(E->models[E->nmodels].gpu, sizeof E->models[E->nmodels].gpu, "%s", r->gpu);
    E->models[E->nmodels++].m = *m;
    return CLI_OK;
}

/* Every row predicted, before anything is printed. */
static int predict_netrows(enet_t *E)
{
    int rc;
    for (size_t i = 0; i < E->n; i++) {
        netrow_t *r = &E->rows[i];
        seer_model_t m;
        seer_network_t net = NULL;
        if ((rc = model_for(E, r, &m))) return rc;
        if ((rc = cli_open_net(E->h, "eval-net", r->network, r->res, &net))) {
            fprintf(stderr, "seer eval-net: (row at %s:%ld)\n", E->data, r->line);
            return rc;
        }
        /* as seer net predicts it: a training iteration ends with the
         * optimizer's step (SGD, seer net's default), which a measured
         * iteration holds too */
        seer_net_options_t o = SEER_NET_OPTIONS_DEFAULT;
        seer_net_totals_t tot;
        o.batch = r->batch;
        o.dtype = r->dtype;
        o.layout = r->layout;
        o.mode = (seer_mode_t)r->mode;
        o.algo_policy = E->policy;
        o.threads = 8;
        o.amp = r->amp;
        o.optimizer = r->mode ? r->optimizer : SEER_OPTIMIZER_NONE;
        o.dispatch_ms = r->dispatch_us * 1e-3;
        seer_status_t st = seer_predict_network_opts(E->h, m, net, &o, NULL, 0, &tot);
        r->pred = tot.total_ms;
        seer_network_destroy(net);
        if (st) {
            fprintf(stderr, "seer eval-net: %s:%ld: %s: %s\n", E->data, r->line, seer_status_string(st),
                    seer_get_last_error(E->h));
            return CLI_FAIL;
        }
    }
    return CLI_OK;
}

/* The width of the network and gpu columns: the longest name, at least
 * the header's, so that a path (tests/onnx/resnet18.onnx) prints whole. */
static void name_widths(const enet_t *E, int *wnet, int *wgpu)
{
    size_t wn = strlen("network"), wg = strlen("gpu");
    for (size_t i = 0; i < E->n; i++) {
        size_t a = strlen(E->rows[i].network), b = strlen(E->rows[i].gpu);
        if (a > wn) wn = a;
        if (b > wg) wg = b;
    }
    *wnet = (int)wn; /* both bounded by netrow_t's arrays */
    *wgpu = (int)wg;
}

/* Each row's error. */
static void print_netrows(const enet_t *E)
{
    int json = E->format == 1, wn, wg;
    name_widths(E, &wn, &wg);
    if (json) printf("{\"rows\": [");
    else printf("%-*s %-*s %-6s %5s %-5s %12s %12s %8s\n", wn, "network", wg, "gpu", "dtype", "batch", "mode",
                "measured_ms", "pred_ms", "error");
    for (size_t i = 0; i < E->n; i++) {
        const netrow_t *r = &E->rows[i];
        double e = (r->pred - r->meas) / r->meas;
        if (json) {
            printf("%s\n  {\"line\": %ld, \"network\": ", i ? "," : "", r->line);
            cli_json_str(stdout, r->network);
            cli_json_str_field("gpu", r->gpu);
            printf(", \"dtype\": \"%s\", \"batch\": %d, \"mode\": \"%s\"", seer_dtype_name(r->dtype), r->batch,
                   r->mode ? "train" : "infer");
            cli_json_num_field("measured_ms", r->meas);
            cli_json_num_field("pred_ms", r->pred);
            cli_json_num_field("error", e);
            printf("}");
        } else {
            printf("%-*s %-*s %-6s %5d %-5s %12.3f %12.3f %+7.1f%%\n", wn, r->network, wg, r->gpu,
                   seer_dtype_name(r->dtype), r->batch, r->mode ? "train" : "infer", r->meas, r->pred, 100 * e);
        }
    }
}

/* MAPE and RMSPE per network (in order of first appearance), then of all. */
static void print_networks(const enet_t *E)
{
    const netrow_t *rows = E->rows;
    size_t n = E->n;
    int json = E->format == 1, first = 1, wn, wg;
    name_widths(E, &wn, &wg);
    double s_all = 0, s2_all = 0;
    if (json) printf("],\n \"networks\": [");
    else printf("\n%-*s %5s %8s %8s\n", wn, "network", "rows", "MAPE", "RMSPE");
    for (size_t i = 0; i < n; i++) {
        double e = (rows[i].pred - rows[i].meas) / rows[i].meas;
        s_all += fabs(e);
        s2_all += e * e;
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++) seen = !strcmp(rows[j].network, rows[i].network);
        if (seen) continue;
        double s = 0, s2 = 0;
        int k = 0;
        for (size_t j = i; j < n; j++)
            if (!strcmp(rows[j].network, rows[i].network)) {
                double ej = (rows[j].pred - rows[j].meas) / rows[j].meas;
                s += fabs(ej);
                s2 += ej * ej;
                k++;
            }
        if (json) {
            printf("%s\n  {\"network\": ", first ? "" : ",");
            cli_json_str(stdout, rows[i].network);
            printf(", \"rows\": %d, \"mape\": %.6g, \"rmspe\": %.6g}", k, s / k, sqrt(s2 / k));
        } else {
            printf("%-*s %5d %7.1f%% %7.1f%%\n", wn, rows[i].network, k, 100 * s / k, 100 * sqrt(s2 / k));
        }
        first = 0;
    }
    if (json) printf("],\n \"all\": {\"rows\": %zu, \"mape\": %.6g, \"rmspe\": %.6g}}\n", n, s_all / n, sqrt(s2_all / n));
    else printf("%-*s %5zu %7.1f%% %7.1f%%\n", wn, "all", n, 100 * s_all / n, 100 * sqrt(s2_all / n));
}

int seer_cli_eval_net(int argc, char **argv)
{
    enet_t E;
    int done = 0, rc;
    memset(&E, 0, sizeof E);
    E.policy = SEER_ALGO_AUTO;
    if ((rc = enet_parse(argc, argv, &E, &done)) || done) return rc;
    seer_status_t st = seer_create(&E.h);
    if (st) return cli_lib_error(NULL, st);
    if (E.model_opt && !(rc = cli_open_model(E.h, "eval-net", E.model_opt, NULL, NULL, &E.fixed)))
        seer_model_get_info(E.fixed, &E.fixed_info);
    if (!rc && !(rc = read_netrows(&E)) && !(rc = predict_netrows(&E))) {
        if (!E.n) {
            rc = cli_fail("eval-net", "%s: no rows to score%s", E.data, E.skipped ? " (none of the model's GPU)" : "");
        } else {
            print_netrows(&E);
            print_networks(&E);
            if (E.skipped)
                fprintf(stderr, "seer eval-net: %ld rows of other GPUs than %s skipped\n", E.skipped,
                        E.fixed_info.gpu_id);
        }
    }
    free(E.rows);
    for (int j = 0; j < E.nmodels; j++) seer_model_destroy(E.models[j].m);
    seer_model_destroy(E.fixed);
    seer_destroy(E.h);
    return rc;
}

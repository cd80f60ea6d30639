/* seer net: a whole network's inference or training iteration from the
 * command line (docs/networks.md), and the network opening the other
 * network commands share.  Everything is predicted before anything is
 * printed: an error never leaves half a table behind. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "net.h"

/* ------------------------------------------------------------------ */
/* Shared pieces                                                       */
/* ------------------------------------------------------------------ */

static int zoo_has(const char *name)
{
    for (int i = 0; seer_network_zoo_name(i); i++)
        if (!strcasecmp(name, seer_network_zoo_name(i))) return 1;
    return 0;
}

static void zoo_list(char *buf, size_t size)
{
    buf[0] = 0;
    for (int i = 0; seer_network_zoo_name(i); i++) {
        strncat(buf, i ? ", " : "", size - strlen(buf) - 1);
        strncat(buf, seer_network_zoo_name(i), size - strlen(buf) - 1);
    }
}

/* A built-in network by name, else a description file.  Prints the
 * error and returns CLI_FAIL / CLI_USAGE on failure. */
int cli_open_net(seer_handle_t h, const char *cmd, const char *what, int res, seer_network_t *net)
{
    seer_status_t st;
    if (zoo_has(what)) {
        if ((st = seer_network_create_zoo(h, what, res, net))) return cli_lib_error(h, st);
        return CLI_OK;
    }
    size_t len;
    char *text = NULL;
    if (access(what, F_OK) != 0 && errno == ENOENT) {
        char known[256];
        zoo_list(known, sizeof known);
        return cli_fail(cmd, "'%s' is neither a built-in network (%s) nor a file", what, known);
    }
    if ((st = seer_read_input_file(h, what, "network description", SEER_NET_TEXT_MAX_BYTES, &text, &len)))
        return cli_lib_error(h, st);
    if (res) {
        free(text);
        return cli_usage_error(cmd, "option --res applies to built-in networks only (a file sets "
                               "its own input size)");
    }
    st = seer_network_create(h, text, len, net);
    free(text);
    if (st) {
        fprintf(stderr, "seer %s: %s: %s: %s\n", cmd, what, seer_status_string(st), seer_get_last_error(h));
        return CLI_FAIL;
    }
    return CLI_OK;
}

/* ---- ONNX files (docs/networks.md: ONNX import) ------------------- */

static int is_onnx(const char *path)
{
    size_t n = strlen(path);
    return n > 5 && !strcasecmp(path + n - 5, ".onnx");
}

/* The description an ONNX file translates to (malloc'ed); the nodes it
 * skipped are listed on stderr.  Prints the error and returns CLI_FAIL. */
static int onnx_text(seer_handle_t h, const char *cmd, const char *path, int res, int skip, char **text,
                     seer_onnx_info_t *info)
{
    size_t len, tlen;
    char *bytes = NULL;
    seer_status_t st = seer_read_input_file(h, path, "ONNX model", SEER_ONNX_MAX_BYTES, &bytes, &len);
    if (st) return cli_lib_error(h, st);
    seer_onnx_options_t o = SEER_ONNX_OPTIONS_DEFAULT;
    o.resolution = res;
    o.skip_unsupported = skip;
    /* 1 MiB holds the description of any real CNN: one translation, a
     * second only when it does not fit */
    size_t cap = (size_t)1 << 20;
    if (!(*text = malloc(cap))) { free(bytes); return cli_fail(cmd, "out of memory"); }
    st = seer_onnx_text(h, bytes, len, &o, *text, cap, &tlen, info);
    if (st == SEER_STATUS_BUFFER_TOO_SMALL) {
        char *nt = realloc(*text, tlen + 1);
        if (!nt) { free(*text); free(bytes); return cli_fail(cmd, "out of memory"); }
        *text = nt;
        st = seer_onnx_text(h, bytes, len, &o, *text, tlen + 1, &tlen, info);
    }
    if (st) free(*text);
    free(bytes);
    if (st) {
        fprintf(stderr, "seer %s: %s: %s: %s\n", cmd, path, seer_status_string(st), seer_get_last_error(h));
        return CLI_FAIL;
    }
    if (info->n_skipped) {
        fprintf(stderr, "seer %s: %s: skipped %d unsupported node%s (predicted without them):\n", cmd, path,
                info->n_skipped, info->n_skipped == 1 ? "" : "s");
        for (const char *l = *text; (l = strstr(l, "# skipped: ")); l++) {
            const char *e = strchr(l, '\n');
            fprintf(stderr, "  %.*s\n", (int)(e ? e - l - 11 : (long)strlen(l + 11)), l + 11);
        }
    }
    return CLI_OK;
}

static int open_onnx(seer_handle_t h, const char *cmd, const char *path, int res, int skip, seer_network_t *net,
                     int *batch)
{
    char *text;
    seer_onnx_info_t info;
    int rc = onnx_text(h, cmd, path, res, skip, &text, &info);
    if (rc) return rc;
    seer_status_t st = seer_network_create(h, text, strlen(text), net);
    free(text);
    if (st) {
        fprintf(stderr, "seer %s: %s: %s: %s\n", cmd, path, seer_status_string(st), seer_get_last_error(h));
        return CLI_FAIL;
    }
    *batch = info.batch;
    return CLI_OK;
}

/* --algo: auto, cudnn, fixed (= 0) or an index 0..7. */
int cli_parse_policy(const char *cmd, const char *s, int *policy)
{
    char *end;
    if (!strcmp(s, "auto")) { *policy = SEER_ALGO_AUTO; return 1; }
    if (!strcmp(s, "cudnn")) { *policy = SEER_ALGO_CUDNN_CHOICE; return 1; }
    if (!strcmp(s, "fixed")) { *policy = 0; return 1; }
    long v = strtol(s, &end, 10);
    if (*s && !*end && v >= 0 && v < SEER_FWD_ALGO_COUNT) { *policy = (int)v; return 1; }
    cli_usage_error(cmd, "option --algo: expected auto, cudnn, fixed or an algorithm index 0..%d, "
                    "got '%s'", SEER_FWD_ALGO_COUNT - 1, s);
    return 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------------ */
/* seer net                                                            */
/* ------------------------------------------------------------------ */

static void usage_net(FILE *f)
{
    fprintf(f,
            "usage: seer net NAME|FILE|MODEL.onnx (--gpu GPU [--models DIR] | --model FILE)\n"
            "                [--batch N] [--dtype T] [--layout L] [--mode infer|train]\n"
            "                [--algo auto|cudnn|fixed|INDEX] [--res PIXELS]\n"
            "                [--format table|csv|json] [--sort time|order] [--top N]\n"
            "                [--rows] [--bench N] [--print] [--threads N] [--dispatch-us US]\n"
            "                [--optimizer sgd|adam|none] [--amp] [--skip-unsupported]\n"
            "                [--fit [BYTES]]\n"
            "\n"
            "Predict one forward pass (infer) or one training iteration (train:\n"
            "forward, backward-data, backward-filter and the other layers' backward\n"
            "kernels) of a CNN, layer by layer.  NAME is a built-in network\n"
            "(alexnet, vgg16, resnet18, resnet50, resnet101, inception_v3,\n"
            "mobilenet_v2, densenet121); FILE a description (docs/networks.md);\n"
            "MODEL.onnx an ONNX model, translated into such a description.\n"
            "\n"
            "  --batch N      samples per iteration (default: an ONNX graph's fixed batch, else 64)\n"
            "  --dtype T      fp32 (default), tf32, fp16, bf16, fp16_pseudo\n"
            "  --layout L     nchw (default), nhwc\n"
            "  --mode M       infer (default) or train\n"
            "  --algo A       auto (default): the fastest predicted algorithm per conv and\n"
            "                 direction; cudnn: the model's cuDNN-heuristic family;\n"
            "                 INDEX 0..7 (fixed = 0): that cuDNN algorithm in every\n"
            "                 direction, the fastest where it cannot be used\n"
            "  --res PIXELS   input resolution of a built-in network or an ONNX model\n"
            "                 (default: its own)\n"
            "  --sort S       time (default): the layers that dominate first; order:\n"
            "                 execution order\n"
            "  --top N        table lines to show (default 25; 0: all); csv/json list all\n"
            "  --rows         table of (layer, direction) rows instead of whole layers\n"
            "  --bench N      time N predictions and print the median, not the table\n"
            "  --print        print the network's description and exit\n"
            "  --threads N    threads for the conv predictions (1-8, default 8)\n"
            "  --dispatch-us US  host time to issue one row's work (default 0: GPU time\n"
            "                 alone); what a slower host adds is its own line\n"
            "                 (docs/networks.md, \"GPU time and host dispatch\")\n"
            "  --optimizer O  train: the step after the backward pass: sgd (default,\n"
            "                 with momentum), adam, none\n"
            "  --amp          mixed precision as torch.autocast + GradScaler run it:\n"
            "                 --dtype fp16 (default) or bf16 compute, channels-last\n"
            "                 (default --layout nhwc), fp32 weights, gradients and\n"
            "                 optimizer, plus the weight casts and loss-scale unscale\n"
            "  --skip-unsupported  ONNX: predict without the operators libseer cannot\n"
            "                 translate, listing them (default: fail, naming them)\n"
            "  --fit [BYTES]  the largest batch whose peak memory fits BYTES (a number,\n"
            "                 optionally with B, KB, MB, GB, KiB, MiB, GiB; default: the\n"
            "                 GPU's memory)\n"
            "Table marks: B backward estimated from forward (the model has no backward\n"
            "data), M memory-bound estimate, R fc from the roofline (no GEMM fit),\n"
            "X fixed algorithm not usable here, G gradient sum of a reused tensor,\n"
            "A analytical model (no GPU has data for these kernels).\n");
}

static void flag_str(unsigned f, char *b)
{
    int n = 0;
    if (f & SEER_RESULT_BWD_FROM_FWD) b[n++] = 'B';
    if (f & SEER_RESULT_MEMORY_BOUND) b[n++] = 'M';
    if (f & SEER_RESULT_GEMM_ROOFLINE) b[n++] = 'R';
    if (f & SEER_RESULT_ALGO_REPLACED) b[n++] = 'X';
    if (f & SEER_RESULT_GRAD_ACCUM) b[n++] = 'G';
    if (f & SEER_RESULT_ANALYTICAL) b[n++] = 'A';
    if (f & SEER_RESULT_AMP_CAST) b[n++] = 'C';
    b[n] = 0;
}

static const char *algo_str(const seer_layer_result_t *r)
{
    return r->algo == SEER_ALGO_NA ? "-" : seer_algo_name(r->direction, r->algo);
}

static const seer_layer_result_t *g_rows;
static int by_time_desc(const void *x, const void *y)
{
    int a = *(const int *)x, b = *(const int *)y;
    if (g_rows[a].time_ms != g_rows[b].time_ms) return g_rows[a].time_ms > g_rows[b].time_ms ? -1 : 1;
    return a - b;
}

typedef struct {
    char key[40];
    int rows;
    double ms;
} group_t;

static int group_add(group_t *g, int *ng, const char *key, double ms)
{
    for (int i = 0; i < *ng; i++)
        if (!strcmp(g[i].key, key)) { g[i].rows++; g[i].ms += ms; return i; }
    snprintf(g[*ng].key, sizeof g[*ng].key, "%s", key);
    g[*ng].rows = 1;
    g[*ng].ms = ms;
    return (*ng)++;
}

static int by_group_ms(const void *x, const void *y)
{
    const group_t *a = x, *b = y;
    if (a->ms != b->ms) return a->ms > b->ms ? -1 : 1;
    return strcmp(a->key, b->key);
}

static void op_key(const seer_layer_result_t *r, char *key, size_t size)
{
    if (r->flags & SEER_RESULT_GRAD_ACCUM) snprintf(key, size, "gradient sums");
    else if (r->flags & SEER_RESULT_AMP_CAST) snprintf(key, size, "amp casts");
    else if (r->op == SEER_OP_OPTIMIZER) snprintf(key, size, "%s", seer_op_name(r->op));
    else if (r->op == SEER_OP_CONV || r->op == SEER_OP_FC)
        snprintf(key, size, "%s %s", seer_op_name(r->op), seer_direction_name(r->direction));
    else snprintf(key, size, "%s %s", seer_op_name(r->op), r->direction == SEER_DIR_FWD ? "fwd" : "bwd");
}

static void print_mib(const char *label, double b)
{
    printf("%s %.1f %s", label, b >= 1073741824.0 ? b / 1073741824.0 : b / 1048576.0,
           b >= 1073741824.0 ? "GiB" : "MiB");
}

int seer_cli_net(int argc, char **argv)
{
    static const char *const modes[] = {"infer", "train", NULL};
    static const char *const formats[] = {"table", "csv", "json", NULL};
    static const char *const sorts[] = {"time", "order", NULL};
    static const char *const optimizers[] = {"none", "sgd", "adam", NULL}; /* seer_optimizer_t order */
    cli_args_t a;
    const char *what = NULL, *model_opt = NULL, *gpu_opt = NULL, *models_opt = NULL;
    const char *dtype_s = NULL, *layout_s = NULL; /* defaults: fp32 nchw, or fp16 nhwc with --amp */
    int batch = 64, mode = 0, format = 0, sort = 0, top = 25, res = 0, bench = 0, print = 0, rows_view = 0;
    int batch_given = 0, skip = 0, amp = 0;
    int policy = SEER_ALGO_AUTO, threads = 8, optimizer = SEER_OPTIMIZER_SGD;
    double dispatch_us = 0, fit_bytes = 0;
    int fit = 0;
    static const struct option opts[] = {CLI_FLAG("help"), CLI_FLAG("amp"), CLI_FLAG("skip-unsupported"),
                                         CLI_FLAG("print"), CLI_FLAG("rows"), CLI_FLAG("fit"),
                                         CLI_VALUE("model"), CLI_VALUE("gpu"), CLI_VALUE("models"),
                                         CLI_VALUE("batch"), CLI_VALUE("dtype"), CLI_VALUE("layout"),
                                         CLI_VALUE("mode"), CLI_VALUE("format"), CLI_VALUE("sort"),
                                         CLI_VALUE("top"), CLI_VALUE("res"), CLI_VALUE("bench"),
                                         CLI_VALUE("threads"), CLI_VALUE("optimizer"),
                                         CLI_VALUE("dispatch-us"), CLI_VALUE("algo"), CLI_END};
    cli_args_init(&a, "net", opts, argc, argv);
    while (cli_next(&a)) {
        if (cli_is(&a, "--help") || cli_is(&a, "-h")) { usage_net(stdout); return CLI_OK; }
        else if (a.pos && !what) what = a.pos;
        else if (cli_is(&a, "--model")) { if (!(model_opt = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--gpu")) { if (!(gpu_opt = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--models")) { if (!(models_opt = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--batch")) { if (!cli_int(&a, 1, 1 << 24, &batch)) return CLI_USAGE; batch_given = 1; }
        else if (cli_is(&a, "--amp")) { if (!cli_flag(&a)) return CLI_USAGE; amp = 1; }
        else if (cli_is(&a, "--skip-unsupported")) { if (!cli_flag(&a)) return CLI_USAGE; skip = 1; }
        else if (cli_is(&a, "--dtype")) { if (!(dtype_s = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--layout")) { if (!(layout_s = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--mode")) { if ((mode = cli_choice(&a, modes)) < 0) return CLI_USAGE; }
        else if (cli_is(&a, "--format")) { if ((format = cli_choice(&a, formats)) < 0) return CLI_USAGE; }
        else if (cli_is(&a, "--sort")) { if ((sort = cli_choice(&a, sorts)) < 0) return CLI_USAGE; }
        else if (cli_is(&a, "--top")) { if (!cli_int(&a, 0, INT_MAX, &top)) return CLI_USAGE; }
        else if (cli_is(&a, "--res")) { if (!cli_int(&a, 1, 1 << 24, &res)) return CLI_USAGE; }
        else if (cli_is(&a, "--bench")) { if (!cli_int(&a, 1, 1000000, &bench)) return CLI_USAGE; }
        else if (cli_is(&a, "--print")) { if (!cli_flag(&a)) return CLI_USAGE; print = 1; }
        else if (cli_is(&a, "--rows")) { if (!cli_flag(&a)) return CLI_USAGE; rows_view = 1; }
        else if (cli_is(&a, "--threads")) { if (!cli_int(&a, 1, 8, &threads)) return CLI_USAGE; }
        else if (cli_is(&a, "--optimizer")) { if ((optimizer = cli_choice(&a, optimizers)) < 0) return CLI_USAGE; }
        else if (cli_is(&a, "--fit")) { if (!cli_opt_bytes(&a, &fit_bytes)) return CLI_USAGE; fit = 1; }
        else if (cli_is(&a, "--dispatch-us")) { if (!cli_double(&a, 0, 1e6, &dispatch_us)) return CLI_USAGE; }
        else if (cli_is(&a, "--algo")) {
            const char *v = cli_value(&a);
            if (!v || !cli_parse_policy("net", v, &policy)) return CLI_USAGE;
        } else return cli_unknown(&a);
    }
    if (!what) return cli_usage_error("net", "a network name or file is required (seer net NAME|FILE)");
    if (fit && (format == 1 || bench))
        return cli_usage_error("net", "option --fit: its answer is in the table and JSON, not with %s",
                               bench ? "--bench" : "--format csv");
    seer_dtype_t dtype;
    seer_layout_t layout;
    if (!dtype_s) dtype_s = amp ? "fp16" : "fp32";
    if (!layout_s) layout_s = amp ? "nhwc" : "nchw"; /* AMP runs channels-last */
    if (amp && strcmp(dtype_s, "fp16") && strcmp(dtype_s, "bf16"))
        return cli_usage_error("net", "option --amp computes in fp16 or bf16, not --dtype %s", dtype_s);
    if (seer_dtype_from_name(dtype_s, &dtype))
        return cli_usage_error("net", "option --dtype: unknown dtype '%s' (fp32, tf32, fp16, bf16, "
                               "fp16_pseudo)", dtype_s);
    if (seer_layout_from_name(layout_s, &layout))
        return cli_usage_error("net", "option --layout: unknown layout '%s' (nchw, nhwc)", layout_s);

    seer_handle_t h = NULL;
    seer_model_t m = NULL;
    seer_network_t net = NULL;
    seer_layer_result_t *r = NULL;
    int *order = NULL, rc;
    seer_status_t st = seer_create(&h);
    if (st) return cli_lib_error(NULL, st);
    if (print && is_onnx(what)) {
        char *text;
        seer_onnx_info_t info;
        if ((rc = onnx_text(h, "net", what, res, skip, &text, &info))) goto out;
        fputs(text, stdout);
        free(text);
        goto out;
    }
    if (print) {
        if (!zoo_has(what)) { rc = cli_usage_error("net", "--print needs a built-in network or an ONNX file"); goto out; }
        size_t len;
        if ((st = seer_network_zoo_text(h, what, res, NULL, 0, &len)) != SEER_STATUS_BUFFER_TOO_SMALL &&
            st) { rc = cli_lib_error(h, st); goto out; }
        char *text = malloc(len + 1);
        if (!text) { rc = cli_fail("net", "out of memory"); goto out; }
        if ((st = seer_network_zoo_text(h, what, res, text, len + 1, &len))) {
            free(text);
            rc = cli_lib_error(h, st);
            goto out;
        }
        fputs(text, stdout);
        free(text);
        rc = CLI_OK;
        goto out;
    }
    if (is_onnx(what)) {
        int onnx_batch = 0;
        if ((rc = open_onnx(h, "net", what, res, skip, &net, &onnx_batch))) goto out;
        if (!batch_given && onnx_batch) batch = onnx_batch; /* the graph's own, unless --batch */
    } else if ((rc = cli_open_net(h, "net", what, res, &net))) goto out;
    if ((rc = cli_open_model(h, "net", model_opt, gpu_opt, models_opt, &m))) goto out;

    seer_net_options_t o = SEER_NET_OPTIONS_DEFAULT;
    o.batch = batch;
    o.dtype = dtype;
    o.layout = layout;
    o.mode = (seer_mode_t)mode;
    o.algo_policy = policy;
    o.threads = threads;
    o.dispatch_ms = dispatch_us / 1e3;
    o.optimizer = (seer_optimizer_t)optimizer;
    o.amp = amp;
    seer_net_totals_t tot;
    if ((st = seer_predict_network_opts(h, m, net, &o, NULL, 0, &tot))) { rc = cli_lib_error(h, st); goto out; }
    int n = tot.rows;
    r = malloc((size_t)(n ? n : 1) * sizeof *r);
    order = malloc((size_t)(n ? n : 1) * sizeof *order);
    if (!r || !order) { rc = cli_fail("net", "out of memory"); goto out; }
    if ((st = seer_predict_network_opts(h, m, net, &o, r, n, &tot))) { rc = cli_lib_error(h, st); goto out; }
    double total = tot.gpu_ms; /* the rows' shares are of GPU time */
    seer_model_info_t mi;
    seer_network_info_t ni;
    seer_model_get_info(m, &mi);
    seer_network_get_info(net, &ni);

    if (bench) {
        double *ts = malloc((size_t)bench * sizeof *ts);
        if (!ts) { rc = cli_fail("net", "out of memory"); goto out; }
        for (int i = 0; i < bench; i++) {
            double t0 = now_s();
            seer_net_totals_t t2;
            st = seer_predict_network_opts(h, m, net, &o, r, n, &t2);
            ts[i] = (now_s() - t0) * 1e3;
            if (st) { free(ts); rc = cli_lib_error(h, st); goto out; }
        }
        cli_sort_doubles(ts, (size_t)bench);
        printf("%s %s batch %d %s on %s (algo %s): %d rows, predicted %.3f ms; "
               "prediction takes median %.3f ms, min %.3f ms over %d runs\n",
               ni.name, modes[mode], batch, dtype_s, mi.gpu_id,
               policy == SEER_ALGO_AUTO ? "auto" : policy == SEER_ALGO_CUDNN_CHOICE ? "cudnn" : "fixed",
               n, tot.total_ms, ts[bench / 2], ts[0], bench);
        free(ts);
        rc = CLI_OK;
        goto out;
    }

    /* peak memory, and with --fit the largest batch that fits */
    seer_net_memory_t mem;
    int fit_batch = 0;
    if ((st = seer_network_memory(h, m, net, &o, &mem))) { rc = cli_lib_error(h, st); goto out; }
    if (fit) {
        seer_gpu_info_t gi;
        if (!fit_bytes && !seer_model_get_gpu(m, &gi)) fit_bytes = gi.dram_gib * 1073741824.0;
        if ((st = seer_network_fit_batch(h, m, net, &o, fit_bytes, &fit_batch))) { rc = cli_lib_error(h, st); goto out; }
    }

    for (int i = 0; i < n; i++) order[i] = i;
    if (sort == 0) { g_rows = r; qsort(order, (size_t)n, sizeof *order, by_time_desc); }
    group_t ops[64], cls[3];
    int nops = 0, ncls = 0;
    memset(cls, 0, sizeof cls);
    unsigned any = 0;
    for (int i = 0; i < n; i++) {
        char key[40];
        op_key(&r[i], key, sizeof key);
        if (nops < 64) group_add(ops, &nops, key, r[i].time_ms);
        group_add(cls, &ncls, seer_class_name(r[i].cls), r[i].time_ms);
        any |= r[i].flags;
    }
    qsort(ops, (size_t)nops, sizeof *ops, by_group_ms);
    qsort(cls, (size_t)ncls, sizeof *cls, by_group_ms);
    const char *policy_s = policy == SEER_ALGO_AUTO ? "auto" : policy == SEER_ALGO_CUDNN_CHOICE ? "cudnn" : "fixed";

    /* Per layer: all its rows summed (the default table). */
    typedef struct { int layer, first; double ms[3], total, top; seer_class_t cls; unsigned flags; } per_t;
    int nl = ni.n_layers, nper = 0;
    per_t *per = calloc((size_t)nl + 1, sizeof *per); /* + the optimizer step */
    int *pidx = malloc(((size_t)nl + 1) * sizeof *pidx);
    if (!per || !pidx) { free(per); free(pidx); rc = cli_fail("net", "out of memory"); goto out; }
    for (int i = 0; i <= nl; i++) per[i].first = -1;
    for (int i = 0; i < n; i++) {
        per_t *p = &per[r[i].layer];
        if (p->first < 0) { p->first = i; p->layer = r[i].layer; nper++; }
        p->ms[r[i].direction] += r[i].time_ms;
        p->total += r[i].time_ms;
        p->flags |= r[i].flags;
        if (r[i].time_ms > p->top) { p->top = r[i].time_ms; p->cls = r[i].cls; }
    }
    nper = 0;
    for (int i = 0; i <= nl; i++) if (per[i].first >= 0) pidx[nper++] = i;
    if (sort == 0) /* insertion sort by total, descending; stable */
        for (int i = 1; i < nper; i++)
            for (int j = i; j > 0 && per[pidx[j]].total > per[pidx[j - 1]].total; j--) {
                int t = pidx[j]; pidx[j] = pidx[j - 1]; pidx[j - 1] = t;
            }

    if (format == 1) {
        printf("rank,index,layer,op,direction,algo,kernels,class,flops,bytes,time_ms,share,flags\n");
        for (int i = 0; i < n; i++) {
            const seer_layer_result_t *x = &r[order[i]];
            char fl[8];
            flag_str(x->flags, fl);
            printf("%d,%d,", i + 1, order[i]);
            cli_csv_field(stdout, x->name);
            printf(",%s,%s,%s,%d,%s,%.6g,%.6g,%.6g,%.6g,%s\n", seer_op_name(x->op),
                   seer_direction_name(x->direction), algo_str(x), x->n_kernels,
                   seer_class_name(x->cls), x->flops, x->bytes, x->time_ms,
                   total > 0 ? x->time_ms / total : 0, fl);
        }
        if (tot.dispatch_ms > 0) printf(",,host dispatch,,,,,,,,%.6g,,\n", tot.dispatch_ms);
        printf(",,total,,,,,,,,%.6g,1,\n", tot.total_ms);
    } else if (format == 2) {
        printf("{\"network\": ");
        cli_json_str(stdout, ni.name);
        cli_json_str_field("gpu", mi.gpu_id);
        cli_json_str_field("served", mi.transferred ? "transferred" : "calibrated");
        cli_json_str_field("source_gpus", mi.source_gpus);
        printf(", \"batch\": %d, \"dtype\": \"%s\", \"layout\": \"%s\", \"mode\": \"%s\", \"amp\": %s, "
               "\"algo\": \"%s\", \"params\": %lld", batch, seer_dtype_name(dtype),
               seer_layout_name(layout), modes[mode], amp ? "true" : "false", policy_s, ni.params);
        cli_json_num_field("total_ms", tot.total_ms);
        cli_json_num_field("gpu_ms", tot.gpu_ms);
        cli_json_num_field("conv_ms", tot.conv_ms);
        cli_json_num_field("other_ms", tot.other_ms);
        cli_json_num_field("optimizer_ms", tot.optimizer_ms);
        cli_json_num_field("dispatch_ms", tot.dispatch_ms);
        printf(",\n  \"memory\": {\"weights\": %llu, \"gradients\": %llu, \"optimizer_state\": %llu, "
               "\"activations\": %llu, \"workspace\": %llu, \"total\": %llu}",
               (unsigned long long)mem.weights, (unsigned long long)mem.gradients,
               (unsigned long long)mem.optimizer_state, (unsigned long long)mem.activations,
               (unsigned long long)mem.workspace, (unsigned long long)mem.total);
        if (fit) printf(", \"fit_memory\": %.0f, \"fit_batch\": %d", fit_bytes, fit_batch);
        printf(",\n  \"layers\": [");
        for (int i = 0; i < n; i++) {
            const seer_layer_result_t *x = &r[order[i]];
            char fl[8];
            flag_str(x->flags, fl);
            printf("%s\n    {\"index\": %d, \"layer\": ", i ? "," : "", order[i]);
            cli_json_str(stdout, x->name);
            printf(", \"op\": \"%s\", \"direction\": \"%s\", \"algo\": ", seer_op_name(x->op),
                   seer_direction_name(x->direction));
            if (x->algo == SEER_ALGO_NA) printf("null");
            else cli_json_str(stdout, algo_str(x));
            printf(", \"kernels\": %d, \"class\": \"%s\"", x->n_kernels, seer_class_name(x->cls));
            cli_json_num_field("flops", x->flops);
            cli_json_num_field("bytes", x->bytes);
            cli_json_num_field("time_ms", x->time_ms);
            printf(", \"flags\": \"%s\"}", fl);
        }
        printf("],\n  \"by_op\": [");
        for (int i = 0; i < nops; i++) {
            printf("%s{\"op\": \"%s\", \"rows\": %d", i ? ", " : "", ops[i].key, ops[i].rows);
            cli_json_num_field("time_ms", ops[i].ms);
            printf("}");
        }
        printf("],\n  \"by_class\": [");
        for (int i = 0; i < ncls; i++) {
            printf("%s{\"class\": \"%s\", \"rows\": %d", i ? ", " : "", cls[i].key, cls[i].rows);
            cli_json_num_field("time_ms", cls[i].ms);
            printf("}");
        }
        printf("]}\n");
    } else {
        int shown = top && top < n ? top : n;
        if (!rows_view) shown = top && top < nper ? top : nper;
        printf("network   %s: %d layers (%d conv, %d fc), %.2f M parameters, %.3g GFLOP/sample forward\n",
               ni.name, ni.n_layers, ni.n_conv, ni.n_fc, ni.params / 1e6, ni.fwd_flops / 1e9);
        printf("model     %s (%s%s)\n", mi.gpu_id, mi.transferred ? "transferred from " : "calibrated", mi.transferred ? mi.source_gpus : "");
        printf("predict   %s, batch %d, %s%s, %s, algo %s\n\n", modes[mode], batch, seer_dtype_name(dtype),
               amp ? " amp" : "", seer_layout_name(layout), policy_s);
        if (!rows_view) {
            printf("%s, forward and backward summed (%d of %d layers; --rows: per direction)\n",
                   sort == 0 ? "layers by time" : "layers in execution order", shown, nper);
            printf("%4s  %-36s %-10s %-22s %10s %10s %10s %10s %6s %6s %-7s %s\n", "rank", "layer", "op",
                   "fwd algo", "fwd ms", "bwd_d ms", "bwd_f ms", "total ms", "share", "cum", "class", "mark");
            double cum = 0;
            for (int i = 0; i < shown; i++) {
                const per_t *p = &per[pidx[i]];
                const seer_layer_result_t *x = &r[p->first];
                char fl[8];
                flag_str(p->flags, fl);
                cum += p->total;
                printf("%4d  %-36.36s %-10s %-22s %10.4f %10.4f %10.4f %10.4f %5.1f%% %5.1f%% %-7s %s\n",
                       i + 1, x->name, seer_op_name(x->op), algo_str(x), p->ms[0], p->ms[1], p->ms[2],
                       p->total, total > 0 ? 100 * p->total / total : 0, total > 0 ? 100 * cum / total : 0,
                       seer_class_name(p->cls), fl);
            }
            if (shown < nper) printf("      ... %d more layers (--top 0 shows all)\n", nper - shown);
        } else {
        printf("%s (%d of %d rows)\n", sort == 0 ? "rows by time" : "rows in execution order", shown, n);
        printf("%4s  %-36s %-10s %-10s %-22s %4s %-7s %10s %6s %6s %s\n", "rank", "layer", "op", "dir",
               "algo", "kern", "class", "ms", "share", "cum", "mark");
        double cum = 0;
        for (int i = 0; i < shown; i++) {
            const seer_layer_result_t *x = &r[order[i]];
            char fl[8];
            flag_str(x->flags, fl);
            cum += x->time_ms;
            printf("%4d  %-36.36s %-10s %-10s %-22s %4d %-7s %10.4f %5.1f%% %5.1f%% %s\n", i + 1, x->name,
                   seer_op_name(x->op), seer_direction_name(x->direction), algo_str(x), x->n_kernels,
                   seer_class_name(x->cls), x->time_ms, total > 0 ? 100 * x->time_ms / total : 0,
                   total > 0 ? 100 * cum / total : 0, fl);
        }
        if (shown < n) printf("      ... %d more rows (--top 0 shows all)\n", n - shown);
        }
        printf("\nby operation\n%-24s %5s %10s %6s\n", "op", "rows", "ms", "share");
        for (int i = 0; i < nops; i++)
            printf("%-24s %5d %10.3f %5.1f%%\n", ops[i].key, ops[i].rows, ops[i].ms,
                   total > 0 ? 100 * ops[i].ms / total : 0);
        printf("\nby class of the main kernel\n%-24s %5s %10s %6s\n", "class", "rows", "ms", "share");
        for (int i = 0; i < ncls; i++)
            printf("%-24s %5d %10.3f %5.1f%%\n", cls[i].key, cls[i].rows, cls[i].ms,
                   total > 0 ? 100 * cls[i].ms / total : 0);
        if (any & (SEER_RESULT_BWD_FROM_FWD | SEER_RESULT_MEMORY_BOUND | SEER_RESULT_GEMM_ROOFLINE |
                   SEER_RESULT_ALGO_REPLACED | SEER_RESULT_ANALYTICAL)) {
            printf("\nestimates:\n");
            if (any & SEER_RESULT_BWD_FROM_FWD)
                printf("  B  the model has no data for this backward direction: a * forward + b,\n"
                       "     a and b fitted on %s\n", SEER_BWD_RATIO_SOURCE);
            if (any & SEER_RESULT_MEMORY_BOUND)
                printf("  M  memory-bound layer: bytes at %.0f%% of DRAM bandwidth + %.0f us per kernel\n"
                       "     (documented constants; no measurements of these kernels yet)\n",
                       100 * SEER_NET_MEM_EFFICIENCY, 1e3 * SEER_NET_KERNEL_MS);
            if (any & SEER_RESULT_GEMM_ROOFLINE)
                printf("  R  the model has no GEMM fit: fc from the roofline at %.0f%% of peak\n",
                       100 * SEER_NET_GEMM_EFFICIENCY);
            if (any & SEER_RESULT_ALGO_REPLACED)
                printf("  X  the fixed algorithm does not support or is not calibrated for this\n"
                       "     layer: the fastest predicted one is used instead\n");
            if (any & SEER_RESULT_ANALYTICAL)
                printf("  A  no GPU has data for this conv's kernels: the analytical model\n"
                       "     (the generic kernel formula; docs/method.md, \"Fallbacks\")\n");
            if (any & SEER_RESULT_AMP_CAST)
                printf("  C  mixed precision: fp32 weights cast to %s, or their gradients back\n",
                       seer_dtype_name(dtype));
        }
        printf("\nGPU       %.3f ms: convolutions %.3f, other layers %.3f", tot.gpu_ms, tot.conv_ms,
               tot.other_ms);
        if (tot.optimizer_ms > 0) printf(", optimizer (%s) %.3f", optimizers[optimizer], tot.optimizer_ms);
        printf("\n");
        if (dispatch_us > 0)
            printf("dispatch  %.3f ms more: a host issuing each row in %.1f us keeps the GPU waiting\n",
                   tot.dispatch_ms, dispatch_us);
        printf("total     %.3f ms per %s (batch %d): %.1f samples/s\n", tot.total_ms,
               mode ? "training iteration" : "forward pass", batch,
               tot.total_ms > 0 ? batch / tot.total_ms * 1e3 : 0);
        print_mib("memory    peak", (double)mem.total);
        print_mib(":", (double)mem.weights);
        print_mib(" weights,", (double)mem.gradients);
        print_mib(" gradients,", (double)mem.optimizer_state);
        print_mib(" optimizer,", (double)mem.activations);
        print_mib(" activations,", (double)mem.workspace);
        printf(" workspace\n");
        if (fit) {
            /* the search also stops where a tensor gets too large to describe */
            int at_cap = fit_batch >= SEER_NET_MAX_DIM; /* seer_network_fit_batch searches 1 .. 2^24 */
            o.batch = fit_batch + 1;
            int limited = fit_batch && !at_cap &&
                          seer_network_memory(NULL, m, net, &o, &mem) == SEER_STATUS_OVERFLOW;
            if (fit_batch) printf("fit       batch %d: the largest whose peak fits in", fit_batch);
            else printf("fit       not even batch 1: its peak does not fit in");
            print_mib("", fit_bytes);
            printf(at_cap ? " (the search ends at batch 2^24)\n"
                   : limited ? " (one more makes a tensor over 2^31 elements)\n" : "\n");
        }
    }
    free(per);
    free(pidx);
    rc = CLI_OK;
out:
    free(r);
    free(order);
    seer_network_destroy(net);
    seer_model_destroy(m);
    seer_destroy(h);
    return rc;
}

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

static int is_onnx(const char *path);
static int open_onnx(seer_handle_t h, const char *cmd, const char *path, int res, int skip, seer_network_t *net,
                     int *batch, const char **dtype);

/* A library error about the network what (its name or file) put first,
 * as docs/cli.md says: the message alone may name a layer and line of
 * a network the command line named some way, or nothing of it. */
static int net_error(seer_handle_t h, const char *cmd, const char *what, seer_status_t st)
{
    const char *msg = h ? seer_get_last_error(h) : "";
    if (msg && *msg) fprintf(stderr, "seer %s: %s: %s: %s\n", cmd, what, seer_status_string(st), msg);
    else fprintf(stderr, "seer %s: %s: %s\n", cmd, what, seer_status_string(st));
    return CLI_FAIL;
}

/* A built-in network by name, an ONNX model (.onnx), else a description
 * file.  Prints the error and returns CLI_FAIL / CLI_USAGE on failure. */
int cli_open_net(seer_handle_t h, const char *cmd, const char *what, int res, seer_network_t *net)
{
    seer_status_t st;
    int batch;
    const char *dtype;
    if (zoo_has(what)) {
        if ((st = seer_network_create_zoo(h, what, res, net))) return net_error(h, cmd, what, st);
        return CLI_OK;
    }
    if (is_onnx(what)) return open_onnx(h, cmd, what, res, 0, net, &batch, &dtype);
    size_t len;
    char *text = NULL;
    if (access(what, F_OK) != 0 && errno == ENOENT) {
        char known[256];
        zoo_list(known, sizeof known);
        return cli_fail(cmd, "'%s' is neither a built-in network (%s) nor a file", what, known);
    }
    if ((st = seer_read_input_file(h, what, "network description", SEER_NET_TEXT_MAX_BYTES, &text, &len)))
        return net_error(h, cmd, what, st);
    if (res) {
        free(text);
        return cli_usage_error(cmd, "option --res applies to built-in networks and ONNX models (a "
                               "description file sets its own input size)");
    }
    st = seer_network_create(h, text, len, net);
    free(text);
    return st ? net_error(h, cmd, what, st) : CLI_OK;
}

/* ---- ONNX files (docs/networks.md: ONNX import) ------------------- */

static int is_onnx(const char *path)
{
    size_t n = strlen(path);
    return n > 5 && !strcasecmp(path + n - 5, ".onnx");
}

/* The description an ONNX file translates to (malloc'ed); the nodes it
 * skipped, and how many folded batch norms it restored, are told on stderr.  Prints the error and returns CLI_FAIL. */
static int onnx_text(seer_handle_t h, const char *cmd, const char *path, int res, int skip, char **text,
                     seer_onnx_info_t *info)
{
    size_t len, tlen;
    char *bytes = NULL;
    seer_status_t st = seer_read_input_file(h, path, "ONNX model", SEER_ONNX_MAX_BYTES, &bytes, &len);
    if (st) return net_error(h, cmd, path, st);
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
    if (st) return net_error(h, cmd, path, st);
    if (info->n_skipped) {
        fprintf(stderr, "seer %s: %s: skipped %d unsupported node%s (predicted without them):\n", cmd, path,
                info->n_skipped, info->n_skipped == 1 ? "" : "s");
        /* comment lines only: a name may hold the words (the text's
         * first line is the translation's own comment, never a skip) */
        for (const char *l = *text; (l = strstr(l, "\n# skipped: ")); l++) {
            const char *e = strchr(l + 1, '\n');
            fprintf(stderr, "  %.*s\n", (int)(e ? e - l - 12 : (long)strlen(l + 12)), l + 12);
        }
    }
    int unfolded = 0;
    for (const char *l = *text; (l = strstr(l, "\n# unfolded: ")); l++) unfolded++;
    if (unfolded)
        fprintf(stderr, "seer %s: %s: %d batch norm%s that the exporter folded into convolutions predicted "
                "apart, as PyTorch runs them (docs/networks.md, \"Folded batch norms\")\n", cmd, path, unfolded,
                unfolded == 1 ? "" : "s");
    return CLI_OK;
}

/* ... and its graph's batch (0: symbolic) and the dtype of its first
 * input where that is half precision ("fp16", "bf16"; else NULL). */
static int open_onnx(seer_handle_t h, const char *cmd, const char *path, int res, int skip, seer_network_t *net,
                     int *batch, const char **dtype)
{
    char *text;
    seer_onnx_info_t info;
    int rc = onnx_text(h, cmd, path, res, skip, &text, &info);
    if (rc) return rc;
    const char *dl = strstr(text, "\n# input dtype: ");
    *dtype = !dl ? NULL : !strncmp(dl + 16, "fp16\n", 5) ? "fp16" : !strncmp(dl + 16, "bf16\n", 5) ? "bf16" : NULL;
    seer_status_t st = seer_network_create(h, text, strlen(text), net);
    free(text);
    if (st) return net_error(h, cmd, path, st);
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
            "mobilenet_v2, densenet121, convnext_tiny); FILE a description\n"
            "(docs/networks.md);\n"
            "MODEL.onnx an ONNX model, translated into such a description.\n"
            "\n"
            "  --batch N      samples per iteration (default: an ONNX graph's fixed batch, else 64)\n"
            "  --dtype T      fp32 (default; an ONNX graph's input's fp16 or bf16), tf32,\n"
            "                 fp16, bf16, fp16_pseudo\n"
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
            "                 with momentum), adam, none (with --mode train only)\n"
            "  --amp          mixed precision as torch.autocast + GradScaler run it:\n"
            "                 --dtype fp16 (default) or bf16 compute, channels-last\n"
            "                 (default --layout nhwc), fp32 weights, gradients and\n"
            "                 optimizer, plus the weight casts and (fp16) GradScaler's\n"
            "                 loss-scale unscale\n"
            "  --skip-unsupported  ONNX: predict without the operators libseer cannot\n"
            "                 translate, listing them (default: fail, naming them)\n"
            "  --fit [BYTES]  the largest batch whose peak memory fits BYTES (a number,\n"
            "                 optionally with B, KB, MB, GB, TB, KiB, MiB, GiB, TiB;\n"
            "                 default: the GPU's memory)\n"
            "Table marks: B backward estimated from forward (the model has no backward\n"
            "data; a deconv's forward is a backward data pass), M memory-bound estimate,\n"
            "R fc from the roofline (no GEMM fit), X fixed algorithm not usable here,\n"
            "G gradient sum of a reused tensor, A analytical model (no GPU has data for\n"
            "these kernels), C mixed precision's cast of fp32 weights (or of their\n"
            "gradients back).\n");
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
    const char *a = seer_layer_algo_name(r);
    return a ? a : "-";
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
    else if (r->op == SEER_OP_CONV || r->op == SEER_OP_DECONV || r->op == SEER_OP_FC)
        snprintf(key, size, "%s %s", seer_op_name(r->op), seer_direction_name(r->direction));
    else snprintf(key, size, "%s %s", seer_op_name(r->op), r->direction == SEER_DIR_FWD ? "fwd" : "bwd");
}

/* label, then the size in GiB or MiB to a tenth; under 1 MiB in KiB and
 * under 1 KiB in bytes, so that a small size (--fit 1KB, a tiny
 * workspace) never reads "0.0 MiB".  Zero stays 0.0 MiB (inference's
 * gradients). */
static void print_size(const char *label, double b)
{
    if (b >= 1073741824.0) printf("%s %.1f GiB", label, b / 1073741824.0);
    else if (b >= 1048576.0 || b == 0) printf("%s %.1f MiB", label, b / 1048576.0);
    else if (b >= 1024.0) printf("%s %.1f KiB", label, b / 1024.0);
    else printf("%s %.0f B", label, b);
}

static const char *const modes[] = {"infer", "train", NULL};
const char *const cli_optimizers[] = {"none", "sgd", "adam", NULL}; /* seer_optimizer_t order */
enum { NET_TABLE, NET_CSV, NET_JSON };

/* What the options ask for. */
typedef struct {
    const char *what, *model_opt, *gpu_opt, *models_opt;
    const char *dtype_s, *layout_s; /* defaults: fp32 nchw, or fp16 nhwc with --amp */
    seer_dtype_t dtype;
    seer_layout_t layout;
    int batch, batch_given, dtype_given, mode, format, sort, top, res, bench, print, rows_view, skip, amp;
    int policy, threads, optimizer, optimizer_given, fit;
    double dispatch_us, fit_bytes;
} net_opts_t;

/* A layer: all its rows summed (the default table). */
typedef struct {
    int layer, first;
    double ms[3], total, top;
    seer_class_t cls;
    unsigned flags;
} per_t;

/* One prediction and its views. */
typedef struct {
    net_opts_t *o;
    seer_handle_t h;
    seer_model_t m;
    seer_network_t net;
    seer_net_options_t no;
    seer_layer_result_t *r;     /* the rows */
    int n;
    seer_net_totals_t tot;
    seer_model_info_t mi;
    seer_network_info_t ni;
    seer_net_memory_t mem;
    int fit_batch;
    int *order;                 /* rows in the order shown */
    group_t ops[64], cls[3];    /* by operation, by class */
    int nops, ncls;
    unsigned any;               /* every row's flags */
    per_t *per;                 /* by layer, + the optimizer step */
    int *pidx;                  /* layers in the order shown */
    int nper;
} net_run_t;

static const char *policy_name(int policy)
{
    return policy == SEER_ALGO_AUTO ? "auto" : policy == SEER_ALGO_CUDNN_CHOICE ? "cudnn" : "fixed";
}

/* The options into *o: CLI_OK with *done set after --help, else the exit
 * code of a usage error. */
static int net_parse(int argc, char **argv, net_opts_t *o, int *done)
{
    static const char *const formats[] = {"table", "csv", "json", NULL};
    static const char *const sorts[] = {"time", "order", NULL};
    static const struct option opts[] = {CLI_FLAG("help"), CLI_FLAG("amp"), CLI_FLAG("skip-unsupported"),
                                         CLI_FLAG("print"), CLI_FLAG("rows"), CLI_FLAG("fit"),
                                         CLI_VALUE("model"), CLI_VALUE("gpu"), CLI_VALUE("models"),
                                         CLI_VALUE("batch"), CLI_VALUE("dtype"), CLI_VALUE("layout"),
                                         CLI_VALUE("mode"), CLI_VALUE("format"), CLI_VALUE("sort"),
                                         CLI_VALUE("top"), CLI_VALUE("res"), CLI_VALUE("bench"),
                                         CLI_VALUE("threads"), CLI_VALUE("optimizer"),
                                         CLI_VALUE("dispatch-us"), CLI_VALUE("algo"), CLI_END};
    cli_args_t a;
    cli_args_init(&a, "net", opts, argc, argv);
    while (cli_next(&a)) {
        if (cli_is(&a, "--help") || cli_is(&a, "-h")) { usage_net(stdout); *done = 1; return CLI_OK; }
        else if (a.pos && !o->what) o->what = a.pos;
        else if (cli_is(&a, "--model")) { if (!(o->model_opt = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--gpu")) { if (!(o->gpu_opt = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--models")) { if (!(o->models_opt = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--batch")) { if (!cli_int(&a, 1, 1 << 24, &o->batch)) return CLI_USAGE; o->batch_given = 1; }
        else if (cli_is(&a, "--amp")) { if (!cli_flag(&a)) return CLI_USAGE; o->amp = 1; }
        else if (cli_is(&a, "--skip-unsupported")) { if (!cli_flag(&a)) return CLI_USAGE; o->skip = 1; }
        else if (cli_is(&a, "--dtype")) { if (!(o->dtype_s = cli_value(&a))) return CLI_USAGE; o->dtype_given = 1; }
        else if (cli_is(&a, "--layout")) { if (!(o->layout_s = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--mode")) { if ((o->mode = cli_choice(&a, modes)) < 0) return CLI_USAGE; }
        else if (cli_is(&a, "--format")) { if ((o->format = cli_choice(&a, formats)) < 0) return CLI_USAGE; }
        else if (cli_is(&a, "--sort")) { if ((o->sort = cli_choice(&a, sorts)) < 0) return CLI_USAGE; }
        else if (cli_is(&a, "--top")) { if (!cli_int(&a, 0, INT_MAX, &o->top)) return CLI_USAGE; }
        else if (cli_is(&a, "--res")) { if (!cli_int(&a, 1, 1 << 24, &o->res)) return CLI_USAGE; }
        else if (cli_is(&a, "--bench")) { if (!cli_int(&a, 1, 1000000, &o->bench)) return CLI_USAGE; }
        else if (cli_is(&a, "--print")) { if (!cli_flag(&a)) return CLI_USAGE; o->print = 1; }
        else if (cli_is(&a, "--rows")) { if (!cli_flag(&a)) return CLI_USAGE; o->rows_view = 1; }
        else if (cli_is(&a, "--threads")) { if (!cli_int(&a, 1, 8, &o->threads)) return CLI_USAGE; }
        else if (cli_is(&a, "--optimizer")) {
            if ((o->optimizer = cli_choice(&a, cli_optimizers)) < 0) return CLI_USAGE;
            o->optimizer_given = 1;
        }
        else if (cli_is(&a, "--fit")) { if (!cli_opt_bytes(&a, &o->fit_bytes)) return CLI_USAGE; o->fit = 1; }
        else if (cli_is(&a, "--dispatch-us")) { if (!cli_double(&a, 0, 1e6, &o->dispatch_us)) return CLI_USAGE; }
        else if (cli_is(&a, "--algo")) {
            const char *v = cli_value(&a);
            if (!v || !cli_parse_policy("net", v, &o->policy)) return CLI_USAGE;
        } else return cli_unknown(&a);
    }
    return CLI_OK;
}

/* What the options say together (no model needed): CLI_OK or a usage error. */
static int net_check(net_opts_t *o)
{
    if (!o->what) return cli_usage_error("net", "a network name or file is required (seer net NAME|FILE)");
    if (o->fit && (o->format == NET_CSV || o->bench))
        return cli_usage_error("net", "option --fit: its answer is in the table and JSON, not with %s",
                               o->bench ? "--bench" : "--format csv");
    /* --bench prints one line of text in place of the output */
    if (o->bench && o->format != NET_TABLE)
        return cli_usage_error("net", "option --bench prints a line of text, not with --format %s",
                               o->format == NET_CSV ? "csv" : "json");
    if (o->optimizer_given && !o->mode)
        return cli_usage_error("net", "option --optimizer: the optimizer step is part of --mode train only");
    if (!o->dtype_s) o->dtype_s = o->amp ? "fp16" : "fp32";
    if (!o->layout_s) o->layout_s = o->amp ? "nhwc" : "nchw"; /* AMP runs channels-last */
    if (seer_dtype_from_name(o->dtype_s, &o->dtype))
        return cli_usage_error("net", "option --dtype: unknown dtype '%s' (fp32, tf32, fp16, bf16, "
                               "fp16_pseudo)", o->dtype_s);
    if (o->amp && o->dtype != SEER_DTYPE_FP16 && o->dtype != SEER_DTYPE_BF16)
        return cli_usage_error("net", "option --amp computes in fp16 or bf16, not --dtype %s", o->dtype_s);
    if (seer_layout_from_name(o->layout_s, &o->layout))
        return cli_usage_error("net", "option --layout: unknown layout '%s' (nchw, nhwc)", o->layout_s);
    return CLI_OK;
}

/* --print: the description of a built-in network or an ONNX file. */
static int net_print(seer_handle_t h, const net_opts_t *o)
{
    char *text;
    seer_status_t st;
    int rc;
    if (is_onnx(o->what)) {
        seer_onnx_info_t info;
        if ((rc = onnx_text(h, "net", o->what, o->res, o->skip, &text, &info))) return rc;
        fputs(text, stdout);
        free(text);
        return CLI_OK;
    }
    if (!zoo_has(o->what)) return cli_usage_error("net", "--print needs a built-in network or an ONNX file");
    size_t len;
    if ((st = seer_network_zoo_text(h, o->what, o->res, NULL, 0, &len)) != SEER_STATUS_BUFFER_TOO_SMALL && st)
        return net_error(h, "net", o->what, st);
    if (!(text = malloc(len + 1))) return cli_fail("net", "out of memory");
    if ((st = seer_network_zoo_text(h, o->what, o->res, text, len + 1, &len))) {
        free(text);
        return net_error(h, "net", o->what, st);
    }
    fputs(text, stdout);
    free(text);
    return CLI_OK;
}

/* The network, the model and the rows predicted (room for them first). */
static int net_predict(net_run_t *R)
{
    net_opts_t *o = R->o;
    seer_status_t st;
    int rc;
    if (is_onnx(o->what)) {
        int onnx_batch = 0;
        const char *onnx_dtype = NULL;
        if ((rc = open_onnx(R->h, "net", o->what, o->res, o->skip, &R->net, &onnx_batch, &onnx_dtype))) return rc;
        if (!o->batch_given && onnx_batch) o->batch = onnx_batch; /* the graph's own, unless --batch */
        /* a half-precision export runs in half precision, unless --dtype */
        if (!o->dtype_given && !o->amp && onnx_dtype && !seer_dtype_from_name(onnx_dtype, &o->dtype)) {
            o->dtype_s = onnx_dtype;
            fprintf(stderr, "seer net: %s: its input is %s: predicted in %s (--dtype to change)\n", o->what,
                    onnx_dtype, onnx_dtype);
        }
    } else if ((rc = cli_open_net(R->h, "net", o->what, o->res, &R->net))) return rc;
    if ((rc = cli_open_model(R->h, "net", o->model_opt, o->gpu_opt, o->models_opt, &R->m))) return rc;
    seer_net_options_t no = SEER_NET_OPTIONS_DEFAULT;
    no.batch = o->batch;
    no.dtype = o->dtype;
    no.layout = o->layout;
    no.mode = (seer_mode_t)o->mode;
    no.algo_policy = o->policy;
    no.threads = o->threads;
    no.dispatch_ms = o->dispatch_us / 1e3;
    no.optimizer = (seer_optimizer_t)o->optimizer;
    no.amp = o->amp;
    R->no = no;
    if ((st = seer_predict_network_opts(R->h, R->m, R->net, &R->no, NULL, 0, &R->tot)))
        return net_error(R->h, "net", o->what, st);
    R->n = R->tot.rows;
    R->r = malloc((size_t)(R->n ? R->n : 1) * sizeof *R->r);
    R->order = malloc((size_t)(R->n ? R->n : 1) * sizeof *R->order);
    if (!R->r || !R->order) return cli_fail("net", "out of memory");
    if ((st = seer_predict_network_opts(R->h, R->m, R->net, &R->no, R->r, R->n, &R->tot)))
        return net_error(R->h, "net", o->what, st);
    seer_model_get_info(R->m, &R->mi);
    seer_network_get_info(R->net, &R->ni);
    return CLI_OK;
}

/* --bench N: time N predictions, print the median instead of the table. */
static int net_bench(net_run_t *R)
{
    const net_opts_t *o = R->o;
    double *ts = malloc((size_t)o->bench * sizeof *ts);
    if (!ts) return cli_fail("net", "out of memory");
    for (int i = 0; i < o->bench; i++) {
        double t0 = now_s();
        seer_net_totals_t t2;
        seer_status_t st = seer_predict_network_opts(R->h, R->m, R->net, &R->no, R->r, R->n, &t2);
        ts[i] = (now_s() - t0) * 1e3;
        if (st) {
            free(ts);
            return net_error(R->h, "net", o->what, st);
        }
    }
    cli_sort_doubles(ts, (size_t)o->bench);
    printf("%s %s batch %d %s on %s (algo %s): %d rows, predicted %.3f ms; "
           "prediction takes median %.3f ms, min %.3f ms over %d runs\n",
           R->ni.name, modes[o->mode], o->batch, o->dtype_s, R->mi.gpu_id, policy_name(o->policy), R->n,
           R->tot.total_ms, ts[o->bench / 2], ts[0], o->bench);
    free(ts);
    return CLI_OK;
}

/* Peak memory, and with --fit the largest batch that fits. */
static int net_memory(net_run_t *R)
{
    net_opts_t *o = R->o;
    seer_status_t st;
    if ((st = seer_network_memory(R->h, R->m, R->net, &R->no, &R->mem))) return net_error(R->h, "net", o->what, st);
    if (o->fit) {
        seer_gpu_info_t gi;
        if (!o->fit_bytes && !seer_model_get_gpu(R->m, &gi)) o->fit_bytes = gi.dram_gib * 1073741824.0;
        if ((st = seer_network_fit_batch(R->h, R->m, R->net, &R->no, o->fit_bytes, &R->fit_batch)))
            return net_error(R->h, "net", o->what, st);
    }
    return CLI_OK;
}

/* The rows' order, their sums by operation, by class and by layer. */
static int net_views(net_run_t *R)
{
    const seer_layer_result_t *r = R->r;
    int n = R->n, nl = R->ni.n_layers;
    for (int i = 0; i < n; i++) R->order[i] = i;
    if (R->o->sort == 0) { g_rows = r; qsort(R->order, (size_t)n, sizeof *R->order, by_time_desc); }
    for (int i = 0; i < n; i++) {
        char key[40];
        op_key(&r[i], key, sizeof key);
        if (R->nops < 64) group_add(R->ops, &R->nops, key, r[i].time_ms);
        group_add(R->cls, &R->ncls, seer_class_name(r[i].cls), r[i].time_ms);
        R->any |= r[i].flags;
    }
    qsort(R->ops, (size_t)R->nops, sizeof *R->ops, by_group_ms);
    qsort(R->cls, (size_t)R->ncls, sizeof *R->cls, by_group_ms);
    R->per = calloc((size_t)nl + 1, sizeof *R->per); /* + the optimizer step */
    R->pidx = malloc(((size_t)nl + 1) * sizeof *R->pidx);
    if (!R->per || !R->pidx) return cli_fail("net", "out of memory");
    per_t *per = R->per;
    for (int i = 0; i <= nl; i++) per[i].first = -1;
    for (int i = 0; i < n; i++) {
        per_t *p = &per[r[i].layer];
        if (p->first < 0) { p->first = i; p->layer = r[i].layer; }
        p->ms[r[i].direction] += r[i].time_ms;
        p->total += r[i].time_ms;
        p->flags |= r[i].flags;
        if (r[i].time_ms > p->top) { p->top = r[i].time_ms; p->cls = r[i].cls; }
    }
    for (int i = 0; i <= nl; i++) if (per[i].first >= 0) R->pidx[R->nper++] = i;
    if (R->o->sort == 0) /* insertion sort by total, descending; stable */
        for (int i = 1; i < R->nper; i++)
            for (int j = i; j > 0 && per[R->pidx[j]].total > per[R->pidx[j - 1]].total; j--) {
                int t = R->pidx[j]; R->pidx[j] = R->pidx[j - 1]; R->pidx[j - 1] = t;
            }
    return CLI_OK;
}

static void print_net_csv(const net_run_t *R)
{
    double total = R->tot.gpu_ms; /* the rows' shares are of GPU time */
    printf("rank,index,layer,op,direction,algo,kernels,class,flops,bytes,time_ms,share,flags\n");
    for (int i = 0; i < R->n; i++) {
        const seer_layer_result_t *x = &R->r[R->order[i]];
        char fl[8];
        flag_str(x->flags, fl);
        printf("%d,%d,", i + 1, R->order[i]);
        cli_csv_field(stdout, x->name);
        printf(",%s,%s,%s,%d,%s,%.6g,%.6g,%.6g,%.6g,%s\n", seer_op_name(x->op), seer_direction_name(x->direction),
               algo_str(x), x->n_kernels, seer_class_name(x->cls), x->flops, x->bytes, x->time_ms,
               total > 0 ? x->time_ms / total : 0, fl);
    }
    if (R->tot.dispatch_ms > 0) printf(",,host dispatch,,,,,,,,%.6g,,\n", R->tot.dispatch_ms);
    printf(",,total,,,,,,,,%.6g,1,\n", R->tot.total_ms);
}

/* The JSON's first lines: what was predicted, the totals and memory. */
static void json_net_head(const net_run_t *R)
{
    const net_opts_t *o = R->o;
    const seer_net_memory_t *mem = &R->mem;
    printf("{\"network\": ");
    cli_json_str(stdout, R->ni.name);
    cli_json_str_field("gpu", R->mi.gpu_id);
    cli_json_served(&R->mi);
    printf(", \"batch\": %d, \"dtype\": \"%s\", \"layout\": \"%s\", \"mode\": \"%s\", \"amp\": %s, "
           "\"algo\": \"%s\", \"params\": %lld", o->batch, seer_dtype_name(o->dtype), seer_layout_name(o->layout),
           modes[o->mode], o->amp ? "true" : "false", policy_name(o->policy), R->ni.params);
    cli_json_num_field("total_ms", R->tot.total_ms);
    cli_json_num_field("gpu_ms", R->tot.gpu_ms);
    cli_json_num_field("conv_ms", R->tot.conv_ms);
    cli_json_num_field("other_ms", R->tot.other_ms);
    cli_json_num_field("optimizer_ms", R->tot.optimizer_ms);
    cli_json_num_field("dispatch_ms", R->tot.dispatch_ms);
    printf(",\n  \"memory\": {\"weights\": %llu, \"gradients\": %llu, \"optimizer_state\": %llu, "
           "\"activations\": %llu, \"workspace\": %llu, \"total\": %llu}",
           (unsigned long long)mem->weights, (unsigned long long)mem->gradients,
           (unsigned long long)mem->optimizer_state, (unsigned long long)mem->activations,
           (unsigned long long)mem->workspace, (unsigned long long)mem->total);
    if (o->fit) printf(", \"fit_memory\": %.0f, \"fit_batch\": %d", o->fit_bytes, R->fit_batch);
}

static void print_net_json(const net_run_t *R)
{
    json_net_head(R);
    printf(",\n  \"layers\": [");
    for (int i = 0; i < R->n; i++) {
        const seer_layer_result_t *x = &R->r[R->order[i]];
        char fl[8];
        flag_str(x->flags, fl);
        printf("%s\n    {\"index\": %d, \"layer\": ", i ? "," : "", R->order[i]);
        cli_json_str(stdout, x->name);
        printf(", \"op\": \"%s\", \"direction\": \"%s\"", seer_op_name(x->op), seer_direction_name(x->direction));
        cli_json_str_field("algo", x->algo == SEER_ALGO_NA ? NULL : algo_str(x));
        printf(", \"kernels\": %d, \"class\": \"%s\"", x->n_kernels, seer_class_name(x->cls));
        cli_json_num_field("flops", x->flops);
        cli_json_num_field("bytes", x->bytes);
        cli_json_num_field("time_ms", x->time_ms);
        printf(", \"flags\": \"%s\"}", fl);
    }
    printf("],\n  \"by_op\": [");
    for (int i = 0; i < R->nops; i++) {
        printf("%s{\"op\": \"%s\", \"rows\": %d", i ? ", " : "", R->ops[i].key, R->ops[i].rows);
        cli_json_num_field("time_ms", R->ops[i].ms);
        printf("}");
    }
    printf("],\n  \"by_class\": [");
    for (int i = 0; i < R->ncls; i++) {
        printf("%s{\"class\": \"%s\", \"rows\": %d", i ? ", " : "", R->cls[i].key, R->cls[i].rows);
        cli_json_num_field("time_ms", R->cls[i].ms);
        printf("}");
    }
    printf("]}\n");
}

/* The default table: one line per layer, directions summed. */
static void table_layers(const net_run_t *R)
{
    const net_opts_t *o = R->o;
    double total = R->tot.gpu_ms, cum = 0;
    int shown = o->top && o->top < R->nper ? o->top : R->nper;
    /* Only layers with GPU work have a line: not the input, nor a view
     * (flatten) with no kernel, so fewer than the network line's count;
     * training adds the optimizer step's line (per index n_layers). */
    int step = 0;
    for (int i = 0; i < R->nper; i++) step |= R->pidx[i] == R->ni.n_layers;
    printf("%s, forward and backward summed (%d of ", o->sort == 0 ? "layers by time" : "layers in execution order",
           shown);
    if (step) printf("%d: ", R->nper);
    printf("%d layers that run on the GPU%s; --rows: per direction)\n", R->nper - step,
           step ? " and the optimizer step" : "");
    printf("%4s  %-36s %-10s %-22s %10s %10s %10s %10s %6s %6s %-7s %s\n", "rank", "layer", "op", "fwd algo",
           "fwd ms", "bwd_d ms", "bwd_f ms", "total ms", "share", "cum", "class", "mark");
    for (int i = 0; i < shown; i++) {
        const per_t *p = &R->per[R->pidx[i]];
        const seer_layer_result_t *x = &R->r[p->first];
        char fl[8];
        flag_str(p->flags, fl);
        cum += p->total;
        printf("%4d  %-36.36s %-10s %-22s %10.4f %10.4f %10.4f %10.4f %5.1f%% %5.1f%% %-7s %s\n", i + 1, x->name,
               seer_op_name(x->op), algo_str(x), p->ms[0], p->ms[1], p->ms[2], p->total,
               total > 0 ? 100 * p->total / total : 0, total > 0 ? 100 * cum / total : 0, seer_class_name(p->cls), fl);
    }
    if (shown < R->nper) printf("      ... %d more layers (--top 0 shows all)\n", R->nper - shown);
}

/* --rows: one line per (layer, direction) row. */
static void table_rows(const net_run_t *R)
{
    const net_opts_t *o = R->o;
    double total = R->tot.gpu_ms, cum = 0;
    int shown = o->top && o->top < R->n ? o->top : R->n;
    printf("%s (%d of %d rows)\n", o->sort == 0 ? "rows by time" : "rows in execution order", shown, R->n);
    printf("%4s  %-36s %-10s %-10s %-22s %4s %-7s %10s %6s %6s %s\n", "rank", "layer", "op", "dir", "algo", "kern",
           "class", "ms", "share", "cum", "mark");
    for (int i = 0; i < shown; i++) {
        const seer_layer_result_t *x = &R->r[R->order[i]];
        char fl[8];
        flag_str(x->flags, fl);
        cum += x->time_ms;
        printf("%4d  %-36.36s %-10s %-10s %-22s %4d %-7s %10.4f %5.1f%% %5.1f%% %s\n", i + 1, x->name,
               seer_op_name(x->op), seer_direction_name(x->direction), algo_str(x), x->n_kernels,
               seer_class_name(x->cls), x->time_ms, total > 0 ? 100 * x->time_ms / total : 0,
               total > 0 ? 100 * cum / total : 0, fl);
    }
    if (shown < R->n) printf("      ... %d more rows (--top 0 shows all)\n", R->n - shown);
}

static void table_groups(const char *title, const char *what, const group_t *g, int ng, double total)
{
    printf("\n%s\n%-24s %5s %10s %6s\n", title, what, "rows", "ms", "share");
    for (int i = 0; i < ng; i++)
        printf("%-24s %5d %10.3f %5.1f%%\n", g[i].key, g[i].rows, g[i].ms, total > 0 ? 100 * g[i].ms / total : 0);
}

/* What the marks of the estimates mean, for those the table holds. */
static void table_estimates(unsigned any, seer_dtype_t dtype, const seer_model *m)
{
    if (!(any & (SEER_RESULT_BWD_FROM_FWD | SEER_RESULT_MEMORY_BOUND | SEER_RESULT_GEMM_ROOFLINE |
                 SEER_RESULT_ALGO_REPLACED | SEER_RESULT_ANALYTICAL)))
        return;
    printf("\nestimates:\n");
    if (any & SEER_RESULT_BWD_FROM_FWD)
        printf("  B  the model has no data for this backward direction: a * forward + b,\n"
               "     a and b fitted on %s (a deconv's forward runs a backward data)\n", SEER_BWD_RATIO_SOURCE);
    if (any & SEER_RESULT_MEMORY_BOUND) {
        seer_gpu_info_t gi = {0};
        double gbps = 0, gap = 0;
        if (!seer_model_get_gpu(m, &gi)) seer_gpu_streaming(&gi, &gbps, &gap);
        printf("  M  memory-bound layer: bytes at the GPU's streaming rate, %.0f GB/s (%s),\n"
               "     + a %.0f us launch gap per kernel; PyTorch's max pooling at a measured\n"
               "     share of that rate (docs/networks.md)\n",
               gbps, gi.dram_stream_gbps > 0 ? "measured" : "a share of the datasheet rate", gap);
    }
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
        printf("  C  mixed precision: fp32 weights cast to %s, or their gradients back\n", seer_dtype_name(dtype));
}

/* The table's last lines: GPU time, dispatch, total, memory, --fit. */
static void table_totals(const net_run_t *R)
{
    const net_opts_t *o = R->o;
    const seer_net_totals_t *tot = &R->tot;
    const seer_net_memory_t *mem = &R->mem;
    printf("\nGPU       %.3f ms: convolutions %.3f, other layers %.3f", tot->gpu_ms, tot->conv_ms, tot->other_ms);
    if (tot->optimizer_ms > 0) printf(", optimizer (%s) %.3f", cli_optimizers[o->optimizer], tot->optimizer_ms);
    printf("\n");
    if (o->dispatch_us > 0)
        printf("dispatch  %.3f ms more: a host issuing each row in %.1f us keeps the GPU waiting\n",
               tot->dispatch_ms, o->dispatch_us);
    printf("total     %.3f ms per %s (batch %d): %.1f samples/s\n", tot->total_ms,
           o->mode ? "training iteration" : "forward pass", o->batch,
           tot->total_ms > 0 ? o->batch / tot->total_ms * 1e3 : 0);
    print_size("memory    peak", (double)mem->total);
    print_size(":", (double)mem->weights);
    print_size(" weights,", (double)mem->gradients);
    print_size(" gradients,", (double)mem->optimizer_state);
    print_size(" optimizer,", (double)mem->activations);
    print_size(" activations,", (double)mem->workspace);
    printf(" workspace\n");
    if (!o->fit) return;
    /* the search also stops where a tensor gets too large to describe */
    int at_cap = R->fit_batch >= SEER_NET_MAX_DIM; /* seer_network_fit_batch searches 1 .. 2^24 */
    seer_net_options_t more = R->no;
    seer_net_memory_t m2;
    more.batch = R->fit_batch + 1;
    int limited = R->fit_batch && !at_cap && seer_network_memory(NULL, R->m, R->net, &more, &m2) == SEER_STATUS_OVERFLOW;
    if (R->fit_batch) printf("fit       batch %d: the largest whose peak fits in", R->fit_batch);
    else printf("fit       not even batch 1: its peak does not fit in");
    print_size("", o->fit_bytes);
    printf(at_cap ? " (the search ends at batch 2^24)\n" : limited ? " (one more makes a tensor over 2^31 elements)\n" : "\n");
}

static void print_net_table(const net_run_t *R)
{
    const net_opts_t *o = R->o;
    const seer_network_info_t *ni = &R->ni;
    printf("network   %s: %d layers (inputs included; %d conv, %d fc), %.2f M parameters, %.3g GFLOP/sample "
           "forward\n", ni->name, ni->n_layers, ni->n_conv, ni->n_fc, ni->params / 1e6, ni->fwd_flops / 1e9);
    cli_print_model_line(&R->mi);
    printf("predict   %s, batch %d, %s%s, %s, algo %s\n\n", modes[o->mode], o->batch, seer_dtype_name(o->dtype),
           o->amp ? " amp" : "", seer_layout_name(o->layout), policy_name(o->policy));
    if (!o->rows_view) table_layers(R);
    else table_rows(R);
    table_groups("by operation", "op", R->ops, R->nops, R->tot.gpu_ms);
    table_groups("by class of the main kernel", "class", R->cls, R->ncls, R->tot.gpu_ms);
    table_estimates(R->any, o->dtype, R->m);
    table_totals(R);
}

int seer_cli_net(int argc, char **argv)
{
    net_opts_t o = {.batch = 64, .top = 25, .policy = SEER_ALGO_AUTO, .threads = 8, .optimizer = SEER_OPTIMIZER_SGD};
    net_run_t R;
    int done = 0, rc;
    memset(&R, 0, sizeof R);
    R.o = &o;
    if ((rc = net_parse(argc, argv, &o, &done)) || done || (rc = net_check(&o))) return rc;
    seer_status_t st = seer_create(&R.h);
    if (st) return cli_lib_error(NULL, st);
    if (o.print) rc = net_print(R.h, &o);
    else if (!(rc = net_predict(&R)) && o.bench) rc = net_bench(&R);
    else if (!rc && !(rc = net_memory(&R)) && !(rc = net_views(&R))) {
        if (o.format == NET_CSV) print_net_csv(&R);
        else if (o.format == NET_JSON) print_net_json(&R);
        else print_net_table(&R);
    }
    free(R.per);
    free(R.pidx);
    free(R.r);
    free(R.order);
    seer_network_destroy(R.net);
    seer_model_destroy(R.m);
    seer_destroy(R.h);
    return rc;
}

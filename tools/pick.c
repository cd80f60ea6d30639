/* seer pick: rank the algorithms of one convolution as
 * cudnnGet...Algorithm_v7 does, from the model (docs/picker.md). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "net.h"

/* ------------------------------------------------------------------ */
/* seer pick                                                           */
/* ------------------------------------------------------------------ */

static void usage_pick(FILE *f)
{
    fprintf(f,
            "usage: seer pick (--model FILE | --gpu GPU [--models DIR])\n"
            "                 --n N --c C --h H --w W --k K [conv options]\n"
            "                 [--direction D] [--workspace-mb MB] [--format table|json]\n"
            "\n"
            "Rank the cuDNN algorithms of one convolution direction by predicted time,\n"
            "like cudnnGetConvolution*Algorithm_v7 (docs/picker.md).  Conv options as\n"
            "in seer predict: --dtype --layout --r --s --pad --pad-h --pad-w --stride\n"
            "--stride-h --stride-w --dil --dil-h --dil-w --groups.\n"
            "  --direction D      fwd (default), bwd_data, bwd_filter\n"
            "  --workspace-mb MB  workspace limit in MiB (default: none; 0 admits only\n"
            "                     algorithms without workspace)\n"
            "Exit status 1 when no algorithm can be picked (the table still shows why).\n");
}

static const char *math_name(int mt)
{
    return mt == SEER_MATH_TENSOR_OP ? "tensor_op" : mt == SEER_MATH_FMA ? "fma"
         : mt == SEER_MATH_TENSOR_OP_ALLOW_CONVERSION ? "tensor_op_conv" : "default";
}

static const char *const dirs[] = {"fwd", "bwd_data", "bwd_filter", NULL};

/* What the options ask for. */
typedef struct {
    const char *model_opt, *gpu_opt, *models_opt;
    cli_conv_opts_t conv;
    seer_dtype_t dtype;
    seer_layout_t layout;
    int dir, format;            /* format: 0 table, 1 json */
    size_t limit;               /* workspace, bytes; SIZE_MAX: none */
} pick_opts_t;

/* The options, checked (no model needed): CLI_OK with *done set after
 * --help, else the exit code of a usage error. */
static int pick_parse(int argc, char **argv, pick_opts_t *o, int *done)
{
    static const char *const formats[] = {"table", "json", NULL};
    static const struct option opts[] = {CLI_CONV_OPTIONS, CLI_FLAG("help"), CLI_VALUE("model"),
                                         CLI_VALUE("gpu"), CLI_VALUE("models"), CLI_VALUE("dtype"),
                                         CLI_VALUE("layout"), CLI_VALUE("direction"),
                                         CLI_VALUE("workspace-mb"), CLI_VALUE("format"), CLI_END};
    const char *dtype_s = "fp32", *layout_s = "nchw", *ws_s = NULL;
    cli_args_t a;
    cli_args_init(&a, "pick", opts, argc, argv);
    while (cli_next(&a)) {
        int got = cli_conv_opt(&a, &o->conv);
        if (got < 0) return CLI_USAGE;
        if (got) continue;
        else if (cli_is(&a, "--help") || cli_is(&a, "-h")) { usage_pick(stdout); *done = 1; return CLI_OK; }
        else if (cli_is(&a, "--model")) { if (!(o->model_opt = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--gpu")) { if (!(o->gpu_opt = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--models")) { if (!(o->models_opt = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--dtype")) { if (!(dtype_s = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--layout")) { if (!(layout_s = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--direction")) { if ((o->dir = cli_direction(&a)) < 0) return CLI_USAGE; }
        else if (cli_is(&a, "--workspace-mb")) { if (!(ws_s = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--format")) { if ((o->format = cli_choice(&a, formats)) < 0) return CLI_USAGE; }
        else return cli_unknown(&a);
    }
    if (cli_conv_opt_name(&o->conv, 0))
        return cli_usage_error("pick", "option %s is required", cli_conv_opt_name(&o->conv, 0));
    if (seer_dtype_from_name(dtype_s, &o->dtype))
        return cli_usage_error("pick", "option --dtype: unknown dtype '%s'", dtype_s);
    if (seer_layout_from_name(layout_s, &o->layout))
        return cli_usage_error("pick", "option --layout: unknown layout '%s'", layout_s);
    o->limit = SIZE_MAX;
    if (ws_s) {
        char *end;
        errno = 0;
        double mb = strtod(ws_s, &end);
        if (!*ws_s || *end || errno || !(mb >= 0) || mb > 1e12)
            return cli_usage_error("pick", "option --workspace-mb: expected a size in MiB in [0, 1e12], got '%s'", ws_s);
        o->limit = (size_t)(mb * 1048576.0);
    }
    return CLI_OK;
}

/* What seer net and predict --data take for the conv: seer_pick_conv_fastest's
 * algorithm and time (ms NAN: none), or, for a backward pass only the
 * analytical model times under a measured forward one, a ratio of the
 * forward pass (mark B). */
typedef struct {
    int algo;
    double ms;
    int bwd_from_fwd;
} net_pick_t;

static void print_pick_json(const pick_opts_t *o, const seer_model_info_t *mi, seer_status_t st,
                            const seer_conv_algo_perf_t *perf, int n, const net_pick_t *np)
{
    printf("{\"gpu\": ");
    cli_json_str(stdout, mi->gpu_id);
    cli_json_served(mi);
    printf(", \"direction\": \"%s\", \"workspace_limit\": ", dirs[o->dir]);
    if (o->limit == SIZE_MAX) printf("null");
    else printf("%zu", o->limit);
    cli_json_str_field("status", seer_status_string(st));
    printf(",\n  \"perf\": [");
    for (int i = 0; i < n; i++) {
        printf("%s\n    {\"algo\": ", i ? "," : "");
        cli_json_str(stdout, seer_algo_name((seer_direction_t)o->dir, perf[i].algo));
        printf(", \"algo_id\": %d, \"status\": \"%s\"", perf[i].algo, cli_algo_status(perf[i].status));
        cli_json_num_field("time_ms", perf[i].time >= 0 ? perf[i].time : NAN);
        printf(", \"workspace_bytes\": %zu, \"deterministic\": %s, \"math_type\": \"%s\", \"source\": ",
               perf[i].memory, perf[i].determinism ? "true" : "false", math_name(perf[i].math_type));
        if (perf[i].time >= 0) printf("\"%s\"}", seer_source_name(perf[i].source));
        else printf("null}");
    }
    printf("]");
    if (!isnan(np->ms)) {
        printf(",\n  \"pick\": {\"algo\": ");
        cli_json_str(stdout, seer_algo_name((seer_direction_t)o->dir, np->algo));
        cli_json_num_field("time_ms", np->ms);
        printf(", \"bwd_from_fwd\": %s}", np->bwd_from_fwd ? "true" : "false");
    }
    printf("}\n");
}

static void print_pick_table(const pick_opts_t *o, const seer_model_info_t *mi, int picked,
                             const seer_conv_algo_perf_t *perf, int n, const net_pick_t *np)
{
    seer_direction_t dir = (seer_direction_t)o->dir;
    cli_print_model_line(mi);
    printf("direction %s, workspace limit ", dirs[o->dir]);
    if (o->limit == SIZE_MAX) printf("none\n\n");
    else printf("%.6g MiB\n\n", o->limit / 1048576.0);
    printf("%-4s %-24s %-15s %12s %14s %-6s %-14s %s\n", "rank", "algo", "status", "ms", "workspace MiB",
           "determ", "math", "source");
    for (int i = 0; i < n; i++) {
        char t[32] = "-", wsb[32] = "-";
        if (perf[i].time >= 0) snprintf(t, sizeof t, "%.4f", perf[i].time);
        if (perf[i].status != SEER_STATUS_UNSUPPORTED) snprintf(wsb, sizeof wsb, "%.3f", perf[i].memory / 1048576.0);
        printf("%-4d %-24s %-15s %12s %14s %-6s %-14s %s\n", i + 1, seer_algo_name(dir, perf[i].algo),
               cli_algo_status(perf[i].status), t, wsb, perf[i].determinism ? "yes" : "no", math_name(perf[i].math_type),
               perf[i].time >= 0 ? seer_source_name(perf[i].source) : "-");
    }
    if (!picked) return;
    printf("\npick      %s\n", seer_algo_name(dir, perf[0].algo));
    if (isnan(np->ms)) return;
    /* the time seer net and predict --data take: the fastest's own, bounded
     * by the physics of the other convs, or cuDNN's choice's (picker.md) */
    if (np->algo != perf[0].algo) {
        const char *why = np->algo == SEER_ALGO_CUDNN_CHOICE ? "the family of cuDNN's choice"
                          : o->dtype == SEER_DTYPE_TF32      ? "the FP32 kernels, which TF32 runs where they are faster"
                                                             : "the picker's rule";
        for (int i = 0; i < n; i++)
            if (perf[i].algo == np->algo && perf[i].status == SEER_STATUS_WORKSPACE_LIMIT)
                why = "over the workspace limit";
        printf("          seer net and predict --data take %s, %.4f ms (%s; docs/picker.md)\n",
               seer_algo_name(dir, np->algo), np->ms, why);
    } else if (fabs(np->ms - perf[0].time) > perf[0].time * 1e-9) {
        printf("          seer net and predict --data take %.4f ms: capped by the fp32, pseudo-half, dense, "
               "fewer-groups or stride-1 conv, or a grouped one held to one group's%s (docs/picker.md)\n",
               np->ms, dir == SEER_DIR_BWD_DATA ? ", or read with its dual forward conv too" : "");
    }
    if (np->bwd_from_fwd) cli_print_bwd_from_fwd(dir);
}

/* Rank, print, and say why when nothing can be picked (exit status 1). */
static int pick_rank(seer_handle_t h, const pick_opts_t *o, seer_model_t m, seer_conv_desc_t d)
{
    seer_conv_algo_perf_t perf[SEER_FWD_ALGO_COUNT];
    int n = 0;
    seer_status_t st = cli_pick_algos(h, m, d, (seer_direction_t)o->dir, o->limit, perf, SEER_FWD_ALGO_COUNT, &n);
    int picked = st == SEER_STATUS_SUCCESS;
    if (!picked && st != SEER_STATUS_NO_ALGORITHM && st != SEER_STATUS_NOT_CALIBRATED && st != SEER_STATUS_UNSUPPORTED)
        return cli_lib_error(h, st);
    char why[1024] = "";
    if (!picked) seer_get_last_error_copy(h, why, sizeof why);
    net_pick_t np = {0, NAN, 0};
    if (picked && seer_pick_conv_fastest(h, m, d, (seer_direction_t)o->dir, &np.algo, &np.ms)) np.ms = NAN;
    if (!isnan(np.ms) && seer_conv_bwd_from_fwd(h, m, d, (seer_direction_t)o->dir, &np.bwd_from_fwd)) np.bwd_from_fwd = 0;
    seer_model_info_t mi;
    seer_model_get_info(m, &mi);
    if (o->format == 1) print_pick_json(o, &mi, st, perf, n, &np);
    else print_pick_table(o, &mi, picked, perf, n, &np);
    if (picked) return CLI_OK;
    fprintf(stderr, "seer pick: %s: %s\n", seer_status_string(st), why);
    return CLI_FAIL;
}

int seer_cli_pick(int argc, char **argv)
{
    pick_opts_t o;
    int done = 0, rc;
    memset(&o, 0, sizeof o);
    if ((rc = pick_parse(argc, argv, &o, &done)) || done) return rc;
    seer_handle_t h = NULL;
    seer_model_t m = NULL;
    seer_conv_desc_t d = NULL;
    seer_status_t st = seer_create(&h);
    if (st) return cli_lib_error(NULL, st);
    if ((st = seer_conv_desc_create(&d)) || (st = cli_conv_desc_set(h, d, o.dtype, o.layout, &o.conv)))
        rc = cli_lib_error(h, st);
    else if (!(rc = cli_open_model(h, "pick", o.model_opt, o.gpu_opt, o.models_opt, &m)))
        rc = pick_rank(h, &o, m, d);
    seer_conv_desc_destroy(d);
    seer_model_destroy(m);
    seer_destroy(h);
    return rc;
}

/* seer eval-net: predicted network iterations against measured ones. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
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
            "resolution), layout.  network: a built-in name or a description file;\n"
            "mode: infer or train; measured_ms: one forward pass or training iteration.\n"
            "With --model only rows of the model's GPU are scored; otherwise each row\n"
            "uses DIR/<gpu>.seer.  Prints each row's error, then MAPE per network.\n");
}

typedef struct {
    char network[256], gpu[32];
    seer_dtype_t dtype;
    seer_layout_t layout;
    int batch, mode, res;
    double meas, pred;
    long line;
} netrow_t;

int seer_cli_eval_net(int argc, char **argv)
{
    static const char *const formats[] = {"table", "json", NULL};
    cli_args_t a;
    const char *model_opt = NULL, *models_opt = NULL, *data = NULL;
    int format = 0, policy = SEER_ALGO_AUTO;
    static const struct option opts[] = {CLI_FLAG("help"), CLI_VALUE("model"), CLI_VALUE("models"),
                                         CLI_VALUE("data"), CLI_VALUE("format"), CLI_VALUE("algo"), CLI_END};
    cli_args_init(&a, "eval-net", opts, argc, argv);
    while (cli_next(&a)) {
        if (cli_is(&a, "--help") || cli_is(&a, "-h")) { usage_eval_net(stdout); return CLI_OK; }
        else if (cli_is(&a, "--model")) { if (!(model_opt = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--models")) { if (!(models_opt = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--data")) { if (!(data = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--format")) { if ((format = cli_choice(&a, formats)) < 0) return CLI_USAGE; }
        else if (cli_is(&a, "--algo")) {
            const char *v = cli_value(&a);
            if (!v || !cli_parse_policy("eval-net", v, &policy)) return CLI_USAGE;
        } else return cli_unknown(&a);
    }
    if (!data) return cli_usage_error("eval-net", "option --data is required");
    seer_handle_t h = NULL;
    seer_csv_t *c = NULL;
    netrow_t *rows = NULL;
    size_t n = 0, cap = 0;
    int rc = CLI_OK;
    struct { char gpu[32]; seer_model_t m; } models[32];
    int nmodels = 0;
    seer_status_t st = seer_create(&h);
    if (st) return cli_lib_error(NULL, st);
    seer_model_t fixed = NULL;
    seer_model_info_t fixed_info;
    if (model_opt) {
        if ((rc = cli_open_model(h, "eval-net", model_opt, NULL, NULL, &fixed))) goto out;
        seer_model_get_info(fixed, &fixed_info);
    }
    if ((st = seer_csv_open_file(h, data, &c))) { rc = cli_lib_error(h, st); goto out; }
    static const char *const req[] = {"network", "gpu", "dtype", "batch", "mode", "measured_ms"};
    int col[6];
    for (int i = 0; i < 6; i++)
        if ((col[i] = seer_csv_col(c, req[i])) < 0) {
            rc = cli_fail("eval-net", "%s: missing column '%s' (need network,gpu,dtype,batch,mode,measured_ms)",
                          data, req[i]);
            goto out;
        }
    int col_res = seer_csv_col(c, "res"), col_layout = seer_csv_col(c, "layout");
    long skipped = 0;
    for (;;) {
        int eof = 0;
        if ((st = seer_csv_next(h, c, &eof))) { rc = cli_lib_error(h, st); goto out; }
        if (eof) break;
        if (n == cap) {
            netrow_t *nr = realloc(rows, (cap = cap ? 2 * cap : 64) * sizeof *nr);
            if (!nr) { rc = cli_fail("eval-net", "out of memory"); goto out; }
            rows = nr;
        }
        netrow_t *r = &rows[n];
        memset(r, 0, sizeof *r);
        r->line = seer_csv_line(c);
        snprintf(r->network, sizeof r->network, "%s", seer_csv_field(c, col[0]));
        snprintf(r->gpu, sizeof r->gpu, "%s", seer_csv_field(c, col[1]));
        const char *mode = seer_csv_field(c, col[4]);
        if (seer_dtype_from_name(seer_csv_field(c, col[2]), &r->dtype)) {
            rc = cli_fail("eval-net", "%s:%ld: column 'dtype': unknown dtype '%s'", data, r->line,
                          seer_csv_field(c, col[2]));
            goto out;
        }
        if (strcmp(mode, "infer") && strcmp(mode, "train")) {
            rc = cli_fail("eval-net", "%s:%ld: column 'mode': expected infer or train, got '%s'", data,
                          r->line, mode);
            goto out;
        }
        r->mode = mode[0] == 't';
        r->layout = SEER_LAYOUT_NCHW;
        if (col_layout >= 0 && *seer_csv_field(c, col_layout) &&
            seer_layout_from_name(seer_csv_field(c, col_layout), &r->layout)) {
            rc = cli_fail("eval-net", "%s:%ld: column 'layout': unknown layout", data, r->line);
            goto out;
        }
        if ((st = seer_csv_int(h, c, col[3], "batch", 1, 1 << 24, &r->batch)) ||
            (st = seer_csv_dbl(h, c, col[5], "measured_ms", &r->meas)) ||
            (col_res >= 0 && *seer_csv_field(c, col_res) &&
             (st = seer_csv_int(h, c, col_res, "res", 1, 1 << 24, &r->res)))) {
            rc = cli_lib_error(h, st);
            goto out;
        }
        if (!(r->meas > 0)) {
            rc = cli_fail("eval-net", "%s:%ld: column 'measured_ms' must be > 0", data, r->line);
            goto out;
        }
        if (fixed && !cli_same_gpu(r->gpu, fixed_info.gpu_id)) { skipped++; continue; }
        n++;
    }
    /* Predict everything before printing. */
    for (size_t i = 0; i < n; i++) {
        netrow_t *r = &rows[i];
        seer_model_t m = fixed;
        if (!m) {
            for (int j = 0; j < nmodels && !m; j++)
                if (cli_same_gpu(models[j].gpu, r->gpu)) m = models[j].m;
            if (!m) {
                if (nmodels == 32) { rc = cli_fail("eval-net", "more than 32 GPUs"); goto out; }
                if ((rc = cli_open_model(h, "eval-net", NULL, r->gpu, models_opt, &m))) {
                    fprintf(stderr, "seer eval-net: (row at %s:%ld)\n", data, r->line);
                    goto out;
                }
                snprintf(models[nmodels].gpu, sizeof models[nmodels].gpu, "%s", r->gpu);
                models[nmodels++].m = m;
            }
        }
        seer_network_t net = NULL;
        if ((rc = cli_open_net(h, "eval-net", r->network, r->res, &net))) {
            fprintf(stderr, "seer eval-net: (row at %s:%ld)\n", data, r->line);
            goto out;
        }
        int cnt;
        st = seer_predict_network(h, m, net, r->batch, r->dtype, r->layout, (seer_mode_t)r->mode, policy,
                                  NULL, 0, &cnt, &r->pred);
        seer_network_destroy(net);
        if (st) {
            fprintf(stderr, "seer eval-net: %s:%ld: %s: %s\n", data, r->line, seer_status_string(st),
                    seer_get_last_error(h));
            rc = CLI_FAIL;
            goto out;
        }
    }
    if (!n) {
        rc = cli_fail("eval-net", "%s: no rows to score%s", data, skipped ? " (none of the model's GPU)" : "");
        goto out;
    }
    /* Per network (and mode): MAPE. */
    double s_all = 0, s2_all = 0;
    if (format == 1) printf("{\"rows\": [");
    else printf("%-16s %-16s %-6s %5s %-5s %12s %12s %8s\n", "network", "gpu", "dtype", "batch", "mode",
                "measured_ms", "pred_ms", "error");
    for (size_t i = 0; i < n; i++) {
        netrow_t *r = &rows[i];
        double e = (r->pred - r->meas) / r->meas;
        s_all += fabs(e);
        s2_all += e * e;
        if (format == 1) {
            printf("%s\n  {\"line\": %ld, \"network\": ", i ? "," : "", r->line);
            cli_json_str(stdout, r->network);
            cli_json_str_field("gpu", r->gpu);
            printf(", \"dtype\": \"%s\", \"batch\": %d, \"mode\": \"%s\"",
                   seer_dtype_name(r->dtype), r->batch, r->mode ? "train" : "infer");
            cli_json_num_field("measured_ms", r->meas);
            cli_json_num_field("pred_ms", r->pred);
            cli_json_num_field("error", e);
            printf("}");
        } else {
            printf("%-16.16s %-16.16s %-6s %5d %-5s %12.3f %12.3f %+7.1f%%\n", r->network, r->gpu,
                   seer_dtype_name(r->dtype), r->batch, r->mode ? "train" : "infer", r->meas, r->pred, 100 * e);
        }
    }
    if (format == 1) printf("],\n \"networks\": [");
    else printf("\n%-16s %5s %8s %8s\n", "network", "rows", "MAPE", "RMSPE");
    int first = 1;
    for (size_t i = 0; i < n; i++) {
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++) seen = !strcmp(rows[j].network, rows[i].network);
        if (seen) continue;
        double s = 0, s2 = 0;
        int k = 0;
        for (size_t j = i; j < n; j++)
            if (!strcmp(rows[j].network, rows[i].network)) {
                double e = (rows[j].pred - rows[j].meas) / rows[j].meas;
                s += fabs(e);
                s2 += e * e;
                k++;
            }
        if (format == 1) {
            printf("%s\n  {\"network\": ", first ? "" : ",");
            cli_json_str(stdout, rows[i].network);
            printf(", \"rows\": %d, \"mape\": %.6g, \"rmspe\": %.6g}", k, s / k, sqrt(s2 / k));
        } else {
            printf("%-16.16s %5d %7.1f%% %7.1f%%\n", rows[i].network, k, 100 * s / k, 100 * sqrt(s2 / k));
        }
        first = 0;
    }
    if (format == 1) printf("],\n \"all\": {\"rows\": %zu, \"mape\": %.6g, \"rmspe\": %.6g}}\n", n, s_all / n, sqrt(s2_all / n));
    else printf("%-16s %5zu %7.1f%% %7.1f%%\n", "all", n, 100 * s_all / n, 100 * sqrt(s2_all / n));
    if (skipped)
        fprintf(stderr, "seer eval-net: %ld rows of other GPUs than %s skipped\n", skipped, fixed_info.gpu_id);
    rc = CLI_OK;
out:
    seer_csv_close(c);
    free(rows);
    for (int j = 0; j < nmodels; j++) seer_model_destroy(models[j].m);
    seer_model_destroy(fixed);
    seer_destroy(h);
    return rc;
}

/* seer predict: one convolution's algorithms and kernels, or every row of
 * a conv timing CSV (docs/cli.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

static const char *const formats_table_json[] = {"table", "json", NULL};
static const char *const formats_csv_json[] = {"csv", "json", NULL};

/* ------------------------------------------------------------------ */
/* seer predict                                                        */
/* ------------------------------------------------------------------ */

static void usage_predict(FILE *f)
{
    fprintf(f,
            "usage: seer predict (--model FILE | --gpu GPU [--models DIR])\n"
            "                    --n N --c C --h H --w W --k K [conv options]\n"
            "                    [--algo NAME|auto] [--kernels] [--format table|json]\n"
            "       seer predict (--model FILE | --gpu GPU) --data CSV [--format csv|json]\n"
            "\n"
            "Predict the time of one cuDNN convolution, or of every row of a conv\n"
            "timing CSV (output: the input plus pred_algo and pred_ms columns; rows\n"
            "with an empty, MIXED or UNKNOWN algo use the fastest predicted algorithm).\n"
            "\n"
            "  --gpu GPU          use DIR/GPU.seer (see seer gpus for DIR); GPU may be a\n"
            "                     GPU description file (docs/formats.md)\n"
            "  --direction D      fwd (default), bwd_data, bwd_filter\n"
            "  --dtype T          fp32 (default), tf32, fp16, bf16, fp16_pseudo\n"
            "  --layout L         nchw (default), nhwc\n"
            "  --r R --s S        filter size (default 3 x 3)\n"
            "  --pad P            both paddings (default 1); --pad-h, --pad-w\n"
            "  --stride S         both strides (default 1); --stride-h, --stride-w\n"
            "  --dil D            both dilations (default 1); --dil-h, --dil-w\n"
            "  --groups G         group count (default 1)\n"
            "  --algo NAME|auto   one cuDNN algorithm (IMPLICIT_GEMM, ..., ALGO_0) or\n"
            "                     auto (default): every algorithm, fastest first\n"
            "  --kernels          show the predicted kernels of each algorithm\n");
}

static const char *status_word(seer_status_t st)
{
    return st == SEER_STATUS_UNSUPPORTED ? "unsupported"
           : st == SEER_STATUS_NOT_CALIBRATED ? "not calibrated" : "error";
}

static const char *class_name(int cls)
{
    return cls < 0 ? "-" : seer_class_name((seer_class_t)cls);
}

typedef struct {
    int algo;
    seer_status_t st;
    cli_pred_t p;
} algo_result_t;

static int by_time(const void *x, const void *y)
{
    const algo_result_t *a = x, *b = y;
    int fa = a->st != SEER_STATUS_SUCCESS, fb = b->st != SEER_STATUS_SUCCESS;
    if (fa != fb) return fa - fb;
    if (!fa && a->p.time_ms != b->p.time_ms) return a->p.time_ms < b->p.time_ms ? -1 : 1;
    return a->algo - b->algo;
}

/* regs / smem of 0 mean "not known" (the conv model does not predict
 * them): shown as "-" rather than a misleading 0. */
static const char *known_int(char *buf, size_t size, int v)
{
    if (v > 0) snprintf(buf, size, "%d", v);
    else snprintf(buf, size, "-");
    return buf;
}

static void print_kernels_table(const seer_kernel_pred_t *k, int n)
{
    int w = 16; /* the name column is as wide as the longest name */
    for (int i = 0; i < n; i++)
        if ((int)strnlen(k[i].name, sizeof k[i].name) > w) w = (int)strnlen(k[i].name, sizeof k[i].name);
    printf("  %-16s %-*s %-14s %-11s %4s %6s %6s %5s %-7s %10s\n", "role", w, "name", "grid", "block",
           "regs", "smem", "waves", "fill", "class", "ms");
    for (int i = 0; i < n; i++) {
        char grid[40], block[40], regs[16], smem[16];
        snprintf(grid, sizeof grid, "%dx%dx%d", k[i].grid[0], k[i].grid[1], k[i].grid[2]);
        snprintf(block, sizeof block, "%dx%dx%d", k[i].block[0], k[i].block[1], k[i].block[2]);
        printf("  %-16s %-*.*s %-14s %-11s %4s %6s %6.0f %5.2f %-7s %10.4f\n",
               seer_role_name(k[i].role), w, (int)sizeof k[i].name, k[i].name, grid, block,
               known_int(regs, sizeof regs, k[i].regs_per_thread),
               known_int(smem, sizeof smem, k[i].smem_bytes), k[i].waves, k[i].last_fill,
               seer_class_name(k[i].cls), k[i].time_ms);
    }
}

static void print_kernels_json(const seer_kernel_pred_t *k, int n)
{
    printf(", \"kernels\": [");
    for (int i = 0; i < n; i++) {
        printf("%s\n      {\"role\": ", i ? "," : "");
        cli_json_str(stdout, seer_role_name(k[i].role));
        cli_json_str_field("name", k[i].name);
        char regs[16], smem[16];
        printf(", \"grid\": [%d, %d, %d], \"block\": [%d, %d, %d], \"regs\": %s, \"smem\": %s",
               k[i].grid[0], k[i].grid[1], k[i].grid[2], k[i].block[0], k[i].block[1],
               k[i].block[2], k[i].regs_per_thread > 0 ? known_int(regs, sizeof regs, k[i].regs_per_thread) : "null",
               k[i].smem_bytes > 0 ? known_int(smem, sizeof smem, k[i].smem_bytes) : "null");
        cli_json_num_field("flops", k[i].flops);
        cli_json_num_field("dram_bytes", k[i].dram_bytes);
        printf(", \"blocks_per_sm\": %d", k[i].blocks_per_sm);
        cli_json_num_field("waves", k[i].waves);
        cli_json_num_field("last_fill", k[i].last_fill);
        cli_json_str_field("class", seer_class_name(k[i].cls));
        cli_json_num_field("time_ms", k[i].time_ms);
        printf("}");
    }
    printf("]");
}

/* One convolution: every algorithm (auto) or one. */
static int predict_one(seer_handle_t h, seer_model_t m, const char *model_path, seer_conv_desc_t d,
                       seer_direction_t dir, int algo, int kernels, int json)
{
    algo_result_t res[16];
    int n = 0, ok = 0, rc = CLI_OK;
    char why[256] = ""; /* the first soft failure's message */
    int lo = algo >= 0 ? algo : 0, hi = algo >= 0 ? algo + 1 : cli_algo_count(dir);
    for (int a = lo; a < hi; a++) {
        res[n].algo = a;
        memset(&res[n].p, 0, sizeof res[n].p);
        res[n].st = cli_predict(h, m, d, dir, a, kernels, &res[n].p);
        if (res[n].st == SEER_STATUS_SUCCESS) ok++;
        else if (algo >= 0 || !cli_soft_failure(res[n].st)) {
            rc = cli_lib_error(h, res[n].st);
            n++;
            goto done;
        } else if (!why[0]) {
            seer_get_last_error_copy(h, why, sizeof why);
        }
        n++;
    }
    if (!ok) {
        fprintf(stderr, "seer predict: no algorithm of %s could be predicted by this model%s%s\n",
                seer_direction_name(dir), why[0] ? ": " : "", why);
        rc = CLI_FAIL;
        goto done;
    }
    qsort(res, (size_t)n, sizeof res[0], by_time);

    seer_model_info_t info;
    seer_gpu_info_t g;
    seer_status_t st;
    if ((st = seer_model_get_info(m, &info)) || (st = seer_model_get_gpu(m, &g))) {
        rc = cli_lib_error(h, st);
        goto done;
    }
    int p = 0, q = 0;
    double flops = NAN, bytes = NAN, roof = NAN;
    seer_conv_desc_get_output(d, &p, &q);
    if (seer_conv_work(d, dir, &flops, &bytes)) flops = bytes = NAN;
    if (seer_roofline_conv(h, &g, d, dir, &roof)) roof = NAN;

    if (json) {
        printf("{\"gpu\": ");
        cli_json_str(stdout, info.gpu_id);
        cli_json_str_field("model", info.transferred ? NULL : model_path);
        cli_json_str_field("served", info.transferred ? "transferred" : "calibrated");
        cli_json_str_field("source_gpus", info.source_gpus);
        printf(", \"direction\": \"%s\", \"p\": %d, \"q\": %d", seer_direction_name(dir),
               p, q);
        cli_json_num_field("flops", flops);
        cli_json_num_field("min_bytes", bytes);
        cli_json_num_field("roofline_ms", roof);
        printf(",\n  \"predictions\": [");
        for (int i = 0; i < n; i++) {
            printf("%s\n    {\"algo\": ", i ? "," : "");
            cli_json_str(stdout, seer_algo_name(dir, res[i].algo));
            printf(", \"algo_id\": %d, ", res[i].algo);
            if (res[i].st == SEER_STATUS_SUCCESS) {
                printf("\"status\": \"ok\"");
                cli_json_num_field("time_ms", res[i].p.time_ms);
                cli_json_str_field("class", class_name((int)res[i].p.cls));
                cli_json_str_field("source", seer_source_name(res[i].p.source));
                if (kernels) print_kernels_json(res[i].p.kernels, res[i].p.n_kernels);
            } else {
                printf("\"status\": ");
                cli_json_str(stdout, res[i].st == SEER_STATUS_UNSUPPORTED ? "unsupported"
                                                                          : "not_calibrated");
                printf(", \"time_ms\": null");
            }
            printf("}");
        }
        printf("]}\n");
        goto done;
    }
    if (info.transferred)
        printf("model     transferred to %s from %s (no calibrated model)\n", info.gpu_id, info.source_gpus);
    else
        printf("model     %s (%s)\n", model_path, info.gpu_id);
    printf("output    p=%d q=%d\n", p, q);
    printf("work      %.4g GFLOP, %.4g MB minimum DRAM traffic\n", flops / 1e9, bytes / 1e6);
    printf("roofline  %.4g ms\n\n", roof);
    printf("%-4s %-24s %14s %8s  %-10s  %s\n", "rank", "algo", "ms", "kernels", "main class", "source");
    for (int i = 0; i < n; i++) {
        if (res[i].st == SEER_STATUS_SUCCESS)
            printf("%-4d %-24s %14.4f %8d  %-10s  %s\n", i + 1, seer_algo_name(dir, res[i].algo),
                   res[i].p.time_ms, res[i].p.n_kernels, class_name((int)res[i].p.cls),
                   seer_source_name(res[i].p.source));
        else
            printf("%-4s %-24s %14s\n", "-", seer_algo_name(dir, res[i].algo),
                   status_word(res[i].st));
    }
    if (kernels)
        for (int i = 0; i < n; i++) {
            if (res[i].st != SEER_STATUS_SUCCESS) continue;
            printf("\n%s: %.4f ms\n", seer_algo_name(dir, res[i].algo), res[i].p.time_ms);
            print_kernels_table(res[i].p.kernels, res[i].p.n_kernels);
        }
done:
    for (int i = 0; i < n; i++) free(res[i].p.kernels);
    return rc;
}

/* Echo a CSV verbatim with pred_algo and pred_ms appended.  The
 * tokenizer consumes the header, so it reads the file behind a made-up
 * header of the right width: the real header then comes back as the
 * first record, and every record sits one line below its original. */
static int echo_csv(seer_handle_t h, const char *path, const seer_conv_row_t *rows, size_t n,
                    const int *palgo, const double *pred)
{
    seer_csv_t *c = NULL;
    char *buf = NULL, *all = NULL;
    size_t size = 0;
    seer_status_t st = seer_read_input_file(h, path, "CSV", SEER_CSV_MAX_BYTES, &buf, &size);
    if (st) return cli_lib_error(h, st);
    if ((st = seer_csv_open_buffer(h, path, buf, size, &c))) goto done;
    int nc = seer_csv_ncols(c);
    seer_csv_close(c);
    c = NULL;
    size_t hdr = (size_t)nc * 12 + 2, len = 0;
    if (!(all = malloc(hdr + size + 1))) { st = SEER_STATUS_ALLOC_FAILED; goto done; }
    for (int i = 0; i < nc; i++) len += (size_t)sprintf(all + len, "%sc%d", i ? "," : "", i);
    all[len++] = '\n';
    memcpy(all + len, buf, size);
    if ((st = seer_csv_open_buffer(h, path, all, len + size, &c))) goto done;
    size_t j = 0;
    for (int first = 1;; first = 0) {
        int eof = 0;
        if ((st = seer_csv_next(h, c, &eof)) || eof) break;
        for (int i = 0; i < nc; i++) {
            if (i) putchar(',');
            cli_csv_field(stdout, seer_csv_field(c, i));
        }
        if (first) {
            printf(",pred_algo,pred_ms\n");
            continue;
        }
        long line = seer_csv_line(c) - 1;
        while (j < n && rows[j].line < line) j++;
        if (j < n && rows[j].line == line && palgo[j] >= 0)
            printf(",%s,%.6g\n", seer_algo_name(rows[j].dir, palgo[j]), pred[j]);
        else
            printf(",,\n");
    }
done:
    seer_csv_close(c);
    free(buf);
    free(all);
    return st ? cli_lib_error(h, st) : CLI_OK;
}

/* Every row of a conv timing CSV. */
static int predict_csv(seer_handle_t h, seer_model_t m, const char *path, int json)
{
    seer_conv_row_t *rows = NULL;
    size_t n = 0;
    double *pred = NULL;
    int *palgo = NULL, rc = CLI_OK;
    long other_gpu = 0, failed = 0;
    seer_conv_desc_t d = NULL;
    seer_model_info_t info;
    seer_status_t st;
    if ((st = seer_model_get_info(m, &info)) || (st = seer_conv_csv_read(h, path, &rows, &n)) ||
        (st = seer_conv_desc_create(&d)))
        goto lib_error;
    pred = malloc((n ? n : 1) * sizeof *pred);
    palgo = malloc((n ? n : 1) * sizeof *palgo);
    if (!pred || !palgo) {
        rc = cli_fail("predict", "out of memory");
        goto done;
    }
    /* Predict everything before printing anything: no partial output. */
    for (size_t i = 0; i < n; i++) {
        const seer_conv_row_t *r = &rows[i];
        cli_pred_t p = {0};
        pred[i] = NAN;
        palgo[i] = -1;
        if (!cli_same_gpu(r->gpu, info.gpu_id)) {
            other_gpu++;
            continue;
        }
        if ((st = seer_conv_row_algo_error(h, path, r)) || (st = cli_desc_from_row(h, r, d)))
            goto lib_error;
        if (r->algo >= 0) st = cli_predict(h, m, d, r->dir, r->algo, 0, &p);
        else st = cli_predict_fastest(h, m, d, r->dir, 0, &p);
        if (cli_soft_failure(st)) {
            failed++;
            continue;
        }
        if (st) goto lib_error;
        pred[i] = p.time_ms;
        palgo[i] = p.algo;
    }
    if (json) {
        printf("[");
        for (size_t i = 0; i < n; i++) {
            const seer_conv_row_t *r = &rows[i];
            printf("%s\n  {\"line\": %ld, \"gpu\": ", i ? "," : "", r->line);
            cli_json_str(stdout, r->gpu);
            printf(", \"direction\": \"%s\", \"dtype\": \"%s\", \"layout\": \"%s\", \"n\": %d, "
                   "\"c\": %d, \"h\": %d, \"w\": %d, \"k\": %d, \"r\": %d, \"s\": %d, "
                   "\"pad_h\": %d, \"pad_w\": %d, \"stride_h\": %d, \"stride_w\": %d, "
                   "\"dil_h\": %d, \"dil_w\": %d, \"groups\": %d, \"algo\": ",
                   seer_direction_name(r->dir), seer_dtype_name(r->dtype),
                   seer_layout_name(r->layout), r->n, r->c, r->h, r->w, r->k, r->r, r->s, r->pad_h,
                   r->pad_w, r->stride_h, r->stride_w, r->dil_h, r->dil_w, r->groups);
            if (r->algo >= 0) cli_json_str(stdout, seer_algo_name(r->dir, r->algo));
            else printf("null");
            cli_json_num_field("time_ms", r->time_ms >= 0 ? r->time_ms : NAN);
            cli_json_str_field("pred_algo", palgo[i] >= 0 ? seer_algo_name(r->dir, palgo[i]) : NULL);
            cli_json_num_field("pred_ms", pred[i]);
            printf("}");
        }
        printf("]\n");
    } else {
        if ((rc = echo_csv(h, path, rows, n, palgo, pred))) goto done;
    }
    if (other_gpu)
        fprintf(stderr, "seer predict: %ld rows of other GPUs than %s left without prediction\n",
                other_gpu, info.gpu_id);
    if (failed)
        fprintf(stderr, "seer predict: %ld rows could not be predicted (unsupported or not calibrated)\n",
                failed);
    goto done;
lib_error:
    rc = cli_lib_error(h, st);
done:
    seer_conv_desc_destroy(d);
    free(rows);
    free(pred);
    free(palgo);
    return rc;
}

int cli_predict_cmd(int argc, char **argv)
{
    static const char *const dirs[] = {"fwd", "bwd_data", "bwd_filter", NULL};
    cli_args_t a;
    const char *model_opt = NULL, *gpu_opt = NULL, *models_opt = NULL, *data = NULL;
    const char *dtype_s = "fp32", *layout_s = "nchw", *algo_s = "auto";
    int dir = 0, kernels = 0, format = -1;
    cli_conv_opts_t conv = {{0}, {0}};
    const char *format_s = NULL;

    static const struct option opts[] = {CLI_CONV_OPTIONS, CLI_FLAG("help"), CLI_FLAG("kernels"),
                                         CLI_VALUE("model"), CLI_VALUE("gpu"), CLI_VALUE("models"),
                                         CLI_VALUE("data"), CLI_VALUE("direction"), CLI_VALUE("dtype"),
                                         CLI_VALUE("layout"), CLI_VALUE("algo"), CLI_VALUE("format"),
                                         CLI_END};
    cli_args_init(&a, "predict", opts, argc, argv);
    while (cli_next(&a)) {
        int got = cli_conv_opt(&a, &conv);
        if (got < 0) return CLI_USAGE;
        if (got) {
            continue;
        } else if (cli_is(&a, "--help") || cli_is(&a, "-h")) {
            usage_predict(stdout);
            return CLI_OK;
        } else if (cli_is(&a, "--model")) {
            if (!(model_opt = cli_value(&a))) return CLI_USAGE;
        } else if (cli_is(&a, "--gpu")) {
            if (!(gpu_opt = cli_value(&a))) return CLI_USAGE;
        } else if (cli_is(&a, "--models")) {
            if (!(models_opt = cli_value(&a))) return CLI_USAGE;
        } else if (cli_is(&a, "--data")) {
            if (!(data = cli_value(&a))) return CLI_USAGE;
        } else if (cli_is(&a, "--direction")) {
            if ((dir = cli_choice(&a, dirs)) < 0) return CLI_USAGE;
        } else if (cli_is(&a, "--dtype")) {
            if (!(dtype_s = cli_value(&a))) return CLI_USAGE;
        } else if (cli_is(&a, "--layout")) {
            if (!(layout_s = cli_value(&a))) return CLI_USAGE;
        } else if (cli_is(&a, "--algo")) {
            if (!(algo_s = cli_value(&a))) return CLI_USAGE;
        } else if (cli_is(&a, "--kernels")) {
            if (!cli_flag(&a)) return CLI_USAGE;
            kernels = 1;
        } else if (cli_is(&a, "--format")) {
            if (!(format_s = cli_value(&a))) return CLI_USAGE;
        } else {
            return cli_unknown(&a);
        }
    }

    /* Validate everything that needs no model first, so a bad shape is
     * reported as such even when the model is missing. */
    const char *const *fmts = data ? formats_csv_json : formats_table_json;
    if (format_s) {
        for (format = 0; fmts[format] && strcmp(fmts[format], format_s); format++) {}
        if (!fmts[format])
            return cli_usage_error("predict", "option --format: expected %s, got '%s'",
                                   data ? "csv|json" : "table|json", format_s);
    } else {
        format = 0;
    }
    int json = strcmp(fmts[format], "json") == 0;
    const char *path = cli_model_path("predict", model_opt, gpu_opt, models_opt);
    if (!path) return CLI_USAGE;

    seer_handle_t h = NULL;
    seer_model_t m = NULL;
    seer_conv_desc_t d = NULL;
    seer_status_t st = seer_create(&h);
    int rc;
    if (st) return cli_lib_error(NULL, st);

    if (data) {
        if (cli_conv_opt_name(&conv, 1)) {
            rc = cli_usage_error("predict", "option %s cannot be combined with --data",
                                 cli_conv_opt_name(&conv, 1));
            goto out;
        }
        if ((rc = cli_open_model(h, "predict", model_opt, gpu_opt, models_opt, &m))) goto out;
        rc = predict_csv(h, m, data, json);
        goto out;
    }

    seer_dtype_t dtype;
    seer_layout_t layout;
    int algo = -1;
    if (seer_dtype_from_name(dtype_s, &dtype)) {
        rc = cli_usage_error("predict", "option --dtype: unknown dtype '%s' "
                             "(fp32, tf32, fp16, bf16, fp16_pseudo)", dtype_s);
        goto out;
    }
    if (seer_layout_from_name(layout_s, &layout)) {
        rc = cli_usage_error("predict", "option --layout: unknown layout '%s' (nchw, nhwc)",
                             layout_s);
        goto out;
    }
    if (strcmp(algo_s, "auto") != 0 &&
        seer_algo_from_name((seer_direction_t)dir, algo_s, &algo)) {
        rc = cli_usage_error("predict", "option --algo: '%s' is not a %s algorithm", algo_s,
                             dirs[dir]);
        goto out;
    }
    if (cli_conv_opt_name(&conv, 0)) {
        rc = cli_usage_error("predict", "option %s is required (or --data CSV)",
                             cli_conv_opt_name(&conv, 0));
        goto out;
    }
    if ((st = seer_conv_desc_create(&d)) || (st = cli_conv_desc_set(h, d, dtype, layout, &conv)))
        goto lib_error;
    if ((rc = cli_open_model(h, "predict", model_opt, gpu_opt, models_opt, &m))) goto out;
    rc = predict_one(h, m, path, d, (seer_direction_t)dir, algo, kernels, json);
    goto out;
lib_error:
    rc = cli_lib_error(h, st);
out:
    seer_conv_desc_destroy(d);
    seer_model_destroy(m);
    seer_destroy(h);
    return rc;
}

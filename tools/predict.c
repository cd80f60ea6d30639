/* seer predict: one convolution's algorithms and kernels, or every row of
 * a conv timing CSV (docs/cli.md). */
#include <dirent.h>
#include <errno.h>
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
            "       seer predict [--model FILE | --gpu GPU] [--models DIR] --data CSV\n"
            "                    [--format csv|json]\n"
            "\n"
            "Predict the time of one cuDNN convolution, or of every row of a conv\n"
            "timing CSV (output: the input plus pred_algo, pred_source and pred_ms; rows\n"
            "with an empty, CUDNN_CHOICE, MIXED or UNKNOWN algo use the fastest\n"
            "predicted algorithm, as do DeepBench forward fp32 rows: docs/formats.md).\n"
            "With --data and neither --model nor --gpu, each row is predicted for the\n"
            "GPU its gpu column names, from DIR as --gpu would.  A GEMM timing CSV is\n"
            "predicted with the GEMM fit (a pred_ms column).\n"
            "\n"
            "  --gpu GPU          use DIR/GPU.seer (see seer gpus for DIR); GPU may be a\n"
            "                     GPU description file (docs/formats.md)\n"
            "  --direction D      fwd (default), bwd_data, bwd_filter\n"
            "  --dtype T          fp32 (default), tf32, fp16, bf16, fp16_pseudo\n"
            "  --layout L         nchw (default), nhwc\n"
            "  --r R --s S        filter size (default 3 x 3)\n"
            "  --pad P            both paddings (default dil (r - 1) / 2 and dil (s - 1) / 2,\n"
            "                     \"same\" for odd filters); --pad-h, --pad-w\n"
            "  --stride S         both strides (default 1); --stride-h, --stride-w\n"
            "  --dil D            both dilations (default 1); --dil-h, --dil-w\n"
            "  --groups G         group count (default 1)\n"
            "  --algo NAME|auto   one cuDNN algorithm (IMPLICIT_GEMM, ..., ALGO_0),\n"
            "                     CUDNN_CHOICE (cuDNN's heuristic's choice), or\n"
            "                     auto (default): every algorithm, those timed from\n"
            "                     measurements first, then the analytical guesses\n"
            "  --kernels          show the predicted kernels of each algorithm\n");
}

static const char *status_word(seer_status_t st)
{
    return st == SEER_STATUS_UNSUPPORTED ? "unsupported"
           : st == SEER_STATUS_NOT_CALIBRATED ? "not calibrated"
           : st == SEER_STATUS_BAD_PREDICTION ? "out of range" : "error";
}

static const char *class_name(int cls)
{
    return cls < 0 ? "-" : seer_class_name((seer_class_t)cls);
}

typedef struct {
    int algo;
    seer_status_t st;
    cli_pred_t p;
    int pos;                    /* its place in seer pick's list (every algorithm but cuDNN's choice) */
} algo_result_t;

/* As seer pick ranks (docs/picker.md): its list's order, which puts the
 * algorithms predicted from measurements (calibrated, transferred) first
 * by time, then the analytical guesses, then SIMT kernels in tensor-core
 * math, then the algorithms that could not be predicted. */
static int by_pos(const void *x, const void *y)
{
    const algo_result_t *a = x, *b = y;
    return a->pos != b->pos ? a->pos - b->pos : a->algo - b->algo;
}

/* regs / smem of 0 mean "not known" (the conv model does not predict
 * them): shown as "-" rather than a misleading 0. */
static const char *known_int(char *buf, size_t size, int v)
{
    if (v > 0) snprintf(buf, size, "%d", v);
    else snprintf(buf, size, "-");
    return buf;
}

/* The kernel's name as printed: seer_kernel_pred_t holds 47 bytes of it
 * (include/seer.h), so a long template name is cut, and one cut after a
 * ", " would end in a blank that reads as the column gap: dropped. */
static const char *kernel_name(char out[48], const seer_kernel_pred_t *k)
{
    size_t len = strnlen(k->name, sizeof k->name);
    if (len == sizeof k->name) len--; /* never unterminated, whatever the library wrote */
    memcpy(out, k->name, len);
    if (len == sizeof k->name - 1)
        while (len > 0 && out[len - 1] == ' ') len--;
    out[len] = 0;
    return out;
}

static void print_kernels_table(const seer_kernel_pred_t *k, int n)
{
    int w = 16; /* the name column: at least 16, as wide as the longest name of these kernels */
    char name[48];
    for (int i = 0; i < n; i++)
        if ((int)strlen(kernel_name(name, &k[i])) > w) w = (int)strlen(name);
    printf("  %-16s %-*s %-14s %-11s %4s %6s %6s %5s %-7s %10s\n", "role", w, "name", "grid", "block",
           "regs", "smem", "waves", "fill", "class", "ms");
    for (int i = 0; i < n; i++) {
        char grid[40], block[40], regs[16], smem[16];
        snprintf(grid, sizeof grid, "%dx%dx%d", k[i].grid[0], k[i].grid[1], k[i].grid[2]);
        snprintf(block, sizeof block, "%dx%dx%d", k[i].block[0], k[i].block[1], k[i].block[2]);
        printf("  %-16s %-*s %-14s %-11s %4s %6s %6.0f %5.2f %-7s %10.4f\n",
               seer_role_name(k[i].role), w, kernel_name(name, &k[i]), grid, block,
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
        char name[48];
        cli_json_str_field("name", kernel_name(name, &k[i]));
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

/* The results of one convolution's algorithms, and what it is. */
typedef struct {
    seer_direction_t dir;
    algo_result_t res[16];      /* by_rank */
    int n;
    int pick;                   /* seer_pick_conv_fastest's algorithm, or SEER_ALGO_CUDNN_CHOICE */
    double pick_ms;             /* and its time; NAN with --algo NAME */
    int bwd_from_fwd;           /* seer net takes this backward pass from the forward one (mark B) */
    seer_model_info_t info;
    int p, q;                   /* output size */
    double flops, bytes, roof;  /* NAN when unknown */
} one_t;

/* An algorithm's own failure, which leaves the others to rank: none for
 * the shape, no data, or a time out of range (the picker's per-algorithm
 * statuses). */
static int algo_failure(seer_status_t st)
{
    return cli_soft_failure(st) || st == SEER_STATUS_BAD_PREDICTION;
}

/* o->res in seer pick's order, cuDNN's choice (listed where measured)
 * before the first algorithm that is a guess or slower. */
static seer_status_t rank_as_picked(seer_handle_t h, seer_model_t m, seer_conv_desc_t d, one_t *o)
{
    seer_conv_algo_perf_t perf[16];
    int np = 0, nr = 0;
    /* a failing pick (nothing predicts, an unsupported conv) leaves its
     * perf entries ranked all the same */
    seer_status_t st = cli_pick_algos(h, m, d, o->dir, SIZE_MAX, perf, 16, &np);
    if (st && st != SEER_STATUS_NOT_CALIBRATED && st != SEER_STATUS_UNSUPPORTED && st != SEER_STATUS_NO_ALGORITHM &&
        st != SEER_STATUS_BAD_PREDICTION)
        return st;
    algo_result_t choice;
    int has_choice = 0;
    for (int i = 0; i < o->n; i++) {
        algo_result_t *r = &o->res[i];
        if (r->algo == SEER_ALGO_CUDNN_CHOICE) {
            choice = *r;
            has_choice = 1;
            continue;
        }
        r->pos = np;
        for (int j = 0; j < np; j++)
            if (perf[j].algo == r->algo) r->pos = j;
        o->res[nr++] = *r;
    }
    qsort(o->res, (size_t)nr, sizeof o->res[0], by_pos);
    if (has_choice) {
        int at = 0;
        while (at < nr && o->res[at].st == SEER_STATUS_SUCCESS && o->res[at].p.source != SEER_SOURCE_ANALYTICAL &&
               o->res[at].p.time_ms <= choice.p.time_ms)
            at++;
        memmove(&o->res[at + 1], &o->res[at], (size_t)(nr - at) * sizeof o->res[0]);
        o->res[at] = choice;
    }
    return SEER_STATUS_SUCCESS;
}

/* Every algorithm (SEER_ALGO_AUTO) or one (cuDNN's choice included),
 * fastest first.  Only an algorithm's own failure (algo_failure) is in
 * the results. */
static int predict_algos(seer_handle_t h, seer_model_t m, seer_conv_desc_t d, int algo, int kernels, one_t *o)
{
    int ok = 0, all = algo == SEER_ALGO_AUTO;
    char why[256] = ""; /* the first soft failure's message */
    for (int i = 0; i < (all ? cli_algo_count(o->dir) : 1); i++) {
        algo_result_t *r = &o->res[o->n++];
        r->algo = all ? i : algo;
        memset(&r->p, 0, sizeof r->p);
        r->st = cli_predict(h, m, d, o->dir, r->algo, kernels, &r->p);
        if (r->st == SEER_STATUS_SUCCESS) ok++;
        else if (!all || !algo_failure(r->st)) return cli_lib_error(h, r->st);
        else if (!why[0]) seer_get_last_error_copy(h, why, sizeof why);
    }
    if (!ok) {
        fprintf(stderr, "seer predict: no algorithm of %s could be predicted by this model%s%s\n",
                seer_direction_name(o->dir), why[0] ? ": " : "", why);
        return CLI_FAIL;
    }
    o->pick_ms = NAN;
    if (all) {
        /* cuDNN's choice, where the model has data for it (DeepBench's
         * backward passes name no algorithm; a narrow grouped conv's is
         * the analytical bound of its padded wide conv, no measurement),
         * and the algorithm seer net and predict --data take */
        algo_result_t *r = &o->res[o->n];
        r->algo = SEER_ALGO_CUDNN_CHOICE;
        memset(&r->p, 0, sizeof r->p);
        r->st = cli_predict(h, m, d, o->dir, SEER_ALGO_CUDNN_CHOICE, kernels, &r->p);
        if (r->st == SEER_STATUS_SUCCESS && r->p.source != SEER_SOURCE_ANALYTICAL) o->n++;
        else if (r->st == SEER_STATUS_SUCCESS) free(r->p.kernels);
        else if (!algo_failure(r->st)) return cli_lib_error(h, r->st);
        seer_status_t st = seer_pick_conv_fastest(h, m, d, o->dir, &o->pick, &o->pick_ms);
        if (st) return cli_lib_error(h, st);
        if ((st = seer_conv_bwd_from_fwd(h, m, d, o->dir, &o->bwd_from_fwd))) return cli_lib_error(h, st);
        if ((st = rank_as_picked(h, m, d, o))) return cli_lib_error(h, st);
    }
    seer_gpu_info_t g;
    seer_status_t st;
    if ((st = seer_model_get_info(m, &o->info)) || (st = seer_model_get_gpu(m, &g))) return cli_lib_error(h, st);
    o->flops = o->bytes = o->roof = NAN;
    seer_conv_desc_get_output(d, &o->p, &o->q);
    if (seer_conv_work(d, o->dir, &o->flops, &o->bytes)) o->flops = o->bytes = NAN;
    if (seer_roofline_conv(h, &g, d, o->dir, &o->roof)) o->roof = NAN;
    return CLI_OK;
}

static void print_one_json(const one_t *o, const char *model_path, int kernels)
{
    printf("{\"gpu\": ");
    cli_json_str(stdout, o->info.gpu_id);
    cli_json_str_field("model", o->info.transferred ? NULL : model_path);
    cli_json_served(&o->info);
    printf(", \"direction\": \"%s\", \"p\": %d, \"q\": %d", seer_direction_name(o->dir), o->p, o->q);
    cli_json_num_field("flops", o->flops);
    cli_json_num_field("min_bytes", o->bytes);
    cli_json_num_field("roofline_ms", o->roof);
    printf(",\n  \"predictions\": [");
    for (int i = 0; i < o->n; i++) {
        const algo_result_t *r = &o->res[i];
        printf("%s\n    {\"algo\": ", i ? "," : "");
        cli_json_str(stdout, seer_algo_name(o->dir, r->algo));
        printf(", \"algo_id\": %d", r->algo);
        cli_json_str_field("status", cli_algo_status(r->st));
        if (r->st == SEER_STATUS_SUCCESS) {
            cli_json_num_field("time_ms", r->p.time_ms);
            cli_json_str_field("class", class_name((int)r->p.cls));
            cli_json_str_field("source", seer_source_name(r->p.source));
            if (kernels) print_kernels_json(r->p.kernels, r->p.n_kernels);
        } else {
            printf(", \"time_ms\": null");
        }
        printf("}");
    }
    printf("]");
    if (!isnan(o->pick_ms)) {
        printf(",\n  \"pick\": {\"algo\": ");
        cli_json_str(stdout, seer_algo_name(o->dir, o->pick));
        cli_json_num_field("time_ms", o->pick_ms);
        printf(", \"bwd_from_fwd\": %s}", o->bwd_from_fwd ? "true" : "false");
    }
    printf("}\n");
}

static void print_one_table(const one_t *o, const char *model_path, int kernels)
{
    if (o->info.transferred)
        printf("model     transferred to %s from %s (no calibrated model)\n", o->info.gpu_id, o->info.source_gpus);
    else {
        /* a GEMM-only file's convs are transferred: say so */
        int gemm_only = !strcmp(cli_served_kind(&o->info), "gemm-calibrated");
        printf("model     %s (%s%s%s)\n", model_path, o->info.gpu_id, gemm_only ? ": " : "",
               gemm_only ? cli_served_words(&o->info) : "");
    }
    printf("output    p=%d q=%d\n", o->p, o->q);
    printf("work      %.4g GFLOP, %.4g MB minimum DRAM traffic\n", o->flops / 1e9, o->bytes / 1e6);
    printf("roofline  %.4g ms\n\n", o->roof);
    printf("%-4s %-24s %14s %8s  %-10s  %s\n", "rank", "algo", "ms", "kernels", "main class", "source");
    for (int i = 0; i < o->n; i++) {
        const algo_result_t *r = &o->res[i];
        if (r->st == SEER_STATUS_SUCCESS)
            printf("%-4d %-24s %14.4f %8d  %-10s  %s\n", i + 1, seer_algo_name(o->dir, r->algo), r->p.time_ms,
                   r->p.n_kernels, class_name((int)r->p.cls), seer_source_name(r->p.source));
        else
            printf("%-4s %-24s %14s\n", "-", seer_algo_name(o->dir, r->algo), status_word(r->st));
    }
    if (!isnan(o->pick_ms)) {
        /* the pick can differ from its algorithm's own row: capped by the
         * FP32 or pseudo-half conv, or by the dense one, and a backward
         * data blended with its dual forward conv (docs/picker.md) */
        double own = NAN;
        for (int i = 0; i < o->n; i++)
            if (o->res[i].algo == o->pick && o->res[i].st == SEER_STATUS_SUCCESS) own = o->res[i].p.time_ms;
        printf("\npick      %s, %.4f ms (what seer net and predict --data take: docs/picker.md)\n",
               seer_algo_name(o->dir, o->pick), o->pick_ms);
        const char *why = o->dir == SEER_DIR_BWD_DATA
                              ? "read with its dual forward conv too, or capped by the fp32, pseudo-half, dense, "
                                "fewer-groups or stride-1 conv (a grouped one held to one group's)"
                              : "capped by the fp32, pseudo-half, dense, fewer-groups or stride-1 conv (a grouped one "
                                "held to one group's)";
        /* cuDNN's choice timed analytically is no row above: say so, and
         * that its time may still be capped */
        if (isnan(own))
            printf("          %s is not ranked above (an analytical guess); its time may be %s\n",
                   seer_algo_name(o->dir, o->pick), why);
        else if (fabs(o->pick_ms - own) > own * 1e-9)
            printf("          not its own %.4f ms: %s\n", own, why);
        if (o->bwd_from_fwd) cli_print_bwd_from_fwd(o->dir);
    }
    if (kernels)
        for (int i = 0; i < o->n; i++) {
            if (o->res[i].st != SEER_STATUS_SUCCESS) continue;
            printf("\n%s: %.4f ms\n", seer_algo_name(o->dir, o->res[i].algo), o->res[i].p.time_ms);
            print_kernels_table(o->res[i].p.kernels, o->res[i].p.n_kernels);
        }
}

/* One convolution: every algorithm (auto) or one. */
static int predict_one(seer_handle_t h, seer_model_t m, const char *model_path, seer_conv_desc_t d,
                       seer_direction_t dir, int algo, int kernels, int json)
{
    one_t o;
    memset(&o, 0, sizeof o);
    o.dir = dir;
    int rc = predict_algos(h, m, d, algo, kernels, &o);
    if (!rc && json) print_one_json(&o, model_path, kernels);
    else if (!rc) print_one_table(&o, model_path, kernels);
    for (int i = 0; i < o.n; i++) free(o.res[i].p.kernels);
    return rc;
}

/* Echo a CSV verbatim with pred_ms appended, after the columns named in
 * head (",pred_algo,pred_source"; NULL: none) whose values for each row
 * are extra[j] ("" where it has no prediction).  The
 * tokenizer consumes the header, so it reads the file behind a made-up
 * header of the right width: the real header then comes back as the
 * first record, and every record sits one line below its original. */
/* Whether the echo appends a column named name: pred_ms, or one of head
 * (",pred_algo,pred_source"; NULL: none). */
static int appended(const char *name, const char *head)
{
    if (!strcmp(name, "pred_ms")) return 1;
    size_t len = strlen(name);
    for (const char *e = head; e && *e == ',' && len; e = strchr(e + 1, ','))
        if (!strncmp(e + 1, name, len) && (e[len + 1] == ',' || !e[len + 1])) return 1;
    return 0;
}

static int echo_csv(seer_handle_t h, const char *path, size_t n, const long *lines, const char *head,
                    const char *const *extra, const double *pred)
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
    /* the reader skips a leading UTF-8 byte order mark; behind the
     * made-up header it would be text of the first column's name */
    size_t bom = size >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3) ? 3 : 0;
    size_t hdr = (size_t)nc * 12 + 2, len = 0;
    if (!(all = malloc(hdr + size + 1))) { st = SEER_STATUS_ALLOC_FAILED; goto done; }
    for (int i = 0; i < nc; i++) len += (size_t)sprintf(all + len, "%sc%d", i ? "," : "", i);
    all[len++] = '\n';
    memcpy(all + len, buf + bom, size - bom);
    if ((st = seer_csv_open_buffer(h, path, all, len + size - bom, &c))) goto done;
    size_t j = 0;
    unsigned char *drop = calloc((size_t)nc, 1);
    if (!drop) { st = SEER_STATUS_ALLOC_FAILED; goto done; }
    for (int first = 1;; first = 0) {
        int eof = 0;
        if ((st = seer_csv_next(h, c, &eof)) || eof) break;
        /* The columns appended here replace the input's own (a predicted
         * file predicted again): a header naming a column twice does not
         * read back (docs/formats.md). */
        for (int i = 0; first && i < nc; i++) drop[i] = appended(seer_csv_field(c, i), head);
        for (int i = 0, sep = 0; i < nc; i++) {
            if (drop[i]) continue;
            if (sep++) putchar(',');
            cli_csv_field(stdout, seer_csv_field(c, i));
        }
        if (first) {
            printf("%s,pred_ms\n", head ? head : "");
            continue;
        }
        long line = seer_csv_line(c) - 1;
        while (j < n && lines[j] < line) j++;
        int has = j < n && lines[j] == line && !isnan(pred[j]);
        if (has && head) printf(",%s", extra[j]);
        for (const char *e = head; !has && e && *e; e++) /* an empty field per column of head */
            if (*e == ',') putchar(',');
        if (has) printf(",%.6g\n", pred[j]);
        else printf(",\n");
    }
    free(drop);
done:
    seer_csv_close(c);
    free(buf);
    free(all);
    return st ? cli_lib_error(h, st) : CLI_OK;
}

/* Which model predicts each row of a --data file: the one given, or
 * with none each row's GPU's, opened once (seer_model_open); and what
 * became of the rows that got no prediction. */
typedef struct {
    seer_model_t m;             /* given, or NULL */
    seer_model_info_t info;     /* m's */
    int any_gpu;                /* m given, and no row names its GPU nor any GPU libseer knows */
    const char *models_dir, *path;
    struct { char gpu[32]; seer_model_t m; } gm[64];
    int ngm, next;              /* cached models; the slot replaced next when full */
    long other_gpu, failed;     /* rows of other GPUs than m's; rows that could not be predicted */
    long named;                 /* failures said on stderr (the first ten) */
} serve_t;

/* gpus[0..n-1]: the rows' gpu columns.  With m, a file that names the
 * GPU otherwise ("H100 80GB HBM3"): when no row is of m's GPU nor of any
 * GPU libseer knows, the user meant them for it.  Without, the models
 * directory must be readable.  CLI_OK or the exit code (said). */
static int serve_init(seer_handle_t h, serve_t *S, seer_model_t m, const char *models_dir, const char *path,
                      const char *const *gpus, size_t n)
{
    memset(S, 0, sizeof *S);
    S->m = m;
    S->models_dir = models_dir;
    S->path = path;
    if (!m) {
        DIR *d = opendir(models_dir);
        if (!d) return cli_fail("predict", "cannot read models directory '%s': %s", models_dir, strerror(errno));
        closedir(d);
        return CLI_OK;
    }
    seer_status_t st = seer_model_get_info(m, &S->info);
    if (st) return cli_lib_error(h, st);
    S->any_gpu = n > 0;
    for (size_t i = 0; i < n && S->any_gpu; i++)
        S->any_gpu = !cli_same_gpu(gpus[i], S->info.gpu_id) && !cli_gpu_known(h, gpus[i]);
    if (S->any_gpu) cli_note_meant_for("predict", S->info.gpu_id, gpus[0]);
    return CLI_OK;
}

/* The model for a row of GPU gpu at line, in *out; NULL for a row of
 * another GPU than the one given, or of a GPU libseer does not know (said
 * once per GPU while it is cached): the row stays unpredicted, counted.
 * Any other failure to open a model (a corrupt file) fails the run: its
 * status.  Past 64 GPUs the cache replaces its entries in turn. */
static seer_status_t serve_row(seer_handle_t h, serve_t *S, const char *gpu, long line, seer_model_t *out)
{
    *out = NULL;
    if (S->m) {
        if (S->any_gpu || cli_same_gpu(gpu, S->info.gpu_id)) *out = S->m;
        else S->other_gpu++;
        return SEER_STATUS_SUCCESS;
    }
    seer_gpu_info_t g;
    const char *id = cli_gpu_id(h, gpu, &g);
    for (int i = 0; i < S->ngm; i++)
        if (!strcmp(S->gm[i].gpu, id)) {
            if (!(*out = S->gm[i].m)) S->failed++;
            return SEER_STATUS_SUCCESS;
        }
    seer_model_t m = NULL;
    seer_status_t st = seer_model_open(h, S->models_dir, id, &m);
    if (st == SEER_STATUS_UNKNOWN_GPU) {
        fprintf(stderr, "seer predict: %s:%ld: gpu '%s': %s\n", S->path, line, gpu, seer_get_last_error(h));
        S->failed++;
    } else if (st) {
        return st;
    }
    int slot = S->ngm;
    if (slot == (int)(sizeof S->gm / sizeof S->gm[0])) {
        slot = S->next++ % slot;
        seer_model_destroy(S->gm[slot].m);
    } else {
        S->ngm++;
    }
    snprintf(S->gm[slot].gpu, sizeof S->gm[slot].gpu, "%s", id);
    S->gm[slot].m = m;
    *out = m;
    return SEER_STATUS_SUCCESS;
}

/* A row that got no prediction for status st (an impossible shape, a
 * dtype or algorithm the GPU cannot run): counted, the first ten said.
 * 1 when st is such a row-level failure, 0 for an error of the run. */
static int serve_failed(seer_handle_t h, serve_t *S, long line, seer_status_t st)
{
    if (!cli_row_failure(st)) return 0;
    S->failed++;
    if (S->named++ < 10) fprintf(stderr, "seer predict: %s:%ld: %s\n", S->path, line, seer_get_last_error(h));
    return 1;
}

/* The summaries on stderr (when rc is CLI_OK), and the cached models. */
static void serve_finish(serve_t *S, int rc)
{
    if (!rc && S->other_gpu)
        fprintf(stderr, "seer predict: %ld rows of other GPUs than %s left without prediction\n", S->other_gpu,
                S->info.gpu_id);
    if (!rc && S->failed)
        fprintf(stderr, "seer predict: %ld rows could not be predicted (impossible shape, %sunsupported or not "
                        "calibrated)\n", S->failed, S->m ? "" : "unknown GPU, ");
    for (int i = 0; i < S->ngm; i++) seer_model_destroy(S->gm[i].m);
}

/* The rows of a conv timing CSV and their predictions. */
typedef struct {
    seer_conv_row_t *rows;
    size_t n;
    double *pred;               /* NAN: none */
    int *palgo;                 /* the algorithm predicted with (pred NAN: none) */
    seer_source_t *psrc;        /* where its main kernel's time comes from */
} rows_t;

/* Read and predict every row before printing anything: no partial output. */
static int predict_rows(seer_handle_t h, serve_t *S, seer_model_t m, const char *models_dir, const char *path,
                        rows_t *R)
{
    seer_conv_desc_t d = NULL;
    seer_status_t st = seer_conv_csv_read_keep(h, path, &R->rows, &R->n);
    if (st) return cli_lib_error(h, st);
    R->pred = malloc((R->n ? R->n : 1) * sizeof *R->pred);
    R->palgo = malloc((R->n ? R->n : 1) * sizeof *R->palgo);
    R->psrc = malloc((R->n ? R->n : 1) * sizeof *R->psrc);
    const char **gpus = malloc((R->n ? R->n : 1) * sizeof *gpus);
    int rc = R->pred && R->palgo && R->psrc && gpus ? CLI_OK : cli_fail("predict", "out of memory");
    for (size_t i = 0; !rc && i < R->n; i++) gpus[i] = R->rows[i].gpu;
    if (!rc) rc = serve_init(h, S, m, models_dir, path, gpus, R->n);
    free(gpus);
    if (!rc && (st = seer_conv_desc_create(&d))) rc = cli_lib_error(h, st);
    for (size_t i = 0; !rc && i < R->n; i++) {
        const seer_conv_row_t *r = &R->rows[i];
        cli_pred_t p = {0};
        R->pred[i] = NAN;
        R->palgo[i] = SEER_ALGO_NA;
        seer_model_t rm;
        if ((st = serve_row(h, S, r->gpu, r->line, &rm))) {
            rc = cli_lib_error(h, st);
            break;
        }
        if (!rm) continue;
        /* A row whose shape cannot run stays unpredicted (seer eval counts it
         * failed), and one whose algo is no name libseer knows (a typo, a
         * truncated name) is an algo the data could not tell, as MIXED:
         * both named on stderr (the first ten), the other rows predicted. */
        if ((st = cli_desc_as_measured(h, r, d))) {
            if (!serve_failed(h, S, r->line, st)) rc = cli_lib_error(h, st);
            continue;
        }
        if (seer_conv_row_algo_error(h, path, r) && S->named++ < 10)
            fprintf(stderr, "seer predict: %s: predicted with the fastest algorithm\n", seer_get_last_error(h));
        char why[256];
        st = cli_predict_row(h, rm, d, r, &p, why, sizeof why);
        if (st && !serve_failed(h, S, r->line, st)) rc = cli_lib_error(h, st);
        if (st) continue;
        if (why[0] && S->named++ < 10)
            fprintf(stderr, "seer predict: %s:%ld: %s: predicted with the fastest algorithm\n", path, r->line, why);
        R->pred[i] = p.time_ms;
        R->palgo[i] = p.algo;
        R->psrc[i] = p.source;
    }
    seer_conv_desc_destroy(d);
    return rc;
}

static void print_rows_json(const rows_t *R)
{
    printf("[");
    for (size_t i = 0; i < R->n; i++) {
        const seer_conv_row_t *r = &R->rows[i];
        printf("%s\n  {\"line\": %ld, \"gpu\": ", i ? "," : "", r->line);
        cli_json_str(stdout, r->gpu);
        printf(", \"direction\": \"%s\", \"dtype\": \"%s\", \"layout\": \"%s\", \"n\": %d, "
               "\"c\": %d, \"h\": %d, \"w\": %d, \"k\": %d, \"r\": %d, \"s\": %d, "
               "\"pad_h\": %d, \"pad_w\": %d, \"stride_h\": %d, \"stride_w\": %d, "
               "\"dil_h\": %d, \"dil_w\": %d, \"groups\": %d",
               seer_direction_name(r->dir), seer_dtype_name(r->dtype), seer_layout_name(r->layout),
               r->shape.n, r->shape.c, r->shape.h, r->shape.w, r->shape.k, r->shape.r, r->shape.s, r->shape.pad_h,
               r->shape.pad_w, r->shape.stride_h, r->shape.stride_w, r->shape.dil_h, r->shape.dil_w,
               r->shape.groups);
        cli_json_str_field("algo", r->algo >= 0 ? seer_algo_name(r->dir, r->algo)
                                   : r->algo == SEER_ALGO_BAD_NAME ? r->algo_text : NULL);
        cli_json_num_field("time_ms", r->time_ms >= 0 ? r->time_ms : NAN);
        cli_json_str_field("pred_algo", !isnan(R->pred[i]) ? seer_algo_name(r->dir, R->palgo[i]) : NULL);
        cli_json_str_field("pred_source", !isnan(R->pred[i]) ? seer_source_name(R->psrc[i]) : NULL);
        cli_json_num_field("pred_ms", R->pred[i]);
        printf("}");
    }
    printf("]\n");
}

/* Every row of a conv timing CSV, on model m or (NULL) each row's GPU's. */
static int predict_csv(seer_handle_t h, seer_model_t m, const char *models_dir, const char *path, int json)
{
    /* A kernel trace's rows are kernels, and the output is the input's
     * rows echoed with a call's prediction each: a kernel's time beside a
     * call's prediction reads as a wrong prediction.  Its calls, one row
     * each, are the layers.csv seer-bench writes beside it. */
    if (seer_csv_kind(path) == 'k')
        return cli_fail("predict", "%s is a kernel trace (one row per kernel: call_id, kernel_index), not one row "
                        "per call: give the conv timing CSV of the same run (seer-bench's layers.csv), or score "
                        "the trace with seer eval, which sums each call's kernels", path);
    rows_t R;
    serve_t S;
    memset(&R, 0, sizeof R);
    memset(&S, 0, sizeof S);
    int rc = predict_rows(h, &S, m, models_dir, path, &R);
    if (!rc && json) {
        print_rows_json(&R);
    } else if (!rc) {
        /* lines, algorithm and source of the rows, for the echo: the algo
         * may be SEER_ALGO_CUDNN_CHOICE (-1), cuDNN's own choice */
        long *lines = malloc((R.n ? R.n : 1) * sizeof *lines);
        char (*text)[64] = malloc((R.n ? R.n : 1) * sizeof *text);
        const char **names = malloc((R.n ? R.n : 1) * sizeof *names);
        if (!lines || !text || !names) rc = cli_fail("predict", "out of memory");
        for (size_t i = 0; !rc && i < R.n; i++) {
            lines[i] = R.rows[i].line;
            text[i][0] = 0;
            if (!isnan(R.pred[i]))
                snprintf(text[i], sizeof text[i], "%s,%s", seer_algo_name(R.rows[i].dir, R.palgo[i]),
                         seer_source_name(R.psrc[i]));
            names[i] = text[i];
        }
        if (!rc) rc = echo_csv(h, path, R.n, lines, ",pred_algo,pred_source", names, R.pred);
        free(lines);
        free(text);
        free(names);
    }
    serve_finish(&S, rc);
    free(R.rows);
    free(R.pred);
    free(R.palgo);
    free(R.psrc);
    return rc;
}

/* Every row of a GEMM timing CSV (seer_csv_kind 'g'): seer_predict_gemm
 * on model m or (NULL) each row's GPU's. */
static int predict_gemm_csv(seer_handle_t h, seer_model_t m, const char *models_dir, const char *path, int json)
{
    seer_gemm_row_t *g = NULL;
    size_t n = 0;
    seer_status_t st = seer_gemm_csv_read(h, path, &g, &n);
    if (st) return cli_lib_error(h, st);
    serve_t S;
    memset(&S, 0, sizeof S);
    double *pred = malloc((n ? n : 1) * sizeof *pred);
    long *lines = malloc((n ? n : 1) * sizeof *lines);
    const char **gpus = malloc((n ? n : 1) * sizeof *gpus);
    int rc = pred && lines && gpus ? CLI_OK : cli_fail("predict", "out of memory");
    for (size_t i = 0; !rc && i < n; i++) gpus[i] = g[i].gpu;
    if (!rc) rc = serve_init(h, &S, m, models_dir, path, gpus, n);
    for (size_t i = 0; !rc && i < n; i++) {
        const seer_gemm_row_t *r = &g[i];
        pred[i] = NAN;
        lines[i] = r->line;
        seer_model_t rm;
        double t;
        if ((st = serve_row(h, &S, r->gpu, r->line, &rm))) {
            rc = cli_lib_error(h, st);
        } else if (rm && (st = seer_predict_gemm(h, rm, r->batch, r->m, r->n, r->k, r->dtype, r->trans_a,
                                                 r->trans_b, r->bias, &t, NULL))) {
            if (!serve_failed(h, &S, r->line, st)) rc = cli_lib_error(h, st);
        } else if (rm) {
            pred[i] = t;
        }
    }
    if (!rc && json) {
        printf("[");
        for (size_t i = 0; i < n; i++) {
            const seer_gemm_row_t *r = &g[i];
            printf("%s\n  {\"line\": %ld, \"gpu\": ", i ? "," : "", r->line);
            cli_json_str(stdout, r->gpu);
            printf(", \"op\": ");
            cli_json_str(stdout, r->op);
            printf(", \"dtype\": \"%s\", \"batch\": %d, \"m\": %d, \"n\": %d, \"k\": %d, \"trans_a\": \"%s\", "
                   "\"trans_b\": \"%s\", \"bias\": %d",
                   seer_dtype_name(r->dtype), r->batch, r->m, r->n, r->k, r->trans_a ? "T" : "N",
                   r->trans_b ? "T" : "N", r->bias);
            cli_json_num_field("time_ms", r->time_ms >= 0 ? r->time_ms : NAN);
            cli_json_num_field("pred_ms", pred[i]);
            printf("}");
        }
        printf("]\n");
    } else if (!rc) {
        rc = echo_csv(h, path, n, lines, NULL, NULL, pred);
    }
    serve_finish(&S, rc);
    free(g);
    free(pred);
    free(lines);
    free(gpus);
    return rc;
}

/* What the options ask for. */
typedef struct {
    const char *model_opt, *gpu_opt, *models_opt, *data;
    const char *dtype_s, *layout_s, *algo_s, *format_s;
    int dir, kernels, json;
    const char *row_opt;        /* the first option --data rows set for themselves */
    cli_conv_opts_t conv;
} predict_opts_t;

static const char *const dirs[] = {"fwd", "bwd_data", "bwd_filter", NULL};

/* The options, and the format for --data or not: CLI_OK with *done set
 * after --help, else the exit code of a usage error. */
static int predict_parse(int argc, char **argv, predict_opts_t *o, int *done)
{
    static const struct option opts[] = {CLI_CONV_OPTIONS, CLI_FLAG("help"), CLI_FLAG("kernels"),
                                         CLI_VALUE("model"), CLI_VALUE("gpu"), CLI_VALUE("models"),
                                         CLI_VALUE("data"), CLI_VALUE("direction"), CLI_VALUE("dtype"),
                                         CLI_VALUE("layout"), CLI_VALUE("algo"), CLI_VALUE("format"),
                                         CLI_END};
    cli_args_t a;
    cli_args_init(&a, "predict", opts, argc, argv);
    while (cli_next(&a)) {
        int got = cli_conv_opt(&a, &o->conv);
        if (got < 0) return CLI_USAGE;
        if (got) continue;
        else if (cli_is(&a, "--help") || cli_is(&a, "-h")) { usage_predict(stdout); *done = 1; return CLI_OK; }
        else if (cli_is(&a, "--model")) { if (!(o->model_opt = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--gpu")) { if (!(o->gpu_opt = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--models")) { if (!(o->models_opt = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--data")) {
            /* one file: its rows are echoed with their predictions */
            if (o->data) return cli_usage_error("predict", "option --data: one file (given twice)");
            if (!(o->data = cli_value(&a))) return CLI_USAGE;
        }
        else if (cli_is(&a, "--direction")) { if ((o->dir = cli_direction(&a)) < 0) return CLI_USAGE; }
        else if (cli_is(&a, "--dtype")) { if (!(o->dtype_s = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--layout")) { if (!(o->layout_s = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--algo")) { if (!(o->algo_s = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--kernels")) { if (!cli_flag(&a)) return CLI_USAGE; o->kernels = 1; }
        else if (cli_is(&a, "--format")) { if (!(o->format_s = cli_value(&a))) return CLI_USAGE; }
        else return cli_unknown(&a);
        static const char *const own[] = {"--direction", "--dtype", "--layout", "--algo", "--kernels", NULL};
        for (int i = 0; own[i] && !o->row_opt; i++)
            if (cli_is(&a, own[i])) o->row_opt = own[i];
    }
    /* each row of --data names its own direction, dtype, layout and
     * algorithm (they were once taken and silently ignored) */
    if (o->data && o->row_opt)
        return cli_usage_error("predict", "option %s cannot be combined with --data (%s)", o->row_opt,
                               strcmp(o->row_opt, "--kernels") ? "each row sets its own"
                                                               : "the rows' output has no kernel lines");
    /* Validate everything that needs no model first, so a bad shape is
     * reported as such even when the model is missing. */
    const char *const *fmts = o->data ? formats_csv_json : formats_table_json;
    int format = 0;
    if (o->format_s) {
        for (format = 0; fmts[format] && strcmp(fmts[format], o->format_s); format++) {}
        if (!fmts[format])
            return cli_usage_error("predict", "option --format: expected %s, got '%s'",
                                   o->data ? "csv|json" : "table|json", o->format_s);
    }
    o->json = strcmp(fmts[format], "json") == 0;
    return CLI_OK;
}

/* The one convolution of the options into d: CLI_OK or the exit code. */
static int predict_desc(seer_handle_t h, const predict_opts_t *o, seer_conv_desc_t *d, int *algo)
{
    seer_dtype_t dtype;
    seer_layout_t layout;
    seer_status_t st;
    *algo = SEER_ALGO_AUTO;
    if (seer_dtype_from_name(o->dtype_s, &dtype))
        return cli_usage_error("predict", "option --dtype: unknown dtype '%s' (fp32, tf32, fp16, bf16, fp16_pseudo)",
                               o->dtype_s);
    if (seer_layout_from_name(o->layout_s, &layout))
        return cli_usage_error("predict", "option --layout: unknown layout '%s' (nchw, nhwc)", o->layout_s);
    if (strcmp(o->algo_s, "auto") != 0 && seer_algo_from_name((seer_direction_t)o->dir, o->algo_s, algo))
        return cli_usage_error("predict", "option --algo: '%s' is not a %s algorithm", o->algo_s, dirs[o->dir]);
    if (cli_conv_opt_name(&o->conv, 0))
        return cli_usage_error("predict", "option %s is required (or --data CSV)", cli_conv_opt_name(&o->conv, 0));
    if ((st = seer_conv_desc_create(d)) || (st = cli_conv_desc_set(h, *d, dtype, layout, &o->conv)))
        return cli_lib_error(h, st);
    return CLI_OK;
}

int cli_predict_cmd(int argc, char **argv)
{
    predict_opts_t o;
    int done = 0, rc, algo;
    memset(&o, 0, sizeof o);
    o.dtype_s = "fp32";
    o.layout_s = "nchw";
    o.algo_s = "auto";
    if ((rc = predict_parse(argc, argv, &o, &done)) || done) return rc;
    /* --data alone: every row on the model of its own GPU */
    int per_row = o.data && !o.model_opt && !o.gpu_opt;
    const char *path = per_row ? "" : cli_model_path("predict", o.model_opt, o.gpu_opt, o.models_opt);
    if (!path) return CLI_USAGE;
    seer_handle_t h = NULL;
    seer_model_t m = NULL;
    seer_conv_desc_t d = NULL;
    seer_status_t st = seer_create(&h);
    if (st) return cli_lib_error(NULL, st);
    if (o.data && cli_conv_opt_name(&o.conv, 1))
        rc = cli_usage_error("predict", "option %s cannot be combined with --data", cli_conv_opt_name(&o.conv, 1));
    else if (per_row)
        rc = (seer_csv_kind(o.data) == 'g' ? predict_gemm_csv : predict_csv)(h, NULL, cli_models_dir(o.models_opt),
                                                                             o.data, o.json);
    else if (o.data && !(rc = cli_open_model(h, "predict", o.model_opt, o.gpu_opt, o.models_opt, &m)))
        rc = (seer_csv_kind(o.data) == 'g' ? predict_gemm_csv : predict_csv)(h, m, NULL, o.data, o.json);
    else if (!o.data && !(rc = predict_desc(h, &o, &d, &algo)) &&
             !(rc = cli_open_model(h, "predict", o.model_opt, o.gpu_opt, o.models_opt, &m)))
        rc = predict_one(h, m, path, d, (seer_direction_t)o.dir, algo, o.kernels, o.json);
    seer_conv_desc_destroy(d);
    seer_model_destroy(m);
    seer_destroy(h);
    return rc;
}

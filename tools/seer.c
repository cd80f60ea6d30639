/* seer - command-line front end of libseer.
 *
 *   seer gpus     the GPU table and which GPUs have a model
 *   seer train    fit a model to measured conv timings
 *   seer info     what a model file holds
 *   seer predict  predict one convolution, or every row of a CSV (predict.c)
 *   seer eval     score a model against measured timings (tools/eval.c)
 *
 * Exit codes: 0 ok, 1 library or data error, 2 usage error.  Only this
 * program prints and exits; the library never does. */
#include <stdlib.h>
#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "net.h"

static const char *const formats_table_csv_json[] = {"table", "csv", "json", NULL};

static void usage_main(FILE *f)
{
    fprintf(f,
            "usage: seer COMMAND [OPTIONS]\n"
            "\n"
            "Predict cuDNN convolution times on the CPU (libseer %s).\n"
            "\n"
            "commands:\n"
            "  gpus      list the GPU table and which GPUs have a model\n"
            "  train     fit a model to conv/GEMM timing CSVs or kernel traces\n"
            "  info      show what a model file holds\n"
            "  predict   predict one convolution, or every row of a CSV\n"
            "  gemm      predict one GEMM (a fully connected layer, a batched matmul)\n"
            "  eval      score a model against measured timings\n"
            "  net       predict a CNN's inference or training iteration, per layer\n"
            "  pick      rank the algorithms of a conv like cudnnGet...Algorithm_v7\n"
            "  eval-net  compare network predictions with measured iterations\n"
            "  eval-picker  score the picker against a seer-bench sweep\n"
            "\n"
            "`seer COMMAND --help` describes each command.  Exit status: 0 ok,\n"
            "1 library or data error, 2 usage error.\n",
            SEER_VERSION_STRING);
}

/* ------------------------------------------------------------------ */
/* seer gpus                                                           */
/* ------------------------------------------------------------------ */

static void usage_gpus(FILE *f)
{
    fprintf(f,
            "usage: seer gpus [--format table|csv|json] [--models DIR]\n"
            "\n"
            "List the GPU table (datasheet facts) and whether a model file\n"
            "DIR/<id>.seer exists for each GPU.  DIR: --models, else $SEER_MODELS,\n"
            "else ./models if it exists, else PREFIX/share/seer/models.\n");
}

/* The models of a models directory as seer_model_open sees them: each
 * *.seer file loaded and checked against its name.  A file that does not
 * load, or holds another GPU's model, is reported on stderr and makes its
 * GPU "unusable" (seer_model_open fails on it) and so does transferring
 * to any other GPU. */
typedef struct {
    char ids[64][32];
    int gemm_only[64];          /* GEMM data only: its convs are transferred */
    int n, bad;
} dir_models_t;

static void scan_models(const char *dir, dir_models_t *dm)
{
    memset(dm, 0, sizeof *dm);
    DIR *d = opendir(dir);
    if (!d) { /* still list the table, but a mistyped directory is not "no models" */
        fprintf(stderr, "seer gpus: warning: cannot read models directory '%s': %s\n", dir, strerror(errno));
        return;
    }
    seer_handle_t h = NULL;
    seer_create(&h);
    struct dirent *e;
    while ((e = readdir(d)) && dm->n < 64) {
        size_t len = strlen(e->d_name);
        if (len <= 5 || strcmp(e->d_name + len - 5, ".seer") != 0) continue;
        char path[4096];
        if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path) continue;
        seer_model_t m = NULL;
        seer_model_info_t info;
        seer_status_t st = seer_model_load(h, path, &m);
        if (!st && (st = seer_model_get_info(m, &info)) == SEER_STATUS_SUCCESS &&
            (strlen(info.gpu_id) != len - 5 || strncmp(info.gpu_id, e->d_name, len - 5) != 0)) {
            fprintf(stderr, "seer gpus: warning: %s: model is for GPU %s, so it must be named %s.seer\n",
                    path, info.gpu_id, info.gpu_id);
            dm->bad++;
        } else if (st) {
            fprintf(stderr, "seer gpus: warning: %s: %s\n", seer_status_string(st), seer_get_last_error(h));
            dm->bad++;
        } else {
            dm->gemm_only[dm->n] = info.n_families == 0;
            snprintf(dm->ids[dm->n++], sizeof dm->ids[0], "%s", info.gpu_id);
        }
        seer_model_destroy(m);
    }
    closedir(d);
    seer_destroy(h);
}

/* calibrated, gemm-calibrated (its own GEMM fit, convs transferred),
 * transferred, unusable (a bad file in the directory) or NULL.  The
 * answer is what seer_model_open does for the GPU, not what the scan
 * guesses: a served model also reads every other file of the directory
 * (transfer sources, peers), so one corrupt file fails GPUs whose own
 * file is fine. */
static const char *model_kind(seer_handle_t h, const char *dir, const dir_models_t *dm, const char *id)
{
    seer_model_t m = NULL;
    seer_status_t st = h ? seer_model_open(h, dir, id, &m) : SEER_STATUS_ALLOC_FAILED;
    seer_model_destroy(m);
    if (st == SEER_STATUS_NO_DATA) return NULL; /* nothing in DIR to serve it */
    if (st) return "unusable";
    for (int i = 0; i < dm->n; i++)
        if (!strcmp(dm->ids[i], id)) return dm->gemm_only[i] ? "gemm-calibrated" : "calibrated";
    return "transferred";
}

static int cmd_gpus(int argc, char **argv)
{
    cli_args_t a;
    int format = 0;
    const char *models_opt = NULL;
    static const struct option opts[] = {CLI_FLAG("help"), CLI_VALUE("format"), CLI_VALUE("models"), CLI_END};
    cli_args_init(&a, "gpus", opts, argc, argv);
    while (cli_next(&a)) {
        if (cli_is(&a, "--help") || cli_is(&a, "-h")) {
            usage_gpus(stdout);
            return CLI_OK;
        } else if (cli_is(&a, "--format")) {
            if ((format = cli_choice(&a, formats_table_csv_json)) < 0) return CLI_USAGE;
        } else if (cli_is(&a, "--models")) {
            if (!(models_opt = cli_value(&a))) return CLI_USAGE;
        } else {
            return cli_unknown(&a);
        }
    }
    const char *dir = cli_models_dir(models_opt);
    dir_models_t dm;
    scan_models(dir, &dm);
    int n = 0;
    seer_status_t st = seer_gpu_count(&n);
    if (st) return cli_lib_error(NULL, st);
    seer_handle_t h = NULL;
    if (dm.n + dm.bad > 0 && seer_create(&h)) h = NULL;

    if (format == 1)
        printf("id,name,arch,cc,sms,boost_mhz,fp32_tflops,fp16_tflops,bf16_tflops,tf32_tflops,"
               "dram_gbps,l2_mb,model\n");
    else if (format == 2)
        printf("{\"models_dir\": "), cli_json_str(stdout, dir), printf(", \"gpus\": [\n");
    else
        printf("%-16s %-28s %-8s %-4s %4s %6s %7s %7s %7s %7s %6s %5s %s\n", "id", "name", "arch",
               "cc", "SMs", "MHz", "fp32", "fp16", "bf16", "tf32", "GB/s", "L2MB", "model");
    for (int i = 0; i < n; i++) {
        seer_gpu_info_t g;
        if ((st = seer_gpu_get(i, &g))) {
            seer_destroy(h);
            return cli_lib_error(NULL, st);
        }
        /* what libseer would answer for this GPU (seer_model_open) */
        const char *kind = dm.n + dm.bad > 0 ? model_kind(h, dir, &dm, g.id) : NULL;
        double l2 = g.l2_bytes / (1024.0 * 1024.0);
        if (format == 1) {
            cli_csv_field(stdout, g.id);
            putchar(',');
            cli_csv_field(stdout, g.name);
            putchar(',');
            cli_csv_field(stdout, g.arch);
            printf(",%d.%d,%d,%g,%g,%g,%g,%g,%g,%g,%s\n", g.cc_major, g.cc_minor, g.sms, g.boost_mhz,
                   g.fp32_tflops, g.fp16_tflops, g.bf16_tflops, g.tf32_tflops, g.dram_gbps, l2,
                   kind ? kind : "none");
        } else if (format == 2) {
            printf("  {\"id\": ");
            cli_json_str(stdout, g.id);
            cli_json_str_field("name", g.name);
            cli_json_str_field("arch", g.arch);
            printf(", \"cc\": \"%d.%d\", \"sms\": %d, \"boost_mhz\": %g, \"fp32_tflops\": %g, "
                   "\"fp16_tflops\": %g, \"bf16_tflops\": %g, \"tf32_tflops\": %g, "
                   "\"dram_gbps\": %g, \"l2_mb\": %g, \"model\": %s%s%s}%s\n",
                   g.cc_major, g.cc_minor, g.sms, g.boost_mhz, g.fp32_tflops, g.fp16_tflops,
                   g.bf16_tflops, g.tf32_tflops, g.dram_gbps, l2, kind ? "\"" : "",
                   kind ? kind : "null", kind ? "\"" : "", i + 1 < n ? "," : "");
        } else {
            printf("%-16s %-28.28s %-8s %d.%-2d %4d %6.0f %7.1f %7.1f %7.1f %7.1f %6.0f %5.1f %s\n",
                   g.id, g.name, g.arch, g.cc_major, g.cc_minor, g.sms, g.boost_mhz, g.fp32_tflops,
                   g.fp16_tflops, g.bf16_tflops, g.tf32_tflops, g.dram_gbps, l2,
                   kind ? kind : "-");
        }
    }
    seer_destroy(h);
    if (format == 2) printf("]}\n");
    else if (format == 0)
        printf("\nTFLOPS are dense peak rates; models from %s (calibrated: trained on that GPU's\n"
               "measurements; transferred: other GPUs' models evaluated with its datasheet facts;\n"
               "unusable: a model file in the directory does not load, see the warnings)\n", dir);
    return CLI_OK;
}

/* ------------------------------------------------------------------ */
/* seer train                                                          */
/* ------------------------------------------------------------------ */

static void usage_train(FILE *f)
{
    fprintf(f,
            "usage: seer train --gpu GPU --data FILE... --out MODEL [--holdout] [--keep-dispatch]\n"
            "                  [--conv-scales CSV... [--models DIR]]\n"
            "\n"
            "Fit a model for GPU to conv timing CSV v1 and kernel trace CSV files\n"
            "(rows of other GPUs are ignored) and write it to MODEL.\n"
            "  --gpu GPU       a GPU id (seer gpus) or a GPU description file, e.g.\n"
            "                  the gpu.txt seer-bench writes for a GPU the table lacks\n"
            "  --data FILE...  one or more files (or repeat --data)\n"
            "  --holdout       leave out the 20%% test split (seer_conv_in_test_split),\n"
            "                  so `seer eval --split test` scores unseen shapes\n"
            "  --keep-dispatch fit the measured times as they are; by default the host\n"
            "                  dispatch that NeuSight's times carry is taken off first\n"
            "                  (models predict GPU time: docs/method.md)\n"
            "  --conv-scales CSV...  scale the conv families the model takes from the\n"
            "                  calibrated models of DIR to the GPU's conv timing rows\n"
            "                  in CSV (seer-bench's layers.csv): one scale per family\n"
            "                  and math (seer_model_scale_convs, docs/transfer.md)\n"
            "  --models DIR    the models directory that will serve the model\n"
            "                  (default: $SEER_MODELS, else the installed models)\n");
}

/* The source column of a conv or trace file's first row into out ("" for
 * a GEMM file, a file without one, or one that cannot be read: training
 * reports that). */
static void first_source(seer_handle_t h, const char *path, char *out, size_t size)
{
    out[0] = 0;
    if (seer_csv_kind(path) == 'g') return;
    seer_csv_t *c;
    if (seer_csv_open_file(h, path, &c)) return;
    int eof = 1, col = seer_csv_col(c, "source");
    if (col >= 0 && !seer_csv_next(h, c, &eof) && !eof) snprintf(out, size, "%s", seer_csv_field(c, col));
    seer_csv_close(c);
}

/* A seer-bench run's kernels.csv and layers.csv hold the same calls (one
 * summed per call, one timed whole): given both, every call trains
 * twice.  seer-bench's source names the GPU, seed and cuDNN, which fix
 * the calls, so two files of one such source are of the same run (or a
 * rerun of it).  A warning, not a refusal: it is told from the first row
 * only. */
static void warn_same_run(seer_handle_t h, const char *const *data, int n)
{
    char (*src)[128] = calloc((size_t)n, sizeof *src);
    if (!src) return; /* only a warning: training reports running out of memory */
    for (int i = 0; i < n; i++) {
        first_source(h, data[i], src[i], sizeof src[i]);
        if (strncmp(src[i], "seer-bench:", 11)) continue;
        for (int j = 0; j < i; j++)
            if (!strcmp(src[i], src[j])) {
                fprintf(stderr, "seer train: warning: %s and %s are of the same seer-bench run (source %s): they "
                        "hold the same calls, which train twice; give one of them (kernels.csv or layers.csv)\n",
                        data[j], data[i], src[i]);
                break;
            }
    }
    free(src);
}

static int cmd_train(int argc, char **argv)
{
    cli_args_t a;
    const char *gpu = NULL, *out = NULL;
    const char **data = NULL, **scales = NULL, *models = NULL;
    int n_data = 0, n_scales = 0, holdout = 0, rc = CLI_USAGE;
    unsigned flags = 0;
    static const struct option opts[] = {CLI_FLAG("help"), CLI_FLAG("holdout"), CLI_FLAG("keep-dispatch"),
                                         CLI_FLAG("keep-drift"), CLI_VALUE("gpu"), CLI_VALUE("data"),
                                         CLI_VALUE("out"), CLI_VALUE("conv-scales"), CLI_VALUE("models"),
                                         CLI_END};
    cli_args_init(&a, "train", opts, argc, argv);
    while (cli_next(&a)) {
        if (cli_is(&a, "--help") || cli_is(&a, "-h")) {
            usage_train(stdout);
            rc = CLI_OK;
            goto done;
        } else if (cli_is(&a, "--gpu")) {
            if (!(gpu = cli_value(&a))) goto done;
        } else if (cli_is(&a, "--data")) {
            if (!cli_values(&a, &data, &n_data)) goto done;
        } else if (cli_is(&a, "--out")) {
            if (!(out = cli_value(&a))) goto done;
        } else if (cli_is(&a, "--conv-scales")) {
            if (!cli_values(&a, &scales, &n_scales)) goto done;
        } else if (cli_is(&a, "--models")) {
            if (!(models = cli_value(&a))) goto done;
        } else if (cli_is(&a, "--holdout")) {
            if (!cli_flag(&a)) goto done;
            holdout = 1;
            flags |= SEER_TRAIN_HOLDOUT;
        } else if (cli_is(&a, "--keep-dispatch") || cli_is(&a, "--keep-drift")) {
            if (!cli_flag(&a)) goto done;
            flags |= SEER_TRAIN_KEEP_DISPATCH;
        } else {
            rc = cli_unknown(&a);
            goto done;
        }
    }
    seer_gpu_info_t g;
    seer_handle_t h = NULL;
    seer_model_t m = NULL;
    if (!gpu) { rc = cli_usage_error("train", "option --gpu is required"); goto done; }
    if (!n_data) { rc = cli_usage_error("train", "option --data is required"); goto done; }
    if (!out) { rc = cli_usage_error("train", "option --out is required"); goto done; }
    if (models && !n_scales) { rc = cli_usage_error("train", "option --models needs --conv-scales"); goto done; }
    seer_status_t st = seer_create(&h);
    if (st) { rc = cli_lib_error(NULL, st); goto done; }
    /* a GPU description file registers a GPU the table lacks */
    if ((rc = cli_gpu_resolve(h, "train", gpu, &g)) != CLI_OK) {
        seer_destroy(h);
        goto done;
    }
    warn_same_run(h, data, n_data);
    st = seer_train(h, g.id, data, n_data, flags, &m);
    if (!st && n_scales) {
        seer_model_t scaled = NULL;
        st = seer_model_scale_convs(h, m, cli_models_dir(models), scales, n_scales, flags & SEER_TRAIN_HOLDOUT,
                                    &scaled);
        seer_model_destroy(m);
        m = scaled;
    }
    if (st || (st = seer_model_save(h, m, out))) {
        rc = cli_lib_error(h, st);
    } else {
        seer_model_info_t info;
        if ((st = seer_model_get_info(m, &info))) {
            rc = cli_lib_error(h, st);
        } else {
            printf("%s: %lld rows, %d families, %d SVMs%s -> %s\n", info.gpu_id, info.n_rows,
                   info.n_families, info.n_svm, holdout ? " (test split held out)" : "", out);
            rc = CLI_OK;
        }
    }
    seer_model_destroy(m);
    seer_destroy(h);
done:
    free(data);
    free(scales);
    return rc;
}

/* ------------------------------------------------------------------ */
/* seer info                                                           */
/* ------------------------------------------------------------------ */

static void usage_info(FILE *f)
{
    fprintf(f,
            "usage: seer info MODEL [--gpu FILE]\n"
            "       seer info --gpu GPU [--models DIR]\n"
            "\n"
            "Show what a model file holds: GPU, format and library versions, kernel\n"
            "families, SVMs, training rows, checksum, provenance and conv scales\n"
            "(seer_model_get_conv_scales, one line each).  A model trained for a GPU\n"
            "the table lacks (seer train --gpu FILE) loads once --gpu FILE registers\n"
            "that GPU's description file.  With --gpu alone, the\n"
            "model libseer serves for that GPU from DIR (seer_model_open: its own file\n"
            "with what it lacks filled in from the others, a twin's, or a transfer).\n");
}

static int cmd_info(int argc, char **argv)
{
    cli_args_t a;
    const char *path = NULL, *gpu = NULL, *models = NULL;
    static const struct option opts[] = {CLI_FLAG("help"), CLI_VALUE("gpu"), CLI_VALUE("models"), CLI_END};
    cli_args_init(&a, "info", opts, argc, argv);
    while (cli_next(&a)) {
        if (cli_is(&a, "--help") || cli_is(&a, "-h")) {
            usage_info(stdout);
            return CLI_OK;
        } else if (cli_is(&a, "--gpu")) {
            if (!(gpu = cli_value(&a))) return CLI_USAGE;
        } else if (cli_is(&a, "--models")) {
            if (!(models = cli_value(&a))) return CLI_USAGE;
        } else if (a.pos && !path) {
            path = a.pos;
        } else {
            return cli_unknown(&a);
        }
    }
    if (!path && !gpu) return cli_usage_error("info", "give a model file or --gpu GPU (seer info MODEL)");
    /* With a file, --gpu only registers the GPU a model trained from a
     * description file needs to load: a table id would ask for the served
     * model as well, and which of the two to show is not clear. */
    if (path && gpu && !cli_gpu_is_file(gpu))
        return cli_usage_error("info", "give a model file or --gpu GPU, not both (with MODEL, --gpu takes a GPU "
                               "description file: seer info MODEL --gpu FILE)");
    seer_handle_t h = NULL;
    seer_model_t m = NULL;
    seer_model_info_t info;
    seer_status_t st = seer_create(&h);
    if (st) return cli_lib_error(NULL, st);
    /* as predict's --model FILE --gpu FILE: the file's GPU registered first,
     * and the model must be that GPU's */
    int rc = cli_open_model(h, "info", path, gpu, models, &m);
    if (!rc && (st = seer_model_get_info(m, &info))) rc = cli_lib_error(h, st);
    if (rc) {
        seer_model_destroy(m);
        seer_destroy(h);
        return rc;
    }
    if (!path) {
        printf("served          %s for %s from %s\n",
               cli_served_words(&info), info.gpu_id, cli_models_dir(models));
        printf("source gpus     %s\n", info.source_gpus);
    }
    if (path) printf("file            %s\n", path);
    printf("gpu             %s\n", info.gpu_id);
    printf("format version  %u\n", info.format_version);
    printf("lib version     %u.%u.%u\n", info.lib_version / 10000, info.lib_version / 100 % 100,
           info.lib_version % 100);
    printf("families        %d\n", info.n_families);
    printf("svms            %d\n", info.n_svm);
    printf("rows            %lld\n", info.n_rows);
    printf("checksum        0x%08x\n", (unsigned)info.checksum);
    printf("provenance      %s\n", info.provenance);
    /* the conv scales (seer_model_scale_convs), one line each */
    seer_conv_scale_info_t sc[192];
    int ns = 0;
    if (!seer_model_get_conv_scales(m, sc, (int)(sizeof sc / sizeof *sc), &ns))
        for (int i = 0; i < ns; i++)
            printf("conv scale      %-10s %-22s %-4s x%.3f (%d rows%s)\n", seer_direction_name(sc[i].direction),
                   sc[i].algo == SEER_ALGO_CUDNN_CHOICE ? "CUDNN_CHOICE" : seer_algo_name(sc[i].direction, sc[i].algo),
                   sc[i].math == 2 ? "tf32" : sc[i].math ? "half" : "simt", sc[i].scale, sc[i].n_rows,
                   sc[i].n_rows ? "" : ": its architecture's");
    seer_model_destroy(m);
    seer_destroy(h);
    return CLI_OK;
}

/* ------------------------------------------------------------------ */

static int run(int argc, char **argv)
{
    static const struct { const char *name; int (*fn)(int, char **); } cmds[] = {
        {"gpus", cmd_gpus}, {"train", cmd_train}, {"info", cmd_info},
        {"predict", cli_predict_cmd}, {"gemm", cli_gemm_cmd}, {"eval", cli_eval},
        {"net", seer_cli_net}, {"pick", seer_cli_pick}, {"eval-net", seer_cli_eval_net},
        {"eval-picker", seer_cli_eval_picker},
    };
    if (argc < 2) {
        usage_main(stderr);
        return CLI_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage_main(stdout);
        return CLI_OK;
    }
    if (!strcmp(argv[1], "--version")) {
        unsigned v = seer_version();
        printf("seer %u.%u.%u\n", v / 10000, v / 100 % 100, v % 100);
        return CLI_OK;
    }
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (!strcmp(argv[1], cmds[i].name)) return cmds[i].fn(argc - 1, argv + 1);
    return cli_usage_error(NULL, "unknown command '%s' (see seer --help)", argv[1]);
}

/* Output that did not reach its file (a full disk, /dev/full, a closed
 * descriptor) is a failure: exit 1 saying so, never 0 over a cut table
 * or CSV. */
int main(int argc, char **argv)
{
    int rc = run(argc, argv);
    int bad = ferror(stdout), err = 0;
    if (fflush(stdout)) bad = 1, err = errno;
    if (bad) {
        if (err) fprintf(stderr, "seer: cannot write the output: %s\n", strerror(err));
        else fprintf(stderr, "seer: cannot write the output\n");
        return rc ? rc : CLI_FAIL;
    }
    return rc;
}

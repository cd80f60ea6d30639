/* Limits and hardening (docs/api.md, "Limits"): coefficient ranges at
 * load, predictions that are never NaN or absurd, CUDA launch limits,
 * checked size products, models directories, and the CLI's answers to
 * inputs that used to hang or succeed with garbage. */
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "test.h"
#include "model.h"
#include "common.h"
#include "csv.h"

static seer_handle_t H;
static seer_handle_t handle(void)
{
    if (!H) seer_create(&H);
    return H;
}
static int msg_has(const char *s) { return strstr(seer_get_last_error(handle()), s) != NULL; }

/* Serialize m (a valid CRC whatever its content) and load it back. */
static seer_status_t reload(const struct seer_model *m)
{
    unsigned char *buf;
    size_t n;
    if (!seer_model_serialize(m, &buf, &n)) return SEER_STATUS_ALLOC_FAILED;
    seer_model_t back = NULL;
    seer_status_t st = seer_model_load_buffer(handle(), buf, n, &back);
    seer_model_destroy(back);
    free(buf);
    return st;
}

TEST(limits_model_coefficients_checked_at_load)
{
    /* a shipped model with a learned correction (which ones keep one
     * depends on the training data) */
    static const char *const files[] = {"models/gtx1080ti.seer", "models/v100-sxm2-16gb.seer", "models/t4.seer",
                                        "models/a100-pcie-80gb.seer", "models/v100-pcie-32gb.seer"};
    seer_model_t m = NULL;
    struct svm_model *svr = NULL;
    for (int f = 0; f < 5 && !svr; f++) {
        seer_model_destroy(m);
        REQUIRE(seer_model_load(handle(), files[f], &m) == SEER_STATUS_SUCCESS);
        for (int i = 0; i < m->nfam && !svr; i++) svr = m->fam[i].svr;
    }
    CHECK_STATUS(reload(m), SEER_STATUS_SUCCESS);
    REQUIRE(svr);
    double g = svr->param.gamma;
    svr->param.gamma = -g; /* used to predict -nan with exit 0 */
    CHECK_STATUS(reload(m), SEER_STATUS_MODEL_CORRUPT);
    CHECK(msg_has("svm gamma"));
    svr->param.gamma = g;
    double c = m->fam[0].var[0].coef[0][0];
    m->fam[0].var[0].coef[0][0] = 1e300; /* used to predict 1e299 ms */
    CHECK_STATUS(reload(m), SEER_STATUS_MODEL_CORRUPT);
    CHECK(msg_has("coefficient 1e+300"));
    m->fam[0].var[0].coef[0][0] = c;
    c = m->gemm[0][0].coef[0];
    m->gemm[0][0].coef[0] = -2e6;
    CHECK_STATUS(reload(m), SEER_STATUS_MODEL_CORRUPT);
    CHECK(msg_has("gemm coefficient"));
    m->gemm[0][0].coef[0] = c;
    /* the split geometry is a wgrad GEMM's only (model.c) */
    int refused = 0;
    for (int i = 0; i < m->nfam; i++) {
        seer_variant_t *v = &m->fam[i].var[0];
        int geo = v->geo;
        v->geo = SEER_GEO_TILED_SPLIT;
        CHECK_STATUS(reload(m), m->fam[i].dir == SEER_DIR_BWD_FILTER ? SEER_STATUS_SUCCESS : SEER_STATUS_MODEL_CORRUPT);
        if (m->fam[i].dir != SEER_DIR_BWD_FILTER) refused += msg_has("variant geometry");
        v->geo = geo;
    }
    CHECK(refused > 0);
    CHECK_STATUS(reload(m), SEER_STATUS_SUCCESS);
    seer_model_destroy(m);
}

/* The fuzz seeds named for a range check reach it: a seed the header
 * refuses (an old format version) would never test it
 * (fuzz/corpus-model.py writes them in the current format).  The format-3
 * seeds load, so the oldest format read stays under the fuzzers. */
TEST(limits_fuzz_model_seeds_reach_their_checks)
{
    static const struct { const char *file, *why; } seeds[] = {
        {"coefficient-1e300", "bad coefficient 1e+300"},
        {"feature-scale-huge", "bad feature scale 1e+300"},
        {"kernel-coefficient-huge", "bad kernel coefficient 1e+300"},
        {"negative-svr-gamma", "bad svm gamma -"},
        {"gemm2-without-first", "bad second gemm fit (no first)"},
    };
    char path[128];
    seer_model_t m = NULL;
    for (size_t i = 0; i < sizeof seeds / sizeof *seeds; i++) {
        snprintf(path, sizeof path, "fuzz/corpus/model/%s", seeds[i].file);
        CHECK_STATUS(seer_model_load(handle(), path, &m), SEER_STATUS_MODEL_CORRUPT);
        CHECK(msg_has(seeds[i].why));
    }
    static const char *const v3[] = {"fuzz/corpus/model/gtx1080ti-format3.seer",
                                     "fuzz/corpus/roundtrip/gtx1080ti-format3.seer"};
    for (int i = 0; i < 2; i++) {
        char *d = test_slurp(v3[i]);
        REQUIRE(d);
        CHECK(d[8] == 3);       /* the header's format version */
        free(d);
        CHECK_STATUS(seer_model_load(handle(), v3[i], &m), SEER_STATUS_SUCCESS);
        seer_model_destroy(m);
        m = NULL;
    }
}

TEST(limits_predictions_never_absurd)
{
    seer_model_t m;
    REQUIRE(seer_model_load(handle(), "models/t4.seer", &m) == SEER_STATUS_SUCCESS);
    seer_kernel_desc_t k = {{1024, 1, 1}, {256, 1, 1}, 32, 0, 1e30, 1e12, SEER_DTYPE_FP32};
    seer_kernel_pred_t p = {.time_ms = -7};
    CHECK_STATUS(seer_predict_kernel(handle(), m, &k, &p), SEER_STATUS_BAD_PREDICTION);
    CHECK(msg_has("kernel: predicted time") && p.time_ms == -7); /* untouched on failure */
    seer_err_t e = {SEER_STATUS_SUCCESS, ""};
    CHECK_STATUS(seer_check_time(&e, NAN, "x"), SEER_STATUS_BAD_PREDICTION);
    CHECK(e.st == SEER_STATUS_BAD_PREDICTION && strstr(e.msg, "x: predicted time nan ms is not finite"));
    CHECK_STATUS(seer_check_time(&e, SEER_MAX_TIME_MS * 2, "x"), SEER_STATUS_BAD_PREDICTION);
    CHECK_STATUS(seer_check_time(NULL, SEER_MAX_TIME_MS * 2, "x"), SEER_STATUS_BAD_PREDICTION);
    CHECK_STATUS(seer_check_time(&e, 1.5, "x"), SEER_STATUS_SUCCESS);
    seer_model_destroy(m);
}

TEST(limits_kernel_grid_cuda_limits)
{
    seer_model_t m;
    REQUIRE(seer_model_load(handle(), "models/t4.seer", &m) == SEER_STATUS_SUCCESS);
    seer_kernel_desc_t k = {{INT_MAX, INT_MAX, INT_MAX}, {128, 1, 1}, 32, 0, 1e9, 1e9, SEER_DTYPE_FP32};
    seer_kernel_pred_t p;
    CHECK_STATUS(seer_predict_kernel(handle(), m, &k, &p), SEER_STATUS_BAD_PARAM);
    CHECK(msg_has("grid[1] must be in [1, 65535]"));
    k.grid[1] = 65535;
    CHECK_STATUS(seer_predict_kernel(handle(), m, &k, &p), SEER_STATUS_BAD_PARAM);
    CHECK(msg_has("grid[2]"));
    k.grid[2] = 65535; /* the largest launch CUDA takes: no overflow (UBSan watches), and
                        * 1.4e19 blocks either time finitely or are too long to be true */
    p.time_ms = -7;
    seer_status_t st = seer_predict_kernel(handle(), m, &k, &p);
    CHECK(st == SEER_STATUS_SUCCESS || st == SEER_STATUS_BAD_PREDICTION);
    CHECK(st ? p.time_ms == -7 : p.waves > 0 && isfinite(p.time_ms));
    k.block[2] = 65;
    CHECK_STATUS(seer_predict_kernel(handle(), m, &k, &p), SEER_STATUS_BAD_PARAM);
    CHECK(msg_has("block[2] must be in [1, 64]"));
    seer_model_destroy(m);
}

TEST(limits_fc_layer_checked_like_gemm)
{
    seer_model_t m;
    REQUIRE(seer_model_load(handle(), "models/t4.seer", &m) == SEER_STATUS_SUCCESS);
    double t;
    CHECK_STATUS(seer_predict_gemm(handle(), m, 1, 16, 16777216, 16777216, SEER_DTYPE_FP32, 0, 0, 0, &t, NULL),
                 SEER_STATUS_OVERFLOW);
    const char *text = "input name=x c=16777216 h=1 w=1\nfc name=big k=16777216\n";
    seer_network_t net;
    REQUIRE(seer_network_create(handle(), text, strlen(text), &net) == SEER_STATUS_SUCCESS);
    int count = 0;
    double total = 0;
    CHECK_STATUS(seer_predict_network(handle(), m, net, 16, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW,
                                      SEER_MODE_INFER, SEER_ALGO_AUTO, NULL, 0, &count, &total),
                 SEER_STATUS_OVERFLOW);
    CHECK(msg_has("layer 'big' (line 2)"));
    seer_network_destroy(net);
    seer_model_destroy(m);
}

static void copy_file(const char *from, const char *to, long max)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "head -c %ld %s > %s", max, from, to);
    CHECK(system(cmd) == 0);
}

TEST(limits_models_directory_checks_every_file)
{
    char dir[] = "/tmp/seer-models-XXXXXX";
    REQUIRE(mkdtemp(dir));
    char p[256], q[256];
    seer_model_t m = NULL;
    /* another GPU's model under t4's name */
    snprintf(p, sizeof p, "%s/t4.seer", dir);
    copy_file("models/v100-pcie-32gb.seer", p, 1L << 30);
    CHECK_STATUS(seer_model_open(handle(), dir, "t4", &m), SEER_STATUS_MODEL_CORRUPT);
    CHECK(msg_has("model is for GPU v100-pcie-32gb, not t4") && m == NULL);
    /* ... which is no transfer source either */
    CHECK_STATUS(seer_model_open(handle(), dir, "h100", &m), SEER_STATUS_MODEL_CORRUPT);
    /* a truncated calibrated model is an error naming it, for its GPU and
     * as a transfer source */
    copy_file("models/t4.seer", p, 5000);
    snprintf(q, sizeof q, "%s/v100-pcie-32gb.seer", dir);
    copy_file("models/v100-pcie-32gb.seer", q, 1L << 30);
    CHECK_STATUS(seer_model_open(handle(), dir, "t4", &m), SEER_STATUS_MODEL_TRUNCATED);
    CHECK(msg_has("t4.seer"));
    CHECK_STATUS(seer_model_open(handle(), dir, "h100", &m), SEER_STATUS_MODEL_TRUNCATED);
    CHECK(m == NULL);
    unlink(p);
    CHECK_STATUS(seer_model_open(handle(), dir, "h100", &m), SEER_STATUS_SUCCESS);
    seer_model_destroy(m);
    /* a directory where a model should be */
    CHECK(mkdir(p, 0700) == 0);
    CHECK_STATUS(seer_model_open(handle(), dir, "t4", &m), SEER_STATUS_IO_ERROR);
    CHECK(msg_has("is a directory"));
    rmdir(p);
    unlink(q);
    rmdir(dir);
}

TEST(limits_train_rejects_undefined_flags)
{
    const char *paths[] = {"x.csv"};
    seer_model_t m = NULL;
    CHECK_STATUS(seer_train(handle(), "t4", paths, 1, 0xF0u, &m), SEER_STATUS_BAD_PARAM);
    CHECK(msg_has("undefined bits 0xf0") && m == NULL);
}

TEST(limits_csv_integral_floats_and_time_range)
{
    const char *hdr = "gpu,direction,dtype,layout,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,stride_w,dil_h,"
                      "dil_w,groups,algo,time_ms\n";
    char t[512];
    seer_conv_row_t *rows = NULL;
    size_t n = 0;
    snprintf(t, sizeof t, "%st4,fwd,fp32,nchw,8.0,64,56,56,64,3,3,1,1,1,1,1,1,1e0,WINOGRAD,0.5\n", hdr);
    CHECK_STATUS(seer_conv_csv_parse(handle(), "f.csv", t, strlen(t), &rows, &n), SEER_STATUS_SUCCESS);
    CHECK(n == 1 && rows && rows[0].shape.n == 8 && rows[0].shape.groups == 1);
    free(rows);
    snprintf(t, sizeof t, "%st4,fwd,fp32,nchw,2.5,64,56,56,64,3,3,1,1,1,1,1,1,1,WINOGRAD,0.5\n", hdr);
    CHECK_STATUS(seer_conv_csv_parse(handle(), "f.csv", t, strlen(t), &rows, &n), SEER_STATUS_CSV_BAD_VALUE);
    CHECK(msg_has("f.csv:2: column 'n': '2.5' is not an integer"));
    const char *bad[] = {"1e308", "1e-320"};
    for (int i = 0; i < 2; i++) {
        snprintf(t, sizeof t, "%st4,fwd,fp32,nchw,8,64,56,56,64,3,3,1,1,1,1,1,1,1,WINOGRAD,%s\n", hdr, bad[i]);
        CHECK_STATUS(seer_conv_csv_parse(handle(), "f.csv", t, strlen(t), &rows, &n),
                     SEER_STATUS_CSV_BAD_VALUE);
        CHECK(msg_has("f.csv:2: column 'time_ms'") && msg_has("out of range"));
    }
}

/* ---- the CLI ---- */

static void expect_fail(const char *needle, const char *a1, const char *a2, const char *a3,
                        const char *a4)
{
    test_run_t r;
    test_run_seer(&r, a1, a2, a3, a4, NULL);
    CHECK(r.rc == 1 || r.rc == 2);
    if (!strstr(r.err, needle)) {
        printf("    stderr: %s\n", r.err);
        CHECK(strstr(r.err, needle) != NULL);
    }
    test_run_free(&r);
}

TEST(limits_cli_inputs_that_used_to_hang)
{
    expect_fail("/dev/zero: is a character device", "net", "/dev/zero", "--model", "models/t4.seer");
    expect_fail("/tmp: is a directory", "net", "/tmp", "--model", "models/t4.seer");
    expect_fail("/dev/zero: is a character device", "info", "/dev/zero", NULL, NULL);
    expect_fail("/dev/urandom: is a character device", "info", "/dev/urandom", NULL, NULL);
    expect_fail("option --n: 99999999999 is out of range", "predict", "--gpu", "t4", "--n=99999999999");
}

/* seer predict --data, row by row as seer eval: an algo name libseer does
 * not know is an algo the data could not tell (the fastest, named on
 * stderr); an impossible shape stays unpredicted, named on stderr. */
TEST(limits_cli_predict_bad_rows_named)
{
    test_run_t r;
    test_run_seer(&r, "predict", "--model", "models/t4.seer", "--data=fuzz/corpus/csv/conv_mistyped_algo.csv", NULL);
    CHECK(r.rc == 0);
    CHECK(strstr(r.err, "conv_mistyped_algo.csv:2: column 'algo': 'IMPLICIT_GEM' is not a fwd algorithm") != NULL);
    CHECK(strstr(r.err, "predicted with the fastest algorithm") != NULL);
    CHECK(strstr(r.out, ",IMPLICIT_GEM,0.5,,") == NULL && strstr(r.out, ",IMPLICIT_GEM,0.5,") != NULL);
    test_run_free(&r);
    test_run_seer(&r, "predict", "--model", "models/t4.seer", "--data", "fuzz/corpus/csv/conv_output_over_limit.csv",
                  NULL);
    CHECK(r.rc == 0);
    CHECK(strstr(r.err, "conv_output_over_limit.csv:2: input x") != NULL);
    CHECK(strstr(r.err, "1 rows could not be predicted") != NULL);
    CHECK(strstr(r.out, ",IMPLICIT_GEMM,5,,,\n") != NULL);
    test_run_free(&r);
}

/* seer eval: impossible shapes fail (counted, listed with their line); an
 * algo name libseer does not know is scored with the fastest predicted
 * algorithm, as seer predict --data does, counted and named on stderr. */
TEST(limits_cli_eval_counts_bad_rows)
{
    test_run_t r;
    test_run_seer(&r, "eval", "--model", "models/t4.seer", "--format", "json", "--data",
                  "fuzz/corpus/csv/conv_mistyped_algo.csv", "fuzz/corpus/csv/conv_output_over_limit.csv",
                  "fuzz/corpus/csv/gemm_over_limit.csv", NULL);
    CHECK(r.rc == 0);
    CHECK(strstr(r.out, "\"n\": 5, \"skipped\": 0, \"failed\": 2, \"algo_unknown\": 3") != NULL);
    CHECK(strstr(r.out, "gemm_over_limit.csv:2: linear fp32: GEMM 2048x50272x65536") != NULL);
    CHECK(strstr(r.err, "conv_mistyped_algo.csv:3: fwd algo 'FOO' is not a name libseer knows") != NULL);
    CHECK(strstr(r.out, "conv_output_over_limit.csv:2: fwd IMPLICIT_GEMM: input x") != NULL);
    test_run_free(&r);
}

/* seer eval --format json on the T4 model of a temporary conv CSV of
 * these rows (written to csv[], which the caller unlinks). */
static int eval_rows(const char *rows, char csv[64], test_run_t *r)
{
    char text[1024];
    snprintf(text, sizeof text, "gpu,direction,dtype,layout,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,stride_w,dil_h,"
                                "dil_w,groups,algo,time_ms\n%s", rows);
    if (!test_write_temp(csv, text)) return 0;
    test_run_seer(r, "eval", "--model", "models/t4.seer", "--format", "json", "--data", csv, NULL);
    return 1;
}

/* An unknown algo name on a row that is skipped (no time) or fails is
 * not counted as scored with the fastest algorithm. */
TEST(limits_cli_eval_algo_unknown_counts_scored_rows_only)
{
    char csv[64];
    test_run_t r;
    REQUIRE(eval_rows("t4,fwd,fp32,nchw,8,64,56,56,64,3,3,1,1,1,1,1,1,1,BOGUS,\n"
                      "t4,fwd,fp32,nchw,8,64,56,56,64,3,3,1,1,1,1,1,1,1,BOGUS,0.5\n", csv, &r));
    CHECK(r.rc == 0);
    CHECK(strstr(r.out, "\"n\": 1, \"skipped\": 1, \"failed\": 0, \"algo_unknown\": 1") != NULL);
    CHECK(strstr(r.err, ":2:") == NULL && strstr(r.err, ":3: fwd algo 'BOGUS'") != NULL);
    test_run_free(&r);
    unlink(csv);
}

/* A measured row's algorithm ran, so one libseer says cannot run there
 * (Winograd at stride 2, its rules of one cuDNN version) takes the
 * fastest predicted algorithm, named on stderr, counted by seer eval;
 * without a time (a row to predict) the refusal stands. */
TEST(limits_cli_row_algo_that_cannot_run)
{
    char csv[64];
    test_run_t r;
    REQUIRE(eval_rows("t4,fwd,fp32,nchw,8,64,56,56,64,3,3,1,1,2,2,1,1,1,WINOGRAD,0.5\n"
                      "t4,fwd,fp32,nchw,8,64,56,56,64,3,3,1,1,1,1,1,1,1,WINOGRAD,0.5\n"
                      "t4,fwd,fp32,nchw,8,64,56,56,64,3,3,1,1,2,2,1,1,1,WINOGRAD,\n", csv, &r));
    CHECK(r.rc == 0);
    CHECK(strstr(r.out, "\"n\": 2, \"skipped\": 1, \"failed\": 0") != NULL);
    CHECK(strstr(r.out, "\"algo_replaced\": 1,") != NULL);
    /* scored as what predicted it: the fastest, not the label */
    CHECK(strstr(r.out, "{\"key\": \"fwd/auto\", \"n\": 1,") != NULL);
    CHECK(strstr(r.out, "{\"key\": \"fwd/WINOGRAD\", \"n\": 1,") != NULL);
    CHECK(strstr(r.err, ":2: fwd WINOGRAD needs stride 1") != NULL && strstr(r.err, ":3:") == NULL);
    test_run_free(&r);
    test_run_seer(&r, "predict", "--model", "models/t4.seer", "--format", "csv", "--data", csv, NULL);
    CHECK(r.rc == 0);
    CHECK(strstr(r.err, ":2: fwd WINOGRAD needs stride 1 and dilation 1: predicted with the fastest algorithm"));
    CHECK(strstr(r.out, ",WINOGRAD,0.5,,") == NULL); /* both measured rows predicted */
    CHECK(strstr(r.err, ":4: fwd WINOGRAD needs stride 1 and dilation 1\n") != NULL);
    CHECK(strstr(r.err, "1 rows could not be predicted") != NULL);
    test_run_free(&r);
    unlink(csv);
}

TEST(limits_cli_gpus_reports_bad_model_files)
{
    char dir[] = "/tmp/seer-gpus-XXXXXX";
    REQUIRE(mkdtemp(dir));
    char p[256];
    snprintf(p, sizeof p, "%s/t4.seer", dir);
    copy_file("models/t4.seer", p, 5000);
    test_run_t r;
    test_run_seer(&r, "gpus", "--models", dir, "--format", "csv", NULL);
    CHECK(r.rc == 0);
    CHECK(strstr(r.err, "warning") && strstr(r.err, "t4.seer"));
    CHECK(strstr(r.out, ",unusable\n") != NULL && strstr(r.out, ",calibrated\n") == NULL);
    test_run_free(&r);
    unlink(p);
    rmdir(dir);
}

/* seer_kernel_pred_t.name holds 47 bytes: t4's 5x5 GEMM kernel,
 * explicit_convolve_sgemm<float, int, 128, 5, 5, ...>, is cut after
 * "5, " and the CLI drops the blank the cut left, in the table and the
 * JSON; the name column is as wide as the name left. */
TEST(limits_cli_truncated_kernel_name_loses_its_trailing_blank)
{
    static const char cut[] = "explicit_convolve_sgemm<float, int, 128, 5, 5,";
    test_run_t r;
    test_run_seer(&r, "predict", "--model", "models/t4.seer", "--n", "8", "--c", "64", "--h", "56", "--w", "56",
                  "--k", "64", "--r", "5", "--s", "5", "--pad", "2", "--algo", "GEMM", "--kernels", "--format",
                  "json", NULL);
    CHECK(r.rc == 0);
    if (!strstr(r.out, cut)) {
        test_run_free(&r);
        SKIP("the model names another GEMM kernel");
    }
    CHECK(strstr(r.out, "\"name\": \"explicit_convolve_sgemm<float, int, 128, 5, 5,\"") != NULL);
    test_run_free(&r);
    test_run_seer(&r, "predict", "--model", "models/t4.seer", "--n", "8", "--c", "64", "--h", "56", "--w", "56",
                  "--k", "64", "--r", "5", "--s", "5", "--pad", "2", "--algo", "GEMM", "--kernels", NULL);
    CHECK(r.rc == 0);
    const char *k = strstr(r.out, cut);
    CHECK(k != NULL && k[sizeof cut - 1] == ' ' && k[sizeof cut] != ' '); /* one gap, not the cut's blank too */
    const char *hdr = strstr(r.out, "  role             name");
    CHECK(hdr != NULL && strncmp(hdr + 19 + sizeof cut, "grid", 4) == 0); /* "  role" to 18, name 46 wide, " " */
    test_run_free(&r);
}

TEST(limits_cli_kernels_unknown_regs_are_dashes)
{
    test_run_t r;
    test_run_seer(&r, "predict", "--model", "models/t4.seer", "--n", "32", "--c", "64", "--h", "56", "--w",
                  "56", "--k", "64", "--algo", "WINOGRAD_NONFUSED", "--kernels", NULL);
    CHECK(r.rc == 0);
    CHECK(strstr(r.out, "regs") != NULL);
    CHECK(strstr(r.out, "      0      0 ") == NULL);
    test_run_free(&r);
}

/* A caller's GPU struct with a rate no GPU description file may give
 * (zero, negative, NaN, infinite, or a positive one under 1e-3) is
 * BAD_PARAM naming the field in the roofline and floor functions and
 * seer_gpu_streaming: they answered inf or NaN with SUCCESS (A100 80GB
 * PCIe with dram_gbps 0: seer_gemm_floor inf; dram_gbps NaN:
 * seer_conv_floor NaN; bf16_tflops 1e-300: seer_roofline_gemm inf). */
TEST(limits_gpu_struct_rates_checked)
{
    seer_gpu_info_t a;
    REQUIRE(seer_gpu_find(handle(), "a100-pcie-80gb", &a) == SEER_STATUS_SUCCESS);
    seer_conv_desc_t d;
    REQUIRE(seer_conv_desc_create(&d) == SEER_STATUS_SUCCESS);
    REQUIRE(seer_conv_desc_set(handle(), d, SEER_DTYPE_BF16, SEER_LAYOUT_NHWC, 8, 64, 28, 28, 64, 3, 3, 1, 1, 1, 1, 1,
                               1, 1) == SEER_STATUS_SUCCESS);
    /* every GPU of the table passes */
    int n = 0;
    REQUIRE(seer_gpu_count(&n) == SEER_STATUS_SUCCESS);
    for (int i = 0; i < n; i++) {
        seer_gpu_info_t g;
        double ms = -1;
        REQUIRE(seer_gpu_get(i, &g) == SEER_STATUS_SUCCESS);
        CHECK_STATUS(seer_gemm_floor(handle(), &g, 1, 64, 64, 64, SEER_DTYPE_FP32, 0, &ms), SEER_STATUS_SUCCESS);
        CHECK(isfinite(ms) && ms > 0);
        CHECK_STATUS(seer_gpu_streaming(&g, &ms, NULL), SEER_STATUS_SUCCESS);
    }
    static const struct { size_t off; const char *key; double v; } bad[] = {
        {offsetof(seer_gpu_info_t, dram_gbps), "dram_gbps", 0},
        {offsetof(seer_gpu_info_t, dram_gbps), "dram_gbps", NAN},
        {offsetof(seer_gpu_info_t, dram_gbps), "dram_gbps", 1e-300},
        {offsetof(seer_gpu_info_t, fp32_tflops), "fp32_tflops", INFINITY},
        {offsetof(seer_gpu_info_t, bf16_tflops), "bf16_tflops", 1e-300},
        {offsetof(seer_gpu_info_t, bf16_tflops), "bf16_tflops", -1},
        {offsetof(seer_gpu_info_t, dram_stream_gbps), "dram_stream_gbps", 1e300},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        seer_gpu_info_t g = a;
        memcpy((char *)&g + bad[i].off, &bad[i].v, sizeof(double));
        double ms = -1, gbps = -1;
        CHECK_STATUS(seer_roofline_conv(handle(), &g, d, SEER_DIR_FWD, &ms), SEER_STATUS_BAD_PARAM);
        CHECK(msg_has(bad[i].key));
        CHECK_STATUS(seer_roofline_gemm(handle(), &g, 1, 64, 64, 64, SEER_DTYPE_BF16, &ms), SEER_STATUS_BAD_PARAM);
        CHECK(msg_has(bad[i].key));
        CHECK_STATUS(seer_gemm_floor(handle(), &g, 1, 64, 64, 64, SEER_DTYPE_BF16, 1, &ms), SEER_STATUS_BAD_PARAM);
        CHECK(msg_has(bad[i].key) && msg_has("seer_gemm_floor"));
        CHECK_STATUS(seer_conv_floor(handle(), &g, d, SEER_DIR_FWD, 1, &ms), SEER_STATUS_BAD_PARAM);
        CHECK(msg_has(bad[i].key) && msg_has("seer_conv_floor"));
        CHECK_STATUS(seer_gpu_streaming(&g, &gbps, NULL), SEER_STATUS_BAD_PARAM);
        CHECK(ms == -1 && gbps == -1);
    }
    /* and a description file cannot give such a rate either */
    static const char file[] = "seer-gpu=1\nid=tiny-bf16\nname=Tiny\ncc=8.0\nsms=108\nboost_mhz=1410\n"
                               "fp32_tflops=19.5\nbf16_tflops=1e-300\ndram_gbps=1935\ndram_gib=80\nl2_bytes=41943040\n";
    CHECK_STATUS(seer_gpu_register_buffer(handle(), file, sizeof file - 1, NULL), SEER_STATUS_GPU_FILE);
    CHECK(msg_has("bf16_tflops"));
    seer_conv_desc_destroy(d);
}

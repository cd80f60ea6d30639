/* The seer CLI, run as a program: exit codes, messages, output formats.
 * Tests that need a trained model use models/t4.seer when it exists, or
 * train one from the shared data into /tmp, and skip otherwise. */
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "test.h"

/* the columns of a conv timing CSV v1 (docs/formats.md) up to time_ms,
 * for literals; conv_header is the same with its newline */
#define CONV_CSV_HEADER \
    "gpu,direction,dtype,layout,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,stride_w,dil_h,dil_w,groups,algo,time_ms"

static int have_bin(void) { return access(test_seer_bin(), X_OK) == 0; }

static const char conv_header[] = CONV_CSV_HEADER "\n";

TEST(cli_help)
{
    if (!have_bin()) SKIP("seer binary not built");
    static const char *const cmds[] = {"gpus", "train", "info", "predict", "eval"};
    test_run_t r;
    test_run_seer(&r, "--help", NULL);
    CHECK(r.rc == 0);
    CHECK(strstr(r.out, "usage") != NULL);
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        CHECK(strstr(r.out, cmds[i]) != NULL);
    test_run_free(&r);
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        test_run_seer(&r, cmds[i], "--help", NULL);
        CHECK(r.rc == 0);
        CHECK(strstr(r.out, "usage: seer") != NULL);
        CHECK(strstr(r.out, cmds[i]) != NULL);
        CHECK(r.err[0] == '\0');
        test_run_free(&r);
    }
    test_run_seer(&r, NULL);
    CHECK(r.rc == 2);
    test_run_free(&r);
}

TEST(cli_gpus_formats)
{
    if (!have_bin()) SKIP("seer binary not built");
    test_run_t r;
    test_run_seer(&r, "gpus", "--format", "csv", "--models", "/nonexistent-dir", NULL);
    CHECK(r.rc == 0);
    CHECK(strncmp(r.out, "id,name,arch,cc,sms,", 20) == 0);
    CHECK(strstr(r.out, ",model\n") != NULL);
    CHECK(strstr(r.out, "\na100-pcie-80gb,") != NULL);
    CHECK(strstr(r.out, "\nt4,NVIDIA T4,turing,7.5,40,") != NULL);
    CHECK(strstr(r.out, ",calibrated\n") == NULL); /* no models in a missing directory */
    CHECK(strstr(r.err, "warning: cannot read models directory '/nonexistent-dir'") != NULL);
    CHECK(strstr(r.out, ",transferred\n") == NULL);
    test_run_free(&r);
    test_run_seer(&r, "gpus", "--format=json", NULL);
    CHECK(r.rc == 0);
    CHECK(r.out[0] == '{');
    CHECK(strstr(r.out, "\"id\": \"v100-sxm2-16gb\"") != NULL);
    test_run_free(&r);
    test_run_seer(&r, "gpus", NULL);
    CHECK(r.rc == 0);
    CHECK(strstr(r.out, "gtx1080ti") != NULL);
    test_run_free(&r);
}

TEST(cli_gpus_model_column)
{
    if (!have_bin()) SKIP("seer binary not built");
    char dir[] = "/tmp/seer-test-modelsXXXXXX", path[128];
    REQUIRE(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/t4.seer", dir);
    /* a real model: an empty or corrupt file is "unusable" (test_limits.c) */
    char cmd[256];
    snprintf(cmd, sizeof cmd, "cp models/t4.seer %s", path);
    REQUIRE(system(cmd) == 0);
    test_run_t r;
    test_run_seer(&r, "gpus", "--format", "csv", "--models", dir, NULL);
    CHECK(r.rc == 0);
    const char *t4 = strstr(r.out, "\nt4,");
    CHECK(t4 != NULL && strncmp(strchr(t4 + 1, '\n') - 11, ",calibrated", 11) == 0);
    CHECK(strstr(r.out, ",calibrated\n") == strchr(t4 + 1, '\n') - 11);
    /* every other GPU would be served by a transfer from t4 */
    CHECK(strstr(r.out, "\nh100-sxm5-80gb,") != NULL &&
          strstr(strstr(r.out, "\nh100-sxm5-80gb,"), ",transferred\n") != NULL);
    test_run_free(&r);
    setenv("SEER_MODELS", dir, 1);
    test_run_seer(&r, "gpus", "--format", "csv", NULL);
    CHECK(strstr(r.out, ",calibrated\n") != NULL);
    unsetenv("SEER_MODELS");
    test_run_free(&r);
    /* the shipped Hopper models hold GEMM data only */
    test_run_seer(&r, "gpus", "--format", "csv", "--models", "models", NULL);
    const char *h100 = strstr(r.out, "\nh100-sxm5-80gb,");
    CHECK(h100 != NULL && strncmp(strchr(h100 + 1, '\n') - 16, ",gemm-calibrated", 16) == 0);
    test_run_free(&r);
    unlink(path);
    rmdir(dir);
}

/* One corrupt file fails every GPU whose served model reads it (a
 * calibrated model transfers from, and is tied to, the directory's other
 * models), so the model column says so rather than "calibrated". */
TEST(cli_gpus_model_column_follows_seer_model_open)
{
    if (!have_bin()) SKIP("seer binary not built");
    char dir[] = "/tmp/seer-test-modelsXXXXXX", cmd[512];
    REQUIRE(mkdtemp(dir) != NULL);
    snprintf(cmd, sizeof cmd, "cp models/t4.seer models/v100-pcie-32gb.seer %s && "
             "printf '\\377' | dd of=%s/v100-pcie-32gb.seer bs=1 seek=5000 conv=notrunc 2>/dev/null", dir, dir);
    REQUIRE(system(cmd) == 0);
    test_run_t r;
    test_run_seer(&r, "predict", "--gpu", "t4", "--models", dir, "--n", "1", "--c", "64", "--h", "7", "--w", "7",
                  "--k", "64", NULL);
    CHECK(r.rc == 1);
    CHECK(strstr(r.err, "MODEL_CORRUPT") != NULL && strstr(r.err, "v100-pcie-32gb.seer") != NULL);
    test_run_free(&r);
    test_run_seer(&r, "gpus", "--format", "csv", "--models", dir, NULL);
    CHECK(r.rc == 0);
    CHECK(strstr(r.err, "warning") != NULL && strstr(r.err, "v100-pcie-32gb.seer") != NULL);
    const char *t4 = strstr(r.out, "\nt4,");
    CHECK(t4 != NULL && strncmp(strchr(t4 + 1, '\n') - 9, ",unusable", 9) == 0);
    CHECK(strstr(r.out, ",calibrated\n") == NULL && strstr(r.out, ",transferred\n") == NULL);
    test_run_free(&r);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
}

/* Output that cannot be written (a full disk: /dev/full) exits 1 saying
 * so; it exited 0 over a cut or empty table. */
TEST(cli_output_write_error_fails)
{
    if (!have_bin()) SKIP("seer binary not built");
    if (access("/dev/full", W_OK) != 0) SKIP("no /dev/full");
    char err[] = "/tmp/seer-test-errXXXXXX";
    int fd = mkstemp(err);
    REQUIRE(fd >= 0);
    close(fd);
    static const char *const cmds[] = {"gpus", "--version", "gpus --format json"};
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "'%s' %s >/dev/full 2>%s", test_seer_bin(), cmds[i], err);
        int st = system(cmd);
        CHECK(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 1);
        FILE *f = fopen(err, "r");
        char line[256] = "";
        if (f) {
            if (!fgets(line, sizeof line, f)) line[0] = 0;
            fclose(f);
        }
        CHECK(strstr(line, "seer: cannot write the output") != NULL);
    }
    unlink(err);
}

TEST(cli_usage_errors)
{
    if (!have_bin()) SKIP("seer binary not built");
    test_run_t r;
    test_run_seer(&r, "gpus", "--bogus", NULL);
    CHECK(r.rc == 2);
    CHECK(strstr(r.err, "--bogus") != NULL);
    CHECK(r.out[0] == '\0');
    test_run_free(&r);
    test_run_seer(&r, "gpus", "--format", "xml", NULL);
    CHECK(r.rc == 2);
    CHECK(strstr(r.err, "--format") != NULL);
    test_run_free(&r);
    test_run_seer(&r, "frobnicate", NULL);
    CHECK(r.rc == 2);
    CHECK(strstr(r.err, "frobnicate") != NULL);
    test_run_free(&r);
    test_run_seer(&r, "predict", "--model", "x.seer", "--n", "two", NULL);
    CHECK(r.rc == 2);
    CHECK(strstr(r.err, "--n") != NULL);
    test_run_free(&r);
    test_run_seer(&r, "predict", "--model", "x.seer", "--n", "1", "--c", "3", "--h", "8", "--w", "8", NULL);
    CHECK(r.rc == 2);
    CHECK(strstr(r.err, "--k") != NULL);
    test_run_free(&r);
    test_run_seer(&r, "predict", "--model", "x.seer", "--n", "1", "--c", "3", "--h", "8", "--w", "8", "--k",
        "4", "--algo", "NOT_AN_ALGO", NULL);
    CHECK(r.rc == 2);
    CHECK(strstr(r.err, "--algo") != NULL);
    test_run_free(&r);
    test_run_seer(&r, "predict", "--gpu", "no-such-gpu", "--n", "1", NULL);
    CHECK(r.rc == 2);
    CHECK(strstr(r.err, "--gpu") != NULL);
    test_run_free(&r);
    test_run_seer(&r, "train", "--gpu", "t4", "--out", "/tmp/x.seer", NULL);
    CHECK(r.rc == 2);
    CHECK(strstr(r.err, "--data") != NULL);
    test_run_free(&r);
    test_run_seer(&r, "train", "--gpu", NULL);
    CHECK(r.rc == 2);
    CHECK(strstr(r.err, "--gpu") != NULL);
    test_run_free(&r);
    test_run_seer(&r, "eval", "--model", "x.seer", "--data", "y.csv", "--split", "half", NULL);
    CHECK(r.rc == 2);
    CHECK(strstr(r.err, "--split") != NULL);
    test_run_free(&r);
    test_run_seer(&r, "eval", "--model", "x.seer", "--given-launch=yes", "--data", "y.csv", NULL);
    CHECK(r.rc == 2);
    CHECK(strstr(r.err, "--given-launch") != NULL);
    test_run_free(&r);
}

TEST(cli_info_missing_file)
{
    if (!have_bin()) SKIP("seer binary not built");
    test_run_t r;
    test_run_seer(&r, "info", "/nonexistent/dir/model.seer", NULL);
    CHECK(r.rc == 1);
    CHECK(strncmp(r.err, "seer: SEER_STATUS_", 18) == 0);
    CHECK(strstr(r.err, "/nonexistent/dir/model.seer") != NULL);
    CHECK(r.out[0] == '\0');
    test_run_free(&r);
    test_run_seer(&r, "info", NULL);
    CHECK(r.rc == 2);
    test_run_free(&r);
}

TEST(cli_info_served_model)
{
    /* seer info --gpu: the served model, calibrated with its filled-in
     * families' scale, or transferred; a file and --gpu together are a
     * usage error */
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    test_run_t r;
    test_run_seer(&r, "info", "--gpu", "t4", "--models", "models", NULL);
    CHECK(r.rc == 0 && !strncmp(r.out, "served          calibrated for t4", 33));
    CHECK(strstr(r.out, "; scaled fwd fp32 x1.") != NULL);
    test_run_free(&r);
    test_run_seer(&r, "info", "--gpu", "l4", "--models", "models", NULL);
    CHECK(r.rc == 0 && !strncmp(r.out, "served          transferred for l4", 34));
    test_run_free(&r);
    /* a GEMM-only model (measured FP32 GEMMs): its convs are transferred, and it says so */
    test_run_seer(&r, "info", "--gpu", "h100", "--models", "models", NULL);
    CHECK(r.rc == 0 &&
          !strncmp(r.out, "served          calibrated GEMMs, transferred convolutions for h100-sxm5-80gb", 77) &&
          strstr(r.out, "what it has no data for transferred from:") && strstr(r.out, "GEMM"));
    test_run_free(&r);
    test_run_seer(&r, "info", "--gpu", "t4", "models/t4.seer", NULL);
    CHECK(r.rc == 2);
    test_run_free(&r);
}

TEST(cli_eval_malformed_csv)
{
    if (!have_bin()) SKIP("seer binary not built");
    char csv[64], text[1024];
    snprintf(text, sizeof text,
             "%st4,fwd,fp32,nchw,8,64,56,56,64,3,3,1,1,1,1,1,1,1,,1.0\n"
             "t4,fwd,fp32,nchw,8,sixty,56,56,64,3,3,1,1,1,1,1,1,1,,1.0\n",
             conv_header);
    REQUIRE(test_write_temp(csv, text));
    char want[80];
    snprintf(want, sizeof want, "%s:3", csv);
    test_run_t r;
    /* The data is read before the model: the CSV error is what shows. */
    test_run_seer(&r, "eval", "--model", "/nonexistent.seer", "--data", csv, NULL);
    CHECK(r.rc == 1);
    CHECK(strstr(r.err, want) != NULL);
    CHECK(r.out[0] == '\0');
    test_run_free(&r);
    unlink(csv);

    /* A field-count error is a syntax error naming its line too. */
    snprintf(text, sizeof text, "%st4,fwd,fp32\n", conv_header);
    REQUIRE(test_write_temp(csv, text));
    snprintf(want, sizeof want, "%s:2", csv);
    test_run_seer(&r, "eval", "--model", "/nonexistent.seer", "--data", csv, NULL);
    CHECK(r.rc == 1);
    CHECK(strstr(r.err, want) != NULL);
    test_run_free(&r);
    unlink(csv);
}

/* The table ranks as seer pick does: the algorithms timed from
 * measurements first, then the analytical guesses (an analytical FFT
 * once topped a calibrated model's list at a third of the direct
 * roofline); cuDNN's choice is listed where the model has it, and the
 * pick line names what seer net and predict --data take. */
TEST(cli_predict_ranks_measured_first)
{
    if (!have_bin()) SKIP("seer binary not built");
    test_run_t r;
    test_run_seer(&r, "predict", "--gpu", "v100-sxm2-16gb", "--models", "models", "--n", "64", "--c", "256", "--h",
                  "14", "--w", "14", "--k", "256", "--direction", "bwd_data", NULL);
    CHECK(r.rc == 0);
    CHECK(strstr(r.out, "\n1    CUDNN_CHOICE ") != NULL);
    CHECK(strstr(r.out, "\npick      CUDNN_CHOICE, ") != NULL);
    /* every measured line before the first analytical one */
    const char *an = strstr(r.out, "analytical"), *last = NULL;
    for (const char *p = strstr(r.out, "calibrated"); p; p = strstr(p + 1, "calibrated")) last = p;
    for (const char *p = strstr(r.out, "transferred"); p; p = strstr(p + 1, "transferred"))
        if (!last || p > last) last = p;
    CHECK(an && last && last < an);
    /* cuDNN's spelling of the direction reads the same (seer_direction_from_name) */
    test_run_t r2;
    test_run_seer(&r2, "predict", "--gpu", "v100-sxm2-16gb", "--models", "models", "--n", "64", "--c", "256", "--h",
                  "14", "--w", "14", "--k", "256", "--direction", "dgrad", NULL);
    CHECK(r2.rc == 0 && !strcmp(r.out, r2.out));
    test_run_free(&r2);
    test_run_free(&r);
    test_run_seer(&r, "predict", "--gpu", "v100-sxm2-16gb", "--models", "models", "--n", "64", "--c", "256", "--h",
                  "14", "--w", "14", "--k", "256", "--format", "json", NULL);
    CHECK(r.rc == 0);
    CHECK(strstr(r.out, "\"pick\": {\"algo\": \"") != NULL);
    test_run_free(&r);
    /* a narrow grouped conv: cuDNN's choice only as the analytical bound
     * of its wide conv, so not listed */
    test_run_seer(&r, "predict", "--gpu", "a100-pcie-80gb", "--models", "models", "--n", "32", "--c", "64", "--h",
                  "56", "--w", "56", "--k", "64", "--groups", "64", NULL);
    CHECK(r.rc == 0 && !strstr(r.out, "CUDNN_CHOICE") && strstr(r.out, "\npick      "));
    test_run_free(&r);
    /* one algorithm: no pick */
    test_run_seer(&r, "predict", "--gpu", "v100-sxm2-16gb", "--models", "models", "--n", "8", "--c", "64", "--h", "14",
                  "--w", "14", "--k", "64", "--algo", "IMPLICIT_GEMM", NULL);
    CHECK(r.rc == 0 && !strstr(r.out, "pick"));
    test_run_free(&r);
    /* cuDNN's choice by the name the ranking prints: that one alone, and
     * exit 1 where the model has no data for it (the A100's forward) */
    test_run_seer(&r, "predict", "--gpu", "v100-sxm2-16gb", "--models", "models", "--n", "8", "--c", "64", "--h", "14",
                  "--w", "14", "--k", "64", "--direction", "bwd_data", "--algo", "CUDNN_CHOICE", NULL);
    CHECK(r.rc == 0 && strstr(r.out, "\n1    CUDNN_CHOICE ") && !strstr(r.out, "\n2 ") && !strstr(r.out, "pick"));
    test_run_free(&r);
    test_run_seer(&r, "predict", "--gpu", "a100-pcie-80gb", "--models", "models", "--n", "8", "--c", "64", "--h", "14",
                  "--w", "14", "--k", "64", "--algo", "cudnn_choice", NULL);
    CHECK(r.rc == 1 && strstr(r.err, "NOT_CALIBRATED") && !strstr(r.out, "rank"));
    test_run_free(&r);
}

TEST(cli_predict_bad_shape)
{
    if (!have_bin()) SKIP("seer binary not built");
    test_run_t r;
    test_run_seer(&r, "predict", "--model", "/nonexistent.seer", "--n", "1", "--c", "3", "--h", "8", "--w",
        "8", "--k", "4", "--groups", "2", NULL);
    CHECK(r.rc != 0);
    CHECK(strstr(r.err, "groups") != NULL);
    CHECK(r.out[0] == '\0');
    test_run_free(&r);
    test_run_seer(&r, "predict", "--model", "/nonexistent.seer", "--n", "1", "--c", "3", "--h", "8", "--w",
        "8", "--k", "4", "--pad-h", "-1", NULL);
    CHECK(r.rc == 1);
    CHECK(strstr(r.err, "pad_h") != NULL);
    test_run_free(&r);
}

/* ---- with a model ---- */

/* models/t4.seer if shipped, else one trained from the shared data with
 * the test split held out, else NULL.  trained is set when the caller
 * must remove the file. */
static const char *t4_model(char path[64], int *trained)
{
    *trained = 0;
    if (access("models/t4.seer", R_OK) == 0) return "models/t4.seer";
    char data[512];
    snprintf(data, sizeof data, "%s/conv/t4.csv", test_data_dir());
    if (access(data, R_OK) != 0) return NULL;
    if (!test_write_temp(path, "")) return NULL;
    test_run_t r;
    test_run_seer(&r, "train", "--gpu", "t4", "--data", data, "--out", path, "--holdout", NULL);
    int ok = r.rc == 0 && strstr(r.out, "rows") != NULL;
    test_run_free(&r);
    if (!ok) {
        unlink(path);
        return NULL;
    }
    *trained = 1;
    return path;
}

TEST(cli_with_model)
{
    if (!have_bin()) SKIP("seer binary not built");
    char tmp[64], data[512];
    int trained;
    const char *model = t4_model(tmp, &trained);
    if (!model) SKIP("no models/t4.seer and no shared data to train one");
    snprintf(data, sizeof data, "%s/conv/t4.csv", test_data_dir());
    test_run_t r;

    test_run_seer(&r, "info", model, NULL);
    CHECK(r.rc == 0);
    CHECK(strstr(r.out, "gpu             t4\n") != NULL);
    CHECK(strstr(r.out, "checksum        0x") != NULL);
    test_run_free(&r);

    /* Every algorithm, fastest first; unsupported ones listed as such. */
    test_run_seer(&r, "predict", "--model", model, "--n", "32", "--c", "64", "--h", "56", "--w", "56",
        "--k", "64", NULL);
    CHECK(r.rc == 0);
    CHECK(strstr(r.out, "rank") != NULL);
    CHECK(strstr(r.out, "\n1    ") != NULL);
    CHECK(strstr(r.out, "DIRECT") != NULL);
    test_run_free(&r);
    test_run_seer(&r, "predict", "--model", model, "--n", "32", "--c", "64", "--h", "56", "--w", "56",
        "--k", "64", "--algo", "IMPLICIT_PRECOMP_GEMM", "--kernels", "--format", "json", NULL);
    CHECK(r.rc == 0);
    CHECK(strstr(r.out, "\"algo\": \"IMPLICIT_PRECOMP_GEMM\"") != NULL);
    CHECK(strstr(r.out, "\"kernels\": [") != NULL);
    CHECK(strstr(r.out, "\"role\": \"main\"") != NULL);
    test_run_free(&r);

    /* Every row of a CSV: the input echoed plus the prediction. */
    char csv[64], text[1024];
    snprintf(text, sizeof text,
             "%st4,fwd,fp32,nchw,8,64,56,56,64,3,3,1,1,1,1,1,1,1,,1.0\n"
             "t4,fwd,fp32,nchw,8,64,28,28,128,3,3,1,1,1,1,1,1,1,IMPLICIT_PRECOMP_GEMM,\n",
             conv_header);
    REQUIRE(test_write_temp(csv, text));
    test_run_seer(&r, "predict", "--model", model, "--data", csv, NULL);
    CHECK(r.rc == 0);
    CHECK(strstr(r.out, "algo,time_ms,pred_algo,pred_source,pred_ms\n") == r.out + strlen(conv_header) - 13);
    CHECK(strstr(r.out, ",IMPLICIT_PRECOMP_GEMM,,IMPLICIT_PRECOMP_GEMM,calibrated,") != NULL);
    test_run_free(&r);
    unlink(csv);

    if (access(data, R_OK) != 0) {
        if (trained) unlink(model);
        SKIP("eval part: shared data not found");
    }
    /* eval: one JSON object with the metrics and the baseline. */
    test_run_seer(&r, "eval", "--model", model, "--data", data, "--split", "test", "--format", "json", NULL);
    CHECK(r.rc == 0);
    static const char *const keys[] = {"\"n\":", "\"mape\":", "\"rmspe\":", "\"median_ape\":",
                                       "\"p90_ape\":", "\"baseline_roofline\":", "\"by_direction\":",
                                       "\"by_algo\":", "\"by_class\":", "\"skipped\":",
                                       "\"failed\":"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) CHECK(strstr(r.out, keys[i]) != NULL);
    CHECK(r.out[0] == '{');
    const char *n = strstr(r.out, "\"n\": ");
    CHECK(n && atoi(n + 5) > 0);
    test_run_free(&r);

    /* Text tables and the plot. */
    char svg[64];
    REQUIRE(test_write_temp(svg, ""));
    test_run_seer(&r, "eval", "--model", model, "--data", data, "--split", "test", "--given-launch",
        "--plot", svg, NULL);
    CHECK(r.rc == 0);
    CHECK(strstr(r.out, "by direction") && strstr(r.out, "by algo") && strstr(r.out, "by class"));
    /* both figures: with the measured main kernel, and ours on the same rows */
    CHECK(strstr(r.out, "given launch: ") != NULL);
    CHECK(strstr(r.out, "\nseer, given launch ") != NULL && strstr(r.out, "\nseer, same rows ") != NULL);
    test_run_free(&r);
    /* --pick: the labelled rows again with the fastest predicted
     * algorithm, beside their own, and how often it is theirs */
    test_run_seer(&r, "eval", "--model", model, "--data", data, "--split", "test", "--pick", NULL);
    CHECK(r.rc == 0 && strstr(r.out, "\nseer, fastest algo ") && strstr(r.out, "\nseer, their algo ") &&
          strstr(r.out, "\npicker: the fastest predicted algorithm is the row's on "));
    test_run_free(&r);
    test_run_seer(&r, "eval", "--model", model, "--data", data, "--split", "test", "--pick", "--format", "json",
                  NULL);
    const char *pk = strstr(r.out, "\"pick\": {\"n\": "), *ag = pk ? strstr(pk, "\"agree\": ") : NULL;
    CHECK(r.rc == 0 && pk && ag && strstr(ag, "\"own_algo\": {\"n\": "));
    CHECK(pk && ag && atoi(pk + 14) > 0 && atoi(ag + 9) >= 0 && atoi(ag + 9) <= atoi(pk + 14));
    /* after the headline: tools/eval.sh and CI gates read the first "mape" */
    CHECK(pk && strstr(r.out, "\"mape\": ") < pk);
    test_run_free(&r);
    char *s = test_slurp(svg);
    CHECK(s && strstr(s, "<svg") && strstr(s, "</svg>") && strstr(s, "<circle"));
    free(s);
    unlink(svg);

    /* --source filters to nothing: an error, not an empty report. */
    test_run_seer(&r, "eval", "--model", model, "--data", data, "--source", "no-such-source", NULL);
    CHECK(r.rc == 1);
    CHECK(r.out[0] == '\0');
    test_run_free(&r);
    if (trained) unlink(tmp);
}

/* seer eval on a GEMM timing CSV: the same report, keyed gemm/OP/MATH,
 * rows of other GPUs ignored, the test split by seer_gemm_in_test_split,
 * and a transfer when the GPU has no model. */
/* Every direction of a CSV gets a prediction, also where the fastest is
 * cuDNN's own choice (SEER_ALGO_CUDNN_CHOICE, -1): models/v100-sxm2-16gb
 * has backward data only as cuDNN's choice. */
TEST(cli_predict_csv_every_direction)
{
    const char *model = "models/v100-sxm2-16gb.seer";
    if (access(model, R_OK) != 0) SKIP("no models/v100-sxm2-16gb.seer");
    char csv[64], text[1024];
    snprintf(text, sizeof text,
             "%sv100-sxm2-16gb,fwd,fp32,nchw,16,64,56,56,64,3,3,1,1,1,1,1,1,1,,\n"
             "v100-sxm2-16gb,bwd_data,fp32,nchw,16,64,56,56,64,3,3,1,1,1,1,1,1,1,,\n"
             "v100-sxm2-16gb,bwd_filter,fp16,nchw,16,64,56,56,64,3,3,1,1,1,1,1,1,1,,\n",
             conv_header);
    REQUIRE(test_write_temp(csv, text));
    test_run_t r;
    test_run_seer(&r, "predict", "--model", model, "--data", csv, NULL);
    CHECK(r.rc == 0);
    int rows = 0;
    for (const char *l = strchr(r.out, '\n'); l && l[1]; l = strchr(l + 1, '\n')) {
        const char *e = strchr(l + 1, '\n');
        rows++;
        CHECK(e && e - l > 2 && !(e[-1] == ',' && e[-2] == ','));
        CHECK(e && e[-1] != ',');
    }
    CHECK(rows == 3);
    CHECK(strstr(r.err, "could not be predicted") == NULL);
    test_run_free(&r);
    test_run_seer(&r, "predict", "--model", model, "--data", csv, "--format", "json", NULL);
    CHECK(r.rc == 0 && strstr(r.out, "\"pred_algo\": null") == NULL);
    test_run_free(&r);
    /* each row sets its own direction, dtype, layout and algorithm: the
     * options are refused, not ignored; and one file */
    test_run_seer(&r, "predict", "--model", model, "--data", csv, "--dtype", "fp16", NULL);
    CHECK(r.rc == 2 && strstr(r.err, "--dtype cannot be combined with --data") != NULL && !r.out[0]);
    test_run_free(&r);
    test_run_seer(&r, "predict", "--model", model, "--algo", "GEMM", "--data", csv, NULL);
    CHECK(r.rc == 2 && strstr(r.err, "--algo cannot be combined with --data") != NULL);
    test_run_free(&r);
    test_run_seer(&r, "predict", "--model", model, "--data", csv, "--data", csv, NULL);
    CHECK(r.rc == 2 && strstr(r.err, "--data: one file") != NULL);
    test_run_free(&r);
    /* Rows of another GPU libseer knows stay that GPU's; a GPU known by
     * the driver's device name ("Tesla T4") is that GPU; rows naming no
     * GPU libseer knows are taken as the model's GPU's, and stderr says so. */
    if (access("models/t4.seer", R_OK) == 0) {
        test_run_seer(&r, "predict", "--model", "models/t4.seer", "--data", csv, "--format", "json", NULL);
        CHECK(r.rc == 0 && strstr(r.out, "\"pred_ms\": null") != NULL);
        CHECK(strstr(r.err, "3 rows of other GPUs") != NULL);
        test_run_free(&r);
        const char *names[2] = {"Tesla T4", "lab-gpu-7"};
        for (int i = 0; i < 2; i++) {
            unlink(csv);
            snprintf(text, sizeof text,
                     "%s%s,fwd,fp32,nchw,16,64,56,56,64,3,3,1,1,1,1,1,1,1,,1.5\n"
                     "%s,fwd,fp32,nchw,16,64,28,28,128,3,3,1,1,1,1,1,1,1,,0.9\n", conv_header, names[i], names[i]);
            REQUIRE(test_write_temp(csv, text));
            test_run_seer(&r, "predict", "--model", "models/t4.seer", "--data", csv, "--format", "json", NULL);
            CHECK(r.rc == 0 && strstr(r.out, "\"pred_algo\": null") == NULL);
            CHECK(i ? strstr(r.err, "the first says 'lab-gpu-7'") != NULL : strstr(r.err, "says") == NULL);
            CHECK(i || strstr(r.out, "\"gpu\": \"t4\"") != NULL);
            test_run_free(&r);
            test_run_seer(&r, "eval", "--model", "models/t4.seer", "--data", csv, "--format", "json", NULL);
            CHECK(r.rc == 0 && strstr(r.out, "\"n\": 2,") != NULL);
            CHECK(i ? strstr(r.err, "every row taken as measured on t4") != NULL : strstr(r.err, "taken as") == NULL);
            test_run_free(&r);
        }
    }
    unlink(csv);
}

/* seer gemm: one GEMM, table and JSON, the GPU by its device name, and
 * its errors (usage: exit 2, no output; library: exit 1, the status). */
TEST(cli_eval_fastest_and_math_type)
{
    /* a sweep that timed every algorithm under two math types: --fastest
     * keeps one row per conv, its fastest framework-math one, scored as
     * the fastest predicted algorithm; the DEFAULT twin of an fp16
     * TENSOR_OP row is left out and counted */
    if (!have_bin()) SKIP("seer binary not built");
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    char csv[64], text[1024];
    snprintf(text, sizeof text, CONV_CSV_HEADER ",math_type\n"
             "t4,fwd,fp16,nhwc,8,64,56,56,64,3,3,1,1,1,1,1,1,1,IMPLICIT_PRECOMP_GEMM,0.05,TENSOR_OP\n"
             "t4,fwd,fp16,nhwc,8,64,56,56,64,3,3,1,1,1,1,1,1,1,IMPLICIT_PRECOMP_GEMM,0.01,DEFAULT\n"
             "t4,fwd,fp16,nhwc,8,64,56,56,64,3,3,1,1,1,1,1,1,1,IMPLICIT_GEMM,0.2,DEFAULT\n"
             "t4,fwd,fp32,nchw,8,64,56,56,64,3,3,1,1,1,1,1,1,1,IMPLICIT_GEMM,0.3,FMA\n");
    REQUIRE(test_write_temp(csv, text));
    test_run_t r;
    test_run_seer(&r, "eval", "--gpu", "t4", "--data", csv, "--format", "json", NULL);
    CHECK(r.rc == 0 && strstr(r.out, "\"n\": 3,") && strstr(r.out, "\"other_math\": 1"));
    test_run_free(&r);
    test_run_seer(&r, "eval", "--gpu", "t4", "--data", csv, "--fastest", NULL);
    CHECK(r.rc == 0 && strstr(r.out, "rows      2 scored") && strstr(r.out, "fwd/auto"));
    test_run_free(&r);
    unlink(csv);
}

TEST(cli_gemm)
{
    if (!have_bin()) SKIP("seer binary not built");
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    test_run_t r;
    test_run_seer(&r, "gemm", "--gpu", "a100-pcie-80gb", "--m", "256", "--n", "1000", "--k", "2048", "--bias", NULL);
    CHECK(r.rc == 0 && strstr(r.out, "model     a100-pcie-80gb (calibrated)") &&
          strstr(r.out, "1 x [256 x 2048] . [2048 x 1000] fp32 + bias") && strstr(r.out, "time      "));
    test_run_free(&r);
    /* a GEMM-only file serves it: every output says so */
    test_run_seer(&r, "predict", "--gpu", "h100", "--n", "8", "--c", "64", "--h", "28", "--w", "28", "--k", "64", NULL);
    CHECK(r.rc == 0 && strstr(r.out, "(h100-sxm5-80gb: calibrated GEMMs, transferred convolutions)"));
    test_run_free(&r);
    test_run_seer(&r, "gemm", "--gpu", "NVIDIA H100 80GB HBM3", "--m", "64", "--n", "64", "--k", "64", "--batch", "8",
                  "--dtype", "fp16", "--format", "json", NULL);
    CHECK(r.rc == 0 && strstr(r.out, "{\"gpu\": \"h100-sxm5-80gb\", \"served\": \"gemm-calibrated\"") &&
          strstr(r.out, "\"batch\": 8, \"m\": 64") && strstr(r.out, "\"time_ms\": ") &&
          strstr(r.out, "\"roofline_ms\": "));
    double t = 0, roof = 0;
    const char *pt = strstr(r.out, "\"time_ms\": "), *pr = strstr(r.out, "\"roofline_ms\": ");
    CHECK(pt && pr && sscanf(pt + 11, "%lf", &t) == 1 && sscanf(pr + 15, "%lf", &roof) == 1 && t >= roof && roof > 0);
    test_run_free(&r);
    test_run_seer(&r, "gemm", "--gpu", "t4", "--m", "8", "--n", "8", NULL);
    CHECK(r.rc == 2 && strstr(r.err, "--k is required") && !*r.out);
    test_run_free(&r);
    test_run_seer(&r, "gemm", "--gpu", "t4", "--m", "0", "--n", "8", "--k", "8", NULL);
    CHECK(r.rc == 2 && strstr(r.err, "--m") && !*r.out);
    test_run_free(&r);
    test_run_seer(&r, "gemm", "--gpu", "gtx1080ti", "--m", "8", "--n", "8", "--k", "8", "--dtype", "bf16", NULL);
    CHECK(r.rc == 1 && strstr(r.err, "SEER_STATUS_UNSUPPORTED") && !*r.out);
    test_run_free(&r);
    test_run_seer(&r, "gemm", "--gpu", "t4", "--m", "8", "--n", "8", "--k", "8", "--bias=1", NULL);
    CHECK(r.rc == 2 && !*r.out);
    test_run_free(&r);
}

TEST(cli_eval_gemm_csv)
{
    if (!have_bin()) SKIP("seer binary not built");
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    char csv[64], text[2048];
    snprintf(text, sizeof text,
             "gpu,op,dtype,batch,m,n,k,trans_a,trans_b,bias,time_ms\n"
             "t4,linear,fp32,1,512,512,512,N,T,1,0.12\n"
             "t4,bmm,fp32,8,256,256,256,N,N,0,0.2\n"
             "t4,gemm,fp16,1,1024,1024,1024,N,N,0,0.3\n"
             "v100-pcie-32gb,linear,fp32,1,512,512,512,N,T,1,0.05\n");
    REQUIRE(test_write_temp(csv, text));
    test_run_t r;
    test_run_seer(&r, "eval", "--model", "models/t4.seer", "--data", csv, "--format", "json", NULL);
    CHECK(r.rc == 0);
    CHECK(strstr(r.out, "\"n\": 2, \"skipped\": 0, \"failed\": 1") != NULL); /* fp16: no tensor-core GEMM fit */
    CHECK(strstr(r.out, "\"key\": \"gemm/linear/fp32\"") && strstr(r.out, "\"key\": \"gemm/bmm/fp32\""));
    CHECK(strstr(r.out, "\"key\": \"gemm\"") != NULL);
    CHECK(strstr(r.out, "\"baseline_roofline\": {\"scale\": ") != NULL);
    test_run_free(&r);
    /* --gpu picks the V100 row (and the V100 model of the directory) */
    test_run_seer(&r, "eval", "--gpu", "v100-pcie-32gb", "--models", "models", "--data", csv, "--format", "json",
                  NULL);
    CHECK(r.rc == 0);
    CHECK(strstr(r.out, "\"n\": 1,") != NULL);
    test_run_free(&r);
    unlink(csv);

    /* a malformed GEMM file: named with its line, nothing on stdout */
    snprintf(text, sizeof text,
             "gpu,op,dtype,batch,m,n,k,trans_a,trans_b,bias,time_ms\n"
             "t4,linear,fp32,1,512,512,512,N,T,1,0.12\n"
             "t4,linear,fp32,1,-4,512,512,N,T,1,0.12\n");
    REQUIRE(test_write_temp(csv, text));
    char want[80];
    snprintf(want, sizeof want, "%s:3", csv);
    test_run_seer(&r, "eval", "--model", "models/t4.seer", "--data", csv, NULL);
    CHECK(r.rc == 1);
    CHECK(strstr(r.err, want) != NULL);
    CHECK(r.out[0] == '\0');
    test_run_free(&r);
    unlink(csv);
}

/* --gpu takes a GPU description file wherever it takes an id: a GPU the
 * table lacks is predicted (transferred from the shipped models), trained
 * for, and its model used with the file again. */
TEST(cli_gpu_description_file)
{
    char gpu[64], data[64], model[80], src[512];
    REQUIRE(test_write_temp(gpu, "seer-gpu=1\nid=rtx-2080\nname=NVIDIA GeForce RTX 2080\ncc=7.5\nsms=46\n"
                                 "boost_mhz=1710\nfp32_tflops=10.07\nfp16_tflops=40.3\ndram_gbps=448\n"
                                 "dram_gib=8\nl2_bytes=4194304\n"));
    test_run_t r;
    test_run_seer(&r, "predict", "--gpu", gpu, "--models", "models", "--n", "32", "--c", "64", "--h", "56",
                  "--w", "56", "--k", "64", NULL);
    CHECK(r.rc == 0);
    CHECK(strstr(r.out, "transferred to rtx-2080 from"));
    test_run_free(&r);
    test_run_seer(&r, "predict", "--gpu", "rtx-2080", "--n", "1", "--c", "1", "--h", "1", "--w", "1",
                  "--k", "1", NULL);
    CHECK(r.rc == 2 && strstr(r.err, "unknown GPU 'rtx-2080'"));
    test_run_free(&r);
    test_run_seer(&r, "train", "--gpu", "/dev/zero", "--data", "x.csv", "--out", "x.seer", NULL);
    CHECK(r.rc == 2 && strstr(r.err, "/dev/zero: is a character device, not a GPU description file"));
    test_run_free(&r);

    snprintf(src, sizeof src, "%s/conv/t4.csv", test_data_dir());
    char *csv = test_slurp(src);
    if (!csv) {
        remove(gpu);
        SKIP("shared conv data not found (set SEER_DATA)");
    }
    for (char *p = strstr(csv, "\nt4,"); p; p = strstr(p + 1, "\nt4,")) memcpy(p + 1, "x4", 2);
    REQUIRE(test_write_temp(data, csv));
    free(csv);
    snprintf(model, sizeof model, "%s.seer", data);
    /* the rows name x4: a GPU the description must be for */
    test_run_seer(&r, "train", "--gpu", gpu, "--data", data, "--out", model, NULL);
    CHECK(r.rc != 0 && strstr(r.err, "rtx-2080"));
    test_run_free(&r);
    char *fixed = test_slurp(data);
    REQUIRE(fixed);
    FILE *f = fopen(data, "w");
    REQUIRE(f);
    for (char *line = strtok(fixed, "\n"); line; line = strtok(NULL, "\n"))
        fprintf(f, "%s%s\n", strncmp(line, "x4,", 3) ? "" : "rtx-2080", strncmp(line, "x4,", 3) ? line : line + 2);
    fclose(f);
    free(fixed);
    test_run_seer(&r, "train", "--gpu", gpu, "--data", data, "--out", model, NULL);
    CHECK(r.rc == 0 && strstr(r.out, "rtx-2080: ") && strstr(r.out, " rows, "));
    test_run_free(&r);
    test_run_seer(&r, "predict", "--model", model, "--gpu", gpu, "--n", "32", "--c", "64", "--h", "56",
                  "--w", "56", "--k", "64", NULL);
    CHECK(r.rc == 0 && strstr(r.out, "(rtx-2080)"));
    test_run_free(&r);
    /* without the file the model's GPU is unknown, and the message says what to do */
    test_run_seer(&r, "predict", "--model", model, "--n", "32", "--c", "64", "--h", "56", "--w", "56",
                  "--k", "64", NULL);
    CHECK(r.rc != 0 && strstr(r.err, "register its GPU description file"));
    test_run_free(&r);
    /* seer info too: the message's advice (--gpu FILE) is taken */
    test_run_seer(&r, "info", model, NULL);
    CHECK(r.rc == 1 && strstr(r.err, "SEER_STATUS_UNKNOWN_GPU") && strstr(r.err, "--gpu FILE"));
    test_run_free(&r);
    test_run_seer(&r, "info", model, "--gpu", gpu, NULL);
    CHECK(r.rc == 0 && strstr(r.out, "\ngpu             rtx-2080\n") && !strstr(r.out, "served"));
    test_run_free(&r);
    /* another GPU's model, or a table id with a file: usage errors */
    test_run_seer(&r, "info", "models/t4.seer", "--gpu", gpu, NULL);
    CHECK(r.rc == 2 && strstr(r.err, "does not match the model's GPU t4"));
    test_run_free(&r);
    test_run_seer(&r, "info", model, "--gpu", "rtx-2080", NULL);
    CHECK(r.rc == 2 && strstr(r.err, "not both"));
    test_run_free(&r);
    remove(gpu);
    remove(data);
    remove(model);
}

TEST(cli_rows_of_cudnn7_ran_nchw_tensor_cores_without_transposes)
{
    /* DeepBench's V100 fp16 rows (cuDNN 7.6.2, NCHW) are in 38 of 272
     * faster than the transposes today's cuDNN adds alone: a row whose source
     * names cuDNN 7 or older is predicted as the NHWC conv; any other
     * NCHW row with the transposes. */
    const char *model = "models/v100-sxm2-16gb.seer";
    if (access(model, R_OK) != 0) SKIP("no models/v100-sxm2-16gb.seer");
    char csv[64];
    REQUIRE(test_write_temp(csv, CONV_CSV_HEADER ",source\n"
                                 "v100-sxm2-16gb,fwd,fp16,nchw,64,256,28,28,128,3,3,1,1,1,1,1,1,1,"
                                 "IMPLICIT_PRECOMP_GEMM,1,deepbench-cudnn7.6.2:Resnet\n"
                                 "v100-sxm2-16gb,fwd,fp16,nhwc,64,256,28,28,128,3,3,1,1,1,1,1,1,1,"
                                 "IMPLICIT_PRECOMP_GEMM,1,lab\n"
                                 "v100-sxm2-16gb,fwd,fp16,nchw,64,256,28,28,128,3,3,1,1,1,1,1,1,1,"
                                 "IMPLICIT_PRECOMP_GEMM,1,deepbench-cudnn8.9.2:Resnet\n"));
    test_run_t r;
    test_run_seer(&r, "predict", "--model", model, "--data", csv, "--format", "json", NULL);
    CHECK(r.rc == 0);
    double ms[3] = {0, 0, 0};
    const char *p = r.out;
    for (int i = 0; i < 3 && (p = strstr(p, "\"pred_ms\": ")); i++, p++) ms[i] = strtod(p + 11, NULL);
    CHECK(ms[0] > 0 && ms[0] == ms[1] && ms[2] > ms[1] * 1.05);
    test_run_free(&r);
    unlink(csv);
}

/* seer predict --gpu gpu --data (a temporary file of csv) --format json:
 * the first n rows' pred_algo (algo may be NULL) and pred_ms; the exit
 * status, or -1 when the file could not be written. */
static int predict_json(const char *gpu, const char *csv, int n, char (*algo)[32], double *ms)
{
    char path[64];
    if (!test_write_temp(path, csv)) return -1;
    test_run_t r;
    test_run_seer(&r, "predict", "--gpu", gpu, "--models", "models", "--data", path, "--format", "json", NULL);
    const char *p = r.out;
    for (int i = 0; i < n && (p = strstr(p, "\"pred_algo\": ")); i++, p++) {
        if (algo && sscanf(p + 13, "\"%31[^\"]", algo[i]) != 1) algo[i][0] = 0;
        const char *q = strstr(p, "\"pred_ms\": ");
        ms[i] = q ? strtod(q + 11, NULL) : 0;
    }
    int rc = r.rc;
    test_run_free(&r);
    unlink(path);
    return rc;
}

TEST(cli_deepbench_forward_row_is_the_fastest)
{
    /* DeepBench's forward fp32 times are of cudnnFind's fastest algorithm
     * and its labels may come from another GPU (../shared/data/README.md):
     * such a row scores the fastest prediction, like an empty algo, while
     * the same label from another source, or on a DeepBench fp16 row
     * (always IMPLICIT_PRECOMP_GEMM), is predicted as labelled. */
    if (access("models/v100-sxm2-16gb.seer", R_OK) != 0) SKIP("shipped models missing");
    double ms[4] = {0, 0, 0, 0};
    char algo[4][32] = {"", "", "", ""};
    CHECK(predict_json("v100",
                       CONV_CSV_HEADER ",source\n"
                       "v100,fwd,fp32,nchw,16,256,14,14,1024,1,1,0,0,1,1,1,1,1,IMPLICIT_GEMM,1,"
                       "deepbench-cudnn7.6.2:ResNet\n"
                       "v100,fwd,fp32,nchw,16,256,14,14,1024,1,1,0,0,1,1,1,1,1,,1,neusight\n"
                       "v100,fwd,fp32,nchw,16,256,14,14,1024,1,1,0,0,1,1,1,1,1,IMPLICIT_GEMM,1,neusight\n"
                       "v100,fwd,fp16,nchw,16,256,14,14,1024,1,1,0,0,1,1,1,1,1,IMPLICIT_GEMM,1,"
                       "deepbench-cudnn7.6.2:ResNet\n",
                       4, algo, ms) == 0);
    printf("  deepbench %s %.4f, empty %s %.4f, labelled %s %.4f, fp16 %s %.4f ms\n", algo[0], ms[0], algo[1], ms[1],
           algo[2], ms[2], algo[3], ms[3]);
    CHECK(ms[0] > 0 && ms[0] == ms[1] && !strcmp(algo[0], algo[1]));
    CHECK(!strcmp(algo[2], "IMPLICIT_GEMM") && ms[2] != ms[0]);
    CHECK(!strcmp(algo[3], "IMPLICIT_GEMM"));
}

TEST(cli_predict_data_each_row_on_its_gpu)
{
    /* seer predict --data without --model or --gpu predicts each row for
     * the GPU its gpu column names (any name seer_gpu_find takes), as
     * --gpu would; a row of a GPU libseer does not know stays empty and
     * the others are still predicted. */
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    char csv[64];
    REQUIRE(test_write_temp(csv, CONV_CSV_HEADER "\n"
                                 "t4,fwd,fp32,nchw,8,64,56,56,64,3,3,1,1,1,1,1,1,1,IMPLICIT_PRECOMP_GEMM,1\n"
                                 "no-such-gpu,fwd,fp32,nchw,8,64,56,56,64,3,3,1,1,1,1,1,1,1,,1\n"
                                 "NVIDIA H100 80GB HBM3,bwd_data,fp16,nhwc,8,64,56,56,64,3,3,1,1,1,1,1,1,1,,1\n"));
    test_run_t all, t4, h100;
    test_run_seer(&all, "predict", "--models", "models", "--data", csv, "--format", "csv", NULL);
    test_run_seer(&t4, "predict", "--gpu", "t4", "--models", "models", "--data", csv, "--format", "csv", NULL);
    test_run_seer(&h100, "predict", "--gpu", "h100", "--models", "models", "--data", csv, "--format", "csv", NULL);
    CHECK(all.rc == 0 && t4.rc == 0 && h100.rc == 0);
    /* line by line: header, t4, unknown, h100 */
    char la[4][256] = {{0}}, lt[4][256] = {{0}}, lh[4][256] = {{0}};
    const char *pa = all.out, *pt = t4.out, *ph = h100.out;
    for (int i = 0; i < 4; i++) {
        sscanf(pa, "%255[^\n]", la[i]);
        sscanf(pt, "%255[^\n]", lt[i]);
        sscanf(ph, "%255[^\n]", lh[i]);
        pa = strchr(pa, '\n') ? strchr(pa, '\n') + 1 : pa;
        pt = strchr(pt, '\n') ? strchr(pt, '\n') + 1 : pt;
        ph = strchr(ph, '\n') ? strchr(ph, '\n') + 1 : ph;
    }
    printf("  %s\n  %s\n  %s\n", la[1], la[2], la[3]);
    CHECK(!strcmp(la[1], lt[1]) && strstr(la[1], "IMPLICIT_PRECOMP_GEMM,calibrated,0.") != NULL);
    CHECK(!strcmp(la[3], lh[3]) && strstr(la[3], ",1,CUDNN_CHOICE,") != NULL);
    CHECK(strstr(la[2], ",1,,,") != NULL && la[2][strlen(la[2]) - 1] == ',');
    CHECK(strstr(la[3], ",CUDNN_CHOICE,transferred,0.") != NULL);
    CHECK(strstr(all.err, "no-such-gpu") != NULL);
    /* a models directory that cannot be read fails the run, not the rows */
    test_run_t none;
    test_run_seer(&none, "predict", "--models", "/nonexistent/seer-models", "--data", csv, "--format", "csv", NULL);
    CHECK(none.rc == 1 && strstr(none.err, "/nonexistent/seer-models") != NULL && none.out[0] == 0);
    test_run_free(&none);
    test_run_free(&all);
    test_run_free(&t4);
    test_run_free(&h100);
    unlink(csv);
}

TEST(cli_predict_data_gemm_rows)
{
    /* a GEMM timing CSV given to seer predict --data is predicted row by
     * row with the GEMM fit (pred_ms appended), on each row's GPU when no
     * model is given, as seer gemm predicts the same GEMM */
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    char csv[64];
    REQUIRE(test_write_temp(csv, "gpu,op,dtype,batch,m,n,k,trans_a,trans_b,bias,time_ms,source\n"
                                 "l4,bmm,fp32,8,256,256,256,N,N,0,0.1,x\n"
                                 "zz,gemm,fp32,1,64,64,64,N,N,0,1,x\n"));
    test_run_t all, one;
    test_run_seer(&all, "predict", "--models", "models", "--data", csv, "--format", "csv", NULL);
    test_run_seer(&one, "gemm", "--gpu", "l4", "--models", "models", "--batch", "8", "--m", "256", "--n", "256",
                  "--k", "256", "--format", "json", NULL);
    CHECK(all.rc == 0 && one.rc == 0);
    const char *row = strstr(all.out, "\nl4,bmm,"), *t = strstr(one.out, "\"time_ms\": ");
    REQUIRE(row && t);
    /* pred_ms is the row's last field */
    const char *end = strchr(row + 1, '\n');
    REQUIRE(end);
    const char *comma = end;
    while (comma > row && *comma != ',') comma--;
    double got = strtod(comma + 1, NULL);
    double want = strtod(t + 11, NULL);
    printf("  l4 bmm 8x256^3: predict --data %.6g ms, seer gemm %.6g ms\n", got, want);
    CHECK(got > 0 && fabs(got - want) <= 1e-5 * want);
    CHECK(strstr(all.out, "\nzz,gemm,fp32,1,64,64,64,N,N,0,1,x,\n") != NULL);
    /* with --gpu, a file naming no GPU libseer knows is taken as that GPU's */
    test_run_t mine;
    char card[64];
    REQUIRE(test_write_temp(card, "gpu,op,dtype,batch,m,n,k,trans_a,trans_b,bias,time_ms\n"
                                  "My Card,bmm,fp32,8,256,256,256,N,N,0,0.1\n"));
    test_run_seer(&mine, "predict", "--gpu", "l4", "--models", "models", "--data", card, "--format", "json", NULL);
    const char *mt = strstr(mine.out, "\"pred_ms\": ");
    CHECK(mine.rc == 0 && mt && fabs(strtod(mt + 11, NULL) - want) <= 1e-5 * want);
    test_run_free(&mine);
    unlink(card);
    test_run_free(&all);
    test_run_free(&one);
    unlink(csv);
}

TEST(cli_data_duplicate_column_is_an_error)
{
    /* two gpu columns: seer predict --data and seer eval would read the
     * first and drop the second without a word */
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    char csv[64], out[64];
    REQUIRE(test_write_temp(csv, CONV_CSV_HEADER ",gpu\n"
                                 "t4,fwd,fp32,nchw,8,64,56,56,64,3,3,1,1,1,1,1,1,1,,1,v100-sxm2-16gb\n"));
    static const char *const cmds[] = {"predict", "eval"};
    test_run_t r;
    for (int i = 0; i < 2; i++) {
        test_run_seer(&r, cmds[i], "--model", "models/t4.seer", "--data", csv, NULL);
        CHECK(r.rc == 1 && r.out[0] == 0);
        CHECK(strstr(r.err, "SEER_STATUS_CSV_SYNTAX") != NULL && strstr(r.err, csv) != NULL &&
              strstr(r.err, ":1: column 'gpu' appears twice in the header (columns 1 and 21)") != NULL);
        test_run_free(&r);
    }
    /* a predicted file predicted again: the new pred_* columns replace
     * the old, so the output reads back */
    REQUIRE(test_write_temp(out, CONV_CSV_HEADER ",pred_algo,pred_source,pred_ms\n"
                                 "t4,fwd,fp32,nchw,8,64,56,56,64,3,3,1,1,1,1,1,1,1,,1,X,calibrated,9\n"));
    test_run_seer(&r, "predict", "--model", "models/t4.seer", "--data", out, "--format", "csv", NULL);
    CHECK(r.rc == 0);
    CHECK(strncmp(r.out, CONV_CSV_HEADER ",pred_algo,pred_source,pred_ms\n", sizeof CONV_CSV_HEADER - 1 + 31) == 0);
    CHECK(strstr(r.out, ",1,1,,1,") != NULL && strstr(r.out, ",X,") == NULL && strstr(r.out, ",9\n") == NULL);
    test_run_free(&r);
    unlink(out);
    unlink(csv);
}

TEST(cli_predict_data_echo_drops_the_byte_order_mark)
{
    /* a UTF-8 byte order mark (Excel's "CSV UTF-8") is skipped by the
     * reader; the echo printed it before the first column's name, so the
     * output's first column read as "\xEF\xBB\xBFgpu" elsewhere */
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    char conv[64], gemm[64];
    REQUIRE(test_write_temp(conv, "\xEF\xBB\xBF" CONV_CSV_HEADER "\r\n"
                                  "t4,fwd,fp32,nchw,8,64,56,56,64,3,3,1,1,1,1,1,1,1,,1\r\n"));
    REQUIRE(test_write_temp(gemm, "\xEF\xBB\xBFgpu,op,dtype,batch,m,n,k,trans_a,trans_b,bias\r\n"
                                  "t4,linear,fp32,1,64,1000,2048,N,T,1\r\n"));
    test_run_t r;
    test_run_seer(&r, "predict", "--model", "models/t4.seer", "--data", conv, "--format", "csv", NULL);
    CHECK(r.rc == 0);
    CHECK(strncmp(r.out, CONV_CSV_HEADER ",pred_algo,pred_source,pred_ms\n", sizeof CONV_CSV_HEADER - 1 + 31) == 0);
    CHECK(strstr(r.out, "\nt4,fwd,fp32,nchw,8,64,56,56,64,3,3,1,1,1,1,1,1,1,,1,") != NULL);
    test_run_free(&r);
    test_run_seer(&r, "predict", "--model", "models/t4.seer", "--data", gemm, "--format", "csv", NULL);
    CHECK(r.rc == 0);
    CHECK(strncmp(r.out, "gpu,op,dtype,batch,m,n,k,trans_a,trans_b,bias,pred_ms\nt4,linear,", 64) == 0);
    test_run_free(&r);
    unlink(gemm);
    unlink(conv);
}

TEST(cli_predict_data_more_gpus_than_cached)
{
    /* per-row models are cached for 64 GPUs and replaced in turn past
     * that: a GEMM file naming every GPU of the table and 30 unknown ones,
     * twice over, gets the same prediction for a GPU's two rows and none
     * for the unknown ones */
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    int ng = 0;
    REQUIRE(seer_gpu_count(&ng) == SEER_STATUS_SUCCESS && ng > 34);
    size_t cap = 256 * (size_t)(2 * (ng + 30)) + 128, len = 0;
    char *text = malloc(cap);
    REQUIRE(text);
    len += (size_t)snprintf(text + len, cap - len, "gpu,op,dtype,batch,m,n,k,trans_a,trans_b,bias,time_ms\n");
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < ng; i++) {
            seer_gpu_info_t g;
            REQUIRE(seer_gpu_get(i, &g) == SEER_STATUS_SUCCESS);
            len += (size_t)snprintf(text + len, cap - len, "%s,gemm,fp32,1,512,512,512,N,N,0,1\n", g.id);
        }
        for (int i = 0; i < 30; i++)
            len += (size_t)snprintf(text + len, cap - len, "card-%d,gemm,fp32,1,512,512,512,N,N,0,1\n", i);
    }
    char csv[64];
    REQUIRE(test_write_temp(csv, text));
    free(text);
    test_run_t r;
    test_run_seer(&r, "predict", "--models", "models", "--data", csv, "--format", "csv", NULL);
    CHECK(r.rc == 0);
    /* the lines after the header: pass 1 then pass 2, ng + 30 each */
    int n = ng + 30, same = 0, empty = 0;
    char **line = calloc((size_t)(2 * n), sizeof *line);
    REQUIRE(line);
    char *p = strchr(r.out, '\n');
    for (int i = 0; p && i < 2 * n; i++) {
        line[i] = p + 1;
        p = strchr(p + 1, '\n');
        if (p) *p = 0;
    }
    for (int i = 0; i < n && line[i] && line[i + n]; i++) {
        same += !strcmp(line[i], line[i + n]);
        empty += line[i][strlen(line[i]) - 1] == ',';
    }
    printf("  %d GPUs + 30 unknown, twice: %d rows alike in both passes, %d without prediction\n", ng, same, empty);
    CHECK(same == n && empty == 30);
    free(line);
    test_run_free(&r);
    unlink(csv);
}

TEST(cli_eval_gpu_from_the_rows)
{
    /* seer eval without --model or --gpu scores the rows on the GPU they
     * name, as --gpu does; rows of two GPUs are a usage error naming them */
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    char one[64], two[64];
    REQUIRE(test_write_temp(one, CONV_CSV_HEADER "\n"
                                 "Tesla T4,fwd,fp32,nchw,8,64,56,56,64,3,3,1,1,1,1,1,1,1,,0.3\n"
                                 "t4,fwd,fp32,nchw,8,64,28,28,64,3,3,1,1,1,1,1,1,1,,0.1\n"));
    REQUIRE(test_write_temp(two, CONV_CSV_HEADER "\n"
                                 "t4,fwd,fp32,nchw,8,64,56,56,64,3,3,1,1,1,1,1,1,1,,0.3\n"
                                 "a100,fwd,fp32,nchw,8,64,28,28,64,3,3,1,1,1,1,1,1,1,,0.1\n"));
    test_run_t a, b, c;
    test_run_seer(&a, "eval", "--models", "models", "--data", one, "--format", "json", NULL);
    test_run_seer(&b, "eval", "--gpu", "t4", "--models", "models", "--data", one, "--format", "json", NULL);
    test_run_seer(&c, "eval", "--models", "models", "--data", two, NULL);
    CHECK(a.rc == 0 && b.rc == 0 && !strcmp(a.out, b.out));
    CHECK(c.rc == 2 && strstr(c.err, "t4") && strstr(c.err, "a100-sxm4-40gb"));
    test_run_free(&a);
    test_run_free(&b);
    test_run_free(&c);
    unlink(one);
    unlink(two);
}

TEST(cli_fastest_row_is_the_pickers_time)
{
    /* A row with an empty algo takes the picker's fastest time, which
     * caps a tensor-core conv at its FP32 and pseudo-half ones: the
     * fastest algorithm's own time once put this FP16 1-channel conv over
     * the FP32 one (24.1 against 19.1 ms on an RTX 2070). */
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    double ms[2] = {0, 0};
    CHECK(predict_json("rtx2070",
                       CONV_CSV_HEADER "\n"
                       "rtx2070,fwd,fp16,nhwc,64,1,128,128,1024,7,7,3,3,1,1,1,1,1,,1\n"
                       "rtx2070,fwd,fp32,nhwc,64,1,128,128,1024,7,7,3,3,1,1,1,1,1,,1\n",
                       2, NULL, ms) == 0);
    CHECK(ms[0] > 0 && ms[1] > 0 && ms[0] <= ms[1]);
}

/* JSON is Unicode: a CSV field's bytes that are no UTF-8 character are
 * echoed as U+FFFD (they were once echoed raw, and the output did not
 * parse); well-formed UTF-8 stays as it is. */
TEST(cli_json_output_is_utf8)
{
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    char csv[64], text[512];
    snprintf(text, sizeof text,
             "%st4,fwd,fp32,nchw,8,64,56,56,64,3,3,1,1,1,1,1,1,1,X\xff\xfeY,1\n"
             "t4,fwd,fp32,nchw,8,64,56,56,64,3,3,1,1,1,1,1,1,1,caf\xc3\xa9\xe2\x82\xac,1\n"
             "t4,fwd,fp32,nchw,8,64,56,56,64,3,3,1,1,1,1,1,1,1,\xed\xa0\x80\xc0\xaf,1\n",
             conv_header);
    REQUIRE(test_write_temp(csv, text));
    test_run_t r;
    test_run_seer(&r, "predict", "--model", "models/t4.seer", "--data", csv, "--format", "json", NULL);
    CHECK(r.rc == 0);
    CHECK(strstr(r.out, "\"X\\ufffd\\ufffdY\"") != NULL);
    CHECK(strstr(r.out, "\"caf\xc3\xa9\xe2\x82\xac\"") != NULL);
    /* a surrogate's and an overlong form's bytes are no characters either */
    CHECK(strstr(r.out, "\"\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\"") != NULL);
    CHECK(strchr(r.out, '\xff') == NULL && strchr(r.out, '\xed') == NULL);
    test_run_free(&r);
    unlink(csv);
}

/* Padding defaults to "same" for odd filters, (r - 1) / 2 per side: a
 * fixed 1 padded a 1x1 conv of 56 x 56 to a 58 x 58 output; an explicit
 * --pad still wins. */
TEST(cli_predict_pads_same_by_default)
{
    if (!have_bin()) SKIP("seer binary not built");
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    static const struct { const char *r, *s, *pad, *want; } cases[] = {
        {"1", "1", NULL, "p=56 q=56"}, {"3", "3", NULL, "p=56 q=56"}, {"7", "7", NULL, "p=56 q=56"},
        {"1", "7", NULL, "p=56 q=56"}, {"1", "1", "1", "p=58 q=58"}, {"7", "7", "0", "p=50 q=50"}};
    /* and of the dilated filter: dil (r - 1) / 2 */
    test_run_t rd;
    test_run_seer(&rd, "predict", "--gpu", "t4", "--models", "models", "--n", "1", "--c", "8", "--h", "56", "--w", "56",
                  "--k", "8", "--dil", "2", NULL);
    CHECK(rd.rc == 0 && strstr(rd.out, "p=56 q=56") != NULL);
    test_run_free(&rd);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        test_run_t r;
        if (cases[i].pad)
            test_run_seer(&r, "predict", "--gpu", "t4", "--models", "models", "--n", "1", "--c", "8", "--h", "56", "--w",
                          "56", "--k", "8", "--r", cases[i].r, "--s", cases[i].s, "--pad", cases[i].pad, NULL);
        else
            test_run_seer(&r, "predict", "--gpu", "t4", "--models", "models", "--n", "1", "--c", "8", "--h", "56", "--w",
                          "56", "--k", "8", "--r", cases[i].r, "--s", cases[i].s, NULL);
        CHECK(r.rc == 0);
        CHECK(strstr(r.out, cases[i].want) != NULL);
        test_run_free(&r);
    }
}

/* The text of out from the first "from" to the first "to" after it
 * (malloc'ed), or NULL: the part of two eval outputs that must agree
 * when only the file names differ. */
static char *between(const char *out, const char *from, const char *to)
{
    const char *a = strstr(out, from), *b = a ? strstr(a, to) : NULL;
    if (!b) return NULL;
    char *s = malloc((size_t)(b - a) + 1);
    if (s) {
        memcpy(s, a, (size_t)(b - a));
        s[b - a] = 0;
    }
    return s;
}

/* A kernel trace (seer-bench's kernels.csv: a row per kernel) is scored
 * per call, its kernels summed as seer train sums them: the same scores
 * as the calls' conv timing CSV (seer-bench's layers.csv), not one per
 * kernel.  seer predict --data, which echoes its input's rows, refuses
 * one and says which file to give instead. */
TEST(cli_kernel_trace_scored_per_call)
{
    if (!have_bin()) SKIP("seer binary not built");
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    static const char shape[] = "t4,fwd,fp32,nchw,32,64,56,56,64,3,3,1,1,1,1,1,1,1";
    char lay[64], ker[64], picks[64], text[4096];
    snprintf(text, sizeof text, CONV_CSV_HEADER "\n%s,IMPLICIT_GEMM,2.5\n%s,GEMM,4\n%s,FFT,3\n", shape, shape,
             shape);
    REQUIRE(test_write_temp(lay, text));
    /* the same three calls, two or three kernels each */
    int n = snprintf(text, sizeof text,
                     "gpu,direction,dtype,layout,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,stride_w,dil_h,dil_w,groups,"
                     "algo,call_id,kernel_index,kernel_name,grid_x,grid_y,grid_z,block_x,block_y,block_z,"
                     "regs_per_thread,smem_static,smem_dynamic,time_ms\n");
    static const struct { const char *algo; int call; double t; } k[] = {
        {"IMPLICIT_GEMM", 0, 2.0}, {"IMPLICIT_GEMM", 0, 0.5}, {"GEMM", 1, 0.5}, {"GEMM", 1, 3.0},
        {"GEMM", 1, 0.5}, {"FFT", 2, 1.0}, {"FFT", 2, 2.0}};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        n += snprintf(text + n, sizeof text - (size_t)n, "%s,%s,%d,%d,kernel%zu,1,1,1,128,1,1,64,0,0,%g\n", shape,
                      k[i].algo, k[i].call, (int)(i > 0 && k[i - 1].call == k[i].call), i, k[i].t);
    REQUIRE(test_write_temp(ker, text));
    snprintf(text, sizeof text,
             "gpu,direction,dtype,layout,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,stride_w,dil_h,dil_w,groups,"
             "source,rank,algo\n%s,v7,0,GEMM\n", shape);
    REQUIRE(test_write_temp(picks, text));

    test_run_t a, b;
    test_run_seer(&a, "eval", "--model", "models/t4.seer", "--data", lay, "--format", "json", NULL);
    test_run_seer(&b, "eval", "--model", "models/t4.seer", "--data", ker, "--format", "json", NULL);
    CHECK(a.rc == 0 && b.rc == 0);
    CHECK(strstr(b.out, "\"n\": 3, \"skipped\"") != NULL);
    char *sa = between(a.out, "\"n\": ", "\"dispatch\""), *sb = between(b.out, "\"n\": ", "\"dispatch\"");
    CHECK(sa && sb && strcmp(sa, sb) == 0);
    free(sa);
    free(sb);
    test_run_free(&a);
    test_run_free(&b);

    test_run_seer(&a, "eval-picker", "--model", "models/t4.seer", "--data", lay, "--picks", picks, "--format",
                  "json", NULL);
    test_run_seer(&b, "eval-picker", "--model", "models/t4.seer", "--data", ker, "--picks", picks, "--format",
                  "json", NULL);
    CHECK(a.rc == 0 && b.rc == 0);
    CHECK(strstr(a.out, "\"shapes\": 1,") != NULL);
    CHECK(strcmp(a.out, b.out) == 0);
    test_run_free(&a);
    test_run_free(&b);

    test_run_seer(&a, "predict", "--model", "models/t4.seer", "--data", ker, NULL);
    CHECK(a.rc == 1 && a.out[0] == '\0');
    CHECK(strstr(a.err, ker) && strstr(a.err, "kernel trace") && strstr(a.err, "layers.csv"));
    test_run_free(&a);
    unlink(lay);
    unlink(ker);
    unlink(picks);
}

/* A file given twice to seer train (the same path, or another name of
 * it) would train every row twice: refused, naming it, before any is
 * read.  A seer-bench run's kernels.csv and layers.csv (the same calls)
 * train, with a warning naming both. */
TEST(cli_train_file_given_twice)
{
    if (!have_bin()) SKIP("seer binary not built");
    char csv[64], alias[80], out[64];
    REQUIRE(test_write_temp(csv, conv_header));
    REQUIRE(test_write_temp(out, ""));
    unlink(out);
    const char *slash = strrchr(csv, '/');
    REQUIRE(slash != NULL);
    snprintf(alias, sizeof alias, "%.*s/./%s", (int)(slash - csv), csv, slash + 1);
    test_run_t r;
    test_run_seer(&r, "train", "--gpu", "t4", "--data", csv, csv, "--out", out, NULL);
    CHECK(r.rc == 1 && r.out[0] == '\0');
    CHECK(strstr(r.err, csv) && strstr(r.err, "given twice") && strstr(r.err, "train twice"));
    CHECK(access(out, F_OK) != 0);
    test_run_free(&r);
    test_run_seer(&r, "train", "--gpu", "t4", "--data", csv, "--data", alias, "--out", out, NULL);
    CHECK(r.rc == 1);
    CHECK(strstr(r.err, alias) && strstr(r.err, "is the same file as") && strstr(r.err, csv));
    CHECK(access(out, F_OK) != 0);
    test_run_free(&r);
    unlink(csv);

    static const char kern[] = "data/h100-sxm5-80gb/bench/kernels.csv", lay[] = "data/h100-sxm5-80gb/bench/layers.csv";
    if (access(kern, R_OK) != 0 || access(lay, R_OK) != 0) SKIP("data/h100-sxm5-80gb/bench missing");
    test_run_seer(&r, "train", "--gpu", "h100-sxm5-80gb", "--data", kern, lay, "--out", out, NULL);
    CHECK(r.rc == 0);
    CHECK(strstr(r.err, "warning") && strstr(r.err, "same seer-bench run") && strstr(r.err, kern) &&
          strstr(r.err, lay));
    test_run_free(&r);
    test_run_seer(&r, "train", "--gpu", "h100-sxm5-80gb", "--data", kern, "--out", out, NULL);
    CHECK(r.rc == 0 && r.err[0] == '\0');
    test_run_free(&r);
    unlink(out);
}

/* The provenance counts a kernel trace's calls (its kernels summed), as
 * "N of its M calls kept": a bare count read as the file's size. */
TEST(cli_train_trace_provenance_counts_calls)
{
    if (!have_bin()) SKIP("seer binary not built");
    static const char kern[] = "data/h100-sxm5-80gb/bench/kernels.csv";
    if (access(kern, R_OK) != 0) SKIP("data/h100-sxm5-80gb/bench missing");
    char out[64];
    REQUIRE(test_write_temp(out, ""));
    test_run_t r;
    test_run_seer(&r, "train", "--gpu", "h100-sxm5-80gb", "--data", kern, "--out", out, NULL);
    CHECK(r.rc == 0);
    test_run_free(&r);
    test_run_seer(&r, "info", out, NULL);
    const char *p = strstr(r.out, "kernels.csv (");
    long kept = 0, calls = 0;
    CHECK(r.rc == 0 && p && sscanf(p, "kernels.csv (%ld of its %ld calls kept, seer-bench)", &kept, &calls) == 2);
    CHECK(kept > 0 && kept <= calls);
    test_run_free(&r);
    unlink(out);
}

/* GPU description files (libseer/gpufile.c): parsing, the per-handle
 * registry, and a GPU absent from the table trained, saved, loaded and
 * transferred to. */
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>
#include "test.h"
#include "gpufile.h"

/* A GeForce RTX 2080 (TU104): not in the built-in table. */
static const char RTX2080[] =
    "# written by hand from the datasheet\n"
    "seer-gpu=1\n"
    "id=rtx-2080\n"
    "name=NVIDIA GeForce RTX 2080\n"
    "arch=turing\n"
    "cc=7.5\n"
    "sms=46\n"
    "boost_mhz=1710\n"
    "fp32_tflops=10.07\n"
    "fp16_tflops=40.3\n"
    "fp16_simt_tflops=20.1\n"
    "dram_gbps=448\n"
    "dram_gib=8\n"
    "l2_bytes=4194304\n"
    "info.driver=580.159.04\n";

TEST(gpufile_parse_defaults_from_cc)
{
    seer_gpu_info_t g, t4;
    CHECK_STATUS(seer_gpufile_parse(NULL, "x", RTX2080, strlen(RTX2080), &g), SEER_STATUS_SUCCESS);
    CHECK(!strcmp(g.id, "rtx-2080") && !strcmp(g.arch, "turing") && g.sms == 46);
    CHECK(g.cc_major == 7 && g.cc_minor == 5);
    CHECK_NEAR(g.fp32_tflops, 10.07, 1e-12);
    CHECK(g.bf16_tflops == 0 && g.tf32_tflops == 0);
    CHECK(g.dram_stream_gbps == 0); /* optional: not measured */
    char measured[1024];
    snprintf(measured, sizeof measured, "%sdram_stream_gbps=390\n", RTX2080);
    CHECK_STATUS(seer_gpufile_parse(NULL, "x", measured, strlen(measured), &g), SEER_STATUS_SUCCESS);
    double gbps = 0;
    CHECK(g.dram_stream_gbps == 390 && !seer_gpu_streaming(&g, &gbps, NULL) && gbps == 390);
    seer_gpu_info_t g2;
    char other[1024];
    /* an editor's UTF-8 byte order mark is no content (it was once an
     * invisible character in the error) */
    snprintf(other, sizeof other, "\xef\xbb\xbf%s", RTX2080);
    CHECK_STATUS(seer_gpufile_parse(NULL, "x", other, strlen(other), &g2), SEER_STATUS_SUCCESS);
    /* contradicting limits are named by their keys */
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    snprintf(other, sizeof other, "%sthreads_per_sm=512\n", RTX2080);
    CHECK_STATUS(seer_gpufile_parse(h, "x", other, strlen(other), &g2), SEER_STATUS_GPU_FILE);
    CHECK(strstr(seer_get_last_error(h), "'threads_per_block above threads_per_sm'") != NULL);
    seer_destroy(h);
    /* per-SM limits the file left out: those of the table's cc 7.5 GPU */
    REQUIRE(seer_gpu_find(NULL, "t4", &t4) == SEER_STATUS_SUCCESS);
    CHECK(g.smem_per_sm == t4.smem_per_sm && g.threads_per_sm == t4.threads_per_sm &&
          g.blocks_per_sm == t4.blocks_per_sm && g.warps_per_sm == t4.warps_per_sm &&
          g.regs_per_sm == t4.regs_per_sm && g.smem_alloc_unit == t4.smem_alloc_unit);
    int b = 0;
    CHECK_STATUS(seer_occupancy(&g, 256, 64, 0, &b), SEER_STATUS_SUCCESS);
    CHECK(b == 4);
}

/* Each bad file: GPU_FILE, the message names the line and what is wrong. */
TEST(gpufile_rejects_with_line_and_key)
{
    static const struct { const char *text, *want; } bad[] = {
        {"id=x\n", "x:1: not a GPU description file"},
        {"seer-gpu=2\nid=x\n", "x:1: unsupported format version '2'"},
        {"\n# c\nseer-gpu=1\nid=a\nfoo=1\n", "x:5: unknown key 'foo'"},
        {"seer-gpu=1\nid=a\nid=b\n", "x:3: duplicate key 'id'"},
        {"seer-gpu=1\nsms=-3\n", "x:2: value out of range for 'sms'"},
        {"seer-gpu=1\nsms=4.5\n", "x:2: integer expected for 'sms'"},
        {"seer-gpu=1\ndram_gbps=nan\n", "x:2: not a decimal number for 'dram_gbps'"},
        /* plain decimal, as CSV numbers: strtod took hex and blanks, and
         * strtol read cc 7.05 as 7.5 */
        {"seer-gpu=1\nsms=0x2e\n", "x:2: not a decimal number for 'sms'"},
        {"seer-gpu=1\nsms= 46\n", "x:2: not a decimal number for 'sms'"},
        {"seer-gpu=1\nfp32_tflops=inf\n", "x:2: not a decimal number for 'fp32_tflops'"},
        {"seer-gpu=1\ncc=7.05\n", "x:2: cc must be MAJOR.MINOR, got '7.05'"},
        {"seer-gpu=1\ncc=+7.5\n", "x:2: cc must be MAJOR.MINOR, got '+7.5'"},
        {"seer-gpu=1\ncc=7. 5\n", "x:2: cc must be MAJOR.MINOR, got '7. 5'"},
        {"seer-gpu=1\ncc=7.\n", "x:2: cc must be MAJOR.MINOR, got '7.'"},
        {"seer-gpu=1\ndram_stream_gbps=-1\n", "x:2: value out of range for 'dram_stream_gbps'"},
        {"seer-gpu=1\ncc=seven\n", "x:2: cc must be MAJOR.MINOR"},
        {"seer-gpu=1\nid=RTX 2080\n", "x:2: id must be"},
        {"seer-gpu=1\njunk\n", "x:2: expected key=value"},
        {"seer-gpu=1\nid=a\n", "x: missing required key 'name'"},
        {"", "x: empty"},
    };
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        seer_gpu_info_t g;
        CHECK_STATUS(seer_gpufile_parse(h, "x", bad[i].text, strlen(bad[i].text), &g), SEER_STATUS_GPU_FILE);
        if (!strstr(seer_get_last_error(h), bad[i].want)) {
            fprintf(stderr, "  got '%s', want '%s'\n", seer_get_last_error(h), bad[i].want);
            CHECK(0);
        }
    }
    /* a NUL byte, a line over 1 KiB, an unknown cc without limits */
    static const char nul[] = "seer-gpu=1\nid=a\0b\n";
    seer_gpu_info_t g;
    CHECK_STATUS(seer_gpufile_parse(h, "x", nul, sizeof nul - 1, &g), SEER_STATUS_GPU_FILE);
    CHECK(strstr(seer_get_last_error(h), "x:2: NUL byte"));
    char *big = malloc(4096);
    REQUIRE(big);
    memset(big, 'a', 4096);
    memcpy(big, "seer-gpu=1\nname=", 16);
    CHECK_STATUS(seer_gpufile_parse(h, "x", big, 4096, &g), SEER_STATUS_GPU_FILE);
    CHECK(strstr(seer_get_last_error(h), "x:2: line longer than 1024 bytes"));
    /* the limit exactly: 1024 bytes pass (an unknown key), 1025 do not */
    memcpy(big, "seer-gpu=1\n", 11);
    memset(big + 11, 'a', 1025);
    big[11 + 1024] = '\n';
    CHECK_STATUS(seer_gpufile_parse(h, "x", big, 11 + 1025, &g), SEER_STATUS_GPU_FILE);
    CHECK(!strstr(seer_get_last_error(h), "longer than"));
    big[11 + 1024] = 'a';
    big[11 + 1025] = '\n';
    CHECK_STATUS(seer_gpufile_parse(h, "x", big, 11 + 1026, &g), SEER_STATUS_GPU_FILE);
    CHECK(strstr(seer_get_last_error(h), "x:2: line longer than 1024 bytes"));
    free(big);
    char text[1024];
    snprintf(text, sizeof text, "%s", RTX2080);
    char *cc = strstr(text, "cc=7.5");
    REQUIRE(cc);
    memcpy(cc, "cc=7.7", 6);
    CHECK_STATUS(seer_gpufile_parse(h, "x", text, strlen(text), &g), SEER_STATUS_GPU_FILE);
    CHECK(strstr(seer_get_last_error(h), "required for an unknown compute capability"));
    seer_destroy(h);
}

/* A registered GPU is known on its handle only; registering the same
 * facts again is harmless, other facts under a known id are refused. */
TEST(gpufile_register_per_handle)
{
    seer_handle_t a, b;
    seer_gpu_info_t g;
    REQUIRE(seer_create(&a) == SEER_STATUS_SUCCESS && seer_create(&b) == SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_gpu_find(a, "rtx-2080", &g), SEER_STATUS_UNKNOWN_GPU);
    CHECK_STATUS(seer_gpu_register_buffer(a, RTX2080, strlen(RTX2080), &g), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_gpu_find(a, "RTX-2080", &g), SEER_STATUS_SUCCESS);
    CHECK(g.sms == 46);
    /* named as the table's GPUs are: separators alike */
    CHECK_STATUS(seer_gpu_find(a, "rtx_2080", &g), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_gpu_find(a, "RTX 2080", &g), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_gpu_find(b, "rtx-2080", &g), SEER_STATUS_UNKNOWN_GPU);
    CHECK_STATUS(seer_gpu_find(NULL, "rtx-2080", &g), SEER_STATUS_UNKNOWN_GPU);
    CHECK_STATUS(seer_gpu_register_buffer(a, RTX2080, strlen(RTX2080), NULL), SEER_STATUS_SUCCESS);
    char text[1024];
    snprintf(text, sizeof text, "%s", RTX2080);
    memcpy(strstr(text, "sms=46"), "sms=48", 6);
    CHECK_STATUS(seer_gpu_register_buffer(a, text, strlen(text), NULL), SEER_STATUS_GPU_FILE);
    CHECK(strstr(seer_get_last_error(a), "already registered with other facts"));
    memcpy(strstr(text, "id=rtx-2080"), "id=t4\n\n\n\n\n\n", 11);
    CHECK_STATUS(seer_gpu_register_buffer(a, text, strlen(text), NULL), SEER_STATUS_GPU_FILE);
    CHECK(strstr(seer_get_last_error(a), "already in the built-in table"));
    CHECK_STATUS(seer_gpu_register_buffer(NULL, RTX2080, strlen(RTX2080), NULL), SEER_STATUS_BAD_PARAM);
    /* info may be NULL: the message names text alone */
    CHECK_STATUS(seer_gpu_register_buffer(a, NULL, 100, NULL), SEER_STATUS_BAD_PARAM);
    CHECK(!strcmp(seer_get_last_error(a), "seer_gpu_register_buffer: text is NULL"));
    seer_destroy(a);
    seer_destroy(b);
}

/* The form-factor aliases (h100-sxm, a100-80gb, ...) are loose names: a
 * description file may still register its own GPU under one, and that
 * handle finds it rather than the built-in one. */
TEST(gpufile_registers_a_form_factor_alias_as_its_own)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    char text[2048];
    const char *at = strstr(RTX2080, "id=rtx-2080\n");
    REQUIRE(at);
    snprintf(text, sizeof text, "%.*sid=h100-sxm\n%s", (int)(at - RTX2080), RTX2080, at + strlen("id=rtx-2080\n"));
    CHECK_STATUS(seer_gpu_register_buffer(h, text, strlen(text), NULL), SEER_STATUS_SUCCESS);
    seer_gpu_info_t g;
    CHECK_STATUS(seer_gpu_find(h, "h100-sxm", &g), SEER_STATUS_SUCCESS);
    CHECK(!strcmp(g.id, "h100-sxm") && g.sms == 46);
    seer_handle_t other;
    REQUIRE(seer_create(&other) == SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_gpu_find(other, "h100-sxm", &g), SEER_STATUS_SUCCESS); /* elsewhere: the alias */
    CHECK(!strcmp(g.id, "h100-sxm5-80gb"));
    seer_destroy(other);
    seer_destroy(h);
}

TEST(gpufile_register_file_checks_first)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_gpu_register_file(h, "/dev/zero", NULL), SEER_STATUS_IO_ERROR);
    CHECK(strstr(seer_get_last_error(h), "/dev/zero: is a character device, not a GPU description file"));
    CHECK_STATUS(seer_gpu_register_file(h, "/tmp", NULL), SEER_STATUS_IO_ERROR);
    CHECK_STATUS(seer_gpu_register_file(h, "/no/such/file.gpu", NULL), SEER_STATUS_IO_ERROR);
    /* a FIFO without a writer: refused at once (opening it once blocked
     * forever) */
    char fifo[] = "/tmp/seer-gpu-fifo-XXXXXX";
    REQUIRE(mkdtemp(fifo) != NULL);
    char fp[64];
    snprintf(fp, sizeof fp, "%s/gpu", fifo);
    REQUIRE(mkfifo(fp, 0600) == 0);
    CHECK_STATUS(seer_gpu_register_file(h, fp, NULL), SEER_STATUS_IO_ERROR);
    CHECK(strstr(seer_get_last_error(h), "is a FIFO, not a GPU description file") != NULL);
    unlink(fp);
    rmdir(fifo);
    char path[64];
    REQUIRE(test_write_temp(path, RTX2080));
    seer_gpu_info_t g;
    CHECK_STATUS(seer_gpu_register_file(h, path, &g), SEER_STATUS_SUCCESS);
    CHECK(!strcmp(g.id, "rtx-2080"));
    /* over 64 KiB: refused from its size, before it is read */
    FILE *f = fopen(path, "ab");
    REQUIRE(f);
    for (int i = 0; i < 70000; i++) fputc('#', f);
    fclose(f);
    CHECK_STATUS(seer_gpu_register_file(h, path, NULL), SEER_STATUS_IO_ERROR);
    CHECK(strstr(seer_get_last_error(h), "over the 65536-byte limit") != NULL);
    remove(path);
    seer_destroy(h);
}

/* The whole path for a new GPU: train from rows that name it, save, load
 * on a handle that knows it (and not on one that does not), and transfer
 * the shipped models to it. */
/* A temporary copy of a timing CSV with its "t4" rows relabelled as
 * "t4-clone"; 0 when the shared file is missing. */
static int relabel_t4(const char *src, char path[64])
{
    char *csv = test_slurp(src);
    if (!csv) return 0;
    size_t n = strlen(csv);
    char *out = malloc(2 * n + 1), *o = out;
    if (!out) { free(csv); return 0; }
    for (const char *p = csv; *p;) { /* "t4," at a line start becomes "t4-clone," */
        if ((p == csv || p[-1] == '\n') && !strncmp(p, "t4,", 3)) {
            memcpy(o, "t4-clone,", 9);
            o += 9;
            p += 3;
        } else {
            *o++ = *p++;
        }
    }
    *o = 0;
    int ok = test_write_temp(path, out);
    free(out);
    free(csv);
    return ok;
}

TEST(gpufile_train_load_transfer)
{
    char src[512], gsrc[512], data[64], gdata[64], model[80];
    snprintf(src, sizeof src, "%s/conv/t4.csv", test_data_dir());
    snprintf(gsrc, sizeof gsrc, "%s/gemm/t4.csv", test_data_dir());
    if (!relabel_t4(src, data) || !relabel_t4(gsrc, gdata)) SKIP("shared conv data not found (set SEER_DATA)");
    /* the T4 rows, relabelled as a GPU the table lacks (T4's facts) */
    seer_gpu_info_t t4;
    REQUIRE(seer_gpu_find(NULL, "t4", &t4) == SEER_STATUS_SUCCESS);
    char desc[1024];
    snprintf(desc, sizeof desc, "seer-gpu=1\nid=t4-clone\nname=T4 clone\ncc=7.5\nsms=%d\nboost_mhz=%g\n"
             "fp32_tflops=%.17g\nfp16_tflops=%.17g\nfp16_simt_tflops=%.17g\ndram_gbps=%g\ndram_gib=%g\n"
             "l2_bytes=%d\n", t4.sms, t4.boost_mhz, t4.fp32_tflops, t4.fp16_tflops, t4.fp16_simt_tflops,
             t4.dram_gbps, t4.dram_gib, t4.l2_bytes);
    snprintf(model, sizeof model, "%s.seer", data);

    seer_handle_t h, fresh;
    seer_model_t m = NULL, back = NULL;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS && seer_create(&fresh) == SEER_STATUS_SUCCESS);
    const char *paths[2] = {data, gdata};
    CHECK_STATUS(seer_train(h, "t4-clone", paths, 2, 0, &m), SEER_STATUS_UNKNOWN_GPU);
    CHECK_STATUS(seer_gpu_register_buffer(h, desc, strlen(desc), NULL), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_train(h, "t4-clone", paths, 2, SEER_TRAIN_HOLDOUT, &m), SEER_STATUS_SUCCESS);
    REQUIRE(m);
    /* its GEMM rows trained its GEMM fit, like a built-in GPU's */
    double gt = 0;
    CHECK_STATUS(seer_predict_gemm(h, m, 1, 64, 1000, 2048, SEER_DTYPE_FP32, 0, 1, 1, &gt, NULL), SEER_STATUS_SUCCESS);
    CHECK(gt > 0);
    CHECK_STATUS(seer_model_save(h, m, model), SEER_STATUS_SUCCESS);
    /* a handle that does not know the GPU says what to do */
    CHECK_STATUS(seer_model_load(fresh, model, &back), SEER_STATUS_UNKNOWN_GPU);
    CHECK(strstr(seer_get_last_error(fresh), "register its GPU description file"));
    CHECK_STATUS(seer_gpu_register_buffer(fresh, desc, strlen(desc), NULL), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_model_load(fresh, model, &back), SEER_STATUS_SUCCESS);
    seer_model_info_t info;
    if (back) {
        CHECK(seer_model_get_info(back, &info) == SEER_STATUS_SUCCESS && !strcmp(info.gpu_id, "t4-clone"));
        /* the same facts as T4: the same predictions as a model trained as T4 */
        seer_model_t t4m = NULL;
        CHECK_STATUS(seer_train(h, "t4", (const char *const[]){src}, 1, SEER_TRAIN_HOLDOUT, &t4m), SEER_STATUS_SUCCESS);
        seer_conv_desc_t d;
        double a = 0, b = 0;
        REQUIRE(seer_conv_desc_create(&d) == SEER_STATUS_SUCCESS);
        CHECK(seer_conv_desc_set(h, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, 32, 256, 28, 28, 256, 3, 3, 1, 1,
                                 1, 1, 1, 1, 1) == SEER_STATUS_SUCCESS);
        CHECK_STATUS(seer_predict_conv(h, back, d, SEER_DIR_FWD, SEER_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, &a, NULL, 0, NULL), SEER_STATUS_SUCCESS);
        CHECK_STATUS(seer_predict_conv(h, t4m, d, SEER_DIR_FWD, SEER_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, &b, NULL, 0, NULL), SEER_STATUS_SUCCESS);
        CHECK(a > 0 && a == b);
        seer_conv_desc_destroy(d);
        seer_model_destroy(t4m);
    }
    seer_model_destroy(back);
    /* no model file for it in models/: transferred from the shipped ones */
    seer_model_t tr = NULL;
    if (access("models/t4.seer", R_OK) == 0) {
        CHECK_STATUS(seer_model_open(h, "models", "t4-clone", &tr), SEER_STATUS_SUCCESS);
        if (tr) {
            CHECK(seer_model_get_info(tr, &info) == SEER_STATUS_SUCCESS && !strcmp(info.gpu_id, "t4-clone"));
            seer_model_destroy(tr);
        }
    }
    seer_model_destroy(m);
    seer_destroy(h);
    seer_destroy(fresh);
    remove(data);
    remove(gdata);
    remove(model);
}

/* A registered id that a loose name lookup would take for a built-in GPU
 * ("tesla-a100" as the alias a100 after "Tesla") registers as itself and
 * is found as itself; one the strict lookup knows is refused. */
TEST(gpufile_brand_prefixed_id_is_its_own)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    char text[1024];
    const char *p = strstr(RTX2080, "id=rtx-2080\n");
    REQUIRE(p != NULL);
    snprintf(text, sizeof text, "%.*sid=tesla-a100\n%s", (int)(p - RTX2080), RTX2080, p + strlen("id=rtx-2080\n"));
    CHECK_STATUS(seer_gpu_register_buffer(h, text, strlen(text), NULL), SEER_STATUS_SUCCESS);
    seer_gpu_info_t g;
    CHECK_STATUS(seer_gpu_find(h, "tesla-a100", &g), SEER_STATUS_SUCCESS);
    CHECK(!strcmp(g.id, "tesla-a100") && g.sms == 46);
    CHECK_STATUS(seer_gpu_find(h, "Tesla V100", &g), SEER_STATUS_SUCCESS); /* loose names still find the table */
    CHECK(!strcmp(g.id, "v100-sxm2-16gb"));
    snprintf(text, sizeof text, "%.*sid=a100\n%s", (int)(p - RTX2080), RTX2080, p + strlen("id=rtx-2080\n"));
    CHECK_STATUS(seer_gpu_register_buffer(h, text, strlen(text), NULL), SEER_STATUS_GPU_FILE);
    seer_destroy(h);
}

/* Enum names and their parsers. */
#include "test.h"

TEST(names_enum_round_trip)
{
    static const char *const dt[] = { "fp32", "tf32", "fp16", "bf16", "fp16_pseudo" };
    for (int i = 0; i < 5; i++) {
        seer_dtype_t d = (seer_dtype_t)-1;
        CHECK(!strcmp(seer_dtype_name((seer_dtype_t)i), dt[i]));
        CHECK_STATUS(seer_dtype_from_name(dt[i], &d), SEER_STATUS_SUCCESS);
        CHECK((int)d == i);
    }
    static const char *const lay[] = { "nchw", "nhwc" };
    for (int i = 0; i < 2; i++) {
        seer_layout_t l = (seer_layout_t)-1;
        CHECK(!strcmp(seer_layout_name((seer_layout_t)i), lay[i]));
        CHECK_STATUS(seer_layout_from_name(lay[i], &l), SEER_STATUS_SUCCESS);
        CHECK((int)l == i);
    }
    static const char *const dirs[] = { "fwd", "bwd_data", "bwd_filter" };
    for (int i = 0; i < 3; i++) {
        seer_direction_t d = (seer_direction_t)-1;
        CHECK(!strcmp(seer_direction_name((seer_direction_t)i), dirs[i]));
        CHECK_STATUS(seer_direction_from_name(dirs[i], &d), SEER_STATUS_SUCCESS);
        CHECK((int)d == i);
    }
    CHECK(!strcmp(seer_class_name(SEER_CLASS_COMPUTE), "compute"));
    CHECK(!strcmp(seer_class_name(SEER_CLASS_DRAM), "dram"));
    CHECK(!strcmp(seer_class_name(SEER_CLASS_UNDER), "under"));
    CHECK(!strcmp(seer_role_name(SEER_ROLE_MAIN), "main"));
    CHECK(!strcmp(seer_role_name(SEER_ROLE_INPUT_TRANSFORM), "input_transform"));
    CHECK(!strcmp(seer_role_name(SEER_ROLE_FILTER_TRANSFORM), "filter_transform"));
    CHECK(!strcmp(seer_role_name(SEER_ROLE_OUTPUT_TRANSFORM), "output_transform"));
    CHECK(!strcmp(seer_role_name(SEER_ROLE_HELPER), "helper"));
}

TEST(names_out_of_range)
{
    CHECK(!strcmp(seer_dtype_name((seer_dtype_t)5), "?"));
    CHECK(!strcmp(seer_dtype_name((seer_dtype_t)-1), "?"));
    CHECK(!strcmp(seer_layout_name((seer_layout_t)2), "?"));
    CHECK(!strcmp(seer_direction_name((seer_direction_t)3), "?"));
    CHECK(!strcmp(seer_class_name((seer_class_t)3), "?"));
    CHECK(!strcmp(seer_role_name((seer_kernel_role_t)5), "?"));
    CHECK(!strcmp(seer_algo_name(SEER_DIR_FWD, 8), "?"));
    CHECK(!strcmp(seer_algo_name(SEER_DIR_FWD, SEER_ALGO_CUDNN_CHOICE), "CUDNN_CHOICE"));
    CHECK(!strcmp(seer_algo_name(SEER_DIR_FWD, -2), "?"));
    CHECK(!strcmp(seer_algo_name(SEER_DIR_BWD_DATA, 6), "?"));
    CHECK(!strcmp(seer_algo_name(SEER_DIR_BWD_FILTER, 7), "?"));
    CHECK(!strcmp(seer_algo_name((seer_direction_t)3, 0), "?"));
}

TEST(names_parse_case_and_errors)
{
    seer_dtype_t d = SEER_DTYPE_FP32;
    CHECK_STATUS(seer_dtype_from_name("FP16_Pseudo", &d), SEER_STATUS_SUCCESS);
    CHECK(d == SEER_DTYPE_FP16_PSEUDO);
    CHECK_STATUS(seer_dtype_from_name("BF16", &d), SEER_STATUS_SUCCESS);
    CHECK(d == SEER_DTYPE_BF16);
    /* the spellings frameworks write: PyTorch's dtypes and memory
     * formats, cuDNN's fprop / dgrad / wgrad */
    static const struct { const char *name; int want, kind; } syn[] = {
        {"float32", SEER_DTYPE_FP32, 0}, {"Float16", SEER_DTYPE_FP16, 0}, {"half", SEER_DTYPE_FP16, 0},
        {"bfloat16", SEER_DTYPE_BF16, 0}, {"channels_last", SEER_LAYOUT_NHWC, 1}, {"CHANNELS_FIRST", SEER_LAYOUT_NCHW, 1},
        {"forward", SEER_DIR_FWD, 2}, {"dgrad", SEER_DIR_BWD_DATA, 2}, {"wgrad", SEER_DIR_BWD_FILTER, 2},
        {"backward_filter", SEER_DIR_BWD_FILTER, 2},
    };
    for (size_t i = 0; i < sizeof syn / sizeof syn[0]; i++) {
        seer_dtype_t sd;
        seer_layout_t sl;
        seer_direction_t sdir;
        int got = -1;
        if (syn[i].kind == 0 && !seer_dtype_from_name(syn[i].name, &sd)) got = (int)sd;
        if (syn[i].kind == 1 && !seer_layout_from_name(syn[i].name, &sl)) got = (int)sl;
        if (syn[i].kind == 2 && !seer_direction_from_name(syn[i].name, &sdir)) got = (int)sdir;
        CHECK(got == syn[i].want);
    }
    d = SEER_DTYPE_TF32;
    CHECK_STATUS(seer_dtype_from_name("fp64", &d), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_dtype_from_name("", &d), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_dtype_from_name("fp16 ", &d), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_dtype_from_name("fp1", &d), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_dtype_from_name(NULL, &d), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_dtype_from_name("fp32", NULL), SEER_STATUS_BAD_PARAM);
    CHECK(d == SEER_DTYPE_TF32); /* untouched on failure */

    seer_layout_t l = SEER_LAYOUT_NCHW;
    CHECK_STATUS(seer_layout_from_name("NHWC", &l), SEER_STATUS_SUCCESS);
    CHECK(l == SEER_LAYOUT_NHWC);
    CHECK_STATUS(seer_layout_from_name("chwn", &l), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_layout_from_name(NULL, &l), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_layout_from_name("nchw", NULL), SEER_STATUS_BAD_PARAM);

    seer_direction_t dir = SEER_DIR_FWD;
    CHECK_STATUS(seer_direction_from_name("BWD_FILTER", &dir), SEER_STATUS_SUCCESS);
    CHECK(dir == SEER_DIR_BWD_FILTER);
    CHECK_STATUS(seer_direction_from_name("bwd", &dir), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_direction_from_name(NULL, &dir), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_direction_from_name("fwd", NULL), SEER_STATUS_BAD_PARAM);
    CHECK(dir == SEER_DIR_BWD_FILTER);
}

TEST(names_algo_round_trip)
{
    static const int counts[3] = { SEER_FWD_ALGO_COUNT, SEER_BWD_DATA_ALGO_COUNT,
                                   SEER_BWD_FILTER_ALGO_COUNT };
    static const char *const prefixes[3] = { "CUDNN_CONVOLUTION_FWD_ALGO_",
                                             "cudnn_convolution_bwd_data_algo_",
                                             "CUDNN_CONVOLUTION_BWD_FILTER_ALGO_" };
    for (int d = 0; d < 3; d++) {
        for (int a = 0; a < counts[d]; a++) {
            const char *name = seer_algo_name((seer_direction_t)d, a);
            REQUIRE(strcmp(name, "?") != 0);
            int got = -1;
            CHECK_STATUS(seer_algo_from_name((seer_direction_t)d, name, &got), SEER_STATUS_SUCCESS);
            CHECK(got == a);
            char buf[96];
            snprintf(buf, sizeof buf, "%s%s", prefixes[d], name);
            got = -1;
            CHECK_STATUS(seer_algo_from_name((seer_direction_t)d, buf, &got), SEER_STATUS_SUCCESS);
            CHECK(got == a);
            for (char *p = buf; *p; p++) if (*p >= 'A' && *p <= 'Z') *p += 32;
            got = -1;
            CHECK_STATUS(seer_algo_from_name((seer_direction_t)d, buf, &got), SEER_STATUS_SUCCESS);
            CHECK(got == a);
        }
    }
}

TEST(names_algo_values)
{
    CHECK(!strcmp(seer_algo_name(SEER_DIR_FWD, SEER_FWD_ALGO_WINOGRAD_NONFUSED), "WINOGRAD_NONFUSED"));
    CHECK(!strcmp(seer_algo_name(SEER_DIR_FWD, 0), "IMPLICIT_GEMM"));
    CHECK(!strcmp(seer_algo_name(SEER_DIR_FWD, 1), "IMPLICIT_PRECOMP_GEMM"));
    CHECK(!strcmp(seer_algo_name(SEER_DIR_FWD, 2), "GEMM"));
    CHECK(!strcmp(seer_algo_name(SEER_DIR_FWD, 3), "DIRECT"));
    CHECK(!strcmp(seer_algo_name(SEER_DIR_BWD_DATA, 1), "ALGO_1"));
    CHECK(!strcmp(seer_algo_name(SEER_DIR_BWD_DATA, 3), "FFT_TILING"));
    CHECK(!strcmp(seer_algo_name(SEER_DIR_BWD_FILTER, 3), "ALGO_3"));
    CHECK(!strcmp(seer_algo_name(SEER_DIR_BWD_FILTER, 6), "FFT_TILING"));

    int a = -1;
    CHECK_STATUS(seer_algo_from_name(SEER_DIR_BWD_DATA, "IMPLICIT_GEMM", &a), SEER_STATUS_SUCCESS);
    CHECK(a == SEER_BWD_DATA_ALGO_0);
    CHECK_STATUS(seer_algo_from_name(SEER_DIR_BWD_FILTER, "implicit_precomp_gemm", &a),
                 SEER_STATUS_SUCCESS);
    CHECK(a == SEER_BWD_FILTER_ALGO_1);
    CHECK_STATUS(seer_algo_from_name(SEER_DIR_BWD_FILTER, "FFT_TILING", &a), SEER_STATUS_SUCCESS);
    CHECK(a == SEER_BWD_FILTER_ALGO_FFT_TILING);
    CHECK_STATUS(seer_algo_from_name(SEER_DIR_BWD_DATA, "winograd_nonfused", &a), SEER_STATUS_SUCCESS);
    CHECK(a == SEER_BWD_DATA_ALGO_WINOGRAD_NONFUSED);
    CHECK_STATUS(seer_algo_from_name(SEER_DIR_FWD, "CUDNN_CONVOLUTION_FWD_ALGO_FFT", &a),
                 SEER_STATUS_SUCCESS);
    CHECK(a == SEER_FWD_ALGO_FFT);

    /* cuDNN's enum value as a number, within the direction's range */
    CHECK_STATUS(seer_algo_from_name(SEER_DIR_FWD, "1", &a), SEER_STATUS_SUCCESS);
    CHECK(a == SEER_FWD_ALGO_IMPLICIT_PRECOMP_GEMM);
    CHECK_STATUS(seer_algo_from_name(SEER_DIR_FWD, "7", &a), SEER_STATUS_SUCCESS);
    CHECK(a == SEER_FWD_ALGO_WINOGRAD_NONFUSED);
    CHECK_STATUS(seer_algo_from_name(SEER_DIR_BWD_FILTER, "06", &a), SEER_STATUS_SUCCESS);
    CHECK(a == SEER_BWD_FILTER_ALGO_FFT_TILING);
    a = -7;
    CHECK_STATUS(seer_algo_from_name(SEER_DIR_FWD, "8", &a), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_algo_from_name(SEER_DIR_BWD_DATA, "6", &a), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_algo_from_name(SEER_DIR_FWD, "100", &a), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_algo_from_name(SEER_DIR_FWD, "-1", &a), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_algo_from_name(SEER_DIR_FWD, "1x", &a), SEER_STATUS_BAD_PARAM);
    CHECK(a == -7);

    /* what seer_algo_name prints for cuDNN's choice reads back, any case */
    for (int d = 0; d < 3; d++) {
        a = 0;
        CHECK_STATUS(seer_algo_from_name((seer_direction_t)d, seer_algo_name((seer_direction_t)d, SEER_ALGO_CUDNN_CHOICE), &a),
                     SEER_STATUS_SUCCESS);
        CHECK(a == SEER_ALGO_CUDNN_CHOICE);
    }
    CHECK_STATUS(seer_algo_from_name(SEER_DIR_BWD_DATA, "cudnn_choice", &a), SEER_STATUS_SUCCESS);
    CHECK(a == SEER_ALGO_CUDNN_CHOICE);
    a = 42;
    CHECK_STATUS(seer_algo_from_name(SEER_DIR_FWD, "CUDNN_CONVOLUTION_FWD_ALGO_CUDNN_CHOICE", &a), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_algo_from_name(SEER_DIR_FWD, "ALGO_0", &a), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_algo_from_name(SEER_DIR_BWD_DATA, "GEMM", &a), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_algo_from_name(SEER_DIR_BWD_FILTER, "DIRECT", &a), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_algo_from_name(SEER_DIR_BWD_DATA, "ALGO_3", &a), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_algo_from_name(SEER_DIR_FWD, "MIXED", &a), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_algo_from_name(SEER_DIR_FWD, "", &a), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_algo_from_name(SEER_DIR_FWD, "CUDNN_CONVOLUTION_FWD_ALGO_", &a),
                 SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_algo_from_name(SEER_DIR_FWD, "CUDNN_CONVOLUTION_FWD_ALGO", &a),
                 SEER_STATUS_BAD_PARAM);
    /* A prefix of another direction is a mistake, not a synonym. */
    CHECK_STATUS(seer_algo_from_name(SEER_DIR_FWD, "CUDNN_CONVOLUTION_BWD_DATA_ALGO_FFT", &a),
                 SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_algo_from_name(SEER_DIR_BWD_FILTER, "CUDNN_CONVOLUTION_BWD_DATA_ALGO_0", &a),
                 SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_algo_from_name(SEER_DIR_FWD, NULL, &a), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_algo_from_name(SEER_DIR_FWD, "GEMM", NULL), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_algo_from_name((seer_direction_t)3, "GEMM", &a), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_algo_from_name((seer_direction_t)-1, "GEMM", &a), SEER_STATUS_BAD_PARAM);
    CHECK(a == 42);
}

TEST(names_algo_full_cudnn_names)
{
    int a = -1;
    CHECK_STATUS(seer_algo_from_name(SEER_DIR_BWD_DATA, "CUDNN_CONVOLUTION_BWD_DATA_ALGO_0", &a), SEER_STATUS_SUCCESS);
    CHECK(a == SEER_BWD_DATA_ALGO_0);
    CHECK_STATUS(seer_algo_from_name(SEER_DIR_BWD_FILTER, "CUDNN_CONVOLUTION_BWD_FILTER_ALGO_3", &a), SEER_STATUS_SUCCESS);
    CHECK(a == SEER_BWD_FILTER_ALGO_3);
    CHECK_STATUS(seer_algo_from_name(SEER_DIR_BWD_FILTER, "cudnn_convolution_bwd_filter_algo_fft_tiling", &a), SEER_STATUS_SUCCESS);
    CHECK(a == SEER_BWD_FILTER_ALGO_FFT_TILING);
    CHECK_STATUS(seer_algo_from_name(SEER_DIR_BWD_DATA, "CUDNN_CONVOLUTION_BWD_FILTER_ALGO_0", &a), SEER_STATUS_BAD_PARAM);
}

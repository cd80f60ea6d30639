/* Convolution descriptor: validation, output size, work, test split,
 * roofline. */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include "test.h"
#include "conv.h"
#include "gpu.h"

/* The shape fields in seer_conv_desc_set's order, to vary one at a time. */
enum { F_N, F_C, F_H, F_W, F_K, F_R, F_S, F_PH, F_PW, F_SH, F_SW, F_DH, F_DW, F_G, NF };
static const char *const fname[NF] = { "n", "c", "h", "w", "k", "r", "s", "pad_h", "pad_w",
                                       "stride_h", "stride_w", "dil_h", "dil_w", "groups" };

static seer_status_t set_v(seer_handle_t h, seer_conv_desc_t d, seer_dtype_t dt, const int *v)
{
    return seer_conv_desc_set(h, d, dt, SEER_LAYOUT_NCHW, v[F_N], v[F_C], v[F_H], v[F_W], v[F_K],
                              v[F_R], v[F_S], v[F_PH], v[F_PW], v[F_SH], v[F_SW], v[F_DH],
                              v[F_DW], v[F_G]);
}

static const int base[NF] = { 2, 4, 8, 8, 6, 3, 3, 1, 1, 1, 1, 1, 1, 1 };

/* The same fields as a seer_conv_shape_t, through the designated fields
 * (not the order) so that the struct and the argument list are checked
 * against each other. */
static seer_conv_shape_t shape_of(const int *v)
{
    seer_conv_shape_t s = SEER_CONV_SHAPE_INIT;
    s.n = v[F_N], s.c = v[F_C], s.h = v[F_H], s.w = v[F_W], s.k = v[F_K], s.r = v[F_R];
    s.s = v[F_S], s.pad_h = v[F_PH], s.pad_w = v[F_PW], s.stride_h = v[F_SH];
    s.stride_w = v[F_SW], s.dil_h = v[F_DH], s.dil_w = v[F_DW], s.groups = v[F_G];
    return s;
}

static int out_hw(int h, int w, int r, int s, int pad, int stride, int dil, int *p, int *q)
{
    seer_conv_desc_t d;
    if (seer_conv_desc_create(&d) != SEER_STATUS_SUCCESS) return 0;
    int ok = seer_conv_desc_set(NULL, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, 1, 1, h, w, 1, r, s,
                                pad, pad, stride, stride, dil, dil, 1) == SEER_STATUS_SUCCESS &&
             seer_conv_desc_get_output(d, p, q) == SEER_STATUS_SUCCESS;
    seer_conv_desc_destroy(d);
    return ok;
}

TEST(conv_output_size)
{
    int p = 0, q = 0;
    CHECK(out_hw(224, 224, 7, 7, 3, 2, 1, &p, &q) && p == 112 && q == 112);
    CHECK(out_hw(56, 56, 3, 3, 1, 1, 1, &p, &q) && p == 56 && q == 56);
    CHECK(out_hw(56, 56, 1, 1, 0, 2, 1, &p, &q) && p == 28 && q == 28);
    CHECK(out_hw(10, 10, 3, 3, 0, 1, 2, &p, &q) && p == 6 && q == 6);   /* span 5 */
    CHECK(out_hw(10, 10, 3, 3, 1, 3, 1, &p, &q) && p == 4 && q == 4);   /* (12-3)/3+1 */
    CHECK(out_hw(5, 7, 5, 7, 0, 1, 1, &p, &q) && p == 1 && q == 1);     /* filter = input */
    CHECK(out_hw(1, 1, 3, 3, 1, 1, 1, &p, &q) && p == 1 && q == 1);     /* padding only */
    CHECK(out_hw(13, 9, 3, 3, 0, 2, 1, &p, &q) && p == 6 && q == 4);

    seer_conv_desc_t d;
    REQUIRE(seer_conv_desc_create(&d) == SEER_STATUS_SUCCESS);
    p = q = -7;
    CHECK_STATUS(seer_conv_desc_get_output(d, &p, &q), SEER_STATUS_BAD_PARAM); /* never set */
    CHECK(p == -7 && q == -7);
    CHECK_STATUS(seer_conv_desc_get_output(NULL, &p, &q), SEER_STATUS_BAD_PARAM);
    REQUIRE(set_v(NULL, d, SEER_DTYPE_FP32, base) == SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_conv_desc_get_output(d, NULL, &q), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_conv_desc_get_output(d, &p, NULL), SEER_STATUS_BAD_PARAM);
    seer_conv_desc_destroy(d);
    CHECK_STATUS(seer_conv_desc_create(NULL), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_conv_desc_destroy(NULL), SEER_STATUS_SUCCESS);
}

TEST(conv_flops_and_bytes)
{
    struct seer_conv cv;
    /* n2 c4 8x8 k6 3x3 pad 1: P = Q = 8. */
    seer_conv_shape_t sh = {2, 4, 8, 8, 6, 3, 3, 1, 1, 1, 1, 1, 1, 1};
    REQUIRE(seer_conv_init(NULL, &cv, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, &sh) == SEER_STATUS_SUCCESS);
    CHECK(cv.p == 8 && cv.q == 8);
    CHECK(seer_conv_x_elems(&cv) == 512 && seer_conv_y_elems(&cv) == 768 &&
          seer_conv_w_elems(&cv) == 216);
    CHECK(seer_conv_flops(&cv) == 2.0 * 2 * 6 * 8 * 8 * 4 * 3 * 3);
    for (int dir = 0; dir < 3; dir++)
        CHECK(seer_conv_min_bytes(&cv, (seer_direction_t)dir) == (512 + 768 + 216) * 4.0);
    CHECK(seer_conv_min_bytes(&cv, (seer_direction_t)3) == 0);

    /* Groups divide the filter and the FLOPs. */
    sh.groups = 2;
    REQUIRE(seer_conv_init(NULL, &cv, SEER_DTYPE_FP16, SEER_LAYOUT_NHWC, &sh) == SEER_STATUS_SUCCESS);
    CHECK(seer_conv_w_elems(&cv) == 108);
    CHECK(seer_conv_flops(&cv) == 2.0 * 2 * 6 * 8 * 8 * 2 * 3 * 3);
    CHECK(seer_conv_min_bytes(&cv, SEER_DIR_FWD) == (512 + 768 + 108) * 2.0);

    CHECK(seer_dtype_size(SEER_DTYPE_FP32) == 4 && seer_dtype_size(SEER_DTYPE_TF32) == 4);
    CHECK(seer_dtype_size(SEER_DTYPE_FP16) == 2 && seer_dtype_size(SEER_DTYPE_BF16) == 2);
    CHECK(seer_dtype_size(SEER_DTYPE_FP16_PSEUDO) == 2);
    CHECK(seer_dtype_size((seer_dtype_t)9) == 0);

    /* Public: seer_conv_work. */
    seer_conv_desc_t d;
    REQUIRE(seer_conv_desc_create(&d) == SEER_STATUS_SUCCESS);
    double fl = -1, by = -1;
    CHECK_STATUS(seer_conv_work(d, SEER_DIR_FWD, &fl, &by), SEER_STATUS_BAD_PARAM);
    REQUIRE(set_v(NULL, d, SEER_DTYPE_FP16_PSEUDO, base) == SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_conv_work(d, SEER_DIR_BWD_FILTER, &fl, &by), SEER_STATUS_SUCCESS);
    CHECK(fl == 55296 && by == (512 + 768 + 216) * 2.0);
    CHECK_STATUS(seer_conv_work(d, (seer_direction_t)3, &fl, &by), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_conv_work(d, SEER_DIR_FWD, NULL, &by), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_conv_work(d, SEER_DIR_FWD, &fl, NULL), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_conv_work(NULL, SEER_DIR_FWD, &fl, &by), SEER_STATUS_BAD_PARAM);
    seer_conv_desc_destroy(d);

    /* A big layer: products beyond 2^31 stay exact in the double. */
    const seer_conv_shape_t big = {256, 512, 28, 28, 512, 3, 3, 1, 1, 1, 1, 1, 1, 1};
    REQUIRE(seer_conv_init(NULL, &cv, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, &big) == SEER_STATUS_SUCCESS);
    CHECK(seer_conv_flops(&cv) == 2.0 * 256 * 512 * 28 * 28 * 512 * 9);
}

static void check_one_error(seer_handle_t h, int field, int value, seer_status_t want,
                            const char *msg_start)
{
    seer_conv_desc_t d;
    if (seer_conv_desc_create(&d) != SEER_STATUS_SUCCESS) return;
    int v[NF];
    memcpy(v, base, sizeof v);
    v[field] = value;
    seer_status_t st = set_v(h, d, SEER_DTYPE_FP32, v);
    char msg[1024];
    seer_get_last_error_copy(h, msg, sizeof msg);
    if (st != want || strncmp(msg, msg_start, strlen(msg_start)) != 0) {
        printf("\n    %s = %d: got %s, \"%s\"; want %s, \"%s...\"\n", fname[field], value,
               seer_status_string(st), msg, seer_status_string(want), msg_start);
        test_fail(__FILE__, __LINE__, "validation status and message");
    }
    /* seer_conv_desc_set_shape: the same status and the same message. */
    const seer_conv_shape_t s = shape_of(v);
    seer_status_t st2 = seer_conv_desc_set_shape(h, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, &s);
    if (st2 != st || strcmp(seer_get_last_error(h), msg) != 0) {
        printf("\n    %s = %d: seer_conv_desc_set_shape gave %s, \"%s\"\n", fname[field], value,
               seer_status_string(st2), seer_get_last_error(h));
        test_fail(__FILE__, __LINE__, "set_shape status and message as seer_conv_desc_set");
    }
    seer_conv_desc_destroy(d);
}

TEST(conv_validation_each_field)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    char want[64];
    for (int f = F_N; f <= F_S; f++) {
        snprintf(want, sizeof want, "%s must be >= 1 (got 0)", fname[f]);
        check_one_error(h, f, 0, SEER_STATUS_BAD_SHAPE, want);
        snprintf(want, sizeof want, "%s must be >= 1 (got -3)", fname[f]);
        check_one_error(h, f, -3, SEER_STATUS_BAD_SHAPE, want);
    }
    check_one_error(h, F_PH, -1, SEER_STATUS_BAD_SHAPE, "pad_h must be >= 0 (got -1)");
    check_one_error(h, F_PW, INT_MIN, SEER_STATUS_BAD_SHAPE, "pad_w must be >= 0");
    check_one_error(h, F_SH, 0, SEER_STATUS_BAD_SHAPE, "stride_h must be >= 1 (got 0)");
    check_one_error(h, F_SW, -2, SEER_STATUS_BAD_SHAPE, "stride_w must be >= 1");
    check_one_error(h, F_DH, 0, SEER_STATUS_BAD_SHAPE, "dil_h must be >= 1 (got 0)");
    check_one_error(h, F_DW, 0, SEER_STATUS_BAD_SHAPE, "dil_w must be >= 1");
    check_one_error(h, F_G, 0, SEER_STATUS_BAD_GROUPS, "groups must be >= 1 (got 0)");
    check_one_error(h, F_G, -4, SEER_STATUS_BAD_GROUPS, "groups must be >= 1");
    check_one_error(h, F_G, 3, SEER_STATUS_BAD_GROUPS, "groups (3) must divide c (4)");
    check_one_error(h, F_G, 4, SEER_STATUS_BAD_GROUPS, "groups (4) must divide k (6)");
    /* Every size over 2^24 is OVERFLOW, named. */
    for (int f = 0; f < NF; f++) {
        snprintf(want, sizeof want, "%s is %d, over the limit", fname[f], (1 << 24) + 1);
        check_one_error(h, f, (1 << 24) + 1, SEER_STATUS_OVERFLOW, want);
        snprintf(want, sizeof want, "%s is %d, over the limit", fname[f], INT_MAX);
        check_one_error(h, f, INT_MAX, SEER_STATUS_OVERFLOW, want);
    }
    /* Empty output names the filter dimension. */
    check_one_error(h, F_R, 11, SEER_STATUS_BAD_SHAPE, "r: dilated filter height 11");
    check_one_error(h, F_S, 11, SEER_STATUS_BAD_SHAPE, "s: dilated filter width 11");
    check_one_error(h, F_DH, 6, SEER_STATUS_BAD_SHAPE, "r: dilated filter height 13");
    check_one_error(h, F_DW, 1 << 24, SEER_STATUS_BAD_SHAPE, "s: dilated filter width");
    seer_destroy(h);
}

TEST(conv_shape_init_and_set_shape)
{
    /* The default initializer: no padding, unit stride and dilation, one
     * group, sizes 0 (refused by name until set). */
    const seer_conv_shape_t init = SEER_CONV_SHAPE_INIT;
    const int want[NF] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1 };
    const seer_conv_shape_t w = shape_of(want);
    CHECK(memcmp(&init, &w, sizeof w) == 0);
    CHECK(sizeof(seer_conv_shape_t) == NF * sizeof(int));

    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_conv_desc_t a, b;
    REQUIRE(seer_conv_desc_create(&a) == SEER_STATUS_SUCCESS);
    REQUIRE(seer_conv_desc_create(&b) == SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_conv_desc_set_shape(h, a, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, &init),
                 SEER_STATUS_BAD_SHAPE);
    CHECK(strcmp(seer_get_last_error(h), "n must be >= 1 (got 0)") == 0);
    CHECK_STATUS(seer_conv_desc_set_shape(h, a, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, NULL),
                 SEER_STATUS_BAD_PARAM);
    CHECK(strcmp(seer_get_last_error(h), "shape is NULL") == 0);
    CHECK_STATUS(seer_conv_desc_set_shape(h, NULL, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, &init),
                 SEER_STATUS_BAD_PARAM);
    CHECK(strcmp(seer_get_last_error(h), "desc is NULL") == 0);
    CHECK_STATUS(seer_conv_desc_set_shape(h, a, (seer_dtype_t)9, SEER_LAYOUT_NCHW, &init),
                 SEER_STATUS_BAD_PARAM);
    CHECK(strstr(seer_get_last_error(h), "dtype") != NULL);

    /* A ResNet 3x3 stride-2 layer from the initializer: the descriptor is
     * the one the argument list makes, field for field. */
    seer_conv_shape_t s = SEER_CONV_SHAPE_INIT;
    s.n = 32, s.c = 128, s.h = s.w = 56, s.k = 128, s.r = s.s = 3;
    s.pad_h = s.pad_w = 1, s.stride_h = s.stride_w = 2;
    REQUIRE(seer_conv_desc_set_shape(h, a, SEER_DTYPE_FP16, SEER_LAYOUT_NHWC, &s) == SEER_STATUS_SUCCESS);
    REQUIRE(seer_conv_desc_set(h, b, SEER_DTYPE_FP16, SEER_LAYOUT_NHWC, 32, 128, 56, 56, 128, 3, 3, 1, 1,
                               2, 2, 1, 1, 1) == SEER_STATUS_SUCCESS);
    CHECK(memcmp(a, b, sizeof *a) == 0);
    CHECK(memcmp(&a->shape, &s, sizeof s) == 0);
    int p = 0, q = 0;
    CHECK(seer_conv_desc_get_output(a, &p, &q) == SEER_STATUS_SUCCESS && p == 28 && q == 28);
    CHECK(seer_conv_in_test_split(a) == seer_conv_in_test_split(b));

    /* Every field is checked on the way in (conv_validation_each_field
     * compares messages per field); a failure leaves the descriptor. */
    s.groups = 3;
    CHECK_STATUS(seer_conv_desc_set_shape(h, a, SEER_DTYPE_FP16, SEER_LAYOUT_NHWC, &s),
                 SEER_STATUS_BAD_GROUPS);
    CHECK(strcmp(seer_get_last_error(h), "groups (3) must divide c (128)") == 0);
    CHECK(memcmp(a, b, sizeof *a) == 0);
    seer_conv_desc_destroy(a);
    seer_conv_desc_destroy(b);
    seer_destroy(h);
}

TEST(conv_validation_params)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_conv_desc_t d;
    REQUIRE(seer_conv_desc_create(&d) == SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_conv_desc_set(h, d, (seer_dtype_t)5, SEER_LAYOUT_NCHW, 1, 1, 1, 1, 1, 1, 1,
                                    0, 0, 1, 1, 1, 1, 1), SEER_STATUS_BAD_PARAM);
    CHECK(strstr(seer_get_last_error(h), "dtype") != NULL);
    CHECK_STATUS(seer_conv_desc_set(h, d, (seer_dtype_t)-1, SEER_LAYOUT_NCHW, 1, 1, 1, 1, 1, 1, 1,
                                    0, 0, 1, 1, 1, 1, 1), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_conv_desc_set(h, d, SEER_DTYPE_FP32, (seer_layout_t)2, 1, 1, 1, 1, 1, 1, 1,
                                    0, 0, 1, 1, 1, 1, 1), SEER_STATUS_BAD_PARAM);
    CHECK(strstr(seer_get_last_error(h), "layout") != NULL);
    CHECK_STATUS(seer_conv_desc_set(h, NULL, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, 1, 1, 1, 1, 1, 1,
                                    1, 0, 0, 1, 1, 1, 1, 1), SEER_STATUS_BAD_PARAM);
    CHECK(strstr(seer_get_last_error(h), "desc") != NULL);
    const seer_conv_shape_t one = {1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1};
    CHECK_STATUS(seer_conv_init(h, NULL, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, &one), SEER_STATUS_BAD_PARAM);
    /* A NULL handle gives the same status, no message anywhere. */
    CHECK_STATUS(seer_conv_desc_set(NULL, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, 0, 1, 1, 1, 1, 1,
                                    1, 0, 0, 1, 1, 1, 1, 1), SEER_STATUS_BAD_SHAPE);
    seer_conv_desc_destroy(d);
    seer_destroy(h);
}

TEST(conv_overflow)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_conv_desc_t d;
    REQUIRE(seer_conv_desc_create(&d) == SEER_STATUS_SUCCESS);
    const int M = INT_MAX;
    CHECK_STATUS(seer_conv_desc_set(h, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, M, M, M, M, M, M, M,
                                    M, M, M, M, M, M, M), SEER_STATUS_OVERFLOW);
    CHECK(!strncmp(seer_get_last_error(h), "n is 2147483647", 15));
    /* Sizes within 2^24 whose products are not. */
    const int B = 1 << 24;
    CHECK_STATUS(seer_conv_desc_set(h, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, B, B, B, B, B, B, B,
                                    B, B, B, B, B, B, B), SEER_STATUS_OVERFLOW);
    CHECK(strstr(seer_get_last_error(h), "input x") != NULL);
    /* x = 2^16 * 2^16 = 2^32 elements. */
    CHECK_STATUS(seer_conv_desc_set(h, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, 1 << 16, 1 << 16, 1,
                                    1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1), SEER_STATUS_OVERFLOW);
    CHECK(strstr(seer_get_last_error(h), "input x") != NULL);
    /* x = 2^31 exactly: one past the limit. */
    CHECK_STATUS(seer_conv_desc_set(h, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, 2, 1 << 15, 1 << 15,
                                    1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1), SEER_STATUS_OVERFLOW);
    /* x = 2^31 - 2^15 fits. */
    CHECK_STATUS(seer_conv_desc_set(h, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, 1, (1 << 16) - 1,
                                    1 << 15, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1), SEER_STATUS_SUCCESS);
    /* y = 2^30 * 4 while x = 2^30 fits. */
    CHECK_STATUS(seer_conv_desc_set(h, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, 1, 1, 1 << 15,
                                    1 << 15, 4, 1, 1, 0, 0, 1, 1, 1, 1, 1), SEER_STATUS_OVERFLOW);
    CHECK(strstr(seer_get_last_error(h), "output y") != NULL);
    /* y through padding: p = q = 2^24 + ... with a 1x1 input. */
    CHECK_STATUS(seer_conv_desc_set(h, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, 1, 1, 1, 1, 1, 1, 1,
                                    B, B, 1, 1, 1, 1, 1), SEER_STATUS_OVERFLOW);
    CHECK(strstr(seer_get_last_error(h), "output y") != NULL);
    /* w = 2^16 * 2^16. */
    CHECK_STATUS(seer_conv_desc_set(h, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, 1, 1 << 16, 1, 1,
                                    1 << 16, 1, 1, 0, 0, 1, 1, 1, 1, 1), SEER_STATUS_OVERFLOW);
    CHECK(strstr(seer_get_last_error(h), "filter w") != NULL);
    /* ... but fine with groups dividing the filter. */
    CHECK_STATUS(seer_conv_desc_set(h, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, 1, 1 << 16, 1, 1,
                                    1 << 16, 1, 1, 0, 0, 1, 1, 1, 1, 1 << 16), SEER_STATUS_SUCCESS);
    /* Huge dilation and stride: no internal overflow, a clean answer. */
    CHECK_STATUS(seer_conv_desc_set(h, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, 1, 1, B, 1, 1, B, 1,
                                    0, 0, B, B, B, B, 1), SEER_STATUS_BAD_SHAPE);
    CHECK(!strncmp(seer_get_last_error(h), "r: ", 3));
    CHECK_STATUS(seer_conv_desc_set(h, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, 1, 1, B, 1, 1, B, 1,
                                    B, 0, B, B, 1, 1, 1), SEER_STATUS_SUCCESS);
    int p, q;
    CHECK_STATUS(seer_conv_desc_get_output(d, &p, &q), SEER_STATUS_SUCCESS);
    CHECK(p == 3 && q == 1); /* (3*2^24 - 2^24) / 2^24 + 1 */
    seer_conv_desc_destroy(d);
    seer_destroy(h);
}

TEST(conv_failure_leaves_desc_unchanged)
{
    seer_conv_desc_t d;
    REQUIRE(seer_conv_desc_create(&d) == SEER_STATUS_SUCCESS);
    REQUIRE(seer_conv_desc_set(NULL, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, 1, 3, 224, 224, 64, 7,
                               7, 3, 3, 2, 2, 1, 1, 1) == SEER_STATUS_SUCCESS);
    struct seer_conv before = *d;
    CHECK_STATUS(seer_conv_desc_set(NULL, d, SEER_DTYPE_FP16, SEER_LAYOUT_NHWC, 8, 3, 2, 2, 64, 7,
                                    7, 0, 0, 1, 1, 1, 1, 1), SEER_STATUS_BAD_SHAPE);
    CHECK_STATUS(seer_conv_desc_set(NULL, d, SEER_DTYPE_FP16, SEER_LAYOUT_NHWC, 8, 3, 224, 224, 64,
                                    7, 7, 3, 3, 2, 2, 1, 1, 2), SEER_STATUS_BAD_GROUPS);
    CHECK(memcmp(&before, d, sizeof before) == 0);
    int p, q;
    CHECK_STATUS(seer_conv_desc_get_output(d, &p, &q), SEER_STATUS_SUCCESS);
    CHECK(p == 112 && q == 112);
    seer_conv_desc_destroy(d);
}

/* Independent statement of the split: FNV-1a 64 over 16 little-endian
 * int32s, in the test split when hash % 100 < 20. */
static int split_ref(const int *v, int dtype, int layout)
{
    uint64_t hsh = 1469598103934665603ULL;
    int32_t all[16];
    for (int i = 0; i < NF; i++) all[i] = v[i];
    all[14] = dtype;
    all[15] = layout;
    for (int i = 0; i < 16; i++)
        for (int b = 0; b < 4; b++) {
            hsh ^= ((uint32_t)all[i] >> (8 * b)) & 0xffu;
            hsh *= 1099511628211ULL;
        }
    return hsh % 100 < 20;
}

static uint64_t rng_state = 88172645463325252ULL;
static uint32_t rnd(uint32_t n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state % n);
}

TEST(conv_test_split)
{
    seer_conv_desc_t d;
    REQUIRE(seer_conv_desc_create(&d) == SEER_STATUS_SUCCESS);
    CHECK(seer_conv_in_test_split(NULL) == 0);
    CHECK(seer_conv_in_test_split(d) == 0); /* never set */
    int in = 0, total = 0;
    for (int i = 0; i < 10000; i++) {
        int v[NF] = { 1 + (int)rnd(64), 1 + (int)rnd(512), 5 + (int)rnd(250), 5 + (int)rnd(250),
                      1 + (int)rnd(512), 1 + 2 * (int)rnd(3), 1 + 2 * (int)rnd(3), (int)rnd(3),
                      (int)rnd(3), 1 + (int)rnd(2), 1 + (int)rnd(2), 1, 1, 1 };
        v[F_S] = v[F_R];
        int dt = (int)rnd(5), lay = (int)rnd(2);
        if (set_v(NULL, d, (seer_dtype_t)dt, v) != SEER_STATUS_SUCCESS) continue;
        d->layout = (seer_layout_t)lay;
        int s1 = seer_conv_in_test_split(d);
        CHECK(s1 == seer_conv_in_test_split(d));
        if (s1 != split_ref(v, dt, lay)) {
            CHECK(!"test split matches the documented hash");
            break;
        }
        in += s1;
        total++;
    }
    CHECK(total > 9000);
    CHECK(in > total * 0.18 && in < total * 0.22);

    /* Pinned: these must never change (it would move rows between the
     * training and the held-out set). */
    static const struct { int v[NF]; int dt, lay, want; } pinned[] = {
        { { 1, 3, 224, 224, 64, 7, 7, 3, 3, 2, 2, 1, 1, 1 }, 0, 0, 0 },
        { { 32, 64, 56, 56, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1 }, 0, 0, 0 },
        { { 32, 64, 56, 56, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1 }, 2, 1, 0 },
        { { 16, 256, 14, 14, 256, 3, 3, 1, 1, 1, 1, 1, 1, 1 }, 0, 0, 0 },
        { { 8, 512, 7, 7, 2048, 1, 1, 0, 0, 1, 1, 1, 1, 1 }, 4, 0, 0 },
        { { 4, 32, 112, 112, 32, 3, 3, 1, 1, 1, 1, 1, 1, 32 }, 1, 1, 1 },
        { { 64, 128, 28, 28, 128, 3, 3, 2, 2, 1, 1, 2, 2, 1 }, 3, 0, 0 },
        { { 2, 16, 5, 5, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1 }, 0, 0, 0 },
        { { 2, 64, 56, 56, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1 }, 0, 0, 1 },
        { { 16, 64, 56, 56, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1 }, 2, 0, 1 },
        { { 64, 256, 56, 56, 64, 1, 1, 0, 0, 1, 1, 1, 1, 1 }, 0, 0, 1 },
    };
    for (size_t i = 0; i < sizeof pinned / sizeof pinned[0]; i++) {
        REQUIRE(set_v(NULL, d, (seer_dtype_t)pinned[i].dt, pinned[i].v) == SEER_STATUS_SUCCESS);
        d->layout = (seer_layout_t)pinned[i].lay;
        CHECK(seer_conv_in_test_split(d) == pinned[i].want);
        CHECK(split_ref(pinned[i].v, pinned[i].dt, pinned[i].lay) == pinned[i].want);
    }
    seer_conv_desc_destroy(d);
}

TEST(conv_roofline)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_conv_desc_t d;
    REQUIRE(seer_conv_desc_create(&d) == SEER_STATUS_SUCCESS);
    seer_gpu_info_t a, t, p;
    REQUIRE(seer_gpu_find(h, "a100-pcie-80gb", &a) == SEER_STATUS_SUCCESS);
    REQUIRE(seer_gpu_find(h, "t4", &t) == SEER_STATUS_SUCCESS);
    REQUIRE(seer_gpu_find(h, "p100-pcie-16gb", &p) == SEER_STATUS_SUCCESS);
    double ms = -1;
    CHECK_STATUS(seer_roofline_conv(h, &a, d, SEER_DIR_FWD, &ms), SEER_STATUS_BAD_PARAM);
    CHECK(strstr(seer_get_last_error(h), "desc") != NULL);

    /* Compute-bound: 256x512x28x28, 3x3, k 512. */
    REQUIRE(seer_conv_desc_set(h, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, 256, 512, 28, 28, 512, 3,
                               3, 1, 1, 1, 1, 1, 1, 1) == SEER_STATUS_SUCCESS);
    double fl = 2.0 * 256 * 512 * 28 * 28 * 512 * 9;
    CHECK_STATUS(seer_roofline_conv(h, &a, d, SEER_DIR_FWD, &ms), SEER_STATUS_SUCCESS);
    CHECK_NEAR(ms, fl / (a.fp32_tflops * 1e12) * 1e3, 1e-12);
    CHECK_STATUS(seer_roofline_conv(h, &a, d, SEER_DIR_BWD_DATA, &ms), SEER_STATUS_SUCCESS);
    CHECK_NEAR(ms, fl / (a.fp32_tflops * 1e12) * 1e3, 1e-12);

    /* Memory-bound: 1x1, few channels, fp16 on tensor cores. */
    REQUIRE(seer_conv_desc_set(h, d, SEER_DTYPE_FP16, SEER_LAYOUT_NHWC, 64, 8, 128, 128, 8, 1, 1,
                               0, 0, 1, 1, 1, 1, 1) == SEER_STATUS_SUCCESS);
    double bytes = (64.0 * 8 * 128 * 128 * 2 + 8 * 8) * 2;
    CHECK_STATUS(seer_roofline_conv(h, &a, d, SEER_DIR_BWD_FILTER, &ms), SEER_STATUS_SUCCESS);
    CHECK_NEAR(ms, bytes / 1935e9 * 1e3, 1e-12);

    /* No tensor cores for the dtype. */
    REQUIRE(seer_conv_desc_set(h, d, SEER_DTYPE_BF16, SEER_LAYOUT_NHWC, 1, 8, 8, 8, 8, 3, 3, 1, 1,
                               1, 1, 1, 1, 1) == SEER_STATUS_SUCCESS);
    ms = -1;
    CHECK_STATUS(seer_roofline_conv(h, &t, d, SEER_DIR_FWD, &ms), SEER_STATUS_UNSUPPORTED);
    CHECK(strstr(seer_get_last_error(h), "t4") && strstr(seer_get_last_error(h), "bf16"));
    CHECK(ms == -1);
    CHECK_STATUS(seer_roofline_conv(h, &a, d, SEER_DIR_FWD, &ms), SEER_STATUS_SUCCESS);
    REQUIRE(seer_conv_desc_set(h, d, SEER_DTYPE_FP16, SEER_LAYOUT_NHWC, 1, 8, 8, 8, 8, 3, 3, 1, 1,
                               1, 1, 1, 1, 1) == SEER_STATUS_SUCCESS);
    /* What cuDNN runs without the tensor cores asked for: FP16 on a P100 is
     * FP16 data with FP32 math, TF32 on a T4 is FP32 (seer_gpu_run_dtype). */
    double half = 0, pseudo = 0, tf32 = 0, fp32 = 0;
    CHECK_STATUS(seer_roofline_conv(h, &p, d, SEER_DIR_FWD, &half), SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_roofline_conv(h, &t, d, SEER_DIR_FWD, &ms), SEER_STATUS_SUCCESS);
    REQUIRE(seer_conv_desc_set(h, d, SEER_DTYPE_FP16_PSEUDO, SEER_LAYOUT_NHWC, 1, 8, 8, 8, 8, 3,
                               3, 1, 1, 1, 1, 1, 1, 1) == SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_roofline_conv(h, &p, d, SEER_DIR_FWD, &pseudo), SEER_STATUS_SUCCESS);
    CHECK(half == pseudo && half > 0);
    REQUIRE(seer_conv_desc_set(h, d, SEER_DTYPE_TF32, SEER_LAYOUT_NHWC, 1, 8, 8, 8, 8, 3, 3, 1, 1,
                               1, 1, 1, 1, 1) == SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_roofline_conv(h, &t, d, SEER_DIR_FWD, &tf32), SEER_STATUS_SUCCESS);
    REQUIRE(seer_conv_desc_set(h, d, SEER_DTYPE_FP32, SEER_LAYOUT_NHWC, 1, 8, 8, 8, 8, 3, 3, 1, 1,
                               1, 1, 1, 1, 1) == SEER_STATUS_SUCCESS);
    CHECK_STATUS(seer_roofline_conv(h, &t, d, SEER_DIR_FWD, &fp32), SEER_STATUS_SUCCESS);
    CHECK(tf32 == fp32 && tf32 > 0);

    CHECK_STATUS(seer_roofline_conv(h, NULL, d, SEER_DIR_FWD, &ms), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_roofline_conv(h, &a, NULL, SEER_DIR_FWD, &ms), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_roofline_conv(h, &a, d, (seer_direction_t)7, &ms), SEER_STATUS_BAD_PARAM);
    CHECK(strstr(seer_get_last_error(h), "direction") != NULL);
    CHECK_STATUS(seer_roofline_conv(h, &a, d, SEER_DIR_FWD, NULL), SEER_STATUS_BAD_PARAM);
    CHECK_STATUS(seer_roofline_conv(NULL, &a, d, SEER_DIR_FWD, &ms), SEER_STATUS_SUCCESS);
    seer_gpu_info_t z = a;
    z.dram_gbps = 0;
    CHECK_STATUS(seer_roofline_conv(h, &z, d, SEER_DIR_FWD, &ms), SEER_STATUS_BAD_PARAM);
    seer_conv_desc_destroy(d);
    seer_destroy(h);
}

/* A tiny self-registering test runner (hiredis-style).  Each test file
 * defines TEST(name) { ... } blocks; CHECK() records a failure and goes
 * on, REQUIRE() records it and leaves the test. */
#ifndef SEER_TEST_H
#define SEER_TEST_H
#include <stdio.h>
#include <string.h>
#include <math.h>
#include "seer.h"

typedef void (*test_fn)(void);
void test_register(const char *name, const char *file, test_fn fn);
void test_fail(const char *file, int line, const char *expr);
void test_skip(const char *why);
/* Directory of the shared data (SEER_DATA, default ../shared/data). */
const char *test_data_dir(void);
/* Path of the built seer CLI (SEER_BIN, default build/seer). */
const char *test_seer_bin(void);

/* Run the seer CLI (test_seer_bin()) with NULL-terminated arguments,
 * capturing its exit status (-1 if it did not exit) and output. */
typedef struct {
    int rc;
    char *out, *err;            /* NUL-terminated, malloc'ed */
} test_run_t;
void test_run_seer(test_run_t *r, ...);
void test_run_free(test_run_t *r);
/* A whole file, malloc'ed and NUL-terminated, or NULL. */
char *test_slurp(const char *path);
/* A temp file holding text; path receives its name.  1 on success. */
int test_write_temp(char path[64], const char *text);
/* A new handle, the shipped models' answer for gpu (seer_model_open on
 * "models", as seer --gpu serves it) and a conv descriptor of shape
 * s = {n, c, h, w, k, r, s, pad_h, pad_w, stride_h, stride_w, dil_h,
 * dil_w, groups} in dt and lay: 1, or 0 with nothing left to free. */
int test_served_conv(const char *gpu, seer_dtype_t dt, seer_layout_t lay, const int s[14], seer_handle_t *h,
                     seer_model_t *m, seer_conv_desc_t *d);
/* Frees what test_served_conv made. */
void test_served_free(seer_handle_t h, seer_model_t m, seer_conv_desc_t d);

#define TEST(name)                                                        \
    static void test_##name(void);                                        \
    __attribute__((constructor)) static void test_reg_##name(void)        \
    { test_register(#name, __FILE__, test_##name); }                      \
    static void test_##name(void)

#define CHECK(expr) do { if (!(expr)) test_fail(__FILE__, __LINE__, #expr); } while (0)
#define REQUIRE(expr) do { if (!(expr)) { test_fail(__FILE__, __LINE__, #expr); return; } } while (0)
#define CHECK_STATUS(call, want) do { seer_status_t st_ = (call);           \
    if (st_ != (want)) { char b_[256]; snprintf(b_, sizeof b_, "%s == %s (got %s)", \
        #call, #want, seer_status_string(st_)); test_fail(__FILE__, __LINE__, b_); } } while (0)
#define CHECK_NEAR(a, b, rel) CHECK(fabs((double)(a) - (double)(b)) <= (rel) * fabs((double)(b)) + 1e-300)
#define SKIP(why) do { test_skip(why); return; } while (0)
#endif

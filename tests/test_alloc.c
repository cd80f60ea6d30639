/* Allocation failure, injected: every allocation libseer makes during
 * training may fail, and training must then return ALLOC_FAILED with a
 * message, or succeed with exactly the model it fits when nothing fails
 * (never go on with a different one).  The runner is linked with
 * -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc, which reroutes the
 * calls of libseer.a (not of libsvm or libc) through the wrappers below. */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include "model.h"
#include "test.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);

/* The allocation numbered fail_at fails; -1 disarms.  Tests run one at a
 * time and training is single-threaded, so plain counters do. */
static long fail_at = -1, n_allocs;

static int should_fail(void)
{
    return fail_at >= 0 && n_allocs++ == fail_at;
}

void *__wrap_malloc(size_t n) { return should_fail() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t size) { return should_fail() ? NULL : __real_calloc(n, size); }
void *__wrap_realloc(void *p, size_t n) { return should_fail() ? NULL : __real_realloc(p, n); }

/* 120 forward rows of two kernel variants and a spread of classes, enough
 * for the variant and class classifiers and the learned correction. */
static int write_rows(char path[64])
{
    strcpy(path, "/tmp/seer-alloc-XXXXXX");
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) return 0;
    fprintf(f, "gpu,direction,dtype,layout,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,stride_w,dil_h,dil_w,"
               "groups,algo,time_ms,main_kernel,source\n");
    for (int i = 0; i < 120; i++) {
        int n = 1 + i % 16, c = 16 << (i % 5), hw = 7 + (i * 5) % 50, k = 32 << (i % 4);
        double flops = 2.0 * n * k * hw * hw * c * 9;
        double noise = 1 + 0.15 * ((i * 7919) % 13 - 6) / 6.0;
        fprintf(f, "t4,fwd,fp32,nchw,%d,%d,%d,%d,%d,3,3,1,1,1,1,1,1,1,IMPLICIT_PRECOMP_GEMM,%.6f,%s,test\n",
                n, c, hw, hw, k, (0.005 + flops / 4e9) * noise,
                k >= 128 ? "volta_sgemm_128x64_nn" : "volta_sgemm_64x64_nn");
    }
    return fclose(f) == 0;
}

static int model_bytes(const struct seer_model *m, unsigned char **buf, size_t *size)
{
    long saved = fail_at;
    fail_at = -1;
    int ok = seer_model_serialize(m, buf, size);
    fail_at = saved;
    return ok;
}

TEST(alloc_failure_in_training_is_reported)
{
    char path[64];
    REQUIRE(write_rows(path));
    const char *p = path;
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);

    /* The reference model and how many allocations it takes. */
    seer_model_t ref = NULL;
    fail_at = LONG_MAX;
    n_allocs = 0;
    seer_status_t st = seer_train(h, "t4", &p, 1, 0, &ref);
    long total = n_allocs;
    fail_at = -1;
    REQUIRE(st == SEER_STATUS_SUCCESS && ref);
    /* two variants (no variant classifier: prediction takes the fastest) */
    CHECK(ref->fam[0].nvar == 2 && !ref->fam[0].vclf);
    unsigned char *want = NULL;
    size_t want_n = 0;
    REQUIRE(model_bytes(ref, &want, &want_n));
    REQUIRE(total > 10);

    /* Fail each of the first 64 allocations, then about 200 spread over
     * the rest (every one would take minutes under ASan). */
    int reported = 0, bad = 0;
    long step = total > 264 ? (total - 64) / 200 + 1 : 1;
    for (long k = 0; k < total; k += k < 64 ? 1 : step) {
        seer_model_t m = NULL;
        fail_at = k;
        n_allocs = 0;
        st = seer_train(h, "t4", &p, 1, 0, &m);
        fail_at = -1;
        if (st == SEER_STATUS_ALLOC_FAILED) {
            reported++;
            if (m || !*seer_get_last_error(h)) bad++;
        } else if (st == SEER_STATUS_SUCCESS) {
            unsigned char *got = NULL;
            size_t got_n = 0;
            if (!m || !model_bytes(m, &got, &got_n) || got_n != want_n || memcmp(got, want, want_n)) {
                printf("\n    allocation %ld of %ld failed, training succeeded with another model", k,
                       total);
                bad++;
            }
            free(got);
        } else {
            printf("\n    allocation %ld of %ld failed: %s", k, total, seer_status_string(st));
            bad++;
        }
        seer_model_destroy(m);
    }
    CHECK(bad == 0);
    CHECK(reported > 0);
    free(want);
    seer_model_destroy(ref);
    seer_destroy(h);
    unlink(path);
}

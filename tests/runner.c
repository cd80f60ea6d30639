/* Test runner: runs every registered test (or those whose name contains
 * argv[1]) and ends with the line "N passed, N failed, N skipped". */
#include <stdlib.h>
#include "test.h"

#define MAX_TESTS 1024
static struct { const char *name, *file; test_fn fn; } tests[MAX_TESTS];
static int n_tests, n_dropped, cur_failed, cur_skipped;

void test_register(const char *name, const char *file, test_fn fn)
{
    if (n_tests == MAX_TESTS) {
        n_dropped++; /* main() fails the run: a test that cannot run must not vanish */
        return;
    }
    tests[n_tests].name = name;
    tests[n_tests].file = file;
    tests[n_tests].fn = fn;
    n_tests++;
}

void test_fail(const char *file, int line, const char *expr)
{
    printf("    FAIL %s:%d: %s\n", file, line, expr);
    cur_failed++;
}

void test_skip(const char *why)
{
    printf("    skip: %s\n", why);
    cur_skipped = 1;
}

const char *test_data_dir(void)
{
    const char *d = getenv("SEER_DATA");
    return d && *d ? d : "../shared/data";
}

const char *test_seer_bin(void)
{
    const char *d = getenv("SEER_BIN");
    return d && *d ? d : "build/seer";
}

static int by_file_then_order(const void *a, const void *b)
{
    const char *fa = *(const char *const *)a, *fb = *(const char *const *)b;
    return strcmp(fa, fb);
}

int main(int argc, char **argv)
{
    int passed = 0, failed = 0, skipped = 0;
    if (n_dropped) {
        printf("runner: %d tests beyond MAX_TESTS (%d) were not run: raise MAX_TESTS\n", n_dropped,
               MAX_TESTS);
        printf("0 passed, %d failed, 0 skipped\n", n_dropped);
        return 1;
    }
    /* Constructors run in link order; sort by file (insertion sort keeps
     * registration order within a file) so the output order is fixed. */
    int order[MAX_TESTS];
    for (int i = 0; i < n_tests; i++) order[i] = i;
    for (int i = 1; i < n_tests; i++) /* insertion sort: stable */
        for (int j = i; j > 0 && by_file_then_order(&tests[order[j - 1]].file, &tests[order[j]].file) > 0; j--) {
            int t = order[j]; order[j] = order[j - 1]; order[j - 1] = t;
        }
    for (int oi = 0; oi < n_tests; oi++) {
        int i = order[oi];
        if (argc > 1 && !strstr(tests[i].name, argv[1])) continue;
        cur_failed = 0;
        cur_skipped = 0;
        printf("%-40s ", tests[i].name);
        fflush(stdout);
        tests[i].fn();
        if (cur_failed) { printf("  FAILED (%s)\n", tests[i].file); failed++; }
        else if (cur_skipped) { printf("  skipped\n"); skipped++; }
        else { printf("ok\n"); passed++; }
        fflush(stdout);
    }
    printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    return failed ? 1 : 0;
}

#include <dirent.h>
#include <stdint.h>

void test_replay_corpus(const char *name, int (*fn)(const uint8_t *, size_t))
{
    char dir[512];
    snprintf(dir, sizeof dir, "fuzz/corpus/%s", name);
    DIR *d = opendir(dir);
    if (!d) { test_fail(__FILE__, __LINE__, "corpus directory missing"); return; }
    int files = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f) continue;
        uint8_t *buf = NULL;
        size_t len = 0, cap = 0, got;
        uint8_t chunk[4096];
        while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
            if (len + got > cap) {
                cap = (len + got) * 2;
                uint8_t *nb = realloc(buf, cap);
                if (!nb) break;
                buf = nb;
            }
            memcpy(buf + len, chunk, got);
            len += got;
        }
        fclose(f);
        fn(buf ? buf : (const uint8_t *)"", len);
        free(buf);
        files++;
    }
    closedir(d);
    if (!files) test_fail(__FILE__, __LINE__, "corpus directory empty");
}

int test_served_conv(const char *gpu, seer_dtype_t dt, seer_layout_t lay, const int s[14], seer_handle_t *h,
                     seer_model_t *m, seer_conv_desc_t *d)
{
    *h = NULL;
    *m = NULL;
    *d = NULL;
    if (seer_create(h) || seer_model_open(*h, "models", gpu, m) || seer_conv_desc_create(d) ||
        seer_conv_desc_set(*h, *d, dt, lay, s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10], s[11],
                           s[12], s[13])) {
        test_served_free(*h, *m, *d);
        return 0;
    }
    return 1;
}

void test_served_free(seer_handle_t h, seer_model_t m, seer_conv_desc_t d)
{
    seer_conv_desc_destroy(d);
    seer_model_destroy(m);
    seer_destroy(h);
}

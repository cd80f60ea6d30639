/* make bench: model load time and median time per conv prediction. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include "seer.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return v[n / 2];
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: seer-speed MODEL...\n"); return 2; }
    seer_handle_t h;
    if (seer_create(&h)) return 1;
    for (int a = 1; a < argc; a++) {
        double loads[21];
        seer_model_t m = NULL;
        for (int i = 0; i < 21; i++) {
            double t0 = now();
            if (seer_model_load(h, argv[a], &m)) { fprintf(stderr, "seer-speed: %s\n", seer_get_last_error(h)); return 1; }
            loads[i] = now() - t0;
            if (i < 20) seer_model_destroy(m);
        }
        struct stat st;
        stat(argv[a], &st);
        seer_model_info_t info;
        seer_model_get_info(m, &info);
        /* A spread of shapes, every forward algorithm. */
        enum { SHAPES = 200, REPS = 5 };
        seer_conv_desc_t d[SHAPES];
        for (int i = 0; i < SHAPES; i++) {
            seer_conv_desc_create(&d[i]);
            seer_conv_desc_set(h, d[i], SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, 1 + i % 64, 3 + i * 37 % 1000,
                               5 + i * 13 % 120, 5 + i * 13 % 120, 8 + i * 53 % 1000, 3, 3, 1, 1, 1, 1, 1, 1, 1);
        }
        /* Time only the (shape, algo) pairs the model is calibrated for:
         * the others return at once and would flatter the figure. */
        static int ok[SHAPES][SEER_FWD_ALGO_COUNT];
        int n_ok = 0;
        for (int i = 0; i < SHAPES; i++)
            for (int al = 0; al < SEER_FWD_ALGO_COUNT; al++) {
                double t;
                ok[i][al] = !seer_predict_conv(h, m, d[i], SEER_DIR_FWD, al, &t, NULL, 0, NULL);
                n_ok += ok[i][al];
            }
        double per[REPS];
        volatile double sink = 0;
        for (int r = 0; r < REPS && n_ok; r++) {
            double t0 = now();
            for (int i = 0; i < SHAPES; i++)
                for (int al = 0; al < SEER_FWD_ALGO_COUNT; al++) {
                    double t;
                    if (ok[i][al] && !seer_predict_conv(h, m, d[i], SEER_DIR_FWD, al, &t, NULL, 0, NULL)) sink += t;
                }
            per[r] = (now() - t0) / n_ok;
        }
        (void)sink;
        printf("%s: %ld bytes, %d families, %d SVMs\n", argv[a], (long)st.st_size, info.n_families, info.n_svm);
        printf("  model load: median %.2f ms (21 loads)\n", median(loads, 21) * 1e3);
        if (n_ok)
            printf("  conv prediction: median %.2f us per call (%d calibrated (shape, algo) pairs x %d reps)\n",
                   median(per, REPS) * 1e6, n_ok, REPS);
        for (int i = 0; i < SHAPES; i++) seer_conv_desc_destroy(d[i]);
        seer_model_destroy(m);
    }
    seer_destroy(h);
    return 0;
}

/* make bench: model load time and median time per conv prediction, on
 * model files alone (seer-speed MODEL...) and as seer_model_open serves a
 * GPU, tied to its physics peers (seer-speed --open DIR GPU...): what
 * `seer --gpu`, `seer predict --data` and the Python package answer;
 * there, the fastest algorithm of grouped and depthwise convs too. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* A spread of FP32 3x3 shapes. */
enum { SHAPES = 200, REPS = 5 };
static void make_shapes(seer_handle_t h, seer_conv_desc_t d[SHAPES])
{
    for (int i = 0; i < SHAPES; i++) {
        seer_conv_desc_create(&d[i]);
        seer_conv_desc_set(h, d[i], SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, 1 + i % 64, 3 + i * 37 % 1000,
                           5 + i * 13 % 120, 5 + i * 13 % 120, 8 + i * 53 % 1000, 3, 3, 1, 1, 1, 1, 1, 1, 1);
    }
}

/* Median microseconds per successful seer_predict_conv of the (shape,
 * direction, algo) triples that answer: the others return at once and
 * would flatter the figure.  ALL: every forward algorithm. */
#define ALL (-2)
static double time_calls(seer_handle_t h, const seer_model *m, seer_conv_desc_t d[SHAPES], int dirs, int algo,
                         int *n_ok)
{
    static unsigned char ok[SHAPES][3][SEER_FWD_ALGO_COUNT];
    int lo = algo == ALL ? 0 : algo, hi = algo == ALL ? SEER_FWD_ALGO_COUNT : algo + 1;
    *n_ok = 0;
    for (int i = 0; i < SHAPES; i++)
        for (int dir = 0; dir < dirs; dir++)
            for (int al = lo; al < hi; al++) {
                double t;
                int k = algo == ALL ? al : 0;
                ok[i][dir][k] = !seer_predict_conv(h, m, d[i], (seer_direction_t)dir, al, &t, NULL, 0, NULL);
                *n_ok += ok[i][dir][k];
            }
    double per[REPS];
    volatile double sink = 0;
    for (int r = 0; r < REPS && *n_ok; r++) {
        double t0 = now();
        for (int i = 0; i < SHAPES; i++)
            for (int dir = 0; dir < dirs; dir++)
                for (int al = lo; al < hi; al++) {
                    double t;
                    if (ok[i][dir][algo == ALL ? al : 0] &&
                        !seer_predict_conv(h, m, d[i], (seer_direction_t)dir, al, &t, NULL, 0, NULL))
                        sink += t;
                }
        per[r] = (now() - t0) / *n_ok;
    }
    (void)sink;
    return *n_ok ? median(per, REPS) * 1e6 : 0;
}

/* The fastest algorithm of grouped and depthwise convs (3x3, stride 1,
 * padding 1, batch 64), whose pick walks the divisors of the group count
 * (docs/performance.md), and a dense one to compare: median microseconds
 * per seer_pick_conv_fastest, each direction, FP32 NCHW and FP16 NHWC. */
static void grouped_picks(seer_handle_t h, const seer_model *m)
{
    static const struct { int c, hw, g; } sh[] = {{32, 112, 32}, {144, 56, 144}, {192, 28, 192}, {576, 14, 576},
                                                  {960, 7, 960}, {256, 56, 32}, {128, 28, 1}};
    static const struct { seer_dtype_t dt; seer_layout_t l; const char *name; } ty[] = {
        {SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, "fp32 nchw"}, {SEER_DTYPE_FP16, SEER_LAYOUT_NHWC, "fp16 nhwc"}};
    seer_conv_desc_t d;
    if (seer_conv_desc_create(&d)) return;
    printf("  fastest algorithm, median us per seer_pick_conv_fastest (fwd / bwd_data / bwd_filter):\n");
    for (size_t t = 0; t < sizeof ty / sizeof ty[0]; t++)
        for (size_t i = 0; i < sizeof sh / sizeof sh[0]; i++) {
            if (seer_conv_desc_set(h, d, ty[t].dt, ty[t].l, 64, sh[i].c, sh[i].hw, sh[i].hw, sh[i].c, 3, 3, 1, 1, 1,
                                   1, 1, 1, sh[i].g))
                continue;
            printf("    %s %4d x %3d x %-3d groups %-3d", ty[t].name, sh[i].c, sh[i].hw, sh[i].hw, sh[i].g);
            for (int dir = 0; dir < 3; dir++) {
                int algo, calls = 1;
                double ms, per[REPS];
                if (seer_pick_conv_fastest(h, m, d, (seer_direction_t)dir, &algo, &ms)) {
                    printf("%s    -", dir ? " /" : "");
                    continue;
                }
                /* enough calls for a few milliseconds a rep */
                double t0 = now();
                seer_pick_conv_fastest(h, m, d, (seer_direction_t)dir, &algo, &ms);
                double one = now() - t0;
                if (one > 0 && one < 2e-3) calls = (int)(2e-3 / one) + 1;
                for (int r = 0; r < REPS; r++) {
                    t0 = now();
                    for (int k = 0; k < calls; k++) seer_pick_conv_fastest(h, m, d, (seer_direction_t)dir, &algo, &ms);
                    per[r] = (now() - t0) / calls;
                }
                printf("%s %6.1f", dir ? " /" : "", median(per, REPS) * 1e6);
            }
            printf("\n");
        }
    seer_conv_desc_destroy(d);
}

static int served(seer_handle_t h, const char *dir, char **gpus, int n)
{
    seer_conv_desc_t d[SHAPES];
    make_shapes(h, d);
    for (int a = 0; a < n; a++) {
        seer_model_t m;
        double t0 = now();
        if (seer_model_open(h, dir, gpus[a], &m)) {
            fprintf(stderr, "seer-speed: %s\n", seer_get_last_error(h));
            for (int i = 0; i < SHAPES; i++) seer_conv_desc_destroy(d[i]);
            return 1;
        }
        double open_ms = (now() - t0) * 1e3;
        seer_model_info_t info;
        seer_model_get_info(m, &info);
        int n_all, n_choice;
        double all = time_calls(h, m, d, 1, ALL, &n_all), choice = time_calls(h, m, d, 3, SEER_ALGO_CUDNN_CHOICE, &n_choice);
        printf("%s as served (%s): open %.1f ms\n", gpus[a], info.transferred ? "transferred" : "calibrated", open_ms);
        printf("  conv prediction: median %.2f us per call (%d (shape, forward algo) pairs x %d reps)\n", all, n_all, REPS);
        printf("  cuDNN's choice: median %.2f us per call (%d (shape, direction) pairs x %d reps)\n", choice, n_choice,
               REPS);
        grouped_picks(h, m);
        seer_model_destroy(m);
    }
    for (int i = 0; i < SHAPES; i++) seer_conv_desc_destroy(d[i]);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2 || (!strcmp(argv[1], "--open") && argc < 4)) {
        fprintf(stderr, "usage: seer-speed MODEL...\n       seer-speed --open MODELS_DIR GPU...\n");
        return 2;
    }
    seer_handle_t h;
    if (seer_create(&h)) return 1;
    if (!strcmp(argv[1], "--open")) {
        int rc = served(h, argv[2], argv + 3, argc - 3);
        seer_destroy(h);
        return rc;
    }
    seer_conv_desc_t d[SHAPES];
    make_shapes(h, d);
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
        int n_ok;
        double us = time_calls(h, m, d, 1, ALL, &n_ok);
        printf("%s: %ld bytes, %d families, %d SVMs\n", argv[a], (long)st.st_size, info.n_families, info.n_svm);
        printf("  model load: median %.2f ms (21 loads)\n", median(loads, 21) * 1e3);
        if (n_ok)
            printf("  conv prediction: median %.2f us per call (%d calibrated (shape, algo) pairs x %d reps)\n", us,
                   n_ok, REPS);
        seer_model_destroy(m);
    }
    for (int i = 0; i < SHAPES; i++) seer_conv_desc_destroy(d[i]);
    seer_destroy(h);
    return 0;
}

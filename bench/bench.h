/* bench/bench.h - seer-bench internals shared by its modules.
 *
 * Layering: plan.c, csv.c and gpuid.c are plain C with no CUDA (they run
 * for --help and --dry-run, before CUDA is touched); trace.c (CUPTI
 * Activity), metrics.c (CUPTI Range Profiler), conv.c (cuDNN) and
 * profile.c (microbenchmarks) need the GPU; main.c ties them together. */
#ifndef SEER_BENCH_H
#define SEER_BENCH_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "seer.h"   /* enum values of dtype, layout, direction only */

#define SEER_BENCH_NDIR 3
#define SEER_BENCH_NDTYPE 5
enum { SEER_BENCH_PART_CNN = 0, SEER_BENCH_PART_RANDOM = 1 };

/* One plan entry: one convolution shape in one direction. */
typedef struct {
    int dir;                    /* seer_direction_t */
    int dtype;                  /* seer_dtype_t */
    int layout;                 /* seer_layout_t */
    int n, c, h, w, k, r, s;
    int pad_h, pad_w, stride_h, stride_w, dil_h, dil_w, groups;
    int part;                   /* SEER_BENCH_PART_* */
    char layer[80];             /* "resnet50/layer3.0.conv2"; "" when none */
} seer_bench_conv_t;

typedef struct {
    seer_bench_conv_t *v;
    size_t n, cap;
} seer_bench_plan_t;

/* ---- plan.c ---- */
extern const char *const seer_bench_dir_names[SEER_BENCH_NDIR];
extern const char *const seer_bench_dtype_names[SEER_BENCH_NDTYPE];
extern const char *const seer_bench_layout_names[2];
extern const char *const seer_bench_part_names[2];

/* The default sweep: layers of common CNNs (cnn_copies configurations of
 * each network) and n_random random shapes, every shape in all three
 * directions, shapes in a seed-determined order.  No generated call does
 * more than max_flops or has a tensor over 1 GiB.  0 or -1 (no memory). */
int seer_bench_plan_generate(uint64_t seed, int n_random, int cnn_copies, double max_flops,
                             seer_bench_plan_t *plan);
/* Read a plan file (docs/seer-bench.md).  0, or -1 with a message naming
 * file, line and column in err. */
int seer_bench_plan_load(const char *path, seer_bench_plan_t *plan, char *err, size_t errlen);
/* The shape columns of a plan file (and of layers.csv): their indices in a
 * split header (-1 where absent).  NULL, or the name of a missing required
 * column. */
#define SEER_BENCH_CONV_NCOLS 19
const char *seer_bench_conv_columns(char **hdr, int nhdr, int col[SEER_BENCH_CONV_NCOLS]);
/* One row's shape; *dir = -1 when the direction is empty (all three).
 * 0, or -1 with the column and value in why. */
int seer_bench_conv_row(const int col[SEER_BENCH_CONV_NCOLS], char **f, int nf, seer_bench_conv_t *cv,
                        int *dir, char *why, size_t len);
/* The plan as CSV (the plan file format), gpu column = gpu ("" allowed). */
void seer_bench_plan_print(FILE *f, const seer_bench_plan_t *plan, const char *gpu);
void seer_bench_plan_free(seer_bench_plan_t *plan);
/* Stable reorder: CNN entries first, then the others, each in plan order.
 * 0, or -1 (no memory; the plan is unchanged). */
int seer_bench_plan_cnn_first(seer_bench_plan_t *plan);
/* 0 if the shape is valid (positive sizes, groups divide c and k, output
 * at least 1x1), else -1 with the reason in err. */
int seer_bench_conv_check(const seer_bench_conv_t *cv, char *err, size_t errlen);
void seer_bench_conv_output(const seer_bench_conv_t *cv, int *p, int *q);
/* Forward FLOPs (2 per multiply-add; the same for every direction). */
double seer_bench_conv_flops(const seer_bench_conv_t *cv);
/* Element counts of input, filter and output. */
void seer_bench_conv_elems(const seer_bench_conv_t *cv, size_t *x, size_t *wt, size_t *y);
/* Bytes per element of the dtype's data. */
int seer_bench_dtype_bytes(int dtype);
/* "dir,dtype,layout,n,...,groups" (no gpu, no algo): identity of an entry. */
void seer_bench_conv_key(const seer_bench_conv_t *cv, char *buf, size_t len);
/* Index of name in names[0..n-1] (case-insensitive), or -1. */
int seer_bench_name_index(const char *const *names, int n, const char *name);

/* ---- csv.c ---- */
/* Write one CSV field, quoted when it holds a comma, quote or newline. */
void seer_bench_csv_str(FILE *f, const char *s);
/* Split one CSV record in place (line without its newline).  Returns the
 * number of fields (at most max), or -1 on a quoting error. */
int seer_bench_csv_split(char *line, char **fields, int max);
/* Column index of name in a split header, or -1. */
int seer_bench_csv_col(char **hdr, int nhdr, const char *name);
/* fflush + fsync: the row is on disk before the next measurement. */
/* Make a rewritten file durable and put it in place: sync and close out
 * (closed whatever happens), then rename tmp over path.  0, or -1 with a
 * message naming the file in err. */
int seer_bench_replace_file(FILE *out, const char *tmp, const char *path, char *err, size_t errlen);
int seer_bench_sync(FILE *f);
/* The current UTC time as 2026-11-22T03:04:05Z. */
void seer_bench_utc_stamp(char *buf, size_t len);
/* Cut a file after its last newline (a crash can leave half a row).  -1
 * for anything but a regular file or an absent one. */
int seer_bench_repair_tail(const char *path);
/* Read one whole line; 1 read, 0 at EOF, -1 when the line is longer than
 * SEER_BENCH_LINE_MAX bytes or memory runs out.  *buf grows as needed. */
#define SEER_BENCH_LINE_MAX (1 << 20)
int seer_bench_getline(FILE *f, char **buf, size_t *cap);
/* Open an input file for reading only if it is a regular file of at most
 * max_bytes: /dev/zero, a FIFO or a directory is refused at once with a
 * message naming the file.  NULL with the reason in err. */
FILE *seer_bench_open_input(const char *path, long long max_bytes, char *err, size_t errlen);
/* Largest plan file and largest output file --resume reads back. */
#define SEER_BENCH_PLAN_MAX_BYTES (16ll << 20)
#define SEER_BENCH_OUTPUT_MAX_BYTES (4ll << 30)

/* A set of strings (resume keys). */
typedef struct {
    char **slot;
    size_t n, cap;
} seer_bench_set_t;
int seer_bench_set_add(seer_bench_set_t *s, const char *key);  /* 0, 1 if present, -1 */
int seer_bench_set_has(const seer_bench_set_t *s, const char *key);
void seer_bench_set_free(seer_bench_set_t *s);

/* ---- gpuid.c ---- */
/* libseer GPU-table id for a CUDA device name and memory size, e.g.
 * ("NVIDIA H100 80GB HBM3", 80) -> "h100-sxm5-80gb".  Unknown names give a
 * slug of the name ("nvidia-rtx-6000-ada" style) and return 1; else 0. */
int seer_bench_gpu_id(const char *name, double mem_gib, char *id, size_t len);

/* ---- options ---- */
typedef struct {
    uint64_t seed;
    const char *plan_path;
    const char *out_dir;
    const char *gpu_id;         /* NULL: from the device name */
    int device;
    int workspace_mb;
    double minutes;             /* 0: no budget */
    int resume, metrics, dry_run;
    int warmup, reps;
    int n_random, cnn_copies;
    int micro;                  /* 1 run microbenchmarks, 0 skip, 2 only them */
    int find;                   /* run cudnnFind*AlgorithmEx */
    double max_gflop;           /* FLOP cap of generated shapes */
    int l2_flush;               /* evict L2 before each timed repetition */
} seer_bench_opts_t;

#endif

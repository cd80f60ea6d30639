/* CSV readers: an RFC 4180 tokenizer and the row formats of
 * docs/formats.md (conv timing CSV v1, kernel trace CSV v1, GEMM timing
 * CSV v1).  Every error names the input, line and column. */
#ifndef SEER_CSV_H
#define SEER_CSV_H
#include <stddef.h>
#include "seer.h"
/* The writing side, one field (header-only: seer-bench writes the CSV
 * files libseer reads and links no libseer). */
#include "csv_field.h"

/* ---- tokenizer ---- */
typedef struct seer_csv seer_csv_t;

/* Open over memory (copied) or a file.  name is used in messages.  Reads
 * the header line: CSV_EMPTY if there is none, CSV_SYNTAX if it names a
 * column twice (empty names aside). */
seer_status_t seer_csv_open_buffer(seer_handle_t h, const char *name, const char *data,
                                   size_t size, seer_csv_t **out);
seer_status_t seer_csv_open_file(seer_handle_t h, const char *path, seer_csv_t **out);
void seer_csv_close(seer_csv_t *c);
/* Index of a header column (exact, case-sensitive), or -1. */
int seer_csv_col(const seer_csv_t *c, const char *name);
int seer_csv_ncols(const seer_csv_t *c);
/* Advance to the next record.  Returns SUCCESS with *eof = 0 and a row,
 * SUCCESS with *eof = 1 at the end, or CSV_SYNTAX (unterminated quote,
 * field count differs from the header, NUL byte, text after a closing
 * quote).  Blank lines are skipped. */
seer_status_t seer_csv_next(seer_handle_t h, seer_csv_t *c, int *eof);
/* Field i of the current record (unquoted, NUL-terminated; "" if i is -1). */
const char *seer_csv_field(const seer_csv_t *c, int i);
/* 1-based line number where the current record starts. */
long seer_csv_line(const seer_csv_t *c);
/* Line of the header record. */
long seer_csv_header_line(const seer_csv_t *c);
/* CSV_BAD_VALUE "FILE:LINE: column 'COL': 'VAL' WHAT" / "...: empty". */
seer_status_t seer_csv_bad_value(seer_handle_t h, const seer_csv_t *c, const char *col, const char *val,
                                 const char *what);
seer_status_t seer_csv_empty_value(seer_handle_t h, const seer_csv_t *c, const char *col);
const char *seer_csv_name(const seer_csv_t *c);

/* Typed field access with messages "FILE:LINE: column 'NAME': ..." on
 * failure (CSV_BAD_VALUE).  int: decimal within [lo, hi], also written
 * as an integral float ("2.0", "1e3"); dbl: finite. */
/* A long in [lo, hi] (integral floats such as 2.0 accepted), errors naming
 * file, line and column. */
seer_status_t seer_csv_long(seer_handle_t h, const seer_csv_t *c, int col, const char *colname, long lo,
                            long hi, long *out);
seer_status_t seer_csv_int(seer_handle_t h, const seer_csv_t *c, int col, const char *colname,
                           long lo, long hi, int *out);
seer_status_t seer_csv_dbl(seer_handle_t h, const seer_csv_t *c, int col, const char *colname,
                           double *out);
/* A flag: 0 or 1 as an integer column takes them (1.0 too), or
 * false/true in any case, as spreadsheets and pandas write booleans. */
seer_status_t seer_csv_flag(seer_handle_t h, const seer_csv_t *c, int col, const char *colname, int *out);

/* ---- conv timing CSV v1 ---- */
#define SEER_ALGO_NONE (-1)       /* empty algo column: cuDNN chose */
/* MIXED or UNKNOWN (the data could not tell), and a name libseer does not
 * know (an error of this row, seer_conv_row_algo_error, which training
 * skips): distinct from the public sentinels SEER_ALGO_CUDNN_CHOICE (-1),
 * SEER_ALGO_AUTO (-2) and SEER_ALGO_NA (-3). */
#define SEER_ALGO_UNKNOWN (-4)
#define SEER_ALGO_BAD_NAME (-5)

typedef struct {
    char gpu[32];
    seer_direction_t dir;
    seer_dtype_t dtype;
    seer_layout_t layout;
    seer_conv_shape_t shape;
    int algo;                   /* cuDNN enum value for dir, or SEER_ALGO_* */
    double time_ms;             /* < 0 when the column is absent (prediction input) */
    char main_kernel[160];      /* "" when not recorded */
    int grid[3], block[3];      /* 0 when not recorded */
    int n_kernels;              /* kernels listed in `kernels`, 0 if not recorded */
    int regs_per_thread;        /* main kernel's registers and shared memory: only kernel */
    int smem_bytes;             /* traces record them (0 = unknown) */
    char source[64];
    long line;                  /* line in the file, for messages */
    char algo_text[24];         /* the algo field as written (truncated), for messages */
    int fastest;                /* the time is of the fastest algorithm, `algo` only a hint
                                 * (DeepBench's forward rows): score the fastest prediction */
    seer_status_t shape_st;     /* seer_conv_csv_read_keep: why the shape is impossible, else 0 */
    int math;                   /* cuDNN math type the call ran with (seer-bench's math_type
                                 * column): SEER_CSV_MATH_*, 0 when not recorded */
} seer_conv_row_t;

/* cuDNN math types (cudnnMathType_t), as the math_type column names them. */
enum { SEER_CSV_MATH_NONE, SEER_CSV_MATH_DEFAULT, SEER_CSV_MATH_TENSOR_OP,
       SEER_CSV_MATH_TENSOR_OP_ALLOW_CONVERSION, SEER_CSV_MATH_FMA };

/* seer-bench times an algorithm once per math type cuDNN lists it with,
 * and the math type changes the kernels: FP16 data under DEFAULT math
 * runs FP32 SIMT kernels 5-60x slower than under TENSOR_OP on an H200.
 * libseer's dtypes mean what frameworks run (PyTorch: TENSOR_OP for
 * FP16/BF16, FMA for FP32 with TF32 off, DEFAULT for TF32), so a row of
 * another math type is dropped where a row of the same GPU, call and
 * algorithm has the framework's; one with no such twin is what that
 * algorithm runs under the framework's math too and stays.  Rows without
 * a math type are kept.  Compacts rows in order and updates *n. */
seer_status_t seer_conv_rows_framework_math(seer_handle_t h, seer_conv_row_t *rows, size_t *n);

/* One row per convolution (GPU, direction, dtype, layout, shape): the
 * fastest timed one of a known algorithm, its algo made empty, so that
 * it is scored as cuDNN's choice (the fastest predicted algorithm) -
 * what a framework that benchmarks (cudnn.benchmark) runs.  For seer
 * eval --fastest over a seer-bench sweep, which times every algorithm.
 * Compacts rows in order and updates *n. */
seer_status_t seer_conv_rows_fastest(seer_handle_t h, seer_conv_row_t *rows, size_t *n);

/* CSV_BAD_VALUE "FILE:LINE: column 'algo': 'NAME' is not a DIR algorithm"
 * for a row whose algo is SEER_ALGO_BAD_NAME, else SUCCESS. */
seer_status_t seer_conv_row_algo_error(seer_handle_t h, const char *file, const seer_conv_row_t *r);

/* Read all rows.  Required columns: gpu direction dtype layout n c h w k r s
 * pad_h pad_w stride_h stride_w dil_h dil_w groups algo (time_ms and the
 * launch columns are optional; unknown extra columns are ignored).  The
 * shape of each row is validated like seer_conv_desc_set (BAD_SHAPE,
 * BAD_GROUPS, OVERFLOW with the line).  *rows is malloc'ed; free() it. */
seer_status_t seer_conv_csv_read(seer_handle_t h, const char *path, seer_conv_row_t **rows,
                                 size_t *n);
/* The same, but a row with an impossible shape (BAD_SHAPE, BAD_GROUPS,
 * OVERFLOW) is kept with shape_st set, for callers that score rows one
 * by one and count such a row as failed (seer eval). */
seer_status_t seer_conv_csv_read_keep(seer_handle_t h, const char *path, seer_conv_row_t **rows,
                                      size_t *n);
seer_status_t seer_conv_csv_parse(seer_handle_t h, const char *name, const char *data,
                                  size_t size, seer_conv_row_t **rows, size_t *n);

/* ---- kernel trace CSV v1 (written by seer-bench) ---- */
typedef struct {
    seer_conv_row_t conv;       /* the call's shape, direction, algo; time_ms = kernel time */
    long call_id;               /* kernels of one call share it */
    int kernel_index;           /* 0-based launch order within the call */
    char kernel_name[160];
    int regs_per_thread;
    int smem_bytes;             /* static + dynamic */
    double dram_read_bytes, dram_write_bytes; /* < 0 when not measured */
    double sm_pct, dram_pct, occupancy_pct, tensor_pct; /* < 0 when not measured */
} seer_kernel_row_t;

seer_status_t seer_kernel_csv_read(seer_handle_t h, const char *path, seer_kernel_row_t **rows,
                                   size_t *n);
seer_status_t seer_kernel_csv_parse(seer_handle_t h, const char *name, const char *data,
                                    size_t size, seer_kernel_row_t **rows, size_t *n);

/* A kernel trace summed per call, as seer_train fits it: one conv row per
 * run of rows sharing a call_id, time_ms the kernels' sum, n_kernels
 * their count, main_kernel, grid, block, registers and shared memory the
 * longest kernel's, line the call's first kernel's.  Shapes are checked
 * as seer_conv_csv_read checks them (an impossible one fails the file).
 * *rows is malloc'ed; free() it. */
seer_status_t seer_kernel_csv_read_calls(seer_handle_t h, const char *path, seer_conv_row_t **rows,
                                         size_t *n);
/* The calls of a conv timing CSV or of a kernel trace (seer_csv_kind
 * 'k': seer_kernel_csv_read_calls), for readers that score or fit calls
 * and must not take a trace's kernels for them; keep: a conv CSV is read
 * as seer_conv_csv_read_keep reads it. */
seer_status_t seer_conv_rows_read(seer_handle_t h, const char *path, int keep, seer_conv_row_t **rows,
                                  size_t *n);

/* ---- GEMM timing CSV v1 ---- */
/* The kinds of GEMM call a row names, in this order (op_kind). */
#define SEER_GEMM_OPS 3
extern const char *const seer_gemm_op_names[SEER_GEMM_OPS]; /* "linear", "bmm", "gemm" */

typedef struct {
    char gpu[32];
    char op[16];                /* linear, bmm, gemm */
    int op_kind;                /* its index in seer_gemm_op_names */
    seer_dtype_t dtype;
    int batch, m, n, k;
    int trans_a, trans_b;       /* 1 for T */
    int bias;
    double time_ms;             /* < 0 when absent or empty (prediction input) */
    char main_kernel[160];
    int grid[3], block[3];
    char source[64];
    long line;
} seer_gemm_row_t;

seer_status_t seer_gemm_csv_read(seer_handle_t h, const char *path, seer_gemm_row_t **rows,
                                 size_t *n);
seer_status_t seer_gemm_csv_parse(seer_handle_t h, const char *name, const char *data,
                                  size_t size, seer_gemm_row_t **rows, size_t *n);

/* Which of the formats a file is, from its header line: 'k' kernel
 * trace, 'g' GEMM timing, else 'c' conv timing (also when the file
 * cannot be read: the conv reader then reports why). */
int seer_csv_kind(const char *path);
#endif

/* The three row formats of docs/formats.md (conv timing, kernel trace,
 * GEMM timing CSV v1) read with the tokenizer of csv.c: columns found by
 * name, every field checked, errors naming file, line and column. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "conv.h"
#include "csv.h"
#include "fileio.h"
#include "gpufile.h"

/* ------------------------------------------------------------------ */
/* Row readers                                                         */
/* ------------------------------------------------------------------ */

static seer_status_t need_col(seer_handle_t h, const seer_csv_t *c, const char *name, int *idx)
{
    *idx = seer_csv_col(c, name);
    if (*idx < 0)
        return seer_error(h, SEER_STATUS_CSV_MISSING_COLUMN, "%s:%ld: missing required column '%s'",
                          seer_csv_name(c), seer_csv_header_line(c), name);
    return SEER_STATUS_SUCCESS;
}

/* Optional numeric column: absent or empty gives dflt. */
static seer_status_t opt_int(seer_handle_t h, const seer_csv_t *c, int col, const char *name,
                             long lo, long hi, int dflt, int *out)
{
    if (!*seer_csv_field(c, col)) {
        *out = dflt;
        return SEER_STATUS_SUCCESS;
    }
    return seer_csv_int(h, c, col, name, lo, hi, out);
}

static seer_status_t opt_dbl(seer_handle_t h, const seer_csv_t *c, int col, const char *name,
                             double dflt, double *out)
{
    if (!*seer_csv_field(c, col)) {
        *out = dflt;
        return SEER_STATUS_SUCCESS;
    }
    seer_status_t st = seer_csv_dbl(h, c, col, name, out);
    if (st == SEER_STATUS_SUCCESS && *out < 0)
        return seer_csv_bad_value(h, c, name, seer_csv_field(c, col), "is negative");
    return st;
}

/* A time that must be there and be positive. */
static seer_status_t req_time(seer_handle_t h, const seer_csv_t *c, int col, const char *name,
                              double *out)
{
    seer_status_t st = seer_csv_dbl(h, c, col, name, out);
    if (st == SEER_STATUS_SUCCESS && !(*out > 0))
        return seer_csv_bad_value(h, c, name, seer_csv_field(c, col), "is not a positive time");
    /* 1 ns .. SEER_MAX_TIME_MS: outside it, ratios and logs of the metrics
     * overflow (1e308) or lose all precision (1e-320). */
    if (st == SEER_STATUS_SUCCESS && !(*out >= SEER_MIN_TIME_MS && *out <= SEER_MAX_TIME_MS)) {
        char what[96];
        snprintf(what, sizeof what, "is out of range [%g, %g] ms", SEER_MIN_TIME_MS, SEER_MAX_TIME_MS);
        return seer_csv_bad_value(h, c, name, seer_csv_field(c, col), what);
    }
    return st;
}

static seer_status_t get_gpu(seer_handle_t h, const seer_csv_t *c, int col, char gpu[32])
{
    const char *s = seer_csv_field(c, col);
    if (!*s) return seer_csv_empty_value(h, c, "gpu");
    /* a GPU libseer knows by another name (an alias, the driver's device
     * name: "Tesla T4") is kept by its id, so rows match models by id */
    const seer_gpu_info_t *g = seer_gpu_lookup_h(h, s);
    if (g) s = g->id;
    if (strlen(s) > 31) return seer_csv_bad_value(h, c, "gpu", s, "is longer than 31 characters");
    seer_strlcpy(gpu, s, 32);
    return SEER_STATUS_SUCCESS;
}

/* Semicolon-separated names, ignoring empty ones (a trailing ';'). */
static int count_kernels(const char *s)
{
    int n = 0;
    while (*s) {
        size_t len = strcspn(s, ";");
        size_t blank = strspn(s, " \t");
        if (blank < len && n < INT_MAX) n++;
        s += len;
        if (*s) s++;
    }
    return n;
}

static const char *const shape_names[14] = {"n", "c", "h", "w", "k", "r", "s", "pad_h", "pad_w",
                                            "stride_h", "stride_w", "dil_h", "dil_w", "groups"};
static const char *const grid_names[3] = {"grid_x", "grid_y", "grid_z"};
static const char *const block_names[3] = {"block_x", "block_y", "block_z"};

struct conv_cols {
    int gpu, dir, dtype, layout, shape[14], algo, time;
    int main_kernel, grid[3], block[3], kernels, source, math;
};

/* Look up the conv columns; the optional ones are -1 when absent, which
 * seer_csv_field reads as "". */
static seer_status_t conv_cols_find(seer_handle_t h, const seer_csv_t *c, struct conv_cols *k)
{
    seer_status_t st;
    if ((st = need_col(h, c, "gpu", &k->gpu)) || (st = need_col(h, c, "direction", &k->dir)) ||
        (st = need_col(h, c, "dtype", &k->dtype)) || (st = need_col(h, c, "layout", &k->layout)))
        return st;
    for (int i = 0; i < 14; i++)
        if ((st = need_col(h, c, shape_names[i], &k->shape[i]))) return st;
    if ((st = need_col(h, c, "algo", &k->algo))) return st;
    k->time = seer_csv_col(c, "time_ms");
    k->main_kernel = seer_csv_col(c, "main_kernel");
    for (int i = 0; i < 3; i++) {
        k->grid[i] = seer_csv_col(c, grid_names[i]);
        k->block[i] = seer_csv_col(c, block_names[i]);
    }
    k->kernels = seer_csv_col(c, "kernels");
    k->source = seer_csv_col(c, "source");
    k->math = seer_csv_col(c, "math_type");
    return SEER_STATUS_SUCCESS;
}

static const char *const math_names[] = {"", "DEFAULT", "TENSOR_OP", "TENSOR_OP_ALLOW_CONVERSION", "FMA"};

static seer_status_t launch_fill(seer_handle_t h, const seer_csv_t *c, const int gcol[3],
                                 const int bcol[3], int required, int grid[3], int block[3])
{
    seer_status_t st;
    for (int i = 0; i < 3; i++) {
        if (required) {
            if ((st = seer_csv_int(h, c, gcol[i], grid_names[i], 1, INT_MAX, &grid[i])) ||
                (st = seer_csv_int(h, c, bcol[i], block_names[i], 1, INT_MAX, &block[i])))
                return st;
        } else {
            if ((st = opt_int(h, c, gcol[i], grid_names[i], 1, INT_MAX, 0, &grid[i])) ||
                (st = opt_int(h, c, bcol[i], block_names[i], 1, INT_MAX, 0, &block[i])))
                return st;
        }
    }
    return SEER_STATUS_SUCCESS;
}

/* DeepBench's forward fp32 times are of the algorithm cudnnFind ranked
 * fastest, and its `algo` labels repeat row for row in the workbooks of
 * other GPUs of the same cuDNN version (../shared/data/README.md): the
 * label need not be what ran.  Scoring such a row takes the fastest
 * prediction, as for an empty algo; training keeps the label, the best
 * guess of which kernels ran (a cuDNN's-choice family fitted instead
 * scored worse, docs/method.md).  Its fp16 forward always ran
 * IMPLICIT_PRECOMP_GEMM: that label stands.  Sources are matched as
 * seer_source_has_dispatch matches NeuSight's, in any case. */
static int source_times_fastest(const seer_conv_row_t *r)
{
    return seer_strneq_ci(r->source, "deepbench", 9) && r->dir == SEER_DIR_FWD && r->dtype == SEER_DTYPE_FP32 &&
           r->algo >= 0;
}

static seer_status_t conv_row_fill(seer_handle_t h, const seer_csv_t *c, const struct conv_cols *k,
                                   int kernel_trace, int keep, seer_conv_row_t *row)
{
    seer_status_t st;
    const char *s;
    memset(row, 0, sizeof *row);
    row->line = seer_csv_line(c);
    if ((st = get_gpu(h, c, k->gpu, row->gpu))) return st;
    s = seer_csv_field(c, k->dir);
    if (seer_direction_from_name(s, &row->dir))
        return seer_csv_bad_value(h, c, "direction", s, "is not a direction (fwd, bwd_data, bwd_filter)");
    s = seer_csv_field(c, k->dtype);
    if (seer_dtype_from_name(s, &row->dtype))
        return seer_csv_bad_value(h, c, "dtype", s, "is not a data type (fp32, tf32, fp16, bf16, fp16_pseudo)");
    s = seer_csv_field(c, k->layout);
    if (seer_layout_from_name(s, &row->layout))
        return seer_csv_bad_value(h, c, "layout", s, "is not a layout (nchw, nhwc)");

    int v[14];
    for (int i = 0; i < 14; i++)
        if ((st = seer_csv_int(h, c, k->shape[i], shape_names[i], INT_MIN, INT_MAX, &v[i]))) return st;
    const seer_conv_shape_t shape = {v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9],
                                     v[10], v[11], v[12], v[13]}; /* shape_names' order */
    struct seer_conv cv;
    st = seer_conv_init(keep ? NULL : h, &cv, row->dtype, row->layout, &shape);
    if (st && keep) {
        row->shape_st = st; /* the caller scores the row as failed */
    } else if (st) {
        /* seer_conv_init names the field; add where it is. */
        char msg[sizeof h->msg];
        if (!h || seer_get_last_error_copy(h, msg, sizeof msg)) msg[0] = 0;
        return seer_error(h, st, "%s:%ld: %s", seer_csv_name(c), seer_csv_line(c), msg);
    }
    row->shape = shape;

    /* MIXED / UNKNOWN (the data could not tell) and a name libseer does
     * not know mark the row rather than failing the whole file: a trainer
     * skips either, an evaluator or predictor reports the second with its
     * line (seer_conv_row_algo_error). */
    s = seer_csv_field(c, k->algo);
    seer_strlcpy(row->algo_text, s, sizeof row->algo_text);
    if (!*s)
        row->algo = SEER_ALGO_NONE;
    else if (seer_streq_ci(s, "MIXED") || seer_streq_ci(s, "UNKNOWN"))
        row->algo = SEER_ALGO_UNKNOWN;
    else if (seer_algo_from_name(row->dir, s, &row->algo) != SEER_STATUS_SUCCESS)
        row->algo = SEER_ALGO_BAD_NAME;

    if (kernel_trace) {
        if ((st = req_time(h, c, k->time, "time_ms", &row->time_ms))) return st;
    } else if (!*seer_csv_field(c, k->time)) {
        row->time_ms = -1;
    } else if ((st = req_time(h, c, k->time, "time_ms", &row->time_ms))) {
        return st;
    }
    seer_strlcpy(row->main_kernel, seer_csv_field(c, k->main_kernel), sizeof row->main_kernel);
    if ((st = launch_fill(h, c, k->grid, k->block, kernel_trace, row->grid, row->block))) return st;
    row->n_kernels = count_kernels(seer_csv_field(c, k->kernels));
    seer_strlcpy(row->source, seer_csv_field(c, k->source), sizeof row->source);
    row->fastest = source_times_fastest(row);
    s = seer_csv_field(c, k->math);
    const int nmath = (int)(sizeof math_names / sizeof *math_names);
    for (row->math = 0; row->math < nmath && !seer_streq_ci(s, math_names[row->math]); row->math++) {}
    if (row->math == nmath)
        return seer_csv_bad_value(h, c, "math_type", s,
                                  "is not a cuDNN math type (DEFAULT, TENSOR_OP, TENSOR_OP_ALLOW_CONVERSION, FMA)");
    return SEER_STATUS_SUCCESS;
}

/* The math type a framework runs the dtype with (seer_conv_rows_framework_math). */
static int framework_math(const seer_conv_row_t *r, int math)
{
    switch (r->dtype) {
    case SEER_DTYPE_FP32: return math == SEER_CSV_MATH_FMA;
    case SEER_DTYPE_TF32: return math == SEER_CSV_MATH_DEFAULT;
    default: return math == SEER_CSV_MATH_TENSOR_OP || math == SEER_CSV_MATH_TENSOR_OP_ALLOW_CONVERSION;
    }
}

static int same_conv(const seer_conv_row_t *a, const seer_conv_row_t *b)
{
    return a->dir == b->dir && a->dtype == b->dtype && a->layout == b->layout &&
           !memcmp(&a->shape, &b->shape, sizeof a->shape) && !strcmp(a->gpu, b->gpu);
}

static int same_call(const seer_conv_row_t *a, const seer_conv_row_t *b)
{
    return same_conv(a, b) && a->algo == b->algo;
}

/* Sorted by call, then position: twins sit together. */
static int cmp_call(const void *pa, const void *pb)
{
    const seer_conv_row_t *a = *(const seer_conv_row_t *const *)pa, *b = *(const seer_conv_row_t *const *)pb;
    int c = memcmp(&a->shape, &b->shape, sizeof a->shape);
    if (!c) c = strcmp(a->gpu, b->gpu);
    if (!c) c = (int)a->dir - (int)b->dir;
    if (!c) c = (int)a->dtype - (int)b->dtype;
    if (!c) c = (int)a->layout - (int)b->layout;
    if (!c) c = a->algo - b->algo;
    return c ? c : (a < b ? -1 : a > b);
}

/* rows sorted by call (cmp_call), as pointers; NULL when out of memory */
static seer_conv_row_t **by_call(const seer_conv_row_t *rows, size_t n)
{
    seer_conv_row_t **p = malloc((n ? n : 1) * sizeof *p);
    if (!p) return NULL;
    for (size_t i = 0; i < n; i++) p[i] = (seer_conv_row_t *)&rows[i];
    qsort(p, n, sizeof *p, cmp_call);
    return p;
}

/* Keep the rows whose drop[] is 0, in order; *np the new count. */
static void compact(seer_conv_row_t *rows, size_t *np, const unsigned char *drop)
{
    size_t m = 0;
    for (size_t i = 0; i < *np; i++)
        if (!drop[i]) rows[m++] = rows[i];
    *np = m;
}

seer_status_t seer_conv_rows_fastest(seer_handle_t h, seer_conv_row_t *rows, size_t *np)
{
    size_t n = *np;
    seer_conv_row_t **p = by_call(rows, n);
    unsigned char *drop = calloc(n ? n : 1, 1);
    if (!p || !drop) {
        free(p);
        free(drop);
        return seer_error(h, SEER_STATUS_ALLOC_FAILED, "fastest of %zu rows", n);
    }
    for (size_t i = 0, j; i < n; i = j) {
        seer_conv_row_t *best = NULL;
        for (j = i; j < n && same_conv(p[i], p[j]); j++) {
            seer_conv_row_t *r = p[j];
            if (r->time_ms > 0 && r->algo != SEER_ALGO_UNKNOWN && r->algo != SEER_ALGO_BAD_NAME &&
                (!best || r->time_ms < best->time_ms || (r->time_ms == best->time_ms && r < best)))
                best = r;
        }
        for (size_t q = i; q < j; q++) drop[p[q] - rows] = p[q] != best;
        if (best) {
            best->algo = SEER_ALGO_NONE; /* scored as cuDNN's choice: the fastest predicted */
            best->fastest = 0;
        }
    }
    compact(rows, np, drop);
    free(p);
    free(drop);
    return SEER_STATUS_SUCCESS;
}

seer_status_t seer_conv_rows_framework_math(seer_handle_t h, seer_conv_row_t *rows, size_t *np)
{
    size_t n = *np, m = 0;
    for (size_t i = 0; i < n; i++) m += rows[i].math && !framework_math(&rows[i], rows[i].math);
    if (!m) return SEER_STATUS_SUCCESS; /* no row to drop: the usual case, no allocation */
    seer_conv_row_t **p = by_call(rows, n);
    unsigned char *drop = calloc(n, 1);
    if (!p || !drop) {
        free(p);
        free(drop);
        return seer_error(h, SEER_STATUS_ALLOC_FAILED, "math type twins of %zu rows", n);
    }
    for (size_t i = 0, j; i < n; i = j) {
        int has = 0;
        for (j = i; j < n && same_call(p[i], p[j]); j++) has |= p[j]->math && framework_math(p[j], p[j]->math);
        for (size_t q = i; has && q < j; q++)
            if (p[q]->math && !framework_math(p[q], p[q]->math)) drop[p[q] - rows] = 1;
    }
    compact(rows, np, drop);
    free(p);
    free(drop);
    return SEER_STATUS_SUCCESS;
}

/* The loop every reader shares: rows grow geometrically; on any error
 * everything is freed and nothing is returned. */
typedef seer_status_t (*row_fn)(seer_handle_t h, const seer_csv_t *c, const void *cols, void *row);

static seer_status_t read_rows(seer_handle_t h, seer_csv_t *c, const void *cols, size_t row_size,
                               row_fn fill, void **rows, size_t *n)
{
    char *arr = NULL;
    size_t cnt = 0, cap = 0;
    seer_status_t st;
    for (;;) {
        int eof;
        if ((st = seer_csv_next(h, c, &eof))) break;
        if (eof) break;
        if (cnt == cap) {
            size_t ncap = cap ? cap * 2 : 64;
            if (ncap < cap || ncap > SIZE_MAX / row_size) {
                st = seer_error(h, SEER_STATUS_ALLOC_FAILED, "%s: too many rows", seer_csv_name(c));
                break;
            }
            char *na = realloc(arr, ncap * row_size);
            if (!na) {
                st = seer_error(h, SEER_STATUS_ALLOC_FAILED, "%s: out of memory", seer_csv_name(c));
                break;
            }
            arr = na;
            cap = ncap;
        }
        if ((st = fill(h, c, cols, arr + cnt * row_size))) break;
        cnt++;
    }
    if (st == SEER_STATUS_SUCCESS && cnt == 0)
        st = seer_error(h, SEER_STATUS_CSV_EMPTY, "%s: no data rows after the header", seer_csv_name(c));
    if (st) {
        free(arr);
        return st;
    }
    *rows = arr;
    *n = cnt;
    return SEER_STATUS_SUCCESS;
}

typedef seer_status_t (*reader_fn)(seer_handle_t h, seer_csv_t *c, void **rows, size_t *n);

static seer_status_t run_buffer(seer_handle_t h, const char *name, const char *data, size_t size,
                                void **rows, size_t *n, reader_fn fn)
{
    if (!rows || !n) return seer_error(h, SEER_STATUS_BAD_PARAM, "NULL rows or count pointer");
    seer_csv_t *c;
    seer_status_t st = seer_csv_open_buffer(h, name, data, size, &c);
    if (st) return st;
    st = fn(h, c, rows, n);
    seer_csv_close(c);
    return st;
}

static seer_status_t run_file(seer_handle_t h, const char *path, void **rows, size_t *n,
                              reader_fn fn)
{
    if (!rows || !n) return seer_error(h, SEER_STATUS_BAD_PARAM, "NULL rows or count pointer");
    seer_csv_t *c;
    seer_status_t st = seer_csv_open_file(h, path, &c);
    if (st) return st;
    st = fn(h, c, rows, n);
    seer_csv_close(c);
    return st;
}

/* ---- conv timing CSV v1 ---- */

static seer_status_t conv_fill(seer_handle_t h, const seer_csv_t *c, const void *cols, void *row)
{
    return conv_row_fill(h, c, cols, 0, 0, row);
}

static seer_status_t conv_fill_keep(seer_handle_t h, const seer_csv_t *c, const void *cols, void *row)
{
    return conv_row_fill(h, c, cols, 0, 1, row);
}

/* The conv rows of one CSV, each filled by fill. */
static seer_status_t conv_rows(seer_handle_t h, seer_csv_t *c, void **rows, size_t *n,
                               seer_status_t (*fill)(seer_handle_t, const seer_csv_t *, const void *, void *))
{
    struct conv_cols k;
    seer_status_t st = conv_cols_find(h, c, &k);
    if (st) return st;
    return read_rows(h, c, &k, sizeof(seer_conv_row_t), fill, rows, n);
}

static seer_status_t conv_reader(seer_handle_t h, seer_csv_t *c, void **rows, size_t *n)
{
    return conv_rows(h, c, rows, n, conv_fill);
}

static seer_status_t conv_reader_keep(seer_handle_t h, seer_csv_t *c, void **rows, size_t *n)
{
    return conv_rows(h, c, rows, n, conv_fill_keep);
}

static seer_status_t conv_file(seer_handle_t h, const char *path, seer_conv_row_t **rows, size_t *n,
                               seer_status_t (*reader)(seer_handle_t, seer_csv_t *, void **, size_t *))
{
    void *r;
    seer_status_t st = run_file(h, path, rows ? &r : NULL, n, reader);
    if (st == SEER_STATUS_SUCCESS) *rows = r;
    return st;
}

seer_status_t seer_conv_csv_read_keep(seer_handle_t h, const char *path, seer_conv_row_t **rows,
                                      size_t *n)
{
    return conv_file(h, path, rows, n, conv_reader_keep);
}

seer_status_t seer_conv_csv_read(seer_handle_t h, const char *path, seer_conv_row_t **rows,
                                 size_t *n)
{
    return conv_file(h, path, rows, n, conv_reader);
}

seer_status_t seer_conv_csv_parse(seer_handle_t h, const char *name, const char *data,
                                  size_t size, seer_conv_row_t **rows, size_t *n)
{
    void *r;
    seer_status_t st = run_buffer(h, name, data, size, rows ? &r : NULL, n, conv_reader);
    if (st == SEER_STATUS_SUCCESS) *rows = r;
    return st;
}

/* ---- kernel trace CSV v1 ---- */

struct kernel_cols {
    struct conv_cols conv;
    int call_id, kernel_index, kernel_name, regs, smem_static, smem_dynamic;
    int dram_read, dram_write, sm_pct, dram_pct, occ_pct, tensor_pct;
};

static seer_status_t kernel_fill(seer_handle_t h, const seer_csv_t *c, const void *cols, void *out)
{
    const struct kernel_cols *k = cols;
    seer_kernel_row_t *row = out;
    seer_status_t st;
    memset(row, 0, sizeof *row);
    if ((st = conv_row_fill(h, c, &k->conv, 1, 0, &row->conv))) return st;
    if ((st = seer_csv_long(h, c, k->call_id, "call_id", 0, LONG_MAX, &row->call_id)) ||
        (st = seer_csv_int(h, c, k->kernel_index, "kernel_index", 0, INT_MAX, &row->kernel_index)))
        return st;
    const char *s = seer_csv_field(c, k->kernel_name);
    if (!*s) return seer_csv_empty_value(h, c, "kernel_name");
    seer_strlcpy(row->kernel_name, s, sizeof row->kernel_name);
    int ss, sd;
    if ((st = seer_csv_int(h, c, k->regs, "regs_per_thread", 0, INT_MAX, &row->regs_per_thread)) ||
        (st = seer_csv_int(h, c, k->smem_static, "smem_static", 0, INT_MAX, &ss)) ||
        (st = seer_csv_int(h, c, k->smem_dynamic, "smem_dynamic", 0, INT_MAX, &sd)))
        return st;
    if (ss > INT_MAX - sd)
        return seer_csv_bad_value(h, c, "smem_dynamic", seer_csv_field(c, k->smem_dynamic),
                         "plus smem_static overflows an int");
    row->smem_bytes = ss + sd;
    if ((st = opt_dbl(h, c, k->dram_read, "dram_read_bytes", -1, &row->dram_read_bytes)) ||
        (st = opt_dbl(h, c, k->dram_write, "dram_write_bytes", -1, &row->dram_write_bytes)) ||
        (st = opt_dbl(h, c, k->sm_pct, "sm_pct", -1, &row->sm_pct)) ||
        (st = opt_dbl(h, c, k->dram_pct, "dram_pct", -1, &row->dram_pct)) ||
        (st = opt_dbl(h, c, k->occ_pct, "occupancy_pct", -1, &row->occupancy_pct)) ||
        (st = opt_dbl(h, c, k->tensor_pct, "tensor_pct", -1, &row->tensor_pct)))
        return st;
    return SEER_STATUS_SUCCESS;
}

static seer_status_t kernel_reader(seer_handle_t h, seer_csv_t *c, void **rows, size_t *n)
{
    struct kernel_cols k;
    seer_status_t st;
    if ((st = conv_cols_find(h, c, &k.conv)) ||
        (st = need_col(h, c, "call_id", &k.call_id)) ||
        (st = need_col(h, c, "kernel_index", &k.kernel_index)) ||
        (st = need_col(h, c, "kernel_name", &k.kernel_name)))
        return st;
    for (int i = 0; i < 3; i++)
        if ((st = need_col(h, c, grid_names[i], &k.conv.grid[i]))) return st;
    for (int i = 0; i < 3; i++)
        if ((st = need_col(h, c, block_names[i], &k.conv.block[i]))) return st;
    if ((st = need_col(h, c, "regs_per_thread", &k.regs)) ||
        (st = need_col(h, c, "smem_static", &k.smem_static)) ||
        (st = need_col(h, c, "smem_dynamic", &k.smem_dynamic)) ||
        (st = need_col(h, c, "time_ms", &k.conv.time)))
        return st;
    k.dram_read = seer_csv_col(c, "dram_read_bytes");
    k.dram_write = seer_csv_col(c, "dram_write_bytes");
    k.sm_pct = seer_csv_col(c, "sm_pct");
    k.dram_pct = seer_csv_col(c, "dram_pct");
    k.occ_pct = seer_csv_col(c, "occupancy_pct");
    k.tensor_pct = seer_csv_col(c, "tensor_pct");
    return read_rows(h, c, &k, sizeof(seer_kernel_row_t), kernel_fill, rows, n);
}

seer_status_t seer_kernel_csv_read(seer_handle_t h, const char *path, seer_kernel_row_t **rows,
                                   size_t *n)
{
    void *r;
    seer_status_t st = run_file(h, path, rows ? &r : NULL, n, kernel_reader);
    if (st == SEER_STATUS_SUCCESS) *rows = r;
    return st;
}

seer_status_t seer_kernel_csv_parse(seer_handle_t h, const char *name, const char *data,
                                    size_t size, seer_kernel_row_t **rows, size_t *n)
{
    void *r;
    seer_status_t st = run_buffer(h, name, data, size, rows ? &r : NULL, n, kernel_reader);
    if (st == SEER_STATUS_SUCCESS) *rows = r;
    return st;
}

/* A trace's rows are kernels; what a model predicts, and what training
 * fits, is a call: its kernels summed, the longest one as the main one
 * (training used to do this itself; seer eval and eval-picker read
 * traces through here too, so they score what training fits). */
seer_status_t seer_kernel_csv_read_calls(seer_handle_t h, const char *path, seer_conv_row_t **out, size_t *nout)
{
    seer_kernel_row_t *k;
    size_t nk;
    if (!out || !nout) return seer_error(h, SEER_STATUS_BAD_PARAM, "NULL rows or count pointer");
    seer_status_t st = seer_kernel_csv_read(h, path, &k, &nk);
    if (st) return st;
    seer_conv_row_t *rows = calloc(nk ? nk : 1, sizeof *rows);
    if (!rows) { free(k); return seer_error(h, SEER_STATUS_ALLOC_FAILED, "trace rows"); }
    size_t n = 0;
    double longest = 0;
    for (size_t i = 0; i < nk; i++) {
        if (i == 0 || k[i].call_id != k[i - 1].call_id) {
            rows[n++] = k[i].conv;
            rows[n - 1].time_ms = 0;
            rows[n - 1].n_kernels = 0;
            longest = -1;
        }
        seer_conv_row_t *r = &rows[n - 1];
        r->time_ms += k[i].conv.time_ms;
        r->n_kernels++;
        if (k[i].conv.time_ms > longest) {
            longest = k[i].conv.time_ms;
            seer_strlcpy(r->main_kernel, k[i].kernel_name, sizeof r->main_kernel);
            memcpy(r->grid, k[i].conv.grid, sizeof r->grid);
            memcpy(r->block, k[i].conv.block, sizeof r->block);
            r->regs_per_thread = k[i].regs_per_thread;
            r->smem_bytes = k[i].smem_bytes;
        }
    }
    free(k);
    *out = rows;
    *nout = n;
    return SEER_STATUS_SUCCESS;
}

seer_status_t seer_conv_rows_read(seer_handle_t h, const char *path, int keep, seer_conv_row_t **rows, size_t *n)
{
    if (seer_csv_kind(path) == 'k') return seer_kernel_csv_read_calls(h, path, rows, n);
    return keep ? seer_conv_csv_read_keep(h, path, rows, n) : seer_conv_csv_read(h, path, rows, n);
}

/* ---- GEMM timing CSV v1 ---- */

const char *const seer_gemm_op_names[SEER_GEMM_OPS] = {"linear", "bmm", "gemm"};

struct gemm_cols {
    int gpu, op, dtype, dims[4], trans_a, trans_b, bias, time;
    int main_kernel, grid[3], block[3], source;
};

static const char *const gemm_dim_names[4] = {"batch", "m", "n", "k"};

/* A flag as spreadsheets and pandas write it: 0/1 or false/true. */
static int flag_of(const char *s, int *out)
{
    if (!strcmp(s, "0") || seer_streq_ci(s, "false")) *out = 0;
    else if (!strcmp(s, "1") || seer_streq_ci(s, "true")) *out = 1;
    else return 0;
    return 1;
}

seer_status_t seer_csv_flag(seer_handle_t h, const seer_csv_t *c, int col, const char *name, int *out)
{
    if (flag_of(seer_csv_field(c, col), out) || !seer_csv_int(NULL, c, col, name, 0, 1, out)) return SEER_STATUS_SUCCESS;
    /* what a flag takes, not "is not an integer" for "yes" */
    const char *v = seer_csv_field(c, col);
    return *v ? seer_csv_bad_value(h, c, name, v, "is not 0 or 1 (or false/true)") : seer_csv_empty_value(h, c, name);
}

static seer_status_t get_trans(seer_handle_t h, const seer_csv_t *c, int col, const char *name,
                               int *out)
{
    const char *s = seer_csv_field(c, col);
    /* also as a flag (PyTorch-side tools write transposes as booleans) */
    if (seer_streq_ci(s, "N")) *out = 0;
    else if (seer_streq_ci(s, "T")) *out = 1;
    else if (!flag_of(s, out)) return seer_csv_bad_value(h, c, name, s, "is not N or T (or 0/1, false/true)");
    return SEER_STATUS_SUCCESS;
}

static seer_status_t gemm_fill(seer_handle_t h, const seer_csv_t *c, const void *cols, void *out)
{
    const struct gemm_cols *k = cols;
    seer_gemm_row_t *row = out;
    seer_status_t st;
    memset(row, 0, sizeof *row);
    row->line = seer_csv_line(c);
    if ((st = get_gpu(h, c, k->gpu, row->gpu))) return st;
    /* and PyTorch's names of the same calls: addmm is nn.Linear's (bias
     * added), baddbmm a batched product, mm and matmul plain ones */
    static const struct { const char *name; int kind; } ops[] = {
        {"linear", 0}, {"bmm", 1}, {"gemm", 2}, {"addmm", 0}, {"baddbmm", 1}, {"mm", 2}, {"matmul", 2}};
    const char *s = seer_csv_field(c, k->op);
    int op = -1;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (seer_streq_ci(s, ops[i].name)) op = ops[i].kind;
    if (op < 0) return seer_csv_bad_value(h, c, "op", s, "is not an operation (linear, bmm, gemm)");
    row->op_kind = op;
    seer_strlcpy(row->op, seer_gemm_op_names[op], sizeof row->op);
    s = seer_csv_field(c, k->dtype);
    if (seer_dtype_from_name(s, &row->dtype))
        return seer_csv_bad_value(h, c, "dtype", s, "is not a data type (fp32, tf32, fp16, bf16, fp16_pseudo)");
    int *dims[4] = {&row->batch, &row->m, &row->n, &row->k};
    for (int i = 0; i < 4; i++)
        if ((st = seer_csv_int(h, c, k->dims[i], gemm_dim_names[i], 1, INT_MAX, dims[i]))) return st;
    if ((st = get_trans(h, c, k->trans_a, "trans_a", &row->trans_a)) ||
        (st = get_trans(h, c, k->trans_b, "trans_b", &row->trans_b)) ||
        (st = seer_csv_flag(h, c, k->bias, "bias", &row->bias)))
        return st;
    /* as a conv row's: absent or empty, not recorded (a prediction input) */
    if (!*seer_csv_field(c, k->time)) row->time_ms = -1;
    else if ((st = req_time(h, c, k->time, "time_ms", &row->time_ms))) return st;
    seer_strlcpy(row->main_kernel, seer_csv_field(c, k->main_kernel), sizeof row->main_kernel);
    if ((st = launch_fill(h, c, k->grid, k->block, 0, row->grid, row->block))) return st;
    seer_strlcpy(row->source, seer_csv_field(c, k->source), sizeof row->source);
    return SEER_STATUS_SUCCESS;
}

static seer_status_t gemm_reader(seer_handle_t h, seer_csv_t *c, void **rows, size_t *n)
{
    struct gemm_cols k;
    seer_status_t st;
    if ((st = need_col(h, c, "gpu", &k.gpu)) || (st = need_col(h, c, "op", &k.op)) ||
        (st = need_col(h, c, "dtype", &k.dtype)))
        return st;
    for (int i = 0; i < 4; i++)
        if ((st = need_col(h, c, gemm_dim_names[i], &k.dims[i]))) return st;
    if ((st = need_col(h, c, "trans_a", &k.trans_a)) || (st = need_col(h, c, "trans_b", &k.trans_b)) ||
        (st = need_col(h, c, "bias", &k.bias)))
        return st;
    k.time = seer_csv_col(c, "time_ms");
    k.main_kernel = seer_csv_col(c, "main_kernel");
    for (int i = 0; i < 3; i++) {
        k.grid[i] = seer_csv_col(c, grid_names[i]);
        k.block[i] = seer_csv_col(c, block_names[i]);
    }
    k.source = seer_csv_col(c, "source");
    return read_rows(h, c, &k, sizeof(seer_gemm_row_t), gemm_fill, rows, n);
}

seer_status_t seer_gemm_csv_read(seer_handle_t h, const char *path, seer_gemm_row_t **rows,
                                 size_t *n)
{
    void *r;
    seer_status_t st = run_file(h, path, rows ? &r : NULL, n, gemm_reader);
    if (st == SEER_STATUS_SUCCESS) *rows = r;
    return st;
}

seer_status_t seer_gemm_csv_parse(seer_handle_t h, const char *name, const char *data,
                                  size_t size, seer_gemm_row_t **rows, size_t *n)
{
    void *r;
    seer_status_t st = run_buffer(h, name, data, size, rows ? &r : NULL, n, gemm_reader);
    if (st == SEER_STATUS_SUCCESS) *rows = r;
    return st;
}

seer_status_t seer_conv_row_algo_error(seer_handle_t h, const char *file, const seer_conv_row_t *r)
{
    if (!r || r->algo != SEER_ALGO_BAD_NAME) return SEER_STATUS_SUCCESS;
    return seer_error(h, SEER_STATUS_CSV_BAD_VALUE,
                      "%s:%ld: column 'algo': '%s' is not a %s algorithm (expected a cuDNN name such as "
                      "IMPLICIT_GEMM, CUDNN_CHOICE, MIXED, UNKNOWN or empty)", file ? file : "CSV", r->line,
                      r->algo_text, seer_direction_name(r->dir));
}

int seer_csv_kind(const char *path)
{
    /* Not a regular file: the conv reader reports it (a FIFO would block here). */
    if (!seer_is_regular_file(path)) return 'c';
    FILE *fp = fopen(path, "rb");
    if (!fp) return 'c'; /* the conv reader reports the error */
    /* The header as the readers see it: their tokenizer over the start of
     * the file (a byte order mark, blank lines, quotes, a quoted comma in
     * a name), so a kind is never told from columns the reader would not
     * find.  A header longer than the buffer, or one the tokenizer
     * refuses, is a conv CSV: the conv reader says what is wrong. */
    char buf[16384];
    size_t n = fread(buf, 1, sizeof buf, fp);
    fclose(fp);
    seer_csv_t *c;
    if (seer_csv_open_buffer(NULL, path, buf, n, &c)) return 'c';
    int r = 'c';
    if (seer_csv_col(c, "call_id") >= 0 && seer_csv_col(c, "kernel_index") >= 0) r = 'k';
    else if (seer_csv_col(c, "trans_a") >= 0 && seer_csv_col(c, "op") >= 0) r = 'g';
    seer_csv_close(c);
    return r;
}

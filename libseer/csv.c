/* CSV readers: an RFC 4180 tokenizer over a buffer held whole in memory,
 * and the three row formats of docs/formats.md built on it. */
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

/* Inputs are held whole in memory: refuse anything larger rather than
 * let a stray multi-gigabyte file exhaust the machine. */

struct seer_csv {
    char *name;
    char *buf;                  /* the whole input, NUL-terminated */
    size_t size, pos;
    long line;                  /* line of buf[pos] */
    long rec_line;              /* line where the current record starts */
    long hdr_line;
    int ncols;
    char **hdr;                 /* header names, pointing into hdr_text */
    char *hdr_text;
    /* Current record: field text back to back, each NUL-terminated;
     * offsets rather than pointers because text grows by realloc. */
    char *text;
    size_t text_len, text_cap;
    size_t *off;
    int nf, nf_cap;
    int have_row;               /* a record is current */
    seer_status_t failed;       /* sticky: the tokenizer state is lost */
};

/* ------------------------------------------------------------------ */
/* Tokenizer                                                           */
/* ------------------------------------------------------------------ */

static seer_status_t text_put(seer_handle_t h, seer_csv_t *c, char ch)
{
    if (c->text_len == c->text_cap) {
        size_t cap = c->text_cap ? c->text_cap * 2 : 256;
        if (cap < c->text_cap) return seer_error(h, SEER_STATUS_ALLOC_FAILED, "%s: out of memory", c->name);
        char *t = realloc(c->text, cap);
        if (!t) return seer_error(h, SEER_STATUS_ALLOC_FAILED, "%s: out of memory", c->name);
        c->text = t;
        c->text_cap = cap;
    }
    c->text[c->text_len++] = ch;
    return SEER_STATUS_SUCCESS;
}

static seer_status_t field_start(seer_handle_t h, seer_csv_t *c)
{
    if (c->nf == c->nf_cap) {
        if (c->nf_cap > INT_MAX / 2)
            return seer_error(h, SEER_STATUS_CSV_SYNTAX, "%s:%ld: too many fields", c->name, c->rec_line);
        int cap = c->nf_cap ? c->nf_cap * 2 : 32;
        size_t *o = realloc(c->off, (size_t)cap * sizeof *o);
        if (!o) return seer_error(h, SEER_STATUS_ALLOC_FAILED, "%s: out of memory", c->name);
        c->off = o;
        c->nf_cap = cap;
    }
    c->off[c->nf++] = c->text_len;
    return SEER_STATUS_SUCCESS;
}

/* Consume a line break at pos (CRLF, LF or a lone CR) if there is one. */
static int eat_newline(seer_csv_t *c)
{
    if (c->pos >= c->size) return 0;
    if (c->buf[c->pos] == '\n') {
        c->pos++;
    } else if (c->buf[c->pos] == '\r') {
        c->pos++;
        if (c->pos < c->size && c->buf[c->pos] == '\n') c->pos++;
    } else {
        return 0;
    }
    c->line++;
    return 1;
}

static seer_status_t nul_error(seer_handle_t h, const seer_csv_t *c)
{
    return seer_error(h, SEER_STATUS_CSV_SYNTAX, "%s:%ld: NUL byte in the input", c->name, c->line);
}

/* Read one record into text/off.  *eof = 1 when only blank lines remain. */
static seer_status_t read_record(seer_handle_t h, seer_csv_t *c, int *eof)
{
    seer_status_t st;
    c->have_row = 0;
    c->nf = 0;
    c->text_len = 0;
    while (eat_newline(c)) {}
    if (c->pos >= c->size) {
        *eof = 1;
        return SEER_STATUS_SUCCESS;
    }
    *eof = 0;
    c->rec_line = c->line;
    for (;;) {
        if ((st = field_start(h, c))) return st;
        if (c->pos < c->size && c->buf[c->pos] == '"') {
            long open_line = c->line;
            c->pos++;
            for (;;) {
                if (c->pos >= c->size)
                    return seer_error(h, SEER_STATUS_CSV_SYNTAX,
                                      "%s:%ld: unterminated quoted field: the quote opened on "
                                      "this line is never closed", c->name, open_line);
                char ch = c->buf[c->pos];
                if (ch == '"') {
                    if (c->pos + 1 < c->size && c->buf[c->pos + 1] == '"') {
                        if ((st = text_put(h, c, '"'))) return st;
                        c->pos += 2;
                        continue;
                    }
                    c->pos++;
                    break;
                }
                if (ch == '\0') return nul_error(h, c);
                /* Embedded line breaks are kept verbatim but still counted,
                 * so later messages name the right line. */
                if (ch == '\n' || (ch == '\r' && !(c->pos + 1 < c->size && c->buf[c->pos + 1] == '\n')))
                    c->line++;
                if ((st = text_put(h, c, ch))) return st;
                c->pos++;
            }
            if (c->pos < c->size && c->buf[c->pos] != ',' && c->buf[c->pos] != '\n' &&
                c->buf[c->pos] != '\r') {
                if (c->buf[c->pos] == '\0') return nul_error(h, c);
                return seer_error(h, SEER_STATUS_CSV_SYNTAX,
                                  "%s:%ld: text after the closing quote of field %d",
                                  c->name, c->line, c->nf);
            }
        } else {
            while (c->pos < c->size) {
                char ch = c->buf[c->pos];
                if (ch == ',' || ch == '\n' || ch == '\r') break;
                if (ch == '\0') return nul_error(h, c);
                if (ch == '"')
                    return seer_error(h, SEER_STATUS_CSV_SYNTAX,
                                      "%s:%ld: quote inside unquoted field %d (quote the whole field)",
                                      c->name, c->line, c->nf);
                if ((st = text_put(h, c, ch))) return st;
                c->pos++;
            }
        }
        if ((st = text_put(h, c, '\0'))) return st;
        if (c->pos < c->size && c->buf[c->pos] == ',') {
            c->pos++;
            continue;
        }
        eat_newline(c);
        return SEER_STATUS_SUCCESS;
    }
}

/* Takes ownership of buf (size bytes plus a NUL). */
static seer_status_t csv_open_owned(seer_handle_t h, const char *name, char *buf, size_t size,
                                    seer_csv_t **out)
{
    seer_csv_t *c = calloc(1, sizeof *c);
    size_t nlen = strlen(name);
    char *nm = malloc(nlen + 1);
    if (!c || !nm) {
        free(c);
        free(nm);
        free(buf);
        return seer_error(h, SEER_STATUS_ALLOC_FAILED, "%s: out of memory", name);
    }
    memcpy(nm, name, nlen + 1);
    c->name = nm;
    c->buf = buf;
    c->size = size;
    c->line = 1;
    if (size >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0) c->pos = 3;

    int eof;
    seer_status_t st = read_record(h, c, &eof);
    if (st == SEER_STATUS_SUCCESS && eof)
        st = seer_error(h, SEER_STATUS_CSV_EMPTY, "%s: empty input (no header line)", c->name);
    if (st == SEER_STATUS_SUCCESS) {
        c->hdr = malloc((size_t)c->nf * sizeof *c->hdr);
        c->hdr_text = malloc(c->text_len);
        if (!c->hdr || !c->hdr_text) {
            st = seer_error(h, SEER_STATUS_ALLOC_FAILED, "%s: out of memory", c->name);
        } else {
            memcpy(c->hdr_text, c->text, c->text_len);
            for (int i = 0; i < c->nf; i++) c->hdr[i] = c->hdr_text + c->off[i];
            c->ncols = c->nf;
            c->hdr_line = c->rec_line;
        }
    }
    if (st) {
        seer_csv_close(c);
        return st;
    }
    c->nf = 0;
    *out = c;
    return SEER_STATUS_SUCCESS;
}

seer_status_t seer_csv_open_buffer(seer_handle_t h, const char *name, const char *data,
                                   size_t size, seer_csv_t **out)
{
    if (!name) name = "<buffer>";
    if (!out || (!data && size))
        return seer_error(h, SEER_STATUS_BAD_PARAM, "%s: NULL data or output pointer", name);
    if (size > SEER_CSV_MAX_BYTES)
        return seer_error(h, SEER_STATUS_IO_ERROR, "%s: input of %zu bytes is over the 1 GiB limit",
                          name, size);
    char *buf = malloc(size + 1);
    if (!buf) return seer_error(h, SEER_STATUS_ALLOC_FAILED, "%s: out of memory", name);
    if (size) memcpy(buf, data, size);
    buf[size] = 0;
    return csv_open_owned(h, name, buf, size, out);
}

seer_status_t seer_csv_open_file(seer_handle_t h, const char *path, seer_csv_t **out)
{
    if (!path || !out) return seer_error(h, SEER_STATUS_BAD_PARAM, "NULL path or output pointer");
    char *buf = NULL;
    size_t size = 0;
    seer_status_t st = seer_read_file(h, path, "CSV", SEER_CSV_MAX_BYTES, NULL, 0, &buf, &size);
    if (st) return st;
    return csv_open_owned(h, path, buf, size, out);
}

void seer_csv_close(seer_csv_t *c)
{
    if (!c) return;
    free(c->name);
    free(c->buf);
    free(c->hdr);
    free(c->hdr_text);
    free(c->text);
    free(c->off);
    free(c);
}

int seer_csv_col(const seer_csv_t *c, const char *name)
{
    if (!c || !name) return -1;
    for (int i = 0; i < c->ncols; i++)
        if (strcmp(c->hdr[i], name) == 0) return i;
    return -1;
}

int seer_csv_ncols(const seer_csv_t *c) { return c ? c->ncols : 0; }

seer_status_t seer_csv_next(seer_handle_t h, seer_csv_t *c, int *eof)
{
    if (!c || !eof) return seer_error(h, SEER_STATUS_BAD_PARAM, "NULL CSV reader or eof pointer");
    if (c->failed)
        return seer_error(h, c->failed, "%s:%ld: reading after an earlier error", c->name, c->line);
    int end;
    seer_status_t st = read_record(h, c, &end);
    if (st == SEER_STATUS_SUCCESS && !end && c->nf != c->ncols)
        st = seer_error(h, SEER_STATUS_CSV_SYNTAX, "%s:%ld: %d fields, but the header (line %ld) has %d",
                        c->name, c->rec_line, c->nf, c->hdr_line, c->ncols);
    if (st) {
        c->failed = st;
        c->nf = 0;
        return st;
    }
    c->have_row = !end;
    *eof = end;
    return SEER_STATUS_SUCCESS;
}

const char *seer_csv_field(const seer_csv_t *c, int i)
{
    if (!c || !c->have_row || i < 0 || i >= c->nf) return "";
    return c->text + c->off[i];
}

long seer_csv_line(const seer_csv_t *c) { return c ? c->rec_line : 0; }

const char *seer_csv_name(const seer_csv_t *c) { return c ? c->name : ""; }

/* ------------------------------------------------------------------ */
/* Typed fields                                                        */
/* ------------------------------------------------------------------ */

static seer_status_t bad_value(seer_handle_t h, const seer_csv_t *c, const char *col,
                               const char *val, const char *what)
{
    return seer_error(h, SEER_STATUS_CSV_BAD_VALUE, "%s:%ld: column '%s': '%.64s'%s %s", c->name,
                      c->rec_line, col, val, strlen(val) > 64 ? "..." : "", what);
}

static seer_status_t empty_value(seer_handle_t h, const seer_csv_t *c, const char *col)
{
    return seer_error(h, SEER_STATUS_CSV_BAD_VALUE, "%s:%ld: column '%s': empty", c->name,
                      c->rec_line, col);
}

static seer_status_t parse_long(seer_handle_t h, const seer_csv_t *c, int col, const char *colname,
                                long lo, long hi, long *out)
{
    const char *s = seer_csv_field(c, col);
    if (!*s) return empty_value(h, c, colname);
    /* strtol would skip leading blanks; the formats have none. */
    if (!(*s == '-' || *s == '+' || (*s >= '0' && *s <= '9')))
        return bad_value(h, c, colname, s, "is not an integer");
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end != s && (*end == '.' || *end == 'e' || *end == 'E') && !s[strspn(s, "0123456789+-.eE")]) {
        /* Spreadsheets and pandas write integer columns as "2.0": accept
         * an integral float, nothing with a fraction. */
        double d = strtod(s, &end);
        if (*end || d != floor(d)) return bad_value(h, c, colname, s, "is not an integer");
        if (!(d >= (double)lo && d <= (double)hi)) {
            char what[96];
            snprintf(what, sizeof what, "is out of range [%ld, %ld]", lo, hi);
            return bad_value(h, c, colname, s, what);
        }
        *out = (long)d;
        return SEER_STATUS_SUCCESS;
    }
    if (end == s || *end) return bad_value(h, c, colname, s, "is not an integer");
    if (errno == ERANGE || v < lo || v > hi) {
        char what[96];
        snprintf(what, sizeof what, "is out of range [%ld, %ld]", lo, hi);
        return bad_value(h, c, colname, s, what);
    }
    *out = v;
    return SEER_STATUS_SUCCESS;
}

seer_status_t seer_csv_int(seer_handle_t h, const seer_csv_t *c, int col, const char *colname,
                           long lo, long hi, int *out)
{
    if (!c || !colname || !out) return seer_error(h, SEER_STATUS_BAD_PARAM, "NULL CSV argument");
    if (lo < INT_MIN) lo = INT_MIN;
    if (hi > INT_MAX) hi = INT_MAX;
    long v;
    seer_status_t st = parse_long(h, c, col, colname, lo, hi, &v);
    if (st == SEER_STATUS_SUCCESS) *out = (int)v;
    return st;
}

seer_status_t seer_csv_dbl(seer_handle_t h, const seer_csv_t *c, int col, const char *colname,
                           double *out)
{
    if (!c || !colname || !out) return seer_error(h, SEER_STATUS_BAD_PARAM, "NULL CSV argument");
    const char *s = seer_csv_field(c, col);
    if (!*s) return empty_value(h, c, colname);
    /* Plain decimal only: this keeps out strtod's "inf", "nan", hex floats
     * and leading blanks in one test. */
    if (s[strspn(s, "0123456789+-.eE")]) return bad_value(h, c, colname, s, "is not a number");
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end) return bad_value(h, c, colname, s, "is not a number");
    if (!isfinite(v)) return bad_value(h, c, colname, s, "is out of range");
    *out = v;
    return SEER_STATUS_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Row readers                                                         */
/* ------------------------------------------------------------------ */

static seer_status_t need_col(seer_handle_t h, const seer_csv_t *c, const char *name, int *idx)
{
    *idx = seer_csv_col(c, name);
    if (*idx < 0)
        return seer_error(h, SEER_STATUS_CSV_MISSING_COLUMN, "%s:%ld: missing required column '%s'",
                          c->name, c->hdr_line, name);
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
        return bad_value(h, c, name, seer_csv_field(c, col), "is negative");
    return st;
}

/* A time that must be there and be positive. */
static seer_status_t req_time(seer_handle_t h, const seer_csv_t *c, int col, const char *name,
                              double *out)
{
    seer_status_t st = seer_csv_dbl(h, c, col, name, out);
    if (st == SEER_STATUS_SUCCESS && !(*out > 0))
        return bad_value(h, c, name, seer_csv_field(c, col), "is not a positive time");
    /* 1 ns .. SEER_MAX_TIME_MS: outside it, ratios and logs of the metrics
     * overflow (1e308) or lose all precision (1e-320). */
    if (st == SEER_STATUS_SUCCESS && !(*out >= SEER_MIN_TIME_MS && *out <= SEER_MAX_TIME_MS)) {
        char what[96];
        snprintf(what, sizeof what, "is out of range [%g, %g] ms", SEER_MIN_TIME_MS, SEER_MAX_TIME_MS);
        return bad_value(h, c, name, seer_csv_field(c, col), what);
    }
    return st;
}

static seer_status_t get_gpu(seer_handle_t h, const seer_csv_t *c, int col, char gpu[32])
{
    const char *s = seer_csv_field(c, col);
    if (!*s) return empty_value(h, c, "gpu");
    if (strlen(s) > 31) return bad_value(h, c, "gpu", s, "is longer than 31 characters");
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
    int main_kernel, grid[3], block[3], kernels, source;
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
    return SEER_STATUS_SUCCESS;
}

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

static seer_status_t conv_row_fill(seer_handle_t h, const seer_csv_t *c, const struct conv_cols *k,
                                   int kernel_trace, int keep, seer_conv_row_t *row)
{
    seer_status_t st;
    const char *s;
    memset(row, 0, sizeof *row);
    row->line = c->rec_line;
    if ((st = get_gpu(h, c, k->gpu, row->gpu))) return st;
    s = seer_csv_field(c, k->dir);
    if (seer_direction_from_name(s, &row->dir))
        return bad_value(h, c, "direction", s, "is not a direction (fwd, bwd_data, bwd_filter)");
    s = seer_csv_field(c, k->dtype);
    if (seer_dtype_from_name(s, &row->dtype))
        return bad_value(h, c, "dtype", s, "is not a data type (fp32, tf32, fp16, bf16, fp16_pseudo)");
    s = seer_csv_field(c, k->layout);
    if (seer_layout_from_name(s, &row->layout))
        return bad_value(h, c, "layout", s, "is not a layout (nchw, nhwc)");

    int v[14];
    for (int i = 0; i < 14; i++)
        if ((st = seer_csv_int(h, c, k->shape[i], shape_names[i], INT_MIN, INT_MAX, &v[i]))) return st;
    struct seer_conv cv;
    st = seer_conv_init(keep ? NULL : h, &cv, row->dtype, row->layout, v[0], v[1], v[2], v[3], v[4],
                        v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12], v[13]);
    if (st && keep) {
        row->shape_st = st; /* the caller scores the row as failed */
    } else if (st) {
        /* seer_conv_init names the field; add where it is. */
        char msg[sizeof h->msg];
        if (!h || seer_get_last_error_copy(h, msg, sizeof msg)) msg[0] = 0;
        return seer_error(h, st, "%s:%ld: %s", c->name, c->rec_line, msg);
    }
    row->n = v[0], row->c = v[1], row->h = v[2], row->w = v[3], row->k = v[4], row->r = v[5];
    row->s = v[6], row->pad_h = v[7], row->pad_w = v[8], row->stride_h = v[9];
    row->stride_w = v[10], row->dil_h = v[11], row->dil_w = v[12], row->groups = v[13];

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
                st = seer_error(h, SEER_STATUS_ALLOC_FAILED, "%s: too many rows", c->name);
                break;
            }
            char *na = realloc(arr, ncap * row_size);
            if (!na) {
                st = seer_error(h, SEER_STATUS_ALLOC_FAILED, "%s: out of memory", c->name);
                break;
            }
            arr = na;
            cap = ncap;
        }
        if ((st = fill(h, c, cols, arr + cnt * row_size))) break;
        cnt++;
    }
    if (st == SEER_STATUS_SUCCESS && cnt == 0)
        st = seer_error(h, SEER_STATUS_CSV_EMPTY, "%s: no data rows after the header", c->name);
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
    if ((st = parse_long(h, c, k->call_id, "call_id", 0, LONG_MAX, &row->call_id)) ||
        (st = seer_csv_int(h, c, k->kernel_index, "kernel_index", 0, INT_MAX, &row->kernel_index)))
        return st;
    const char *s = seer_csv_field(c, k->kernel_name);
    if (!*s) return empty_value(h, c, "kernel_name");
    seer_strlcpy(row->kernel_name, s, sizeof row->kernel_name);
    int ss, sd;
    if ((st = seer_csv_int(h, c, k->regs, "regs_per_thread", 0, INT_MAX, &row->regs_per_thread)) ||
        (st = seer_csv_int(h, c, k->smem_static, "smem_static", 0, INT_MAX, &ss)) ||
        (st = seer_csv_int(h, c, k->smem_dynamic, "smem_dynamic", 0, INT_MAX, &sd)))
        return st;
    if (ss > INT_MAX - sd)
        return bad_value(h, c, "smem_dynamic", seer_csv_field(c, k->smem_dynamic),
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

/* ---- GEMM timing CSV v1 ---- */

struct gemm_cols {
    int gpu, op, dtype, dims[4], trans_a, trans_b, bias, time;
    int main_kernel, grid[3], block[3], source;
};

static const char *const gemm_dim_names[4] = {"batch", "m", "n", "k"};

static seer_status_t get_trans(seer_handle_t h, const seer_csv_t *c, int col, const char *name,
                               int *out)
{
    const char *s = seer_csv_field(c, col);
    if (seer_streq_ci(s, "N")) *out = 0;
    else if (seer_streq_ci(s, "T")) *out = 1;
    else return bad_value(h, c, name, s, "is not N or T");
    return SEER_STATUS_SUCCESS;
}

static seer_status_t gemm_fill(seer_handle_t h, const seer_csv_t *c, const void *cols, void *out)
{
    const struct gemm_cols *k = cols;
    seer_gemm_row_t *row = out;
    seer_status_t st;
    memset(row, 0, sizeof *row);
    row->line = c->rec_line;
    if ((st = get_gpu(h, c, k->gpu, row->gpu))) return st;
    static const char *const ops[] = {"linear", "bmm", "gemm"};
    const char *s = seer_csv_field(c, k->op);
    int op = -1;
    for (int i = 0; i < 3; i++)
        if (seer_streq_ci(s, ops[i])) op = i;
    if (op < 0) return bad_value(h, c, "op", s, "is not an operation (linear, bmm, gemm)");
    seer_strlcpy(row->op, ops[op], sizeof row->op);
    s = seer_csv_field(c, k->dtype);
    if (seer_dtype_from_name(s, &row->dtype))
        return bad_value(h, c, "dtype", s, "is not a data type (fp32, tf32, fp16, bf16, fp16_pseudo)");
    int *dims[4] = {&row->batch, &row->m, &row->n, &row->k};
    for (int i = 0; i < 4; i++)
        if ((st = seer_csv_int(h, c, k->dims[i], gemm_dim_names[i], 1, INT_MAX, dims[i]))) return st;
    if ((st = get_trans(h, c, k->trans_a, "trans_a", &row->trans_a)) ||
        (st = get_trans(h, c, k->trans_b, "trans_b", &row->trans_b)) ||
        (st = seer_csv_int(h, c, k->bias, "bias", 0, 1, &row->bias)) ||
        (st = req_time(h, c, k->time, "time_ms", &row->time_ms)))
        return st;
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
        (st = need_col(h, c, "bias", &k.bias)) || (st = need_col(h, c, "time_ms", &k.time)))
        return st;
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
                      "IMPLICIT_GEMM, MIXED, UNKNOWN or empty)", file ? file : "CSV", r->line,
                      r->algo_text, seer_direction_name(r->dir));
}

int seer_csv_kind(const char *path)
{
    /* Not a regular file: the conv reader reports it (a FIFO would block here). */
    if (!seer_is_regular_file(path)) return 'c';
    FILE *fp = fopen(path, "rb");
    if (!fp) return 'c'; /* the conv reader reports the error */
    char line[4096];
    int r = 'c';
    if (fgets(line, sizeof line, fp)) {
        if (strstr(line, "call_id") && strstr(line, "kernel_index")) r = 'k';
        else if (strstr(line, "trans_a") && strstr(line, ",op,")) r = 'g';
    }
    fclose(fp);
    return r;
}

/* CSV: an RFC 4180 tokenizer over a buffer held whole in memory, and the
 * checked parsing of its fields (csv_rows.c reads the three row formats
 * of docs/formats.md with it). */
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

/* Spaces and tabs around a field are not part of it (docs/formats.md). */
static int is_blank(char ch) { return ch == ' ' || ch == '\t'; }

static void skip_blanks(seer_csv_t *c)
{
    while (c->pos < c->size && is_blank(c->buf[c->pos])) c->pos++;
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
    /* blank lines are skipped, and so are lines of only spaces and tabs
     * (a hand-edited file's), as the blanks around a field are */
    do skip_blanks(c); /* a record's leading blanks go too: its first field's */
    while (eat_newline(c));
    if (c->pos >= c->size) {
        *eof = 1;
        return SEER_STATUS_SUCCESS;
    }
    *eof = 0;
    c->rec_line = c->line;
    for (;;) {
        if ((st = field_start(h, c))) return st;
        /* Blanks around a field are not part of it: files written by hand
         * or with ", " between fields ("h100, fwd, fp32") read as the
         * plain ones (a quoted field keeps its own). */
        skip_blanks(c);
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
            skip_blanks(c);
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
            while (c->text_len > c->off[c->nf - 1] && is_blank(c->text[c->text_len - 1])) c->text_len--;
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

/* Columns are found by name (the first match), so a name given twice
 * would make the reader use one column and silently drop the other: an
 * error, whatever the format and even for a column no reader wants.
 * Empty names (a trailing comma, a pandas index) name nothing and may
 * repeat.  Quadratic, but a header has tens of columns. */
static seer_status_t check_duplicates(seer_handle_t h, const seer_csv_t *c)
{
    for (int i = 1; i < c->ncols; i++) {
        if (!c->hdr[i][0]) continue;
        for (int j = 0; j < i; j++)
            if (!strcmp(c->hdr[i], c->hdr[j]))
                return seer_error(h, SEER_STATUS_CSV_SYNTAX,
                                  "%s:%ld: column '%s' appears twice in the header (columns %d and %d)", c->name,
                                  c->hdr_line, c->hdr[i], j + 1, i + 1);
    }
    return SEER_STATUS_SUCCESS;
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
            st = check_duplicates(h, c);
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
long seer_csv_header_line(const seer_csv_t *c) { return c ? c->hdr_line : 0; }

const char *seer_csv_name(const seer_csv_t *c) { return c ? c->name : ""; }

/* ------------------------------------------------------------------ */
/* Typed fields                                                        */
/* ------------------------------------------------------------------ */

seer_status_t seer_csv_bad_value(seer_handle_t h, const seer_csv_t *c, const char *col, const char *val,
                                 const char *what)
{
    return seer_error(h, SEER_STATUS_CSV_BAD_VALUE, "%s:%ld: column '%s': '%.64s'%s %s", c->name,
                      c->rec_line, col, val, strlen(val) > 64 ? "..." : "", what);
}

seer_status_t seer_csv_empty_value(seer_handle_t h, const seer_csv_t *c, const char *col)
{
    return seer_error(h, SEER_STATUS_CSV_BAD_VALUE, "%s:%ld: column '%s': empty", c->name,
                      c->rec_line, col);
}

seer_status_t seer_csv_long(seer_handle_t h, const seer_csv_t *c, int col, const char *colname, long lo,
                            long hi, long *out)
{
    const char *s = seer_csv_field(c, col);
    if (!*s) return seer_csv_empty_value(h, c, colname);
    /* strtol would skip leading blanks; the formats have none. */
    if (!(*s == '-' || *s == '+' || (*s >= '0' && *s <= '9')))
        return seer_csv_bad_value(h, c, colname, s, "is not an integer");
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end != s && (*end == '.' || *end == 'e' || *end == 'E') && !s[strspn(s, "0123456789+-.eE")]) {
        /* Spreadsheets and pandas write integer columns as "2.0": accept
         * an integral float, nothing with a fraction. */
        double d = strtod(s, &end);
        if (*end || d != floor(d)) return seer_csv_bad_value(h, c, colname, s, "is not an integer");
        if (!(d >= (double)lo && d <= (double)hi)) {
            char what[96];
            snprintf(what, sizeof what, "is out of range [%ld, %ld]", lo, hi);
            return seer_csv_bad_value(h, c, colname, s, what);
        }
        *out = (long)d;
        return SEER_STATUS_SUCCESS;
    }
    if (end == s || *end) return seer_csv_bad_value(h, c, colname, s, "is not an integer");
    if (errno == ERANGE || v < lo || v > hi) {
        char what[96];
        snprintf(what, sizeof what, "is out of range [%ld, %ld]", lo, hi);
        return seer_csv_bad_value(h, c, colname, s, what);
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
    long v = 0;
    seer_status_t st = seer_csv_long(h, c, col, colname, lo, hi, &v);
    if (st == SEER_STATUS_SUCCESS) *out = (int)v;
    return st;
}

seer_status_t seer_csv_dbl(seer_handle_t h, const seer_csv_t *c, int col, const char *colname,
                           double *out)
{
    if (!c || !colname || !out) return seer_error(h, SEER_STATUS_BAD_PARAM, "NULL CSV argument");
    const char *s = seer_csv_field(c, col);
    if (!*s) return seer_csv_empty_value(h, c, colname);
    /* Plain decimal only: this keeps out strtod's "inf", "nan", hex floats
     * and leading blanks in one test. */
    if (s[strspn(s, "0123456789+-.eE")]) return seer_csv_bad_value(h, c, colname, s, "is not a number");
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end) return seer_csv_bad_value(h, c, colname, s, "is not a number");
    if (!isfinite(v)) return seer_csv_bad_value(h, c, colname, s, "is out of range");
    *out = v;
    return SEER_STATUS_SUCCESS;
}

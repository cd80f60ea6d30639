/* Status strings, names of enums, the handle and its last-error message. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "gpufile.h"

unsigned seer_version(void) { return SEER_VERSION_NUMBER; }

const char *seer_status_string(seer_status_t st)
{
    switch (st) {
    case SEER_STATUS_SUCCESS: return "SEER_STATUS_SUCCESS: success";
    case SEER_STATUS_BAD_PARAM: return "SEER_STATUS_BAD_PARAM: bad parameter";
    case SEER_STATUS_ALLOC_FAILED: return "SEER_STATUS_ALLOC_FAILED: out of memory";
    case SEER_STATUS_BAD_SHAPE: return "SEER_STATUS_BAD_SHAPE: impossible shape";
    case SEER_STATUS_OVERFLOW: return "SEER_STATUS_OVERFLOW: size overflows the limits";
    case SEER_STATUS_BAD_GROUPS: return "SEER_STATUS_BAD_GROUPS: groups do not divide the channels";
    case SEER_STATUS_UNSUPPORTED: return "SEER_STATUS_UNSUPPORTED: combination not supported by cuDNN";
    case SEER_STATUS_UNKNOWN_GPU: return "SEER_STATUS_UNKNOWN_GPU: GPU not in the table";
    case SEER_STATUS_IO_ERROR: return "SEER_STATUS_IO_ERROR: file could not be read or written";
    case SEER_STATUS_MODEL_TRUNCATED: return "SEER_STATUS_MODEL_TRUNCATED: model file ends early";
    case SEER_STATUS_MODEL_CORRUPT: return "SEER_STATUS_MODEL_CORRUPT: model file is corrupt";
    case SEER_STATUS_MODEL_VERSION: return "SEER_STATUS_MODEL_VERSION: model format version not supported";
    case SEER_STATUS_CSV_EMPTY: return "SEER_STATUS_CSV_EMPTY: CSV input is empty";
    case SEER_STATUS_CSV_MISSING_COLUMN: return "SEER_STATUS_CSV_MISSING_COLUMN: required CSV column missing";
    case SEER_STATUS_CSV_BAD_VALUE: return "SEER_STATUS_CSV_BAD_VALUE: bad value in CSV field";
    case SEER_STATUS_CSV_SYNTAX: return "SEER_STATUS_CSV_SYNTAX: malformed CSV";
    case SEER_STATUS_NO_DATA: return "SEER_STATUS_NO_DATA: not enough usable data";
    case SEER_STATUS_NOT_CALIBRATED: return "SEER_STATUS_NOT_CALIBRATED: model not calibrated for this case";
    case SEER_STATUS_INTERNAL: return "SEER_STATUS_INTERNAL: internal error";
    case SEER_STATUS_BUFFER_TOO_SMALL: return "SEER_STATUS_BUFFER_TOO_SMALL: output array too small";
    case SEER_STATUS_NET_PARSE: return "SEER_STATUS_NET_PARSE: malformed network description";
    case SEER_STATUS_UNKNOWN_NETWORK: return "SEER_STATUS_UNKNOWN_NETWORK: no built-in network of that name";
    case SEER_STATUS_NET_INPUT: return "SEER_STATUS_NET_INPUT: layer input missing or not defined above";
    case SEER_STATUS_NET_SHAPE: return "SEER_STATUS_NET_SHAPE: layer shapes do not fit";
    case SEER_STATUS_NO_ALGORITHM: return "SEER_STATUS_NO_ALGORITHM: no algorithm fits the shape and workspace limit";
    case SEER_STATUS_WORKSPACE_LIMIT: return "SEER_STATUS_WORKSPACE_LIMIT: algorithm needs more workspace than allowed";
    case SEER_STATUS_BAD_PREDICTION: return "SEER_STATUS_BAD_PREDICTION: predicted time is not finite or out of range";
    case SEER_STATUS_GPU_FILE: return "SEER_STATUS_GPU_FILE: malformed GPU description file";
    case SEER_STATUS_ONNX_CORRUPT: return "SEER_STATUS_ONNX_CORRUPT: not a readable ONNX model";
    case SEER_STATUS_ONNX_OPSET: return "SEER_STATUS_ONNX_OPSET: ONNX opset not supported";
    case SEER_STATUS_ONNX_UNSUPPORTED_OP: return "SEER_STATUS_ONNX_UNSUPPORTED_OP: ONNX operators not supported";
    }
    return "SEER_STATUS_?: unknown status";
}

seer_status_t seer_create(seer_handle_t *handle)
{
    if (!handle) return SEER_STATUS_BAD_PARAM;
    struct seer_context *h = calloc(1, sizeof *h);
    if (!h) return SEER_STATUS_ALLOC_FAILED;
    if (pthread_mutex_init(&h->lock, NULL) != 0) {
        free(h);
        return SEER_STATUS_ALLOC_FAILED;
    }
    *handle = h;
    return SEER_STATUS_SUCCESS;
}

seer_status_t seer_destroy(seer_handle_t h)
{
    if (!h) return SEER_STATUS_SUCCESS;
    seer_gpufile_registry_free(h);
    pthread_mutex_destroy(&h->lock);
    free(h);
    return SEER_STATUS_SUCCESS;
}

const char *seer_get_last_error(const seer_handle_t h)
{
    return h ? h->msg : "";
}

seer_status_t seer_get_last_error_copy(const seer_handle_t h, char *buf, size_t size)
{
    if (!h || !buf || size == 0) return SEER_STATUS_BAD_PARAM;
    pthread_mutex_lock(&h->lock);
    seer_strlcpy(buf, h->msg, size);
    pthread_mutex_unlock(&h->lock);
    return SEER_STATUS_SUCCESS;
}

seer_status_t seer_error(seer_handle_t h, seer_status_t st, const char *fmt, ...)
{
    if (!h) return st;
    char tmp[sizeof h->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&h->lock);
    memcpy(h->msg, tmp, sizeof tmp);
    pthread_mutex_unlock(&h->lock);
    return st;
}

seer_status_t seer_fail(seer_err_t *e, seer_status_t st, const char *fmt, ...)
{
    if (!e) return st;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    e->st = st;
    return st;
}

seer_status_t seer_err_report(seer_handle_t h, const seer_err_t *e)
{
    return seer_error(h, e->st, "%s", e->msg);
}

int seer_mul_ok(int64_t a, int64_t b, int64_t *out)
{
    if (a < 0 || b < 0) return 0;
    if (a != 0 && b > INT64_MAX / a) return 0;
    *out = a * b;
    return 1;
}

int seer_add_ok(int64_t a, int64_t b, int64_t *out)
{
    if (a < 0 || b < 0 || a > INT64_MAX - b) return 0;
    *out = a + b;
    return 1;
}

uint64_t seer_fnv1a(uint64_t h, const void *data, size_t size)
{
    const unsigned char *p = data;
    while (size--) {
        h ^= *p++;
        h *= 1099511628211ULL;
    }
    return h;
}

int seer_in_test_split(const int32_t *v, int n)
{
    uint64_t h = SEER_FNV_OFFSET;
    for (int i = 0; i < n; i++) {
        unsigned char b[4];
        for (int k = 0; k < 4; k++) b[k] = (unsigned char)((uint32_t)v[i] >> (8 * k));
        h = seer_fnv1a(h, b, sizeof b);
    }
    return h % 100 < 20;
}

int seer_in_check_split(int64_t line)
{
    unsigned char b[8];
    for (int k = 0; k < 8; k++) b[k] = (unsigned char)((uint64_t)line >> (8 * k));
    return (seer_fnv1a(SEER_FNV_OFFSET, b, sizeof b) >> 7) % 5 == 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void seer_sort_doubles(double *v, size_t n) { qsort(v, n, sizeof *v, cmp_double); }

double seer_median_sorted(const double *v, size_t n)
{
    if (n == 0) return NAN;
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static int lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

int seer_streq_ci(const char *a, const char *b)
{
    if (!a || !b) return 0;
    while (*a && lower((unsigned char)*a) == lower((unsigned char)*b)) a++, b++;
    return *a == 0 && *b == 0;
}

int seer_strneq_ci(const char *a, const char *b, size_t n)
{
    if (!a || !b) return 0;
    for (size_t i = 0; i < n; i++) {
        if (lower((unsigned char)a[i]) != lower((unsigned char)b[i])) return 0;
        if (!a[i]) return 1;
    }
    return 1;
}

void seer_strlcpy(char *dst, const char *src, size_t size)
{
    if (!size) return;
    size_t n = strlen(src);
    if (n >= size) n = size - 1;
    memcpy(dst, src, n);
    dst[n] = 0;
}

seer_status_t seer_check_time(seer_err_t *e, double ms, const char *what)
{
    if (ms >= 0 && ms <= SEER_MAX_TIME_MS) return SEER_STATUS_SUCCESS;
    return seer_fail(e, SEER_STATUS_BAD_PREDICTION,
                     "%s: predicted time %g ms is %s (the limit is %g ms): the shape is far outside "
                     "the model's data", what, ms, isfinite(ms) ? "out of range" : "not finite",
                     SEER_MAX_TIME_MS);
}

/* Internal helpers shared by every libseer module: error recording,
 * checked arithmetic, CRC-32, small string utilities. */
#ifndef SEER_COMMON_H
#define SEER_COMMON_H

#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include "seer.h"

struct seer_context {
    pthread_mutex_t lock;   /* guards msg and gpus: handles are shared by threads */
    char msg[1024];
    seer_gpu_info_t **gpus; /* registered from GPU description files (gpufile.c) */
    int n_gpus;
};

/* Record a formatted message on handle (which may be NULL) and return st,
 * so error paths read `return seer_error(h, SEER_STATUS_X, "...", ...)`. */
seer_status_t seer_error(seer_handle_t h, seer_status_t st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* An error as a value: the status and message of an internal step that
 * may fail, kept by its caller instead of written to a handle.  A step
 * that runs many times for one public call (each algorithm the picker
 * tries, each convolution of a network) fails into one of these; the
 * caller decides whether the failure is an answer ("this algorithm does
 * not exist here") or the error, and the public function copies the
 * error into its handle once (seer_err_report), so nothing is ever run a
 * second time for its message.  Every message of the prediction steps is
 * under 256 bytes (the longest names a convolution, a time and the
 * limit). */
typedef struct {
    seer_status_t st;           /* SUCCESS until a failure is recorded */
    char msg[256];
} seer_err_t;

/* Record st and the formatted message in e (NULL: the status alone) and
 * return st, so error paths read `return seer_fail(e, SEER_STATUS_X, ...)`. */
seer_status_t seer_fail(seer_err_t *e, seer_status_t st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Copy e's message into h (which may be NULL) and return e->st: the one
 * place an error value reaches a handle. */
seer_status_t seer_err_report(seer_handle_t h, const seer_err_t *e);

/* a * b and a + b on non-negative int64, returning 0 on overflow. */
int seer_mul_ok(int64_t a, int64_t b, int64_t *out);
int seer_add_ok(int64_t a, int64_t b, int64_t *out);

/* BAD_PREDICTION (message "what: ...") unless 0 <= ms <= SEER_MAX_TIME_MS:
 * no NaN, infinity or absurd time is ever returned as a success. */
seer_status_t seer_check_time(seer_err_t *e, double ms, const char *what);

/* FNV-1a 64-bit hash over a byte range, continuing from h (start with
 * SEER_FNV_OFFSET). */
#define SEER_FNV_OFFSET 1469598103934665603ULL
uint64_t seer_fnv1a(uint64_t h, const void *data, size_t size);

/* The 20 % test split: 1 when FNV-1a of the values (little-endian
 * bytes, so the split is the same on every host) falls in it.  The
 * conv and GEMM splits hash their shape fields through it. */
int seer_in_test_split(const int32_t *v, int n);

/* The check rows inside a training set: 1 for about a fifth of rows, by
 * FNV-1a of their line number (8 little-endian bytes).  Training fits the
 * learned correction without them and keeps it only if it helps on
 * them.  By line, not by shape: the shape-hashed test split is already
 * gone from the rows a held-out model trains on. */
int seer_in_check_split(int64_t line);

/* Sort doubles ascending in place; the median of sorted values (NAN for
 * none).  Shared by the dispatch fit and the CLI's metrics. */
void seer_sort_doubles(double *v, size_t n);
double seer_median_sorted(const double *v, size_t n);

/* ASCII case-insensitive string equality (no locale). */
int seer_streq_ci(const char *a, const char *b);
/* The first n characters (or up to both ends) equal, ignoring ASCII case. */
int seer_strneq_ci(const char *a, const char *b, size_t n);

/* Bounded copy that always NUL-terminates. */
void seer_strlcpy(char *dst, const char *src, size_t size);

#endif

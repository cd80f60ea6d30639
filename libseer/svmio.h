/* Little-endian binary buffers and LIBSVM model (de)serialization, so a
 * model file is one self-contained blob (svm_save_model only writes
 * separate text files). */
#ifndef SEER_SVMIO_H
#define SEER_SVMIO_H
#include <stddef.h>
#include <stdint.h>
#include <svm.h>
#include "seer.h"

typedef struct {
    unsigned char *p;
    size_t n, cap;
    int oom;                    /* sticky: a failed grow */
} seer_wbuf_t;

void seer_w_bytes(seer_wbuf_t *b, const void *d, size_t n);
void seer_w_u32(seer_wbuf_t *b, uint32_t v);
void seer_w_i32(seer_wbuf_t *b, int32_t v);
void seer_w_u64(seer_wbuf_t *b, uint64_t v);
void seer_w_f64(seer_wbuf_t *b, double v);
void seer_w_str(seer_wbuf_t *b, const char *s);
/* NULL is written as "absent". */
void seer_w_svm(seer_wbuf_t *b, const struct svm_model *m);

typedef struct {
    const unsigned char *p;
    size_t n, off;
    seer_status_t st;           /* sticky: first error */
    char why[128];              /* what was being read when it failed */
} seer_rbuf_t;

void seer_r_fail(seer_rbuf_t *r, seer_status_t st, const char *why);
uint32_t seer_r_u32(seer_rbuf_t *r, const char *what);
int32_t seer_r_i32(seer_rbuf_t *r, const char *what, int32_t lo, int32_t hi);
uint64_t seer_r_u64(seer_rbuf_t *r, const char *what);
/* Every stored number of a model (coefficients, feature means and scales,
 * LIBSVM parameters and vectors) lies within +-SEER_MODEL_VALUE_MAX: the
 * shipped models stay under 100.  An RBF gamma must be positive. */
#define SEER_MODEL_VALUE_MAX 1e6
#define SEER_SVM_GAMMA_MIN 1e-9
#define SEER_SVM_GAMMA_MAX 1e3
double seer_r_f64(seer_rbuf_t *r, const char *what); /* within +-SEER_MODEL_VALUE_MAX */
double seer_r_f64_in(seer_rbuf_t *r, const char *what, double lo, double hi);
void seer_r_str(seer_rbuf_t *r, const char *what, char *dst, size_t size);
/* Returns NULL for "absent" or on error (check r->st).  The model owns
 * its memory (free with seer_svm_free). */
struct svm_model *seer_r_svm(seer_rbuf_t *r, int nfeat);
void seer_svm_free(struct svm_model *m);

/* Serialize then deserialize: a trained model becomes self-owned and
 * bit-identical to what a saved file gives back. */
struct svm_model *seer_svm_clone(const struct svm_model *m, int nfeat);
#endif

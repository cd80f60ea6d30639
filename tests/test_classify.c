/* classify.c: the static class rule (half a wave, then the larger term,
 * ties to compute), the measured-time rule that labels training rows,
 * and the family's LIBSVM class classifier. */
#include <stdlib.h>
#include <svm.h>
#include "classify.h"
#include "test.h"

TEST(classify_half_wave_boundary)
{
    /* under half a wave of resident blocks: under-utilized, whatever the terms */
    CHECK(seer_class_static(49, 100, 1, 0) == SEER_CLASS_UNDER);
    CHECK(seer_class_static(49.999, 100, 0, 1) == SEER_CLASS_UNDER);
    CHECK(seer_class_static(0, 100, 5, 5) == SEER_CLASS_UNDER);
    /* exactly half a wave is no longer under */
    CHECK(seer_class_static(50, 100, 1, 0) == SEER_CLASS_COMPUTE);
    CHECK(seer_class_static(50, 100, 0, 1) == SEER_CLASS_DRAM);
    /* odd B_max: the boundary is 2.5 blocks */
    CHECK(seer_class_static(2, 5, 1, 0) == SEER_CLASS_UNDER);
    CHECK(seer_class_static(2.5, 5, 1, 0) == SEER_CLASS_COMPUTE);
    CHECK(seer_class_static(3, 5, 0, 1) == SEER_CLASS_DRAM);
    /* many waves: the terms decide */
    CHECK(seer_class_static(1e6, 100, 2, 1) == SEER_CLASS_COMPUTE);
    CHECK(seer_class_static(1e6, 100, 1, 2) == SEER_CLASS_DRAM);
    CHECK(SEER_UNDER_WAVE_SHARE == 0.5);
}

TEST(classify_ties_go_to_compute)
{
    CHECK(seer_class_static(100, 100, 1, 1) == SEER_CLASS_COMPUTE);
    CHECK(seer_class_static(100, 100, 0, 0) == SEER_CLASS_COMPUTE);
    CHECK(seer_class_static(100, 100, 1e-300, 1e-300) == SEER_CLASS_COMPUTE);
    CHECK(seer_class_static(100, 100, 1, nextafter(1, 2)) == SEER_CLASS_DRAM);
    /* a memory-only layer (no compute term) is DRAM-bound once it fills the GPU */
    CHECK(seer_class_static(100, 100, 0, 1e-9) == SEER_CLASS_DRAM);
}

static seer_class_t measured(double flops_ms, double bytes_ms, double ms)
{
    seer_terms_t t;
    memset(&t, 0, sizeof t);
    t.main_flops_ms = flops_ms;
    t.bytes_ms = bytes_ms;
    return seer_class_of_measured(&t, ms);
}

TEST(classify_measured_time_rule)
{
    /* compute-bound when the main kernel's FLOPs at peak explain at least
     * half the measured time */
    CHECK(SEER_CLASS_SHARE == 0.5);
    CHECK(measured(1.0, 0, 2.0) == SEER_CLASS_COMPUTE);
    CHECK(measured(nextafter(1.0, 0), 0, 2.0) == SEER_CLASS_UNDER);
    /* else DRAM-bound when the minimum bytes at bandwidth do */
    CHECK(measured(0.1, 1.0, 2.0) == SEER_CLASS_DRAM);
    CHECK(measured(0.1, nextafter(1.0, 0), 2.0) == SEER_CLASS_UNDER);
    /* both explain half: compute is asked first */
    CHECK(measured(1.0, 1.9, 2.0) == SEER_CLASS_COMPUTE);
    /* neither: latency, few waves, launch overhead */
    CHECK(measured(0.2, 0.3, 2.0) == SEER_CLASS_UNDER);
    /* faster than the roofline (terms above the time) still classifies */
    CHECK(measured(5.0, 0, 2.0) == SEER_CLASS_COMPUTE);
    CHECK(measured(0, 5.0, 2.0) == SEER_CLASS_DRAM);
}

static void quiet(const char *s) { (void)s; }

/* A C-SVC on the family's class features whose answer is label_lo for a
 * negative standardized feature 0 and label_hi for a positive one.  The
 * model points into *nodes (free after the model). */
static struct svm_model *train_sign(int label_lo, int label_hi, struct svm_node **nodes, double **y,
                                    struct svm_node ***x)
{
    enum { ROWS = 40 };
    *nodes = calloc(ROWS * (SEER_NF_CLASS + 1), sizeof **nodes);
    *y = calloc(ROWS, sizeof **y);
    *x = calloc(ROWS, sizeof **x);
    if (!*nodes || !*y || !*x) return NULL;
    for (int i = 0; i < ROWS; i++) {
        struct svm_node *r = *nodes + i * (SEER_NF_CLASS + 1);
        double v = (i % 2 ? 1 : -1) * (0.5 + (i / 2) * 0.1);
        for (int f = 0; f < SEER_NF_CLASS; f++) {
            r[f].index = f + 1;
            r[f].value = f == 0 ? v : 0.01 * ((i * 7 + f) % 5);
        }
        r[SEER_NF_CLASS].index = -1;
        (*x)[i] = r;
        (*y)[i] = v < 0 ? label_lo : label_hi;
    }
    struct svm_problem prob = {ROWS, *y, *x};
    struct svm_parameter par;
    memset(&par, 0, sizeof par);
    par.svm_type = C_SVC;
    par.kernel_type = RBF;
    par.gamma = 1.0 / SEER_NF_CLASS;
    par.cache_size = 16;
    par.eps = 1e-3;
    par.C = 10;
    par.shrinking = 1;
    if (svm_check_parameter(&prob, &par)) return NULL;
    svm_set_print_string_function(quiet);
    return svm_train(&prob, &par);
}

TEST(classify_family_classifier)
{
    seer_family_t *f = calloc(1, sizeof *f);
    REQUIRE(f != NULL);
    seer_terms_t t;
    memset(&t, 0, sizeof t);
    /* no classifier: the caller falls back to the all-class fit */
    CHECK(seer_family_class(f, &t) == SEER_ALL_CLASSES);

    struct svm_node *nodes, **x;
    double *y;
    struct svm_model *m = train_sign(SEER_CLASS_COMPUTE, SEER_CLASS_UNDER, &nodes, &y, &x);
    REQUIRE(m != NULL);
    for (int i = 0; i < SEER_NF; i++) f->sd[i] = 1;
    /* features are standardized with the family's mean and deviation */
    f->mu[0] = 10;
    f->cclf = m;
    t.f[0] = 8;
    CHECK(seer_family_class(f, &t) == SEER_CLASS_COMPUTE);
    t.f[0] = 12;
    CHECK(seer_family_class(f, &t) == SEER_CLASS_UNDER);
    f->sd[0] = -1; /* the same raw value, the other side */
    CHECK(seer_family_class(f, &t) == SEER_CLASS_COMPUTE);
    svm_free_and_destroy_model(&m);
    free(nodes);
    free(y);
    free(x);

    /* a label outside the three classes is no class: all-class fit */
    m = train_sign(SEER_CLASS_DRAM, 7, &nodes, &y, &x);
    REQUIRE(m != NULL);
    f->sd[0] = 1;
    f->mu[0] = 0;
    f->cclf = m;
    t.f[0] = -3;
    CHECK(seer_family_class(f, &t) == SEER_CLASS_DRAM);
    t.f[0] = 3;
    CHECK(seer_family_class(f, &t) == SEER_ALL_CLASSES);
    svm_free_and_destroy_model(&m);
    free(nodes);
    free(y);
    free(x);
    free(f);
}

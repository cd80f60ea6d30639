/* The classify stage (classify.h says which rule serves which caller). */
#include "classify.h"

seer_class_t seer_class_static(double blocks, double bmax, double compute_ms, double memory_ms)
{
    if (blocks < SEER_UNDER_WAVE_SHARE * bmax) return SEER_CLASS_UNDER;
    return compute_ms >= memory_ms ? SEER_CLASS_COMPUTE : SEER_CLASS_DRAM;
}

int seer_family_class(const seer_family_t *f, const seer_terms_t *t)
{
    if (!f->cclf) return SEER_ALL_CLASSES;
    struct svm_node x[SEER_NF + 1];
    seer_family_nodes(f, t->f, SEER_NF_CLASS, x);
    int c = (int)svm_predict(f->cclf, x);
    return c >= 0 && c < 3 ? c : SEER_ALL_CLASSES;
}

seer_class_t seer_class_of_measured(const seer_terms_t *t, double ms)
{
    if (t->main_flops_ms >= SEER_CLASS_SHARE * ms) return SEER_CLASS_COMPUTE;
    if (t->bytes_ms >= SEER_CLASS_SHARE * ms) return SEER_CLASS_DRAM;
    return SEER_CLASS_UNDER;
}

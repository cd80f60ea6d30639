/* The classify stage: which of SEER's three classes a kernel falls in.
 *
 * Three rules, one per situation:
 *  - seer_class_static: a predicted kernel with no trained classifier
 *    (the generic kernel formula, GEMMs, memory-bound network layers);
 *  - seer_family_class: a conv kernel of a trained family (LIBSVM C-SVC
 *    on shape, waves and last-wave fill);
 *  - seer_class_of_measured: a measured time, the label the C-SVC is
 *    trained on (docs/method.md, "Classes"). */
#ifndef SEER_CLASSIFY_H
#define SEER_CLASSIFY_H
#include "seer.h"
#include "model.h"

/* Under half a wave of resident blocks the kernel cannot fill the GPU
 * (under-utilized); otherwise the larger of its compute and memory terms
 * names the bound (ties go to compute). */
#define SEER_UNDER_WAVE_SHARE 0.5
seer_class_t seer_class_static(double blocks, double bmax, double compute_ms, double memory_ms);

/* Class index (0..2) the family's classifier predicts, or
 * SEER_ALL_CLASSES when the family has no classifier. */
int seer_family_class(const seer_family_t *f, const seer_terms_t *t);

/* SEER's class rule applied to a measured time: the share of it that the
 * main kernel's FLOPs at peak, or all kernels' minimum bytes at
 * bandwidth, would explain. */
#define SEER_CLASS_SHARE 0.5
seer_class_t seer_class_of_measured(const seer_terms_t *t, double measured_ms);
#endif

/* Model evaluation and the public prediction calls (model_io.c: files).
 *
 * A conv prediction: kernels of the algorithm (launch.c) -> the variant
 * cuDNN launches (C-SVC) -> its launch, waves and last-wave fill -> the
 * class (C-SVC) -> the per-class analytical formula -> the learned
 * correction (eps-SVR on the log ratio) -> per-kernel times. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "classify.h"
#include "common.h"
#include "gemm.h"
#include "gpu.h"
#include "launch.h"
#include "model.h"

const seer_family_t *seer_model_family(const struct seer_model *m, seer_direction_t dir,
                                       int algo, seer_dtype_t dt)
{
    int math = seer_dtype_math(dt);
    for (int i = 0; i < m->nfam; i++)
        if (m->fam[i].dir == (int)dir && m->fam[i].algo == algo && m->fam[i].math == math)
            return &m->fam[i];
    return NULL;
}

static double lg(double x) { return log(x > 1e-30 ? x : 1e-30); }

/* The algorithm whose kernels cost algo: cuDNN's choice takes algorithm
 * 0's (in backward filter also the Winograd's, physics()). */
static int kernels_of(int algo) { return algo == SEER_ALGO_CUDNN_CHOICE ? 0 : algo; }

static seer_status_t model_shape(seer_err_t *e, const seer_gpu_info_t *g, const struct seer_conv *cv,
                                 seer_direction_t dir, seer_terms_t *t);

seer_status_t seer_model_kernels(seer_err_t *e, const struct seer_model *m,
                                 const struct seer_conv *cv, seer_direction_t dir, int algo,
                                 seer_terms_t *t)
{
    memset(t, 0, sizeof *t);
    seer_status_t st = seer_conv_kernels(e, cv, dir, algo, t->kv, &t->nk);
    if (st) return st;
    return model_shape(e, &m->gpu, cv, dir, t);
}

/* The GPU-dependent part of seer_model_kernels on GPU g: t->kv and t->nk
 * are set. */
static seer_status_t model_shape(seer_err_t *e, const seer_gpu_info_t *g, const struct seer_conv *cv,
                                 seer_direction_t dir, seer_terms_t *t)
{
    double peak = seer_gpu_kernel_peak(g, cv->dtype), bw = seer_gpu_dram_bw(g);
    if (peak <= 0)
        return seer_fail(e, SEER_STATUS_UNSUPPORTED, "%s cannot run %s math", g->id,
                         seer_dtype_name(cv->dtype));
    double bytes = 0;
    for (int i = 0; i < t->nk; i++) bytes += t->kv[i].bytes;
    t->es = seer_dtype_size(cv->dtype);
    t->cv = cv;
    t->dir = (int)dir;
    t->src = g;
    /* at the math's kernel peak (seer_gpu_kernel_peak: FMA math at its
     * issue share), padded channels and all: the FMA fallback
     * (seer_main_flops_ms) bounds only the floor, a switch between the
     * two in the formula made time fall as channels grew (its tiles are
     * rounded, the FLOPs it would divide by are not; TF32 on an RTX 3090,
     * C 4 -> 5: -32 %) */
    t->main_flops_ms = t->kv[0].flops / peak * 1e3;
    t->bytes_ms = bytes / bw * 1e3;
    if (t->no_features) return SEER_STATUS_SUCCESS;
    double *f = t->f;
    f[SEER_F_N] = lg(cv->shape.n); f[SEER_F_C] = lg(cv->shape.c); f[SEER_F_H] = lg(cv->shape.h);
    f[SEER_F_W] = lg(cv->shape.w); f[SEER_F_K] = lg(cv->shape.k);
    f[SEER_F_RS] = lg((double)cv->shape.r * cv->shape.s);
    f[SEER_F_STRIDE] = lg((double)cv->shape.stride_h * cv->shape.stride_w);
    f[SEER_F_GROUPS] = lg(cv->shape.groups);
    f[SEER_F_DIL] = lg((double)cv->shape.dil_h * cv->shape.dil_w);
    f[SEER_F_FLOPS_MS] = lg(t->main_flops_ms);
    f[SEER_F_BYTES_MS] = lg(t->bytes_ms);
    return SEER_STATUS_SUCCESS;
}

/* Features on the scale of the GPU whose data fitted the family, so a
 * transferred family's classifiers see values like those they learned. */
static void family_features(const struct seer_model *m, const seer_family_t *f, seer_terms_t *t)
{
    t->src = &m->src[f->src];
    if (t->no_features || t->src == &m->gpu || seer_gpu_same_facts(t->src, &m->gpu)) return;
    double peak = seer_gpu_kernel_peak(t->src, t->cv->dtype), bw = seer_gpu_dram_bw(t->src);
    if (peak > 0) t->f[SEER_F_FLOPS_MS] = lg(t->kv[0].flops / peak * 1e3);
    t->f[SEER_F_BYTES_MS] = lg(t->bytes_ms * seer_gpu_dram_bw(&m->gpu) / bw);
}

static double cdiv(double a, double b) { return ceil(a / b); }
/* The shortest reduction a split-K block of a wgrad GEMM gets. */
#define SEER_SPLIT_K_MIN 256

static double pow2_at_least(double x) { double p = 1; while (p < x) p *= 2; return p; }

/* Which helper term (input, output, weights side) a helper kernel feeds. */
static int helper_slot(seer_kernel_role_t r)
{
    return r == SEER_ROLE_INPUT_TRANSFORM ? 0 : r == SEER_ROLE_OUTPUT_TRANSFORM ? 1 : 2;
}

/* seer_model_terms on GPU g. */
static void terms_on(const seer_gpu_info_t *g, const seer_variant_t *v, seer_terms_t *t)
{
    const seer_kview_t *k = &t->kv[0];
    const struct seer_conv *cv = t->cv;
    const seer_conv_shape_t *sh = &cv->shape;
    double es = t->es;
    double peak_ms = t->main_flops_ms > 0 ? k->flops / t->main_flops_ms : 1; /* flop per ms */
    double bw_ms = seer_gpu_dram_bw(g) / 1e3;
    double batch = k->gbatch > 0 ? k->gbatch : 1;
    double flop_pb, bytes_pb;
    /* Channels in and out of the direction's main GEMM. */
    double c_out = t->dir == SEER_DIR_BWD_DATA ? sh->c : sh->k;
    double c_in = t->dir == SEER_DIR_BWD_DATA ? sh->k : sh->c;
    double P = t->dir == SEER_DIR_BWD_DATA ? sh->h : cv->p, Q = t->dir == SEER_DIR_BWD_DATA ? sh->w : cv->q;
    int geo = v->geo;
    t->split = 1;
    if (t->dir == SEER_DIR_BWD_FILTER && geo != SEER_GEO_FFT && geo != SEER_GEO_TILED_SPLIT) geo = SEER_GEO_TILED;
    switch (geo) {
    case SEER_GEO_WINO_NF: {
        /* the tile GEMM pads the batch to a multiple of 16 images */
        double m_ = k->gm / sh->n * (ceil(sh->n / 16.0) * 16);
        t->blocks = cdiv(m_, v->tm) * cdiv(k->gn, v->tn) * batch;
        flop_pb = 2.0 * v->tm * v->tn * k->gk;
        bytes_pb = (double)(v->tm + v->tn) * k->gk * es;
        break;
    }
    case SEER_GEO_WINO_148:
    case SEER_GEO_WINO_442: {
        int t148 = geo == SEER_GEO_WINO_148;
        t->blocks = (t148 ? sh->n : cdiv(sh->n, 4)) * cdiv(c_out, 32) * cdiv(Q, 8) * cdiv(P, t148 ? 16 : 4);
        flop_pb = 2.0 * 128 * 32 * 9 * c_in;
        bytes_pb = ((t148 ? 180.0 : 240.0) * c_in + 32.0 * 16 * c_in) * es;
        break;
    }
    case SEER_GEO_FFT:
        t->blocks = cdiv(k->gn, v->tm) * batch;
        flop_pb = 8.0 * v->tm * k->gm * k->gk;
        bytes_pb = (v->tm + k->gm) * k->gk * 8.0;
        break;
    default: { /* SEER_GEO_TILED, SEER_GEO_TILED_SPLIT */
        /* an implicit GEMM's gathered operand comes from DRAM as its
         * tensor, its im2col re-reads from the caches */
        double tiles = cdiv(k->gm, v->tm) * cdiv(k->gn, v->tn) * batch, gk = k->gk;
        t->blocks = tiles;
        if (geo == SEER_GEO_TILED_SPLIT) {
            /* a wgrad GEMM's output (K x C*R*S) is small and its reduction
             * (N*P*Q) long: cuDNN splits the reduction over blocks until
             * they fill the GPU, each at least SEER_SPLIT_K_MIN long.  The
             * split is continuous: a whole number of them (a power of two
             * or not) made a block's reduction shorter as N*P*Q grew by
             * less than a doubling, and time fell by up to 36 %.  cuDNN 6
             * and 7 did not always split (their DeepBench rows fit unsplit
             * better): training chooses, the analytical family splits. */
            double sp = fmin((double)v->bps * g->sms / tiles, gk / SEER_SPLIT_K_MIN);
            if (sp > 1) {
                t->split = sp;
                gk /= sp;
                t->blocks = fmin(tiles * sp, (double)v->bps * g->sms); /* one wave, rounding aside */
            }
        }
        /* a GEMM side shorter than the tile runs a narrower kernel (down to
         * the 32 of the narrowest tiles the data's kernel names show),
         * not the tile's FLOPs and operand rows padded with zeros */
        double tm = fmin(v->tm, fmax(32, pow2_at_least(k->gm))), tn = fmin(v->tn, fmax(32, pow2_at_least(k->gn)));
        flop_pb = 2.0 * tm * tn * gk * (strcmp(k->what, "cgemm") == 0 ? 4 : 1);
        /* the operand rows a block reads are real ones, not the tile's
         * padding: charged per padded tile, the share of a gathered
         * operand fell faster than the blocks grew, and time dropped as
         * H*W grew (4x64x7x7 -> 9x9, r=7, pad 0: 0.031 -> 0.018 ms) */
        double rows = k->gm / cdiv(k->gm, v->tm), cols = k->gn / cdiv(k->gn, v->tn);
        /* (a split's fp32 partial tiles are not charged: their traffic
         * falls as the output grows, and with it the time) */
        bytes_pb = (rows * k->a_real + cols * k->b_real) * gk * es;
        break;
    }
    }
    t->bmax = (long long)v->bps * g->sms;
    t->waves = ceil(t->blocks / (double)t->bmax);
    t->fill = (t->blocks - (t->waves - 1) * (double)t->bmax) / (double)t->bmax;
    double h[3] = {0, 0, 0}; /* helper bytes: input side, output side, weights */
    for (int i = 1; i < t->nk; i++) {
        seer_kernel_role_t r = t->kv[i].role;
        h[helper_slot(r)] += t->kv[i].bytes;
    }
    t->x[SEER_T_COMPUTE] = t->waves * (double)t->bmax * flop_pb / peak_ms;
    /* per-wave cost: fitted on the source GPU, cycles scale with the clock */
    t->x[SEER_T_WAVE] = t->waves * 1e-3 * (t->src->boost_mhz / g->boost_mhz);
    t->x[SEER_T_DRAM] = (t->waves - 1 + t->fill) * (double)t->bmax * bytes_pb / bw_ms;
    t->x[SEER_T_HELP_IN] = h[0] / bw_ms;
    t->x[SEER_T_HELP_OUT] = h[1] / bw_ms;
    t->x[SEER_T_HELP_W] = h[2] / bw_ms;
    /* GPU time: the kernels follow each other with a launch gap; the
     * coefficient of this term is fixed at 1, never fitted. */
    t->x[SEER_T_CONST] = t->nk * seer_gpu_launch_gap_ms(g);
    if (t->no_features) return;
    t->f[SEER_F_WAVES] = lg(t->waves);
    t->f[SEER_F_FILL] = t->fill;
}

void seer_model_terms(const struct seer_model *m, const seer_variant_t *v, seer_terms_t *t)
{
    terms_on(&m->gpu, v, t);
}

void seer_family_nodes(const seer_family_t *f, const double *raw, int nf, struct svm_node *x)
{
    for (int i = 0; i < nf; i++) {
        x[i].index = i + 1;
        x[i].value = (raw[i] - f->mu[i]) / f->sd[i];
    }
    x[nf].index = -1;
}

double seer_family_base(const seer_variant_t *v, const seer_terms_t *t)
{
    const double *c = v->coef[SEER_ALL_CLASSES];
    double s = 0;
    for (int i = 0; i < SEER_NTERMS; i++) s += c[i] * t->x[i];
    return s > 1e-4 ? s : 1e-4; /* nothing on a GPU takes less than a microsecond or so */
}


/* A correction is a correction, and never undoes physics: the time is
 * the physics (monotone in work, never slower on faster hardware: see
 * predict_conv) times exp(r), so across any two convs or GPUs the learned
 * part can move the ratio by at most exp(2 * limit) = 4.9 %, inside the
 * 5 % the physical-sanity properties allow (tests/test_physics.c). */
#define SEER_CORRECTION_LIMIT 0.024 /* log */
double seer_family_correction(const seer_family_t *f, const seer_terms_t *t, double base)
{
    if (!f->svr) return 1.0;
    double raw[SEER_NF];
    memcpy(raw, t->f, sizeof raw);
    raw[SEER_F_LOG_BASE] = lg(base);
    struct svm_node x[SEER_NF + 1];
    seer_family_nodes(f, raw, SEER_NF, x);
    double r = svm_predict(f->svr, x);
    if (r > SEER_CORRECTION_LIMIT) r = SEER_CORRECTION_LIMIT;
    if (r < -SEER_CORRECTION_LIMIT) r = -SEER_CORRECTION_LIMIT;
    return exp(r);
}

seer_status_t seer_classify_measured(seer_handle_t h, const seer_model *m, const seer_conv *desc,
                                     seer_direction_t dir, int algo, double measured_ms,
                                     seer_class_t *cls)
{
    if (!m || !desc || !cls || !desc->set)
        return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_classify_measured: NULL or unset argument");
    if (!(measured_ms > 0) || !isfinite(measured_ms))
        return seer_error(h, SEER_STATUS_BAD_PARAM, "measured_ms must be a positive number");
    if ((unsigned)dir > SEER_DIR_BWD_FILTER)
        return seer_error(h, SEER_STATUS_BAD_PARAM, "direction %d out of range", (int)dir);
    seer_terms_t t;
    seer_err_t e;
    struct seer_conv run = *desc; /* the math cuDNN runs (launch.h) */
    int a = algo == SEER_ALGO_CUDNN_CHOICE ? seer_choice_algo(&m->gpu, desc, dir) : algo; /* as trained */
    /* the math of algo itself: cuDNN's choice runs the requested one, in
     * the Winograd's kernels too (seer_choice_winograd), not algorithm
     * 0's SIMT math */
    run.dtype = seer_conv_run_dtype(&m->gpu, desc->dtype, dir, algo);
    if (seer_model_kernels(&e, m, &run, dir, a, &t))
        return seer_err_report(h, &e);
    *cls = seer_class_of_measured(&t, measured_ms);
    return SEER_STATUS_SUCCESS;
}

/* The variant of a family a measured kernel name denotes (names are
 * stored truncated), or -1. */
static int variant_named(const seer_family_t *f, const char *name)
{
    for (int i = 0; name && *name && i < f->nvar; i++)
        if (!strncmp(f->var[i].name, name, sizeof f->var[i].name - 1)) return i;
    return -1;
}

/* A grouped conv whose groups are narrower than any GEMM tile (ResNeXt's
 * 4-32 channels per group, depthwise convs' one): the dense families'
 * tiles would pad each group's GEMM to a full tile, which cuDNN's grouped
 * and depthwise kernels do not.  Those kernels run on the CUDA cores
 * (conv2d/dgrad2d/wgrad2d_grouped_direct, sm90 depthwise_convolution
 * tiling: FP32 accumulation, no tensor-core GEMM), so their kernels are
 * costed at a roofline of the FP32 rate whatever the dtype: the main
 * kernel's FLOPs at 5 % of it or its minimum bytes at 15 % of the DRAM
 * bandwidth, whichever is larger, plus 8 us of its own; the helpers
 * (im2col, precompute: plain streaming kernels) at 80 % of the bandwidth,
 * plus the launch gaps.  Measured (data/h200-sxm-141gb and
 * data/h100-sxm5-80gb, cuDNN 9.14): the fastest algorithm of a narrow
 * grouped conv ran at 0.08-8 TFLOP/s and 5-2800 GB/s on the H100, about
 * 10 us at the least; the three constants were chosen on the H200's 116
 * such convs (fastest per conv: 77.3 -> 61.6 % MAPE, median
 * predicted/measured 0.15 -> 0.49) and checked on the H100's 63 (72.9 ->
 * 52.8 %, 0.26 -> 0.59); helpers at 15 % too put the explicit GEMMs
 * (GEMM, and bwd_filter ALGO_3 as it was costed then) 4-8x over their
 * measured times;
 * the 60 % of the dtype's peak and 80 % of the bandwidth assumed before
 * any measurement put them 4-7x too fast.  What is left is cuDNN's
 * kernel choice (its grouped_direct fallbacks run 5-50x slower than its
 * depthwise tiling kernels), and the caps physics keeps: never slower
 * than the dense conv (seer_picker_best) nor than the padded one
 * (narrow_at_most_padded), which cuDNN breaks (docs/method.md). */
#define SEER_GROUP_NARROW 32
#define SEER_GROUP_COMPUTE_EFF 0.05
#define SEER_GROUP_MEM_EFF 0.15
#define SEER_GROUP_HELPER_MEM_EFF 0.80
#define SEER_GROUP_KERNEL_MS 0.008
static int narrow_groups(const struct seer_conv *cv)
{
    const seer_conv_shape_t *sh = &cv->shape;
    return sh->groups > 1 &&
           (sh->k / sh->groups < SEER_GROUP_NARROW || sh->c / sh->groups < SEER_GROUP_NARROW);
}

static seer_status_t grouped_conv(seer_err_t *e, const struct seer_model *m, const seer_terms_t *t,
                                  double *time_ms, seer_kernel_pred_t *kernels, int kernels_cap,
                                  int *n_kernels)
{
    /* the datasheet peak, not the issue share's (seer_gpu_kernel_peak):
     * the 5 % was chosen on the Hopper sweeps, so it holds the share
     * already, and 128-lane SMs older than Hopper have no grouped rows */
    double peak = seer_gpu_peak_flops(&m->gpu, SEER_DTYPE_FP32) * SEER_GROUP_COMPUTE_EFF / 1e3; /* per ms */
    double dram = seer_gpu_dram_bw(&m->gpu) / 1e3, gap = seer_gpu_launch_gap_ms(&m->gpu);
    double ms[SEER_MAX_KERNELS], bw[SEER_MAX_KERNELS], total = 0;
    for (int i = 0; i < t->nk; i++) {
        int main = t->kv[i].role == SEER_ROLE_MAIN;
        bw[i] = dram * (main ? SEER_GROUP_MEM_EFF : SEER_GROUP_HELPER_MEM_EFF);
        total += ms[i] = fmax(t->kv[i].flops / peak, t->kv[i].bytes / bw[i]) + gap + (main ? SEER_GROUP_KERNEL_MS : 0);
    }
    seer_status_t st = seer_check_time(e, total, "grouped convolution");
    if (st) return st;
    for (int i = 0; kernels && i < t->nk && i < kernels_cap; i++) {
        const seer_kview_t *kv = &t->kv[i];
        seer_kernel_pred_t *o = &kernels[i];
        memset(o, 0, sizeof *o);
        o->role = kv->role;
        snprintf(o->name, sizeof o->name, "%s (grouped)", kv->what);
        o->flops = kv->flops;
        o->dram_bytes = kv->bytes;
        /* no launch is modelled: one block in one wave, so the record
         * keeps its invariants (bmax >= 1, waves = ceil(blocks / bmax),
         * last_fill in (0, 1]) for callers that divide by them */
        o->grid[0] = o->grid[1] = o->grid[2] = 1;
        o->block[0] = o->block[1] = o->block[2] = 1;
        o->blocks_per_sm = 1;
        o->bmax = 1;
        o->waves = 1;
        o->last_fill = 1;
        o->cls = seer_class_static(1, 0, kv->flops / peak, kv->bytes / bw[i]);
        o->time_ms = ms[i];
        o->source = SEER_SOURCE_ANALYTICAL;
    }
    *time_ms = total;
    if (n_kernels) *n_kernels = t->nk;
    if (kernels && t->nk > kernels_cap)
        return seer_fail(e, SEER_STATUS_BUFFER_TOO_SMALL, "%d kernels, room for %d", t->nk, kernels_cap);
    return SEER_STATUS_SUCCESS;
}

int seer_conv_padded_groups(const struct seer_conv *cv, struct seer_conv *wide)
{
    if (!narrow_groups(cv)) return 0;
    seer_conv_shape_t sh = cv->shape;
    int g = sh.groups;
    if (sh.c / g < SEER_GROUP_NARROW) sh.c = g * SEER_GROUP_NARROW;
    if (sh.k / g < SEER_GROUP_NARROW) sh.k = g * SEER_GROUP_NARROW;
    return !seer_conv_init(NULL, wide, cv->dtype, cv->layout, &sh);
}

/* cuDNN runs no transform algorithm on groups (launch.c,
 * check_supported), so every algorithm of a grouped conv, cuDNN's choice
 * (algorithm 0's kernels) included, is a GEMM (gemm_kernels): a main
 * kernel of the direct conv's FLOPs, unpadded (the tensor-core padding
 * is a dense conv's), and bytes that hold each tensor once: the implicit
 * GEMMs' main kernel reads and writes the three tensors, the explicit
 * GEMM's the im2col matrix, the filter and the output, its im2col
 * kernel the input.  Hence the bound below, for each way a time is
 * made:
 * - wide groups: fmax(exp(c) * physics, floor, grouped floor) +
 *   transposes, the floor that of the algorithm's kernels in the dtype
 *   it runs (physical_floor; cuDNN's choice's is the lowest of them), at
 *   least the FLOPs at the highest peak that dtype can be (the GPU's run
 *   dtype, or FP32 for the SIMT and FP32 kernels, seer_conv_run_dtype)
 *   or the bytes at the bandwidth, plus one launch gap (the grouped
 *   floor, seer_model_grouped_floor, is this bound plus
 *   SEER_GROUP_KERNEL_MS; a bound of the times under the caps too, it
 *   leaves that out);
 * - narrow groups: grouped_conv's main kernel alone, its FLOPs at
 *   SEER_GROUP_COMPUTE_EFF of the FP32 peak, or the bytes at the
 *   helpers' larger SEER_GROUP_HELPER_MEM_EFF (the explicit GEMM's main
 *   and im2col kernels hold them between them), plus a gap and
 *   SEER_GROUP_KERNEL_MS, times a pseudo-half factor of at least 1; or
 *   the padded conv's time (narrow_at_most_padded), wide.
 * The products are taken in another order than the model's, which the
 * 1e-9 covers many times over.  0 for a dense conv or no GPU rates. */
double seer_model_grouped_lower(const struct seer_model *m, const struct seer_conv *cv, seer_direction_t dir)
{
    const seer_gpu_info_t *g = &m->gpu;
    double fp32 = seer_gpu_peak_flops(g, SEER_DTYPE_FP32) / 1e3, bw = seer_gpu_dram_bw(g) / 1e3; /* per ms */
    double f = seer_conv_flops(cv), b = seer_conv_min_bytes(cv, dir), gap = seer_gpu_launch_gap_ms(g);
    if (cv->shape.groups <= 1 || !(fp32 > 0) || !(bw > 0)) return 0;
    if (!narrow_groups(cv)) {
        double peak = fmax(seer_gpu_peak_flops(g, seer_gpu_run_dtype(g, cv->dtype)) / 1e3, fp32);
        return (fmax(f / peak, b / bw) + gap) * (1 - 1e-9);
    }
    double own = (fmax(f / (fp32 * SEER_GROUP_COMPUTE_EFF), b / (bw * SEER_GROUP_HELPER_MEM_EFF)) + gap +
                  SEER_GROUP_KERNEL_MS) * (1 - 1e-9);
    struct seer_conv w;
    return seer_conv_padded_groups(cv, &w) ? fmin(own, seer_model_grouped_lower(m, &w, dir)) : own;
}

/* A narrow grouped conv is never slower than its padded one
 * (seer_conv_padded_groups), which the dense families time: more work,
 * and where the widths reach it, the wide conv itself (its roofline path
 * alone made time drop by up to 16 % as C/g grew past the boundary).
 * Where that is lower it takes its time and scales the kernels to it;
 * the conv stays analytical (the wide conv's source, measured, made the
 * picker rank a 5x slower algorithm first).  The same algorithm's here;
 * seer_picker_best caps the fastest by the padded conv's fastest. */
static void narrow_at_most_padded(const struct seer_model *m, const struct seer_conv *run, seer_direction_t dir,
                                  int algo, const double *known, double *time_ms, seer_kernel_pred_t *kernels, int nk)
{
    struct seer_conv w;
    double tw;
    /* known: the time, from the conv's bounds (seer_model_conv_bounds,
     * which are its time), the padded conv not predicted again; a padded
     * conv's time is at least its bound, so none under it is predicted */
    if (known)
        tw = *known;
    else if (!seer_conv_padded_groups(run, &w) || seer_model_grouped_lower(m, &w, dir) >= *time_ms ||
             seer_model_predict_conv(NULL, m, &w, dir, algo, NULL, NULL, &tw, NULL, 0, NULL, NULL))
        return;
    if (!(tw < *time_ms)) return;
    for (int i = 0; kernels && i < nk; i++) kernels[i].time_ms *= tw / *time_ms;
    *time_ms = tw;
}

/* A narrow grouped conv's time, the one reading of its prediction and of
 * its bounds: its roofline (grouped_conv), the pseudo-half kernels of the
 * SIMT algorithms (seer_conv_legacy_slowdown, all of it the main
 * kernel's), held to its padded conv (narrow_at_most_padded).  t holds
 * the conv's kernels in the dtype it runs; bounds, where not NULL, its
 * bounds. */
static seer_status_t narrow_conv(seer_err_t *e, const struct seer_model *m, const seer_terms_t *t, int algo,
                                 const seer_conv_bounds_t *bounds, double *time_ms, seer_kernel_pred_t *kernels,
                                 int kernels_cap, int *n_kernels)
{
    seer_direction_t dir = (seer_direction_t)t->dir;
    /* into locals: a time out of range (seer_check_time below) writes
     * nothing, as every failing status of seer_predict_conv */
    seer_kernel_pred_t k[SEER_MAX_KERNELS];
    double ms;
    int nk = 0;
    seer_status_t st = grouped_conv(e, m, t, &ms, kernels ? k : NULL, SEER_MAX_KERNELS, &nk);
    if (st) return st;
    double add = ms * (seer_conv_legacy_slowdown(dir, algo, t->cv) - 1);
    ms += add;
    for (int i = 0; kernels && i < nk; i++)
        if (k[i].role == SEER_ROLE_MAIN) k[i].time_ms += add;
    narrow_at_most_padded(m, t->cv, dir, algo, bounds ? &bounds->phys : NULL, &ms, kernels ? k : NULL, nk);
    seer_status_t range = seer_check_time(e, ms, "grouped convolution");
    if (range) return range;
    *time_ms = ms;
    if (n_kernels) *n_kernels = nk;
    if (!kernels) return SEER_STATUS_SUCCESS;
    memcpy(kernels, k, (size_t)(nk < kernels_cap ? nk : kernels_cap) * sizeof *k);
    return nk > kernels_cap ? seer_fail(e, SEER_STATUS_BUFFER_TOO_SMALL, "%d kernels, room for %d", nk, kernels_cap)
                            : SEER_STATUS_SUCCESS;
}

/* A wide grouped conv (SEER_GROUP_NARROW channels or more per group)
 * runs cuDNN's grouped kernels too (32 groups of 64 channels, FP32:
 * conv2d_grouped_direct forward and wgrad2d_grouped_direct backward
 * filter on both Hopper sweeps), so its own kernels take their
 * SEER_GROUP_KERNEL_MS over its roofline at the datasheet rates and one
 * launch gap (seer_model_grouped_lower): the dense families' tiles alone
 * timed the sweeps' small grouped convs in a few microseconds, and a
 * depthwise conv, never slower than its conv in fewer groups
 * (seer_picker_best), took that too (MobileNetV2's at batch 8: predicted
 * at a median 0.45 of their measured time).  Only that fixed cost: the
 * narrow convs' 5 % and 15 % rates put MobileNetV2 training's depthwise
 * convs at twice their kernels' time in whole iterations
 * (docs/method.md).  A constant over a roofline, monotone in the work
 * and ordered by GPU: the properties hold.  The caps that keep them
 * (the dense conv's, the SIMT twin's, seer_predict_conv and the picker)
 * may still go under it. */
double seer_model_grouped_floor(const struct seer_model *m, const struct seer_conv *cv, seer_direction_t dir)
{
    if (cv->shape.groups <= 1 || narrow_groups(cv)) return 0;
    return seer_model_grouped_lower(m, cv, dir) + SEER_GROUP_KERNEL_MS;
}

/* The analytical model, for a (direction, algorithm, math) that no
 * calibrated GPU has data for: a family of one representative variant
 * (a 128x64 tile of 256 threads, up to two blocks per SM) whose
 * coefficients are the mean of the model's three per-class generic kernel
 * formulas, with the helper kernels' bytes at 80 %
 * of the DRAM bandwidth and the launch gaps.  It has no classifiers and
 * no correction.  t holds the conv's kernels (seer_model_kernels). */
#define SEER_ANALYTICAL_MEM_EFFICIENCY 0.8
static void analytical_family(const struct seer_model *m, const seer_terms_t *t, seer_family_t *af)
{
    /* field by field, not a memset: a family has room for eight variants,
     * and this runs for every peer the picker evaluates */
    af->dir = t->dir;
    af->math = seer_dtype_math(t->cv->dtype);
    af->algo = -2; /* never matches a stored family */
    af->nvar = 1;
    af->n_rows = 0;
    af->src = 0;
    af->vclf = af->cclf = af->svr = NULL;
    for (int i = 0; i < SEER_NF; i++) {
        af->mu[i] = 0;
        af->sd[i] = 1;
    }
    seer_variant_t *v = &af->var[0];
    memset(v, 0, sizeof *v);
    seer_strlcpy(v->name, "analytical", sizeof v->name);
    v->tm = 128;
    v->tn = 64;
    v->threads = 256;
    /* cuDNN's fused Winograd kernels block as the recorded tile148t ones */
    v->geo = !strcmp(t->kv[0].what, "winograd") ? SEER_GEO_WINO_148
             : t->dir == SEER_DIR_BWD_FILTER    ? SEER_GEO_TILED_SPLIT
                                                : SEER_GEO_TILED;
    int fit = m->gpu.threads_per_sm / v->threads;
    v->bps = fit < 2 ? (fit < 1 ? 1 : fit) : 2;
    seer_terms_t tt = *t;
    tt.src = &m->gpu;
    seer_model_terms(m, v, &tt);
    int cls = (int)seer_class_static(tt.blocks, (double)tt.bmax, m->kcoef[SEER_CLASS_COMPUTE][SEER_T_COMPUTE] * tt.x[SEER_T_COMPUTE],
                                     m->kcoef[SEER_CLASS_DRAM][SEER_T_DRAM] * tt.x[SEER_T_DRAM]);
    af->major_cls = cls;
    double *c = v->coef[SEER_ALL_CLASSES];
    /* the mean of the three classes' formulas, not the static class's: a
     * class switching coefficients as a shape grew made time drop */
    for (int i = 0; i < SEER_NTERMS; i++) c[i] = (m->kcoef[0][i] + m->kcoef[1][i] + m->kcoef[2][i]) / 3;
    c[SEER_T_HELP_IN] = c[SEER_T_HELP_OUT] = c[SEER_T_HELP_W] = 1 / SEER_ANALYTICAL_MEM_EFFICIENCY;
    c[SEER_T_CONST] = 1;
    v->has[SEER_ALL_CLASSES] = 1;
}

/* Helpers are elementwise: one thread per 4 elements of 4 bytes of what
 * they move, 256 per block; DRAM-bound.  At least one block per SM, so
 * the record keeps its invariants (bmax >= 1, finite waves, last_fill in
 * (0, 1]) on a described GPU with under 256 threads per SM. */
static void elementwise_launch(const struct seer_model *m, double bytes, seer_kernel_pred_t *o)
{
    double blocks = ceil(bytes / 4 / 4 / 256);
    o->grid[0] = (int)fmin(fmax(blocks, 1), 2147483647.0);
    o->grid[1] = o->grid[2] = 1;
    o->block[0] = 256;
    o->blocks_per_sm = m->gpu.threads_per_sm >= 256 ? m->gpu.threads_per_sm / 256 : 1;
    o->bmax = (long long)o->blocks_per_sm * m->gpu.sms;
    o->waves = ceil(o->grid[0] / (double)o->bmax);
    o->last_fill = (o->grid[0] - (o->waves - 1) * (double)o->bmax) / (double)o->bmax;
    o->cls = SEER_CLASS_DRAM;
}

/* Split a conv's predicted total over its kernels as the formula does:
 * helpers get the helper term in proportion to their bytes, the main
 * kernel the rest (its compute/wave/DRAM terms and the per-call
 * constant).  corr is the factor the learned correction (and the mean
 * over sources) applied to the formula.  A helper takes at least its
 * bytes at the DRAM bandwidth, from the main kernel's share, where that
 * leaves the main kernel its FLOPs at peak: a family fitted with its
 * helper term at 0 showed an im2col of 257 MB at 0 ms (the total is
 * the same either way). */
static void kernel_breakdown(const struct seer_model *m, const seer_family_t *f, const seer_variant_t *v,
                             int cls, const seer_terms_t *t, double time_ms, double corr,
                             seer_source_t source, seer_kernel_pred_t *kernels, int kernels_cap)
{
    const double *c = v->coef[SEER_ALL_CLASSES]; /* cls only labels the kernel */
    double hms[3] = {c[SEER_T_HELP_IN] * t->x[SEER_T_HELP_IN], c[SEER_T_HELP_OUT] * t->x[SEER_T_HELP_OUT],
                     c[SEER_T_HELP_W] * t->x[SEER_T_HELP_W]}, hb[3] = {0, 0, 0};
    double helper_ms = hms[0] + hms[1] + hms[2], fit_at[SEER_MAX_KERNELS] = {0}, hms_at[SEER_MAX_KERNELS] = {0};
    double lift = 0;
    for (int i = 1; i < t->nk; i++) hb[helper_slot(t->kv[i].role)] += t->kv[i].bytes;
    for (int i = 1; i < t->nk; i++) { /* the formula's split, and at least the bytes at bandwidth */
        int sl = helper_slot(t->kv[i].role);
        double share = hb[sl] > 0 ? t->kv[i].bytes / hb[sl] : 0;
        fit_at[i] = hms[sl] * corr * share;
        hms_at[i] = fmax(fit_at[i], t->x[SEER_T_HELP_IN + sl] * share);
        lift += hms_at[i] - fit_at[i];
    }
    if (time_ms - helper_ms * corr - lift < seer_main_flops_ms(&m->gpu, t->cv->dtype, &t->kv[0])) {
        memcpy(hms_at, fit_at, sizeof hms_at); /* no room: the formula's split */
        lift = 0;
    }
    for (int i = 0; i < t->nk && i < kernels_cap; i++) {
        seer_kernel_pred_t *o = &kernels[i];
        const seer_kview_t *kv = &t->kv[i];
        memset(o, 0, sizeof *o);
        o->role = kv->role;
        o->flops = kv->flops;
        o->dram_bytes = kv->bytes;
        if (i == 0) {
            seer_strlcpy(o->name, v->name, sizeof o->name);
            o->grid[0] = (int)fmin(ceil(kv->gm / v->tm), 2147483647.0);
            o->grid[1] = (int)fmin(ceil(kv->gn / v->tn), 65535.0);
            o->grid[2] = (int)fmin((kv->gbatch > 0 ? kv->gbatch : 1) * ceil(t->split), 65535.0);
            o->block[0] = v->threads;
            o->blocks_per_sm = v->bps;
            o->bmax = t->bmax;
            o->waves = t->waves;
            o->last_fill = t->fill;
            o->cls = (seer_class_t)(cls < 3 ? cls : f->major_cls);
            o->time_ms = time_ms - helper_ms * corr - lift;
        } else {
            seer_strlcpy(o->name, kv->what, sizeof o->name);
            elementwise_launch(m, kv->bytes, o);
            o->time_ms = hms_at[i];
        }
        o->block[1] = o->block[2] = 1;
        o->source = source;
    }
}

/* No kernel beats the datasheet: a prediction never goes below the
 * roofline floor of the algorithm's kernels (t, from seer_model_kernels),
 * which a learned correction or a family fitted on few rows could
 * otherwise undercut; for cuDNN's choice, the lowest floor of the
 * algorithms it may choose. */
enum { KC_ALGOS = SEER_FWD_ALGO_COUNT, KC_DTYPES = SEER_DTYPE_FP16_PSEUDO + 1 };
_Static_assert((int)SEER_BWD_DATA_ALGO_COUNT <= (int)KC_ALGOS && (int)SEER_BWD_FILTER_ALGO_COUNT <= (int)KC_ALGOS,
               "the forward direction has the most algorithms");
typedef struct {
    unsigned char state[KC_ALGOS][KC_DTYPES]; /* 0: not built yet, 1: built, 2: cannot run */
    seer_kwork_t w[KC_ALGOS][KC_DTYPES];
    /* cuDNN's choice's floor on each GPU asked so far: the tie asks a
     * peer's before its physics, which asks again */
    int nfloor;
    const seer_gpu_info_t *floor_gpu[SEER_MAX_PEERS + 1];
    double floor[SEER_MAX_PEERS + 1];
} seer_kcache_t;

static void kcache_init(seer_kcache_t *kc)
{
    memset(kc->state, 0, sizeof kc->state);
    kc->nfloor = 0;
}

/* The work of an algorithm of cv run in dtype dt: cuDNN's choice's floor
 * is the lowest of every algorithm's, on this GPU and on each peer,
 * whose kernels differ only by the dtype the GPU runs them in, so they
 * are built and summed once per prediction. */
static void build_work(seer_kcache_t *kc, const struct seer_conv *cv, seer_direction_t dir, int algo,
                       seer_dtype_t dt)
{
    struct seer_conv run = *cv;
    seer_kview_t kv[SEER_MAX_KERNELS];
    int nk;
    run.dtype = dt;
    kc->state[algo][dt] = seer_conv_kernels(NULL, &run, dir, algo, kv, &nk) ? 2 : 1;
    if (kc->state[algo][dt] == 1) seer_kernels_work(kv, nk, &kc->w[algo][dt]);
}

/* (the lookup apart from the building: the floor of every GPU of a tie
 * asks it for every algorithm) */
static inline const seer_kwork_t *cached_work(seer_kcache_t *kc, const struct seer_conv *cv, seer_direction_t dir,
                                              int algo, seer_dtype_t dt)
{
    if (!kc->state[algo][dt]) build_work(kc, cv, dir, algo, dt);
    return kc->state[algo][dt] == 1 ? &kc->w[algo][dt] : NULL;
}

/* cuDNN's choice's floor on m's GPU: the lowest of every algorithm's
 * (seer_conv_floor_ms), from their work cached in kc. */
static double choice_floor(const struct seer_model *m, const struct seer_conv *cv, seer_direction_t dir,
                           seer_kcache_t *kc)
{
    const seer_gpu_info_t *g = &m->gpu;
    for (int i = kc->nfloor - 1; i >= 0; i--) /* the last asked first: the tie asks again at once */
        if (kc->floor_gpu[i] == g) return kc->floor[i];
    double fma = seer_gpu_peak_flops(g, SEER_DTYPE_FP32), bw = seer_gpu_dram_bw(g), gap = seer_gpu_launch_gap_ms(g);
    double lo = INFINITY;
    for (int a = 0, n = seer_algo_count(dir); a < n; a++) {
        /* each algorithm in its own math (seer_conv_run_dtype): TF32's
         * transform algorithms and every dtype's plain implicit and
         * explicit GEMMs run SIMT */
        seer_dtype_t dt = seer_conv_run_dtype(g, cv->dtype, dir, a);
        double p = seer_gpu_peak_flops(g, dt);
        const seer_kwork_t *w;
        if (p <= 0 || !(w = cached_work(kc, cv, dir, a, dt))) continue;
        double f = seer_work_floor_at(p, fma, bw, gap, w);
        if (f > 0 && f < lo) lo = f;
    }
    lo = isfinite(lo) ? lo : 0;
    if (kc->nfloor < SEER_MAX_PEERS + 1) {
        kc->floor_gpu[kc->nfloor] = g;
        kc->floor[kc->nfloor++] = lo;
    }
    return lo;
}

static double physical_floor(const struct seer_model *m, const seer_terms_t *t, seer_direction_t dir,
                             int algo, seer_kcache_t *kc)
{
    return algo == SEER_ALGO_CUDNN_CHOICE ? choice_floor(m, t->cv, dir, kc)
                                          : seer_kernels_floor_ms(&m->gpu, t->cv->dtype, t->kv, t->nk);
}

int seer_scale_class(seer_dtype_t run)
{
    return run == SEER_DTYPE_TF32 ? SEER_SCALE_TF32 : seer_dtype_math(run) ? SEER_SCALE_HALF : SEER_SCALE_SIMT;
}

const seer_conv_scale_t *seer_model_scale(const struct seer_model *m, int dir, int algo, int cls)
{
    for (int i = 0; i < m->nscale; i++)
        if (m->scale[i].dir == dir && m->scale[i].algo == algo && m->scale[i].cls == cls) return &m->scale[i];
    return NULL;
}

/* Whether a stored family (NULL: none, the analytical one) is measured:
 * fitted on SEER_OWN_FAMILY_ROWS or more rows of this GPU's own (or of one
 * with its facts).  One rule for physics() and the peers' shortcut. */
static int family_measured(const struct seer_model *m, const seer_family_t *f)
{
    return f && f->n_rows >= SEER_OWN_FAMILY_ROWS && seer_gpu_same_facts(&m->src[f->src], &m->gpu);
}

/* Whether m's physics of (dir, algo) in dt's math is this GPU's: its
 * family fitted on enough of its own rows, or whatever serves the key
 * scaled to enough of them (seer_conv_scale_t). */
static int key_measured(const struct seer_model *m, const seer_family_t *f, seer_direction_t dir, int algo,
                        seer_dtype_t dt)
{
    const seer_conv_scale_t *s = seer_model_scale(m, (int)dir, algo, seer_scale_class(dt));
    return family_measured(m, f) || (s && s->n_rows >= SEER_OWN_FAMILY_ROWS);
}

/* The physics of a conv on one GPU's model, for one algorithm: for each
 * source family, the fastest of its variants (cuDNN's heuristics aim at
 * the fastest tile; a variant classifier switching tiles made time drop
 * as work grew) under its all-class formula (a class classifier switching
 * coefficients did the same), the geometric mean over sources, never
 * under the roofline floor.  Every term of the formula is a non-negative
 * coefficient times work that grows with N, C, K and H*W, so this is
 * monotone in the work by construction.  With corr, also the mean learned
 * log correction of the sources (clamped, seer_family_correction); with a
 * variant name, that variant instead of the fastest (seer eval
 * --given-launch).  af is room for the analytical family. */
typedef struct {
    seer_terms_t t;             /* the first source's: the per-kernel breakdown */
    const seer_family_t *f;
    const seer_variant_t *v;
    double base, floor, phys, logcorr;
    int matched;
    int measured;               /* from SEER_OWN_FAMILY_ROWS of this GPU's (or one with its
                                 * facts): it lifts the slower GPUs whose family is not */
    int borrowed;               /* f is another algorithm's (borrowed_family) */
    int kalgo;                  /* the algorithm whose kernels t are (physics) */
} seer_physics_t;

/* An implicit GEMM algorithm (0 and 1 of every direction: IMPLICIT_GEMM
 * and IMPLICIT_PRECOMP_GEMM, ALGO_0 and ALGO_1, and backward filter's
 * ALGO_3, which runs ALGO_0's kernels: launch.c) that no GPU has data for
 * borrows the family of its sibling (ALGO_3: ALGO_0's, then ALGO_1's),
 * else of cuDNN's choice in that direction and math, before the
 * analytical one: the same kind of kernels, measured.  On the V100
 * SXM2's DeepBench backward rows, named ALGO_1, the analytical family
 * scored 34-55 % MAPE, cuDNN's choice's 18-26 %.  NULL when neither has
 * data. */
static const seer_family_t *borrowed_family(const struct seer_model *m, seer_direction_t dir, int algo,
                                            seer_dtype_t dt)
{
    const seer_family_t *f = NULL;
    if (dir == SEER_DIR_BWD_FILTER && algo == SEER_BWD_FILTER_ALGO_3) {
        f = seer_model_family(m, dir, SEER_BWD_FILTER_ALGO_0, dt);
        algo = SEER_BWD_FILTER_ALGO_0;
    } else if (algo != 0 && algo != 1) {
        return NULL;
    }
    if (!f) f = seer_model_family(m, dir, 1 - algo, dt);
    if (!f) f = seer_model_family(m, dir, SEER_ALGO_CUDNN_CHOICE, dt);
    /* only tiled GEMM variants: cuDNN's choice may have been a Winograd
     * or FFT kernel, whose geometry is no implicit GEMM's */
    for (int i = 0; f && i < f->nvar; i++)
        if (f->var[i].geo != SEER_GEO_TILED && f->var[i].geo != SEER_GEO_TILED_SPLIT) return NULL;
    return f;
}

/* cuDNN's SIMT algorithms (seer_algo_simt) on 2-byte data with FP32
 * math (FP16_PSEUDO: FP16 or BF16 data without tensor-core kernels, what
 * they run for a tensor-core request, seer_conv_run_dtype) run their own
 * pseudo-half kernels (implicit_convolve_sgemm<__half>, dgrad_engine,
 * wgrad_alg0_engine, wgrad_alg1_engine), which are slower than their FP32
 * twins on half the bytes, not faster.  Measured with cuDNN 9.14, the
 * median predicted/measured time of such calls (DEFAULT math, dense)
 * over that of the same algorithm's FP32 calls (FMA math): forward
 * IMPLICIT_GEMM 1.58 (H200) and 1.97 (H100), GEMM 1.13 and 1.16,
 * bwd_data ALGO_0 2.34 and 2.26, bwd_filter ALGO_0 4.81 and 4.82
 * (data/GPU/bench/layers.csv); the factors are their geometric means.
 * ALGO_3, costed as ALGO_0 (launch.c), takes ALGO_0's 4.8 times its
 * measured time over ALGO_0's in the same pseudo-half calls, 1.08 (H100)
 * and 1.10 (H200; 1.00 in FP32): its pseudo-half kernel is ALGO_1's
 * wgrad_alg1_engine.  (Read off ALGO_3's own rows the way the others
 * were, 5.91 and 6.03, it scored its rows 2.7 points worse.)  Without
 * them a pseudo-half ALGO_0 was
 * predicted as fast as the tensor-core ALGO_1 and picked for a third of
 * the H100's FP16/BF16 backward-data convs, 10-30x slower than ALGO_1.
 * And bwd_data ALGO_0 has its dgrad_engine for NCHW only: on NHWC data,
 * whatever the dtype, it runs cudnn::cnn::dgrad2d_grouped_direct_kernel
 * (all 125 dense NHWC calls of both sweeps), whose predicted/measured
 * time was 8x lower than the NCHW engine's in FP32 (0.051 against 0.397
 * on the H100, 0.050 against 0.412 on the H200) and 3.5-3.7x lower in
 * FP16/BF16 on top of the pseudo-half factor: 8 for any dtype.  Every
 * GPU takes these (the same generic kernels); 1 for everything else.
 * A narrow grouped conv (grouped_conv) takes the pseudo-half factor,
 * not the 8: its roofline was fitted to cuDNN's grouped kernels, the
 * direct ones among them; with the 8 too its NHWC ALGO_0 rows were
 * predicted up to 5x over (a grouped FP32 NHWC backward filter ALGO_0
 * takes its own 2.5, below).  The factor was measured on whole calls and scales the
 * whole time; in the per-kernel breakdown the main kernel carries all of
 * the added time and the helpers keep theirs (kernel_breakdown, and the
 * narrow path in seer_model_predict_conv). */
double seer_conv_legacy_slowdown(seer_direction_t dir, int algo, const struct seer_conv *run)
{
    if (dir == SEER_DIR_BWD_DATA && algo == SEER_BWD_DATA_ALGO_0 && run->layout == SEER_LAYOUT_NHWC &&
        !narrow_groups(run))
        return 8;
    /* A grouped NHWC conv's backward filter ALGO_0 in FP32 (TF32 runs it
     * in FP32 too) runs cuDNN's wgrad2d_grouped_direct fallback:
     * over ALGO_1 of the same call (FMA math), median 2.46 on the H200
     * (cuDNN 9.14, 5 convs, 1.0-34x), checked on the H100 (2.65 and 2.26,
     * 2 convs) and on the H200 under cuDNN 9.19 (2.46 and 2.29).  Costed
     * alike, the narrow path's fewer helper kernels made ALGO_0 the
     * fastest predicted, up to 34x slower than ALGO_1.  Those convs were
     * all narrow; wide groups take it too, as narrow convs are held to
     * their padded, wide conv (narrow_at_most_padded), which undid it
     * (H200, 5x224x101x101 -> 576, 32 groups: ALGO_0 1.11 ms against
     * ALGO_1's 1.12), and the one wide grouped NHWC conv measured (FP16,
     * 16 groups of 47) ran its backward ALGO_0 31x and 138x slower than
     * ALGO_1.  (The one wide FP32 one, NCHW, ran both on
     * wgrad2d_grouped_direct at equal times.)
     * (Forward and backward data ran as fast as algorithm 1 in FP32 and
     * TF32, median 1.00; TF32's backward filter 0.74 and 1.6 against a
     * tensor-core ALGO_1 on two convs; FP16's ratios mix in the
     * pseudo-half factors below: 2.9 on every grouped NHWC ALGO_0 put the
     * sweeps' every-call rows from 37.1 to 38.9 % MAPE on the H100.) */
    if (dir == SEER_DIR_BWD_FILTER && algo == SEER_BWD_FILTER_ALGO_0 && run->dtype == SEER_DTYPE_FP32 &&
        run->layout == SEER_LAYOUT_NHWC && run->shape.groups > 1)
        return 2.5;
    if (run->dtype != SEER_DTYPE_FP16_PSEUDO || !seer_algo_simt(dir, algo)) return 1;
    if (dir == SEER_DIR_FWD) return algo == SEER_FWD_ALGO_GEMM ? 1.15 : 1.75;
    if (dir == SEER_DIR_BWD_DATA) return 2.3;
    return algo == SEER_BWD_FILTER_ALGO_3 ? 5.2 : 4.8;
}

/* The analytical family's scale for (dir, algo) and desc's math. */
static double analytical_scale(const struct seer_model *m, seer_direction_t dir, int algo, seer_dtype_t dt)
{
    int kind = seer_algo_kind(dir, algo);
    if (kind < 0 || kind >= SEER_K_NONE) return 1;
    /* tensor-core math only from a tensor-core family: the FP32 scale
     * there took the left-out V100 SXM2's FP16 rows from 39 to 46 %
     * (FP16 transform algorithms alone, which run FMA kernels: bwd_filter
     * FP16 42 -> 44 %) */
    double s = m->ascale[seer_dtype_math(dt)][kind];
    return s > 0 ? s : 1;
}

/* A 1x1 conv of stride 1 without padding (or groups) is a GEMM: forward
 * X[N*H*W x C] by W[C x K], backward data its transpose, and cuDNN's
 * implicit GEMM kernels for it are GEMM kernels.  Its forward and
 * backward-data time is bounded by SEER_CONV_GEMM_BOUND times the GPU's
 * GEMM model for the same product: no 1x1 row of the data took more
 * (V100 SXM2 and GTX 1080 Ti, forward and backward data, FP32 and FP16:
 * measured / GEMM model 0.66-1.93).  A strided or padded 1x1 conv does
 * at most the work of the stride-1 one over its padded input, whose
 * bound it takes: bounding only stride 1 made stride 2 up to 6x slower
 * than stride 1 on the same input.  It binds where a conv family is far
 * outside its rows: the V100 SXM2's tensor-core family, which every GPU's
 * FP16 convs come from, put a 1x1 conv of 8192 channels on an H100 at
 * 243 TFLOP/s, where seer-bench's cuBLAS ran that product at 740.
 * Backward filter is left alone: its 1x1 rows took up to 2.6x their GEMM
 * (a long reduction cuDNN splits less well).  The GEMM
 * is this model's own, untied: the conv physics is tied across GPUs
 * after (tied_physics), and tying each peer's GEMM to its own peers made
 * a ResNet-50 prediction 3x slower.  0 when the conv is no such GEMM or
 * the model has no GEMM fit. */
#define SEER_CONV_GEMM_BOUND 2.0
static double gemm_bound(const struct seer_model *m, const struct seer_conv *cv, seer_direction_t dir, int algo)
{
    const seer_conv_shape_t *q = &cv->shape;
    if (q->r != 1 || q->s != 1 || q->groups != 1 || dir == SEER_DIR_BWD_FILTER ||
        (algo != 0 && algo != 1 && algo != SEER_ALGO_CUDNN_CHOICE))
        return 0;
    double rows = (double)q->n * (q->h + 2.0 * q->pad_h) * (q->w + 2.0 * q->pad_w);
    double t = dir == SEER_DIR_FWD ? seer_model_gemm_own_time(m, 1, rows, q->k, q->c, cv->dtype, 0)
                                   : seer_model_gemm_own_time(m, 1, rows, q->c, q->k, cv->dtype, 0);
    return t > 0 ? SEER_CONV_GEMM_BOUND * t : 0;
}

/* The weight of the peak-share reading of a family transferred from
 * another GPU (read_both).  FMA math, 0.25: leaving one GPU out, 0 / 0.25
 * / 0.5 scored A100 17.3 / 16.2 / 16.5 %, V100 PCIe 17.5 / 18.1 / 18.7 %,
 * T4 15.9 / 16.3 / 18.1 %, V100 SXM2 39.1 / 38.8 / 39.2 %, GTX 1080 Ti
 * 28.0 / 26.1 / 25.5 % (docs/method.md, "Transferred families, read two
 * ways").  Tensor-core math, 0.5: its families (the V100 SXM2's FP16)
 * read by the formula alone move with DRAM bandwidth far more than
 * cuDNN's Hopper kernels do (the H200 has 1.43x the H100's bandwidth and
 * the same SMs and clocks; over the 417 tensor-core CNN layers of both
 * sweeps, median H200/H100 time measured 0.974, transferred 0.923), and
 * the Hopper sweeps' CNN layers served as an unseen architecture (no
 * Hopper model) scored 26.8 -> 23.4 % (H100) and 28.3 -> 25.9 % (H200) at
 * 0.25 -> 0.5, 23.3 and 25.6 % at 0.75; the NeuSight and DeepBench GPUs
 * left out, whose tensor-core rows are the V100 SXM2's own, do not move.
 * A tensor-core kernel's operand re-reads are served by shared memory and
 * L2 more than an FMA kernel's, as for GEMMs (gemm.c). */
#define SEER_CONV_PEAK_SHARE_WEIGHT 0.25
#define SEER_CONV_TC_PEAK_SHARE_WEIGHT 0.5

/* Family g read on the GPU its rows came from (family_time): that GPU,
 * the conv in the dtype the rows ran (a tensor-core family's are FP16),
 * its kernels and shape terms there, and the two GPUs' math peaks.  ok =
 * 0: not read so (a family of m's own facts or a sibling's, same chip and
 * clock, keeps its formula, as GEMMs do; or a GPU that cannot run the
 * math). */
typedef struct {
    int ok;
    const seer_gpu_info_t *sg;
    struct seer_conv ds;        /* ts points to it */
    seer_terms_t ts;
    double ps, pt;
    double w;                   /* the weight of the peak-share reading */
} source_read_t;

static void source_read(const struct seer_model *m, const struct seer_conv *desc, seer_direction_t dir, int kalgo,
                        const seer_family_t *g, source_read_t *r)
{
    const seer_gpu_info_t *sg = r->sg = &m->src[g->src];
    r->ok = 0;
    if (seer_gpu_same_facts(sg, &m->gpu) || seer_gpu_siblings(sg, &m->gpu)) return;
    r->ds = *desc;
    r->ds.dtype = seer_gpu_run_dtype(sg, desc->dtype);
    if (g->math && (r->ds.dtype != desc->dtype || seer_gpu_peak_flops(sg, r->ds.dtype) <= 0))
        r->ds.dtype = SEER_DTYPE_FP16;
    r->w = g->math ? SEER_CONV_TC_PEAK_SHARE_WEIGHT : SEER_CONV_PEAK_SHARE_WEIGHT;
    r->ps = seer_gpu_kernel_peak(sg, r->ds.dtype);
    r->pt = seer_gpu_kernel_peak(&m->gpu, desc->dtype);
    seer_err_t e;
    memset(&r->ts, 0, sizeof r->ts);
    if (!(r->ps > 0 && r->pt > 0) ||
        seer_conv_kernels(&e, &r->ds, dir, kalgo, r->ts.kv, &r->ts.nk) ||
        model_shape(&e, sg, &r->ds, dir, &r->ts))
        return;
    r->ts.no_features = 1;
    r->ok = 1;
}

/* Variant v, whose formula gives fg on m's GPU (terms tg), read the other
 * way too: its time on its rows' GPU (r) above the launch gaps at that
 * GPU's share of its math peak.  The fits cannot tell which term carries
 * a family's FLOP-proportional time (the DeepBench backward families'
 * compute coefficients are 0.01-0.24), so on a GPU with many more FLOPs
 * per DRAM byte than the source the formula alone barely sped the
 * backward passes up (ResNet-50 FP32 training on an L4: 199 ms backward
 * against 39 ms forward).  The weighted geometric mean of the two, as
 * GEMMs take (gemm.c, fit_time), grows with the work as both do. */
static double read_both(source_read_t *r, const struct seer_model *m, const seer_variant_t *v,
                        const seer_terms_t *tg, double fg)
{
    if (!r->ok) return fg;
    terms_on(r->sg, v, &r->ts); /* only the variant's terms change */
    double gs = r->ts.nk * seer_gpu_launch_gap_ms(r->sg), gt = tg->nk * seer_gpu_launch_gap_ms(&m->gpu);
    double share = fmax(seer_family_base(v, &r->ts) - gs, 1e-6) * r->ps / r->pt + gt;
    return exp((1 - r->w) * log(fg) + r->w * log(share));
}

/* Family g's time on m's GPU read both ways (read_both; both = 0: its
 * formula), of its named variant *vi, else of the fastest: the least over
 * the variants of each read both ways, so that it stays monotone when
 * the fastest variant changes.  *fg gets that variant's formula, tg its
 * terms; kalgo names the algorithm whose kernels tg holds. */
static double family_time(const struct seer_model *m, const struct seer_conv *desc, seer_direction_t dir, int kalgo,
                          const seer_family_t *g, int both, seer_terms_t *tg, int *vi, double *fg)
{
    source_read_t r;
    r.ok = 0;
    if (both) source_read(m, desc, dir, kalgo, g, &r);
    double best = INFINITY;
    int lo = *vi >= 0 ? *vi : 0, hi = *vi >= 0 ? *vi + 1 : g->nvar, bi = lo;
    for (int i = lo; i < hi; i++) {
        seer_model_terms(m, &g->var[i], tg); /* only the variant's terms change */
        double f = seer_family_base(&g->var[i], tg), t = read_both(&r, m, &g->var[i], tg, f);
        if (t < best) {
            best = t;
            bi = i;
            *fg = f;
        }
    }
    if (bi != hi - 1) seer_model_terms(m, &g->var[bi], tg);
    *vi = bi;
    return best;
}

double seer_family_fastest(const struct seer_model *m, const seer_family_t *f, seer_terms_t *t, int *vi)
{
    double fg;
    *vi = -1;
    return family_time(m, t->cv, (seer_direction_t)t->dir, 0, f, 0, t, vi, &fg);
}

/* The physics of (dir, algo) on m: its family's, else a borrowed one's,
 * else the analytical family's times its scale; then, unless the family
 * is its own, times the GPU's conv scale of the key (seer_conv_scale_t).  how: 0, or PHYS_RAW (the
 * analytical family's, unscaled, whatever m has) and PHYS_UNSCALED
 * (without the conv scales: the ratios between families that the
 * analytical and efficiency scales are, which a key's own scale then
 * multiplies, must not hold another key's). */
#define PHYS_RAW 1
#define PHYS_UNSCALED 2
static seer_status_t physics_at(seer_err_t *err, const struct seer_model *m, const struct seer_conv *desc,
                                seer_direction_t dir, int algo, int kalgo, const seer_terms_t *k, const char *variant,
                                int corr, seer_kcache_t *kc, seer_family_t *af, int how, seer_physics_t *e)
{
    int raw = how & PHYS_RAW;
    /* a GEMM-only model (seer_train with GEMM files alone) times no conv
     * by itself: from a models directory the convs are transferred */
    if (!m->nfam)
        return seer_fail(err, SEER_STATUS_NOT_CALIBRATED,
                         "model %s has GEMM data only: open it from a models directory, where its "
                         "convolutions are transferred from the other models", m->gpu_id);
    seer_terms_t shape;
    memset(&shape, 0, sizeof shape);
    memcpy(shape.kv, k->kv, sizeof shape.kv[0] * (size_t)k->nk);
    shape.nk = k->nk;
    shape.no_features = !corr; /* no classifier or correction will look */
    seer_status_t st = model_shape(err, &m->gpu, desc, dir, &shape);
    if (st) return st;
    const seer_family_t *f = raw ? NULL : seer_model_family(m, dir, algo, desc->dtype), *end = m->fam + m->nfam;
    if (!f && algo == SEER_ALGO_CUDNN_CHOICE)
        return seer_fail(err, SEER_STATUS_NOT_CALIBRATED,
                         "model %s has no data for %s (cuDNN's choice) with %s math", m->gpu_id,
                         seer_direction_name(dir), seer_dtype_math(desc->dtype) ? "tensor-core" : "fp32");
    e->borrowed = !raw && !f && (f = borrowed_family(m, dir, algo, desc->dtype)) != NULL;
    double scale = 1;
    if (!f) {
        analytical_family(m, &shape, af);
        f = af;
        end = f + 1;
        if (!raw) scale = analytical_scale(m, dir, algo, desc->dtype);
    }
    /* what the model takes from others, or the analytical family,
     * scaled to the GPU's rows (seer_conv_scale_t) */
    const seer_conv_scale_t *ks = how || (f != af && !e->borrowed && seer_gpu_same_facts(&m->src[f->src], &m->gpu))
                                      ? NULL : seer_model_scale(m, (int)dir, algo, seer_scale_class(desc->dtype));
    if (ks) scale *= ks->scale;
    /* A transferred model can hold the family of several source GPUs:
     * the prediction is the geometric mean of theirs (docs/transfer.md). */
    int nsrc = 0;
    double logsum = 0, lcsum = 0;
    e->f = f;
    e->matched = 0;
    for (const seer_family_t *g = f; g < end; g++) {
        if (g->dir != f->dir || g->algo != f->algo || g->math != f->math) continue;
        seer_terms_t tg = shape;
        family_features(m, g, &tg);
        int vi = variant_named(g, variant);
        e->matched |= vi >= 0;
        double fg = 0, bg = family_time(m, desc, dir, kalgo, g, f != af, &tg, &vi, &fg);
        logsum += log(bg);
        /* the correction learned on the formula's time, which the kernel
         * breakdown splits too */
        if (corr) lcsum += log(seer_family_correction(g, &tg, fg));
        if (nsrc++ == 0) { e->t = tg; e->v = &g->var[vi]; e->base = fg; }
    }
    e->measured = !raw && key_measured(m, f != af && !e->borrowed ? f : NULL, dir, algo, desc->dtype);
    e->floor = physical_floor(m, &shape, dir, algo, kc);
    e->phys = fmax(exp(logsum / nsrc) * scale, e->floor);
    double bound = raw ? 0 : gemm_bound(m, desc, dir, algo);
    if (bound > 0 && bound < e->phys) e->phys = fmax(bound, e->floor);
    /* after the floor: the FP32 twin's time, floor and all, is what the
     * pseudo-half kernels were measured against */
    if (!raw) e->phys *= seer_conv_legacy_slowdown(dir, algo, desc);
    e->logcorr = lcsum / nsrc;
    e->kalgo = kalgo;
    return SEER_STATUS_SUCCESS;
}

static int nchw_transposes(const struct seer_model *m, const struct seer_conv *run, seer_direction_t dir, int algo,
                           double *ms, seer_kernel_pred_t *k);

/* Whether the physics of (dir, algo) holds the NCHW transposes
 * (physics), not added after. */
static int transposes_in_physics(seer_direction_t dir, int algo)
{
    return algo == SEER_ALGO_CUDNN_CHOICE && dir == SEER_DIR_BWD_FILTER;
}

/* The physics of (dir, algo) on m, costed with the kernels k of the
 * algorithm (of algorithm 0 for cuDNN's choice).  cuDNN's choice of a
 * backward-filter algorithm is the faster of two structures under its
 * family, each with the NCHW transposes it needs (so these are in its
 * physics): the implicit GEMM's kernels (k) and, where it runs
 * (seer_choice_winograd), the nonfused Winograd's (kw), which does 2.25x
 * fewer FLOPs on a 3x3 filter and which cuDNN's heuristic takes for many
 * (seer_choice_algo trains the family the same way).  Each GPU's is the
 * minimum of two times that grow with the work, which the tie then takes
 * as any physics.  Costing every choice as an implicit GEMM left the
 * DeepBench backward-filter rows of a GPU transferred from the other at
 * 47.0 % (V100 SXM2) and 25.4 % (GTX 1080 Ti) MAPE, 36.4 and 17.3 % with
 * both (docs/method.md).  cuDNN's choice has no analytical family
 * (NOT_CALIBRATED without one), so the Winograd result never points into
 * its own room for one. */
static seer_status_t physics(seer_err_t *err, const struct seer_model *m, const struct seer_conv *desc,
                             seer_direction_t dir, int algo, const seer_terms_t *k, const seer_terms_t *kw,
                             const char *variant, int corr, seer_kcache_t *kc, seer_family_t *af, seer_physics_t *e)
{
    seer_status_t st = physics_at(err, m, desc, dir, algo, kernels_of(algo), k, variant, corr, kc, af, 0, e);
    if (st || !transposes_in_physics(dir, algo)) return st;
    const int w = SEER_BWD_FILTER_ALGO_WINOGRAD_NONFUSED;
    double tr;
    nchw_transposes(m, desc, dir, 0, &tr, NULL);
    e->phys += tr;
    seer_family_t aw;
    seer_physics_t ew;
    if (kw && seer_choice_winograd(&m->gpu, desc->dtype, dir) &&
        !physics_at(NULL, m, desc, dir, algo, w, kw, variant, corr, kc, &aw, 0, &ew) && ew.f != &aw) {
        nchw_transposes(m, desc, dir, w, &tr, NULL);
        if (ew.phys + tr < e->phys) {
            *e = ew;
            e->phys += tr;
        }
    }
    return st;
}

/* Faster hardware is not slower, by construction.  Each GPU's physics is
 * first lifted to that of every GPU at least as fast whose physics comes
 * from its own measurements (a model transferred to a GPU, or filled in
 * for a direction it has no data for, that predicts it faster than a
 * faster GPU measured is wrong); the physics used is the lowest lifted
 * one of this GPU and of every GPU it is at least as fast as.  So a
 * faster GPU's is never above a slower one's (the GPUs below the slower
 * one are below it too), and measured physics stays unless a faster
 * measured GPU says more.  Each term is monotone in the work, so their
 * max and min are.  Peers are evaluated only when they can change the
 * answer: a GPU's lifted physics is at least that of the measured GPUs
 * faster than it (this one's, where measured), so once the lowest so far
 * is under that, it need not be evaluated. */
typedef struct {
    const struct seer_model *m;
    const struct seer_conv *desc;
    seer_direction_t dir;
    int algo;
    const seer_terms_t *k, *kw; /* the conv's kernels; cuDNN's choice's Winograd ones (physics) */
    seer_kcache_t *kc;
    double p[SEER_MAX_PEERS];   /* NAN: not evaluated yet; -1: no physics */
    int measured[SEER_MAX_PEERS];
    double peak[SEER_MAX_PEERS + 1]; /* of the dtype: the peers', then this GPU's */
} seer_peers_t;

/* Whether GPU a (a peer, or -1 for this one) is at least as fast as b for
 * the dtype: on every ceiling (seer_gpu_dominates) and on the dtype's
 * peak, which b has. */
static int dominates(const seer_peers_t *ps, int a, int b)
{
    const struct seer_model *m = ps->m;
    double pa = ps->peak[a < 0 ? m->npeer : a], pb = ps->peak[b < 0 ? m->npeer : b];
    return pb > 0 && pa >= pb && seer_gpu_dominates(a < 0 ? &m->gpu : &m->peer[a]->gpu, b < 0 ? &m->gpu : &m->peer[b]->gpu);
}

static double peer_physics(seer_peers_t *ps, int i)
{
    if (isnan(ps->p[i])) {
        seer_family_t af;
        seer_physics_t pe;
        int bad = physics(NULL, ps->m->peer[i], ps->desc, ps->dir, ps->algo, ps->k, ps->kw, NULL, 0, ps->kc, &af,
                          &pe) != SEER_STATUS_SUCCESS;
        ps->p[i] = bad ? -1 : pe.phys;
        ps->measured[i] = !bad && pe.measured;
    }
    return ps->p[i];
}

/* d: a peer, or -1 for this GPU; r: its physics.  Where d's family is a
 * guess (not measured: transferred, analytical, or fitted on fewer than
 * SEER_OWN_FAMILY_ROWS of its own rows), lifted to that of the measured
 * GPUs at least as fast: a guess never undercuts a faster GPU's
 * measurements.  Two measured GPUs that disagree meet at the lower (the
 * minimum in tied_physics): lifting measured GPUs too took the V100
 * PCIe's NeuSight rows from 11.3 to 12.6 % MAPE (lifted to the V100 SXM2's
 * DeepBench families, cuDNN 7.6) for 12.2 instead of 12.6 % on the A100. */
static double lifted(seer_peers_t *ps, const seer_physics_t *self, int d, double r)
{
    const struct seer_model *m = ps->m;
    if (d < 0 ? self->measured : ps->measured[d]) return r;
    if (self->measured && self->phys > r) r = self->phys;
    for (int a = 0; a < m->npeer; a++)
        if ((m->peer_role[a] & SEER_PEER_ANCHOR) && dominates(ps, a, d) && peer_physics(ps, a) > r &&
            ps->measured[a])
            r = ps->p[a];
    return r;
}

/* Whether peer d's family is measured, as physics() tells, without its
 * physics: from the family's rows and source alone. */
static int peer_measured(const seer_peers_t *ps, int d)
{
    const struct seer_model *q = ps->m->peer[d];
    return key_measured(q, seer_model_family(q, ps->dir, ps->algo, ps->desc->dtype), ps->dir, ps->algo,
                        ps->desc->dtype);
}

/* Whether peer d's lifted physics is at least lo without evaluating d: d
 * is a guess and a measured GPU at least as fast (this one included) is
 * at lo or above. */
static int lifted_at_least(seer_peers_t *ps, const seer_physics_t *self, int d, double lo)
{
    const struct seer_model *m = ps->m;
    if (peer_measured(ps, d)) return 0;
    if (self->measured && self->phys >= lo) return 1;
    for (int a = 0; a < m->npeer; a++)
        if ((m->peer_role[a] & SEER_PEER_ANCHOR) && dominates(ps, a, d) && peer_physics(ps, a) >= lo &&
            ps->measured[a])
            return 1;
    return 0;
}

static void peers_init(seer_peers_t *ps)
{
    const struct seer_model *m = ps->m;
    for (int i = 0; i < m->npeer; i++) {
        ps->p[i] = NAN;
        ps->peak[i] = seer_gpu_peak_flops(&m->peer[i]->gpu, ps->desc->dtype);
    }
    ps->peak[m->npeer] = seer_gpu_peak_flops(&m->gpu, ps->desc->dtype);
}

/* ps from peers_init */
static double tied_physics(seer_peers_t *ps, const seer_physics_t *self)
{
    const struct seer_model *m = ps->m;
    double lo = lifted(ps, self, -1, self->phys);
    /* the calibrated GPUs first: they bound the lifted physics of the
     * GPUs below them, which need no evaluation once lo is under that */
    for (int pass = 0; pass < 2; pass++)
        for (int d = 0; d < m->npeer; d++) {
            if (!(m->peer_role[d] & SEER_PEER_BELOW) || (!(m->peer_role[d] & SEER_PEER_ANCHOR)) != pass ||
                !dominates(ps, -1, d) ||
                /* a peer's physics is never under its roofline floor */
                physical_floor(m->peer[d], ps->k, ps->dir, ps->algo, ps->kc) >= lo ||
                lifted_at_least(ps, self, d, lo) || peer_physics(ps, d) < 0)
                continue;
            double r = lifted(ps, self, d, ps->p[d]);
            if (r < lo) lo = r;
        }
    return lo;
}

double seer_model_conv_floor(const struct seer_model *m, const struct seer_conv *desc, seer_direction_t dir)
{
    if (narrow_groups(desc)) return 0; /* grouped_conv's own roofline */
    seer_kcache_t kc;
    kcache_init(&kc);
    return choice_floor(m, desc, dir, &kc);
}

/* The share of the NCHW transposes an unpadded, ungrouped 1x1 conv
 * pays on Hopper.  Such a conv is a GEMM per image as it lies (W[K x C]
 * by X[C x H*W]): on an H200 with cuDNN 9.14 (data/h200-sxm-141gb) its
 * tensor-core kernels (nvjet, cutlass GEMMs) read NCHW with no
 * transposes from 14 x 14 pixels up at stride 1, while 7 x 7 images
 * were transposed.  A step at some size would make a larger image
 * faster, so the transposes keep the cost of a 7 x 7 image's (share
 * 49 / (H*W), at most 1) and fade against the rest as images grow.
 * cuDNN transposed the strided 1x1 convs measured in full (ResNet-50's
 * downsampling shortcuts, batch 256, BF16, H100: x's transpose 0.35 ms
 * and y's 0.21 of 0.69 ms), so they pay them all; seer_picker_best holds
 * their fastest to the stride-1 conv's, which does more work.  Only
 * Hopper was measured: other GPUs pay the whole transposes.  seer net's
 * memory takes the same share of the copies, so that time and memory
 * tell one story. */
static double nchw_copy_share(const seer_gpu_info_t *g, const struct seer_conv *run)
{
    const seer_conv_shape_t *sh = &run->shape;
    if (g->cc_major != 9 || sh->r != 1 || sh->s != 1 || sh->pad_h || sh->pad_w || sh->groups != 1 ||
        sh->stride_h != 1 || sh->stride_w != 1)
        return 1;
    double px = (double)sh->h * sh->w;
    return px <= 49 ? 1 : 49 / px;
}

/* NCHW on tensor cores: cuDNN 8 and later run their tensor-core
 * convolution kernels on NHWC data, so an NCHW convolution in tensor-core
 * math transposes both inputs to NHWC and its output back (nchwToNhwc,
 * nhwcToNchw): three streaming kernels, each reading and writing its
 * tensor once, at the GPU's streaming rate, plus their launch gaps.
 * Winograd and FFT kernels (FP32 and FP16 only, launch.h) and FMA math
 * read NCHW as it is; narrow grouped convs have their own path (none).
 * run is the conv in the math cuDNN runs (conv_kernels). */
int seer_conv_nchw_copies(const seer_gpu_info_t *g, const struct seer_conv *run, seer_direction_t dir, int algo,
                          double size[3])
{
    if (run->layout != SEER_LAYOUT_NCHW || !seer_dtype_math(run->dtype) || seer_algo_transform(dir, algo) ||
        (unsigned)dir > SEER_DIR_BWD_FILTER || narrow_groups(run))
        return 0;
    const seer_conv_shape_t *sh = &run->shape;
    double x = (double)sh->n * sh->c * sh->h * sh->w, y = (double)sh->n * sh->k * run->p * run->q;
    double w = (double)sh->k * (sh->c / sh->groups) * sh->r * sh->s;
    /* the two inputs and the output of the direction (conv.h) */
    const double sz[3][3] = {{x, w, y}, {y, w, x}, {x, y, w}};
    const double share = nchw_copy_share(g, run);
    for (int i = 0; i < 3; i++) size[i] = sz[dir][i] * share;
    return 3;
}

/* The transposes' time in *ms and, with k, their kernels; returns how
 * many (0 or 3). */
static int nchw_transposes(const struct seer_model *m, const struct seer_conv *run, seer_direction_t dir,
                           int algo, double *ms, seer_kernel_pred_t *k)
{
    double size[3];
    *ms = 0;
    if (!seer_conv_nchw_copies(&m->gpu, run, dir, algo, size)) return 0;
    static const char *const name[3][3] = {
        {"nchwToNhwc x", "nchwToNhwc w", "nhwcToNchw y"},
        {"nchwToNhwc dy", "nchwToNhwc w", "nhwcToNchw dx"},
        {"nchwToNhwc x", "nchwToNhwc dy", "nhwcToNchw dw"}};
    for (int i = 0; i < 3; i++) {
        double bytes = 2 * size[i] * seer_dtype_size(run->dtype);
        double t = bytes / seer_gpu_stream_bw(&m->gpu) * 1e3 + seer_gpu_launch_gap_ms(&m->gpu);
        *ms += t;
        if (!k) continue;
        seer_kernel_pred_t *o = &k[i];
        memset(o, 0, sizeof *o);
        seer_strlcpy(o->name, name[dir][i], sizeof o->name);
        o->role = SEER_ROLE_HELPER;
        o->dram_bytes = bytes;
        elementwise_launch(m, bytes / 2, o);
        o->block[1] = o->block[2] = 1;
        o->time_ms = t;
        o->source = SEER_SOURCE_ANALYTICAL;
    }
    return 3;
}

double seer_conv_nchw_transposes_ms(const struct seer_model *m, const struct seer_conv *run, seer_direction_t dir,
                                    int algo)
{
    double ms;
    nchw_transposes(m, run, dir, algo, &ms, NULL);
    return ms;
}

/* The math cuDNN runs (launch.h), as the picker assumes, and its kernels. */
static seer_status_t conv_kernels(seer_err_t *e, const struct seer_model *m, const struct seer_conv *desc,
                                  seer_direction_t dir, int algo, struct seer_conv *run, seer_terms_t *k)
{
    *run = *desc;
    run->dtype = seer_conv_run_dtype(&m->gpu, desc->dtype, dir, algo);
    return seer_model_kernels(e, m, run, dir, kernels_of(algo), k);
}

/* How much slower than the transfer predicts a calibrated GPU runs the
 * kernels it has measured in one direction and math: exp of the mean
 * log(own physics / t's physics) over its families of that direction and
 * math with SEER_OWN_FAMILY_ROWS rows or more that t (a model transferred
 * to its GPU from the others) has too, on the layers of ratio_shapes each
 * family can run (a family that runs more of them, the implicit GEMMs,
 * weighs more: each family weighed once did 0.5 point worse); 1 where
 * none.  The families of that direction and math m has no data for come
 * from t (transfer.c, fill_missing), scaled by it: a GPU that runs its
 * measured kernels below what the others' efficiencies say (the A100's
 * FP32) runs the others' kernels of the same kind so too.  Applied
 * across directions (the forward ratio to the backward families) it did
 * worse (docs/transfer.md, "Calibrated GPUs").
 * Physics only, no correction: a peer's model, which drops its SVMs, gets
 * the same ratio. */
static const int ratio_shapes[][8] = {
    /* n, c, h, w, k, r (= s), stride, pad: ResNet-50 and VGG layers at batch 32 */
    {32, 64, 56, 56, 64, 3, 1, 1},   {32, 128, 28, 28, 128, 3, 1, 1},  {32, 256, 14, 14, 256, 3, 1, 1},
    {32, 512, 7, 7, 512, 3, 1, 1},   {32, 64, 224, 224, 64, 3, 1, 1},  {32, 256, 56, 56, 64, 1, 1, 0},
    {32, 512, 28, 28, 128, 1, 1, 0}, {32, 1024, 14, 14, 256, 1, 1, 0}, {32, 2048, 7, 7, 512, 1, 1, 0},
    {32, 256, 56, 56, 512, 1, 2, 0}, {32, 128, 56, 56, 128, 3, 2, 1},  {32, 3, 224, 224, 64, 7, 2, 3},
};
#define SEER_RATIO_LIMIT 2.0
#define SEER_RATIO_SHAPES ((int)(sizeof ratio_shapes / sizeof ratio_shapes[0]))

/* Layer j of ratio_shapes in dt, its run and kernels for (dir, algo) on
 * m; nonzero when it cannot run.  NHWC, so that tensor-core math carries
 * no transposes, except for the algorithms that run NCHW only, whose
 * physics does not depend on the layout. */
static int ratio_conv(const struct seer_model *m, int j, seer_dtype_t dt, seer_direction_t dir, int algo,
                      struct seer_conv *run, seer_terms_t *k)
{
    const int *r = ratio_shapes[j];
    seer_conv_shape_t sh = {r[0], r[1], r[2], r[3], r[4], r[5], r[5], r[7], r[7], r[6], r[6], 1, 1, 1};
    struct seer_conv cv;
    seer_layout_t lay = seer_algo_nchw_only(dir, algo) ? SEER_LAYOUT_NCHW : SEER_LAYOUT_NHWC;
    return seer_conv_init(NULL, &cv, dt, lay, &sh) || conv_kernels(NULL, m, &cv, dir, algo, run, k);
}

static double clamp_ratio(double sum, int n)
{
    double q = n ? exp(sum / n) : 1;
    return fmin(fmax(q, 1 / SEER_RATIO_LIMIT), SEER_RATIO_LIMIT);
}

/* Over the layers of ratio_shapes that (dir, algo) runs in dt, the sum
 * of log(physics on a / physics on b), each from a family (neither
 * analytical nor borrowed), except b's read raw (the analytical family,
 * unscaled) where b_raw; *n counts the layers.  cuDNN's choice is read in
 * algorithm 0's structure on both (a ratio of two GPUs' speeds, not a
 * time: physics() would take the Winograd where it is faster). */
static double log_ratio_sum(const struct seer_model *a, const struct seer_model *b, int b_raw, seer_direction_t dir,
                            int algo, seer_dtype_t dt, int *n)
{
    double sum = 0;
    for (int j = 0; j < SEER_RATIO_SHAPES; j++) {
        struct seer_conv run;
        seer_terms_t k;
        seer_family_t af;
        seer_physics_t pa, pb;
        seer_kcache_t kc;
        kcache_init(&kc);
        if (ratio_conv(a, j, dt, dir, algo, &run, &k) ||
            physics_at(NULL, a, &run, dir, algo, kernels_of(algo), &k, NULL, 0, &kc, &af, PHYS_UNSCALED, &pa) ||
            pa.f == &af || pa.borrowed)
            continue;
        kcache_init(&kc);
        if (physics_at(NULL, b, &run, dir, algo, kernels_of(algo), &k, NULL, 0, &kc, &af,
                       b_raw ? PHYS_RAW : PHYS_UNSCALED, &pb) ||
            (!b_raw && (pb.f == &af || pb.borrowed)))
            continue;
        sum += log(pa.phys / pb.phys);
        (*n)++;
    }
    return sum;
}

double seer_model_efficiency_ratio(const struct seer_model *m, const struct seer_model *t, int dir, int math)
{
    double sum = 0;
    int n = 0;
    for (int i = 0; i < m->nfam; i++) {
        const seer_family_t *f = &m->fam[i];
        seer_dtype_t dt = f->math ? SEER_DTYPE_FP16 : SEER_DTYPE_FP32;
        if (f->dir != dir || f->math != math || !family_measured(m, f) ||
            seer_model_family(m, (seer_direction_t)dir, f->algo, dt) != f)
            continue; /* a key once: its first family */
        if (!seer_model_family(t, (seer_direction_t)f->dir, f->algo, dt)) continue;
        sum += log_ratio_sum(m, t, 0, (seer_direction_t)f->dir, f->algo, dt, &n);
    }
    return clamp_ratio(sum, n);
}

/* The analytical family is one generic kernel formula for every
 * algorithm, so it is off by what sets an algorithm's kernels apart:
 * against the measured forward families it is too fast for the
 * non-fused Winograd (NeuSight rows of 1 ms or more, geometric mean of
 * predicted / published: A100 0.56, V100 PCIe 0.66, T4 0.82), FFT
 * tiling (0.70, 0.58) and the implicit GEMM (0.63, 0.63), too slow for
 * the fused Winograd (1.29, 1.50, 1.66).  An algorithm is the same
 * kernels in every direction (cuDNN's backward-data FFT and Winograd are
 * the forward ones on the transposed problem), so where a (direction,
 * algorithm) has no family its analytical time is scaled by how the
 * model's forward family of that kind and math runs against the
 * analytical one: exp of the mean log(family physics / analytical
 * physics) over the layers of ratio_shapes it runs, kept in [1/2, 2];
 * FFT, which no source has rows enough for, takes FFT tiling's.  No
 * forward family of the kind: 1.  Not measurable on ../shared/data,
 * whose backward rows name no algorithm (docs/method.md). */
void seer_model_set_analytical_scales(struct seer_model *m)
{
    static const int fwd_algo[SEER_K_NONE] = {
        SEER_FWD_ALGO_IMPLICIT_GEMM, SEER_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, SEER_FWD_ALGO_GEMM, SEER_FWD_ALGO_FFT,
        SEER_FWD_ALGO_FFT_TILING, SEER_FWD_ALGO_WINOGRAD, SEER_FWD_ALGO_WINOGRAD_NONFUSED};
    double s[2][SEER_K_NONE];
    memset(m->ascale, 0, sizeof m->ascale); /* computed unscaled */
    for (int math = 0; math < 2; math++)
        for (int kind = 0; kind < SEER_K_NONE; kind++) {
            seer_dtype_t dt = math ? SEER_DTYPE_FP16 : SEER_DTYPE_FP32;
            int algo = fwd_algo[kind];
            if (!seer_model_family(m, SEER_DIR_FWD, algo, dt) && kind == SEER_K_FFT) algo = SEER_FWD_ALGO_FFT_TILING;
            s[math][kind] = 0;
            if (!seer_model_family(m, SEER_DIR_FWD, algo, dt)) continue;
            int n = 0;
            double sum = log_ratio_sum(m, m, 1, SEER_DIR_FWD, algo, dt, &n);
            s[math][kind] = n ? clamp_ratio(sum, n) : 0;
        }
    memcpy(m->ascale, s, sizeof s);
}

/* The plain implicit GEMM is the precomputed one computing its offsets
 * as it goes: where both run the same math (FP32, pseudo-half on GPUs
 * without FP16 tensor cores; not TF32 or FP16 on tensor-core GPUs, whose
 * precomputed GEMM runs tensor cores and the plain one SIMT), it is never
 * faster.  Measured on the cuDNN 9.14 sweeps of Hopper (FP32 forward
 * convs timed both ways, data/GPU/): the plain one was over 1.10x the
 * precomputed one in 158 of 209 dense convs, under 0.90x in 9; at batch 1
 * cuDNN 9 launches it on a few CTAs that each loop over C·R·S
 * (ResNet-50's 1024 -> 256, 14x14: 0.174 ms against 0.042).  The
 * transferred families timed the two alike, and the picker took the
 * plain one at a tie.  So its time is at least the precomputed one's, a
 * hair above (1e-9) so that at a tie the precomputed one ranks first; on
 * every GPU, or the physics between GPUs breaks.  Not for grouped convs:
 * cuDNN runs its grouped kernels for both, which tied (within 10 %) in
 * 50 of those 53 convs, and the analytical time of a narrow grouped
 * conv's cuDNN's choice is the plain one's structure.  Nonzero where the
 * rule applies. */
static int implicit_after_precomp(const struct seer_model *m, const struct seer_conv *desc, seer_direction_t dir,
                                  int algo)
{
    return dir == SEER_DIR_FWD && algo == SEER_FWD_ALGO_IMPLICIT_GEMM && desc->shape.groups == 1 &&
           seer_conv_run_dtype(&m->gpu, desc->dtype, dir, algo) ==
               seer_conv_run_dtype(&m->gpu, desc->dtype, dir, SEER_FWD_ALGO_IMPLICIT_PRECOMP_GEMM);
}
#define SEER_PRECOMP_TIE 1e-9

static seer_status_t bounds_at(seer_err_t *e, const struct seer_model *m, const struct seer_conv *desc,
                               seer_direction_t dir, int algo, int peers, seer_conv_bounds_t *b)
{
    struct seer_conv run;
    seer_terms_t k;
    seer_status_t st = conv_kernels(e, m, desc, dir, algo, &run, &k);
    if (st) return st;
    if (narrow_groups(&run)) {
        b->analytical = b->tied = 1;
        if ((st = narrow_conv(e, m, &k, algo, NULL, &b->lo, NULL, 0, NULL))) return st;
        b->hi = b->phys = b->lo;
        return SEER_STATUS_SUCCESS;
    }
    seer_family_t af;
    seer_physics_t ph;
    seer_kcache_t kc;
    kcache_init(&kc);
    /* the picker asks no bounds of cuDNN's choice, whose backward filter
     * has the transposes in its physics */
    if (transposes_in_physics(dir, algo))
        return seer_fail(e, SEER_STATUS_INTERNAL, "no bounds for cuDNN's choice of a backward filter algorithm");
    if ((st = physics(e, m, &run, dir, algo, &k, NULL, NULL, 0, &kc, &af, &ph))) return st;
    double tr;
    nchw_transposes(m, &run, dir, ph.kalgo, &tr, NULL);
    /* a borrowed family is a guess too (its source is analytical): the
     * picker prefers the measured families, cuDNN's choice included */
    b->analytical = ph.f == &af || ph.borrowed;
    b->tied = 1;
    /* the time is at least both floors, as seer_model_predict_conv takes them */
    double fl = fmax(ph.floor, seer_model_grouped_floor(m, &run, dir));
    b->phys = ph.phys;
    if (m->npeer) {
        seer_peers_t ps = {.m = m, .desc = &run, .dir = dir, .algo = algo, .k = &k, .kc = &kc};
        peers_init(&ps);
        if (peers || !b->analytical) {
            b->phys = tied_physics(&ps, &ph);
        } else {
            /* the tied physics is at most this GPU's lifted one, and the
             * time at least the floor */
            b->tied = 0;
            b->lo = fl + tr;
            b->hi = fmax(lifted(&ps, &ph, -1, ph.phys) * exp(SEER_CORRECTION_LIMIT) * (1 + 1e-12), fl) + tr;
            return SEER_STATUS_SUCCESS;
        }
    }
    /* the time is fmax(exp(logcorr) * phys, floor), |logcorr| at most the
     * limit up to rounding, which the 1e-12 covers many times over */
    b->lo = fmax(b->phys * exp(-SEER_CORRECTION_LIMIT) * (1 - 1e-12), fl) + tr;
    b->hi = fmax(b->phys * exp(SEER_CORRECTION_LIMIT) * (1 + 1e-12), fl) + tr;
    return SEER_STATUS_SUCCESS;
}

seer_status_t seer_model_conv_bounds(seer_err_t *e, const struct seer_model *m, const struct seer_conv *desc,
                                     seer_direction_t dir, int algo, int peers, seer_conv_bounds_t *b)
{
    seer_conv_bounds_t p;
    seer_status_t st = bounds_at(e, m, desc, dir, algo, peers, b);
    /* implicit_after_precomp: the plain implicit GEMM's lie above the
     * precomputed one's */
    if (!st && implicit_after_precomp(m, desc, dir, algo) &&
        !bounds_at(NULL, m, desc, dir, SEER_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, peers, &p)) {
        b->lo = fmax(b->lo, p.lo * (1 + SEER_PRECOMP_TIE));
        b->hi = fmax(b->hi, p.hi * (1 + SEER_PRECOMP_TIE));
        b->tied &= p.tied;
    }
    return st;
}

static seer_status_t predict_at(seer_err_t *e, const struct seer_model *m, const struct seer_conv *desc,
                                seer_direction_t dir, int algo, const char *variant, int *matched, double *time_ms,
                                seer_kernel_pred_t *kernels, int kernels_cap, int *n_kernels,
                                const seer_conv_bounds_t *bounds)
{
    if (!m || !desc || !time_ms)
        return seer_fail(e, SEER_STATUS_BAD_PARAM, "seer_predict_conv: %s is NULL",
                         !m ? "model" : !desc ? "desc" : "time_ms");
    if (!desc->set) return seer_fail(e, SEER_STATUS_BAD_PARAM, "conv descriptor was never set");
    if ((unsigned)dir > SEER_DIR_BWD_FILTER)
        return seer_fail(e, SEER_STATUS_BAD_PARAM, "direction %d out of range", (int)dir);
    if (kernels && kernels_cap < 0)
        return seer_fail(e, SEER_STATUS_BAD_PARAM, "kernels_cap is negative");
    struct seer_conv run;
    seer_terms_t k, kw;
    seer_status_t st = conv_kernels(e, m, desc, dir, algo, &run, &k);
    if (st) return st;
    desc = &run;
    if (narrow_groups(desc)) return narrow_conv(e, m, &k, algo, bounds, time_ms, kernels, kernels_cap, n_kernels);
    seer_family_t af;
    seer_physics_t ph;
    seer_kcache_t kc;
    kcache_init(&kc);
    int tr_in = transposes_in_physics(dir, algo);
    const seer_terms_t *pkw = tr_in && !seer_model_kernels(NULL, m, desc, dir, SEER_BWD_FILTER_ALGO_WINOGRAD_NONFUSED, &kw)
                                  ? &kw : NULL;
    if ((st = physics(e, m, desc, dir, algo, &k, pkw, variant, 1, &kc, &af, &ph))) return st;
    if (matched) *matched = ph.matched;
    double phys = ph.phys;
    if (bounds) {
        phys = bounds->phys; /* the tied physics does not depend on the correction */
    } else if (m->npeer) {
        seer_peers_t ps = {.m = m, .desc = desc, .dir = dir, .algo = algo, .k = &k, .kw = pkw, .kc = &kc};
        peers_init(&ps);
        phys = tied_physics(&ps, &ph);
    }
    double tr;
    int ntr = nchw_transposes(m, desc, dir, ph.kalgo, &tr, NULL);
    /* a wide grouped conv's floor is its own kernels': the transposes
     * come on top (held in the physics, they are in it) */
    double fl = fmax(ph.floor, seer_model_grouped_floor(m, desc, dir));
    double total = fmax(exp(ph.logcorr) * phys, fl) + (tr_in ? 0 : tr);
    if (seer_check_time(NULL, total, "")) { /* named only when it fails: the picker's hot path */
        char what[96];
        snprintf(what, sizeof what, "%s %s convolution", seer_direction_name(dir),
                 algo == SEER_ALGO_CUDNN_CHOICE ? "CUDNN_CHOICE" : seer_algo_name(dir, algo));
        return seer_check_time(e, total, what);
    }
    *time_ms = total;
    if (n_kernels) *n_kernels = ph.t.nk + ntr;
    if (!kernels) return SEER_STATUS_SUCCESS;
    seer_source_t source = ph.f == &af || ph.borrowed ? SEER_SOURCE_ANALYTICAL
                         : m->transferred || strcmp(m->src[ph.f->src].id, m->gpu.id) ? SEER_SOURCE_TRANSFERRED
                                                                                     : SEER_SOURCE_CALIBRATED;
    /* the class classifier labels the main kernel; the time uses none */
    int cls = seer_family_class(ph.f, &ph.t);
    /* the transposes are their own kernels: the conv's own share the rest
     * (held in the physics, they can be over a tied time: then all) */
    double own = fmax(total - tr, 0);
    /* the legacy kernels' slowdown is the main kernel's: the helpers keep
     * the formula's share */
    kernel_breakdown(m, ph.f, ph.v, cls, &ph.t, own, own / ph.base / seer_conv_legacy_slowdown(dir, algo, desc),
                     source, kernels, kernels_cap);
    /* the transposes that fit too: BUFFER_TOO_SMALL writes the first
     * kernels_cap kernels, whichever they are */
    seer_kernel_pred_t tk[3];
    nchw_transposes(m, desc, dir, ph.kalgo, &tr, tk);
    for (int i = 0; i < ntr && ph.t.nk + i < kernels_cap; i++) kernels[ph.t.nk + i] = tk[i];
    if (ph.t.nk + ntr > kernels_cap)
        return seer_fail(e, SEER_STATUS_BUFFER_TOO_SMALL, "%d kernels, room for %d", ph.t.nk + ntr,
                         kernels_cap);
    return SEER_STATUS_SUCCESS;
}

/* predict_at, with implicit_after_precomp's raise spread over the
 * kernels in proportion (a given variant is the measured kernel's time,
 * a diagnostic: not raised) */
seer_status_t seer_model_predict_conv(seer_err_t *e, const struct seer_model *m,
                                      const struct seer_conv *desc, seer_direction_t dir, int algo,
                                      const char *variant, int *matched, double *time_ms,
                                      seer_kernel_pred_t *kernels, int kernels_cap, int *n_kernels,
                                      const seer_conv_bounds_t *bounds)
{
    seer_status_t st = predict_at(e, m, desc, dir, algo, variant, matched, time_ms, kernels, kernels_cap, n_kernels,
                                  bounds);
    double tp;
    seer_conv_bounds_t pb;
    /* the precomputed one's bounds first, cheaper than its time: most
     * plain implicit GEMMs lie above them already */
    if ((st && st != SEER_STATUS_BUFFER_TOO_SMALL) || variant || !implicit_after_precomp(m, desc, dir, algo) ||
        (!bounds_at(NULL, m, desc, dir, SEER_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, 1, &pb) &&
         pb.hi * (1 + SEER_PRECOMP_TIE) <= *time_ms) ||
        predict_at(NULL, m, desc, dir, SEER_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, NULL, NULL, &tp, NULL, 0, NULL, NULL) ||
        !(tp * (1 + SEER_PRECOMP_TIE) > *time_ms))
        return st;
    double q = tp * (1 + SEER_PRECOMP_TIE) / *time_ms;
    *time_ms *= q;
    for (int i = 0; kernels && n_kernels && i < *n_kernels && i < kernels_cap; i++) kernels[i].time_ms *= q;
    return st;
}

int seer_conv_simt_twin(const struct seer_model *m, const struct seer_conv *cv, struct seer_conv *twin)
{
    seer_dtype_t run = seer_gpu_run_dtype(&m->gpu, cv->dtype);
    seer_dtype_t t = run == SEER_DTYPE_TF32 ? SEER_DTYPE_FP32 : run == SEER_DTYPE_FP16 ? SEER_DTYPE_FP16_PSEUDO : run;
    return t != run && !seer_conv_init(NULL, twin, t, cv->layout, &cv->shape);
}

int seer_conv_twin_may_beat(const struct seer_model *m, const struct seer_conv *cv, const struct seer_conv *twin,
                            seer_direction_t dir, int algo, double t)
{
    /* An algorithm that runs its SIMT kernels already (TF32's Winograd
     * and FFT, the plain GEMMs: seer_conv_run_dtype) is its twin; and no
     * algorithm's time goes under its floor (a compute-bound TF32 conv's
     * FP32 twin).  cuDNN's choice can go under its kernels' floor, costed
     * as the faster of two structures (and a backward data's read as its
     * dual): always timed.  Timing every twin took TF32 and FP16
     * predictions to twice an FP32 one's 3 us. */
    return algo < 0 || (seer_conv_run_dtype(&m->gpu, cv->dtype, dir, algo) != twin->dtype &&
                        seer_conv_floor_ms(&m->gpu, twin, dir, algo) < t);
}

/* Another prediction of the call, t with its nk kernels k, found faster:
 * what seer_predict_conv writes, BUFFER_TOO_SMALL as SUCCESS (the time
 * and the count in full, the kernels up to kernels_cap), so a caller
 * sizing its array from the count gets this answer's. */
static seer_status_t take_faster(seer_handle_t h, double t, const seer_kernel_pred_t *k, int nk, double *time_ms,
                                 seer_kernel_pred_t *kernels, int kernels_cap, int *n_kernels)
{
    *time_ms = t;
    if (n_kernels) *n_kernels = nk;
    if (!kernels) return SEER_STATUS_SUCCESS;
    memcpy(kernels, k, (size_t)(nk < kernels_cap ? nk : kernels_cap) * sizeof *k);
    return nk > kernels_cap ? seer_error(h, SEER_STATUS_BUFFER_TOO_SMALL, "%d kernels, room for %d", nk, kernels_cap)
                            : SEER_STATUS_SUCCESS;
}

/* One algorithm's time is at most its SIMT twin's (seer_conv_simt_twin):
 * the tie between GPUs works per math type, so without it a GPU with
 * TF32 or FP16 tensor cores could be predicted slower than one that runs
 * the same call on its FP32 or pseudo-half kernels (A100 40GB against
 * V100 PCIe, TF32 IMPLICIT_PRECOMP_GEMM, 68x6x4x74 -> 19: 0.031 against
 * 0.021 ms; cuDNN's choice of a TF32 bwd_filter with one channel in and
 * out, A100 against V100 SXM2: 1.01 against 0.24 ms).  The fastest
 * algorithm already takes the twin's pick (seer_picker_best).  This is
 * seer_predict_conv of the conv as given, before the grouped conv's cap. */
static seer_status_t predict_own(seer_handle_t h, const seer_model *m, const seer_conv *desc,
                                 seer_direction_t dir, int algo, double *time_ms,
                                 seer_kernel_pred_t *kernels, int kernels_cap, int *n_kernels)
{
    seer_err_t e;
    seer_status_t st = seer_model_predict_conv(&e, m, desc, dir, algo, NULL, NULL, time_ms, kernels,
                                               kernels_cap, n_kernels, NULL);
    /* BUFFER_TOO_SMALL still writes the time and the count: they must be
     * the twin's where it is faster, as on SUCCESS, or a caller sizing
     * its array from the count gets another conv's count and time */
    if (st && st != SEER_STATUS_BUFFER_TOO_SMALL) return seer_err_report(h, &e);
    struct seer_conv twin;
    seer_kernel_pred_t k[SEER_MAX_CONV_KERNELS];
    double t;
    int nk = 0;
    /* a twin that cannot be timed leaves the conv's own answer */
    if (!seer_conv_simt_twin(m, desc, &twin) || !seer_conv_twin_may_beat(m, desc, &twin, dir, algo, *time_ms) ||
        seer_model_predict_conv(NULL, m, &twin, dir, algo, NULL, NULL, &t, kernels ? k : NULL, SEER_MAX_CONV_KERNELS,
                                &nk, NULL) || !(t < *time_ms))
        return st ? seer_err_report(h, &e) : st;
    return take_faster(h, t, k, nk, time_ms, kernels, kernels_cap, n_kernels);
}

/* A grouped conv's algorithm is at most the same algorithm's dense conv
 * (its twin's too): the dense conv with block-diagonal weights computes
 * it, so fewer FLOPs never cost more than it, as the fastest pick holds
 * (seer_picker_best).  Per algorithm a grouped conv came out slower than
 * the dense one in a third of random convs, up to 9x (A100, BF16, 16 x
 * 64 x 64 x 64 -> 512, 1x1, 32 groups, IMPLICIT_PRECOMP_GEMM: 0.274
 * against 0.186 ms); with the cap the sweeps' every-call rows, which
 * cuDNN's grouped kernels run, scored 41.9 -> 41.0 % (H100) and 47.7 ->
 * 47.1 % (H200). */
seer_status_t seer_predict_conv(seer_handle_t h, const seer_model *m, const seer_conv *desc,
                                seer_direction_t dir, int algo, double *time_ms,
                                seer_kernel_pred_t *kernels, int kernels_cap, int *n_kernels)
{
    seer_status_t st = predict_own(h, m, desc, dir, algo, time_ms, kernels, kernels_cap, n_kernels);
    if ((st && st != SEER_STATUS_BUFFER_TOO_SMALL) || desc->shape.groups <= 1) return st;
    struct seer_conv dense;
    seer_conv_shape_t one = desc->shape;
    seer_kernel_pred_t k[SEER_MAX_CONV_KERNELS];
    double t;
    int nk = 0;
    one.groups = 1;
    if (seer_conv_init(NULL, &dense, desc->dtype, desc->layout, &one) ||
        predict_own(NULL, m, &dense, dir, algo, &t, kernels ? k : NULL, SEER_MAX_CONV_KERNELS, &nk) || !(t < *time_ms))
        return st;
    return take_faster(h, t, k, nk, time_ms, kernels, kernels_cap, n_kernels);
}

seer_status_t seer_predict_conv_variant(seer_handle_t h, const struct seer_model *m,
                                        const struct seer_conv *desc, seer_direction_t dir, int algo,
                                        const char *main_kernel, int *matched, double *time_ms)
{
    seer_err_t e;
    if (algo < 0) /* a variant is a kernel of one cuDNN algorithm (docs/api.md) */
        return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_predict_conv_variant: algo must be >= 0 (got %d)", algo);
    seer_status_t st = seer_model_predict_conv(&e, m, desc, dir, algo, main_kernel, matched, time_ms,
                                               NULL, 0, NULL, NULL);
    return st ? seer_err_report(h, &e) : st;
}

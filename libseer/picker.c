/* The convolution algorithm picker (cudnnGetConvolution*Algorithm_v7 from
 * the model instead of cuDNN's heuristics): every algorithm of the
 * direction is predicted, its workspace computed from the formulas below
 * (docs/picker.md), and the list sorted: usable by time, then the ones
 * the model cannot time, then those over the workspace limit, then the
 * unsupported ones. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "gpu.h"
#include "launch.h"
#include "model.h"
#include "picker.h"

int seer_picker_soft(seer_status_t st)
{
    return st == SEER_STATUS_UNSUPPORTED || st == SEER_STATUS_NOT_CALIBRATED;
}

/* seer_picker_predict, reusing the physics of bounds (or NULL). */
static void predict(const struct seer_model *m, const struct seer_conv *cv, seer_direction_t dir, int algo,
                    const seer_conv_bounds_t *bounds, seer_algo_eval_t *out)
{
    seer_kernel_pred_t k[SEER_MAX_CONV_KERNELS];
    int nk = 0;
    double t = 0;
    memset(out, 0, sizeof *out);
    out->algo = algo;
    /* Failures here are mostly answers ("no such algorithm here"); the
     * caller tells, and reports an error from out->err. */
    if (seer_model_predict_conv(&out->err, m, cv, dir, algo, NULL, NULL, &t, k, SEER_MAX_CONV_KERNELS, &nk, bounds))
        return;
    out->time_ms = t;
    out->n_kernels = nk;
    int main = 0;
    for (int i = 0; i < nk; i++)
        if (k[i].role == SEER_ROLE_MAIN) { main = i; break; }
    out->cls = nk ? k[main].cls : SEER_CLASS_UNDER;
    out->source = nk ? k[main].source : SEER_SOURCE_ANALYTICAL;
}

/* The padding of dy that, taken as data, gives back the input size in a
 * valid conv of filter extent dil*(r-1)+1: 0 where pad > dil*(r-1). */
static int pad_as_data(int dil, int r, int pad)
{
    return dil * (r - 1) > pad ? dil * (r - 1) - pad : 0;
}

double seer_bwd_data_dual(const struct seer_conv *cv, struct seer_conv *dual)
{
    seer_conv_shape_t s = cv->shape;
    if (s.stride_h != 1 || s.stride_w != 1) return 0;
    s.c = cv->shape.k;
    s.k = cv->shape.c;
    /* dy padded as data: whatever the padding, the same conv (its FFT
     * tiling once changed with the padding, and a padding one larger took
     * a dgrad 18 % faster); where pad > dil*(r-1), dy itself, and a
     * larger dx */
    s.h = cv->p + 2 * pad_as_data(s.dil_h, s.r, s.pad_h);
    s.w = cv->q + 2 * pad_as_data(s.dil_w, s.s, s.pad_w);
    s.pad_h = s.pad_w = 0;
    /* The padded dy, or the larger dx, can pass 2^31 elements where the
     * conv's do not: the dual read on equal chunks of the batch that fit,
     * its time scaled to the batch (a cut-off there once took a dgrad 17 %
     * faster for one image more; chunks of as many images as fit, 9 %
     * for one more padding, as the forward time steps with the batch). */
    double per = fmax((double)s.h * s.w * s.c,
                      ((double)s.h - s.dil_h * (s.r - 1)) * (s.w - s.dil_w * (s.s - 1)) * s.k);
    double fit = floor(INT32_MAX / per);
    if (!(fit >= 1)) return 0;
    if (s.n > fit) {
        double chunks = ceil(s.n / fit);
        s.n = (int)ceil(s.n / chunks);
    }
    return seer_conv_init(NULL, dual, cv->dtype, cv->layout, &s) ? 0 : (double)cv->shape.n / s.n;
}

/* cuDNN's choice of a backward data on FMA math, timed from measurements
 * (out), read a second way: as the forward conv it is
 * (seer_bwd_data_dual), picked with the same model.  The backward-data
 * family comes from DeepBench's 30-40 rows per GPU and transfer, the
 * forward families from far more rows and, on NeuSight's GPUs, their own;
 * the time is the geometric mean of the two, at least the direction's
 * datasheet floor, which the dual's FFT can go under (docs/method.md,
 * "Backward data as a forward conv").  Not tensor-core math: its forward
 * family is the same V100 SXM2's DeepBench rows, no second source.  A
 * strided 1x1 dgrad writes a subset of the dx of the stride-1 one from
 * less dy: at most that one's time.  A reading that fails leaves the
 * family's time: it is a second opinion, and the family's time is an
 * answer on its own (the forward pick's hard errors are its shape's,
 * reported when that conv is asked for). */
static seer_status_t best_of(const struct seer_model *m, const struct seer_conv *cv, seer_direction_t dir,
                             double above, seer_algo_eval_t *out);
static void reading(const struct seer_model *m, const struct seer_conv *cv, seer_direction_t dir, int algo,
                    double above, seer_algo_eval_t *out);

/* At most the forward pick (seer_picker_best) of dual, a bwd_data dual
 * conv (seer_bwd_data_dual) in FMA math with at least 32 channels per
 * group in and out where grouped, whose best_of gave own (or a bound of
 * it): a pick is the least of its own time (best_of's, in an FP32 or
 * pseudo-half dtype; its FP32 caps, in a tensor-core one: at least its
 * floor or its FP32 conv's, which its bound holds), its dense conv's
 * (no caps in FMA math at stride 1, so at least its floor) and its
 * fewer groups' (the walk: at least the bound of the first, fewer still
 * only raise it), the one-group floor only raising it. */
static double dual_pick_lower(const struct seer_model *m, const struct seer_conv *dual, double own)
{
    struct seer_conv c = *dual;
    int g = dual->shape.groups, p = 2;
    double lo = own;
    if (g > 1 && seer_dtype_math(dual->dtype)) lo = fmin(lo, seer_model_grouped_lower(m, dual, SEER_DIR_FWD));
    c.shape.groups = 1;
    if (!seer_conv_init(NULL, &c, dual->dtype, dual->layout, &c.shape))
        lo = fmin(lo, seer_model_conv_floor(m, &c, SEER_DIR_FWD));
    while (p < g && g % p) p++;
    c.shape.groups = g / p;
    if (g / p > 1 && !seer_conv_init(NULL, &c, dual->dtype, dual->layout, &c.shape))
        lo = fmin(lo, seer_model_grouped_lower(m, &c, SEER_DIR_FWD));
    return lo;
}

/* above: a reading at least that may give any time at least that (the
 * picker's time so far in a walk; INFINITY: the reading itself). */
static void dual_reading(const struct seer_model *m, const struct seer_conv *cv, double above, seer_algo_eval_t *out)
{
    struct seer_conv other;
    seer_algo_eval_t e;
    double scale;
    if (out->source == SEER_SOURCE_ANALYTICAL || seer_dtype_math(seer_gpu_run_dtype(&m->gpu, cv->dtype)))
        return;
    if (cv->shape.stride_h == 1 && cv->shape.stride_w == 1) {
        if ((scale = seer_bwd_data_dual(cv, &other)) <= 0) return;
        /* The mean is at least sqrt(family's time * the pick's bound *
         * scale), under the floor or not: where that is at least above,
         * the dual's best_of alone (in an FMA dtype, its status and source
         * are its pick's) tells whether it reads, not its whole pick */
        if (above < INFINITY && !seer_dtype_math(other.dtype)) {
            if (best_of(m, &other, SEER_DIR_FWD, INFINITY, &e) || e.source == SEER_SOURCE_ANALYTICAL) return;
            if (sqrt(out->time_ms * dual_pick_lower(m, &other, e.time_ms) * scale) * (1 - 1e-9) >= above) {
                out->time_ms = fmax(out->time_ms, above);
                return;
            }
        }
        if (seer_picker_best(m, &other, SEER_DIR_FWD, &e) || e.source == SEER_SOURCE_ANALYTICAL) return;
        double t = sqrt(out->time_ms * e.time_ms * scale);
        /* the family's time is at least the floors already (its physics'
         * own, a wide grouped conv's), so only a mean under it asks for
         * them again */
        out->time_ms = t < out->time_ms ? fmax(t, fmax(seer_model_conv_floor(m, cv, SEER_DIR_BWD_DATA),
                                                       seer_model_grouped_floor(m, cv, SEER_DIR_BWD_DATA)))
                                        : t;
    } else if (cv->shape.r == 1 && cv->shape.s == 1) {
        seer_conv_shape_t one = cv->shape;
        one.stride_h = one.stride_w = 1;
        if (seer_conv_init(NULL, &other, cv->dtype, cv->layout, &one)) return;
        reading(m, &other, SEER_DIR_BWD_DATA, SEER_ALGO_CUDNN_CHOICE, above, &e);
        if (!e.err.st && e.time_ms < out->time_ms) out->time_ms = e.time_ms;
    }
}

/* seer_picker_predict, with dual_reading's above */
static void reading(const struct seer_model *m, const struct seer_conv *cv, seer_direction_t dir, int algo,
                    double above, seer_algo_eval_t *out)
{
    predict(m, cv, dir, algo, NULL, out);
    if (!out->err.st && dir == SEER_DIR_BWD_DATA && algo == SEER_ALGO_CUDNN_CHOICE) dual_reading(m, cv, above, out);
}

void seer_picker_predict(const struct seer_model *m, const struct seer_conv *cv,
                         seer_direction_t dir, int algo, seer_algo_eval_t *out)
{
    reading(m, cv, dir, algo, INFINITY, out);
}

void seer_picker_algo_caps(const struct seer_model *m, const struct seer_conv *cv, seer_direction_t dir,
                           seer_algo_eval_t *out)
{
    struct seer_conv other;
    seer_algo_eval_t e;
    if (out->err.st) return;
    if (seer_conv_simt_twin(m, cv, &other) && seer_conv_twin_may_beat(m, cv, &other, dir, out->algo, out->time_ms)) {
        seer_picker_predict(m, &other, dir, out->algo, &e);
        if (!e.err.st && e.time_ms < out->time_ms) out->time_ms = e.time_ms;
    }
    seer_conv_shape_t one = cv->shape;
    one.groups = 1;
    if (cv->shape.groups <= 1 || seer_conv_init(NULL, &other, cv->dtype, cv->layout, &one)) return;
    seer_picker_predict(m, &other, dir, out->algo, &e);
    seer_picker_algo_caps(m, &other, dir, &e);
    if (!e.err.st && e.time_ms < out->time_ms) out->time_ms = e.time_ms;
}

int seer_picker_eval(const struct seer_model *m, const struct seer_conv *cv, seer_direction_t dir,
                     seer_algo_eval_t out[SEER_MAX_ALGOS])
{
    int n = seer_algo_count(dir);
    for (int a = 0; a < n; a++) seer_picker_predict(m, cv, dir, a, &out[a]);
    return n;
}

/* A plain implicit or explicit GEMM in tensor-core math runs SIMT
 * kernels (seer_conv_run_dtype): its time, measured as it may be on the
 * FP32 kernels, ranks with the analytical guesses, not above the
 * tensor-core algorithms.  A model without tensor-core data (the A100's
 * alone) would otherwise pick the SIMT kernels for every FP16 conv,
 * which are the slowest (5-60x the tensor-core ones on an H200).  So
 * does FP16's non-fused Winograd from Hopper on: cuDNN 9 runs it as
 * BF16's (seer_conv_run_dtype), FP16-to-FP32 transforms around FP32 SIMT
 * GEMMs, in every FP16 call of the H200's sweeps of seeds 2 and 3
 * (data/h200-sxm-141gb/seed*), TENSOR_OP and DEFAULT alike, where its
 * FP16 family, fitted to tensor-core kernels, timed it 3-6x under them
 * and the picker took it over ALGO_1 in 17 of seed 3's VGG-16 convs.
 * Its time stays the FP16 family's: timed as FP32, a Hopper GPU came
 * out slower than a V100 on it. */
int seer_picker_simt(const struct seer_model *m, const struct seer_conv *cv, seer_direction_t dir, int algo)
{
    seer_dtype_t run = seer_gpu_run_dtype(&m->gpu, cv->dtype);
    return seer_dtype_math(run) && (seer_algo_simt(dir, algo) || (run == SEER_DTYPE_FP16 && m->gpu.cc_major >= 9 &&
                                                                 seer_algo_kind(dir, algo) == SEER_K_WINO_NF));
}

/* seer_picker_best's rule over cv's own algorithms; above as in
 * dual_reading, for cuDNN's choice. */
static seer_status_t best_of(const struct seer_model *m, const struct seer_conv *cv, seer_direction_t dir,
                             double above, seer_algo_eval_t *out)
{
    seer_algo_eval_t ev[SEER_MAX_ALGOS];
    seer_conv_bounds_t bd[SEER_MAX_ALGOS];
    int n = seer_algo_count(dir), best = -1, guess = -1, uncal = 0, bad = -1, exact[SEER_MAX_ALGOS],
        done[SEER_MAX_ALGOS] = {0};
    /* The learned correction, the class classifier and the kernel
     * breakdown cost as much as the physics: first the physics of every
     * algorithm, which bounds its time, then the whole prediction only of
     * those that can be the fastest of their rank (timed from
     * measurements; analytical or SIMT: seer_picker_simt), with the lowest
     * upper bound of the rank
     * in top[].  An error, or a time that may fail seer_check_time, is
     * predicted whole too, so the same error surfaces first, with its
     * message; an answer (no such algorithm here) needs none, it is
     * never reported. */
    double top[3] = {INFINITY, INFINITY, INFINITY};
    seer_status_t answer[SEER_MAX_ALGOS];
    /* rank: 0 measured, 1 analytical, 2 SIMT in tensor-core math (after
     * the tensor-core guesses too: rank_of) */
    int rk[SEER_MAX_ALGOS], simt[SEER_MAX_ALGOS];
    for (int a = 0; a < n; a++) {
        seer_status_t st = seer_model_conv_bounds(NULL, m, cv, dir, a, 0, &bd[a]);
        answer[a] = seer_picker_soft(st) ? st : SEER_STATUS_SUCCESS;
        exact[a] = !answer[a] && (st || seer_check_time(NULL, bd[a].lo, "") || seer_check_time(NULL, bd[a].hi, ""));
        simt[a] = seer_picker_simt(m, cv, dir, a);
        rk[a] = simt[a] ? 2 : bd[a].analytical;
        if (!answer[a] && !exact[a] && bd[a].tied && bd[a].hi < top[rk[a]])
            top[rk[a]] = bd[a].hi;
    }
    for (int a = 0; a < n; a++) {
        if (answer[a]) {
            uncal |= answer[a] == SEER_STATUS_NOT_CALIBRATED;
            continue;
        }
        /* slower than another of its rank; the analytical ones wait, below */
        if (!exact[a] && (rk[a] || bd[a].lo > top[0])) continue;
        predict(m, cv, dir, a, exact[a] ? NULL : &bd[a], &ev[a]);
        seer_status_t st = ev[a].err.st;
        done[a] = 1;
        if (!st) {
            if (ev[a].source != SEER_SOURCE_ANALYTICAL && !simt[a] && (best < 0 || ev[a].time_ms < ev[best].time_ms))
                best = a;
        } else if (st == SEER_STATUS_NOT_CALIBRATED) {
            uncal = 1;
        } else if (st == SEER_STATUS_BAD_PREDICTION) {
            if (bad < 0) bad = a; /* this algorithm's time out of range: another may answer */
        } else if (!seer_picker_soft(st)) {
            *out = ev[a]; /* the failing algorithm, its message in out->err */
            return st;
        }
    }
    if (best >= 0) {
        *out = ev[best];
        return SEER_STATUS_SUCCESS;
    }
    reading(m, cv, dir, SEER_ALGO_CUDNN_CHOICE, above, out);
    seer_status_t st = out->err.st;
    if (!st && out->source != SEER_SOURCE_ANALYTICAL) return SEER_STATUS_SUCCESS;
    /* cuDNN's choice out of range is its own failure too: an analytical
     * guess may still answer (seer_pick_conv_algo ranks it first then) */
    if (st && !seer_picker_soft(st) && st != SEER_STATUS_BAD_PREDICTION) return st;
    /* Only now the analytical guesses that can be the fastest (they cannot
     * fail: their bounds passed, and the tied ones lie inside the loose
     * ones), in order, so ties go to the first. */
    for (int a = 0; a < n; a++)
        if (!answer[a] && !exact[a] && rk[a] && bd[a].analytical && !bd[a].tied &&
            !seer_model_conv_bounds(NULL, m, cv, dir, a, 1, &bd[a]) && bd[a].hi < top[rk[a]])
            top[rk[a]] = bd[a].hi;
    for (int r = 1; r <= 2 && guess < 0; r++) /* the SIMT ones only where no other guess answers */
        for (int a = 0; a < n; a++) {
            if (rk[a] != r && !(done[a] && r == 1 && !simt[a])) continue;
            if (!done[a] && !answer[a] && bd[a].lo <= top[r]) {
                predict(m, cv, dir, a, bd[a].tied ? &bd[a] : NULL, &ev[a]);
                done[a] = 1;
            }
            if (done[a] && !ev[a].err.st && (ev[a].source == SEER_SOURCE_ANALYTICAL || simt[a]) &&
                (guess < 0 || ev[a].time_ms < ev[guess].time_ms))
                guess = a;
        }
    /* cuDNN's choice timed analytically stands with the guesses (a narrow
     * grouped conv's is bounded by its padded wide conv's measured one) */
    if (guess >= 0 && (st || ev[guess].time_ms <= out->time_ms)) {
        *out = ev[guess];
        return SEER_STATUS_SUCCESS;
    }
    if (!st) return SEER_STATUS_SUCCESS;
    if (bad >= 0) { /* nothing answered: the first time out of range says why */
        *out = ev[bad];
        return SEER_STATUS_BAD_PREDICTION;
    }
    if (st == SEER_STATUS_BAD_PREDICTION) return st; /* cuDNN's choice's, in *out */
    return uncal ? SEER_STATUS_NOT_CALIBRATED : st;
}

seer_status_t seer_pick_conv_fastest(seer_handle_t h, const seer_model *m, const seer_conv *desc,
                                     seer_direction_t dir, int *algo, double *time_ms)
{
    if (!m || !desc || !algo || !time_ms)
        return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_pick_conv_fastest: %s is NULL",
                          !m ? "model" : !desc ? "desc" : !algo ? "algo" : "time_ms");
    if (!desc->set) return seer_error(h, SEER_STATUS_BAD_PARAM, "conv descriptor was never set");
    if ((unsigned)dir > SEER_DIR_BWD_FILTER)
        return seer_error(h, SEER_STATUS_BAD_PARAM, "direction %d out of range", (int)dir);
    seer_algo_eval_t e;
    seer_status_t st = seer_picker_best(m, desc, dir, &e);
    if (st == SEER_STATUS_SUCCESS) {
        *algo = e.algo;
        *time_ms = e.time_ms;
        return st;
    }
    if (st == SEER_STATUS_NOT_CALIBRATED)
        return seer_error(h, st, "model %s cannot time any %s algorithm for %s", m->gpu_id,
                          seer_direction_name(dir), seer_dtype_name(desc->dtype));
    if (st == SEER_STATUS_UNSUPPORTED)
        return seer_error(h, st, "no %s algorithm supports this %s convolution on %s",
                          seer_direction_name(dir), seer_dtype_name(desc->dtype), m->gpu_id);
    /* A hard error: the failing prediction's own message. */
    return seer_error(h, st, "%s", e.err.msg);
}

/* At most any time best_of gives cv, groups > 1, or seer_picker_predict
 * any algorithm of it: each is a prediction of cv, or for a backward
 * data's choice its mean with the dual's at least cv's floor (which
 * holds every algorithm's, seer_model_conv_floor) or that of the
 * stride-1 conv of a strided 1x1 one (dual_reading). */
static double pick_lower(const struct seer_model *m, const struct seer_conv *cv, seer_direction_t dir)
{
    double lo = seer_model_grouped_lower(m, cv, dir);
    seer_conv_shape_t one = cv->shape;
    struct seer_conv c;
    if (dir != SEER_DIR_BWD_DATA || one.r != 1 || one.s != 1 || (one.stride_h == 1 && one.stride_w == 1)) return lo;
    one.stride_h = one.stride_w = 1;
    return seer_conv_init(NULL, &c, cv->dtype, cv->layout, &one) ? lo : fmin(lo, seer_model_grouped_lower(m, &c, dir));
}

/* The depthwise cap of best_own: at most a quarter of the dense conv's
 * time td where that is over a millisecond, a flat quarter of a
 * millisecond below (then td itself), never under the depthwise conv's
 * roofline roof plus one launch gap (best_own says why). */
#define SEER_DEPTHWISE_QUARTER_FROM_MS 1.0 /* the dense time from which the quarter binds */
static double depthwise_cap(const struct seer_model *m, double td, double roof)
{
    return fmax(fmax(td / 4, fmin(td, SEER_DEPTHWISE_QUARTER_FROM_MS / 4)), roof + seer_gpu_launch_gap_ms(&m->gpu));
}

/* A grouped conv in tensor-core math is never slower than the FP32 one's
 * grouped caps either (best_own): the FP32 dense conv's whole pick, and
 * for a depthwise conv the cap from it and the FP32 depthwise roofline,
 * at least the grouping's own floor, as best_own's FP32 cap.  That cap
 * reads the FP32 conv's own algorithms only, and the grouped caps the
 * dense conv in the conv's own dtype, which has no FFT kernels in BF16
 * (and of the Winograds the non-fused one alone: launch.h): an FP32
 * dense conv's FFT_TILING
 * held the FP32 depthwise conv to a quarter of it while the BF16 one took
 * a quarter of the BF16 dense conv (H100, 4 x 1438 x 346 x 78, 11 x 11,
 * forward: 11.24 ms in BF16 against 8.82 in FP32; RTX 3080, 1 x 403 x
 * 281 x 281, 13 x 13: 6.58 against 3.92), and a 4-group BF16 conv took
 * about 1.5x the FP32 one's 89.6 ms, its dense conv's (RTX 3080, 1 x
 * 1160 x 501 x 501 -> 448, 11 x 11; now 132.7 ms, its own floor).  Each term is monotone in the work
 * and ordered by GPU, as the FP32 conv's are.  The FP32 dense pick is
 * asked for once per seer_picker_best, and only where the cap can go
 * under a time: until then its lower bound lo stands for it, that conv's
 * floor (every algorithm's and cuDNN's choice's; a backward data's dual
 * reading is at least it too), or for a strided 1x1 conv the stride-1
 * one's (strided_1x1_cap). */
typedef struct {
    struct seer_conv d; /* the FP32 dense conv */
    int state;          /* 0: nothing known; 1: lo; 2: t, its pick's time; -1: the pick failed */
    double lo, t;
} fp32_dense_t;

/* At most the FP32 dense conv's pick (its time where known). */
static double fp32_dense_lower(const struct seer_model *m, seer_direction_t dir, fp32_dense_t *f)
{
    if (f->state == 2) return f->t;
    if (f->state == 0) {
        struct seer_conv one = f->d;
        f->lo = seer_model_conv_floor(m, &f->d, dir);
        one.shape.stride_h = one.shape.stride_w = 1;
        if (one.shape.r == 1 && one.shape.s == 1 && (f->d.shape.stride_h != 1 || f->d.shape.stride_w != 1) &&
            !seer_conv_init(NULL, &one, one.dtype, one.layout, &one.shape))
            f->lo = fmin(f->lo, seer_model_conv_floor(m, &one, dir));
        f->lo *= 1 - 1e-9;
        f->state = 1;
    }
    return f->lo;
}

/* The FP32 conv's grouped cap of cv from its dense conv's time td: td,
 * and for a depthwise conv the depthwise cap from it (monotone in td). */
static double fp32_grouped_cap(const struct seer_model *m, const struct seer_conv *cv, seer_direction_t dir, double td)
{
    struct seer_conv f = *cv;
    double roof;
    f.dtype = SEER_DTYPE_FP32;
    if (cv->shape.c == cv->shape.groups && !seer_roofline_conv(NULL, &m->gpu, &f, dir, &roof))
        td = fmin(td, depthwise_cap(m, td, roof));
    return td;
}

/* *t, cv's time in best_own (the above of best_own), at most the FP32
 * conv's grouped cap at least cv's floor. */
static void fp32_dense_cap(const struct seer_model *m, const struct seer_conv *cv, seer_direction_t dir,
                           fp32_dense_t *f, double above, double *t)
{
    seer_algo_eval_t e;
    double under = fmin(*t, above), own;
    if (f->state < 0 || fp32_grouped_cap(m, cv, dir, fp32_dense_lower(m, dir, f)) >= under ||
        (own = seer_model_conv_floor(m, cv, dir)) >= under)
        return;
    if (f->state != 2) {
        if (seer_picker_best(m, &f->d, dir, &e)) {
            f->state = -1;
            return;
        }
        f->state = 2;
        f->t = e.time_ms;
    }
    double cap = fmax(fp32_grouped_cap(m, cv, dir, f->t), own);
    if (cap < *t) *t = cap;
}

/* At most the time best_own and wide_cap give cv, groups > 1, with
 * dense and f32: the least of what each of their steps can set (the FP32
 * and pseudo-half convs whatever the dtype's conditions; a backward
 * data's padded conv, the only direction wide_cap asks it; the FP32 dense
 * conv's cap), before the one-group floor, which only raises it. */
static double own_lower(const struct seer_model *m, const struct seer_conv *cv, seer_direction_t dir,
                        const seer_algo_eval_t *dense, fp32_dense_t *f32)
{
    struct seer_conv o = *cv, wide;
    double lo = pick_lower(m, cv, dir), roof;
    o.dtype = SEER_DTYPE_FP32;
    if (seer_dtype_math(cv->dtype)) lo = fmin(lo, pick_lower(m, &o, dir));
    o.dtype = SEER_DTYPE_FP16_PSEUDO;
    if (cv->dtype == SEER_DTYPE_FP16) lo = fmin(lo, pick_lower(m, &o, dir));
    if (dense) lo = fmin(lo, dense->time_ms);
    if (dir == SEER_DIR_BWD_DATA && seer_conv_padded_groups(cv, &wide))
        lo = fmin(lo, own_lower(m, &wide, dir, NULL, NULL));
    if (cv->shape.c == cv->shape.groups && !seer_roofline_conv(NULL, &m->gpu, cv, dir, &roof))
        lo = fmin(lo, roof + seer_gpu_launch_gap_ms(&m->gpu));
    /* fp32_dense_cap (cv's floor read only where the rest is under lo) */
    double f = dense && f32 && f32->state >= 0 ? fp32_grouped_cap(m, cv, dir, fp32_dense_lower(m, dir, f32)) : INFINITY;
    if (f < lo) lo = fmin(lo, fmax(f, seer_model_conv_floor(m, cv, dir)));
    return lo;
}

/* seer_picker_best of one grouping: all but the fewer-groups and
 * stride-1 caps and the one-group floor (one_group_floor), which the
 * caller applies.
 * dense: the fastest of cv's dense conv, NULL where it failed (unread
 * for a dense cv).  above: where the time is at least that, any time
 * at least that will do (the walk only asks whether it is lower;
 * INFINITY: the time itself), so the FP32 and pseudo-half convs' picks
 * and cuDNN's choice's dual reading whose bounds are at least it are
 * skipped.  own: best_of's time (0 where it failed).  f32: the FP32 dense
 * conv of a grouped conv in tensor-core math (fp32_dense_cap), else NULL. */
static seer_status_t best_own(const struct seer_model *m, const struct seer_conv *cv, seer_direction_t dir,
                              const seer_algo_eval_t *dense, fp32_dense_t *f32, double above, double *own,
                              seer_algo_eval_t *out)
{
    seer_status_t st = best_of(m, cv, dir, above, out);
    if (st && !seer_picker_soft(st)) return st;
    if (own) *own = st ? 0 : out->time_ms;
    seer_algo_eval_t e;
    /* Tensor-core math is allowed, not required: a TF32 conv is FP32 data,
     * and cuDNN runs its FP32 kernels (Winograd, FFT) where they are
     * faster; FP16 and BF16 are held to the FP32 conv's time as physics
     * (docs/method.md): their tensor-core kernels do its work at a higher
     * rate (cuDNN's pseudo-half SIMT kernels, measured slower than their
     * FP32 twins, seer_conv_legacy_slowdown, are not what this rests on).
     * So a tensor-core conv is never slower than the FP32 one. */
    struct seer_conv fp32 = *cv;
    fp32.dtype = SEER_DTYPE_FP32;
    /* FP16 and BF16 only take the FP32 time where it is lower, TF32 too
     * when its own is timed from measurements; the FP32 time is never
     * under its floor (nor a grouped conv's under pick_lower), so most
     * often the FP32 conv is not predicted. */
    int capped = cv->dtype != SEER_DTYPE_TF32;
    int if_lower = capped || (!st && out->source != SEER_SOURCE_ANALYTICAL);
    if (seer_dtype_math(cv->dtype) && !(capped && st) &&
        !(if_lower && fmax(seer_model_conv_floor(m, &fp32, dir), pick_lower(m, &fp32, dir)) >=
                          fmin(out->time_ms, above)) &&
        !best_of(m, &fp32, dir, above, &e)) {
        int rank_e = e.source == SEER_SOURCE_ANALYTICAL, rank_o = out->source == SEER_SOURCE_ANALYTICAL;
        if (capped) {
            /* never under this dtype's own floor: BF16 has no FFT or
             * fused Winograd kernels (launch.h), so an FP32 one can beat
             * what any BF16 kernel can do (a 5x5 conv on an RTX 3090,
             * whose BF16 tensor cores run at twice its FP32 rate, took
             * 13.4 ms against a BF16 floor of 24.2 while BF16 had no
             * non-fused Winograd either) */
            double t = e.time_ms < out->time_ms ? fmax(e.time_ms, seer_model_conv_floor(m, cv, dir)) : out->time_ms;
            if (t < out->time_ms) out->time_ms = t;
        } else if (st || rank_e < rank_o || (rank_e == rank_o && e.time_ms < out->time_ms)) {
            *out = e;
            st = SEER_STATUS_SUCCESS;
        }
    }
    /* FP16 data run cuDNN's pseudo-half kernels too (FMA math on half the
     * bytes), which is all a GPU without FP16 tensor cores runs for FP16:
     * so a faster GPU with them is never predicted slower than such a one
     * (an A100 bwd_data once took 2x a GTX 1080 Ti's time). */
    if (cv->dtype == SEER_DTYPE_FP16 && !st && seer_gpu_run_dtype(&m->gpu, SEER_DTYPE_FP16) == SEER_DTYPE_FP16) {
        struct seer_conv half = *cv;
        half.dtype = SEER_DTYPE_FP16_PSEUDO;
        if (fmax(seer_model_conv_floor(m, &half, dir), pick_lower(m, &half, dir)) < fmin(out->time_ms, above) &&
            !best_of(m, &half, dir, above, &e) && e.time_ms < out->time_ms)
            out->time_ms = e.time_ms;
    }
    /* A grouped conv is a 1/groups share of the dense conv's FLOPs on no
     * more bytes: never slower than the dense conv (a minimum of times
     * monotone in the work stays monotone; scaling the dense time by the
     * ratio of their rooflines did not: it dropped as channels doubled). */
    if (st || cv->shape.groups <= 1 || !dense) return st;
    if (dense->time_ms < out->time_ms) out->time_ms = dense->time_ms;
    /* A depthwise conv (one input channel per group) does 1/C of the dense
     * conv's FLOPs on the same activations: at most a quarter of the dense
     * time where that is over a millisecond, unless its own roofline says
     * more.  Below, a flat quarter of a millisecond, then the dense time:
     * cuDNN's depthwise kernels ran as long as the dense conv of small
     * MobileNet layers (H100, FP16, 8 x 144 x 56 x 56: 15 us either way),
     * so the quarter everywhere put them 4x too fast.  Each term is
     * monotone and ordered by GPU, so the properties above still hold.
     * In tensor-core math the FP32 conv's grouped caps hold it too
     * (fp32_dense_cap), which the FP32 dense conv's FFT or Winograd can
     * make lower than these. */
    double roof = 0;
    if (cv->shape.c == cv->shape.groups && !seer_roofline_conv(NULL, &m->gpu, cv, dir, &roof)) {
        double cap = depthwise_cap(m, dense->time_ms, roof);
        if (cap < out->time_ms) out->time_ms = cap;
    }
    if (f32) fp32_dense_cap(m, cv, dir, f32, above, &out->time_ms);
    return st;
}

/* The last step of a grouped conv's seer_picker_best of one grouping
 * (best_own, st SUCCESS, dense not NULL): *t is never faster than one of
 * its groups alone, the dense conv of C/g channels in and K/g out, whose
 * work it holds (at most the dense conv's time, which holds that one's):
 * a 2-group depthwise conv's roofline path once took 0.009 ms where the
 * 1-channel conv below it, timed by the measured families, took 0.052
 * (T4 bwd_filter, 32 x 56 x 56), so doubling the channels made the time
 * fall 5.6x.  It binds only on small group counts: one channel of a
 * 144-group MobileNet layer is 0.04 ms against 0.15 */
static void one_group_floor(const struct seer_model *m, const struct seer_conv *cv, seer_direction_t dir,
                            const seer_algo_eval_t *dense, double *t)
{
    struct seer_conv one = *cv;
    seer_algo_eval_t e1;
    one.shape.c = cv->shape.c / cv->shape.groups;
    one.shape.k = cv->shape.k / cv->shape.groups;
    one.shape.groups = 1;
    if (!seer_conv_init(NULL, &one, cv->dtype, cv->layout, &one.shape) && !seer_picker_best(m, &one, dir, &e1))
        *t = fmax(*t, fmin(e1.time_ms, dense->time_ms));
}

/* The walk of picker_best over fewer groups.  The one-group floor of a
 * grouping (a whole pick of the one-group conv, with bwd_data's dual)
 * only raises its time, to at most the dense conv's, so a grouping under
 * the time so far waits in p[] with its time before the floor, cv's own
 * first, and only the least waiting ones are floored, when the walk ends
 * or a test needs the time so far: the least is the same, and a floor
 * that does not bind (most of them) settles every other waiting grouping,
 * at least as slow. */
#define SEER_WALK_WAITING 32
typedef struct {
    const struct seer_model *m;
    const struct seer_conv *cv;
    seer_direction_t dir;
    const seer_algo_eval_t *dense; /* not NULL where any grouping waits */
    fp32_dense_t *f32;             /* best_own's */
    double *t;                  /* the least time settled so far */
    int n;
    struct { int groups; double t; } p[SEER_WALK_WAITING];
} walk_t;

/* *w->t becomes the time so far with the waiting groupings: each floored,
 * least first, while one is under it. */
static void settle(walk_t *w)
{
    for (;;) {
        int j = -1;
        for (int i = 0; i < w->n; i++)
            if (w->p[i].t < *w->t && (j < 0 || w->p[i].t < w->p[j].t)) j = i;
        if (j < 0) break;
        struct seer_conv c = *w->cv;
        double t = w->p[j].t;
        c.shape.groups = w->p[j].groups;
        one_group_floor(w->m, &c, w->dir, w->dense, &t);
        if (t < *w->t) *w->t = t;
        w->p[j] = w->p[--w->n];
    }
    w->n = 0;
}

/* At least the time so far: a waiting grouping's is at most the dense
 * conv's. */
static double walk_hi(const walk_t *w)
{
    return w->n ? fmin(*w->t, w->dense->time_ms) : *w->t;
}

/* At most the time so far: the least waiting or settled time. */
static double walk_lo(const walk_t *w)
{
    double lo = *w->t;
    for (int i = 0; i < w->n; i++) lo = fmin(lo, w->p[i].t);
    return lo;
}

/* 1 when x is at least the time so far with the waiting groupings, which
 * lies between walk_lo and walk_hi: settled only where x lies between
 * those. */
static int at_least(walk_t *w, double x)
{
    if (x < walk_lo(w)) return 0;
    if (x >= walk_hi(w)) return 1;
    settle(w);
    return x >= *w->t;
}

/* At most any time a backward data's dual reading (dual_reading) gives
 * in the pick of wide (best_own), the padded conv of a narrow grouped
 * conv whose best_of took own: in wide's dtype where it runs FMA math,
 * in FP32 for the tensor-core dtypes' cap, in pseudo-half for FP16's.
 * The reading is sqrt(c * e * scale), then at least wide's floor where
 * under c, else at least c: at least sqrt(c * e * scale) either way, and
 * wide's bound (seer_model_grouped_lower).  c, cuDNN's choice's time of
 * wide, is at least that bound, and in wide's dtype at least own too
 * (cv's choice took the same on wide, narrow_at_most_padded); e, the pick
 * of the dual, a grouped forward conv with at least 32 channels per group
 * in and out, is at least the least of its dense conv's floor (all its
 * dense pick can give, FMA math and stride 1: no caps) and its own bound,
 * which fewer groups (the walk) only raise.  0 where a strided 1x1 conv
 * reads the stride-1 one's choice instead. */
static double dual_lower(const struct seer_model *m, const struct seer_conv *wide, double own)
{
    const seer_dtype_t run = seer_gpu_run_dtype(&m->gpu, wide->dtype);
    const struct { int on; seer_dtype_t dt; } x[] = {{!seer_dtype_math(run), wide->dtype},
                                                     {seer_dtype_math(wide->dtype), SEER_DTYPE_FP32},
                                                     {wide->dtype == SEER_DTYPE_FP16, SEER_DTYPE_FP16_PSEUDO}};
    const seer_conv_shape_t *sh = &wide->shape;
    double lo = INFINITY;
    if (sh->r == 1 && sh->s == 1 && (sh->stride_h != 1 || sh->stride_w != 1)) return 0;
    for (size_t i = 0; i < sizeof x / sizeof x[0]; i++) {
        struct seer_conv w = *wide, dual;
        double scale;
        w.dtype = x[i].dt;
        if (!x[i].on || (scale = seer_bwd_data_dual(&w, &dual)) <= 0) continue;
        double floor = seer_model_grouped_lower(m, &w, SEER_DIR_BWD_DATA), c = fmax(floor, i ? 0 : own);
        double e = dual_pick_lower(m, &dual, seer_model_grouped_lower(m, &dual, SEER_DIR_FWD));
        lo = fmin(lo, fmax(sqrt(c * e * scale) * (1 - 1e-9), floor));
    }
    return lo;
}

/* A narrow grouped conv is never slower than its padded one's fastest
 * either (the last of best_own's caps, *t its time, own its best_of's),
 * whose readings (bwd_data's dual) its own roofline lacks (its own
 * algorithms: a bound needs no caps of its own).  That pick is one of
 * the padded conv's predictions, in this dtype, FP32 or pseudo-half
 * (best_own's caps), which every algorithm of cv already took (model.c,
 * narrow_at_most_padded) and so *t, unless skipped as at least *t or
 * above: only a backward data's dual reading can make it faster.  So it
 * is a whole pick (of the dual too), asked for only where its bound or
 * the dual readings' (dual_lower) is under *t and above (w: the walk
 * whose grouping cv is, else NULL). */
static void wide_cap(const struct seer_model *m, const struct seer_conv *cv, seer_direction_t dir, double own,
                     double above, walk_t *w, double *t)
{
    struct seer_conv wide;
    seer_algo_eval_t e;
    if (dir != SEER_DIR_BWD_DATA || !seer_conv_padded_groups(cv, &wide)) return;
    double lo = fmax(own_lower(m, &wide, dir, NULL, NULL), dual_lower(m, &wide, own));
    /* in a walk, above may be the time so far's upper end: the waiting
     * groupings are settled first where the pick could be spared */
    if (w && lo >= fmin(*t, walk_lo(w)) && lo < fmin(*t, above)) {
        settle(w);
        above = fmin(above, *w->t);
    }
    double under = fmin(*t, above);
    if (lo < under && !best_own(m, &wide, dir, NULL, NULL, under, NULL, &e) && e.time_ms < *t) *t = e.time_ms;
}

/* cv in gp groups (best_own, then one_group_floor) caps the walk's time;
 * 1 when it ends the walk of picker_best: its roofline is already over
 * the time, and fewer groups' rooflines are higher.  A grouping whose
 * bound (own_lower) is already at least the time cannot lower it and
 * is not timed: its narrow groups' FLOPs at the grouped kernels' 5 % of
 * the peak, or their padded conv's, are mostly far over a depthwise
 * conv's time. */
static int fewer_groups(walk_t *w, int gp)
{
    struct seer_conv c = *w->cv;
    seer_algo_eval_t e;
    double roof, hi, own;
    c.shape.groups = gp;
    if (seer_conv_init(NULL, &c, w->cv->dtype, w->cv->layout, &c.shape) ||
        seer_roofline_conv(NULL, &w->m->gpu, &c, w->dir, &roof) || at_least(w, roof))
        return 1;
    if (at_least(w, own_lower(w->m, &c, w->dir, w->dense, w->f32)) ||
        best_own(w->m, &c, w->dir, w->dense, w->f32, hi = walk_hi(w), &own, &e))
        return 0;
    if (!w->dense) {
        if (e.time_ms < hi) *w->t = e.time_ms; /* no floor, and none waits */
        return 0;
    }
    wide_cap(w->m, &c, w->dir, own, hi, w, &e.time_ms);
    if (!(e.time_ms < walk_hi(w))) return 0;
    if (w->n == SEER_WALK_WAITING) settle(w);
    w->p[w->n].groups = gp;
    w->p[w->n++].t = e.time_ms;
    return 0;
}

/* A grouped conv is never slower than the same conv in fewer groups, g'
 * groups for any g' dividing g: each of its groups lies inside one of
 * theirs, so it computes a subset of their products.  The narrow path (a
 * roofline held to its padded conv, whose channels grow with g) made a
 * 16-channel-per-group conv twice as slow as at 32 (A100, 64 x 256 x 56
 * x 56, groups 8 -> 16: 2.44 -> 4.86 ms), and the dense families' tiles
 * up to 45 % slower between two wide groupings.  So the time is the
 * lowest over g's divisors, each grouping timed once (best_own, the dense
 * conv shared), from the largest down: fewer groups do more work on the
 * same activations, so their datasheet roofline only grows, and the
 * first whose roofline is already over the time so far ends the walk,
 * since every prediction is at least its roofline.  (Walking only g, g/p,
 * g/p/q left 240 groups slower than 8: a review found 110 k of 2.6 M
 * divisor pairs over 5 % slower.)  The one-group floor of each stays
 * under the walk's (a one-group conv of g' holds g's).  Timing every
 * grouping whole took 100-2000 us a pick: a grouping whose bound is over
 * the time so far is not timed (fewer_groups), the floors wait (walk_t),
 * and the padded and dual picks are asked for only where they can go
 * under it (wide_cap, dual_reading), each step exact
 * (docs/performance.md). */
static seer_status_t picker_best(const struct seer_model *m, const struct seer_conv *cv,
                                 seer_direction_t dir, seer_algo_eval_t *out)
{
    if (cv->shape.groups <= 1) return best_own(m, cv, dir, NULL, NULL, INFINITY, NULL, out);
    struct seer_conv c = *cv;
    seer_algo_eval_t d;
    c.shape.groups = 1;
    const seer_algo_eval_t *dense =
        seer_conv_init(NULL, &c, cv->dtype, cv->layout, &c.shape) || seer_picker_best(m, &c, dir, &d) ? NULL : &d;
    double own;
    /* in tensor-core math, the FP32 dense conv (fp32_dense_cap) */
    fp32_dense_t f = {.d = c, .state = 0}, *f32 = NULL;
    f.d.shape.groups = 1;
    if (dense && seer_dtype_math(cv->dtype) && !seer_conv_init(NULL, &f.d, SEER_DTYPE_FP32, cv->layout, &f.d.shape))
        f32 = &f;
    seer_status_t st = best_own(m, cv, dir, dense, f32, INFINITY, &own, out);
    if (st) return st;
    walk_t w = {.m = m, .cv = cv, .dir = dir, .dense = dense, .f32 = f32, .t = &out->time_ms, .n = 0};
    if (dense) { /* cv's own one-group floor waits too */
        wide_cap(m, cv, dir, own, INFINITY, NULL, &out->time_ms);
        w.p[w.n].groups = cv->shape.groups;
        w.p[w.n++].t = out->time_ms;
        out->time_ms = INFINITY;
    }
    /* g's divisors under g, largest first: g / q for q = 2, 3, ... while
     * q <= g / q, then those q from the largest down */
    int g = cv->shape.groups, q, stop = 0;
    for (q = 2; !stop && q <= g / q; q++)
        if (g % q == 0) stop = fewer_groups(&w, g / q);
    for (q--; !stop && q >= 2; q--)
        if (g % q == 0 && q != g / q) stop = fewer_groups(&w, q);
    settle(&w);
    return st;
}

/* A strided 1x1 conv is never slower than the stride-1 one over the
 * same input, whose outputs, input gradient terms or filter-gradient
 * sums hold its own: on Hopper cuDNN transposes a strided NCHW one in
 * tensor-core math in full while the stride-1 one reads NCHW as it is
 * (nchw_copy_share, model.c), so its own algorithms can be slower. */
static void strided_1x1_cap(const struct seer_model *m, const struct seer_conv *cv, seer_direction_t dir,
                            seer_algo_eval_t *out)
{
    seer_conv_shape_t one = cv->shape;
    struct seer_conv c;
    seer_algo_eval_t e;
    if (one.r != 1 || one.s != 1 || (one.stride_h == 1 && one.stride_w == 1)) return;
    one.stride_h = one.stride_w = 1;
    if (!seer_conv_init(NULL, &c, cv->dtype, cv->layout, &one) && !seer_picker_best(m, &c, dir, &e) &&
        e.time_ms < out->time_ms)
        out->time_ms = e.time_ms;
}

seer_status_t seer_picker_best(const struct seer_model *m, const struct seer_conv *cv,
                               seer_direction_t dir, seer_algo_eval_t *out)
{
    /* The conv as the GPU runs it (gpu.h, seer_gpu_run_dtype, as
     * seer_predict_network times it): FP16 without FP16 tensor cores is
     * pseudo-half, TF32 without TF32 ones FP32.  Every algorithm already
     * predicts them alike, but the picker's tensor-core steps (the FP32
     * cap, the dual reading's FP16 forward pick) read the dtype asked
     * for, and took a TITAN Xp's FP16 conv under its own pseudo-half one
     * and under a TITAN V's (bwd_data 1x3x122x122 -> 12, 5x5: 0.0178
     * against 0.0228 and 0.0192 ms). */
    struct seer_conv run;
    seer_dtype_t dt = seer_gpu_run_dtype(&m->gpu, cv->dtype);
    if (dt != cv->dtype) {
        run = *cv;
        run.dtype = dt;
        cv = &run;
    }
    seer_status_t st = picker_best(m, cv, dir, out);
    if (!st) strided_1x1_cap(m, cv, dir, out);
    return st;
}

int seer_algo_deterministic(seer_direction_t dir, int algo)
{
    /* cuDNN: the backward implicit GEMMs ALGO_0 (and filter ALGO_3)
     * accumulate with atomics; everything else is deterministic. */
    if (dir == SEER_DIR_BWD_DATA) return algo != SEER_BWD_DATA_ALGO_0;
    if (dir == SEER_DIR_BWD_FILTER) return algo != SEER_BWD_FILTER_ALGO_0 && algo != SEER_BWD_FILTER_ALGO_3;
    return 1;
}

int seer_algo_math_type(seer_dtype_t dt)
{
    switch (dt) {
    case SEER_DTYPE_FP16:
    case SEER_DTYPE_BF16: return SEER_MATH_TENSOR_OP;
    case SEER_DTYPE_TF32: return SEER_MATH_DEFAULT; /* cuDNN's default math allows TF32 */
    default: return SEER_MATH_FMA;
    }
}

static double pow2_at_least(double x) { double p = 1; while (p < x) p *= 2; return p; }

/* What an algorithm keeps in its workspace (docs/picker.md).  The shapes
 * of the intermediate tensors are those of launch.c's kernel view, but
 * for FFT_TILING's 2D tiles, always 32x32 here: the 16x16 ones the kernel
 * view takes for small images (the A100's grids, cuDNN 8.9.2) were not
 * what cuDNN 9.14 allocated on Hopper, 32x32 to the byte. */
seer_status_t seer_workspace_bytes(seer_err_t *e, const struct seer_conv *cv, seer_direction_t dir,
                                   int algo, size_t *bytes)
{
    seer_kview_t kv[SEER_MAX_KERNELS];
    int nk;
    /* the kernels that run (launch.h): TF32 runs the transform algorithms'
     * FP32 kernels; no GPU here, so the GPU's own rule does not apply */
    struct seer_conv run = *cv;
    run.dtype = seer_conv_run_dtype(NULL, cv->dtype, dir, algo);
    cv = &run;
    seer_status_t st = seer_conv_kernels(e, cv, dir, algo, kv, &nk); /* support check */
    if (st) return st;
    const seer_conv_shape_t *sh = &cv->shape;
    double es = seer_dtype_size(cv->dtype), g = sh->groups;
    double N = sh->n, C = sh->c, H = sh->h, W = sh->w, K = sh->k, R = sh->r, S = sh->s;
    double P = cv->p, Q = cv->q, ws = 0;
    int kind = seer_algo_kind(dir, algo);
    switch (kind) {
    case SEER_K_GEMM_IMPLICIT:
        /* backward-filter ALGO_3's "small workspace": for 2-byte data
         * an FP32 copy of dW (cuDNN 9.14: 1.00-1.02 x K * C * R * S * 4
         * bytes in 182 of the H100's 184 dense FP16/BF16 calls and 188 of
         * the H200's 196), none for FP32/TF32 (66 of 96 and 90 of 124) or
         * a grouped conv (all 32): data/GPU/bench/picks.csv */
        ws = dir == SEER_DIR_BWD_FILTER && algo == SEER_BWD_FILTER_ALGO_3 && g == 1 && es == 2
                 ? K * C * R * S * 4 : 0;
        break;
    case SEER_K_GEMM_PRECOMP:
        /* forward only: a table of filter-tap offsets, 8 bytes per (c, r, s);
         * the backward ALGO_1s need none */
        ws = dir == SEER_DIR_FWD ? 8.0 * (C / g) * R * S : 0;
        break;
    case SEER_K_GEMM_EXPLICIT: /* the whole im2col matrix: (C/g * R * S) x (N * P * Q) per group */
        ws = C * R * S * N * P * Q * es;
        break;
    case SEER_K_FFT: case SEER_K_FFT_TILING: {
        /* data, filter and output transformed to complex fp32 (8 bytes) */
        double side = pow2_at_least(fmax(H + 2 * sh->pad_h, W + 2 * sh->pad_w));
        double tiles = 1, freq = side * (side / 2 + 1);
        if (kind == SEER_K_FFT_TILING) seer_fft_tiling(cv, 32, &tiles, &freq);
        ws = freq * 8 * (N * tiles * (C + K) + K * C);
        break;
    }
    case SEER_K_WINO: /* fused F(2x2, 3x3): only the transformed filter, alpha = 4 */
        ws = 16 * K * C * es;
        break;
    case SEER_K_WINO_NF: {
        /* F(4x4, r x r): transformed data, filter and output, alpha = 3 + r */
        double a = 3 + R, ph = dir == SEER_DIR_BWD_DATA ? H : P, pw = dir == SEER_DIR_BWD_DATA ? W : Q;
        double tiles = N * ceil(ph / 4) * ceil(pw / 4);
        ws = a * a * (tiles * (C + K) + K * C) * es;
        break;
    }
    default:
        return seer_fail(e, SEER_STATUS_INTERNAL, "no workspace formula for %s %s",
                         seer_direction_name(dir), seer_algo_name(dir, algo));
    }
    *bytes = ws >= 1.8e19 ? SIZE_MAX : (size_t)ws;
    return SEER_STATUS_SUCCESS;
}

seer_status_t seer_conv_workspace_size(seer_handle_t h, const seer_conv *desc,
                                       seer_direction_t dir, int algo, size_t *bytes)
{
    if (!desc || !bytes)
        return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_conv_workspace_size: %s is NULL",
                          !desc ? "desc" : "bytes");
    if (!desc->set) return seer_error(h, SEER_STATUS_BAD_PARAM, "conv descriptor was never set");
    if ((unsigned)dir > SEER_DIR_BWD_FILTER)
        return seer_error(h, SEER_STATUS_BAD_PARAM, "direction %d out of range", (int)dir);
    seer_err_t e;
    return seer_workspace_bytes(&e, desc, dir, algo, bytes) ? seer_err_report(h, &e) : SEER_STATUS_SUCCESS;
}

typedef struct {
    seer_conv_algo_perf_t p;
    int simt;                   /* seer_picker_simt: ranks after the analytical ones */
} ranked_t;

/* Sort rank of an entry: usable and timed from measurements, usable and
 * timed by the analytical model only, SIMT kernels in tensor-core math
 * (seer_picker_simt: slower than any tensor-core algorithm, whatever
 * times guess), untimed, over the limit, unsupported. */
static int rank_of(const ranked_t *r)
{
    const seer_conv_algo_perf_t *p = &r->p;
    if (p->status == SEER_STATUS_SUCCESS) return r->simt ? 2 : p->source == SEER_SOURCE_ANALYTICAL;
    return p->status == SEER_STATUS_NOT_CALIBRATED || p->status == SEER_STATUS_BAD_PREDICTION ? 3
         : p->status == SEER_STATUS_WORKSPACE_LIMIT ? 4 : 5;
}

static int by_rank(const void *x, const void *y)
{
    const ranked_t *ra_ = x, *rb_ = y;
    const seer_conv_algo_perf_t *a = &ra_->p, *b = &rb_->p;
    int ra = rank_of(ra_), rb = rank_of(rb_);
    if (ra != rb) return ra - rb;
    int ta = a->time >= 0, tb = b->time >= 0;
    if (ta != tb) return tb - ta;
    if (ta && a->time != b->time) return a->time < b->time ? -1 : 1;
    return a->algo - b->algo;
}

static seer_status_t pick(seer_handle_t h, const seer_model *m, const seer_conv *desc,
                          seer_direction_t dir, size_t limit, seer_conv_algo_perf_t *perf,
                          int capacity, int *returned)
{
    static const char *const fn[] = {"seer_pick_conv_algo", "seer_pick_conv_bwd_data_algo",
                                     "seer_pick_conv_bwd_filter_algo"};
    if (!m || !desc || !perf || !returned)
        return seer_error(h, SEER_STATUS_BAD_PARAM, "%s: %s is NULL", fn[dir],
                          !m ? "model" : !desc ? "desc" : !perf ? "perf" : "returned");
    if (capacity < 1)
        return seer_error(h, SEER_STATUS_BAD_PARAM, "%s: capacity must be >= 1 (got %d)", fn[dir],
                          capacity);
    if (!desc->set) return seer_error(h, SEER_STATUS_BAD_PARAM, "conv descriptor was never set");
    seer_algo_eval_t ev[SEER_MAX_ALGOS];
    ranked_t all[SEER_MAX_ALGOS];
    int n = seer_picker_eval(m, desc, dir, ev);
    /* each algorithm at most its SIMT twin's and dense conv's times, as
     * seer_predict_conv gives it; its source and math stay its own */
    for (int i = 0; i < n; i++) seer_picker_algo_caps(m, desc, dir, &ev[i]);
    int usable = 0, untimed = 0, over = 0, timed_over = 0, bad = -1;
    size_t smallest = SIZE_MAX;
    for (int i = 0; i < n; i++) {
        seer_conv_algo_perf_t *p = &all[i].p;
        memset(&all[i], 0, sizeof all[i]);
        p->algo = ev[i].algo;
        all[i].simt = seer_picker_simt(m, desc, dir, p->algo);
        p->determinism = seer_algo_deterministic(dir, p->algo);
        /* cuDNN lists a SIMT plain GEMM under DEFAULT math only (seer_picker_simt) */
        p->math_type = all[i].simt && seer_algo_simt(dir, p->algo) ? SEER_MATH_DEFAULT : seer_algo_math_type(desc->dtype);
        p->time = -1;
        p->source = ev[i].source;
        size_t ws = 0;
        seer_err_t we;
        seer_status_t wst = seer_workspace_bytes(&we, desc, dir, p->algo, &ws);
        /* A real error (not an answer about this algorithm): its message
         * to the handle.  A time out of range is this algorithm's: the
         * others may still be timed (cuDNN's per-algorithm status). */
        if (ev[i].err.st == SEER_STATUS_BAD_PREDICTION) {
            if (bad < 0) bad = i;
        } else if (ev[i].err.st && !seer_picker_soft(ev[i].err.st)) {
            return seer_err_report(h, &ev[i].err);
        }
        if (wst && !seer_picker_soft(wst)) return seer_err_report(h, &we);
        p->status = ev[i].err.st ? ev[i].err.st : wst;
        if (p->status == SEER_STATUS_UNSUPPORTED) continue;
        p->memory = ws;
        if (p->status == SEER_STATUS_SUCCESS) p->time = ev[i].time_ms;
        if (ws > limit) {
            if (p->status == SEER_STATUS_SUCCESS) {
                timed_over++;
                if (ws < smallest) smallest = ws;
            }
            p->status = SEER_STATUS_WORKSPACE_LIMIT;
            over++;
        } else if (p->status == SEER_STATUS_SUCCESS) {
            usable++;
        } else {
            untimed++;
        }
    }
    qsort(all, (size_t)n, sizeof *all, by_rank);
    int r = n < capacity ? n : capacity;
    for (int i = 0; i < r; i++) perf[i] = all[i].p;
    *returned = r;
    if (usable) return SEER_STATUS_SUCCESS;
    if (timed_over)
        return seer_error(h, SEER_STATUS_NO_ALGORITHM,
                          "no %s algorithm the model can time fits the workspace limit of %zu bytes "
                          "(the smallest needs %zu; %d untimed ones fit)", seer_direction_name(dir),
                          limit, smallest, untimed);
    if (bad >= 0) return seer_err_report(h, &ev[bad].err);
    if (untimed || over)
        return seer_error(h, SEER_STATUS_NOT_CALIBRATED,
                          "model %s cannot time any %s algorithm for %s", m->gpu_id,
                          seer_direction_name(dir), seer_dtype_name(desc->dtype));
    return seer_error(h, SEER_STATUS_UNSUPPORTED, "no %s algorithm supports this %s convolution on %s",
                      seer_direction_name(dir), seer_dtype_name(desc->dtype), m->gpu_id);
}

seer_status_t seer_pick_conv_algo(seer_handle_t h, const seer_model *m, const seer_conv *desc,
                                  size_t limit, seer_conv_algo_perf_t *perf, int capacity,
                                  int *returned)
{
    return pick(h, m, desc, SEER_DIR_FWD, limit, perf, capacity, returned);
}

seer_status_t seer_pick_conv_bwd_data_algo(seer_handle_t h, const seer_model *m,
                                           const seer_conv *desc, size_t limit,
                                           seer_conv_algo_perf_t *perf, int capacity, int *returned)
{
    return pick(h, m, desc, SEER_DIR_BWD_DATA, limit, perf, capacity, returned);
}

seer_status_t seer_pick_conv_bwd_filter_algo(seer_handle_t h, const seer_model *m,
                                             const seer_conv *desc, size_t limit,
                                             seer_conv_algo_perf_t *perf, int capacity,
                                             int *returned)
{
    return pick(h, m, desc, SEER_DIR_BWD_FILTER, limit, perf, capacity, returned);
}

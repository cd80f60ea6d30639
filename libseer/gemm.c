/* GEMM model (fully connected layers, batched matmuls).
 *
 * A cuBLAS GEMM is one tiled kernel: blocks = ceil(m/tm) * ceil(n/tn) *
 * batch, each computing a tm x tn tile of C over the whole k, B_max =
 * bps * SMs of them resident at once.  The time follows the conv main
 * kernel's formula (model.c), per math type:
 *
 *   T = c0 * waves * B_max * 2*tm*tn*k / peak            compute per wave
 *     + c1 * waves * 1 us                                 per-wave latency
 *     + c2 * (waves - 1 + fill) * B_max * (tm+tn)*k*es / bw   operand traffic
 *     + c3 * batch*(m + bias)*n*es / bw                   C written; the bias read
 *     + launch gap (3 us)                                 one kernel
 *
 * The bias is the kernel's epilogue (PyTorch's addmm calls cuBLASLt's
 * bias epilogue): 415 of the H100's 1216 FP32 nn.Linear calls under 30
 * us (532 of the H200's 1554) took under 5 us, one kernel's time, where a bias
 * pass after the GEMM made two (data/, bench/torch_gemm.py).  Counting
 * that second kernel and a pass over C put the Hopper FP32 GEMMs at
 * 28.8 / 29.0 % MAPE (served, test split; 2.06x too slow under 5 us);
 * one kernel, 22.7 / 22.0 % (docs/networks.md, "The GEMM model").
 *
 * with c0..c3 >= 0 fitted (the launch gap's coefficient is fixed at 1:
 * the GPU's time between back-to-back kernels, not a fit) on relative error (SEER fits relative error), and
 * (tm, tn, bps) chosen by a grid search on the training error: one
 * representative tile per math type and kind, since a prediction cannot
 * know which of cuBLAS's kernels will run.  The kinds are one product
 * (batch 1) and a batched one (batch > 1), fitted apart because cuBLAS
 * picks their tiles apart: NeuSight's A100 rows ran 128x128 tiles for
 * every batched product, down to 17x3, but seven tile shapes for single
 * ones, and a V100 ran 64x64, 32x128 and 128x32 tiles for batched
 * products.  One fit for both scored the A100's linear rows 15.8 % and
 * its batched ones 9.7 % (test split, its model alone), two 13.2 and
 * 4.5 % (docs/networks.md, "The GEMM model").  A GPU with
 * fewer than MIN_GEMM_ROWS rows of a kind fits both kinds' rows together,
 * as the kind of most of them, and a kind without a fit is timed with the
 * other kind's.
 * Transposition is accepted but does not change the formula.
 *
 * Which rows train a GPU's GEMM part (recorded in source_gpu):
 *   1. the GPU's own rows of that math type, when there are any (of
 *      either kind);
 *   2. otherwise rows of a sibling GPU: same architecture, same SM count
 *      and same boost clock, i.e. the same compute peak and tile waves,
 *      differing at most in memory size and bandwidth (A100 40GB PCIe
 *      rows train the A100 80GB PCIe).  The terms are computed with the
 *      sibling's own datasheet, so the fitted coefficients are
 *      efficiencies that carry over; predictions use the model GPU's
 *      bandwidth.  Among several siblings the one with most rows wins
 *      (ties: the smaller id).
 * Rows of any other GPU are ignored.  A fit used on any other GPU (a
 * transferred model) is evaluated there as fit_time says. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "classify.h"
#include "common.h"
#include "conv.h"
#include "fit.h"
#include "gemm.h"
#include "gpu.h"
#include "gpufile.h"

#define MIN_GEMM_ROWS 8
#define NT SEER_GEMM_TERMS

static void terms(const seer_gpu_info_t *g, int tm, int tn, int bps, double batch, double m,
                  double n, double k, seer_dtype_t dt, int bias, double x[NT], double *blocks,
                  double *bmax)
{
    double peak_ms = seer_gpu_peak_flops(g, dt) / 1e3, bw_ms = seer_gpu_dram_bw(g) / 1e3;
    double es = seer_dtype_size(dt);
    double b = ceil(m / tm) * ceil(n / tn) * batch, bm = (double)bps * g->sms;
    double waves = ceil(b / bm), fill = (b - (waves - 1) * bm) / bm;
    x[SEER_G_COMPUTE] = waves * bm * 2.0 * tm * tn * k / peak_ms;
    x[SEER_G_WAVE] = waves * 1e-3;
    x[SEER_G_DRAM] = (waves - 1 + fill) * bm * (double)(tm + tn) * k * es / bw_ms;
    x[SEER_G_OUT] = batch * (m + (bias != 0)) * n * es / bw_ms;
    x[SEER_G_CONST] = seer_gpu_launch_gap_ms(g); /* one kernel, the bias its epilogue's */
    if (blocks) *blocks = b;
    if (bmax) *bmax = bm;
}

/* A, B and C once through DRAM, and the bias vector: the minimum bytes. */
static double gemm_bytes(double b, double m, double n, double k, int bias, double es)
{
    return b * (m * k + k * n + (m + (bias != 0)) * n) * es;
}

/* The roofline's two readings, in seconds: *tf the FLOPs at the peak of
 * the math cuBLAS runs (gpu.h), *tb A, B and C (and the bias vector)
 * once through DRAM; 0 when the GPU cannot run the dtype's math. */
static int gemm_roofline_parts(const seer_gpu_info_t *g, double b, double m, double n, double k, seer_dtype_t dt,
                               int bias, double *tf, double *tb)
{
    dt = seer_gpu_run_dtype(g, dt);
    double peak = seer_gpu_peak_flops(g, dt);
    if (peak <= 0) return 0;
    *tf = 2.0 * b * m * n * k / peak;
    *tb = gemm_bytes(b, m, n, k, bias, seer_dtype_size(dt)) / seer_gpu_dram_bw(g);
    return 1;
}

/* FLOPs at peak or A, B and C once through DRAM, ms; 0 when the GPU
 * cannot run the dtype's math. */
static double gemm_roofline_ms(const seer_gpu_info_t *g, double b, double m, double n, double k, seer_dtype_t dt,
                               int bias)
{
    double tf, tb;
    return gemm_roofline_parts(g, b, m, n, k, dt, bias, &tf, &tb) ? fmax(tf, tb) * 1e3 : 0;
}

/* The roofline plus the kernel's launch gap, ms; 0 when the GPU cannot
 * run the dtype's math. */
static double floor_ms(const seer_gpu_info_t *g, double b, double m, double n, double k, seer_dtype_t dt, int bias)
{
    double t = gemm_roofline_ms(g, b, m, n, k, dt, bias);
    return t > 0 ? t + seer_gpu_launch_gap_ms(g) : 0;
}

/* The fitted formula, never under the roofline plus the launch gap: the
 * fits put the operand re-reads' time, proportional to the FLOPs, on the
 * panel term, which a transfer moves with DRAM bandwidth, so on a GPU
 * with more bandwidth than the source the formula alone can beat the
 * GPU's peak (A100 SXM4 80GB from the PCIe 40GB's fit: 4096^3 fp32 at
 * 1.2x its FP32 peak). */
double seer_gemm_time(const seer_gpu_info_t *g, const seer_gemm_fit_t *f, double batch, double m,
                      double n, double k, seer_dtype_t dt, int bias, seer_class_t *cls)
{
    double x[NT], blocks, bmax, t = 0;
    terms(g, f->tm, f->tn, f->bps, batch, m, n, k, dt, bias, x, &blocks, &bmax);
    for (int i = 0; i < NT; i++) t += f->coef[i] * x[i];
    /* The class from the work, not from the fitted terms: the
     * single-product fits put the FLOP-proportional time on the panel
     * term (c0 0-0.03), which made every GEMM of enough blocks
     * DRAM-bound, 8192^3 included. */
    if (cls) {
        seer_dtype_t run = seer_gpu_run_dtype(g, dt);
        double peak = seer_gpu_peak_flops(g, run);
        *cls = seer_class_static(blocks, bmax, peak > 0 ? 2.0 * batch * m * n * k / peak * 1e3 : 0,
                                 gemm_bytes(batch, m, n, k, bias, seer_dtype_size(run)) / seer_gpu_dram_bw(g) * 1e3);
    }
    t = fmax(t, floor_ms(g, batch, m, n, k, dt, bias));
    return t > 1e-4 ? t : 1e-4;
}

/* A measured fit of products of batch: from the GPU's own rows or a
 * sibling's, on at least SEER_OWN_FAMILY_ROWS of them, of batch's kind:
 * the other kind's fit standing in is a guess (a V100 SXM2 fit of single
 * products bounded the A100's batched ones: served 15.3 -> 18.3 %). */
static int gemm_measured(const struct seer_model *m, const seer_gemm_fit_t *f, int math, double batch)
{
    if (f != &m->gemm[math][batch > 1]) return 0;
    const seer_gpu_info_t *s = seer_gpu_lookup(f->source_gpu), *g = &m->gpu;
    if (!strcmp(f->source_gpu, g->id)) s = g; /* a GPU from a description file */
    return f->present && f->n_rows >= SEER_OWN_FAMILY_ROWS && s && seer_gpu_siblings(s, g);
}

/* The weight of the peak-share reading in a transferred tensor-core
 * fit (fit_time).  The only tensor-core GEMMs measured on a GPU without
 * tensor-core rows of its own are seer-bench's cuBLAS 8192^3 rates on an
 * H100 SXM5 and an H200 (shared/data/gpu-ceilings.csv: FP16, BF16 and
 * TF32), served from the V100 SXM2's FP16 fit: the even mean came out
 * 10-38 % slow on all six, the peak share alone 2-12 % fast, and 0.85
 * leaves them within -4..+6 % (docs/networks.md, "The GEMM model").  A
 * tensor-core GEMM's operand re-reads are served by shared memory and L2
 * far more than an FMA GEMM's, so the formula's DRAM reading of them
 * carries less weight. */
#define SEER_GEMM_TC_PEAK_SHARE_WEIGHT 0.85
/* The same for FMA math.  Leaving one GPU out cannot choose it (0.5 /
 * 0.65 / 0.8 / 1: mean 25.9 / 25.8 / 25.8 / 26.4 %, the sources of the
 * nearest architecture being of like FLOPs per byte); serving each GPU
 * from the A100 40GB fit alone, as every Ada and Hopper GPU was served
 * (Ada now takes it beside a Hopper fit: transfer.c),
 * can: T4 34.2 / 36.5 / 38.8 / 42.1 %, V100 PCIe 33.7 / 33.7 / 34.1 /
 * 34.4 %, V100 SXM2 48.8 / 42.8 / 37.6 / 31.6 %, GTX 1080 Ti 43.1 / 36.0
 * / 29.9 / 24.2 % (mean 40.0 / 37.3 / 35.1 / 33.1 %): the GPUs of more
 * FLOPs per byte than the A100 want the peak share, the power-limited T4
 * less of it (docs/networks.md, "The GEMM model"). */
#define SEER_GEMM_FMA_PEAK_SHARE_WEIGHT 0.8

/* The time of fit f on GPU g, which runs dt.  On the GPU its rows were
 * timed on, or a sibling, the formula.  Elsewhere (a transferred fit)
 * the formula alone moves the FLOP-proportional time with DRAM
 * bandwidth: on one GPU the compute and panel terms are both
 * proportional to the FLOPs, so the single-product fits put that time
 * on the panel term (c0 0-0.03; the batched ones 0.10-0.95), and a GPU
 * with many more FLOPs per byte than the source gets its large GEMMs
 * several times over the roofline (L4 from the A100 40GB's
 * single-product fit, 4096^3 FP32: 8.1x).  The same rows read the other
 * way, the time over the launch gaps at the source's share of its
 * compute peak, give 1.27x.  The prediction is their weighted
 * geometric mean, never under the floor, with the weights the GPUs that
 * have rows choose (SEER_GEMM_FMA_PEAK_SHARE_WEIGHT,
 * SEER_GEMM_TC_PEAK_SHARE_WEIGHT).  Both grow with the work, so a
 * weighted geometric mean does: more work is never faster. */
static double fit_time(const seer_gpu_info_t *g, const seer_gemm_fit_t *f, double batch, double mm, double n,
                       double k, seer_dtype_t dt, int bias, seer_class_t *cls)
{
    double t = seer_gemm_time(g, f, batch, mm, n, k, dt, bias, cls);
    const seer_gpu_info_t *s = seer_gpu_lookup(f->source_gpu);
    if (!s || !strcmp(s->id, g->id) || seer_gpu_siblings(s, g)) return t;
    seer_dtype_t ds = seer_gpu_run_dtype(s, dt);
    double ps = seer_gpu_peak_flops(s, ds);
    /* a tensor-core fit read at the source in the dtype its rows ran:
     * the only tensor-core rows are FP16 (a V100 has no BF16 and runs
     * TF32 as FP32, which made BF16 slower and TF32 faster than FP16) */
    if (seer_dtype_math(dt) && (ds != dt || ps <= 0)) ps = seer_gpu_peak_flops(s, ds = SEER_DTYPE_FP16);
    if (ps <= 0) return t; /* the source cannot run it: the formula alone */
    double pt = seer_gpu_peak_flops(g, dt);
    if (!seer_dtype_math(dt)) {
        /* SGEMM kernels reach the FMA issue share of the peak on 128-lane
         * SMs (seer_gpu_fma_issue_share), on their FLOP-bound part: the
         * target's share over the source's, weighted by the FLOPs' part
         * of the target's roofline (the bias aside: more bytes alone
         * would lower it), which grows with every dimension, so more
         * work still takes longer.  The Hopper sweeps' FP32 GEMMs of
         * over 0.3 ms of work at peak, served from the A100's fit with no
         * Hopper model: 19.4 -> 11.9 % MAPE (H100), median 0.80 -> 0.97;
         * the smaller ones 66.3 -> 67.4 % (docs/networks.md) */
        double tf, tb, share = seer_gpu_fma_issue_share(g) / seer_gpu_fma_issue_share(s);
        if (gemm_roofline_parts(g, batch, mm, n, k, dt, 0, &tf, &tb)) pt *= 1 - (1 - share) * tf / (tf + tb);
    }
    double tc = (seer_gemm_time(s, f, batch, mm, n, k, ds, bias, NULL) - seer_gpu_launch_gap_ms(s)) * ps / pt +
                seer_gpu_launch_gap_ms(g);
    double w = seer_dtype_math(dt) ? SEER_GEMM_TC_PEAK_SHARE_WEIGHT : SEER_GEMM_FMA_PEAK_SHARE_WEIGHT;
    return fmax(exp((1 - w) * log(t) + w * log(tc)), floor_ms(g, batch, mm, n, k, dt, bias));
}

const seer_gemm_fit_t *seer_model_gemm_fit(const struct seer_model *m, int math, double batch)
{
    const seer_gemm_fit_t *f = m->gemm[math];
    int kind = batch > 1;
    return f[kind].present || !f[!kind].present ? &f[kind] : &f[!kind];
}

/* The time fit f gives on GPU g for dt as g runs it (run).  Pseudo-half
 * (FP16 data, FP32 math: all a GPU without FP16 tensor cores runs for
 * FP16) does the FP32 GEMM's FMAs on half the bytes.  The FP32 fit read
 * in 2-byte elements halves the operand re-reads its panel term carries,
 * FMA time included, and put every compute-bound product at the FP32
 * peak, faster than FP32 (T4, 4096^3: 20.7 against 38.0 ms).  So it is at
 * least the FP32 time scaled by the two rooflines' ratio: the FP32 time
 * where the FMAs bind, half of it where DRAM does.  Per GPU, before the
 * tie, which then orders GPUs as for any dtype; the same rule for a
 * model's own GPU and for the GPU a measured fit's rows were timed on
 * (gemm_peer), which lifts the GPUs it is at least as fast as: read
 * without it, that GPU's pseudo-half time lifted a V100S under an A100
 * 40GB's own (111x143x30011: 0.109 against 0.121 ms). */
static double run_time(const seer_gpu_info_t *g, const seer_gemm_fit_t *f, double batch, double mm, double n,
                       double k, seer_dtype_t run, int bias, seer_class_t *cls)
{
    double t = fit_time(g, f, batch, mm, n, k, run, bias, cls);
    if (run == SEER_DTYPE_FP16_PSEUDO) {
        seer_class_t c;
        double t32 = fit_time(g, f, batch, mm, n, k, SEER_DTYPE_FP32, bias, &c),
               r16 = gemm_roofline_ms(g, batch, mm, n, k, run, bias),
               r32 = gemm_roofline_ms(g, batch, mm, n, k, SEER_DTYPE_FP32, bias);
        if (r32 > 0 && t32 * r16 / r32 > t) {
            t = t32 * r16 / r32;
            if (cls) *cls = c;
        }
    }
    return t;
}

/* One model's own GEMM time for dt as its GPU runs it; -1 when it cannot. */
static double own_time(const struct seer_model *m, double batch, double mm, double n, double k, seer_dtype_t dt,
                       int bias, seer_class_t *cls, const seer_gemm_fit_t **fit)
{
    dt = seer_gpu_run_dtype(&m->gpu, dt);
    int math = seer_dtype_math(dt);
    const seer_gemm_fit_t *f = seer_model_gemm_fit(m, math, batch);
    if (fit) *fit = f;
    if (!f->present || seer_gpu_peak_flops(&m->gpu, dt) <= 0) return -1;
    double t = run_time(&m->gpu, f, batch, mm, n, k, dt, bias, cls);
    /* a transferred fit between two architectures: the geometric mean of
     * the two, each growing with the work, so their mean does
     * (transfer.c, bracketing_gemm_source) */
    const seer_gemm_fit_t *f2 = &m->gemm2[math][f - m->gemm[math]];
    if (f2->present) t = sqrt(t) * sqrt(run_time(&m->gpu, f2, batch, mm, n, k, dt, bias, NULL));
    return t;
}

double seer_model_gemm_own_time(const struct seer_model *m, double batch, double mm, double n, double k,
                                seer_dtype_t dt, int bias)
{
    return own_time(m, batch, mm, n, k, dt, bias, NULL, NULL);
}

/* GPU a at least as fast as b on every ceiling and on dt's math as each runs it. */
static int gemm_dominates(const seer_gpu_info_t *a, const seer_gpu_info_t *b, seer_dtype_t dt)
{
    double pb = seer_gpu_peak_flops(b, seer_gpu_run_dtype(b, dt));
    return pb > 0 && seer_gpu_peak_flops(a, seer_gpu_run_dtype(a, dt)) >= pb && seer_gpu_dominates(a, b);
}

/* Faster hardware is not slower, by construction, as for convs
 * (model.c, tied_physics): fits of different GPUs come from different
 * rows (or are transferred), so nothing in one bounds another.  A GPU's
 * time is the lowest of its own and of every peer it is at least as fast
 * as, each first lifted, where it is a guess (a transferred fit, or one
 * on fewer than SEER_OWN_FAMILY_ROWS rows), to the times of the GPUs at
 * least as fast whose fit is measured: a guess never undercuts a faster
 * GPU's measurements.  Two measured GPUs that disagree meet at the lower:
 * the A100 40GB PCIe rows are slower than the V100 PCIe rows of the same
 * shapes on a quarter of them (10 % of those over 1 ms), and lifting the
 * V100s to the A100 took their own served GEMM error from 11 / 10 % to
 * 19 / 35 % (V100 PCIe NeuSight, V100 SXM2 DeepBench), against the A100's
 * 10.6 -> 18.7 % this way.  A fit measured on a sibling's rows (the A100
 * 40GB rows of the A100 80GB model) also lifts as that sibling: the GPU
 * the rows were timed on, with its own bandwidth, though it has no model
 * file to be a peer. */
typedef struct {
    double t;                   /* own time, -1: none */
    int measured;
    const seer_gpu_info_t *g;
    double ts;                  /* the fit on the GPU its rows were timed on, or -1 */
    const seer_gpu_info_t *gs;
} gemm_peer_t;

static gemm_peer_t gemm_peer(const struct seer_model *m, double batch, double mm, double n, double k,
                             seer_dtype_t dt, int bias, seer_class_t *cls)
{
    const seer_gemm_fit_t *f;
    gemm_peer_t p = {own_time(m, batch, mm, n, k, dt, bias, cls, &f), 0, &m->gpu, -1, NULL};
    if (p.t < 0) return p;
    p.measured = gemm_measured(m, f, seer_dtype_math(seer_gpu_run_dtype(&m->gpu, dt)), batch);
    p.gs = seer_gpu_lookup(f->source_gpu);
    seer_dtype_t ds = p.gs ? seer_gpu_run_dtype(p.gs, dt) : dt;
    if (p.measured && p.gs && !seer_gpu_same_facts(p.gs, &m->gpu) && seer_gpu_peak_flops(p.gs, ds) > 0)
        p.ts = run_time(p.gs, f, batch, mm, n, k, ds, bias, NULL);
    return p;
}

/* r raised to a's time (and its rows' GPU's) where a lifts d. */
static double lift_by(const gemm_peer_t *a, const gemm_peer_t *d, double r, seer_dtype_t dt)
{
    if (!a->measured || d->measured) return r;
    if (a->t > r && gemm_dominates(a->g, d->g, dt)) r = a->t;
    if (a->ts > r && gemm_dominates(a->gs, d->g, dt)) r = a->ts;
    return r;
}

static double gemm_lifted(const gemm_peer_t *p, int np, const gemm_peer_t *self, const gemm_peer_t *d,
                          seer_dtype_t dt, const unsigned char *role)
{
    double r = lift_by(self, d, d->t, dt);
    for (int a = 0; a < np; a++)
        if (role[a] & SEER_PEER_ANCHOR) r = lift_by(&p[a], d, r, dt);
    return r;
}

/* The time of dt tied across GPUs (seer_model_gemm_time), per kind. */
static double gemm_tied_kind(const struct seer_model *m, double batch, double mm, double n, double k,
                             seer_dtype_t dt, int bias, seer_class_t *cls)
{
    gemm_peer_t self = gemm_peer(m, batch, mm, n, k, dt, bias, cls);
    if (self.t < 0 || !m->npeer) return self.t;
    gemm_peer_t p[SEER_MAX_PEERS] = {{0}};
    int np = m->npeer < SEER_MAX_PEERS ? m->npeer : SEER_MAX_PEERS;
    for (int i = 0; i < np; i++) p[i] = gemm_peer(m->peer[i], batch, mm, n, k, dt, bias, NULL);
    double lo = gemm_lifted(p, np, &self, &self, dt, m->peer_role);
    for (int d = 0; d < np; d++)
        if ((m->peer_role[d] & SEER_PEER_BELOW) && p[d].t >= 0 && gemm_dominates(&m->gpu, p[d].g, dt)) {
            double r = gemm_lifted(p, np, &self, &p[d], dt, m->peer_role);
            if (r < lo) lo = r;
        }
    return lo;
}

/* A batch of products is never faster than one of them alone: the
 * batched fits undercut the single ones on small products (a 2x1024x16
 * product at batch 2 was predicted at 0.6x its time at batch 1 on a
 * TITAN X).  Taken on the tied times, so that it holds across GPUs too. */
static double gemm_tied(const struct seer_model *m, double batch, double mm, double n, double k,
                        seer_dtype_t dt, int bias, seer_class_t *cls)
{
    double t = gemm_tied_kind(m, batch, mm, n, k, dt, bias, cls);
    if (t >= 0 && batch > 1) {
        seer_class_t c;
        double one = gemm_tied_kind(m, 1, mm, n, k, dt, bias, &c);
        if (one > t) t = one;
    }
    return t;
}

double seer_model_gemm_time(const struct seer_model *m, double batch, double mm, double n, double k,
                            seer_dtype_t dt, int bias, seer_class_t *cls)
{
    /* A tensor-core GEMM is never slower than the same product in a type
     * of at least its element size that the GPU runs at no more than its
     * rate (cuBLAS could run that): BF16 no slower than FP16 where their
     * rates are equal, FP16 and BF16 no slower than TF32, FP32 or FP16
     * pseudo-half (FP32 math on FP16 data), TF32 no slower than FP32.
     * Each type is tied across GPUs by its own peers,
     * and a GPU without BF16 or with TF32 as FP32 bounds only some of
     * them (BF16 came out 1.7x FP16 on an A100 40GB's small GEMMs, TF32
     * under FP16 on an RTX 3090's thin ones). */
    static const seer_dtype_t others[] = {SEER_DTYPE_FP32, SEER_DTYPE_TF32, SEER_DTYPE_FP16, SEER_DTYPE_FP16_PSEUDO};
    /* FP16 where this GPU runs it as pseudo-half is that GEMM, tied as
     * one: its peers with FP16 tensor cores then read it as they would
     * run it too, and a faster GPU's FP32 math lifts it as it lifts FP32
     * (a Tesla P4's FP16 came out under its FP32, which a T4's measured
     * FP32 lifts) */
    if (seer_gpu_run_dtype(&m->gpu, dt) == SEER_DTYPE_FP16_PSEUDO) dt = SEER_DTYPE_FP16_PSEUDO;
    double t = gemm_tied(m, batch, mm, n, k, dt, bias, cls), rate = seer_gpu_peak_flops(&m->gpu, dt);
    for (size_t i = 0; i < sizeof others / sizeof *others && seer_dtype_math(dt) && rate > 0; i++) {
        seer_dtype_t o = others[i];
        double r = seer_gpu_peak_flops(&m->gpu, o);
        if (o == dt || seer_dtype_size(o) < seer_dtype_size(dt) || !(r > 0) || r > rate ||
            seer_gpu_run_dtype(&m->gpu, o) != o)
            continue;
        seer_class_t c;
        double to = gemm_tied(m, batch, mm, n, k, o, bias, &c);
        if (to >= 0 && (t < 0 || to < t)) {
            t = to;
            if (cls) *cls = c;
        }
    }
    return t;
}

static seer_status_t gemm_args(seer_handle_t h, const char *fn, const seer_gpu_info_t *g, int batch, int m,
                               int n, int k, seer_dtype_t dtype, const double *time_ms)
{
    if (!g || !time_ms) return seer_error(h, SEER_STATUS_BAD_PARAM, "%s: gpu or time_ms is NULL", fn);
    if ((unsigned)dtype > SEER_DTYPE_FP16_PSEUDO)
        return seer_error(h, SEER_STATUS_BAD_PARAM, "%s: dtype %d is not a seer_dtype_t", fn, (int)dtype);
    if (batch < 1 || m < 1 || n < 1 || k < 1)
        return seer_error(h, SEER_STATUS_BAD_PARAM, "%s: batch, m, n and k must be >= 1", fn);
    return seer_gpu_check_rates(h, fn, g);
}

seer_status_t seer_roofline_gemm(seer_handle_t h, const seer_gpu_info_t *g, int batch, int m, int n, int k,
                                 seer_dtype_t dtype, double *time_ms)
{
    seer_status_t st = gemm_args(h, "seer_roofline_gemm", g, batch, m, n, k, dtype, time_ms);
    if (st) return st;
    double t = gemm_roofline_ms(g, batch, m, n, k, dtype, 0);
    if (t <= 0)
        return seer_error(h, SEER_STATUS_UNSUPPORTED, "%s has no peak rate for %s math", g->id,
                          seer_dtype_name(dtype));
    *time_ms = t;
    return SEER_STATUS_SUCCESS;
}

seer_status_t seer_gemm_floor(seer_handle_t h, const seer_gpu_info_t *g, int batch, int m, int n, int k,
                              seer_dtype_t dtype, int bias, double *time_ms)
{
    seer_status_t st = gemm_args(h, "seer_gemm_floor", g, batch, m, n, k, dtype, time_ms);
    if (st) return st;
    if (bias & ~1) /* as seer_predict_gemm */
        return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_gemm_floor: bias must be 0 or 1 (got %d)", bias);
    *time_ms = floor_ms(g, batch, m, n, k, dtype, bias);
    return SEER_STATUS_SUCCESS;
}

double seer_gemm_floor_ms(seer_handle_t h, const seer_gemm_row_t *r)
{
    const seer_gpu_info_t *g = seer_gpu_lookup_h(h, r->gpu); /* built-in or registered */
    double t = 0;
    if (g) seer_gemm_floor(h, g, r->batch, r->m, r->n, r->k, r->dtype, r->bias, &t);
    return t;
}

int seer_gemm_shape_in_test_split(int batch, int m, int n, int k, int trans_a, int trans_b, int bias,
                                  seer_dtype_t dtype)
{
    const int32_t v[8] = {batch, m, n, k, trans_a, trans_b, bias, (int32_t)dtype};
    return seer_in_test_split(v, 8);
}

int seer_gemm_in_test_split(const seer_gemm_row_t *r)
{
    return seer_gemm_shape_in_test_split(r->batch, r->m, r->n, r->k, r->trans_a, r->trans_b, r->bias, r->dtype);
}

seer_status_t seer_dtype_tensor_cores(seer_dtype_t dtype, int *tensor_cores)
{
    if (!tensor_cores || (unsigned)dtype > SEER_DTYPE_FP16_PSEUDO) return SEER_STATUS_BAD_PARAM;
    *tensor_cores = seer_dtype_math(dtype);
    return SEER_STATUS_SUCCESS;
}

typedef struct {
    double batch, m, n, k, y;
    seer_dtype_t dt;
    int bias;
} grow_t;

/* Fit coefficients for one (tile, bps); returns the mean relative error. */
static double fit_one(const seer_gpu_info_t *g, const grow_t *r, size_t n, int tm, int tn, int bps,
                      double coef[NT])
{
    double x[NT];
    seer_relfit_t fit;
    seer_relfit_init(&fit, NT, 1u << SEER_G_CONST);
    for (size_t i = 0; i < n; i++) {
        terms(g, tm, tn, bps, r[i].batch, r[i].m, r[i].n, r[i].k, r[i].dt, r[i].bias, x, NULL, NULL);
        seer_relfit_add(&fit, x, r[i].y);
    }
    seer_relfit_solve(&fit, ~0u, coef);
    double e = 0;
    for (size_t i = 0; i < n; i++) {
        terms(g, tm, tn, bps, r[i].batch, r[i].m, r[i].n, r[i].k, r[i].dt, r[i].bias, x, NULL, NULL);
        double p = 0;
        for (int a = 0; a < NT; a++) p += coef[a] * x[a];
        e += fabs(p / r[i].y - 1);
    }
    return n ? e / (double)n : INFINITY;
}

static int usable(const seer_gemm_row_t *r, int math)
{
    return seer_dtype_math(r->dtype) == math && r->time_ms > 0 && isfinite(r->time_ms) &&
           r->batch >= 1 && r->m >= 1 && r->n >= 1 && r->k >= 1;
}

/* A row's GPU: the model's own (which may come from a description file),
 * else the built-in table or one registered with the handle. */
static const seer_gpu_info_t *row_gpu(seer_handle_t h, const struct seer_model *m, const seer_gemm_row_t *r)
{
    return !strcmp(r->gpu, m->gpu.id) ? &m->gpu : seer_gpu_lookup_h(h, r->gpu);
}

/* The GPU whose rows train the math type (see the rule above), or NULL. */
static const seer_gpu_info_t *source_gpu(seer_handle_t h, const struct seer_model *m,
                                         const seer_gemm_row_t *rows, size_t n, int math)
{
    const seer_gpu_info_t *target = &m->gpu;
    const seer_gpu_info_t *best = NULL;
    size_t best_n = 0;
    for (size_t i = 0; i < n; i++) {
        if (!usable(&rows[i], math)) continue;
        const seer_gpu_info_t *g = row_gpu(h, m, &rows[i]);
        if (!g) continue;
        if (!strcmp(g->id, target->id)) return g; /* own rows always win */
        if (!seer_gpu_siblings(g, target)) continue;
        if (best && !strcmp(best->id, g->id)) continue;
        size_t cnt = 0;
        for (size_t j = 0; j < n; j++) {
            const seer_gpu_info_t *x = usable(&rows[j], math) ? row_gpu(h, m, &rows[j]) : NULL;
            cnt += x == g;
        }
        if (!best || cnt > best_n || (cnt == best_n && strcmp(g->id, best->id) < 0)) {
            best = g;
            best_n = cnt;
        }
    }
    return best;
}

/* Row r of math type math trains the fit whose rows are src's. */
static int trains(seer_handle_t h, const struct seer_model *m, const seer_gemm_row_t *r, int math,
                  const seer_gpu_info_t *src)
{
    return usable(r, math) && row_gpu(h, m, r) == src && seer_gpu_peak_flops(src, r->dtype) > 0;
}

/* The tile, residency and coefficients of src's nr rows r with the least
 * training error, by grid search, into f; 0 when none fits. */
static int fit_grid(const seer_gpu_info_t *src, const grow_t *r, size_t nr, seer_gemm_fit_t *f)
{
    static const int tiles[] = {32, 64, 128, 256};
    static const int bpss[] = {1, 2, 3, 4, 6, 8};
    double best = INFINITY;
    for (size_t a = 0; a < sizeof tiles / sizeof *tiles; a++)
        for (size_t b = 0; b < sizeof tiles / sizeof *tiles; b++)
            for (size_t c = 0; c < sizeof bpss / sizeof *bpss && bpss[c] <= src->blocks_per_sm; c++) {
                double coef[NT];
                double e = fit_one(src, r, nr, tiles[a], tiles[b], bpss[c], coef);
                if (e < best - 1e-12) {
                    best = e;
                    f->tm = tiles[a];
                    f->tn = tiles[b];
                    f->bps = bpss[c];
                    memcpy(f->coef, coef, sizeof coef);
                }
            }
    return isfinite(best);
}

seer_status_t seer_gemm_fit(seer_handle_t h, const struct seer_model *m, const seer_gemm_row_t *rows,
                            size_t n, seer_gemm_fit_t out[2][SEER_GEMM_KINDS])
{
    memset(out, 0, 2 * SEER_GEMM_KINDS * sizeof **out);
    if (!m || (n && !rows)) return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_gemm_fit: NULL argument");
    grow_t *r = malloc((n ? n : 1) * sizeof *r);
    if (!r) return seer_error(h, SEER_STATUS_ALLOC_FAILED, "GEMM rows");
    for (int math = 0; math < 2; math++) {
        const seer_gpu_info_t *src = source_gpu(h, m, rows, n, math);
        size_t cnt[SEER_GEMM_KINDS] = {0};
        for (size_t i = 0; src && i < n; i++)
            cnt[rows[i].batch > 1] += trains(h, m, &rows[i], math, src);
        /* a kind with too few rows for a fit of its own: one fit of both,
         * so that no row is left out (DeepBench's 480 have one batched),
         * in the slot of the kind most of them are */
        int pooled = cnt[0] < MIN_GEMM_ROWS || cnt[1] < MIN_GEMM_ROWS;
        for (int kind = 0; src && kind < SEER_GEMM_KINDS; kind++) {
            if (pooled && kind != (cnt[1] > cnt[0])) continue;
            size_t nr = 0;
            for (size_t i = 0; i < n; i++)
                if ((pooled || (rows[i].batch > 1) == kind) && trains(h, m, &rows[i], math, src))
                    r[nr++] = (grow_t){rows[i].batch, rows[i].m, rows[i].n, rows[i].k, rows[i].time_ms,
                                       rows[i].dtype, rows[i].bias};
            seer_gemm_fit_t *f = &out[math][kind];
            if (nr < MIN_GEMM_ROWS || !fit_grid(src, r, nr, f)) continue;
            f->present = 1;
            f->n_rows = (int)(nr < (size_t)1 << 30 ? nr : (size_t)1 << 30);
            seer_strlcpy(f->source_gpu, src->id, sizeof f->source_gpu);
        }
    }
    free(r);
    return SEER_STATUS_SUCCESS;
}

seer_status_t seer_gemm_check_size(seer_handle_t h, const char *what, double m, double n, double k)
{
    if (m * k > INT32_MAX || k * n > INT32_MAX || m * n > INT32_MAX)
        return seer_error(h, SEER_STATUS_OVERFLOW, "%s %.0fx%.0fx%.0f: a matrix has over 2^31-1 elements",
                          what, m, n, k);
    return SEER_STATUS_SUCCESS;
}

seer_status_t seer_predict_gemm(seer_handle_t h, const seer_model *m, int batch, int mm, int n,
                                int k, seer_dtype_t dt, int trans_a, int trans_b, int bias,
                                double *time_ms, seer_class_t *cls)
{
    if (!m || !time_ms)
        return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_predict_gemm: %s is NULL", !m ? "model" : "time_ms");
    if ((unsigned)dt > SEER_DTYPE_FP16_PSEUDO)
        return seer_error(h, SEER_STATUS_BAD_PARAM, "dtype %d out of range", (int)dt);
    if ((trans_a | trans_b | bias) & ~1)
        return seer_error(h, SEER_STATUS_BAD_PARAM, "%s must be 0 or 1",
                          trans_a & ~1 ? "trans_a" : trans_b & ~1 ? "trans_b" : "bias");
    const struct { const char *name; int v; } d[] = {{"batch", batch}, {"m", mm}, {"n", n}, {"k", k}};
    for (int i = 0; i < 4; i++)
        if (d[i].v < 1)
            return seer_error(h, SEER_STATUS_BAD_SHAPE, "GEMM %s must be >= 1 (got %d)", d[i].name, d[i].v);
    seer_status_t st = seer_gemm_check_size(h, "GEMM", mm, n, k);
    if (st) return st;
    seer_dtype_t asked = dt; /* the peers run it as they can */
    dt = seer_gpu_run_dtype(&m->gpu, dt);
    if (seer_gpu_peak_flops(&m->gpu, dt) <= 0)
        return seer_error(h, SEER_STATUS_UNSUPPORTED, "%s cannot run %s math", m->gpu.id,
                          seer_dtype_name(dt));
    const seer_gemm_fit_t *f = seer_model_gemm_fit(m, seer_dtype_math(dt), batch);
    if (!f->present)
        return seer_error(h, SEER_STATUS_NOT_CALIBRATED,
                          "model %s has no GEMM fit for %s math (train it with GEMM timing CSV files)",
                          m->gpu_id, seer_dtype_math(dt) ? "tensor-core" : "fp32");
    seer_class_t c;
    double t = seer_model_gemm_time(m, batch, mm, n, k, asked, bias, &c);
    seer_err_t e;
    if ((st = seer_check_time(&e, t, "GEMM"))) return seer_err_report(h, &e);
    *time_ms = t;
    if (cls) *cls = c;
    return SEER_STATUS_SUCCESS;
}

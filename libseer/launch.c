/* Kernel structure of each cuDNN convolution algorithm.
 *
 * Every algorithm is a main tiled GEMM (implicit, explicit, batched over
 * Winograd/FFT points) plus helper kernels that move data (im2col,
 * transforms).  The GEMM dimensions per direction:
 *   fwd        M = N*P*Q   N = K/g        K = C/g*R*S
 *   bwd_data   M = N*H*W   N = C/g        K = K/g*R*S
 *   bwd_filter M = K/g     N = C/g*R*S    K = N*P*Q     (batched over g)
 * Winograd F(m x m, r x r) with alpha = m + r - 1 turns the GEMM into
 * alpha^2 GEMMs over tiles; FFT into one complex GEMM per frequency. */
#include <math.h>
#include <string.h>
#include "launch.h"
#include "common.h"
#include "gpu.h"
#include "gpufile.h"

int seer_algo_count(seer_direction_t dir)
{
    switch (dir) {
    case SEER_DIR_FWD: return SEER_FWD_ALGO_COUNT;
    case SEER_DIR_BWD_DATA: return SEER_BWD_DATA_ALGO_COUNT;
    case SEER_DIR_BWD_FILTER: return SEER_BWD_FILTER_ALGO_COUNT;
    }
    return 0;
}

int seer_algo_kind(seer_direction_t dir, int algo)
{
    static const int fwd[] = {SEER_K_GEMM_IMPLICIT, SEER_K_GEMM_PRECOMP, SEER_K_GEMM_EXPLICIT, SEER_K_NONE,
                              SEER_K_FFT, SEER_K_FFT_TILING, SEER_K_WINO, SEER_K_WINO_NF};
    static const int bd[] = {SEER_K_GEMM_IMPLICIT, SEER_K_GEMM_PRECOMP, SEER_K_FFT, SEER_K_FFT_TILING,
                             SEER_K_WINO, SEER_K_WINO_NF};
    /* bwd_filter ALGO_3 is "ALGO_0 with a small workspace of precomputed
     * indices" (cuDNN's documentation), and runs ALGO_0's kernels: cuDNN
     * 9.14 timed it at ALGO_0's time (median ratio 1.00 over the H100's
     * 49 FP32 convs; wgrad_alg0_engine in 32 of them, wgrad_alg1_engine in
     * 14) and its pseudo-half calls at 1.08x (wgrad_alg1_engine, ALGO_1's
     * SIMT kernel) (data/h100-sxm5-80gb/bench/layers.csv) */
    static const int bf[] = {SEER_K_GEMM_IMPLICIT, SEER_K_GEMM_PRECOMP, SEER_K_FFT, SEER_K_GEMM_IMPLICIT, SEER_K_NONE,
                             SEER_K_WINO_NF, SEER_K_FFT_TILING};
    if (algo < 0 || algo >= seer_algo_count(dir)) return -1;
    return dir == SEER_DIR_FWD ? fwd[algo] : dir == SEER_DIR_BWD_DATA ? bd[algo] : bf[algo];
}

static int kind_transform(int k)
{
    return k == SEER_K_FFT || k == SEER_K_FFT_TILING || k == SEER_K_WINO || k == SEER_K_WINO_NF;
}

int seer_algo_transform(seer_direction_t dir, int algo) { return kind_transform(seer_algo_kind(dir, algo)); }

int seer_algo_nchw_only(seer_direction_t dir, int algo)
{
    int k = seer_algo_kind(dir, algo);
    return kind_transform(k) || k == SEER_K_GEMM_EXPLICIT ||
           (dir == SEER_DIR_BWD_FILTER && algo == SEER_BWD_FILTER_ALGO_3);
}

int seer_algo_simt(seer_direction_t dir, int algo)
{
    int k = seer_algo_kind(dir, algo);
    return k == SEER_K_GEMM_IMPLICIT || k == SEER_K_GEMM_EXPLICIT;
}

int seer_dtype_math(seer_dtype_t dt)
{
    return dt == SEER_DTYPE_FP16 || dt == SEER_DTYPE_BF16 || dt == SEER_DTYPE_TF32;
}

static double cdiv(double a, double b) { return ceil(a / b); }
static double pow2_at_least(double x) { double p = 1; while (p < x) p *= 2; return p; }

/* ResNet's stem (3 channels in, 64 out, 7x7, stride 2) in FP16 NHWC runs
 * cuDNN's first-layer kernels, forward and backward filter
 * (xmma_fprop/wgrad_image_first_layer ... k64c4r7s7_stride2x2, after an
 * nhwcAddPadding pass), which pad the channels to 4, not to a 64-byte
 * slice, but run at about a third of the implicit GEMMs' rate on that
 * work: the channels are costed as 12.  Over the sixteen such calls
 * timed (H200: PyTorch's ResNet-50, ResNet-50-GN and DenseNet-121 at
 * batch 16 to 256, data/h200-sxm-141gb/networks; the H100's and the
 * H200's sweeps at batch 32, data/GPU/bench*), 12 puts the fastest
 * predicted over the measured time at 0.67-1.94 (median 1.03), where 32
 * put it at 1.30-3.55 (2.22), 8 at 0.54-1.55 (0.79) and 4 at 0.40-1.16
 * (0.55) (docs/method.md, "First layers"); the padding pass (0.06 ms
 * beside 0.40 at batch 256) is not costed.  Every call timed was 3 -> 64
 * channels on Hopper: every tensor-core GPU takes the rule, unverified
 * elsewhere, and so does every stem of up to 64 channels out, so that
 * doubling them never costs less (the one narrower stem timed, 3 -> 39,
 * ran ordinary kernels).  Backward data runs an ordinary implicit GEMM
 * there (sm80_xmma_dgrad), NCHW ordinary kernels (BF16, the sweeps'
 * ResNet-50 at batch 64 and 256); BF16 and TF32 NHWC stems were not
 * timed. */
#define SEER_FIRST_LAYER_CHANNELS 12
static int first_layer(const struct seer_conv *cv, seer_direction_t dir)
{
    const seer_conv_shape_t *sh = &cv->shape;
    return dir != SEER_DIR_BWD_DATA && cv->dtype == SEER_DTYPE_FP16 && cv->layout == SEER_LAYOUT_NHWC &&
           sh->groups == 1 && sh->c <= 4 && sh->k <= 64 && sh->r == 7 && sh->s == 7 && sh->stride_h == 2 &&
           sh->stride_w == 2 && sh->dil_h == 1 && sh->dil_w == 1;
}

/* The sizes every algorithm's kernels are built from. */
typedef struct {
    const struct seer_conv *cv;
    seer_direction_t dir;
    double es, g, N, C, H, W, K, R, S, P, Q;
    double xe, ye, we;          /* input, output and filter elements */
    double in_e, out_e, other_e; /* what the direction reads (activations, weights or gradients) and writes */
    double flops;               /* of the direct convolution */
    double gm, gn, gk;          /* the GEMM of the direction (file comment) */
    double pad;                 /* tensor-core channel padding of the GEMM's FLOPs (1: none) */
} dims_t;

static void dims_of(const struct seer_conv *cv, seer_direction_t dir, dims_t *d)
{
    d->cv = cv;
    d->dir = dir;
    d->es = seer_dtype_size(cv->dtype);
    d->g = cv->shape.groups;
    d->N = cv->shape.n; d->C = cv->shape.c; d->H = cv->shape.h; d->W = cv->shape.w;
    d->K = cv->shape.k; d->R = cv->shape.r; d->S = cv->shape.s; d->P = cv->p; d->Q = cv->q;
    d->xe = d->N * d->C * d->H * d->W;
    d->ye = d->N * d->K * d->P * d->Q;
    d->we = d->K * (d->C / d->g) * d->R * d->S;
    d->in_e = dir == SEER_DIR_BWD_DATA ? d->ye : d->xe;
    d->out_e = dir == SEER_DIR_FWD ? d->ye : dir == SEER_DIR_BWD_DATA ? d->xe : d->we;
    d->other_e = dir == SEER_DIR_BWD_FILTER ? d->ye : d->we;
    /* cuDNN pads a dense conv's channels for its tensor-core kernels
     * ("padding, folding, and NCHW-to-NHWC transformations" to call
     * them), and their implicit GEMMs step through each filter tap's
     * channels a 64-byte slice at a time (32 FP16/BF16, 16 TF32), so a
     * first layer's 3 channels cost 32 (the floor also allows the FMA
     * kernels' own FLOPs, seer_main_flops_ms): the MMA's own 8 (4 TF32)
     * left the Hopper sweeps' 30 tensor-core convs of 3 channels
     * (fastest algorithm) at a median predicted/measured 0.44, 64 bytes
     * at 0.65 (docs/method.md); ResNet's stem in FP16 NHWC runs
     * kernels of its own (first_layer).  Dense convs only: narrow grouped
     * ones are bounded by their padded wide conv (model.c). */
    double C = d->C / d->g, K = d->K / d->g;
    if (d->g == 1 && seer_dtype_math(cv->dtype)) {
        double q = cv->dtype == SEER_DTYPE_TF32 ? 16 : 32, qc = first_layer(cv, dir) ? SEER_FIRST_LAYER_CHANNELS : q;
        C = ceil(C / qc) * qc;
        K = ceil(K / q) * q;
    }
    d->pad = C * K / ((d->C / d->g) * (d->K / d->g));
    d->flops = 2.0 * d->N * K * d->P * d->Q * C * d->R * d->S * d->g;
    switch (dir) {
    case SEER_DIR_FWD: d->gm = d->N * d->P * d->Q; d->gn = K; d->gk = C * d->R * d->S; break;
    case SEER_DIR_BWD_DATA: d->gm = d->N * d->H * d->W; d->gn = C; d->gk = K * d->R * d->S; break;
    default: d->gm = K; d->gn = C * d->R * d->S; d->gk = d->N * d->P * d->Q; break;
    }
}

/* UNSUPPORTED, with the reason, where cuDNN has no kernels of this kind
 * for the shape or dtype. */
static seer_status_t check_supported(seer_err_t *e, const struct seer_conv *cv, seer_direction_t dir,
                                     int algo, int kind, const char *an)
{
    const seer_conv_shape_t *sh = &cv->shape;
    if (kind == SEER_K_NONE)
        return seer_fail(e, SEER_STATUS_UNSUPPORTED, "%s %s is not implemented by cuDNN",
                         seer_direction_name(dir), an);
    int transform = kind_transform(kind);
    /* NHWC runs the implicit GEMMs alone: cuDNN 9.14 answered
     * NOT_SUPPORTED for every FFT, Winograd and explicit GEMM algorithm
     * and backward-filter ALGO_3 of all 170 NHWC shapes of the Hopper
     * sweeps, in every dtype and direction (data/GPU/bench/picks.csv) */
    if (seer_algo_nchw_only(dir, algo) && cv->layout == SEER_LAYOUT_NHWC)
        return seer_fail(e, SEER_STATUS_UNSUPPORTED, "%s %s needs the NCHW layout", seer_direction_name(dir), an);
    if (transform) {
        if (sh->stride_h != 1 || sh->stride_w != 1 || sh->dil_h != 1 || sh->dil_w != 1)
            return seer_fail(e, SEER_STATUS_UNSUPPORTED, "%s %s needs stride 1 and dilation 1",
                             seer_direction_name(dir), an);
        if (sh->groups != 1)
            return seer_fail(e, SEER_STATUS_UNSUPPORTED, "%s %s does not support groups",
                             seer_direction_name(dir), an);
    }
    if ((kind == SEER_K_WINO || kind == SEER_K_WINO_NF) &&
        !(sh->r == sh->s && (sh->r == 3 || (kind == SEER_K_WINO_NF && sh->r == 5))))
        return seer_fail(e, SEER_STATUS_UNSUPPORTED, "%s %s needs a 3x3%s filter (got %dx%d)",
                         seer_direction_name(dir), an, kind == SEER_K_WINO_NF ? " or 5x5" : "", sh->r,
                         sh->s);
    if ((kind == SEER_K_FFT || kind == SEER_K_FFT_TILING) &&
        (sh->pad_h >= sh->r || sh->pad_w >= sh->s ||
         (kind == SEER_K_FFT && (sh->h + 2 * sh->pad_h > 256 || sh->w + 2 * sh->pad_w > 256))))
        return seer_fail(e, SEER_STATUS_UNSUPPORTED,
                         "%s %s needs padding smaller than the filter%s", seer_direction_name(dir),
                         an, kind == SEER_K_FFT ? " and a padded input of at most 256x256" : "");
    if (kind == SEER_K_FFT_TILING && (sh->r > 32 || sh->s > 32))
        return seer_fail(e, SEER_STATUS_UNSUPPORTED, "%s %s needs a filter of at most 32x32 (got %dx%d)",
                         seer_direction_name(dir), an, sh->r, sh->s);
    if (transform && (cv->dtype == SEER_DTYPE_BF16 || cv->dtype == SEER_DTYPE_TF32))
        return seer_fail(e, SEER_STATUS_UNSUPPORTED, "%s %s has no %s kernels",
                         seer_direction_name(dir), an, seer_dtype_name(cv->dtype));
    return SEER_STATUS_SUCCESS;
}

/* Implicit (precomputed) GEMM: the GEMM reads the tensors in place;
 * explicit GEMM (forward only) first writes the im2col matrix. */
static int gemm_kernels(const dims_t *d, int kind, seer_kview_t *k)
{
    int n = 0;
    double es = d->es;
    if (kind == SEER_K_GEMM_EXPLICIT) {
        double cols = d->gm * d->gk * d->g; /* im2col matrix, elements */
        k[n++] = (seer_kview_t){SEER_ROLE_MAIN, "gemm", d->gm, d->gn, d->gk, d->g, d->flops,
                                (cols + d->other_e + d->out_e) * es, 1, 1, d->pad};
        k[n++] = (seer_kview_t){SEER_ROLE_INPUT_TRANSFORM, "im2col", 0, 0, 0, 0, 0,
                                (d->in_e + cols) * es, 1, 1, 1};
        return n;
    }
    /* the gathered operand: x (fwd's A, bwd_filter's B) or dy (bwd_data's A) */
    double virt = (d->dir == SEER_DIR_BWD_FILTER ? d->gn : d->gm) * d->gk * d->g;
    double share = virt > d->in_e ? d->in_e / virt : 1;
    k[n++] = (seer_kview_t){SEER_ROLE_MAIN, "gemm", d->gm, d->gn, d->gk, d->g, d->flops,
                            (d->in_e + d->other_e + d->out_e) * es,
                            d->dir == SEER_DIR_BWD_FILTER ? 1 : share, d->dir == SEER_DIR_BWD_FILTER ? share : 1,
                            d->pad};
    if (kind == SEER_K_GEMM_PRECOMP) /* offset table and filter layout for the implicit GEMM */
        k[n++] = (seer_kview_t){SEER_ROLE_HELPER, "precompute", 0, 0, 0, 0, 0, d->we * es, 1, 1, 1};
    return n;
}

/* Winograd F(m x m, r x r): fused (m = 2, transforms in registers) or
 * non-fused (m = 4: transform kernels around alpha^2 batched GEMMs). */
static int wino_kernels(const dims_t *d, int kind, seer_kview_t *k)
{
    int n = 0, bd = d->dir == SEER_DIR_BWD_DATA;
    double es = d->es, K = d->K, C = d->C;
    double m = kind == SEER_K_WINO ? 2 : 4, alpha = m + d->R - 1, a2 = alpha * alpha;
    double tiles = d->N * cdiv(bd ? d->H : d->P, m) * cdiv(bd ? d->W : d->Q, m);
    double c_in = bd ? K : C, c_out = bd ? C : K;
    double tw = a2 * K * C; /* transformed filter */
    if (d->dir == SEER_DIR_BWD_FILTER) {
        /* GEMM over tiles: [C x tiles] x [tiles x K] per point */
        double wflops = 2.0 * a2 * tiles * C * K;
        k[n++] = (seer_kview_t){SEER_ROLE_MAIN, "gemm", C, K, tiles, a2, wflops,
                                a2 * (tiles * (C + K) + C * K) * es, 1, 1, 1};
        k[n++] = (seer_kview_t){SEER_ROLE_INPUT_TRANSFORM, "data_transform", 0, 0, 0, 0, 0,
                                (d->xe + d->ye + a2 * tiles * (C + K)) * es, 1, 1, 1};
        k[n++] = (seer_kview_t){SEER_ROLE_OUTPUT_TRANSFORM, "filter_output", 0, 0, 0, 0, 0,
                                (tw + d->we) * es, 1, 1, 1};
    } else if (kind == SEER_K_WINO) {
        /* fused: only the filter transform is a separate kernel */
        k[n++] = (seer_kview_t){SEER_ROLE_MAIN, "winograd", tiles, c_out, c_in * a2 / (m * m), 1,
                                2.0 * tiles * c_out * c_in * a2, (d->in_e + tw + d->out_e) * es, 1, 1, 1};
        k[n++] = (seer_kview_t){SEER_ROLE_FILTER_TRANSFORM, "filter_transform", 0, 0, 0, 0, 0,
                                (d->we + tw) * es, 1, 1, 1};
    } else {
        k[n++] = (seer_kview_t){SEER_ROLE_MAIN, "gemm", tiles, c_out, c_in, a2,
                                2.0 * a2 * tiles * c_in * c_out,
                                a2 * (tiles * (c_in + c_out) + c_in * c_out) * es, 1, 1, 1};
        k[n++] = (seer_kview_t){SEER_ROLE_INPUT_TRANSFORM, "data_transform", 0, 0, 0, 0, 0,
                                (d->in_e + a2 * tiles * c_in) * es, 1, 1, 1};
        k[n++] = (seer_kview_t){SEER_ROLE_FILTER_TRANSFORM, "filter_transform", 0, 0, 0, 0, 0,
                                (d->we + tw) * es, 1, 1, 1};
        k[n++] = (seer_kview_t){SEER_ROLE_OUTPUT_TRANSFORM, "output_transform", 0, 0, 0, 0, 0,
                                (a2 * tiles * c_out + d->out_e) * es, 1, 1, 1};
    }
    return n;
}

/* FFT_TILING's tiles and frequencies per tile.  Side x side tiles
 * overlap by the filter, each side * (side / 2 + 1) frequencies; but a
 * filter one tap wide (1xS, Rx1, 1x1) is transformed along one axis
 * alone, 32 points (side is ignored): cuDNN 9.14 ran fft1d_r2c_32
 * kernels with 17 frequencies for every such FFT_TILING call of the H100
 * sweep whose kernels were recorded, even on 6x6 images (the H200 also
 * ran fft1d_r2c_256 on 256-pixel ones), and its workspace was exactly
 * 17 * 8 * (N * tiles * (C + K) + K * C) bytes in 64 of the H100's 68
 * forward and backward-data calls, the other 4 of two images large
 * enough to be chunked (73x73, 256x256), where 32x32 transforms would
 * take 1.2-24x that (data/GPU/bench/layers.csv).  A 1x1 filter goes
 * along the axis of fewer tiles (not measured: every image was square).
 * The tiles cover the forward conv's output, P x Q, in every direction,
 * as the 2D ones (the data's one-tap convs all had P = H).  Needs
 * r, s <= 32 (check_supported). */
int seer_fft_tiling(const struct seer_conv *cv, double side, double *tiles, double *freq)
{
    const seer_conv_shape_t *sh = &cv->shape;
    if (sh->r == 1 || sh->s == 1) {
        double along_h = cdiv(cv->p, 33 - sh->r) * cv->q, along_w = cv->p * cdiv(cv->q, 33 - sh->s);
        *tiles = sh->r == 1 && sh->s == 1 ? fmin(along_h, along_w) : sh->s == 1 ? along_h : along_w;
        *freq = 17;
        return 1;
    }
    *tiles = cdiv(cv->p, side - sh->r + 1) * cdiv(cv->q, side - sh->s + 1);
    *freq = side * (side / 2 + 1);
    return 0;
}

/* Transformed points of FFT_TILING with side x side tiles. */
static double tiling_points(const struct seer_conv *cv, double side)
{
    double tiles, freq;
    seer_fft_tiling(cv, side, &tiles, &freq);
    return tiles * freq;
}

/* cuDNN's FFT_TILING uses 16x16 transforms for small images (seen in the
 * grids of recorded kernels: 3x3 filters on images up to 14 pixels; 17
 * and more ran 32x32), 32x32 otherwise, and 16x16 only where they are
 * less work: a 13x13 filter leaves 4 outputs of a 16-point tile, and an
 * 11-pixel image once took 1.1 ms where the 22-pixel one, on 32-point
 * tiles, took 0.27.  A filter must fit its transform (check_supported). */
static double tiling_side(const struct seer_conv *cv)
{
    return fmax(cv->shape.h, cv->shape.w) <= 16 && cv->shape.r <= 16 && cv->shape.s <= 16 &&
                   tiling_points(cv, 16) <= tiling_points(cv, 32)
               ? 16
               : 32;
}

/* FFT: one transform of the whole padded image; FFT_TILING: tiles
 * overlapping by the filter size, each a complex GEMM per frequency. */
static int fft_kernels(const dims_t *d, int kind, seer_kview_t *k)
{
    int n = 0, bd = d->dir == SEER_DIR_BWD_DATA, bf = d->dir == SEER_DIR_BWD_FILTER;
    const struct seer_conv *cv = d->cv;
    double es = d->es, N = d->N, C = d->C, K = d->K;
    double side = pow2_at_least(fmax(d->H + 2 * cv->shape.pad_h, d->W + 2 * cv->shape.pad_w));
    double tiles = 1, freq = side * (side / 2 + 1), ce = 8; /* complex fp32 */
    int one_axis = kind == SEER_K_FFT_TILING && seer_fft_tiling(cv, tiling_side(cv), &tiles, &freq);
    double bm = N * tiles, c_in = bd ? K : C, c_out = bd ? C : K;
    if (bf) { bm = C; c_in = N * tiles; c_out = K; }
    /* a frequency's GEMM is one block's rows wide (the 2D tiles' few, the
     * recorded grids' y = 1 on the A100), but the 1D transforms' rows are
     * every image row of every image, and cuDNN 9 tiled them as any GEMM
     * (grid y = rows / 64 in 33 of the H100's 62 recorded grids, e.g.
     * 7 x 4 x 17 for 32 x 2048 x 8 x 8 -> 448, 1x1; rows / 32 in 22, by
     * narrower kernels): here slices of 64 rows, more GEMMs of the batch
     * (a backward filter's rows are channels, and cuDNN 9 has no
     * FFT_TILING of it to show) */
    double slices = one_axis && !bf ? cdiv(bm, 64) : 1;
    k[n++] = (seer_kview_t){SEER_ROLE_MAIN, "cgemm", bm / slices, c_out, c_in, freq * slices,
                            8.0 * freq * bm * c_in * c_out,
                            freq * (bm * c_in + c_in * c_out + bm * c_out) * ce, 1, 1, 1};
    k[n++] = (seer_kview_t){SEER_ROLE_INPUT_TRANSFORM, "fft_data", 0, 0, 0, 0, 0,
                            d->in_e * es + N * tiles * (bd ? K : C) * freq * ce, 1, 1, 1};
    k[n++] = (seer_kview_t){SEER_ROLE_FILTER_TRANSFORM, "fft_filter", 0, 0, 0, 0, 0,
                            d->other_e * es + (bf ? N * tiles * K : K * C) * freq * ce, 1, 1, 1};
    k[n++] = (seer_kview_t){SEER_ROLE_OUTPUT_TRANSFORM, "ifft_output", 0, 0, 0, 0, 0,
                            d->out_e * es + (bf ? C * K : N * tiles * c_out) * freq * ce, 1, 1, 1};
    return n;
}

seer_status_t seer_conv_kernels(seer_err_t *e, const struct seer_conv *cv, seer_direction_t dir,
                                int algo, seer_kview_t *k, int *nk)
{
    int kind = seer_algo_kind(dir, algo);
    if (kind < 0)
        return seer_fail(e, SEER_STATUS_BAD_PARAM, "algo %d out of range for direction %s", algo,
                         seer_direction_name(dir));
    seer_status_t st = check_supported(e, cv, dir, algo, kind, seer_algo_name(dir, algo));
    if (st) return st;
    dims_t d;
    dims_of(cv, dir, &d);
    switch (kind) {
    case SEER_K_WINO:
    case SEER_K_WINO_NF: *nk = wino_kernels(&d, kind, k); break;
    case SEER_K_FFT:
    case SEER_K_FFT_TILING: *nk = fft_kernels(&d, kind, k); break;
    default: *nk = gemm_kernels(&d, kind, k); break;
    }
    return SEER_STATUS_SUCCESS;
}

void seer_kernels_work(const seer_kview_t *k, int nk, seer_kwork_t *w)
{
    w->flops = nk > 0 ? k->flops : 0;
    w->pad = nk > 0 ? k->pad : 1;
    w->bytes = 0;
    for (int i = 0; i < nk; i++) w->bytes += k[i].bytes;
    /* the helpers run after the main kernel, their bytes on top of its
     * time, but for the FFTs': their frequency tiles come from L2 (summed,
     * 45 of the H100's 93 measured FP32 FFT_TILING rows were under their
     * floor, against 26 within the main kernel's time) */
    w->main_bytes = nk > 0 && strcmp(k->what, "cgemm") ? k->bytes : w->bytes;
    w->nk = nk;
}

double seer_main_flops_ms(const seer_gpu_info_t *g, seer_dtype_t dtype, const seer_kview_t *k)
{
    double peak = seer_gpu_peak_flops(g, dtype);
    return peak > 0 ? seer_main_ms_at(k->flops, k->pad, peak, seer_gpu_peak_flops(g, SEER_DTYPE_FP32)) : 0;
}

double seer_kernels_floor_ms(const seer_gpu_info_t *g, seer_dtype_t dtype, const seer_kview_t *k, int nk)
{
    seer_kwork_t w;
    seer_kernels_work(k, nk, &w);
    return seer_work_floor_at(seer_gpu_peak_flops(g, dtype), seer_gpu_peak_flops(g, SEER_DTYPE_FP32),
                              seer_gpu_dram_bw(g), seer_gpu_launch_gap_ms(g), &w);
}

/* The floor of algo's kernels run in dt on g; 0 where they cannot run. */
static double floor_in(const seer_gpu_info_t *g, const struct seer_conv *cv, seer_direction_t dir, int algo,
                       seer_dtype_t dt)
{
    seer_kview_t k[SEER_MAX_KERNELS];
    int nk = 0;
    struct seer_conv run = *cv;
    run.dtype = dt;
    if (seer_gpu_peak_flops(g, dt) <= 0 || seer_conv_kernels(NULL, &run, dir, algo, k, &nk)) return 0;
    return seer_kernels_floor_ms(g, dt, k, nk);
}

double seer_conv_floor_ms(const seer_gpu_info_t *g, const struct seer_conv *cv, seer_direction_t dir,
                          int algo)
{
    return floor_in(g, cv, dir, algo, seer_conv_run_dtype(g, cv->dtype, dir, algo)); /* the math cuDNN runs */
}

int seer_choice_algo(const seer_gpu_info_t *g, const struct seer_conv *cv, seer_direction_t dir)
{
    const int w = SEER_BWD_FILTER_ALGO_WINOGRAD_NONFUSED;
    if (!seer_choice_winograd(g, cv->dtype, dir)) return 0;
    /* the implicit GEMM's structure in the choice's math, the Winograd's
     * in its own (the same: seer_choice_winograd) */
    double fw = seer_conv_floor_ms(g, cv, dir, w);
    return fw > 0 && fw < floor_in(g, cv, dir, 0, seer_conv_run_dtype(g, cv->dtype, dir, SEER_ALGO_CUDNN_CHOICE)) ? w
                                                                                                                : 0;
}

double seer_choice_kernels_floor_ms(const seer_gpu_info_t *g, const struct seer_conv *cv, seer_direction_t dir)
{
    return floor_in(g, cv, dir, seer_choice_algo(g, cv, dir),
                    seer_conv_run_dtype(g, cv->dtype, dir, SEER_ALGO_CUDNN_CHOICE));
}

seer_status_t seer_conv_floor(seer_handle_t h, const seer_gpu_info_t *g, const seer_conv *desc,
                              seer_direction_t dir, int algo, double *time_ms)
{
    if (!g || !desc || !time_ms)
        return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_conv_floor: gpu, desc or time_ms is NULL");
    if (!desc->set) return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_conv_floor: desc was never set");
    if ((unsigned)dir > SEER_DIR_BWD_FILTER)
        return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_conv_floor: direction %d out of range", (int)dir);
    if (algo < 0 || algo >= seer_algo_count(dir)) /* as seer_predict_conv */
        return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_conv_floor: algo %d out of range for %s (0..%d)", algo,
                          seer_direction_name(dir), seer_algo_count(dir) - 1);
    seer_status_t st = seer_gpu_check_rates(h, "seer_conv_floor", g);
    if (st) return st;
    *time_ms = seer_conv_floor_ms(g, desc, dir, algo);
    return SEER_STATUS_SUCCESS;
}

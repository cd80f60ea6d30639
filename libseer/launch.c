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
#include "launch.h"
#include "common.h"

int seer_algo_count(seer_direction_t dir)
{
    switch (dir) {
    case SEER_DIR_FWD: return SEER_FWD_ALGO_COUNT;
    case SEER_DIR_BWD_DATA: return SEER_BWD_DATA_ALGO_COUNT;
    case SEER_DIR_BWD_FILTER: return SEER_BWD_FILTER_ALGO_COUNT;
    }
    return 0;
}

/* What an algorithm is, independent of direction. */
enum { K_GEMM_IMPLICIT, K_GEMM_PRECOMP, K_GEMM_EXPLICIT, K_FFT, K_FFT_TILING, K_WINO, K_WINO_NF, K_NONE };

static int kind_of(seer_direction_t dir, int algo)
{
    static const int fwd[] = {K_GEMM_IMPLICIT, K_GEMM_PRECOMP, K_GEMM_EXPLICIT, K_NONE,
                              K_FFT, K_FFT_TILING, K_WINO, K_WINO_NF};
    static const int bd[] = {K_GEMM_IMPLICIT, K_GEMM_PRECOMP, K_FFT, K_FFT_TILING, K_WINO, K_WINO_NF};
    static const int bf[] = {K_GEMM_IMPLICIT, K_GEMM_PRECOMP, K_FFT, K_GEMM_EXPLICIT, K_NONE,
                             K_WINO_NF, K_FFT_TILING};
    if (algo < 0 || algo >= seer_algo_count(dir)) return -1;
    return dir == SEER_DIR_FWD ? fwd[algo] : dir == SEER_DIR_BWD_DATA ? bd[algo] : bf[algo];
}

static double cdiv(double a, double b) { return ceil(a / b); }
static double pow2_at_least(double x) { double p = 1; while (p < x) p *= 2; return p; }

seer_status_t seer_conv_kernels(seer_handle_t h, const struct seer_conv *cv, seer_direction_t dir,
                                int algo, seer_kview_t *k, int *nk)
{
    int kind = kind_of(dir, algo);
    if (kind < 0)
        return seer_error(h, SEER_STATUS_BAD_PARAM, "algo %d out of range for direction %s", algo,
                          seer_direction_name(dir));
    const char *an = seer_algo_name(dir, algo);
    if (kind == K_NONE)
        return seer_error(h, SEER_STATUS_UNSUPPORTED, "%s %s is not implemented by cuDNN",
                          seer_direction_name(dir), an);
    double es = seer_dtype_size(cv->dtype), g = cv->groups;
    double N = cv->n, C = cv->c, H = cv->h, W = cv->w, K = cv->k, R = cv->r, S = cv->s;
    double P = cv->p, Q = cv->q;
    double xe = N * C * H * W, ye = N * K * P * Q, we = K * (C / g) * R * S;
    /* The tensors a direction reads (in1 activations, in2 weights or
     * gradients) and writes. */
    double in_e = dir == SEER_DIR_BWD_DATA ? ye : xe;
    double out_e = dir == SEER_DIR_FWD ? ye : dir == SEER_DIR_BWD_DATA ? xe : we;
    double other_e = dir == SEER_DIR_BWD_FILTER ? ye : we;
    double flops = 2.0 * N * K * P * Q * (C / g) * R * S;
    double gm, gn, gk;
    switch (dir) {
    case SEER_DIR_FWD: gm = N * P * Q; gn = K / g; gk = C / g * R * S; break;
    case SEER_DIR_BWD_DATA: gm = N * H * W; gn = C / g; gk = K / g * R * S; break;
    default: gm = K / g; gn = C / g * R * S; gk = N * P * Q; break;
    }
    int n = 0;
    int transform = kind == K_FFT || kind == K_FFT_TILING || kind == K_WINO || kind == K_WINO_NF;
    if (transform) {
        if (cv->stride_h != 1 || cv->stride_w != 1 || cv->dil_h != 1 || cv->dil_w != 1)
            return seer_error(h, SEER_STATUS_UNSUPPORTED, "%s %s needs stride 1 and dilation 1",
                              seer_direction_name(dir), an);
        if (cv->groups != 1)
            return seer_error(h, SEER_STATUS_UNSUPPORTED, "%s %s does not support groups",
                              seer_direction_name(dir), an);
    }
    if ((kind == K_WINO || kind == K_WINO_NF) &&
        !(cv->r == cv->s && (cv->r == 3 || (kind == K_WINO_NF && cv->r == 5))))
        return seer_error(h, SEER_STATUS_UNSUPPORTED, "%s %s needs a 3x3%s filter (got %dx%d)",
                          seer_direction_name(dir), an, kind == K_WINO_NF ? " or 5x5" : "", cv->r,
                          cv->s);
    if ((kind == K_FFT || kind == K_FFT_TILING) &&
        (cv->pad_h >= cv->r || cv->pad_w >= cv->s || (kind == K_FFT && (H + 2 * cv->pad_h > 256 ||
                                                                        W + 2 * cv->pad_w > 256))))
        return seer_error(h, SEER_STATUS_UNSUPPORTED,
                          "%s %s needs padding smaller than the filter%s", seer_direction_name(dir),
                          an, kind == K_FFT ? " and a padded input of at most 256x256" : "");
    if (transform && (cv->dtype == SEER_DTYPE_BF16 || cv->dtype == SEER_DTYPE_TF32))
        return seer_error(h, SEER_STATUS_UNSUPPORTED, "%s %s has no %s kernels",
                          seer_direction_name(dir), an, seer_dtype_name(cv->dtype));

    switch (kind) {
    case K_GEMM_IMPLICIT:
    case K_GEMM_PRECOMP:
        k[n++] = (seer_kview_t){SEER_ROLE_MAIN, "gemm", gm, gn, gk, g, flops,
                                (in_e + other_e + out_e) * es};
        if (kind == K_GEMM_PRECOMP) /* offset table and filter layout for the implicit GEMM */
            k[n++] = (seer_kview_t){SEER_ROLE_HELPER, "precompute", 0, 0, 0, 0, 0, we * es};
        break;
    case K_GEMM_EXPLICIT: {
        double cols = gm * gk * g; /* im2col matrix, elements */
        if (dir == SEER_DIR_BWD_FILTER) cols = gn * gk * g;
        k[n++] = (seer_kview_t){SEER_ROLE_MAIN, "gemm", gm, gn, gk, g, flops,
                                (cols + other_e + out_e) * es};
        k[n++] = (seer_kview_t){SEER_ROLE_INPUT_TRANSFORM, "im2col", 0, 0, 0, 0, 0,
                                (in_e + cols) * es};
        break;
    }
    case K_WINO:
    case K_WINO_NF: {
        double m = kind == K_WINO ? 2 : 4, alpha = m + R - 1, a2 = alpha * alpha;
        double tiles = N * cdiv(dir == SEER_DIR_BWD_DATA ? H : P, m) *
                       cdiv(dir == SEER_DIR_BWD_DATA ? W : Q, m);
        double c_in = dir == SEER_DIR_BWD_DATA ? K : C, c_out = dir == SEER_DIR_BWD_DATA ? C : K;
        double tw = a2 * K * C; /* transformed filter */
        if (dir == SEER_DIR_BWD_FILTER) {
            /* GEMM over tiles: [C x tiles] x [tiles x K] per point */
            double wflops = 2.0 * a2 * tiles * C * K;
            k[n++] = (seer_kview_t){SEER_ROLE_MAIN, "gemm", C, K, tiles, a2, wflops,
                                    a2 * (tiles * (C + K) + C * K) * es};
            k[n++] = (seer_kview_t){SEER_ROLE_INPUT_TRANSFORM, "data_transform", 0, 0, 0, 0, 0,
                                    (xe + ye + a2 * tiles * (C + K)) * es};
            k[n++] = (seer_kview_t){SEER_ROLE_OUTPUT_TRANSFORM, "filter_output", 0, 0, 0, 0, 0,
                                    (tw + we) * es};
        } else if (kind == K_WINO) {
            /* fused: transforms happen in registers; only the filter
             * transform is a separate kernel */
            k[n++] = (seer_kview_t){SEER_ROLE_MAIN, "winograd", tiles, c_out, c_in * a2 / (m * m),
                                    1, 2.0 * tiles * c_out * c_in * a2, (in_e + tw + out_e) * es};
            k[n++] = (seer_kview_t){SEER_ROLE_FILTER_TRANSFORM, "filter_transform", 0, 0, 0, 0, 0,
                                    (we + tw) * es};
        } else {
            k[n++] = (seer_kview_t){SEER_ROLE_MAIN, "gemm", tiles, c_out, c_in, a2,
                                    2.0 * a2 * tiles * c_in * c_out,
                                    a2 * (tiles * (c_in + c_out) + c_in * c_out) * es};
            k[n++] = (seer_kview_t){SEER_ROLE_INPUT_TRANSFORM, "data_transform", 0, 0, 0, 0, 0,
                                    (in_e + a2 * tiles * c_in) * es};
            k[n++] = (seer_kview_t){SEER_ROLE_FILTER_TRANSFORM, "filter_transform", 0, 0, 0, 0, 0,
                                    (we + tw) * es};
            k[n++] = (seer_kview_t){SEER_ROLE_OUTPUT_TRANSFORM, "output_transform", 0, 0, 0, 0, 0,
                                    (a2 * tiles * c_out + out_e) * es};
        }
        break;
    }
    case K_FFT:
    case K_FFT_TILING: {
        /* FFT: one transform of the whole padded image; FFT_TILING: 32x32
         * tiles overlapping by the filter size. */
        /* cuDNN's FFT_TILING uses 16x16 transforms for small images (seen
         * in the grids of recorded kernels), 32x32 otherwise. */
        double side = kind == K_FFT ? pow2_at_least(fmax(H + 2 * cv->pad_h, W + 2 * cv->pad_w))
                                    : fmax(H, W) <= 16 ? 16 : 32;
        double tiles = kind == K_FFT ? 1 : cdiv(P, side - R + 1) * cdiv(Q, side - S + 1);
        double freq = side * (side / 2 + 1), ce = 8; /* complex fp32 */
        double bm = N * tiles, c_in = dir == SEER_DIR_BWD_DATA ? K : C,
               c_out = dir == SEER_DIR_BWD_DATA ? C : K;
        if (dir == SEER_DIR_BWD_FILTER) { bm = C; c_in = N * tiles; c_out = K; }
        k[n++] = (seer_kview_t){SEER_ROLE_MAIN, "cgemm", bm, c_out, c_in, freq,
                                8.0 * freq * bm * c_in * c_out,
                                freq * (bm * c_in + c_in * c_out + bm * c_out) * ce};
        k[n++] = (seer_kview_t){SEER_ROLE_INPUT_TRANSFORM, "fft_data", 0, 0, 0, 0, 0,
                                in_e * es + N * tiles * (dir == SEER_DIR_BWD_DATA ? K : C) * freq * ce};
        k[n++] = (seer_kview_t){SEER_ROLE_FILTER_TRANSFORM, "fft_filter", 0, 0, 0, 0, 0,
                                other_e * es + (dir == SEER_DIR_BWD_FILTER ? N * tiles * K : K * C) * freq * ce};
        k[n++] = (seer_kview_t){SEER_ROLE_OUTPUT_TRANSFORM, "ifft_output", 0, 0, 0, 0, 0,
                                out_e * es + (dir == SEER_DIR_BWD_FILTER ? C * K : N * tiles * c_out) * freq * ce};
        break;
    }
    }
    *nk = n;
    return SEER_STATUS_SUCCESS;
}

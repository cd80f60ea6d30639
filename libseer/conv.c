/* Convolution descriptor: validation, output size, work, the held-out
 * test split and the datasheet roofline. */
#include <stdlib.h>
#include "common.h"
#include "conv.h"
#include "gpu.h"
#include "gpufile.h"

/* Sizes beyond this are no real convolution and would only make the
 * products below overflow sooner. */
#define SEER_MAX_DIM (1 << 24)

int seer_dtype_size(seer_dtype_t dtype)
{
    switch (dtype) {
    case SEER_DTYPE_FP32:
    case SEER_DTYPE_TF32: return 4;
    case SEER_DTYPE_FP16:
    case SEER_DTYPE_BF16:
    case SEER_DTYPE_FP16_PSEUDO: return 2;
    }
    return 0;
}

/* Product of four non-negative sizes, or -1 past 2^31-1 elements. */
static int64_t elems4(int64_t a, int64_t b, int64_t c, int64_t d)
{
    int64_t ab, abc, abcd;
    if (!seer_mul_ok(a, b, &ab) || !seer_mul_ok(ab, c, &abc) || !seer_mul_ok(abc, d, &abcd) ||
        abcd > INT32_MAX)
        return -1;
    return abcd;
}

/* Output extent of one spatial dimension, or 0 when the dilated filter
 * does not fit the padded input.  All operands are <= 2^24, so int64 is
 * ample. */
static int64_t out_dim(int64_t in, int64_t pad, int64_t filt, int64_t stride, int64_t dil)
{
    int64_t padded = in + 2 * pad, span = dil * (filt - 1) + 1;
    if (padded < span) return 0;
    return (padded - span) / stride + 1;
}

seer_status_t seer_conv_init(seer_handle_t h, struct seer_conv *cv, seer_dtype_t dtype,
                             seer_layout_t layout, const seer_conv_shape_t *shape)
{
    if (!cv) return seer_error(h, SEER_STATUS_BAD_PARAM, "conv descriptor is NULL");
    if (!shape) return seer_error(h, SEER_STATUS_BAD_PARAM, "shape is NULL");
    const int n = shape->n, c = shape->c, hh = shape->h, w = shape->w, k = shape->k, r = shape->r,
              s = shape->s, pad_h = shape->pad_h, pad_w = shape->pad_w, stride_h = shape->stride_h,
              stride_w = shape->stride_w, dil_h = shape->dil_h, dil_w = shape->dil_w,
              groups = shape->groups;
    if ((int)dtype < SEER_DTYPE_FP32 || (int)dtype > SEER_DTYPE_FP16_PSEUDO)
        return seer_error(h, SEER_STATUS_BAD_PARAM, "dtype out of range (got %d)", (int)dtype);
    if ((int)layout < SEER_LAYOUT_NCHW || (int)layout > SEER_LAYOUT_NHWC)
        return seer_error(h, SEER_STATUS_BAD_PARAM, "layout out of range (got %d)", (int)layout);

    const struct { const char *name; int v, min; } f[] = {
        { "n", n, 1 }, { "c", c, 1 }, { "h", hh, 1 }, { "w", w, 1 },
        { "k", k, 1 }, { "r", r, 1 }, { "s", s, 1 },
        { "pad_h", pad_h, 0 }, { "pad_w", pad_w, 0 },
        { "stride_h", stride_h, 1 }, { "stride_w", stride_w, 1 },
        { "dil_h", dil_h, 1 }, { "dil_w", dil_w, 1 },
    };
    const int nf = (int)(sizeof f / sizeof f[0]);
    for (int i = 0; i < nf; i++)
        if (f[i].v < f[i].min)
            return seer_error(h, SEER_STATUS_BAD_SHAPE, "%s must be >= %d (got %d)", f[i].name,
                              f[i].min, f[i].v);
    if (groups < 1)
        return seer_error(h, SEER_STATUS_BAD_GROUPS, "groups must be >= 1 (got %d)", groups);
    for (int i = 0; i < nf; i++)
        if (f[i].v > SEER_MAX_DIM)
            return seer_error(h, SEER_STATUS_OVERFLOW, "%s is %d, over the limit 2^24", f[i].name,
                              f[i].v);
    if (groups > SEER_MAX_DIM)
        return seer_error(h, SEER_STATUS_OVERFLOW, "groups is %d, over the limit 2^24", groups);
    if (c % groups)
        return seer_error(h, SEER_STATUS_BAD_GROUPS, "groups (%d) must divide c (%d)", groups, c);
    if (k % groups)
        return seer_error(h, SEER_STATUS_BAD_GROUPS, "groups (%d) must divide k (%d)", groups, k);

    if (elems4(n, c, hh, w) < 0)
        return seer_error(h, SEER_STATUS_OVERFLOW,
                          "input x (n*c*h*w = %d*%d*%d*%d) has over 2^31-1 elements", n, c, hh, w);
    if (elems4(k, c / groups, r, s) < 0)
        return seer_error(h, SEER_STATUS_OVERFLOW,
                          "filter w (k*(c/groups)*r*s = %d*%d*%d*%d) has over 2^31-1 elements", k,
                          c / groups, r, s);

    int64_t p = out_dim(hh, pad_h, r, stride_h, dil_h);
    int64_t q = out_dim(w, pad_w, s, stride_w, dil_w);
    if (p < 1)
        return seer_error(h, SEER_STATUS_BAD_SHAPE,
                          "r: dilated filter height %lld exceeds padded input height %lld",
                          (long long)dil_h * (r - 1) + 1, (long long)hh + 2LL * pad_h);
    if (q < 1)
        return seer_error(h, SEER_STATUS_BAD_SHAPE,
                          "s: dilated filter width %lld exceeds padded input width %lld",
                          (long long)dil_w * (s - 1) + 1, (long long)w + 2LL * pad_w);
    /* p, q <= h + 2 pad <= 3 * 2^24: they fit an int. */
    if (elems4(n, k, p, q) < 0)
        return seer_error(h, SEER_STATUS_OVERFLOW,
                          "output y (n*k*p*q = %d*%d*%lld*%lld) has over 2^31-1 elements", n, k,
                          (long long)p, (long long)q);

    struct seer_conv t = {
        .set = 1, .dtype = dtype, .layout = layout, .shape = *shape, .p = (int)p, .q = (int)q,
    };
    *cv = t;
    return SEER_STATUS_SUCCESS;
}

int64_t seer_conv_x_elems(const struct seer_conv *cv)
{
    return (int64_t)cv->shape.n * cv->shape.c * cv->shape.h * cv->shape.w;
}

int64_t seer_conv_y_elems(const struct seer_conv *cv)
{
    return (int64_t)cv->shape.n * cv->shape.k * cv->p * cv->q;
}

int64_t seer_conv_w_elems(const struct seer_conv *cv)
{
    return (int64_t)cv->shape.k * (cv->shape.c / cv->shape.groups) * cv->shape.r * cv->shape.s;
}

double seer_conv_flops(const struct seer_conv *cv)
{
    return 2.0 * (double)seer_conv_y_elems(cv) * (double)(cv->shape.c / cv->shape.groups) * cv->shape.r *
           cv->shape.s;
}

double seer_conv_min_bytes(const struct seer_conv *cv, seer_direction_t dir)
{
    double x = (double)seer_conv_x_elems(cv), y = (double)seer_conv_y_elems(cv),
           w = (double)seer_conv_w_elems(cv), b = seer_dtype_size(cv->dtype);
    /* Every direction reads two of the three tensors and writes the
     * third; spelled out per direction so that a future change (say, an
     * fp32 dw) lands in the right place. */
    switch (dir) {
    case SEER_DIR_FWD: return (x + w + y) * b;         /* x, w -> y */
    case SEER_DIR_BWD_DATA: return (y + w + x) * b;    /* dy, w -> dx */
    case SEER_DIR_BWD_FILTER: return (x + y + w) * b;  /* x, dy -> dw */
    }
    return 0;
}

/* ---- public descriptor API --------------------------------------- */

seer_status_t seer_conv_desc_create(seer_conv_desc_t *desc)
{
    if (!desc) return SEER_STATUS_BAD_PARAM;
    struct seer_conv *cv = calloc(1, sizeof *cv);
    if (!cv) return SEER_STATUS_ALLOC_FAILED;
    *desc = cv;
    return SEER_STATUS_SUCCESS;
}

seer_status_t seer_conv_desc_destroy(seer_conv_desc_t desc)
{
    free(desc);
    return SEER_STATUS_SUCCESS;
}

seer_status_t seer_conv_desc_set_shape(seer_handle_t handle, seer_conv_desc_t desc,
                                       seer_dtype_t dtype, seer_layout_t layout,
                                       const seer_conv_shape_t *shape)
{
    if (!desc) return seer_error(handle, SEER_STATUS_BAD_PARAM, "desc is NULL");
    return seer_conv_init(handle, desc, dtype, layout, shape);
}

seer_status_t seer_conv_desc_set(seer_handle_t handle, seer_conv_desc_t desc, seer_dtype_t dtype,
                                 seer_layout_t layout, int n, int c, int h, int w, int k, int r,
                                 int s, int pad_h, int pad_w, int stride_h, int stride_w,
                                 int dil_h, int dil_w, int groups)
{
    const seer_conv_shape_t shape = {n, c, h, w, k, r, s, pad_h, pad_w, stride_h, stride_w,
                                     dil_h, dil_w, groups};
    return seer_conv_desc_set_shape(handle, desc, dtype, layout, &shape);
}

seer_status_t seer_conv_desc_get_output(const seer_conv *desc, int *p, int *q)
{
    if (!desc || !desc->set || !p || !q) return SEER_STATUS_BAD_PARAM;
    *p = desc->p;
    *q = desc->q;
    return SEER_STATUS_SUCCESS;
}

static int dir_ok(seer_direction_t dir)
{
    return (int)dir >= SEER_DIR_FWD && (int)dir <= SEER_DIR_BWD_FILTER;
}

seer_status_t seer_conv_work(const seer_conv *desc, seer_direction_t dir, double *flops,
                             double *min_bytes)
{
    if (!desc || !desc->set || !dir_ok(dir) || !flops || !min_bytes) return SEER_STATUS_BAD_PARAM;
    *flops = seer_conv_flops(desc);
    *min_bytes = seer_conv_min_bytes(desc, dir);
    return SEER_STATUS_SUCCESS;
}

/* The held-out test split.  FNV-1a 64 over the shape as 16 little-endian
 * int32s, in this order: n c h w k r s pad_h pad_w stride_h stride_w
 * dil_h dil_w groups dtype layout.  The shape is in the test split when
 * hash % 100 < 20 (about 20 %).  Direction, algorithm and GPU are left
 * out on purpose: every measurement of a shape falls on the same side.
 * This defines which rows were never trained on: never change it, or
 * reported accuracy stops being comparable across versions. */
int seer_conv_in_test_split(const seer_conv *desc)
{
    if (!desc || !desc->set) return 0;
    const seer_conv_shape_t *s = &desc->shape;
    const int32_t v[16] = {
        s->n, s->c, s->h, s->w, s->k, s->r, s->s, s->pad_h, s->pad_w, s->stride_h, s->stride_w,
        s->dil_h, s->dil_w, s->groups, (int32_t)desc->dtype, (int32_t)desc->layout,
    };
    return seer_in_test_split(v, 16);
}

seer_status_t seer_roofline_conv(seer_handle_t handle, const seer_gpu_info_t *gpu,
                                 const seer_conv *desc, seer_direction_t dir,
                                 double *time_ms)
{
    if (!gpu) return seer_error(handle, SEER_STATUS_BAD_PARAM, "gpu is NULL");
    if (!desc) return seer_error(handle, SEER_STATUS_BAD_PARAM, "desc is NULL");
    if (!desc->set)
        return seer_error(handle, SEER_STATUS_BAD_PARAM, "desc was never set (seer_conv_desc_set)");
    if (!dir_ok(dir))
        return seer_error(handle, SEER_STATUS_BAD_PARAM, "direction out of range (got %d)", (int)dir);
    if (!time_ms) return seer_error(handle, SEER_STATUS_BAD_PARAM, "time_ms is NULL");
    /* no bandwidth or FP32 rate at all is no GPU (a zeroed struct), not a
     * dtype this GPU cannot run */
    seer_status_t st = seer_gpu_check_rates(handle, "seer_roofline_conv", gpu);
    if (st) return st;
    double peak = seer_gpu_peak_flops(gpu, seer_gpu_run_dtype(gpu, desc->dtype)), bw = seer_gpu_dram_bw(gpu);
    if (!(peak > 0))
        return seer_error(handle, SEER_STATUS_UNSUPPORTED,
                          "GPU %.32s (compute capability %d.%d) cannot run %s math",
                          gpu->id, gpu->cc_major, gpu->cc_minor, seer_dtype_name(desc->dtype));
    double t_math = seer_conv_flops(desc) / peak, t_mem = seer_conv_min_bytes(desc, dir) / bw;
    *time_ms = (t_math > t_mem ? t_math : t_mem) * 1e3;
    return SEER_STATUS_SUCCESS;
}

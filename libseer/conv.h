/* Convolution descriptor internals: validated shape, output size, work. */
#ifndef SEER_CONV_H
#define SEER_CONV_H
#include <stdint.h>
#include "seer.h"

struct seer_conv {
    int set;                    /* 0 until seer_conv_desc_set succeeds */
    seer_dtype_t dtype;
    seer_layout_t layout;
    int n, c, h, w, k, r, s;
    int pad_h, pad_w, stride_h, stride_w, dil_h, dil_w, groups;
    int p, q;                   /* output height, width */
};

/* Bytes per element of the data type. */
int seer_dtype_size(seer_dtype_t dtype);

/* Fill a struct seer_conv on the stack with the same validation as
 * seer_conv_desc_set (used by CSV readers and training). */
seer_status_t seer_conv_init(seer_handle_t h, struct seer_conv *cv, seer_dtype_t dtype,
                             seer_layout_t layout, int n, int c, int hh, int w, int k, int r,
                             int s, int pad_h, int pad_w, int stride_h, int stride_w, int dil_h,
                             int dil_w, int groups);

/* FLOPs (2 per MAC) of a direction: identical for all three directions. */
double seer_conv_flops(const struct seer_conv *cv);
/* Minimum DRAM bytes of a direction: its inputs read once and its output
 * written once (fwd: x, w -> y; bwd_data: dy, w -> dx; bwd_filter: x, dy -> dw). */
double seer_conv_min_bytes(const struct seer_conv *cv, seer_direction_t dir);

/* Element counts. */
int64_t seer_conv_x_elems(const struct seer_conv *cv);
int64_t seer_conv_y_elems(const struct seer_conv *cv);
int64_t seer_conv_w_elems(const struct seer_conv *cv);
#endif

/* Convolution descriptor internals: validated shape, output size, work. */
#ifndef SEER_CONV_H
#define SEER_CONV_H
#include <stdint.h>
#include "seer.h"

struct seer_conv {
    int set;                    /* 0 until seer_conv_desc_set succeeds */
    seer_dtype_t dtype;
    seer_layout_t layout;
    seer_conv_shape_t shape;    /* as given, validated */
    int p, q;                   /* output height, width */
};

/* Bytes per element of the data type. */
int seer_dtype_size(seer_dtype_t dtype);

/* Fill a struct seer_conv on the stack with the same validation as
 * seer_conv_desc_set_shape (used by CSV readers, networks and training). */
seer_status_t seer_conv_init(seer_handle_t h, struct seer_conv *cv, seer_dtype_t dtype,
                             seer_layout_t layout, const seer_conv_shape_t *shape);

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

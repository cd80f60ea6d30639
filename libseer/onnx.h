/* ONNX import (onnx.c): an ONNX ModelProto translated into the network
 * description of docs/networks.md, which the description parser then
 * builds.  The protobuf-c code is generated at build time (Makefile). */
#ifndef SEER_ONNX_H
#define SEER_ONNX_H
#include "seer.h"

/* Default-domain opsets accepted.  Opsets 22 to 26 changed none of the
 * operators read here but in the types they take (onnx 1.23's schemas:
 * same attributes and inputs as at 21, Cast's round_mode for float8
 * aside); 27 changed Range.  Before 7 (the ONNX model zoo's classic CNNs
 * come at opsets 3 to 12) the operators read here differ by attributes
 * libseer ignores (consumed_inputs, is_test, spatial) and by those it
 * reads: Reshape's shape (before 5), the legacy broadcast=1 with an axis
 * (before 7), Upsample's height_scale and width_scale (before 7) and
 * Split's sizes as an input (1, unsupported). */
#define SEER_ONNX_MIN_OPSET 1
#define SEER_ONNX_MAX_OPSET 26

/* Most dimensions of one tensor; most values of a constant folded as a
 * shape (Reshape targets, Clip bounds, Slice arguments). */
#define SEER_ONNX_MAX_RANK 8
#define SEER_ONNX_MAX_CONST 64

/* Translation into a malloc'ed, NUL-terminated description. */
seer_status_t seer_onnx_translate(seer_handle_t h, const void *bytes, size_t len,
                                  const seer_onnx_options_t *opt, char **text, size_t *text_len,
                                  seer_onnx_info_t *info);
#endif

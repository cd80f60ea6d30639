#!/bin/sh
# The "Physical sanity" section of docs/accuracy.md (make eval):
#   sh tools/physics.sh SEER_PHYSICS_BIN
set -u
cat <<'TXT'

## Physical sanity

`build/seer-physics models` (tools/bench/physics.c), seeded: for every GPU
of the table as `seer --gpu` serves it, over random shapes, how often the
fastest algorithm's predicted time breaks a property physics demands.
They hold by construction (docs/method.md, "Physical sanity by
construction"), so every count below is 0; `tests/test_physics.c`
gates them over other random shapes (and every case predicting a finite
positive time, no prediction under the roofline, GPUs with the same
datasheet facts predicting identically).

- **2N, 2C, 2K, 2HW**: shapes (of the samples) whose time drops by more
  than 5 % when the batch, input channels, output channels or image area
  doubles (the learned correction may move a ratio by 4.9 % at most);
  **worst ratio**: the smallest time of the doubled shape over the
  shape's own, over all four.
- **grouped > dense**: 32 groups slower than the dense conv, on
  compute-bound shapes with 64 or more channels.
- **depthwise > dense/4**: a depthwise conv over a quarter of the dense
  one (or over its own roofline plus a launch gap, where that is more:
  a Winograd dense conv can take a quarter of its direct FLOPs' time), on
  shapes at least 4x compute-bound in direct FLOPs whose dense conv takes 1 ms.
- **TC > FP32**: TF32/FP16/BF16 slower than FP32 on shapes at least 4x
  compute-bound (tensor-core GPUs only), but where the FP32 time beats
  every floor of the dtype's own kernels (BF16 has no Winograd or FFT:
  on GeForce Ampere and Ada, whose BF16 tensor cores run at twice the
  FP32 rate, an FP32 Winograd of a 5x5 filter can beat any BF16 kernel).
- **1x64x7x7->64**: the fastest time of that conv (bar: 30 us on V100 and
  newer).

TXT
"$1" models 200

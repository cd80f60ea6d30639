/*
 * seer.h - libseer public API.
 *
 * libseer predicts how long the GPU kernels of a cuDNN convolution take,
 * from the convolution's shape alone, on the CPU.  It follows SEER (PACT
 * 2021): each convolution is seen as the kernels cuDNN launches for it;
 * every kernel gets a launch (grid, block, registers, shared memory), its
 * work (FLOPs, DRAM bytes), waves and occupancy, a class (compute-bound,
 * DRAM-bound, under-utilized) and a time from a per-class hybrid model
 * whose coefficients were fitted to real measurements.
 *
 * Conventions (cuDNN's):
 *   - every function returns a seer_status_t; results come back through
 *     out-parameters, written only on SEER_STATUS_SUCCESS unless the
 *     function says otherwise (BUFFER_TOO_SMALL still gives the count).
 *     The exceptions cannot fail: seer_version, the *_name functions,
 *     seer_status_string, seer_get_last_error, and the yes/no questions
 *     seer_conv_in_test_split, seer_gemm_shape_in_test_split,
 *     seer_source_has_dispatch and seer_source_cudnn_major, which return
 *     an int;
 *   - objects are opaque pointers made by *_create / *_load and released
 *     by *_destroy, which accept NULL;
 *   - a failing call that was given a handle records a message naming the
 *     offending field, line or value; read it with seer_get_last_error().
 *     A status-returning function without a handle parameter fails only
 *     with BAD_PARAM, for the NULL or out-of-range arguments its comment
 *     lists (and ALLOC_FAILED for seer_create / seer_conv_desc_create):
 *     seer_status_string() of the status is its whole message.
 *
 * Thread safety: a seer_model_t is immutable once loaded or trained and
 * may be shared by any number of threads.  A seer_handle_t may be used by
 * several threads at once; only its last-error message is shared (and
 * guarded by a lock).  A seer_conv_desc_t must not be modified while
 * another thread reads it.  Predictions are deterministic: the same
 * inputs give bit-identical outputs in every thread and every run.
 *
 * No CUDA header is needed to use this file.
 */
#ifndef SEER_H
#define SEER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(SEER_BUILDING) && defined(__GNUC__)
#define SEER_API __attribute__((visibility("default")))
#else
#define SEER_API
#endif

/* ------------------------------------------------------------------ */
/* Version                                                             */
/* ------------------------------------------------------------------ */

#define SEER_VERSION_MAJOR 0
#define SEER_VERSION_MINOR 2
#define SEER_VERSION_PATCH 0
#define SEER_VERSION_NUMBER \
    (SEER_VERSION_MAJOR * 10000 + SEER_VERSION_MINOR * 100 + SEER_VERSION_PATCH)
#define SEER_VERSION_STRING "0.2.0"

/* SEER_VERSION_NUMBER of the library actually linked. */
SEER_API unsigned seer_version(void);

/* ------------------------------------------------------------------ */
/* Status codes.  Values are fixed forever once released: new codes    */
/* are only ever appended.                                             */
/* ------------------------------------------------------------------ */

typedef enum {
    SEER_STATUS_SUCCESS = 0,
    SEER_STATUS_BAD_PARAM = 1,          /* NULL pointer, enum out of range, bad flag value */
    SEER_STATUS_ALLOC_FAILED = 2,       /* out of memory */
    SEER_STATUS_BAD_SHAPE = 3,          /* impossible shape: non-positive size, empty output */
    SEER_STATUS_OVERFLOW = 4,           /* a size or product of sizes overflows the limits */
    SEER_STATUS_BAD_GROUPS = 5,         /* groups does not divide the channels */
    SEER_STATUS_UNSUPPORTED = 6,        /* dtype/layout/direction/algo combination cuDNN lacks */
    SEER_STATUS_UNKNOWN_GPU = 7,        /* GPU id not in the GPU table */
    SEER_STATUS_IO_ERROR = 8,           /* a file could not be opened, read or written */
    SEER_STATUS_MODEL_TRUNCATED = 9,    /* model file ends early */
    SEER_STATUS_MODEL_CORRUPT = 10,     /* bad magic, checksum mismatch, inconsistent content */
    SEER_STATUS_MODEL_VERSION = 11,     /* model file format version not supported */
    SEER_STATUS_CSV_EMPTY = 12,         /* CSV input has no header or no data */
    SEER_STATUS_CSV_MISSING_COLUMN = 13,/* a required CSV column is absent */
    SEER_STATUS_CSV_BAD_VALUE = 14,     /* a CSV field does not parse or is out of range */
    SEER_STATUS_CSV_SYNTAX = 15,        /* unterminated quote, wrong field count, NUL byte, duplicate column */
    SEER_STATUS_NO_DATA = 16,           /* training: too few usable rows */
    SEER_STATUS_NOT_CALIBRATED = 17,    /* the model has nothing for this algo/dtype/direction */
    SEER_STATUS_INTERNAL = 18,          /* a bug in libseer: please report */
    SEER_STATUS_BUFFER_TOO_SMALL = 19,  /* an output array is too small; the count says how big */
    SEER_STATUS_NET_PARSE = 20,         /* network text: syntax, unknown layer/option, bad value, duplicate name */
    SEER_STATUS_UNKNOWN_NETWORK = 21,   /* no built-in network of that name */
    SEER_STATUS_NET_INPUT = 22,         /* a layer's input is missing or not defined above it */
    SEER_STATUS_NET_SHAPE = 23,         /* layer shapes do not fit (add/concat mismatch, empty output) */
    SEER_STATUS_NO_ALGORITHM = 24,      /* picker: no algorithm supports the shape within the workspace limit */
    SEER_STATUS_WORKSPACE_LIMIT = 25,   /* picker entry: the algorithm needs more workspace than allowed */
    SEER_STATUS_BAD_PREDICTION = 26,    /* the model gives a non-finite, negative or absurd time (over
                                         * SEER_MAX_TIME_MS): the shape is far outside its data */
    SEER_STATUS_GPU_FILE = 27,          /* GPU description file: not one, syntax, unknown key, bad value, id conflict */
    SEER_STATUS_ONNX_CORRUPT = 28,      /* ONNX input: truncated or corrupt protobuf, no graph */
    SEER_STATUS_ONNX_OPSET = 29,        /* ONNX input: default-domain opset missing or not supported */
    SEER_STATUS_ONNX_UNSUPPORTED_OP = 30 /* ONNX input: operators libseer cannot translate (named) */
} seer_status_t;

/* The longest time any prediction may return, ms (about 11.6 days). */
#define SEER_MAX_TIME_MS 1e9
/* The shortest measured time a CSV may carry, ms (1 ns). */
#define SEER_MIN_TIME_MS 1e-6

/* A static English description of a status ("SEER_STATUS_BAD_SHAPE: ..."). */
SEER_API const char *seer_status_string(seer_status_t status);

/* ------------------------------------------------------------------ */
/* Enumerations                                                        */
/* ------------------------------------------------------------------ */

typedef enum {
    SEER_DTYPE_FP32 = 0,        /* fp32 data, fp32 math (no tensor cores) */
    SEER_DTYPE_TF32 = 1,        /* fp32 data, TF32 tensor-core math allowed (FP32
                                 * where the GPU or algorithm has no TF32 kernels) */
    SEER_DTYPE_FP16 = 2,        /* fp16 data, tensor-core math (FP16_PSEUDO on a
                                 * GPU without FP16 tensor cores) */
    SEER_DTYPE_BF16 = 3,        /* bf16 data, tensor-core math */
    SEER_DTYPE_FP16_PSEUDO = 4  /* fp16 data, fp32 math ("pseudo half") */
} seer_dtype_t;

typedef enum { SEER_LAYOUT_NCHW = 0, SEER_LAYOUT_NHWC = 1 } seer_layout_t;

typedef enum {
    SEER_DIR_FWD = 0,
    SEER_DIR_BWD_DATA = 1,
    SEER_DIR_BWD_FILTER = 2
} seer_direction_t;

/* Algorithms use cuDNN's own enum values, per direction. */
enum {
    SEER_FWD_ALGO_IMPLICIT_GEMM = 0,
    SEER_FWD_ALGO_IMPLICIT_PRECOMP_GEMM = 1,
    SEER_FWD_ALGO_GEMM = 2,
    SEER_FWD_ALGO_DIRECT = 3,
    SEER_FWD_ALGO_FFT = 4,
    SEER_FWD_ALGO_FFT_TILING = 5,
    SEER_FWD_ALGO_WINOGRAD = 6,
    SEER_FWD_ALGO_WINOGRAD_NONFUSED = 7,
    SEER_FWD_ALGO_COUNT = 8
};
enum {
    SEER_BWD_DATA_ALGO_0 = 0,
    SEER_BWD_DATA_ALGO_1 = 1,
    SEER_BWD_DATA_ALGO_FFT = 2,
    SEER_BWD_DATA_ALGO_FFT_TILING = 3,
    SEER_BWD_DATA_ALGO_WINOGRAD = 4,
    SEER_BWD_DATA_ALGO_WINOGRAD_NONFUSED = 5,
    SEER_BWD_DATA_ALGO_COUNT = 6
};
enum {
    SEER_BWD_FILTER_ALGO_0 = 0,
    SEER_BWD_FILTER_ALGO_1 = 1,
    SEER_BWD_FILTER_ALGO_FFT = 2,
    SEER_BWD_FILTER_ALGO_3 = 3,
    SEER_BWD_FILTER_ALGO_WINOGRAD = 4,
    SEER_BWD_FILTER_ALGO_WINOGRAD_NONFUSED = 5,
    SEER_BWD_FILTER_ALGO_FFT_TILING = 6,
    SEER_BWD_FILTER_ALGO_COUNT = 7
};

/* Pseudo-algorithm for every direction: "whatever cuDNN's own heuristic
 * launches".  Only models trained on rows whose algo was not recorded
 * (DeepBench's backward passes) know it; it is costed with the kernel
 * structure of the direction's algorithm 0, in backward filter the faster
 * of that and the nonfused Winograd's (docs/api.md). */
#define SEER_ALGO_CUDNN_CHOICE (-1)

/* Kernel classes (SEER). */
typedef enum {
    SEER_CLASS_COMPUTE = 0,     /* bound by the FMA / tensor pipes */
    SEER_CLASS_DRAM = 1,        /* bound by DRAM bandwidth */
    SEER_CLASS_UNDER = 2        /* under-utilized: neither (latency, few waves, launch) */
} seer_class_t;

/* What a kernel does inside a convolution. */
typedef enum {
    SEER_ROLE_MAIN = 0,         /* the GEMM / convolution kernel */
    SEER_ROLE_INPUT_TRANSFORM = 1,  /* im2col, Winograd/FFT data transform */
    SEER_ROLE_FILTER_TRANSFORM = 2, /* Winograd/FFT filter transform */
    SEER_ROLE_OUTPUT_TRANSFORM = 3, /* Winograd/FFT output transform, split-k reduce */
    SEER_ROLE_HELPER = 4            /* anything else (layout conversion, memset) */
} seer_kernel_role_t;

/* Where a prediction's coefficients come from. */
typedef enum {
    SEER_SOURCE_CALIBRATED = 0,     /* measurements on this GPU */
    SEER_SOURCE_TRANSFERRED = 1,    /* measurements on other GPUs, evaluated with this GPU's facts
                                     * (on a calibrated GPU, scaled by its own measured kernels'
                                     * speed of that direction and math: docs/transfer.md) */
    SEER_SOURCE_ANALYTICAL = 2      /* no GPU has data for this kernel family: the model's
                                     * generic kernel formula, or for an implicit GEMM the
                                     * formula fitted to its sibling algorithm or to cuDNN's
                                     * choice (docs/method.md, "Fallbacks") */
} seer_source_t;

/* Names: "fp32", "nchw", "fwd", "bwd_data", "bwd_filter", "IMPLICIT_GEMM",
 * "compute", "main", ... as used in the CSV formats.  Unknown values give
 * the string "?". */
SEER_API const char *seer_dtype_name(seer_dtype_t dtype);
SEER_API const char *seer_layout_name(seer_layout_t layout);
SEER_API const char *seer_direction_name(seer_direction_t dir);
SEER_API const char *seer_class_name(seer_class_t cls);
SEER_API const char *seer_role_name(seer_kernel_role_t role);
SEER_API const char *seer_source_name(seer_source_t source); /* "calibrated", ... */
/* cuDNN name of an algorithm of a direction, e.g. (FWD, 7) ->
 * "WINOGRAD_NONFUSED", (BWD_DATA, 1) -> "ALGO_1";
 * SEER_ALGO_CUDNN_CHOICE -> "CUDNN_CHOICE". */
SEER_API const char *seer_algo_name(seer_direction_t dir, int algo);

/* Parse the names above (case-insensitive), and the spellings frameworks
 * write (float32, float16, half, bfloat16; channels_first, contiguous,
 * channels_last; forward, fprop, backward_data, dgrad, bwd_input,
 * backward_filter, wgrad, bwd_weight, backward_weight: docs/formats.md).
 * Return SEER_STATUS_BAD_PARAM for an unknown name or a NULL argument (no
 * handle: the status is the whole message). */
SEER_API seer_status_t seer_dtype_from_name(const char *name, seer_dtype_t *dtype);
SEER_API seer_status_t seer_layout_from_name(const char *name, seer_layout_t *layout);
SEER_API seer_status_t seer_direction_from_name(const char *name, seer_direction_t *dir);
/* Accepts the CSV spellings, with or without cuDNN's prefix, for fwd
 * names also in the other directions where cuDNN has a twin ("FFT",
 * "WINOGRAD_NONFUSED", "FFT_TILING"); "IMPLICIT_GEMM" maps to ALGO_0 and
 * "IMPLICIT_PRECOMP_GEMM" to ALGO_1 in the backward directions;
 * "CUDNN_CHOICE" to SEER_ALGO_CUDNN_CHOICE in every direction; and
 * cuDNN's enum value written as a number ("1": fwd IMPLICIT_PRECOMP_GEMM). */
SEER_API seer_status_t seer_algo_from_name(seer_direction_t dir, const char *name, int *algo);
/* *tensor_cores = 1 when dtype's math runs on tensor cores (fp16, bf16,
 * tf32), 0 for SIMT (fp32, fp16_pseudo): the math type that selects a
 * GEMM fit (seer_model_info_t.gemm_source_gpu).  BAD_PARAM. */
SEER_API seer_status_t seer_dtype_tensor_cores(seer_dtype_t dtype, int *tensor_cores);

/* ------------------------------------------------------------------ */
/* Handle                                                              */
/* ------------------------------------------------------------------ */

typedef struct seer_context *seer_handle_t;

/* Make a handle.  BAD_PARAM if handle is NULL; ALLOC_FAILED. */
SEER_API seer_status_t seer_create(seer_handle_t *handle);
/* Release a handle (NULL is fine).  Models are not owned by the handle. */
SEER_API seer_status_t seer_destroy(seer_handle_t handle);

/* The message of the last failing call made with this handle ("" when
 * none; successful calls leave it alone; "" for a NULL handle).  The
 * pointer lives until seer_destroy, but the next failing call on the
 * handle overwrites the text; use seer_get_last_error_copy from several
 * threads. */
SEER_API const char *seer_get_last_error(const seer_handle_t handle);
/* Copy the last message into buf (always NUL-terminated, truncated to
 * size).  BAD_PARAM if handle or buf is NULL or size is 0. */
SEER_API seer_status_t seer_get_last_error_copy(const seer_handle_t handle, char *buf, size_t size);

/* ------------------------------------------------------------------ */
/* GPU table (datasheet facts)                                         */
/* ------------------------------------------------------------------ */

typedef struct {
    char id[32];                /* "a100-pcie-80gb" */
    char name[64];              /* "NVIDIA A100 80GB PCIe" */
    char arch[16];              /* "ampere" */
    int cc_major, cc_minor;     /* compute capability */
    int sms;                    /* streaming multiprocessors */
    double boost_mhz;           /* boost clock */
    double fp32_tflops;         /* peak FP32 FMA rate (2 flops per FMA) */
    double fp16_tflops;         /* peak FP16 tensor-core rate, dense; 0 if none */
    double bf16_tflops;         /* peak BF16 tensor-core rate, dense; 0 if none */
    double tf32_tflops;         /* peak TF32 tensor-core rate, dense; 0 if none */
    double fp16_simt_tflops;    /* peak FP16 rate without tensor cores */
    double dram_gbps;           /* peak DRAM bandwidth, GB/s (1e9 B/s) */
    double dram_gib;            /* DRAM capacity, GiB */
    double dram_stream_gbps;    /* measured DRAM copy rate (seer-bench), GB/s; 0 = not
                                 * measured: streaming kernels then get dram_gbps times
                                 * the measured Hopper share (docs/networks.md) */
    int l2_bytes;               /* L2 cache size */
    int regs_per_sm;            /* 32-bit registers per SM */
    int regs_per_block;         /* max registers per block */
    int max_regs_per_thread;
    int reg_alloc_unit;         /* register allocation granularity (per warp) */
    int smem_per_sm;            /* shared memory per SM usable by blocks, bytes */
    int smem_per_block;         /* max shared memory per block (opt-in), bytes */
    int smem_reserved_per_block;/* shared memory the driver reserves per block */
    int smem_alloc_unit;        /* shared memory allocation granularity */
    int threads_per_sm;
    int threads_per_block;
    int blocks_per_sm;
    int warps_per_sm;
} seer_gpu_info_t;

/* Number of GPUs in the table. BAD_PARAM if count is NULL.  These two
 * take no handle: BAD_PARAM is their only failure and whole message. */
SEER_API seer_status_t seer_gpu_count(int *count);
/* Entry by index 0..count-1; BAD_PARAM if out of range or info NULL. */
SEER_API seer_status_t seer_gpu_get(int index, seer_gpu_info_t *info);
/* What streaming kernels (batch norm, activations, copies, the optimizer
 * step) reach on gpu: the DRAM rate in GB/s (dram_stream_gbps where
 * measured, else the datasheet rate times the measured Hopper share,
 * docs/networks.md) and the launch gap from one kernel to the next in µs.
 * Either output may be NULL; BAD_PARAM if gpu is NULL or a rate of it (the
 * *_tflops and *_gbps fields) is outside what a GPU description file may
 * give (as for seer_roofline_conv and the floors). */
SEER_API seer_status_t seer_gpu_streaming(const seer_gpu_info_t *gpu, double *stream_gbps,
                                          double *launch_gap_us);
/* Entry by id, ignoring case; also by a few aliases ("a100" for
 * "a100-sxm4-40gb"), by the device name the CUDA driver reports
 * ("Tesla T4", "NVIDIA H100 80GB HBM3"; "NVIDIA " optional) and by the
 * table's name (docs/gpus.md, "Names").  UNKNOWN_GPU otherwise, with a
 * message on handle if handle is not NULL; BAD_PARAM if id or info is
 * NULL. */
SEER_API seer_status_t seer_gpu_find(seer_handle_t handle, const char *id, seer_gpu_info_t *info);

/* A GPU absent from the table, from a GPU description file (text,
 * docs/formats.md; seer-bench writes one for the GPU it measured),
 * registered on handle: from then on every call on that handle that takes
 * a GPU id (seer_gpu_find, seer_train, seer_model_open, seer_model_transfer,
 * seer_model_load of a model trained for it) knows the id.  Nothing global
 * changes; predictions stay thread-safe (a model copies its GPU's facts).
 * Registering the same facts again succeeds; an id already in the table
 * or registered with other facts is GPU_FILE.  info (may be NULL) gets the
 * parsed entry.  GPU_FILE with the file, line and key on a bad file;
 * IO_ERROR when it cannot be read; files over 64 KiB are refused unread. */
SEER_API seer_status_t seer_gpu_register_file(seer_handle_t handle, const char *path,
                                              seer_gpu_info_t *info);
SEER_API seer_status_t seer_gpu_register_buffer(seer_handle_t handle, const char *text, size_t len,
                                                seer_gpu_info_t *info);

/* ------------------------------------------------------------------ */
/* Convolution descriptor                                              */
/* ------------------------------------------------------------------ */

/* Objects are typedef'd structs, so `const seer_conv *` protects the
 * object (docs/api.md, "Types and const"); the pointer typedef
 * seer_conv_desc_t stays as the handle-style name. */
typedef struct seer_conv seer_conv;
typedef seer_conv *seer_conv_desc_t;

/* An unset descriptor: BAD_PARAM (desc NULL), ALLOC_FAILED.  destroy
 * accepts NULL and always succeeds.  No handle: the status is the whole
 * message. */
SEER_API seer_status_t seer_conv_desc_create(seer_conv_desc_t *desc);
SEER_API seer_status_t seer_conv_desc_destroy(seer_conv_desc_t desc);

/* The shape of a 2-D convolution: input n x c x h x w, filter k x
 * (c/groups) x r x s, and the convolution's padding, stride, dilation and
 * group count (cudnnSetConvolution2dDescriptor and
 * cudnnSetConvolutionGroupCount).  Start from SEER_CONV_SHAPE_INIT, then
 * set the sizes: a field left at its initial value means "none" (no
 * padding, unit stride and dilation, one group), and the sizes left at 0
 * are refused by name. */
typedef struct {
    int n;                      /* batch: images per call, >= 1 */
    int c;                      /* input channels, >= 1 */
    int h, w;                   /* input height and width, >= 1 */
    int k;                      /* output channels (filters), >= 1 */
    int r, s;                   /* filter height and width, >= 1 */
    int pad_h, pad_w;           /* zero padding on each side (top and bottom, left and right), >= 0 */
    int stride_h, stride_w;     /* filter step, >= 1 */
    int dil_h, dil_w;           /* dilation: gap between filter taps, >= 1 (1: dense) */
    int groups;                 /* channel groups, >= 1, dividing c and k (groups = c = k: depthwise) */
} seer_conv_shape_t;
/* positional, not designated: seer.h is also C++ (before C++20) */
#define SEER_CONV_SHAPE_INIT { 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1 }

/* Describe a 2-D convolution of data type dtype and layout layout.
 * Validates and on failure leaves desc unchanged: BAD_SHAPE (size <= 0,
 * stride/dilation < 1, pad < 0, empty output), BAD_GROUPS (groups < 1 or
 * not dividing c and k), OVERFLOW (any tensor over 2^31-1 elements or
 * sizes over 2^24), BAD_PARAM (dtype/layout out of range, NULL desc or
 * shape).  The message names the field ("stride_w must be >= 1 (got 0)"). */
SEER_API seer_status_t seer_conv_desc_set_shape(seer_handle_t handle, seer_conv_desc_t desc,
                                                seer_dtype_t dtype, seer_layout_t layout,
                                                const seer_conv_shape_t *shape);
/* seer_conv_desc_set_shape with the fields of seer_conv_shape_t as
 * arguments, in its order: the call of libseer 0.1, kept for existing
 * callers (same validation, messages and result). */
SEER_API seer_status_t seer_conv_desc_set(seer_handle_t handle, seer_conv_desc_t desc,
                                          seer_dtype_t dtype, seer_layout_t layout,
                                          int n, int c, int h, int w, int k, int r, int s,
                                          int pad_h, int pad_w, int stride_h, int stride_w,
                                          int dil_h, int dil_w, int groups);

/* Output height and width (P, Q).  This and seer_conv_work read a set
 * descriptor without a handle: BAD_PARAM (a NULL argument, desc never
 * set, dir out of range) is their only failure and its whole message. */
SEER_API seer_status_t seer_conv_desc_get_output(const seer_conv *desc, int *p, int *q);

/* Work of one direction: multiply-add FLOPs (2 per MAC) and the minimum
 * DRAM bytes (each tensor read or written once). */
SEER_API seer_status_t seer_conv_work(const seer_conv *desc, seer_direction_t dir,
                                      double *flops, double *min_bytes);

/* ------------------------------------------------------------------ */
/* Occupancy and roofline                                              */
/* ------------------------------------------------------------------ */

/* Resident blocks per SM for a kernel on a GPU, as the CUDA occupancy
 * calculator computes it (warps, registers with allocation granularity,
 * shared memory with reservation, block limit).  BAD_PARAM if the launch
 * cannot run at all (block too big, too many registers / shared memory),
 * a pointer is NULL or a limit of gpu is not positive.  No handle: the
 * status is the whole message (seer_predict_kernel, which takes one,
 * names the launch that cannot run). */
SEER_API seer_status_t seer_occupancy(const seer_gpu_info_t *gpu, int threads_per_block,
                                      int regs_per_thread, int smem_per_block,
                                      int *blocks_per_sm);

/* Waves of a launch: waves = ceil(blocks / B_max) with B_max =
 * blocks_per_sm * sms; last_fill = fraction of B_max the last wave fills.
 * BAD_PARAM (blocks or bmax <= 0, a NULL pointer) is its only failure. */
SEER_API seer_status_t seer_waves(long long blocks, long long bmax, double *waves,
                                  double *last_fill);

/* Datasheet roofline bound of one conv direction on a GPU, ms:
 * max(flops / peak(dtype), min_bytes / bandwidth).  BAD_PARAM (also for a
 * rate of gpu outside the range a GPU description file may give it: zero,
 * negative, NaN, infinite, or positive under 1e-3; the message names it);
 * UNSUPPORTED if the GPU has no peak rate for the dtype's math. */
SEER_API seer_status_t seer_roofline_conv(seer_handle_t handle, const seer_gpu_info_t *gpu,
                                          const seer_conv *desc, seer_direction_t dir,
                                          double *time_ms);
/* The same for batch GEMMs C[m x n] = A[m x k] B[k x n]: max(2 batch m n k
 * / peak(dtype), batch (mk + kn + mn) elements / bandwidth), ms.
 * BAD_PARAM; UNSUPPORTED if the GPU has no peak rate for the dtype's math. */
SEER_API seer_status_t seer_roofline_gemm(seer_handle_t handle, const seer_gpu_info_t *gpu, int batch,
                                          int m, int n, int k, seer_dtype_t dtype, double *time_ms);

/* Model-independent lower bounds of a call's GPU time from the datasheet,
 * ms: for the conv (algo >= 0, as in seer_predict_conv), the larger of
 * its main kernel's FLOPs at peak and that kernel's bytes at bandwidth,
 * plus each helper kernel's bytes at bandwidth (the kernels run one
 * after another; an FFT's transforms count inside its main kernel's
 * time, their tiles served from L2) and a launch gap per kernel; for the GEMM, its roofline
 * (with a bias, the vector's bytes too: the bias is the kernel's
 * epilogue) plus one launch gap.  0 when no bound is known (the
 * GPU cannot run the dtype's math, the algorithm does not exist for the
 * shape).  What seer_dispatch_estimate takes.  BAD_PARAM (also for an
 * algo out of the direction's range or a bias other than 0/1). */
SEER_API seer_status_t seer_conv_floor(seer_handle_t handle, const seer_gpu_info_t *gpu,
                                       const seer_conv *desc, seer_direction_t dir, int algo,
                                       double *time_ms);
SEER_API seer_status_t seer_gemm_floor(seer_handle_t handle, const seer_gpu_info_t *gpu, int batch,
                                       int m, int n, int k, seer_dtype_t dtype, int bias,
                                       double *time_ms);

/* ------------------------------------------------------------------ */
/* Models                                                              */
/* ------------------------------------------------------------------ */

typedef struct seer_model seer_model;
typedef seer_model *seer_model_t;

typedef struct {
    char gpu_id[32];            /* the GPU the model was trained for */
    unsigned format_version;    /* model file format this library writes (5; it reads 3 and 4 too) */
    unsigned lib_version;       /* SEER_VERSION_NUMBER of the trainer */
    int n_families;             /* kernel families with fitted coefficients */
    int n_svm;                  /* LIBSVM models inside */
    long long n_rows;           /* training rows used */
    uint32_t checksum;          /* CRC-32 of the payload */
    char provenance[512];       /* data files, sources and row counts, trainer */
    int transferred;            /* 0: calibrated on this GPU's data; 1: transferred
                                 * from other GPUs' models (seer_model_transfer) */
    char source_gpus[128];      /* GPUs whose data fitted the coefficients, space-separated */
    char gemm_source_gpu[2][32];/* per GEMM math type ([0] SIMT, [1] tensor cores,
                                 * seer_dtype_tensor_cores): the GPU whose GEMM rows
                                 * fitted its fit of single products (batched ones
                                 * have a fit of their own, which a transfer may
                                 * take from another GPU), "" when there is none;
                                 * a transfer between two architectures times
                                 * GEMMs with two fits, this the first
                                 * (docs/transfer.md) */
} seer_model_info_t;

/* Load a model file (docs/model-format.md).  IO_ERROR (cannot open or
 * read; not a regular file; over 256 MiB), MODEL_TRUNCATED, MODEL_CORRUPT
 * (magic, checked before the rest is read; checksum; content, including
 * any stored number outside its range: the message names the field),
 * MODEL_VERSION, UNKNOWN_GPU, ALLOC_FAILED, BAD_PARAM.  Never returns a
 * partial model. */
SEER_API seer_status_t seer_model_load(seer_handle_t handle, const char *path, seer_model_t *model);
/* The same from memory. */
SEER_API seer_status_t seer_model_load_buffer(seer_handle_t handle, const void *data, size_t size,
                                              seer_model_t *model);
/* Write a model file: through a temporary file renamed to path, which
 * must be a regular file if it exists (a symbolic link: the file it
 * names); IO_ERROR, BAD_PARAM, ALLOC_FAILED. */
SEER_API seer_status_t seer_model_save(seer_handle_t handle, const seer_model *model,
                                       const char *path);
/* Release a model (NULL is fine); always SUCCESS. */
SEER_API seer_status_t seer_model_destroy(seer_model_t model);
/* Its name in libseer 0.1; every release function is now *_destroy. */
SEER_API seer_status_t seer_model_free(seer_model_t model);
/* What the model is (no handle: BAD_PARAM for a NULL argument is the only
 * failure and its whole message; so for seer_model_get_gpu). */
SEER_API seer_status_t seer_model_get_info(const seer_model *model, seer_model_info_t *info);

/* A conv scale of the model (seer_model_scale_convs): its key and value. */
typedef struct {
    seer_direction_t direction;
    int algo;                   /* the direction's cuDNN algorithm, or SEER_ALGO_CUDNN_CHOICE */
    int math;                   /* 0 SIMT, 1 tensor cores in FP16/BF16, 2 tensor cores in TF32 */
    int n_rows;                 /* rows of the GPU's own it was fitted on; 0: taken, in a
                                 * served model, from the GPUs of its architecture */
    double scale;               /* what the key's physics is multiplied by */
} seer_conv_scale_info_t;
/* The model's conv scales, in (direction, algorithm, math) order: up to
 * cap of them in scales (which may be NULL when cap is 0), their number
 * in *n.  BAD_PARAM (NULL model or n, cap < 0), BUFFER_TOO_SMALL (*n
 * still the number; cap of them written). */
SEER_API seer_status_t seer_model_get_conv_scales(const seer_model *model, seer_conv_scale_info_t *scales,
                                                  int cap, int *n);
/* Transfer: a model for a GPU nobody has calibrated.  For every kernel
 * family (direction, algorithm, math type) known to any source model, take
 * the family of the source GPU nearest in architecture (compute
 * capability; among equals, the one with more rows) and evaluate its
 * formulas with the target GPU's datasheet facts: waves from the target's
 * SMs and occupancy limits, compute terms at its peak, DRAM terms at its
 * bandwidth, per-wave costs scaled by the clock ratio.  The classifiers see
 * features on the source GPU's scale.  See docs/transfer.md.
 * BAD_PARAM (no sources, NULL), UNKNOWN_GPU, NO_DATA (no source family
 * usable), ALLOC_FAILED.  The result does not refer to the sources: free
 * them whenever. */
SEER_API seer_status_t seer_model_transfer(seer_handle_t handle, const seer_model_t *sources,
                                           int n_sources, const char *target_gpu_id,
                                           seer_model_t *model);

/* What libseer answers for a GPU: models_dir/<gpu-id>.seer when it exists
 * (calibrated), else a transfer from every other *.seer in models_dir
 * (seer_model_info_t.transferred tells which).  Each file used must load
 * and hold the model of the GPU it is named after: a bad or misnamed file
 * is an error naming it (its load status, or MODEL_CORRUPT for another
 * GPU's model), never skipped.  UNKNOWN_GPU, IO_ERROR (no readable
 * models_dir), NO_DATA (nothing to transfer from). */
SEER_API seer_status_t seer_model_open(seer_handle_t handle, const char *models_dir,
                                       const char *gpu_id, seer_model_t *model);

/* The GPU table entry of the model's GPU; BAD_PARAM for a NULL argument. */
SEER_API seer_status_t seer_model_get_gpu(const seer_model *model, seer_gpu_info_t *gpu);

/* ------------------------------------------------------------------ */
/* Prediction                                                          */
/* ------------------------------------------------------------------ */

/* One predicted kernel. */
typedef struct {
    seer_kernel_role_t role;
    char name[48];              /* main: kernel variant, e.g. "volta_sgemm_128x64_nn"; helpers: "im2col", ...;
                                   NUL-terminated, truncated to 47 bytes (a long template name is cut:
                                   "explicit_convolve_sgemm<float, int, 128, 5, 5, ") */
    int grid[3];
    int block[3];
    int regs_per_thread;
    int smem_bytes;             /* static + dynamic shared memory per block */
    double flops;               /* FLOPs the kernel executes (tensor-core channel padding included) */
    double dram_bytes;          /* estimated DRAM bytes moved */
    int blocks_per_sm;          /* occupancy */
    long long bmax;             /* blocks_per_sm * SMs */
    double waves;               /* ceil(blocks / bmax) */
    double last_fill;           /* epsilon: fill of the last wave, (0, 1] */
    seer_class_t cls;
    double time_ms;
    seer_source_t source;       /* calibrated, transferred or analytical (the whole conv's) */
} seer_kernel_pred_t;

/* Predict one convolution direction with a given algorithm (cuDNN's enum
 * value for that direction).  *time_ms receives the total over all the
 * kernels.  If kernels is not NULL, up to kernels_cap kernel predictions
 * are written (BUFFER_TOO_SMALL if the convolution has more; time_ms and
 * n_kernels are still written).  If n_kernels is not NULL it receives how
 * many kernels the convolution has, also when kernels is NULL.
 * algo may be SEER_ALGO_CUDNN_CHOICE.
 * Returns BAD_PARAM (also for an algo out of range), UNSUPPORTED (the
 * algorithm does not exist for this direction, dtype or shape in cuDNN, or
 * the model's GPU cannot run the dtype's math), NOT_CALIBRATED (algo is
 * SEER_ALGO_CUDNN_CHOICE and no calibrated GPU has data for it; any other
 * algorithm the model has no data for comes from the other calibrated
 * GPUs, from an implicit GEMM's sibling or cuDNN's choice, or from the
 * analytical model, seer_kernel_pred_t.source), BAD_PREDICTION (the time would not be finite or
 * over SEER_MAX_TIME_MS). Thread-safe; deterministic. */
SEER_API seer_status_t seer_predict_conv(seer_handle_t handle, const seer_model *model,
                                         const seer_conv *desc, seer_direction_t dir,
                                         int algo, double *time_ms,
                                         seer_kernel_pred_t *kernels, int kernels_cap,
                                         int *n_kernels);

/* The class SEER's training rule gives a measured call (docs/method.md):
 * compute-bound when the main kernel's FLOPs at the datasheet peak explain
 * at least half of measured_ms, else DRAM-bound when the minimum bytes of
 * all its kernels at the datasheet bandwidth do, else under-utilized.
 * Lets a user score the class that seer_predict_conv reports against
 * their own measurements.  For SEER_ALGO_CUDNN_CHOICE in backward filter
 * the kernels are those its family was trained on (the lower datasheet
 * floor of the implicit GEMM's and the nonfused Winograd's), which can
 * differ from the structure a prediction takes (the faster under the
 * family).  BAD_PARAM, UNSUPPORTED. */
SEER_API seer_status_t seer_classify_measured(seer_handle_t handle, const seer_model *model,
                                              const seer_conv *desc, seer_direction_t dir,
                                              int algo, double measured_ms, seer_class_t *cls);

/* seer_predict_conv (algo >= 0) with the kernel variant given by a
 * measured main kernel name instead of the fastest variant (seer eval
 * --given-launch, a diagnostic: before a call runs nobody knows which
 * kernel cuDNN will launch); *matched (may be NULL) = 0 when the model
 * does not know that name (or it is NULL or "") and the fastest variant
 * was used after all. */
SEER_API seer_status_t seer_predict_conv_variant(seer_handle_t handle, const seer_model *model,
                                                 const seer_conv *desc, seer_direction_t dir, int algo,
                                                 const char *main_kernel, int *matched, double *time_ms);

/* A kernel known by its launch and work. */
typedef struct {
    int grid[3];
    int block[3];
    int regs_per_thread;
    int smem_bytes;
    double flops;
    double dram_bytes;          /* read + written */
    seer_dtype_t dtype;         /* math type (selects the peak rate) */
} seer_kernel_desc_t;

/* Predict one kernel: occupancy, waves, class (under-utilized if the grid
 * fills less than half a wave, else compute- or DRAM-bound by the larger
 * roofline term) and time from the model's generic per-class formulas.
 * BAD_PARAM for impossible launches (sizes < 1, a grid over CUDA's
 * limits: x <= 2^31-1, y and z <= 65535; a block over 1024 x 1024 x 64;
 * too many threads or registers or shared memory for the GPU);
 * UNSUPPORTED if the GPU cannot run the dtype's math; BAD_PREDICTION.
 * *pred is written on success only. */
SEER_API seer_status_t seer_predict_kernel(seer_handle_t handle, const seer_model *model,
                                           const seer_kernel_desc_t *kernel,
                                           seer_kernel_pred_t *pred);

/* ------------------------------------------------------------------ */
/* Training (what `seer train` does)                                   */
/* ------------------------------------------------------------------ */

/* Train a model for gpu_id from conv timing CSV v1 files and kernel
 * trace CSV files (docs/formats.md; the kind is told by the header).
 * Rows of other GPUs are ignored.  Deterministic: the same files give a
 * byte-identical model.  CSV_* statuses name file and line (as do
 * BAD_SHAPE, BAD_GROUPS, OVERFLOW for an impossible row shape); NO_DATA if
 * nothing usable is left; UNKNOWN_GPU; IO_ERROR; BAD_PARAM (also for a
 * flag bit not defined below, and for a file given twice, by the same
 * path or another name of it: its rows would train twice); ALLOC_FAILED.
 * flags is 0 or an OR of SEER_TRAIN_* below.  Rows whose algo is MIXED,
 * UNKNOWN or a name libseer does not know are skipped.
 *
 * Models predict GPU time.  Rows whose source timed host and GPU
 * together around one call on an idle GPU (NeuSight: source "neusight")
 * carry the framework's dispatch of that call, 0.03-0.4 ms growing along
 * the file; training estimates it from the file itself (the lower
 * envelope of the times, model-independent: docs/method.md, "GPU time"),
 * takes it off, and leaves out rows whose GPU time is too small to tell
 * from that estimate.  The provenance names each such file with the
 * range taken off.  A conv row with a math_type column (seer-bench's)
 * trains only where it ran the framework's math type or has no twin
 * that did.  GEMM files alone make a GEMM-only model: it times GEMMs,
 * answers NOT_CALIBRATED for convs on its own, and from a models
 * directory (seer_model_open) has its convs transferred. */
#define SEER_TRAIN_HOLDOUT 1u     /* leave out rows in the 20 % test split (seer_conv_in_test_split; GEMM rows alike) */
#define SEER_TRAIN_KEEP_DISPATCH 2u /* fit the measured times as they are, host dispatch included */
#define SEER_TRAIN_KEEP_DRIFT SEER_TRAIN_KEEP_DISPATCH /* its name in libseer 0.1 */
SEER_API seer_status_t seer_train(seer_handle_t handle, const char *gpu_id,
                                  const char *const *paths, int n_paths, unsigned flags,
                                  seer_model_t *model);

/* Scale the conv families model takes from the calibrated models of
 * models_dir (seer_model_open fills what a model has no data for from
 * them) to its GPU's own measurements: for each family (direction,
 * algorithm) and class of math (SIMT; tensor cores in FP16/BF16; in
 * TF32) with SEER_SCALE_MIN_ROWS or more rows in the conv timing CSV
 * v1 files of paths (or kernel traces, each call's kernels summed as
 * seer_train sums them) (seer-bench's layers.csv: the model's GPU, a named
 * algorithm, the framework's math type, not a grouped conv under 32
 * channels per group, the train split with SEER_TRAIN_HOLDOUT; an empty
 * algo or each conv's fastest row counts as cuDNN's choice), the scale
 * in [1/10, 10] of least absolute percentage error over them, searched
 * on the served model's predictions; the analytical family of a key no
 * GPU has is scaled alike.  Its own families are never scaled.  The scales
 * are stored in the model (file format 4) and applied when a models
 * directory serves it, and to the GPUs of its compute capability that
 * the directory serves by transfer (docs/transfer.md).  *out is a new
 * model; model is unchanged.  BAD_PARAM (NULL, flags other than
 * SEER_TRAIN_HOLDOUT), CSV_*, NO_DATA (no family has enough rows), the
 * statuses of seer_model_open, ALLOC_FAILED. */
#define SEER_SCALE_MIN_ROWS 8
SEER_API seer_status_t seer_model_scale_convs(seer_handle_t handle, const seer_model *model,
                                              const char *models_dir, const char *const *paths, int n_paths,
                                              unsigned flags, seer_model_t *out);

/* 1 if a conv shape falls in the deterministic 20 % held-out test split
 * (FNV-1a hash of the shape fields, not of the time), else 0. */
SEER_API int seer_conv_in_test_split(const seer_conv *desc);
/* The same for a GEMM timing row's shape (FNV-1a of batch, m, n, k,
 * transpositions, bias and dtype; never the time). */
SEER_API int seer_gemm_shape_in_test_split(int batch, int m, int n, int k, int trans_a, int trans_b,
                                           int bias, seer_dtype_t dtype);

/* ---- Host dispatch in published times (docs/method.md, "GPU time") ---
 * A time measured with CUDA events around one call on an idle GPU
 * (NeuSight) is the host's dispatch of the call plus the GPU's work.
 * The estimate of the host part along a file is model-independent: the
 * smallest of measured - seer_conv_floor / seer_gemm_floor in each of
 * windows of rows (at least 100 rows each where the file allows, 8 to
 * SEER_DISPATCH_WINDOWS of them), a quadratic through them.
 * seer_train takes it off such files; seer eval adds it back. */
#define SEER_DISPATCH_MIN_ROWS 100  /* fewer rows: no estimate */
#define SEER_DISPATCH_WINDOWS 25    /* windows along the file, at most */
typedef struct {
    double c[3];                /* host time at position u in [0, 1): c0 + c1 u + c2 u^2, ms */
    double spread;              /* robust scatter of the kept window minima about it, ms */
    double median;              /* its median over the rows: the host time of a typical call */
    int windows, kept;          /* window minima, and how many the fit kept; 0: no estimate */
} seer_dispatch_t;
/* 1 when a row's `source` timed host and GPU together ("neusight...", in
 * any case). */
SEER_API int seer_source_has_dispatch(const char *source);
/* The cuDNN major version a row's `source` names ("deepbench-cudnn7.6.2:Resnet"
 * -> 7; "cuDNN 8", "cudnn_v9", any case, the first that names one), or 0
 * when it names none.  cuDNN 7 and older ran NCHW tensor-core convs in
 * NCHW kernels, without the transposes libseer predicts for later ones:
 * seer eval, seer predict --data and training take such rows as they ran
 * (docs/method.md, "Layouts"). */
SEER_API int seer_source_cudnn_major(const char *source);
/* The host time of a file's n rows of one kind of call (a conv
 * direction, a GEMM op: each is dispatched its own way): pos[i] in [0, 1) ascending (the
 * row's place in the file; equal neighbours allowed), time_ms[i] as
 * published, floor_ms[i] its GPU floor, both finite and >= 0.  SUCCESS
 * with d->windows = 0 when there is no estimate (under
 * SEER_DISPATCH_MIN_ROWS rows, or no memory for it); BAD_PARAM for a NULL
 * pointer, n < 0, or a row breaking those rules (the message names the
 * index and the array), d untouched. */
SEER_API seer_status_t seer_dispatch_estimate(seer_handle_t handle, const double *pos, const double *time_ms,
                                              const double *floor_ms, int n, seer_dispatch_t *d);
/* The estimate's host time at position u, never negative.  BAD_PARAM
 * (*ms untouched) for a NULL pointer, u outside [0, 1] or NaN, or a curve
 * whose coefficients, or time at u, are not finite. */
SEER_API seer_status_t seer_dispatch_host_ms(const seer_dispatch_t *d, double u, double *ms);

/* ------------------------------------------------------------------ */
/* GEMM, networks and the algorithm picker (docs/networks.md,          */
/* docs/picker.md)                                                     */
/* ------------------------------------------------------------------ */

/* ---- GEMM (fully connected layers) -------------------------------- */

/* Predict `batch` independent products C[m x n] = op(A)[m x k] . op(B)[k x n]
 * (BLAS convention; trans_a / trans_b: 0 = N, 1 = T), plus a bias vector
 * added to C when bias is 1 (nn.Linear).  The math type follows dtype
 * (SIMT for fp32 / fp16_pseudo, tensor cores for fp16 / bf16 / tf32).
 * NOT_CALIBRATED when the model has no GEMM fit for that math type (it
 * was trained without GEMM timing CSV files); BAD_SHAPE for a size < 1;
 * BAD_PARAM for flags other than 0/1; OVERFLOW past 2^31 elements in one
 * matrix; BAD_PREDICTION.  cls (may be NULL) gets the class of the GEMM
 * kernel: under-utilized below half a wave, else compute-bound where its
 * FLOPs at peak take longer than A, B and C once through DRAM, else
 * DRAM-bound (from the work, as SEER's static rule). */
SEER_API seer_status_t seer_predict_gemm(seer_handle_t handle, const seer_model *model, int batch,
                                         int m, int n, int k, seer_dtype_t dtype, int trans_a,
                                         int trans_b, int bias, double *time_ms, seer_class_t *cls);

/* ---- Networks ------------------------------------------------------ */

/* A CNN described layer by layer (docs/networks.md); the batch size, data
 * type and layout are given at prediction time.  Immutable once made:
 * share it between threads freely. */
typedef struct seer_network seer_network;
typedef seer_network *seer_network_t;

/* Limits of a description: anything larger is no real CNN. */
#define SEER_NET_MAX_DIM (1 << 24)  /* any one size, as seer_conv_desc_set; also the largest batch */
#define SEER_NET_TEXT_MAX_BYTES ((size_t)64 << 20) /* a description file (seer_read_input_file) */

/* Estimates of seer_predict_network where no GPU has data (the result
 * flags name them).  Memory-bound layers (batch norm, activations,
 * pooling, add, concat, softmax, dropout, gradient sums, the optimizer):
 * time = kernels * launch gap + bytes / the streaming rate, both from
 * seer_gpu_streaming.  Fully connected layers without a GEMM fit: the
 * roofline at SEER_NET_GEMM_EFFICIENCY of the peak math rate (memory at
 * the streaming rate).  A backward direction the model has no data for:
 * a * forward + b, a and b fitted on SEER_BWD_RATIO_SOURCE. */
#define SEER_NET_GEMM_EFFICIENCY 0.60
#define SEER_BWD_RATIO_SOURCE "DeepBench v100-sxm2-16gb (cuDNN 7.6.2)"

typedef enum {
    SEER_OP_INPUT = 0,
    SEER_OP_CONV = 1,
    SEER_OP_BATCHNORM = 2,
    SEER_OP_ACTIVATION = 3,     /* relu, relu6, sigmoid, tanh, gelu, silu, hardswish, hardsigmoid, leakyrelu, elu,
                                 * prelu, lrn, scale */
    SEER_OP_POOL = 4,           /* max / avg, windowed, adaptive or global */
    SEER_OP_ADD = 5,
    SEER_OP_CONCAT = 6,
    SEER_OP_FC = 7,             /* fully connected (a GEMM) */
    SEER_OP_SOFTMAX = 8,        /* softmax (with the loss in training) */
    SEER_OP_DROPOUT = 9,
    SEER_OP_FLATTEN = 10,
    SEER_OP_MUL = 11,           /* elementwise product; the second input may be c x 1 x 1 (a gate) */
    SEER_OP_OPTIMIZER = 12,     /* a result row only: the optimizer step over every parameter */
    SEER_OP_SLICE = 13,         /* a copy of a range of the input's channels (shape.k of them) */
    SEER_OP_SHUFFLE = 14,       /* ShuffleNet's channel shuffle, a copy (shape.groups groups) */
    SEER_OP_LAYERNORM = 15,     /* layer norm over the channels of each position (ConvNeXt's) */
    SEER_OP_RESIZE = 16,        /* spatial resampling (nearest, bilinear) to c x h x w: segmentation heads */
    SEER_OP_PAD = 17,           /* a copy into a larger c x h x w, the border filled (F.pad, ONNX Pad) */
    SEER_OP_DECONV = 18,        /* a transposed convolution (ConvTranspose2d), which cuDNN runs as the
                                 * backward data pass of the conv it transposes (seer_layer_result_t) */
    SEER_OP_GROUPNORM = 19      /* group norm (nn.GroupNorm; shape.groups groups; instance norm: one
                                 * per channel), its statistics computed in either mode */
} seer_op_t;

/* "conv", "batchnorm", ...; "?" for an unknown value. */
SEER_API const char *seer_op_name(seer_op_t op);

typedef struct {
    char name[48];
    seer_op_t op;
    int line;                   /* line of the description it came from */
    int n_inputs;
    int input0;                 /* index of the first input layer, -1 for SEER_OP_INPUT */
    int c, h, w;                /* output shape, per sample */
    /* Per sample (shape.n = 1).  Every op: shape.c, h, w are the first
     * input's channels, height and width (0 for an input layer).  conv:
     * all the other fields; deconv: likewise, k its output channels
     * and r s pads strides dilations groups ConvTranspose2d's (its
     * output_padding is what c h w leave over); pool: r s pads strides (global or adaptive:
     * r s are the input's h w); fc: k (outputs; a pointwise fc, one
     * product per position as nn.Linear over channels-last data, keeps
     * h x w, a plain one flattens to k x 1 x 1); slice: k (channels
     * taken); shuffle, groupnorm: groups.  Fields an op does not use
     * are 0. */
    seer_conv_shape_t shape;
    int bias;                   /* conv / deconv / fc: 1 if it adds a bias */
    long long params;           /* learnable parameters of this layer */
} seer_layer_info_t;

typedef struct {
    char name[48];              /* from a `network name=...` line, or the zoo name */
    int n_layers;               /* including input layers */
    int n_conv, n_fc;           /* n_conv counts deconvs too */
    long long params;           /* learnable parameters (no BN running statistics) */
    double fwd_flops;           /* per sample, convolutions and fully connected layers */
    int in_c, in_h, in_w;       /* shape of the first input layer */
} seer_network_info_t;

/* Parse a network description of len bytes (need not be NUL-terminated).
 * NET_PARSE (syntax, unknown layer or option, bad or repeated value,
 * duplicate name), NET_INPUT (an input not defined on an earlier line;
 * since inputs must come first, cycles cannot be written), NET_SHAPE
 * (shapes do not fit), BAD_GROUPS, OVERFLOW (absurd sizes); the message
 * names the line ("line 12: ...").  Never returns a partial network. */
SEER_API seer_status_t seer_network_create(seer_handle_t handle, const char *text, size_t len,
                                           seer_network_t *net);
/* A built-in network (seer_network_zoo_name) for an input of
 * resolution x resolution pixels; resolution 0 takes the network's own
 * (224; 299 for inception_v3).  UNKNOWN_NETWORK; NET_SHAPE if the
 * resolution is too small for the network. */
SEER_API seer_status_t seer_network_create_zoo(seer_handle_t handle, const char *name,
                                               int resolution, seer_network_t *net);
/* The description text of a built-in network: up to size bytes including
 * the NUL go to buf (which may be NULL when size is 0); *length receives
 * the text's length without the NUL.  BUFFER_TOO_SMALL when it does not
 * fit (length still written). */
SEER_API seer_status_t seer_network_zoo_text(seer_handle_t handle, const char *name, int resolution,
                                             char *buf, size_t size, size_t *length);
/* Name of built-in network i (0, 1, ...), NULL past the last. */
SEER_API const char *seer_network_zoo_name(int index);
/* Release a network (NULL is fine); always SUCCESS. */
SEER_API seer_status_t seer_network_destroy(seer_network_t net);
/* Readers of a network, without a handle: layers (input layers
 * included), layer index (0 .. count-1, description order) and the
 * whole network.  BAD_PARAM (a NULL argument, index out of range) is
 * their only failure and its whole message; nothing is written then. */
SEER_API seer_status_t seer_network_layer_count(const seer_network *net, int *count);
SEER_API seer_status_t seer_network_get_layer(const seer_network *net, int index,
                                              seer_layer_info_t *info);
SEER_API seer_status_t seer_network_get_info(const seer_network *net, seer_network_info_t *info);

typedef enum { SEER_MODE_INFER = 0, SEER_MODE_TRAIN = 1 } seer_mode_t;

/* algo_policy of seer_predict_network: the picker's fastest algorithm
 * per convolution and direction.  Any other value >= 0 is a fixed cuDNN
 * algorithm index used in every direction where it exists (where it does
 * not support a layer or is not calibrated, the picker's choice is used
 * and the result says so); SEER_ALGO_CUDNN_CHOICE uses the model's "what
 * cuDNN's heuristic launched" family where it has one (a unit-stride
 * backward data's time read as its dual forward conv too, as
 * seer_pick_conv_fastest reads it). */
#define SEER_ALGO_AUTO (-2)
/* algo of a result row that is no convolution. */
#define SEER_ALGO_NA (-3)

/* flags of a result row (docs/networks.md: fallbacks and their limits). */
#define SEER_RESULT_GEMM_ROOFLINE 0x1u  /* fc: no GEMM fit, roofline at a documented efficiency */
#define SEER_RESULT_BWD_FROM_FWD 0x2u   /* conv backward (a deconv's forward) not calibrated: a * fwd + b */
#define SEER_RESULT_ALGO_REPLACED 0x4u  /* the fixed algorithm could not be used here */
#define SEER_RESULT_MEMORY_BOUND 0x8u   /* bytes / (bandwidth x documented efficiency) */
#define SEER_RESULT_GRAD_ACCUM 0x10u    /* summing gradients of a tensor used several times */
#define SEER_RESULT_ANALYTICAL 0x20u    /* conv: no GPU has data for its kernels: the analytical model */
#define SEER_RESULT_AMP_CAST 0x40u      /* mixed precision: a weight cast to the compute type, or its gradient back */

/* One kernel group of one layer in one direction. */
typedef struct {
    int layer;                  /* index in the network; n_layers for the optimizer step */
    char name[48];              /* layer name */
    seer_op_t op;
    seer_direction_t direction; /* the pass: conv, deconv and fc FWD forward, BWD_DATA the input's
                                   gradient, BWD_FILTER the weights'; other layers FWD forward,
                                   BWD_DATA backward */
    int algo;                   /* conv: cuDNN algo of the direction, or SEER_ALGO_CUDNN_CHOICE;
                                   deconv: of the direction cuDNN runs the pass as (forward:
                                   BWD_DATA, input gradient: FWD; seer_layer_algo_name); else
                                   SEER_ALGO_NA */
    int n_kernels;              /* kernels launched (0: not known) */
    seer_class_t cls;           /* class of the main kernel */
    double flops;               /* useful FLOPs */
    double bytes;               /* minimum DRAM bytes (memory-bound layers: the bytes costed) */
    double time_ms;
    unsigned flags;             /* SEER_RESULT_* */
} seer_layer_result_t;

/* A result row's algorithm by name, in the cuDNN direction that ran it
 * (a deconv's forward: a BWD_DATA algorithm); NULL for SEER_ALGO_NA or
 * a NULL row. */
SEER_API const char *seer_layer_algo_name(const seer_layer_result_t *row);

/* Predict one forward pass (SEER_MODE_INFER) or one training iteration
 * (SEER_MODE_TRAIN: forward, then backward in reverse layer order:
 * backward-data of every conv / deconv / fc whose input needs a gradient,
 * i.e. not of the first conv, backward-filter of every conv and deconv,
 * and the backward kernels of the other layers; a deconv's passes run as
 * seer_layer_result_t says) for batch samples.  Rows come in execution
 * order.  *total_ms is the sum of the rows' times and *count the number of
 * rows.  results may be NULL (capacity 0) to ask for the count; when
 * capacity is too small, BUFFER_TOO_SMALL with *count and *total_ms
 * written and results untouched.  NOT_CALIBRATED when the model cannot
 * predict some layer's forward convolution (the message names it);
 * BAD_SHAPE / OVERFLOW for a batch that makes a tensor or an fc layer's
 * matrix too big; BAD_PREDICTION when a row or the total would not be a
 * finite time within SEER_MAX_TIME_MS (the message names the layer).
 * Thread-safe and deterministic. */
SEER_API seer_status_t seer_predict_network(seer_handle_t handle, const seer_model *model,
                                            const seer_network *net, int batch,
                                            seer_dtype_t dtype, seer_layout_t layout,
                                            seer_mode_t mode, int algo_policy,
                                            seer_layer_result_t *results, int capacity,
                                            int *count, double *total_ms);

/* The optimizer step a training iteration ends with (PyTorch's foreach
 * implementations over fp32 parameters; docs/networks.md). */
typedef enum {
    SEER_OPTIMIZER_NONE = 0,
    SEER_OPTIMIZER_SGD = 1,     /* SGD with momentum */
    SEER_OPTIMIZER_ADAM = 2     /* Adam / AdamW */
} seer_optimizer_t;

/* Options of seer_predict_network_opts: start from
 * SEER_NET_OPTIONS_DEFAULT, then edit. */
typedef struct {
    int batch;                  /* samples per pass (>= 1) */
    seer_dtype_t dtype;
    seer_layout_t layout;
    seer_mode_t mode;
    int algo_policy;            /* SEER_ALGO_AUTO, SEER_ALGO_CUDNN_CHOICE or a fixed algorithm */
    int threads;                /* threads for the conv predictions, 1..8: 1 is the calling thread only */
    double dispatch_ms;         /* host time to launch one row's work, 0..SEER_NET_DISPATCH_MAX_MS;
                                   0: GPU time alone */
    seer_optimizer_t optimizer; /* training only: the step after the backward pass */
    int amp;                    /* 1: mixed precision (torch.autocast + GradScaler): dtype fp16 or bf16
                                   computes, parameters, gradients and optimizer stay fp32 */
} seer_net_options_t;
#define SEER_NET_DISPATCH_MAX_MS 1000.0 /* a second of host time a row: none is slower */
#define SEER_NET_OPTIONS_DEFAULT \
    { 1, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, SEER_MODE_INFER, SEER_ALGO_AUTO, 1, 0.0, SEER_OPTIMIZER_SGD, 0 }

/* What a network prediction adds up to.  gpu_ms is the rows' sum, the
 * GPU's time; dispatch_ms what the GPU additionally waits for a host that
 * needs dispatch_ms per row and cannot keep ahead of it (0 when the
 * option is 0); total_ms = gpu_ms + dispatch_ms. */
typedef struct {
    int rows;
    double gpu_ms, conv_ms, other_ms, optimizer_ms; /* conv_ms + other_ms + optimizer_ms = gpu_ms */
    double dispatch_ms;
    double total_ms;
} seer_net_totals_t;

/* seer_predict_network with its options in one struct, and totals split
 * into convolutions, other layers and host dispatch.  The host and the
 * GPU form a two-stage pipeline: the host dispatches row i at
 * (i + 1) * dispatch_ms, the GPU runs it when both it and the row before
 * are done; dispatch_ms of the totals is how much later the last row
 * ends than the rows' sum.  Same statuses as seer_predict_network, and
 * BAD_PARAM for threads outside 1..8 or a dispatch_ms outside
 * 0..SEER_NET_DISPATCH_MAX_MS.  Thread-safe and deterministic (also across thread
 * counts). */
SEER_API seer_status_t seer_predict_network_opts(seer_handle_t handle, const seer_model *model,
                                                 const seer_network *net, const seer_net_options_t *opts,
                                                 seer_layer_result_t *results, int capacity,
                                                 seer_net_totals_t *totals);

/* Peak GPU memory of one iteration (docs/networks.md, "Memory"), bytes.
 * Each part is exact (no rounding); total is the peak the PyTorch caching
 * allocator holds: every tensor in its own block rounded up to
 * SEER_NET_ALLOC_ROUND bytes, the parts added. */
typedef struct {
    uint64_t weights;           /* 4 per parameter (fp32 master), + 2 for an fp16 / bf16 copy */
    uint64_t gradients;         /* training: 4 per parameter; inference: 0 */
    uint64_t optimizer_state;   /* training: 4 per parameter and state word (SGD 1, Adam 2, none 0) */
    uint64_t activations;       /* training: the tensors saved for backward + the largest input +
                                   output pair of one layer; inference: the largest live set */
    uint64_t workspace;         /* the largest cuDNN workspace of the algorithms the prediction picks */
    uint64_t total;             /* peak: the parts with allocator rounding */
} seer_net_memory_t;
#define SEER_NET_ALLOC_ROUND 512

/* Whether seer_predict_network (the fastest algorithm per conv,
 * SEER_ALGO_AUTO) times backward direction dir of desc from its forward
 * pass (SEER_RESULT_BWD_FROM_FWD, docs/networks.md): 1 in *from_fwd where
 * only the analytical model times the backward pick and the forward pick
 * is timed from measurements, or the backward cannot be timed at all; 0
 * otherwise (and for SEER_DIR_FWD).  What seer predict and seer pick say
 * of a pick.  BAD_PARAM for a NULL argument, an unset desc or dir out of
 * range; the forward pick's failure status (the layer would fail). */
SEER_API seer_status_t seer_conv_bwd_from_fwd(seer_handle_t handle, const seer_model *model, const seer_conv *desc,
                                              seer_direction_t dir, int *from_fwd);

/* Peak GPU memory of the iteration seer_predict_network_opts predicts
 * with the same options (it runs that prediction for the algorithms and
 * their workspace; threads and dispatch_ms do not change the answer).  BAD_PARAM
 * for a NULL argument; OVERFLOW (the message names the layer) when a
 * count passes 2^63 - 1 bytes; otherwise the statuses of
 * seer_predict_network_opts.  *out is written only on success. */
SEER_API seer_status_t seer_network_memory(seer_handle_t handle, const seer_model *model,
                                           const seer_network *net, const seer_net_options_t *opts,
                                           seer_net_memory_t *out);
/* The largest batch (1 .. 2^24) whose seer_network_memory total is at
 * most memory_bytes, with opts' other options (opts->batch is ignored;
 * no larger batch fits, though the workspace can make memory shrink as
 * the batch grows: docs/networks.md).  *batch = 0 and
 * SUCCESS when even batch 1 does not fit.  BAD_PARAM for a NULL argument
 * or memory_bytes not finite and > 0; the statuses of seer_network_memory
 * at batch 1. */
SEER_API seer_status_t seer_network_fit_batch(seer_handle_t handle, const seer_model *model,
                                              const seer_network *net, const seer_net_options_t *opts,
                                              double memory_bytes, int *batch);

/* ---- The convolution algorithm picker ----------------------------- */

/* cudnnMathType_t values. */
enum { SEER_MATH_DEFAULT = 0, SEER_MATH_TENSOR_OP = 1, SEER_MATH_TENSOR_OP_ALLOW_CONVERSION = 2,
       SEER_MATH_FMA = 3 };

/* The fields of cudnnConvolution{Fwd,BwdData,BwdFilter}AlgoPerf_t. */
typedef struct {
    int algo;                   /* cuDNN's enum value of the direction */
    seer_status_t status;       /* SUCCESS, NOT_CALIBRATED, BAD_PREDICTION (a time out of range),
                                   WORKSPACE_LIMIT, UNSUPPORTED */
    double time;                /* predicted ms; -1 when not predicted */
    size_t memory;              /* workspace bytes (docs/picker.md); 0 when unsupported */
    int determinism;            /* 1 deterministic, 0 not (cudnnDeterminism_t) */
    int math_type;              /* SEER_MATH_* (cudnnMathType_t) */
    seer_source_t source;       /* where a predicted time comes from */
} seer_conv_algo_perf_t;

/* Workspace an algorithm needs for a direction (documented formulas, not
 * measured): UNSUPPORTED when cuDNN has no such algorithm for the shape. */
SEER_API seer_status_t seer_conv_workspace_size(seer_handle_t handle, const seer_conv *desc,
                                                seer_direction_t dir, int algo, size_t *bytes);

/* Rank every algorithm of the direction, like
 * cudnnGetConvolution*Algorithm_v7: perf[0..*returned-1] sorted by
 * predicted time, those timed from measurements (calibrated or
 * transferred) before those only the analytical model times, and those
 * before SIMT kernels in tensor-core math (the plain GEMMs; FP16's
 * non-fused Winograd on Hopper: docs/picker.md), so perf[0] is not
 * always the lowest time (seer_pick_conv_fastest is); then algorithms
 * the model cannot time (NOT_CALIBRATED, or BAD_PREDICTION: a predicted
 * time out of range, which leaves the others ranked), then those over workspace_limit_bytes
 * (WORKSPACE_LIMIT; their time is still predicted), then unsupported ones
 * (UNSUPPORTED).  Up to capacity entries are written (the best ones).  A
 * limit of 0 admits only algorithms that need no workspace.  Returns
 * SUCCESS when perf[0] is usable (timed and within the limit);
 * NO_ALGORITHM when every algorithm the model can time needs more
 * workspace than the limit; BAD_PREDICTION (the first such algorithm's
 * message) when no other is timed; NOT_CALIBRATED when the model can
 * time none of them; UNSUPPORTED when none supports the shape.  perf and
 * *returned are written in all five cases. */
SEER_API seer_status_t seer_pick_conv_algo(seer_handle_t handle, const seer_model *model,
                                           const seer_conv *desc,
                                           size_t workspace_limit_bytes,
                                           seer_conv_algo_perf_t *perf, int capacity,
                                           int *returned);
SEER_API seer_status_t seer_pick_conv_bwd_data_algo(seer_handle_t handle, const seer_model *model,
                                                    const seer_conv *desc,
                                                    size_t workspace_limit_bytes,
                                                    seer_conv_algo_perf_t *perf, int capacity,
                                                    int *returned);
SEER_API seer_status_t seer_pick_conv_bwd_filter_algo(seer_handle_t handle,
                                                      const seer_model *model,
                                                      const seer_conv *desc,
                                                      size_t workspace_limit_bytes,
                                                      seer_conv_algo_perf_t *perf, int capacity,
                                                      int *returned);

/* The algorithm libseer predicts fastest for dir, and its time: the
 * fastest algorithm the model can time; when it can time none (a model
 * trained on rows that name no algorithm, such as DeepBench's backward
 * passes), SEER_ALGO_CUDNN_CHOICE, what cuDNN's own heuristic launched.
 * The rule seer_predict_network's SEER_ALGO_AUTO policy uses
 * (docs/picker.md).  The time of a unit-stride backward data's
 * SEER_ALGO_CUDNN_CHOICE on FMA math is read as its dual forward conv
 * too (a strided 1x1 one's held to the stride-1 one's), so it can differ
 * from seer_predict_conv's for that algorithm (docs/method.md, "Backward
 * data as a forward conv").  Ignores workspace (seer_pick_conv_* rank
 * with it).
 * An algorithm whose time is out of range is passed over.
 * Returns BAD_PARAM, NOT_CALIBRATED (the model can time no algorithm of
 * dir), UNSUPPORTED (none exists for the shape), BAD_PREDICTION (every
 * algorithm timed is out of range: the first one's message). */
SEER_API seer_status_t seer_pick_conv_fastest(seer_handle_t handle, const seer_model *model,
                                              const seer_conv *desc, seer_direction_t dir,
                                              int *algo, double *time_ms);

/* ------------------------------------------------------------------ */
/* Input files                                                         */
/* ------------------------------------------------------------------ */

#define SEER_CSV_MAX_BYTES ((size_t)1 << 30) /* a CSV file */

/* Read a whole input file the way libseer reads its own (models, CSV,
 * network descriptions), for callers that hand the bytes to
 * seer_network_create, seer_onnx_text and the like: a regular file only
 * (a directory, FIFO or device is refused before it is opened for
 * reading), at most max_bytes (SEER_CSV_MAX_BYTES,
 * SEER_NET_TEXT_MAX_BYTES, SEER_ONNX_MAX_BYTES), into a fresh
 * NUL-terminated buffer the caller frees with free(); *size excludes the
 * NUL.  what names the input in messages ("CSV").  IO_ERROR (the message
 * names the path and why), ALLOC_FAILED, BAD_PARAM. */
SEER_API seer_status_t seer_read_input_file(seer_handle_t handle, const char *path, const char *what,
                                            size_t max_bytes, char **data, size_t *size);

/* ------------------------------------------------------------------ */
/* ONNX import (docs/networks.md#onnx-import)                          */
/* ------------------------------------------------------------------ */

/* Options of the ONNX translation; start from SEER_ONNX_OPTIONS_DEFAULT. */
typedef struct {
    int resolution;             /* 0: the graph's input size; else every 4-D input gets h = w = this */
    int skip_unsupported;       /* 0: fail with ONNX_UNSUPPORTED_OP; 1: leave such nodes out
                                   (their output aliases their first data input) and list them */
} seer_onnx_options_t;
#define SEER_ONNX_OPTIONS_DEFAULT { 0, 0 } /* resolution, skip_unsupported (C++ before C++20 too) */

/* What a translation found. */
typedef struct {
    int batch;                  /* the first input's batch size; 0 when symbolic */
    int opset;                  /* default-domain opset of the model */
    int n_nodes;                /* nodes in the graph */
    int n_skipped;              /* nodes left out (skip_unsupported); listed in the text as
                                   "# skipped: OP node 'NAME': why" lines */
} seer_onnx_info_t;

/* Largest ONNX input accepted (bytes); OVERFLOW above. */
#define SEER_ONNX_MAX_BYTES ((size_t)1 << 30)

/* Translate an ONNX ModelProto (len bytes) into the network description
 * of docs/networks.md: up to size bytes including the NUL go to buf (NULL
 * when size is 0), *length receives the text's length without the NUL,
 * BUFFER_TOO_SMALL when it does not fit (length and info still written).
 * info may be NULL.  ONNX_CORRUPT (not a ModelProto, truncated, tensor data
 * inconsistent with its dims, a string attribute such as auto_pad outside
 * ONNX's values), ONNX_OPSET, ONNX_UNSUPPORTED_OP (every
 * unsupported node counted and named, by operator), NET_INPUT (a node reads
 * or a graph output names a tensor nothing defines, or the graph has a
 * cycle), NET_SHAPE (a shape
 * that cannot be resolved statically), OVERFLOW (2^31 elements in a tensor,
 * input over SEER_ONNX_MAX_BYTES).  A first input of float16 or bfloat16
 * adds a "# input dtype: fp16" (or bf16) comment line after its input
 * line: the network holds no dtype, so the caller predicts in it (seer
 * net and seer.net() take it as their default). */
SEER_API seer_status_t seer_onnx_text(seer_handle_t handle, const void *bytes, size_t len,
                                      const seer_onnx_options_t *options, char *buf, size_t size,
                                      size_t *length, seer_onnx_info_t *info);
/* seer_onnx_text with options, then seer_network_create on the text: the
 * same network the description builds.  options may be NULL (defaults). */
SEER_API seer_status_t seer_network_create_onnx_ex(seer_handle_t handle, const void *bytes, size_t len,
                                                   const seer_onnx_options_t *options,
                                                   seer_network_t *net);
/* With the default options. */
SEER_API seer_status_t seer_network_create_onnx(seer_handle_t handle, const void *bytes, size_t len,
                                                seer_network_t *net);
/* An ONNX file (IO_ERROR when it cannot be read, is not a regular file or
 * is over SEER_ONNX_MAX_BYTES); options may be NULL. */
SEER_API seer_status_t seer_network_create_onnx_file(seer_handle_t handle, const char *path,
                                                     const seer_onnx_options_t *options,
                                                     seer_network_t *net);

#ifdef __cplusplus
}
#endif

#endif /* SEER_H */

/* Names of the enums as the CSV formats spell them (docs/formats.md),
 * and their parsers. */
#include <string.h>
#include "common.h"
#include "net.h"

static const char *const dtype_names[] = { "fp32", "tf32", "fp16", "bf16", "fp16_pseudo" };
static const char *const layout_names[] = { "nchw", "nhwc" };
static const char *const dir_names[] = { "fwd", "bwd_data", "bwd_filter" };
static const char *const class_names[] = { "compute", "dram", "under" };
static const char *const role_names[] = { "main", "input_transform", "filter_transform",
                                          "output_transform", "helper" };

/* Indexed by cuDNN's enum value of each direction. */
static const char *const fwd_algos[SEER_FWD_ALGO_COUNT] = {
    "IMPLICIT_GEMM", "IMPLICIT_PRECOMP_GEMM", "GEMM", "DIRECT",
    "FFT", "FFT_TILING", "WINOGRAD", "WINOGRAD_NONFUSED",
};
static const char *const bwd_data_algos[SEER_BWD_DATA_ALGO_COUNT] = {
    "ALGO_0", "ALGO_1", "FFT", "FFT_TILING", "WINOGRAD", "WINOGRAD_NONFUSED",
};
static const char *const bwd_filter_algos[SEER_BWD_FILTER_ALGO_COUNT] = {
    "ALGO_0", "ALGO_1", "FFT", "ALGO_3", "WINOGRAD", "WINOGRAD_NONFUSED", "FFT_TILING",
};

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Other spellings the parsers take, as frameworks and papers write them
 * (PyTorch's dtypes and memory formats, cuDNN's fprop / dgrad / wgrad):
 * each the enum value its canonical name has. */
typedef struct { const char *name; int v; } synonym_t;
static const synonym_t dtype_synonyms[] = {
    {"float32", SEER_DTYPE_FP32}, {"float", SEER_DTYPE_FP32},     {"float16", SEER_DTYPE_FP16},
    {"half", SEER_DTYPE_FP16},    {"bfloat16", SEER_DTYPE_BF16},
};
static const synonym_t layout_synonyms[] = {
    {"channels_first", SEER_LAYOUT_NCHW}, {"contiguous", SEER_LAYOUT_NCHW}, {"channels_last", SEER_LAYOUT_NHWC},
};
static const synonym_t dir_synonyms[] = {
    {"forward", SEER_DIR_FWD},           {"fprop", SEER_DIR_FWD},           {"backward_data", SEER_DIR_BWD_DATA},
    {"dgrad", SEER_DIR_BWD_DATA},        {"bwd_input", SEER_DIR_BWD_DATA},  {"backward_filter", SEER_DIR_BWD_FILTER},
    {"wgrad", SEER_DIR_BWD_FILTER},      {"bwd_weight", SEER_DIR_BWD_FILTER}, {"backward_weight", SEER_DIR_BWD_FILTER},
};

static const char *name_of(const char *const *names, int count, int v)
{
    return v >= 0 && v < count ? names[v] : "?";
}

static seer_status_t index_of(const char *const *names, int count, const char *name, int *out)
{
    if (!name || !out) return SEER_STATUS_BAD_PARAM;
    for (int i = 0; i < count; i++)
        if (seer_streq_ci(name, names[i])) {
            *out = i;
            return SEER_STATUS_SUCCESS;
        }
    return SEER_STATUS_BAD_PARAM;
}

/* The canonical names (index = enum value), then the synonyms. */
static seer_status_t value_of(const char *const *names, int count, const synonym_t *syn, int nsyn, const char *name,
                              int *out)
{
    if (!index_of(names, count, name, out)) return SEER_STATUS_SUCCESS;
    for (int i = 0; name && out && i < nsyn; i++)
        if (seer_streq_ci(name, syn[i].name)) {
            *out = syn[i].v;
            return SEER_STATUS_SUCCESS;
        }
    return SEER_STATUS_BAD_PARAM;
}

const char *seer_dtype_name(seer_dtype_t dtype)
{
    return name_of(dtype_names, COUNT(dtype_names), (int)dtype);
}

const char *seer_layout_name(seer_layout_t layout)
{
    return name_of(layout_names, COUNT(layout_names), (int)layout);
}

const char *seer_direction_name(seer_direction_t dir)
{
    return name_of(dir_names, COUNT(dir_names), (int)dir);
}

const char *seer_class_name(seer_class_t cls)
{
    return name_of(class_names, COUNT(class_names), (int)cls);
}

const char *seer_role_name(seer_kernel_role_t role)
{
    return name_of(role_names, COUNT(role_names), (int)role);
}

const char *seer_source_name(seer_source_t source)
{
    static const char *const names[] = {"calibrated", "transferred", "analytical"};
    return name_of(names, COUNT(names), (int)source);
}

static const char *const *algo_names(seer_direction_t dir, int *count)
{
    switch (dir) {
    case SEER_DIR_FWD: *count = COUNT(fwd_algos); return fwd_algos;
    case SEER_DIR_BWD_DATA: *count = COUNT(bwd_data_algos); return bwd_data_algos;
    case SEER_DIR_BWD_FILTER: *count = COUNT(bwd_filter_algos); return bwd_filter_algos;
    }
    *count = 0;
    return NULL;
}

const char *seer_algo_name(seer_direction_t dir, int algo)
{
    int count;
    const char *const *names = algo_names(dir, &count);
    if (names && algo == SEER_ALGO_CUDNN_CHOICE) return "CUDNN_CHOICE";
    return names ? name_of(names, count, algo) : "?";
}

const char *seer_layer_algo_name(const seer_layer_result_t *row)
{
    if (!row || row->algo == SEER_ALGO_NA) return NULL;
    return seer_algo_name(seer_net_conv_dir(row->op, row->direction), row->algo);
}

seer_status_t seer_dtype_from_name(const char *name, seer_dtype_t *dtype)
{
    int v;
    if (!dtype || value_of(dtype_names, COUNT(dtype_names), dtype_synonyms, COUNT(dtype_synonyms), name, &v))
        return SEER_STATUS_BAD_PARAM;
    *dtype = (seer_dtype_t)v;
    return SEER_STATUS_SUCCESS;
}

seer_status_t seer_layout_from_name(const char *name, seer_layout_t *layout)
{
    int v;
    if (!layout || value_of(layout_names, COUNT(layout_names), layout_synonyms, COUNT(layout_synonyms), name, &v))
        return SEER_STATUS_BAD_PARAM;
    *layout = (seer_layout_t)v;
    return SEER_STATUS_SUCCESS;
}

seer_status_t seer_direction_from_name(const char *name, seer_direction_t *dir)
{
    int v;
    if (!dir || value_of(dir_names, COUNT(dir_names), dir_synonyms, COUNT(dir_synonyms), name, &v))
        return SEER_STATUS_BAD_PARAM;
    *dir = (seer_direction_t)v;
    return SEER_STATUS_SUCCESS;
}

/* ASCII case-insensitive prefix test; returns the rest of s or NULL. */
static const char *skip_prefix_ci(const char *s, const char *prefix)
{
    size_t n = strlen(prefix);
    for (size_t i = 0; i < n; i++) {
        int a = (unsigned char)s[i], b = (unsigned char)prefix[i];
        if (a >= 'a' && a <= 'z') a -= 32;
        if (a != b) return NULL; /* also stops at s's NUL */
    }
    return s + n;
}

seer_status_t seer_algo_from_name(seer_direction_t dir, const char *name, int *algo)
{
    /* The backward names keep "ALGO_": cuDNN's CUDNN_CONVOLUTION_BWD_DATA_ALGO_0
     * is our ALGO_0, and ..._BWD_DATA_ALGO_FFT is FFT (tried both ways). */
    static const char *const prefixes[] = {
        "CUDNN_CONVOLUTION_FWD_ALGO_",
        "CUDNN_CONVOLUTION_BWD_DATA_",
        "CUDNN_CONVOLUTION_BWD_FILTER_",
    };
    int count;
    const char *const *names = algo_names(dir, &count);
    if (!names || !name || !algo) return SEER_STATUS_BAD_PARAM;
    /* seer_algo_name's own spelling of cuDNN's choice, which seer predict
     * ranks beside the algorithms: what it prints, it reads */
    if (seer_streq_ci(name, "CUDNN_CHOICE")) {
        *algo = SEER_ALGO_CUDNN_CHOICE;
        return SEER_STATUS_SUCCESS;
    }
    /* cuDNN's enum value as a number (what cudnnFind results and
     * profilers log: "1" is IMPLICIT_PRECOMP_GEMM forward) */
    if (name[0] >= '0' && name[0] <= '9' && (!name[1] || (name[1] >= '0' && name[1] <= '9' && !name[2]))) {
        int v = name[1] ? 10 * (name[0] - '0') + name[1] - '0' : name[0] - '0';
        if (v >= count) return SEER_STATUS_BAD_PARAM;
        *algo = v;
        return SEER_STATUS_SUCCESS;
    }
    /* Only the prefix of the direction asked for: a bwd_data name given
     * for fwd is a mistake, not a synonym. */
    const char *rest = skip_prefix_ci(name, prefixes[dir]);
    if (rest) name = rest;
    int v;
    if (index_of(names, count, name, &v) == SEER_STATUS_SUCCESS) {
        *algo = v;
        return SEER_STATUS_SUCCESS;
    }
    if (rest && dir != SEER_DIR_FWD && (rest = skip_prefix_ci(name, "ALGO_")) &&
        index_of(names, count, rest, &v) == SEER_STATUS_SUCCESS) {
        *algo = v;
        return SEER_STATUS_SUCCESS;
    }
    /* Tools that only know the forward names (DeepBench, kernel-name
     * inference) write the backward implicit GEMMs as IMPLICIT_GEMM and
     * IMPLICIT_PRECOMP_GEMM; seer.h maps them to ALGO_0 and ALGO_1. */
    if (dir != SEER_DIR_FWD) {
        if (seer_streq_ci(name, "IMPLICIT_GEMM")) {
            *algo = 0;
            return SEER_STATUS_SUCCESS;
        }
        if (seer_streq_ci(name, "IMPLICIT_PRECOMP_GEMM")) {
            *algo = 1;
            return SEER_STATUS_SUCCESS;
        }
    }
    return SEER_STATUS_BAD_PARAM;
}

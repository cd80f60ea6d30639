/* In-memory model: per kernel family (direction, algorithm, math type)
 * the kernel variants cuDNN launches with their per-class coefficients,
 * and the LIBSVM parts (variant classifier, class classifier, learned
 * correction). */
#ifndef SEER_MODEL_H
#define SEER_MODEL_H
#include <stdint.h>
#include <svm.h>
#include "seer.h"
#include "conv.h"
#include "launch.h"

#define SEER_MODEL_MAGIC "SEERMODL"
/* 5: format 4 and a transferred model's second GEMM fits (gemm2); a
 * format 3 or 4 file is read as one without them.
 * 4: format 3 and the model's conv scales (seer_conv_scale_t); a format
 * 3 file is read as one without scales.
 * 3: a GEMM fit per math type and kind (one product, batched).
 * 2: GPU time (host dispatch taken off the training times; the
 * constant term is the kernels' launch gaps, coefficient 1).  Format 1
 * predicted a whole call as a framework timed it; neither it nor 2 is
 * read. */
#define SEER_MODEL_FORMAT 5
#define SEER_MODEL_FORMAT_OLDEST 3 /* the oldest format read */
/* Terms of the per-class formula (docs/method.md, section 4), in the
 * order the model file stores their coefficients. */
enum {
    SEER_T_COMPUTE,             /* waves * B_max * flop_per_block / peak */
    SEER_T_WAVE,                /* per-wave cost */
    SEER_T_DRAM,                /* (waves - 1 + fill) * B_max * bytes_per_block / BW */
    SEER_T_HELP_IN,             /* helper kernels' bytes / BW: input side, */
    SEER_T_HELP_OUT,            /*   output side, */
    SEER_T_HELP_W,              /*   weights */
    SEER_T_CONST,               /* launch gaps: kernels x gap, coefficient fixed at 1 */
    SEER_NTERMS
};

/* How a variant's grid follows from the conv (matched to the grids
 * recorded in the training data). */
enum {
    SEER_GEO_TILED = 0,         /* ceil(M/tm) x ceil(N/tn) x batch */
    SEER_GEO_WINO_NF = 1,       /* non-fused Winograd GEMM: batch padded to 16 images */
    SEER_GEO_WINO_148 = 2,      /* fused Winograd tile148t: n*ceil(k/32), ceil(Q/8), ceil(P/16) */
    SEER_GEO_WINO_442 = 3,      /* fused Winograd tile442t: ceil(n/4)*ceil(k/32), ceil(Q/8), ceil(P/4) */
    SEER_GEO_FFT = 4,           /* gcgemm: ceil(N/tm) x frequencies, all of M per block */
    SEER_GEO_TILED_SPLIT = 5    /* tiled, a wgrad GEMM's reduction split over blocks (model.c) */
};
/* Features of the LIBSVM parts, in the order the model file stores their
 * standardization: the variant classifier sees the shape features, the
 * class classifier adds the main kernel's waves, the correction adds the
 * analytical prediction. */
enum {
    SEER_F_N, SEER_F_C, SEER_F_H, SEER_F_W, SEER_F_K, /* log of each */
    SEER_F_RS,                  /* log filter area */
    SEER_F_STRIDE,              /* log stride_h * stride_w */
    SEER_F_GROUPS,              /* log groups */
    SEER_F_DIL,                 /* log dil_h * dil_w */
    SEER_F_FLOPS_MS,            /* log main-kernel FLOPs at peak, ms */
    SEER_F_BYTES_MS,            /* log all kernels' bytes at bandwidth, ms */
    SEER_NF_SHAPE,              /* features known before the variant */
    SEER_F_WAVES = SEER_NF_SHAPE, /* log waves of the main kernel */
    SEER_F_FILL,                /* its last-wave fill */
    SEER_NF_CLASS,
    SEER_F_LOG_BASE = SEER_NF_CLASS, /* log of the analytical prediction */
    SEER_NF
};
#define SEER_MAX_VARIANTS 8
#define SEER_ALL_CLASSES 3      /* coef[3]: fit over every class */

typedef struct {
    char name[48];              /* main kernel name (variant), "default" if unknown */
    int tm, tn;                 /* GEMM tile of the main kernel */
    int threads;                /* threads per block */
    int geo;                    /* SEER_GEO_* */
    int bps;                    /* resident blocks per SM, fitted to the waves in the data */
    int has[4];                 /* coef[c] was fitted */
    double coef[4][SEER_NTERMS];
} seer_variant_t;

typedef struct {
    int dir, algo, math;        /* math: 0 SIMT, 1 tensor cores; algo -1: cuDNN's choice */
    int nvar;
    seer_variant_t var[SEER_MAX_VARIANTS];
    double mu[SEER_NF], sd[SEER_NF];
    struct svm_model *vclf;     /* C-SVC: variant from shape; no longer trained (NULL), read from older files */
    struct svm_model *cclf;     /* C-SVC: class from shape and waves (NULL if one class) */
    struct svm_model *svr;      /* eps-SVR: log(measured / analytical) (NULL if it did not help) */
    int n_rows;
    int src;                    /* index into model->src: the GPU whose data fitted it */
    int major_cls;              /* most common training class: the class when there is no classifier */
} seer_family_t;

/* GEMM model (fully connected layers, batched matmuls): per math type
 * and kind (SEER_GEMM_KINDS), a tiled GEMM with the same per-wave terms
 * as a conv main kernel.  Trained by gemm.c from GEMM timing CSV rows. */
enum {
    SEER_G_COMPUTE,             /* waves * B_max * 2 tm tn k / peak */
    SEER_G_WAVE,                /* per-wave cost */
    SEER_G_DRAM,                /* (waves - 1 + fill) * B_max * (tm + tn) k / BW */
    SEER_G_OUT,                 /* writing C (and reading the bias vector) / BW */
    SEER_G_CONST,               /* launch gaps: kernels x gap, coefficient fixed at 1 */
    SEER_GEMM_TERMS
};
/* Kinds of GEMM fit: 0 one product (batch 1), 1 batched (batch > 1);
 * cuBLAS picks its tiles for the two differently (gemm.c). */
#define SEER_GEMM_KINDS 2
typedef struct {
    int present;
    int tm, tn, bps;            /* representative tile and residency */
    double coef[SEER_GEMM_TERMS];
    int n_rows;
    char source_gpu[32];        /* GPU whose rows trained it (may differ: see gemm.c) */
} seer_gemm_fit_t;

/* How much slower a GPU ran the kernels of one conv family (direction,
 * algorithm) in one class of math than what its model takes from the
 * other GPUs' models says: the scale of least absolute percentage error
 * over its own measured times (seer_model_scale_convs).  Multiplies the
 * physics of a family taken from others (or borrowed from another key),
 * or of the analytical family (model.c, physics_at), never of its own. */
typedef struct {
    int dir, algo;              /* the family's key */
    int cls;                    /* SEER_SCALE_SIMT, _HALF or _TF32 (seer_scale_class) */
    int n_rows;                 /* rows it is fitted on; 0: taken from GPUs of its
                                 * architecture (transfer.c) */
    double scale;               /* in [1 / SEER_SCALE_MAX, SEER_SCALE_MAX] */
} seer_conv_scale_t;
/* TF32 apart from FP16/BF16: one tensor-core family serves both, and on
 * Hopper cuDNN's TF32 kernels ran at other shares of their peak. */
enum { SEER_SCALE_SIMT, SEER_SCALE_HALF, SEER_SCALE_TF32, SEER_SCALE_CLASSES };
#define SEER_SCALE_MAX 10.0
#define SEER_MAX_SCALES 96      /* 3 directions x 9 algorithms x 3 classes fit */

struct seer_model {
    char gpu_id[32];
    seer_gpu_info_t gpu;
    unsigned lib_version;
    char provenance[512];
    int64_t n_rows;
    int nfam;
    seer_family_t *fam;
    /* GPUs whose data fitted the families: src[0] is the model's own GPU
     * for a calibrated model; a transferred model lists its sources. */
#define SEER_MAX_SOURCES 8
    int nsrc;
    seer_gpu_info_t src[SEER_MAX_SOURCES];
    int transferred;
    double kcoef[3][SEER_NTERMS]; /* generic per-class kernel formula */
    /* The analytical family's time scale per math and algorithm kind
     * (seer_model_set_analytical_scales); 0: none, 1.  Never serialized. */
    double ascale[2][SEER_K_NONE];
    seer_gemm_fit_t gemm[2][SEER_GEMM_KINDS]; /* [math][kind] */
    /* A transferred model's second GEMM source, per [math][kind]: the
     * best fit on the other side of the target's compute capability from
     * gemm's (transfer.c, bracketing_gemm_source); where present the time
     * is the geometric mean of the two (gemm.c, own_time).  A calibrated
     * model without fits of a math type takes both from a transfer
     * (fill_missing).  Present only beside gemm[math][kind].  Format 5. */
    seer_gemm_fit_t gemm2[2][SEER_GEMM_KINDS];
    int nscale;
    seer_conv_scale_t scale[SEER_MAX_SCALES];
    uint32_t checksum;
    /* Served models of other GPUs of the table (seer_model_open), their
     * SVMs dropped, that predict_conv ties this one's physics to: those it
     * is at least as fast as (SEER_PEER_BELOW) and the calibrated ones
     * (SEER_PEER_ANCHOR).  Never serialized. */
#define SEER_MAX_PEERS 64
#define SEER_PEER_BELOW 1
#define SEER_PEER_ANCHOR 2
    int npeer;
    struct seer_model **peer;
    unsigned char *peer_role;
};

/* A family fitted on this many rows of a GPU's own measurements is
 * "measured": a source of a transferred model before one on fewer rows,
 * which is a last resort (transfer.c: at 100 instead, the GTX 1080 Ti's
 * DeepBench families, on 60 to 80, scored 19.4 % calibrated and 29.5 %
 * left out, 18.2 / 28.2 % at this), and it lifts the GPUs slower than it
 * whose family for the case
 * is not (transferred, analytical, or fitted on fewer of their own rows);
 * two measured GPUs that disagree meet at the lower (model.c, gemm.c). */
#define SEER_OWN_FAMILY_ROWS 32

/* NCHW on tensor cores (model.c, docs/method.md "Layouts"): the elements
 * of the three tensors cuDNN copies to NHWC and back around its
 * tensor-core kernels (the direction's two inputs, then its output) in
 * size; returns 3, or 0 when there are none (on Hopper, an unpadded 1x1
 * conv copies only a 7 x 7 image's worth: model.c).  run is in the math
 * cuDNN runs on the GPU g (seer_conv_run_dtype). */
int seer_conv_nchw_copies(const seer_gpu_info_t *g, const struct seer_conv *run, seer_direction_t dir, int algo,
                          double size[3]);
/* Their transposes' time on the model's GPU (ms, launch gaps included;
 * 0 when there are none). */
double seer_conv_nchw_transposes_ms(const struct seer_model *m, const struct seer_conv *run, seer_direction_t dir,
                                    int algo);

/* Everything the model computes for one conv with one variant. */
typedef struct {
    seer_kview_t kv[SEER_MAX_KERNELS];
    int nk;
    double x[SEER_NTERMS];      /* terms of the analytical formula, ms */
    double f[SEER_NF];          /* raw (unstandardized) features */
    double blocks, waves, fill;
    double split;               /* split-K factor of a wgrad GEMM (1: none) */
    long long bmax;
    double main_flops_ms, bytes_ms;
    double es;                  /* bytes per element */
    int no_features;            /* time terms only (a peer's physics: model.c): f[] left unset */
    const struct seer_conv *cv;
    int dir;
    const seer_gpu_info_t *src;  /* GPU of the family's coefficients */
} seer_terms_t;

/* Kernels and shape features of a conv (variant-independent part). */
seer_status_t seer_model_kernels(seer_err_t *e, const struct seer_model *m,
                                 const struct seer_conv *cv, seer_direction_t dir, int algo,
                                 seer_terms_t *t);
/* Fill the variant-dependent terms and features (t->src must be set:
 * seer_model_family_terms does it). */
void seer_model_terms(const struct seer_model *m, const seer_variant_t *v, seer_terms_t *t);
/* Deep copy of a family (LIBSVM models cloned). */
int seer_family_copy(seer_family_t *dst, const seer_family_t *src);
const seer_family_t *seer_model_family(const struct seer_model *m, seer_direction_t dir,
                                       int algo, seer_dtype_t dt);
/* The fastest variant of the family under its all-class formula (the
 * time prediction uses no classifier: model.c, "physics"): its time, *vi
 * and t filled with its terms (t holds the shape's on entry). */
double seer_family_fastest(const struct seer_model *m, const seer_family_t *f, seer_terms_t *t, int *vi);
/* Analytical time (ms) of a variant (its all-class fit: per-class
 * coefficients are no longer fitted or used), and the learned correction
 * factor. */
double seer_family_base(const seer_variant_t *v, const seer_terms_t *t);
double seer_family_correction(const seer_family_t *f, const seer_terms_t *t, double base);
/* Standardized svm_node vector of the first nf features. */
void seer_family_nodes(const seer_family_t *f, const double *raw, int nf, struct svm_node *x);

/* Where seer_model_predict_conv's time lies, from the physics alone
 * (no learned correction, class classifier or kernel breakdown): what
 * the picker needs to skip the algorithms that cannot be fastest. */
typedef struct {
    double lo, hi;              /* lo <= time <= hi */
    double phys;                /* the physics tied to the peers' (model.c), where tied */
    int analytical;             /* a guess (SEER_SOURCE_ANALYTICAL): timed by the analytical
                                 * family or another algorithm's (model.c, borrowed_family) */
    int tied;                   /* 0: the peers were left out, [lo, hi] is loose */
} seer_conv_bounds_t;
/* Fails where seer_model_predict_conv fails, except on the time's range
 * (seer_check_time on lo and hi tells whether it can); desc and dir must
 * be valid.  peers 0: an analytical time's bounds leave the peers out
 * (loose, but enough to tell whether it can fail), which the picker
 * needs only when nothing measured answers. */
seer_status_t seer_model_conv_bounds(seer_err_t *e, const struct seer_model *m, const struct seer_conv *desc,
                                     seer_direction_t dir, int algo, int peers, seer_conv_bounds_t *b);
/* At most every time seer_model_predict_conv gives for the conv in
 * direction dir, any algorithm or cuDNN's choice: the lowest roofline
 * floor of its algorithms (0 where none is known). */
double seer_model_conv_floor(const struct seer_model *m, const struct seer_conv *desc, seer_direction_t dir);
/* A grouped conv narrower than any GEMM tile (under 32 channels per
 * group in or out, model.c) is timed by its own roofline, and is never
 * slower than its padded conv: the same groups with 32 channels per group
 * where it had fewer, which the dense families time.  1 and that conv in
 * *wide for such a conv, else 0. */
int seer_conv_padded_groups(const struct seer_conv *cv, struct seer_conv *wide);
/* At most every time seer_model_predict_conv gives a grouped conv in
 * direction dir, any algorithm or cuDNN's choice, from its FLOPs and
 * bytes alone (model.c says why); 0 for a dense one.  The picker skips
 * what it shows cannot be faster. */
double seer_model_grouped_lower(const struct seer_model *m, const struct seer_conv *cv, seer_direction_t dir);
/* At least the model's time of a wide grouped conv (32 channels per
 * group or more) in direction dir, any algorithm or cuDNN's choice,
 * before the caps (dense, SIMT twin): its roofline, a launch gap and the
 * grouped kernels' fixed cost (model.c says why); 0 for a narrow or dense
 * one. */
double seer_model_grouped_floor(const struct seer_model *m, const struct seer_conv *cv, seer_direction_t dir);
/* The factor by which cuDNN's legacy kernels of (dir, algo) on run (in
 * the dtype it runs, seer_conv_run_dtype) were measured slower than the
 * model of their FP32 twins (pseudo-half SIMT kernels; bwd_data ALGO_0's
 * direct kernel on NHWC data; a grouped NHWC FP32 bwd_filter ALGO_0's
 * grouped-direct kernel), which the physics takes and training
 * takes off its rows: 1 for everything else (model.c). */
double seer_conv_legacy_slowdown(seer_direction_t dir, int algo, const struct seer_conv *run);
/* seer_predict_conv failing into e (may be NULL) instead of a handle;
 * variant, when not NULL, is a measured main kernel name that picks the
 * kernel variant instead of the classifier (*matched = 0 when the model
 * does not know it; matched may be NULL); bounds, when not NULL, tied
 * bounds seer_model_conv_bounds gave for the same conv, direction and
 * algorithm (their physics is not computed again). */
seer_status_t seer_model_predict_conv(seer_err_t *e, const struct seer_model *m,
                                      const struct seer_conv *desc, seer_direction_t dir, int algo,
                                      const char *variant, int *matched, double *time_ms,
                                      seer_kernel_pred_t *kernels, int kernels_cap, int *n_kernels,
                                      const seer_conv_bounds_t *bounds);
/* seer_predict_conv_variant (the measured main kernel picks the
 * variant) is public: seer.h. */

/* The SIMT twin of a conv in tensor-core math on m's GPU: TF32 as FP32,
 * FP16 as FP16_PSEUDO (the same data, FMA math), into *twin; 0 where the
 * conv runs no tensor-core math there (or is BF16, which has none).
 * Tensor cores are allowed, not required: cuDNN has each algorithm's SIMT
 * kernels for the same data, so one algorithm's time is at most its
 * twin's (seer_predict_conv, the seer_pick_conv_*algo rankings; the
 * fastest pick, seer_picker_best, holds it through its FP32 and
 * pseudo-half caps). */
int seer_conv_simt_twin(const struct seer_model *m, const struct seer_conv *cv, struct seer_conv *twin);
/* 0 where twin's time of algo cannot be under t, cv's time of it: the
 * algorithm runs SIMT already, or its twin's floor is at least t. */
int seer_conv_twin_may_beat(const struct seer_model *m, const struct seer_conv *cv, const struct seer_conv *twin,
                            seer_direction_t dir, int algo, double t);

/* A calibrated model's own physics over that of t, a model transferred
 * to its GPU, on the families of direction dir and math (0 SIMT, 1 tensor
 * cores) both have (model.c): the scale of the families of that direction
 * and math it takes from t.  In [1/2, 2]; 1 where they share none. */
double seer_model_efficiency_ratio(const struct seer_model *m, const struct seer_model *t, int dir, int math);
/* A copy of m through the file format (without its peers). */
seer_status_t seer_model_copy(seer_handle_t h, const struct seer_model *m, seer_model_t *out);
/* Every calibrated model of dir but gpu_id's own file, in name order,
 * their conv scales dropped (up to cap, *n of them; free each with
 * seer_model_destroy), and what seer_model_open serves from dir for
 * given's GPU with given in place of that GPU's file there and others
 * (from seer_model_others) as the models to transfer from, without the
 * ties to other GPUs (transfer.c; for seer_model_scale_convs, which
 * serves many candidates from one read of dir). */
seer_status_t seer_model_others(seer_handle_t h, const char *dir, const char *gpu_id, seer_model_t *all, int cap,
                                int *n);
seer_status_t seer_model_open_given(seer_handle_t h, const char *dir, const struct seer_model *given,
                                    const seer_model_t *others, int n_others, seer_model_t *out);
/* The scale class of a conv in run, the dtype cuDNN runs it in
 * (seer_conv_run_dtype). */
int seer_scale_class(seer_dtype_t run);
/* m's scale of (dir, algo, cls), or NULL. */
const seer_conv_scale_t *seer_model_scale(const struct seer_model *m, int dir, int algo, int cls);
/* Sets m->ascale from m's forward families (model.c): once m's families
 * are final, before it predicts. */
void seer_model_set_analytical_scales(struct seer_model *m);
void seer_family_free(seer_family_t *f);
/* Serialize the whole model (header + payload + checksum). */
int seer_model_serialize(const struct seer_model *m, unsigned char **buf, size_t *size);
#endif

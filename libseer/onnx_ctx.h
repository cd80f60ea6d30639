/* ONNX import, internal: the translation context the stages share.
 *
 * The pipeline, one file per stage:
 *   onnx.c        public entry points; the ModelProto and graph checks
 *                 (opset, SSA names, dangling inputs, topological order)
 *   onnx_ctx.c    the context: tensors by name, attributes, messages,
 *                 layers of the description, the unsupported-node record
 *   onnx_shape.c  constants: initializers read, constant nodes folded, so
 *                 that Reshape targets and Clip bounds are known statically
 *   onnx_emit.c   one node at a time: shape inference and the description
 *                 line it becomes
 * The protobuf-c types come from the header generated at build time. */
#ifndef SEER_ONNX_CTX_H
#define SEER_ONNX_CTX_H
#include <stdint.h>
#include "onnx.h"
#include "onnx.pb-c.h"

typedef struct {
    const char *name;
    int known;                  /* dims known */
    int rank;
    int64_t d[SEER_ONNX_MAX_RANK];
    int is_const;               /* an initializer or folded constant: no layer */
    int is_int;                 /* integer element type (Div truncates) */
    int nval;                   /* values folded into val; -1: not folded */
    double *val;                /* nval values (malloc'ed: few tensors have any), or NULL */
    int layer;                  /* data tensors: layer of the description; -1 none */
    int nhwc;                   /* rank 4 data seen as N x H x W x C: a permuted view of its
                                 * layer (PyTorch's permute, ConvNeXt's channels-last blocks) */
    int producer;               /* node index, -1 for initializers and graph inputs */
    int readers;                /* node inputs reading it */
} tensor_t;

typedef struct {
    char name[48];
    int64_t c, h, w;
} layer_t;

enum { MAX_UNSUP_OPS = 24, UNSUP_NAMES = 3 };
typedef struct {
    char op[40];
    int count;
    char names[UNSUP_NAMES][48];
    char why[120];              /* the first node's reason */
} unsup_t;

typedef struct {
    seer_handle_t h;
    seer_onnx_options_t opt;
    SeerOnnx__GraphProto *g;
    tensor_t *t;
    size_t nt;
    uint32_t *slot;             /* name hash -> tensor index + 1 */
    size_t nslot;
    layer_t *L;
    int nl, lcap;
    uint32_t *lslot;            /* layer name hash -> layer index + 1 */
    size_t nlslot;
    char *out;
    size_t olen, ocap;
    int oom;
    int64_t batch;              /* the batch dimension's value during inference */
    int batch_static;
    int64_t export_hw[2];       /* the first input's fixed H and W that a resolution replaced, else 0 */
    int opset;
    int n_nodes;
    int n_skipped;
    int n_unsup;
    unsup_t unsup[MAX_UNSUP_OPS];
    int n_unsup_ops;
    int *alias_in;              /* per node: >= 0, the input its output aliases (fused) */
} cx_t;

/* --- onnx_ctx.c: the context's life --------------------------------- */

/* An empty context reporting to h (opt NULL: the defaults). */
void seer_onnx_cx_init(cx_t *cx, seer_handle_t h, const seer_onnx_options_t *opt);
/* Room for n_tensors named tensors and n_nodes nodes' fusion marks (all
 * -1: none); SUCCESS or ALLOC_FAILED. */
seer_status_t seer_onnx_cx_tables(cx_t *cx, size_t n_tensors, size_t n_nodes);
/* Everything the context owns, the description text included. */
void seer_onnx_cx_free(cx_t *cx);

/* --- onnx_ctx.c: messages ------------------------------------------- */

/* Append to the description text; an allocation failure sets cx->oom,
 * which the caller checks once per node rather than per line. */
void seer_onnx_emit(cx_t *cx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A node for messages: its name, else its first output. */
const char *seer_onnx_label(const SeerOnnx__NodeProto *n);
/* Printable, bounded copy of a foreign string for messages and comments. */
const char *seer_onnx_show(const char *s, char *buf, size_t size);
/* An error naming node n and its operator (an initializer: no node). */
seer_status_t seer_onnx_nerr(cx_t *cx, const SeerOnnx__NodeProto *n, seer_status_t st, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* --- onnx_ctx.c: tensors and attributes ----------------------------- */

/* Index of a tensor by name, -1 if none. */
int seer_onnx_find_tensor(const cx_t *cx, const char *name);
/* A new tensor; -1 if the name is already defined (not SSA). */
int seer_onnx_add_tensor(cx_t *cx, const char *name, int producer);
/* Node n's input / output i, NULL when absent or unnamed. */
tensor_t *seer_onnx_input(cx_t *cx, const SeerOnnx__NodeProto *n, size_t i);
tensor_t *seer_onnx_output(cx_t *cx, const SeerOnnx__NodeProto *n, size_t i);
const SeerOnnx__AttributeProto *seer_onnx_attr(const SeerOnnx__NodeProto *n, const char *name);
int64_t seer_onnx_attr_int(const SeerOnnx__NodeProto *n, const char *name, int64_t dflt);
double seer_onnx_attr_float(const SeerOnnx__NodeProto *n, const char *name, double dflt);
/* Up to max ints of a list attribute into v; the count (max + 1 when
 * longer), -1 when absent. */
int seer_onnx_attr_ints(const SeerOnnx__NodeProto *n, const char *name, int64_t *v, int max);
int seer_onnx_attr_str_is(const SeerOnnx__NodeProto *n, const char *name, const char *want);
/* Elements of dims from..rank-1; -1 on overflow. */
int64_t seer_onnx_elems(const tensor_t *t, int from);
/* Dims of a tensor, checked against the limits. */
seer_status_t seer_onnx_set_dims(cx_t *cx, const SeerOnnx__NodeProto *n, tensor_t *t, int rank, const int64_t *d);
/* Per-sample c x h x w of a data tensor of rank 2..4 (of an nhwc view:
 * d[3] x d[1] x d[2]); 0 for other ranks. */
int seer_onnx_chw(const tensor_t *t, int64_t *c, int64_t *h, int64_t *w);
/* A data input a layer reads as is (rank4: rank 4 required).  A
 * channels-last view passes with its c, h, w read in its own order:
 * callers that read axis 1 as the channels refuse x->nhwc themselves. */
seer_status_t seer_onnx_need_data(cx_t *cx, const SeerOnnx__NodeProto *n, const tensor_t *t, int rank4);
/* A data input read as a view: same elements per sample as its layer. */
seer_status_t seer_onnx_need_view(cx_t *cx, const SeerOnnx__NodeProto *n, const tensor_t *t);
/* A negative axis counted from the end; -1 when outside the rank. */
int seer_onnx_norm_axis(int64_t axis, int rank);

/* --- onnx_ctx.c: layers of the description --------------------------- */

/* A character the description allows in a layer name. */
int seer_onnx_valid_name_char(char ch);
/* A new, uniquely named layer computing t; its index, -1 out of memory. */
int seer_onnx_new_layer(cx_t *cx, const char *base, tensor_t *t);
/* Start a layer line "TYPE name=N in=A,B"; SUCCESS, NET_SHAPE (t has an
 * empty dimension) or ALLOC_FAILED. */
seer_status_t seer_onnx_layer_line(cx_t *cx, const SeerOnnx__NodeProto *n, tensor_t *t, const char *type,
                                   tensor_t *const *ins, int nin);
/* " size=A" or " r=A s=B" style pairs; nothing when both equal dflt. */
void seer_onnx_pair_opt(cx_t *cx, const char *both, const char *a_name, const char *b_name, int64_t a, int64_t b,
                        int64_t dflt);

/* --- onnx_ctx.c: unsupported nodes ----------------------------------- */

/* Record node n as unsupported; its first output aliases its first data
 * input so that translation goes on.  Always SUCCESS. */
seer_status_t seer_onnx_unsupported(cx_t *cx, const SeerOnnx__NodeProto *n, const char *why);
/* The error listing every unsupported node; then: a later failure added
 * to the message (NULL: none). */
seer_status_t seer_onnx_unsupported_error(cx_t *cx, const char *then);

/* --- onnx_shape.c: constants ----------------------------------------- */

/* An initializer or a Constant's tensor into t (n: NULL for an
 * initializer): dims checked, data size checked, small contents folded. */
seer_status_t seer_onnx_load_tensor(cx_t *cx, const SeerOnnx__NodeProto *n, const SeerOnnx__TensorProto *tp, tensor_t *t);
/* A constant 1-D (or scalar) value list of input i; count, -1 if not known. */
int seer_onnx_const_ints(cx_t *cx, const SeerOnnx__NodeProto *n, size_t i, int64_t *v, int max);
/* Folding of a node whose inputs are all constants (or Shape of any
 * tensor).  1: folded (or marked constant); 0: not a folding op;
 * otherwise *st carries an error. */
int seer_onnx_fold(cx_t *cx, const SeerOnnx__NodeProto *n, seer_status_t *st);
/* A Clip's bounds: its min and max attributes before opset 11, its
 * constant inputs from then (absent: unbounded); 0 when an input bound
 * is not one folded value. */
int seer_onnx_clip_bounds(cx_t *cx, const SeerOnnx__NodeProto *n, double *lo, double *hi);
/* A Reduce* node's axes, up to max: its attribute before the opset that
 * made them an input (13 for ReduceSum, 18 for the others), its constant
 * input from then; the count, -1 if not known (seer_onnx_const_ints). */
int seer_onnx_reduce_axes(cx_t *cx, const SeerOnnx__NodeProto *n, int64_t *ax, int max);

/* --- onnx_emit.c: nodes into description lines ---------------------- */

/* Node ni (in topological order): folded, fused, translated into a
 * description line, or recorded as unsupported. */
seer_status_t seer_onnx_emit_node(cx_t *cx, int ni);
#endif

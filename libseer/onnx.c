/* ONNX import: an ONNX ModelProto, read with protobuf-c, translated into
 * the network description of docs/networks.md and handed to the
 * description parser.  Translating into the text (rather than building
 * layers directly) means an ONNX model and its `seer net --print` text
 * build the same network by construction, and the parser's checks
 * (names, groups, window fits, size limits) apply to both.
 *
 * The graph is walked in topological order (a min-heap on the node index,
 * so a sorted graph keeps its order; what is left over is a cycle).
 * Every tensor gets its full shape, the batch dimension included: data
 * tensors map to a layer of the description, constants (initializers,
 * Constant nodes, Shape and the arithmetic on it) are folded so that
 * Reshape targets and Clip bounds are known statically.
 *
 * This file holds the public entry points and the checks on the
 * ModelProto and its graph; onnx_ctx.h names the other stages. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "fileio.h"
#include "net.h"
#include "onnx_ctx.h"

/* A symbolic batch dimension is given this value while shapes are
 * inferred: a prime no real channel count or spatial size is, so a
 * reshape that folds the batch into another dimension is caught. */
#define SYM_BATCH 1009

/* ------------------------------------------------------------------ */
/* The graph                                                           */
/* ------------------------------------------------------------------ */

/* Whether every reader of name reads it as a weight (a filter, bias,
 * norm parameter, a product's constant side): a graph input so is a
 * weight that the export left out of the file (torch.onnx.export's
 * export_params=False), not data.  arith: whether it may be added,
 * subtracted, multiplied in or divided by, as a bias (C), a layer scale
 * (C x 1 x 1) or a normalization's mean (1 x 1 x 1 x C) is: of rank 1,
 * or 3 with a fixed first size that is not the batch (data is N x C x H
 * x W or N x F), or a per-channel vector after a data input (below).
 * *budget: nodes left to look at, over every call (an Identity's
 * readers are a scan each): spent, the rest are data. */
static int weight_only(const SeerOnnx__GraphProto *g, const char *name, int depth, int arith, long *budget)
{
    static const struct { const char *op; unsigned first; } weights[] = {
        {"Conv", 1}, {"ConvTranspose", 1}, {"BatchNormalization", 1}, {"LayerNormalization", 1},
        {"InstanceNormalization", 1}, {"GroupNormalization", 1}, {"Gemm", 1}, {"MatMul", 1}};
    int readers = 0;
    for (size_t i = 0; i < g->n_node; i++) {
        if (--*budget < 0) return 0;
        const SeerOnnx__NodeProto *n = g->node[i];
        for (size_t k = 0; k < n->n_input; k++) {
            if (!n->input[k] || strcmp(n->input[k], name)) continue;
            if (!n->op_type) return 0; /* define_tensors names it */
            /* an Identity of it (an exporter shares equal weights so) */
            if (!strcmp(n->op_type, "Identity") && n->n_output == 1 && n->output[0] && depth < 4 &&
                weight_only(g, n->output[0], depth + 1, arith, budget)) {
                readers++;
                continue;
            }
            if (arith && n->n_input == 2 &&
                (!strcmp(n->op_type, "Add") || !strcmp(n->op_type, "Mul") || !strcmp(n->op_type, "Sub") ||
                 (!strcmp(n->op_type, "Div") && k == 1))) {
                readers++;
                continue;
            }
            size_t w = 0;
            while (w < sizeof weights / sizeof weights[0] && strcmp(n->op_type, weights[w].op)) w++;
            if (w == sizeof weights / sizeof weights[0] || k < weights[w].first ||
                (!strcmp(n->op_type, "MatMul") && k != 1))
                return 0;
            readers++;
        }
    }
    return readers > 0;
}

/* Whether a graph input's shape is fixed, of rank 2 to 4, with at most
 * one size over 1, and a first size that cannot be the batch of data
 * whose first size is batch (0: symbolic): a per-channel vector (a Keras
 * Normalization layer's mean, 1 x 1 x 1 x C, which tf2onnx may list as a
 * graph input beside a symbolic batch), not a second data input. */
static int per_channel(const SeerOnnx__TensorShapeProto *sh, int64_t batch)
{
    int over = 0;
    if (sh->n_dim < 2 || sh->n_dim > 4) return 0;
    for (size_t k = 0; k < sh->n_dim; k++) {
        const SeerOnnx__TensorShapeProto__Dimension *dm = sh->dim[k];
        if (dm->value_case != SEER_ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE || dm->dim_value < 1) return 0;
        over += dm->dim_value > 1;
    }
    return over <= 1 && sh->dim[0]->dim_value != batch;
}

/* The first size of a graph input's shape; 0 when symbolic or unknown. */
static int64_t first_size(const SeerOnnx__ValueInfoProto *vi)
{
    const SeerOnnx__TypeProto *tp = vi->type;
    if (!tp || tp->value_case != SEER_ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE || !tp->tensor_type->shape ||
        !tp->tensor_type->shape->n_dim)
        return 0;
    const SeerOnnx__TensorShapeProto__Dimension *d0 = tp->tensor_type->shape->dim[0];
    return d0->value_case == SEER_ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE ? d0->dim_value : 0;
}

/* Whether name is a constant beside data whose first size is batch: an
 * initializer (registered by now), a graph input of a per-channel shape
 * (above) or a Constant node's output. */
static int constant_name(cx_t *cx, const char *name, int64_t batch, long *budget)
{
    if (seer_onnx_find_tensor(cx, name) >= 0) return 1;
    for (size_t i = 0; i < cx->g->n_input; i++) {
        const SeerOnnx__ValueInfoProto *vi = cx->g->input[i];
        if (vi->name && !strcmp(vi->name, name))
            return vi->type && vi->type->value_case == SEER_ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE &&
                   vi->type->tensor_type->shape && per_channel(vi->type->tensor_type->shape, batch);
    }
    for (size_t i = 0; i < cx->g->n_node && --*budget > 0; i++) {
        const SeerOnnx__NodeProto *n = cx->g->node[i];
        if (n->op_type && !strcmp(n->op_type, "Constant") && n->n_output == 1 && n->output[0] &&
            !strcmp(n->output[0], name))
            return 1;
    }
    return 0;
}

/* Whether graph input name is channels last (N x H x W x C, as tf2onnx
 * writes a TensorFlow model's): read, and only by Transposes to N x C x H
 * x W, or through element-wise arithmetic with constants on its way to
 * them (Keras's Rescaling and Normalization layers, which the
 * applications of keras.applications carry inside the model). */
static int channels_last_input(cx_t *cx, const char *name, int64_t batch, int depth, long *budget)
{
    static const int64_t to_first[4] = {0, 3, 1, 2};
    static const char *const arith[] = {"Add", "Sub", "Mul", "Div"};
    const SeerOnnx__GraphProto *g = cx->g;
    int readers = 0;
    for (size_t i = 0; i < g->n_node && --*budget > 0; i++) {
        const SeerOnnx__NodeProto *n = g->node[i];
        for (size_t k = 0; k < n->n_input; k++) {
            if (!n->input[k] || strcmp(n->input[k], name)) continue;
            int64_t perm[4];
            size_t a = 0;
            while (a < sizeof arith / sizeof arith[0] && (!n->op_type || strcmp(n->op_type, arith[a]))) a++;
            /* (data divided by a constant, not a constant by data) */
            if (a < sizeof arith / sizeof arith[0] && depth < 8 && n->n_input == 2 && n->n_output == 1 &&
                (a != 3 || k == 0) && n->output[0] && n->input[1 - k] &&
                constant_name(cx, n->input[1 - k], batch, budget) &&
                channels_last_input(cx, n->output[0], batch, depth + 1, budget)) {
                readers++;
                continue;
            }
            if (!n->op_type || strcmp(n->op_type, "Transpose") || seer_onnx_attr_ints(n, "perm", perm, 4) != 4 ||
                memcmp(perm, to_first, sizeof perm))
                return 0;
            readers++;
        }
    }
    return readers > 0 && *budget > 0;
}

/* Whether a node reads name, or the graph outputs it. */
static int read_by_node(const SeerOnnx__GraphProto *g, const char *name, long *budget)
{
    for (size_t i = 0; i < g->n_output; i++)
        if (g->output[i]->name && !strcmp(g->output[i]->name, name)) return 1;
    for (size_t i = 0; i < g->n_node && --*budget > 0; i++)
        for (size_t k = 0; k < g->node[i]->n_input; k++)
            if (g->node[i]->input[k] && !strcmp(g->node[i]->input[k], name)) return 1;
    return *budget <= 0;
}

/* Graph inputs that are not initializers become `input` layers; those
 * only read as weights are weights of the dims they declare. */
static seer_status_t graph_inputs(cx_t *cx)
{
    static const SeerOnnx__NodeProto none = SEER_ONNX__NODE_PROTO__INIT;
    char b[72];
    int n_data = 0;
    /* each weight test scans the graph: 2e7 node visits in all (about
     * 0.1 s; a weight-free ResNet-50 takes 2e5), so that no file is
     * quadratic in time */
    long budget = 20000000;
    for (size_t i = 0; i < cx->g->n_input; i++) {
        const SeerOnnx__ValueInfoProto *vi = cx->g->input[i];
        if (!vi->name || !vi->name[0]) return seer_error(cx->h, SEER_STATUS_ONNX_CORRUPT, "graph input %zu has no name", i);
        if (seer_onnx_find_tensor(cx, vi->name) >= 0) continue; /* an initializer listed as input */
        const char *nm = seer_onnx_show(vi->name, b, sizeof b);
        if (!read_by_node(cx->g, vi->name, &budget)) {
            /* tf2onnx lists a Keras Normalization layer's folded mean and
             * variance so (EfficientNet's): nothing to predict */
            seer_onnx_emit(cx, "# graph input '%s' is read by no node: left out\n", nm);
            continue;
        }
        const SeerOnnx__TypeProto *tp = vi->type;
        if (!tp || tp->value_case != SEER_ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE || !tp->tensor_type->shape)
            return seer_error(cx->h, SEER_STATUS_NET_SHAPE, "graph input '%s' is not a tensor of known rank", nm);
        const SeerOnnx__TensorShapeProto *sh = tp->tensor_type->shape;
        const SeerOnnx__TensorShapeProto__Dimension *d0 = sh->n_dim ? sh->dim[0] : NULL;
        int lead = d0 && d0->value_case == SEER_ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE && d0->dim_value > 0;
        int arith = sh->n_dim == 1 || (sh->n_dim == 3 && lead && (n_data == 0 || d0->dim_value != cx->batch)) ||
                    (n_data && per_channel(sh, cx->batch_static ? cx->batch : 0));
        if (weight_only(cx->g, vi->name, 0, arith, &budget)) {
            int64_t d[SEER_ONNX_MAX_RANK];
            if (sh->n_dim > SEER_ONNX_MAX_RANK)
                return seer_error(cx->h, SEER_STATUS_NET_SHAPE, "weight '%s' has rank %zu (at most %d)", nm, sh->n_dim,
                                  SEER_ONNX_MAX_RANK);
            for (size_t k = 0; k < sh->n_dim; k++) {
                const SeerOnnx__TensorShapeProto__Dimension *dm = sh->dim[k];
                if (dm->value_case != SEER_ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE || dm->dim_value < 1)
                    return seer_error(cx->h, SEER_STATUS_NET_SHAPE, "weight '%s' (a graph input read only as a "
                                      "weight): dimension %zu is symbolic or unknown", nm, k);
                d[k] = dm->dim_value;
            }
            int ti = seer_onnx_add_tensor(cx, vi->name, -1);
            if (ti < 0) return seer_error(cx->h, SEER_STATUS_ONNX_CORRUPT, "graph input '%s' is listed twice", nm);
            cx->t[ti].is_const = 1; /* its dims only, as an initializer without data */
            seer_status_t st = seer_onnx_set_dims(cx, &none, &cx->t[ti], (int)sh->n_dim, d);
            if (st) return st;
            continue;
        }
        if (sh->n_dim < 2 || sh->n_dim > 4)
            return seer_error(cx->h, SEER_STATUS_NET_SHAPE, "graph input '%s' has rank %zu (N x C x H x W or N x "
                              "features expected)", nm, sh->n_dim);
        int64_t d[4];
        /* the spatial axes: 2 and 3, or 1 and 2 of a channels-last input */
        int last = sh->n_dim == 4 && channels_last_input(cx, vi->name, first_size(vi), 0, &budget), hw0 = last ? 1 : 2;
        for (size_t k = 0; k < sh->n_dim; k++) {
            const SeerOnnx__TensorShapeProto__Dimension *dm = sh->dim[k];
            int fixed = dm->value_case == SEER_ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE && dm->dim_value > 0;
            int spatial = sh->n_dim == 4 && (int)k >= hw0 && (int)k < hw0 + 2;
            d[k] = fixed ? dm->dim_value : 0;
            if (spatial && cx->opt.resolution > 0) {
                if (n_data == 0 && fixed) cx->export_hw[k - (size_t)hw0] = dm->dim_value;
                d[k] = cx->opt.resolution;
            }
            if (k == 0) {
                if (n_data == 0) {
                    cx->batch_static = fixed;
                    cx->batch = fixed ? dm->dim_value : SYM_BATCH;
                    if (fixed && dm->dim_value > SEER_NET_MAX_DIM)
                        return seer_error(cx->h, SEER_STATUS_OVERFLOW, "graph input '%s': batch %lld over 2^24", nm,
                                          (long long)dm->dim_value);
                }
                if (fixed != cx->batch_static || (fixed && dm->dim_value != cx->batch))
                    return seer_error(cx->h, SEER_STATUS_NET_SHAPE, "graph inputs disagree on the batch size");
                d[0] = cx->batch;
            } else if (!d[k]) {
                return seer_error(cx->h, SEER_STATUS_NET_SHAPE, "graph input '%s': dimension %zu is symbolic or "
                                  "unknown%s", nm, k, spatial ? " (give a resolution: --res)" : "");
            }
        }
        int ti = seer_onnx_add_tensor(cx, vi->name, -1);
        if (ti < 0) return seer_error(cx->h, SEER_STATUS_ONNX_CORRUPT, "graph input '%s' is listed twice", nm);
        tensor_t *t = &cx->t[ti];
        seer_status_t st = seer_onnx_set_dims(cx, &none, t, (int)sh->n_dim, d);
        if (st) return st;
        t->nhwc = last;
        int li = seer_onnx_new_layer(cx, vi->name, t);
        if (li < 0) return seer_error(cx->h, SEER_STATUS_ALLOC_FAILED, "out of memory");
        const layer_t *l = &cx->L[li];
        seer_onnx_emit(cx, "input name=%s c=%lld h=%lld w=%lld\n", l->name, (long long)l->c, (long long)l->h, (long long)l->w);
        /* a model exported in half precision (model.half()) runs in it:
         * seer net and seer.net() take it as their default dtype */
        int et = tp->tensor_type->has_elem_type ? tp->tensor_type->elem_type : 0;
        if (!n_data && (et == SEER_ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT16 ||
                        et == SEER_ONNX__TENSOR_PROTO__DATA_TYPE__BFLOAT16))
            seer_onnx_emit(cx, "# input dtype: %s\n", et == SEER_ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT16 ? "fp16" : "bf16");
        n_data++;
    }
    if (!n_data) return seer_error(cx->h, SEER_STATUS_NET_INPUT, "the graph has no data input (a graph input that is not an initializer and that a node or graph output reads)");
    return SEER_STATUS_SUCCESS;
}

/* Topological order: a min-heap on node index, fed as inputs become
 * available, so a sorted graph keeps its order.  Nodes never reached lie
 * on a cycle. */
static seer_status_t topo_order(cx_t *cx, int *order)
{
    size_t nn = cx->g->n_node;
    int *pending = calloc(nn ? nn : 1, sizeof *pending), *heap = malloc((nn ? nn : 1) * sizeof *heap);
    int *first = malloc((cx->nt ? cx->nt : 1) * sizeof *first), *next = NULL, *who = NULL;
    size_t edges = 0;
    for (size_t i = 0; i < nn; i++) edges += cx->g->node[i]->n_input;
    next = malloc((edges ? edges : 1) * sizeof *next);
    who = malloc((edges ? edges : 1) * sizeof *who);
    seer_status_t st = SEER_STATUS_SUCCESS;
    if (!pending || !heap || !first || !next || !who) {
        st = seer_error(cx->h, SEER_STATUS_ALLOC_FAILED, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < cx->nt; i++) first[i] = -1;
    size_t e = 0;
    for (size_t i = 0; i < nn; i++) {
        const SeerOnnx__NodeProto *n = cx->g->node[i];
        for (size_t k = 0; k < n->n_input; k++) {
            if (!n->input[k][0]) continue;
            int t = seer_onnx_find_tensor(cx, n->input[k]);
            if (cx->t[t].producer < 0) continue;
            if (cx->t[t].producer == (int)i) {
                char b1[72], b2[72];
                st = seer_error(cx->h, SEER_STATUS_NET_INPUT, "node '%s' reads its own output '%s': a cycle",
                                seer_onnx_show(seer_onnx_label(n), b1, sizeof b1), seer_onnx_show(n->input[k], b2, sizeof b2));
                goto out;
            }
            pending[i]++;
            who[e] = (int)i;
            next[e] = first[t];
            first[t] = (int)e++;
        }
    }
    size_t nh = 0, done = 0;
#define HEAP_UP(x) do { size_t j_ = nh++; heap[j_] = (x); \
        while (j_ && heap[(j_ - 1) / 2] > heap[j_]) { int t_ = heap[j_]; heap[j_] = heap[(j_ - 1) / 2]; \
            heap[(j_ - 1) / 2] = t_; j_ = (j_ - 1) / 2; } } while (0)
    for (size_t i = 0; i < nn; i++) if (!pending[i]) HEAP_UP((int)i);
    while (nh) {
        int v = heap[0];
        heap[0] = heap[--nh];
        for (size_t j = 0;;) {
            size_t l = 2 * j + 1, r = l + 1, m = j;
            if (l < nh && heap[l] < heap[m]) m = l;
            if (r < nh && heap[r] < heap[m]) m = r;
            if (m == j) break;
            int t = heap[j]; heap[j] = heap[m]; heap[m] = t;
            j = m;
        }
        order[done++] = v;
        const SeerOnnx__NodeProto *n = cx->g->node[v];
        for (size_t k = 0; k < n->n_output; k++) {
            if (!n->output[k][0]) continue;
            int t = seer_onnx_find_tensor(cx, n->output[k]);
            for (int ed = first[t]; ed >= 0; ed = next[ed])
                if (!--pending[who[ed]]) HEAP_UP(who[ed]);
            first[t] = -1; /* an output listed twice releases its readers once */
        }
    }
#undef HEAP_UP
    if (done < nn) {
        size_t i = 0;
        while (!pending[i]) i++;
        char b1[72], b2[72];
        st = seer_error(cx->h, SEER_STATUS_NET_INPUT, "the graph has a cycle: %zu nodes wait on each other, among "
                        "them '%s' (%s)", nn - done, seer_onnx_show(seer_onnx_label(cx->g->node[i]), b1, sizeof b1),
                        seer_onnx_show(cx->g->node[i]->op_type, b2, sizeof b2));
    }
out:
    free(pending); free(heap); free(first); free(next); free(who);
    return st;
}


/* The ModelProto itself: a graph, a default-domain opset this reader
 * knows the semantics of, and no more nodes than any description that
 * parses could hold. */
static seer_status_t check_model(cx_t *cx, const SeerOnnx__ModelProto *m)
{
    if (!m->graph) return seer_error(cx->h, SEER_STATUS_ONNX_CORRUPT, "the model has no graph");
    cx->g = m->graph;
    cx->n_nodes = m->graph->n_node > INT32_MAX ? INT32_MAX : (int)m->graph->n_node;
    cx->opset = -1;
    /* the version as declared, so that a message shows what the file says
     * (a negative or huge one is no opset of ONNX's, not a missing one) */
    const SeerOnnx__OperatorSetIdProto *dflt = NULL;
    for (size_t i = 0; i < m->n_opset_import; i++) {
        const SeerOnnx__OperatorSetIdProto *o = m->opset_import[i];
        if (!o->domain || !o->domain[0] || !strcmp(o->domain, "ai.onnx")) dflt = o;
    }
    if (!dflt) return seer_error(cx->h, SEER_STATUS_ONNX_OPSET, "the model declares no opset of the default domain");
    if (!dflt->has_version)
        return seer_error(cx->h, SEER_STATUS_ONNX_OPSET, "the model's default-domain opset has no version");
    if (dflt->version < 0)
        return seer_error(cx->h, SEER_STATUS_ONNX_OPSET, "default-domain opset version %lld is invalid (negative)",
                          (long long)dflt->version);
    if (dflt->version < SEER_ONNX_MIN_OPSET || dflt->version > SEER_ONNX_MAX_OPSET)
        return seer_error(cx->h, SEER_STATUS_ONNX_OPSET, "default-domain opset %lld (libseer reads opsets %d to %d)",
                          (long long)dflt->version, SEER_ONNX_MIN_OPSET, SEER_ONNX_MAX_OPSET);
    cx->opset = (int)dflt->version;
    if (cx->g->n_node > 4 * (size_t)SEER_NET_MAX_LAYERS)
        return seer_error(cx->h, SEER_STATUS_OVERFLOW, "the graph has %zu nodes (at most %d)", cx->g->n_node,
                          4 * SEER_NET_MAX_LAYERS);
    return SEER_STATUS_SUCCESS;
}

/* The context's tables, sized for every name the graph can define, and
 * the topological order. */
static seer_status_t alloc_tables(cx_t *cx, int **order)
{
    const SeerOnnx__GraphProto *g = cx->g;
    size_t cap = g->n_initializer + g->n_input + 1;
    for (size_t i = 0; i < g->n_node; i++) cap += g->node[i]->n_output;
    seer_status_t st = seer_onnx_cx_tables(cx, cap, g->n_node);
    if (st) return st;
    if (!(*order = malloc((g->n_node ? g->n_node : 1) * sizeof **order)))
        return seer_error(cx->h, SEER_STATUS_ALLOC_FAILED, "out of memory");
    return SEER_STATUS_SUCCESS;
}

/* The description's first lines: where it came from, the network name. */
static void emit_header(cx_t *cx, const SeerOnnx__ModelProto *m)
{
    char b1[72], b2[72], nm[48];
    seer_onnx_emit(cx, "# translated from ONNX by libseer: producer '%s %s', opset %d\n",
                   seer_onnx_show(m->producer_name, b1, sizeof b1), seer_onnx_show(m->producer_version, b2, sizeof b2),
                   cx->opset);
    size_t k = 0;
    for (const char *s = cx->g->name ? cx->g->name : ""; s[k] && k < 47; k++)
        nm[k] = seer_onnx_valid_name_char(s[k]) ? s[k] : '_';
    nm[k] = 0;
    seer_onnx_emit(cx, "network name=%s\n", k ? nm : "onnx");
}

/* Every name the graph defines, in the order ONNX scopes them
 * (initializers, graph inputs, node outputs), each once; then every node
 * input resolved and counted, so that fusions can ask "only reader?". */
static seer_status_t define_tensors(cx_t *cx)
{
    const SeerOnnx__GraphProto *g = cx->g;
    char b[72];
    seer_status_t st;
    for (size_t i = 0; i < g->n_initializer; i++) {
        const SeerOnnx__TensorProto *tp = g->initializer[i];
        if (!tp->name || !tp->name[0]) return seer_error(cx->h, SEER_STATUS_ONNX_CORRUPT, "initializer %zu has no name", i);
        int ti = seer_onnx_add_tensor(cx, tp->name, -1);
        if (ti < 0)
            return seer_error(cx->h, SEER_STATUS_ONNX_CORRUPT, "initializer '%s' is defined twice",
                              seer_onnx_show(tp->name, b, sizeof b));
        if ((st = seer_onnx_load_tensor(cx, NULL, tp, &cx->t[ti]))) return st;
    }
    if ((st = graph_inputs(cx))) return st;
    for (size_t i = 0; i < g->n_node; i++) {
        const SeerOnnx__NodeProto *n = g->node[i];
        if (!n->op_type) return seer_error(cx->h, SEER_STATUS_ONNX_CORRUPT, "node %zu has no op_type", i);
        for (size_t k = 0; k < n->n_output; k++)
            if (n->output[k][0] && seer_onnx_add_tensor(cx, n->output[k], (int)i) < 0)
                return seer_onnx_nerr(cx, n, SEER_STATUS_ONNX_CORRUPT, "output '%s' is defined twice (the graph is "
                                      "not in SSA form)", seer_onnx_show(n->output[k], b, sizeof b));
    }
    for (size_t i = 0; i < g->n_node; i++) {
        const SeerOnnx__NodeProto *n = g->node[i];
        for (size_t k = 0; k < n->n_input; k++) {
            if (!n->input[k][0]) continue;
            int t = seer_onnx_find_tensor(cx, n->input[k]);
            if (t < 0)
                return seer_onnx_nerr(cx, n, SEER_STATUS_NET_INPUT, "input '%s' is not defined by any node, "
                                      "initializer or graph input", seer_onnx_show(n->input[k], b, sizeof b));
            cx->t[t].readers++;
        }
    }
    /* an output nothing computes: the graph is not the model its file says
     * (a node dropped by an edit), so its prediction would be of another */
    for (size_t i = 0; i < g->n_output; i++) {
        const char *nm = g->output[i]->name;
        if (!nm || !nm[0]) return seer_error(cx->h, SEER_STATUS_ONNX_CORRUPT, "graph output %zu has no name", i);
        if (seer_onnx_find_tensor(cx, nm) < 0)
            return seer_error(cx->h, SEER_STATUS_NET_INPUT, "graph output '%s' is not produced by any node, "
                              "initializer or graph input", seer_onnx_show(nm, b, sizeof b));
    }
    return SEER_STATUS_SUCCESS;
}

/* Every node in topological order.  Unsupported nodes are recorded and
 * translation goes on, so that the error lists them all. */
static seer_status_t emit_nodes(cx_t *cx, const int *order)
{
    seer_status_t st;
    for (size_t i = 0; i < cx->g->n_node; i++) {
        if ((st = seer_onnx_emit_node(cx, order[i]))) {
            /* a failure after an unsupported node: the unsupported list
             * first, it is the likely cause */
            if (cx->n_unsup && !cx->opt.skip_unsupported) {
                char why[400];
                seer_strlcpy(why, seer_get_last_error(cx->h), sizeof why);
                st = seer_onnx_unsupported_error(cx, why);
            }
            return st;
        }
        if (cx->oom) return seer_error(cx->h, SEER_STATUS_ALLOC_FAILED, "out of memory");
    }
    if (cx->n_unsup && !cx->opt.skip_unsupported) return seer_onnx_unsupported_error(cx, NULL);
    if (cx->oom) return seer_error(cx->h, SEER_STATUS_ALLOC_FAILED, "out of memory");
    return SEER_STATUS_SUCCESS;
}

/* The pipeline: unpack, check the model, define the tensors, order the
 * nodes, translate them. */
static seer_status_t translate(cx_t *cx, const void *bytes, size_t len)
{
    if (len > SEER_ONNX_MAX_BYTES)
        return seer_error(cx->h, SEER_STATUS_OVERFLOW, "ONNX input of %zu bytes (at most %zu)", len,
                          (size_t)SEER_ONNX_MAX_BYTES);
    SeerOnnx__ModelProto *m = seer_onnx__model_proto__unpack(NULL, len, bytes);
    if (!m) return seer_error(cx->h, SEER_STATUS_ONNX_CORRUPT, "not an ONNX ModelProto: the protobuf is truncated or "
                              "corrupt (%zu bytes)", len);
    int *order = NULL;
    seer_status_t st = check_model(cx, m);
    if (!st) st = alloc_tables(cx, &order);
    if (!st) {
        emit_header(cx, m);
        st = define_tensors(cx);
    }
    if (!st) st = topo_order(cx, order);
    if (!st) st = emit_nodes(cx, order);
    free(order);
    seer_onnx__model_proto__free_unpacked(m, NULL);
    return st;
}


seer_status_t seer_onnx_translate(seer_handle_t h, const void *bytes, size_t len, const seer_onnx_options_t *opt,
                                  char **text, size_t *text_len, seer_onnx_info_t *info)
{
    if (!text || !text_len || (!bytes && len)) return seer_error(h, SEER_STATUS_BAD_PARAM, "NULL argument");
    if (opt && (opt->resolution < 0 || opt->resolution > SEER_NET_MAX_DIM || (unsigned)opt->skip_unsupported > 1))
        return seer_error(h, SEER_STATUS_BAD_PARAM, "options: resolution outside 0..2^24 or skip_unsupported not 0/1");
    cx_t cx;
    seer_onnx_cx_init(&cx, h, opt);
    seer_status_t st = translate(&cx, bytes ? bytes : "", len);
    if (!st) {
        *text = cx.out;
        *text_len = cx.olen;
        if (info) {
            info->batch = cx.batch_static ? (int)cx.batch : 0;
            info->opset = cx.opset;
            info->n_nodes = cx.n_nodes;
            info->n_skipped = cx.n_skipped;
        }
        cx.out = NULL;
    }
    seer_onnx_cx_free(&cx);
    return st;
}

/* ------------------------------------------------------------------ */
/* Public functions                                                    */
/* ------------------------------------------------------------------ */

seer_status_t seer_onnx_text(seer_handle_t h, const void *bytes, size_t len, const seer_onnx_options_t *options,
                             char *buf, size_t size, size_t *length, seer_onnx_info_t *info)
{
    if (!length || (!buf && size)) return seer_error(h, SEER_STATUS_BAD_PARAM, "NULL length or buffer");
    char *text;
    size_t n;
    seer_onnx_info_t inf;
    seer_status_t st = seer_onnx_translate(h, bytes, len, options, &text, &n, &inf);
    if (st) return st;
    *length = n;
    if (info) *info = inf;
    if (n + 1 > size) {
        free(text);
        return seer_error(h, SEER_STATUS_BUFFER_TOO_SMALL, "the description needs %zu bytes", n + 1);
    }
    memcpy(buf, text, n + 1);
    free(text);
    return SEER_STATUS_SUCCESS;
}

seer_status_t seer_network_create_onnx_ex(seer_handle_t h, const void *bytes, size_t len,
                                          const seer_onnx_options_t *options, seer_network_t *net)
{
    if (!net) return seer_error(h, SEER_STATUS_BAD_PARAM, "NULL net");
    char *text;
    size_t n;
    seer_status_t st = seer_onnx_translate(h, bytes, len, options, &text, &n, NULL);
    if (st) return st;
    st = seer_network_create(h, text, n, net);
    free(text);
    return st;
}

seer_status_t seer_network_create_onnx(seer_handle_t h, const void *bytes, size_t len, seer_network_t *net)
{
    return seer_network_create_onnx_ex(h, bytes, len, NULL, net);
}

seer_status_t seer_network_create_onnx_file(seer_handle_t h, const char *path, const seer_onnx_options_t *options,
                                            seer_network_t *net)
{
    if (!path || !net) return seer_error(h, SEER_STATUS_BAD_PARAM, "NULL path or net");
    char *buf = NULL;
    size_t n = 0;
    seer_status_t st = seer_read_file(h, path, "ONNX model", SEER_ONNX_MAX_BYTES, NULL, 0, &buf, &n);
    if (!st) st = seer_network_create_onnx_ex(h, buf, n, options, net);
    free(buf);
    return st;
}

/* Networks: peak GPU memory of one iteration (docs/networks.md, "Memory")
 * and the largest batch that fits a memory size.
 *
 * Memory is counted the way PyTorch holds it: fp32 parameters (plus an
 * fp16 copy under AMP), fp32 gradients and optimizer state in training,
 * the tensors autograd saves for the backward pass (training) or the
 * largest set of tensors alive at once (inference), and the largest cuDNN
 * workspace of the algorithms the time prediction picks.  Every tensor is
 * its own caching-allocator block, rounded up to SEER_NET_ALLOC_ROUND.
 * Counts are int64 with checked arithmetic: a network whose bytes would
 * pass 2^63 - 1 fails with OVERFLOW naming the layer, never wraps. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "conv.h"
#include "launch.h"
#include "model.h"
#include "net.h"
#include "picker.h"

/* Bytes of the per-channel statistics cuDNN's training batch norm saves
 * (mean and inverse standard deviation, fp32) and of PyTorch's dropout
 * mask (bool); max pooling's indices: SEER_NET_POOL_INDEX_BYTES (net.h). */
#define BN_SAVED_BYTES_PER_CHANNEL 8
#define LN_SAVED_BYTES_PER_POSITION 8
#define DROPOUT_MASK_BYTES 1

typedef struct {
    seer_handle_t h;
    const seer_network *net;
    int64_t batch;
    int es;                     /* bytes per activation element */
    int amp;                    /* autocast: layer norm saves an fp32 copy of its input */
    int train;
    int64_t sum;                /* exact bytes of the part being counted */
    int64_t blocks;             /* the same tensors, each rounded to an allocator block */
    int layer;                  /* the layer being counted, for the overflow message */
} acc_t;

static int64_t block_of(int64_t bytes)
{
    return (bytes + SEER_NET_ALLOC_ROUND - 1) / SEER_NET_ALLOC_ROUND * SEER_NET_ALLOC_ROUND;
}

/* Add `copies` tensors of elems elements of size bytes each to the part. */
static seer_status_t add_tensor(acc_t *a, int64_t elems, int64_t size, int64_t copies)
{
    int64_t b, r;
    if (!seer_mul_ok(elems, size, &b) || b > INT64_MAX - SEER_NET_ALLOC_ROUND ||
        !seer_mul_ok(b, copies, &b) || !seer_mul_ok(block_of(elems * size), copies, &r) ||
        !seer_add_ok(a->sum, b, &a->sum) || !seer_add_ok(a->blocks, r, &a->blocks)) {
        const seer_layer_info_t *L = &a->net->l[a->layer].info;
        return seer_error(a->h, SEER_STATUS_OVERFLOW, "layer '%s' (line %d) at batch %lld: memory over "
                          "2^63 - 1 bytes", L->name, L->line, (long long)a->batch);
    }
    return SEER_STATUS_SUCCESS;
}

/* The output tensor of layer i at the batch: elements. */
static int64_t out_elems(const acc_t *a, int i)
{
    const seer_layer_info_t *L = &a->net->l[i].info;
    return a->batch * ((int64_t)L->c * L->h * L->w); /* batch <= 2^24, c*h*w < 2^31 */
}

/* The layer whose storage layer i's output is: flatten is a view, and
 * inference's dropout hands its input back. */
static int storage_of(const acc_t *a, int i)
{
    for (;;) {
        const seer_layer_info_t *L = &a->net->l[i].info;
        if (L->op != SEER_OP_FLATTEN && !(L->op == SEER_OP_DROPOUT && !a->train)) return i;
        i = L->input0;
    }
}

/* The parameter tensors of each layer: conv / fc weight and bias, batch
 * norm scale and shift (running statistics are buffers, not counted). */
static seer_status_t add_params(acc_t *a, int64_t size, int64_t copies, int conv_fc_only)
{
    for (int i = 0; i < a->net->n; i++) {
        const seer_layer_info_t *L = &a->net->l[i].info;
        if (L->params <= 0 || (conv_fc_only && !seer_op_is_conv(L->op) && L->op != SEER_OP_FC)) continue;
        a->layer = i;
        seer_status_t st;
        int64_t bias = (seer_op_is_conv(L->op) || L->op == SEER_OP_FC) && L->bias ? L->shape.k : 0;
        if (seer_op_is_norm(L->op)) st = add_tensor(a, L->params / 2, size, 2 * copies);
        else if ((st = add_tensor(a, L->params - bias, size, copies)) == SEER_STATUS_SUCCESS && bias)
            st = add_tensor(a, bias, size, copies);
        if (st) return st;
    }
    return SEER_STATUS_SUCCESS;
}

/* Which layer outputs autograd keeps for the backward pass (PyTorch's
 * derivatives): conv, deconv and fc their input (for the weight gradient), batch
 * norm its input, pooling its input, mul both inputs; relu, relu6, sigmoid,
 * tanh and elu their output, LRN both (cuDNN's LRN backward reads x and
 * y), the other activations their input; softmax with the loss its output.  add, concat and flatten keep nothing.
 * Input layers (the batch) live through the iteration. */
static void mark_saved(const acc_t *a, char *saved)
{
    const seer_network *net = a->net;
    for (int i = 0; i < net->n; i++) {
        const seer_net_layer_t *l = &net->l[i];
        const seer_layer_info_t *L = &l->info;
        switch (L->op) {
        case SEER_OP_INPUT:
        case SEER_OP_SOFTMAX: saved[storage_of(a, i)] = 1; break;
        case SEER_OP_LAYERNORM:
        case SEER_OP_GROUPNORM:
            if (L->op == SEER_OP_LAYERNORM && l->kind) break; /* unfused: its ops' tensors (train_activations) */
            if (a->amp && a->es < 4) break; /* its fp32 copy instead (train_activations) */
            saved[storage_of(a, L->input0)] = 1;
            break;
        case SEER_OP_CONV:
        case SEER_OP_DECONV:
        case SEER_OP_FC:
        case SEER_OP_BATCHNORM:
        case SEER_OP_POOL: saved[storage_of(a, L->input0)] = 1; break;
        case SEER_OP_MUL:
            for (int j = 0; j < L->n_inputs; j++) saved[storage_of(a, net->in_pool[l->in_off + j])] = 1;
            break;
        case SEER_OP_ACTIVATION:
            if (l->kind == SEER_ACT_SCALE) { /* dx = dy * the constant; a learnable one's gradient reads x */
                if (L->params > 0) saved[storage_of(a, L->input0)] = 1;
                break;
            }
        {
            int keeps_y = l->kind == SEER_ACT_RELU || l->kind == SEER_ACT_RELU6 || l->kind == SEER_ACT_SIGMOID ||
                          l->kind == SEER_ACT_TANH || l->kind == SEER_ACT_ELU;
            if (keeps_y || l->kind == SEER_ACT_LRN) saved[storage_of(a, i)] = 1;
            if (!keeps_y) saved[storage_of(a, L->input0)] = 1;
        }
            break;
        default: break;
        }
    }
}

/* Training: the saved tensors, the extras some layers save (batch-norm
 * statistics, max-pool indices, dropout masks), and the largest
 * input + output pair of one layer: what the forward pass writes, or the
 * backward pass's dy and dx, beside everything saved. */
static seer_status_t train_activations(acc_t *a, char *saved)
{
    const seer_network *net = a->net;
    seer_status_t st;
    mark_saved(a, saved);
    int64_t pair = 0, pair_blocks = 0;
    for (int i = 0; i < net->n; i++) {
        const seer_net_layer_t *l = &net->l[i];
        const seer_layer_info_t *L = &l->info;
        a->layer = i;
        st = SEER_STATUS_SUCCESS;
        if (saved[i] && (st = add_tensor(a, out_elems(a, i), a->es, 1))) return st;
        if (L->op == SEER_OP_BATCHNORM) st = add_tensor(a, L->c, BN_SAVED_BYTES_PER_CHANNEL, 1);
        else if (L->op == SEER_OP_LAYERNORM && l->kind) {
            /* unfused (net_predict.c): autograd keeps x - mean for the
             * square and the quotient, and the quotient for the weight's
             * product, fp32 under autocast, whose pow runs in fp32 */
            st = add_tensor(a, out_elems(a, L->input0), a->es, 1);
            if (!st) st = add_tensor(a, out_elems(a, L->input0), a->amp && a->es < 4 ? 4 : a->es, 1);
        } else if (L->op == SEER_OP_LAYERNORM || L->op == SEER_OP_GROUPNORM) {
            /* fp32 mean and 1 / std per position (a layer norm's) or per
             * sample and group */
            int64_t stats = L->op == SEER_OP_LAYERNORM ? out_elems(a, i) / L->c : a->batch * L->shape.groups;
            st = add_tensor(a, stats, LN_SAVED_BYTES_PER_POSITION, 1);
            /* under autocast it runs in fp32 and keeps the fp32 cast of its input */
            if (!st && a->amp && a->es < 4) st = add_tensor(a, out_elems(a, L->input0), 4, 1);
        }
        else if (L->op == SEER_OP_POOL && l->kind == SEER_POOL_MAX)
            st = add_tensor(a, out_elems(a, i), SEER_NET_POOL_INDEX_BYTES, 1);
        else if (L->op == SEER_OP_DROPOUT) st = add_tensor(a, out_elems(a, i), DROPOUT_MASK_BYTES, 1);
        if (st) return st;
        if (L->op == SEER_OP_INPUT || storage_of(a, i) != i) continue;
        /* both below 2^58: no overflow */
        int64_t x = out_elems(a, L->input0) * a->es, y = out_elems(a, i) * a->es;
        if (x + y > pair) { pair = x + y; pair_blocks = block_of(x) + block_of(y); }
    }
    if (!seer_add_ok(a->sum, pair, &a->sum) || !seer_add_ok(a->blocks, pair_blocks, &a->blocks))
        return add_tensor(a, INT64_MAX, 1, 1); /* reports the overflow */
    return SEER_STATUS_SUCCESS;
}

/* Inference: every layer writes a new tensor (views excepted), freed after
 * its last reader; the peak of the running sum in layer order.  The
 * network's outputs (read by nobody) live to the end. */
static seer_status_t infer_activations(acc_t *a, int *last, int *next_free)
{
    const seer_network *net = a->net;
    int *head = last + net->n; /* head[i]: first tensor freed after layer i; -1 none */
    for (int i = 0; i < net->n; i++) { last[i] = i; head[i] = -1; }
    for (int i = 0; i < net->n; i++) {
        const seer_net_layer_t *l = &net->l[i];
        if (storage_of(a, i) != i) continue;
        for (int j = 0; j < l->info.n_inputs; j++) {
            int s = storage_of(a, net->in_pool[l->in_off + j]);
            if (last[s] < i) last[s] = i;
        }
    }
    for (int i = 0; i < net->n; i++)
        if (!net->l[i].fanout) last[storage_of(a, i)] = net->n - 1;
    for (int i = 0; i < net->n; i++) {
        if (storage_of(a, i) != i) continue;
        next_free[i] = head[last[i]];
        head[last[i]] = i;
    }
    int64_t sum = 0, blocks = 0, peak = 0, peak_blocks = 0;
    for (int i = 0; i < net->n; i++) {
        if (storage_of(a, i) != i) continue;
        acc_t t = *a;
        t.layer = i;
        t.sum = sum;
        t.blocks = blocks;
        seer_status_t st = add_tensor(&t, out_elems(a, i), a->es, 1);
        if (st) return st;
        sum = t.sum;
        blocks = t.blocks;
        if (blocks > peak_blocks || (blocks == peak_blocks && sum > peak)) { peak = sum; peak_blocks = blocks; }
        for (int f = head[i]; f >= 0; f = next_free[f]) {
            sum -= out_elems(a, f) * a->es;
            blocks -= block_of(out_elems(a, f) * a->es);
        }
    }
    a->sum = peak;
    a->blocks = peak_blocks;
    return SEER_STATUS_SUCCESS;
}

/* The largest workspace of the conv rows' algorithms.  Rows timed from
 * cuDNN's heuristic family name no algorithm: none is counted for them. */
static seer_status_t max_workspace(seer_handle_t h, const seer_model *m, const seer_network *net,
                                   const seer_net_options_t *o, int64_t *ws)
{
    /* One prediction, not a count and then a fill: a layer gives at most a
     * cast, a forward row, a gradient sum, two backward rows and a cast
     * back (net_predict.c), and the optimizer one more. */
    seer_net_totals_t t;
    int cap = net->n <= (INT_MAX - 1) / 6 ? 6 * net->n + 1 : INT_MAX;
    seer_layer_result_t *r = malloc((size_t)cap * sizeof *r);
    if (!r) return seer_error(h, SEER_STATUS_ALLOC_FAILED, "network memory: %d result rows", cap);
    seer_status_t st = seer_predict_network_opts(h, m, net, o, r, cap, &t);
    if (st == SEER_STATUS_BUFFER_TOO_SMALL) { /* the bound above is wrong: count, then fill */
        seer_layer_result_t *big = realloc(r, (size_t)t.rows * sizeof *r);
        if (!big) {
            free(r);
            return seer_error(h, SEER_STATUS_ALLOC_FAILED, "network memory: %d result rows", t.rows);
        }
        r = big;
        st = seer_predict_network_opts(h, m, net, o, r, t.rows, &t);
    }
    *ws = 0;
    for (int i = 0; i < t.rows && !st; i++) {
        if (!seer_op_is_conv(r[i].op)) continue;
        const seer_layer_info_t *L = &net->l[r[i].layer].info;
        struct seer_conv cv;
        size_t bytes = 0;
        /* the prediction built the same descriptor: it cannot fail here;
         * a row of cuDNN's choice names no algorithm, so no workspace */
        seer_conv_shape_t shape = seer_net_conv_shape(L, o->batch);
        seer_direction_t dir = seer_net_conv_dir(r[i].op, r[i].direction);
        if (seer_conv_init(NULL, &cv, o->dtype, o->layout, &shape) ||
            (r[i].algo >= 0 && seer_workspace_bytes(NULL, &cv, dir, r[i].algo, &bytes)))
            continue;
        /* and the NHWC copies of an NCHW tensor-core conv (model.h) */
        double copies[3] = {0, 0, 0};
        cv.dtype = seer_conv_run_dtype(&m->gpu, cv.dtype, dir, r[i].algo);
        seer_conv_nchw_copies(&m->gpu, &cv, dir, r[i].algo, copies);
        double total = (double)bytes + (copies[0] + copies[1] + copies[2]) * seer_dtype_size(cv.dtype);
        if (total > (double)(INT64_MAX - SEER_NET_ALLOC_ROUND))
            st = seer_error(h, SEER_STATUS_OVERFLOW, "layer '%s' (line %d): workspace over 2^63 - 1 bytes",
                            L->name, L->line);
        else if ((int64_t)total > *ws) *ws = (int64_t)total;
    }
    free(r);
    return st;
}

static seer_status_t memory(seer_handle_t h, const seer_model *m, const seer_network *net,
                            const seer_net_options_t *o, seer_net_memory_t *out)
{
    /* The counts first: a network too large to count is OVERFLOW, not the
     * absurd time its prediction would give.  They need a batch and a
     * dtype in range; the prediction checks every option and says what
     * is wrong with them. */
    int64_t ws = 0;
    seer_status_t st;
    if (o->batch < 1 || o->batch > SEER_NET_MAX_DIM || (unsigned)o->dtype > SEER_DTYPE_FP16_PSEUDO)
        return (st = max_workspace(h, m, net, o, &ws))
                   ? st : seer_error(h, SEER_STATUS_INTERNAL, "network memory: options accepted twice");
    int *idx = malloc((size_t)net->n * 3 * sizeof *idx);
    if (!idx) return seer_error(h, SEER_STATUS_ALLOC_FAILED, "network memory: %d layers", net->n);
    acc_t a = {.h = h, .net = net, .batch = o->batch, .es = seer_dtype_size(o->dtype), .amp = o->amp,
               .train = o->mode == SEER_MODE_TRAIN};
    int half = o->dtype == SEER_DTYPE_FP16 || o->dtype == SEER_DTYPE_BF16;
    int words = !a.train ? 0 : o->optimizer == SEER_OPTIMIZER_ADAM ? 2 : o->optimizer == SEER_OPTIMIZER_SGD;
    int64_t part[5][2]; /* weights, gradients, optimizer, activations, workspace: exact, blocks */
    memset(part, 0, sizeof part);
    st = add_params(&a, 4, 1, 0);
    /* the fp16 / bf16 copy of the conv and fc weights beside the fp32
     * master (autocast casts those, not batch norm's; net_predict.c) */
    if (!st && half) st = add_params(&a, 2, 1, 1);
    part[0][0] = a.sum, part[0][1] = a.blocks;
    a.sum = a.blocks = 0;
    if (!st && a.train) st = add_params(&a, 4, 1, 0);
    part[1][0] = a.sum, part[1][1] = a.blocks;
    a.sum = a.blocks = 0;
    if (!st && words) st = add_params(&a, 4, words, 0);
    part[2][0] = a.sum, part[2][1] = a.blocks;
    a.sum = a.blocks = 0;
    if (!st) {
        memset(idx, 0, (size_t)net->n * sizeof *idx);
        if (!a.train) {
            st = infer_activations(&a, idx, idx + 2 * net->n);
        } else if (!(st = train_activations(&a, (char *)idx))) {
            /* never less than the forward pass's own live peak: the inputs
             * of a concat or add that nothing saves still coexist */
            acc_t fwd = a;
            fwd.sum = fwd.blocks = 0;
            st = infer_activations(&fwd, idx, idx + 2 * net->n);
            if (!st && fwd.blocks > a.blocks) { a.sum = fwd.sum; a.blocks = fwd.blocks; }
        }
    }
    part[3][0] = a.sum, part[3][1] = a.blocks;
    free(idx);
    if (!st) st = max_workspace(h, m, net, o, &ws);
    part[4][0] = ws, part[4][1] = block_of(ws);
    int64_t total = 0;
    for (int i = 0; i < 5 && !st; i++)
        if (!seer_add_ok(total, part[i][1], &total))
            st = seer_error(h, SEER_STATUS_OVERFLOW, "network '%s' at batch %d: memory over 2^63 - 1 bytes",
                            net->info.name, o->batch);
    if (st) return st;
    out->weights = (uint64_t)part[0][0];
    out->gradients = (uint64_t)part[1][0];
    out->optimizer_state = (uint64_t)part[2][0];
    out->activations = (uint64_t)part[3][0];
    out->workspace = (uint64_t)part[4][0];
    out->total = (uint64_t)total;
    return SEER_STATUS_SUCCESS;
}

seer_status_t seer_network_memory(seer_handle_t h, const seer_model *m, const seer_network *net,
                                  const seer_net_options_t *opts, seer_net_memory_t *out)
{
    if (!m || !net || !opts || !out)
        return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_network_memory: %s is NULL",
                          !m ? "model" : !net ? "net" : !opts ? "opts" : "out");
    return memory(h, m, net, opts, out);
}

/* Does batch b fit?  1 yes, 0 no (including a batch too large to
 * describe: OVERFLOW or BAD_SHAPE), -1 on another failure (*st, its
 * message on probe). */
static int fits(seer_handle_t probe, const seer_model *m, const seer_network *net, seer_net_options_t *o,
                int b, double limit, seer_status_t *st)
{
    seer_net_memory_t mem;
    o->batch = b;
    *st = memory(probe, m, net, o, &mem);
    if (*st == SEER_STATUS_OVERFLOW || *st == SEER_STATUS_BAD_SHAPE) return 0;
    if (*st) return -1;
    return (double)mem.total <= limit;
}

seer_status_t seer_network_fit_batch(seer_handle_t h, const seer_model *m, const seer_network *net,
                                     const seer_net_options_t *opts, double limit, int *batch)
{
    if (!m || !net || !opts || !batch)
        return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_network_fit_batch: %s is NULL",
                          !m ? "model" : !net ? "net" : !opts ? "opts" : "batch");
    if (!(limit > 0) || !isfinite(limit))
        return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_network_fit_batch: memory_bytes must be a "
                          "finite number > 0");
    seer_net_options_t o = *opts;
    o.batch = 1;
    seer_net_memory_t mem;
    seer_status_t st = memory(h, m, net, &o, &mem); /* batch 1 with messages */
    if (st) return st;
    if ((double)mem.total > limit) { *batch = 0; return SEER_STATUS_SUCCESS; }
    /* The probes fail into a handle of their own: a batch too large to
     * describe is an answer, not the caller's error, and another failure's
     * message reaches h once, without running that probe again. */
    seer_handle_t probe;
    if (seer_create(&probe))
        return seer_error(h, SEER_STATUS_ALLOC_FAILED, "seer_network_fit_batch: no memory for the search");
    /* memory grows with the batch: double until it does not fit, then
     * bisect; lo always fits, hi never does */
    int lo = 1, hi = 2, f = 1;
    while (hi <= SEER_NET_MAX_DIM && (f = fits(probe, m, net, &o, hi, limit, &st)) == 1) {
        lo = hi;
        hi *= 2;
    }
    if (hi <= SEER_NET_MAX_DIM && f < 0) goto fail;
    if (hi > SEER_NET_MAX_DIM) hi = SEER_NET_MAX_DIM + 1;
    while (hi - lo > 1) {
        int mid = lo + (hi - lo) / 2;
        if ((f = fits(probe, m, net, &o, mid, limit, &st)) < 0) goto fail;
        if (f) lo = mid;
        else hi = mid;
    }
    /* Everything but the workspace grows with the batch; the workspace is
     * the fastest algorithms', which can shrink when a larger batch picks
     * others.  So a batch above lo may still fit: look upward until the
     * growing part alone is over the limit (a few batches: the largest
     * workspace over the memory of one sample). */
    for (int b = lo + 1, steps = 0; b <= SEER_NET_MAX_DIM && steps < 1024; b++, steps++) {
        o.batch = b;
        st = memory(probe, m, net, &o, &mem);
        if (st == SEER_STATUS_OVERFLOW || st == SEER_STATUS_BAD_SHAPE) break;
        if (st) goto fail;
        if ((double)(mem.total - block_of((int64_t)mem.workspace)) > limit) break;
        if ((double)mem.total <= limit) lo = b;
    }
    seer_destroy(probe);
    *batch = lo;
    return SEER_STATUS_SUCCESS;
fail:
    st = seer_error(h, st, "%s", seer_get_last_error(probe));
    seer_destroy(probe);
    return st;
}

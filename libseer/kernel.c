/* One kernel launch a user describes (seer_predict_kernel): its grid,
 * block, registers, shared memory, FLOPs and DRAM bytes, timed with the
 * model's generic per-class formula (kcoef, fitted on every launch the
 * training rows ran: train.c, fit_generic_kernel).  No family, no peers:
 * a kernel of no convolution libseer knows. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "classify.h"
#include "common.h"
#include "gpu.h"
#include "model.h"

seer_status_t seer_predict_kernel(seer_handle_t h, const seer_model *m, const seer_kernel_desc_t *k,
                                  seer_kernel_pred_t *out)
{
    if (!m || !k || !out)
        return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_predict_kernel: NULL argument");
    if (!m->nfam) /* a GEMM-only model fitted no kernel formula (kcoef) */
        return seer_error(h, SEER_STATUS_NOT_CALIBRATED, "model %s has GEMM data only: no kernel formula "
                          "(open it from a models directory, where it is transferred)", m->gpu_id);
    /* CUDA's launch limits (gridDim, blockDim): what cannot launch has no time. */
    static const int grid_max[3] = {INT32_MAX, 65535, 65535}, block_max[3] = {1024, 1024, 64};
    int64_t blocks = 1;
    int threads = 1;
    for (int i = 0; i < 3; i++) {
        if (k->grid[i] < 1 || k->grid[i] > grid_max[i])
            return seer_error(h, SEER_STATUS_BAD_PARAM, "grid[%d] must be in [1, %d] (got %d)", i,
                              grid_max[i], k->grid[i]);
        if (k->block[i] < 1 || k->block[i] > block_max[i])
            return seer_error(h, SEER_STATUS_BAD_PARAM, "block[%d] must be in [1, %d] (got %d)", i,
                              block_max[i], k->block[i]);
        /* x <= 2^31-1 and y, z <= 65535 keep this under 2^63, but check anyway */
        if (!seer_mul_ok(blocks, k->grid[i], &blocks))
            return seer_error(h, SEER_STATUS_OVERFLOW, "grid has too many blocks");
        threads *= k->block[i];
    }
    seer_kernel_pred_t p, *pred = &p; /* *out is written on success only */
    if (!(k->flops >= 0) || !(k->dram_bytes >= 0) || !isfinite(k->flops) || !isfinite(k->dram_bytes))
        return seer_error(h, SEER_STATUS_BAD_PARAM, "flops and dram_bytes must be finite and >= 0");
    if ((unsigned)k->dtype > SEER_DTYPE_FP16_PSEUDO)
        return seer_error(h, SEER_STATUS_BAD_PARAM, "dtype %d out of range", (int)k->dtype);
    int bps;
    seer_status_t st = seer_occupancy(&m->gpu, threads, k->regs_per_thread, k->smem_bytes, &bps);
    if (st)
        return seer_error(h, st, "launch cannot run on %s: %d threads, %d registers, %d B shared",
                          m->gpu.id, threads, k->regs_per_thread, k->smem_bytes);
    double peak = seer_gpu_kernel_peak(&m->gpu, k->dtype);
    if (peak <= 0)
        return seer_error(h, SEER_STATUS_UNSUPPORTED, "%s cannot run %s math", m->gpu.id,
                          seer_dtype_name(k->dtype));
    double bw = seer_gpu_dram_bw(&m->gpu);
    memset(pred, 0, sizeof *pred);
    pred->role = SEER_ROLE_MAIN;
    snprintf(pred->name, sizeof pred->name, "kernel");
    memcpy(pred->grid, k->grid, sizeof pred->grid);
    memcpy(pred->block, k->block, sizeof pred->block);
    pred->regs_per_thread = k->regs_per_thread;
    pred->smem_bytes = k->smem_bytes;
    pred->flops = k->flops;
    pred->dram_bytes = k->dram_bytes;
    pred->blocks_per_sm = bps;
    pred->bmax = (long long)bps * m->gpu.sms;
    seer_waves(blocks, pred->bmax, &pred->waves, &pred->last_fill);
    double fpb = k->flops / (double)blocks, bpb = k->dram_bytes / (double)blocks;
    double x[SEER_NTERMS] = {
        [SEER_T_COMPUTE] = pred->waves * (double)pred->bmax * fpb / peak * 1e3,
        [SEER_T_WAVE] = pred->waves * 1e-3,
        [SEER_T_DRAM] = (pred->waves - 1 + pred->last_fill) * (double)pred->bmax * bpb / bw * 1e3,
        [SEER_T_CONST] = seer_gpu_launch_gap_ms(&m->gpu)};
    pred->cls = seer_class_static((double)blocks, (double)pred->bmax, k->flops / peak * 1e3, x[SEER_T_DRAM]);
    pred->source = m->transferred ? SEER_SOURCE_TRANSFERRED : SEER_SOURCE_CALIBRATED;
    double t = 0;
    for (int i = 0; i < SEER_NTERMS; i++) t += m->kcoef[pred->cls][i] * x[i];
    seer_err_t e;
    if (seer_check_time(&e, t > 1e-4 ? t : 1e-4, "kernel")) return seer_err_report(h, &e);
    pred->time_ms = t > 1e-4 ? t : 1e-4;
    *out = p;
    return SEER_STATUS_SUCCESS;
}

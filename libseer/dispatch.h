/* Host dispatch in published timings, and the GPU-time targets that
 * remain when it is taken off (docs/method.md, "GPU time").
 *
 * A time measured with CUDA events around one call on an otherwise idle
 * GPU (NeuSight's harness) is the host's dispatch of that call plus the
 * GPU's work: the start event fires at once, then the GPU waits for the
 * framework to launch the kernels.  In NeuSight's files that host part
 * is 0.02-0.07 ms at the start and grows along the row order (the order
 * of measurement) by up to 0.4 ms, and each kind of call has its own
 * (nn.Linear about 0.02 ms more than bmm): the callers fit the rows of
 * each kind apart, and a kind of too few rows takes the whole file's.  libseer predicts GPU time, so
 * training subtracts an estimate of it, and `seer eval` adds it back to
 * score against the published times.
 *
 * The estimate is model-independent: every row gives an upper bound on
 * its own host time, measured - (a lower bound of its GPU time from the
 * datasheet: its FLOPs at peak or its bytes at bandwidth, plus a launch
 * gap per kernel).  The smallest of those bounds in each window of rows
 * (the file's fastest calls, whose GPU time is a few microseconds) trace
 * the host time along the file; a quadratic through them, fitted from
 * their median without the windows far from it (above: windows without
 * a small call; below: broken rows), is the estimate.  The scatter of the window minima about it is its
 * uncertainty. */
#ifndef SEER_DISPATCH_H
#define SEER_DISPATCH_H
#include "seer.h"

/* SEER_DISPATCH_MIN_ROWS, SEER_DISPATCH_WINDOWS, seer_dispatch_t and
 * seer_source_has_dispatch are public (seer.h), with
 * seer_dispatch_estimate and seer_dispatch_host_ms over the two below. */

/* Fit the host time of a file's rows: pos[i] in [0, 1) ascending (the
 * row's place in the file), time_ms[i] as published, gpu_floor_ms[i] a
 * model-independent lower bound of the row's GPU time.  Returns 1 and
 * fills *d, or 0 (too few rows, or memory). */
int seer_dispatch_fit(const double *pos, const double *time_ms, const double *gpu_floor_ms, int n,
                      seer_dispatch_t *d);

/* Take the host time off a file's rows: fit it (as above), then
 * time_ms[i] becomes the GPU-time target, and keep[i] is set to 0 where
 * what remains is too small to tell from the estimate's uncertainty
 * (under SEER_DISPATCH_RESOLVE times the spread, or under half the host
 * time itself) or under the row's GPU floor.  Returns 1 when it fitted
 * (time_ms and keep are untouched otherwise). */
#define SEER_DISPATCH_RESOLVE 4.0
int seer_dispatch_remove(const double *pos, double *time_ms, const double *gpu_floor_ms, int n,
                         unsigned char *keep, seer_dispatch_t *d);

/* The second half of seer_dispatch_remove, with an estimate d fitted
 * elsewhere (a kind of call of too few rows takes its file's). */
void seer_dispatch_take_off(const seer_dispatch_t *d, const double *pos, double *time_ms, const double *gpu_floor_ms,
                            int n, unsigned char *keep);

/* Host time at position u, never negative. */
double seer_dispatch_at(const seer_dispatch_t *d, double u);

#endif

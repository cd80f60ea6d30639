/* GPU description files (docs/formats.md) and the GPUs registered on a
 * handle from them. */
#ifndef SEER_GPUFILE_H
#define SEER_GPUFILE_H
#include <stddef.h>
#include "seer.h"

/* Largest GPU description file accepted, and longest line. */
#define SEER_GPUFILE_MAX_BYTES (64 * 1024)
#define SEER_GPUFILE_MAX_LINE 1024

/* Parse a description (text of len bytes, not necessarily NUL-terminated)
 * into *out.  name labels messages ("FILE:LINE: ...").  GPU_FILE with a
 * message naming the line and key on h. */
seer_status_t seer_gpufile_parse(seer_handle_t h, const char *name, const char *text, size_t len,
                                 seer_gpu_info_t *out);

/* The GPU of id: the built-in table first (aliases included), then the
 * GPUs registered on h (h may be NULL).  The pointer stays valid until
 * seer_destroy(h).  NULL if unknown. */
const seer_gpu_info_t *seer_gpu_lookup_h(seer_handle_t h, const char *id);
/* UNKNOWN_GPU for id, with the one message every call that takes a GPU id
 * gives: where the known ids are listed and how to add one. */
seer_status_t seer_gpu_unknown(seer_handle_t h, const char *id);

/* BAD_PARAM (message "FN: gpu KEY is V, outside [LO, HI]") when a rate of
 * g (the *_tflops and *_gbps fields) is outside the range a description
 * file may give it. */
seer_status_t seer_gpu_check_rates(seer_handle_t h, const char *fn, const seer_gpu_info_t *g);

/* Free what seer_gpu_register_* added to h (seer_destroy). */
void seer_gpufile_registry_free(seer_handle_t h);
#endif

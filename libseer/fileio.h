/* The one way libseer and the seer CLI read a whole input file: regular
 * files only, size-capped before anything is read, magic checked first. */
#ifndef SEER_FILEIO_H
#define SEER_FILEIO_H
#include <stddef.h>
#include "seer.h"

/* Size caps (docs/api.md, "Limits"); SEER_CSV_MAX_BYTES,
 * SEER_NET_TEXT_MAX_BYTES and SEER_ONNX_MAX_BYTES are in seer.h. */
#define SEER_MODEL_MAX_BYTES ((size_t)256 << 20)  /* shipped models are ~100 KiB */

/* Read the regular file at path into a fresh NUL-terminated buffer
 * (*size excludes the NUL).  what names the input in messages ("model",
 * "CSV", "network description").  When magic is not NULL, its magic_len
 * bytes must start the file; they are checked before the rest is read
 * (MODEL_CORRUPT otherwise); a file shorter than the magic is read
 * whole, and the caller's header check reports it (MODEL_TRUNCATED).
 * IO_ERROR for a file that cannot be opened or read, that is not a
 * regular file (directory, FIFO, device such as /dev/zero) or that is
 * over max_bytes; ALLOC_FAILED.  Every message names the path. */
seer_status_t seer_read_file(seer_handle_t h, const char *path, const char *what, size_t max_bytes,
                             const char *magic, size_t magic_len, char **out, size_t *size);
/* seer_read_input_file (seer.h) is this without the magic. */

/* The text of errno value err into buf (size bytes), which it returns:
 * strerror_r's, thread-safe where strerror is not; "I/O error" for 0 or
 * a value it cannot name. */
const char *seer_errno_text(int err, char *buf, size_t size);

/* 1 if path names a regular file (following links), else 0. */
int seer_is_regular_file(const char *path);

/* 1 if a and b are the same file: the same path, or the same device and
 * inode (a link, "./x" for "x"); 0 otherwise, also when either cannot be
 * stat'ed (its reader then reports why). */
int seer_same_file(const char *a, const char *b);

#endif

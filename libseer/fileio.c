/* Whole-file reads.  A device (/dev/zero), a FIFO or a directory is
 * refused before it is opened for reading: those either never end, block
 * until a writer appears, or fail with an unhelpful errno.  The size is
 * known from fstat, so a file over the cap is refused without reading it,
 * and a file that grows while being read is cut off at the cap plus one
 * byte (reported as too big). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "common.h"
#include "fileio.h"

const char *seer_errno_text(int err, char *buf, size_t size)
{
    /* strerror is not thread-safe; the XSI strerror_r is. */
    if (!err || strerror_r(err, buf, size) != 0) seer_strlcpy(buf, "I/O error", size);
    return buf;
}

static seer_status_t io_error(seer_handle_t h, const char *path, const char *what, const char *verb,
                              int err)
{
    char e[128];
    return seer_error(h, SEER_STATUS_IO_ERROR, "%s: cannot %s %s: %s", path, verb, what,
                      seer_errno_text(err, e, sizeof e));
}

static const char *kind_of(mode_t m)
{
    if (S_ISDIR(m)) return "a directory";
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISSOCK(m)) return "a socket";
    return "not a regular file";
}

/* "an" before what read as a vowel: the kinds named here are read by
 * their letters' sounds (an ONNX model, a CSV, a GPU description) */
static const char *article(const char *what)
{
    return what[0] && strchr("AEIOUaeiou", what[0]) ? "an" : "a";
}

static seer_status_t not_regular(seer_handle_t h, const char *path, const char *what, mode_t m)
{
    return seer_error(h, SEER_STATUS_IO_ERROR, "%s: is %s, not %s %s file", path, kind_of(m), article(what), what);
}

int seer_is_regular_file(const char *path)
{
    struct stat st;
    return path && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int seer_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (!a || !b) return 0;
    if (!strcmp(a, b)) return 1;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Read until len == want or end of file; returns 0 on a read error. */
static int read_upto(int fd, char *buf, size_t *len, size_t want)
{
    while (*len < want) {
        ssize_t got = read(fd, buf + *len, want - *len);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) return 0;
        if (got == 0) break;
        *len += (size_t)got;
    }
    return 1;
}

seer_status_t seer_read_file(seer_handle_t h, const char *path, const char *what, size_t max_bytes,
                             const char *magic, size_t magic_len, char **out, size_t *size)
{
    if (!path || !what || !out || !size)
        return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_read_file: NULL argument");
    struct stat st;
    if (stat(path, &st) != 0) return io_error(h, path, what, "open", errno);
    if (!S_ISREG(st.st_mode)) return not_regular(h, path, what, st.st_mode);
    /* O_NONBLOCK: should path become a FIFO after the stat, open does not
     * wait for a writer; fstat below then refuses it. */
    int fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) return io_error(h, path, what, "open", errno);
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        int err = errno;
        close(fd);
        if (S_ISREG(st.st_mode)) return io_error(h, path, what, "read", err);
        return not_regular(h, path, what, st.st_mode);
    }
    if ((unsigned long long)st.st_size > max_bytes) {
        close(fd);
        return seer_error(h, SEER_STATUS_IO_ERROR, "%s: %s file is %lld bytes, over the %zu-byte limit",
                          path, what, (long long)st.st_size, max_bytes);
    }
    size_t cap = (size_t)st.st_size + 2, len = 0; /* +1 tells "grew past the cap", +1 for the NUL */
    char *buf = malloc(cap);
    if (!buf) {
        close(fd);
        return seer_error(h, SEER_STATUS_ALLOC_FAILED, "%s: out of memory for the %s file", path, what);
    }
    int ok = 1;
    if (magic) {
        ok = read_upto(fd, buf, &len, magic_len < cap - 1 ? magic_len : cap - 1);
        if (ok && len >= magic_len && memcmp(buf, magic, magic_len) != 0) {
            free(buf);
            close(fd);
            return seer_error(h, SEER_STATUS_MODEL_CORRUPT, "%s: not a libseer %s (bad magic)", path,
                              what);
        }
    }
    while (ok) {
        if (len == cap - 1) {
            /* The file grew since fstat: keep going up to the cap + 1. */
            if (cap - 1 > max_bytes) break;
            size_t ncap = cap * 2 > max_bytes + 2 ? max_bytes + 2 : cap * 2;
            char *nb = realloc(buf, ncap);
            if (!nb) {
                free(buf);
                close(fd);
                return seer_error(h, SEER_STATUS_ALLOC_FAILED, "%s: out of memory for the %s file",
                                  path, what);
            }
            buf = nb;
            cap = ncap;
        }
        size_t before = len;
        ok = read_upto(fd, buf, &len, cap - 1);
        if (len == before || len < cap - 1) break;
    }
    int err = errno;
    close(fd);
    if (!ok) {
        free(buf);
        return io_error(h, path, what, "read", err);
    }
    if (len > max_bytes) {
        free(buf);
        return seer_error(h, SEER_STATUS_IO_ERROR, "%s: %s file is over the %zu-byte limit", path, what,
                          max_bytes);
    }
    buf[len] = 0;
    *out = buf;
    *size = len;
    return SEER_STATUS_SUCCESS;
}

seer_status_t seer_read_input_file(seer_handle_t h, const char *path, const char *what, size_t max_bytes,
                                   char **data, size_t *size)
{
    /* the public function and the argument, not the internal reader's name */
    const char *null = !path ? "path" : !what ? "what" : !data ? "data" : !size ? "size" : NULL;
    if (null) return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_read_input_file: %s is NULL", null);
    return seer_read_file(h, path, what, max_bytes, NULL, 0, data, size);
}

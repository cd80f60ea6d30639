/* bench/csv.c - the little CSV and file plumbing seer-bench needs:
 * RFC 4180 fields out, records in, durable appends, resume key sets. */
#include <time.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bench.h"
#include "../libseer/csv_field.h"

void seer_bench_csv_str(FILE *f, const char *s) { seer_csv_write_field(f, s); }

int seer_bench_csv_split(char *line, char **fields, int max)
{
    int n = 0;
    char *p = line;
    for (;;) {
        if (n == max) return n;
        char *out = p;
        fields[n++] = out;
        if (*p == '"') {
            p++;
            for (;;) {
                if (!*p) return -1; /* unterminated quote */
                if (*p == '"') {
                    if (p[1] == '"') { *out++ = '"'; p += 2; continue; }
                    p++;
                    break;
                }
                *out++ = *p++;
            }
            if (*p && *p != ',') return -1;
        } else {
            while (*p && *p != ',') {
                if (*p == '"') return -1;
                *out++ = *p++;
            }
        }
        int more = *p == ',';
        *out = 0;
        if (!more) return n;
        p++;
    }
}

int seer_bench_csv_col(char **hdr, int nhdr, const char *name)
{
    for (int i = 0; i < nhdr; i++)
        if (strcasecmp(hdr[i], name) == 0) return i;
    return -1;
}

int seer_bench_replace_file(FILE *out, const char *tmp, const char *path, char *err, size_t errlen)
{
    if (seer_bench_sync(out) != 0 || fclose(out) != 0) {
        snprintf(err, errlen, "%s: write failed", tmp);
        return -1;
    }
    if (rename(tmp, path) != 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

int seer_bench_sync(FILE *f)
{
    if (fflush(f) != 0) return -1;
    return fsync(fileno(f));
}

/* A regular file, or not there.  Devices, FIFOs and directories would make
 * the byte-by-byte scan below read forever or fail obscurely. */
static int regular_or_absent(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) return errno == ENOENT ? 0 : -1;
    return S_ISREG(st.st_mode) ? 0 : -1;
}

int seer_bench_repair_tail(const char *path)
{
    if (regular_or_absent(path) != 0) return -1;
    FILE *f = fopen(path, "r+b");
    if (!f) return errno == ENOENT ? 0 : -1;
    long keep = 0, pos = 0;
    int c;
    while ((c = fgetc(f)) != EOF) {
        pos++;
        if (c == '\n') keep = pos;
    }
    int rc = 0;
    if (keep != pos) rc = ftruncate(fileno(f), keep);
    if (fclose(f) != 0) rc = -1;
    return rc;
}

FILE *seer_bench_open_input(const char *path, long long max_bytes, char *err, size_t errlen)
{
    struct stat st;
    /* stat the open descriptor, not the name: what is checked is what is read */
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    if (fstat(fileno(f), &st) != 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
    } else if (!S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: not a regular file", path);
    } else if ((long long)st.st_size > max_bytes) {
        snprintf(err, errlen, "%s: %lld bytes, more than the %lld accepted", path,
                 (long long)st.st_size, max_bytes);
    } else {
        return f;
    }
    fclose(f);
    return NULL;
}

int seer_bench_getline(FILE *f, char **buf, size_t *cap)
{
    size_t len = 0;
    for (;;) {
        if (*cap - len < 2 || !*buf) {
            if (*cap >= SEER_BENCH_LINE_MAX) return -1;
            size_t ncap = *cap ? 2 * *cap : 1024;
            char *nb = realloc(*buf, ncap);
            if (!nb) return -1;
            *buf = nb;
            *cap = ncap;
        }
        if (!fgets(*buf + len, (int)(*cap - len), f)) return len ? 1 : 0;
        len += strlen(*buf + len);
        if (len && (*buf)[len - 1] == '\n') return 1;
    }
}

/* ---- string set: open addressing, FNV-1a ---- */

static uint64_t fnv1a(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static size_t set_find(char **slot, size_t cap, const char *key)
{
    size_t i = (size_t)fnv1a(key) & (cap - 1);
    while (slot[i] && strcmp(slot[i], key) != 0) i = (i + 1) & (cap - 1);
    return i;
}

int seer_bench_set_has(const seer_bench_set_t *s, const char *key)
{
    return s->cap && s->slot[set_find(s->slot, s->cap, key)] != NULL;
}

int seer_bench_set_add(seer_bench_set_t *s, const char *key)
{
    if (2 * (s->n + 1) > s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 1024;
        char **slot = calloc(cap, sizeof *slot);
        if (!slot) return -1;
        for (size_t i = 0; i < s->cap; i++)
            if (s->slot[i]) slot[set_find(slot, cap, s->slot[i])] = s->slot[i];
        free(s->slot);
        s->slot = slot;
        s->cap = cap;
    }
    size_t i = set_find(s->slot, s->cap, key);
    if (s->slot[i]) return 1;
    if (!(s->slot[i] = strdup(key))) return -1;
    s->n++;
    return 0;
}

void seer_bench_set_free(seer_bench_set_t *s)
{
    for (size_t i = 0; i < s->cap; i++) free(s->slot[i]);
    free(s->slot);
    memset(s, 0, sizeof *s);
}

void seer_bench_utc_stamp(char *buf, size_t len)
{
    time_t t = time(NULL);
    struct tm tmv;
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tmv));
}

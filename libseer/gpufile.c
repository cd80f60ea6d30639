/* GPU description files: a GPU absent from the built-in table, described
 * in plain text (written by seer-bench, or by hand from a datasheet) and
 * registered on a handle, so that seer_gpu_find, seer_train,
 * seer_model_open/transfer and seer_model_load accept its id.
 *
 * Registration is per handle, never global: two handles may register
 * different files, and a prediction never looks at the registry (a model
 * copies its GPU's facts when it is trained or loaded).  Entries are
 * append-only and individually allocated, so a pointer handed out stays
 * valid until seer_destroy. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "fileio.h"
#include "gpu.h"
#include "gpufile.h"

#define KIB 1024

/* Per-SM limits by compute capability when the file leaves them out (the
 * same figures as the table in gpu.c, from the CUDA Programming Guide). */
typedef struct {
    int major, minor, smem_per_sm, smem_per_block, smem_reserved, smem_unit, threads_per_sm,
        blocks_per_sm;
} cc_limits_t;
static const cc_limits_t CC_LIMITS[] = {
    {5, 0, 64 * KIB, 48 * KIB, 0, 256, 2048, 32},   {5, 2, 96 * KIB, 48 * KIB, 0, 256, 2048, 32},
    {6, 0, 64 * KIB, 48 * KIB, 0, 256, 2048, 32},   {6, 1, 96 * KIB, 48 * KIB, 0, 256, 2048, 32},
    {6, 2, 64 * KIB, 48 * KIB, 0, 256, 2048, 32},   {7, 0, 96 * KIB, 96 * KIB, 0, 256, 2048, 32},
    {7, 2, 96 * KIB, 96 * KIB, 0, 256, 2048, 32},   {7, 5, 64 * KIB, 64 * KIB, 0, 256, 1024, 16},
    {8, 0, 164 * KIB, 163 * KIB, KIB, 128, 2048, 32}, {8, 6, 100 * KIB, 99 * KIB, KIB, 128, 1536, 16},
    {8, 7, 164 * KIB, 163 * KIB, KIB, 128, 2048, 16}, {8, 9, 100 * KIB, 99 * KIB, KIB, 128, 1536, 24},
    {9, 0, 228 * KIB, 227 * KIB, KIB, 128, 2048, 32}, {10, 0, 228 * KIB, 227 * KIB, KIB, 128, 2048, 32},
    {12, 0, 100 * KIB, 99 * KIB, KIB, 128, 1536, 32},
};

/* One key: where it goes, its range, whether a file must have it. */
enum { K_STR, K_INT, K_DBL, K_CC };
typedef struct {
    const char *key;
    int type, required;
    size_t off, size;           /* into seer_gpu_info_t */
    double lo, hi;
} gkey_t;
#define S(k, f, req) {k, K_STR, req, offsetof(seer_gpu_info_t, f), sizeof(((seer_gpu_info_t *)0)->f), 0, 0}
#define I(k, f, req, lo, hi) {k, K_INT, req, offsetof(seer_gpu_info_t, f), sizeof(int), lo, hi}
#define D(k, f, req, lo, hi) {k, K_DBL, req, offsetof(seer_gpu_info_t, f), sizeof(double), lo, hi}
static const gkey_t KEYS[] = {
    S("id", id, 1), S("name", name, 1), S("arch", arch, 0),
    {"cc", K_CC, 1, 0, 0, 0, 0},
    I("sms", sms, 1, 1, 4096),
    D("boost_mhz", boost_mhz, 1, 1, 1e5),
    D("fp32_tflops", fp32_tflops, 1, 1e-3, 1e5),
    D("fp16_tflops", fp16_tflops, 0, 0, 1e6),
    D("bf16_tflops", bf16_tflops, 0, 0, 1e6),
    D("tf32_tflops", tf32_tflops, 0, 0, 1e6),
    D("fp16_simt_tflops", fp16_simt_tflops, 0, 0, 1e6),
    D("dram_gbps", dram_gbps, 1, 1e-3, 1e6),
    D("dram_gib", dram_gib, 1, 1e-3, 1e6),
    D("dram_stream_gbps", dram_stream_gbps, 0, 0, 1e6),
    I("l2_bytes", l2_bytes, 1, 1, 1 << 30),
    I("regs_per_sm", regs_per_sm, 0, 1, 1 << 24),
    I("regs_per_block", regs_per_block, 0, 1, 1 << 24),
    I("max_regs_per_thread", max_regs_per_thread, 0, 1, 1 << 16),
    I("reg_alloc_unit", reg_alloc_unit, 0, 1, 1 << 16),
    I("smem_per_sm", smem_per_sm, 0, 1, 1 << 24),
    I("smem_per_block", smem_per_block, 0, 0, 1 << 24),
    I("smem_reserved_per_block", smem_reserved_per_block, 0, 0, 1 << 20),
    I("smem_alloc_unit", smem_alloc_unit, 0, 1, 1 << 20),
    I("threads_per_sm", threads_per_sm, 0, 32, 1 << 16),
    I("threads_per_block", threads_per_block, 0, 32, 1 << 16),
    I("blocks_per_sm", blocks_per_sm, 0, 1, 1 << 12),
    I("warps_per_sm", warps_per_sm, 0, 1, 1 << 12),
};
#define NKEYS (sizeof KEYS / sizeof KEYS[0])
#define MAGIC "seer-gpu"
#define FORMAT_VERSION 1

/* A number within key K's range; a rate that may be 0 (none) is 0 or at
 * least the smallest FP32 rate or bandwidth (1e-3): between them it
 * divides work into times past any double. */
static int value_ok(const gkey_t *K, double d)
{
    return isfinite(d) && d >= K->lo && d <= K->hi && !(K->type == K_DBL && K->lo == 0 && d > 0 && d < 1e-3);
}

/* The rates of a caller's GPU struct (the roofline and floor functions
 * divide by them) within the ranges a description file may give them:
 * a zero, negative, NaN, infinite or denormal rate made those functions
 * answer inf or NaN with SUCCESS. */
seer_status_t seer_gpu_check_rates(seer_handle_t h, const char *fn, const seer_gpu_info_t *g)
{
    for (size_t k = 0; k < NKEYS; k++) {
        const gkey_t *K = &KEYS[k];
        size_t n = strlen(K->key);
        if (K->type != K_DBL || !((n > 7 && !strcmp(K->key + n - 7, "_tflops")) || (n > 5 && !strcmp(K->key + n - 5, "_gbps"))))
            continue;
        double v;
        memcpy(&v, (const char *)g + K->off, sizeof v);
        if (!value_ok(K, v))
            return seer_error(h, SEER_STATUS_BAD_PARAM, "%s: gpu %s is %g, outside %s[%g, %g] (GPU '%.32s')", fn,
                              K->key, v, K->lo == 0 ? "0 or " : "", K->lo == 0 ? 1e-3 : K->lo, K->hi, g->id);
    }
    return SEER_STATUS_SUCCESS;
}

static int id_ok(const char *id)
{
    size_t n = strlen(id);
    if (n < 1 || n > 31) return 0;
    for (const char *p = id; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == '_' || *p == '.'))
            return 0;
    return 1;
}

static seer_status_t bad(seer_handle_t h, const char *name, long line, const char *what, const char *v)
{
    if (line > 0)
        return seer_error(h, SEER_STATUS_GPU_FILE, "%.200s:%ld: %s%s%.60s%s", name, line, what,
                          v ? " '" : "", v ? v : "", v ? "'" : "");
    return seer_error(h, SEER_STATUS_GPU_FILE, "%.200s: %s%s%.60s%s", name, what, v ? " '" : "",
                      v ? v : "", v ? "'" : "");
}

static size_t key_index(const char *key)
{
    size_t k;
    for (k = 0; k < NKEYS && strcmp(KEYS[k].key, key); k++) {}
    return k;   /* NKEYS when unknown */
}

/* Defaults the file may leave out: limits from the compute capability,
 * the common register file, warps from threads. */
static seer_status_t fill_defaults(seer_handle_t h, const char *name, seer_gpu_info_t *g, const int *seen)
{
    const cc_limits_t *L = NULL;
    for (size_t i = 0; i < sizeof CC_LIMITS / sizeof CC_LIMITS[0]; i++)
        if (CC_LIMITS[i].major == g->cc_major && CC_LIMITS[i].minor == g->cc_minor) L = &CC_LIMITS[i];
#define DFLT(field, v) do { if (!seen[key_index(#field)]) { \
        if ((v) < 0) return bad(h, name, 0, "key '" #field "' is required for an unknown compute capability", NULL); \
        g->field = (v); } } while (0)
    DFLT(regs_per_sm, 65536);
    DFLT(regs_per_block, 65536);
    DFLT(max_regs_per_thread, 255);
    DFLT(reg_alloc_unit, 256);
    DFLT(threads_per_block, 1024);
    DFLT(smem_per_sm, L ? L->smem_per_sm : -1);
    DFLT(smem_per_block, L ? L->smem_per_block : -1);
    DFLT(smem_reserved_per_block, L ? L->smem_reserved : -1);
    DFLT(smem_alloc_unit, L ? L->smem_unit : -1);
    DFLT(threads_per_sm, L ? L->threads_per_sm : -1);
    DFLT(blocks_per_sm, L ? L->blocks_per_sm : -1);
    DFLT(warps_per_sm, g->threads_per_sm / 32);
#undef DFLT
    /* the pair that contradicts, by its keys (a file may set both,
     * one, or neither and take the defaults of its compute capability) */
    const char *blk = g->smem_per_block > g->smem_per_sm         ? "smem_per_block above smem_per_sm"
                      : g->threads_per_block > g->threads_per_sm ? "threads_per_block above threads_per_sm"
                      : g->warps_per_sm * 32 < g->threads_per_block
                          ? "threads_per_block above warps_per_sm x 32"
                      : g->regs_per_block > g->regs_per_sm ? "regs_per_block above regs_per_sm"
                                                           : NULL;
    if (blk) return bad(h, name, 0, "per-SM limits contradict each other:", blk);
    return SEER_STATUS_SUCCESS;
}

/* One key's value into g, checked against its type and range. */
static seer_status_t set_value(seer_handle_t h, const char *name, long lineno, const gkey_t *K, const char *key,
                               const char *val, seer_gpu_info_t *gp)
{
    char *f = (char *)gp + K->off, *end;
    errno = 0;
    if (K->type == K_STR) {
        if (!*val || strlen(val) >= K->size) return bad(h, name, lineno, "empty or too long value of", key);
        if (!strcmp(key, "id") && !id_ok(val))
            return bad(h, name, lineno, "id must be 1-31 characters of a-z 0-9 . _ -, got", val);
        seer_strlcpy(f, val, K->size);
    } else if (K->type == K_CC) {
        /* digits, a dot, one digit: strtol alone read "7.05" as 7.5 and
         * took a sign or blanks after the dot */
        size_t nd = strspn(val, "0123456789");
        long ma = strtol(val, &end, 10), mi = -1;
        if (nd && val[nd] == '.' && isdigit((unsigned char)val[nd + 1]) && !val[nd + 2]) mi = val[nd + 1] - '0';
        if (mi < 0 || ma < 3 || ma > 99) return bad(h, name, lineno, "cc must be MAJOR.MINOR, got", val);
        gp->cc_major = (int)ma;
        gp->cc_minor = (int)mi;
    } else {
        /* plain decimal, as in CSV files: keeps out strtod's hex ("0x2e"),
         * "inf", "nan" and leading blanks */
        if (val[strspn(val, "0123456789+-.eE")]) return bad(h, name, lineno, "not a decimal number for", key);
        double d = strtod(val, &end);
        if (end == val || *end || errno || !value_ok(K, d))
            return bad(h, name, lineno, "value out of range for", key);
        if (K->type == K_INT) {
            if (d != floor(d)) return bad(h, name, lineno, "integer expected for", key);
            int iv = (int)d;
            memcpy(f, &iv, sizeof iv);
        } else {
            memcpy(f, &d, sizeof d);
        }
    }
    return SEER_STATUS_SUCCESS;
}

seer_status_t seer_gpufile_parse(seer_handle_t h, const char *name, const char *text, size_t len,
                                 seer_gpu_info_t *out)
{
    seer_gpu_info_t g;
    seer_status_t st;
    int seen[NKEYS] = {0}, magic = 0;
    char line[SEER_GPUFILE_MAX_LINE + 2];
    long lineno = 0;
    size_t pos = 0;
    if (!name) name = "GPU description";
    if (!text) return seer_error(h, SEER_STATUS_BAD_PARAM, "%s: text is NULL", name);
    if (!out) return seer_error(h, SEER_STATUS_BAD_PARAM, "%s: NULL output", name);
    if (len > SEER_GPUFILE_MAX_BYTES)
        return bad(h, name, 0, "larger than 64 KiB: not a GPU description file", NULL);
    memset(&g, 0, sizeof g);
    /* a UTF-8 byte order mark, as an editor may write it, is no content */
    if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) pos = 3;
    while (pos < len) {
        size_t n = 0;
        lineno++;
        while (pos < len && text[pos] != '\n') {
            if (text[pos] == '\0') return bad(h, name, lineno, "NUL byte: not a text file", NULL);
            /* 1024 bytes of content; a CRLF line's CR is trimmed below */
            if (n >= SEER_GPUFILE_MAX_LINE && !(text[pos] == '\r' && (pos + 1 == len || text[pos + 1] == '\n')))
                return bad(h, name, lineno, "line longer than 1024 bytes", NULL);
            line[n++] = text[pos++];
        }
        pos++; /* the newline */
        while (n && (line[n - 1] == '\r' || line[n - 1] == ' ' || line[n - 1] == '\t')) n--;
        line[n] = 0;
        char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        if (!*p || *p == '#') continue;
        char *eq = strchr(p, '=');
        if (!eq) return bad(h, name, lineno, "expected key=value, got", p);
        *eq = 0;
        const char *key = p, *val = eq + 1;
        if (!magic) {
            /* the format line comes first: anything else is not this format */
            char *end;
            long v = strcmp(key, MAGIC) ? -1 : strtol(val, &end, 10);
            if (v < 0 || end == val || *end) return bad(h, name, lineno, "not a GPU description file (first line must be seer-gpu=1), got", key);
            if (v != FORMAT_VERSION) return bad(h, name, lineno, "unsupported format version", val);
            magic = 1;
            continue;
        }
        if (!strncmp(key, "info.", 5)) continue; /* provenance for people; libseer does not use it */
        size_t k = key_index(key);
        if (k == NKEYS) return bad(h, name, lineno, "unknown key", key);
        if (seen[k]) return bad(h, name, lineno, "duplicate key", key);
        seen[k] = 1;
        if ((st = set_value(h, name, lineno, &KEYS[k], key, val, &g))) return st;
    }
    if (!magic) return bad(h, name, 0, "empty: not a GPU description file", NULL);
    for (size_t k = 0; k < NKEYS; k++)
        if (KEYS[k].required && !seen[k]) return bad(h, name, 0, "missing required key", KEYS[k].key);
    if (!seen[key_index("arch")]) seer_strlcpy(g.arch, "unknown", sizeof g.arch);
    st = fill_defaults(h, name, &g, seen);
    if (st) return st;
    *out = g;
    return SEER_STATUS_SUCCESS;
}

/* ---- registry ---------------------------------------------------------- */

/* The same description again: the performance facts (gpu.c, field by
 * field) and the names and capacity. */
static int same_description(const seer_gpu_info_t *a, const seer_gpu_info_t *b)
{
    return seer_gpu_same_facts(a, b) && !strcmp(a->id, b->id) && !strcmp(a->name, b->name) &&
           a->dram_gib == b->dram_gib;
}

/* The built-in table strictly, then the registered ids, then the table's
 * loose names: a registered "tesla-a100" is found as itself. */
static const seer_gpu_info_t *lookup_h(seer_handle_t h, const char *id, int loose)
{
    const seer_gpu_info_t *g = seer_gpu_lookup_strict(id), *r = NULL;
    if (g || !id) return g;
    if (h) {
        pthread_mutex_lock(&h->lock);
        for (int i = 0; i < h->n_gpus && !r; i++)
            if (seer_gpu_name_eq(h->gpus[i]->id, id)) r = h->gpus[i];
        pthread_mutex_unlock(&h->lock);
    }
    return r || !loose ? r : seer_gpu_lookup(id);
}

seer_status_t seer_gpu_unknown(seer_handle_t h, const char *id)
{
    return seer_error(h, SEER_STATUS_UNKNOWN_GPU, "unknown GPU '%.64s' (`seer gpus` lists the known ids; a GPU "
                      "description file registers another)", id);
}

const seer_gpu_info_t *seer_gpu_lookup_h(seer_handle_t h, const char *id) { return lookup_h(h, id, 1); }

static seer_status_t add(seer_handle_t h, const char *name, const seer_gpu_info_t *g)
{
    const seer_gpu_info_t *old = lookup_h(h, g->id, 0);
    if (old) {
        if (same_description(old, g)) return SEER_STATUS_SUCCESS; /* registering again is harmless */
        return seer_error(h, SEER_STATUS_GPU_FILE, "%.200s: GPU id '%s' is already %s with other facts", name,
                          g->id, seer_gpu_lookup_strict(g->id) ? "in the built-in table" : "registered");
    }
    seer_gpu_info_t *copy = malloc(sizeof *copy);
    if (!copy) return seer_error(h, SEER_STATUS_ALLOC_FAILED, "GPU registry");
    *copy = *g;
    pthread_mutex_lock(&h->lock);
    seer_gpu_info_t **v = realloc(h->gpus, (size_t)(h->n_gpus + 1) * sizeof *v);
    if (v) {
        h->gpus = v;
        h->gpus[h->n_gpus++] = copy;
    }
    pthread_mutex_unlock(&h->lock);
    if (!v) {
        free(copy);
        return seer_error(h, SEER_STATUS_ALLOC_FAILED, "GPU registry");
    }
    return SEER_STATUS_SUCCESS;
}

seer_status_t seer_gpu_register_buffer(seer_handle_t h, const char *text, size_t len, seer_gpu_info_t *info)
{
    seer_gpu_info_t g;
    if (!h) return SEER_STATUS_BAD_PARAM;
    /* info may be NULL (the entry is not wanted): text is the one required */
    if (!text) return seer_error(h, SEER_STATUS_BAD_PARAM, "seer_gpu_register_buffer: text is NULL");
    seer_status_t st = seer_gpufile_parse(h, "GPU description", text, len, &g);
    if (!st) st = add(h, "GPU description", &g);
    if (!st && info) *info = g;
    return st;
}

seer_status_t seer_gpu_register_file(seer_handle_t h, const char *path, seer_gpu_info_t *info)
{
    if (!h) return SEER_STATUS_BAD_PARAM;
    if (!path) return seer_error(h, SEER_STATUS_BAD_PARAM, "GPU description path is NULL");
    /* the one reader of every file: a regular file (a FIFO is refused
     * before it blocks) of at most 64 KiB, checked before a byte is read */
    char *buf;
    size_t n;
    seer_status_t st = seer_read_file(h, path, "GPU description", SEER_GPUFILE_MAX_BYTES, NULL, 0, &buf, &n);
    if (st) return st;
    seer_gpu_info_t g;
    if (!(st = seer_gpufile_parse(h, path, buf, n, &g))) st = add(h, path, &g);
    free(buf);
    if (!st && info) *info = g;
    return st;
}

void seer_gpufile_registry_free(seer_handle_t h)
{
    for (int i = 0; i < h->n_gpus; i++) free(h->gpus[i]);
    free(h->gpus);
    h->gpus = NULL;
    h->n_gpus = 0;
}

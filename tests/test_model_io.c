/* Model files (libseer/model_io.c): the header, truncation, version,
 * checksum and the payload's range checks (tests/test_limits.c has the
 * coefficient ranges). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include "model.h"
#include "test.h"

static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc((size_t)len + 1);
    *n = b ? fread(b, 1, (size_t)len, f) : 0;
    fclose(f);
    return b;
}

TEST(model_io_load_bad_files)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_model_t m = NULL;
    CHECK_STATUS(seer_model_load(h, "/nonexistent.seer", &m), SEER_STATUS_IO_ERROR);
    CHECK(strstr(seer_get_last_error(h), "/nonexistent.seer") != NULL);
    CHECK_STATUS(seer_model_load_buffer(h, "", 0, &m), SEER_STATUS_MODEL_TRUNCATED);
    CHECK_STATUS(seer_model_load_buffer(h, "SEERMODL", 8, &m), SEER_STATUS_MODEL_TRUNCATED);
    CHECK_STATUS(seer_model_load_buffer(h, "not a model at all, clearly", 27, &m), SEER_STATUS_MODEL_CORRUPT);
    CHECK(strstr(seer_get_last_error(h), "magic") != NULL);
    /* short, but not the magic's bytes: no model cut short */
    CHECK_STATUS(seer_model_load_buffer(h, "XEERMOD", 7, &m), SEER_STATUS_MODEL_CORRUPT);
    CHECK_STATUS(seer_model_load_buffer(h, "SEERM", 5, &m), SEER_STATUS_MODEL_TRUNCATED);

    seer_model_t good = NULL;
    if (seer_model_load(h, "models/gtx1080ti.seer", &good)) { seer_destroy(h); SKIP("shipped models missing"); }
    char a[] = "/tmp/seer-model-XXXXXX";
    int fd = mkstemp(a);
    REQUIRE(fd >= 0);
    close(fd);
    REQUIRE(seer_model_save(h, good, a) == SEER_STATUS_SUCCESS);
    size_t n;
    unsigned char *b = slurp(a, &n);
    REQUIRE(b != NULL && n > 100);
    CHECK_STATUS(seer_model_load_buffer(h, b, n, &m), SEER_STATUS_SUCCESS);
    seer_model_destroy(m);
    m = NULL;
    /* every truncation is reported as such, never a crash or a model */
    for (size_t cut = 0; cut < n; cut += 1 + cut / 8) {
        seer_status_t st = seer_model_load_buffer(h, b, cut, &m);
        CHECK(st == SEER_STATUS_MODEL_TRUNCATED);
        CHECK(m == NULL);
    }
    b[8] = 7; /* version */
    CHECK_STATUS(seer_model_load_buffer(h, b, n, &m), SEER_STATUS_MODEL_VERSION);
    CHECK(strstr(seer_get_last_error(h), "version 7") != NULL);
    b[8] = 1; /* format 1 predicted host and GPU time together: retrain */
    CHECK_STATUS(seer_model_load_buffer(h, b, n, &m), SEER_STATUS_MODEL_VERSION);
    CHECK(strstr(seer_get_last_error(h), "train it again") != NULL);
    b[8] = 2; /* format 2 had one GEMM fit for both kinds */
    CHECK_STATUS(seer_model_load_buffer(h, b, n, &m), SEER_STATUS_MODEL_VERSION);
    CHECK(strstr(seer_get_last_error(h), "batched") != NULL);
    b[8] = 3;
    b[n / 2] ^= 0x10; /* payload byte */
    CHECK_STATUS(seer_model_load_buffer(h, b, n, &m), SEER_STATUS_MODEL_CORRUPT);
    CHECK(strstr(seer_get_last_error(h), "checksum") != NULL);
    CHECK(m == NULL);
    free(b);
    unlink(a);
    seer_model_destroy(good);
    CHECK_STATUS(seer_model_destroy(NULL), SEER_STATUS_SUCCESS);
    seer_destroy(h);
}

/* Saving is deterministic and loading gives the same bytes back. */
TEST(model_io_save_load_same_bytes)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_model_t m = NULL, back = NULL;
    if (seer_model_load(h, "models/t4.seer", &m)) { seer_destroy(h); SKIP("shipped models missing"); }
    char a[] = "/tmp/seer-model-XXXXXX";
    int fd = mkstemp(a);
    REQUIRE(fd >= 0);
    close(fd);
    CHECK_STATUS(seer_model_save(h, m, a), SEER_STATUS_SUCCESS);
    size_t n1 = 0, n2 = 0;
    unsigned char *x = slurp("models/t4.seer", &n1), *y = slurp(a, &n2);
    REQUIRE(x && y);
    CHECK(n1 == n2 && memcmp(x, y, n1) == 0);
    CHECK_STATUS(seer_model_load(h, a, &back), SEER_STATUS_SUCCESS);
    seer_model_info_t i1, i2;
    seer_model_get_info(m, &i1);
    seer_model_get_info(back, &i2);
    CHECK(i1.checksum == i2.checksum && i1.format_version == 5);
    free(x);
    free(y);
    unlink(a);
    seer_model_destroy(m);
    seer_model_destroy(back);
    seer_destroy(h);
}

/* Saving replaces only a regular file: a FIFO, a directory or a device
 * stays what it is (a model saved to /dev/full once replaced the device
 * and reported success); through a symbolic link, the file it names is
 * written and the link kept; another save's temporary file is not
 * touched. */
TEST(model_io_save_only_replaces_regular_files)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    seer_model_t m = NULL, back = NULL;
    if (seer_model_load(h, "models/gtx1080ti.seer", &m)) { seer_destroy(h); SKIP("shipped models missing"); }
    char dir[] = "/tmp/seer-save-XXXXXX", p[256], t[256], q[256];
    REQUIRE(mkdtemp(dir) != NULL);
    snprintf(p, sizeof p, "%s/fifo", dir);
    REQUIRE(mkfifo(p, 0600) == 0);
    CHECK_STATUS(seer_model_save(h, m, p), SEER_STATUS_IO_ERROR);
    CHECK(strstr(seer_get_last_error(h), "not a regular file") != NULL);
    struct stat sb;
    CHECK(lstat(p, &sb) == 0 && S_ISFIFO(sb.st_mode));
    unlink(p);
    CHECK_STATUS(seer_model_save(h, m, dir), SEER_STATUS_IO_ERROR);
    CHECK(strstr(seer_get_last_error(h), "a directory") != NULL);
    snprintf(t, sizeof t, "%s/target.seer", dir);
    snprintf(p, sizeof p, "%s/link.seer", dir);
    REQUIRE(symlink(t, p) == 0);
    CHECK_STATUS(seer_model_save(h, m, p), SEER_STATUS_IO_ERROR); /* names nothing yet */
    FILE *f = fopen(t, "wb");
    REQUIRE(f != NULL);
    fclose(f);
    snprintf(q, sizeof q, "%s/target.seer.tmp", dir); /* the old fixed temporary name */
    REQUIRE((f = fopen(q, "wb")) != NULL);
    fputs("someone else's", f);
    fclose(f);
    REQUIRE(chmod(t, 0640) == 0);
    CHECK_STATUS(seer_model_save(h, m, p), SEER_STATUS_SUCCESS);
    CHECK(lstat(p, &sb) == 0 && S_ISLNK(sb.st_mode));
    CHECK(stat(t, &sb) == 0 && (sb.st_mode & 07777) == 0640); /* a replaced file keeps its mode */
    CHECK_STATUS(seer_model_load(h, t, &back), SEER_STATUS_SUCCESS);
    CHECK(stat(q, &sb) == 0 && sb.st_size == 14);
    seer_model_destroy(back);
    unlink(q);
    unlink(p);
    unlink(t);
    /* a name near the 255-byte limit saves (a suffix on it once made
     * the temporary name too long) */
    char longname[512];
    snprintf(longname, sizeof longname, "%s/%0250d.seer", dir, 7);
    CHECK_STATUS(seer_model_save(h, m, longname), SEER_STATUS_SUCCESS);
    unlink(longname);
    CHECK(rmdir(dir) == 0); /* and no temporary file is left */
    seer_model_destroy(m);
    seer_destroy(h);
}

/* The GPU whose GEMM rows fitted each math type: the A100 80GB model
 * takes the 40GB card's rows (libseer/gemm.c), FP32 only. */
TEST(model_io_info_gemm_source_gpu)
{
    seer_model_t m = NULL;
    seer_model_info_t info;
    if (seer_model_load(NULL, "models/a100-pcie-80gb.seer", &m)) SKIP("models/a100-pcie-80gb.seer not found");
    CHECK_STATUS(seer_model_get_info(m, &info), SEER_STATUS_SUCCESS);
    CHECK(strcmp(info.gemm_source_gpu[0], "a100-pcie-40gb") == 0);
    CHECK(info.gemm_source_gpu[1][0] == '\0');
    seer_model_destroy(m);
}

/* put a little-endian u32 / u64 */
static void put_le(unsigned char *p, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++) p[i] = (unsigned char)(v >> (8 * i));
}

/* Format 4's conv scales: stored, range-checked, each key once; a format
 * 4 file (no second GEMM fits) and a format 3 one (no scale count
 * either) still load, without them. */
TEST(model_io_conv_scales)
{
    seer_handle_t h;
    REQUIRE(seer_create(&h) == SEER_STATUS_SUCCESS);
    struct seer_model *m = NULL;
    if (seer_model_load(h, "models/t4.seer", &m)) { seer_destroy(h); SKIP("shipped models missing"); }
    static const struct { seer_conv_scale_t s[2]; int n; const char *err; } cases[] = {
        {{{0, 1, 0, 40, 1.5}}, 1, NULL},
        {{{2, -1, 1, 0, 0.25}}, 1, NULL}, /* 0 rows: its architecture's */
        {{{0, 1, 0, 40, 100}}, 1, "scale"},
        {{{0, 1, 0, 40, 0}}, 1, "scale"},
        {{{3, 1, 0, 40, 1.5}}, 1, "scale direction"},
        {{{0, 8, 0, 40, 1.5}}, 1, "scale algorithm"},
        {{{0, 1, 3, 40, 1.5}}, 1, "scale class"},
        {{{0, 1, 0, -1, 1.5}}, 1, "scale rows"},
        {{{0, 1, 0, 40, 1.5}, {0, 1, 0, 9, 2}}, 2, "twice"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        m->nscale = cases[i].n;
        memcpy(m->scale, cases[i].s, sizeof cases[i].s);
        unsigned char *b;
        size_t n;
        REQUIRE(seer_model_serialize(m, &b, &n));
        seer_model_t back = NULL;
        seer_status_t st = seer_model_load_buffer(h, b, n, &back);
        if (!cases[i].err) {
            CHECK_STATUS(st, SEER_STATUS_SUCCESS);
            CHECK(back && back->nscale == 1 && !memcmp(&back->scale[0], &cases[i].s[0], sizeof back->scale[0]));
        } else {
            CHECK(st == SEER_STATUS_MODEL_CORRUPT && back == NULL);
            CHECK(strstr(seer_get_last_error(h), cases[i].err) != NULL);
        }
        seer_model_destroy(back);
        free(b);
    }
    /* format 4: the payload without format 5's four absent second GEMM
     * fits (64 bytes each: i32 x 4, f64 x 5, i32, an empty str); format
     * 3: without the scale count too */
    m->nscale = 0;
    for (int ver = 4; ver >= 3; ver--) {
        unsigned char *b;
        size_t n;
        REQUIRE(seer_model_serialize(m, &b, &n));
        n -= 4 * 64 + (ver == 3 ? 4 : 0);
        put_le(b + 8, (uint64_t)ver, 4);
        put_le(b + 12, n - 24, 8);
        put_le(b + 20, (uint32_t)crc32_z(0, b + 24, n - 24), 4);
        seer_model_t back = NULL;
        CHECK_STATUS(seer_model_load_buffer(h, b, n, &back), SEER_STATUS_SUCCESS);
        CHECK(back && back->nscale == 0 && back->nfam == m->nfam && !back->gemm2[0][0].present);
        seer_model_destroy(back);
        free(b);
    }
    seer_model_destroy(m);
    seer_destroy(h);
}

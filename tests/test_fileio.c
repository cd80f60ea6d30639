/* libseer/fileio.c: the one whole-file reader of the library and the CLI. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "test.h"
#include "fileio.h"

static seer_handle_t H;
static seer_handle_t handle(void)
{
    if (!H) seer_create(&H);
    return H;
}
static int msg_has(const char *s) { return strstr(seer_get_last_error(handle()), s) != NULL; }

TEST(fileio_reads_a_regular_file)
{
    char path[64];
    REQUIRE(test_write_temp(path, "hello"));
    char *buf = NULL;
    size_t n = 0;
    CHECK_STATUS(seer_read_file(handle(), path, "CSV", 100, NULL, 0, &buf, &n), SEER_STATUS_SUCCESS);
    CHECK(n == 5 && buf && strcmp(buf, "hello") == 0);
    free(buf);
    /* exactly at the cap is fine, one byte over is not (and is not read) */
    CHECK_STATUS(seer_read_file(handle(), path, "CSV", 5, NULL, 0, &buf, &n), SEER_STATUS_SUCCESS);
    free(buf);
    buf = NULL;
    CHECK_STATUS(seer_read_file(handle(), path, "CSV", 4, NULL, 0, &buf, &n), SEER_STATUS_IO_ERROR);
    CHECK(buf == NULL && msg_has(path) && msg_has("over the 4-byte limit"));
    unlink(path);
}

TEST(fileio_refuses_what_is_not_a_regular_file)
{
    char *buf = NULL;
    size_t n = 0;
    CHECK_STATUS(seer_read_file(handle(), "/dev/zero", "model", 1 << 20, NULL, 0, &buf, &n),
                 SEER_STATUS_IO_ERROR);
    CHECK(msg_has("/dev/zero: is a character device, not a model file"));
    CHECK_STATUS(seer_read_file(handle(), "/tmp", "network description", 1 << 20, NULL, 0, &buf, &n),
                 SEER_STATUS_IO_ERROR);
    CHECK(msg_has("/tmp: is a directory"));
    char fifo[] = "/tmp/seer-fifo-XXXXXX";
    REQUIRE(mkdtemp(fifo));
    char p[64];
    snprintf(p, sizeof p, "%s/f", fifo);
    if (mkfifo(p, 0600) == 0) { /* no writer: a plain open would block forever */
        CHECK_STATUS(seer_read_file(handle(), p, "CSV", 1 << 20, NULL, 0, &buf, &n), SEER_STATUS_IO_ERROR);
        CHECK(msg_has("is a FIFO"));
        unlink(p);
    }
    rmdir(fifo);
    CHECK_STATUS(seer_read_file(handle(), "/nonexistent/x.seer", "model", 1 << 20, NULL, 0, &buf, &n),
                 SEER_STATUS_IO_ERROR);
    CHECK(msg_has("/nonexistent/x.seer: cannot open model"));
    CHECK(buf == NULL);
    CHECK(!seer_is_regular_file("/dev/zero") && !seer_is_regular_file("/tmp"));
}

TEST(fileio_magic_first)
{
    char path[64];
    REQUIRE(test_write_temp(path, "NOTMODEL and more bytes"));
    char *buf = NULL;
    size_t n = 0;
    CHECK_STATUS(seer_read_file(handle(), path, "model", 1 << 20, "SEERMODL", 8, &buf, &n),
                 SEER_STATUS_MODEL_CORRUPT);
    CHECK(msg_has("not a libseer model (bad magic)") && buf == NULL);
    /* through the public loader too, and /dev/urandom fails at once */
    seer_model_t m = NULL;
    CHECK_STATUS(seer_model_load(handle(), path, &m), SEER_STATUS_MODEL_CORRUPT);
    CHECK_STATUS(seer_model_load(handle(), "/dev/urandom", &m), SEER_STATUS_IO_ERROR);
    CHECK(m == NULL);
    unlink(path);
}

/* The public reader is seer_read_file without a magic. */
TEST(fileio_public_read_input_file)
{
    char path[64];
    REQUIRE(test_write_temp(path, "resnet"));
    char *buf = NULL;
    size_t n = 0;
    CHECK_STATUS(seer_read_input_file(handle(), path, "network description", SEER_NET_TEXT_MAX_BYTES, &buf, &n),
                 SEER_STATUS_SUCCESS);
    CHECK(n == 6 && buf && strcmp(buf, "resnet") == 0);
    free(buf);
    buf = NULL;
    CHECK_STATUS(seer_read_input_file(handle(), "/tmp", "network description", SEER_NET_TEXT_MAX_BYTES, &buf, &n),
                 SEER_STATUS_IO_ERROR);
    CHECK(buf == NULL && msg_has("/tmp: is a directory, not a network description file"));
    CHECK_STATUS(seer_read_input_file(handle(), path, "CSV", SEER_CSV_MAX_BYTES, NULL, &n), SEER_STATUS_BAD_PARAM);
    /* the public function and the argument, not the internal reader */
    CHECK(msg_has("seer_read_input_file: data is NULL"));
    CHECK_STATUS(seer_read_input_file(handle(), NULL, "CSV", SEER_CSV_MAX_BYTES, &buf, &n), SEER_STATUS_BAD_PARAM);
    CHECK(msg_has("seer_read_input_file: path is NULL"));
    CHECK_STATUS(seer_read_input_file(handle(), path, NULL, SEER_CSV_MAX_BYTES, &buf, &n), SEER_STATUS_BAD_PARAM);
    CHECK(msg_has("seer_read_input_file: what is NULL"));
    CHECK_STATUS(seer_read_input_file(handle(), path, "CSV", SEER_CSV_MAX_BYTES, &buf, NULL), SEER_STATUS_BAD_PARAM);
    CHECK(msg_has("seer_read_input_file: size is NULL") && buf == NULL);
    /* "an" before a vowel */
    CHECK_STATUS(seer_read_input_file(handle(), "/dev/zero", "ONNX model", SEER_ONNX_MAX_BYTES, &buf, &n),
                 SEER_STATUS_IO_ERROR);
    CHECK(msg_has("/dev/zero: is a character device, not an ONNX model file"));
    unlink(path);
}

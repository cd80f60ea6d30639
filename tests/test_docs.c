/* The documented examples do what the docs say. */
#include <stdlib.h>
#include <sys/wait.h>
#include "test.h"

TEST(docs_example_predicts_and_lists_kernels)
{
    const char *bin = getenv("SEER_EXAMPLE_BIN");
    if (!bin) SKIP("SEER_EXAMPLE_BIN not set (make test sets it)");
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s models/t4.seer > /tmp/seer-example.out 2>&1", bin);
    int rc = system(cmd);
    CHECK(rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 0);
    char *out = test_slurp("/tmp/seer-example.out");
    REQUIRE(out != NULL);
    CHECK(strstr(out, "GPU t4, fwd WINOGRAD_NONFUSED, output 56x56:") != NULL);
    CHECK(strstr(out, " main ") != NULL);
    free(out);
    /* A missing model: the status and the handle's message, exit 1. */
    snprintf(cmd, sizeof cmd, "%s /nonexistent.seer > /tmp/seer-example.out 2>&1", bin);
    rc = system(cmd);
    CHECK(rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 1);
    out = test_slurp("/tmp/seer-example.out");
    REQUIRE(out != NULL);
    CHECK(strstr(out, "seer_model_load: SEER_STATUS_IO_ERROR") != NULL);
    free(out);
}

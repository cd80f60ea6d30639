/* The Python package (python/, docs/python.md): its pytest suite against
 * the library just built (SEER_LIB, set by make test).  Skipped, saying
 * why, where no python3 with pytest exists or the library carries the
 * address sanitizer (whose runtime cannot be loaded into python). */
#include <stdlib.h>
#include <sys/wait.h>
#include "test.h"

/* A python3 that has pytest: Debian's first (it also has onnx), then the
 * one on PATH.  NULL if none. */
static const char *python_with_pytest(void)
{
    static const char *const cands[] = {"/usr/bin/python3", "python3"};
    for (size_t i = 0; i < sizeof cands / sizeof *cands; i++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "%s -c 'import pytest' >/dev/null 2>&1", cands[i]);
        int rc = system(cmd);
        if (rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 0) return cands[i];
    }
    return NULL;
}

TEST(python_package_pytest)
{
    const char *san = getenv("SEER_SANITIZE"), *lib = getenv("SEER_LIB");
    if (san && strstr(san, "address")) SKIP("python tests need a library without the address sanitizer");
    if (!lib || !*lib) SKIP("SEER_LIB not set (run through make test)");
    const char *py = python_with_pytest();
    if (!py) SKIP("no python3 with pytest (Debian: python3-pytest)");
    char log[64], cmd[1024];
    if (!test_write_temp(log, "")) { CHECK(!"temp file"); return; }
    snprintf(cmd, sizeof cmd, "SEER_LIBRARY='%s' %s -m pytest -q -p no:cacheprovider python/tests > %s 2>&1", lib,
             py, log);
    int rc = system(cmd);
    char *out = test_slurp(log);
    remove(log);
    int ok = rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 0;
    if (!ok && out) printf("\n%s", out);
    CHECK(ok);
    free(out);
}

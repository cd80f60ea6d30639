/* The documented examples do what the docs say. */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
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

/* docs/api.md has a reference entry (a heading naming it in backquotes)
 * for every function include/seer.h declares, and docs/example.c is the
 * program api.md shows. */
TEST(docs_api_covers_every_public_function)
{
    char *h = test_slurp("include/seer.h"), *api = test_slurp("docs/api.md"),
         *ex = test_slurp("docs/example.c");
    REQUIRE(h && api && ex);
    int n = 0;
    for (const char *p = strstr(h, "SEER_API "); p; p = strstr(p + 1, "SEER_API ")) {
        const char *paren = strchr(p, '('), *name = paren;
        if (!paren || p[-1] != '\n') continue; /* the #define of SEER_API itself */
        while (name > p && (name[-1] == '_' || (name[-1] >= 'a' && name[-1] <= 'z') ||
                            (name[-1] >= '0' && name[-1] <= '9')))
            name--;
        char want[80];
        snprintf(want, sizeof want, "`%.*s`", (int)(paren - name), name);
        /* in a heading: a line starting with '#' that holds the name */
        int found = 0;
        for (const char *q = strstr(api, want); q && !found; q = strstr(q + 1, want)) {
            const char *line = q;
            while (line > api && line[-1] != '\n') line--;
            found = *line == '#';
        }
        if (!found) {
            printf("\n    docs/api.md has no heading for %s", want);
            test_fail(__FILE__, __LINE__, "every public function has a reference entry");
        }
        n++;
    }
    CHECK(n > 60);
    const char *body = strstr(ex, "#include <stdio.h>");
    REQUIRE(body);
    char *end = strstr(ex, "\n}\n");
    REQUIRE(end);
    end[3] = 0;
    CHECK(strstr(api, body) != NULL);
    free(h);
    free(api);
    free(ex);
}

/* docs/cli.md's `seer info models/t4.seer` example is the shipped model's
 * own output: its counts and checksum went stale once when the models
 * were retrained (3130 rows shown, 3009 trained). */
TEST(docs_cli_info_example_is_current)
{
    if (access("models/t4.seer", R_OK) != 0) SKIP("shipped models missing");
    test_run_t r;
    test_run_seer(&r, "info", "models/t4.seer", NULL);
    char *doc = test_slurp("docs/cli.md");
    REQUIRE(doc != NULL);
    CHECK(r.rc == 0);
    static const char *const keys[] = {"families ", "svms ", "rows ", "checksum ", "provenance "};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        const char *at = strstr(r.out, keys[i]);
        char line[1024] = "";
        if (at) sscanf(at, "%1023[^\n]", line);
        CHECK(line[0] && strstr(doc, line) != NULL);
        if (!line[0] || !strstr(doc, line)) printf("\n    docs/cli.md lacks '%s'", line);
    }
    free(doc);
    test_run_free(&r);
}

/* The build-tree link line of docs/example.c's header and of docs/api.md
 * is the Makefile's own (LIBS): a library dropped from one of them only
 * fails a program that happens to pull that object (protobuf-c: ONNX). */
TEST(docs_example_link_line_is_the_makefiles)
{
    char *mk = test_slurp("Makefile"), *api = test_slurp("docs/api.md"), *ex = test_slurp("docs/example.c");
    REQUIRE(mk && api && ex);
    const char *libs = strstr(mk, "\nLIBS ");
    REQUIRE(libs != NULL);
    libs = strchr(libs, '=');
    REQUIRE(libs != NULL);
    libs += strspn(libs + 1, " ") + 1;
    char want[256];
    snprintf(want, sizeof want, "build/libseer.a %.*s -o example", (int)strcspn(libs, "\n"), libs);
    CHECK(strstr(ex, want) != NULL);
    CHECK(strstr(api, want) != NULL);
    if (!strstr(ex, want) || !strstr(api, want)) printf("\n    want: %s", want);
    free(mk);
    free(api);
    free(ex);
}

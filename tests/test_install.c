/* Packaging: `make install` into a temporary prefix, then a fully static
 * link of docs/example.c with what seer.pc says (Libs.private must name
 * everything LIBSVM needs, -lstdc++ included), and a run of the result. */
#include <stdlib.h>
#include <unistd.h>
#include "test.h"

/* make uninstall removes what make install put in place and nothing else:
 * a model the user added to share/seer/models and a file beside the
 * libraries stay (with their directories); the directories left empty go. */
TEST(install_uninstall_removes_only_what_install_put)
{
    /* make install builds and installs build/: not a sanitizer tree's */
    if (strcmp(test_seer_bin(), "build/seer") != 0) SKIP("not the plain build/ tree");
    char dir[] = "/tmp/seer-install-XXXXXX";
    REQUIRE(mkdtemp(dir) != NULL);
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "env -u MAKEFLAGS -u MAKELEVEL make -s install PREFIX=%s/p >%s/log 2>&1 && "
             "cp models/t4.seer %s/p/share/seer/models/mine.seer && : >%s/p/lib/libseer-mine.txt && "
             "env -u MAKEFLAGS -u MAKELEVEL make -s uninstall PREFIX=%s/p >>%s/log 2>&1",
             dir, dir, dir, dir, dir, dir);
    int rc = system(cmd);
    if (rc != 0) {
        snprintf(cmd, sizeof cmd, "cat %s/log", dir);
        if (system(cmd)) {}
    }
    CHECK(rc == 0);
    /* all that is left: the prefix's own directories (install may not
     * have made them, so uninstall leaves them), the two files and theirs */
    snprintf(cmd, sizeof cmd,
             "cd %s/p && test \"$(find . | sort | tr '\\n' ' ')\" = "
             "'. ./bin ./include ./lib ./lib/libseer-mine.txt ./share ./share/seer ./share/seer/models "
             "./share/seer/models/mine.seer '",
             dir);
    CHECK(system(cmd) == 0);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
}

TEST(install_static_link_with_pkg_config)
{
    /* Sanitizer builds install instrumented archives that only link with
     * the sanitizer runtime: the plain build is the one users get. */
    if (strcmp(test_seer_bin(), "build/seer") != 0) SKIP("not the plain build/ tree");
    if (system("command -v pkg-config >/dev/null 2>&1") != 0) SKIP("pkg-config not installed");
    char dir[] = "/tmp/seer-install-XXXXXX";
    REQUIRE(mkdtemp(dir) != NULL);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "env -u MAKEFLAGS -u MAKELEVEL make -s install PREFIX=%s >%s/log 2>&1", dir,
             dir);
    CHECK(system(cmd) == 0);
    snprintf(cmd, sizeof cmd,
             "PKG_CONFIG_PATH=%s/lib/pkgconfig; export PKG_CONFIG_PATH; "
             "grep -q 'Libs.private: .*-lstdc++' %s/lib/pkgconfig/seer.pc && "
             "cc -static -std=c11 docs/example.c $(pkg-config --static --cflags --libs seer) -o %s/ex "
             ">>%s/log 2>&1 && %s/ex models/t4.seer >/dev/null",
             dir, dir, dir, dir, dir);
    int rc = system(cmd);
    if (rc != 0) {
        snprintf(cmd, sizeof cmd, "cat %s/log", dir);
        if (system(cmd)) {}
    }
    CHECK(rc == 0);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
}

/* libseer.a exports every global its objects define (hidden visibility
 * only reaches the shared library): any name outside seer_ can collide
 * with the application's, as the generated ONNX code's onnx__ names did
 * with an application's own protobuf-c ONNX code ("multiple definition
 * of onnx__model_proto__unpack").  The Makefile generates it in package
 * seer_onnx. */
TEST(install_static_archive_defines_only_seer_names)
{
    if (system("command -v nm >/dev/null 2>&1") != 0) SKIP("nm not installed");
    char lib[512];
    const char *bin = test_seer_bin(), *slash = strrchr(bin, '/');
    snprintf(lib, sizeof lib, "%.*slibseer.a", slash ? (int)(slash - bin + 1) : 0, bin);
    char cmd[1024];
    /* the archive must be read (and define seer_ names) for the check to mean anything */
    snprintf(cmd, sizeof cmd, "nm -g --defined-only %s | grep -q ' seer_onnx__model_proto__unpack$'", lib);
    CHECK(system(cmd) == 0);
    /* ASan adds __odr_asan.NAME for each global NAME: the toolchain's name, NAME checked */
    snprintf(cmd, sizeof cmd,
             "nm -g --defined-only %s | awk 'NF == 3 { s = $3; sub(/^__odr_asan[._]/, \"\", s) }"
             " NF == 3 && s !~ /^seer_/ { print; n++ } END { exit n > 0 }'",
             lib);
    CHECK(system(cmd) == 0);
}

/* Packaging: `make install` into a temporary prefix, then a fully static
 * link of docs/example.c with what seer.pc says (Libs.private must name
 * everything LIBSVM needs, -lstdc++ included), and a run of the result. */
#include <stdlib.h>
#include <unistd.h>
#include "test.h"

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

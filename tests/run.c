/* Test helpers for running the seer CLI as a program. */
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "test.h"

static char *slurp_fd(int fd)
{
    size_t len = 0, cap = 4096;
    char *b = malloc(cap);
    ssize_t got;
    if (!b) return NULL;
    lseek(fd, 0, SEEK_SET);
    while ((got = read(fd, b + len, cap - len - 1)) > 0) {
        len += (size_t)got;
        if (len + 1 == cap) {
            char *nb = realloc(b, cap *= 2);
            if (!nb) break;
            b = nb;
        }
    }
    b[len] = '\0';
    return b;
}

char *test_slurp(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) return NULL;
    char *b = slurp_fd(fd);
    close(fd);
    return b;
}

void test_run_seer(test_run_t *r, ...)
{
    const char *argv[64];
    int argc = 0;
    va_list ap;
    argv[argc++] = test_seer_bin();
    va_start(ap, r);
    for (const char *s; argc < 63 && (s = va_arg(ap, const char *));) argv[argc++] = s;
    va_end(ap);
    argv[argc] = NULL;

    char out_path[] = "/tmp/seer-test-outXXXXXX", err_path[] = "/tmp/seer-test-errXXXXXX";
    int fo = mkstemp(out_path), fe = mkstemp(err_path);
    r->rc = -1;
    r->out = r->err = NULL;
    if (fo >= 0 && fe >= 0) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            dup2(fo, 1);
            dup2(fe, 2);
            execv(argv[0], (char *const *)argv);
            _exit(127);
        }
        int status;
        if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status))
            r->rc = WEXITSTATUS(status);
        r->out = slurp_fd(fo);
        r->err = slurp_fd(fe);
    }
    if (fo >= 0) { close(fo); unlink(out_path); }
    if (fe >= 0) { close(fe); unlink(err_path); }
    if (!r->out) r->out = calloc(1, 1);
    if (!r->err) r->err = calloc(1, 1);
}

void test_run_free(test_run_t *r)
{
    free(r->out);
    free(r->err);
}

int test_write_temp(char path[64], const char *text)
{
    snprintf(path, 64, "/tmp/seer-test-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0) return 0;
    size_t len = strlen(text);
    int ok = write(fd, text, len) == (ssize_t)len;
    close(fd);
    return ok;
}

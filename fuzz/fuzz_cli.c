/* Fuzz the seer CLI's option parsing (tools/cli.c): the input is an
 * argument vector, one argument per line (or NUL-separated).  Every option
 * is read the way the subcommands read theirs (conv shape options, integers
 * with bounds, choices, multi-value lists, flags, optional memory sizes),
 * then the shape goes
 * through seer_conv_desc_set.  Invariants: integers come back within their
 * bounds, a failed option always says why, nothing crashes or hangs. */
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "seer.h"
#include "fuzz.h"
#include "../tools/cli.h"

int seer_fuzz_cli(const uint8_t *data, size_t size);

static const char *const choices[] = {"text", "csv", "json", NULL};
static const struct option opts[] = {CLI_CONV_OPTIONS, CLI_VALUE("batch"), CLI_VALUE("top"), CLI_VALUE("format"),
                                     CLI_VALUE("data"), CLI_FLAG("fit"), CLI_FLAG("kernels"), CLI_VALUE("model"),
                                     CLI_END};

static int parse(int argc, char **argv)
{
    cli_args_t a;
    cli_conv_opts_t conv;
    const char **list = NULL;
    int nlist = 0, v, bad = 0;
    memset(&conv, 0, sizeof conv);
    cli_args_init(&a, "fuzz", opts, argc, argv);
    while (cli_next(&a) && !bad) {
        int r = cli_conv_opt(&a, &conv);
        if (r < 0) bad = 1;
        if (r != 0) continue;
        if (cli_is(&a, "--batch")) {
            if (!cli_int(&a, 1, 1 << 24, &v)) bad = 1;
            else if (v < 1 || v > 1 << 24) abort();
        } else if (cli_is(&a, "--top")) {
            if (!cli_int(&a, 0, INT_MAX, &v)) bad = 1;
            else if (v < 0) abort();
        } else if (cli_is(&a, "--format")) {
            int c = cli_choice(&a, choices);
            if (c < -1 || c > 2) abort();
            bad = c < 0;
        } else if (cli_is(&a, "--data")) {
            bad = !cli_values(&a, &list, &nlist);
        } else if (cli_is(&a, "--fit")) {
            double b = -1;
            if (!cli_opt_bytes(&a, &b)) bad = 1;
            else if (!(b >= 0 && b <= 1e18 * 1099511627776.0)) abort(); /* 0: no value */
        } else if (cli_is(&a, "--kernels")) {
            bad = !cli_flag(&a);
        } else if (cli_is(&a, "--model")) {
            bad = !cli_value(&a);
        } else if (a.opt || a.pos) {
            cli_unknown(&a);
            bad = 1;
        }
    }
    for (int i = 0; i < nlist; i++)
        if (!list[i]) abort();
    free(list);
    if (!bad && !cli_conv_opt_name(&conv, 0)) {
        seer_handle_t h;
        seer_conv_desc_t d;
        if (seer_create(&h)) return 0;
        if (!seer_conv_desc_create(&d)) {
            if (cli_conv_desc_set(h, d, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, &conv) &&
                !seer_get_last_error(h)[0])
                abort(); /* a rejected shape says why */
            seer_conv_desc_destroy(d);
        }
        seer_destroy(h);
    }
    return 0;
}

int seer_fuzz_cli(const uint8_t *data, size_t size)
{
    if (size > 4096) return 0;
    char *buf = malloc(size + 1);
    char **argv = malloc(sizeof *argv * (size + 3));
    if (!buf || !argv) { free(buf); free(argv); return 0; }
    memcpy(buf, data, size);
    buf[size] = 0;
    /* argv[0] is the command's name, as main's: the input's lines follow */
    static char name[] = "fuzz";
    int argc = 0;
    argv[argc++] = name;
    argv[argc++] = buf;
    for (size_t i = 0; i < size; i++)
        if (buf[i] == '\n' || buf[i] == '\0') {
            buf[i] = 0;
            argv[argc++] = buf + i + 1;
        }
    argv[argc] = NULL;
    /* Usage errors go to stderr: keep the replay quiet. */
    fflush(stderr);
    int saved = dup(2), nul = open("/dev/null", O_WRONLY);
    if (nul >= 0) dup2(nul, 2);
    parse(argc, argv);
    fflush(stderr);
    if (saved >= 0) { dup2(saved, 2); close(saved); }
    if (nul >= 0) close(nul);
    free(argv);
    free(buf);
    return 0;
}

SEER_FUZZ_TARGET(cli)

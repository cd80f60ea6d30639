/* Shared helpers of the seer CLI (see cli.h). */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <strings.h>
#include <sys/stat.h>
#include "cli.h"

#ifndef SEER_PREFIX
#define SEER_PREFIX "/usr/local"
#endif

/* ------------------------------------------------------------------ */
/* Errors                                                              */
/* ------------------------------------------------------------------ */

static void vmsg(const char *cmd, const char *fmt, va_list ap)
{
    fprintf(stderr, "seer%s%s: ", cmd ? " " : "", cmd ? cmd : "");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg(cmd, fmt, ap);
    va_end(ap);
    return CLI_USAGE;
}

int cli_fail(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg(cmd, fmt, ap);
    va_end(ap);
    return CLI_FAIL;
}

int cli_lib_error(seer_handle_t h, seer_status_t st)
{
    const char *msg = h ? seer_get_last_error(h) : "";
    if (msg && *msg)
        fprintf(stderr, "seer: %s: %s\n", seer_status_string(st), msg);
    else
        fprintf(stderr, "seer: %s\n", seer_status_string(st));
    return CLI_FAIL;
}

/* ------------------------------------------------------------------ */
/* Option parsing                                                      */
/* ------------------------------------------------------------------ */

static int is_option(const char *s) { return s[0] == '-' && s[1] != '\0'; }

void cli_args_init(cli_args_t *a, const char *cmd, const struct option *opts, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    a->cmd = cmd;
    a->opts = opts;
    a->argc = argc;
    a->argv = argv;
    optind = 0; /* glibc: 0 starts a fresh scan (state and all), whatever the last one left */
    opterr = 0; /* the messages are ours */
}

/* The argument's name as typed: up to '=' (when the name is short). */
static const char *typed_name(const char *s)
{
    static char name[64];
    const char *eq = strchr(s, '=');
    if (!eq || (size_t)(eq - s) >= sizeof name) return s;
    memcpy(name, s, (size_t)(eq - s));
    name[eq - s] = '\0';
    return name;
}

int cli_next(cli_args_t *a)
{
    a->opt = a->inline_val = a->next_val = a->pos = NULL;
    int at = optind ? optind : 1, idx = -1; /* the argument getopt reads next */
    if (a->done || at >= a->argc) return 0;
    if (!strcmp(a->argv[at], "--")) { /* getopt would end the scan here */
        a->opt = "--";
        a->done = 1;
        return 1;
    }
    /* "-": positionals in place; ":": a missing value is ':', not '?' */
    int c = getopt_long(a->argc, a->argv, "-:h", a->opts, &idx);
    if (c == -1) return 0;
    if (c == 1) {
        a->pos = optarg;
        return 1;
    }
    const char *s = a->argv[at];
    a->opt = typed_name(s);
    /* Exact names only ("--mod" is no --model; "-hx" is no -h).  The
     * name getopt matched is this option's; an unknown one ('?') stays
     * as typed for cli_unknown. */
    int exact = c == 'h' ? !strcmp(a->opt, "-h")
                         : c == 0 && idx >= 0 && a->opt[0] == '-' && a->opt[1] == '-' &&
                               !strcmp(a->opt + 2, a->opts[idx].name);
    /* (a missing value, ':', leaves both NULL: cli_value says so) */
    if (exact && optarg && a->opt != s) a->inline_val = optarg;
    else if (exact) a->next_val = optarg;
    return 1;
}

int cli_is(const cli_args_t *a, const char *name)
{
    return a->opt && strcmp(a->opt, name) == 0;
}

const char *cli_value(cli_args_t *a)
{
    if (a->inline_val) return a->inline_val;
    /* A value may look like an option only if it is a negative number,
     * so `--pad -1` reaches the shape check instead of "missing value". */
    const char *v = a->next_val;
    if (v && (!is_option(v) || (v[0] == '-' && v[1] >= '0' && v[1] <= '9'))) return v;
    cli_usage_error(a->cmd, "option %s needs a value", a->opt);
    return NULL;
}

int cli_flag(cli_args_t *a)
{
    if (a->inline_val) {
        cli_usage_error(a->cmd, "option %s takes no value", a->opt);
        return 0;
    }
    return 1;
}

int cli_int(cli_args_t *a, long lo, long hi, int *out)
{
    const char *v = cli_value(a);
    if (!v) return 0;
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (lo < INT_MIN) lo = INT_MIN;
    if (hi > INT_MAX) hi = INT_MAX;
    /* strtol skips leading blanks: " 5" was taken where "5 " was not */
    if (!*v || isspace((unsigned char)*v) || *end) {
        cli_usage_error(a->cmd, "option %s: expected an integer, got '%s'", a->opt, v);
        return 0;
    }
    if (errno == ERANGE || x < lo || x > hi) {
        cli_usage_error(a->cmd, "option %s: %s is out of range [%ld, %ld]", a->opt, v, lo, hi);
        return 0;
    }
    *out = (int)x;
    return 1;
}

int cli_double(cli_args_t *a, double lo, double hi, double *out)
{
    const char *v = cli_value(a);
    if (!v) return 0;
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (!*v || isspace((unsigned char)*v) || *end || !isfinite(x)) {
        cli_usage_error(a->cmd, "option %s: expected a number, got '%s'", a->opt, v);
        return 0;
    }
    if (errno == ERANGE || x < lo || x > hi) {
        cli_usage_error(a->cmd, "option %s: %s is out of range [%g, %g]", a->opt, v, lo, hi);
        return 0;
    }
    *out = x;
    return 1;
}

int cli_choice(cli_args_t *a, const char *const *choices)
{
    const char *v = cli_value(a);
    if (!v) return -1;
    for (int i = 0; choices[i]; i++)
        if (strcmp(v, choices[i]) == 0) return i;
    char list[256] = "";
    for (int i = 0; choices[i]; i++) {
        if (i) strncat(list, "|", sizeof list - strlen(list) - 1);
        strncat(list, choices[i], sizeof list - strlen(list) - 1);
    }
    cli_usage_error(a->cmd, "option %s: expected %s, got '%s'", a->opt, list, v);
    return -1;
}

int cli_direction(cli_args_t *a)
{
    const char *v = cli_value(a);
    seer_direction_t d;
    if (!v) return -1;
    if (!seer_direction_from_name(v, &d)) return (int)d; /* also dgrad, wgrad, ... (formats.md) */
    cli_usage_error(a->cmd, "option %s: expected fwd|bwd_data|bwd_filter, got '%s'", a->opt, v);
    return -1;
}

static int push(const char ***list, int *n, const char *v)
{
    const char **nl = realloc(*list, (size_t)(*n + 1) * sizeof *nl);
    if (!nl) return 0;
    nl[(*n)++] = v;
    *list = nl;
    return 1;
}

int cli_values(cli_args_t *a, const char ***list, int *n)
{
    const char *v = cli_value(a);
    if (!v) return 0;
    if (!push(list, n, v)) goto oom;
    if (a->inline_val) return 1;
    while (optind < a->argc && !is_option(a->argv[optind]))
        if (!push(list, n, a->argv[optind++])) goto oom;
    return 1;
oom:
    cli_fail(a->cmd, "out of memory");
    return 0;
}

int cli_opt_bytes(cli_args_t *a, double *bytes)
{
    static const struct { const char *unit; double scale; } units[] = {
        {"", 1}, {"B", 1}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
        {"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0}, {"TiB", 1099511627776.0}};
    const char *s = a->inline_val; /* --fit is a CLI_FLAG: getopt takes only an inline value */
    if (!s && optind < a->argc && a->argv[optind][0] >= '0' && a->argv[optind][0] <= '9') s = a->argv[optind++];
    *bytes = 0;
    if (!s) return 1;
    char *end;
    double v = strtod(s, &end);
    if (end != s && !isspace((unsigned char)*s) && v > 0 && v <= 1e18)
        for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
            if (!strcasecmp(end, units[i].unit)) { *bytes = v * units[i].scale; return 1; }
    cli_usage_error(a->cmd, "option %s: expected a size such as 40GiB, 16GB or bytes, got '%s'", a->opt, s);
    return 0;
}

int cli_unknown(const cli_args_t *a)
{
    if (a->pos) return cli_usage_error(a->cmd, "unexpected argument '%s' (see seer %s --help)", a->pos, a->cmd);
    return cli_usage_error(a->cmd, "unknown option %s (see seer %s --help)", a->opt, a->cmd);
}

/* ------------------------------------------------------------------ */
/* Output escaping                                                     */
/* ------------------------------------------------------------------ */

/* The length of the well-formed UTF-8 sequence at p (RFC 3629: no
 * overlong forms, surrogates or code points past U+10FFFF), 0 if none. */
static int utf8_len(const unsigned char *p)
{
    int n = p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc2 && p[0] <= 0xdf ? 2 : 0;
    if (p[0] >= 0xf5) n = 0;
    for (int i = 1; i < n; i++)
        if ((p[i] & 0xc0) != 0x80) return 0;
    if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] >= 0xa0) || (p[0] == 0xf0 && p[1] < 0x90) ||
        (p[0] == 0xf4 && p[1] >= 0x90))
        return 0;
    return n;
}

void cli_json_str(FILE *f, const char *s)
{
    if (!s) {
        fputs("null", f);
        return;
    }
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p >= 0x80) { /* JSON is Unicode: a byte of no UTF-8 character becomes U+FFFD */
            int n = utf8_len(p);
            if (n) {
                fwrite(p, 1, (size_t)n, f);
                p += n - 1;
            } else {
                fputs("\\ufffd", f);
            }
            continue;
        }
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (*p < 0x20) fprintf(f, "\\u%04x", *p);
            else fputc(*p, f);
        }
    }
    fputc('"', f);
}

void cli_json_num(FILE *f, double v)
{
    if (isfinite(v)) fprintf(f, "%.6g", v);
    else fputs("null", f);
}

void cli_json_num_field(const char *key, double v)
{
    printf(", \"%s\": ", key);
    cli_json_num(stdout, v);
}

void cli_json_str_field(const char *key, const char *s)
{
    printf(", \"%s\": ", key);
    cli_json_str(stdout, s);
}

int cli_gemm_only_file(const char *dir, const char *id)
{
    char path[4096];
    seer_handle_t h = NULL;
    seer_model_t m = NULL;
    seer_model_info_t info;
    int r = snprintf(path, sizeof path, "%s/%s.seer", dir, id) < (int)sizeof path && !seer_create(&h) &&
            !seer_model_load(h, path, &m) && !seer_model_get_info(m, &info) && info.n_families == 0;
    seer_model_destroy(m);
    seer_destroy(h);
    return r;
}

/* The GPU whose model cli_open_model served from a GEMM-only file (its
 * convs transferred): the served model's info cannot tell. */
static char served_gemm_only[32];

const char *cli_served_kind(const seer_model_info_t *mi)
{
    return mi->transferred ? "transferred" : !strcmp(served_gemm_only, mi->gpu_id) ? "gemm-calibrated" : "calibrated";
}

void cli_json_served(const seer_model_info_t *mi)
{
    cli_json_str_field("served", cli_served_kind(mi));
    cli_json_str_field("source_gpus", mi->source_gpus);
}

const char *cli_served_words(const seer_model_info_t *mi)
{
    const char *k = cli_served_kind(mi);
    return strcmp(k, "gemm-calibrated") ? k : "calibrated GEMMs, transferred convolutions";
}

void cli_print_model_line(const seer_model_info_t *mi)
{
    printf("model     %s (%s%s)\n", mi->gpu_id, mi->transferred ? "transferred from " : cli_served_words(mi),
           mi->transferred ? mi->source_gpus : "");
}

void cli_csv_field(FILE *f, const char *s) { seer_csv_write_field(f, s); }

/* ------------------------------------------------------------------ */
/* Numbers                                                             */
/* ------------------------------------------------------------------ */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void cli_sort_doubles(double *v, size_t n) { qsort(v, n, sizeof *v, cmp_double); }

double cli_median_sorted(const double *v, size_t n)
{
    if (n == 0) return NAN;
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* ------------------------------------------------------------------ */
/* Models                                                              */
/* ------------------------------------------------------------------ */

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *cli_models_dir(const char *dir_opt)
{
    if (dir_opt && *dir_opt) return dir_opt;
    const char *env = getenv("SEER_MODELS");
    if (env && *env) return env;
    if (is_dir("models")) return "models";
    /* Installed: the models sit at ../share/seer/models from the binary,
     * wherever PREFIX was. */
    static char beside[4096];
    ssize_t n = readlink("/proc/self/exe", beside, sizeof beside - 32);
    if (n > 0) {
        beside[n] = 0;
        char *slash = strrchr(beside, '/');
        if (slash) {
            strcpy(slash, "/../share/seer/models");
            if (is_dir(beside)) return beside;
        }
    }
    return SEER_PREFIX "/share/seer/models";
}

int cli_gpu_is_file(const char *gpu_opt)
{
    struct stat st;
    /* GPU ids never hold a '/'; a bare name is a file only if one exists */
    return gpu_opt && (strchr(gpu_opt, '/') || (stat(gpu_opt, &st) == 0 && !S_ISDIR(st.st_mode)));
}

int cli_gpu_resolve(seer_handle_t h, const char *cmd, const char *gpu_opt, seer_gpu_info_t *g)
{
    seer_status_t st;
    if (cli_gpu_is_file(gpu_opt)) {
        if ((st = seer_gpu_register_file(h, gpu_opt, g)) != SEER_STATUS_SUCCESS)
            return cli_usage_error(cmd, "option --gpu: %s", h ? seer_get_last_error(h) : seer_status_string(st));
        return CLI_OK;
    }
    if (seer_gpu_find(h, gpu_opt, g) != SEER_STATUS_SUCCESS)
        return cli_usage_error(cmd, "option --gpu: unknown GPU '%s' (see seer gpus; or give a GPU "
                               "description file)", gpu_opt);
    return CLI_OK;
}

const char *cli_model_path(const char *cmd, const char *model_opt, const char *gpu_opt,
                           const char *models_opt)
{
    static char path[4096];
    if (model_opt) return model_opt;
    if (!gpu_opt) {
        cli_usage_error(cmd, "give --model FILE or --gpu GPU");
        return NULL;
    }
    seer_gpu_info_t g;
    seer_handle_t h = NULL;
    if (seer_create(&h) != SEER_STATUS_SUCCESS) {
        cli_usage_error(cmd, "out of memory");
        return NULL;
    }
    int rc = cli_gpu_resolve(h, cmd, gpu_opt, &g);
    seer_destroy(h);
    if (rc != CLI_OK) return NULL;
    int len = snprintf(path, sizeof path, "%s/%s.seer", cli_models_dir(models_opt), g.id);
    if (len < 0 || (size_t)len >= sizeof path) {
        cli_usage_error(cmd, "option --models: directory name too long");
        return NULL;
    }
    return path;
}

/* v[] and set[] follow the order of CLI_CONV_OPTIONS. */
static const struct option conv_opts[CLI_CONV_OPTS] = {CLI_CONV_OPTIONS};
enum { O_N, O_C, O_H, O_W, O_K, O_R, O_S, O_PAD, O_PH, O_PW, O_STR, O_SH, O_SW, O_DIL, O_DH, O_DW, O_G };

int cli_conv_opt(cli_args_t *a, cli_conv_opts_t *c)
{
    for (int i = 0; i < CLI_CONV_OPTS && a->opt && !strncmp(a->opt, "--", 2); i++)
        if (!strcmp(a->opt + 2, conv_opts[i].name)) {
            if (!cli_int(a, INT_MIN, INT_MAX, &c->v[i])) return -1;
            c->set[i] = 1;
            return 1;
        }
    return 0;
}

const char *cli_conv_opt_name(const cli_conv_opts_t *c, int any)
{
    static char name[16];
    for (int i = 0; i < (any ? CLI_CONV_OPTS : CLI_CONV_REQUIRED); i++)
        if (c->set[i] == any) {
            snprintf(name, sizeof name, "--%s", conv_opts[i].name);
            return name;
        }
    return NULL;
}

/* The specific option, else the one for both dimensions, else dflt. */
static int conv_val(const cli_conv_opts_t *c, int one, int both, int dflt)
{
    return c->set[one] ? c->v[one] : both >= 0 && c->set[both] ? c->v[both] : dflt;
}

seer_status_t cli_conv_desc_set(seer_handle_t h, seer_conv_desc_t d, seer_dtype_t dtype,
                                seer_layout_t layout, const cli_conv_opts_t *c)
{
    /* padding defaults to "same" for odd filters: half the dilated
     * filter's span, dil (r - 1) / 2, in int64 (a fixed 1 padded 1x1
     * convs and shrank 7x7 ones; a bad filter size or dilation is named
     * by the descriptor's own check) */
    int r = conv_val(c, O_R, -1, 3), s = conv_val(c, O_S, -1, 3);
    int dh = conv_val(c, O_DH, O_DIL, 1), dw = conv_val(c, O_DW, O_DIL, 1);
    long long ph = r > 0 && dh > 0 ? (long long)dh * (r - 1) / 2 : 0;
    long long pw = s > 0 && dw > 0 ? (long long)dw * (s - 1) / 2 : 0;
    return seer_conv_desc_set(h, d, dtype, layout, c->v[O_N], c->v[O_C], c->v[O_H], c->v[O_W],
                              c->v[O_K], r, s,
                              conv_val(c, O_PH, O_PAD, ph > INT_MAX ? INT_MAX : (int)ph),
                              conv_val(c, O_PW, O_PAD, pw > INT_MAX ? INT_MAX : (int)pw),
                              conv_val(c, O_SH, O_STR, 1), conv_val(c, O_SW, O_STR, 1), dh, dw,
                              conv_val(c, O_G, -1, 1));
}

int cli_open_model(seer_handle_t h, const char *cmd, const char *model_opt, const char *gpu_opt,
                   const char *models_opt, seer_model_t *m)
{
    *m = NULL;
    seer_gpu_info_t g;
    if (gpu_opt) {
        /* a description file registers its GPU on h: the model for it (or
         * one transferred to it) then loads, under the id the file gives */
        int rc = cli_gpu_resolve(h, cmd, gpu_opt, &g);
        if (rc != CLI_OK) return rc;
        gpu_opt = g.id;
    } else if (!model_opt) {
        return cli_usage_error(cmd, "give --model FILE or --gpu GPU");
    }
    seer_status_t st = model_opt ? seer_model_load(h, model_opt, m)
                                 : seer_model_open(h, cli_models_dir(models_opt), gpu_opt, m);
    if (st) return cli_lib_error(h, st);
    if (!model_opt && cli_gemm_only_file(cli_models_dir(models_opt), gpu_opt))
        snprintf(served_gemm_only, sizeof served_gemm_only, "%s", gpu_opt);
    if (gpu_opt && model_opt) {
        seer_model_info_t info;
        seer_model_get_info(*m, &info);
        if (!cli_same_gpu(info.gpu_id, gpu_opt)) {
            seer_model_destroy(*m);
            *m = NULL;
            return cli_usage_error(cmd, "option --gpu: %s does not match the model's GPU %s", gpu_opt,
                                   info.gpu_id);
        }
    }
    return CLI_OK;
}

int cli_gpu_known(seer_handle_t h, const char *id)
{
    seer_gpu_info_t g;
    return seer_gpu_find(h, id, &g) == SEER_STATUS_SUCCESS;
}

const char *cli_gpu_id(seer_handle_t h, const char *name, seer_gpu_info_t *g)
{
    return seer_gpu_find(h, name, g) == SEER_STATUS_SUCCESS ? g->id : name;
}

void cli_note_meant_for(const char *cmd, const char *model_gpu, const char *first)
{
    fprintf(stderr, "seer %s: no row names GPU %s nor any GPU libseer knows (the first says '%s'): "
                    "every row taken as measured on %s\n", cmd, model_gpu, first, model_gpu);
}

int cli_same_gpu(const char *a, const char *b)
{
    /* the table only (no handle): a registered GPU's id is compared as written */
    seer_gpu_info_t ga, gb;
    if (!seer_gpu_find(NULL, a, &ga) && !seer_gpu_find(NULL, b, &gb)) return strcmp(ga.id, gb.id) == 0;
    return strcasecmp(a, b) == 0;
}

/* ------------------------------------------------------------------ */
/* Prediction                                                          */
/* ------------------------------------------------------------------ */

int cli_algo_count(seer_direction_t dir)
{
    switch (dir) {
    case SEER_DIR_FWD: return SEER_FWD_ALGO_COUNT;
    case SEER_DIR_BWD_DATA: return SEER_BWD_DATA_ALGO_COUNT;
    case SEER_DIR_BWD_FILTER: return SEER_BWD_FILTER_ALGO_COUNT;
    }
    return 0;
}

seer_status_t cli_pick_algos(seer_handle_t h, const seer_model *m, const seer_conv *d, seer_direction_t dir,
                             size_t limit, seer_conv_algo_perf_t *perf, int capacity, int *returned)
{
    static seer_status_t (*const fn[3])(seer_handle_t, const seer_model *, const seer_conv *, size_t,
                                        seer_conv_algo_perf_t *, int, int *) = {
        seer_pick_conv_algo, seer_pick_conv_bwd_data_algo, seer_pick_conv_bwd_filter_algo};
    return fn[dir](h, m, d, limit, perf, capacity, returned);
}

int cli_soft_failure(seer_status_t st)
{
    return st == SEER_STATUS_UNSUPPORTED || st == SEER_STATUS_NOT_CALIBRATED;
}

const char *cli_algo_status(seer_status_t st)
{
    switch (st) {
    case SEER_STATUS_SUCCESS: return "ok";
    case SEER_STATUS_NOT_CALIBRATED: return "not_calibrated";
    case SEER_STATUS_WORKSPACE_LIMIT: return "over_limit";
    case SEER_STATUS_UNSUPPORTED: return "unsupported";
    case SEER_STATUS_BAD_PREDICTION: return "out_of_range";
    default: return "error";
    }
}

int cli_row_algo(const seer_conv_row_t *r)
{
    return r->algo >= 0 && !r->fastest ? r->algo : -1;
}

seer_status_t cli_predict_row(seer_handle_t h, const seer_model *m, const seer_conv *d, const seer_conv_row_t *r,
                              cli_pred_t *p, char *why, size_t why_size)
{
    int algo = cli_row_algo(r);
    why[0] = 0;
    if (algo < 0) return cli_predict_fastest(h, m, d, r->dir, 0, p);
    seer_status_t st = cli_predict(h, m, d, r->dir, algo, 0, p);
    if (st != SEER_STATUS_UNSUPPORTED || r->time_ms < 0) return st;
    seer_get_last_error_copy(h, why, why_size);
    return cli_predict_fastest(h, m, d, r->dir, 0, p);
}

int cli_row_failure(seer_status_t st)
{
    return cli_soft_failure(st) || st == SEER_STATUS_BAD_SHAPE || st == SEER_STATUS_BAD_GROUPS ||
           st == SEER_STATUS_OVERFLOW || st == SEER_STATUS_BAD_PREDICTION || st == SEER_STATUS_CSV_BAD_VALUE;
}

/* The main kernel: the one with role MAIN, else the longest. */
static int main_kernel(const seer_kernel_pred_t *k, int n)
{
    int best = -1;
    for (int i = 0; i < n; i++)
        if (k[i].role == SEER_ROLE_MAIN) return i;
    for (int i = 0; i < n; i++)
        if (best < 0 || k[i].time_ms > k[best].time_ms) best = i;
    return best;
}

seer_status_t cli_predict(seer_handle_t h, const seer_model *m, const seer_conv *d,
                          seer_direction_t dir, int algo, int want_kernels, cli_pred_t *p)
{
    /* The class needs the kernels even when the caller does not. */
    int cap = 16, nk = 0;
    double t = 0;
    seer_kernel_pred_t *k = NULL;
    seer_status_t st;
    for (;;) {
        seer_kernel_pred_t *nkp = realloc(k, (size_t)cap * sizeof *k);
        if (!nkp) {
            free(k);
            return SEER_STATUS_ALLOC_FAILED;
        }
        k = nkp;
        st = seer_predict_conv(h, m, d, dir, algo, &t, k, cap, &nk);
        if (st != SEER_STATUS_BUFFER_TOO_SMALL || nk <= cap || nk > 4096) break;
        cap = nk;
    }
    if (st != SEER_STATUS_SUCCESS) {
        free(k);
        return st;
    }
    p->algo = algo;
    p->time_ms = t;
    p->n_kernels = nk;
    int mk = main_kernel(k, nk);
    p->cls = mk >= 0 ? k[mk].cls : (seer_class_t)-1;
    p->source = mk >= 0 ? k[mk].source : SEER_SOURCE_ANALYTICAL;
    if (want_kernels) {
        p->kernels = k;
    } else {
        p->kernels = NULL;
        free(k);
    }
    return SEER_STATUS_SUCCESS;
}

seer_status_t cli_predict_fastest(seer_handle_t h, const seer_model *m, const seer_conv *d,
                                  seer_direction_t dir, int want_kernels, cli_pred_t *p)
{
    int algo;
    double ms;
    seer_status_t st = seer_pick_conv_fastest(h, m, d, dir, &algo, &ms);
    if (st || (st = cli_predict(h, m, d, dir, algo, want_kernels, p))) return st;
    /* the picker's time, which caps a tensor-core conv at its FP32 and
     * pseudo-half times (cuDNN runs those kernels where they are faster:
     * the algorithm's own time alone once put an FP16 conv over the FP32
     * one in seer eval and predict --data) and reads a backward data's
     * cuDNN's choice as its dual forward conv too (docs/picker.md) */
    if (ms != p->time_ms && p->time_ms > 0) {
        for (int i = 0; p->kernels && i < p->n_kernels; i++) p->kernels[i].time_ms *= ms / p->time_ms;
        p->time_ms = ms;
    }
    return SEER_STATUS_SUCCESS;
}

void cli_print_bwd_from_fwd(seer_direction_t dir)
{
    /* seer net times a backward pass only the analytical model can as a
     * measured ratio of its measured forward pass (docs/networks.md) */
    printf("          seer net takes this %s from the forward pass instead (mark B): no GPU has data for its "
           "kernels\n", seer_direction_name(dir));
}

seer_status_t cli_desc_from_row(seer_handle_t h, const seer_conv_row_t *r, seer_conv_desc_t d)
{
    return seer_conv_desc_set_shape(h, d, r->dtype, r->layout, &r->shape);
}

/* cuDNN before 8 ran NCHW tensor-core convs in NCHW kernels, without the
 * transposes libseer predicts for today's cuDNN (docs/method.md,
 * "Layouts"): 38 of DeepBench's 272 V100 fp16 rows (source
 * "deepbench-cudnn7.6.2:...") are faster than their transposes alone.
 * Such a row is predicted as the NHWC conv: the same kernels, no
 * transposes.  Only in tensor-core math, which alone has transposes: an
 * FP32 row keeps NCHW and with it the FFT, Winograd and explicit GEMM
 * algorithms and backward-filter ALGO_3, which cuDNN runs on NCHW only. */
seer_status_t cli_desc_as_measured(seer_handle_t h, const seer_conv_row_t *r, seer_conv_desc_t d)
{
    int major = seer_source_cudnn_major(r->source);
    int tensor_math = 0;
    seer_dtype_tensor_cores(r->dtype, &tensor_math);
    seer_layout_t layout = major > 0 && major < 8 && tensor_math ? SEER_LAYOUT_NHWC : r->layout;
    return seer_conv_desc_set_shape(h, d, r->dtype, layout, &r->shape);
}

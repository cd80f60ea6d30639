/* Shared pieces of the seer command-line tool: option parsing, error
 * reporting with the CLI's exit codes, output escaping, model lookup and
 * the "predict one convolution, every algorithm if need be" helper used by
 * `seer predict` and `seer eval`. */
#ifndef SEER_CLI_H
#define SEER_CLI_H
#include <getopt.h>
#include <stdio.h>
#include "seer.h"
#include "../libseer/csv.h"  /* the CSV reader: the one internal header the CLI uses */

/* Exit codes of every subcommand. */
enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

/* ---- option parsing ----
 * getopt_long scans GNU-style long options, `--name value` or
 * `--name=value`, in order (positional arguments come back where they
 * stand), and -h.  A command's table lists its options with getopt's
 * argument kinds: CLI_VALUE for an option with a value, CLI_FLAG for one
 * without (optional_argument, so that --flag=VALUE reaches cli_flag's
 * message instead of getopt's).  Names are matched exactly: an
 * abbreviation getopt would accept is an unknown option, as "--" is.
 * getopt's state is global, so one scan at a time. */
#define CLI_VALUE(name) {name, required_argument, NULL, 0}
#define CLI_FLAG(name) {name, optional_argument, NULL, 0}
#define CLI_END {NULL, 0, NULL, 0}
typedef struct {
    const char *cmd;            /* "predict", for messages */
    const struct option *opts;  /* the command's options, CLI_END-terminated */
    int argc;
    char **argv;                /* as main's: argv[0] the command, then its arguments */
    const char *opt;            /* current option ("--n"), NULL for a positional */
    const char *inline_val;     /* text after '=' in --name=value, or NULL */
    const char *next_val;       /* the value getopt took from the next argument, or NULL */
    int done;                   /* an unknown "--" ended the scan */
    const char *pos;            /* current positional argument */
} cli_args_t;

void cli_args_init(cli_args_t *a, const char *cmd, const struct option *opts, int argc, char **argv);
/* 1 with a->opt or a->pos set, 0 at the end. */
int cli_next(cli_args_t *a);
/* Is the current option `name`? */
int cli_is(const cli_args_t *a, const char *name);
/* The option's value; NULL (after printing a usage error) if missing. */
const char *cli_value(cli_args_t *a);
/* A flag: 1 if fine, 0 (after a usage error) if it was given a value. */
int cli_flag(cli_args_t *a);
/* Integer value of the current option within [lo, hi]: 1 ok, 0 after a
 * usage error. */
int cli_int(cli_args_t *a, long lo, long hi, int *out);
/* A finite number in [lo, hi]; else a usage error naming the option. */
int cli_double(cli_args_t *a, double lo, double hi, double *out);
/* The value, which must be one of the NULL-terminated choices: index, or
 * -1 after a usage error. */
int cli_choice(cli_args_t *a, const char *const *choices);
/* --direction's value: fwd, bwd_data, bwd_filter or a spelling
 * seer_direction_from_name reads; -1 after a usage error. */
int cli_direction(cli_args_t *a);
/* Every value of a multi-value option (`--data A B C` or repeated
 * `--data A --data B`), appended to *list.  1 ok, 0 after an error. */
int cli_values(cli_args_t *a, const char ***list, int *n);
/* An option whose value, a memory size, is optional: taken when given
 * as --name=VALUE or when the next argument starts with a digit.  A
 * number > 0 (at most 1e18), optionally followed by B, KB, MB, GB, TB
 * (powers of 1000) or KiB, MiB, GiB, TiB (powers of 1024), any case.
 * 1 with *bytes set (0 when no value was given), 0 after a usage error. */
int cli_opt_bytes(cli_args_t *a, double *bytes);
/* "seer CMD: unknown option --x" and CLI_USAGE. */
int cli_unknown(const cli_args_t *a);

/* Print "seer CMD: message" to stderr; return CLI_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Print "seer: <status string>: <last error>" to stderr; return CLI_FAIL. */
int cli_lib_error(seer_handle_t h, seer_status_t st);
/* Print "seer CMD: message" to stderr; return CLI_FAIL. */
int cli_fail(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- output ---- */
void cli_json_str(FILE *f, const char *s);     /* quoted, escaped; null when s is NULL */
void cli_json_num(FILE *f, double v);          /* null when not finite */
/* `, "key": value` on stdout: a JSON object's fields after its first. */
void cli_json_num_field(const char *key, double v);
void cli_json_str_field(const char *key, const char *s);
/* Whether DIR/<id>.seer is a GEMM-only model (seer_train with GEMM files
 * alone), which a models directory serves with transferred convs. */
int cli_gemm_only_file(const char *dir, const char *id);
/* `, "served": "calibrated"|"gemm-calibrated"|"transferred",
 * "source_gpus": "..."`: how a model was made, in every command's JSON
 * (gemm-calibrated: cli_open_model served it from a GEMM-only file). */
void cli_json_served(const seer_model_info_t *mi);
/* "calibrated", "gemm-calibrated" or "transferred", as cli_json_served says. */
const char *cli_served_kind(const seer_model_info_t *mi);
/* The same for a text line: "calibrated GEMMs, transferred convolutions"
 * for gemm-calibrated. */
const char *cli_served_words(const seer_model_info_t *mi);
/* "model     GPU (calibrated)", "(calibrated GEMMs, transferred
 * convolutions)" or "(transferred from SOURCES)". */
void cli_print_model_line(const seer_model_info_t *mi);
void cli_csv_field(FILE *f, const char *s);    /* quoted only when needed */

/* ---- numbers ---- */
/* Sort ascending in place; the median of sorted values (NAN for none). */
void cli_sort_doubles(double *v, size_t n);
double cli_median_sorted(const double *v, size_t n);

/* ---- models ----
 * Directory of the shipped models: dir_opt, else $SEER_MODELS, else
 * ./models if it exists, else SEER_PREFIX/share/seer/models. */
const char *cli_models_dir(const char *dir_opt);
/* Path of the model to use: model_opt if given, else DIR/<gpu>.seer where
 * gpu_opt is resolved through the GPU table (aliases allowed).  Writes a
 * usage error and returns NULL when neither is given or the GPU is
 * unknown.  The result is static storage or model_opt. */
const char *cli_model_path(const char *cmd, const char *model_opt, const char *gpu_opt,
                           const char *models_opt);
/* The conv shape options of `predict` and `pick`: --n --c --h --w --k
 * (required), --r --s (3), --pad --pad-h --pad-w (1), --stride
 * --stride-h --stride-w (1), --dil --dil-h --dil-w (1), --groups (1);
 * CLI_CONV_OPTIONS their option table entries. */
enum { CLI_CONV_OPTS = 17, CLI_CONV_REQUIRED = 5 };
#define CLI_CONV_OPTIONS                                                                            \
    CLI_VALUE("n"), CLI_VALUE("c"), CLI_VALUE("h"), CLI_VALUE("w"), CLI_VALUE("k"), CLI_VALUE("r"),    \
        CLI_VALUE("s"), CLI_VALUE("pad"), CLI_VALUE("pad-h"), CLI_VALUE("pad-w"), CLI_VALUE("stride"), \
        CLI_VALUE("stride-h"), CLI_VALUE("stride-w"), CLI_VALUE("dil"), CLI_VALUE("dil-h"),         \
        CLI_VALUE("dil-w"), CLI_VALUE("groups")
typedef struct {
    int v[CLI_CONV_OPTS], set[CLI_CONV_OPTS];
} cli_conv_opts_t;
/* If the current option is a conv option, read its value: 1 consumed,
 * 0 not a conv option, -1 bad value (message printed). */
int cli_conv_opt(cli_args_t *a, cli_conv_opts_t *c);
/* Name of the first option given (any = 1) or the first required option
 * missing (any = 0), or NULL. */
const char *cli_conv_opt_name(const cli_conv_opts_t *c, int any);
/* seer_conv_desc_set with the options and their defaults. */
seer_status_t cli_conv_desc_set(seer_handle_t h, seer_conv_desc_t d, seer_dtype_t dtype,
                                seer_layout_t layout, const cli_conv_opts_t *c);

/* --model FILE, else what libseer answers for --gpu: the calibrated model
 * in the models directory, or one transferred from the others there.
 * With both, the model must be for that GPU.  Prints any error and
 * returns the exit code (CLI_OK with *m set). */
int cli_open_model(seer_handle_t h, const char *cmd, const char *model_opt, const char *gpu_opt,
                   const char *models_opt, seer_model_t *m);
/* 1 if the --gpu value names a GPU description file rather than an id (it
 * holds a '/', or a file of that name exists). */
int cli_gpu_is_file(const char *gpu_opt);
/* The GPU a --gpu value names: a table id, or a GPU description file,
 * which is registered on h.  Prints a usage error and returns its exit
 * code when neither. */
int cli_gpu_resolve(seer_handle_t h, const char *cmd, const char *gpu_opt, seer_gpu_info_t *g);
/* 1 if the GPU ids name the same table entry (aliases resolved). */
int cli_same_gpu(const char *a, const char *b);
/* Rows are meant for the model's GPU though none names it when no row
 * names a GPU libseer knows (a lab's own name for it): a row of
 * another known GPU is that GPU's, never the model's.  cli_gpu_known: 1
 * when id is in the GPU table or registered on h; cli_note_meant_for says
 * on stderr that every row is taken as the model's GPU's. */
int cli_gpu_known(seer_handle_t h, const char *id);
/* The canonical id of the GPU a row names (id, alias or driver name,
 * written into g), or the name as written when libseer does not know it. */
const char *cli_gpu_id(seer_handle_t h, const char *name, seer_gpu_info_t *g);
void cli_note_meant_for(const char *cmd, const char *model_gpu, const char *first);

/* ---- prediction ---- */
typedef struct {
    int algo;                   /* algorithm predicted with */
    double time_ms;
    seer_class_t cls;           /* class of the main kernel */
    seer_source_t source;       /* where the main kernel's time comes from */
    int n_kernels;
    seer_kernel_pred_t *kernels;/* malloc'ed when asked for, else NULL */
} cli_pred_t;

/* Number of algorithms of a direction. */
int cli_algo_count(seer_direction_t dir);
/* seer_pick_conv_algo, _bwd_data_algo or _bwd_filter_algo, as dir says. */
seer_status_t cli_pick_algos(seer_handle_t h, const seer_model *m, const seer_conv *d, seer_direction_t dir,
                             size_t limit, seer_conv_algo_perf_t *perf, int capacity, int *returned);
/* Predict with one algorithm.  Fills p (kernels only if want_kernels) and
 * returns the library status; p->kernels must be freed by the caller. */
seer_status_t cli_predict(seer_handle_t h, const seer_model *m, const seer_conv *d,
                          seer_direction_t dir, int algo, int want_kernels, cli_pred_t *p);
/* Predict every algorithm and keep the fastest that succeeds.  Returns
 * SUCCESS, the status of the failures when every algorithm was
 * UNSUPPORTED or NOT_CALIBRATED (NOT_CALIBRATED if any was), or the first
 * other error. */
seer_status_t cli_predict_fastest(seer_handle_t h, const seer_model *m, const seer_conv *d,
                                  seer_direction_t dir, int want_kernels, cli_pred_t *p);
/* The line seer predict and seer pick say that seer net times a
 * backward pass from its forward one with (seer_conv_bwd_from_fwd). */
void cli_print_bwd_from_fwd(seer_direction_t dir);
/* The algorithm a conv row is predicted with: its algo, or -1 for the
 * fastest predicted one (an empty, MIXED, unknown algo, or a label that
 * is only a hint: seer_conv_row_t.fastest). */
int cli_row_algo(const seer_conv_row_t *r);
/* Predict a conv row (d its descriptor) with cli_row_algo's choice.  A
 * measured row's algorithm ran, so where libseer says cuDNN has no such
 * algorithm for the shape or dtype (UNSUPPORTED: its rules are of one
 * cuDNN version), the row takes the fastest predicted one instead and
 * why[] (size why_size, "" otherwise) says what was refused. */
seer_status_t cli_predict_row(seer_handle_t h, const seer_model *m, const seer_conv *d, const seer_conv_row_t *r,
                              cli_pred_t *p, char *why, size_t why_size);
/* Is this a per-algorithm failure to list rather than a hard error? */
int cli_soft_failure(seer_status_t st);
/* An algorithm's status as seer pick and seer predict write it: "ok",
 * "not_calibrated", "over_limit", "unsupported", "out_of_range". */
const char *cli_algo_status(seer_status_t st);
/* A row-level failure of a --data file: the row is counted as failed
 * (with its line) and the others are still predicted.  Anything else
 * is an error of the run. */
int cli_row_failure(seer_status_t st);
/* Build a descriptor from a CSV row's shape, dtype and layout only. */
seer_status_t cli_desc_from_row(seer_handle_t h, const seer_conv_row_t *row, seer_conv_desc_t d);
/* The same as the row's measurement ran it: NCHW rows of a source naming
 * cuDNN 7 or older as NHWC (no tensor-core transposes; cli.c). */
seer_status_t cli_desc_as_measured(seer_handle_t h, const seer_conv_row_t *row, seer_conv_desc_t d);

/* ---- subcommands ---- */
/* seer predict (predict.c): the arguments after the command name; the exit code. */
int cli_predict_cmd(int argc, char **argv);
/* seer gemm (gemm.c): one GEMM from the model's GEMM fit. */
int cli_gemm_cmd(int argc, char **argv);
int cli_eval(int argc, char **argv);
/* Log-log scatter of predicted vs measured times (tools/svg.c).  keys[i]
 * is the legend group of point i.  Returns 0, or -1 with errno set. */
int cli_svg_scatter(const char *path, const char *title, const double *meas, const double *pred,
                    const char *const *keys, int n);
#endif

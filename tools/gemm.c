/* seer gemm: one GEMM (a fully connected layer, a batched matmul) from
 * the model's GEMM fit (seer_predict_gemm), beside its roofline. */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "cli.h"

static void usage_gemm(FILE *f)
{
    fprintf(f,
            "usage: seer gemm (--model FILE | --gpu GPU [--models DIR])\n"
            "                 --m M --n N --k K [--batch B] [--dtype T] [--bias]\n"
            "                 [--trans-a] [--trans-b] [--format table|json]\n"
            "\n"
            "Predict batch GEMMs C[m x n] = A[m x k] B[k x n] from the model's GEMM fit\n"
            "(docs/networks.md, \"The GEMM model\"): a linear layer is m rows of input,\n"
            "n = out_features, k = in_features and --bias; torch.bmm is --batch.\n"
            "  --batch B          independent products (default 1)\n"
            "  --dtype T          fp32 (default), tf32, fp16, bf16, fp16_pseudo\n"
            "  --bias             add a bias vector (nn.Linear)\n"
            "  --trans-a --trans-b  operands stored transposed (accepted; the formula\n"
            "                     does not depend on it)\n");
}

typedef struct {
    const char *model_opt, *gpu_opt, *models_opt;
    int m, n, k, batch, bias, trans_a, trans_b, format; /* format: 0 table, 1 json */
    seer_dtype_t dtype;
} gemm_opts_t;

/* The options, checked: CLI_OK with *done set after --help, else the
 * exit code of a usage error. */
static int gemm_parse(int argc, char **argv, gemm_opts_t *o, int *done)
{
    static const char *const formats[] = {"table", "json", NULL};
    static const struct option opts[] = {CLI_FLAG("help"), CLI_VALUE("model"), CLI_VALUE("gpu"), CLI_VALUE("models"),
                                         CLI_VALUE("m"), CLI_VALUE("n"), CLI_VALUE("k"), CLI_VALUE("batch"),
                                         CLI_VALUE("dtype"), CLI_FLAG("bias"), CLI_FLAG("trans-a"),
                                         CLI_FLAG("trans-b"), CLI_VALUE("format"), CLI_END};
    const char *dtype_s = "fp32";
    cli_args_t a;
    cli_args_init(&a, "gemm", opts, argc, argv);
    o->batch = 1;
    while (cli_next(&a)) {
        if (cli_is(&a, "--help") || cli_is(&a, "-h")) { usage_gemm(stdout); *done = 1; return CLI_OK; }
        else if (cli_is(&a, "--model")) { if (!(o->model_opt = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--gpu")) { if (!(o->gpu_opt = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--models")) { if (!(o->models_opt = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--m")) { if (!cli_int(&a, 1, INT32_MAX, &o->m)) return CLI_USAGE; }
        else if (cli_is(&a, "--n")) { if (!cli_int(&a, 1, INT32_MAX, &o->n)) return CLI_USAGE; }
        else if (cli_is(&a, "--k")) { if (!cli_int(&a, 1, INT32_MAX, &o->k)) return CLI_USAGE; }
        else if (cli_is(&a, "--batch")) { if (!cli_int(&a, 1, INT32_MAX, &o->batch)) return CLI_USAGE; }
        else if (cli_is(&a, "--dtype")) { if (!(dtype_s = cli_value(&a))) return CLI_USAGE; }
        else if (cli_is(&a, "--bias")) { if (!cli_flag(&a)) return CLI_USAGE; o->bias = 1; }
        else if (cli_is(&a, "--trans-a")) { if (!cli_flag(&a)) return CLI_USAGE; o->trans_a = 1; }
        else if (cli_is(&a, "--trans-b")) { if (!cli_flag(&a)) return CLI_USAGE; o->trans_b = 1; }
        else if (cli_is(&a, "--format")) { if ((o->format = cli_choice(&a, formats)) < 0) return CLI_USAGE; }
        else return cli_unknown(&a);
    }
    if (!o->m || !o->n || !o->k)
        return cli_usage_error("gemm", "option --%s is required", !o->m ? "m" : !o->n ? "n" : "k");
    if (seer_dtype_from_name(dtype_s, &o->dtype))
        return cli_usage_error("gemm", "option --dtype: unknown dtype '%s' (fp32, tf32, fp16, bf16, fp16_pseudo)",
                               dtype_s);
    return CLI_OK;
}

static int gemm_print(seer_handle_t h, const gemm_opts_t *o, seer_model_t m)
{
    double t, roof;
    seer_class_t cls;
    seer_status_t st = seer_predict_gemm(h, m, o->batch, o->m, o->n, o->k, o->dtype, o->trans_a, o->trans_b,
                                         o->bias, &t, &cls);
    if (st) return cli_lib_error(h, st);
    seer_model_info_t mi;
    seer_gpu_info_t g;
    seer_model_get_info(m, &mi);
    seer_model_get_gpu(m, &g);
    if (seer_roofline_gemm(NULL, &g, o->batch, o->m, o->n, o->k, o->dtype, &roof)) roof = NAN;
    double flops = 2.0 * o->batch * o->m * o->n * (double)o->k;
    if (o->format == 1) {
        printf("{\"gpu\": ");
        cli_json_str(stdout, mi.gpu_id);
        cli_json_served(&mi);
        printf(", \"batch\": %d, \"m\": %d, \"n\": %d, \"k\": %d, \"dtype\": \"%s\", \"bias\": %s", o->batch, o->m,
               o->n, o->k, seer_dtype_name(o->dtype), o->bias ? "true" : "false");
        cli_json_num_field("flops", flops);
        cli_json_num_field("time_ms", t);
        cli_json_str_field("class", seer_class_name(cls));
        cli_json_num_field("roofline_ms", roof);
        printf("}\n");
        return CLI_OK;
    }
    cli_print_model_line(&mi);
    printf("gemm      %d x [%d x %d] . [%d x %d] %s%s: %.4g GFLOP\n", o->batch, o->m, o->k, o->k, o->n,
           seer_dtype_name(o->dtype), o->bias ? " + bias" : "", flops / 1e9);
    printf("roofline  %.4g ms\n", roof);
    printf("time      %.4g ms (%s), %.4g TFLOP/s\n", t, seer_class_name(cls), flops / (t * 1e9));
    return CLI_OK;
}

int cli_gemm_cmd(int argc, char **argv)
{
    gemm_opts_t o;
    int done = 0, rc;
    memset(&o, 0, sizeof o);
    if ((rc = gemm_parse(argc, argv, &o, &done)) || done) return rc;
    seer_handle_t h = NULL;
    seer_model_t m = NULL;
    seer_status_t st = seer_create(&h);
    if (st) return cli_lib_error(NULL, st);
    if (!(rc = cli_open_model(h, "gemm", o.model_opt, o.gpu_opt, o.models_opt, &m))) rc = gemm_print(h, &o, m);
    seer_model_destroy(m);
    seer_destroy(h);
    return rc;
}

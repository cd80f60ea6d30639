/*
 * docs/example.c - the minimal libseer program of docs/api.md.
 *
 * Predicts a ResNet-style 3x3 forward convolution (fp32, NCHW, batch 32,
 * 64 -> 64 channels on 56x56) on a T4 with cuDNN's WINOGRAD_NONFUSED
 * algorithm, and prints the total and every kernel.
 *
 * Build and run from the repository root after `make`:
 *   cc -std=c11 -Iinclude docs/example.c build/libseer.a -lsvm -lprotobuf-c -lz -lm -lpthread -o example
 *   ./example                 # uses models/t4.seer
 *   ./example models/a100-pcie-80gb.seer
 * or, against an installed libseer:
 *   cc -std=c11 docs/example.c $(pkg-config --cflags --libs seer) -o example
 */
#include <stdio.h>
#include <stdlib.h>
#include <seer.h>

/* Print the status and the handle's message, and say whether st failed. */
static int failed(seer_handle_t h, seer_status_t st, const char *what)
{
    if (st == SEER_STATUS_SUCCESS) return 0;
    fprintf(stderr, "%s: %s: %s\n", what, seer_status_string(st), seer_get_last_error(h));
    return 1;
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "models/t4.seer";
    seer_handle_t h = NULL;
    seer_model_t model = NULL;
    seer_conv_desc_t conv = NULL;
    int rc = 1;

    if (seer_version() / 100 != SEER_VERSION_NUMBER / 100)
        fprintf(stderr, "warning: built against libseer %s, linked %u\n", SEER_VERSION_STRING,
                seer_version());

    seer_status_t st = seer_create(&h);
    if (st != SEER_STATUS_SUCCESS) { /* no handle yet, so no message */
        fprintf(stderr, "seer_create: %s\n", seer_status_string(st));
        return 1;
    }
    if (failed(h, seer_model_load(h, path, &model), "seer_model_load")) goto out;
    if (failed(h, seer_conv_desc_create(&conv), "seer_conv_desc_create")) goto out;

    /* The shape starts as no padding, unit stride and dilation, one
     * group; set the sizes and what differs (as cudnnSetConvolution2dDescriptor). */
    seer_conv_shape_t shape = SEER_CONV_SHAPE_INIT;
    shape.n = 32, shape.c = 64, shape.h = 56, shape.w = 56;
    shape.k = 64, shape.r = 3, shape.s = 3, shape.pad_h = 1, shape.pad_w = 1;
    st = seer_conv_desc_set_shape(h, conv, SEER_DTYPE_FP32, SEER_LAYOUT_NCHW, &shape);
    if (failed(h, st, "seer_conv_desc_set_shape")) goto out;

    double total_ms = 0;
    seer_kernel_pred_t kernels[8]; /* more than any algorithm launches */
    int n_kernels = 0;
    st = seer_predict_conv(h, model, conv, SEER_DIR_FWD, SEER_FWD_ALGO_WINOGRAD_NONFUSED,
                           &total_ms, kernels, 8, &n_kernels);
    if (failed(h, st, "seer_predict_conv")) goto out;

    seer_model_info_t info;
    if (failed(h, seer_model_get_info(model, &info), "seer_model_get_info")) goto out;
    int p, q;
    if (failed(h, seer_conv_desc_get_output(conv, &p, &q), "seer_conv_desc_get_output")) goto out;

    printf("GPU %s, fwd %s, output %dx%d: %.4f ms in %d kernels\n", info.gpu_id,
           seer_algo_name(SEER_DIR_FWD, SEER_FWD_ALGO_WINOGRAD_NONFUSED), p, q, total_ms,
           n_kernels);
    for (int i = 0; i < n_kernels; i++) {
        const seer_kernel_pred_t *k = &kernels[i];
        printf("  %-16s %-34s grid %7d x %3d x %3d  waves %5.0f  %-7s %.4f ms\n",
               seer_role_name(k->role), k->name, k->grid[0], k->grid[1], k->grid[2], k->waves,
               seer_class_name(k->cls), k->time_ms);
    }
    rc = 0;
out:
    seer_conv_desc_destroy(conv); /* all three accept NULL */
    seer_model_destroy(model);
    seer_destroy(h);
    return rc;
}

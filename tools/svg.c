/* A self-contained SVG log-log scatter plot for `seer eval --plot`:
 * predicted vs measured times, one colour per group with a legend, the
 * y = x line, decade ticks with labels.  No fonts or scripts beyond what
 * every SVG viewer has. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

#define W 800
#define H 560
#define PLOT 420                /* square plot area, px */
#define X0 80                   /* left edge of the plot area */
#define Y0 60                   /* top edge */
#define MAX_KEYS 24

static const char *const palette[] = {
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf", "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#3182bd",
};

static void xml_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '&') fputs("&amp;", f);
        else if (*s == '<') fputs("&lt;", f);
        else if (*s == '>') fputs("&gt;", f);
        else if (*s == '"') fputs("&quot;", f);
        else fputc(*s, f);
    }
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void decade_label(char *buf, size_t size, int k)
{
    if (k >= 0) snprintf(buf, size, "%.0f", pow(10, k));
    else snprintf(buf, size, "%.*f", -k, pow(10, k));
}

/* Both axes: the decades dlo .. dlo + span, log scale. */
typedef struct {
    int dlo;
    double span;
} axis_t;

static double px(const axis_t *a, double v) { return X0 + (log10(v) - a->dlo) / a->span * PLOT; }
static double py(const axis_t *a, double v) { return Y0 + PLOT - (log10(v) - a->dlo) / a->span * PLOT; }

/* Decade range covering every point, the same on both axes. */
static axis_t decades(const double *meas, const double *pred, int n)
{
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < n; i++) {
        if (meas[i] > 0) { lo = fmin(lo, meas[i]); hi = fmax(hi, meas[i]); }
        if (pred[i] > 0) { lo = fmin(lo, pred[i]); hi = fmax(hi, pred[i]); }
    }
    int dlo = isfinite(lo) ? (int)floor(log10(lo)) : -2;
    int dhi = isfinite(hi) ? (int)ceil(log10(hi)) : 2;
    if (dhi <= dlo) dhi = dlo + 1;
    return (axis_t){dlo, dhi - dlo};
}

/* Grid, ticks, decade labels and axis titles. */
static void svg_axes(FILE *f, const axis_t *a)
{
    int dlo = a->dlo, dhi = a->dlo + (int)a->span;
    fprintf(f, "<g stroke=\"#e0e0e0\" stroke-width=\"1\">\n");
    for (int k = dlo; k <= dhi; k++) {
        double v = pow(10, k);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>", px(a, v), Y0, px(a, v), Y0 + PLOT);
        fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n", X0, py(a, v), X0 + PLOT, py(a, v));
    }
    fprintf(f, "</g>\n<g stroke=\"black\" stroke-width=\"1\">\n");
    for (int k = dlo; k < dhi; k++)
        for (int m = 1; m < 10; m++) {
            double v = m * pow(10, k);
            int len = m == 1 ? 6 : 3;
            fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>", px(a, v), Y0 + PLOT, px(a, v),
                    Y0 + PLOT + len);
            fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n", X0 - len, py(a, v), X0, py(a, v));
        }
    fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>", px(a, pow(10, dhi)), Y0 + PLOT,
            px(a, pow(10, dhi)), Y0 + PLOT + 6);
    fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n", X0 - 6, py(a, pow(10, dhi)), X0,
            py(a, pow(10, dhi)));
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\"/>\n</g>\n", X0, Y0, PLOT, PLOT);
    for (int k = dlo; k <= dhi; k++) {
        char lab[32];
        double v = pow(10, k);
        decade_label(lab, sizeof lab, k);
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>", px(a, v), Y0 + PLOT + 20, lab);
        fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", X0 - 9, py(a, v) + 4, lab);
    }
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">measured time (ms)</text>\n", X0 + PLOT / 2,
            Y0 + PLOT + 42);
    fprintf(f, "<text x=\"20\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 20 %d)\">"
               "predicted time (ms)</text>\n",
            Y0 + PLOT / 2, Y0 + PLOT / 2);
}

/* The points, coloured by group (counts[] per group, [nk]: "other"),
 * then the legend. */
static void svg_points(FILE *f, const axis_t *a, const double *meas, const double *pred, const char *const *keys,
                       int n, const char *const *uniq, int nk, int other)
{
    int counts[MAX_KEYS + 1] = {0};
    fprintf(f, "<g fill-opacity=\"0.6\" stroke=\"none\">\n");
    for (int i = 0; i < n; i++) {
        if (!(meas[i] > 0) || !(pred[i] > 0)) continue;
        int j;
        for (j = 0; j < nk; j++)
            if (!strcmp(uniq[j], keys[i])) break;
        counts[j]++;
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>\n", px(a, meas[i]), py(a, pred[i]),
                j < nk ? palette[j] : "#000000");
    }
    fprintf(f, "</g>\n");
    int lx = X0 + PLOT + 25, ly = Y0 + 10;
    for (int j = 0; j <= nk; j++) {
        if (j == nk && !(other || counts[nk])) break;
        fprintf(f, "<circle cx=\"%d\" cy=\"%d\" r=\"5\" fill=\"%s\"/>", lx, ly + 18 * j, j < nk ? palette[j] : "#000000");
        fprintf(f, "<text x=\"%d\" y=\"%d\">", lx + 10, ly + 18 * j + 4);
        xml_text(f, j < nk ? uniq[j] : "other");
        fprintf(f, " (%d)</text>\n", counts[j]);
    }
    fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"#444\">- - - predicted = measured</text>\n", lx,
            ly + 18 * (nk + 1) + 8);
}

int cli_svg_scatter(const char *path, const char *title, const double *meas, const double *pred,
                    const char *const *keys, int n)
{
    /* Legend groups, sorted; groups past the palette share "other". */
    const char *uniq[MAX_KEYS + 1];
    int nk = 0, other = 0;
    for (int i = 0; i < n; i++) {
        int j;
        for (j = 0; j < nk; j++)
            if (!strcmp(uniq[j], keys[i])) break;
        if (j == nk && nk < MAX_KEYS) uniq[nk++] = keys[i];
    }
    qsort(uniq, (size_t)nk, sizeof uniq[0], cmp_str);
    int npal = (int)(sizeof palette / sizeof palette[0]);
    if (nk > npal) {
        nk = npal;
        other = 1;
    }
    axis_t a = decades(meas, pred, n);
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
               "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
               "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            W, H, W, H);
    fprintf(f, "<text x=\"%d\" y=\"30\" font-size=\"15\" text-anchor=\"middle\">", W / 2);
    xml_text(f, title);
    fprintf(f, "</text>\n");
    svg_axes(f, &a);
    /* y = x */
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#444\" "
               "stroke-dasharray=\"5,4\"/>\n",
            X0, Y0 + PLOT, X0 + PLOT, Y0);
    svg_points(f, &a, meas, pred, keys, n, uniq, nk, other);
    fprintf(f, "</svg>\n");
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        if (!errno) errno = EIO;
        return -1;
    }
    return 0;
}

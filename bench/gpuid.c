/* bench/gpuid.c - CUDA device name -> libseer GPU-table id (libseer/gpu.c;
 * boards it does not list get ids in the same style). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "bench.h"

/* First match wins, so specific names come before their prefixes.  mem
 * splits boards that share a name (A100 40/80 GB, V100 16/32 GB):
 * 0 = any, else the board has at least that many GiB. */
static const struct {
    const char *has[3];         /* all must occur in the name (case-insensitive) */
    double min_gib;
    const char *id;
} TABLE[] = {
    {{"H200", NULL}, 0, "h200-sxm-141gb"},
    {{"GH200", NULL}, 0, "gh200"},
    {{"H100", "PCIe", NULL}, 0, "h100-pcie-80gb"},
    {{"H100", "NVL", NULL}, 0, "h100-nvl-94gb"},
    {{"H100", NULL}, 0, "h100-sxm5-80gb"},          /* "NVIDIA H100 80GB HBM3" */
    {{"H800", NULL}, 0, "h800-sxm5-80gb"},
    {{"A100", "PCIE", NULL}, 60, "a100-pcie-80gb"},
    {{"A100", "PCIE", NULL}, 0, "a100-pcie-40gb"},
    {{"A100", NULL}, 60, "a100-sxm4-80gb"},
    {{"A100", NULL}, 0, "a100-sxm4-40gb"},
    {{"A10G", NULL}, 0, "a10g"},
    {{"A10", NULL}, 0, "a10"},
    {{"A30", NULL}, 0, "a30"},
    {{"A40", NULL}, 0, "a40"},
    {{"L40S", NULL}, 0, "l40s"},
    {{"L40", NULL}, 0, "l40"},
    {{"L4", NULL}, 0, "l4"},
    {{"V100", "PCIE", NULL}, 24, "v100-pcie-32gb"},
    {{"V100", "PCIE", NULL}, 0, "v100-pcie-16gb"},
    {{"V100", "SXM2", NULL}, 24, "v100-sxm2-32gb"},
    {{"V100", NULL}, 0, "v100-sxm2-16gb"},
    {{"TITAN", "V", NULL}, 0, "titan-v"},
    {{"T4", NULL}, 0, "t4"},
    {{"RTX", "4090", NULL}, 0, "rtx4090"},
    {{"RTX", "3090", NULL}, 0, "rtx3090"},
    {{"P100", "PCIE", NULL}, 0, "p100-pcie-16gb"},
    {{"P100", NULL}, 0, "p100-sxm2-16gb"},
    {{"P4", NULL}, 0, "tesla-p4"},
    {{"TITAN", "Xp", NULL}, 0, "titan-xp"},
    {{"1080 Ti", NULL}, 0, "gtx1080ti"},
};

/* Whole-token match, so "A10" does not match "A100" and "L4" not "L40". */
static int has_token(const char *name, const char *tok)
{
    size_t n = strlen(tok);
    for (const char *p = name; *p; p++) {
        if (strncasecmp(p, tok, n) != 0) continue;
        int before = p == name || !isalnum((unsigned char)p[-1]);
        int after = !isalnum((unsigned char)p[n]);
        if (before && after) return 1;
    }
    return 0;
}

/* Boards named by size ("A100-SXM4-80GB", "V100-PCIE-32GB"): the size in
 * the name, so an id can be told from the name alone. */
static double gib_in_name(const char *name)
{
    double best = 0;
    for (const char *p = name; *p; p++)
        if (isdigit((unsigned char)*p) && (p == name || !isalnum((unsigned char)p[-1]))) {
            char *end;
            double v = strtod(p, &end);
            if (strncasecmp(end, "GB", 2) == 0 && !isalnum((unsigned char)end[2]) && v > best)
                best = v;
            p = end - 1;
        }
    return best;
}

int seer_bench_gpu_id(const char *name, double mem_gib, char *id, size_t len)
{
    double named = gib_in_name(name);
    if (named > mem_gib) mem_gib = named;
    for (size_t i = 0; i < sizeof TABLE / sizeof TABLE[0]; i++) {
        int ok = 1;
        for (int j = 0; j < 3 && TABLE[i].has[j] && ok; j++) ok = has_token(name, TABLE[i].has[j]);
        if (ok && mem_gib >= TABLE[i].min_gib) {
            snprintf(id, len, "%s", TABLE[i].id);
            return 0;
        }
    }
    /* unknown board: a readable slug, without the vendor words */
    size_t o = 0;
    const char *p = name;
    if (strncasecmp(p, "NVIDIA ", 7) == 0) p += 7;
    if (strncasecmp(p, "Tesla ", 6) == 0) p += 6;
    if (strncasecmp(p, "GeForce ", 8) == 0) p += 8;
    for (; *p && o + 1 < len; p++) {
        if (isalnum((unsigned char)*p)) id[o++] = (char)tolower((unsigned char)*p);
        else if (o && id[o - 1] != '-') id[o++] = '-';
    }
    while (o && id[o - 1] == '-') o--;
    if (len) id[o] = 0;
    if (!o) snprintf(id, len, "unknown-gpu");
    return 1;
}

/* bench/nvml.c - driver release and clocks from NVML, loaded with dlopen.
 *
 * NVML ships with the driver, not the toolkit, and a hard -lnvidia-ml
 * would stop seer-bench from starting where it is missing (containers,
 * CI): every query here degrades to "unknown".  The few entry points used
 * have had stable signatures since NVML 2 (the toolkit has no nvml.h to
 * include, hence the declarations below). */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <cuda_runtime_api.h>
#include "gpu.h"

typedef int nvml_ret_t;                 /* nvmlReturn_t: 0 = NVML_SUCCESS */
typedef struct nvml_device *nvml_dev_t; /* nvmlDevice_t */
enum { NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2 };

static struct {
    int tried, ok;
    void *lib;
    nvml_ret_t (*init)(void);
    nvml_ret_t (*shutdown)(void);
    nvml_ret_t (*driver)(char *, unsigned);
    nvml_ret_t (*by_pci)(const char *, nvml_dev_t *);
    nvml_ret_t (*clock)(nvml_dev_t, int, unsigned *);
    nvml_ret_t (*max_clock)(nvml_dev_t, int, unsigned *);
    int dev_index;
    nvml_dev_t dev;
} nv = {.dev_index = -1};

static void *sym(const char *name)
{
    void *p = dlsym(nv.lib, name);
    if (!p) nv.ok = 0;
    return p;
}

static int nvml_open(void)
{
    if (nv.tried) return nv.ok;
    nv.tried = 1;
    if (!(nv.lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL))) return 0;
    nv.ok = 1;
    /* dlsym returns object pointers; POSIX guarantees they convert */
    void *p;
    p = sym("nvmlInit_v2"); memcpy(&nv.init, &p, sizeof p);
    p = sym("nvmlShutdown"); memcpy(&nv.shutdown, &p, sizeof p);
    p = sym("nvmlSystemGetDriverVersion"); memcpy(&nv.driver, &p, sizeof p);
    p = sym("nvmlDeviceGetHandleByPciBusId_v2"); memcpy(&nv.by_pci, &p, sizeof p);
    p = sym("nvmlDeviceGetClockInfo"); memcpy(&nv.clock, &p, sizeof p);
    p = sym("nvmlDeviceGetMaxClockInfo"); memcpy(&nv.max_clock, &p, sizeof p);
    if (nv.ok && nv.init() != 0) nv.ok = 0;
    if (!nv.ok) {
        dlclose(nv.lib);
        nv.lib = NULL;
    }
    return nv.ok;
}

/* NVML numbers devices its own way; the PCI bus id ties it to CUDA's. */
static nvml_dev_t device(int cuda_dev)
{
    char bus[32];
    if (!nvml_open()) return NULL;
    if (nv.dev_index == cuda_dev) return nv.dev;
    if (cudaDeviceGetPCIBusId(bus, sizeof bus, cuda_dev) != cudaSuccess) return NULL;
    nvml_dev_t d = NULL;
    if (nv.by_pci(bus, &d) != 0) return NULL;
    nv.dev_index = cuda_dev;
    nv.dev = d;
    return d;
}

int seer_bench_nvml_driver(char *buf, size_t len)
{
    char v[96];
    if (!len || !nvml_open() || nv.driver(v, sizeof v) != 0) return -1;
    snprintf(buf, len, "%s", v);
    return 0;
}

int seer_bench_nvml_sm_clock(int cuda_dev)
{
    unsigned mhz = 0;
    nvml_dev_t d = device(cuda_dev);
    return d && nv.clock(d, NVML_CLOCK_SM, &mhz) == 0 ? (int)mhz : 0;
}

int seer_bench_nvml_clocks(int cuda_dev, int *sm_mhz, int *mem_mhz, int *max_sm_mhz, int *max_mem_mhz)
{
    unsigned v[4] = {0};
    nvml_dev_t d = device(cuda_dev);
    if (!d) return -1;
    int bad = nv.clock(d, NVML_CLOCK_SM, &v[0]) | nv.clock(d, NVML_CLOCK_MEM, &v[1]) |
              nv.max_clock(d, NVML_CLOCK_SM, &v[2]) | nv.max_clock(d, NVML_CLOCK_MEM, &v[3]);
    *sm_mhz = (int)v[0];
    *mem_mhz = (int)v[1];
    *max_sm_mhz = (int)v[2];
    *max_mem_mhz = (int)v[3];
    return bad ? -1 : 0;
}

void seer_bench_nvml_close(void)
{
    if (nv.ok && nv.lib) {
        (void)nv.shutdown();
        dlclose(nv.lib);
    }
    memset(&nv, 0, sizeof nv);
    nv.dev_index = -1;
}

void seer_bench_driver_release(char *buf, size_t len)
{
    int v = 0;
    if (seer_bench_nvml_driver(buf, len) == 0) return;
    /* without NVML: the highest CUDA version the driver supports, marked
     * as such (it is not the driver's release number) */
    if (cudaDriverGetVersion(&v) == cudaSuccess && v > 0)
        snprintf(buf, len, "cuda-%d.%d", v / 1000, v % 1000 / 10);
    else
        snprintf(buf, len, "unknown");
}

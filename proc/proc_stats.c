/* proc_stats.c: process and host facts, over the platform seam, and the
 * BLAS this process calls. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "proc/platform.h"
#include "proc/proc_stats.h"

long proc_rss_kib(int pid) { return platform_rss_kib((pid_t)pid); }
long proc_peak_kib(void) { return platform_peak_kib(); }
int proc_peak_restart(void) { return platform_peak_restart(); }
long host_memory_kib(enum host_memory which)
{
    return which == HOST_MEMORY_TOTAL ? platform_memory_total_kib() : platform_memory_available_kib();
}
void host_cpu_model(char *out, size_t size) { platform_cpu_model(out, size); }

/* The library whose sgemm_ the process calls: several BLAS libraries can
 * be mapped at once (OpenBLAS's LAPACK pulls in OpenBLAS beside the
 * reference libblas.so.3), and the first definition of the symbol wins. */
void blas_library(char *out, size_t size)
{
    void *sgemm = dlsym(RTLD_DEFAULT, "sgemm_");
    Dl_info info;
    snprintf(out, size, "none");
    if (!sgemm || !dladdr(sgemm, &info) || !info.dli_fname)
        return;
    char *real = realpath(info.dli_fname, NULL);
    snprintf(out, size, "%s", real ? real : info.dli_fname);
    free(real);
}

int blas_threads(const char *serving)
{
    /* Looked up at run time: which BLAS libblas.so.3 points to is a system
     * setting (update-alternatives), not something this binary links. */
    if (!strstr(serving, "openblas"))
        return -1; /* OpenBLAS may be mapped (for LAPACK) without doing the BLAS */
    int (*get)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "openblas_get_num_threads");
    return get ? get() : -1;
}

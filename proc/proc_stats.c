/* proc_stats.c: /proc readers. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include "proc/proc_stats.h"

long proc_status_kib(const char *field) { return proc_status_kib_of(0, field); }

static long field_kib(const char *path, const char *field)
{
    FILE *f = fopen(path, "r");
    char line[256];
    long kib = -1;
    size_t n = strlen(field);
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, field, n) == 0 && line[n] == ':')
            kib = strtol(line + n + 1, NULL, 10);
    if (f)
        fclose(f);
    return kib;
}

long proc_status_kib_of(int pid, const char *field)
{
    char path[64];
    if (pid > 0)
        snprintf(path, sizeof path, "/proc/%d/status", pid);
    else
        snprintf(path, sizeof path, "/proc/self/status");
    return field_kib(path, field);
}

long meminfo_kib(const char *field) { return field_kib("/proc/meminfo", field); }

void host_cpu_model(char *out, size_t size)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    struct utsname u;
    snprintf(out, size, "%s", uname(&u) == 0 ? u.machine : "unknown");
    while (f && fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (colon && strncmp(line, "model name", 10) == 0) {
            colon += 1 + (colon[1] == ' ');
            colon[strcspn(colon, "\n")] = '\0';
            snprintf(out, size, "%s", colon);
            break;
        }
    }
    if (f)
        fclose(f);
}

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

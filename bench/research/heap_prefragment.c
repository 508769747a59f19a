/* bench/research/heap_prefragment.c: an LD_PRELOAD that fragments the
 * heap at start as a Python process's is after its imports (#19, README 9):
 * FRAG_N blocks of FRAG_SIZE bytes (112) allocated, every other one freed.
 *   cc -O2 -shared -fPIC -o heap_prefragment.so bench/research/heap_prefragment.c
 *   FRAG_N=N FRAG_SIZE=S LD_PRELOAD=$PWD/heap_prefragment.so peakfit-worker ... */
#include <stdlib.h>
static void *keep[4000000];
__attribute__((constructor)) static void frag(void)
{
    const char *n_s = getenv("FRAG_N"), *sz_s = getenv("FRAG_SIZE");
    long n = n_s ? atol(n_s) : 0, sz = sz_s ? atol(sz_s) : 112;
    if (n > 4000000) n = 4000000;
    for (long i = 0; i < n; i++) keep[i] = malloc((size_t)sz);
    for (long i = 0; i < n; i += 2) free(keep[i]);
}

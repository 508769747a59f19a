/* proc_env.c: a process's environment block, parsed. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "proc/proc_env.h"

const char *const proc_rank_variables[] = {"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", NULL};

/* Which of proc_rank_variables an environment entry sets ("RANK=3"): its
 * index, or -1. */
static int rank_variable_of(const char *entry)
{
    for (int v = 0; proc_rank_variables[v]; v++) {
        size_t n = strlen(proc_rank_variables[v]);
        if (strncmp(entry, proc_rank_variables[v], n) == 0 && entry[n] == '=')
            return v;
    }
    return -1;
}

int proc_env_rank(const char *env, size_t n)
{
    const char *value = NULL;
    int best = -1;
    for (size_t i = 0; i < n; i += strlen(env + i) + 1) {
        int v = rank_variable_of(env + i);
        if (v >= 0 && (best < 0 || v < best))
            best = v, value = env + i + strlen(proc_rank_variables[v]) + 1;
    }
    char *end = NULL;
    long rank = value && isdigit((unsigned char)value[0]) ? strtol(value, &end, 10) : -1;
    return rank >= 0 && *end == '\0' && rank < 1 << 20 ? (int)rank : -1;
}

/* The offset after the string at i and the NULs that follow it, or n. */
static size_t after_string(const char *record, size_t n, size_t i, int padded)
{
    while (i < n && record[i])
        i++;
    if (i < n)
        i++;
    while (padded && i < n && !record[i])
        i++;
    return i;
}

long proc_env_procargs_start(const char *record, size_t n)
{
    int argc;
    if (n < sizeof argc)
        return -1;
    memcpy(&argc, record, sizeof argc);
    size_t i = after_string(record, n, sizeof argc, 1); /* the path, and NULs that align argv */
    for (int a = 0; a < argc && i < n; a++)
        i = after_string(record, n, i, 0);
    return argc >= 0 && i < n ? (long)i : -1;
}

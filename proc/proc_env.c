/* proc_env.c: a process's environment block, parsed. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "proc/proc_env.h"

int proc_env_rank(const char *env, size_t n)
{
    for (size_t i = 0; i < n; i += strlen(env + i) + 1) {
        long rank;
        char *end;
        if (strncmp(env + i, "RANK=", 5) != 0 || !isdigit((unsigned char)env[i + 5]))
            continue;
        rank = strtol(env + i + 5, &end, 10);
        return *end == '\0' && rank < 1 << 20 ? (int)rank : -1;
    }
    return -1;
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

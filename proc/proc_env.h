/* proc_env.h: another process's environment as the system hands it over,
 * parsed the same on every system: the RANK=N a launcher gives each of its
 * workers (torchrun's), and where the environment starts in macOS's
 * KERN_PROCARGS2 record. Pure functions of the bytes, so that the unit
 * tests check them on Linux (tests/platform_parse_test.c). */
#ifndef PEAKFIT_PROC_ENV_H
#define PEAKFIT_PROC_ENV_H
#include <stddef.h>

/* The variables a launcher numbers its workers by, the first a process
 * holds naming its rank: torchrun's (and DeepSpeed's, Horovod's) RANK,
 * Open MPI's, MPICH's and PMIx's. A command starts without them (its
 * runner's own are not its ranks: proc/spawn.c). NULL-terminated. */
extern const char *const proc_rank_variables[];
/* The N of the first of proc_rank_variables (in their order) set among
 * env's n bytes of NUL-ended NAME=VALUE strings (env[n] is a NUL too), or
 * -1 (none, or not a rank: not digits alone, or 2^20 or more). */
int proc_env_rank(const char *env, size_t n);
/* KERN_PROCARGS2's record: an int argc, the executable's path, NULs,
 * argc argument strings, then the environment's strings. The offset of the
 * first environment string, or -1 when the record ends before it. */
long proc_env_procargs_start(const char *record, size_t n);
#endif

/* The process layer's parsing, checked on made-up text: Linux's files
 * (status and meminfo fields, stat's parent after a name with spaces and
 * parentheses, smaps_rollup's private pages, cpuinfo's model name), the
 * RANK in an environment block, and where the environment starts in
 * macOS's KERN_PROCARGS2 record (built here byte by byte, as the kernel
 * lays it out). */
#include <string.h>
#include "proc/platform_linux.h"
#include "proc/proc_env.h"
#include "tests/check.h"

static void linux_fields(void)
{
    const char *status = "Name:\tpeakfit-worker\nVmPeak:\t  912 kB\nVmHWM:\t  123456 kB\nVmRSS:\t   98765 kB\n";
    CHECK(linux_field_kib(status, "VmHWM") == 123456, "VmHWM: %ld", linux_field_kib(status, "VmHWM"));
    CHECK(linux_field_kib(status, "VmRSS") == 98765, "VmRSS: %ld", linux_field_kib(status, "VmRSS"));
    CHECK(linux_field_kib(status, "VmHW") == -1, "a field's prefix is not the field: %ld", linux_field_kib(status, "VmHW"));
    CHECK(linux_field_kib(status, "VmSwap") == -1, "a missing field: %ld", linux_field_kib(status, "VmSwap"));
    CHECK(linux_field_kib("", "VmRSS") == -1, "empty text");
    const char *meminfo = "MemTotal:       65536000 kB\nMemFree:  100 kB\nMemAvailable:   32768000 kB";
    CHECK(linux_field_kib(meminfo, "MemAvailable") == 32768000, "the last line, with no newline: %ld",
          linux_field_kib(meminfo, "MemAvailable"));
}

static void linux_stat(void)
{
    CHECK(linux_stat_parent("4242 (python3) S 17 4242 17 0") == 17, "plain name");
    CHECK(linux_stat_parent("4242 (a) b (c) R 99 1 1") == 99, "a name with spaces and parentheses: %d",
          linux_stat_parent("4242 (a) b (c) R 99 1 1"));
    CHECK(linux_stat_parent("4242 (cut") == -1, "no closing parenthesis");
    CHECK(linux_stat_parent("4242 (x) S") == -1, "no parent field");
}

static void linux_private(void)
{
    const char *rollup = "Rss:  900 kB\nPss:  500 kB\nShared_Clean: 300 kB\nPrivate_Clean:   40 kB\n"
                         "Private_Dirty:  560 kB\nSwap: 0 kB\n";
    CHECK(linux_private_kib(rollup) == 600, "Private_Clean + Private_Dirty: %ld", linux_private_kib(rollup));
    CHECK(linux_private_kib("Rss: 900 kB\nPrivate_Dirty: 560 kB\n") == -1, "one of the two missing");
}

static void linux_cpuinfo(void)
{
    char out[64] = "unchanged";
    CHECK(linux_cpu_model("processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 9654 96-Core\nflags: x\n",
                          out, sizeof out) == 0 && !strcmp(out, "AMD EPYC 9654 96-Core"), "model name: '%s'", out);
    strcpy(out, "unchanged");
    CHECK(linux_cpu_model("processor\t: 0\nBogoMIPS\t: 50.00\n", out, sizeof out) == -1 && !strcmp(out, "unchanged"),
          "none: out left as it was: '%s'", out);
}

static void ranks(void)
{
    static const char env[] = "PATH=/usr/bin\0RANKS=9\0LOCAL_RANK=5\0RANK=3\0RANK=7";
    CHECK(proc_env_rank(env, sizeof env - 1) == 3, "the first RANK=, not RANKS= or LOCAL_RANK=: %d",
          proc_env_rank(env, sizeof env - 1));
    static const char bad[] = "RANK=3x\0RANK=4";
    CHECK(proc_env_rank(bad, sizeof bad - 1) == -1, "RANK=3x is not a rank, and the first RANK= decides");
    static const char big[] = "RANK=1048576";
    CHECK(proc_env_rank(big, sizeof big - 1) == -1, "2^20 is past the ranks counted");
    static const char none[] = "HOME=/root\0RANK=\0";
    CHECK(proc_env_rank(none, sizeof none - 1) == -1, "an empty RANK");
}

/* KERN_PROCARGS2: int argc, the path, NULs to align, argv, environment. */
static size_t procargs(char *out, int argc, const char *path, int pad, const char *const *strings, int n)
{
    size_t at = 0;
    memcpy(out, &argc, sizeof argc);
    at += sizeof argc;
    memcpy(out + at, path, strlen(path) + 1);
    at += strlen(path) + 1;
    memset(out + at, 0, (size_t)pad);
    at += (size_t)pad;
    for (int i = 0; i < n; i++) {
        memcpy(out + at, strings[i], strlen(strings[i]) + 1);
        at += strlen(strings[i]) + 1;
    }
    return at;
}

static void procargs2(void)
{
    char record[512];
    const char *strings[] = {"python3", "train.py", "RANK=2", "HOME=/Users/x"};
    size_t n = procargs(record, 2, "/usr/bin/python3", 5, strings, 4);
    long start = proc_env_procargs_start(record, n);
    CHECK(start > 0 && !strcmp(record + start, "RANK=2"), "environment after argv: %ld", start);
    CHECK(start > 0 && proc_env_rank(record + start, n - (size_t)start) == 2, "its rank");
    n = procargs(record, 3, "/usr/bin/python3", 0, strings, 2);
    CHECK(proc_env_procargs_start(record, n) == -1, "a record that ends in argv: %ld", proc_env_procargs_start(record, n));
    CHECK(proc_env_procargs_start(record, 2) == -1, "shorter than argc");
}

int main(void)
{
    linux_fields();
    linux_stat();
    linux_private();
    linux_cpuinfo();
    ranks();
    procargs2();
    CHECK_DONE();
}

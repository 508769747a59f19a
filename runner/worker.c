/* worker.c: measures one grid point in a fresh process. It reports to the
 * runner as key=value lines on --report-fd (stdout by default), each line
 * as soon as it is known, so a worker that dies still leaves what it
 * measured so far. The sequence: libtorch up, baseline, model, steps, peak. */
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util/clock.h"
#include "models/model_spec.h"
#include "runner/point_result.h"
#include "runner/proc_stats.h"
#include "sweeps/technique.h"
#include "util/parse.h"

struct worker_args {
    const char *model;
    const char *device;
    const char *weights;
    pf_train_options train;
    long batch, seq_len, steps, seed, threads;
    int report_fd;
};

static int report_fd = 1;

static void report(const char *key, const char *fmt, ...)
{
    char line[1024];
    int n = snprintf(line, sizeof line, "%s=", key);
    va_list ap;
    va_start(ap, fmt);
    n += vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
    va_end(ap);
    if (n > (int)sizeof line - 2)
        n = (int)sizeof line - 2;
    /* One write per line, under PIPE_BUF, so lines never interleave. */
    for (char *c = line + strlen(key) + 1; *c; c++)
        if (*c == '\n')
            *c = ' ';
    line[n++] = '\n';
    if (write(report_fd, line, (size_t)n) < 0)
        _exit(WORKER_EXIT_ERROR);
}

static int usage(const char *why)
{
    fprintf(stderr, "peakfit worker: %s\n"
            "usage: peakfit worker --model SPEC --technique T [--batch B --seq-len S] [--steps N]\n"
            "       [--device cpu] [--seed N] [--threads N] [--weights FILE]\n"
            "       [--lora-rank R] [--lora-targets q,v] [--report-fd FD]\n", why);
    return WORKER_EXIT_USAGE;
}

static int parse_option(struct worker_args *a, int opt, const char *v)
{
    int t;
    switch (opt) {
    case 'm': a->model = v; return 0;
    case 'd': a->device = v; return 0;
    case 'w': a->weights = v; return 0;
    case 't':
        if ((t = technique_from_name(v)) < 0) return -1;
        a->train.technique = (pf_technique)t;
        return 0;
    case 'b': return parse_long(v, 1, 1000000, &a->batch);
    case 's': return parse_long(v, 1, 1000000, &a->seq_len);
    case 'n': return parse_long(v, 1, 1000, &a->steps);
    case 'S': return parse_long(v, 0, 2147483647L, &a->seed);
    case 'T': return parse_long(v, 0, 4096, &a->threads);
    case 'r': { long r; int rc = parse_long(v, 1, 65536, &r); a->train.lora_rank = (int)r; return rc; }
    case 'g': return (a->train.lora_targets = lora_targets_from_list(v)) ? 0 : -1;
    case 'f': { long fd; int rc = parse_long(v, 0, 1 << 20, &fd); a->report_fd = (int)fd; return rc; }
    default: return -1;
    }
}

static int parse_args(int argc, char **argv, struct worker_args *a)
{
    static const struct option options[] = {
        {"model", 1, 0, 'm'}, {"device", 1, 0, 'd'}, {"weights", 1, 0, 'w'},
        {"technique", 1, 0, 't'}, {"batch", 1, 0, 'b'}, {"seq-len", 1, 0, 's'},
        {"steps", 1, 0, 'n'}, {"seed", 1, 0, 'S'}, {"threads", 1, 0, 'T'},
        {"lora-rank", 1, 0, 'r'}, {"lora-targets", 1, 0, 'g'},
        {"report-fd", 1, 0, 'f'}, {0, 0, 0, 0}};
    *a = (struct worker_args){.device = "cpu", .steps = 2, .report_fd = 1, .train = {
        .technique = PF_TECH_COUNT, .lora_rank = 8, .lora_targets = PF_LORA_Q | PF_LORA_V,
        .learning_rate = 1e-4}};
    int opt;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1)
        if (opt == '?' || parse_option(a, opt, optarg) != 0)
            return usage(opt == '?' ? "unknown option" : "invalid option value");
    if (!a->model || a->train.technique == PF_TECH_COUNT)
        return usage("--model and --technique are required");
    if (a->train.technique != PF_TECH_LOAD && (!a->batch || !a->seq_len))
        return usage("--batch and --seq-len are required for this technique");
    return 0;
}

static void report_environment(void)
{
    char text[512];
    report("torch_version", "%s", pf_torch_version());
    report("threads", "%d", pf_num_threads());
    blas_library(text, sizeof text);
    report("blas", "%s", text);
    report("blas_threads", "%d", blas_threads(text));
    host_cpu_model(text, sizeof text);
    report("cpu_model", "%s", text);
}

/* Starts VmHWM afresh from the current RSS (Linux >= 4.0), so that the
 * peak is what the model and its steps reached, not a transient of
 * libtorch's start-up. Where this fails, the peak is still an upper bound. */
static void reset_peak_rss(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (f) {
        fputs("5", f);
        fclose(f);
    }
}

/* Test hook: PEAKFIT_FAULT makes the worker fail on purpose, so that tests
 * can check how the runner records each kind of failure. */
static void inject_fault(void)
{
    const char *fault = getenv("PEAKFIT_FAULT");
    if (!fault) return;
    if (!strcmp(fault, "segv")) raise(SIGSEGV);
    if (!strcmp(fault, "abort")) abort();
    if (!strcmp(fault, "kill")) raise(SIGKILL);
    if (!strcmp(fault, "hang")) for (;;) pause();
    if (!strcmp(fault, "exit")) _exit(7);
}

static int fail_with(pf_status status)
{
    report("error", "%s", pf_last_error());
    report("peak_rss_kib", "%ld", proc_status_kib("VmHWM"));
    report("tensor_peak_bytes", "%lld", (long long)pf_tensor_bytes_peak());
    return status == PF_ERR_OOM ? WORKER_EXIT_OOM : WORKER_EXIT_ERROR;
}

static void report_stats(const pf_model *model)
{
    pf_model_stats st;
    if (pf_model_stats_get(model, &st) != PF_OK)
        return;
    report("params", "%lld", (long long)st.params);
    report("trainable_params", "%lld", (long long)st.trainable_params);
    report("weight_bytes", "%lld", (long long)st.weight_bytes);
    report("grad_bytes", "%lld", (long long)st.grad_bytes);
    report("optimizer_bytes", "%lld", (long long)st.optimizer_bytes);
}

static int build_model(const struct worker_args *a, pf_model **model)
{
    pf_model_config config;
    char why[600];
    if (model_spec_resolve(a->model, &config, why, sizeof why) != 0) {
        report("error", "%s", why);
        return WORKER_EXIT_ERROR;
    }
    double t0 = monotonic_seconds();
    pf_status st = pf_model_new(&config, &a->train, (uint64_t)a->seed, a->device, model);
    if (st == PF_OK && a->weights)
        st = pf_model_load_safetensors(*model, a->weights);
    if (st != PF_OK)
        return fail_with(st);
    report("build_s", "%.6f", monotonic_seconds() - t0);
    report_stats(*model);
    return 0;
}

static int run_steps(const struct worker_args *a, pf_model *model)
{
    if (a->train.technique == PF_TECH_LOAD)
        return 0;
    for (long i = 0; i < a->steps; i++) {
        double loss, t0 = monotonic_seconds();
        pf_status st = pf_model_step(model, a->batch, a->seq_len, &loss);
        if (st != PF_OK)
            return fail_with(st);
        report("step_s", "%.6f", monotonic_seconds() - t0);
        if (loss == loss)
            report("loss", "%.6f", loss);
    }
    report_stats(model);
    return 0;
}

int worker_main(int argc, char **argv)
{
    struct worker_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc != 0)
        return rc;
    report_fd = a.report_fd;
    if (pf_init((int)a.threads) != PF_OK)
        return fail_with(PF_ERR);
    report_environment();
    report("baseline_rss_kib", "%ld", proc_status_kib("VmRSS"));
    reset_peak_rss();
    report("baseline_tensor_bytes", "%lld", (long long)pf_tensor_bytes_live());
    inject_fault();
    pf_model *model = NULL;
    rc = build_model(&a, &model);
    if (rc == 0)
        rc = run_steps(&a, model);
    if (rc == 0) {
        report("peak_rss_kib", "%ld", proc_status_kib("VmHWM"));
        report("tensor_peak_bytes", "%lld", (long long)pf_tensor_bytes_peak());
    }
    pf_model_free(model);
    return rc;
}

/* worker.c: measures one grid point in a fresh process. It reports to the
 * runner as key=value lines on --report-fd (stdout by default), each line
 * as soon as it is known, so a worker that dies still leaves what it
 * measured so far. The sequence: libtorch up, baseline, model, steps, peak. */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "shim/peakfit_torch.h"
#include "util/clock.h"
#include "protocol/point_result.h"
#include "proc/proc_stats.h"
#include "protocol/worker_report.h"
#include "core/device.h"
#include "sweeps/limits.h"
#include "sweeps/sweep.h"
#include "sweeps/job_train_options.h"
#include "protocol/worker_options.h"
#include "core/technique.h"


static int report_fd = 1;

/* One line of the report: its key is the row's (protocol/worker_report.h);
 * phase: which phase, for the per-phase rows. */
static void vreport(enum worker_report_key k, int phase, const char *fmt, va_list ap)
{
    char line[1024], key[64];
    worker_report_key(k, phase, key, sizeof key);
    int n = snprintf(line, sizeof line, "%s=", key);
    n += vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
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

static void report(enum worker_report_key k, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(k, 0, fmt, ap);
    va_end(ap);
}

static void report_phase(enum worker_report_key k, int phase, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(k, phase, fmt, ap);
    va_end(ap);
}

static int usage(const char *why)
{
    fprintf(stderr, "peakfit worker: %s\npeakfit worker --help lists the options\n", why);
    return WORKER_EXIT_USAGE;
}

/* A worker measures one point: each list the options set has one value. */
static int check_point(const struct sweep_job *j)
{
    if (j->n_models != 1 || j->n_techniques != 1)
        return usage("--model and --technique are required, one of each");
    if (j->n_devices != 1 || j->n_attentions != 1 || j->n_batches > 1 || j->n_seq_lens > 1)
        return usage("--device, --attention, --batch and --seq-len take one value each");
    if (technique_runs_steps(j->techniques[0]) && (!j->n_batches || !j->n_seq_lens))
        return usage("--batch and --seq-len are required for this technique");
    return 0;
}

static int parse_args(int argc, char **argv, struct worker_point *a)
{
    char why[1400];
    int n;
    *a = (struct worker_point){.sweep = sweep_new_point(), .report_fd = 1};
    if (!a->sweep)
        return usage("out of memory");
    a->job = &a->sweep->jobs[0];
    if (opt_parse_args(worker_options(), argc, argv, a, NULL, 0, &n, why, sizeof why) != 0)
        return usage(why);
    int rc = check_point(a->job);
    if (rc == 0 && sweep_job_model_check(a->sweep, a->job, 0, why, sizeof why) != 0)
        return usage(why);
    return rc;
}

static void report_environment(void)
{
    char text[512];
    report(REPORT_torch_version, "%s", pf_torch_version());
    report(REPORT_threads, "%d", pf_num_threads());
    blas_library(text, sizeof text);
    report(REPORT_blas, "%s", text);
    report(REPORT_blas_threads, "%d", blas_threads(text));
    host_cpu_model(text, sizeof text);
    report(REPORT_cpu_model, "%s", text);
}


#ifdef PEAKFIT_TEST_HOOKS
/* Test hook, compiled only into the tests' worker (make test-programs):
 * PEAKFIT_FAULT makes it fail on purpose, so that tests can check how the
 * runner records each kind of failure. */
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
#else
static void inject_fault(void) {}
#endif

/* The device whose memory this worker measures, once its baseline is
 * taken; NULL on cpu. */
static const char *gpu_device;

static void report_gpu_peaks(void)
{
    pf_device_memory m;
    if (!gpu_device || pf_device_memory_read(gpu_device, &m) != PF_OK)
        return;
    report(REPORT_gpu_allocated_peak_bytes, "%lld", (long long)m.allocated_peak);
    report(REPORT_gpu_reserved_peak_bytes, "%lld", (long long)m.reserved_peak);
}

/* An error after the GPU's allocator refused an allocation is that out of
 * memory, whatever libtorch said last: its C++ autograd engine can lose a
 * device thread's OutOfMemoryError and fail an assert of its own instead
 * (2.11: bench/results/smollm2-135m-cuda/oom-trace.txt). */
static pf_status gpu_oom_cause(pf_status status, char *message, size_t size)
{
    pf_device_memory m;
    const char *said = pf_last_error(); /* copied before the read below, which sets its own if it fails */
    snprintf(message, size, "%s", said);
    if (status == PF_ERR_OOM || !gpu_device || pf_device_memory_read(gpu_device, &m) != PF_OK || m.ooms <= 0)
        return status;
    snprintf(message, size, "out of memory on %s: its caching allocator refused %lld allocation%s (libtorch then "
             "said: %.600s)", gpu_device, (long long)m.ooms, m.ooms == 1 ? "" : "s", said);
    return PF_ERR_OOM;
}

static int fail_with(pf_status status)
{
    char message[1024];
    status = gpu_oom_cause(status, message, sizeof message);
    report(REPORT_error, "%s", message);
    report(REPORT_peak_rss_kib, "%ld", proc_peak_kib());
    report(REPORT_tensor_peak_bytes, "%lld", (long long)pf_tensor_bytes_peak());
    report_gpu_peaks();
    return status == PF_ERR_OOM ? WORKER_EXIT_OOM : WORKER_EXIT_ERROR;
}

/* On a GPU: the device's baseline (context, cuBLAS), its facts, and the
 * mem_limit as the caching allocator's cap. Before the model is built. */
static int gpu_baseline(const struct sweep_job *j)
{
    pf_device_memory m;
    if (!device_is_gpu(j->devices[0]))
        return 0;
    pf_status st = pf_device_memory_baseline(j->devices[0], &m);
    if (st != PF_OK)
        return fail_with(st);
    gpu_device = j->devices[0];
    if (m.name[0]) report(REPORT_gpu_name, "%s", m.name);
    if (m.runtime_version[0]) report(REPORT_cuda_version, "%s", m.runtime_version);
    if (m.driver_version[0]) report(REPORT_driver_version, "%s", m.driver_version);
    if (m.total >= 0) report(REPORT_gpu_total_bytes, "%lld", (long long)m.total);
    if (m.context >= 0) report(REPORT_gpu_context_bytes, "%lld", (long long)m.context);
    if (j->mem_limit > 0 && (st = pf_device_memory_limit(j->devices[0], j->mem_limit)) != PF_OK)
        return fail_with(st);
    return 0;
}

static void report_stats(const pf_model *model)
{
    pf_model_stats st;
    if (pf_model_stats_get(model, &st) != PF_OK)
        return;
    report(REPORT_params, "%lld", (long long)st.params);
    report(REPORT_trainable_params, "%lld", (long long)st.trainable_params);
    report(REPORT_weight_bytes, "%lld", (long long)st.weight_bytes);
    report(REPORT_grad_bytes, "%lld", (long long)st.grad_bytes);
    report(REPORT_optimizer_bytes, "%lld", (long long)st.optimizer_bytes);
}

static int build_model(const struct worker_point *a, pf_model **model)
{
    const struct sweep_job *j = a->job;
    const struct point_axes axes = job_axes_first(j); /* the worker's sweep is one point's */
    const pf_train_options train = train_options_of(&axes, j->techniques[0], j->attentions[0]);
    const pf_model_config config = sweep_job_config(a->sweep, j, 0, j->layers[0]);
    double t0 = monotonic_seconds();
    pf_status st = pf_model_new(&config, &train, (uint64_t)j->seed, j->devices[0], model);
    if (st == PF_OK && j->weights[0])
        st = pf_model_load_safetensors(*model, j->weights);
    if (st == PF_OK && axes.warm)
        st = pf_model_warm_optimizer(*model);
    if (st != PF_OK)
        return fail_with(st);
    report(REPORT_build_s, "%.6f", monotonic_seconds() - t0);
    report_stats(*model);
    return 0;
}

/* Each phase's peak and end RSS, as the shim recorded them over the steps. */
static void report_phases(const pf_model *model)
{
    pf_model_phase_peaks ph;
    if (pf_model_phase_peaks_get(model, &ph) != PF_OK)
        return;
    for (int i = 0; i < PF_PHASE_COUNT; i++) {
        if (ph.peak_bytes[i] < 0)
            continue;
        report_phase(REPORT_phase_peak_bytes, i, "%lld", (long long)ph.peak_bytes[i]);
        report_phase(REPORT_phase_end_rss_kib, i, "%lld", (long long)(ph.end_rss_bytes[i] / 1024));
        if (ph.device_allocated_peak_bytes[i] >= 0)
            report_phase(REPORT_phase_gpu_allocated_peak_bytes, i, "%lld", (long long)ph.device_allocated_peak_bytes[i]);
        if (ph.device_reserved_peak_bytes[i] >= 0)
            report_phase(REPORT_phase_gpu_reserved_peak_bytes, i, "%lld", (long long)ph.device_reserved_peak_bytes[i]);
    }
}

static int run_steps(const struct worker_point *a, pf_model *model)
{
    const struct sweep_job *j = a->job;
    if (!technique_runs_steps(j->techniques[0]))
        return 0;
    for (int i = 0; i < j->steps; i++) {
        double loss, t0 = monotonic_seconds();
        pf_status st = pf_model_step(model, j->batches[0], j->seq_lens[0], &loss);
        if (st != PF_OK)
            return fail_with(st);
        report(REPORT_step_s, "%.6f", monotonic_seconds() - t0);
        if (loss == loss)
            report(REPORT_loss, "%.6f", loss);
    }
    report_stats(model);
    report_phases(model);
    return 0;
}

/* When main began, for start_s: the runner's fork time comes in
 * PEAKFIT_SPAWNED_AT (CLOCK_MONOTONIC is the machine's, not the process's). */
static double main_started;

static void report_start_up(double init_s)
{
    const char *spawned = getenv("PEAKFIT_SPAWNED_AT");
    if (spawned && atof(spawned) > 0)
        report(REPORT_start_s, "%.6f", main_started - atof(spawned));
    report(REPORT_init_s, "%.6f", init_s);
}

/* Everything is reported: a worker the runner started ends here, without
 * freeing the model tensor by tensor or running libtorch's static
 * destructors (the kernel takes the memory back at once); by hand, or with
 * PEAKFIT_WORKER_EXIT=clean (bench/startup.sh's "before"), it tears down. */
static void quick_exit_if_spawned(int rc)
{
    const char *how = getenv("PEAKFIT_WORKER_EXIT");
    if (!getenv("PEAKFIT_SPAWNED_AT") || (how && strcmp(how, "clean") == 0))
        return;
    fflush(NULL);
    _exit(rc);
}

/* What the shim records at each phase's end (pf_set_rss_reader). */
static int64_t rss_bytes_now(void)
{
    long kib = proc_rss_kib(0);
    return kib < 0 ? -1 : (int64_t)kib * 1024;
}

static int measure(const struct worker_point *a)
{
    report_fd = a->report_fd;
    pf_set_rss_reader(rss_bytes_now);
    double t0 = monotonic_seconds();
    if (pf_init(a->job->threads) != PF_OK)
        return fail_with(PF_ERR);
    report_start_up(monotonic_seconds() - t0);
    report_environment();
    /* The GPU's context and cuBLAS first: a training script has them (and
     * their host memory: 246 MiB on an H200 with CUDA 13) before it builds its
     * model, so the RSS baseline comes after them, as examples/'s Report(). */
    int rc = gpu_baseline(a->job);
    report(REPORT_baseline_rss_kib, "%ld", proc_rss_kib(0));
    /* The peak is what the model and its steps reached, not a transient of
     * libtorch's start-up (proc/proc_stats.h: where it cannot restart, the
     * peak is still an upper bound). */
    proc_peak_restart();
    report(REPORT_baseline_tensor_bytes, "%lld", (long long)pf_tensor_bytes_live());
    inject_fault();
    pf_model *model = NULL;
    if (rc == 0)
        rc = build_model(a, &model);
    if (rc == 0)
        rc = run_steps(a, model);
    if (rc == 0) {
        report(REPORT_peak_rss_kib, "%ld", proc_peak_kib());
        report(REPORT_tensor_peak_bytes, "%lld", (long long)pf_tensor_bytes_peak());
        report_gpu_peaks();
    }
    quick_exit_if_spawned(rc);
    pf_model_free(model);
    return rc;
}

int worker_main(int argc, char **argv)
{
    main_started = monotonic_seconds();
    struct worker_point a;
    int rc = parse_args(argc, argv, &a);
    if (rc == 0)
        rc = measure(&a);
    sweep_free(a.sweep);
    return rc;
}

/* slurm_cmd.c: writes DIR/peakfit.sbatch, a Slurm job array over a sweep's
 * points, and (--submit) hands it to sbatch. */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "runner/grid_load.h"
#include "store/out_dir.h"
#include "store/results_csv.h"
#include "store/results_resume.h"
#include "proc/worker_binary.h"
#include "src/slurm_cmd.h"
#include "sweeps/limits.h"
#include "util/exit_status.h"
#include "util/output_file.h"
#include "util/options.h"
#include "util/shell_quote.h"

struct slurm_options {
    const char *sweep, *dir;
    const char *partition, *time;
    long gpus_per_task, cpus_per_task, chunk;
    int submit;
};

/* The text options land on an #SBATCH line: only the characters Slurm
 * reads as one word. */
static const char name_chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.,-";
static const char time_chars[] = "0123456789:-";

static int set_directive_text(const struct opt_row *row, const char *display, const char *value, void *target,
                              char *why, size_t size, const char *allowed, const char *shown)
{
    if (!value[0] || value[strspn(value, allowed)]) {
        snprintf(why, size, "%s \"%.64s\": only letters, digits and %s allowed", display, value, shown);
        return -1;
    }
    *(const char **)((char *)target + row->off) = value;
    return 0;
}

static int set_partition(const struct opt_row *row, const char *display, const char *value, void *target,
                         void *ctx, char *why, size_t size)
{
    (void)ctx;
    return set_directive_text(row, display, value, target, why, size, name_chars, "_ . , -");
}

static int set_time(const struct opt_row *row, const char *display, const char *value, void *target,
                    void *ctx, char *why, size_t size)
{
    (void)ctx;
    return set_directive_text(row, display, value, target, why, size, time_chars, ": -");
}

#define AT(f) offsetof(struct slurm_options, f)
static const struct opt_row slurm_rows[] = {
    {"output", 'o', "DIR", OPT_TEXT, AT(dir), .flags = OPT_REQUIRED,
     .help = "the directory for the script, logs and peaks.csv"},
    {"partition", 0, "P", OPT_CUSTOM, AT(partition), .set = set_partition,
     .flags = OPT_DEF_WORDS, .def = "the cluster's",
     .help = "#SBATCH --partition"},
    {"gpus-per-task", 0, "N", OPT_LONG, AT(gpus_per_task), 0, 1024,
     .flags = OPT_DEF_WORDS, .def = "none", .help = "#SBATCH --gpus-per-task"},
    {"time", 0, "T", OPT_CUSTOM, AT(time), .set = set_time, .flags = OPT_DEF_WORDS, .def = "the partition's",
     .help = "#SBATCH --time, as Slurm writes it (1:00:00, 2-0)"},
    {"cpus-per-task", 0, "N", OPT_LONG, AT(cpus_per_task), 1, 4096, .flags = OPT_DEF_WORDS, .def = "the cluster's",
     .help = "#SBATCH --cpus-per-task"},
    {"chunk", 0, "C", OPT_LONG, AT(chunk), 1, LIMIT_GRID_POINTS_MAX,
     .flags = OPT_DEF_WORDS, .def = "1, more to fit MaxArraySize",
     .help = "points per task"},
    {"submit", 0, NULL, OPT_FLAG, AT(submit), .help = "hand the script to sbatch"},
};

const struct opt_table slurm_options_table = OPT_TABLE("slurm", "SWEEP", slurm_rows, NULL);

static int usage(const char *why)
{
    if (why)
        fprintf(stderr, "peakfit slurm: %s\n", why);
    opt_print_synopsis(&slurm_options_table, stderr);
    return EXIT_BAD_INPUT;
}

static int parse(int argc, char **argv, struct slurm_options *o)
{
    char why[1024];
    int n;
    *o = (struct slurm_options){.chunk = 0}; /* 0: chosen to fit MaxArraySize */
    if (argc < 2)
        return usage(NULL);
    if (opt_parse_args(&slurm_options_table, argc, argv, o, &o->sweep, 1, &n, why, sizeof why) != 0)
        return usage(why);
    return n == 1 ? EXIT_DONE : usage("needs a SWEEP file");
}

/* sbatch splits #SBATCH lines at every isspace() character (\v \f \r
 * too), reads `#` as a comment and `%` as a file name pattern: only a
 * path made of these characters goes on one. Any other path is kept out
 * of the directives and redirected by the script itself (shell-quoted). */
static const char directive_chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/_.,+-";
static int directive_safe(const char *path) { return !path[strspn(path, directive_chars)]; }

/* The paths a task's script needs, absolute: peakfit itself, the frozen
 * sweep, DIR, and the directory `peakfit slurm` ran in. */
struct script_paths {
    const char *self, *sweep, *dir, *cwd;
};

/* sweep: the frozen copy in DIR, so that an edit of the original after
 * `peakfit slurm` cannot shift points between tasks; points: the grid's
 * size, checked by each task (--sweep-points). The task starts in the
 * directory `peakfit slurm` ran in, wherever sbatch was run: a command
 * job's relative program (command = ./train.sh) is found where the sweep
 * was checked. */
static void write_script(FILE *f, const struct slurm_options *o, const struct script_paths *at, long points)
{
    const char *self = at->self, *sweep = at->sweep, *dir = at->dir;
    long tasks = (points + o->chunk - 1) / o->chunk;
    fprintf(f, "#!/bin/bash\n"
               "# Written by `peakfit slurm`: %ld points as a job array of %ld task%s of %ld point%s each.\n"
               "# Submit with `sbatch` on a node that shares this file system; a task that is\n"
               "# requeued or rerun does not write its points twice. When all are done:\n"
               "#   peakfit fit DIR && peakfit report DIR\n",
            points, tasks, tasks == 1 ? "" : "s", o->chunk, o->chunk == 1 ? "" : "s");
    fprintf(f, "#SBATCH --job-name=peakfit\n#SBATCH --array=0-%ld\n#SBATCH --requeue\n#SBATCH --ntasks=1\n", tasks - 1);
    if (directive_safe(dir))
        fprintf(f, "#SBATCH --output=%s/slurm-%%A_%%a.out\n", dir);
    else
        fprintf(f, "#SBATCH --output=/dev/null\n");
    if (o->partition)
        fprintf(f, "#SBATCH --partition=%s\n", o->partition);
    if (o->time)
        fprintf(f, "#SBATCH --time=%s\n", o->time);
    if (o->gpus_per_task > 0)
        fprintf(f, "#SBATCH --gpus-per-task=%ld\n", o->gpus_per_task);
    if (o->cpus_per_task > 0)
        fprintf(f, "#SBATCH --cpus-per-task=%ld\n", o->cpus_per_task);
    fprintf(f, "set -eu\n");
    if (!directive_safe(dir)) {
        fprintf(f, "if [ -n \"${SLURM_JOB_ID-}\" ]; then exec >>");
        shell_quote(f, dir);
        fprintf(f, "\"/slurm-${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}.out\" 2>&1; fi\n");
    }
    fprintf(f, "cd ");
    shell_quote(f, at->cwd);
    fprintf(f, "\nexec ");
    shell_quote(f, self);
    fprintf(f, " run ");
    shell_quote(f, sweep);
    fprintf(f, " -o ");
    shell_quote(f, dir);
    fprintf(f, " --point \"$SLURM_ARRAY_TASK_ID\" --chunk %ld --sweep-points %ld\n", o->chunk, points);
}

static int save_script(const char *path, const struct slurm_options *o, const struct script_paths *at, long points)
{
    char err[PATH_MAX + 256];
    struct output_file out;
    if (output_file_open(&out, path, err, sizeof err) != 0) {
        fprintf(stderr, "peakfit: %s\n", err);
        return EXIT_IO;
    }
    write_script(out.f, o, at, points);
    if (output_file_commit(&out, err, sizeof err) != 0 || chmod(path, 0755) != 0) {
        fprintf(stderr, "peakfit: %s\n", err[0] ? err : strerror(errno));
        return EXIT_IO;
    }
    return EXIT_DONE;
}

/* sbatch SCRIPT: its own output says the job's number. */
static int submit(const char *script)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        execlp("sbatch", "sbatch", script, (char *)NULL);
        fprintf(stderr, "peakfit: cannot run sbatch: %s\n", strerror(errno));
        _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "peakfit: sbatch %s failed; the script is there to submit by hand\n", script);
        return EXIT_IO;
    }
    return EXIT_DONE;
}

/* Slurm's default MaxArraySize: task ids 0 .. 1000. */
#define SLURM_DEFAULT_MAX_ARRAY_SIZE 1001L

/* --chunk: as given (a warning past the default MaxArraySize), or the
 * fewest points per task that keep the array within it. */
static void choose_chunk(struct slurm_options *o, long points)
{
    long least = (points + SLURM_DEFAULT_MAX_ARRAY_SIZE - 1) / SLURM_DEFAULT_MAX_ARRAY_SIZE;
    if (o->chunk == 0 && least > 1)
        fprintf(stderr, "peakfit: %ld points: %ld points per task (--chunk %ld), so that the array fits Slurm's "
                "default MaxArraySize of %ld\n", points, least, least, SLURM_DEFAULT_MAX_ARRAY_SIZE);
    else if (o->chunk > 0 && o->chunk < least)
        fprintf(stderr, "peakfit: warning: --chunk %ld makes %ld tasks, past Slurm's default MaxArraySize of %ld: "
                "sbatch refuses the array unless the cluster raised it (--chunk %ld fits)\n", o->chunk,
                (points + o->chunk - 1) / o->chunk, SLURM_DEFAULT_MAX_ARRAY_SIZE, least);
    if (o->chunk == 0)
        o->chunk = least > 1 ? least : 1;
}

/* DIR's peaks.csv, if any, is this sweep's (else every task would fail
 * later, one by one): read only, as a task's resume would. */
static int check_results(const char *dir, const struct grid *g)
{
    char path[PATH_MAX], err[PATH_MAX + 512];
    struct stat st;
    snprintf(path, sizeof path, "%s/peaks.csv", dir); /* fits: out_dir_prepare checks */
    if (stat(path, &st) != 0 || (S_ISREG(st.st_mode) && st.st_size == 0))
        return EXIT_DONE;
    struct csv_table t;
    unsigned char *done = calloc((size_t)g->n + 1, 1);
    int rc = done ? csv_table_read(path, &t, err, sizeof err) : CSV_TABLE_IO;
    if (rc == 0) {
        rc = results_match(path, &t, g, done, err, sizeof err);
        csv_table_free(&t);
    }
    free(done);
    if (rc == 0)
        return EXIT_DONE;
    fprintf(stderr, "peakfit: %s\n", done ? err : "out of memory");
    return rc == RESULTS_IO_ERROR || rc == CSV_TABLE_IO ? EXIT_IO : EXIT_BAD_INPUT;
}

/* The tasks run the frozen copy, not the sweep: it must make the same
 * points with the same settings (a relative model path once named another
 * file from DIR, and every task failed). */
static int check_frozen(const char *frozen, const struct grid *g)
{
    char err[PATH_MAX + 1024], a[4096], b[4096];
    struct grid copy = {0};
    struct sweep *s = sweep_load(frozen, err, sizeof err);
    int rc = !s ? EXIT_BAD_INPUT : grid_build(s, &copy, err, sizeof err);
    for (int i = 0; rc == EXIT_DONE && i < g->n; i++) {
        grid_point_settings(&g->points[i], a, sizeof a);
        if (copy.n != g->n || (grid_point_settings(&copy.points[i], b, sizeof b), strcmp(a, b) != 0)) {
            snprintf(err, sizeof err, "%s: the copy the tasks run does not make the sweep's points (point %d: %.900s)",
                     frozen, i + 1, i < copy.n ? b : "missing");
            rc = EXIT_BAD_INPUT;
        }
    }
    if (rc != EXIT_DONE)
        fprintf(stderr, "peakfit: %s\n", err);
    grid_free(&copy);
    sweep_free(s);
    return rc;
}

int slurm_main(int argc, char **argv)
{
    struct slurm_options o;
    int rc = parse(argc, argv, &o);
    if (rc != EXIT_DONE)
        return rc;
    struct grid g;
    struct sweep *s = grid_load(o.sweep, &g, &rc);
    if (!s)
        return rc;
    long points = g.n;
    choose_chunk(&o, points);
    char self[PATH_MAX], *dir = NULL, script[PATH_MAX], frozen[PATH_MAX], cwd[PATH_MAX];
    rc = out_dir_prepare(o.dir);
    if (rc == EXIT_DONE && (!(dir = realpath(o.dir, NULL)) || worker_binary_self(self, sizeof self) != 0 ||
                            !getcwd(cwd, sizeof cwd)))
        rc = EXIT_IO;
    if (rc == EXIT_DONE)
        rc = check_results(dir, &g);
    if (rc == EXIT_DONE && out_dir_keep_sweep(o.sweep, dir) != 0)
        rc = EXIT_IO;
    if (rc == EXIT_DONE) {
        snprintf(script, sizeof script, "%s/peakfit.sbatch", dir); /* fits: out_dir_prepare checks */
        snprintf(frozen, sizeof frozen, "%s/sweep.sweep", dir);
        rc = check_frozen(frozen, &g);
    }
    grid_free(&g);
    sweep_free(s);
    if (rc == EXIT_DONE)
        rc = save_script(script, &o, &(struct script_paths){self, frozen, dir, cwd}, points);
    if (rc == EXIT_DONE)
        printf("%s\n", script);
    if (rc == EXIT_DONE && o.submit)
        rc = submit(script);
    free(dir);
    return rc;
}

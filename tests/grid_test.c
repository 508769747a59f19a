/* Grid expansion: defaults from [global], per-job overrides, the order of
 * the axes, load points without batch or sequence, and stable ids; model
 * entries by display name and canonical source; a point two jobs share kept
 * once; the bound on points; BOM and inline comments; device names. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "shim/peakfit_torch.h"
#include "runner/device_check.h"
#include "point/grid.h"
#include "core/device.h"
#include "sweeps/limits.h"
#include "core/technique.h"
#include "tests/check.h"
#include "util/exit_status.h"

static const char *sweep_text =
    "# two jobs\n"
    "[global]\n"
    "model = tiny\n"
    "steps = 3\n"
    "repeats = 2\n"
    "\n"
    "[train]\n"
    "technique = full, lora\n"
    "batch = 1, 4\n"
    "seq_len = 16, 32, 64\n"
    "lora_rank = 4\n"
    "\n"
    "[load]\n"
    "technique = load\n"
    "repeats = 1\n"
    "timeout = 2m\n"
    "mem_limit = 1.5GiB\n";

static char dir[] = "/tmp/peakfit-grid-XXXXXX";

/* Writes text to dir/name (making dir/name's folders) and returns its path. */
static const char *put(const char *name, const char *text)
{
    static char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    for (char *slash = strchr(path + strlen(dir) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        mkdir(path, 0700);
        *slash = '/';
    }
    FILE *f = fopen(path, "w");
    CHECK(f && fputs(text, f) >= 0 && fclose(f) == 0, "cannot write %s", path);
    return path;
}

static struct sweep *load(const char *name, const char *text, char *err, size_t errlen)
{
    err[0] = '\0';
    return sweep_load(put(name, text), err, errlen);
}

/* A sweep that must load. */
static struct sweep *load_ok(const char *name, const char *text)
{
    char err[1024];
    struct sweep *s = load(name, text, err, sizeof err);
    CHECK(s != NULL, "%s: %s", name, err);
    return s;
}

static void check_axes_and_ids(void)
{
    char err[1024] = "";
    struct sweep *s = load_ok("two.sweep", sweep_text);
    if (!s)
        return;
    CHECK(s->n_jobs == 2, "jobs: %d", s->n_jobs);
    CHECK(s->jobs[0].steps == 3 && s->jobs[0].repeats == 2, "global defaults inherited");
    CHECK(s->jobs[0].lora_rank[0] == 4 && s->jobs[1].lora_rank[0] == DEFAULT_LORA_RANK, "override stays in its job");
    CHECK(s->jobs[1].timeout_s == 120, "timeout 2m: %g", s->jobs[1].timeout_s);
    CHECK(s->jobs[1].mem_limit == 1610612736LL, "mem_limit 1.5GiB: %lld", (long long)s->jobs[1].mem_limit);
    CHECK(s->jobs[0].line == 7 && s->jobs[1].line == 13, "job lines %d %d", s->jobs[0].line, s->jobs[1].line);

    struct grid g;
    CHECK(grid_build(s, &g, err, sizeof err) == EXIT_DONE, "grid_build: %s", err);
    /* train: 2 techniques x 3 seq x 2 batch x 2 repeats = 24; load: 1 */
    CHECK(g.n == 25, "points: %d", g.n);
    const struct grid_point *p = g.points;
    CHECK(p[0].technique == PF_TECH_FULL && p[0].seq_len == 16 && p[0].batch == 1 && p[0].repeat == 0, "first");
    CHECK(p[1].repeat == 1 && p[1].batch == 1, "repeat is the innermost axis");
    CHECK(p[2].batch == 4 && p[2].seq_len == 16, "then batch");
    CHECK(p[4].seq_len == 32, "then seq_len");
    CHECK(p[12].technique == PF_TECH_LORA, "then technique");
    CHECK(strcmp(p[12].id, "train/tiny/cpu/lora/lora4-q+v/sdpa/b1/s16/st3/r0") == 0, "LoRA settings in the id: %s", p[12].id);
    CHECK(strcmp(p[0].id, "train/tiny/cpu/full/sdpa/b1/s16/st3/r0") == 0, "id: %s", p[0].id);
    CHECK(p[24].technique == PF_TECH_LOAD && p[24].batch == 0 && p[24].seq_len == 0, "load point");
    CHECK(strcmp(p[24].id, "load/tiny/cpu/load/b0/s0/st3/r0") == 0, "load id: %s", p[24].id);
    CHECK(strcmp(p[0].model, "tiny") == 0 && strcmp(p[0].model_source, "tiny") == 0 && p[0].config_hash == 0,
          "a preset's name and source: %s %s", p[0].model, p[0].model_source);
    for (int i = 0; i < g.n; i++)
        for (int j = i + 1; j < g.n; j++)
            CHECK(strcmp(g.points[i].id, g.points[j].id) != 0, "duplicate id %s", g.points[i].id);
    char summary[128];
    grid_summary(&g, summary, sizeof summary);
    /* 24 points of 600 s and one of 120 s */
    CHECK(strcmp(summary, "25 points; at most 4:02:00 by their timeouts") == 0, "summary: %s", summary);
    CHECK(g.warnings == NULL, "no warning: %s", g.warnings);
    grid_free(&g);
    sweep_free(s);
}

/* Everything that changes a measurement, for the resume check. */
static void check_settings(void)
{
    char err[1024], text[16384];
    put("w/model.safetensors", "not checked here");
    struct sweep *s = load_ok("settings.sweep",
                           "[j]\nmodel = tiny\ntechnique = lora\nbatch = 2\nseq_len = 8\nseed = 7\nthreads = 3\n"
                           "timeout = 90\nmem_limit = 1MiB\nweights = ./w/../w/model.safetensors\n"
                           "lora_targets = q, down\n");
    if (!s)
        return;
    struct grid g;
    CHECK(grid_build(s, &g, err, sizeof err) == EXIT_DONE && g.n == 1, "grid_build: %s", err);
    char want[16384];
    snprintf(want, sizeof want, "device=cpu;technique=lora;lora_rank=8;lora_targets=q,down;layers=;attention=sdpa;batch=2;"
             "seq_len=8;steps=2;model_source=tiny;config_hash=;seed=7;threads=3;timeout_s=90;mem_limit=1048576;"
             "weights=%s/w/model.safetensors;holdout=0;warm=0;command=;optimizer=adamw;zero_grad=none", dir);
    grid_point_settings(&g.points[0], text, sizeof text);
    /* The settings line is the table's order: a setting added since is
     * appended (each its own name=value). */
    size_t n = strlen(want);
    CHECK(strncmp(text, want, n) == 0 && (text[n] == '\0' || text[n] == ';'), "settings:\n%s\ndo not start\n%s",
          text, want);
    grid_free(&g);
    sweep_free(s);
}

/* A config.json model is named by its folder; however the sweep's path is
 * typed, the ids are the same. */
static void check_model_names(void)
{
    static const char *config = "{\"hidden_size\": 64, \"num_hidden_layers\": 1, \"num_attention_heads\": 4, "
                                "\"intermediate_size\": 128, \"vocab_size\": 100}";
    put("models/Mini-1B/config.json", config);
    put("models/other/Mini-1B/config.json", config);
    put("sub/m.sweep", "[j]\nmodel = ../models/Mini-1B/config.json, tiny\ntechnique = load\n");
    char err[1024], cwd[PATH_MAX], ids[3][sizeof ((struct grid_point *)0)->id];
    const char *paths[3] = {"sub/m.sweep", "./sub/../sub/m.sweep", NULL};
    char absolute[PATH_MAX];
    snprintf(absolute, sizeof absolute, "%s/sub/m.sweep", dir);
    paths[2] = absolute;
    CHECK(getcwd(cwd, sizeof cwd) != NULL && chdir(dir) == 0, "chdir");
    for (int i = 0; i < 3; i++) {
        struct sweep *s = sweep_load(paths[i], err, sizeof err);
        struct grid g = {0};
        CHECK(s && grid_build(s, &g, err, sizeof err) == EXIT_DONE && g.n == 2, "%s: %s", paths[i], err);
        snprintf(ids[i], sizeof ids[i], "%s", g.n ? g.points[0].id : "");
        if (g.n) {
            char source[PATH_MAX];
            snprintf(source, sizeof source, "%s/models/Mini-1B/config.json", dir);
            CHECK(strcmp(g.points[0].model, "Mini-1B") == 0, "display name: %s", g.points[0].model);
            CHECK(strcmp(g.points[0].model_source, source) == 0, "canonical source: %s", g.points[0].model_source);
            CHECK(g.points[0].config_hash != 0, "config hash");
        }
        grid_free(&g);
        sweep_free(s);
    }
    CHECK(chdir(cwd) == 0, "chdir back");
    CHECK(strcmp(ids[0], "j/Mini-1B/cpu/load/b0/s0/st2/r0") == 0, "id by name: %s", ids[0]);
    CHECK(strcmp(ids[0], ids[1]) == 0 && strcmp(ids[0], ids[2]) == 0, "ids differ by path: %s %s %s", ids[0],
          ids[1], ids[2]);

    /* Two configs, one name: the ids would mix them. */
    struct sweep *s = load("sub/same.sweep", "[a]\nmodel = ../models/Mini-1B/config.json\ntechnique = load\n"
                                             "[b]\nmodel = ../models/other/Mini-1B/config.json\ntechnique = load\n",
                           err, sizeof err);
    char want[2048];
    snprintf(want, sizeof want, "%s/sub/same.sweep:5: model %s/models/other/Mini-1B/config.json has the same name, "
             "\"Mini-1B\", as %s/models/Mini-1B/config.json (line 2): point ids would mix them", dir, dir, dir);
    CHECK(s == NULL && strcmp(err, want) == 0, "same name:\n%s\nnot\n%s", err, want);
    sweep_free(s);
    /* One config named two ways in one list is one model listed twice. */
    s = load("sub/twice.sweep", "[a]\nmodel = ../models/Mini-1B/config.json, ../models/../models/Mini-1B/config.json\n"
                                "technique = load\n", err, sizeof err);
    snprintf(want, sizeof want, "%s/sub/twice.sweep:2: model lists \"../models/Mini-1B/config.json\" twice", dir);
    CHECK(s == NULL && strcmp(err, want) == 0, "listed twice:\n%s\nnot\n%s", err, want);
    sweep_free(s);
}

/* The longest id there can be is whole. */
static void check_longest_id(void)
{
    char name[128], job[64], path[256], text[1024];
    memset(name, 'm', 127), name[127] = '\0';
    memset(job, 'j', 63), job[63] = '\0';
    snprintf(path, sizeof path, "%s/config.json", name);
    put(path, "{\"hidden_size\": 64, \"num_hidden_layers\": 1, \"num_attention_heads\": 4, "
              "\"intermediate_size\": 128, \"vocab_size\": 100}");
    snprintf(text, sizeof text, "[%s]\nmodel = %s\ndevice = cuda:999\ntechnique = lora+ckpt\nbatch = 1000000\n"
             "seq_len = 1000000\nsteps = 1000\nrepeats = 1000\nlora_rank = 65536\n"
             "lora_targets = q, k, v, o, gate, up, down\nwarm = 0, 1\noptimizer = sgd, adamw-foreach\n"
             "zero_grad = none, zeros\nweight_decay = 0.2, 0.123456789012345\n", job, path);
    struct sweep *s = load_ok("long.sweep", text);
    struct grid g = {0};
    CHECK(s && grid_expand(s, &g) == 0 && g.n == 16000, "expand: %d points", g.n);
    if (g.n == 16000) {
        const char *id = g.points[15999].id, *tail = "/r999/warm1/adamw-foreach/zero-grad-zeros/wd0.123456789012345";
        CHECK(strncmp(id, job, 63) == 0 && strcmp(id + strlen(id) - strlen(tail), tail) == 0, "id cut: %s", id);
    }
    grid_free(&g);
    sweep_free(s);
}

/* Each list axis of the settings table (JOB_AXIS, JOB_TRAIN rows): a
 * point for each combination of the values that matter to its technique,
 * each value its own in the settings line and, where its job lists more
 * than one, in the id; a job that lists one keeps the ids it had. */
static void check_list_axes(void)
{
    struct sweep *s = load_ok("axes.sweep", "[a]\nmodel = tiny\nbatch = 1\nseq_len = 8\n"
                                           "technique = load, full, lora\nlora_rank = 4, 16\n"
                                           "lora_targets = q,v | q,k,v,o\nwarm = 0, 1\noptimizer = adamw, sgd\n"
                                           "zero_grad = none, zeros\nweight_decay = 0.01, 0.1\n"
                                           "[one]\nmodel = tiny\nbatch = 1\nseq_len = 16\ntechnique = full\n"
                                           "optimizer = sgd\nweight_decay = 0.1\n");
    struct grid g = {0};
    if (!s || grid_expand(s, &g) != 0) {
        CHECK(0, "expand");
        return;
    }
    /* load: 1; full: 2^4 (warm, optimizer, zero_grad, weight_decay); lora: 2^6; one: 1. */
    CHECK(g.n == 1 + 16 + 64 + 1, "%d points", g.n);
    CHECK(!strcmp(g.points[0].id, "a/tiny/cpu/load/b0/s0/st2/r0"), "load's id: %s", g.points[0].id);
    CHECK(!strcmp(g.points[1].id, "a/tiny/cpu/full/sdpa/b1/s8/st2/r0/warm0/adamw/zero-grad-none/wd0.01"), "%s",
          g.points[1].id);
    CHECK(!strcmp(g.points[g.n - 2].id, "a/tiny/cpu/lora/lora16-q+k+v+o/sdpa/b1/s8/st2/r0/warm1/sgd/zero-grad-zeros/wd0.1"),
          "%s", g.points[g.n - 2].id);
    const struct grid_point *last = &g.points[g.n - 1];
    CHECK(!strcmp(last->id, "one/tiny/cpu/full/sdpa/b1/s16/st2/r0"), "one value: the id as it was: %s", last->id);
    CHECK(last->axes.optimizer == PF_OPT_SGD && last->axes.weight_decay == 0.1, "one's axes");
    for (int i = 0; i < g.n; i++)
        for (int j = 0; j < i; j++) {
            char a[2048], b[2048];
            grid_point_settings(&g.points[i], a, sizeof a);
            grid_point_settings(&g.points[j], b, sizeof b);
            CHECK(strcmp(g.points[i].id, g.points[j].id) && strcmp(a, b), "points %d and %d: one id or settings: %s",
                  j, i, g.points[i].id);
        }
    grid_free(&g);
    sweep_free(s);
}

/* The same point in two jobs is measured once, with a warning naming both. */
static void check_shared_points(void)
{
    char err[1024];
    struct sweep *s = load_ok("shared.sweep",
                           "[global]\nmodel = tiny\nbatch = 1, 2\nseq_len = 8\n"
                           "[a]\ntechnique = full, load\n"
                           "[b]\ntechnique = full\nbatch = 2, 4\n"
                           "[c]\ntechnique = full\nseed = 1\n");
    if (!s)
        return;
    struct grid g;
    CHECK(grid_build(s, &g, err, sizeof err) == EXIT_DONE, "grid_build: %s", err);
    /* a: 2 + 1 load; b: b4 only (b2 is a's); c: another seed, 2 */
    CHECK(g.n == 6, "points: %d", g.n);
    char want[1024];
    snprintf(want, sizeof want, "peakfit: warning: %s/shared.sweep:7: job [b] repeats 1 point of job [a] (line 5); "
             "each is measured once\n", dir);
    CHECK(g.warnings && strcmp(g.warnings, want) == 0, "warning:\n%s\nnot\n%s", g.warnings, want);
    for (int i = 0; i < g.n; i++)
        CHECK(strcmp(g.points[i].id, "b/tiny/cpu/full/sdpa/b2/s8/st2/r0") != 0, "b's copy of a's point kept");
    grid_free(&g);
    sweep_free(s);
}

/* Points are counted before any is made. */
static void check_bound(void)
{
    char err[1024], list[200] = "";
    for (int i = 1; i <= 32; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%d", i > 1 ? "," : "", i);
    char text[600];
    snprintf(text, sizeof text, "[j]\nmodel = tiny\ntechnique = full\nbatch = %s\nseq_len = %s\nrepeats = 1000\n",
             list, list);
    struct sweep *s = load_ok("huge.sweep", text);
    if (!s)
        return;
    CHECK(grid_count(s) == 1024000, "count %lld", grid_count(s));
    struct grid g;
    char want[600];
    snprintf(want, sizeof want, "%s/huge.sweep: 1024000 points; at most 1000000", dir);
    CHECK(grid_build(s, &g, err, sizeof err) == EXIT_BAD_INPUT && strcmp(err, want) == 0, "bound: %s", err);
    CHECK(g.points == NULL && g.n == 0, "nothing allocated");
    sweep_free(s);
}

/* A BOM and comments after values. */
static void check_syntax(void)
{
    char err[1024];
    struct sweep *s = load_ok("bom.sweep",
                           "\xEF\xBB\xBF[global] # defaults\n"
                           "model = tiny   # the preset\n"
                           "steps = 4 ; four\n"
                           "[j]\n"
                           "technique = full ;comment\n"
                           "batch = 1, 2\t# two\n"
                           "seq_len = 8 ; eight\n");
    if (!s)
        return;
    const struct sweep_job *j = &s->jobs[0];
    CHECK(j->n_batches == 2 && j->batches[1] == 2 && j->seq_lens[0] == 8 && j->n_techniques == 1, "values");
    sweep_free(s);
    /* "4; four" is not a number: ';' starts a comment only after white space. */
    s = load("semicolon.sweep", "[j]\nmodel = tiny\ntechnique = load\nsteps = 4;four\n", err, sizeof err);
    char want[600];
    snprintf(want, sizeof want, "%s/semicolon.sweep:4: steps must be a whole number from 1 to 1000, not \"4;four\"", dir);
    CHECK(s == NULL && strcmp(err, want) == 0, "semicolon: %s", err);
    sweep_free(s);
}

static void check_devices(void)
{
    char err[1024];
    struct sweep *s = load("gpu.sweep", "[global]\ndevice = cpu, cuda:1\n[j]\nmodel = tiny\ntechnique = load\n",
                           err, sizeof err);
    CHECK(s != NULL, "cuda:N is a device name: %s", err);
    if (!s)
        return;
    CHECK(s->jobs[0].device_line == 2 && strcmp(s->jobs[0].devices[1], "cuda:1") == 0, "device line %d",
          s->jobs[0].device_line);
    if (!pf_device_available("cuda")) {
        char want[600];
        if (!pf_cuda_compiled())
            snprintf(want, sizeof want, "%s/gpu.sweep:2: device cuda:1: this peakfit was built without CUDA "
                     "(rebuild against a PyTorch with CUDA: make clean && make LIBTORCH=auto)", dir);
        else
            snprintf(want, sizeof want, "%s/gpu.sweep:2: device cuda:1: no CUDA GPU is visible on this machine "
                     "(libtorch's cuda::is_available() is false)", dir);
        CHECK(device_check_sweep(s, err, sizeof err) == -1 && strcmp(err, want) == 0, "no cuda: %s", err);
    }
    CHECK(device_is_gpu("cuda") && device_is_gpu("cuda:1") && device_is_gpu("mps") && !device_is_gpu("cpu") &&
              !device_is_gpu("cudax"), "device_is_gpu");
    sweep_free(s);
}

/* Techniques: names and properties from PF_TECHNIQUES. */
static void check_techniques(void)
{
    CHECK(strcmp(technique_names(), "load, inference, full, full+ckpt, bf16, lora, lora+ckpt, amp-bf16") == 0, "%s",
          technique_names());
    CHECK(technique_from_name("lora+ckpt") == PF_TECH_LORA_CKPT && technique_from_name("x") == -1, "from name");
    CHECK(technique_is_lora(PF_TECH_LORA_CKPT) && !technique_is_lora(PF_TECH_FULL_CKPT), "lora");
    CHECK(technique_is_checkpointed(PF_TECH_FULL_CKPT) && !technique_is_checkpointed(PF_TECH_BF16), "ckpt");
    CHECK(!technique_is_training(PF_TECH_INFERENCE) && technique_is_training(PF_TECH_BF16), "training");
    CHECK(!technique_runs_steps(PF_TECH_LOAD) && technique_runs_steps(PF_TECH_INFERENCE), "steps");
    CHECK(strcmp(technique_name(PF_TECH_COUNT), "?") == 0, "out of range");
}

int main(void)
{
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    check_axes_and_ids();
    check_settings();
    check_model_names();
    check_shared_points();
    check_longest_id();
    check_list_axes();
    check_bound();
    check_syntax();
    check_devices();
    check_techniques();
    char cmd[64];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0, "cleanup");
    CHECK_DONE();
}

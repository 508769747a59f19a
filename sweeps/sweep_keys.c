/* sweep_keys.c: the key table, the option engine's rows (a new key is one
 * row here and its field in struct sweep_job; a type of the sweep's own is
 * an OPT_CUSTOM setter in sweep_key_set.c), and the documents made from
 * it: docs/sweeps.md's table (the worker's options are
 * sweeps/worker_options.c's). */
#include <string.h>
#include "sweeps/command_template.h"
#include "core/device.h"
#include "sweeps/limits.h"
#include "sweeps/sweep.h"
#include "sweeps/sweep_keys.h"
#include "sweeps/sweep_setters.h"
#include "core/attention.h"
#include "core/technique.h"
#include "util/name_list.h"
#include "util/options.h"
#include "util/parse.h"

#define AT(f) .off = offsetof(struct sweep_job, f), .size = sizeof(((struct sweep_job *)0)->f)
#define LIST(f, n, most)                                                                                       \
    .off = offsetof(struct sweep_job, f), .size = sizeof(((struct sweep_job *)0)->f[0]),                      \
    .count_off = offsetof(struct sweep_job, n), .items = (most), .flags = OPT_LIST

static const struct opt_row keys[] = {
    {.name = "model", .type = OPT_CUSTOM, LIST(models, n_models, SWEEP_MAX_MODELS), .set = sweep_set_model,
     .show = sweep_show_model, .choices = model_preset_names, .flag = "model", .unset = "required",
     .help = "list of presets (%s) or paths to a Hugging Face `config.json`, or its folder, of a model of a "
             "family peakfit builds (relative to the sweep file)"},
    {.name = "device", .type = OPT_CUSTOM, LIST(devices, n_devices, SWEEP_MAX_LIST), .set = sweep_set_device,
     .choices = device_names, .flag = "device", .def = "cpu",
     .help = "list of %s (all but `cpu` only in a build against a libtorch that has them)"},
    {.name = "technique", .type = OPT_ENUM, LIST(techniques, n_techniques, SWEEP_MAX_LIST),
     .names = &technique_option_names, .flag = "technique", .unset = "required", .help = "list of %s"},
    {.name = "attention", .type = OPT_ENUM, LIST(attentions, n_attentions, SWEEP_MAX_LIST),
     .names = &attention_option_names, .flag = "attention", .def = "sdpa",
     .help = "list of %s: `sdpa` keeps only the output and a logsumexp for backward (PyTorch 2's fused "
             "kernels, transformers' default), `eager` keeps the [b, heads, s, s] probabilities"},
    {.name = "batch", .type = OPT_INT, LIST(batches, n_batches, SWEEP_MAX_LIST), .min = 1,
     .max = LIMIT_BATCH_MAX, .flag = "batch", .unset = "required unless only `load`",
     .help = "list of micro-batch sizes, %s"},
    {.name = "seq_len", .type = OPT_INT, LIST(seq_lens, n_seq_lens, SWEEP_MAX_LIST), .min = 1,
     .max = LIMIT_SEQ_LEN_MAX, .flag = "seq-len", .unset = "required unless only `load`",
     .help = "list of sequence lengths, %s"},
    {.name = "steps", .type = OPT_INT, AT(steps), .min = 1, .max = LIMIT_STEPS_MAX, .def = OPT_TEXT_OF(DEFAULT_STEPS),
     .flag = "steps",
     .help = "training steps per point, %s; with `warm = 1` one is enough (with `warm = 0` AdamW allocates its "
             "state in the first step, so one step under-reports)"},
    {.name = "repeats", .type = OPT_INT, AT(repeats), .min = 1, .max = LIMIT_REPEATS_MAX,
     .def = OPT_TEXT_OF(DEFAULT_REPEATS), .help = "runs of each point, each in its own process, %s"},
    {.name = "timeout", .type = OPT_DURATION, AT(timeout_s), .max = 1e9, .def = OPT_TEXT_OF(DEFAULT_TIMEOUT_S),
     .help = "per point: `90`, `90s`, `15m`, `2h`"},
    {.name = "mem_limit", .type = OPT_BYTES, AT(mem_limit), .def = "none", .flag = "mem-limit",
     .help = "per point: `512MiB`, `4GiB`, `none`; on cpu the RSS above the worker's baseline, on cuda what the "
             "caching allocator may reserve above its baseline (its memory fraction)"},
    {.name = "threads", .type = OPT_INT, AT(threads), .min = 0, .max = LIMIT_THREADS_MAX, .def = "0",
     .flag = "threads", .help = "libtorch intra-op threads, %s; 0 keeps libtorch's default"},
    {.name = "seed", .type = OPT_LONG, AT(seed), .min = 0, .max = LIMIT_SEED_MAX, .def = "0", .flag = "seed",
     .help = "weight initialisation seed, %s"},
    {.name = "lora_rank", .type = OPT_INT, AT(lora_rank), .min = 1, .max = LIMIT_LORA_RANK_MAX,
     .def = OPT_TEXT_OF(DEFAULT_LORA_RANK), .flag = "lora-rank", .help = "LoRA rank r, %s"},
    {.name = "lora_targets", .type = OPT_CUSTOM, AT(lora_targets), .set = lora_targets_option_set,
     .choices = lora_target_names, .def = DEFAULT_LORA_TARGETS_TEXT, .flag = "lora-targets",
     .help = "projections with adapters: %s"},
    {.name = "weights", .type = OPT_CUSTOM, AT(weights), .set = sweep_set_weights, .flag = "weights",
     .unset = "random weights",
     .help = "a local `.safetensors` file with real weights (Hugging Face names; relative to the sweep file), a "
             "sharded checkpoint's `model.safetensors.index.json`, or a model folder holding either"},
    {.name = "holdout", .type = OPT_CUSTOM, LIST(holdouts, n_holdouts, SWEEP_MAX_LIST), .min = 1,
     .max = LIMIT_BATCH_MAX, .set = sweep_set_pair, .show = sweep_show_pair, .unset = "none",
     .help = "list of `BxS` points, batch x seq_len (`6x384, 3x128`), measured for each technique that runs "
             "steps but kept out of the fit: the report and fit.json give each one's predicted peak, interval "
             "and error; none may be in the job's batch x seq_len grid"},
    {.name = "warm", .type = OPT_INT, AT(warm), .min = 0, .max = 1, .def = OPT_TEXT_OF(DEFAULT_WARM), .flag = "warm",
     .help = "1: AdamW's state is made before the first step (zero-filled, as a resumed run holds it), so "
             "step 1 is a steady-state step and one step gives the peak; 0: the first step makes it, as a "
             "plain training loop does (one step then under-reports: use `steps = 2`)"},
    {.name = "jobs", .type = OPT_INT, AT(jobs), .min = 1, .max = LIMIT_JOBS_MAX, .def = "1",
     .help = "points measured at once, %s, each worker pinned to its share of the cores with its intra-op "
             "threads set to that share, started only when free memory holds its predicted peak; the "
             "largest of the jobs' values is the run's; `run -j N` overrides"},
    {.name = "command", .type = OPT_CUSTOM, AT(command), .set = sweep_set_command,
     .choices = command_placeholder_names, .unset = "peakfit's worker",
     .help = "a command run for each point instead of peakfit's worker, without a shell (docs/own-script.md); "
             "the placeholders %s become the point's values, each one whole argument"},
    {.name = "shell", .type = OPT_BOOL, AT(shell), .def = "false",
     .help = "`true`: the command is run by `/bin/sh -c`, each placeholder's value quoted for the shell; "
             "the rest of the text is the shell's (pipes, `$VARS`, `;`)"},
    {.name = "param.NAME", .type = OPT_CUSTOM, .set = sweep_set_param, .unset = "none",
     .help = "a value of the job's own for its command's `{param.NAME}` placeholder"},
};
enum { KEY_COUNT = sizeof keys / sizeof keys[0] };

const struct opt_row *sweep_key_at(int i) { return i >= 0 && i < KEY_COUNT ? &keys[i] : NULL; }

int sweep_key_is_param(const struct opt_row *k) { return k->set == sweep_set_param; }

const struct opt_row *sweep_key_find(const char *name)
{
    size_t prefix = strlen(COMMAND_PARAM_PREFIX);
    for (int i = 0; i < KEY_COUNT; i++)
        if (strcmp(keys[i].name, name) == 0 ||
            (sweep_key_is_param(&keys[i]) && strncmp(name, COMMAND_PARAM_PREFIX, prefix) == 0))
            return &keys[i];
    return NULL;
}

static const char *key_name_at(int i) { return keys[i].name; }

const char *sweep_key_names(void)
{
    static char text[512];
    return text[0] ? text : names_joined(text, sizeof text, key_name_at, KEY_COUNT);
}

/* --- the README's table ------------------------------------------------- */

/* "`a`, `b`" from "a, b". */
static void backticked(const char *list, char *out, size_t size)
{
    struct name_list l;
    char copy[512], *items[64];
    snprintf(copy, sizeof copy, "%s", list);
    int n = split_list(copy, items, 64);
    name_list_start(&l, out, size);
    for (int i = 0; i < n; i++)
        name_list_addf(&l, "`%s`", items[i]);
}

/* The help's "%s": the names or choices, backticked, or the range. */
static void choices(const struct opt_row *k, char *out, size_t size)
{
    char list[512];
    if (k->names)
        backticked(opt_names_text(k->names, list, sizeof list), out, size);
    else if (k->choices)
        backticked(k->choices(), out, size);
    else
        snprintf(out, size, "%.0f … %.0f", k->min, k->max);
}

/* Numbers as written, a duration in seconds, any other value as code. */
static void default_text(const struct opt_row *k, char *out, size_t size)
{
    if (!k->def)
        snprintf(out, size, "%s", k->unset);
    else if (k->type == OPT_DURATION)
        snprintf(out, size, "%s s", k->def);
    else if (k->type == OPT_INT || k->type == OPT_LONG || k->type == OPT_DOUBLE || k->type == OPT_BYTES)
        snprintf(out, size, "%s", k->def);
    else
        snprintf(out, size, "`%s`", k->def);
}

void sweep_keys_markdown(FILE *out)
{
    fprintf(out, "| key | value | default |\n|---|---|---|\n");
    for (int i = 0; i < KEY_COUNT; i++) {
        char what[512], def[128];
        choices(&keys[i], what, sizeof what);
        default_text(&keys[i], def, sizeof def);
        const char *mark = strstr(keys[i].help, "%s");
        int before = mark ? (int)(mark - keys[i].help) : (int)strlen(keys[i].help);
        fprintf(out, "| `%s` | %.*s%s%s | %s |\n", keys[i].name, before, keys[i].help, mark ? what : "",
                mark ? mark + 2 : "", def);
    }
}

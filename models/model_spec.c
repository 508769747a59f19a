/* model_spec.c: presets, and turning a config path (or a model folder)
 * into a checked model: read bounded, parsed by config_json, held to the
 * shape rules and to this machine's memory, named for people. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <jansson.h>
#include "models/config_json.h"
#include "models/model_config.h"
#include "models/model_family.h"
#include "models/model_spec.h"
#include "models/param_count.h"
#include "util/hash.h"
#include "util/input_file.h"
#include "util/parse.h"

/* A config.json is a few kB; anything past this is not one. */
#define CONFIG_MAX_BYTES (16LL << 20)

struct preset {
    const char *name;
    pf_model_config config;
};

static const struct preset presets[] = {
    /* HuggingFaceTB/SmolLM2-135M: 134,515,008 parameters. */
    {"smollm2-135m", {.hidden_size = 576, .num_layers = 30, .num_heads = 9, .num_kv_heads = 3,
      .intermediate_size = 1536, .vocab_size = 49152, .tie_embeddings = 1, .rope_theta = 100000.0, .rms_norm_eps = 1e-5}},
    /* Small enough for tests: 5,245,184 parameters, runs in a second. */
    {"tiny", {.hidden_size = 256, .num_layers = 4, .num_heads = 4, .num_kv_heads = 2,
      .intermediate_size = 768, .vocab_size = 8192, .tie_embeddings = 1, .rope_theta = 10000.0, .rms_norm_eps = 1e-5}},
};

int model_spec_is_path(const char *spec)
{
    size_t n = strlen(spec);
    return strchr(spec, '/') != NULL || (n > 5 && strcmp(spec + n - 5, ".json") == 0);
}

/* OWNER/NAME, as the Hub spells a model: one slash, no leading . / or ~,
 * no .json, and only the Hub's characters. */
static int looks_like_hub_id(const char *text)
{
    const char *slash = strchr(text, '/');
    size_t n = strlen(text);
    return slash && slash > text && slash[1] && !strchr(slash + 1, '/') && text[0] != '.' && text[0] != '~' &&
           strspn(text, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-/") == n &&
           !(n > 5 && strcmp(text + n - 5, ".json") == 0);
}

int model_spec_hub_id_problem(const char *written, const char *path, char *err, size_t errlen)
{
    struct stat st;
    if (!looks_like_hub_id(written) || stat(path, &st) == 0)
        return 0;
    snprintf(err, errlen,
             "%s: no such file or folder; if it is a Hugging Face id, peakfit does not fetch models: download "
             "its config.json (e.g. huggingface-cli download %s config.json --local-dir models/%s) and give "
             "that folder or file",
             written, written, strchr(written, '/') + 1);
    return -1;
}

const char *model_preset_names(void) { return "smollm2-135m, tiny"; }

int model_spec_label(const char *name, struct model_spec *out)
{
    size_t n = strlen(name);
    if (n == 0 || n >= sizeof out->name || model_spec_is_path(name) ||
        strspn(name, SAFE_NAME_CHARS) != n)
        return -1;
    *out = (struct model_spec){.family = NULL};
    snprintf(out->name, sizeof out->name, "%s", name);
    snprintf(out->source, sizeof out->source, "%s", name);
    return 0;
}

int model_spec_is_label(const struct model_spec *m) { return m->family == NULL; }

static int load_preset(const char *spec, struct model_spec *out, char *err, size_t errlen)
{
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++) {
        if (strcmp(spec, presets[i].name) == 0) {
            snprintf(out->name, sizeof out->name, "%s", spec);
            snprintf(out->source, sizeof out->source, "%s", spec);
            out->config = presets[i].config;
            out->family = "llama";
            return 0;
        }
    }
    snprintf(err, errlen, "unknown model preset \"%s\" (presets: %s; or a path to a config.json)",
             spec, model_preset_names());
    return -1;
}

/* Copies the last '/'-separated part of path, trailing slashes ignored. */
static void last_part(const char *path, char *out, size_t size)
{
    size_t end = strlen(path);
    while (end > 0 && path[end - 1] == '/')
        end--;
    size_t start = end;
    while (start > 0 && path[start - 1] != '/')
        start--;
    snprintf(out, size, "%.*s", (int)(end - start), path + start);
}

/* The model's Hub name (_name_or_path "HuggingFaceTB/SmolLM2-135M" gives
 * "SmolLM2-135M"); else the folder holding config.json
 * (models/Llama-3.2-1B/config.json); else the file's stem. Control
 * characters become '_': a name is shown in tables and charts. */
static void name_model(const char *name_or_path, const char *source, char *out, size_t size)
{
    const char *slash = strrchr(source, '/');
    const char *file = slash ? slash + 1 : source;
    out[0] = '\0';
    if (name_or_path[0])
        last_part(name_or_path, out, size);
    if (!out[0] && strcmp(file, "config.json") == 0 && slash && slash > source) {
        char folder[4096];
        snprintf(folder, sizeof folder, "%.*s", (int)(slash - source), source);
        last_part(folder, out, size);
    }
    if (!out[0]) {
        size_t n = strlen(file);
        if (n > 5 && strcmp(file + n - 5, ".json") == 0)
            n -= 5;
        snprintf(out, size, "%.*s", (int)n, file);
    }
    for (char *c = out; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '_';
}

/* Checks that a config can be built: the shim's shape rules, and (when
 * it will be built here) fp32 weights that fit this machine. */
static int check_buildable(const char *path, const pf_model_config *c, int here, char *err, size_t errlen)
{
    char why[512];
    if (model_config_shape_problem(c, why, sizeof why) != 0 ||
        (here && model_weights_fit(c, machine_memory_bytes(), why, sizeof why) != 0)) {
        snprintf(err, errlen, "%s: %s", path, why);
        return -1;
    }
    return 0;
}

/* What a config file gives any model read from it: the hash of its bytes,
 * its canonical path as the source, and the name people recognise. */
static void name_from_file(const char *path, const char *text, size_t len, const char *name_or_path,
                           struct model_spec *out)
{
    out->config_hash = hash_bytes(text, len, hash_start());
    char *real = realpath(path, NULL);
    snprintf(out->source, sizeof out->source, "%s", real ? real : path);
    free(real);
    name_model(name_or_path, out->source, out->name, sizeof out->name);
}

static int load_config_file(const char *path, int here, struct model_spec *out, char *err, size_t errlen)
{
    size_t len;
    char *text = input_file_read(path, "model config", CONFIG_MAX_BYTES, &len, err, errlen);
    if (!text)
        return -1;
    struct config_json parsed;
    int rc = config_json_parse(path, text, len, &parsed, err, errlen);
    if (rc == 0)
        rc = check_buildable(path, &parsed.config, here, err, errlen);
    if (rc == 0) {
        out->config = parsed.config;
        out->family = parsed.family->model_type;
        name_from_file(path, text, len, parsed.name_or_path, out);
    }
    free(text);
    return rc;
}

static int load_spec(const char *spec, int here, struct model_spec *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (!model_spec_is_path(spec))
        return load_preset(spec, out, err, errlen);
    /* A model folder, as downloaded from the Hub, stands for its config.json. */
    struct stat st;
    if (stat(spec, &st) == 0 && S_ISDIR(st.st_mode)) {
        char path[4096 + 16];
        if (snprintf(path, sizeof path, "%s%sconfig.json", spec, spec[strlen(spec) - 1] == '/' ? "" : "/") >=
            (int)sizeof path) {
            snprintf(err, errlen, "%.200s...: model folder path is longer than 4096 bytes", spec);
            return -1;
        }
        return load_config_file(path, here, out, err, errlen);
    }
    return load_config_file(spec, here, out, err, errlen);
}

int model_spec_load(const char *spec, struct model_spec *out, char *err, size_t errlen)
{
    return load_spec(spec, 1, out, err, errlen);
}

int model_spec_read(const char *spec, struct model_spec *out, char *err, size_t errlen)
{
    return load_spec(spec, 0, out, err, errlen);
}

/* The config's model_type when it is a JSON object naming a family peakfit
 * does not build; else NULL. */
static const char *foreign_type(const json_t *root)
{
    const json_t *v = json_is_object(root) ? json_object_get(root, "model_type") : NULL;
    return v && json_is_string(v) && !model_family_find(json_string_value(v)) ? json_string_value(v) : NULL;
}

int model_spec_foreign(const char *path, struct model_spec *out)
{
    size_t len;
    char err[256];
    char *text = input_file_read(path, "model config", CONFIG_MAX_BYTES, &len, err, sizeof err);
    if (!text)
        return -1;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, NULL);
    int rc = foreign_type(root) ? 0 : -1;
    if (rc == 0) {
        const json_t *named = json_object_get(root, "_name_or_path");
        *out = (struct model_spec){.family = NULL};
        name_from_file(path, text, len, json_is_string(named) ? json_string_value(named) : "", out);
        for (char *c = out->name; *c; c++) /* a label's characters: it is in point ids */
            if (!strchr(SAFE_NAME_CHARS, *c))
                *c = '_';
    }
    json_decref(root);
    free(text);
    return rc;
}

int model_spec_resolve(const char *spec, pf_model_config *out, char *err, size_t errlen)
{
    struct model_spec spec_out;
    if (model_spec_load(spec, &spec_out, err, errlen) != 0)
        return -1;
    *out = spec_out.config;
    return 0;
}

/* model_spec.c: presets, and reading config.json. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "models/model_spec.h"
#include "util/json_flat.h"
#include "util/hash.h"
#include "util/parse.h"

struct preset {
    const char *name;
    pf_model_config config;
};

static const struct preset presets[] = {
    /* HuggingFaceTB/SmolLM2-135M: 134,515,008 parameters. */
    {"smollm2-135m", {576, 30, 9, 3, 1536, 49152, 1, 100000.0, 1e-5}},
    /* Small enough for tests: 5,245,184 parameters, runs in a second. */
    {"tiny", {256, 4, 4, 2, 768, 8192, 1, 10000.0, 1e-5}},
};

int model_spec_is_path(const char *spec)
{
    size_t n = strlen(spec);
    return strchr(spec, '/') != NULL || (n > 5 && strcmp(spec + n - 5, ".json") == 0);
}

const char *model_preset_names(void) { return "smollm2-135m, tiny"; }

/* What config.json says, before defaults are applied. */
struct config_fields {
    pf_model_config c;
    int seen_kv_heads;
    char model_type[64];
    char bad_key[64];
};

static void take_int(int64_t *field, const char *key, const char *value, struct config_fields *f)
{
    long v;
    if (parse_long(value, 1, 1L << 40, &v) != 0)
        snprintf(f->bad_key, sizeof f->bad_key, "%s", key);
    else
        *field = v;
}

static void on_member(const char *key, const char *value, int is_string, void *ctx)
{
    struct config_fields *f = ctx;
    if (strcmp(key, "hidden_size") == 0) take_int(&f->c.hidden_size, key, value, f);
    else if (strcmp(key, "num_hidden_layers") == 0) take_int(&f->c.num_layers, key, value, f);
    else if (strcmp(key, "num_attention_heads") == 0) take_int(&f->c.num_heads, key, value, f);
    else if (strcmp(key, "intermediate_size") == 0) take_int(&f->c.intermediate_size, key, value, f);
    else if (strcmp(key, "vocab_size") == 0) take_int(&f->c.vocab_size, key, value, f);
    else if (strcmp(key, "num_key_value_heads") == 0) {
        take_int(&f->c.num_kv_heads, key, value, f);
        f->seen_kv_heads = 1;
    } else if (strcmp(key, "tie_word_embeddings") == 0)
        f->c.tie_embeddings = strcmp(value, "true") == 0;
    else if (strcmp(key, "rope_theta") == 0 && parse_double(value, 1, 1e12, &f->c.rope_theta) != 0)
        snprintf(f->bad_key, sizeof f->bad_key, "%s", key);
    else if (strcmp(key, "rms_norm_eps") == 0 && parse_double(value, 0, 1, &f->c.rms_norm_eps) != 0)
        snprintf(f->bad_key, sizeof f->bad_key, "%s", key);
    else if (strcmp(key, "model_type") == 0 && is_string)
        snprintf(f->model_type, sizeof f->model_type, "%s", value);
}

static char *read_whole_file(const char *path, char *err, size_t errlen)
{
    FILE *in = fopen(path, "rb");
    if (!in) {
        snprintf(err, errlen, "cannot open model config %s", path);
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *text = malloc(cap + 1);
    size_t got;
    while (text && (got = fread(text + n, 1, cap - n, in)) > 0) {
        n += got;
        if (n == cap) {
            char *bigger = realloc(text, 2 * cap + 1);
            if (!bigger) { free(text); text = NULL; break; }
            text = bigger;
            cap *= 2;
        }
    }
    fclose(in);
    if (text)
        text[n] = '\0';
    return text;
}

static int check_fields(const char *path, const struct config_fields *f, char *err, size_t errlen)
{
    if (f->bad_key[0]) {
        snprintf(err, errlen, "%s: %s has an invalid value", path, f->bad_key);
        return -1;
    }
    if (f->model_type[0] && strcmp(f->model_type, "llama") != 0 && strcmp(f->model_type, "mistral") != 0) {
        snprintf(err, errlen, "%s: model_type \"%s\" is not a Llama-family decoder", path, f->model_type);
        return -1;
    }
    const pf_model_config *c = &f->c;
    if (!c->hidden_size || !c->num_layers || !c->num_heads || !c->intermediate_size || !c->vocab_size) {
        snprintf(err, errlen, "%s: needs hidden_size, num_hidden_layers, num_attention_heads, "
                 "intermediate_size and vocab_size", path);
        return -1;
    }
    return 0;
}

static int read_config_json(const char *path, pf_model_config *out, char *err, size_t errlen)
{
    char *text = read_whole_file(path, err, errlen);
    if (!text)
        return -1;
    /* Hugging Face LlamaConfig's defaults for the optional fields. */
    struct config_fields f = {.c = {.rope_theta = 10000.0, .rms_norm_eps = 1e-6}};
    char why[256];
    int rc = json_flat_read(text, on_member, &f, why, sizeof why);
    free(text);
    if (rc != 0) {
        snprintf(err, errlen, "%s: %s", path, why);
        return -1;
    }
    if (check_fields(path, &f, err, errlen) != 0)
        return -1;
    if (!f.seen_kv_heads)
        f.c.num_kv_heads = f.c.num_heads;
    *out = f.c;
    return 0;
}

int model_spec_resolve(const char *spec, pf_model_config *out, char *err, size_t errlen)
{
    if (model_spec_is_path(spec))
        return read_config_json(spec, out, err, errlen);
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++) {
        if (strcmp(spec, presets[i].name) == 0) {
            *out = presets[i].config;
            return 0;
        }
    }
    snprintf(err, errlen, "unknown model preset \"%s\" (presets: %s; or a path to a config.json)",
             spec, model_preset_names());
    return -1;
}

/* The folder that holds config.json is what people call the model
 * (models/Llama-3.2-1B/config.json); any other file is named by its stem. */
static void name_from_path(const char *path, char *out, size_t size)
{
    const char *slash = strrchr(path, '/');
    const char *file = slash ? slash + 1 : path;
    if (strcmp(file, "config.json") == 0 && slash && slash > path) {
        const char *start = slash - 1;
        while (start > path && start[-1] != '/')
            start--;
        snprintf(out, size, "%.*s", (int)(slash - start), start);
        return;
    }
    size_t n = strlen(file);
    if (n > 5 && strcmp(file + n - 5, ".json") == 0)
        n -= 5;
    snprintf(out, size, "%.*s", (int)n, file);
}

static uint64_t file_hash(const char *path)
{
    FILE *in = fopen(path, "rb");
    uint64_t h = hash_start();
    char buf[8192];
    size_t n;
    while (in && (n = fread(buf, 1, sizeof buf, in)) > 0)
        h = hash_bytes(buf, n, h);
    if (in)
        fclose(in);
    return h;
}

int model_spec_load(const char *spec, struct model_spec *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (model_spec_resolve(spec, &out->config, err, errlen) != 0)
        return -1;
    if (!model_spec_is_path(spec)) {
        snprintf(out->name, sizeof out->name, "%s", spec);
        snprintf(out->source, sizeof out->source, "%s", spec);
        return 0;
    }
    char *real = realpath(spec, NULL);
    snprintf(out->source, sizeof out->source, "%s", real ? real : spec);
    free(real);
    name_from_path(out->source, out->name, sizeof out->name);
    out->config_hash = file_hash(out->source);
    return 0;
}

/* config_json.c: jansson's tree walked with the field table. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "models/config_json.h"
#include "models/model_config.h"

/* The families whose config.json describes the decoder shim/llama.cpp builds. */
static const char *const llama_family[] = {"llama", "mistral"};

/* A JSON value as it would be written, cut short for a message. */
static void value_text(const json_t *v, char *out, size_t size)
{
    char *text = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
    if (text && strlen(text) > 40)
        snprintf(out, size, "%.40s...", text);
    else
        snprintf(out, size, "%s", text ? text : "?");
    free(text);
}

static int bad_value(const char *path, const struct config_field *f, const json_t *v, char *err, size_t errlen)
{
    char shown[64];
    value_text(v, shown, sizeof shown);
    if (f->type == CONFIG_INT)
        snprintf(err, errlen, "%s: %s must be a whole number from %.0f to %.0f, not %s", path, f->key, f->min,
                 f->max, shown);
    else if (f->type == CONFIG_REAL)
        snprintf(err, errlen, "%s: %s must be a number from %g to %g, not %s", path, f->key, f->min, f->max,
                 shown);
    else
        snprintf(err, errlen, "%s: %s must be true or false, not %s", path, f->key, shown);
    return -1;
}

static int take_field(const char *path, const struct config_field *f, const json_t *v, pf_model_config *c,
                      char *err, size_t errlen)
{
    char *at = (char *)c + f->offset;
    if (f->type == CONFIG_INT) {
        if (!json_is_integer(v) || json_integer_value(v) < f->min || json_integer_value(v) > f->max)
            return bad_value(path, f, v, err, errlen);
        *(int64_t *)at = json_integer_value(v);
    } else if (f->type == CONFIG_REAL) {
        /* Written as the comparison that a NaN fails. */
        if (!json_is_number(v) || !(json_number_value(v) >= f->min && json_number_value(v) <= f->max))
            return bad_value(path, f, v, err, errlen);
        *(double *)at = json_number_value(v);
    } else {
        if (!json_is_boolean(v))
            return bad_value(path, f, v, err, errlen);
        *(int *)at = json_is_true(v);
    }
    return 0;
}

/* "hidden_size, num_hidden_layers, ... and vocab_size", from the table. */
static void required_list(char *out, size_t size)
{
    size_t used = 0, left = 0;
    for (size_t i = 0; i < model_config_field_count; i++)
        left += model_config_fields[i].required;
    out[0] = '\0';
    for (size_t i = 0; i < model_config_field_count && used < size; i++) {
        if (!model_config_fields[i].required)
            continue;
        left--;
        used += (size_t)snprintf(out + used, size - used, "%s%s", model_config_fields[i].key,
                                 left > 1 ? ", " : left == 1 ? " and " : "");
    }
}

static int take_fields(const char *path, const json_t *root, pf_model_config *c, char *err, size_t errlen)
{
    model_config_defaults(c);
    for (size_t i = 0; i < model_config_field_count; i++) {
        const struct config_field *f = &model_config_fields[i];
        const json_t *v = json_object_get(root, f->key);
        if (v && !(json_is_null(v) && !f->required)) {
            if (take_field(path, f, v, c, err, errlen) != 0)
                return -1;
        } else if (f->required) {
            char needs[256];
            required_list(needs, sizeof needs);
            snprintf(err, errlen, "%s: has no %s (a Llama config.json needs %s)", path, f->key, needs);
            return -1;
        }
    }
    if (c->num_kv_heads == 0)
        c->num_kv_heads = c->num_heads;
    return 0;
}

static int check_model_type(const char *path, const json_t *root, char *err, size_t errlen)
{
    const json_t *v = json_object_get(root, "model_type");
    if (!v)
        return 0;
    for (size_t i = 0; json_is_string(v) && i < sizeof llama_family / sizeof llama_family[0]; i++)
        if (strcmp(json_string_value(v), llama_family[i]) == 0)
            return 0;
    char shown[64];
    value_text(v, shown, sizeof shown);
    snprintf(err, errlen, "%s: model_type %s is not a Llama-family decoder", path, shown);
    return -1;
}

int config_json_parse(const char *path, const char *text, size_t len, struct config_json *out, char *err,
                      size_t errlen)
{
    json_error_t why;
    memset(out, 0, sizeof *out);
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &why);
    if (!root) {
        snprintf(err, errlen, "%s:%d: %s", path, why.line, why.text);
        return -1;
    }
    int rc = -1;
    if (!json_is_object(root))
        snprintf(err, errlen, "%s: is a JSON array, not a config object", path);
    else if (check_model_type(path, root, err, errlen) == 0 && take_fields(path, root, &out->config, err, errlen) == 0)
        rc = 0;
    const json_t *name = json_object_get(root, "_name_or_path");
    if (rc == 0 && json_is_string(name))
        snprintf(out->name_or_path, sizeof out->name_or_path, "%s", json_string_value(name));
    json_decref(root);
    return rc;
}

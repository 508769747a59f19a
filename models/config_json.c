/* config_json.c: jansson's tree walked with the family and field tables. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "models/config_json.h"
#include "models/model_config.h"
#include "models/model_family.h"
#include "util/input_file.h"

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
    if (json_is_null(v) && !f->required) {
        if (f->null_zero && f->type == CONFIG_INT) *(int64_t *)at = 0;
        else if (f->null_zero) *(double *)at = 0;
        return 0; /* else the default stays */
    }
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

/* "hidden_size, num_hidden_layers, ... and vocab_size": the fields the
 * family's config.json must give, from the table. */
static void required_list(const struct model_family *fam, char *out, size_t size)
{
    size_t used = 0, left = 0;
    for (size_t i = 0; i < model_config_field_count; i++)
        left += model_config_fields[i].required && (model_config_fields[i].reads & fam->reads);
    out[0] = '\0';
    for (size_t i = 0; i < model_config_field_count && used < size; i++) {
        if (!model_config_fields[i].required || !(model_config_fields[i].reads & fam->reads))
            continue;
        left--;
        used += (size_t)snprintf(out + used, size - used, "%s%s", model_config_fields[i].key,
                                 left > 1 ? ", " : left == 1 ? " and " : "");
    }
}

static int take_fields(const char *path, const json_t *root, const struct model_family *fam, pf_model_config *c,
                       char *err, size_t errlen)
{
    for (size_t i = 0; i < model_config_field_count; i++) {
        const struct config_field *f = &model_config_fields[i];
        const json_t *v = json_object_get(root, f->key);
        if (!(f->reads & fam->reads))
            continue;
        if (v) {
            if (take_field(path, f, v, c, err, errlen) != 0)
                return -1;
        } else if (f->required) {
            char needs[256];
            required_list(fam, needs, sizeof needs);
            snprintf(err, errlen, "%s: has no %s (a %s config.json needs %s)", path, f->key, fam->model_type, needs);
            return -1;
        }
    }
    if (c->num_kv_heads == 0)
        c->num_kv_heads = c->num_heads;
    if (c->intermediate_size == 0) /* GPT-2's n_inner: null */
        c->intermediate_size = 4 * c->hidden_size;
    return 0;
}

/* The family's activation key: absent or null gives its default. */
static int take_activation(const char *path, const json_t *root, const struct model_family *fam, pf_model_config *c,
                           char *err, size_t errlen)
{
    const json_t *v = json_object_get(root, fam->activation_key);
    if (!v || json_is_null(v))
        return 0;
    int act = json_is_string(v) ? model_activation_find(json_string_value(v)) : -1;
    if (act >= 0) {
        c->activation = act;
        return 0;
    }
    char shown[64];
    value_text(v, shown, sizeof shown);
    snprintf(err, errlen, "%s: field %s: activation %s is not implemented (activations: %s)", path,
             fam->activation_key, shown, model_activation_names());
    return -1;
}

/* The family named by model_type; a config without one is a Llama, as
 * peakfit has always read it. */
static const struct model_family *find_family(const char *path, const json_t *root, char *err, size_t errlen)
{
    const json_t *v = json_object_get(root, "model_type");
    const struct model_family *fam = v ? NULL : model_family_find("llama");
    if (v && json_is_string(v))
        fam = model_family_find(json_string_value(v));
    if (fam)
        return fam;
    char shown[64];
    value_text(v, shown, sizeof shown);
    snprintf(err, errlen, "%s: field model_type: %s is not a family peakfit builds (families: %s)", path, shown,
             model_family_names());
    return NULL;
}

/* 1 when v is absent, null, false, 0 or empty, as the refusal asks. */
static int harmless(const json_t *v, enum refusal_kind kind)
{
    if (!v || json_is_null(v))
        return 1;
    if (kind == REFUSE_UNLESS_ONE)
        return json_is_number(v) && json_number_value(v) == 1.0;
    return json_is_false(v) || (json_is_number(v) && json_number_value(v) == 0) ||
           (json_is_object(v) && json_object_size(v) == 0) || (json_is_array(v) && json_array_size(v) == 0);
}

static int check_refused(const char *path, const json_t *root, char *err, size_t errlen)
{
    for (size_t i = 0; i < refused_field_count; i++) {
        const json_t *v = json_object_get(root, refused_fields[i].key);
        if (harmless(v, refused_fields[i].kind))
            continue;
        char shown[64];
        value_text(v, shown, sizeof shown);
        snprintf(err, errlen, "%s: field %s: %s (it is %s)", path, refused_fields[i].key, refused_fields[i].why,
                 shown);
        return -1;
    }
    return 0;
}

static int take_config(const char *path, const json_t *root, struct config_json *out, char *err, size_t errlen)
{
    const struct model_family *fam = find_family(path, root, err, errlen);
    if (!fam || check_refused(path, root, err, errlen) != 0)
        return -1;
    out->family = fam;
    model_config_defaults(&out->config, fam->reads);
    model_family_apply(fam, &out->config);
    if (take_fields(path, root, fam, &out->config, err, errlen) != 0)
        return -1;
    return take_activation(path, root, fam, &out->config, err, errlen);
}

int config_json_parse(const char *path, const char *text, size_t len, struct config_json *out, char *err,
                      size_t errlen)
{
    json_error_t why;
    memset(out, 0, sizeof *out);
    size_t bom = len >= 3 ? input_file_bom(text) : 0;
    json_t *root = json_loadb(text + bom, len - bom, JSON_REJECT_DUPLICATES, &why);
    if (!root) {
        snprintf(err, errlen, "%s:%d: %s", path, why.line, why.text);
        return -1;
    }
    int rc = -1;
    if (!json_is_object(root))
        snprintf(err, errlen, "%s: is a JSON array, not a config object", path);
    else if (take_config(path, root, out, err, errlen) == 0)
        rc = 0;
    const json_t *name = json_object_get(root, "_name_or_path");
    if (rc == 0 && json_is_string(name))
        snprintf(out->name_or_path, sizeof out->name_or_path, "%s", json_string_value(name));
    json_decref(root);
    return rc;
}

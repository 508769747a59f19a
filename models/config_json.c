/* config_json.c: jansson's tree walked with the family and field tables;
 * each field's value goes through its row's setter (the option engine's,
 * models/model_config.h), as a command line's or a sweep file's would. */
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

static int bad_value(const char *path, const struct opt_row *r, const json_t *v, char *err, size_t errlen)
{
    char shown[64], expected[128];
    value_text(v, shown, sizeof shown);
    snprintf(err, errlen, "%s: %s must be %s, not %s", path, r->name, opt_expected(r, expected, sizeof expected),
             shown);
    return -1;
}

/* The JSON value as its row's setter reads it, when its JSON type is the
 * row's (a whole number for OPT_INT64, any number for OPT_DOUBLE, true or
 * false for OPT_BOOL: never the text "8" nor 8.0 for a whole number). */
static int json_as_text(const struct opt_row *r, const json_t *v, char *text, size_t size)
{
    if (r->type == OPT_INT64 && json_is_integer(v))
        snprintf(text, size, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
    else if (r->type == OPT_DOUBLE && json_is_number(v))
        snprintf(text, size, "%.17g", json_number_value(v)); /* exact: %.17g reads back as the same double */
    else if (r->type == OPT_BOOL && json_is_boolean(v))
        snprintf(text, size, "%s", json_is_true(v) ? "true" : "false");
    else
        return -1;
    return 0;
}

/* One field through its row's setter (util/options.h); null is 0 or the default. */
static int take_field(const char *path, const struct config_field *f, const json_t *v, pf_model_config *c,
                      char *err, size_t errlen)
{
    const struct opt_row *r = &f->row;
    char text[64], why[256];
    if (json_is_null(v) && !(r->flags & OPT_REQUIRED)) {
        if (f->null_zero)
            memset((char *)c + r->off, 0, r->type == OPT_BOOL ? sizeof(int) : sizeof(int64_t));
        return 0; /* else the default stays */
    }
    if (json_as_text(r, v, text, sizeof text) != 0 || opt_set(r, r->name, text, c, why, sizeof why) != 0)
        return bad_value(path, r, v, err, errlen);
    return 0;
}

static int required(const struct config_field *f, const struct model_family *fam)
{
    return (f->row.flags & OPT_REQUIRED) && (f->reads & fam->reads);
}

/* "hidden_size, num_hidden_layers, ... and vocab_size": the fields the
 * family's config.json must give, from the table. */
static void required_list(const struct model_family *fam, char *out, size_t size)
{
    size_t used = 0, left = 0;
    for (size_t i = 0; i < model_config_field_count; i++)
        left += required(&model_config_fields[i], fam);
    out[0] = '\0';
    for (size_t i = 0; i < model_config_field_count && used < size; i++) {
        if (!required(&model_config_fields[i], fam))
            continue;
        left--;
        used += (size_t)snprintf(out + used, size - used, "%s%s", model_config_fields[i].row.name,
                                 left > 1 ? ", " : left == 1 ? " and " : "");
    }
}

static int take_fields(const char *path, const json_t *root, const struct model_family *fam, pf_model_config *c,
                       char *err, size_t errlen)
{
    for (size_t i = 0; i < model_config_field_count; i++) {
        const struct config_field *f = &model_config_fields[i];
        const json_t *v = json_object_get(root, f->row.name);
        if (!(f->reads & fam->reads))
            continue;
        if (v) {
            if (take_field(path, f, v, c, err, errlen) != 0)
                return -1;
        } else if (f->row.flags & OPT_REQUIRED) {
            char needs[256];
            required_list(fam, needs, sizeof needs);
            snprintf(err, errlen, "%s: has no %s (a %s config.json needs %s)", path, f->row.name, fam->model_type,
                     needs);
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

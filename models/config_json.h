/* config_json.h: a Hugging Face config.json read with jansson, strictly:
 * syntax errors (trailing commas, bare words, text after the closing
 * brace, duplicate keys, nesting past jansson's depth limit) name the
 * line; model_type must name a family peakfit builds (absent: llama);
 * each field the family reads must have its type and lie in its range
 * (models/model_config.h); a field that would change the architecture in
 * a way peakfit does not build is refused (models/model_family.h); other
 * keys are ignored. */
#ifndef PEAKFIT_CONFIG_JSON_H
#define PEAKFIT_CONFIG_JSON_H
#include <stddef.h>
#include "core/model_config.h"

struct model_family;

struct config_json {
    pf_model_config config;
    const struct model_family *family; /* its row of models/model_family.h */
    char name_or_path[4096]; /* _name_or_path when the config gives one, else "" */
};

/* Reads len bytes of text. path is only for messages. Returns 0, or -1
 * with "PATH:LINE: what" (syntax) or "PATH: what" (content) in err. Does
 * not check the shape rules (model_config_shape_problem). */
int config_json_parse(const char *path, const char *text, size_t len, struct config_json *out, char *err,
                      size_t errlen);
#endif

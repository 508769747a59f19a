/* model_spec.h: what a sweep's `model =` names: a built-in preset, or the
 * path of a Hugging Face config.json (or its folder) for a decoder of one of
 * the families in models/model_family.h. */
#ifndef PEAKFIT_MODEL_SPEC_H
#define PEAKFIT_MODEL_SPEC_H
#include <stddef.h>
#include <stdint.h>
#include "core/model_config.h"

/* A model as a sweep names it, resolved. */
struct model_spec {
    char name[128];        /* what a person recognises: the preset's name, the last part of
                            * config.json's _name_or_path, or the folder holding config.json */
    char source[4096];     /* the preset's name, or the canonical path of the config file */
    uint64_t config_hash;  /* FNV-1a of the config file's bytes (util/hash.h); 0 for a preset */
    const char *family;    /* its model_type (models/model_family.h); "llama" for a preset;
                            * NULL for a label (model_spec_label): no config at all */
    pf_model_config config;
};

/* Resolves a preset name, a config path (already relative to the right
 * directory) or a folder holding config.json, to a model that can be
 * built here: config.json is read strictly (models/config_json.h), must
 * follow the builder's shape rules (models/model_config.h), and its fp32
 * weights must fit this machine's memory. Returns 0, or -1 with "what is
 * wrong" in err, always filled; messages about a file start "PATH:". */
int model_spec_load(const char *spec, struct model_spec *out, char *err, size_t errlen);
/* As model_spec_load, without the memory check: for arithmetic about a
 * model that will not be built here (`peakfit params`, `calc`). */
int model_spec_read(const char *spec, struct model_spec *out, char *err, size_t errlen);

/* A command job's model need not be one peakfit builds: a name of letters,
 * digits and _-.+ that is neither a preset nor a path is a label, only
 * named (its source is the name; no family, no config). 0, or -1 when
 * name cannot be a label. */
int model_spec_label(const char *name, struct model_spec *out);
/* A command job's model may also be the config.json of a family peakfit
 * does not build (a ViT's "model_type": "vit"): a label named as a config
 * is (model_spec.c's name_model), whose source is the config's canonical
 * path, for the command's {model}. 0, or -1 when path is no such config. */
int model_spec_foreign(const char *path, struct model_spec *out);
int model_spec_is_label(const struct model_spec *m);
/* A spec is a path when it has a '/' or ends in ".json". */
int model_spec_is_path(const char *spec);
/* model_spec_load's config alone. Returns 0, or -1 with the reason in err. */
int model_spec_resolve(const char *spec, pf_model_config *out, char *err, size_t errlen);
const char *model_preset_names(void);
/* A model written as a Hugging Face id (Qwen/Qwen2.5-0.5B) that is no file
 * or folder at path (where written leads, e.g. beside the sweep file):
 * -1 with a message saying that ids are not fetched and how to point at a
 * config; else 0. */
int model_spec_hub_id_problem(const char *written, const char *path, char *err, size_t errlen);
#endif

/* model_spec.h: what a sweep's `model =` names: a built-in preset, or the
 * path of a Hugging Face config.json for a Llama-family model. */
#ifndef PEAKFIT_MODEL_SPEC_H
#define PEAKFIT_MODEL_SPEC_H
#include <stddef.h>
#include "peakfit_torch.h"

/* A spec is a path when it has a '/' or ends in ".json". */
int model_spec_is_path(const char *spec);
/* Returns 0, or -1 with the reason in err. */
int model_spec_resolve(const char *spec, pf_model_config *out, char *err, size_t errlen);
const char *model_preset_names(void);
#endif

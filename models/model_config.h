/* model_config.h: what a decoder's config must hold, written once: the
 * config.json fields peakfit reads, which families read them
 * (models/model_family.h), their types, ranges and defaults (one table,
 * walked by the reader), and the shape rules the model builder needs. The
 * ranges keep every product in param_count.c inside int64_t: at most
 * 2^24 * 2^20 for the embeddings and positions, and 10000 layers of
 * 8 * 2^20 * 2^22 weights each (heads * head_dim is held to 2^22 too),
 * about 2^59. */
#ifndef PEAKFIT_MODEL_CONFIG_H
#define PEAKFIT_MODEL_CONFIG_H
#include <stddef.h>
#include "core/model_config.h"
#include "util/options.h"

#define CONFIG_HIDDEN_MAX (1L << 20)
#define CONFIG_LAYERS_MAX 10000L
#define CONFIG_HEADS_MAX (1L << 16)
#define CONFIG_INTERMEDIATE_MAX (1L << 22)
#define CONFIG_VOCAB_MAX (1L << 24)
#define CONFIG_POSITIONS_MAX (1L << 24)
#define CONFIG_HEAD_DIM_MAX (1L << 16)

/* One config.json field: a row of the option engine (util/options.h):
 * .name its key, .type OPT_INT64, OPT_DOUBLE or OPT_BOOL, .off where it
 * lands in pf_model_config, its range, OPT_REQUIRED when a config must
 * give it, and .def its default as text (NULL: 0), read by the row's own
 * setter; config_json.c hands each JSON value to that setter. Besides the
 * row: what null means (null_zero: 0, "none"; else the default), and which
 * families read it (READS_* bits of model_family.reads; others ignore it,
 * as transformers does). */
struct config_field {
    struct opt_row row;
    int null_zero;
    unsigned reads;
};

/* num_key_value_heads' default, 0, means "as many as num_attention_heads". */
extern const struct config_field model_config_fields[];
extern const size_t model_config_field_count;

/* Puts the default of every field a family with these READS_* bits reads
 * into c, each read by its row's setter (the family's own defaults go on
 * top: model_family_apply). */
void model_config_defaults(pf_model_config *c, unsigned reads);

/* The builder's rules on a config whose fields are in range: heads divide
 * hidden_size (unless head_dim is given), kv heads divide heads, heads *
 * head_dim is at most 2^22, the head dimension is even for rotary
 * embeddings. Returns 0, or -1 with the reason in why (the same words as
 * the shim's check). */
int model_config_shape_problem(const pf_model_config *c, char *why, size_t whylen);
#endif

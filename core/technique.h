/* technique.h: every technique, written once (PF_TECHNIQUES), the names
 * users write for techniques and LoRA targets, and each technique's
 * properties, all read off the table: no file tests a technique by its name. */
#ifndef PEAKFIT_TECHNIQUE_H
#define PEAKFIT_TECHNIQUE_H
#include <stddef.h>

/* A technique's number format (the precision column below). */
enum { PF_FP32 = 0, PF_BF16 = 1, PF_AMP_BF16 = 2 };

/* Every technique, written once: X(ID, name, steps, training, lora,
 * checkpoint, precision, what runs). The enum, the names users write, and every property the
 * shim, the sweep parser, the runner and the reports ask about come from
 * this list; adding a technique is one row here plus the code that runs it.
 *   steps:      runs steps on batch x seq_len tokens (load only builds)
 *   training:   backward and an AdamW step (else no optimizer state)
 *   lora:       frozen base with rank-r adapters (lora_rank, lora_targets)
 *   checkpoint: each decoder layer recomputed in backward
 *   precision:  PF_FP32; PF_BF16 (weights, activations, grads and AdamW state
 *               in bfloat16); PF_AMP_BF16 (fp32 weights, grads and AdamW state,
 *               forward and loss under bf16 autocast, as torch.autocast) */
#define PF_TECHNIQUES(X)                                                                                \
    X(LOAD, "load", 0, 0, 0, 0, 0, "builds the model; no step")                                         \
    X(INFERENCE, "inference", 1, 0, 0, 0, 0, "eval mode, no grad, forward only")                        \
    X(FULL, "full", 1, 1, 0, 0, 0, "fp32, AdamW over every weight")                                     \
    X(FULL_CKPT, "full+ckpt", 1, 1, 0, 1, 0, "as full, each decoder layer recomputed in backward")      \
    X(BF16, "bf16", 1, 1, 0, 0, 1, "weights, activations, grads and AdamW state in bf16")               \
    X(LORA, "lora", 1, 1, 1, 0, 0, "frozen fp32 base, AdamW over rank-r adapters")                      \
    X(LORA_CKPT, "lora+ckpt", 1, 1, 1, 1, 0, "as lora, with per-layer checkpointing")                  \
    X(AMP_BF16, "amp-bf16", 1, 1, 0, 0, 2, "fp32 weights and AdamW state, forward under bf16 autocast")

typedef enum {
#define PF_TECH_ENUM_(id, name, steps, training, lora, checkpoint, precision, help) PF_TECH_##id,
    PF_TECHNIQUES(PF_TECH_ENUM_)
#undef PF_TECH_ENUM_
    PF_TECH_COUNT
} pf_technique;

/* A technique's row of PF_TECHNIQUES. */
typedef struct {
    const char *name;
    int steps, training, lora, checkpoint, precision;
    const char *help;
} pf_technique_info;

/* The row of t; an out-of-range t gets a row named "?" with no property. */
static inline const pf_technique_info *pf_technique_info_of(pf_technique t)
{
    static const pf_technique_info rows[PF_TECH_COUNT + 1] = {
#define PF_TECH_ROW_(id, name, steps, training, lora, checkpoint, precision, help) \
        {name, steps, training, lora, checkpoint, precision, help},
        PF_TECHNIQUES(PF_TECH_ROW_)
#undef PF_TECH_ROW_
        {"?", 0, 0, 0, 0, 0, ""}};
    return &rows[(int)t >= 0 && (int)t < PF_TECH_COUNT ? (int)t : PF_TECH_COUNT];
}

/* Bits of pf_train_options.lora_targets: which projections get adapters. */
enum {
    PF_LORA_Q = 1 << 0, PF_LORA_K = 1 << 1, PF_LORA_V = 1 << 2,
    PF_LORA_O = 1 << 3, PF_LORA_GATE = 1 << 4, PF_LORA_UP = 1 << 5,
    PF_LORA_DOWN = 1 << 6
};

/* Returns -1 for an unknown name. */
int technique_from_name(const char *name);
/* A command job's technique may be a label (any safe name: letters,
 * digits, "_-.+"; not a technique of the table): it names the points and
 * the fit group, and is what {technique} stands for. Its number, from
 * PF_TECH_COUNT up, the same for the same name; -1 for a name that is not
 * safe or too many labels. A label runs steps (its points have batches)
 * and has none of the table's other properties. */
enum { TECHNIQUE_LABELS_MAX = 32, TECHNIQUE_LABEL_LEN = 64 };
int technique_label(const char *name);
int technique_is_label(pf_technique t);
/* The names for an option row (util/options.h): every technique, or those
 * that run steps. */
extern const struct opt_names technique_option_names, stepping_technique_option_names;
const char *technique_name(pf_technique t);
/* "load, inference, full, ..." for error messages, built from the table. */
const char *technique_names(void);

/* It runs steps on batch x seq_len tokens (load only builds the model). */
int technique_runs_steps(pf_technique t);
/* Backward and an optimizer step. */
int technique_is_training(pf_technique t);
/* Adapters on a frozen base: lora_rank and lora_targets apply. */
int technique_is_lora(pf_technique t);
int technique_is_checkpointed(pf_technique t);

/* "q,v" -> PF_LORA_Q | PF_LORA_V; 0 when a name is unknown. */
unsigned lora_targets_from_list(const char *list);
/* Writes "q,v" for the bits into buf. */
void lora_targets_to_list(unsigned bits, char *buf, unsigned long size);
/* "q, k, v, o, gate, up, down", for messages. */
const char *lora_target_names(void);
struct opt_row;
/* An OPT_CUSTOM setter (util/options.h): a list of LoRA targets into the
 * row's unsigned field, as bits. */
int lora_targets_option_set(const struct opt_row *row, const char *display, const char *value, void *target,
                            void *ctx, char *why, size_t size);
#endif

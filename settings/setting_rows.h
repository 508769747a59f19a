/* setting_rows.h: the settings table itself, one row per setting of a
 * point, read by every layer that has a part in it: the sweep key and so
 * the worker's flag (sweeps/sweep_keys.c), what the point does with it
 * (point/point_fields.c) and its part in the fit's group key (fit/). An
 * X-macro with no includes: the functions and types a row names are tokens
 * here, expanded only by the layer that has them. docs/adding-a-setting.md
 * says what a new setting adds; point/point_fields.h what each field means.
 *
 * R(A, name, key, group, column, fields...):
 *   name    the setting's name in the settings line;
 *   key     KEY("name", storage, opt_row fields): its sweep key. storage
 *           is its field in struct sweep_job: JOB_FIELD(type, field),
 *           JOB_TEXT(field, size), JOB_LIST(type, field, count, most),
 *           JOB_AXIS(type, name) or JOB_TRAIN(type, name). JOB_AXIS: a
 *           list axis of the grid that is a value of the point, named as
 *           its row and key: the job lists its values (the field, and
 *           their count n_<name>), each point takes one (struct
 *           point_axes, sweeps/job_train_options.h), and the point id
 *           names it where the job lists more than one
 *           (POINT_ID_IF_LISTED). JOB_TRAIN: such an axis that is also
 *           the member of pf_train_options of that name: every training
 *           options the code makes (a point's, a group key's, auto's)
 *           take it from a point's axes, and such a row is in the group
 *           key, which a group's options are read back from. The rest is
 *           the option engine's row (util/options.h: type, range, default, .flag: the worker's option, help);
 *           NOKEY: the grid makes it;
 *   group   GROUP_NONE: not in the fit's group key; GROUP_SHOWN(size,
 *           option): in it and always shown (fit.csv's leading columns,
 *           every label); GROUP_SETTING(size, usual, option): in it, named
 *           where it holds other than usual; size is the key field's in
 *           bytes, and the field is named after the setting (as its
 *           peaks.csv column is); option is the --option by which calc,
 *           verify and grid --peaks choose among groups that differ in it
 *           (fit/group_choice.h);
 *   column  its peaks.csv column: COLUMN(name), one of the columns
 *           written before settings' columns came from this table
 *           (settings/peaks_columns.h's PEAKS_FIXED_COLUMNS, in the file's
 *           historical order), or NEW_COLUMN(type): a column of its
 *           own, named after the setting, of type TEXT, INT or NUM,
 *           after those, in this table's order (a file's columns are
 *           only ever appended: a setting with a column of its own is a
 *           row after the last such row);
 *   fields  struct point_field's members by name (.uses,
 *           .id_prefix, .applies, .off_text, .value, .column_text,
 *           .passed_if; point/point_fields.h), the functions
 *           those of point/point_fields.c.
 * A command's option for a setting (params, auto, calc, verify) is its
 * key's row under its flag, with the key's .arg and its help: a key's
 * .help is the setting's one text, about one value (a list key's docs
 * say what stands between values), read by docs/sweeps.md, every
 * command's option for it and its command placeholder
 * (point/setting_options.h).
 * A is passed through to R unchanged (a macro a filter below applies).
 *
 * Rows in the id come in the id's order: job/model/device/technique
 * [/loraR-targets][/layersN][/attention]/bN/sN/stK/rR; the worker's argv, the
 * settings line and the sweep keys' order (docs/sweeps.md) are the
 * table's too. */
#ifndef PEAKFIT_SETTING_ROWS_H
#define PEAKFIT_SETTING_ROWS_H

#define SETTING_ROWS(R, A)                                                                                           \
    R(A, job, NOKEY, GROUP_NONE, COLUMN(job), .id_prefix = "", .value = job_of)                                      \
    R(A, model, NOKEY, GROUP_SHOWN(256, "model"), COLUMN(model), .id_prefix = "/", .value = model_of)                \
    R(A, device,                                                                                                     \
      KEY("device", JOB_LIST(sweep_device, devices, n_devices, SWEEP_MAX_LIST), .arg = "D", .type = OPT_CUSTOM,      \
          .set = sweep_set_device, .choices = device_names, .flag = "device", .def = "cpu",                          \
          .help = "device: %s (all but `cpu` only in a build against a libtorch that has them)"),                    \
      GROUP_SHOWN(16, "device"), COLUMN(device), .uses = POINT_SETTINGS | POINT_KIND, .id_prefix = "/",              \
      .value = device_of)                                                                                            \
    R(A, technique,                                                                                                  \
      KEY("technique", JOB_LIST(pf_technique, techniques, n_techniques, SWEEP_MAX_LIST), .arg = "T",                 \
          .type = OPT_CUSTOM, .set = sweep_set_technique, .names = &technique_option_names, .flag = "technique",     \
          .unset = "required; a command job: `" COMMAND_TECHNIQUE_DEFAULT "`, a label",                              \
          .help = "technique: %s"),                                                                                  \
      GROUP_SHOWN(16, "technique"), COLUMN(technique), .uses = POINT_SETTINGS | POINT_KIND, .id_prefix = "/",        \
      .value = technique_of)                                                                                         \
    R(A, lora_rank,                                                                                                  \
      KEY("lora_rank", JOB_TRAIN(int, lora_rank), .arg = "R", .type = OPT_INT, .min = 1, .max = LIMIT_LORA_RANK_MAX, \
          .def = OPT_TEXT_OF(DEFAULT_LORA_RANK), .flag = "lora-rank", .help = "LoRA rank r, %s"),                    \
      GROUP_SETTING(12, "", "lora-rank"), COLUMN(lora_rank), .uses = POINT_SETTINGS | POINT_KIND,                    \
      .id_prefix = "/lora", .applies = is_lora, .off_text = "")                                                      \
    R(A, lora_targets,                                                                                               \
      KEY("lora_targets", JOB_TRAIN(unsigned, lora_targets), .arg = "q,v", .type = OPT_CUSTOM,                       \
          .set = lora_targets_option_set, .choices = lora_target_names, .def = DEFAULT_LORA_TARGETS_TEXT,            \
          .flag = "lora-targets", .list_separator = '|',                                                             \
          .help = "projections with adapters, a set of %s (`q,v`, `all`)"),                                          \
      GROUP_SETTING(256, "", "lora-targets"), COLUMN(lora_targets), .uses = POINT_SETTINGS | POINT_KIND,             \
      .id_prefix = "-", .applies = is_lora, .off_text = "", .value = lora_targets_of)                                \
    /* A slice: the model cut to its first N decoder layers, the rest from its config. */                            \
    R(A, layers,                                                                                                     \
      KEY("layers", JOB_LIST(int, layers, n_layers, SWEEP_MAX_LIST), .arg = "N", .type = OPT_INT, .min = 0,          \
          .max = LIMIT_LAYERS_MAX, .def = "0", .flag = "layers",                                                     \
          .help = "decoder layers to build, %s: a slice of the model, everything else (embedding, head, "            \
                  "norms, widths, vocabulary) from its config; 0: the config's own depth"),                          \
      GROUP_SETTING(48, "", "layers"), COLUMN(layers), .uses = POINT_SETTINGS | POINT_KIND,                          \
      .id_prefix = "/layers", .applies = is_slice, .off_text = "", .value = layers_of)                               \
    /* Attention matters only to techniques that run steps; the column has it all the same. */                       \
    R(A, attention,                                                                                                  \
      KEY("attention", JOB_LIST(pf_attention, attentions, n_attentions, SWEEP_MAX_LIST), .arg = "A",                 \
          .type = OPT_ENUM, .names = &attention_option_names, .flag = "attention", .def = "sdpa",                    \
          .help = "attention implementation: %s: `sdpa` keeps only the output and a logsumexp for backward "         \
                  "(PyTorch 2's fused kernels, transformers' default), `eager` keeps the [b, heads, s, s] "          \
                  "probabilities"),                                                                                  \
      GROUP_SHOWN(8, "attention"), COLUMN(attention), .uses = POINT_SETTINGS | POINT_KIND, .id_prefix = "/",         \
      .applies = runs_steps, .value = attention_of)                                                                  \
    R(A, batch,                                                                                                      \
      KEY("batch", JOB_LIST(int, batches, n_batches, SWEEP_MAX_LIST), .type = OPT_INT, .min = 1,                     \
          .max = LIMIT_BATCH_MAX, .flag = "batch", .unset = "required unless only `load`",                           \
          .help = "micro-batch size, %s"),                                                                           \
      GROUP_NONE, COLUMN(batch), .uses = POINT_SETTINGS | POINT_PLANNED | POINT_ID_ALWAYS,                           \
      .id_prefix = "/b", .applies = runs_steps, .off_text = "0", .value = batch_of)                                  \
    R(A, seq_len,                                                                                                    \
      KEY("seq_len", JOB_LIST(int, seq_lens, n_seq_lens, SWEEP_MAX_LIST), .arg = "S", .type = OPT_INT, .min = 1,     \
          .max = LIMIT_SEQ_LEN_MAX, .flag = "seq-len",                                                               \
          .unset = "required unless only `load`; a command job: 1, per sample",                                      \
          .help = "sequence length, %s"),                                                                            \
      GROUP_NONE, COLUMN(seq_len), .uses = POINT_SETTINGS | POINT_PLANNED | POINT_ID_ALWAYS,                         \
      .id_prefix = "/s", .applies = runs_steps, .off_text = "0", .value = seq_len_of)                                \
    R(A, steps,                                                                                                      \
      KEY("steps", JOB_FIELD(int, steps), .type = OPT_INT, .min = 1, .max = LIMIT_STEPS_MAX,                         \
          .def = OPT_TEXT_OF(DEFAULT_STEPS), .flag = "steps",                                                        \
          .help = "training steps per point, %s: with `warm = 0` the first makes the optimizer's state, as a "       \
                  "plain loop does, and the second is a steady-state step (one step under-reports); with "           \
                  "`warm = 1` one is enough on the allocator's level"),                                              \
      GROUP_NONE, COLUMN(steps), .uses = POINT_SETTINGS | POINT_ID_ALWAYS, .id_prefix = "/st",                       \
      .applies = runs_steps, .off_text = "0")                                                                        \
    R(A, repeat, NOKEY, GROUP_NONE, COLUMN(repeat), .id_prefix = "/r", .value = repeat_of)                           \
    R(A, tokens, NOKEY, GROUP_NONE, COLUMN(tokens), .value = tokens_of)                                              \
    R(A, point_id, NOKEY, GROUP_NONE, COLUMN(point_id), .value = id_of)                                              \
    R(A, model_source,                                                                                               \
      KEY("model", JOB_LIST(int, models, n_models, SWEEP_MAX_MODELS), .arg = "M", .type = OPT_CUSTOM,                \
          .set = sweep_set_model, .choices = model_preset_names, .flag = "model", .unset = "required",               \
          .help = "model: a preset (%s) or a path to a Hugging Face `config.json`, or its folder, of a model of a "  \
              "family peakfit builds (relative to the sweep file)"),                                                 \
      GROUP_NONE, COLUMN(model_source), .uses = POINT_SETTINGS | POINT_KIND, .value = source_of)                     \
    R(A, config_hash, NOKEY, GROUP_NONE, COLUMN(config_hash), .uses = POINT_SETTINGS, .value = hash_of)              \
    R(A, seed,                                                                                                       \
      KEY("seed", JOB_FIELD(long, seed), .type = OPT_LONG, .min = 0, .max = LIMIT_SEED_MAX, .def = "0",              \
          .flag = "seed", .help = "weight initialisation seed, %s"),                                                 \
      GROUP_NONE, COLUMN(seed), .uses = POINT_SETTINGS)                                                              \
    /* The worker gets the runner's share of the cores instead (worker_command.c). */                                \
    R(A, threads,                                                                                                    \
      KEY("threads", JOB_FIELD(int, threads), .arg = "N", .type = OPT_INT, .min = 0, .max = LIMIT_THREADS_MAX,       \
          .def = "0", .flag = "threads", .help = "libtorch intra-op threads, %s; 0 keeps libtorch's default"),       \
      GROUP_NONE, COLUMN(threads_requested), .uses = POINT_SETTINGS | POINT_RUNNER_PASSES)                           \
    R(A, timeout_s,                                                                                                  \
      KEY("timeout", JOB_FIELD(double, timeout_s), .arg = "T", .type = OPT_DURATION, .max = 1e9,                     \
          .def = OPT_TEXT_OF(DEFAULT_TIMEOUT_S), .help = "each point's timeout: `90`, `90s`, `15m`, `2h`"),          \
      GROUP_NONE, COLUMN(timeout_s), .uses = POINT_SETTINGS,                                                         \
      .column_text = timeout_column)                                                                                 \
    R(A, mem_limit,                                                                                                  \
      KEY("mem_limit", JOB_FIELD(int64_t, mem_limit), .arg = "SIZE", .type = OPT_BYTES, .def = "none",               \
          .flag = "mem-limit",                                                                                       \
          .help = "each point's memory limit above its baseline: `512MiB`, `4GiB`, `none`; on cpu the RSS "          \
                  "above the worker's baseline, on cuda what the caching allocator may reserve above its "           \
                  "baseline (its memory fraction)"),                                                                 \
      GROUP_NONE, COLUMN(mem_limit_mib), .uses = POINT_SETTINGS | POINT_PLANNED, .column_text = mem_limit_column,    \
      .passed_if = worker_enforces_limit)                                                                            \
    R(A, weights,                                                                                                    \
      KEY("weights", JOB_TEXT(weights, SWEEP_LONG_PATH_MAX), .type = OPT_CUSTOM, .set = sweep_set_weights,           \
          .flag = "weights", .unset = "random weights",                                                              \
          .help = "a local `.safetensors` file with real weights (Hugging Face names; relative to the sweep file), " \
              "a sharded checkpoint's `model.safetensors.index.json`, or a model folder holding either"),            \
      GROUP_NONE, COLUMN(weights), .uses = POINT_SETTINGS, .value = weights_of,                                      \
      .passed_if = has_weights)                                                                                      \
    /* Its key is a list of points, not the point's value (sweeps/sweep_keys.c's plain rows). */                     \
    R(A, holdout, NOKEY, GROUP_NONE, COLUMN(holdout), .uses = POINT_SETTINGS, .value = holdout_of)                   \
    /* Only training makes AdamW's state. */                                                                         \
    R(A, warm,                                                                                                       \
      KEY("warm", JOB_AXIS(int, warm), .arg = "0|1", .type = OPT_INT, .min = 0, .max = 1,                            \
          .def = OPT_TEXT_OF(DEFAULT_WARM), .flag = "warm",                                                          \
          .help = "0 or 1: 0: the first step makes the optimizer's state, as a plain training loop does (the "       \
                  "default: its RSS is what the loop holds); 1: the state is made before the first step "            \
                  "(zero-filled, as a resumed run holds it), so one step reaches the allocator-level peak of two "   \
                  "plain ones but not their RSS (docs/measurement.md)"),                                             \
      GROUP_SETTING(4, "0", "warm"), COLUMN(warm), .uses = POINT_SETTINGS | POINT_ID_IF_LISTED,                      \
      .id_prefix = "/warm", .applies = is_training, .off_text = "0")                                                 \
    /* No key: verify measures again with the built-in worker, not a command. */                                     \
    R(A, command, NOKEY, GROUP_NONE, COLUMN(command), .uses = POINT_SETTINGS, .value = command_of,                   \
      .column_text = command_column)                                                                                 \
    /* The settings line has the command's hash already (the row above). */                                          \
    R(A, measured_by, NOKEY, GROUP_SETTING(32, "worker", "measured-by"), COLUMN(measured_by), .value = measured_by_of) \
    /* fit.csv's leading columns are the group key's, in this table's order, then the fit's own: a setting here      \
     * is a column after measured_by, and each fit column after it moves one to the right. optimizer's auto is       \
     * resolved by the point's device: the worker is given, the column and the group key say, what ran. */           \
    R(A, optimizer,                                                                                                  \
      KEY("optimizer", JOB_TRAIN(pf_optimizer, optimizer), .arg = "O", .type = OPT_ENUM,                             \
          .names = &optimizer_option_names,                                                                          \
          .def = "auto", .flag = "optimizer",                                                                        \
          .help = "optimizer: %s: `auto` is what torch.optim.AdamW(params) runs on the device "                      \
                  "(`adamw-foreach` on cuda, `adamw` elsewhere); `adamw` one parameter at a time, "                  \
                  "`adamw-foreach` PyTorch's multi-tensor form (_foreach_* ops), `adamw-fused` its "                 \
                  "_fused_adamw_ (fused=True, the Trainer's default on torch >= 2.8; libtorch >= 2.4 on cpu), "      \
                  "`sgd` momentum 0.9"),                                                                             \
      GROUP_SETTING(16, "adamw", "optimizer"), COLUMN(optimizer),                                                    \
      .uses = POINT_SETTINGS | POINT_KIND | POINT_ID_IF_LISTED, .id_prefix = "/", .applies = is_training,            \
      .off_text = "", .value = optimizer_of)                                                                         \
    R(A, zero_grad,                                                                                                  \
      KEY("zero_grad", JOB_TRAIN(pf_zero_grad, zero_grad), .arg = "Z", .type = OPT_ENUM,                             \
          .names = &zero_grad_option_names,                                                                          \
          .def = "none", .flag = "zero-grad",                                                                        \
          .help = "what zero_grad leaves: %s: `none` frees the gradients after the step "                            \
                  "(zero_grad(set_to_none=True), PyTorch 2's default), `zeros` keeps them zeroed through the "       \
                  "next forward (set_to_none=False)"),                                                               \
      GROUP_SETTING(8, "none", "zero-grad"), COLUMN(zero_grad),                                                      \
      .uses = POINT_SETTINGS | POINT_KIND | POINT_ID_IF_LISTED, .id_prefix = "/zero-grad-", .applies = is_training,  \
      .off_text = "", .value = zero_grad_of) \
    R(A, weight_decay, \
      KEY("weight_decay", JOB_TRAIN(double, weight_decay), .arg = "D", .type = OPT_DOUBLE, .min = 0, .max = 1, \
          .def = "0.01", .flag = "weight-decay", .help = "AdamW's decoupled weight decay, %s"), \
      GROUP_SETTING(24, "0.01", "weight-decay"), NEW_COLUMN(NUM), \
      .uses = POINT_SETTINGS | POINT_KIND | POINT_ID_IF_LISTED, .id_prefix = "/wd", .applies = is_training)

/* A row's column as "kind, arg": OLD, name (PEAKS_FIXED_COLUMNS') or
 * NEW, type. SETTING_COLUMN_ENUM(name, column) is its enum peaks_column;
 * SETTING_COLUMNS(X) gives X(name, type, SETTING, what) for each
 * NEW_COLUMN row, in the table's order: the columns after the fixed ones. */
#define SETTING_COLUMN_ARGS(column) SETTING_COLUMN_ARGS_##column
#define SETTING_COLUMN_ARGS_COLUMN(name) OLD, name
#define SETTING_COLUMN_ARGS_NEW_COLUMN(type) NEW, type
#define SETTING_COLUMN_ENUM(name, column) SETTING_COLUMN_ENUM_OF(name, SETTING_COLUMN_ARGS(column))
#define SETTING_COLUMN_ENUM_OF(...) SETTING_COLUMN_ENUM_KIND(__VA_ARGS__)
#define SETTING_COLUMN_ENUM_KIND(name, kind, arg) SETTING_COLUMN_ENUM_##kind(name, arg)
#define SETTING_COLUMN_ENUM_OLD(name, column) PEAKS_COL_##column
#define SETTING_COLUMN_ENUM_NEW(name, type) PEAKS_COL_##name
#define SETTING_COLUMN_ROW(X, name, key, group, column, ...) SETTING_COLUMN_PICK(X, name, SETTING_COLUMN_ARGS(column))
#define SETTING_COLUMN_PICK(...) SETTING_COLUMN_PICK_(__VA_ARGS__)
#define SETTING_COLUMN_PICK_(X, name, kind, arg) SETTING_COLUMN_NEW_##kind(X, name, arg)
#define SETTING_COLUMN_NEW_OLD(X, name, column)
#define SETTING_COLUMN_NEW_NEW(X, name, type) \
    X(name, type, SETTING, "the sweep's `" #name "` ([sweeps.md](sweeps.md)); empty where it does not apply")
#define SETTING_COLUMNS(X) SETTING_ROWS(SETTING_COLUMN_ROW, X)

/* A row's sweep key name: "name" or NULL (KEY and NOKEY are never macros). */
#define SETTING_KEY_NAME(key) SETTING_KEY_NAME_##key
#define SETTING_KEY_NAME_KEY(n, ...) n
#define SETTING_KEY_NAME_NOKEY NULL
/* Whether a row has a sweep key: 1 or 0. */
#define SETTING_HAS_KEY(key) SETTING_HAS_KEY_##key
#define SETTING_HAS_KEY_KEY(n, ...) 1
#define SETTING_HAS_KEY_NOKEY 0

/* SETTING_TRAIN(X): X(name, option) for each JOB_TRAIN row, in the
 * table's order: pf_train_options' members that are settings, each with
 * its group key option. */
#define SETTING_TRAIN_ROW(X, name, key, group, ...) SETTING_TRAIN_KEY_##key(X, name, group)
#define SETTING_TRAIN_KEY_NOKEY(X, name, group)
#define SETTING_TRAIN_KEY_KEY(n, storage, ...) SETTING_TRAIN_STORE_##storage
#define SETTING_TRAIN_STORE_JOB_FIELD(type, f) SETTING_TRAIN_NONE
#define SETTING_TRAIN_STORE_JOB_TEXT(f, size) SETTING_TRAIN_NONE
#define SETTING_TRAIN_STORE_JOB_LIST(type, f, n, most) SETTING_TRAIN_NONE
#define SETTING_TRAIN_STORE_JOB_AXIS(type, f) SETTING_TRAIN_NONE
#define SETTING_TRAIN_STORE_JOB_TRAIN(type, f) SETTING_TRAIN_ONE
#define SETTING_TRAIN_NONE(X, name, group)
#define SETTING_TRAIN_ONE(X, name, group) X(name, SETTING_GROUP_OPTION(group))
#define SETTING_TRAIN(X) SETTING_ROWS(SETTING_TRAIN_ROW, X)

/* SETTING_AXES(X): X(type, name) for each JOB_AXIS and JOB_TRAIN row, in
 * the table's order: the list axes whose value is the point's (struct
 * point_axes). SETTING_AXIS_OF(key, yes, no): yes(type, name) for such a
 * row's key, the tokens no for any other (NOKEY included). */
#define SETTING_AXIS_ARGS(key) SETTING_AXIS_ARGS_##key
#define SETTING_AXIS_ARGS_NOKEY NO, _, _
#define SETTING_AXIS_ARGS_KEY(n, storage, ...) SETTING_AXIS_STORE_##storage
#define SETTING_AXIS_STORE_JOB_FIELD(type, f) NO, _, _
#define SETTING_AXIS_STORE_JOB_TEXT(f, size) NO, _, _
#define SETTING_AXIS_STORE_JOB_LIST(type, f, n, most) NO, _, _
#define SETTING_AXIS_STORE_JOB_AXIS(type, f) YES, type, f
#define SETTING_AXIS_STORE_JOB_TRAIN(type, f) YES, type, f
#define SETTING_AXIS_PICK(...) SETTING_AXIS_PICK_(__VA_ARGS__)
#define SETTING_AXIS_PICK_(yes, no, kind, type, f) SETTING_AXIS_##kind(yes, no, type, f)
#define SETTING_AXIS_YES(yes, no, type, f) yes(type, f)
#define SETTING_AXIS_NO(yes, no, type, f) no
#define SETTING_AXIS_OF(key, yes, no) SETTING_AXIS_PICK(yes, no, SETTING_AXIS_ARGS(key))
#define SETTING_AXIS_ROW(X, name, key, ...) SETTING_AXIS_OF(key, X, )
#define SETTING_AXES(X) SETTING_ROWS(SETTING_AXIS_ROW, X)

/* A row's group as "kind, size, usual" (GROUP_NONE and the others are
 * never macros): kind NONE, SHOWN or SETTING. */
#define SETTING_GROUP(group) SETTING_GROUP_##group
#define SETTING_GROUP_GROUP_NONE NONE, 0, NULL, NULL
#define SETTING_GROUP_GROUP_SHOWN(size, option) SHOWN, size, NULL, option
#define SETTING_GROUP_GROUP_SETTING(size, usual, option) SETTING, size, usual, option
/* The size of a row's group-key field in bytes (its text at most one less); 0: not in the key. */
#define SETTING_GROUP_SIZE(group) SETTING_GROUP_SIZE_OF(SETTING_GROUP(group))
#define SETTING_GROUP_SIZE_OF(...) SETTING_GROUP_SIZE_KIND(__VA_ARGS__)
#define SETTING_GROUP_SIZE_KIND(kind, size, usual, option) size
/* A row's group --option; NULL: not in the key. */
#define SETTING_GROUP_OPTION(group) SETTING_GROUP_OPTION_OF(SETTING_GROUP(group))
#define SETTING_GROUP_OPTION_OF(...) SETTING_GROUP_OPTION_KIND(__VA_ARGS__)
#define SETTING_GROUP_OPTION_KIND(kind, size, usual, option) option
/* Whether a row is in the group key: 0 or 1. */
#define SETTING_IN_GROUP(group) SETTING_IN_GROUP_OF(SETTING_GROUP(group))
#define SETTING_IN_GROUP_OF(...) SETTING_IN_GROUP_KIND(__VA_ARGS__)
#define SETTING_IN_GROUP_KIND(kind, size, usual, option) SETTING_IN_GROUP_##kind
#define SETTING_IN_GROUP_NONE 0
#define SETTING_IN_GROUP_SHOWN 1
#define SETTING_IN_GROUP_SETTING 1

/* The fit's group key, filtered from the rows: GROUP_KEY_FIELDS(X) gives
 * X(name, size) for each GROUP_SHOWN row, GROUP_KEY_SETTINGS(X) gives
 * X(name, size, usual) for each GROUP_SETTING row, each in the table's
 * order; GROUP_KEY_ALL(X) both (X declared X(field, size, ...)), the key's
 * order: what compares, sorts and makes fit.csv's leading columns. */
#define GROUP_KEY_PICK(...) GROUP_KEY_PICK_(__VA_ARGS__)
#define GROUP_KEY_PICK_(X, want, name, kind, size, usual, option) GROUP_KEY_##want##_##kind(X, name, size, usual, option)
#define GROUP_KEY_SHOWN_NONE(X, name, size, usual, option)
#define GROUP_KEY_SHOWN_SHOWN(X, name, size, usual, option) X(name, size)
#define GROUP_KEY_SHOWN_SETTING(X, name, size, usual, option)
#define GROUP_KEY_SETTING_NONE(X, name, size, usual, option)
#define GROUP_KEY_SETTING_SHOWN(X, name, size, usual, option)
#define GROUP_KEY_SETTING_SETTING(X, name, size, usual, option) X(name, size, usual)
#define GROUP_KEY_OPTION_NONE(X, name, size, usual, option)
#define GROUP_KEY_OPTION_SHOWN(X, name, size, usual, option) X(name, option)
#define GROUP_KEY_OPTION_SETTING(X, name, size, usual, option) X(name, option)
#define GROUP_KEY_SHOWN_ROW(X, name, key, group, ...) GROUP_KEY_PICK(X, SHOWN, name, SETTING_GROUP(group))
#define GROUP_KEY_SETTING_ROW(X, name, key, group, ...) GROUP_KEY_PICK(X, SETTING, name, SETTING_GROUP(group))
#define GROUP_KEY_OPTION_ROW(X, name, key, group, ...) GROUP_KEY_PICK(X, OPTION, name, SETTING_GROUP(group))
#define GROUP_KEY_FIELDS(X) SETTING_ROWS(GROUP_KEY_SHOWN_ROW, X)
#define GROUP_KEY_SETTINGS(X) SETTING_ROWS(GROUP_KEY_SETTING_ROW, X)
#define GROUP_KEY_ALL(X) \
    GROUP_KEY_FIELDS(X)  \
    GROUP_KEY_SETTINGS(X)
/* GROUP_KEY_OPTIONS(X): X(name, option) for every row in the key, in the
 * table's order (not the key's: SHOWN and SETTING rows interleave). */
#define GROUP_KEY_OPTIONS(X) SETTING_ROWS(GROUP_KEY_OPTION_ROW, X)
#endif

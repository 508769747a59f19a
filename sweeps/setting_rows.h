/* setting_rows.h: the settings table itself, one row per setting of a
 * point: its sweep key with the option engine's row (sweeps/sweep_keys.c
 * makes its key table from these, then the keys that are no point's
 * setting), what the point does with it (point/point_fields.c) and its
 * part in the fit's group key (fit/). An X-macro with no includes: the
 * functions and types a row names are tokens here, expanded only by the
 * layer that has them. point/point_fields.h says what each column means.
 *
 * R(A, name, key, column, uses, id_prefix, applies, off_text, value,
 *   column_text, passed_if, group, size, usual):
 *   name      the setting's name in the settings line;
 *   key       KEY("name", (the rest of its struct opt_row: type, where in
 *             struct sweep_job, range, default, .flag: the worker's
 *             option, help; util/options.h)): its sweep key, its
 *             option-engine row; NOKEY: the grid makes it;
 *   column    its peaks.csv column (PEAKS_COL_<column>), which is also the
 *             name of the group key's field and struct observation's member;
 *   uses ... passed_if: struct point_field's members (point_fields.h), the
 *             functions those of point/point_fields.c;
 *   group     NO: not in the fit's group key; SHOWN: in it and always
 *             shown (fit.csv's leading columns, every label); SETTING: in
 *             it, named where it holds other than usual;
 *   size      the group key field's size in bytes (0 when NO);
 *   usual     a SETTING's usual value (NULL otherwise).
 * A is passed through to R unchanged (a macro a filter below applies).
 *
 * Rows in the id come in the id's order: job/model/device/technique
 * [/loraR-targets][/attention]/bN/sN/stK/rR; the worker's argv, the
 * settings line and the sweep keys' order (docs/sweeps.md) are the
 * table's too. */
#ifndef PEAKFIT_SETTING_ROWS_H
#define PEAKFIT_SETTING_ROWS_H

#define SETTING_ROWS(R, A)                                                                                           \
    R(A, job, NOKEY, job, 0, "", NULL, NULL, job_of, NULL, NULL, NO, 0, NULL)                                        \
    R(A, model, NOKEY, model, 0, "/", NULL, NULL, model_of, NULL, NULL, SHOWN, 256, NULL)                            \
    R(A, device,                                                                                                     \
      KEY("device", (.type = OPT_CUSTOM, SWEEP_LIST(devices, n_devices, SWEEP_MAX_LIST), .set = sweep_set_device,    \
                     .choices = device_names, .flag = "device", .def = "cpu",                                        \
                     .help = "list of %s (all but `cpu` only in a build against a libtorch that has them)")),        \
      device, POINT_SETTINGS | POINT_KIND, "/", NULL, NULL, device_of, NULL, NULL, SHOWN, 16, NULL)                  \
    R(A, technique,                                                                                                  \
      KEY("technique", (.type = OPT_ENUM, SWEEP_LIST(techniques, n_techniques, SWEEP_MAX_LIST),                      \
                        .names = &technique_option_names, .flag = "technique", .unset = "required",                  \
                        .help = "list of %s")),                                                                      \
      technique, POINT_SETTINGS | POINT_KIND, "/", NULL, NULL, technique_of, NULL, NULL, SHOWN, 16, NULL)            \
    R(A, lora_rank,                                                                                                  \
      KEY("lora_rank", (.type = OPT_INT, SWEEP_AT(lora_rank), .min = 1, .max = LIMIT_LORA_RANK_MAX,                  \
                        .def = OPT_TEXT_OF(DEFAULT_LORA_RANK), .flag = "lora-rank", .help = "LoRA rank r, %s")),     \
      lora_rank, POINT_SETTINGS | POINT_KIND, "/lora", is_lora, "", lora_rank_of, NULL, NULL, SETTING, 12, "")       \
    R(A, lora_targets,                                                                                               \
      KEY("lora_targets", (.type = OPT_CUSTOM, SWEEP_AT(lora_targets), .set = lora_targets_option_set,               \
                           .choices = lora_target_names, .def = DEFAULT_LORA_TARGETS_TEXT, .flag = "lora-targets",   \
                           .help = "projections with adapters: %s")),                                                \
      lora_targets, POINT_SETTINGS | POINT_KIND, "-", is_lora, "", lora_targets_of, NULL, NULL, SETTING, 256, "")    \
    /* Attention matters only to techniques that run steps; the column has it all the same. */                       \
    R(A, attention,                                                                                                  \
      KEY("attention", (.type = OPT_ENUM, SWEEP_LIST(attentions, n_attentions, SWEEP_MAX_LIST),                      \
                        .names = &attention_option_names, .flag = "attention", .def = "sdpa",                        \
                        .help = "list of %s: `sdpa` keeps only the output and a logsumexp for backward (PyTorch "    \
                                "2's fused kernels, transformers' default), `eager` keeps the [b, heads, s, s] "     \
                                "probabilities")),                                                                   \
      attention, POINT_SETTINGS | POINT_KIND, "/", runs_steps, NULL, attention_of, NULL, NULL, SHOWN, 8, NULL)       \
    R(A, batch,                                                                                                      \
      KEY("batch", (.type = OPT_INT, SWEEP_LIST(batches, n_batches, SWEEP_MAX_LIST), .min = 1,                       \
                    .max = LIMIT_BATCH_MAX, .flag = "batch", .unset = "required unless only `load`",                 \
                    .help = "list of micro-batch sizes, %s")),                                                       \
      batch, POINT_SETTINGS | POINT_PLANNED | POINT_ID_ALWAYS, "/b", runs_steps, "0", batch_of, NULL, NULL, NO, 0,   \
      NULL)                                                                                                          \
    R(A, seq_len,                                                                                                    \
      KEY("seq_len", (.type = OPT_INT, SWEEP_LIST(seq_lens, n_seq_lens, SWEEP_MAX_LIST), .min = 1,                   \
                      .max = LIMIT_SEQ_LEN_MAX, .flag = "seq-len", .unset = "required unless only `load`",           \
                      .help = "list of sequence lengths, %s")),                                                      \
      seq_len, POINT_SETTINGS | POINT_PLANNED | POINT_ID_ALWAYS, "/s", runs_steps, "0", seq_len_of, NULL, NULL, NO,  \
      0, NULL)                                                                                                       \
    R(A, steps,                                                                                                      \
      KEY("steps", (.type = OPT_INT, SWEEP_AT(steps), .min = 1, .max = LIMIT_STEPS_MAX,                              \
                    .def = OPT_TEXT_OF(DEFAULT_STEPS), .flag = "steps",                                              \
                    .help = "training steps per point, %s; with `warm = 1` one is enough (with `warm = 0` AdamW "    \
                            "allocates its state in the first step, so one step under-reports)")),                   \
      steps, POINT_SETTINGS | POINT_ID_ALWAYS, "/st", runs_steps, "0", steps_of, NULL, NULL, NO, 0, NULL)            \
    R(A, repeat, NOKEY, repeat, 0, "/r", NULL, NULL, repeat_of, NULL, NULL, NO, 0, NULL)                             \
    R(A, tokens, NOKEY, tokens, 0, NULL, NULL, NULL, tokens_of, NULL, NULL, NO, 0, NULL)                             \
    R(A, point_id, NOKEY, point_id, 0, NULL, NULL, NULL, id_of, NULL, NULL, NO, 0, NULL)                             \
    R(A, model_source,                                                                                               \
      KEY("model", (.type = OPT_CUSTOM, SWEEP_LIST(models, n_models, SWEEP_MAX_MODELS), .set = sweep_set_model,      \
                    .choices = model_preset_names, .flag = "model", .unset = "required",                             \
                    .help = "list of presets (%s) or paths to a Hugging Face `config.json`, or its folder, of a "    \
                            "model of a family peakfit builds (relative to the sweep file)")),                       \
      model_source, POINT_SETTINGS | POINT_KIND, NULL, NULL, NULL, source_of, NULL, NULL, NO, 0, NULL)               \
    R(A, config_hash, NOKEY, config_hash, POINT_SETTINGS, NULL, NULL, NULL, hash_of, NULL, NULL, NO, 0, NULL)        \
    R(A, seed,                                                                                                       \
      KEY("seed", (.type = OPT_LONG, SWEEP_AT(seed), .min = 0, .max = LIMIT_SEED_MAX, .def = "0", .flag = "seed",    \
                   .help = "weight initialisation seed, %s")),                                                       \
      seed, POINT_SETTINGS, NULL, NULL, NULL, seed_of, NULL, NULL, NO, 0, NULL)                                      \
    /* The worker gets the runner's share of the cores instead (worker_command.c). */                                \
    R(A, threads,                                                                                                    \
      KEY("threads", (.type = OPT_INT, SWEEP_AT(threads), .min = 0, .max = LIMIT_THREADS_MAX, .def = "0",            \
                      .flag = "threads", .help = "libtorch intra-op threads, %s; 0 keeps libtorch's default")),      \
      threads_requested, POINT_SETTINGS | POINT_RUNNER_PASSES, NULL, NULL, NULL, threads_of, NULL, NULL, NO, 0,      \
      NULL)                                                                                                          \
    R(A, timeout_s,                                                                                                  \
      KEY("timeout", (.type = OPT_DURATION, SWEEP_AT(timeout_s), .max = 1e9, .def = OPT_TEXT_OF(DEFAULT_TIMEOUT_S),  \
                      .help = "per point: `90`, `90s`, `15m`, `2h`")),                                               \
      timeout_s, POINT_SETTINGS, NULL, NULL, NULL, timeout_of, timeout_column, NULL, NO, 0, NULL)                    \
    R(A, mem_limit,                                                                                                  \
      KEY("mem_limit", (.type = OPT_BYTES, SWEEP_AT(mem_limit), .def = "none", .flag = "mem-limit",                  \
                        .help = "per point: `512MiB`, `4GiB`, `none`; on cpu the RSS above the worker's baseline, "  \
                                "on cuda what the caching allocator may reserve above its baseline (its memory "     \
                                "fraction)")),                                                                       \
      mem_limit_mib, POINT_SETTINGS | POINT_PLANNED, NULL, NULL, NULL, mem_limit_of, mem_limit_column,               \
      worker_enforces_limit, NO, 0, NULL)                                                                            \
    R(A, weights,                                                                                                    \
      KEY("weights", (.type = OPT_CUSTOM, SWEEP_AT(weights), .set = sweep_set_weights, .flag = "weights",            \
                      .unset = "random weights",                                                                     \
                      .help = "a local `.safetensors` file with real weights (Hugging Face names; relative to the "  \
                              "sweep file), a sharded checkpoint's `model.safetensors.index.json`, or a model "      \
                              "folder holding either")),                                                             \
      weights, POINT_SETTINGS, NULL, NULL, NULL, weights_of, NULL, has_weights, NO, 0, NULL)                         \
    /* Its key is a list of points, not the point's value (sweeps/sweep_keys.c's plain rows). */                     \
    R(A, holdout, NOKEY, holdout, POINT_SETTINGS, NULL, NULL, NULL, holdout_of, NULL, NULL, NO, 0, NULL)             \
    /* Only training makes AdamW's state. */                                                                         \
    R(A, warm,                                                                                                       \
      KEY("warm", (.type = OPT_INT, SWEEP_AT(warm), .min = 0, .max = 1, .def = OPT_TEXT_OF(DEFAULT_WARM),            \
                   .flag = "warm",                                                                                   \
                   .help = "1: AdamW's state is made before the first step (zero-filled, as a resumed run holds "    \
                           "it), so step 1 is a steady-state step and one step gives the peak; 0: the first step "   \
                           "makes it, as a plain training loop does (one step then under-reports: use `steps = "     \
                           "2`)")),                                                                                  \
      warm, POINT_SETTINGS, NULL, is_training, "0", warm_of, NULL, NULL, SETTING, 4, "1")                            \
    /* No key: verify measures again with the built-in worker, not a command. */                                     \
    R(A, command, NOKEY, command, POINT_SETTINGS, NULL, NULL, NULL, command_of, command_column, NULL, NO, 0, NULL)   \
    /* The settings line has the command's hash already (the row above). */                                          \
    R(A, measured_by, NOKEY, measured_by, 0, NULL, NULL, NULL, measured_by_of, NULL, NULL, SETTING, 32, "worker")

/* A row's sweep key name: "name" or NULL (KEY and NOKEY are never macros). */
#define SETTING_KEY_NAME(key) SETTING_KEY_NAME_##key
#define SETTING_KEY_NAME_KEY(n, spec) n
#define SETTING_KEY_NAME_NOKEY NULL

/* The fit's group key, filtered from the rows: GROUP_KEY_FIELDS(X) gives
 * X(column, size) for each SHOWN row, GROUP_KEY_SETTINGS(X) gives
 * X(column, size, usual) for each SETTING row, each in the table's order;
 * GROUP_KEY_ALL(X) both (X declared X(field, size, ...)), the key's order:
 * what compares, sorts and makes fit.csv's leading columns. */
#define POINT_GROUP_SHOWN_NO(X, column, size, usual)
#define POINT_GROUP_SHOWN_SHOWN(X, column, size, usual) X(column, size)
#define POINT_GROUP_SHOWN_SETTING(X, column, size, usual)
#define POINT_GROUP_SETTING_NO(X, column, size, usual)
#define POINT_GROUP_SETTING_SHOWN(X, column, size, usual)
#define POINT_GROUP_SETTING_SETTING(X, column, size, usual) X(column, size, usual)
#define POINT_GROUP_SHOWN_ROW(X, name, key, column, uses, id, applies, off, value, text, passed, group, size, usual) \
    POINT_GROUP_SHOWN_##group(X, column, size, usual)
#define POINT_GROUP_SETTING_ROW(X, name, key, column, uses, id, applies, off, value, text, passed, group, size,     \
                                usual)                                                                            \
    POINT_GROUP_SETTING_##group(X, column, size, usual)
#define GROUP_KEY_FIELDS(X) SETTING_ROWS(POINT_GROUP_SHOWN_ROW, X)
#define GROUP_KEY_SETTINGS(X) SETTING_ROWS(POINT_GROUP_SETTING_ROW, X)
#define GROUP_KEY_ALL(X) \
    GROUP_KEY_FIELDS(X)  \
    GROUP_KEY_SETTINGS(X)
#endif

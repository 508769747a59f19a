/* point_rows.h: the point-settings table itself, one row per setting, as
 * an X-macro with no includes, so that a layer above (fit/'s group key and
 * observations) expands the same rows that point/point_fields.c does.
 * point/point_fields.h says what each column of a row means.
 *
 * R(A, name, key, column, uses, id_prefix, applies, off_text, value,
 *   column_text, passed_if, group, size, usual):
 *   name      the setting's name in the settings line;
 *   key       its sweep key, or NULL (the grid makes it);
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
 * [/loraR-targets][/attention]/bN/sN/stK/rR. */
#ifndef PEAKFIT_POINT_ROWS_H
#define PEAKFIT_POINT_ROWS_H

#define POINT_FIELD_ROWS(R, A)                                                                                      \
    R(A, job, NULL, job, 0, "", NULL, NULL, job_of, NULL, NULL, NO, 0, NULL)                                        \
    R(A, model, NULL, model, 0, "/", NULL, NULL, model_of, NULL, NULL, SHOWN, 256, NULL)                            \
    R(A, device, "device", device, POINT_SETTINGS | POINT_KIND, "/", NULL, NULL, device_of, NULL, NULL, SHOWN, 16,  \
      NULL)                                                                                                         \
    R(A, technique, "technique", technique, POINT_SETTINGS | POINT_KIND, "/", NULL, NULL, technique_of, NULL, NULL, \
      SHOWN, 16, NULL)                                                                                              \
    R(A, lora_rank, "lora_rank", lora_rank, POINT_SETTINGS | POINT_KIND, "/lora", is_lora, "", lora_rank_of, NULL,  \
      NULL, SETTING, 12, "")                                                                                        \
    R(A, lora_targets, "lora_targets", lora_targets, POINT_SETTINGS | POINT_KIND, "-", is_lora, "", lora_targets_of, \
      NULL, NULL, SETTING, 256, "")                                                                                 \
    /* Attention matters only to techniques that run steps; the column has it all the same. */                      \
    R(A, attention, "attention", attention, POINT_SETTINGS | POINT_KIND, "/", runs_steps, NULL, attention_of, NULL,  \
      NULL, SHOWN, 8, NULL)                                                                                         \
    R(A, batch, "batch", batch, POINT_SETTINGS | POINT_PLANNED | POINT_ID_ALWAYS, "/b", runs_steps, "0", batch_of,   \
      NULL, NULL, NO, 0, NULL)                                                                                      \
    R(A, seq_len, "seq_len", seq_len, POINT_SETTINGS | POINT_PLANNED | POINT_ID_ALWAYS, "/s", runs_steps, "0",      \
      seq_len_of, NULL, NULL, NO, 0, NULL)                                                                          \
    R(A, steps, "steps", steps, POINT_SETTINGS | POINT_ID_ALWAYS, "/st", runs_steps, "0", steps_of, NULL, NULL, NO, \
      0, NULL)                                                                                                      \
    R(A, repeat, NULL, repeat, 0, "/r", NULL, NULL, repeat_of, NULL, NULL, NO, 0, NULL)                             \
    R(A, tokens, NULL, tokens, 0, NULL, NULL, NULL, tokens_of, NULL, NULL, NO, 0, NULL)                             \
    R(A, point_id, NULL, point_id, 0, NULL, NULL, NULL, id_of, NULL, NULL, NO, 0, NULL)                             \
    R(A, model_source, "model", model_source, POINT_SETTINGS | POINT_KIND, NULL, NULL, NULL, source_of, NULL, NULL, \
      NO, 0, NULL)                                                                                                  \
    R(A, config_hash, NULL, config_hash, POINT_SETTINGS, NULL, NULL, NULL, hash_of, NULL, NULL, NO, 0, NULL)        \
    R(A, seed, "seed", seed, POINT_SETTINGS, NULL, NULL, NULL, seed_of, NULL, NULL, NO, 0, NULL)                    \
    /* The worker gets the runner's share of the cores instead (worker_command.c). */                               \
    R(A, threads, "threads", threads_requested, POINT_SETTINGS | POINT_RUNNER_PASSES, NULL, NULL, NULL, threads_of, \
      NULL, NULL, NO, 0, NULL)                                                                                      \
    R(A, timeout_s, "timeout", timeout_s, POINT_SETTINGS, NULL, NULL, NULL, timeout_of, timeout_column, NULL, NO, 0, \
      NULL)                                                                                                         \
    R(A, mem_limit, "mem_limit", mem_limit_mib, POINT_SETTINGS | POINT_PLANNED, NULL, NULL, NULL, mem_limit_of,     \
      mem_limit_column, worker_enforces_limit, NO, 0, NULL)                                                         \
    R(A, weights, "weights", weights, POINT_SETTINGS, NULL, NULL, NULL, weights_of, NULL, has_weights, NO, 0, NULL) \
    R(A, holdout, NULL, holdout, POINT_SETTINGS, NULL, NULL, NULL, holdout_of, NULL, NULL, NO, 0, NULL)             \
    /* Only training makes AdamW's state. */                                                                        \
    R(A, warm, "warm", warm, POINT_SETTINGS, NULL, is_training, "0", warm_of, NULL, NULL, SETTING, 4, "1")          \
    /* No key: verify measures again with the built-in worker, not a command. */                                    \
    R(A, command, NULL, command, POINT_SETTINGS, NULL, NULL, NULL, command_of, command_column, NULL, NO, 0, NULL)   \
    /* The settings line has the command's hash already (the row above). */                                         \
    R(A, measured_by, NULL, measured_by, 0, NULL, NULL, NULL, measured_by_of, NULL, NULL, SETTING, 32, "worker")

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
#define GROUP_KEY_FIELDS(X) POINT_FIELD_ROWS(POINT_GROUP_SHOWN_ROW, X)
#define GROUP_KEY_SETTINGS(X) POINT_FIELD_ROWS(POINT_GROUP_SETTING_ROW, X)
#define GROUP_KEY_ALL(X) \
    GROUP_KEY_FIELDS(X)  \
    GROUP_KEY_SETTINGS(X)
#endif

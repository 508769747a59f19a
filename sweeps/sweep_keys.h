/* sweep_keys.h: the sweep file's keys, written once, in the manner of fio's
 * option table: one row per key gives its name, type, field, range, default
 * and help. One loop parses and range-checks with it, fills the defaults,
 * lists the keys in the "unknown key" message, prints the README's table,
 * and gives the worker its options (a row's flag). */
#ifndef PEAKFIT_SWEEP_KEYS_H
#define PEAKFIT_SWEEP_KEYS_H
#include <stddef.h>
#include <stdio.h>

struct opt_names;

enum sweep_key_type {
    KEY_MODELS,       /* list of presets or config.json paths */
    KEY_DEVICES,      /* list of device names (core/device.h) */
    KEY_NAMES,        /* list of names from .names (techniques, attention implementations), each once */
    KEY_COUNTS,       /* list of distinct whole numbers in min .. max */
    KEY_INT,          /* one whole number in min .. max (an int or a long field) */
    KEY_DURATION,     /* 90, 90s, 15m, 2h: seconds, positive, at most max */
    KEY_SIZE_OR_NONE, /* 512MiB, 4GiB or none (0) */
    KEY_LORA_TARGETS, /* q, k, v, o, gate, up, down: bits */
    KEY_PATH,         /* a regular file, relative to the sweep file; stored canonical */
    KEY_PAIRS,        /* list of distinct BxS pairs (batch in min .. max, seq_len in 1 .. LIMIT_SEQ_LEN_MAX) */
    KEY_COMMAND,      /* a command line (sweeps/command_template.h), checked when its job ends */
    KEY_BOOL,         /* true or false (also 1 or 0) */
    KEY_PARAM,        /* param.NAME = value: one row stands for every NAME */
    KEY_TYPE_COUNT
};

struct sweep_key {
    const char *name;        /* as written in a sweep file */
    enum sweep_key_type type;
    size_t off;              /* offsetof(struct sweep_job, field) */
    size_t size;             /* sizeof that field */
    size_t count_off;        /* lists: offsetof(struct sweep_job, its count) */
    int max_items;           /* lists: at most this many values */
    long min, max;           /* numbers: the range */
    double def;              /* numbers, sizes, durations, LoRA target bits: the default */
    const char *def_text;    /* devices: the default list */
    const char *no_default;  /* what the README says where there is no default value */
    const char *flag;        /* the worker's option (--flag); NULL: the runner's alone */
    const char *help;        /* README text; "%s" stands for the choices or the range */
    const struct opt_names *names; /* KEY_NAMES: the names and their values (util/options.h) */
};

/* The row of a key, or NULL. */
const struct sweep_key *sweep_key_find(const char *name);
/* The i-th row, or NULL past the last. */
const struct sweep_key *sweep_key_at(int i);
/* "model, device, technique, ...", for the unknown-key message. */
const char *sweep_key_names(void);
/* docs/sweeps.md's "| key | value | default |" table. */
void sweep_keys_markdown(FILE *out);
#endif

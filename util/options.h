/* options.h: the one option engine, in the manner of fio's parse.c: each
 * option is one row (name, type, offset of its field in the target struct,
 * range, text default, help), and one loop reads a command line or a
 * key = value line with it, range-checks, and prints the help and the
 * synopsis. The engine never prints or exits: a bad value is -1 and a
 * message naming the option (or FILE:LINE and the key); the command prints
 * it and exits 2. */
#ifndef PEAKFIT_OPTIONS_H
#define PEAKFIT_OPTIONS_H
#include <stddef.h>
#include <stdio.h>

enum opt_type {
    OPT_INT,      /* int, min .. max */
    OPT_LONG,     /* long, min .. max */
    OPT_INT64,    /* int64_t, min .. max */
    OPT_DOUBLE,   /* double, min .. max; the message calls it .noun ("number") */
    OPT_SIZE_MIB, /* double MiB from a size with a unit (24GiB, 512MiB); above 0 */
    OPT_BYTES,    /* int64_t bytes from a size (512MiB, 4GiB) above 0, or none: 0 */
    OPT_DURATION, /* double seconds from 90, 90s, 15m, 2h; above 0 */
    OPT_TEXT,     /* const char *: the argument itself (command lines only) */
    OPT_ENUM,     /* int: the value of the name in .names */
    OPT_NAME,     /* const char *: one of .names, stored as the table's own text */
    OPT_FLAG,     /* int set to 1; takes no value */
    OPT_BOOL,     /* int: true, false, 1 or 0 */
    OPT_CUSTOM    /* .set reads the value */
    /* Any type with OPT_LIST: a comma-separated list of its values (or .list_separator's). */
};

/* The names an OPT_ENUM row accepts: name(i) for i = 0 .. count-1, whose
 * value is i (or values[i]); when allowed is set, only the i it accepts. */
struct opt_names {
    const char *(*name)(int i);
    int count;
    int (*allowed)(int i);
    const int *values;
};

/* Flags of a row. */
enum {
    OPT_REQUIRED = 1,  /* the command needs it */
    OPT_MAIN_FORM = 2, /* the synopsis shows it unbracketed; the command checks it (another form goes without) */
    OPT_LIST = 4,      /* 1 .. .items values of its type, comma-separated, each once: value i at
                        * .off + i * .size, their count (an int) at .count_off */
    OPT_DEF_WORDS = 8, /* .def says what happens without it ("the cluster's"): not a value to read */
    OPT_NOTE_GIVEN = 16, /* given (not its default): the int at .given_off becomes 1 */
    OPT_GROUP_AXIS = 32, /* an axis of the fit's group key, expanded from the settings table
                          * (fit/group_choice.h): the table's, not a row written by hand; where
                          * an earlier row of the table has its name (the command's own option
                          * for that setting), that row is the option and this one is never
                          * read, listed or offered */
};

struct opt_row {
    const char *name;  /* --name on a command line, name in a key = value line */
    char short_name;   /* -c, or 0 */
    const char *arg;   /* what the help calls its value ("SIZE"); NULL for a flag */
    enum opt_type type;
    size_t off;        /* offsetof(the target struct, its field) */
    double min, max;   /* numbers: the range; lists: max is the most items */
    const char *def;   /* the default: its text, read by the row's setter (opt_defaults); the help shows it */
    const char *help;
    unsigned flags;
    const struct opt_names *names;      /* OPT_ENUM, OPT_NAME */
    size_t count_off;                   /* OPT_LIST: offsetof(its int count) */
    const char *noun;                   /* OPT_DOUBLE: "fraction"; default "number" */
    /* OPT_CUSTOM: reads value into target (its field at row->off); 0, or
     * -1 with the whole message in why (display names the option). ctx is
     * what the reader passed to opt_set_in (a sweep file's parser), or NULL. */
    int (*set)(const struct opt_row *row, const char *display, const char *value, void *target, void *ctx,
               char *why, size_t size);
    /* After a value is read: what else it sets (calc's unit of a shown size). */
    void (*then)(const struct opt_row *row, const char *value, void *target);
    size_t size;                        /* OPT_LIST: one value's size; text kept in the struct: its capacity */
    int items;                          /* OPT_LIST: at most this many values */
    /* The help's "%s": what it takes ("cpu, cuda"), for a row whose values
     * are neither names (.names) nor a range. */
    const char *(*choices)(void);
    const char *flag;   /* a key = value table's row: its --flag on a command line (the worker's); or NULL */
    const char *unset;  /* no .def: what the help says happens without it ("random weights") */
    size_t given_off;   /* OPT_NOTE_GIVEN: offsetof(the int that says it was given) */
    /* A command's option for a point setting: the sweep key whose row
     * completes the fields this one leaves unset (point/setting_options.h). */
    const char *setting;
    char list_separator; /* OPT_LIST: what stands between its values; 0: a comma */
};

/* Where a table's completed rows are kept: made once, at its first use. */
struct opt_ready {
    int done;
    struct opt_row *rows;
};

/* One command's options. */
struct opt_table {
    const char *command;    /* "calc": the message prefix is "peakfit calc: " */
    const char *operands;   /* what comes besides options ("DIR"), for the synopsis */
    const struct opt_row *rows; /* as written; the engine reads them through opt_rows() */
    int n_rows;
    const char *other_forms; /* the synopsis's further lines, as written; or NULL */
    /* A table whose rows borrow a point setting's option (.setting,
     * point/setting_options.h): completes a copy of the rows, into ready,
     * the first time any reader asks; NULL: the rows are whole as written. */
    void (*complete)(struct opt_row *rows, int n);
    struct opt_ready *ready;
};

/* The table's rows as every reader sees them: completed where it says how. */
const struct opt_row *opt_rows(const struct opt_table *t);

/* A default's text from the constant that sets it: OPT_TEXT_OF(DEFAULT_X). */
#define OPT_TEXT_OF(x) OPT_TEXT_OF_(x)
#define OPT_TEXT_OF_(x) #x

#define OPT_TABLE(cmd, operands_, rows_, other_forms_)                                            \
    {.command = (cmd), .operands = (operands_), .rows = (rows_), .n_rows = (int)(sizeof(rows_) / sizeof((rows_)[0])), \
     .other_forms = (other_forms_)}

/* Reads argv[1 .. argc-1] into target: --name=value, --name value, -c
 * value, -cvalue; anything else is an operand, stored in order in
 * operands (at most max_operands; *n_operands is their count). An option
 * given twice, unknown, missing its value or with a bad one, or a required
 * one missing, is -1 with the reason in why (without the command's name). */
int opt_parse_args(const struct opt_table *t, int argc, char **argv, void *target, const char **operands,
                   int max_operands, int *n_operands, char *why, size_t size);

/* One option's value into target, as from a command line (display: how
 * the message names it, "--budget" or "budget"); 0 or -1 with why. */
int opt_set(const struct opt_row *row, const char *display, const char *value, void *target, char *why,
            size_t size);
/* The same, with ctx for an OPT_CUSTOM row's setter (a sweep file's parser). */
int opt_set_in(const struct opt_row *row, const char *display, const char *value, void *target, void *ctx,
               char *why, size_t size);
/* Every row's default (.def, unless OPT_DEF_WORDS) read into target by
 * its own setter, as if given; 0, or -1 with why (a table's own fault). */
int opt_defaults(const struct opt_row *rows, int n_rows, void *target, void *ctx, char *why, size_t size);
/* The same over a table's rows (opt_rows). */
int opt_table_defaults(const struct opt_table *t, void *target, void *ctx, char *why, size_t size);
/* What a number or bool row takes, as its messages say it: "a whole number
 * from 1 to 10" (a list's: "whole numbers from ..."), "a fraction from 0
 * to 0.5", "true or false"; "" for another type. */
const char *opt_expected(const struct opt_row *row, char *buf, size_t size);
/* Writes "..." into why (at most size bytes) and returns -1. */
int opt_fail(char *why, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* A "key = value" line (white space around both trimmed; line is
 * changed) into target, as opt_set; where ("FILE:LINE") begins the
 * message. An unknown key is named with the key it most likely meant. */
int opt_parse_line(const struct opt_table *t, const char *where, char *line, void *target, char *why, size_t size);

/* The engine's words for the mistakes a command line and a key = value
 * file share, so that a reader of its own (the sweep file's) says each the
 * same way: a name given twice, a line without "=", a key without value. */
#define OPT_GIVEN_TWICE "%s given twice; give it once"
#define OPT_NOT_KEY_VALUE "expected key = value, not \"%s\""
#define OPT_NO_VALUE "%s has no value"
/* "unknown key \"KEY\"; did you mean NAME? (keys: ...)": key, which no
 * row of t has, with the one it most likely meant and t's keys. */
int opt_unknown_key(const struct opt_table *t, const char *key, char *why, size_t size);

/* item's value among the names n (the one name-to-value setter, for an
 * OPT_ENUM row and a sweep file's lists alike); 0, or -1 with "DISPLAY
 * must be one of ..., not ITEM" and the name it most likely meant. */
int opt_name_value(const struct opt_names *n, const char *display, const char *item, int *value, char *why,
                   size_t size);

/* "load, full, ...": the names n accepts, into buf. */
const char *opt_names_text(const struct opt_names *n, char *buf, size_t size);

/* The row named name, or NULL. */
const struct opt_row *opt_find(const struct opt_table *t, const char *name);
/* The row name most likely meant by a mistyped one, or NULL. */
const char *opt_near(const struct opt_table *t, const char *name);

/* "usage: peakfit CMD OPERANDS --required X [--other Y] ...", wrapped. */
void opt_print_synopsis(const struct opt_table *t, FILE *out);
/* The synopsis's part after "peakfit CMD " into buf. */
void opt_synopsis(const struct opt_table *t, char *buf, size_t size);
/* One line per row: "  --name ARG  help (default: X)". */
void opt_print_help(const struct opt_table *t, FILE *out);
#endif

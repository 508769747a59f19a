/* options.c: the two readers of the engine: a command line
 * (opt_parse_args) and a key = value line (opt_parse_line). The typed
 * setters they use are option_set.c's; the help and the synopsis are
 * option_help.c's. */
#include <string.h>
#include "util/name_list.h"
#include "util/options.h"
#include "util/parse.h"
#include "util/size_arg.h"

enum { OPT_MAX_ROWS = 64 };

const struct opt_row *opt_find(const struct opt_table *t, const char *name)
{
    const struct opt_row *rows = opt_rows(t);
    for (int i = 0; i < t->n_rows; i++)
        if (strcmp(rows[i].name, name) == 0)
            return &rows[i];
    return NULL;
}

/* --- a command line ----------------------------------------------------- */

/* The row argv's arg names: --name, --name=value, -c or -cvalue; its
 * attached value (or NULL) in *attached. */
static const struct opt_row *row_of_arg(const struct opt_table *t, const char *arg, const char **attached)
{
    const struct opt_row *rows = opt_rows(t);
    *attached = NULL;
    if (arg[1] != '-') {
        for (int i = 0; i < t->n_rows; i++)
            if (rows[i].short_name && rows[i].short_name == arg[1]) {
                *attached = arg[2] ? arg + 2 : NULL;
                return &rows[i];
            }
        return NULL;
    }
    size_t len = strcspn(arg + 2, "=");
    for (int i = 0; i < t->n_rows; i++)
        if (strlen(rows[i].name) == len && strncmp(rows[i].name, arg + 2, len) == 0) {
            *attached = arg[2 + len] == '=' ? arg + 3 + len : NULL;
            return &rows[i];
        }
    return NULL;
}

static int unknown_option(const struct opt_table *t, const char *arg, char *why, size_t size)
{
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(arg + strspn(arg, "-"), "="), arg + strspn(arg, "-"));
    const char *near = opt_near(t, name);
    return opt_fail(why, size, "unknown option \"%s\"%s%s%s", arg, near ? "; did you mean --" : "", near ? near : "",
                near ? "?" : "");
}

/* How a message names the option as it was written: "-o" or "--output". */
static const char *as_written(const char *arg, char *buf, size_t size)
{
    snprintf(buf, size, "%.*s", (int)strcspn(arg, "="), arg);
    if (arg[1] != '-' && strlen(buf) > 2)
        buf[2] = '\0'; /* -j4: -j */
    return buf;
}

/* A row's value, as given (not its default): the row may note that it was. */
static int set_given(const struct opt_row *row, const char *display, const char *value, void *target, char *why,
                     size_t size)
{
    if (opt_set(row, display, value, target, why, size) != 0)
        return -1;
    if (row->flags & OPT_NOTE_GIVEN)
        *(int *)((char *)target + row->given_off) = 1;
    return 0;
}

/* The option at argv[*i] (and its value); 0, or -1 with why. */
static int take_option(const struct opt_table *t, int argc, char **argv, int *i, void *target,
                       unsigned char *seen, char *why, size_t size)
{
    const char *value, *arg = argv[*i];
    char display[128];
    const struct opt_row *row = row_of_arg(t, arg, &value);
    if (!row)
        return unknown_option(t, arg, why, size);
    as_written(arg, display, sizeof display);
    if (seen[row - opt_rows(t)]++)
        return opt_fail(why, size, OPT_GIVEN_TWICE, display);
    if (!row->arg)
        return value ? opt_fail(why, size, "%s takes no value", display)
                     : set_given(row, display, "", target, why, size);
    if (!value && *i + 1 >= argc) /* what it is, as the help says */
        return opt_fail(why, size, "%s needs a value: %s %s, %s", display, display, row->arg, row->help);
    if (!value) {
        value = argv[++*i];
        if (row->type == OPT_SIZE_MIB && size_unit_detached(value, *i + 1 < argc ? argv[*i + 1] : NULL))
            return opt_fail(why, size, "%s %s %s: the unit must be attached to the number: %s %s%s", display, value,
                        argv[*i + 1], display, value, argv[*i + 1]);
    }
    return set_given(row, display, value, target, why, size);
}

/* "needs --technique T, --seq-len S and -o DIR": the required rows not
 * seen; one alone with what it is ("needs -o DIR, the directory for ..."). */
static int missing_required(const struct opt_table *t, const unsigned char *seen, char *why, size_t size)
{
    const struct opt_row *rows = opt_rows(t);
    int missing[OPT_MAX_ROWS], n = 0;
    for (int i = 0; i < t->n_rows; i++)
        if ((rows[i].flags & OPT_REQUIRED) && !seen[i])
            missing[n++] = i;
    if (!n)
        return 0;
    size_t used = (size_t)snprintf(why, size, "needs");
    for (int k = 0; k < n && used < size; k++) {
        const struct opt_row *r = &rows[missing[k]];
        char flag[64];
        if (r->short_name)
            snprintf(flag, sizeof flag, "-%c", r->short_name);
        else
            snprintf(flag, sizeof flag, "--%s", r->name);
        used += (size_t)snprintf(why + used, size - used, "%s %s%s%s", k == 0 ? "" : k == n - 1 ? " and" : ",", flag,
                                 r->arg ? " " : "", r->arg ? r->arg : "");
    }
    if (n == 1 && used < size)
        snprintf(why + used, size - used, ", %s", rows[missing[0]].help);
    return -1;
}

int opt_parse_args(const struct opt_table *t, int argc, char **argv, void *target, const char **operands,
                   int max_operands, int *n_operands, char *why, size_t size)
{
    unsigned char seen[OPT_MAX_ROWS] = {0};
    int options_end = 0; /* after "--", everything is an operand */
    *n_operands = 0;
    if (t->n_rows > OPT_MAX_ROWS)
        return opt_fail(why, size, "%s has more than %d options", t->command, OPT_MAX_ROWS);
    for (int i = 1; i < argc; i++) {
        if (!options_end && strcmp(argv[i], "--") == 0) {
            options_end = 1;
        } else if (!options_end && argv[i][0] == '-' && argv[i][1]) {
            if (take_option(t, argc, argv, &i, target, seen, why, size) != 0)
                return -1;
        } else if (*n_operands >= max_operands) {
            return opt_fail(why, size, "unexpected argument \"%s\"", argv[i]);
        } else {
            operands[(*n_operands)++] = argv[i];
        }
    }
    return missing_required(t, seen, why, size);
}

/* --- a key = value line ------------------------------------------------- */

int opt_unknown_key(const struct opt_table *t, const char *key, char *why, size_t size)
{
    char keys[1024];
    struct name_list l;
    const char *near = opt_near(t, key);
    name_list_start(&l, keys, sizeof keys);
    for (int i = 0; i < t->n_rows; i++)
        name_list_add(&l, opt_rows(t)[i].name);
    return opt_fail(why, size, "unknown key \"%s\"%s%s%s (keys: %s)", key, near ? "; did you mean " : "",
                    near ? near : "", near ? "?" : "", keys);
}

int opt_parse_line(const struct opt_table *t, const char *where, char *line, void *target, char *why, size_t size)
{
    char inner[1400];
    char *eq = strchr(line, '=');
    if (!eq)
        return opt_fail(why, size, "%s: " OPT_NOT_KEY_VALUE, where, trim(line));
    *eq = '\0';
    const char *key = trim(line), *value = trim(eq + 1);
    const struct opt_row *row = opt_find(t, key);
    if (!row)
        opt_unknown_key(t, key, inner, sizeof inner);
    else if (!value[0])
        snprintf(inner, sizeof inner, OPT_NO_VALUE, key);
    else if (set_given(row, key, value, target, inner, sizeof inner) == 0)
        return 0;
    return opt_fail(why, size, "%s: %s", where, inner);
}

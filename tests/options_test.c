/* The option engine (util/options.h): each type's setter, its range and
 * unit errors, "did you mean" for a mistyped option or name, a missing
 * value, an unknown option, an option given twice, a required one left
 * out, key = value lines; and every command's table: each row has help
 * text, a name the parser finds, and a value name where it takes one. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "src/commands.h"
#include "autosweep/auto_args.h"
#include "core/attention.h"
#include "core/technique.h"
#include "fit/group_choice.h"
#include "point/point_fields.h"
#include "reports/calc.h"
#include "reports/report.h"
#include "verify/verify_options.h"
#include "src/params_cmd.h"
#include "runner/run_sweep.h"
#include "src/slurm_cmd.h"
#include "sweeps/sweep_keys.h"
#include "protocol/worker_options.h"
#include "tests/check.h"
#include "util/options.h"

struct sample {
    int count, flag, on, attention, techniques[4], n_techniques, counts[3], n_counts;
    long big;
    int64_t bytes;
    double ratio, mib, seconds;
    const char *text, *technique;
};

#define SAMPLE(f) offsetof(struct sample, f)

static const struct opt_row sample_rows[] = {
    {"count", 'c', "N", OPT_INT, SAMPLE(count), 1, 10, .flags = OPT_REQUIRED, .help = "a count"},
    {"big", 0, "N", OPT_LONG, SAMPLE(big), 0, 5000000000.0, .help = "a long"},
    {"ratio", 0, "F", OPT_DOUBLE, SAMPLE(ratio), 0, 0.5, .noun = "fraction", .help = "a fraction"},
    {"size", 0, "SIZE", OPT_SIZE_MIB, SAMPLE(mib), .help = "a size"},
    {"time", 0, "T", OPT_DURATION, SAMPLE(seconds), .help = "a duration"},
    {"text", 0, "X", OPT_TEXT, SAMPLE(text), .help = "text"},
    {"attention", 0, "A", OPT_ENUM, SAMPLE(attention), .names = &attention_option_names, .help = "an enum"},
    {"technique", 0, "T", OPT_NAME, SAMPLE(technique), .names = &stepping_technique_option_names,
     .help = "a name"},
    {"techniques", 0, "T,T", OPT_ENUM, SAMPLE(techniques), .flags = OPT_LIST, .names = &technique_option_names,
     .count_off = SAMPLE(n_techniques), .size = sizeof(int), .items = 4, .help = "a list"},
    {"counts", 0, "N,N", OPT_INT, SAMPLE(counts), 1, 100, .flags = OPT_LIST, .count_off = SAMPLE(n_counts),
     .size = sizeof(int), .items = 3, .def = "1, 2", .help = "a list of numbers"},
    {"bytes", 0, "SIZE", OPT_BYTES, SAMPLE(bytes), .def = "none", .help = "a size or none"},
    {"flag", 0, NULL, OPT_FLAG, SAMPLE(flag), .help = "a flag"},
    {"on", 0, "B", OPT_BOOL, SAMPLE(on), .help = "a bool"},
};
static const struct opt_table sample_table = OPT_TABLE("sample", "FILE", sample_rows, NULL);

/* Parses the words (argv[0] is the command) into s; returns the status
 * and leaves the message in why. */
static int parse(struct sample *s, char *why, size_t size, int argc, const char **argv)
{
    const char *operands[2];
    int n;
    *s = (struct sample){0};
    why[0] = '\0';
    return opt_parse_args(&sample_table, argc, (char **)argv, s, operands, 2, &n, why, size);
}

#define PARSE(s, why, ...)                                                                   \
    parse(s, why, sizeof why, (int)(sizeof((const char *[]){"sample", __VA_ARGS__}) / sizeof(char *)), \
          (const char *[]){"sample", __VA_ARGS__})

static void expect_error(int rc, const char *why, const char *want)
{
    CHECK(rc == -1, "no error, expected \"%s\"", want);
    CHECK(strcmp(why, want) == 0, "got \"%s\", expected \"%s\"", why, want);
}

static void test_values(void)
{
    struct sample s;
    char why[512];
    int rc = PARSE(&s, why, "-c", "3", "--big=4000000000", "--ratio", "0.25", "--size", "1.5GiB", "--time", "2m",
                   "--text", "hi", "--attention", "eager", "--technique", "lora", "--techniques", "full, bf16",
                   "--flag", "--on", "true", "f");
    CHECK(rc == 0, "%s", why);
    CHECK(s.count == 3 && s.big == 4000000000L && s.ratio == 0.25, "numbers %d %ld %g", s.count, s.big, s.ratio);
    CHECK(s.mib == 1536 && s.seconds == 120, "size %g MiB, time %g s", s.mib, s.seconds);
    CHECK(!strcmp(s.text, "hi") && s.attention == PF_ATTN_EAGER && !strcmp(s.technique, "lora"), "text, enum, name");
    CHECK(s.n_techniques == 2 && s.techniques[0] == PF_TECH_FULL && s.techniques[1] == PF_TECH_BF16, "list");
    CHECK(s.flag == 1 && s.on == 1, "flag %d bool %d", s.flag, s.on);
    CHECK(PARSE(&s, why, "-c7", "f") == 0 && s.count == 7, "-c7: %s", why);
}

static void test_errors(void)
{
    struct sample s;
    char why[512];
    expect_error(PARSE(&s, why, "-c", "11"), why, "-c must be a whole number from 1 to 10, not \"11\"");
    expect_error(PARSE(&s, why, "--count", " 2"), why, "--count must be a whole number from 1 to 10, not \" 2\"");
    expect_error(PARSE(&s, why, "-c", "1", "--ratio", "0.6"), why, "--ratio must be a fraction from 0 to 0.5, not \"0.6\"");
    expect_error(PARSE(&s, why, "-c", "1", "--size", "512"), why, "--size needs a unit (e.g. 24GiB, 512MiB), not \"512\"");
    expect_error(PARSE(&s, why, "-c", "1", "--size", "lots"), why,
                 "--size must be a size above 0 such as 24GiB or 512MiB, not \"lots\"");
    expect_error(PARSE(&s, why, "-c", "1", "--size", "24", "GiB"), why,
                 "--size 24 GiB: the unit must be attached to the number: --size 24GiB");
    expect_error(PARSE(&s, why, "-c", "1", "--time", "0s"), why,
                 "--time must be a positive duration like 90, 90s, 15m or 2h, not \"0s\"");
    expect_error(PARSE(&s, why, "-c", "1", "--technique", "load"), why,
                 "--technique must be one of inference, full, full+ckpt, bf16, lora, lora+ckpt, amp-bf16, not \"load\"");
    expect_error(PARSE(&s, why, "-c", "1", "--attention", "eagre"), why,
                 "--attention must be one of sdpa, eager, not \"eagre\"; did you mean eager?");
    expect_error(PARSE(&s, why, "-c", "1", "--techniques", "full,lorra"), why,
                 "--techniques must be one of load, inference, full, full+ckpt, bf16, lora, lora+ckpt, amp-bf16, "
                 "not \"lorra\"; did you mean lora?");
    expect_error(PARSE(&s, why, "-c", "1", "--techniques", "full,full"), why, "--techniques lists \"full\" twice");
    expect_error(PARSE(&s, why, "-c", "1", "--techniques", "full,,bf16"), why,
                 "--techniques needs 1 to 4 comma-separated values, none of them empty, not \"full,,bf16\"");
    expect_error(PARSE(&s, why, "-c", "1", "--on", "yes"), why, "--on must be true or false, not \"yes\"");
    expect_error(PARSE(&s, why, "-c"), why, "-c needs a value: -c N, a count");
    expect_error(PARSE(&s, why, "--coutn", "1"), why, "unknown option \"--coutn\"; did you mean --count?");
    expect_error(PARSE(&s, why, "--frobnicate"), why, "unknown option \"--frobnicate\"");
    expect_error(PARSE(&s, why, "-c", "1", "--count", "2"), why, "--count given twice; give it once");
    expect_error(PARSE(&s, why, "-c", "1", "--flag=1"), why, "--flag takes no value");
    expect_error(PARSE(&s, why, "f"), why, "needs -c N, a count");
    expect_error(PARSE(&s, why, "-c", "1", "a", "b", "c"), why, "unexpected argument \"c\"");
    CHECK(PARSE(&s, why, "-c", "1", "--", "-x") == 0, "after --, -x is an operand: %s", why);
}

/* A list of numbers, a size or none, and the defaults read by the rows' setters. */
static void test_lists_and_defaults(void)
{
    struct sample s = {0};
    char why[512];
    CHECK(opt_defaults(sample_rows, (int)(sizeof sample_rows / sizeof sample_rows[0]), &s, NULL, why, sizeof why) == 0 &&
              s.n_counts == 2 && s.counts[0] == 1 && s.counts[1] == 2 && s.bytes == 0,
          "defaults: %s", why);
    CHECK(PARSE(&s, why, "-c", "1", "--counts", "7, 8,9", "--bytes", "2MiB") == 0 && s.n_counts == 3 &&
              s.counts[2] == 9 && s.bytes == 2 << 20, "%s", why);
    static const struct { const char *option, *value, *message; } bad[] = {
        {"--counts", "64,064", "--counts lists \"64\" twice"}, /* one value written two ways */
        {"--counts", "64,64", "--counts lists \"64\" twice"},  /* and written the same way */
        {"--counts", "1,0", "--counts must be whole numbers from 1 to 100, not \"0\""},
        {"--counts", "1,2,3,4", "--counts needs 1 to 3 comma-separated values, none of them empty, not \"1,2,3,4\""},
        {"--bytes", "lots", "--bytes must be a size like 512MiB or 4GiB, or none, not \"lots\""},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        expect_error(PARSE(&s, why, "-c", "1", bad[i].option, bad[i].value), why, bad[i].message);
}

/* run's --chunk: its default 1 from its row, and whether it was given
 * (OPT_NOTE_GIVEN), which --chunk without --point needs to know. */
static void test_given(void)
{
    struct run_options o;
    char why[512];
    char *plain[] = {"run", "s.sweep", "-o", "d"};
    char *task[] = {"run", "s.sweep", "-o", "d", "--point", "0", "--chunk", "1"};
    CHECK(run_sweep_args(4, plain, &o, why, sizeof why) == 0 && o.chunk == 1 && !o.chunk_given && o.point == -1,
          "run's defaults: %s", why);
    CHECK(run_sweep_args(8, task, &o, why, sizeof why) == 0 && o.chunk == 1 && o.chunk_given, "--chunk 1 given: %s",
          why);
    expect_error(run_sweep_args(6, (char *[]){"run", "s.sweep", "-o", "d", "--chunk", "1"}, &o, why, sizeof why), why,
                 "--chunk C needs --point K: it sets how many points task K measures");
}

static void test_lines(void)
{
    struct sample s = {0};
    char why[512], line[128];
    snprintf(line, sizeof line, "  ratio =  0.5 ");
    CHECK(opt_parse_line(&sample_table, "f.conf:3", line, &s, why, sizeof why) == 0 && s.ratio == 0.5, "%s", why);
    snprintf(line, sizeof line, "count = 0");
    expect_error(opt_parse_line(&sample_table, "f.conf:4", line, &s, why, sizeof why), why,
                 "f.conf:4: count must be a whole number from 1 to 10, not \"0\"");
    snprintf(line, sizeof line, "cuont = 1");
    expect_error(opt_parse_line(&sample_table, "f.conf:5", line, &s, why, sizeof why), why,
                 "f.conf:5: unknown key \"cuont\"; did you mean count? (keys: count, big, ratio, "
                 "size, time, text, attention, technique, techniques, counts, bytes, flag, on)");
    snprintf(line, sizeof line, "count");
    expect_error(opt_parse_line(&sample_table, "f.conf:6", line, &s, why, sizeof why), why,
                 "f.conf:6: expected key = value, not \"count\"");
    snprintf(line, sizeof line, "count = ");
    expect_error(opt_parse_line(&sample_table, "f.conf:7", line, &s, why, sizeof why), why,
                 "f.conf:7: count has no value");
}

/* A command's option named as a setting's worker flag is that setting's
 * (SETTING_OPTION, point/setting_options.h) or its group-key axis's
 * (expanded from the table: fit/group_choice.h), never a row of its own:
 * one setting, one set of names, range and help in every command. */
static void check_setting_rows(const struct opt_table *t)
{
    const struct opt_row *k, *rows = opt_rows(t);
    for (int i = 0; i < t->n_rows; i++)
        for (int j = 0; (k = sweep_key_at(j)); j++)
            CHECK(!k->flag || strcmp(k->flag, rows[i].name) || (rows[i].flags & OPT_GROUP_AXIS) ||
                  (rows[i].setting && !strcmp(rows[i].setting, k->name)),
                  "%s --%s is sweep key %s's option: SETTING_OPTION(\"%s\", ...), not a row of its own",
                  t->command, rows[i].name, k->name, k->name);
}

/* Every row of every command's table: help text, found by its own name,
 * a value name unless a flag, and no name twice; its default is a value
 * its own setter reads (opt_defaults), or marked as words the help says. */
static void test_tables(void)
{
    static union {
        max_align_t align;
        char bytes[1 << 16];
    } scratch;
    char why[512];
    const struct opt_table *tables[] = {&sample_table,   &calc_options,       &auto_options,        &verify_options,
                                        &params_options, &run_options_table, &slurm_options_table,
                                        worker_options(),  &report_options};
    for (size_t k = 0; k < sizeof tables / sizeof tables[0]; k++) {
        const struct opt_table *t = tables[k];
        for (int i = 0; i < t->n_rows; i++) {
            const struct opt_row *r = &opt_rows(t)[i];
            CHECK(r->help && r->help[0], "%s --%s has no help", t->command, r->name);
            CHECK(opt_find(t, r->name) == r || (r->flags & OPT_GROUP_AXIS), "%s --%s: another row has its name",
                  t->command, r->name);
            CHECK((r->arg != NULL) == (r->type != OPT_FLAG), "%s --%s: a value name iff it takes a value",
                  t->command, r->name);
            CHECK(!(r->flags & OPT_LIST) || (r->count_off && r->size && r->items > 0),
                  "%s --%s: a list without a count, a value size or a most", t->command, r->name);
            CHECK((r->names != NULL) == (r->type == OPT_ENUM || r->type == OPT_NAME),
                  "%s --%s: names iff it is chosen from names", t->command, r->name);
            CHECK(!(r->flags & OPT_NOTE_GIVEN) || r->given_off, "%s --%s: notes given nowhere", t->command, r->name);
            CHECK(!r->def || (r->flags & OPT_DEF_WORDS) ||
                      (r->off < sizeof scratch.bytes &&
                       opt_set(r, r->name, r->def, scratch.bytes, why, sizeof why) == 0),
                  "%s --%s: its default \"%s\" is no value it reads (%s); words need OPT_DEF_WORDS", t->command,
                  r->name, r->def, why);
        }
        if (t != worker_options() && t != &sample_table) /* the flags themselves; a made-up table */
            check_setting_rows(t);
        char synopsis[2048];
        opt_synopsis(t, synopsis, sizeof synopsis);
        CHECK(strstr(synopsis, opt_rows(t)[t->n_rows - 1].name) != NULL, "%s: synopsis %s", t->command, synopsis);
        /* A table completed from the settings keeps its rows as written. */
        CHECK(!t->complete || t->rows != opt_rows(t), "%s: its rows as written were completed in place", t->command);
    }
}

/* A group-key row names its axis's option (GROUP_SHOWN/GROUP_SETTING) beside
 * its sweep key's worker flag: where the row has a key, the two are one
 * option and must be spelt the same (calc --lora-rank, the worker's
 * --lora-rank); model's (a row the grid makes) is its source's key's. */
static void test_group_axes(void)
{
    for (int a = 0; a < GROUP_AXIS_COUNT; a++) {
        const struct point_field *f = NULL;
        for (int i = 0; (f = point_field_at(i)) && strcmp(f->name, group_axis_field(a)); i++)
            ;
        CHECK(f && f->in_group_key, "axis %s is no group-key row of the settings table", group_axis_field(a));
        const struct opt_row *k = sweep_key_find(f && f->key ? f->key : group_axis_field(a));
        CHECK(!k || (k->flag && !strcmp(k->flag, group_axis_option(a))),
              "axis %s: option --%s, but its sweep key's flag is --%s", group_axis_field(a), group_axis_option(a),
              k && k->flag ? k->flag : "(none)");
    }
}

int main(void)
{
    test_values();
    test_errors();
    test_lines();
    test_lists_and_defaults();
    test_given();
    test_tables();
    test_group_axes();
    CHECK_DONE();
}

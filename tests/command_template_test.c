/* A command job's text becomes argv by the documented rules, and no value
 * of a placeholder (quotes, ;, $( ), backquotes, newlines, a leading -, the
 * empty string, spaces, braces) changes the argv beyond its own argument:
 * without a shell it is put in as plain text; with shell = true the shell
 * gets only a reference to it in the environment, outside quotes or inside
 * "...", and a real /bin/sh gives back exactly the value. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "point/command_job.h"
#include "sweeps/command_template.h"
#include "tests/check.h"
#include "tests/doc_table.h"

static const char *hostile[] = {
    "a'b", "a\"b", "'", "\"", "; rm -rf /", "$(touch pwned)", "`touch pwned`", "line1\nline2", "-rf",
    "--batch=9", "", "a b  c", " ", "\t", "\\", "\\'", "{batch}", "}", "{", "$HOME", "*", "a;b|c&d>e<f", "#x",
};

static const char *value; /* what {v} stands for in the test at hand */

static const char *value_of(void *ctx, const char *name, size_t len)
{
    (void)ctx;
    if (len == 1 && name[0] == 'v')
        return value;
    if (command_placeholder_find(name, len) == command_placeholder_find("batch", 5))
        return "8";
    return NULL;
}

/* Expands text and compares the argv with want (n words). */
static void expect_argv(const char *text, const char *const *want, int n)
{
    struct command_argv a;
    char err[256] = "";
    int rc = command_expand(text, 0, value_of, NULL, &a, err, sizeof err);
    CHECK(rc == 0, "%s: %s", text, err);
    if (rc != 0)
        return;
    CHECK(a.argc == n, "%s: %d words, expected %d", text, a.argc, n);
    for (int i = 0; i < n && i < a.argc; i++)
        CHECK(strcmp(a.argv[i], want[i]) == 0, "%s: word %d is [%s], expected [%s]", text, i, a.argv[i], want[i]);
    CHECK(a.argv[a.argc] == NULL, "argv ends in NULL");
    command_argv_free(&a);
}

static void expect_error_of(const char *text, int shell, const char *want)
{
    struct command_argv a;
    char err[1024] = "";
    CHECK(command_expand(text, shell, value_of, NULL, &a, err, sizeof err) == -1 && strcmp(err, want) == 0,
          "%s: got [%s], expected [%s]", text, err, want);
}

static void expect_error(const char *text, const char *want) { expect_error_of(text, 0, want); }

static void test_rules(void)
{
    value = "x";
    expect_argv("prog  a\tb", (const char *[]){"prog", "a", "b"}, 3);
    expect_argv("prog 'a b' \"c d\" e\\ f", (const char *[]){"prog", "a b", "c d", "e f"}, 4);
    expect_argv("prog '' \"\" a''b", (const char *[]){"prog", "", "", "ab"}, 4);
    expect_argv("prog 'a\\b' \"say \\\"hi\\\" \\\\ \\n\"", (const char *[]){"prog", "a\\b", "say \"hi\" \\ \\n"}, 3);
    expect_argv("prog --batch {batch} --b={batch}x '{batch}' {{batch}} }}", (const char *[]){
        "prog", "--batch", "8", "--b=8x", "8", "{batch}", "}"}, 7);
    expect_error("prog 'a", "unterminated ' quote");
    expect_error("prog \"a", "unterminated \" quote");
    expect_error("prog a\\", "a \\ at the end of the command");
    /* Every placeholder named, the settings' in the table's order, then the grid's and a param's. */
    char names[1024] = "";
    for (int i = 0; i < COMMAND_PLACEHOLDER_COUNT; i++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s, ", command_placeholder_name(i));
    CHECK(strncmp(names, "device, technique, lora_rank, ", 30) == 0 &&
              strstr(names, ", zero_grad, ") && strstr(names, "job, model_name, repeat, point_id, "), "%s", names);
    char want[1200];
    snprintf(want, sizeof want, "unknown placeholder {nope} (placeholders: %sparam.NAME)", names);
    expect_error("prog {nope}", want);
    expect_error("prog {batch", "a { without its } (write {{ for a brace)");
    expect_error("prog batch}", "a } without its { (write }} for a brace)");
    expect_error("   ", "the command is empty");
    expect_error("'' a", "the program (the command's first word) is empty");
}

/* Without a shell: each value is its word, or its part of the one word. */
static void test_values_stay_put(void)
{
    for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; i++) {
        value = hostile[i];
        char joined[64], quoted[64];
        snprintf(joined, sizeof joined, "--v=%s.", value);
        snprintf(quoted, sizeof quoted, "[%s]", value);
        expect_argv("prog {v} --v={v}. \"[{v}]\" end", (const char *[]){"prog", value, joined, quoted, "end"}, 5);
    }
}

/* With a shell: what /bin/sh -c makes of the text, each argument ended by NUL. */
static size_t run_shell(const struct command_argv *a, char *out, size_t size)
{
    int fds[2];
    if (pipe(fds) != 0)
        return 0;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        for (char **e = a->env; *e; e++)
            putenv(*e);
        execv(a->argv[0], a->argv);
        _exit(127);
    }
    close(fds[1]);
    size_t used = 0;
    for (ssize_t n; used < size && (n = read(fds[0], out + used, size - used)) > 0;)
        used += (size_t)n;
    close(fds[0]);
    waitpid(pid, NULL, 0);
    return used;
}

/* The shell's text holds no value: a value is expanded once, as a
 * parameter, wherever its placeholder sits (bare, in a word, inside "..."),
 * and is never read as code. */
static void test_shell_never_sees_values(void)
{
    for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; i++) {
        value = hostile[i];
        struct command_argv a;
        char err[256], got[256], want[256];
        int rc = command_expand("printf '%s\\0' {v} x{v}y \"{batch}\" \"[{v} {batch}]\" \"a\\\"{v}\"", 1, value_of, NULL,
                                &a, err, sizeof err);
        CHECK(rc == 0 && a.argc == 3 && !strcmp(a.argv[0], "/bin/sh") && !strcmp(a.argv[1], "-c"), "shell: %s", err);
        if (rc != 0)
            continue;
        CHECK(!strcmp(a.argv[2], "printf '%s\\0' \"${PEAKFIT_V}\" x\"${PEAKFIT_V}\"y \"${PEAKFIT_BATCH}\" "
                      "\"[${PEAKFIT_V} ${PEAKFIT_BATCH}]\" \"a\\\"${PEAKFIT_V}\""), "shell text: %s", a.argv[2]);
        CHECK(a.env[0] && a.env[1] && !a.env[2] && !strncmp(a.env[0], "PEAKFIT_V=", 10) &&
              !strcmp(a.env[0] + 10, value) && !strcmp(a.env[1], "PEAKFIT_BATCH=8"), "env: each value once");
        size_t n = run_shell(&a, got, sizeof got);
        int w = snprintf(want, sizeof want, "%s%cx%sy%c8%c[%s 8]%ca\"%s%c", value, 0, value, 0, 0, value, 0, value, 0);
        CHECK(n == (size_t)w && memcmp(got, want, n) == 0, "shell: value [%s] came back as %zu bytes [%.*s]", value,
              n, (int)n, got);
        command_argv_free(&a);
    }
    CHECK(access("pwned", F_OK) != 0, "a value ran a command");
}

static void test_shell_refuses_single_quotes(void)
{
    value = "x";
    expect_error_of("echo '{v}'", 1, "{v} is inside '...', where the shell would not expand it (put it outside "
                       "quotes or inside \"...\")");
    expect_error_of("echo \"it's\" 'a\\' '\"' x'{batch}'", 1, "{batch} is inside '...', where the shell would not "
                       "expand it (put it outside quotes or inside \"...\")");
}

int main(void)
{
    check_doc_table("docs/own-script.md", "| placeholder | value |\n", command_placeholders_markdown, "placeholder");
    test_rules();
    test_values_stay_put();
    test_shell_never_sees_values();
    test_shell_refuses_single_quotes();
    CHECK_DONE();
}

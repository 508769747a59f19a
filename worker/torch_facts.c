/* torch_facts.c: asks peakfit-worker --facts, once per question, and
 * keeps the answer for the rest of the process. */
#include <errno.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "worker/torch_facts.h"
#include "proc/worker_binary.h"

extern char **environ;

enum { KINDS_KEPT = 8 };

struct facts {
    int asked;
    char version[64];
    int cuda_compiled;
    int n_kinds;                 /* devices asked about so far, and the answers */
    char kind[KINDS_KEPT][16];
    int available[KINDS_KEPT];
};

static struct facts facts = {.version = "unknown"};

/* What peakfit-worker --facts KIND said, per kind asked about optimizers. */
static struct {
    char kind[16];
    char text[2048];
} said[KINDS_KEPT];
static int n_said;

/* peakfit-worker --facts [kind]: its output into out; 0, or -1 after
 * saying why. */
static int ask(const char *kind, char *out, size_t size)
{
    char path[PATH_MAX];
    if (worker_binary_path(path, sizeof path) != 0)
        return -1;
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    char *argv[] = {path, "--facts", (char *)kind, NULL};
    pid_t pid;
    int err = posix_spawn(&pid, path, &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    size_t used = 0;
    for (ssize_t n; !err && used < size - 1 && (n = read(fds[0], out + used, size - 1 - used)) != 0;)
        if (n > 0)
            used += (size_t)n;
        else if (errno != EINTR)
            break;
    out[used] = '\0';
    close(fds[0]);
    int status = 0;
    while (!err && waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (err || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "peakfit: cannot ask %s what its libtorch offers: %s\n", path,
                err ? strerror(err) : "it failed");
        return -1;
    }
    return 0;
}

/* Reads the facts in text (its lines are cut apart); returns what it
 * says of kind's availability, or -1. */
static int read_facts(char *text, const char *kind)
{
    char key[32], value[64], *save = NULL;
    int yes, available = -1;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (sscanf(line, "%31s %63s %d", key, value, &yes) < 2)
            continue;
        if (strcmp(key, TORCH_FACTS_VERSION) == 0)
            snprintf(facts.version, sizeof facts.version, "%s", value);
        else if (strcmp(key, TORCH_FACTS_CUDA) == 0)
            facts.cuda_compiled = strcmp(value, "1") == 0;
        else if (strcmp(key, TORCH_FACTS_AVAILABLE) == 0 && kind && strcmp(value, kind) == 0)
            available = yes;
    }
    facts.asked = 1;
    return available;
}

static void ask_once(void)
{
    char text[512];
    if (facts.asked)
        return;
    if (ask(NULL, text, sizeof text) == 0)
        read_facts(text, NULL);
    facts.asked = 1;
}

const char *torch_facts_version(void)
{
    ask_once();
    return facts.version;
}

int torch_facts_cuda_compiled(void)
{
    ask_once();
    return facts.cuda_compiled;
}

int torch_facts_device_available(const char *kind)
{
    char text[2048];
    if (strcmp(kind, "cpu") == 0)
        return 1;
    /* A sweep names a device in every job: one worker start per kind. */
    for (int i = 0; i < facts.n_kinds; i++)
        if (strcmp(facts.kind[i], kind) == 0)
            return facts.available[i];
    int yes = ask(kind, text, sizeof text) == 0 && read_facts(text, kind) == 1;
    if (facts.n_kinds < KINDS_KEPT && strlen(kind) < sizeof facts.kind[0]) {
        snprintf(facts.kind[facts.n_kinds], sizeof facts.kind[0], "%s", kind);
        facts.available[facts.n_kinds++] = yes;
    }
    return yes;
}

/* The facts peakfit-worker gives for kind, asked once; NULL when no more
 * kinds are kept. */
static const char *facts_of(const char *kind)
{
    for (int i = 0; i < n_said; i++)
        if (strcmp(said[i].kind, kind) == 0)
            return said[i].text;
    if (n_said == KINDS_KEPT || strlen(kind) >= sizeof said[0].kind)
        return NULL;
    snprintf(said[n_said].kind, sizeof said[0].kind, "%s", kind);
    if (ask(kind, said[n_said].text, sizeof said[0].text) != 0)
        said[n_said].text[0] = '\0';
    return said[n_said++].text;
}

int torch_facts_optimizer_refused(const char *kind, const char *optimizer, char *why, size_t size)
{
    const char *line = facts_of(kind);
    char prefix[96];
    int n = snprintf(prefix, sizeof prefix, "%s %s %s ", TORCH_FACTS_REFUSES, kind, optimizer);
    for (size_t len; line && *line; line += len + (line[len] == '\n')) {
        len = strcspn(line, "\n");
        if (n > 0 && (size_t)n < len && strncmp(line, prefix, (size_t)n) == 0) {
            snprintf(why, size, "%.*s", (int)(len - (size_t)n), line + n);
            return 1;
        }
    }
    return 0;
}

/* The sweep writer (sweeps/sweep_write.h) writes a value only where the
 * parser reads it back as itself: a line break, a comment ('#' or ';' at
 * the start or after white space), a ',' in a list key's value and white
 * space at either end are refused with the key, the value and the reason;
 * '#', ';' and '[' inside a word are written, and a sweep written with
 * them (a model's config in a folder named so) loads back with the same
 * path. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "sweeps/sweep.h"
#include "sweeps/sweep_keys.h"
#include "sweeps/sweep_write.h"
#include "tests/check.h"

static void expect_misread(const char *key, const char *value, const char *why)
{
    const char *got = sweep_value_misread(sweep_key_find(key), value);
    CHECK(why ? got && !strcmp(got, why) : !got, "%s = \"%s\": got \"%s\", expected \"%s\"", key, value,
          got ? got : "(reads back)", why ? why : "(reads back)");
}

static void rule(void)
{
    expect_misread("model", "a\nb", "it holds a line break or another control character");
    expect_misread("model", "a\rb", "it holds a line break or another control character");
    expect_misread("model", "/data/run #2/config.json", "a '#' or ';' at its start or after white space would start a comment");
    expect_misread("weights", "/data/run ;2/model.safetensors", "a '#' or ';' at its start or after white space would start a comment");
    expect_misread("model", "#tiny", "a '#' or ';' at its start or after white space would start a comment");
    expect_misread("model", "a/config.json,b", "a ',' would split it into a list");
    expect_misread("model", " tiny", "white space at its start or end would be trimmed");
    expect_misread("model", "tiny\t", "white space at its start or end would be trimmed");
    expect_misread("model", "", "it is empty");
    expect_misread("weights", "/data/a,b/model.safetensors", NULL); /* weights is one path, not a list */
    expect_misread("model", "/data/run#2;[x]/config.json", NULL);
    expect_misread("model", "[global]", NULL);
}

/* A refused value stops the writer: nothing of it or after it is written,
 * and the message names the key, the value (to its line break) and why. */
static void refusal(void)
{
    char *text = NULL, err[512] = "";
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    struct sweep_writer w;
    sweep_writer_start(&w, f, err, sizeof err);
    sweep_write_section(&w, "global");
    sweep_write_value(&w, "model", "tiny\n[evil]\nbatch = 1");
    sweep_write_value(&w, "device", "cpu");
    sweep_write_section(&w, "j");
    CHECK(sweep_writer_end(&w) == -1, "a line break was written");
    fclose(f);
    CHECK(!strcmp(text, "[global]\n"), "written: \"%s\"", text);
    CHECK(!strcmp(err, "model = \"tiny\" cannot be written into a sweep: it holds a line break or another control "
                       "character"), "message: %s", err);
    free(text);

    f = open_memstream(&text, &size);
    sweep_writer_start(&w, f, err, sizeof err);
    sweep_write_section(&w, "a b");
    CHECK(sweep_writer_end(&w) == -1, "a job name with a space was written");
    CHECK(!strcmp(err, "[a b] cannot be written into a sweep: a job's name is letters, digits and _-.+"),
          "message: %s", err);
    sweep_writer_start(&w, f, err, sizeof err);
    sweep_write_value(&w, "modle", "tiny");
    CHECK(sweep_writer_end(&w) == -1, "an unknown key was written");
    fclose(f);
    free(text);
}

/* Written with '#', ';' and '[' inside the model's folder name, the sweep
 * loads back with that path and the job's settings. */
static void round_trip(const char *fixtures)
{
    char dir[] = "/tmp/sweep_write_test.XXXXXX", model_dir[128], model[160], sweep_path[96], cmd[512], err[1024];
    char *real = realpath(mkdtemp(dir), NULL); /* model_spec keeps a config's canonical path */
    CHECK(real != NULL, "mkdtemp");
    snprintf(model_dir, sizeof model_dir, "%s/run#2;b[1]", real);
    free(real);
    snprintf(model, sizeof model, "%s/config.json", model_dir);
    snprintf(cmd, sizeof cmd, "mkdir '%s' && cp '%s/models/gpt2/config.json' '%s'", model_dir, fixtures, model);
    CHECK(system(cmd) == 0, "%s", cmd);
    snprintf(sweep_path, sizeof sweep_path, "%s/s.sweep", dir);
    FILE *f = fopen(sweep_path, "w");
    struct sweep_writer w;
    int batches[] = {1, 2};
    sweep_writer_start(&w, f, err, sizeof err);
    sweep_write_comment(&w, "two lines\n[not a section]");
    sweep_write_section(&w, "global");
    sweep_write_value(&w, "model", model);
    sweep_write_section(&w, "auto-lora+ckpt");
    sweep_write_value(&w, "technique", "lora");
    sweep_write_value(&w, "lora_targets", "q,v"); /* one set: its list's separator is '|' */
    sweep_write_valuef(&w, "seq_len", "%d", 16);
    sweep_write_ints(&w, "batch", batches, 2);
    CHECK(sweep_writer_end(&w) == 0, "refused: %s", err);
    fclose(f);
    struct sweep *s = sweep_load(sweep_path, err, sizeof err);
    CHECK(s != NULL, "the written sweep does not load: %s", err);
    if (s) {
        CHECK(s->n_jobs == 1 && !strcmp(s->jobs[0].name, "auto-lora+ckpt"), "jobs: %d", s->n_jobs);
        CHECK(!strcmp(sweep_job_model(s, &s->jobs[0], 0)->source, model), "model read back as %s",
              sweep_job_model(s, &s->jobs[0], 0)->source);
        CHECK(s->jobs[0].n_batches == 2 && s->jobs[0].batches[1] == 2 && s->jobs[0].seq_lens[0] == 16, "batches");
        CHECK(s->jobs[0].n_lora_targets == 1 && s->jobs[0].lora_targets[0] == (PF_LORA_Q | PF_LORA_V),
              "lora_targets read back as %d sets", s->jobs[0].n_lora_targets);
        sweep_free(s);
    }
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0, "%s", cmd);
}

int main(void)
{
    rule();
    refusal();
    round_trip("tests/fixtures"); /* run-tests.sh runs the tests from the repository root */
    CHECK_DONE();
}

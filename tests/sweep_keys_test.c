/* The sweep key table is the only list of keys: the README's key table is
 * exactly what the table prints, the defaults are sweeps/limits.h's, and
 * the worker's options take the same ranges as the sweep file. */
#include <string.h>
#include "sweeps/limits.h"
#include "sweeps/sweep.h"
#include "sweeps/sweep_keys.h"
#include "tests/check.h"

/* The README's table: from its header line to the first line that is not
 * a table row. Run from the repository root (tests/run-tests.sh does). */
static char *readme_table(void)
{
    FILE *f = fopen("README.md", "r");
    char *text = NULL, line[4096];
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    int in_table = 0;
    while (f && fgets(line, sizeof line, f)) {
        if (strcmp(line, "| key | value | default |\n") == 0)
            in_table = 1;
        else if (in_table && line[0] != '|')
            break;
        if (in_table)
            fputs(line, out);
    }
    if (f)
        fclose(f);
    fclose(out);
    return text;
}

static void check_readme(void)
{
    char *want = NULL, *got = readme_table();
    size_t size = 0;
    FILE *out = open_memstream(&want, &size);
    sweep_keys_markdown(out);
    fclose(out);
    CHECK(strcmp(got, want) == 0, "README.md's key table is not the key table's; it should read:\n%s", want);
    free(got);
    free(want);
}

static void check_defaults(void)
{
    struct sweep *s = sweep_new_point();
    const struct sweep_job *j = &s->jobs[0];
    CHECK(j->steps == DEFAULT_STEPS && j->repeats == DEFAULT_REPEATS && j->timeout_s == DEFAULT_TIMEOUT_S &&
          j->lora_rank == DEFAULT_LORA_RANK && j->lora_targets == DEFAULT_LORA_TARGETS && j->mem_limit == 0 &&
          j->threads == 0 && j->seed == 0, "defaults are limits.h's");
    CHECK(j->n_devices == 1 && strcmp(j->devices[0], "cpu") == 0, "default device cpu");
    CHECK(j->n_models == 0 && j->n_techniques == 0 && j->n_batches == 0 && !j->weights[0], "no default");
    sweep_free(s);
}

/* sweep_set, as the worker uses it: same ranges, same words. */
static void check_set(void)
{
    struct sweep *s = sweep_new_point();
    struct sweep_job *j = &s->jobs[0];
    char err[1024];
    CHECK(sweep_set(s, j, "batch", "1000000", err, sizeof err) == 0 && j->batches[0] == LIMIT_BATCH_MAX, "%s", err);
    CHECK(sweep_set(s, j, "batch", "1000001", err, sizeof err) == -1 &&
          strcmp(err, "batch must be whole numbers from 1 to 1000000, not \"1000001\"") == 0, "%s", err);
    CHECK(sweep_set(s, j, "threads", "4097", err, sizeof err) == -1 &&
          strcmp(err, "threads must be a whole number from 0 to 4096, not \"4097\"") == 0, "%s", err);
    CHECK(sweep_set(s, j, "seed", "2147483647", err, sizeof err) == 0 && j->seed == LIMIT_SEED_MAX, "%s", err);
    CHECK(sweep_set(s, j, "model", "tiny", err, sizeof err) == 0 && j->n_models == 1 &&
          strcmp(sweep_job_model(s, j, 0)->name, "tiny") == 0, "%s", err);
    CHECK(sweep_set(s, j, "size", "1", err, sizeof err) == -1 &&
          strcmp(err, "unknown key \"size\" (keys: model, device, technique, attention, batch, seq_len, steps, repeats, "
                      "timeout, mem_limit, threads, seed, lora_rank, lora_targets, weights, warm, jobs)") == 0, "%s", err);
    sweep_free(s);
}

static void check_rows(void)
{
    int n = 0;
    for (const struct sweep_key *k; (k = sweep_key_at(n)); n++) {
        CHECK(sweep_key_find(k->name) == k, "%s found", k->name);
        for (int i = 0; i < n; i++)
            CHECK(!k->flag || !sweep_key_at(i)->flag || strcmp(k->flag, sweep_key_at(i)->flag) != 0,
                  "flag %s twice", k->flag);
    }
    CHECK(n > 0 && n <= 64, "keys: %d (the parser's seen-set holds 64)", n);
}

int main(void)
{
    check_readme();
    check_defaults();
    check_set();
    check_rows();
    CHECK_DONE();
}

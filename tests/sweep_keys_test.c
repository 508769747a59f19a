/* The sweep key table is the only list of keys (docs/sweeps.md's key table
 * is what it prints: tests/docs_test.sh): the defaults are sweeps/limits.h's, and
 * the worker's options take the same ranges as the sweep file. The table
 * it prints has three cells a row, whatever pipes the help holds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sweeps/limits.h"
#include "sweeps/sweep.h"
#include "sweeps/sweep_keys.h"
#include "tests/check.h"
#include "tests/doc_table.h"

static void check_defaults(void)
{
    struct sweep *s = sweep_new_point();
    const struct sweep_job *j = &s->jobs[0];
    CHECK(j->steps == 2 && j->repeats == 1 && j->timeout_s == 600 && j->lora_rank[0] == 8 &&
          j->lora_targets[0] == (PF_LORA_Q | PF_LORA_V) && j->mem_limit == 0 && j->threads == 0 && j->seed == 0 &&
          j->warm[0] == 0 && j->jobs == 1 && j->shell == 0 && j->optimizer[0] == PF_OPT_AUTO &&
          j->zero_grad[0] == PF_ZERO_GRAD_NONE, "defaults are the rows' texts (limits.h's)");
    CHECK(j->n_devices == 1 && strcmp(j->devices[0], "cpu") == 0, "default device cpu");
    CHECK(j->n_attentions == 1 && j->attentions[0] == PF_ATTN_SDPA, "default attention sdpa");
    /* each default is a value its own row reads, as a sweep file's line would be */
    const struct opt_row *k;
    char err[1024];
    for (int i = 0; (k = sweep_key_at(i)); i++)
        CHECK(!k->def || sweep_set(s, &s->jobs[0], k->name, k->def, err, sizeof err) == 0, "default of %s: %s",
              k->name, err);
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
    /* One value, as the worker's --batch takes it (not a list, so not split at a comma). */
    CHECK(sweep_set(s, j, "batch", "1000001", err, sizeof err) == -1 &&
          strcmp(err, "batch must be a whole number from 1 to 1000000, not \"1000001\"") == 0, "%s", err);
    CHECK(sweep_set(s, j, "batch", "1,2", err, sizeof err) == -1 &&
          strcmp(err, "batch must be a whole number from 1 to 1000000, not \"1,2\"") == 0, "%s", err);
    CHECK(sweep_set(s, j, "threads", "4097", err, sizeof err) == -1 &&
          strcmp(err, "threads must be a whole number from 0 to 4096, not \"4097\"") == 0, "%s", err);
    CHECK(sweep_set(s, j, "seed", "2147483647", err, sizeof err) == 0 && j->seed == LIMIT_SEED_MAX, "%s", err);
    CHECK(sweep_set(s, j, "model", "tiny", err, sizeof err) == 0 && j->n_models == 1 &&
          strcmp(sweep_job_model(s, j, 0)->name, "tiny") == 0, "%s", err);
    CHECK(sweep_set(s, j, "optimizer", "adam", err, sizeof err) == -1 &&
          strcmp(err, "optimizer must be one of auto, adamw, adamw-foreach, adamw-fused, sgd, not \"adam\"; did you "
                      "mean adamw?") == 0, "%s", err);
    CHECK(sweep_set(s, j, "zero_grad", "zeros", err, sizeof err) == 0 && j->zero_grad[0] == PF_ZERO_GRAD_ZEROS, "%s", err);
    CHECK(sweep_set(s, j, "zero_grad", "false", err, sizeof err) == -1 &&
          strcmp(err, "zero_grad must be one of none, zeros, not \"false\"") == 0, "%s", err);
    /* The keys named in the table's order: the settings' first, then the sweep's own. */
    char want[2048] = "unknown key \"size\" (keys: ";
    const struct opt_row *k;
    for (int i = 0; (k = sweep_key_at(i)); i++)
        snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s", i ? ", " : "", k->name);
    snprintf(want + strlen(want), sizeof want - strlen(want), ")");
    CHECK(strstr(want, "(keys: device, technique, lora_rank, ") && strstr(want, ", zero_grad, ") &&
              strstr(want, "repeats, holdout, jobs, command, shell, param.NAME)"), "%s", want);
    CHECK(sweep_set(s, j, "size", "1", err, sizeof err) == -1 && strcmp(err, want) == 0, "%s\nnot\n%s", err, want);
    sweep_free(s);
}

static void check_rows(void)
{
    int n = 0;
    for (const struct opt_row *k; (k = sweep_key_at(n)); n++) {
        CHECK(sweep_key_find(k->name) == k, "%s found", k->name);
        CHECK(!(k->flags & OPT_LIST) || (k->count_off && k->size && k->items > 0), "%s: a list's count, size, most",
              k->name);
        CHECK((k->type == OPT_CUSTOM) == (k->set != NULL), "%s: a setter iff custom", k->name);
        CHECK(!k->def != !k->unset, "%s: a default or what happens without one", k->name);
        for (int i = 0; i < n; i++)
            CHECK(!k->flag || !sweep_key_at(i)->flag || strcmp(k->flag, sweep_key_at(i)->flag) != 0,
                  "flag %s twice", k->flag);
    }
    CHECK(n > 0 && n <= 64, "keys: %d (the parser's seen-set holds 64)", n);
}

/* Each row of docs/sweeps.md's table: 4 bare pipes (a `\|` is text). */
static void check_markdown_cells(void)
{
    char *text = NULL, *line, *save = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (!f)
        return;
    sweep_keys_markdown(f);
    fclose(f);
    int rows = 0, separator = 0;
    for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save), rows++) {
        int bare = doc_table_pipes(line, line + strlen(line));
        CHECK(bare == 4, "a row of %d cells: %s", bare - 1, line);
        separator |= strstr(line, "| `lora_targets` | a list, `\\|` between values") != NULL;
    }
    CHECK(rows > 2 && separator, "lora_targets' separator, its pipe escaped");
    free(text);
}

int main(void)
{
    check_markdown_cells();
    check_defaults();
    check_set();
    check_rows();
    CHECK_DONE();
}

/* calc on a known fit: peaks.csv written by the runner's own writer with
 * peak = 1000 + 0.5 T MiB exactly (baseline 200 MiB, s = 256), so a sample
 * costs 128 MiB. In 2 GiB: room 2048 - 200 - 1000 = 848 MiB, b_max = 6.
 * For E = 128 on g = 4 replicas: b = 4, a = 8 (the largest b <= 6 with
 * b * a * g = 128 exactly), M = 512 MiB. */
#include <math.h>
#include "reports/calc.h"
#include "tests/calc_fixture.h"

static void write_peaks(const char *dir, const char *model)
{
    calc_fixture_write(dir, &(struct calc_fixture){.model = model, .n = 4});
}

/* peaks.csv of this model in dir, its fits, and the plan for E = 128 on
 * 4 replicas in 2 GiB. */
static void plan_e128(const char *dir, const char *model, struct fit_set *set, struct calc_request *req,
                      struct calc_plan *p)
{
    char err[700];
    write_peaks(dir, model);
    CHECK(fit_set_load(dir, set, err, sizeof err) == 0, "fit_set_load: %s", err);
    *req = (struct calc_request){.technique = "full", .budget_mib = 2048, .replicas = 4, .target_batch = 128};
    CHECK(calc_plan_make(set, req, p, err, sizeof err) == 0, "plan: %s", err);
}

/* --json is built with jansson: a model name with quotes, a backslash and
 * a newline comes back whole from a JSON parser. */
/* The fitted techniques a refusal lists: each once, by its whole name
 * (lora after lora+ckpt is a name of its own, not a part of one listed). */
static void fitted_names_whole(void)
{
    static struct group_fit groups[3];
    static struct fit_set set = {.dir = "d", .groups = groups, .n_groups = 3};
    const char *names[] = {"lora+ckpt", "lora", "lora+ckpt"};
    char err[1024];
    struct calc_plan p;
    for (int i = 0; i < 3; i++) {
        strcpy(groups[i].key.technique, names[i]);
        groups[i].metric = METRIC_RSS;
    }
    struct calc_request req = {.technique = "full", .budget_mib = 2048, .replicas = 1};
    CHECK(calc_plan_make(&set, &req, &p, err, sizeof err) != 0, "a technique nobody fitted is refused");
    CHECK(!strcmp(err, "d: no fit for technique full (fitted: lora+ckpt, lora)"), "refusal: %s", err);
}

static void json_with_hostile_model_name(const char *dir)
{
    const char *model = "m\"}, \"fits\": false, \"x\": \"\\";
    struct fit_set set;
    struct calc_request req;
    struct calc_plan p;
    plan_e128(dir, model, &set, &req, &p);
    json_t *o = calc_plan_json(&req, &p);
    char *text = json_dumps(o, 0);
    json_error_t jerr;
    json_t *back = json_loads(text, 0, &jerr);
    CHECK(back != NULL, "calc's JSON does not parse: %s: %s", jerr.text, text);
    CHECK(back && json_is_string(json_object_get(back, "model")) &&
              strcmp(json_string_value(json_object_get(back, "model")), model) == 0,
          "model name not kept: %s", text);
    CHECK(back && json_is_true(json_object_get(back, "fits")), "fits changed by the model name: %s", text);
    CHECK(back && json_integer_value(json_object_get(back, "effective_batch")) == 128, "E: %s", text);
    json_decref(back);
    free(text);
    json_decref(o);
    fit_set_free(&set);
}

int main(void)
{
    char dir[] = "/tmp/peakfit-calc-XXXXXX";
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    struct fit_set set;
    struct calc_request req;
    struct calc_plan p;
    char err[700];
    plan_e128(dir, "m", &set, &req, &p);
    CHECK(p.seq_len == 256, "seq_len %ld", p.seq_len);
    CHECK(fabs(p.per_sample_mib - 128) < 1e-6, "A_sample %g", p.per_sample_mib);
    CHECK(p.max_micro_batch == 6, "b_max %ld", p.max_micro_batch);
    CHECK(p.micro_batch == 4 && p.accum == 8 && p.effective_batch == 128, "b %ld a %ld E %ld", p.micro_batch,
          p.accum, p.effective_batch);
    CHECK(fabs(p.activation_mib - 512) < 1e-6, "M %g", p.activation_mib);
    CHECK(fabs(p.predicted_mib - (200 + 1000 + 512)) < 1e-6 && p.fits, "peak %g", p.predicted_mib);

    /* A 10% margin: usable 1843.2, room 643.2: b = 5 (1840) fits at the
     * estimate, but RSS's spread between runs (1.05% of the prediction,
     * fit/group_spread.c) puts the upper end of its interval over, so
     * b_max 4; E = 100 on g = 4 has no b <= 4 with b a g = 100: b 4, a 7. */
    req.margin = 0.1;
    req.target_batch = 100;
    calc_plan_make(&set, &req, &p, err, sizeof err);
    CHECK(p.max_micro_batch == 4 && p.max_micro_batch_estimate == 5 && p.micro_batch == 4 && p.accum == 7 &&
              p.effective_batch == 112,
          "margin: b_max %ld (%ld at the estimate) b %ld a %ld E %ld", p.max_micro_batch, p.max_micro_batch_estimate,
          p.micro_batch, p.accum, p.effective_batch);

    /* A given plan: b = 16 needs 1200 + 2048 MiB and does not fit 2 GiB. */
    req = (struct calc_request){.technique = "full", .budget_mib = 2048, .replicas = 2, .micro_batch = 16, .accum = 3};
    calc_plan_make(&set, &req, &p, err, sizeof err);
    CHECK(!p.fits && p.effective_batch == 96 && p.extrapolated, "plan: fits %d E %ld", p.fits, p.effective_batch);

    /* Nothing fits below F + baseline. */
    req = (struct calc_request){.technique = "full", .budget_mib = 1100, .replicas = 1};
    calc_plan_make(&set, &req, &p, err, sizeof err);
    CHECK(p.max_micro_batch == 0 && !p.fits, "tiny budget: b_max %ld", p.max_micro_batch);

    req.technique = "lora";
    CHECK(calc_plan_make(&set, &req, &p, err, sizeof err) != 0 && strstr(err, "no fit for technique lora"),
          "unknown technique: %s", err);
    fitted_names_whole();
    fit_set_free(&set);
    char path[300];
    snprintf(path, sizeof path, "%s/peaks.csv", dir);
    unlink(path);
    json_with_hostile_model_name(dir);
    unlink(path);
    rmdir(dir);
    CHECK_DONE();
}

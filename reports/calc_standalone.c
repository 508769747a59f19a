/* calc_standalone.c: the arithmetic of a plan from the user's own numbers. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "reports/calc_standalone.h"
#include "util/json_rows.h"

static long largest_batch(double usable, double fixed, double per_sample)
{
    double b = floor((usable - fixed) / per_sample);
    return b >= 1 ? (long)fmin(b, 1e9) : 0;
}

int standalone_plan_make(const struct calc_request *req, struct standalone_plan *p, char *err, unsigned long errlen)
{
    memset(p, 0, sizeof *p);
    if (req->per_token_mib > 0 && req->seq_len <= 0) {
        snprintf(err, errlen, "--per-token needs --seq-len S: a sample is S tokens");
        return -1;
    }
    p->per_sample_mib = req->per_sample_mib > 0 ? req->per_sample_mib : req->per_token_mib * (double)req->seq_len;
    p->replicas = req->replicas > 0 ? req->replicas : 1;
    p->judged = req->fixed_mib > 0 && req->budget_mib > 0;
    if (p->judged) {
        p->usable_mib = req->budget_mib * (1 - req->margin);
        p->max_micro_batch = largest_batch(p->usable_mib, req->fixed_mib, p->per_sample_mib);
    }
    if (req->micro_batch > 0)
        p->micro_batch = req->micro_batch;
    else if (p->judged)
        p->micro_batch = calc_choose_micro_batch(p->max_micro_batch, req->target_batch, p->replicas);
    else {
        snprintf(err, errlen, "needs --micro-batch B, or --fixed F and --budget SIZE to find the largest that fits");
        return -1;
    }
    p->accum = calc_accum_steps(p->micro_batch, p->replicas, req->target_batch, req->accum);
    p->effective_batch = p->micro_batch * p->replicas * p->accum;
    p->activation_mib = (double)p->micro_batch * p->per_sample_mib;
    p->predicted_mib = req->fixed_mib + p->activation_mib;
    p->outcome = p->predicted_mib <= p->usable_mib ? PLAN_FITS : PLAN_DOES_NOT_FIT;
    return 0;
}

/* A size in the unit the user wrote it in: "2 GB". */
static const char *size_text(const struct calc_request *req, double mib, char *out, size_t size)
{
    snprintf(out, size, "%.4g %s", mib / req->unit_mib, req->unit_name);
    return out;
}

void standalone_plan_print(const struct calc_request *req, const struct standalone_plan *p)
{
    char a[48], m[48], f[48], u[48], peak[48];
    printf("standalone plan (no measurements): A_sample = %s per sample", size_text(req, p->per_sample_mib, a, sizeof a));
    if (req->per_token_mib > 0)
        printf(" (%s per token x seq_len %ld)", size_text(req, req->per_token_mib, m, sizeof m), req->seq_len);
    printf("\n  micro-batch b = %ld, accumulation steps a = %ld, replicas g = %ld\n", p->micro_batch, p->accum,
           p->replicas);
    printf("  effective batch E = b x a x g = %ld x %ld x %ld = %ld\n", p->micro_batch, p->accum, p->replicas,
           p->effective_batch);
    printf("  activation memory M = b x A_sample = %ld x %s = %s\n", p->micro_batch, a,
           size_text(req, p->activation_mib, m, sizeof m));
    if (!p->judged)
        return;
    printf("  fixed F = %s; budget %s, margin %.0f%%: usable %s\n", size_text(req, req->fixed_mib, f, sizeof f),
           size_text(req, req->budget_mib, u, sizeof u), req->margin * 100,
           size_text(req, p->usable_mib, peak, sizeof peak));
    if (p->max_micro_batch > 0)
        printf("  largest micro-batch that fits: b = %ld\n", p->max_micro_batch);
    else
        printf("  not even micro-batch 1 fits this budget\n");
    printf("  peak F + M = %s: %s\n", size_text(req, p->predicted_mib, peak, sizeof peak),
           plan_outcome_words(p->outcome));
}

json_t *standalone_plan_json(const struct calc_request *req, const struct standalone_plan *p)
{
    json_t *o = json_object();
    const struct json_row mode[] = {JROW_TEXT("mode", "standalone")};
    const struct json_row per_token[] = {
        JROW_REAL("per_token_mib", req->per_token_mib),
        JROW_INT("seq_len", req->seq_len),
    };
    const struct json_row exact[] = {JROW_REAL("activation_bytes", round(p->activation_mib * 1048576.0))};
    JSON_ROWS_ADD(o, mode);
    if (req->per_token_mib > 0)
        JSON_ROWS_ADD(o, per_token);
    plan_batch_json(o, &(struct plan_batch){.per_sample_mib = p->per_sample_mib, .activation_mib = p->activation_mib,
                                            .micro_batch = p->micro_batch, .accum = p->accum,
                                            .replicas = p->replicas, .effective_batch = p->effective_batch,
                                            .training = 1});
    JSON_ROWS_ADD(o, exact);
    if (p->judged) /* with --fixed and --budget */
        plan_verdict_json(o, req, &(struct plan_verdict){req->fixed_mib, p->usable_mib, p->predicted_mib,
                                                         p->max_micro_batch, p->outcome});
    return o;
}

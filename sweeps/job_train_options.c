/* job_train_options.c: a job's point as the training options the shim
 * and the arithmetic take (sweeps/job_train_options.h). */
#include "sweeps/job_train_options.h"
#include "sweeps/limits.h"

pf_train_options job_train_options(const struct sweep_job *job, pf_technique t, pf_attention a)
{
    return (pf_train_options){.technique = t,
                              .lora_rank = job->lora_rank,
                              .lora_targets = job->lora_targets,
                              .learning_rate = DEFAULT_LEARNING_RATE,
                              .attention = a,
                              .optimizer = job->optimizer,
                              .zero_grad = job->zero_grad};
}

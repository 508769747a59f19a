/* job_train_options.c: a job's point as the training options the shim
 * and the arithmetic take (sweeps/job_train_options.h). */
#include "sweeps/job_train_options.h"
#include "sweeps/limits.h"

pf_train_options job_train_options(const struct sweep_job *job, pf_technique t, pf_attention a)
{
#define TRAIN_MEMBER(name, option) .name = job->name,
    return (pf_train_options){.technique = t, .attention = a, .learning_rate = DEFAULT_LEARNING_RATE,
                              SETTING_TRAIN(TRAIN_MEMBER)};
#undef TRAIN_MEMBER
}

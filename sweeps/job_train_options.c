/* job_train_options.c: a point's axes and the training options the shim
 * and the arithmetic take (sweeps/job_train_options.h). */
#include "sweeps/job_train_options.h"
#include "sweeps/limits.h"

struct point_axes job_axes_first(const struct sweep_job *job)
{
#define FIRST(type, name) .name = job->name[0],
    return (struct point_axes){SETTING_AXES(FIRST)};
#undef FIRST
}

pf_train_options train_options_of(const struct point_axes *axes, pf_technique t, pf_attention a)
{
#define TRAIN_MEMBER(name, option) .name = axes->name,
    return (pf_train_options){.technique = t, .attention = a, .learning_rate = DEFAULT_LEARNING_RATE,
                              SETTING_TRAIN(TRAIN_MEMBER)};
#undef TRAIN_MEMBER
}

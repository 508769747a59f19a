/* job_train_options.h: the values a point takes from its job's list axes
 * (every JOB_AXIS and JOB_TRAIN row of settings/setting_rows.h), and what a
 * point trains with, made from them: the worker builds its model with it,
 * and the arithmetic that predicts a point's memory (point/predict.c)
 * counts the same state. */
#ifndef PEAKFIT_JOB_TRAIN_OPTIONS_H
#define PEAKFIT_JOB_TRAIN_OPTIONS_H
#include "settings/group_key.h"
#include "sweeps/sweep.h"

/* One value of each list axis: a member per row, named as the row. */
#define POINT_AXIS_MEMBER(type, name) type name;
struct point_axes {
    SETTING_AXES(POINT_AXIS_MEMBER)
};
#undef POINT_AXIS_MEMBER

/* The first value of each of job's axes: the one value of a job that
 * lists one (the worker's, a group key's, auto's). */
struct point_axes job_axes_first(const struct sweep_job *job);

/* The training options of a point with these axes, technique t and
 * attention a: each JOB_TRAIN row's member from its axis, so a setting
 * of training reaches every options made here by its row alone. */
pf_train_options train_options_of(const struct point_axes *axes, pf_technique t, pf_attention a);
/* The training options the group's points ran with, read off its key:
 * technique, LoRA rank and targets (the defaults where the key holds
 * none), attention, optimizer and zero_grad. A command job's label is
 * no technique: it is read as full training. */
pf_train_options group_key_train_options(const struct group_key *key);
#endif

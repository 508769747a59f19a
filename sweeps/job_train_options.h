/* job_train_options.h: what a job's point trains with, read off the job
 * once: the worker builds its model with it, and the arithmetic that
 * predicts a point's memory (point/predict.c) counts the same state. */
#ifndef PEAKFIT_JOB_TRAIN_OPTIONS_H
#define PEAKFIT_JOB_TRAIN_OPTIONS_H
#include "sweeps/sweep.h"

/* The options of job's point with technique t and attention a (a job
 * lists several of each; its other settings are one value): each
 * JOB_TRAIN row's field of the job (sweeps/setting_rows.h), so a setting
 * of training reaches every options made here by its row alone. */
pf_train_options job_train_options(const struct sweep_job *job, pf_technique t, pf_attention a);
#endif

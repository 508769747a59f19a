/* phase.h: the phases of a training step, written once (PF_PHASES). */
#ifndef PEAKFIT_CORE_PHASE_H
#define PEAKFIT_CORE_PHASE_H

/* The phases of a step, in order: X(ID, name). Forward to the loss,
 * backward, the optimizer step (inference has only the forward). */
#define PF_PHASES(X) X(FORWARD, "forward") X(BACKWARD, "backward") X(OPTIMIZER, "optimizer")
typedef enum {
#define PF_PHASE_ENUM_(id, name) PF_PHASE_##id,
    PF_PHASES(PF_PHASE_ENUM_)
#undef PF_PHASE_ENUM_
    PF_PHASE_COUNT
} pf_phase;

static inline const char *pf_phase_name(pf_phase p)
{
    static const char *const names[PF_PHASE_COUNT + 1] = {
#define PF_PHASE_NAME_(id, name) name,
        PF_PHASES(PF_PHASE_NAME_)
#undef PF_PHASE_NAME_
        "?"};
    return names[(int)p >= 0 && (int)p < PF_PHASE_COUNT ? (int)p : PF_PHASE_COUNT];
}
#endif

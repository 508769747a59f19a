/* auto_rounds.h: the automated sweep's loop (docs/auto-sweep.md): each
 * round chooses every track's next points (a track: one technique,
 * seq_len and depth), writes them as DIR/auto.sweep and measures them;
 * each track stops at its target, its point budget or the time budget. */
#ifndef PEAKFIT_AUTO_ROUNDS_H
#define PEAKFIT_AUTO_ROUNDS_H
#include "autosweep/auto_sweep.h"
#include "models/model_spec.h"

/* Runs r's rounds on spec's model into r->dir, each track's state and
 * choices on stdout, then its summary. A --budget below what the
 * parameters alone hold is refused first, nothing run. Returns an exit
 * status (util/exit_status.h). */
int auto_rounds_run(const struct auto_request *r, const struct model_spec *spec);
#endif

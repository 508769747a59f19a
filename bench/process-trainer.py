#!/usr/bin/env python3
"""transformers.Trainer beside the plain loop, against the process term.

    bench/process-trainer.py PEAKS_CSV

PEAKS_CSV is bench/process-term.sh trainer's run (bench/process-trainer.sweep):
each point measured by examples/transformers/train_step.py with its plain
loop (the loop the process term is fitted from, --zero-grad zeros), with its
plain loop and --zero-grad none (set_to_none=True, as the Trainer's
model.zero_grad()) and with --loop trainer, each in a fresh process; whole
process against whole process (peak_rss_mib: VmHWM, baseline included). For
each point: the three peaks, the Trainer's extra over the plain loop (trainer
- plain) and over the plain loop with the Trainer's zero_grad (trainer -
none). Beside it the term reports/process_term.c's zeros row gives for
the plain loop at that point (offset + proportional x the worker's peak above
its baseline, the worker's peak at zero_grad zeros from
bench/results/process-term/peaks.csv, the committed run of the same points)
and the Trainer's peak against that plan (the worker's peak + the term); and
against the plan calc makes for a Trainer's user: the worker measured at the
Trainer's zero_grad (none, the sweep's _worker_none groups) plus the none
row's term at its peak. The last lines: whether every extra lies within the
term's residual spread (2 sd of the rows), and how far the Trainer lies from
that plan.
"""
import os
import shlex
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
sys.path.insert(0, HERE)
process_term = __import__("process-term")  # its points, pairs, technique classes and term rows

# reports/process_term.c's PYTHON_TERM_ROWS, which the build reads from here
TERM_ROWS = os.path.join(ROOT, "bench/results/process-term/term.txt")
WORKER_PEAKS = os.path.join(ROOT, "bench/results/process-term/peaks.csv")


def side(row):
    """trainer (--loop trainer), none (the plain loop, --zero-grad none), plain,
    or worker_none (peakfit's worker, zero_grad none)."""
    if row["measured_by"] == "worker":
        return "worker_none"
    words = shlex.split(row["command"])
    loop = words[words.index("--loop") + 1] if "--loop" in words else "plain"
    return "trainer" if loop == "trainer" else "none" if row["zero_grad"] == "none" else "plain"


def loop_points(path):
    """(model, technique, batch, seq_len) -> {side: row}, ok rows, points with a plain and a trainer row."""
    return {k: {name: rows[-1] for name, rows in v.items()} for k, v in process_term.sides(path, side).items()
            if "plain" in v and "trainer" in v}


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__.split("\n\n")[1])
    rows = process_term.term_rows(TERM_ROWS)
    workers = {(p["model"], p["technique"], p["batch"], p["seq_len"]): p
               for p in process_term.pairs(WORKER_PEAKS) if p["zero_grad"] == "zeros"}
    print("# transformers.Trainer (train_step.py --loop trainer) beside the plain loop (--loop plain), the")
    print("# published script's protocol, each a fresh process; MiB, whole process (VmHWM, baseline included).")
    print("# plain: --zero-grad zeros (the term's zeros row); none: the plain loop with --zero-grad none, the")
    print("# Trainer's model.zero_grad(); extra: trainer - plain; vs none: trainer - none.")
    print("# term: reports/process_term.c's zeros row for the plain loop at the point (the worker's peak from")
    print("# bench/results/process-term/peaks.csv); vs plan: the Trainer's peak - (the worker's peak + term).")
    print("# plan none: the worker measured with zero_grad none (the Trainer's) + the none row's term at its peak;")
    print("# vs it: the Trainer's peak - that plan, MiB and % of the Trainer's peak.")
    print(f"{'model':<14} {'technique':<10} {'b':>3} {'s':>5} {'plain_base':>10} {'plain_peak':>10} "
          f"{'none_peak':>9} {'trainer_base':>12} {'trainer_peak':>12} {'extra':>7} {'vs none':>7} "
          f"{'term':>7} {'vs plan':>8} {'plan_none':>9} {'vs it':>16}")
    extras, vs_none, vs_plan_none = [], [], []
    for key, s in loop_points(argv[1]).items():
        plain, trainer = float(s["plain"]["peak_rss_mib"]), float(s["trainer"]["peak_rss_mib"])
        extra = trainer - plain
        cls = process_term.technique_class(key[1])
        row, row_none = rows[cls, "zeros"], rows[cls, "none"]
        extras.append((extra, 2 * row.sd))
        none = float(s["none"]["peak_rss_mib"]) if "none" in s else None
        if none is not None:
            vs_none.append((trainer - none, 2 * row_none.sd))
        w = workers.get(key)
        term = plan = plan_none = against = ""
        if w:
            t = process_term.term_at(row, w["worker_peak"] - w["worker_baseline"])
            term, plan = f"{t:7.1f}", f"{trainer - (w['worker_peak'] + t):+8.1f}"
        if "worker_none" in s:
            wn = s["worker_none"]
            peak = float(wn["peak_rss_mib"])
            planned = peak + process_term.term_at(row_none, peak - float(wn["baseline_rss_mib"]))
            vs_plan_none.append((trainer - planned, 100 * (trainer - planned) / trainer))
            plan_none, against = f"{planned:9.1f}", f"{trainer - planned:+8.1f} ({vs_plan_none[-1][1]:+.2f}%)"
        print(f"{key[0]:<14} {key[1]:<10} {key[2]:>3} {key[3]:>5} {float(s['plain']['baseline_rss_mib']):>10.1f} "
              f"{plain:>10.1f} {'-' if none is None else f'{none:.1f}':>9} "
              f"{float(s['trainer']['baseline_rss_mib']):>12.1f} {trainer:>12.1f} {extra:>+7.1f} "
              f"{'-' if none is None else f'{trainer - none:+.1f}':>7} {term:>7} {plan:>8} {plan_none:>9} "
              f"{against:>16}")
    if not extras:
        sys.exit("no pair measured by both loops")
    print()
    if vs_none:
        print(f"# {verdict_line('over the plain loop with its zero_grad (set_to_none)', vs_none)}")
    print(f"# {verdict_line('over the plain loop with zero_grad zeros', extras)}")
    if vs_plan_none:
        mib, pct = [v[0] for v in vs_plan_none], [v[1] for v in vs_plan_none]
        print(f"# The Trainer against the plan from the worker at its zero_grad (none) + that row's term: {min(mib):+.1f} "
              f"to {max(mib):+.1f} MiB ({min(pct):+.2f}% to {max(pct):+.2f}% of its peak) over {len(mib)} points.")


def verdict_line(what, pairs):
    """pairs: (extra, the residual spread of its point's row of the term, 2 sd)."""
    extras, spreads = [e for e, _ in pairs], [s for _, s in pairs]
    verdict = "within it at every point" if all(abs(e) <= s for e, s in pairs) else "outside it at some point"
    return (f"The Trainer's extra {what}: {min(extras):+.1f} to {max(extras):+.1f} MiB over {len(extras)} "
            f"points, mean {sum(extras) / len(extras):+.1f}; each point's row of the term (that zero_grad's), its "
            f"residual spread 2 sd = {min(spreads):.1f} to {max(spreads):.1f} MiB: {verdict}.")


if __name__ == "__main__":
    main(sys.argv)

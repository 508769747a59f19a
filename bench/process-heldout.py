#!/usr/bin/env python3
"""Held-out points of a whole-process plan for a Python trainer, against calc.

    bench/process-heldout.py PEAKS_CSV    (PEAKFIT: the peakfit that plans)

PEAKS_CSV is bench/process-term.sh heldout's run: points off every grid the
plans are fitted from, each measured by a command job running
examples/transformers/train_step.py --build config (the published
SmolLM2-135M script's protocol, zero_grad zeros), and a few by its
transformers.Trainer loop (--loop trainer, zero_grad none: the Trainer frees
the gradients). For each point, calc's plan at its batch, seq_len and
zero_grad from the committed fit of its group (FITS below: fits measured on
this machine, as a user's plan is from their own machine's):
  - with --process python, the whole-process figure and its 95% interval
    against the script's whole-process peak (VmHWM, baseline included);
  - above the baseline the published protocol takes, a fresh Python process
    with torch imported (one thread; the median of three, measured here): the
    script's whole-process peak less that baseline against the Python
    trainer's whole-process plan less it (the script's figure above it holds
    the modules transformers and peft import after it, which a Python
    trainer's plan carries) and against the worker's fit above its own
    baseline (--process worker), the published table's comparison;
  - the worker's fit against the script's peak above its own baseline, which
    train_step.py takes after its libraries are imported (torch,
    transformers, its model's module, peft), and against the worker's own
    peak where the sweep measured the worker at the point: how much of that
    error is the fit's.
Full training is also planned from the committed reproduction
(bench/results/smollm2-135m-cpu-2.13, OTHER_MACHINE below), which was measured
on another CPU: shown, not judged.
Prints Markdown tables and the done-when checks: the plan within 3 % of the
runs' mean and every run inside the interval for the whole process; full
training with the published protocol within 1.5 % above the published
protocol's baseline, by the Python trainer's plan and by the worker's fit.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
process_term = __import__("process-term")  # peaks.csv's rows by point

# (model, technique, zero_grad): the committed results directory whose fit
# plans the point, and the options that pick its group there (calc is also
# given the point's zero_grad); each measured on the machine that measures
# the held-out points (calc says when one is not).
TERM = "bench/results/process-term"
SMOL, QWEN = (["--model", m, "--measured-by", "worker"] for m in ("SmolLM2-135M", "Qwen2.5-0.5B"))
FITS = {
    ("SmolLM2-135M", "full", "zeros"): (TERM, SMOL),
    ("SmolLM2-135M", "full+ckpt", "zeros"): ("bench/results/smollm2-135m-cpu-2.13-groups", []),
    ("SmolLM2-135M", "lora", "zeros"): ("bench/results/smollm2-135m-cpu-2.13-groups", []),
    ("Qwen2.5-0.5B", "lora", "zeros"): (TERM, QWEN),
    ("SmolLM2-135M", "full", "none"): (TERM, SMOL),
    ("SmolLM2-135M", "full+ckpt", "none"): (TERM, SMOL),
    ("SmolLM2-135M", "lora", "none"): (TERM, SMOL),
}
# The committed reproduction of the published grid, made on another CPU: its
# full-training plan beside the judged one.
OTHER_MACHINE = {
    ("SmolLM2-135M", "full", "zeros"): ("bench/results/smollm2-135m-cpu-2.13", ["--attention", "sdpa"]),
}
WHOLE_PCT, ABOVE_FULL_PCT = 3.0, 1.5


def plan(peakfit, fit, row, process):
    directory, extra = fit
    cmd = [peakfit, "calc", directory, "--budget", "1TiB", "--technique", row["technique"],
           "--micro-batch", row["batch"], "--seq-len", row["seq_len"], "--zero-grad", row["zero_grad"],
           "--process", process, "--json"] + extra
    done = subprocess.run(cmd, capture_output=True, text=True)
    if not done.stdout.strip():
        return {"error": done.stderr.strip()[:200]}
    return json.loads(done.stdout)


def torch_baseline():
    """VmRSS (MiB) of a fresh Python process with torch imported: the published
    protocol's baseline; the median of three."""
    code = ("import torch; torch.set_num_threads(1); "
            "print([l.split()[1] for l in open('/proc/self/status') if l.startswith('VmRSS:')][0])")
    runs = sorted(int(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                     check=True).stdout) / 1024.0 for _ in range(3))
    return runs[1]


def judge(peakfit, fit, runs, base):
    """calc's plans for one point from one fit against its runs: a dict of the
    figures, or {"error": why}."""
    py, worker = plan(peakfit, fit, runs[0], "python"), plan(peakfit, fit, runs[0], "worker")
    if "error" in py or "error" in worker:
        return {"error": py.get("error") or worker.get("error")}
    peaks = [float(x["peak_rss_mib"]) for x in runs]
    whole = sum(peaks) / len(peaks)
    own = sum(float(x["peak_above_baseline_mib"]) for x in runs) / len(runs)
    predicted, half = py["predicted_peak_mib"], py["predicted_peak_ci95_mib"]
    w_above = worker["predicted_peak_mib"] - worker["baseline_mib"]
    return dict(peaks=peaks, whole=whole, predicted=predicted, half=half,
                err=pct(predicted, whole),
                inside=half is not None and all(abs(predicted - p) <= half for p in peaks),
                own=own, w_above=w_above, err_own=pct(w_above, own), err_w_torch=pct(w_above, whole - base),
                torch_above=whole - base, py_above=predicted - base, err_torch=pct(predicted - base, whole - base),
                other_cpu=None if py.get("measured_on_this_machine", True) else py.get("measured_on_cpu"))


def pct(predicted, measured):
    return 100 * (predicted - measured) / measured


def interval(j):
    return f"± {j['half']:.1f}" if j["half"] is not None else "(no interval)"


WHOLE_HEAD = ("| point | fit | script's whole peak, mean of its runs (MiB) | its runs | "
              "plan for a Python trainer (95%) | error | every run inside |\n|---|---|---:|---|---:|---:|---|")
ABOVE_HEAD = ("| point | fit | script above the torch baseline | the Python plan less it | error | "
              "worker's fit above its baseline | error | script above its own baseline | the worker's fit's error | "
              "worker measured here | the fit against it |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")


def whole_row(name, fit, j):
    return (f"| {name} | {fit} | {j['whole']:.1f} | {', '.join(f'{p:.1f}' for p in j['peaks'])} | "
            f"{j['predicted']:.1f} {interval(j)} | {j['err']:+.2f}% | {'yes' if j['inside'] else 'NO'} |")


def above_row(name, fit, j):
    w = j.get("worker")
    measured = f"{w:.1f} | {pct(j['w_above'], w):+.2f}%" if w is not None else "— | —"
    return (f"| {name} | {fit} | {j['torch_above']:.1f} | {j['py_above']:.1f} | {j['err_torch']:+.2f}% | "
            f"{j['w_above']:.1f} | {j['err_w_torch']:+.2f}% | {j['own']:.1f} | {j['err_own']:+.2f}% | {measured} |")


def misses_of(name, technique, zero_grad, j):
    """The done-when checks a point missed; above the baseline, full training
    with the published protocol (zero_grad zeros)."""
    out = []
    if abs(j["err"]) > WHOLE_PCT or not j["inside"]:
        out.append(f"{name}: whole process {j['err']:+.2f}%{'' if j['inside'] else ', a run outside its interval'}")
    if technique == "full" and zero_grad == "zeros":
        for what, err in (("the Python plan", j["err_torch"]), ("the worker's fit", j["err_w_torch"])):
            if abs(err) > ABOVE_FULL_PCT:
                out.append(f"{name}: {what} above the baseline {err:+.2f}% (full training: within {ABOVE_FULL_PCT}%)")
    return out


def by_zero_grad(path):
    """peaks.csv's rows by point and zero_grad: (model, technique, batch,
    seq_len, zero_grad) -> the trainer's runs, the published protocol's
    (zeros) first; and -> the worker's peak above its baseline, where the
    worker measured the point too."""
    runs, worker = {}, {}
    for key, rows in process_term.points(path).items():
        for r in rows:
            at = key + (r["zero_grad"],)
            if r["measured_by"] != "worker":
                runs.setdefault(at, []).append(r)
            elif r["status"] == "ok":
                worker[at] = float(r["peak_above_baseline_mib"])
    return dict(sorted(runs.items(), key=lambda kv: kv[0][4] != "zeros")), worker


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__.split("\n\n")[1])
    peakfit = os.environ.get("PEAKFIT", "build-torch2/bin/peakfit")
    base = torch_baseline()
    judged, shown, misses, notes = [], [], [], set()
    points, worker = by_zero_grad(argv[1])
    for (model, technique, batch, seq_len, zero_grad), runs in points.items():
        loop = "" if zero_grad == "zeros" else f" (Trainer, zero_grad {zero_grad})"
        name = f"{model} {technique} b{batch} s{seq_len}{loop}"
        bad = [r for r in runs if r["status"] != "ok"]
        fit = FITS.get((model, technique, zero_grad))
        if bad or not fit:
            misses.append(f"{name}: " + (f"{bad[0]['status']} {bad[0]['error'][:80]}" if bad else "no committed fit"))
            continue
        j = judge(peakfit, fit, runs, base)
        if "error" in j:
            misses.append(f"{name}: calc refused ({j['error']})")
            continue
        j["worker"] = worker.get((model, technique, batch, seq_len, zero_grad))
        judged.append((name, fit[0], j))
        misses += misses_of(name, technique, zero_grad, j)
        if j["other_cpu"]:
            notes.add(f"{fit[0]} was measured on another CPU ({j['other_cpu']}): its intervals add "
                      "RSS's spread between machines")
        other = OTHER_MACHINE.get((model, technique, zero_grad))
        if other:
            o = judge(peakfit, other, runs, base)
            if "error" not in o:
                o["worker"] = j["worker"]
                shown.append((name, other[0], o))
    print("Whole process: calc --process python from the committed fits measured on this machine.")
    print()
    print(WHOLE_HEAD)
    print("\n".join(whole_row(*x) for x in judged))
    print()
    print(f"Above the baseline the published protocol takes (Python with torch imported, measured here: "
          f"{base:.1f} MiB): the Python trainer's whole-process plan less it, and the worker's fit above its "
          f"own baseline (calc --process worker). The worker's fit against the script's peak above the "
          f"script's own baseline (taken after transformers, its model's module and peft are imported), and "
          f"against the worker measured at the point where the sweep has it.")
    print()
    print(ABOVE_HEAD)
    print("\n".join(above_row(*x) for x in judged))
    if shown:
        print()
        print("Full training from the committed reproduction of the published grid (shown, not judged):")
        print()
        print(WHOLE_HEAD)
        print("\n".join(whole_row(*x) for x in shown))
        print()
        print(ABOVE_HEAD)
        print("\n".join(above_row(*x) for x in shown))
        notes |= {f"{fit} was measured on another CPU ({o['other_cpu']}): its intervals add RSS's spread "
                  "between machines" for _, fit, o in shown if o["other_cpu"]}
    if notes:
        print()
        print("\n".join(f"- {n}" for n in sorted(notes)))
    print()
    print(f"Judged: whole process, the plan within {WHOLE_PCT} % of the runs' mean and every run inside the "
          f"interval; full training with the published protocol above its baseline within {ABOVE_FULL_PCT} %, "
          f"by the Python trainer's plan and by the worker's fit.")
    print("Missed: " + "; ".join(misses) if misses else "Every point met both.")


if __name__ == "__main__":
    main(sys.argv)

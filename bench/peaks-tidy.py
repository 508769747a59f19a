#!/usr/bin/env python3
"""bench/auto-sweep.sh's step between a stage's runs: a results directory made
resumable by the peakfit that runs now, and the same in any checkout.

    PEAKFIT=bin/peakfit bench/peaks-tidy.py DIR...

In each DIR (and its subdirectories):
- peaks.csv loses the rows of a worker that was never started (status error,
  its error "cannot run ...": the worker binary was gone; not measurements,
  and the resumed run measures those points again);
- peaks.csv gains the columns of this peakfit (`peakfit columns`) that an
  older one did not write, each row's empty but measured_by's, "worker" (the
  only kind of job before the column existed);
- model_source, and a sweep file's `model =` line, name a file inside the
  repository relative to it (peaks.csv: to the repository's root; a sweep: to
  the sweep file), not as the absolute path of the checkout that ran it; so
  do the blas and command columns' paths inside the repository or its venv
  (.venv, wherever its link leads).
A file already tidy is left as it is (not rewritten). Prints what it changed."""
import csv
import io
import os
import re
import subprocess
import sys

ROOT = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
PEAKFIT = os.environ.get("PEAKFIT", os.path.join(ROOT, "bin/peakfit"))
DEFAULTS = {"measured_by": "worker"}


def current_columns():
    text = subprocess.run([PEAKFIT, "columns"], check=True, capture_output=True, text=True).stdout
    return re.findall(r"^\| `([a-z0-9_]+)` \|", text, re.M)


def relative(path, base):
    if os.path.isabs(path) and os.path.realpath(path).startswith(ROOT + os.sep):
        return os.path.relpath(os.path.realpath(path), base)
    return path


# Absolute prefixes a column's text may hold, and what they become: the venv's
# own location (where .venv's link leads, as the loader names its libraries)
# and the repository's root.
PREFIXES = [(os.path.realpath(os.path.join(ROOT, ".venv")) + os.sep, ".venv" + os.sep), (ROOT + os.sep, "")]


def in_repository(text):
    for prefix, short in PREFIXES:
        text = text.replace(prefix, short)
    return text


def write_if_changed(path, text, what):
    with open(path, newline="") as f:
        if f.read() == text:
            return
    with open(path, "w", newline="") as f:
        f.write(text)
    print(f"{os.path.relpath(path, ROOT)}: {what}")


def tidy_peaks(path, columns):
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        header, rows = list(reader.fieldnames or []), list(reader)
    kept = [r for r in rows if not (r["status"] == "error" and r.get("error", "").startswith("cannot run "))]
    added = [c for c in columns if c not in header]
    for r in kept:
        if r.get("model_source"):
            r["model_source"] = relative(r["model_source"], ROOT)
        for c in ("blas", "command"):
            if r.get(c):
                r[c] = in_repository(r[c])
        for c in added:
            r[c] = DEFAULTS.get(c, "")
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=header + added, lineterminator="\n")
    w.writeheader()
    w.writerows(kept)
    write_if_changed(path, out.getvalue(), f"{len(rows) - len(kept)} rows of a worker never started dropped, "
                     f"columns added: {' '.join(added) or 'none'}, model paths relative")


def tidy_sweep(path):
    with open(path) as f:
        lines = f.read().split("\n")
    base = os.path.dirname(os.path.realpath(path))
    lines = [re.sub(r"^(model\s*=\s*)(/\S+)$", lambda m: m.group(1) + relative(m.group(2), base), s) for s in lines]
    write_if_changed(path, "\n".join(lines), "model path relative to the sweep file")


def main(dirs):
    if not dirs:
        sys.exit(__doc__.split("\n\n")[1].strip())
    columns = current_columns()
    for d in dirs:
        for folder, _, files in os.walk(d):
            for name in sorted(files):
                if name == "peaks.csv":
                    tidy_peaks(os.path.join(folder, name), columns)
                elif name.endswith(".sweep"):
                    tidy_sweep(os.path.join(folder, name))


main(sys.argv[1:])

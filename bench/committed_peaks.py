"""The peaks.csv files under bench/results/ as committed at a commit (bench/rss-gap-shape.py,
bench/rss-between-runs.py): an analysis of the results of its day reads the same rows
whatever was committed after it. Run from anywhere inside the repository."""
import csv
import io
import os
import subprocess

ROOT = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def git(*args):
    return subprocess.run(["git", "-C", ROOT, *args], check=True, capture_output=True, text=True).stdout


def committed_peaks(base):
    """[(path relative to the repository, [rows as dicts])] of every bench/results/**/peaks.csv at BASE."""
    paths = sorted(p for p in git("ls-tree", "-r", "--name-only", base, "bench/results").split("\n")
                   if p.endswith("/peaks.csv"))
    return [(p, list(csv.DictReader(io.StringIO(git("show", f"{base}:{p}"))))) for p in paths]

#!/usr/bin/env python3
"""check_result.py COMMITTED NEW NOISE: whether NEW, an entry's result made
again (a file, or a directory of files), is COMMITTED within the noise its
row of bench/entries.tsv states (bench/check runs it):

  exact      every line the same;
  N %        the same files and lines with every figure masked, and each
             figure within N % of the committed one (or within N / 100 of
             it, for figures near zero);
  structure  the same files and lines with every figure masked (timings:
             the figures are the machine's moment, only their shape is
             the entry's);
  NOISE, verdicts
             NOISE (N % or structure), and the verdicts peakfit draws from
             a figure at its threshold are the figure's moment too: the
             words yes, no, inside and outside (is a measured point inside
             its interval), and the fit's flag "R^2 ... below ...: the fit
             explains the peaks poorly" (present or not).

A figure is a number, its unit glued on or not (82.8x, 115s). Beyond
exact, a line of a run's progress that only a slow point prints
("peakfit: still running point ...", every so many seconds) is the
machine's moment: left out of both sides. A line of
markup (an SVG's, report.html's: it starts with "<") is a drawing: every
number in it is a coordinate, masked, never compared as a figure.

Everywhere: a file's first line that names its entry ("bench/run NAME:"),
a directory's ENTRY file and hidden files (its lock), date-times (2026-12-07T08:57:45Z, 2026-12-07
08:57) and commit hashes (9d27b87) are the run's own and not compared; NEW's own path reads as
COMMITTED as given (bench/check gives it relative to the repository, as an entry's output names it). A file that is not text is compared by its presence alone.
Prints each difference (file:line and the two texts or figures) and a last
line; exits 0 when NEW is within the noise, 1 when not, 2 for bad usage."""
import os
import re
import sys

NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?(?!\.?\d)")
ANY_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")
MARKUP = re.compile(r"^\s*<")
# A relative path in a line (a sweep's model = ../../tests/...): the same
# file named from the result's place and from the scratch folder's.
RELATIVE_PATH = re.compile(r"(?:\.\./)+[\w.+/-]+")
DATE_TIME = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:\.\d+)?Z?)?")
# A commit's short or long hash: the run's own, as its date is.
# Not a number's digits and exponent (1.6077746776921858e-13).
COMMIT = re.compile(r"(?<![\w.])(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}(?!\w|[-+]\d)")
MOST_SHOWN = 20
# Verdicts on a figure (", verdicts"): a word, and a flag that comes and goes.
VERDICT_WORD = re.compile(r"(?<![\w-])(?:yes|no|inside|outside)(?![\w-])")
VERDICT_FLAG = re.compile(r"(?:; )?R\^2 [-+.\deE]+ below [-+.\deE]+: the fit explains the peaks poorly")


def parse_noise(text):
    """(kind, fraction, verdicts): exact, structure or percent; N % as a
    fraction; whether verdicts on figures are noise too."""
    text = text.strip()
    base, verdicts = re.subn(r", verdicts$", "", text)
    if base == "exact" and not verdicts:
        return "exact", 0.0, False
    if base == "structure":
        return "structure", 0.0, bool(verdicts)
    match = re.fullmatch(r"(\d+(?:\.\d+)?) ?%", base)
    if not match:
        sys.exit(f"check_result.py: noise must be exact, structure or N % (the last two may add \", verdicts\"), "
                 f"not {text!r}")
    return "percent", float(match.group(1)) / 100, bool(verdicts)


def files_of(path):
    """Relative paths of the result's files (a file result: its own name)."""
    if os.path.isfile(path):
        return {os.path.basename(path): path}
    found = {}
    for root, _, names in os.walk(path):
        for name in names:
            if name.startswith("."):  # a run's own (the output directory's lock)
                continue
            full = os.path.join(root, name)
            rel = os.path.relpath(full, path)
            if rel != "ENTRY":
                found[rel] = full
    return found


def text_lines(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read().splitlines()
    except UnicodeDecodeError:
        return None


def names_its_entry(line):
    return re.search(r"bench/run [\w.+-]+: ", line) is not None


def own_masked(line):
    return COMMIT.sub("%", DATE_TIME.sub("@", line))


def skeleton(line, verdicts=False):
    """The line's shape: its figures masked (a markup line's every number),
    and the spaces that align a column (a wider figure takes one more) as
    one; with verdicts, a verdict word masked and a verdict flag left out."""
    numbers = ANY_NUMBER if MARKUP.match(line) else NUMBER
    if verdicts:
        line = VERDICT_WORD.sub("?", VERDICT_FLAG.sub("", line))
    return re.sub(r"[ \t]+", " ", numbers.sub("#", own_masked(line)))


def figures(line, verdicts=False):
    if MARKUP.match(line):
        return []
    if verdicts:  # a flag's figures come and go with it
        line = VERDICT_FLAG.sub("", line)
    return [float(x) for x in NUMBER.findall(own_masked(line))]


def as_committed(line, new_file, committed_file):
    """NEW's line with each relative path named from COMMITTED's folder,
    where it names the same file from NEW's (scratch folders lie
    elsewhere)."""
    def rename(match):
        target = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(new_file)), match.group(0)))
        return os.path.relpath(target, os.path.dirname(os.path.abspath(committed_file)))
    return RELATIVE_PATH.sub(rename, line)


def within(a, b, fraction):
    return abs(a - b) <= fraction * max(abs(a), abs(b), 1.0)


PROGRESS = re.compile(r"^peakfit: still running point ")


def compare_lines(rel, old, new, noise, report):
    kind, fraction, verdicts = noise
    first = 1
    if kind != "exact":
        old = [line for line in old if not PROGRESS.match(line)]
        new = [line for line in new if not PROGRESS.match(line)]
    if old and new and names_its_entry(old[0]) and names_its_entry(new[0]):
        old, new, first = old[1:], new[1:], 2
    if len(old) != len(new):
        report(f"{rel}: {len(new)} lines, the committed {len(old)}")
        return
    for i, (a, b) in enumerate(zip(old, new), start=first):
        if kind == "exact":
            if own_masked(a) != own_masked(b):
                report(f"{rel}:{i}: {b!r}, committed {a!r}")
            continue
        if skeleton(a, verdicts) != skeleton(b, verdicts):
            report(f"{rel}:{i}: another line: {b!r}, committed {a!r}")
            continue
        if kind == "percent":
            for x, y in zip(figures(a, verdicts), figures(b, verdicts)):
                if not within(x, y, fraction):
                    report(f"{rel}:{i}: {y:g}, committed {x:g} ({(y - x) / max(abs(x), 1e-12):+.1%})")


def main(argv):
    if len(argv) != 4:
        print(__doc__.split("\n\n")[0], file=sys.stderr)
        return 2
    committed, new, noise = argv[1], argv[2], argv[3]
    parsed = parse_noise(noise)
    differences = []

    def report(text):
        differences.append(text)
        if len(differences) <= MOST_SHOWN:
            print(text)

    old_files, new_files = files_of(committed), files_of(new)
    for rel in sorted(set(old_files) - set(new_files)):
        report(f"{rel}: committed, not made again")
    for rel in sorted(set(new_files) - set(old_files)):
        report(f"{rel}: made again, not committed")
    for rel in sorted(set(old_files) & set(new_files)):
        old, fresh = text_lines(old_files[rel]), text_lines(new_files[rel])
        if old is None or fresh is None:
            continue
        fresh = [as_committed(line.replace(os.path.abspath(new), committed), new_files[rel], old_files[rel])
                 for line in fresh]
        compare_lines(rel, old, fresh, parsed, report)
    if len(differences) > MOST_SHOWN:
        print(f"... and {len(differences) - MOST_SHOWN} more")
    verdict = "within" if not differences else f"{len(differences)} difference{'s' * (len(differences) != 1)} beyond"
    print(f"{len(old_files)} file{'s' * (len(old_files) != 1)}: {verdict} the noise the entry states ({noise})")
    return 0 if not differences else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""examples/test_peakfit_report.py: peakfit_report.py against toys whose peaks are known.

Run by tests/peakfit_report_test.sh (needs torch). Checks that the live
tensor peak is exact on plain allocations, right on a small autograd graph
(forward keeps exp's output; backward adds x's gradient), that phases
restart from the level at their start, that the helper writes only keys
peakfit's runner reads (protocol/point_result.c), and nothing without
PEAKFIT_REPORT_FD.
"""
import os
import tempfile
import unittest.mock
import re
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import torch  # noqa: E402

import peakfit_report  # noqa: E402
from peakfit_report import KEYS, LiveTensorPeak, Report  # noqa: E402

MIB = 1 << 20
SCALARS = 64  # room for autograd's scalars (the loss, its gradient of ones)


def read_lines(fd):
    os.close(fd[1])
    with os.fdopen(fd[0]) as f:
        return [line.rstrip("\n") for line in f]


class LiveTensorPeakTest(unittest.TestCase):
    def test_plain_allocations_peak_exactly(self):
        t = LiveTensorPeak()
        a = torch.empty(1 * MIB, dtype=torch.uint8)
        b = torch.empty(2 * MIB, dtype=torch.uint8)
        del a
        c = torch.empty(3 * MIB, dtype=torch.uint8)  # b + c live: 5 MiB
        del b, c
        d = torch.empty(4 * MIB, dtype=torch.uint8)
        del d
        peak, _ = t.stop()
        self.assertEqual(peak, 5 * MIB)

    def test_autograd_graph(self):
        n = 1 << 20
        x = torch.ones(n, requires_grad=True)  # before: not counted
        t = LiveTensorPeak()
        with t.window("forward"):
            loss = x.exp().sum()  # exp keeps its output for backward: n floats
        with t.window("backward"):
            loss.backward()  # exp's output and x.grad: 2n floats
        peak, phases = t.stop()
        self.assertGreaterEqual(phases["forward"], 4 * n)
        self.assertLess(phases["forward"], 4 * n + SCALARS)
        self.assertGreaterEqual(phases["backward"], 8 * n)
        self.assertLess(phases["backward"], 8 * n + SCALARS)
        self.assertEqual(peak, phases["backward"])

    def test_a_window_counts_from_its_start_level(self):
        t = LiveTensorPeak()
        kept = torch.empty(3 * MIB, dtype=torch.uint8)
        with t.window("optimizer"):
            pass  # allocates nothing: its peak is what was live
        peak, phases = t.stop()
        self.assertEqual(phases["optimizer"], 3 * MIB)
        self.assertEqual(peak, 3 * MIB)
        del kept

    def test_the_highest_window_of_a_name_stands(self):
        t = LiveTensorPeak()
        for size in (2, 5, 1):
            with t.window("forward"):
                del_me = torch.empty(size * MIB, dtype=torch.uint8)
                del del_me
        _, phases = t.stop()
        self.assertEqual(phases["forward"], 5 * MIB)


class ReportTest(unittest.TestCase):
    def test_lines_on_the_descriptor(self):
        fd = os.pipe()
        r = Report(fd=fd[1])
        with r.step():
            with r.phase("forward"):
                a = torch.empty(2 * MIB, dtype=torch.uint8)
            with r.phase("backward"):
                b = torch.empty(1 * MIB, dtype=torch.uint8)
        del a, b
        r.loss(torch.tensor(2.5))
        r.finish()
        r.finish()  # once
        lines = read_lines(fd)
        values = dict(line.split("=", 1) for line in lines)
        self.assertEqual(values["tensor_peak_bytes"], str(3 * MIB))
        self.assertEqual(values["forward_peak_bytes"], str(2 * MIB))
        self.assertEqual(values["backward_peak_bytes"], str(3 * MIB))
        self.assertNotIn("optimizer_peak_bytes", values)
        self.assertEqual(values["baseline_tensor_bytes"], "0")
        self.assertEqual(values["loss"], "2.500000")
        self.assertGreater(int(values["peak_rss_kib"]), 0)
        self.assertGreater(int(values["baseline_rss_kib"]), 0)
        self.assertEqual(sum(1 for line in lines if line.startswith("step_s=")), 1)
        self.assertEqual(sum(1 for line in lines if line.startswith("tensor_peak_bytes=")), 1)

    def test_error_is_reported_and_raised(self):
        fd = os.pipe()
        with self.assertRaises(RuntimeError):
            with Report(fd=fd[1]):
                raise RuntimeError("out of\nmemory")
        lines = read_lines(fd)
        self.assertIn("error=RuntimeError: out of memory", lines)
        self.assertTrue(any(line.startswith("tensor_peak_bytes=") for line in lines))

    def test_nothing_without_the_descriptor(self):
        os.environ.pop("PEAKFIT_REPORT_FD", None)
        r = Report()
        self.assertIsNone(r.fd)
        r.line("loss", 1.0)  # no descriptor: nothing, no error
        r.finish()

    def test_a_rank_writes_its_own_file_never_the_inherited_descriptor(self):
        # torchrun's workers inherit PEAKFIT_REPORT_FD=3 but not descriptor 3:
        # whatever the worker opened as fd 3 must not get report lines.
        with tempfile.TemporaryDirectory() as d:
            env = {"PEAKFIT_REPORT_FD": "3", "RANK": "1"}
            with unittest.mock.patch.dict(os.environ, env):
                os.environ.pop("PEAKFIT_REPORT_DIR", None)
                self.assertIsNone(Report(tensor_peak=False).fd)
                os.environ["PEAKFIT_REPORT_DIR"] = d
                r = Report(tensor_peak=False)
                r.line("loss", "1.5")
                os.close(r.fd)
            with open(os.path.join(d, "rank-1.report")) as f:
                lines = f.read().splitlines()
        self.assertEqual(lines[-1], "loss=1.5")
        self.assertTrue(lines[0].startswith("torch_version="))

    def test_unknown_key_and_phase_refused(self):
        r = Report(fd=None, tensor_peak=False)
        with self.assertRaisesRegex(ValueError, "unknown key 'peak'"):
            r.line("peak", 1)
        with self.assertRaisesRegex(ValueError, "unknown phase 'fwd'"):
            with r.phase("fwd"):
                pass

    def test_long_values_stay_one_line(self):
        fd = os.pipe()
        r = Report(fd=fd[1], tensor_peak=False)
        r.line("error", "x" * 5000)
        lines = read_lines(fd)
        self.assertEqual(len(lines[-1]), peakfit_report.MAX_LINE - 1)

    def test_keys_are_the_ones_peakfit_reads(self):
        source = os.path.join(HERE, "..", "protocol", "worker_report.h")  # the report table
        with open(source) as f:
            text = f.read()
        known = set(re.findall(r'X\((\w+), (?:KIB|BYTES|COUNT|INT|REAL|TEXT|STEP),', text))
        known |= {f"{p}_peak_bytes" for p in peakfit_report.PHASES}  # the PHASE_BYTES row, per phase
        self.assertTrue(KEYS <= known, f"keys peakfit does not read: {sorted(KEYS - known)}")


if __name__ == "__main__":
    unittest.main(verbosity=1)

"""peakfit_report.py: report what your own training script measured to peakfit.

peakfit runs a sweep's `command` in a fresh process per point and passes it a
pipe in the environment variable PEAKFIT_REPORT_FD, and a directory in
PEAKFIT_REPORT_DIR. This helper writes `key=value` lines with the same keys
peakfit's built-in worker reports (protocol/point_result.c), read from PyTorch's
own counters: on the pipe, or, in a process a launcher started (RANK in its
environment: torchrun's workers, which inherit the variable but not the
descriptor), to its own file PEAKFIT_REPORT_DIR/rank-R.report. peakfit
records each rank's peak and fits the largest. Without either it writes
nothing, so the script runs unchanged by hand.

    from peakfit_report import Report

    report = Report()                     # before the model: the baseline
    model = build_model(); optimizer = ...
    report.model(model, optimizer)        # params, weight and AdamW bytes
    for _ in range(steps):
        with report.step():               # step_s
            with report.phase("forward"):
                loss = model(**batch).loss
            with report.phase("backward"):
                loss.backward()
            with report.phase("optimizer"):
                optimizer.step()
            optimizer.zero_grad(set_to_none=True)
        report.loss(loss)
    report.finish()                       # the peaks

What each key means:
  baseline_rss_kib   RSS when Report() was made (imports done, model not built);
                     VmHWM is restarted there (Linux), so peak_rss_kib is the
                     peak of what followed.
  tensor_peak_bytes  the peak of live CPU tensor storage since Report(), from
                     the CPU allocator's own running total (PyTorch's profiler
                     with profile_memory: every allocation of c10's CPU
                     allocator, kernels' scratch tensors included, which is
                     what peakfit's counting allocator counts). Reported above
                     the baseline: baseline_tensor_bytes is 0.
  forward_peak_bytes, backward_peak_bytes, optimizer_peak_bytes
                     the same peak within each phase you mark (highest over
                     the steps), counted from the level at the phase's start.
  gpu_allocated_peak_bytes, gpu_reserved_peak_bytes
                     CUDA: torch.cuda.max_memory_allocated/reserved since
                     Report(); MPS: the largest torch.mps.current/driver
                     allocated memory seen at the end of a phase (MPS keeps
                     no peak).
  step_s, loss       one line per step; the last loss stands.
  error              what went wrong, when Report is used as a context
                     manager and the block raises (the peaks so far follow).

Set PEAKFIT_TENSOR_PEAK=0 to turn the CPU tensor count off (it records every
operator, which costs a little time).
"""
import contextlib
import os
import time

import torch

# The keys the built-in worker reports (protocol/point_result.c); peakfit
# refuses any other, so this helper refuses them first.
KEYS = frozenset((
    "baseline_rss_kib", "peak_rss_kib", "baseline_tensor_bytes", "tensor_peak_bytes",
    "forward_peak_bytes", "backward_peak_bytes", "optimizer_peak_bytes", "step_s", "loss",
    "torch_version", "params", "trainable_params", "weight_bytes", "grad_bytes", "optimizer_bytes",
    "build_s", "gpu_allocated_peak_bytes", "gpu_reserved_peak_bytes", "gpu_total_bytes", "gpu_name",
    "cuda_version", "error"))
PHASES = ("forward", "backward", "optimizer")
MAX_LINE = 1024  # as the worker: one write under PIPE_BUF, so lines never interleave


def _proc_status_kib(field):
    """A VmRSS/VmHWM line of /proc/self/status in KiB; None off Linux."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def _restart_peak_rss():
    """VmHWM starts again from the current RSS (Linux >= 4.0)."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass  # the peak is then an upper bound


class LiveTensorPeak:
    """The peak of live CPU tensor bytes, from the CPU allocator's own total.

    PyTorch's profiler with profile_memory=True records every allocation and
    free of c10's CPU allocator with the running total of the bytes allocated
    since it started; the peak is the largest total. Windows (phases) are
    marked with record_function and read from the same timeline.
    """

    def __init__(self):
        self._profiler = torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU],
                                                profile_memory=True)
        self._profiler.__enter__()
        self._result = None

    def window(self, name):
        return torch.profiler.record_function("peakfit." + name)

    def stop(self):
        """Stops recording; returns (peak, {window name: peak within it})."""
        if self._result is None:
            self._profiler.__exit__(None, None, None)
            self._result = self._read(self._profiler.profiler.kineto_results.experimental_event_tree())
        return self._result

    @staticmethod
    def _read(tree):
        from torch._C._profiler import _EventType
        allocations, windows, todo = [], [], list(tree)
        while todo:
            node = todo.pop()
            todo.extend(node.children)
            if node.tag == _EventType.Allocation and node.extra_fields.device.type == "cpu":
                f = node.extra_fields
                allocations.append((node.start_time_ns, f.total_allocated, f.alloc_size))
            elif node.tag == _EventType.TorchOp and node.name.startswith("peakfit."):
                windows.append((node.name[len("peakfit."):], node.start_time_ns, node.end_time_ns))
        allocations.sort()
        # The allocator's total outlives a profiler: an earlier one in this
        # process leaves its still-live blocks in it. Count from the level
        # before the first event.
        start = allocations[0][1] - allocations[0][2] if allocations else 0
        allocations = [(t, total - start) for t, total, _ in allocations]
        peak = max([0] + [total for _, total in allocations])
        return peak, LiveTensorPeak._window_peaks(allocations, windows)

    @staticmethod
    def _window_peaks(allocations, windows):
        peaks = {}
        for name, start, end in windows:
            level = 0  # the total when the window opened: it counts too
            top = 0
            for t, total in allocations:
                if t < start:
                    level = total
                elif t <= end:
                    top = max(top, total)
                else:
                    break
            peaks[name] = max(peaks.get(name, 0), level, top)
        return peaks


def report_channel(rank=None):
    """The descriptor report lines go to, or None (nothing is written).

    A rank (rank given, or RANK in the environment) writes its own file in
    PEAKFIT_REPORT_DIR; never to PEAKFIT_REPORT_FD, which a launcher's
    worker inherits without the descriptor (its fd 3 may be any file it
    opened). Another process writes to PEAKFIT_REPORT_FD.
    """
    if rank is None:
        rank = os.environ.get("RANK")
    if rank is not None:
        directory = os.environ.get("PEAKFIT_REPORT_DIR")
        if not directory:
            return None
        path = os.path.join(directory, f"rank-{int(rank)}.report")
        return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o644)
    fd = os.environ.get("PEAKFIT_REPORT_FD")
    return int(fd) if fd else None


class Report:
    """Measures from here on and writes peakfit's report lines (see above)."""

    def __init__(self, device="cpu", fd=None, tensor_peak=None):
        self.fd = report_channel() if fd is None else int(fd)
        self.device = torch.device(device)
        self._gpu_samples = [0, 0]
        self._grad_bytes = None
        self._finished = False
        self.line("torch_version", torch.__version__)
        self._gpu_baseline()
        self.line("baseline_rss_kib", _proc_status_kib("VmRSS"))
        _restart_peak_rss()
        if tensor_peak is None:
            tensor_peak = os.environ.get("PEAKFIT_TENSOR_PEAK", "1") != "0"
        self.tensors = LiveTensorPeak() if tensor_peak else None
        if self.tensors:
            self.line("baseline_tensor_bytes", 0)

    def line(self, key, value):
        """Writes key=value (None writes nothing); a key peakfit does not know is a ValueError."""
        if key not in KEYS:
            raise ValueError(f"peakfit_report: unknown key {key!r} (known: {', '.join(sorted(KEYS))})")
        if value is None or self.fd is None:
            return
        text = f"{key}={value}".replace("\n", " ").replace("\r", " ")
        os.write(self.fd, (text[:MAX_LINE - 1] + "\n").encode())

    def _gpu_baseline(self):
        if self.device.type == "cuda":
            torch.cuda.synchronize(self.device)
            torch.cuda.reset_peak_memory_stats(self.device)
            props = torch.cuda.get_device_properties(self.device)
            self.line("gpu_name", props.name)
            self.line("gpu_total_bytes", props.total_memory)
            self.line("cuda_version", torch.version.cuda)

    def _sample_mps(self):
        if self.device.type == "mps" and hasattr(torch, "mps") and hasattr(torch.mps, "current_allocated_memory"):
            now = (torch.mps.current_allocated_memory(), torch.mps.driver_allocated_memory())
            self._gpu_samples = [max(a, b) for a, b in zip(self._gpu_samples, now)]

    @contextlib.contextmanager
    def phase(self, name):
        """Marks a phase: forward, backward or optimizer."""
        if name not in PHASES:
            raise ValueError(f"peakfit_report: unknown phase {name!r} (phases: {', '.join(PHASES)})")
        with self.tensors.window(name) if self.tensors else contextlib.nullcontext():
            yield
        if name == "backward" and getattr(self, "_params", None):
            self._grad_bytes = sum(p.grad.nbytes for p in self._params if p.grad is not None)
        self._sample_mps()

    @contextlib.contextmanager
    def step(self):
        """Times one step: step_s."""
        t0 = time.perf_counter()
        yield
        if self.device.type == "cuda":
            torch.cuda.synchronize(self.device)
        self.line("step_s", f"{time.perf_counter() - t0:.6f}")

    def loss(self, loss):
        value = float(loss.detach().float()) if torch.is_tensor(loss) else float(loss)
        self.line("loss", f"{value:.6f}")

    def build_time(self, seconds):
        self.line("build_s", f"{seconds:.6f}")

    def model(self, model, optimizer=None):
        """params, trainable_params, weight_bytes and, with an optimizer, optimizer_bytes
        (its state tensors but the step counters: AdamW's two moments)."""
        params = list(model.parameters())
        self._params = params
        self.line("params", sum(p.numel() for p in params))
        self.line("trainable_params", sum(p.numel() for p in params if p.requires_grad))
        self.line("weight_bytes", sum(p.nbytes for p in params))
        if optimizer is not None:
            self.line("optimizer_bytes", sum(v.nbytes for s in optimizer.state.values()
                                             for k, v in s.items() if torch.is_tensor(v) and k != "step"))

    def finish(self):
        """Writes the peaks; once."""
        if self._finished:
            return
        self._finished = True
        if self._grad_bytes is not None:
            self.line("grad_bytes", self._grad_bytes)
        self.line("peak_rss_kib", _proc_status_kib("VmHWM"))
        if self.tensors:
            peak, phases = self.tensors.stop()
            self.line("tensor_peak_bytes", peak)
            for name in PHASES:
                if name in phases:
                    self.line(f"{name}_peak_bytes", phases[name])
        self._gpu_peaks()

    def _gpu_peaks(self):
        if self.device.type == "cuda":
            torch.cuda.synchronize(self.device)
            self.line("gpu_allocated_peak_bytes", torch.cuda.max_memory_allocated(self.device))
            self.line("gpu_reserved_peak_bytes", torch.cuda.max_memory_reserved(self.device))
        elif self.device.type == "mps":
            self._sample_mps()
            self.line("gpu_allocated_peak_bytes", self._gpu_samples[0])
            self.line("gpu_reserved_peak_bytes", self._gpu_samples[1])

    def __enter__(self):
        return self

    def __exit__(self, kind, value, _traceback):
        if value is not None:
            self.line("error", f"{kind.__name__}: {value}")
        self.finish()
        return False

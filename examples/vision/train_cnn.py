#!/usr/bin/env python3
"""train_cnn.py: a plain PyTorch image classifier's training step, measured for peakfit.

No transformers, no sequence: a small residual CNN written here, random
images and labels, cross-entropy, AdamW. A peakfit command job without
seq_len runs it at each batch, and the fit is per sample:

    [global]
    model = my-cnn
    technique = full
    batch = 1, 2, 4, 8, 16

    [cnn]
    command = python3 examples/vision/train_cnn.py --batch {batch}

(sweeps/my-cnn-cpu.sweep). It reports through examples/peakfit_report.py on
the descriptor peakfit passes (nothing without it, so it runs by hand too):
the live CPU tensor peak and its per-phase peaks, params and the bytes of
weights, gradients and AdamW's state.
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import torch  # noqa: E402
from torch import nn  # noqa: E402

from peakfit_report import Report  # noqa: E402


class Block(nn.Module):
    """Two 3x3 convolutions with batch norm and a shortcut (ResNet's basic block)."""

    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.shortcut = nn.Sequential()
        if stride != 1 or cin != cout:
            self.shortcut = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        y = torch.relu(self.bn1(self.conv1(x)))
        return torch.relu(self.bn2(self.conv2(y)) + self.shortcut(x))


class SmallResNet(nn.Module):
    """A stem and three stages of two blocks (width, 2x, 4x), pooled, one linear layer."""

    def __init__(self, width, classes):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, width, 3, 1, 1, bias=False), nn.BatchNorm2d(width), nn.ReLU())
        stages, cin = [], width
        for i, cout in enumerate((width, 2 * width, 4 * width)):
            stages += [Block(cin, cout, 1 if i == 0 else 2), Block(cout, cout, 1)]
            cin = cout
        self.stages = nn.Sequential(*stages)
        self.head = nn.Linear(cin, classes)

    def forward(self, x):
        return self.head(torch.flatten(nn.functional.adaptive_avg_pool2d(self.stages(self.stem(x)), 1), 1))


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--batch", type=int, required=True)
    p.add_argument("--image-size", type=int, default=64, help="square RGB images of this side")
    p.add_argument("--width", type=int, default=32, help="channels of the first stage")
    p.add_argument("--classes", type=int, default=100)
    p.add_argument("--steps", type=int, default=2)
    p.add_argument("--threads", type=int, default=0, help="intra-op threads (0: PyTorch's default)")
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args(argv)
    if min(a.batch, a.image_size, a.width, a.classes, a.steps) <= 0:
        p.error("--batch, --image-size, --width, --classes and --steps must be positive")
    return a


def main(argv):
    a = parse_args(argv)
    if a.threads:
        torch.set_num_threads(a.threads)
    warm = torch.ones(64, 64)
    (warm @ warm).sum().item()  # the thread pools exist before the baseline
    del warm
    torch.manual_seed(a.seed)
    with Report() as report:
        t0 = time.perf_counter()
        model = SmallResNet(a.width, a.classes).train()
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, foreach=False)
        report.build_time(time.perf_counter() - t0)
        report.model(model)  # params and weights; the gradients' bytes after each backward
        for _ in range(a.steps):
            images = torch.randn(a.batch, 3, a.image_size, a.image_size)
            labels = torch.randint(a.classes, (a.batch,))
            with report.step():
                with report.phase("forward"):
                    loss = nn.functional.cross_entropy(model(images), labels)
                with report.phase("backward"):
                    loss.backward()
                with report.phase("optimizer"):
                    optimizer.step()
                optimizer.zero_grad(set_to_none=True)
            report.loss(loss)
        report.model(model, optimizer)  # AdamW's state exists after the first step
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

# SPDX-License-Identifier: MIT
"""What the hand-run calibration and prior scripts of bench/ share (eb_strength.py,
calibration_bounds.py): the shared and development crowds as numpy arrays, and the
expected calibration error as the accuracy table measures it."""

import glob
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_DIRS = [os.path.join(HERE, "..", "..", "shared", d) for d in ("datasets", "datasets-dev")]


def crowd_paths(dirs):
    """Every NAME_crowd.txt under dirs, sorted; SystemExit when there is none."""
    paths = sorted(p for d in dirs for p in glob.glob(os.path.join(d, "*_crowd.txt")))
    if not paths:
        raise SystemExit("no NAME_crowd.txt under %s" % ", ".join(dirs))
    return paths


def load(crowd_path):
    """0-based (item, worker, label) of NAME_crowd.txt and (items, labels) of its
    NAME_truth.txt (both 1-based `item worker label` / `item label` lines)."""
    raw = np.loadtxt(crowd_path, dtype=np.int64, ndmin=2)
    t = np.loadtxt(crowd_path.replace("_crowd.txt", "_truth.txt"), dtype=np.int64, ndmin=2)
    return raw[:, 0] - 1, raw[:, 1] - 1, raw[:, 2] - 1, t[:, 0] - 1, t[:, 1] - 1


def ece(posteriors, truth_items, truth_labels, bins=10):
    """Expected calibration error: 10 equal-width bins of the top posterior, the items
    with truth."""
    p = posteriors[truth_items]
    confidence, right = p.max(axis=1), p.argmax(axis=1) == truth_labels
    which = np.minimum((confidence * bins).astype(int), bins - 1)
    return sum(abs(confidence[which == b].mean() - right[which == b].mean()) * np.count_nonzero(which == b)
               for b in range(bins) if np.any(which == b)) / confidence.size

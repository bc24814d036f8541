# SPDX-License-Identifier: MIT
"""Shared fixtures: the library, the project's header, the shared datasets."""

import os

import numpy as np
import pytest

import crowdspec

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
# The shared data sets: CROWDSPEC_DATASETS_DIR, as in every binding's tests (the older
# CROWDSPEC_DATASETS still works), else ../shared/datasets beside the project.
DATASETS = (os.environ.get("CROWDSPEC_DATASETS_DIR") or os.environ.get("CROWDSPEC_DATASETS")
            or os.path.normpath(os.path.join(PROJECT, "..", "shared", "datasets")))
INCLUDE = os.path.join(PROJECT, "include")


def pytest_report_header(config):
    return "crowdspec library: %s (version %s)" % (crowdspec.library_path(),
                                                     crowdspec.version())


def simulate(n_items=300, n_workers=20, k=3, labels_per_item=6, seed=1, accuracy=(0.55, 0.9)):
    """Dawid-Skene crowd labels with known truth: (item, worker, label, truth)."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, n_items)
    conf = np.empty((n_workers, k, k))
    for i in range(n_workers):
        acc = rng.uniform(*accuracy, size=k)
        for l in range(k):
            off = rng.dirichlet(np.ones(k - 1)) * (1 - acc[l])
            conf[i, l] = np.insert(off, l, acc[l])
    items, workers, labels = [], [], []
    for j in range(n_items):
        for i in rng.choice(n_workers, labels_per_item, replace=False):
            items.append(j)
            workers.append(i)
            labels.append(rng.choice(k, p=conf[i, truth[j]]))
    return (np.array(items, np.int32), np.array(workers, np.int32),
            np.array(labels, np.int32), truth)


def by_item_then_worker(item, worker, label):
    """The rows sorted by item, then worker (numpy's stable lexsort): the order the
    library puts each item's labels in, so a frame's fit is fit_labels on these rows
    (or on the same rows in any order) bit for bit."""
    order = np.lexsort((worker, item))
    return item[order], worker[order], label[order]


@pytest.fixture(scope="session")
def crowd():
    return simulate()


def dataset(name):
    """(item, worker, label, truth dict) of a shared dataset, 1-based ids as in the
    files; pytest.skip (visibly) when the folder is missing."""
    crowd_path = os.path.join(DATASETS, name + "_crowd.txt")
    truth_path = os.path.join(DATASETS, name + "_truth.txt")
    if not (os.path.exists(crowd_path) and os.path.exists(truth_path)):
        pytest.skip("shared dataset %s not found under %s" % (name, DATASETS))
    data = np.loadtxt(crowd_path, dtype=np.int64, ndmin=2)
    truth = {}
    for item, label in np.loadtxt(truth_path, dtype=np.int64, ndmin=2):
        truth[int(item)] = int(label)  # dog_truth.txt repeats lines: read as a map
    return data[:, 0], data[:, 1], data[:, 2], truth


def set_if_present(params, name, value):
    """params[name] = value when the loaded library has that parameter."""
    if crowdspec.has_param(name):
        params[name] = value
    return params


def big_crowd(n_items=50000, n_workers=200, per_item=4, k=2, seed=0):
    """A larger crowd (vectorised; no worker labels an item twice)."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, n_items)
    item = np.repeat(np.arange(n_items), per_item)
    worker = (np.repeat(rng.integers(0, n_workers, n_items), per_item)
              + np.tile(np.arange(per_item), n_items)) % n_workers
    right = rng.random(item.size) < 0.7
    label = np.where(right, truth[item], rng.integers(0, k, item.size))
    return item.astype(np.int32), worker.astype(np.int32), label.astype(np.int32)

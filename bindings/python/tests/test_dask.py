# SPDX-License-Identifier: MIT
"""crowdspec.dask.fit on a distributed.LocalCluster of 2 workers against the
single-process fit (calibration none): the same labels, posteriors within 1e-10, on a
simulated crowd and on the shared and development crowds (issue 38). Skipped visibly
without dask and distributed (Debian: python3-dask, python3-distributed)."""

import os

import numpy as np
import pandas as pd
import pytest

import crowdspec
from conftest import DATASETS, simulate

dd = pytest.importorskip("dask.dataframe", reason="dask is not installed (python3-dask)")
distributed = pytest.importorskip("distributed", reason="distributed is not installed (python3-distributed)")
pytestmark = pytest.mark.skipif(not crowdspec._lib.has_function("cs_fit_stats"),
                                reason="the loaded library has no statistics API (0.2)")

import crowdspec.dask  # noqa: E402

SETS = ["bluebird", "rte", "trec", "dog", "web"] + [
    "../datasets-dev/" + s for s in ("adult2", "bm", "face", "fact", "hitspam_cf", "labelme", "mill", "ms",
                                     "possent", "product")]


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


def compare(client, frame, method, npartitions=4):
    fitted = crowdspec.dask.fit(dd.from_pandas(frame, npartitions=npartitions), method=method, client=client)
    tasks, item = np.unique(frame["task"].to_numpy(), return_inverse=True)
    workers, worker = np.unique(frame["worker"].to_numpy(), return_inverse=True)
    classes, label = np.unique(frame["label"].to_numpy(), return_inverse=True)
    single = crowdspec.fit_labels(item, worker, label, method=method, calibration="none", warn=False)
    assert np.array_equal(fitted.probas.index.to_numpy(), tasks)
    assert np.array_equal(fitted.labels.to_numpy(), classes[single.labels])
    assert fitted.iterations == single.iterations
    difference = np.abs(fitted.probas.to_numpy() - single.posteriors).max()
    assert difference <= 1e-10
    return difference, fitted


@pytest.mark.parametrize("method", ["auto", "ds"])
def test_simulated_crowd(client, method):
    item, worker, label, _ = simulate(n_items=2000, n_workers=40, k=3, seed=11)
    frame = pd.DataFrame({"task": item, "worker": ["w%d" % w for w in worker], "label": label})
    compare(client, frame, method)


def test_shared_crowds(client):
    found = 0
    for name in SETS:
        crowd = os.path.join(DATASETS, name + "_crowd.txt")
        if not os.path.exists(crowd):
            continue
        data = np.loadtxt(crowd, dtype=np.int64, ndmin=2)
        frame = pd.DataFrame({"task": data[:, 0], "worker": data[:, 1], "label": data[:, 2]})
        difference, fitted = compare(client, frame, "auto")
        print("%s: %d rounds, %.3f s a round, %d bytes a round, largest difference %.1e"
              % (name, fitted.iterations, np.median(fitted.round_seconds), fitted.bytes_per_round, difference))
        found += 1
    if found == 0:
        pytest.skip("shared datasets not found under %s" % DATASETS)

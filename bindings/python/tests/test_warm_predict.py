# SPDX-License-Identifier: MIT
"""Warm starts (initial_confusion / initial_error) and prediction of new batches with
known workers (predict_labels, Aggregator.predict): cs_set_initial_* and cs_predict."""

import warnings

import numpy as np
import pandas as pd
import pytest

import crowdspec
from conftest import simulate

PLAIN = dict(method="ds", accel="none", tol=0, threads=1, warn=False)


def test_warm_start_continues_a_fit():
    item, worker, label, _ = simulate(n_items=80, n_workers=6, k=3, seed=3)
    cold = crowdspec.fit_labels(item, worker, label, max_iter=9, **PLAIN)
    short = crowdspec.fit_labels(item, worker, label, max_iter=4, **PLAIN)
    warm = crowdspec.fit_labels(item, worker, label, max_iter=6,
                                initial_confusion=short.confusion,
                                initial_prior=short.prior, **PLAIN)
    # round 4's E-step is the warm fit's first round
    np.testing.assert_allclose(warm.trace, cold.trace[3:], rtol=1e-12)
    np.testing.assert_allclose(warm.posteriors, cold.posteriors, atol=1e-12)


def test_initial_error_frame_is_the_errors_layout():
    item, worker, label, _ = simulate(n_items=80, n_workers=6, k=3, seed=5)
    df = pd.DataFrame({"task": item, "worker": ["w%d" % w for w in worker],
                       "label": np.array(["a", "b", "c"])[label]})
    short = crowdspec.DawidSkene(n_iter=4, tol=0, accel="none", n_jobs=1).fit(df)
    cold = crowdspec.DawidSkene(n_iter=9, tol=0, accel="none", n_jobs=1).fit(df)
    warm = crowdspec.DawidSkene(n_iter=6, tol=0, accel="none", n_jobs=1, prior="uniform")
    # with the uniform prior the warm start needs only the matrices: compare with a
    # cold uniform-prior fit
    cold_u = crowdspec.DawidSkene(n_iter=9, tol=0, accel="none", n_jobs=1,
                                  prior="uniform").fit(df)
    short_u = crowdspec.DawidSkene(n_iter=4, tol=0, accel="none", n_jobs=1,
                                   prior="uniform").fit(df)
    warm.fit(df, initial_error=short_u.errors_)
    np.testing.assert_allclose(warm.loss_history_, cold_u.loss_history_[3:], rtol=1e-12)
    # a worker missing from initial_error starts from the vote: still a valid fit
    partial = short.errors_.drop(index="w0", level="worker")
    crowdspec.DawidSkene(n_jobs=1).fit(df, initial_error=partial)
    assert cold.n_iter_ == 9
    with pytest.raises(TypeError, match="initial_error"):
        crowdspec.DawidSkene().fit(df, initial_error=np.zeros(3))


def test_predict_hand_computed_batch():
    # the batch of tests/test_warm_start.c, computed by hand there
    confusion = np.array([[[0.9, 0.1], [0.2, 0.8]], [[0.6, 0.4], [0.3, 0.7]]])
    prior = np.array([0.7, 0.3])
    with pytest.warns(crowdspec.CrowdspecWarning, match="unknown_workers"):
        r = crowdspec.predict_labels([0, 0, 1, 2], [0, 1, 0, 2], [0, 1, 1, 1], confusion, prior)
    np.testing.assert_allclose(r.posteriors[:, 0], [6 / 7, 7 / 31, 0.4375], atol=1e-15)
    assert list(r.labels) == [0, 1, 1]
    assert r.log_likelihood == pytest.approx(np.log(0.294 * 0.31 * 0.4), abs=1e-13)
    assert r.iterations == 0 and r.note_names == ["unknown_workers"]


def test_predict_on_the_training_frame_gives_the_fit():
    item, worker, label, _ = simulate(n_items=120, n_workers=8, k=3, seed=8)
    df = pd.DataFrame({"task": ["t%03d" % j for j in item], "worker": worker,
                       "label": np.array([10, 20, 30])[label]})
    ds = crowdspec.DawidSkene(n_jobs=1, support="all").fit(df)
    probas = ds.predict_proba(df)
    np.testing.assert_allclose(probas.to_numpy(), ds.probas_.to_numpy(), atol=1e-12)
    assert list(probas.columns) == [10, 20, 30]
    labels = ds.predict(df)
    assert labels.equals(ds.labels_)


def test_predict_a_new_batch_with_a_new_worker():
    item, worker, label, _ = simulate(n_items=120, n_workers=8, k=2, seed=9)
    df = pd.DataFrame({"task": item, "worker": worker, "label": label})
    ds = crowdspec.DawidSkene(n_jobs=1).fit(df)
    batch = pd.DataFrame({"task": ["x", "x", "y"], "worker": [3, 99, 99], "label": [1, 1, 0]})
    with pytest.warns(crowdspec.CrowdspecWarning, match="unknown_workers"):
        p = ds.predict_proba(batch)
    assert list(p.index) == ["x", "y"]
    # item y: only the unknown worker, weighed by the mean matrix of the 8 workers, and
    # calibrated as the fit was (q^(1/T), renormalised)
    mean = ds.result_.confusion.mean(axis=0)
    want_y = (ds.result_.prior * mean[:, 0]) ** (1.0 / ds.temperature_)
    np.testing.assert_allclose(p.loc["y"].to_numpy(), want_y / want_y.sum(), atol=1e-12)
    with pytest.raises(ValueError, match="no class for"):
        ds.predict(batch.assign(label=[1, 7, 0]))
    with pytest.raises(ValueError, match="fit first"):
        crowdspec.DawidSkene().predict(batch)

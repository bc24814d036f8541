# SPDX-License-Identifier: MIT
"""A pure-numpy Dawid-Skene EM (written from the model's definition) against the
library's "ds": uniform prior, soft majority-vote start, a fixed number of rounds."""

import numpy as np
import pytest

import crowdspec
from conftest import set_if_present, simulate


def reference_ds(item, worker, label, n_items, n_workers, k, rounds):
    """Round r: M-step from the posterior q, then E-step. q0 is the soft majority vote.
    Returns the posterior, the confusion matrices of the last M-step, and the
    log-likelihood of each round's E-step."""
    onehot = np.zeros((item.size, k))
    onehot[np.arange(item.size), label] = 1.0
    votes = np.zeros((n_items, k))
    np.add.at(votes, item, onehot)
    q = votes / votes.sum(axis=1, keepdims=True)
    log_prior = np.full(k, -np.log(k))
    trace = []
    for _ in range(rounds):
        counts = np.zeros((n_workers, k, k))  # worker x true x observed
        np.add.at(counts, (worker, slice(None), label), q[item])
        conf = counts / counts.sum(axis=2, keepdims=True)
        with np.errstate(divide="ignore"):
            log_conf = np.log(conf)
        log_q = np.tile(log_prior, (n_items, 1))
        np.add.at(log_q, item, log_conf[worker, :, label])
        top = log_q.max(axis=1, keepdims=True)
        norm = np.exp(log_q - top).sum(axis=1, keepdims=True)
        trace.append(float((top + np.log(norm)).sum()))
        q = np.exp(log_q - top) / norm
    return q, conf, np.array(trace)


@pytest.mark.parametrize("k,seed", [(2, 5), (3, 7), (4, 9)])
def test_library_ds_equals_numpy_reference(k, seed):
    item, worker, label, _ = simulate(n_items=120, n_workers=12, k=k, labels_per_item=7,
                                      seed=seed, accuracy=(0.5, 0.85))
    rounds = 12
    params = {"prior": "uniform", "tol": 0, "max_iter": rounds, "threads": 1}
    set_if_present(params, "accel", "none")  # plain EM rounds, no extrapolation
    set_if_present(params, "support", "all")  # every class possible for every item
    # the model's own posterior: the subject here is EM, not the calibration after it
    set_if_present(params, "calibration", "none")
    r = crowdspec.fit_labels(item, worker, label, method="ds", warn=False, **params)
    q, conf, trace = reference_ds(item, worker, label, 120, 12, k, rounds)
    assert r.iterations == rounds
    np.testing.assert_allclose(r.posteriors, q, rtol=0, atol=1e-10)
    np.testing.assert_allclose(r.trace, trace, rtol=1e-10, atol=0)
    np.testing.assert_allclose(r.prior, np.full(k, 1.0 / k), rtol=0, atol=1e-15)
    np.testing.assert_array_equal(r.labels, np.argmax(q, axis=1))
    # The confusion matrices are those of the last M-step (the one before the final
    # E-step), which produced the posterior.
    np.testing.assert_allclose(r.confusion, conf, rtol=0, atol=1e-10)

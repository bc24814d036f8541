# SPDX-License-Identifier: MIT
"""The five shared datasets through the DataFrame API: majority vote reproduces the
published error rates exactly, Dawid-Skene EM ("ds") within the stated tolerance, and
the MV-D&S log-likelihood checkpoints of round 1 and 10 (datasets/README.md)."""

import numpy as np
import pandas as pd
import pytest

import crowdspec
from conftest import dataset, set_if_present

# set: (MV error % with ties scored fractionally, MV-D&S upper limit %)
ERRORS = {
    "bluebird": (24.07, 11.11),
    "rte": (10.31, 7.75),
    "trec": (34.86, 30.52),
    "dog": (17.78, 16.36),
    "web": (26.93, 17.46),
}

# set: (LL round 1, LL round 10) of MV-D&S with a uniform prior.
CHECKPOINTS = {
    "bluebird": (-2108.831400066, -1888.957473287),
    "rte": (-4181.815069205, -3680.138021652),
    "trec": (-36213.04293849, -34812.75968155),
    "dog": (-5237.380104417, -4764.894207983),
    "web": (-18678.44991852, -17306.4419339),
}


def frame(name):
    item, worker, label, truth = dataset(name)
    df = pd.DataFrame({"task": item, "worker": worker, "label": label})
    return df, pd.Series(truth)


def error_percent(labels, truth):
    scored = truth[truth.index.isin(labels.index)]
    assert len(scored) > 0.99 * len(truth)
    return 100.0 * float((labels.loc[scored.index].to_numpy() != scored.to_numpy()).mean())


def fractional_mv_error(probas, truth):
    """Each tied top class counts as a fraction of a correct answer."""
    scored = truth[truth.index.isin(probas.index)]
    p = probas.loc[scored.index].to_numpy()
    top = p >= p.max(axis=1, keepdims=True) - 1e-12
    column = probas.columns.get_indexer(scored.to_numpy())
    right = top[np.arange(len(scored)), column] / top.sum(axis=1)
    return 100.0 * (1.0 - right.mean())


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_majority_vote_exact(name):
    df, truth = frame(name)
    mv = crowdspec.MajorityVote(n_jobs=1).fit(df)
    assert round(fractional_mv_error(mv.probas_, truth), 2) == ERRORS[name][0]


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_dawid_skene_within_tolerance(name):
    df, truth = frame(name)
    ds = crowdspec.DawidSkene(n_jobs=1)
    with _no_fail():
        labels = ds.fit_predict(df)
    err = error_percent(labels, truth)
    assert err <= ERRORS[name][1] + 1e-9, "%s: ds error %.2f%% > %.2f%%" % (
        name, err, ERRORS[name][1])
    assert ds.converged_
    assert labels.name == "agg_label" and labels.dtype == df["label"].dtype


@pytest.mark.parametrize("name", sorted(CHECKPOINTS))
def test_dawid_skene_log_likelihood_checkpoints(name):
    item, worker, label, _ = dataset(name)
    params = {"prior": "uniform", "tol": 0, "max_iter": 10, "threads": 1}
    set_if_present(params, "accel", "none")
    set_if_present(params, "support", "all")
    r = crowdspec.fit_labels(item - 1, worker - 1, label - 1, method="ds", warn=False,
                             **params)
    one, ten = CHECKPOINTS[name]
    assert r.trace[0] == pytest.approx(one, rel=1e-11)
    assert r.trace[9] == pytest.approx(ten, rel=1e-11)


class _no_fail:
    """Notes may be warned about; they do not fail the reproduction."""

    def __enter__(self):
        import warnings
        self._cm = warnings.catch_warnings()
        self._cm.__enter__()
        warnings.simplefilter("ignore", crowdspec.CrowdspecWarning)

    def __exit__(self, *exc):
        return self._cm.__exit__(*exc)

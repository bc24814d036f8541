# SPDX-License-Identifier: MIT
"""The default method ("auto") and the calibration of the Dawid-Skene family's
posteriors (cs_calibration, cs_set_initial_calibration): what a fit reports, that it
is the tempering the posteriors show, and that prediction applies it."""

import warnings

import numpy as np
import pandas as pd
import pytest

import crowdspec
from conftest import simulate

pytestmark = pytest.mark.skipif(not crowdspec.has_param("calibration"),
                                reason="the loaded library predates calibration (0.2)")


def _frame(item, worker, label):
    return pd.DataFrame({"task": ["t%03d" % j for j in item], "worker": worker,
                         "label": np.array(["a", "b", "c"])[label]})


def test_default_method_is_auto_and_reports_its_calibration():
    item, worker, label, truth = simulate(n_items=300, n_workers=10, k=3, seed=21)
    r = crowdspec.fit_labels(item, worker, label, threads=1, warn=False)
    assert r.method == "auto"
    assert r.calibration == "labels"
    assert np.isfinite(r.temperature) and 1.0 <= r.temperature <= 10.0
    assert r.mixing == 0.0
    assert (r.labels == truth).mean() > 0.9


def _with_shared_mistakes(item, label, truth, k, seed):
    """The labels with shared mistakes: on every third item 60 % of the labels name one
    wrong class, drawn per item (so that no worker's confusion matrix can absorb it).
    The model treats them as independent, so the held-out temperature rises above 1 (on
    a crowd drawn from the model itself it is 1: it never sharpens)."""
    rng = np.random.default_rng(seed)
    trap = (truth + rng.integers(1, k, truth.size)) % k
    trapped = (item % 3 == 0) & (rng.random(item.size) < 0.6)
    label = label.copy()
    label[trapped] = trap[item[trapped]]
    return label


def test_reported_temperature_is_the_one_applied():
    """The calibrated posterior is the uncalibrated one raised to 1/T and renormalised
    (the EM is the same; only the last step differs)."""
    item, worker, label, truth = simulate(n_items=200, n_workers=8, k=3, seed=22)
    label = _with_shared_mistakes(item, label, truth, 3, seed=22)
    common = dict(method="ds", threads=1, warn=False)
    calibrated = crowdspec.fit_labels(item, worker, label, **common)
    raw = crowdspec.fit_labels(item, worker, label, calibration="none", **common)
    assert raw.calibration == "none" and raw.temperature == 1.0 and raw.mixing == 0.0
    T = calibrated.temperature
    assert calibrated.calibration == "labels" and T > 1.0
    tempered = raw.posteriors ** (1.0 / T)
    tempered /= tempered.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(calibrated.posteriors, tempered, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(calibrated.labels, raw.labels)  # tempering keeps labels
    np.testing.assert_array_equal(calibrated.confusion, raw.confusion)


def test_estimator_attributes_and_predict_reproduce_the_fit():
    item, worker, label, _ = simulate(n_items=150, n_workers=8, k=3, seed=23)
    df = _frame(item, worker, label)
    est = crowdspec.Auto(n_jobs=1, support="all").fit(df)
    assert est.calibration_ == "labels" and est.mixing_ == 0.0
    assert np.isfinite(est.temperature_) and est.temperature_ > 0
    assert est.temperature_ == est.result_.temperature
    np.testing.assert_allclose(est.predict_proba(df).to_numpy(), est.probas_.to_numpy(),
                               rtol=0, atol=1e-12)
    assert est.predict(df).equals(est.labels_)
    none = crowdspec.Auto(n_jobs=1, calibration="none").fit(df)
    assert (none.temperature_, none.mixing_, none.calibration_) == (1.0, 0.0, "none")
    assert crowdspec.METHOD_CLASSES["auto"] is crowdspec.Auto


def test_gold_calibration_is_carried_to_predict():
    """With 20 gold tasks the fit is calibrated on them (temperature and a mixing weight
    of the prior); predicting the other tasks applies both."""
    item, worker, label, truth = simulate(n_items=200, n_workers=8, k=3, seed=24)
    df = _frame(item, worker, label)
    tasks = np.array(["t%03d" % j for j in range(200)])
    gold = pd.Series(np.array(["a", "b", "c"])[truth[:20]], index=tasks[:20])
    est = crowdspec.DawidSkene(n_jobs=1, support="all").fit(df, true_labels=gold)
    assert est.calibration_ == "gold"
    assert 0.0 <= est.mixing_ <= 0.4 and 0.2 <= est.temperature_ <= 200.0
    rest = df[~df["task"].isin(gold.index)]
    with warnings.catch_warnings():
        warnings.simplefilter("error", crowdspec.CrowdspecWarning)
        p = est.predict_proba(rest)
    np.testing.assert_allclose(p.to_numpy(), est.probas_.loc[p.index].to_numpy(),
                               rtol=0, atol=1e-12)


def test_predict_labels_applies_the_given_calibration():
    item, worker, label, _ = simulate(n_items=120, n_workers=6, k=2, seed=25)
    r = crowdspec.fit_labels(item, worker, label, method="ds", threads=1, warn=False)
    again = crowdspec.predict_labels(item, worker, label, r.confusion, r.prior,
                                     temperature=r.temperature, mixing=r.mixing)
    np.testing.assert_allclose(again.posteriors, r.posteriors, rtol=0, atol=1e-12)
    assert again.temperature == r.temperature
    # without it: the model's posterior, as a fit with calibration "none" would give
    plain = crowdspec.predict_labels(item, worker, label, r.confusion, r.prior)
    assert plain.calibration == "none" and plain.temperature == 1.0
    tempered = plain.posteriors ** (1.0 / r.temperature)
    tempered /= tempered.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(again.posteriors, tempered, rtol=0, atol=1e-12)
    with pytest.raises(crowdspec.CrowdspecError, match="temperature"):
        crowdspec.predict_labels(item, worker, label, r.confusion, r.prior, temperature=0.0)

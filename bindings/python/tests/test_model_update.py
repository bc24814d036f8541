# SPDX-License-Identifier: MIT
"""crowdspec.Model with a classifier's probabilities (issue 34 with 38): fit, update
and predict with model_probs=, the classifier kept through pickling, errors mapped."""

import pickle

import numpy as np
import pytest

import crowdspec

pytestmark = pytest.mark.skipif(not crowdspec._lib.has_function("cs_predict_model_probs"),
                                reason="the loaded library has no cs_predict_model_probs (0.2)")


def crowd(n_items=900, k=3, per_item=5, acc=0.7, seed=11):
    """A crowd of `per_item` labels an item from 30 workers right `acc` of the time, and
    a classifier right 90 % of the time except on class k - 1, which it calls k - 2."""
    rng = np.random.default_rng(seed)
    truth = np.arange(n_items) % k
    items, workers, labels = [], [], []
    for j in range(n_items):
        for w in rng.choice(30, per_item, replace=False):
            c = truth[j] if rng.random() < acc else (truth[j] + 1 + rng.integers(k - 1)) % k
            items.append(j), workers.append(w), labels.append(c)
    said = np.where(truth == k - 1, k - 2, np.where(rng.random(n_items) < 0.9, truth,
                                                    (truth + 1 + rng.integers(k - 1, size=n_items)) % k))
    probs = np.full((n_items, k), 0.1 / (k - 1))
    probs[np.arange(n_items), said] = 0.9
    return np.array(items), np.array(workers), np.array(labels), truth, probs


def test_updates_with_the_classifier_follow_the_full_fit():
    item, worker, label, truth, probs = crowd()
    full = crowdspec.Model().fit(item, worker, label, method="auto", model_probs=probs)
    e_full = np.mean(full.labels != truth)
    assert full.model_confusion[2, 1] > 0.8
    order = np.random.default_rng(34).permutation(item.size)
    batches = np.array_split(order, 5)
    first = batches[0]
    seen = np.unique(item[first])
    model = crowdspec.Model().fit(item[first], worker[first], label[first], method="auto",
                                  model_probs=probs[seen], model_items=seen, items=int(item[first].max()) + 1)
    model = pickle.loads(pickle.dumps(model))  # the classifier travels in the bytes
    assert model.model_confusion is not None
    for b in batches[1:]:
        seen = np.union1d(seen, item[b])
        model.update(item[b], worker[b], label[b], model_probs=probs[seen], model_items=seen)
    e = np.mean(model.labels != truth)
    assert model.model_confusion[2, 1] > 0.8
    assert abs(e - e_full) <= 0.003, (e, e_full)
    # The same replay without the classifier's rows after the first fit is worse.
    crowd_only = crowdspec.Model().fit(item, worker, label, method="auto")
    assert np.mean(crowd_only.labels != truth) > e_full + 0.02


def test_predict_with_rows_is_the_fit_and_leaves_the_model():
    item, worker, label, truth, probs = crowd(n_items=300, seed=3)
    model = crowdspec.Model().fit(item, worker, label, method="ds", model_probs=probs, calibration="none")
    before = model.to_bytes()
    reverse = np.arange(300)[::-1]
    r = model.predict(item, worker, label, model_probs=probs[reverse], model_items=reverse)
    assert np.max(np.abs(r.posteriors - model.posteriors)) <= 1e-12
    plain = model.predict(item, worker, label)
    assert np.max(np.abs(plain.posteriors - model.posteriors)) > 0.1
    assert model.to_bytes() == before


def test_rows_change_an_item_and_errors_are_named():
    item, worker, label, truth, probs = crowd(n_items=200, seed=4)
    model = crowdspec.Model().fit(item, worker, label, method="ds", model_probs=probs)
    # The least certain item gets a confident row for its second most probable class.
    j = int(np.argmin(model.posteriors.max(axis=1)))
    c = int(np.argsort(model.posteriors[j])[-2])
    p0 = model.posteriors[j].copy()
    row = np.full((1, 3), 0.01)
    row[0, c] = 0.98
    model.update([], [], [], model_probs=row, model_items=[j])
    assert model.posteriors[j, c] > p0[c] + 0.05, (p0, model.posteriors[j])
    with pytest.raises(crowdspec.CrowdspecError) as err:
        model.update([200], [0], [1], model_probs=[[0.2, 0.3, 0.5]], model_items=[250])
    assert err.value.status_name == "CS_ERR_INVALID_ID"
    assert "row 0 is for item 250" in str(err.value)
    with pytest.raises(crowdspec.CrowdspecError) as err:
        model.predict([0, 1], [0, 1], [0, 1], model_probs=[[0.2, -0.3, 0.5]], model_items=[0])
    assert err.value.status_name == "CS_ERR_INVALID_ARGUMENT"
    plain = crowdspec.Model().fit(item, worker, label, method="ds")
    assert plain.model_confusion is None
    with pytest.raises(crowdspec.CrowdspecError) as err:
        plain.predict([0], [0], [0], model_probs=[[0.2, 0.3, 0.5]])
    assert "confusion matrix of a fit that had them" in str(err.value)

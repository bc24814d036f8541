# SPDX-License-Identifier: MIT
"""Issue 34 in Python: fit(df, model_probs=...), crowdlab, the scores and the worker
diagnostics; numbers checked against the C tests' hand cases and a simulated crowd."""

import numpy as np
import pandas as pd
import pytest

import crowdspec

# The crowdlab hand case of tests/test_model_assist.cpp (crowdlab_by_hand).
HAND = pd.DataFrame({"task": ["i0", "i0", "i0", "i1", "i1", "i2", "i2", "i3"],
                     "worker": ["w0", "w1", "w2", "w0", "w1", "w0", "w2", "w1"],
                     "label": ["x", "x", "y", "y", "y", "x", "x", "y"]})
HAND_PROBS = pd.DataFrame({"y": [0.3, 0.6, 0.8, 0.1, 0.5], "x": [0.7, 0.4, 0.2, 0.9, 0.5]},
                          index=["i0", "i1", "i2", "i3", "not-labelled"])
HAND_P_X = [0.8888847093179439, 0.11111274529766882, 0.8888849919824823, 0.5732315230167806]


def test_crowdlab_hand_case():
    agg = crowdspec.CrowdLab().fit(HAND, model_probs=HAND_PROBS)
    np.testing.assert_allclose(agg.probas_["x"].to_numpy(), HAND_P_X, atol=1e-12)
    assert list(agg.labels_) == ["x", "y", "x", "x"]
    # the same from an array in the fit's order (tasks i0..i3, labels x, y)
    arr = HAND_PROBS.loc[["i0", "i1", "i2", "i3"], ["x", "y"]].to_numpy()
    again = crowdspec.Aggregator("crowdlab").fit(HAND, model_probs=arr)
    np.testing.assert_allclose(again.probas_.to_numpy(), agg.probas_.to_numpy(), atol=0)
    with pytest.warns(crowdspec.CrowdspecWarning, match="crowdlab_fallback"):
        crowdspec.CrowdLab().fit(HAND)


def test_scores_by_hand_with_mv():
    # mv: i0 shares (2/3, 1/3); the typical worker (5/6, 1/6 | 1/6, 5/6): label next of
    # i0 = 15/18 - 2/3 = 1/6, 0 elsewhere; p_wrong = 1 - the share of the label.
    agg = crowdspec.MajorityVote().fit(HAND)
    np.testing.assert_allclose(agg.label_next_.to_numpy(), [1 / 6, 0, 0, 0], atol=1e-15)
    np.testing.assert_allclose(agg.label_wrong_.to_numpy(), [1 / 3, 1 / 3, 2 / 3, 0, 0, 0, 0, 0],
                               atol=1e-15)
    assert list(agg.label_wrong_.index) == list(HAND.index)
    # w2: one label on i0 (share 1/3) and one on i2 (1): 4/3 of 2 -> Beta(7/3, 5/3).
    assert agg.accuracy_interval_.loc["w2", "accuracy"] == pytest.approx(2 / 3, abs=1e-15)
    assert set(agg.accuracy_interval_.columns) == {"accuracy", "low", "high"}
    # its rows: true x right 1 of 5/3 (i2, and 2/3 of i0 where it said y), true y 1/3 of 1/3
    assert agg.worst_class_.loc["w2"] == "x"
    assert agg.spammer_.between(0, 1).all()


def test_model_wrong_on_one_class_is_outvoted():
    rng = np.random.default_rng(5)
    n, k = 900, 3
    truth = np.arange(n) % k
    rows = []
    for j in range(n):
        for w in rng.choice(30, 3, replace=False):
            c = truth[j] if rng.random() < 0.65 else (truth[j] + rng.integers(1, k)) % k
            rows.append(("t%d" % j, "w%d" % w, int(c)))
    df = pd.DataFrame(rows, columns=["task", "worker", "label"])
    said = np.where(truth == 2, 1, truth)  # the model calls every class-2 item "1"
    probs = np.full((n, k), 0.05)
    probs[np.arange(n), said] = 0.9
    frame = pd.DataFrame(probs, index=["t%d" % j for j in range(n)], columns=[0, 1, 2])
    crowd = crowdspec.Auto().fit(df)
    both = crowdspec.Auto().fit(df, model_probs=frame)
    truth_s = pd.Series(truth, index=frame.index)
    err = lambda agg: float((agg.labels_ != truth_s.loc[agg.labels_.index]).mean())
    assert both.model_errors_.loc[2, 1] > 0.8  # its confusion row shows the error
    assert err(both) < err(crowd) - 0.03
    assert err(both) < 1 / 3 - 0.1  # the model alone is wrong on a third
    with pytest.raises(crowdspec.CrowdspecError, match="does not take model probabilities"):
        crowdspec.MajorityVote().fit(df, model_probs=frame)
    with pytest.raises(ValueError, match="not a label"):
        crowdspec.Auto().fit(df, model_probs=frame.rename(columns={2: 7}))


def test_numpy_layer():
    item = np.array([0, 0, 1, 1], dtype=np.int32)
    worker = np.array([0, 1, 0, 1], dtype=np.int32)
    label = np.array([0, 1, 0, 1], dtype=np.int32)
    r = crowdspec.fit_labels(item, worker, label, "ds", model_probs=[[0.8, 0.2], [0.8, 0.2]],
                             calibration="none", warn=False)
    assert list(r.labels) == [0, 0]  # the workers tie; the model breaks the tie
    assert r.diagnostics.model_confusion.shape == (2, 2)
    assert r.diagnostics.label_wrong.shape == (4,) and r.diagnostics.label_next.shape == (2,)
    with pytest.raises(ValueError):
        crowdspec.fit_labels(item, worker, label, "ds", model_probs=[0.5, 0.5])


def test_estimator_label_wrong_is_the_librarys():
    """An estimator computes label_wrong_ when first read, from its own coded labels and
    the fit's posteriors (no pass over every label in every fit): the same doubles as
    cs_label_wrong gives fit_labels on the same codes, in the frame's row order, also
    after a pickle and with gold labels pinned."""
    import pickle
    rng = np.random.default_rng(11)
    n, k = 400, 3
    truth = rng.integers(0, k, n)
    rows = [("t%03d" % j, "w%02d" % w, "abc"[truth[j] if rng.random() < 0.7 else rng.integers(0, k)])
            for j in range(n) for w in rng.choice(25, 4, replace=False)]
    df = pd.DataFrame(rows, columns=["task", "worker", "label"]).sample(frac=1, random_state=3)
    gold = pd.Series(["abc"[c] for c in truth[:20]], index=["t%03d" % j for j in range(20)])
    for true_labels in (None, gold):
        ds = crowdspec.DawidSkene(n_iter=30).fit(df, true_labels=true_labels)
        d = ds.result_.diagnostics
        assert d._wrong is None  # not computed by the fit
        tasks, workers = list(ds.probas_.index), list(ds.skills_.index)
        item = np.array([tasks.index(t) for t in df["task"]], dtype=np.int32)
        worker = np.array([workers.index(w) for w in df["worker"]], dtype=np.int32)
        label = np.array([list(ds.classes_).index(c) for c in df["label"]], dtype=np.int32)
        kw = {}
        if true_labels is not None:
            kw = dict(gold_item=np.array([tasks.index(t) for t in gold.index], dtype=np.int32),
                      gold_label=np.array([list(ds.classes_).index(c) for c in gold], dtype=np.int32))
        r = crowdspec.fit_labels(item, worker, label, "ds", n_items=len(tasks), n_workers=len(workers),
                                 n_classes=k, max_iter=30, warn=False, **kw)
        np.testing.assert_array_equal(r.posteriors, ds.probas_.to_numpy())
        want = r.diagnostics.label_wrong  # computed by cs_label_wrong
        unread = pickle.loads(pickle.dumps(ds))
        np.testing.assert_array_equal(ds.label_wrong_.to_numpy(), want)
        assert list(ds.label_wrong_.index) == list(df.index)
        np.testing.assert_array_equal(unread.label_wrong_.to_numpy(), want)

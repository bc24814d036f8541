# SPDX-License-Identifier: MIT
"""crowdspec.metrics: crowd-kit's documented examples, hand-computed cases, and the
values of crowd-kit itself on the shared datasets, computed beside ours.

crowd-kit is not a dependency: the comparison runs when ``import crowdkit`` works (for
example with PYTHONPATH at a checkout of Toloka/crowd-kit and Debian's numpy, pandas,
scipy, nltk and attrs) and is skipped visibly otherwise."""

import math
import os

import numpy as np
import pandas as pd
import pytest

import crowdspec
from crowdspec import metrics
from conftest import DATASETS

DEV_DATASETS = os.path.join(os.path.dirname(DATASETS), "datasets-dev")


def records(rows):
    return pd.DataFrame.from_records([dict(zip(("task", "worker", "label"), r)) for r in rows])


def test_crowdkit_docstring_examples():
    # crowdkit.metrics.data: alpha_krippendorff and uncertainty, as documented there.
    consistent = records([("X", "A", "Yes"), ("X", "B", "Yes"), ("Y", "A", "No"), ("Y", "B", "No")])
    assert metrics.alpha_krippendorff(consistent) == 1.0
    partial = pd.concat([consistent, records([("Z", "A", "Yes"), ("Z", "B", "No")])],
                        ignore_index=True)
    assert metrics.alpha_krippendorff(partial) == pytest.approx(0.4444444444444444, abs=1e-15)
    assert metrics.uncertainty(records([("X", "A", "Yes"), ("X", "B", "Yes")])) == 0.0
    three = records([("X", "A", "Yes"), ("X", "B", "No"), ("X", "C", "Maybe")])
    assert metrics.uncertainty(three) == pytest.approx(1.0986122886681096, abs=1e-15)
    two = records([("X", "A", "Yes"), ("X", "B", "No"), ("Y", "A", "Yes"), ("Y", "B", "Yes")])
    skills = pd.Series([1, 1], index=["A", "B"])
    by_task = metrics.uncertainty(two, workers_skills=skills, compute_by="task", aggregate=False)
    assert by_task.to_dict() == pytest.approx({"X": math.log(2), "Y": 0.0}, abs=1e-15)
    by_worker = metrics.uncertainty(two, workers_skills=skills, compute_by="worker",
                                    aggregate=False)
    assert by_worker.to_dict() == pytest.approx({"A": 0.0, "B": math.log(2)}, abs=1e-15)


def test_consistency_and_accuracy_by_hand():
    # Task t1: a (skill 0.9) says x, b (skill 0.6) says y: P(x) = 0.9 * 0.4 = 0.36,
    # P(y) = 0.1 * 0.6 = 0.06. Majority vote ties go to the first class, x: 6/7.
    df = records([("t1", "a", "x"), ("t1", "b", "y"), ("t2", "a", "y"), ("t2", "b", "y")])
    skills = pd.Series({"a": 0.9, "b": 0.6})
    by_task = metrics.consistency(df, workers_skills=skills, by_task=True)
    # t2: both say y: P(y) = 0.9 * 0.6, P(x) = 0.1 * 0.4
    assert by_task["t1"] == pytest.approx(6 / 7, abs=1e-15)
    assert by_task["t2"] == pytest.approx(0.54 / 0.58, abs=1e-15)
    # aggregates x, y: a is right twice, b once of two.
    assert metrics.accuracy_on_aggregates(df) == 0.75
    per = metrics.accuracy_on_aggregates(df, by="worker")
    assert per.to_dict() == {"a": 1.0, "b": 0.5}
    given = pd.Series({"t1": "y"})  # t2 has no aggregate: its labels do not count
    assert metrics.accuracy_on_aggregates(df, aggregates=given) == 0.5
    with pytest.raises(ValueError, match="no skill for workers"):
        metrics.consistency(df, workers_skills=pd.Series({"a": 0.9}))
    with pytest.raises(NotImplementedError):
        metrics.alpha_krippendorff(df, distance=lambda a, b: 0.0)


def test_majority_vote_skills_are_agreement_with_the_vote():
    # crowd-kit's MajorityVote.skills_: the share of a worker's labels equal to the vote.
    df = records([("t1", "a", 1), ("t1", "b", 1), ("t1", "c", 0),
                  ("t2", "a", 0), ("t2", "b", 0), ("t2", "c", 0)])
    mv = crowdspec.MajorityVote().fit(df)
    assert mv.skills_.to_dict() == {"a": 1.0, "b": 1.0, "c": 0.5}


def _shared_frames():
    sets = []
    for folder, limit in ((DATASETS, None), (DEV_DATASETS, 50_000)):
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            if name.endswith("_crowd.txt"):
                path = os.path.join(folder, name)
                data = np.loadtxt(path, dtype=np.int64, ndmin=2)
                if limit is None or len(data) <= limit:
                    sets.append((name[:-len("_crowd.txt")], data))
    return sets


def _crowdkit():
    try:
        import crowdkit.aggregation  # noqa: F401
        import crowdkit.metrics.data
        import crowdkit.metrics.workers
    except ImportError as exc:
        pytest.skip("crowd-kit is not importable (%s): set PYTHONPATH to a crowd-kit checkout "
                    "to compare with it" % exc)
    return crowdkit


def test_same_values_as_crowdkit_on_the_shared_datasets():
    ck = _crowdkit()
    from crowdkit.metrics.data import alpha_krippendorff, consistency, uncertainty
    from crowdkit.metrics.workers import accuracy_on_aggregates
    sets = _shared_frames()
    if not sets:
        pytest.skip("no shared dataset under %s" % DATASETS)
    for name, data in sets:
        df = pd.DataFrame({"task": data[:, 0], "worker": data[:, 1], "label": data[:, 2]})
        assert metrics.alpha_krippendorff(df) == pytest.approx(alpha_krippendorff(df), rel=1e-12), name
        # Majority vote aggregates and skills: crowd-kit's MajorityVote on both sides
        # of consistency, so that its ties are broken the same way.
        ck_mv = ck.aggregation.MajorityVote().fit(df)
        ours = crowdspec.MajorityVote().fit(df)
        same = (ours.labels_.sort_index() == ck_mv.labels_.sort_index()).mean()
        assert same > 0.97, name  # ties may go to another class
        skills = ck_mv.skills_
        ref = consistency(df, workers_skills=skills, aggregator=ck.aggregation.MajorityVote(),
                          by_task=True).sort_index()
        got = metrics.consistency(df, workers_skills=skills,
                                  aggregator=_Fixed(ck_mv.labels_), by_task=True).sort_index()
        # crowd-kit's plain products underflow to 0 / 0 = 0 on long tasks; elsewhere equal
        finite = ref.to_numpy() > 0
        np.testing.assert_allclose(got.to_numpy()[finite], ref.to_numpy()[finite], rtol=1e-9,
                                   err_msg=name)
        for by in ("task", "worker"):
            ref = uncertainty(df, workers_skills=skills, compute_by=by, aggregate=False).sort_index()
            got = metrics.uncertainty(df, workers_skills=skills, compute_by=by,
                                      aggregate=False).sort_index()
            # crowd-kit divides by (sum + 1e-6) before scipy renormalises: 1e-6 relative
            np.testing.assert_allclose(got.to_numpy(), ref.to_numpy(), rtol=1e-6, atol=1e-9,
                                       err_msg="%s by %s" % (name, by))
        assert metrics.uncertainty(df) == pytest.approx(uncertainty(df), rel=1e-6), name
        labels = ck_mv.labels_
        assert metrics.accuracy_on_aggregates(df, aggregates=labels) == pytest.approx(
            accuracy_on_aggregates(df, aggregates=labels), rel=1e-12), name
        ref = accuracy_on_aggregates(df, aggregates=labels, by="worker").sort_index()
        got = metrics.accuracy_on_aggregates(df, aggregates=labels, by="worker").sort_index()
        np.testing.assert_allclose(got.to_numpy(), ref.to_numpy(), rtol=1e-12, err_msg=name)


class _Fixed:
    """An aggregator whose labels are given (crowd-kit's, so that ties agree)."""

    def __init__(self, labels):
        self.labels_ = labels

    def fit(self, data):
        return self

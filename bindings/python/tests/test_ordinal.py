# SPDX-License-Identifier: MIT
"""Ordered grades (issue 36): the minimax and ordinal classes, median_grades_ and
mean_grades_ against the posteriors, the Result fields, and the 'ordinal' parameter."""

import numpy as np
import pandas as pd
import pytest

import crowdspec
from conftest import simulate


def grade_frame(seed=3):
    item, worker, label, truth = simulate(n_items=200, n_workers=15, k=4, seed=seed)
    df = pd.DataFrame({"task": item, "worker": worker, "label": label + 1})  # grades 1..4
    return df, pd.Series(truth + 1, index=np.arange(200))


@pytest.mark.parametrize("cls", [crowdspec.OrdinalMinimaxEntropy, crowdspec.OrdinalDawidSkene])
def test_ordinal_classes_give_grades(cls):
    df, truth = grade_frame()
    agg = cls(n_jobs=1).fit(df)
    probas = agg.probas_.to_numpy()
    values = np.array([1.0, 2.0, 3.0, 4.0])
    # the median: the first grade whose cumulative posterior reaches 1/2
    median = values[np.argmax(np.cumsum(probas, axis=1) >= 0.5 - 1e-12, axis=1)]
    np.testing.assert_array_equal(agg.median_grades_.to_numpy(), median)
    # numeric labels: the mean in the labels' own values
    np.testing.assert_allclose(agg.mean_grades_.to_numpy(), probas @ values, atol=1e-12)
    np.testing.assert_allclose(agg.result_.mean_grades, probas @ np.arange(4.0), atol=1e-12)
    assert (agg.labels_ == truth.loc[agg.labels_.index]).mean() > 0.8


def test_minimax_entropy_and_the_ordinal_parameter():
    df, truth = grade_frame()
    mm = crowdspec.MinimaxEntropy(n_jobs=1).fit(df)
    assert not hasattr(mm, "median_grades_") and mm.result_.median_grades is None
    assert (mm.labels_ == truth.loc[mm.labels_.index]).mean() > 0.8
    ds = crowdspec.DawidSkene(n_jobs=1, ordinal=1).fit(df)
    assert ds.result_.median_grades is not None
    assert len(ds.mean_grades_) == 200
    # gamma = 0: cross-validated, a candidate of the paper's grid
    cv = crowdspec.MinimaxEntropy(n_jobs=1, gamma=0, cv_folds=3).fit(df)
    assert (cv.labels_ == truth.loc[cv.labels_.index]).mean() > 0.8

# SPDX-License-Identifier: MIT
"""Numeric answers and tags through the Python binding (fit_numbers, fit_tags): the
hand-computed cases of tests/test_numbers.cpp and crowd-kit's BinaryRelevance example,
thresholds, defaults and errors."""

import math

import numpy as np
import pytest

import crowdspec

# Items 0..2: item 0: w0 1, w1 2, w2 6; item 1: w0 4; item 2: w1 3, w2 5.
ITEM = [0, 0, 0, 1, 2, 2]
WORKER = [0, 1, 2, 0, 1, 2]
VALUE = [1.0, 2.0, 6.0, 4.0, 3.0, 5.0]


def test_mean_by_hand():
    r = crowdspec.fit_numbers(ITEM, WORKER, VALUE, method="mean")
    np.testing.assert_allclose(r.value, [3, 4, 4])
    # s / sqrt(n); item 1 has one answer: the pooled within-item deviation sqrt(16/3).
    np.testing.assert_allclose(r.se, [math.sqrt(7 / 3), math.sqrt(16 / 3), 1.0])
    assert r.bias[0] == pytest.approx(-1.0) and r.noise[0] == pytest.approx(1.0)


def test_gaussian_one_round_by_hand():
    r = crowdspec.fit_numbers(ITEM, WORKER, VALUE, method="gaussian", max_iter=1, worker_bias="off",
                              variance_prior=0, warn=False)
    # sigma^2 = 2, 1, 5 from the means: mu_0 = (1/2 + 2 + 6/5) / 1.7, mu_2 = 4 / 1.2.
    np.testing.assert_allclose(r.value, [3.7 / 1.7, 4.0, 4.0 / 1.2])
    np.testing.assert_allclose(r.noise, np.sqrt([2.0, 1.0, 5.0]))
    assert r.iterations == 1


def test_default_is_student_t():
    a = crowdspec.fit_numbers(ITEM, WORKER, VALUE)
    b = crowdspec.fit_numbers(ITEM, WORKER, VALUE, method="student-t")
    np.testing.assert_array_equal(a.value, b.value)


def test_numbers_errors():
    with pytest.raises(crowdspec.CrowdspecError) as e:
        crowdspec.fit_numbers(ITEM, WORKER, [1, 2, float("nan"), 4, 5, 6])
    assert e.value.status_name == "CS_ERR_NON_FINITE" and "answer index 2" in e.value.message
    with pytest.raises(crowdspec.CrowdspecError) as e:
        crowdspec.fit_numbers(ITEM, WORKER, VALUE, method="ds")
    assert e.value.status_name == "CS_ERR_WRONG_INPUT_KIND"
    with pytest.raises(ValueError):
        crowdspec.fit_numbers(ITEM, WORKER, VALUE[:5])


# crowd-kit's example: tags car 0, grass 1, house 2, human 3, train 4, tree 5.
TAG_ITEM = [0, 0, 0, 1, 1, 1]
TAG_WORKER = [0, 1, 2, 0, 1, 2]
TAGS = [[2, 5], [2], [2, 5, 1], [0], [0, 3], [4]]


def test_binary_relevance_majority_vote():
    r = crowdspec.fit_tags(TAG_ITEM, TAG_WORKER, TAGS, method="mv")
    np.testing.assert_allclose(r.probabilities, [[0, 1 / 3, 1, 0, 0, 2 / 3], [2 / 3, 0, 0, 1 / 3, 1 / 3, 0]])
    np.testing.assert_array_equal(r.sets, [[0, 0, 1, 0, 0, 1], [1, 0, 0, 0, 0, 0]])
    low = crowdspec.fit_tags(TAG_ITEM, TAG_WORKER, TAGS, method="mv", threshold=0.3)
    np.testing.assert_array_equal(low.sets, [[0, 1, 1, 0, 0, 1], [1, 0, 0, 1, 1, 0]])
    assert r.sensitivity.shape == (3, 6) and r.specificity.shape == (3, 6)


@pytest.mark.parametrize("method", ["auto", "tag-pooled", "ds", "wawa", "glad"])
def test_crowdkit_example_sets(method):
    r = crowdspec.fit_tags(TAG_ITEM, TAG_WORKER, TAGS, method=method, warn=False)
    assert np.flatnonzero(r.sets[0]).tolist() == [2, 5]
    assert np.flatnonzero(r.sets[1]).tolist() == [0]


def test_flat_form_and_errors():
    start = np.array([0, 2, 3, 6, 7, 9, 10])
    flat = np.array([2, 5, 2, 2, 5, 1, 0, 0, 3, 4])
    a = crowdspec.fit_tags(TAG_ITEM, TAG_WORKER, method="mv", tag_start=start, tag=flat)
    b = crowdspec.fit_tags(TAG_ITEM, TAG_WORKER, TAGS, method="mv")
    np.testing.assert_array_equal(a.probabilities, b.probabilities)
    with pytest.raises(crowdspec.CrowdspecError) as e:
        crowdspec.fit_tags(TAG_ITEM, TAG_WORKER, TAGS, n_tags=5)
    assert e.value.status_name == "CS_ERR_INVALID_LABEL"
    with pytest.raises(crowdspec.CrowdspecError) as e:
        crowdspec.fit_tags([0], [0], [[]])
    assert e.value.status_name == "CS_ERR_EMPTY_INPUT"
    empty = crowdspec.fit_tags([0, 0], [0, 1], [[], []], n_tags=2, method="mv")
    np.testing.assert_array_equal(empty.probabilities, [[0, 0]])
    assert "numbers" in crowdspec.methods() or "tag-pooled" in crowdspec.methods("tags")
    assert crowdspec.methods("numbers") == ["mean", "median", "gaussian", "catd", "crh", "student-t", "trimmed-mean"]

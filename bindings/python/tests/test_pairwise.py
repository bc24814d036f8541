# SPDX-License-Identifier: MIT
"""The comparison methods through the bindings: fit_comparisons on a hand-computed case,
the crowd-kit-shaped classes on comparisons drawn from Crowd-BT's generative process
(scores recovered, the adversarial workers found), ties, and input errors."""

import math

import numpy as np
import pandas as pd
import pytest

import crowdspec


def test_two_items_maximum_likelihood():
    # 3 wins to 1 without the prior: pi_0 / pi_1 = 3, mean-0 scores +- log(3) / 2, and
    # the standard error sqrt(1 / (4 n p q)) = sqrt(1/3).
    r = crowdspec.fit_comparisons([0, 0, 0, 0], [0, 0, 0, 1], [1, 1, 1, 0],
                                  [0, 0, 1, 1], method="bt", comparison_prior=0)
    assert r.scores == pytest.approx([math.log(3) / 2, -math.log(3) / 2], abs=1e-6)
    assert r.se[0] == pytest.approx(math.sqrt(1 / 3), abs=1e-5)
    assert list(r.ranks) == [1, 2]
    assert r.reliability is None


def simulated_frame(seed=3, items=60, workers=12, comparisons=12000, adversaries=3):
    rng = np.random.default_rng(seed)
    score = rng.normal(size=items)
    eta = np.where(np.arange(workers) < workers - adversaries, 0.9, 0.15)
    w = rng.integers(0, workers, comparisons)
    a = rng.integers(0, items, comparisons)
    b = (a + rng.integers(1, items, comparisons)) % items
    left_wins = rng.random(comparisons) < 1 / (1 + np.exp(score[b] - score[a]))
    left_wins ^= rng.random(comparisons) >= eta[w]  # reversed with probability 1 - eta
    names = np.array(["item%02d" % i for i in range(items)], dtype=object)
    frame = pd.DataFrame({"worker": ["w%d" % x for x in w], "left": names[a], "right": names[b],
                          "label": np.where(left_wins, names[a], names[b])})
    return frame, pd.Series(score, index=names), eta


def test_crowd_bt_finds_the_adversaries():
    frame, truth, eta = simulated_frame()
    crowd = crowdspec.CrowdBT().fit(frame)
    bt = crowdspec.BradleyTerry().fit(frame)
    # Spearman's rho as the Pearson correlation of the ranks: pandas' method="spearman"
    # needs scipy, which the packages the tests install do not bring.
    def spearman(scores):
        return scores.rank().corr(truth[scores.index].rank())

    rho_crowd = spearman(crowd.scores_)
    rho_bt = spearman(bt.scores_)
    assert rho_crowd > 0.95 and rho_crowd > rho_bt
    skills = crowd.skills_.sort_index(key=lambda s: s.str[1:].astype(int))
    assert list(skills < 0.5) == list(eta < 0.5)
    assert list(crowd.ranks_.sort_values().index[:3]) == list(crowd.scores_.sort_values(ascending=False).index[:3])
    assert crowd.loss_history_ == sorted(crowd.loss_history_)


def test_noisy_bt_shape_and_ties():
    frame, truth, _ = simulated_frame(seed=4, adversaries=0)
    frame.loc[::50, "label"] = None  # ties
    noisy = crowdspec.NoisyBradleyTerry(n_iter=500).fit(frame)
    assert set(noisy.scores_.index) == set(truth.index)
    assert noisy.skills_.between(0, 1).all() and noisy.biases_.between(0, 1).all()
    assert noisy.scores_.name == "score"
    bt = crowdspec.BradleyTerry(ties="davidson").fit(frame)
    assert bt.result_.estimates["tie"][0] > 0
    with pytest.raises(crowdspec.CrowdspecError, match="Davidson"):
        crowdspec.CrowdBT(ties="davidson").fit(frame)


def test_bad_labels():
    frame = pd.DataFrame({"worker": ["a"], "left": ["x"], "right": ["y"], "label": ["z"]})
    with pytest.raises(ValueError, match="neither its left item"):
        crowdspec.BradleyTerry().fit(frame)
    with pytest.raises(crowdspec.CrowdspecError):
        crowdspec.fit_comparisons(None, [0], [1], [7])


def test_ids_coded_by_value_whatever_their_type():
    # The same comparisons with ids as str objects (left, right and label each holding
    # its own, equal but distinct, objects), as integers with float labels (NaN: a tie),
    # and as pandas strings: the same scores item by item, ties counted alike.
    frame, _, _ = simulated_frame(seed=5, items=30, comparisons=3000, adversaries=0)
    frame.loc[::40, "label"] = None
    fresh = lambda column: column.map(lambda v: None if v is None else "".join(list(v)))
    by_value = frame.assign(left=fresh(frame["left"]), right=fresh(frame["right"]), label=fresh(frame["label"]))
    assert by_value["left"].iloc[0] is not frame["left"].iloc[0]
    number = {name: i for i, name in enumerate(sorted(set(frame["left"]) | set(frame["right"])))}
    numeric = pd.DataFrame({"worker": frame["worker"], "left": frame["left"].map(number),
                            "right": frame["right"].map(number), "label": frame["label"].map(number).astype(float)})
    assert numeric["label"].isna().sum() == 75
    strings = frame.astype({"left": "string", "right": "string", "label": "string"})
    reference = crowdspec.BradleyTerry(ties="davidson").fit(frame)
    assert reference.result_.estimates["tie"][0] > 0
    for other in (by_value, strings):
        fit = crowdspec.BradleyTerry(ties="davidson").fit(other)
        assert list(fit.scores_.index) == list(reference.scores_.index)
        assert np.array_equal(fit.scores_.to_numpy(), reference.scores_.to_numpy())
    fit = crowdspec.BradleyTerry(ties="davidson").fit(numeric)
    assert list(fit.scores_.index) == list(range(30))
    assert np.array_equal(fit.scores_.to_numpy(), reference.scores_.to_numpy())
    assert fit.result_.estimates["tie"][0] == reference.result_.estimates["tie"][0]


def test_missing_ids_refused():
    frame, _, _ = simulated_frame(seed=6, items=10, comparisons=200, adversaries=0)
    for column in ("left", "right"):
        broken = frame.copy()
        broken.loc[7, column] = None
        with pytest.raises(ValueError, match="left or right item id is missing"):
            crowdspec.BradleyTerry().fit(broken)
    broken = frame.copy()
    broken.loc[3, "worker"] = None
    with pytest.raises(ValueError, match="worker id is missing"):
        crowdspec.CrowdBT().fit(broken)
    # bt ignores workers (Hunter's model has none), so their column is not read
    assert crowdspec.BradleyTerry().fit(broken).scores_.size == 10

# SPDX-License-Identifier: MIT
"""The crowd-kit-shaped classes of the comparison methods: BradleyTerry ("bt"),
NoisyBradleyTerry ("noisy-bt") and CrowdBT ("crowd-bt").

fit(data) takes crowd-kit's pairwise DataFrame: columns worker, left, right, label, where
label equals left or right (the preferred item); a missing label (None, NaN) is a tie
(crowd-kit has none; see the library's "ties" parameter). Item ids are shared by left,
right and label and may be any hashable values, as may worker ids.

After fit: scores_ (pandas Series of the items' log-strengths s, indexed by item, name
"score": item i beats item j with probability 1 / (1 + exp(s_j - s_i)); crowd-kit's
BradleyTerry reports exp(s) normalised to sum 1 and its NoisyBradleyTerry sigmoid(s),
both of the same order), se_ (standard errors), ranks_ (1 = best), and for the worker
models skills_ (Series indexed by worker: noisy-bt's skill, crowd-bt's eta) and, for
NoisyBradleyTerry, biases_ (the chance of picking the left item when not comparing);
also loss_history_ (the log posterior by iteration), n_iter_, converged_, notes_,
result_. fit_predict(data) returns scores_.
"""

import numpy as np

from ._estimator import _Params
from ._fit import ANSWER_LEFT, ANSWER_RIGHT, ANSWER_TIE, fit_comparisons, warn_notes
from ._frame import _factorize, _factorize_columns, _pd

__all__ = ["BradleyTerry", "NoisyBradleyTerry", "CrowdBT"]


def _index(values):
    """A pandas Index of distinct ids, an object array kept as objects (no inference)."""
    if isinstance(values, np.ndarray) and values.dtype == object:
        return _pd().Index(values, dtype=object)
    return _pd().Index(values)


def _encode(data, workers=True):
    """(worker codes, worker ids, left codes, right codes, answers, item ids) of a
    pairwise DataFrame; worker codes and ids are None without a worker column or when
    `workers` is false (bt ignores them). Every column is coded once (_factorize: -1 for
    a missing value) and the checks run on the int32 codes: at 10^6 string rows, pandas'
    isna and object comparisons of the columns had cost more than the fit itself."""
    for column in ("left", "right", "label"):
        if column not in data.columns:
            raise ValueError("the DataFrame has no %r column (it needs worker, left, right, label)" % column)
    left, right, label = data["left"], data["right"], data["label"]
    n = len(data)
    if all(c.dtype == np.dtype(object) for c in (left, right, label)):
        # Ids as objects (strings, mostly): the three columns coded together, a label
        # then being its item's code (-1: missing, a tie). A label that is no item
        # adds an id, and is refused below.
        codes, item_ids = _factorize_columns((left, right, label))
        codes = np.asarray(codes)
        chosen = codes[2 * n:]
    else:
        codes, item_ids = _factorize_columns((left, right))
        codes = np.asarray(codes)
        # The label coded on its own (a tie column of floats must not turn the ids
        # into floats), then its distinct values looked up among the items by pandas'
        # equality; -1 appended so that a missing label's code -1 picks it.
        label_codes, label_values = _factorize(label, sort=False)
        as_item = np.append(_index(item_ids).get_indexer(_index(label_values)), -1)
        chosen = as_item.take(np.asarray(label_codes))
    if (codes[:2 * n] < 0).any():
        raise ValueError("a left or right item id is missing")
    is_left, is_right, tie = chosen == codes[:n], chosen == codes[n:2 * n], chosen < 0
    bad = ~(is_left | is_right | tie)
    if bad.any():
        row = int(np.argmax(bad))
        raise ValueError("label %r at row %d is neither its left item %r nor its right item %r"
                         % (label.iloc[row], row, left.iloc[row], right.iloc[row]))
    answer = np.full(n, ANSWER_TIE, dtype=np.int32)
    answer[is_right] = ANSWER_RIGHT
    answer[is_left] = ANSWER_LEFT
    worker, worker_ids = None, None
    if workers and "worker" in data.columns:
        worker, worker_ids = _factorize(data["worker"])
        if (np.asarray(worker) < 0).any():
            raise ValueError("a worker id is missing")
    return worker, worker_ids, codes[:n], codes[n:2 * n], answer, item_ids


class _Pairwise(_Params):
    def __init__(self, **params):
        self._set_checked(params)

    def fit(self, data):
        pd = _pd()
        worker, worker_ids, left, right, answer, item_ids = _encode(data, self._method != "bt")
        result = fit_comparisons(worker, left, right, answer, method=self._method, warn=False,
                                 **self._params)
        warn_notes(result, stacklevel=3)
        self._keep_result(result)
        index = pd.Index(item_ids, name="label")
        self.scores_ = pd.Series(result.scores, index=index, name="score")
        self.se_ = pd.Series(result.se, index=index, name="se")
        self.ranks_ = pd.Series(result.ranks, index=index, name="rank")
        if result.reliability is not None:
            workers = pd.Index(worker_ids if worker_ids is not None else ["all"], name="worker")
            self.skills_ = pd.Series(result.reliability, index=workers, name="skill")
            if "bias" in result.estimates:
                self.biases_ = pd.Series(result.estimates["bias"], index=workers, name="bias")
        return self

    def fit_predict(self, data):
        return self.fit(data).scores_


class BradleyTerry(_Pairwise):
    """Bradley-Terry by Hunter's MM algorithm ("bt"), Davidson's ties, a weak prior so
    that scores exist on any comparison graph; workers are ignored. Keyword arguments:
    n_iter (max_iter), tol, comparison_prior, ties and any library parameter."""

    _method = "bt"


class NoisyBradleyTerry(_Pairwise):
    """crowd-kit's NoisyBradleyTerry model ("noisy-bt"): each worker compares with
    probability skill, else picks the left item with probability bias; fitted by EM.
    skills_ and biases_ after fit."""

    _method = "noisy-bt"


class CrowdBT(_Pairwise):
    """Crowd-BT (Chen et al. 2013, "crowd-bt"): each worker states the true preference
    with probability eta (skills_), below 0.5 an adversary whose answers count reversed;
    fitted by EM."""

    _method = "crowd-bt"

# SPDX-License-Identifier: MIT
"""Issue 34 in the numpy layer: a classifier's probabilities into a fit
(cs_set_model_probs), and the scores and worker diagnostics out of it
(cs_label_next, cs_label_wrong, cs_worker_diagnostics, cs_model_confusion)."""

from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from . import _lib
from ._lib import check

__all__ = ["Diagnostics", "set_model_probs", "read_model_assist"]


@dataclass
class Diagnostics:
    """What a crowd fit tells beyond its labels (Result.diagnostics).

    label_next: (n,) each item's expected fall in the chance its label is wrong if one
        more label is bought from a typical worker (cs_label_next).
    label_wrong: (n_labels,) each input label's posterior probability of being wrong
        (cs_label_wrong: 1 - the posterior of the label's class), in the input order;
        for an estimator's fit computed when first read (see read_model_assist).
    model_confusion: (k, k) the model's confusion matrix (true x model label) that EM
        estimated (model_probs with a Dawid-Skene method), else None.
    spammer, worst_class, accuracy, accuracy_low, accuracy_high: (m,) per worker
        (cs_worker_diagnostics): Raykar-Yu spammer score (0 spammer .. 1 perfect), the
        worst true class (-1 none), the share of its labels right (soft counts) and its
        95 % posterior Beta interval.
    """

    label_next: np.ndarray
    spammer: np.ndarray
    worst_class: np.ndarray
    accuracy: np.ndarray
    accuracy_low: np.ndarray
    accuracy_high: np.ndarray
    model_confusion: Optional[np.ndarray] = None
    _wrong: Optional[np.ndarray] = field(default=None, repr=False)
    _wrong_from: Optional[tuple] = field(default=None, repr=False)  # (posteriors, item, label)

    @property
    def label_wrong(self):
        if self._wrong is None and self._wrong_from is not None:
            q, item, label = self._wrong_from
            # cs_label_wrong's formula on the same posteriors: the same doubles
            self._wrong = 1.0 - q[item, label]
            self._wrong_from = None
        return self._wrong


def _f64p(a):
    return a.ctypes.data_as(_lib.F64P)


def _i32p(a):
    return a.ctypes.data_as(_lib.I32P)


def set_model_probs(model, probs, items=None):
    """Hand (n_rows, k) probabilities to the handle; items: (n_rows,) item ids, or None
    for items 0 .. n_rows - 1."""
    probs = np.ascontiguousarray(probs, dtype=np.float64)
    if probs.ndim != 2:
        raise ValueError("model_probs must be a 2-D array (items x classes), got %d dimensions" % probs.ndim)
    fn = _lib.function("cs_set_model_probs")
    if items is None:
        check(fn(model, None, _f64p(probs), probs.shape[0], probs.shape[1]), model)
        return
    items = np.ascontiguousarray(items, dtype=np.int32)
    if items.shape != (probs.shape[0],):
        raise ValueError("model_items must have one id per row of model_probs (%d), got shape %r"
                         % (probs.shape[0], items.shape))
    check(fn(model, _i32p(items), _f64p(probs), probs.shape[0], probs.shape[1]), model)


def read_model_assist(model, result, item, label, defer_label_wrong=False):
    """Set result.diagnostics (for the fit's own labels item, label); left None where
    the fit has none (a library older than 0.2 included).

    defer_label_wrong: item and label are the caller's own arrays, which nothing will
    change (an estimator's coded frame): label_wrong is then computed from them and the
    fit's posteriors when first read, by cs_label_wrong's formula, instead of by a pass
    over every label in every fit (1.7 ms at 10^6 labels, most callers never read it).
    They take the memory the scores would (two int32 arrays for one float64)."""
    if not _lib.has_function("cs_label_next"):
        return
    n, k, m = len(result.labels), result.posteriors.shape[1], result.confusion.shape[0]
    scores = np.empty(n, dtype=np.float64)
    if _lib.function("cs_label_next")(model, _f64p(scores), n) != _lib.CS_OK:
        return  # no diagnostics in this fit
    wrong = wrong_from = None
    if defer_label_wrong:
        wrong_from = (result.posteriors, item, label)
    else:
        wrong = np.empty(item.shape[0], dtype=np.float64)
        check(_lib.function("cs_label_wrong")(model, _i32p(item), _i32p(label), item.shape[0], _f64p(wrong)),
              model)
    spammer, accuracy, low, high = (np.empty(m, dtype=np.float64) for _ in range(4))
    worst = np.empty(m, dtype=np.int32)
    if m > 0:
        check(_lib.function("cs_worker_diagnostics")(model, _f64p(spammer), _i32p(worst), _f64p(accuracy),
                                                     _f64p(low), _f64p(high), m), model)
    pi = np.empty((k, k), dtype=np.float64)
    has_pi = _lib.function("cs_model_confusion")(model, _f64p(pi), pi.size) == _lib.CS_OK
    result.diagnostics = Diagnostics(scores, spammer, worst, accuracy, low, high, pi if has_pi else None,
                                     _wrong=wrong, _wrong_from=wrong_from)

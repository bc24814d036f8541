# SPDX-License-Identifier: MIT
"""Numeric answers and sets of tags (libcrowdspec 0.2: cs_fit_numbers, cs_fit_tags).

fit_numbers(item, worker, value) estimates a real value per item with its standard
error, and each worker's bias and noise; fit_tags(item, worker, tags) gives, per item
and tag, the probability that the tag applies, the tag sets at a threshold, and each
worker's sensitivity and specificity per tag. Both are thin: the arrays go to the
library, the results come back as numpy arrays.
"""

import ctypes
from dataclasses import dataclass
from typing import Optional

import numpy as np

from . import _lib
from ._fit import _f64p, _i32p, _run, _size, as_int32, note_names, set_params, warn_notes
from ._lib import Handle, check, lib

__all__ = ["NumbersResult", "TagsResult", "fit_numbers", "fit_tags"]


@dataclass
class NumbersResult:
    """The results of a numbers fit.

    value, se: (n,) the estimate of each item and its standard error.
    bias, noise: (m,) each worker's bias (mean of answer - estimate) and noise
        (standard deviation of its errors).
    trace: the largest move of the estimates in each round.
    iterations, converged, notes, message: as for the other fits.
    """

    method: str
    value: np.ndarray
    se: np.ndarray
    bias: np.ndarray
    noise: np.ndarray
    trace: np.ndarray
    iterations: int
    converged: bool
    notes: int = 0
    message: str = ""

    @property
    def note_names(self):
        return note_names(self.notes)


@dataclass
class TagsResult:
    """The results of a tags fit.

    probabilities: (n, T) P(tag g applies to item j).
    sets: (n, T) bool, the library's tag sets at the thresholds given to fit_tags
        (0.5 by default): probabilities >= threshold.
    sensitivity, specificity: (m, T) P(worker ticks g | g applies) and P(worker does
        not tick g | g does not apply).
    trace, iterations, converged, notes, message: as for the other fits.
    """

    method: str
    probabilities: np.ndarray
    sets: np.ndarray
    sensitivity: np.ndarray
    specificity: np.ndarray
    trace: np.ndarray
    iterations: int
    converged: bool
    notes: int = 0
    message: str = ""

    @property
    def note_names(self):
        return note_names(self.notes)


def _common(model):
    L = lib()
    trace = np.empty(_size(L.cs_trace_length, model), dtype=np.float64)
    if trace.size:
        check(L.cs_trace(model, _f64p(trace), trace.size), model)
    iterations, converged, notes = ctypes.c_int32(), ctypes.c_int32(), ctypes.c_int32()
    check(L.cs_iterations(model, ctypes.byref(iterations)), model)
    check(L.cs_converged(model, ctypes.byref(converged)), model)
    check(L.cs_fit_notes(model, ctypes.byref(notes)), model)
    return dict(trace=trace, iterations=int(iterations.value), converged=bool(converged.value),
                notes=int(notes.value), message=_lib.last_error(model) if notes.value else "")


def _prepare(model, method, n_items, n_workers, params):
    check(lib().cs_set_param_string(model, b"method", str(method).encode("utf-8")), model)
    if n_items is not None:
        params = dict(params, items=int(n_items))
    if n_workers is not None:
        params = dict(params, workers=int(n_workers))
    set_params(model, params)


def fit_numbers(item, worker, value, method="auto", *, n_items=None, n_workers=None, progress=None,
                warn=True, **params):
    """Estimate a real value per item from answers (item[t], worker[t], value[t]), ids
    0-based, with a numbers method: "auto" (= "student-t", the default), "mean",
    "median", "trimmed-mean", "gaussian", "catd", "crh". Other keyword arguments are
    library parameters by name (e.g. t_dof=8, worker_bias="off", catd_alpha=0.05)."""
    item = as_int32(item, "item id")
    worker = as_int32(worker, "worker id")
    value = np.ascontiguousarray(np.asarray(value, dtype=np.float64).reshape(-1))
    if not item.shape[0] == worker.shape[0] == value.shape[0]:
        raise ValueError("item, worker and value must have the same length (%d, %d, %d)"
                         % (item.shape[0], worker.shape[0], value.shape[0]))
    L = lib()
    with Handle() as model:
        _prepare(model, method, n_items, n_workers, params)
        status = _run(model, lambda: L.cs_fit_numbers(model, _i32p(item), _i32p(worker), _f64p(value),
                                                      item.shape[0]), progress)
        check(status, model)
        n, m = _size(L.cs_n_items, model), _size(L.cs_n_workers, model)
        est, se = np.empty(n), np.empty(n)
        bias, noise = np.empty(m), np.empty(m)
        check(L.cs_number_estimates(model, _f64p(est), _f64p(se), n), model)
        check(L.cs_number_workers(model, _f64p(bias), _f64p(noise), m), model)
        result = NumbersResult(method=str(method), value=est, se=se, bias=bias, noise=noise, **_common(model))
    if warn:
        warn_notes(result)
    return result


def _tag_arrays(tags, tag_start, tag):
    """(tag_start, tag) from a sequence of per-answer tag lists, or as given."""
    if tags is not None:
        if tag_start is not None or tag is not None:
            raise ValueError("give tags, or tag_start and tag, not both")
        lengths = np.fromiter((len(t) for t in tags), dtype=np.int64)
        start = np.zeros(lengths.size + 1, dtype=np.int64)
        np.cumsum(lengths, out=start[1:])
        flat = [g for t in tags for g in t]
        return start, as_int32(np.asarray(flat, dtype=np.int64) if flat else np.zeros(0, np.int32), "tag",
                               _lib.CS_ERR_INVALID_LABEL)
    if tag_start is None or tag is None:
        raise ValueError("give tags (a list of tag lists) or tag_start and tag")
    start = np.ascontiguousarray(np.asarray(tag_start, dtype=np.int64).reshape(-1))
    return start, as_int32(tag, "tag", _lib.CS_ERR_INVALID_LABEL)


def fit_tags(item, worker, tags=None, method="auto", *, tag_start=None, tag=None, n_tags=None,
             threshold=None, n_items=None, n_workers=None, progress=None, warn=True, **params):
    """Fit sets of tags: answer t says worker[t] ticked tags[t] (a list of 0-based tag
    ids, possibly empty) on item[t]; a tag it did not tick is a "no". Or give the flat
    form tag_start (n + 1 offsets) and tag. method: "auto" (= "tag-pooled", the
    default) or any crowd method, run on each tag (binary relevance). threshold: None
    (0.5), one value, or one per tag, for result.sets. Other keyword arguments are
    library parameters by name."""
    item = as_int32(item, "item id")
    worker = as_int32(worker, "worker id")
    start, flat = _tag_arrays(tags, tag_start, tag)
    if not item.shape[0] == worker.shape[0] == start.shape[0] - 1:
        raise ValueError("item, worker and the tag lists must have the same length (%d, %d, %d)"
                         % (item.shape[0], worker.shape[0], start.shape[0] - 1))
    L = lib()
    with Handle() as model:
        _prepare(model, method, n_items, n_workers, params)
        status = _run(model, lambda: L.cs_fit_tags(model, _i32p(item), _i32p(worker),
                                                   start.ctypes.data_as(_lib.I64P), _i32p(flat),
                                                   item.shape[0], int(n_tags or 0)), progress)
        check(status, model)
        n, m, T = _size(L.cs_n_items, model), _size(L.cs_n_workers, model), _size(L.cs_n_tags, model)
        p = np.empty((n, T))
        check(L.cs_tag_probabilities(model, _f64p(p), p.size), model)
        sens, spec = np.empty((m, T)), np.empty((m, T))
        check(L.cs_tag_workers(model, _f64p(sens), _f64p(spec), sens.size), model)
        t = None if threshold is None else np.ascontiguousarray(np.atleast_1d(np.asarray(threshold, np.float64)))
        member = np.empty((n, T), dtype=np.int32)
        check(L.cs_tag_sets(model, None if t is None else _f64p(t), 0 if t is None else t.size,
                            _i32p(member), member.size), model)
        result = TagsResult(method=str(method), probabilities=p, sets=member.astype(bool), sensitivity=sens,
                            specificity=spec, **_common(model))
    if warn:
        warn_notes(result)
    return result

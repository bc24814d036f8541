# SPDX-License-Identifier: MIT
"""The numpy layer: fit_labels, fit_points, fit_graph and their Result.

Only numpy is needed here. Arrays go to the library as C-contiguous int32 / float64
buffers; anything that does not convert exactly (an int64 id above 2^31 - 1, a
fractional or NaN id) is an error, never a silent truncation.
"""

import ctypes
import numbers
import signal
import threading
import warnings
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

import numpy as np

from . import _lib
from ._model_assist import Diagnostics, read_model_assist, set_model_probs
from ._lib import CrowdspecError, CrowdspecWarning, Handle, check, lib

__all__ = [
    "Result",
    "fit_labels",
    "fit_points",
    "fit_graph",
    "fit_comparisons",
    "methods",
    "params",
    "version",
    "NOTE_NAMES",
    "WARN_NOTES",
]

_INT32_MIN = -(2 ** 31)
_INT32_MAX = 2 ** 31 - 1

#: Bits of cs_fit_notes() (enum cs_fit_note), by name.
NOTE_NAMES = {
    1: "max_iter_reached",
    2: "spectral_fallback",
    4: "impossible_items",
    8: "unlabeled_items",
    16: "cancelled",
    32: "ignored_edges",
    64: "isolated_nodes",
    128: "empty_cluster",
    256: "label_cycle",
    512: "eigen_not_converged",
    1024: "majority_start",
    65536: "unknown_workers",
    131072: "degenerate_maximum",
    4194304: "approximate_se",
    8388608: "variance_floor",
    16777216: "incremental",
    33554432: "crowdlab_fallback",
}


#: Notes a user must act on: a fit that reports one issues a CrowdspecWarning. The
#: others describe normal outcomes the documentation defines (the majority-vote start
#: won, a spectral start fell back to it, items without labels got the prior, ...):
#: they are in Result.note_names and the estimators' notes_, without a warning.
WARN_NOTES = frozenset({
    "max_iter_reached",     # raise max_iter or loosen tol: the fit did not converge
    "impossible_items",     # zero-likelihood items got the prior: check the data
    "eigen_not_converged",  # the spectral start is less accurate than it could be
    "degenerate_maximum",   # some items' label was arbitrary at EM's maximum
    "unknown_workers",      # predict: workers the fit never saw count as average
    "isolated_nodes",       # nodes without edges got community 0 by default
    "crowdlab_fallback",    # crowdlab without model probabilities or shared items
})


def note_names(notes):
    """The names of the bits set in a cs_fit_notes() value."""
    names = []
    bit = 1
    while bit <= notes:
        if notes & bit:
            names.append(NOTE_NAMES.get(bit, "note_%d" % bit))
        bit <<= 1
    return names


@dataclass
class Result:
    """The results of one fit, copied out of the library.

    labels: (n,) int32 class (cluster, community) index of each item.
    posteriors: (n, k) float64, row-major, rows summing to 1.
    confusion: (m, k, k) float64, worker x true x observed: confusion[i, l, c] is
        P(worker i answers c | true class l); shape (0, k, k) for points and graphs.
    prior: (k,) class prior (cluster / community proportions for points and graphs).
    trace: the objective after each iteration (log-likelihood for EM methods).
    iterations, converged, log_likelihood: as cs_iterations, cs_converged,
        cs_log_likelihood.
    notes: the cs_fit_notes bits; message: the library's explanation of them.
    centres: (k, d) cluster means of a points fit, else None.
    densities: (within, between) edge densities of a graph fit, else None.
    scores, se, ranks: a comparisons fit's per-item log-strength, standard error and
        rank (1 = best; cs_scores), else None; reliability: noisy-bt's skill or
        crowd-bt's eta per worker (cs_worker_reliability), None for bt and other fits.
    estimates: the method's own estimates by name (cs_estimate), e.g. glad's
        "ability" (m,) and "inverse_difficulty" (n,), mace's "competence" (m,) and
        "strategy" (m, k); empty for methods without any.
    temperature, mixing, calibration: how the posteriors were calibrated
        (cs_calibration; the Dawid-Skene family, parameter "calibration"): each row is
        (1 - mixing) q_T + mixing prior with q_T proportional to q^(1/temperature)
        (with model_probs only the crowd's evidence is tempered: the classifier's term
        m(t) = log sum_o p(o) pi_M[t][o] is left out, exp((log q - m)/T + m));
        calibration is the source, "none" (T = 1, mixing 0: not applied), "labels"
        (T from held-out labels) or "gold" (T and mixing from gold items). Pass
        temperature and mixing to predict_labels to predict as the fit did.
    median_grades, mean_grades: when the classes are ordered grades (an ordinal method,
        or ordinal=1), each item's posterior median grade ((n,) int32 class index) and
        posterior mean grade ((n,) float64, in class positions 0..k-1), else None.
    diagnostics: crowd fits (fit_labels): the label-next and label-wrong scores, the
        model's confusion matrix and the worker diagnostics (_model_assist.Diagnostics).
    """

    method: str
    labels: np.ndarray
    posteriors: np.ndarray
    confusion: np.ndarray
    prior: np.ndarray
    trace: np.ndarray
    iterations: int
    converged: bool
    log_likelihood: float
    notes: int = 0
    message: str = ""
    centres: Optional[np.ndarray] = None
    densities: Optional[Tuple[float, float]] = None
    estimates: dict = field(default_factory=dict)
    temperature: float = 1.0
    mixing: float = 0.0
    calibration: str = "none"
    median_grades: Optional[np.ndarray] = None
    mean_grades: Optional[np.ndarray] = None
    scores: Optional[np.ndarray] = None
    se: Optional[np.ndarray] = None
    ranks: Optional[np.ndarray] = None
    reliability: Optional[np.ndarray] = None
    diagnostics: Optional[Diagnostics] = None

    @property
    def note_names(self) -> List[str]:
        """The notes as names, e.g. ["max_iter_reached"]."""
        return note_names(self.notes)


# ----------------------------------------------------------------------------------
# Conversions


def _fail(status, message):
    return CrowdspecError(status, _lib.status_name(status), message)


def _first_bad(mask):
    return int(np.argmax(mask))


def as_int32(values, what, status=_lib.CS_ERR_INVALID_ID):
    """values as a C-contiguous 1-D int32 array, converting exactly or raising.

    Integers outside int32 raise CrowdspecError (``status``) naming the first one;
    floats must be whole numbers. Negative values in range are left for the library
    to reject (its message names the index).
    """
    a = np.asarray(values)
    if a.ndim != 1:
        raise ValueError("%s must be one-dimensional, got shape %s" % (what, a.shape))
    if a.dtype == np.int32:
        return np.ascontiguousarray(a)
    kind = a.dtype.kind
    if kind == "b":
        return a.astype(np.int32)
    if kind == "O":
        # Python ints (possibly huge) or pandas' nullable integers.
        out = np.empty(a.shape[0], dtype=np.int64)
        for index, value in enumerate(a):
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
                raise _fail(status, "%s %r at index %d is not an integer" % (what, value, index))
            if not _INT32_MIN <= int(value) <= _INT32_MAX:
                raise _fail(status, "%s %d at index %d does not fit in a 32-bit int"
                            % (what, int(value), index))
            out[index] = int(value)
        return out.astype(np.int32)
    if kind == "f":
        bad = ~np.isfinite(a) | (a != np.floor(a))
        if bad.any():
            i = _first_bad(bad)
            raise _fail(status, "%s %r at index %d is not a whole number" % (what, a[i], i))
    elif kind not in "iu":
        raise TypeError("%s must be integers, got dtype %s" % (what, a.dtype))
    if a.size:
        low, high = a.min(), a.max()
        if high > _INT32_MAX or low < _INT32_MIN:
            i = _first_bad((a > _INT32_MAX) | (a < _INT32_MIN))
            raise _fail(status, "%s %s at index %d does not fit in a 32-bit int "
                        "(%d .. %d)" % (what, a[i], i, _INT32_MIN, _INT32_MAX))
    return a.astype(np.int32)


def _i32p(a):
    return a.ctypes.data_as(_lib.I32P)


def _f64p(a):
    return a.ctypes.data_as(_lib.F64P)


def as_float64(values, what):
    """A C-contiguous float64 copy of values (flattened), finite and >= 0 checked by
    the library."""
    a = np.ascontiguousarray(np.asarray(values, dtype=np.float64).reshape(-1))
    return a


def _set_initial(model, confusion, prior):
    L = lib()
    if confusion is not None:
        c = as_float64(confusion, "initial confusion")
        check(L.cs_set_initial_confusion(model, _f64p(c), c.size), model)
    if prior is not None:
        p = as_float64(prior, "initial prior")
        check(L.cs_set_initial_prior(model, _f64p(p), p.size), model)


def _param_text(name, value):
    if isinstance(value, str):
        return value
    if isinstance(value, (bool, np.bool_)):
        return "1" if value else "0"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        return repr(float(value))  # shortest text that reads back to the same double
    raise TypeError("parameter %r: expected a str or a number, got %r" % (name, value))


def set_params(model, params):
    """cs_set_param_string for every (name, value); None values are skipped.

    Any name the library knows works, including parameters added after these
    bindings were written; an unknown name raises the library's CS_ERR_UNKNOWN_PARAM.
    """
    for name, value in params.items():
        if value is None:
            continue
        text = _param_text(name, value)
        status = lib().cs_set_param_string(model, str(name).encode("utf-8"),
                                           text.encode("utf-8"))
        check(status, model)


def validate_params(params):
    """Apply params to a scratch handle, so that bad names or values fail early."""
    with Handle() as model:
        set_params(model, params)


# ----------------------------------------------------------------------------------
# Running a fit: progress, Ctrl-C, exceptions in the callback


class _FitState:
    def __init__(self, progress):
        self.progress = progress
        self.interrupted = False
        self.user_cancelled = False
        self.exception = None

    def on_sigint(self, signum, frame):
        # Runs in the main thread when it next executes Python code: inside the
        # progress callback while a fit runs.
        self.interrupted = True

    def callback(self, user, iteration, objective):
        # Nothing may propagate out of here into C: ctypes would print and ignore it.
        try:
            if self.interrupted:
                return 1
            if self.progress is not None and self.progress(int(iteration), float(objective)):
                self.user_cancelled = True
                return 1
            return 0
        except BaseException as exc:  # noqa: B902 - includes KeyboardInterrupt
            self.exception = exc
            return 1


def _run(model, call, progress):
    """call() runs the C fit (with the GIL released by ctypes); returns its status."""
    state = _FitState(progress)
    in_main = threading.current_thread() is threading.main_thread()
    callback = None
    if progress is not None or in_main:
        callback = _lib.PROGRESS_FN(state.callback)
        check(lib().cs_set_progress(model, callback, None), model)
    previous = None
    if in_main:
        try:
            current = signal.getsignal(signal.SIGINT)
            if current is signal.default_int_handler:
                previous = current
                signal.signal(signal.SIGINT, state.on_sigint)
        except ValueError:  # not the main interpreter
            previous = None
    try:
        status = call()
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
        if callback is not None:
            lib().cs_set_progress(model, _lib.PROGRESS_FN(), None)
    if state.interrupted:
        raise KeyboardInterrupt("crowdspec: fit cancelled by SIGINT")
    if state.exception is not None:
        raise state.exception
    if status == _lib.CS_ERR_CANCELLED and state.user_cancelled:
        return _lib.CS_OK  # the caller's progress function asked to stop: keep results
    return status


def _size(fn, model):
    n = ctypes.c_size_t()
    check(fn(model, ctypes.byref(n)), model)
    return n.value


def _collect(model, method, kind):
    L = lib()
    n = _size(L.cs_n_items, model)
    k = _size(L.cs_n_classes, model)
    m = _size(L.cs_n_workers, model)
    labels = np.empty(n, dtype=np.int32)
    check(L.cs_labels(model, _i32p(labels), labels.size), model)
    posteriors = np.empty((n, k), dtype=np.float64)
    check(L.cs_posteriors(model, _f64p(posteriors), posteriors.size), model)
    confusion = np.empty((m, k, k), dtype=np.float64)
    if confusion.size:
        check(L.cs_confusion(model, _f64p(confusion), confusion.size), model)
    prior = np.empty(k, dtype=np.float64)
    check(L.cs_class_prior(model, _f64p(prior), prior.size), model)
    trace = np.empty(_size(L.cs_trace_length, model), dtype=np.float64)
    if trace.size:
        check(L.cs_trace(model, _f64p(trace), trace.size), model)
    iterations = ctypes.c_int32()
    check(L.cs_iterations(model, ctypes.byref(iterations)), model)
    converged = ctypes.c_int32()
    check(L.cs_converged(model, ctypes.byref(converged)), model)
    loglik = ctypes.c_double()
    check(L.cs_log_likelihood(model, ctypes.byref(loglik)), model)
    notes = ctypes.c_int32()
    check(L.cs_fit_notes(model, ctypes.byref(notes)), model)
    result = Result(method=method, labels=labels, posteriors=posteriors,
                    confusion=confusion, prior=prior, trace=trace,
                    iterations=int(iterations.value), converged=bool(converged.value),
                    log_likelihood=float(loglik.value), notes=int(notes.value),
                    message=_lib.last_error(model) if notes.value else "")
    if kind in (_lib.INPUT_CROWD, _lib.INPUT_COMPARISONS):
        result.estimates = _estimates(model)
    if kind == _lib.INPUT_CROWD:
        _read_calibration(model, result)
    if kind == _lib.INPUT_CROWD and n > 0:
        # Ordered grades only: the library refuses (CS_ERR_INVALID_ARGUMENT) otherwise.
        medians = np.empty(n, dtype=np.int32)
        if L.cs_median_grades(model, _i32p(medians), medians.size) == _lib.CS_OK:
            means = np.empty(n, dtype=np.float64)
            check(L.cs_mean_grades(model, _f64p(means), means.size), model)
            result.median_grades, result.mean_grades = medians, means
    if kind == _lib.INPUT_COMPARISONS:
        result.scores = np.empty(n, dtype=np.float64)
        result.se = np.empty(n, dtype=np.float64)
        result.ranks = np.empty(n, dtype=np.int32)
        check(_lib.function("cs_scores")(model, _f64p(result.scores), _f64p(result.se),
                                         _i32p(result.ranks), n), model)
        if method != "bt":
            result.reliability = np.empty(m, dtype=np.float64)
            check(_lib.function("cs_worker_reliability")(model, _f64p(result.reliability), m),
                  model)
    if kind == _lib.INPUT_POINTS:
        d = _size(L.cs_n_dims, model)
        centres = np.empty((k, d), dtype=np.float64)
        check(L.cs_centres(model, _f64p(centres), centres.size), model)
        result.centres = centres
    elif kind == _lib.INPUT_GRAPH:
        within, between = ctypes.c_double(), ctypes.c_double()
        check(L.cs_graph_densities(model, ctypes.byref(within), ctypes.byref(between)),
              model)
        result.densities = (within.value, between.value)
    return result


# The names cs_estimate knows (crowdspec.h): each is looked up after a crowd fit.
_ESTIMATE_NAMES = ("ability", "inverse_difficulty", "competence", "strategy", "tie", "bias")


def _estimates(model):
    """{name: array} of the method-specific estimates of the fit on the handle: (rows,)
    for one column, else (rows, cols). Empty with a library older than 0.2."""
    if not _lib.has_function("cs_estimate"):
        return {}
    fn = _lib.function("cs_estimate")
    out = {}
    for name in _ESTIMATE_NAMES:
        rows, cols = ctypes.c_size_t(), ctypes.c_size_t()
        key = name.encode("ascii")
        if fn(model, key, None, 0, ctypes.byref(rows), ctypes.byref(cols)) != _lib.CS_OK:
            continue  # not an estimate of this method
        values = np.empty((rows.value, cols.value), dtype=np.float64)
        check(fn(model, key, _f64p(values), values.size, None, None), model)
        out[name] = values[:, 0].copy() if cols.value == 1 else values
    return out


def _read_calibration(model, result):
    """The calibration of the crowd fit (or prediction) on the handle (cs_calibration)
    into result; left at none with a library older than 0.2."""
    if not _lib.has_function("cs_calibration"):
        return
    temperature, mixing, source = ctypes.c_double(), ctypes.c_double(), ctypes.c_int32()
    check(_lib.function("cs_calibration")(model, ctypes.byref(temperature), ctypes.byref(mixing),
                                          ctypes.byref(source)), model)
    result.temperature = float(temperature.value)
    result.mixing = float(mixing.value)
    result.calibration = _lib.CALIBRATION_NAMES.get(source.value, "source_%d" % source.value)


def _method_name(model):
    """The name of the method set on the handle (the library's default when none was)."""
    method = ctypes.c_int64()
    check(lib().cs_get_int(model, _lib.CS_PARAM_METHOD, ctypes.byref(method)), model)
    return lib().cs_method_name(int(method.value)).decode("utf-8")


def warn_notes(result, stacklevel=3, rename=None):
    """warnings.warn(CrowdspecWarning) when a fit reports a note the user must act on
    (WARN_NOTES); the other notes stay in result.note_names. rename: an optional
    function applied to the library's message (the DataFrame classes name items by
    their task ids)."""
    urgent = [name for name in result.note_names if name in WARN_NOTES]
    if urgent:
        text = "crowdspec %s: %s" % (result.method, ", ".join(urgent))
        if result.message:
            text += ": " + (rename(result.message) if rename else result.message)
        warnings.warn(text, CrowdspecWarning, stacklevel=stacklevel)


def _triples(item, worker, label):
    """Crowd labels as three int32 arrays of one length (as_int32's errors name the
    column); ValueError when the lengths differ."""
    item = as_int32(item, "item id", _lib.CS_ERR_INVALID_ID)
    worker = as_int32(worker, "worker id", _lib.CS_ERR_INVALID_ID)
    label = as_int32(label, "label", _lib.CS_ERR_INVALID_LABEL)
    if not item.shape[0] == worker.shape[0] == label.shape[0]:
        raise ValueError("item, worker and label must have the same length (%d, %d, %d)"
                         % (item.shape[0], worker.shape[0], label.shape[0]))
    return item, worker, label


def _prepare(model, method, params):
    """Set the method (None: the library's default) and params; returns the method's
    name."""
    if method is not None:
        check(lib().cs_set_param_string(model, b"method", str(method).encode("utf-8")), model)
    set_params(model, params)
    return _method_name(model)


# ----------------------------------------------------------------------------------
# Public functions


def fit_labels(item, worker, label, method=None, *, n_items=None, n_workers=None,
               n_classes=None, gold_item=None, gold_label=None, initial_confusion=None,
               initial_prior=None, model_probs=None, model_items=None, progress=None, warn=True,
               _private_codes=False, **params):
    """Fit a crowd method to (item, worker, label) triples of 0-based integers.

    Args:
        item, worker, label: 1-D integer arrays of equal length (any integer dtype;
            values must fit in int32).
        method: a crowd method name ("auto", "mv", "ds", "opt-ds", ...; see
            methods()); None (the default) is the library's default, "auto" (Dawid-Skene
            with a prior pooled over workers of like activity, calibrated posteriors).
        n_items, n_workers, n_classes: the library's "items", "workers", "classes"
            (default: 1 + the largest id / label).
        gold_item, gold_label: known true labels pinned during the fit (cs_set_gold).
        initial_confusion, initial_prior: a warm start (cs_set_initial_confusion,
            cs_set_initial_prior): (m, k, k) worker x true x observed matrices and (k,)
            prior EM starts from (EM methods only); a worker's all-zero matrix marks it
            as new (it starts from the majority-vote estimate).
        model_probs, model_items: a classifier's (n_rows, k) class probabilities, row r
            for item model_items[r] (default: row j for item j); see set_model_probs.
        progress: optional function(iteration, objective); a true return value stops
            the fit, keeping the last completed iteration.
        warn: issue a CrowdspecWarning when the fit reports a note the user must act
            on (WARN_NOTES); every note is in Result.note_names.
        **params: any library parameter by name (max_iter=50, tol=0, prior="uniform",
            confusion="one-coin", seed=3, threads=1, smoothing=0.5, ...).

    Returns: a Result. Raises CrowdspecError (MemoryError when out of memory);
    KeyboardInterrupt when Ctrl-C cancelled the fit.
    """
    item, worker, label = _triples(item, worker, label)
    sizes = {"items": n_items, "workers": n_workers, "classes": n_classes}
    with Handle() as model:
        method = _prepare(model, method, dict(sizes, **params))
        if gold_item is not None or gold_label is not None:
            gi = as_int32(gold_item if gold_item is not None else [], "gold item id",
                          _lib.CS_ERR_INVALID_ID)
            gl = as_int32(gold_label if gold_label is not None else [], "gold label",
                          _lib.CS_ERR_INVALID_LABEL)
            if gi.shape[0] != gl.shape[0]:
                raise ValueError("gold_item and gold_label must have the same length")
            check(lib().cs_set_gold(model, _i32p(gi), _i32p(gl), gi.shape[0]), model)
        _set_initial(model, initial_confusion, initial_prior)
        if model_probs is not None:
            set_model_probs(model, model_probs, model_items)
        status = _run(model, lambda: lib().cs_fit(model, _i32p(item), _i32p(worker),
                                                  _i32p(label), item.shape[0]), progress)
        check(status, model)
        result = _collect(model, method, _lib.INPUT_CROWD)
        # _private_codes (the estimators' own coded frame, which nothing changes after
        # the fit): the label-wrong scores are computed when first read.
        read_model_assist(model, result, item, label, defer_label_wrong=_private_codes)
    if warn:
        warn_notes(result)
    return result


def fit_points(X, n_clusters, method="lloyd", *, progress=None, warn=True, **params):
    """Cluster the rows of X (n x d, converted to C-contiguous float64) into
    n_clusters clusters with a points method ("lloyd", "kmeans++").

    Returns a Result whose centres is (k, d) and posteriors one-hot."""
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError("X must be two-dimensional (n_samples, n_features), got shape %s"
                         % (X.shape,))
    X = np.ascontiguousarray(X)
    n, d = X.shape
    with Handle() as model:
        _prepare(model, method, dict({"classes": n_clusters}, **params))
        status = _run(model, lambda: lib().cs_fit_points(model, _f64p(X), n, d, d), progress)
        check(status, model)
        result = _collect(model, method, _lib.INPUT_POINTS)
    if warn:
        warn_notes(result)
    return result


def fit_graph(u, v, n_communities, method="commu-lloyd", *, n_nodes=None, progress=None,
              warn=True, **params):
    """Find n_communities communities of the undirected graph with edges (u[t], v[t])
    (0-based node ids) with a graph method ("commu-lloyd", "spec", "spec-mle").

    n_nodes defaults to 1 + the largest id. Returns a Result whose densities is
    (within, between)."""
    u = as_int32(u, "node id")
    v = as_int32(v, "node id")
    if u.shape[0] != v.shape[0]:
        raise ValueError("u and v must have the same length (%d, %d)"
                         % (u.shape[0], v.shape[0]))
    if n_nodes is None:
        n_nodes = int(max(u.max(initial=-1), v.max(initial=-1))) + 1
    if n_nodes < 0:
        raise ValueError("n_nodes must be >= 0")
    with Handle() as model:
        _prepare(model, method, dict({"classes": n_communities}, **params))
        status = _run(model, lambda: lib().cs_fit_graph(model, n_nodes, _i32p(u), _i32p(v),
                                                        u.shape[0]), progress)
        check(status, model)
        result = _collect(model, method, _lib.INPUT_GRAPH)
    if warn:
        warn_notes(result)
    return result


_KINDS = {_lib.INPUT_CROWD: "crowd", _lib.INPUT_POINTS: "points", _lib.INPUT_GRAPH: "graph",
          _lib.INPUT_COMPARISONS: "comparisons", _lib.INPUT_TAGS: "tags",
          _lib.INPUT_NUMBERS: "numbers"}


#: Answers of cs_fit_comparisons (enum cs_answer).
ANSWER_LEFT, ANSWER_RIGHT, ANSWER_TIE = 0, 1, 2


def fit_comparisons(worker, left, right, answer, method="bt", *, n_items=None, n_workers=None,
                    progress=None, warn=True, **params):
    """Rank items from pairwise comparisons with a comparison method ("bt", "noisy-bt",
    "crowd-bt"): worker[t] was shown items left[t] and right[t] (0-based ids) and
    answered answer[t]: ANSWER_LEFT (0), ANSWER_RIGHT (1) or ANSWER_TIE (2). worker
    may be None (one worker). Returns a Result with scores, se, ranks and, for noisy-bt
    and crowd-bt, reliability; estimates holds bt's "tie" (nu) and noisy-bt's "bias"."""
    left = as_int32(left, "item id")
    right = as_int32(right, "item id")
    answer = as_int32(answer, "answer", _lib.CS_ERR_INVALID_ARGUMENT)
    n = left.shape[0]
    if right.shape[0] != n or answer.shape[0] != n:
        raise ValueError("left, right and answer must have the same length (%d, %d, %d)"
                         % (n, right.shape[0], answer.shape[0]))
    if worker is not None:
        worker = as_int32(worker, "worker id")
        if worker.shape[0] != n:
            raise ValueError("worker must have the length of left (%d), got %d" % (n, worker.shape[0]))
    extra = {}
    if n_items is not None:
        extra["items"] = n_items
    if n_workers is not None:
        extra["workers"] = n_workers
    fit = _lib.function("cs_fit_comparisons")
    with Handle() as model:
        _prepare(model, method, dict(extra, **params))
        status = _run(model, lambda: fit(model, None if worker is None else _i32p(worker), _i32p(left),
                                         _i32p(right), _i32p(answer), n), progress)
        check(status, model)
        result = _collect(model, method, _lib.INPUT_COMPARISONS)
    if warn:
        warn_notes(result)
    return result


def methods(kind=None):
    """The library's method names, in its order; kind "crowd", "points", "graph" or "comparisons"
    keeps one input kind."""
    L = lib()
    names = []
    for index in range(L.cs_method_count()):
        method = L.cs_method_at(index)
        if kind is None or _KINDS.get(L.cs_method_input(method)) == kind:
            names.append(L.cs_method_name(method).decode("utf-8"))
    return names


def method_summaries(kind=None):
    """{name: one-line description} of the library's methods (cs_method_summary), in its
    order; kind "crowd", "points", "graph" or "comparisons" keeps one input kind."""
    L = lib()
    out = {}
    for index in range(L.cs_method_count()):
        method = L.cs_method_at(index)
        if kind is None or _KINDS.get(L.cs_method_input(method)) == kind:
            out[L.cs_method_name(method).decode("utf-8")] = L.cs_method_summary(method).decode("utf-8")
    return out


def params():
    """The library's parameters: {name: {"id", "lower", "upper", "default", "integer"}}."""
    L = lib()
    out = {}
    for index in range(L.cs_param_count()):
        param = L.cs_param_at(index)
        lower, upper, default = ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
        integer = ctypes.c_int32()
        check(L.cs_param_info(param, ctypes.byref(lower), ctypes.byref(upper),
                              ctypes.byref(default), ctypes.byref(integer)))
        out[L.cs_param_name(param).decode("utf-8")] = {
            "id": param, "lower": lower.value, "upper": upper.value,
            "default": default.value, "integer": bool(integer.value)}
    return out


def has_param(name):
    """Whether the loaded library has a parameter of this name (cs_param_from_name)."""
    param = ctypes.c_int32()
    return lib().cs_param_from_name(str(name).encode("utf-8"), ctypes.byref(param)) == 0


def version():
    """The loaded library's version string (cs_version_string)."""
    return lib().cs_version_string().decode("utf-8")

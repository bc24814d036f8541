# SPDX-License-Identifier: MIT
"""crowd-kit's metrics, computed by the library: Krippendorff's alpha, consistency,
uncertainty and accuracy on aggregates.

Each function takes the same arguments as its namesake in ``crowdkit.metrics`` (a
DataFrame with columns task, worker, label) and gives the same values; the library
computes them in O(labels) (cs_agreement, cs_consistency, cs_uncertainty,
cs_accuracy_on_aggregates in crowdspec.h state the definitions), so they take a
fraction of a second at 10^7 labels. Differences from crowd-kit:

- alpha_krippendorff has only crowd-kit's default distance (nominal: 0 for equal
  labels, 1 otherwise); another ``distance`` raises NotImplementedError;
- consistency is computed in log space: where crowd-kit's product of probabilities
  underflows (items with hundreds of labels) it gives the value, not 0 / 0;
- accuracy_on_aggregates counts every label, where crowd-kit drops repeated identical
  (task, worker, label) rows first; an aggregate that is none of the answers' labels
  leaves the task out (crowd-kit counts its labels as wrong).

Skills given as a Series must cover every worker of the answers (ValueError naming
the missing ones) and lie in [0, 1].
"""

import ctypes

import numpy as np

from . import _lib
from ._crowd_frame import _Encoded
from ._frame import _pd
from ._lib import Handle, check

__all__ = ["alpha_krippendorff", "consistency", "uncertainty", "accuracy_on_aggregates"]


def _i32p(a):
    return a.ctypes.data_as(_lib.I32P)


def _f64p(a):
    return a.ctypes.data_as(_lib.F64P)


def _encode(answers):
    if not isinstance(answers, _pd().DataFrame):
        raise TypeError("answers must be a pandas DataFrame with columns task, worker, label")
    return _Encoded(answers)


def _skills(enc, workers_skills):
    """The skills in the workers' code order (float64), or None."""
    if workers_skills is None:
        return None
    pd = _pd()
    if not isinstance(workers_skills, pd.Series):
        raise TypeError("workers_skills must be a pandas Series indexed by worker")
    s = workers_skills.reindex(enc.worker_index()).to_numpy(dtype=np.float64)
    missing = np.isnan(s)
    if missing.any():
        names = list(enc.worker_index()[missing][:5])
        raise ValueError("workers_skills has no skill for workers %s%s" %
                         (names, " ..." if missing.sum() > 5 else ""))
    return np.ascontiguousarray(s)


def _aggregate_codes(enc, aggregates):
    """The class code of each task's aggregate (-1: none)."""
    pd = _pd()
    if not isinstance(aggregates, pd.Series):
        raise TypeError("aggregates must be a pandas Series indexed by task")
    values = aggregates.reindex(enc.task_index()).to_numpy()
    codes = enc.class_index().get_indexer(values)
    return np.ascontiguousarray(codes, dtype=np.int32)


def _call(name, *args):
    fn = _lib.function(name)
    with Handle() as model:
        check(fn(model, *args), model)


def _accuracy_by_worker(enc, agg_codes, overall=None):
    """Per worker (code order) the share of labels equal to the aggregate (NaN for none)."""
    agg = np.ascontiguousarray(agg_codes, dtype=np.int32)
    out = np.empty(enc.n_workers, dtype=np.float64)
    total = ctypes.c_double()
    _call("cs_accuracy_on_aggregates", _i32p(enc.item), _i32p(enc.worker), _i32p(enc.label),
          enc.item.size, _i32p(agg), agg.size, _f64p(out), out.size, ctypes.byref(total))
    if overall is not None:
        overall.append(total.value)
    return out


def alpha_krippendorff(answers, distance=None):
    """Krippendorff's alpha of the answers, nominal (crowd-kit's alpha_krippendorff with
    its default binary distance): 1 - D_o / D_e from the coincidences of the labels on
    each task with two or more labels; 1 when every label has one value."""
    if distance is not None:
        raise NotImplementedError("only the nominal (binary) distance is computed by crowdspec")
    enc = _encode(answers)
    alpha = ctypes.c_double()
    _call("cs_agreement", _i32p(enc.item), _i32p(enc.label), enc.item.size, ctypes.byref(alpha),
          None, 0)
    return float(alpha.value)


def _fit_aggregator(aggregator, answers):
    if aggregator is None:
        from ._aggregators import MajorityVote
        aggregator = MajorityVote()
    aggregator.fit(answers)
    return aggregator


def consistency(answers, workers_skills=None, aggregator=None, by_task=False):
    """Posterior probability of each task's aggregated label under the one-coin model of
    the worker skills (crowd-kit's consistency): the aggregator (default MajorityVote())
    is fitted to the answers; workers_skills default to its skills_. Returns the mean
    over tasks, or with by_task a Series by task."""
    pd = _pd()
    enc = _encode(answers)
    fitted = _fit_aggregator(aggregator, answers)
    if workers_skills is None:
        if not hasattr(fitted, "skills_"):
            raise ValueError("this aggregator has no skills_: give workers_skills")
        workers_skills = fitted.skills_
    skills = _skills(enc, workers_skills)
    agg = _aggregate_codes(enc, fitted.labels_)
    out = np.empty(enc.n_items, dtype=np.float64)
    _call("cs_consistency", _i32p(enc.item), _i32p(enc.worker), _i32p(enc.label), enc.item.size,
          _f64p(skills), skills.size, _i32p(agg), agg.size, _f64p(out), out.size)
    series = pd.Series(out, index=enc.task_index())
    return series if by_task else float(series.mean())


def uncertainty(answers, workers_skills=None, aggregator=None, compute_by="task", aggregate=True):
    """Entropy (nats) of the skill-weighted label distribution of each task or worker
    (crowd-kit's uncertainty): skills from workers_skills, else from the fitted
    aggregator's skills_ when one is given, else 1. Returns the mean, or with
    aggregate=False a Series by task (compute_by="task") or by worker ("worker")."""
    pd = _pd()
    if compute_by not in ("task", "worker"):
        raise ValueError("compute_by must be 'task' or 'worker', not %r" % (compute_by,))
    enc = _encode(answers)
    if workers_skills is None and aggregator is not None:
        fitted = _fit_aggregator(aggregator, answers)
        if not hasattr(fitted, "skills_"):
            raise ValueError("this aggregator has no skills_: give workers_skills")
        workers_skills = fitted.skills_
    skills = _skills(enc, workers_skills)
    by_worker = compute_by == "worker"
    out = np.empty(enc.n_workers if by_worker else enc.n_items, dtype=np.float64)
    _call("cs_uncertainty", _i32p(enc.item), _i32p(enc.worker), _i32p(enc.label), enc.item.size,
          None if skills is None else _f64p(skills), 0 if skills is None else skills.size,
          1 if by_worker else 0, _f64p(out), out.size)
    series = pd.Series(out, index=enc.worker_index() if by_worker else enc.task_index())
    return float(series.mean()) if aggregate else series


def accuracy_on_aggregates(answers, aggregator=None, aggregates=None, by=None):
    """The share of the answers that match the aggregated label of their task
    (crowd-kit's accuracy_on_aggregates): aggregates (a Series by task), else those of
    the aggregator (default MajorityVote()). by=None: over all answers; by="worker": a
    Series by worker."""
    pd = _pd()
    if by not in (None, "worker"):
        raise ValueError("by must be None or 'worker', not %r" % (by,))
    enc = _encode(answers)
    if aggregates is None:
        aggregates = _fit_aggregator(aggregator, answers).labels_
    overall = []
    per_worker = _accuracy_by_worker(enc, _aggregate_codes(enc, aggregates), overall)
    if by is None:
        return float(overall[0])
    return pd.Series(per_worker, index=enc.worker_index())

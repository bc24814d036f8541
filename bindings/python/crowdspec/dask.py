# SPDX-License-Identifier: MIT
"""Dawid-Skene fits of crowds held in a Dask DataFrame (docs/scaling.md, "Dask").

``fit(ddf, method="auto")`` takes a Dask DataFrame with columns task, worker, label
(any hashable values), re-partitions it by task so that each task's labels sit in one
partition, and turns each partition into a shard of libcrowdspec's sufficient-
statistics API on the Dask workers (cs_shard_labels; the shards stay there). Each EM
round, the client sends the parameters, every partition runs its E-step
(cs_shard_e_step) and returns its statistics -- per-worker count tables, class mass,
log-likelihood: n_workers x k^2 + k + 2 doubles --, the client sums them in partition
order, and libcrowdspec runs the M-step and decides the next round: cs_fit_stats runs
cs_fit's own EM (start, SQUAREM, stopping rule) on the summed statistics. The result
equals the single-process fit with calibration none (posteriors within rounding).

Needs dask and distributed (Debian: python3-dask, python3-distributed). Methods: ds,
one-coin-ds, class-one-coin-ds, auto. The posteriors are EM's (not calibrated).
"""

import ctypes
import time

import numpy as np
import pandas as pd

from . import _lib
from ._fit import _f64p, _i32p, set_params
from ._lib import Handle, check, function, lib

__all__ = ["fit", "DaskFit"]


class _Shard:
    """One partition's labels as a libcrowdspec shard (lives on a Dask worker; pickled
    as its arrays, and rebuilt where it lands)."""

    def __init__(self, tasks, item, worker, label, n_workers, k, method, params):
        self.tasks = tasks  # the partition's tasks, in local item order
        self.arrays = (item, worker, label)
        self.sizes = (len(tasks), n_workers, k)
        self.method, self.params = method, params
        self._build()

    def _build(self):
        self._handle = Handle()
        m = self._handle.model
        check(lib().cs_set_param_string(m, b"method", self.method.encode()), m)
        set_params(m, self.params)
        item, worker, label = self.arrays
        check(function("cs_shard_labels")(m, _i32p(item), _i32p(worker), _i32p(label), item.shape[0],
                                          *self.sizes), m)

    def __getstate__(self):
        return {k: v for k, v in self.__dict__.items() if k != "_handle"}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._build()

    def stats_length(self):
        return function("cs_stats_length")(self.sizes[1], self.sizes[2])

    def start(self):
        out = np.empty(self.stats_length())
        m = self._handle.model
        check(function("cs_shard_start")(m, _f64p(out), out.size), m)
        return out

    def e_step(self, confusion, prior):
        out = np.empty(self.stats_length())
        m = self._handle.model
        check(function("cs_shard_e_step")(m, _f64p(confusion), _f64p(prior), _f64p(out), out.size), m)
        return out

    def posteriors(self, confusion, prior):
        self.e_step(confusion, prior)
        m = self._handle.model
        n, k = self.sizes[0], self.sizes[2]
        q = np.empty((n, k))
        check(lib().cs_posteriors(m, _f64p(q), q.size), m)
        return self.tasks, q


def _make_shard(frame, workers, classes, method, params):
    if len(frame) == 0:
        return None
    tasks, item = np.unique(frame["task"].to_numpy(), return_inverse=True)
    worker = pd.Categorical(frame["worker"], categories=workers).codes.astype(np.int32)
    label = pd.Categorical(frame["label"], categories=classes).codes.astype(np.int32)
    return _Shard(tasks, item.astype(np.int32), worker, label, len(workers), len(classes), method, params)


def _start(shard):
    return shard.start()


def _e_step(shard, confusion, prior):
    return shard.e_step(confusion, prior)


def _posteriors(shard, confusion, prior):
    return shard.posteriors(confusion, prior)


class DaskFit:
    """What fit() returns.

    Attributes:
        labels: pandas Series, task -> class (the class values of the label column).
        probas: pandas DataFrame, task x class: EM's posteriors.
        confusion: (n_workers, k, k) array, worker x true x observed; workers in the
            order of ``workers``.
        prior: (k,) array.
        workers, classes: the sorted distinct workers and classes.
        iterations, log_likelihood: of the fit.
        round_seconds: the time of each E-step round (map, gather, sum).
        bytes_per_round: statistics gathered plus parameters sent per round.
    """


def fit(ddf, method="auto", *, client=None, progress=None, **params):
    """Fit a crowd method of the Dawid-Skene family to a Dask DataFrame with columns
    task, worker, label. ``client`` is a distributed.Client (default: the current one);
    ``params`` are library parameters by name (tol, max_iter, smoothing, ...).
    Returns a DaskFit."""
    import dask
    import distributed

    client = client or distributed.get_client()
    for column in ("task", "worker", "label"):
        if column not in ddf.columns:
            raise ValueError("the Dask DataFrame needs a %r column" % column)
    workers = np.sort(ddf["worker"].unique().compute().to_numpy())
    classes = np.sort(ddf["label"].unique().compute().to_numpy())
    if len(classes) < 2:
        raise ValueError("the labels have fewer than 2 classes")
    params = dict(params)
    by_task = ddf.shuffle("task")
    parts = by_task.to_delayed()
    shards = client.compute([dask.delayed(_make_shard)(p, workers, classes, method, params) for p in parts])
    shards = [s for s, keep in zip(shards, client.gather(client.map(lambda s: s is not None, shards))) if keep]
    n_workers, k = len(workers), len(classes)
    length = function("cs_stats_length")(n_workers, k)
    start = np.sum(np.stack(client.gather(client.map(_start, shards))), axis=0)
    n_items = int(np.sum(client.gather(client.map(lambda s: s.sizes[0], shards))))

    out = DaskFit()
    out.round_seconds = []
    # Per round: every partition's statistics to the client, the parameters to every
    # Dask worker (broadcast once, read by its partitions).
    dask_workers = max(1, len(client.scheduler_info().get("workers", {})))
    out.bytes_per_round = len(shards) * length * 8 + (n_workers * k * k + k) * 8 * dask_workers
    errors = []

    def e_step(user, confusion, prior, stats):
        try:
            began = time.perf_counter()
            c = np.ctypeslib.as_array(confusion, shape=(n_workers * k * k,)).copy()
            p = np.ctypeslib.as_array(prior, shape=(k,)).copy()
            # hash=False: a fresh key each round. With content keys, a round whose
            # parameters equal an earlier round's (SQUAREM can evaluate a point again)
            # reuses the key of data the scheduler is releasing, and the round's tasks
            # are cancelled ("Could not find data").
            c_future, p_future = client.scatter([c, p], broadcast=True, hash=False)
            parts = client.gather(client.map(_e_step, shards, confusion=c_future, prior=p_future, pure=False))
            total = np.zeros(length)
            for part in parts:  # in partition order: the same sum on every run
                total += part
            np.ctypeslib.as_array(stats, shape=(length,))[:] = total
            out.round_seconds.append(time.perf_counter() - began)
            return 0
        except BaseException as exc:  # noqa: B902 - nothing may cross into C
            errors.append(exc)
            return 1

    callback = _lib.E_STEP_FN(e_step)
    with Handle() as model:
        check(lib().cs_set_param_string(model, b"method", method.encode()), model)
        set_params(model, params)
        status = function("cs_fit_stats")(model, n_items, n_workers, k, _f64p(start), length,
                                          ctypes.cast(callback, ctypes.c_void_p), None)
        if errors:
            raise errors[0]
        check(status, model)
        confusion = np.empty(n_workers * k * k)
        prior = np.empty(k)
        check(lib().cs_confusion(model, _f64p(confusion), confusion.size), model)
        check(lib().cs_class_prior(model, _f64p(prior), k), model)
        iterations = ctypes.c_int32()
        check(lib().cs_iterations(model, ctypes.byref(iterations)), model)
        ll = ctypes.c_double()
        check(lib().cs_log_likelihood(model, ctypes.byref(ll)), model)
    results = client.gather(client.map(_posteriors, shards, confusion=confusion, prior=prior, pure=False))
    tasks = np.concatenate([t for t, _ in results])
    q = np.concatenate([p for _, p in results])
    order = np.argsort(tasks, kind="stable")
    out.probas = pd.DataFrame(q[order], index=pd.Index(tasks[order], name="task"), columns=classes)
    out.labels = pd.Series(classes[np.argmax(q[order], axis=1)], index=out.probas.index, name="agg_label")
    out.confusion = confusion.reshape(n_workers, k, k)
    out.prior = prior
    out.workers, out.classes = workers, classes
    out.iterations, out.log_likelihood = iterations.value, ll.value
    return out

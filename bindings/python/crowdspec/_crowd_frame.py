# SPDX-License-Identifier: MIT
"""A crowd DataFrame (columns task, worker, label) as the library's arrays, and back.

``_Encoded`` codes the three columns (through _frame's ``_factorize``), orders the
classes as the command-line tool does, and adds gold labels; ``_check_columns`` and
``_check_coded`` are the checks it shares with predict; ``_confusion_from_errors``
reads a warm start given in errors_' layout; ``_in_frame_terms`` restates a library
error in the frame's rows and ids.
"""

import numbers

import numpy as np

from ._frame import _factorize, _factorize_integers, _int32, _numpy_integers, _pd
from ._lib import CrowdspecError


def _sort_classes(values):
    """The library CLI's rule: numerically if every label is a number, else sorted
    (as text when the labels are not mutually comparable)."""
    values = list(values)
    if all(isinstance(x, numbers.Number) for x in values):
        return sorted(values)
    try:
        return sorted(values)
    except TypeError:
        return sorted(values, key=str)


def _missing_row(series, mask):
    return series.index[int(np.argmax(mask))]


def _check_columns(data):
    """TypeError unless data is a DataFrame, ValueError unless it has the columns task,
    worker and label."""
    if not isinstance(data, _pd().DataFrame):
        raise TypeError("data must be a pandas DataFrame with columns task, worker, label")
    missing = [c for c in ("task", "worker", "label") if c not in data.columns]
    if missing:
        raise ValueError("data has no column %s (it needs task, worker, label)"
                         % ", ".join(repr(c) for c in missing))


def _check_coded(data, column, codes):
    """ValueError naming the first row of data[column] whose code is -1: _factorize
    codes a missing value so (no separate isna pass over the column)."""
    if codes.size and codes.min() < 0:
        raise ValueError("data[%r] has a missing value (row %r)"
                         % (column, _missing_row(data[column], codes < 0)))


def _confusion_from_errors(errors, workers, classes):
    """(m, k, k) worker x true x observed matrices from a DataFrame in errors_' layout
    (rows (worker, observed label), columns true label), for the fit's workers and
    classes; workers it lacks get zeros (the library then starts them from the
    majority vote)."""
    pd = _pd()
    if not isinstance(errors, pd.DataFrame) or errors.index.nlevels != 2:
        raise TypeError("initial_error must be a DataFrame indexed by (worker, label) with "
                        "the true labels as columns, as errors_ is")
    m, k = len(workers), len(classes)
    table = errors.reindex(columns=classes)
    out = np.zeros((m, k, k), dtype=np.float64)
    rows = pd.MultiIndex.from_product([workers, classes])
    values = table.reindex(rows).to_numpy(dtype=np.float64).reshape(m, k, k)  # worker, obs, true
    known = ~np.isnan(values).all(axis=(1, 2))
    values = np.nan_to_num(values, nan=0.0)
    out[known] = values[known].transpose(0, 2, 1)
    return out


def _in_frame_terms(err, data):
    """A library error about the labels, restated in the frame's terms where its
    indices would mislead: the library names label indices (positions, not the frame's
    index) and 0-based codes, so a duplicate (a worker labelling a task twice) is named
    by the frame's rows, task and worker instead."""
    if err.status_name != "CS_ERR_DUPLICATE":
        return err
    twice = data.duplicated(["task", "worker"], keep=False).to_numpy()
    if not twice.any():
        return err  # (gold labels with two classes: the message is right as it is)
    first = int(np.argmax(twice))
    task, worker = data["task"].iloc[first], data["worker"].iloc[first]
    same = np.flatnonzero(twice & (data["task"] == task).to_numpy()
                          & (data["worker"] == worker).to_numpy())
    return CrowdspecError(
        err.status, err.status_name,
        "worker %r labelled task %r twice (rows %r and %r); set 'duplicates' to 'first' or "
        "'last' to keep one" % (worker, task, data.index[same[0]], data.index[same[1]]))


class _Encoded:
    """A DataFrame of (task, worker, label) as 0-based int32 arrays plus the maps back."""

    def __init__(self, data, true_labels=None):
        pd = _pd()
        _check_columns(data)
        # each column checked as soon as it is coded, while its codes are in cache
        task_codes, tasks = _factorize(data["task"])
        _check_coded(data, "task", task_codes)
        worker_codes, workers = _factorize(data["worker"])
        _check_coded(data, "worker", worker_codes)
        labels = data["label"]
        dtype = labels.dtype

        gold_tasks = gold_values = None
        if true_labels is not None:
            if not isinstance(true_labels, pd.Series):
                true_labels = pd.Series(true_labels)
            mask = true_labels.isna().to_numpy()
            if mask.any():
                raise ValueError("true_labels has a missing value (task %r)"
                                 % _missing_row(true_labels, mask))
            gold_tasks, gold_values = true_labels.index, true_labels

        # Classes: every category of a categorical label column (a class nobody chose
        # still exists), else the distinct labels (and gold labels), sorted. The label
        # column is coded once (its codes, or factorize's), then the few distinct
        # values are mapped onto the classes.
        label_codes = None
        dense = None
        if gold_values is None and _numpy_integers(dtype) and len(labels):
            # Integer labels: the classes are the distinct values, sorted numerically,
            # exactly what the table coding of ids gives (one pass instead of two).
            dense = _factorize_integers(labels.to_numpy())
        if dense is not None:
            label_codes, uniques = dense
            classes = list(uniques)
        else:
            if isinstance(dtype, pd.CategoricalDtype):
                raw_codes = labels.cat.codes.to_numpy()
                distinct = list(dtype.categories)
            else:
                raw_codes, uniques = _factorize(labels, sort=False)  # -1: missing
                distinct = list(uniques)
            extra = []
            if gold_values is not None:
                seen = set(distinct)
                extra = [x for x in pd.unique(gold_values.to_numpy()) if x not in seen]
            if isinstance(dtype, pd.CategoricalDtype) and dtype.ordered:
                classes = distinct + extra
            else:
                classes = _sort_classes(distinct + extra)
            # the class of each distinct value, and -1 (missing) kept at the end
            to_class = np.append(pd.Index(classes).get_indexer(distinct), -1).astype(np.int32)
            if np.array_equal(to_class[:-1], np.arange(len(distinct))):
                label_codes = raw_codes  # the same order
            else:
                label_codes = to_class[raw_codes]
        try:
            class_values = pd.array(classes, dtype=dtype)
            if len(set(class_values)) != len(classes):
                raise ValueError
        except (TypeError, ValueError):
            class_values = pd.array(np.array(classes, dtype=object), dtype=object)
        class_index = pd.Index(classes)
        _check_coded(data, "label", label_codes)  # only a missing label has no class

        # The rows go in the frame's order: the library takes each task's labels in
        # worker order itself, so no row order changes the fit.
        self.item, self.worker, self.label = _int32(task_codes), _int32(worker_codes), _int32(label_codes)
        self.tasks = list(tasks) if gold_tasks is not None else tasks
        self.gold_item = self.gold_label = None
        if gold_tasks is not None:
            task_index = pd.Index(tasks)
            gold_codes = task_index.get_indexer(gold_tasks)
            new = [t for t, c in zip(gold_tasks, gold_codes) if c < 0]
            if new:  # gold for tasks nobody labelled: they become extra items
                gold_codes = np.where(gold_codes < 0,
                                      len(tasks) + pd.Index(new).get_indexer(gold_tasks),
                                      gold_codes)
                self.tasks = list(tasks) + new
            else:
                self.tasks = tasks
            self.gold_item = gold_codes.astype(np.int32)
            self.gold_label = class_index.get_indexer(gold_values.to_numpy()).astype(np.int32)
        self.workers = workers
        self.classes = class_values
        self.n_items = len(self.tasks)
        self.n_workers = len(workers)
        self.n_classes = len(classes)

    def task_index(self):
        return _pd().Index(self.tasks, name="task")

    def worker_index(self):
        return _pd().Index(self.workers, name="worker")

    def class_index(self):
        return _pd().Index(self.classes, name="label")

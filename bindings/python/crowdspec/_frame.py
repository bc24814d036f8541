# SPDX-License-Identifier: MIT
"""crowd-kit-shaped classes over the numpy layer.

pandas is imported only when a DataFrame is encoded or a result is decoded, so the
package imports (and fit_labels works) without it.
"""

import ctypes
import numbers

import numpy as np

from . import _fit
from ._fit import (as_int32, fit_graph, fit_labels, fit_points, predict_labels, validate_params,
                   warn_notes)
from ._lib import CrowdspecError

__all__ = [
    "MajorityVote",
    "DawidSkene",
    "OptDawidSkene",
    "OneCoinDawidSkene",
    "ClassOneCoinDawidSkene",
    "CrowdLloyd",
    "KOS",
    "KOSMessagePassing",
    "GhoshSVD",
    "EigenRatio",
    "Aggregator",
    "Lloyd",
    "KMeansPP",
    "CommuLloyd",
    "Spec",
    "SpecMLE",
    "METHOD_CLASSES",
]


def _pd():
    try:
        import pandas
    except ImportError as exc:  # pragma: no cover - pandas is installed in the tests
        raise ImportError("crowdspec: the DataFrame classes need pandas; without it use "
                          "crowdspec.fit_labels on integer arrays") from exc
    return pandas


# ----------------------------------------------------------------------------------
# Parameters: crowd-kit / scikit-learn names onto the library's


def _library_params(kwargs):
    """Map the crowd-kit and scikit-learn aliases onto library parameter names."""
    params = dict(kwargs)
    if "method" in params:
        raise TypeError("the method is fixed by the class; use crowdspec.Aggregator(method=...)"
                        " or crowdspec.fit_labels for another one")
    for alias, name in (("n_iter", "max_iter"), ("n_jobs", "threads"),
                        ("random_state", "seed")):
        if alias not in params:
            continue
        value = params.pop(alias)
        if value is None:
            continue
        if params.get(name) is not None:
            raise TypeError("give %s or %s, not both" % (alias, name))
        if alias == "n_jobs" and isinstance(value, numbers.Integral) and value < 0:
            value = 0  # scikit-learn's -1: the library's automatic count (threads = 0)
        params[name] = value
    return {name: value for name, value in params.items() if value is not None}


class _Params:
    _method = None

    def _init_params(self, kwargs):
        self._params = _library_params(kwargs)
        validate_params(self._params)  # an unknown name or bad value fails here

    def get_params(self):
        """The library parameters this object passes (by library name)."""
        return dict(self._params)

    def __repr__(self):
        args = ", ".join("%s=%r" % kv for kv in sorted(self._params.items()))
        return "%s(%s)" % (type(self).__name__, args)


# ----------------------------------------------------------------------------------
# DataFrame encoding


# Integer ids spanning at most this many values per row (plus a constant) are coded
# through a table indexed by value instead of pandas' hash table: O(rows + span) and
# about 5x faster at 10^6 rows, with the same result (codes in sorted id order).
_DENSE_SPAN_PER_ROW = 4
_DENSE_SPAN_EXTRA = 1 << 16


def _numpy_integers(dtype):
    """A plain numpy integer column (pandas' nullable Int64 & co. may hold NA)."""
    return isinstance(dtype, np.dtype) and dtype.kind in "iu"


def _factorize_dense_integers(x):
    """Codes of integer ids in sorted order, or None when their range is too sparse."""
    lo, hi = int(x.min()), int(x.max())
    span = hi - lo + 1
    if span > _DENSE_SPAN_PER_ROW * x.size + _DENSE_SPAN_EXTRA:
        return None
    # The offsets x - lo lie in [0, span), which overflows x's own type when the ids
    # span more than its largest value (int8 ids -100 and 100): they are then taken
    # in 64 bits. The ids are given back in x's type.
    wide = x if span - 1 <= np.iinfo(x.dtype).max else x.astype(np.int64)
    offset = wide if lo == 0 else wide - wide.dtype.type(lo)
    offset = offset.astype(np.intp, copy=False)
    present = np.zeros(span, dtype=bool)
    present[offset] = True
    if present.all():  # ids lo .. hi: the offsets are the codes
        uniques = (np.arange(span, dtype=wide.dtype) + wide.dtype.type(lo)).astype(x.dtype, copy=False)
        return offset, _pd().Index(uniques)
    ids = np.flatnonzero(present)  # the offsets of the ids present, ascending
    rank = np.empty(span, dtype=np.int32 if ids.size <= _INT32_MAX else np.intp)
    rank[ids] = np.arange(ids.size, dtype=rank.dtype)  # (cumsum over bools is slower)
    uniques = (ids.astype(wide.dtype) + wide.dtype.type(lo)).astype(x.dtype, copy=False)
    return rank[offset], _pd().Index(uniques)


def _factorize_categorical(values):
    """Codes of a categorical column in category order, unused categories dropped (as
    pd.factorize does); -1 marks a missing value."""
    codes = values.cat.codes.to_numpy()  # int8 .. int64, -1 for a missing value
    categories = values.cat.categories
    used = np.zeros(len(categories) + 1, dtype=bool)
    used[codes] = True  # a missing value (-1) marks the extra last slot
    if not used[:-1].all():
        kept = np.flatnonzero(used[:-1])
        rank = np.full(len(categories) + 1, -1, dtype=np.intp)  # rank[-1] = -1: missing
        rank[kept] = np.arange(kept.size, dtype=np.intp)
        codes = rank[codes]
        categories = categories[kept]
    return codes, categories


def _factorize_values(values, sort=True):
    """pd.factorize(values, sort=sort), except that values of mixed types that cannot
    be ordered stay in order of first appearance.

    The sort is done here, on the distinct values only, by a stable sort (timsort on
    objects: few comparisons, and linear on ids that arrive in order), where pandas
    would quicksort them; codes are then renumbered by one lookup per row."""
    pd = _pd()
    codes, uniques = pd.factorize(values, sort=False)
    if not sort or len(uniques) < 2:
        return codes, uniques
    if (isinstance(uniques, np.ndarray) and uniques.dtype == object
            and pd.api.types.infer_dtype(uniques, skipna=False) == "string"):
        rank, ordered = _sort_strings(uniques, merge=False)  # Python's sort: faster
        if np.array_equal(rank, np.arange(rank.size)):
            return codes, uniques
        return np.append(rank, np.int32(-1)).take(codes), ordered  # -1 (missing) stays
    try:
        order = np.asarray(uniques.argsort(kind="stable"), dtype=np.intp)
    except TypeError:  # mixed types: pandas' own rules (numbers before strings, ...)
        try:
            return pd.factorize(values, sort=True)
        except TypeError:  # not orderable at all
            return codes, uniques
    if np.all(order[1:] > order[:-1]):  # already in order
        return codes, uniques
    rank = np.empty(order.size + 1, dtype=np.intp)
    rank[order] = np.arange(order.size, dtype=np.intp)
    rank[-1] = -1  # a missing value (code -1) stays missing
    return rank[codes], uniques.take(order)


# Object columns: rows are first coded by the address of the Python object they hold
# (an integer hash, several times cheaper than hashing strings), and only the distinct
# objects are then coded by value. Identical objects are equal values, so the result is
# exactly pd.factorize's; it pays off because columns repeat objects: pandas' CSV reader
# shares one string object per distinct value, and indexing an array of ids repeats its
# objects. Rows grouped by task (runs of the same object) are coded one run at a time.
_POINTER = ctypes.c_uint64 if ctypes.sizeof(ctypes.c_void_p) == 8 else ctypes.c_uint32
# the prefix looked at to decide whether objects repeat at all
_OBJECT_SAMPLE = 1 << 16
# the mean length of runs of one object worth coding one run at a time
_RUN_LENGTH = 4
_INT32_MAX = 2 ** 31 - 1


def _object_addresses(a):
    """The PyObject addresses a C-contiguous object array holds, as integers (a view of
    its buffer: valid while ``a`` lives; nothing is dereferenced)."""
    buffer = (_POINTER * a.size).from_address(a.ctypes.data)
    return np.ctypeslib.as_array(buffer)


def _factorize_sorted(a):
    """Codes and distinct values of objects already in non-decreasing order (equal
    values adjacent), or None when they are not in order or do not compare."""
    try:
        if np.all(a[1:] > a[:-1]):  # distinct and in order: one pass
            return np.arange(a.size, dtype=np.int32), a
        if not np.all(a[1:] >= a[:-1]):
            return None
        new = np.empty(a.size, dtype=bool)
        new[0] = True
        np.not_equal(a[1:], a[:-1], out=new[1:])
    except (TypeError, ValueError):  # None, or values that do not compare to a bool
        return None
    codes = np.cumsum(new, dtype=np.int32)
    codes -= 1
    return codes, a[new]


# Tables indexed by address: the addresses of the objects of a column cluster where
# the allocator placed them (pymalloc packs objects of one size in pools, so 100,000
# names made in a loop span a few MB). A table of one slot per possible address in
# such a window codes rows with one scatter and one gather into a table that stays in
# cache, where hashing 10^6 addresses into a table of 100,000 entries misses the cache
# on most rows. The window is the stretch of memory holding most of an even subsample
# of the keys (a long-running process reuses memory here and there, and read_csv makes
# each chunk's strings apart, so a column's objects may lie in several places); the
# objects outside it are hashed. The table has
# at most _DENSE_SPAN_PER_ROW slots per row plus _DENSE_SPAN_EXTRA, as for integer ids.
_WINDOW_SUBSAMPLE = 4096  # addresses looked at to place the window
_WINDOW_SLACK = 8  # the window reaches 1/8 of its width beyond them each side
_WINDOW_OUTSIDE = 2  # give up on the table when more than 1 row in 2 falls outside
# below this many distinct objects in the prefix, pandas' hash table of addresses
# stays in cache and is as fast as the table (500 worker ids: 5.4 ms either way)
_WINDOW_MIN_DISTINCT = 4096
_MIN_ALIGNMENT = 16  # CPython aligns objects to 16 bytes on 64-bit machines (8 on 32-bit)


def _address_window(keys):
    """Table slots of object addresses: (slot of each key, number of slots, the
    positions of the keys outside the window or None). The slot of a key outside
    the window is the extra slot ``span``. None when the addresses do not cluster."""
    m = keys.size
    limit = _DENSE_SPAN_PER_ROW * m + _DENSE_SPAN_EXTRA
    sub = np.sort(keys[::max(1, m // _WINDOW_SUBSAMPLE)]).astype(np.uint64)  # all over
    # the widest window the table can cover at the subsample's alignment (pymalloc
    # places objects of one size class at multiples of it, e.g. 64 bytes for short
    # strings; checked on every key below), placed where it holds most of the subsample
    bits = int(np.bitwise_or.reduce(sub - sub[0]))
    reach = min((limit - 1) * ((bits & -bits) if bits else _MIN_ALIGNMENT), 1 << 62)
    top = np.minimum(sub, np.uint64(2 ** 64 - 1 - reach)) + np.uint64(reach)
    ends = np.searchsorted(sub, top, side="right")
    best = int(np.argmax(ends - np.arange(sub.size)))
    a, b = int(sub[best]), int(sub[ends[best] - 1])
    # some slack for objects the subsample missed, a multiple of 4096 (keeps alignment)
    slack = max(min((b - a) // _WINDOW_SLACK + 4096, (reach - (b - a)) // 2), 0) & ~4095
    low = max(a - slack, 0)
    width = b + slack - low
    rel = keys - keys.dtype.type(low)  # wraps around for keys below the window
    inside = rel <= keys.dtype.type(width)
    n_out = m - int(np.count_nonzero(inside))
    if _WINDOW_OUTSIDE * n_out > m:
        return None
    outside = None
    if n_out:
        outside = np.flatnonzero(~inside)
        rel[outside] = 0
    # every offset in the window is a multiple of 2**shift, so offset >> shift is
    # one-to-one there (objects outside, such as the interpreter's static one-character
    # strings, may be aligned otherwise; a masked reduction would be 10 times slower)
    bits = int(np.bitwise_or.reduce(rel))
    shift = (bits & -bits).bit_length() - 1 if bits else 0
    span = (width >> shift) + 1
    if span > limit:
        return None
    np.right_shift(rel, shift, out=rel)
    if n_out:
        rel[outside] = span
    return rel.view(np.int64) if rel.itemsize == 8 else rel.astype(np.intp), span, outside


_REPEAT_SAMPLE = 8192  # distinct objects looked at to tell whether values repeat


def _code_strings(objects):
    """Codes of distinct str objects in sorted order (objects holding equal strings get
    the same code) and the distinct strings, sorted; None unless every object is a str.

    Python's list sort (timsort with its string comparison) is the fastest sort of
    Python strings here: about half of numpy's argsort on objects, and linear when the
    strings arrive in order, as they do in address order when they were made in order.
    Equal strings are adjacent once sorted, so they are merged by one comparison pass.
    When many objects hold the same strings (pandas.read_csv shares strings only within
    a chunk of rows), they are first merged by hashing, so that only distinct strings
    are sorted."""
    pd = _pd()
    if pd.api.types.infer_dtype(objects, skipna=False) != "string":
        return None
    d = objects.size
    if d >= 2 * _REPEAT_SAMPLE:
        # Equal strings in an even sample of s of the d objects: about s^2 (r - 1) / 2d
        # pairs when each string is held by r objects on average.
        sample = objects[::d // _REPEAT_SAMPLE]
        s = sample.size
        repeats = s - pd.unique(sample).size
        if 8 * repeats * d > s * s:  # r > 1.25 or so
            object_codes, distinct = pd.factorize(objects, sort=False)
            codes, uniques = _sort_strings(distinct, merge=False)
            return codes.take(object_codes), uniques
    return _sort_strings(objects, merge=True)


def _sort_strings(objects, merge):
    """Codes of str objects in Python's sorted order and the sorted distinct strings;
    merge: some objects may hold equal strings."""
    values = objects.tolist()
    order = np.fromiter(sorted(range(len(values)), key=values.__getitem__), dtype=np.intp,
                        count=len(values))
    ordered = objects.take(order)
    codes = np.empty(ordered.size, dtype=np.int32)
    if not merge:
        codes[order] = np.arange(ordered.size, dtype=np.int32)
        return codes, ordered
    new = np.empty(ordered.size, dtype=bool)
    new[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    rank = np.cumsum(new, dtype=np.int32)
    rank -= 1
    codes[order] = rank
    return codes, ordered[new]


def _factorize_strings_by_address(a, keys, heads):
    """Sorted codes (int32) and distinct values of a column of str objects, its keys
    (the addresses of the objects of ``a``'s rows, or of the rows in ``heads``) coded
    through a table indexed by address; None when the addresses do not cluster or the
    objects are not all str (the caller then hashes)."""
    pd = _pd()
    if pd.api.types.infer_dtype(a[:256], skipna=False) != "string":
        return None  # not str objects (the check on the distinct objects decides)
    window = _address_window(keys)
    if window is None:
        return None
    slot_of, span, outside = window
    table = np.full(span + 1, -1, dtype=np.int32)
    table[slot_of] = np.arange(keys.size, dtype=np.int32)  # a key holding each object
    table[span] = -1
    present = np.flatnonzero(table >= 0)  # the distinct objects in the window
    where = table[present]
    if outside is not None:  # objects elsewhere in memory: hashed, they are few
        outside_codes, outside_keys = pd.factorize(keys[outside], sort=False)
        outside_where = np.empty(outside_keys.size, dtype=np.intp)
        outside_where[outside_codes] = outside
        where = np.concatenate([where, outside_where])
    coded = _code_strings(a[where if heads is None else heads[where]])
    if coded is None:
        return None
    value_codes, uniques = coded
    table[present] = value_codes[:present.size]
    codes = table.take(slot_of, mode="clip")  # (valid indices: no bounds check)
    if outside is not None:
        codes[outside] = value_codes[present.size:].take(outside_codes)
    return codes, uniques


def _factorize_objects(a, sort=True):
    """_factorize_values(a, sort) for a 1-D numpy object array, coding each distinct
    object (not each row) by value; int32 or intp codes."""
    n = a.size
    if n < 2 or n > _INT32_MAX:
        return _factorize_values(a, sort)
    if not a.flags.c_contiguous:
        a = np.ascontiguousarray(a)
    address = _object_addresses(a)
    pd = _pd()
    # Runs of one object (rows grouped by task): keep the first row of each, when
    # runs are long enough (4 rows on average) to repay expanding the codes back. The
    # prefix says whether there are runs before the whole column is scanned.
    head = address[:_OBJECT_SAMPLE]
    grouped = _RUN_LENGTH * np.count_nonzero(head[1:] != head[:-1]) < head.size
    heads = None
    if grouped:
        boundary = np.empty(n, dtype=bool)
        boundary[0] = True
        np.not_equal(address[1:], address[:-1], out=boundary[1:])
        heads = np.flatnonzero(boundary)
        grouped = _RUN_LENGTH * heads.size <= n
        if not grouped:
            heads = None
    keys = address[heads] if grouped else address
    sample = keys[:_OBJECT_SAMPLE]
    in_sample = pd.unique(sample).size
    if 10 * in_sample >= 9 * sample.size:
        # (almost) every row holds its own object: code the values directly, and
        # without hashing when they are already in order
        objects = a[heads] if grouped else a
        in_order = _factorize_sorted(objects) if sort else None
        codes, uniques = in_order if in_order is not None else _factorize_values(objects, sort)
        codes = codes.astype(np.int32, copy=False)
    else:
        # str objects in sorted order: a table indexed by address, then the distinct
        # strings sorted and merged
        by_address = None
        if sort and in_sample >= _WINDOW_MIN_DISTINCT:
            by_address = _factorize_strings_by_address(a, keys, heads)
        if by_address is not None:
            codes, uniques = by_address
        else:
            object_codes, distinct = pd.factorize(keys, sort=False)
            # a row holding each distinct object: codes number objects in order of
            # first appearance, so when the prefix saw them all, the prefix's rows
            # have them all
            where = np.empty(distinct.size, dtype=np.intp)
            seen = sample.size if distinct.size == in_sample else keys.size
            where[object_codes[:seen]] = np.arange(seen, dtype=np.intp)
            if grouped:
                where = heads[where]
            value_codes, uniques = _factorize_values(a[where], sort)
            # intp codes (-1 for a missing value)
            codes = np.asarray(value_codes, dtype=np.intp).take(object_codes, mode="clip")
    if grouped:
        codes = np.repeat(codes, np.diff(np.append(heads, n)))
    return codes, uniques


def _factorize(values, sort=True):
    """0-based codes of an id column (-1 for a missing id) and the ids in code order:
    sorted when the ids are orderable and ``sort`` (category order for a categorical
    column), else in order of first appearance."""
    pd = _pd()
    if isinstance(values.dtype, pd.CategoricalDtype):
        return _factorize_categorical(values)
    if _numpy_integers(values.dtype) and len(values):
        dense = _factorize_dense_integers(values.to_numpy())
        if dense is not None:
            return dense
    if values.dtype == np.dtype(object):
        return _factorize_objects(values.to_numpy(), sort)
    return _factorize_values(values, sort)


def _int32(codes):
    """Codes (0-based, each below 2^31) as int32, without a copy when they are already."""
    return np.asarray(codes).astype(np.int32, copy=False)


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
        if not isinstance(data, pd.DataFrame):
            raise TypeError("data must be a pandas DataFrame with columns task, worker, label")
        missing = [c for c in ("task", "worker", "label") if c not in data.columns]
        if missing:
            raise ValueError("data has no column %s (it needs task, worker, label)"
                             % ", ".join(repr(c) for c in missing))
        task_codes, tasks = _factorize(data["task"])
        worker_codes, workers = _factorize(data["worker"])
        labels = data["label"]
        # factorize codes a missing id as -1 (no separate isna pass over the column)
        for column, codes in (("task", task_codes), ("worker", worker_codes)):
            if codes.size and codes.min() < 0:
                raise ValueError("data[%r] has a missing value (row %r)"
                                 % (column, _missing_row(data[column], codes < 0)))
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
            dense = _factorize_dense_integers(labels.to_numpy())
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
        if label_codes.size and label_codes.min() < 0:  # only a missing label has none
            raise ValueError("data['label'] has a missing value (row %r)"
                             % _missing_row(labels, label_codes < 0))

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


# ----------------------------------------------------------------------------------
# Crowd methods


class Aggregator(_Params):
    """Any crowd method of the library by name: ``Aggregator("ds", max_iter=50)``.

    The named classes (DawidSkene, MajorityVote, ...) are this with the method fixed.

    Keyword arguments: crowd-kit's ``n_iter`` (the library's max_iter) and ``tol``,
    scikit-learn's ``n_jobs`` (threads; -1 = the library's automatic count, up to every core) and ``random_state`` (seed),
    and any library parameter by its name (prior="uniform", confusion="one-coin",
    support=..., seed=..., threads=..., smoothing=...). None leaves the library's
    default. Unknown names and out-of-range values raise CrowdspecError at once.

    After fit(): labels_ (Series by task, name "agg_label", the label column's dtype),
    probas_ (DataFrame task x label), priors_ (Series by label), errors_ (DataFrame
    indexed by (worker, observed label), columns true label: P(observed | true)),
    skills_ (Series by worker: sum_l prior_l P(l | l)), loss_history_ (the
    log-likelihood trace, a list), n_iter_, converged_, log_likelihood_, notes_ (list
    of note names) and result_ (the crowdspec.Result).
    """

    def __init__(self, method, n_iter=None, tol=None, **params):
        validate_params({"method": method})  # an unknown method fails here
        self._method = method
        self._init(n_iter, tol, params)

    def _init(self, n_iter, tol, params):
        self._init_params(dict(params, n_iter=n_iter, tol=tol))

    @property
    def method(self):
        return self._method

    def fit(self, data, true_labels=None, initial_error=None):
        """Fit to a DataFrame with columns task, worker, label; true_labels (a Series
        task -> label) are pinned as gold. initial_error (EM methods; crowd-kit's
        argument): a warm start in the layout of errors_ (rows (worker, observed
        label), columns true label), for example a previous fit's errors_; workers it
        lacks start from the majority-vote estimate. Returns self."""
        pd = _pd()
        enc = _Encoded(data, true_labels)
        initial = None
        if initial_error is not None:
            initial = _confusion_from_errors(initial_error, enc.worker_index(),
                                             enc.class_index())
        try:
            result = fit_labels(enc.item, enc.worker, enc.label, method=self._method,
                                n_items=enc.n_items, n_workers=enc.n_workers,
                                n_classes=enc.n_classes, gold_item=enc.gold_item,
                                gold_label=enc.gold_label, initial_confusion=initial,
                                warn=False, **self._params)
        except CrowdspecError as err:
            raise _in_frame_terms(err, data) from None
        warn_notes(result, stacklevel=3)
        tasks, workers, classes = enc.task_index(), enc.worker_index(), enc.class_index()
        k = enc.n_classes
        self.result_ = result
        self.classes_ = classes
        self._workers = workers
        self._class_values = enc.classes
        self.labels_ = pd.Series(enc.classes.take(result.labels), index=tasks,
                                 name="agg_label")
        self.probas_ = pd.DataFrame(result.posteriors, index=tasks, columns=classes)
        self.priors_ = pd.Series(result.prior, index=classes, name="prior")
        # crowd-kit's layout: rows (worker, observed label), columns true label.
        errors = result.confusion.transpose(0, 2, 1).reshape(-1, k)
        rows = pd.MultiIndex.from_arrays(
            [np.repeat(np.asarray(workers, dtype=object), k),
             np.tile(np.asarray(enc.classes, dtype=object), len(workers))],
            names=["worker", "label"])
        self.errors_ = pd.DataFrame(errors, index=rows, columns=classes)
        diagonal = np.diagonal(result.confusion, axis1=1, axis2=2)
        self.skills_ = pd.Series(diagonal @ result.prior, index=workers, name="skill")
        self.loss_history_ = result.trace.tolist()
        self.n_iter_ = result.iterations
        self.converged_ = result.converged
        self.log_likelihood_ = result.log_likelihood
        self.notes_ = result.note_names
        return self

    def fit_predict(self, data, true_labels=None):
        """fit(), then labels_."""
        return self.fit(data, true_labels).labels_

    def predict_proba(self, data):
        """Class probabilities of a new batch (DataFrame task, worker, label) from the
        fitted workers without refitting (one E-step, cs_predict). Workers the fit did
        not see are weighed by the average worker (a CrowdspecWarning says how many);
        labels must be among the fitted classes. Returns a DataFrame task x label."""
        pd = _pd()
        if not hasattr(self, "result_"):
            raise ValueError("predict needs a fit first: call fit()")
        if not isinstance(data, pd.DataFrame):
            raise TypeError("data must be a pandas DataFrame with columns task, worker, label")
        missing = [c for c in ("task", "worker", "label") if c not in data.columns]
        if missing:
            raise ValueError("data has no column %s (it needs task, worker, label)"
                             % ", ".join(repr(c) for c in missing))
        task_codes, tasks = _factorize(data["task"])
        if task_codes.size and task_codes.min() < 0:
            raise ValueError("data['task'] has a missing value (row %r)"
                             % _missing_row(data["task"], task_codes < 0))
        # code each column once, then map its few distinct values onto the fit's
        known = self._workers
        codes, seen = _factorize(data["worker"], sort=False)
        if codes.size and codes.min() < 0:
            raise ValueError("data['worker'] has a missing value (row %r)"
                             % _missing_row(data["worker"], codes < 0))
        to_known = known.get_indexer(seen)
        new = to_known < 0
        if new.any():  # unknown workers get ids after the known ones
            to_known[new] = len(known) + np.arange(np.count_nonzero(new))
        worker_codes = to_known[codes]
        codes, seen = _factorize(data["label"], sort=False)
        to_class = np.append(self.classes_.get_indexer(seen), -1)
        label_codes = to_class[codes]
        if label_codes.size and label_codes.min() < 0:
            row = _missing_row(data["label"], label_codes < 0)
            raise ValueError("data['label'] has a value the fit has no class for (row %r: %r)"
                             % (row, data["label"].loc[row]))
        task_codes, worker_codes, label_codes = _int32(task_codes), _int32(worker_codes), _int32(label_codes)
        try:
            result = predict_labels(task_codes, worker_codes, label_codes,
                                    self.result_.confusion, self.result_.prior, warn=False,
                                    **{k: v for k, v in self._params.items()
                                       if k in ("support", "threads")})
        except CrowdspecError as err:
            raise _in_frame_terms(err, data) from None
        warn_notes(result, stacklevel=3)
        index = pd.Index(tasks, name="task")
        return pd.DataFrame(result.posteriors, index=index, columns=self.classes_)

    def predict(self, data):
        """Labels of a new batch from the fitted workers (see predict_proba): a Series
        by task, name "agg_label"."""
        pd = _pd()
        probas = self.predict_proba(data)
        labels = self._class_values.take(np.argmax(probas.to_numpy(), axis=1))
        return pd.Series(labels, index=probas.index, name="agg_label")

    def fit_predict_proba(self, data, true_labels=None):
        """fit(), then probas_."""
        return self.fit(data, true_labels).probas_


def _crowd_class(name, method, doc):
    def __init__(self, n_iter=None, tol=None, **params):
        self._init(n_iter, tol, params)

    __init__.__doc__ = "See crowdspec.Aggregator for the keyword arguments."
    return type(name, (Aggregator,), {"_method": method, "__init__": __init__,
                                      "__doc__": doc + "\n\n" + Aggregator.__doc__,
                                      "__module__": "crowdspec"})


MajorityVote = _crowd_class(
    "MajorityVote", "mv",
    'Majority vote ("mv"): ties to the lowest class; probas_ are the vote shares.')
DawidSkene = _crowd_class(
    "DawidSkene", "ds", 'Dawid-Skene EM from the soft majority vote ("ds", MV-D&S).')
OptDawidSkene = _crowd_class(
    "OptDawidSkene", "opt-ds",
    'Spectral (method-of-moments) start, then Dawid-Skene EM ("opt-ds", the default).')
OneCoinDawidSkene = _crowd_class(
    "OneCoinDawidSkene", "one-coin-ds",
    'Dawid-Skene EM with one accuracy per worker ("one-coin-ds").')
ClassOneCoinDawidSkene = _crowd_class(
    "ClassOneCoinDawidSkene", "class-one-coin-ds",
    'Dawid-Skene EM with one accuracy per worker and true class ("class-one-coin-ds").')
CrowdLloyd = _crowd_class(
    "CrowdLloyd", "crowd-lloyd", 'Lloyd iterations on the one-hot labels ("crowd-lloyd").')
KOS = _crowd_class("KOS", "kos", 'Spectral Karger-Oh-Shah ("kos"), a baseline.')
KOSMessagePassing = _crowd_class(
    "KOSMessagePassing", "kos-mp",
    'Karger-Oh-Shah iterative message passing ("kos-mp"), a baseline.')
GhoshSVD = _crowd_class("GhoshSVD", "ghosh-svd",
                        'The SVD method of Ghosh, Kale and McAfee ("ghosh-svd"), a baseline.')
EigenRatio = _crowd_class("EigenRatio", "eigen-ratio",
                          'The eigenvector-ratio method of Dalvi et al. ("eigen-ratio").')
EBCC = _crowd_class(
    "EBCC", "ebcc",
    'Enhanced Bayesian Classifier Combination ("ebcc"; Li, Rubinstein and Cohn 2019): per-class\n'
    'mixtures of worker-correlation subtypes, mean-field variational Bayes; loss_history_ is the\n'
    'evidence lower bound. Prior keywords: subtypes, subtype_concentration, class_concentration,\n'
    'confusion_diagonal, confusion_off_diagonal.')
BCC = _crowd_class(
    "BCC", "bcc",
    'Bayesian Classifier Combination ("bcc"; Kim and Ghahramani 2012) by mean-field variational\n'
    'Bayes: ebcc with one subtype; loss_history_ is the evidence lower bound.')

Wawa = _crowd_class(
    "Wawa", "wawa",
    'Majority vote reweighted by each worker\'s agreement with it ("wawa", crowd-kit\'s Wawa).')
ZeroBasedSkill = _crowd_class(
    "ZeroBasedSkill", "zbs",
    'Zero-Based Skill: skills stepped towards agreement with the weighted vote ("zbs").')
GLAD = _crowd_class(
    "GLAD", "glad",
    'GLAD: worker abilities and item difficulties, MAP-EM (Whitehill et al., "glad").')
MACE = _crowd_class(
    "MACE", "mace",
    'MACE: each worker knows the answer or spams; variational Bayes ("mace", Hovy et al.).')
MMSR = _crowd_class(
    "MMSR", "m-msr",
    'M-MSR: one-coin skills by robust rank-one matrix completion ("m-msr", Ma and Olshevsky).')

#: The class of each crowd method of the library, by method name.
METHOD_CLASSES = {cls._method: cls for cls in (
    MajorityVote, DawidSkene, OptDawidSkene, OneCoinDawidSkene, ClassOneCoinDawidSkene,
    CrowdLloyd, KOS, KOSMessagePassing, GhoshSVD, EigenRatio, Wawa, ZeroBasedSkill, GLAD,
    MACE, MMSR, EBCC, BCC)}


# ----------------------------------------------------------------------------------
# Points and graphs


class Lloyd(_Params):
    """Spectral initialisation + Lloyd iterations for a sub-Gaussian mixture
    ("lloyd"), shaped like scikit-learn's KMeans.

    Keyword arguments: n_init, max_iter, random_state (seed), n_jobs (threads) and any
    library parameter by name. After fit(X): labels_ (int32 array), cluster_centers_
    (k x d), inertia_ (the k-means cost of the final labels), n_iter_, converged_,
    priors_ (cluster proportions), loss_history_, notes_, result_.
    """

    _method = "lloyd"

    def __init__(self, n_clusters=8, **params):
        self.n_clusters = int(n_clusters)
        self._init_params(params)

    def fit(self, X, y=None):
        result = fit_points(X, self.n_clusters, method=self._method, warn=False,
                            **self._params)
        warn_notes(result, stacklevel=3)
        self.result_ = result
        self.labels_ = result.labels
        self.cluster_centers_ = result.centres
        self.inertia_ = float(-result.trace[-1]) if result.trace.size else None
        self.priors_ = result.prior
        self.loss_history_ = result.trace.tolist()
        self.n_iter_ = result.iterations
        self.converged_ = result.converged
        self.notes_ = result.note_names
        return self

    def fit_predict(self, X, y=None):
        return self.fit(X).labels_

    def predict(self, X):
        """The nearest centre of each row of X (ties to the lowest index)."""
        X = np.asarray(X, dtype=np.float64)
        centres = self.cluster_centers_
        d2 = ((X[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)
        return np.argmin(d2, axis=1).astype(np.int32)


class KMeansPP(Lloyd):
    """k-means++ seeding + Lloyd iterations ("kmeans++"), the baseline."""

    _method = "kmeans++"


class CommuLloyd(_Params):
    """Trimmed spectral initialisation + CommuLloyd ("commu-lloyd") for the
    communities of an undirected graph.

    fit(edges, n_nodes=None): edges is an (E, 2) integer array of 0-based node ids
    (then labels_ is an int32 array over nodes 0 .. n_nodes - 1), or a DataFrame of
    two columns of any hashable node ids (then labels_ is a Series indexed by node,
    name "community"). Also n_iter_, converged_, priors_, within_density_,
    between_density_, loss_history_, notes_, result_.
    """

    _method = "commu-lloyd"

    def __init__(self, n_communities=2, **params):
        self.n_communities = int(n_communities)
        self._init_params(params)

    def fit(self, edges, n_nodes=None):
        nodes = None
        if type(edges).__module__.startswith("pandas") and hasattr(edges, "columns"):
            pd = _pd()
            if edges.shape[1] != 2:
                raise ValueError("edges must have two columns, got %d" % edges.shape[1])
            both = pd.concat([edges.iloc[:, 0], edges.iloc[:, 1]], ignore_index=True)
            if both.isna().any():
                raise ValueError("edges has a missing node id")
            codes, nodes = _factorize(both)
            e = len(edges)
            u, v = codes[:e], codes[e:]
            if n_nodes is None:
                n_nodes = len(nodes)
        else:
            arr = np.asarray(edges)
            if arr.ndim != 2 or arr.shape[1] != 2:
                raise ValueError("edges must be an (E, 2) array, got shape %s" % (arr.shape,))
            u, v = as_int32(arr[:, 0], "node id"), as_int32(arr[:, 1], "node id")
        result = fit_graph(u, v, self.n_communities, method=self._method, n_nodes=n_nodes,
                           warn=False, **self._params)
        warn_notes(result, stacklevel=3)
        self.result_ = result
        if nodes is not None:
            self.labels_ = _pd().Series(result.labels, index=_pd().Index(nodes, name="node"),
                                        name="community")
        else:
            self.labels_ = result.labels
        self.priors_ = result.prior
        self.within_density_, self.between_density_ = result.densities
        self.loss_history_ = result.trace.tolist()
        self.n_iter_ = result.iterations
        self.converged_ = result.converged
        self.notes_ = result.note_names
        return self

    def fit_predict(self, edges, n_nodes=None):
        return self.fit(edges, n_nodes).labels_


class Spec(CommuLloyd):
    """The spectral initialisation of CommuLloyd alone ("spec")."""

    _method = "spec"


class SpecMLE(CommuLloyd):
    """The spectral initialisation and one likelihood step ("spec-mle")."""

    _method = "spec-mle"


# The numpy layer is importable from here too, for symmetry.
Result = _fit.Result

# SPDX-License-Identifier: MIT
"""A DataFrame's id columns as the library's 0-based codes: ``_factorize``.

Each column is coded once, with codes in sorted id order: integer columns through a
table indexed by value (int64 ids too sparse for it by the library's
cs_intern_integers), categorical columns through their codes, object columns
(strings) object by object (rows by the address of the Python object they hold, in
one pass of the library's cs_intern_integers, then only the distinct objects by
value), anything else through pandas.factorize. With a library before 0.2 the
objects' addresses are coded in numpy (a table indexed by address when the strings
are many and in random order). The bindings' README (section Classes) describes the
paths and what they cost.

pandas is imported only when a column is coded (``_pd``), so the package imports (and
fit_labels works) without it. The estimator classes that use this coding live in
_aggregators (crowd methods) and _points_graphs; the crowd frame's encoding in
_crowd_frame. They were defined here once and stay importable from here.
"""

import ctypes

import numpy as np

from . import _fit, _lib


def _pd():
    try:
        import pandas
    except ImportError as exc:  # pragma: no cover - pandas is installed in the tests
        raise ImportError("crowdspec: the DataFrame classes need pandas; without it use "
                          "crowdspec.fit_labels on integer arrays") from exc
    return pandas


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
    # int32 offsets stay int32 (numpy indexes with them as well): when the ids are
    # lo .. hi they are then the library's codes as they are, with no widening copy
    # here and no range check and narrowing copy in fit_labels (three passes over the
    # column fewer: 30 % of crowdspec.Auto().fit's time outside the library at 10^6 rows).
    if offset.dtype != np.int32:
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


def _factorize_integers(x):
    """Codes (in sorted id order) and sorted distinct values of a numpy integer column,
    or None when its range is too sparse for a table and the library cannot code it.
    Through the table indexed by value when the range allows (its numpy passes stream
    through memory faster than the library's hash table after a fit has flushed the
    caches: 2.3-2.7 against 3.5 ms for 10^6 labels 0/1; int32 ids 0 .. n - 1 need no copy),
    else int64 columns by the library (_intern_keys: one pass in C, where
    pandas.factorize hashes and then sorts)."""
    dense = _factorize_dense_integers(x)
    if dense is not None or x.dtype != np.int64 or x.size >= _INT32_MAX:
        return dense
    coded = _intern_keys(x, sort=True)
    if coded is None:
        return None
    codes, first = coded
    return codes, _pd().Index(x.take(first))


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


def _holds_nul_strings(values):
    """Whether a column holds a str with a NUL character: pandas 1.x hashes such strings
    only up to the NUL (pandas issue 34551), so pd.factorize would give "a" and "a\\x00"
    one code -- two workers silently merged."""
    if getattr(values.dtype, "kind", "O") not in "OU":
        return False
    items = np.asarray(values, dtype=object).tolist()
    try:
        return "\x00" in "".join(items)
    except TypeError:  # not only str (missing values, numbers): look at the str ones
        return any(isinstance(v, str) and "\x00" in v for v in items)


def _factorize_unsorted(values):
    """pd.factorize(values, sort=False), with str values that hold a NUL character told
    apart (by a dict, in order of first appearance; -1 marks a missing value)."""
    pd = _pd()
    if not _holds_nul_strings(values):
        return pd.factorize(values, sort=False)
    a = np.asarray(values, dtype=object)
    missing = pd.isna(a)
    index = {}
    codes = np.fromiter((-1 if gone else index.setdefault(v, len(index))
                         for v, gone in zip(a.tolist(), missing.tolist())),
                        dtype=np.intp, count=a.size)
    uniques = np.empty(len(index), dtype=object)
    uniques[:] = list(index)
    return codes, uniques


def _factorize_values(values, sort=True):
    """pd.factorize(values, sort=sort), except that values of mixed types that cannot
    be ordered stay in order of first appearance.

    The sort is done here, on the distinct values only, by a stable sort (timsort on
    objects: few comparisons, and linear on ids that arrive in order), where pandas
    would quicksort them; codes are then renumbered by one lookup per row."""
    pd = _pd()
    codes, uniques = _factorize_unsorted(values)
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
        if _holds_nul_strings(uniques):  # (which would merge strings at a NUL)
            return codes, uniques
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


_ORDER_PREFIX = 64  # values compared first to tell that a column is not in order


def _factorize_sorted(a):
    """Codes and distinct values of objects already in non-decreasing order (equal
    values adjacent), or None when they are not in order or do not compare."""
    try:
        if a.size > _ORDER_PREFIX and not np.all(a[1:_ORDER_PREFIX] >= a[:_ORDER_PREFIX - 1]):
            return None  # out of order early (the rest is not compared)
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


def _window_alignment(sub):
    """The alignment of most of a sorted subsample of addresses, and its median
    address: the largest power of two A such that at least 3/4 of the distinct
    addresses lie at multiples of A from the median one. pymalloc places the objects of
    one size class at multiples of it (64 bytes for short strings); a few objects
    allocated elsewhere -- CPython's static one-character strings sit at multiples of 8
    -- must not shrink it, as the alignment of all of them would (the window would then
    reach 8 times less and miss most of a column spread over a few MB). Keys off the
    alignment are hashed, as keys outside the window are."""
    distinct = np.unique(sub)
    base = distinct[distinct.size // 2]
    diff = distinct - base  # (wraps around below the median: the low bits are the same)
    diff = diff[diff != 0]
    if not diff.size:
        return _MIN_ALIGNMENT, int(base)
    lowest_bit = np.sort(diff & (~diff + np.uint64(1)))[::-1]  # the alignment of each
    need = max(1, -(-3 * distinct.size // 4) - 1)  # besides the median itself
    return int(lowest_bit[min(need, diff.size) - 1]), int(base)


def _address_window(keys):
    """Table slots of object addresses: (slot of each key, number of slots, the
    positions of the keys outside the window or None). The slot of a key outside
    the window (or inside it at another alignment) is the extra slot ``span``. None
    when the addresses do not cluster."""
    m = keys.size
    limit = _DENSE_SPAN_PER_ROW * m + _DENSE_SPAN_EXTRA
    sub = np.sort(keys[::max(1, m // _WINDOW_SUBSAMPLE)]).astype(np.uint64)  # all over
    # the widest window the table can cover at the subsample's alignment, placed where
    # it holds most of the subsample
    alignment, base = _window_alignment(sub)
    reach = min((limit - 1) * alignment, 1 << 62)
    top = np.minimum(sub, np.uint64(2 ** 64 - 1 - reach)) + np.uint64(reach)
    ends = np.searchsorted(sub, top, side="right")
    best = int(np.argmax(ends - np.arange(sub.size)))
    a, b = int(sub[best]), int(sub[ends[best] - 1])
    # some slack for objects the subsample missed, a multiple of 4096 (keeps alignment)
    slack = max(min((b - a) // _WINDOW_SLACK + 4096, (reach - (b - a)) // 2), 0) & ~4095
    low = max(a - slack, 0)
    low -= (low - base) % alignment  # at the alignment of the median key
    if low < 0:
        low += alignment
    width = b + slack - low
    rel = keys - keys.dtype.type(low)  # wraps around for keys below the window
    inside = rel <= keys.dtype.type(width)
    if alignment > 1:
        inside &= (rel & keys.dtype.type(alignment - 1)) == 0
    n_out = m - int(np.count_nonzero(inside))
    if _WINDOW_OUTSIDE * n_out > m:
        return None
    outside = None
    if n_out:
        outside = np.flatnonzero(~inside)
        rel[outside] = 0
    # every offset in the window is a multiple of 2**shift (at least the alignment),
    # so offset >> shift is one-to-one there
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
    interned = _intern_in_library(objects, True)  # str objects, hashed in C
    if interned is not None:
        return interned
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
            object_codes, distinct = _factorize_unsorted(objects)
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


def _intern_in_library(a, sort=True):
    """Codes and distinct values of a column of str objects, numbered by the library
    (cs_intern_strings): the strings are joined by NUL bytes into one UTF-8 buffer and
    hashed in C. UTF-8's byte order is the code point order of Python's sort, so the
    codes are those of the sorted distinct strings; the distinct values are the
    column's own objects (a.take(first)). None when the column is not all str, a
    string holds a NUL byte or a lone surrogate, or the library predates 0.2."""
    if not _lib.has_function("cs_intern_strings"):
        return None
    values = a.tolist()
    try:
        text = "\0".join(values).encode("utf-8")
    except (TypeError, UnicodeEncodeError):  # not all str, or not encodable
        return None
    n = len(values)
    if text.count(b"\0") != n - 1:  # a string holds a NUL byte
        return None
    codes = np.empty(n, dtype=np.int32)
    first = np.empty(n, dtype=np.int64)
    distinct = ctypes.c_size_t()
    with _lib.Handle() as model:
        _lib.check(_lib.function("cs_intern_strings")(
            model, text, len(text), None, n, 1 if sort else 0, codes.ctypes.data_as(_lib.I32P),
            first.ctypes.data_as(_lib.I64P), ctypes.byref(distinct)), model)
    return codes, a.take(first[:distinct.value])


def _intern_keys(keys, sort):
    """Codes (int32) of 64-bit keys numbered by the library (cs_intern_integers: a hash
    table, one pass in C, a key equal to the previous row's taking its code), in
    ascending key order (sort) or in order of first appearance, and the row of the first
    occurrence of each code; None with a library that lacks it (before 0.2). keys: an
    integer array (int64 or, for object addresses, uint64 taken bit for bit; sort
    needs int64)."""
    if not _lib.has_function("cs_intern_integers"):
        return None
    if keys.dtype.itemsize != 8:  # (32-bit addresses)
        keys = keys.astype(np.int64)
    keys = np.ascontiguousarray(keys)
    n = keys.size
    codes = np.empty(n, dtype=np.int32)
    first = np.empty(n, dtype=np.int64)  # (pages past the distinct keys are never touched)
    distinct = ctypes.c_size_t()
    with _lib.Handle() as model:
        _lib.check(_lib.function("cs_intern_integers")(
            model, keys.ctypes.data_as(_lib.I64P), n, 1 if sort else 0,
            codes.ctypes.data_as(_lib.I32P), first.ctypes.data_as(_lib.I64P),
            ctypes.byref(distinct)), model)
    return codes, first[:distinct.value]


def _code_by_value(objects, object_codes, sort):
    """Codes by value (int32, -1 for a missing value) of rows coded by object: the
    distinct objects (objects[c] is the object of code c) coded by value -- a check
    that they are already in order, else the library's string table, else
    _factorize_values --, then one lookup per row, skipped when each object's code is
    its value's."""
    in_order = _factorize_sorted(objects) if sort else None
    if in_order is None:
        in_order = _intern_in_library(objects, sort)
    value_codes, uniques = in_order if in_order is not None else _factorize_values(objects, sort)
    value_codes = np.asarray(value_codes, dtype=np.int32)
    if np.array_equal(value_codes, np.arange(value_codes.size, dtype=np.int32)):
        return object_codes, uniques
    # (indexing with the int32 codes casts them chunk by chunk; take would first copy
    # them all to intp: 8 MB more written and read at 10^6 rows)
    return value_codes[object_codes], uniques


def _factorize_objects(a, sort=True):
    """_factorize_values(a, sort) for a 1-D numpy object array, coding each distinct
    object (not each row) by value -- str values through the library's hash table
    (_intern_in_library) -- ; int32 codes (n below 2^31 here)."""
    n = a.size
    if n < 2 or n > _INT32_MAX:
        return _factorize_values(a, sort)
    if not a.flags.c_contiguous:
        a = np.ascontiguousarray(a)
    coded = _code_by_address([a], sort)
    if coded is not None:  # the rows coded by object in the library, in one pass
        return coded
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
        if in_order is None:  # str objects: the library's hash table
            in_order = _intern_in_library(objects, sort)
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
            # int32 codes (-1 for a missing value), as on the other paths: the address
            # table declining (string objects spread over a fragmented heap) must not
            # change the codes' type
            codes = np.asarray(value_codes, dtype=np.int32).take(object_codes, mode="clip")
    if grouped:
        codes = np.repeat(codes, np.diff(np.append(heads, n)))
    return codes, uniques


def _code_by_address(arrays, sort):
    """Codes by value (int32, -1 for a missing value) and distinct values of the rows of
    C-contiguous object arrays taken as one column: the rows coded by object address in
    one library pass (cs_intern_integers), then each distinct object coded by value
    (_code_by_value). None with a library that lacks cs_intern_integers."""
    keys = _object_addresses(arrays[0]) if len(arrays) == 1 else \
        np.concatenate([_object_addresses(a) for a in arrays])
    by_object = _intern_keys(keys, sort=False)
    if by_object is None:
        return None
    object_codes, rows = by_object
    if len(arrays) == 1:
        objects = arrays[0].take(rows)
    else:
        objects = np.empty(rows.size, dtype=object)
        offset = 0
        for a in arrays:  # each distinct object from the array that holds its first row
            mine = (rows >= offset) & (rows < offset + a.size)
            objects[mine] = a.take(rows[mine] - offset)
            offset += a.size
    return _code_by_value(objects, object_codes, sort)


def _factorize_columns(columns, sort=True):
    """_factorize of id columns as one (codes of the first column's rows, then the next
    one's, ...) without building their concatenation: for object columns (pairwise left,
    right and label) the columns' object addresses are concatenated instead of the
    objects themselves (no reference counting of every row's object; _code_by_address).
    Other columns, or a library without cs_intern_integers, go through _factorize of the
    concatenation."""
    pd = _pd()
    n = sum(len(c) for c in columns)
    if all(c.dtype == np.dtype(object) for c in columns) and 2 <= n <= _INT32_MAX:
        coded = _code_by_address([np.ascontiguousarray(c.to_numpy()) for c in columns], sort)
        if coded is not None:
            return coded
    return _factorize(pd.concat(list(columns), ignore_index=True), sort)


def _factorize(values, sort=True):
    """0-based codes of an id column (-1 for a missing id) and the ids in code order:
    sorted when the ids are orderable and ``sort`` (category order for a categorical
    column), else in order of first appearance."""
    pd = _pd()
    if isinstance(values.dtype, pd.CategoricalDtype):
        return _factorize_categorical(values)
    if _numpy_integers(values.dtype) and len(values):
        dense = _factorize_integers(values.to_numpy())
        if dense is not None:
            return dense
    if values.dtype == np.dtype(object):
        return _factorize_objects(values.to_numpy(), sort)
    if isinstance(values.dtype, pd.StringDtype) and len(values):
        # pandas' string columns: as str objects, through the library's hash table
        # (7x faster than pd.factorize on them at 10^6 rows); the ids keep the dtype
        codes, uniques = _factorize_objects(values.to_numpy(dtype=object), sort)
        return codes, pd.array(np.asarray(uniques, dtype=object), dtype=values.dtype)
    return _factorize_values(values, sort)


def _int32(codes):
    """Codes (0-based, each below 2^31) as int32, without a copy when they are already."""
    return np.asarray(codes).astype(np.int32, copy=False)



# The numpy layer is importable from here too, for symmetry.
Result = _fit.Result


def __getattr__(name):
    """The names of the modules split off this one (the estimator classes, the crowd
    frame's encoding), so that ``from crowdspec._frame import DawidSkene`` and pickles
    that name crowdspec._frame keep working. Imported on first use: they import this
    module."""
    if not name.startswith("__"):
        from . import _aggregators, _crowd_frame, _estimator, _points_graphs
        for module in (_aggregators, _points_graphs, _crowd_frame, _estimator):
            if name in vars(module):
                return vars(module)[name]
    raise AttributeError("module %r has no attribute %r" % (__name__, name))

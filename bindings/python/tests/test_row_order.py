# SPDX-License-Identifier: MIT
"""Row order: a frame's fit does not depend on the order of its rows (bit for bit), and
the codings used for rows in random order (a table indexed by object address, the
strings sorted by Python's sort) give exactly what pandas' factorize gives. The row
order itself is the library's concern (it takes each item's labels in worker order);
these tests check that nothing in the package breaks that."""

import io

import numpy as np
import pandas as pd
import pytest

import crowdspec
from crowdspec import _frame
from conftest import by_item_then_worker, simulate

N_TASKS = 6000  # more distinct task names than the prefix threshold of the address table


def _names(prefix, n):
    return np.array(["%s%05d" % (prefix, j) for j in range(n)], dtype=object)


def _crowd(seed=3):
    """A crowd of 6000 tasks x 5 labels, 40 workers, k = 3 as string ids and labels,
    rows grouped by task (each task's workers in random order)."""
    item, worker, label, _ = simulate(n_items=N_TASKS, n_workers=40, k=3, labels_per_item=5,
                                      seed=seed)
    df = pd.DataFrame({"task": _names("task", N_TASKS)[item],
                       "worker": _names("w", 40)[worker],
                       "label": np.array(["cat", "dog", "emu"], dtype=object)[label]})
    return df, (item, worker, label)


def _spy(monkeypatch, name):
    """Count the calls of _frame.<name> that returned a result (not None)."""
    calls = []
    original = getattr(_frame, name)

    def spy(*args, **kwargs):
        out = original(*args, **kwargs)
        calls.append(out is not None)
        return out

    monkeypatch.setattr(_frame, name, spy)
    return calls


def _without_library_coding(monkeypatch):
    """The coding of a library before 0.2: neither the objects (cs_intern_integers) nor
    their strings (cs_intern_strings) coded by the library."""
    monkeypatch.setattr(_frame, "_intern_keys", lambda keys, sort: None)
    monkeypatch.setattr(_frame, "_intern_in_library", lambda a, sort=True: None)


def _row_orders(df):
    """The same rows in several orders and object layouts."""
    rng = np.random.default_rng(7)
    out = {"grouped by task": df}
    for seed in (1, 2):
        out["shuffled %d" % seed] = df.iloc[np.random.default_rng(seed).permutation(len(df))]
    out["by worker"] = df.sort_values("worker", kind="stable")
    out["reversed, new index"] = df.iloc[::-1].reset_index(drop=True)
    text = io.StringIO()
    out["shuffled 1"].to_csv(text, index=False)
    text.seek(0)
    out["shuffled, read_csv"] = pd.read_csv(text)
    # every task id its own string object (equal strings held by distinct objects)
    copies = np.array([s[:1] + s[1:] for s in df["task"]], dtype=object)
    out["shuffled, copies"] = df.assign(task=copies).iloc[rng.permutation(len(df))]
    return out


@pytest.mark.parametrize("cls", [crowdspec.DawidSkene, crowdspec.OptDawidSkene,
                                 crowdspec.OneCoinDawidSkene])
def test_fit_does_not_depend_on_row_order(cls, monkeypatch):
    """Any row order gives bit-identical labels_, probas_, errors_, priors_ and trace, and
    they are the library's fit of the rows sorted by item, then worker (numpy's lexsort
    of codes numbered here by Python's sorted)."""
    df, (item, worker, label) = _crowd()
    interned = _spy(monkeypatch, "_intern_in_library")
    fits = {name: cls(n_jobs=1).fit(frame) for name, frame in _row_orders(df).items()}
    assert any(interned), "the library's string table was not used"
    want = fits["grouped by task"]
    for name, got in fits.items():
        pd.testing.assert_series_equal(got.labels_, want.labels_, check_exact=True, obj=name)
        pd.testing.assert_frame_equal(got.probas_, want.probas_, check_exact=True, obj=name)
        pd.testing.assert_frame_equal(got.errors_, want.errors_, check_exact=True, obj=name)
        pd.testing.assert_series_equal(got.priors_, want.priors_, check_exact=True, obj=name)
        assert got.loss_history_ == want.loss_history_, name
    # the reference: codes in sorted name order (here the names sort as their numbers),
    # rows by item then worker, straight into the numpy layer
    r = crowdspec.fit_labels(*by_item_then_worker(item, worker, label), method=cls._method,
                             threads=1, warn=False)
    np.testing.assert_array_equal(want.probas_.to_numpy(), r.posteriors)
    np.testing.assert_array_equal(want.errors_.to_numpy(),
                                  r.confusion.transpose(0, 2, 1).reshape(-1, 3))
    assert list(want.labels_.index) == sorted(df["task"].unique())


def test_predict_does_not_depend_on_row_order():
    df, _ = _crowd()
    ds = crowdspec.DawidSkene(n_jobs=1).fit(df)
    batch, _ = _crowd(seed=4)
    want = ds.predict_proba(batch)
    shuffled = batch.iloc[np.random.default_rng(5).permutation(len(batch))]
    pd.testing.assert_frame_equal(ds.predict_proba(shuffled), want, check_exact=True)


def _string_columns():
    rng = np.random.default_rng(12)
    names = _names("id", 20_000)
    shuffled = names[rng.integers(0, names.size, 150_000)]
    copies = np.array([s[:1] + s[1:] for s in names], dtype=object)
    odd = np.array(["a", "a\x00", "\x00", "", "é", "e\u0301", "Z", "z", "ß", "\U0001f600",
                    "id00001 ", " id00001"], dtype=object)
    return {
        "shuffled": shuffled,
        # the same strings held by two objects each, shuffled together
        "identical strings, distinct objects": np.where(rng.random(150_000) < 0.5, shuffled,
                                                        copies[rng.integers(0, names.size,
                                                                            150_000)]),
        # code points, trailing NULs and spaces: ordered as Python orders them
        "unusual strings": np.concatenate([shuffled, odd[rng.integers(0, odd.size, 5000)]]),
        "numpy str scalars": np.array([np.str_(s) for s in names], dtype=object)[
            rng.integers(0, names.size, 100_000)],
    }


def _python_coding(column):
    """Codes of the distinct values in Python's sorted order, by a dict: the reference
    (pd.factorize agrees except on strings with a NUL character, which pandas before
    3.1 compares only up to the NUL, pandas issue 34551)."""
    uniques = sorted(set(column.tolist()))
    rank = {v: i for i, v in enumerate(uniques)}
    return np.array([rank[v] for v in column.tolist()]), uniques


@pytest.mark.parametrize("name", list(_string_columns()))
def test_address_table_equals_python_coding(name, monkeypatch):
    """String columns in random order (the address table, then Python's sort of the
    distinct strings): the codes and ids of Python's sorted order, which are also
    pd.factorize(sort=True)'s when no string holds a NUL."""
    column = _string_columns()[name]
    # the path of str columns with a library before 0.2 (no cs_intern_integers to code
    # the objects, no cs_intern_strings to code their strings)
    _without_library_coding(monkeypatch)
    by_address = _spy(monkeypatch, "_factorize_strings_by_address")
    codes, uniques = _frame._factorize(pd.Series(column))
    # The address table is tried once; whether it takes the column depends on where the
    # allocator put the string objects (it declines when they spread beyond its window,
    # as a fragmented heap in a long test run does), so only its answer is asserted.
    assert len(by_address) == 1
    want_codes, want_uniques = _python_coding(column)
    np.testing.assert_array_equal(codes, want_codes)
    assert list(uniques) == want_uniques
    assert codes.dtype == np.int32
    if name != "unusual strings":
        pd_codes, pd_uniques = pd.factorize(column, sort=True)
        np.testing.assert_array_equal(codes, pd_codes)
        assert list(uniques) == list(pd_uniques)


@pytest.mark.parametrize("name", ["shuffled", "unusual strings"])
def test_declined_address_table_codes_like_python(name, monkeypatch):
    """When the address table declines (string objects spread over a fragmented heap,
    as late in a long test run: CI's package build met it), the object-by-object
    fallback gives the same codes, ids and int32 type."""
    column = _string_columns()[name]
    _without_library_coding(monkeypatch)
    monkeypatch.setattr(_frame, "_factorize_strings_by_address", lambda a, k, h: None)
    codes, uniques = _frame._factorize(pd.Series(column))
    want_codes, want_uniques = _python_coding(column)
    np.testing.assert_array_equal(codes, want_codes)
    assert list(uniques) == want_uniques
    assert codes.dtype == np.int32


@pytest.mark.parametrize("name", ["shuffled", "unusual strings"])
def test_pandas_string_dtype_codes_like_python(name):
    """A pandas string column (dtype "string") gets Python's sorted codes, and ids that
    keep the column's dtype."""
    column = _string_columns()[name]
    codes, uniques = _frame._factorize(pd.Series(column, dtype="string"))
    want_codes, want_uniques = _python_coding(column)
    np.testing.assert_array_equal(codes, want_codes)
    assert list(uniques) == want_uniques
    assert uniques.dtype == pd.StringDtype()


def test_strings_differing_after_a_nul_stay_apart():
    """Every row its own str object, some holding a NUL (the library declines them, and
    pandas 1.x would hash "w1" and "w1\\x00" alike): each distinct string keeps its code."""
    column = np.array(["w%d" % i for i in range(3000)] + ["w1\x00", "\x00w2", "w1"],
                      dtype=object)
    codes, uniques = _frame._factorize(pd.Series(column))
    want_codes, want_uniques = _python_coding(column)
    np.testing.assert_array_equal(codes, want_codes)
    assert list(uniques) == want_uniques and len(uniques) == 3002


@pytest.mark.parametrize("name", list(_string_columns()))
def test_library_interning_equals_python_coding(name, monkeypatch):
    """str columns numbered by the library (cs_intern_strings on the UTF-8 bytes): the
    codes and ids of Python's sorted order (UTF-8 byte order is code point order); a
    column with a NUL byte in a string goes the Python way, to the same result."""
    column = _string_columns()[name]
    interned = _spy(monkeypatch, "_intern_in_library")
    by_object = _spy(monkeypatch, "_intern_keys")
    codes, uniques = _frame._factorize(pd.Series(column))
    has_nul = any("\0" in s for s in column.tolist())
    assert any(interned) == (not has_nul)
    assert by_object == [True]  # the rows coded by object in the library
    want_codes, want_uniques = _python_coding(column)
    np.testing.assert_array_equal(codes, want_codes)
    assert list(uniques) == want_uniques
    assert codes.dtype == np.int32


def test_address_table_with_objects_outside_the_window(monkeypatch):
    """Objects whose addresses lie outside the window are hashed apart: with a table
    allowed half the slots the column's objects need, a good part of the rows is
    outside, and the coding is still the reference's."""
    column = _string_columns()["shuffled"]
    keys = _frame._object_addresses(column)
    distinct = np.sort(np.unique(keys))
    spread = int(distinct[int(0.95 * distinct.size)] - distinct[int(0.05 * distinct.size)])
    monkeypatch.setattr(_frame, "_DENSE_SPAN_PER_ROW", 0)
    # the alignment the window assumes: that of most of its subsample of the keys
    sub = np.sort(keys[::keys.size // _frame._WINDOW_SUBSAMPLE])
    alignment, _ = _frame._window_alignment(sub)
    monkeypatch.setattr(_frame, "_DENSE_SPAN_EXTRA", spread // 2 // alignment)
    monkeypatch.setattr(_frame, "_WINDOW_OUTSIDE", 1)
    window = _frame._address_window(keys)
    assert window is not None and window[2] is not None
    assert 0.05 < window[2].size / keys.size < 0.95
    _without_library_coding(monkeypatch)
    by_address = _spy(monkeypatch, "_factorize_strings_by_address")
    codes, uniques = _frame._factorize(pd.Series(column))
    # The address table is tried once; whether it takes the column depends on where the
    # allocator put the string objects (it declines when they spread beyond its window,
    # as a fragmented heap in a long test run does), so only its answer is asserted.
    assert len(by_address) == 1
    want_codes, want_uniques = _python_coding(column)
    np.testing.assert_array_equal(codes, want_codes)
    assert list(uniques) == want_uniques


def test_address_window_slots():
    """The table's slots on made-up addresses: one slot per distinct address in the
    window (16-byte alignment found from the data), far addresses flagged outside, and
    no table when the addresses do not cluster."""
    rng = np.random.default_rng(3)
    base = 0x7F0000000000
    distinct = base + 16 * rng.choice(1 << 20, 50_000, replace=False).astype(np.uint64)
    far = np.array([base - (1 << 36), base + (1 << 40) + 48], dtype=np.uint64)
    keys = np.concatenate([distinct[rng.integers(0, distinct.size, 400_000)],
                           far[rng.integers(0, 2, 30)]])
    rng.shuffle(keys)
    slot, span, outside = _frame._address_window(keys)
    assert span <= (1 << 20) * 1.5
    np.testing.assert_array_equal(np.sort(outside), np.flatnonzero(np.isin(keys, far)))
    assert (slot[outside] == span).all()
    inside = np.setdiff1d(np.arange(keys.size), outside)
    # one-to-one: equal slots exactly for equal addresses
    pairs = np.unique(np.stack([keys[inside], slot[inside].astype(np.uint64)]), axis=1)
    assert pairs.shape[1] == np.unique(keys[inside]).size == np.unique(slot[inside]).size
    assert (slot[inside] < span).all() and (slot[inside] >= 0).all()
    spread = rng.integers(0, 1 << 60, 100_000).astype(np.uint64) * 16
    assert _frame._address_window(spread) is None


def test_address_window_ignores_a_few_objects_of_another_alignment():
    """Most objects 64 bytes apart (pymalloc's short strings) over 24 MB, a few at
    multiples of 8 among them (CPython's static one-character strings): the window
    takes the alignment of the many, 64, and reaches over all of them, the few being
    hashed. Taking the alignment of all (8) reached 8 times less, and with the column
    spread over more than a few MB the table was given up (test "unusual strings" above
    failed depending on what the earlier tests had left in the heap)."""
    rng = np.random.default_rng(4)
    base = 0x7F0000000000
    many = base + 64 * rng.choice(3 << 17, 20_000, replace=False).astype(np.uint64)
    few = base + 8 + 64 * rng.choice(3 << 17, 12, replace=False).astype(np.uint64)
    keys = np.concatenate([many[rng.integers(0, many.size, 150_000)],
                           few[rng.integers(0, few.size, 5_000)]])
    rng.shuffle(keys)
    assert _frame._window_alignment(np.sort(keys[::keys.size // 4096]))[0] == 64
    slot, span, outside = _frame._address_window(keys)
    np.testing.assert_array_equal(np.sort(outside), np.flatnonzero(np.isin(keys, few)))
    inside = np.setdiff1d(np.arange(keys.size), outside)
    pairs = np.unique(np.stack([keys[inside], slot[inside].astype(np.uint64)]), axis=1)
    assert pairs.shape[1] == np.unique(keys[inside]).size == np.unique(slot[inside]).size
    assert span <= 1.5 * (3 << 17)  # the slots of 64 bytes, with some slack


def test_mixed_types_among_many_strings():
    """A non-string among many shuffled strings leaves the address table for the hashed
    coding, with pandas' rules (numbers before strings)."""
    column = _string_columns()["shuffled"].copy()
    column[[10, 70_000]] = 7
    codes, uniques = _frame._factorize(pd.Series(column))
    want_codes, want_uniques = pd.factorize(column, sort=True)
    np.testing.assert_array_equal(codes, want_codes)
    assert list(uniques) == list(want_uniques) and uniques[0] == 7


@pytest.mark.parametrize("missing", [None, np.nan, pd.NA])
def test_missing_among_many_shuffled_strings(missing):
    """None, NaN and pd.NA task ids among shuffled string ids: a ValueError naming the
    row, as pd.factorize's -1 code."""
    df, _ = _crowd()
    df = df.iloc[np.random.default_rng(1).permutation(len(df))].reset_index(drop=True)
    column = df["task"].to_numpy().copy()
    column[12_345] = missing
    codes, _ = _frame._factorize(pd.Series(column))
    assert codes[12_345] == -1 and (np.delete(codes, 12_345) >= 0).all()
    with pytest.raises(ValueError, match=r"data\['task'\] has a missing value \(row 12345\)"):
        crowdspec.MajorityVote().fit(df.assign(task=column))


def test_duplicates_keep_their_row_order():
    """duplicates = first / last keep the frame's first / last label of a worker on a
    task (the library puts each task's labels in worker order after applying the
    policy in row order); without the
    parameter the error names the frame's rows and ids."""
    df, _ = _crowd()
    df = df.iloc[np.random.default_rng(2).permutation(len(df))].reset_index(drop=True)
    task = df["task"].iloc[100]
    mine = df[df["task"] == task]
    # a new worker labels the task twice: "emu" first (row 5), then "cat" (a late row)
    extra = pd.DataFrame({"task": [task, task], "worker": ["late", "late"],
                          "label": ["emu", "cat"]}, index=[-5, -6])
    dup = pd.concat([df.iloc[:5], extra.iloc[:1], df.iloc[5:], extra.iloc[1:]])
    first = crowdspec.MajorityVote(duplicates="first").fit(dup)
    last = crowdspec.MajorityVote(duplicates="last").fit(dup)
    votes = mine["label"].value_counts()
    for fit, kept in ((first, "emu"), (last, "cat")):
        counts = votes.add(pd.Series({kept: 1}), fill_value=0).reindex(fit.classes_,
                                                                      fill_value=0)
        np.testing.assert_allclose(fit.probas_.loc[task].to_numpy(),
                                   (counts / counts.sum()).to_numpy(), rtol=0, atol=1e-15)
    with pytest.raises(crowdspec.CrowdspecError,
                       match=r"worker 'late' labelled task '%s' twice \(rows -5 and -6\)"
                       % task) as err:
        crowdspec.DawidSkene().fit(dup)
    assert err.value.status_name == "CS_ERR_DUPLICATE"

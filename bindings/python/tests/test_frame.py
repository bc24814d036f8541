# SPDX-License-Identifier: MIT
"""The crowd-kit-shaped API: string ids, categorical and numeric labels, attributes and
their layouts, gold labels, parameters, every method, points and graphs."""

import warnings

import numpy as np
import pandas as pd
import pytest

import crowdspec
from conftest import by_item_then_worker, simulate


def crowd_frame(k=3, seed=2, n_items=150, labels=None):
    item, worker, label, truth = simulate(n_items=n_items, n_workers=12, k=k, seed=seed)
    names = labels if labels is not None else ["cat", "dog", "bird", "fish"][:k]
    df = pd.DataFrame({
        "task": np.array(["task-%03d" % j for j in range(n_items)], dtype=object)[item],
        "worker": np.array(["w%02d" % i for i in range(12)], dtype=object)[worker],
        "label": np.array(names, dtype=object)[label],
    })
    truth = pd.Series(np.array(names, dtype=object)[truth],
                      index=["task-%03d" % j for j in range(n_items)])
    return df, truth, (item, worker, label)


def test_string_ids_match_the_numpy_layer():
    df, truth, (item, worker, label) = crowd_frame()
    ds = crowdspec.DawidSkene(n_jobs=1)
    labels = ds.fit_predict(df)
    r = crowdspec.fit_labels(item, worker, label, method="ds", threads=1, warn=False)
    classes = sorted(["cat", "dog", "bird"])  # sorted as text: bird, cat, dog
    order = np.argsort(np.array(["cat", "dog", "bird"]))  # column of each sorted class
    assert list(ds.probas_.columns) == classes
    assert ds.probas_.index.name == "task" and ds.probas_.index.is_monotonic_increasing
    # tasks are sorted: "task-%03d" % j sorts as j, so rows line up with r
    np.testing.assert_allclose(ds.probas_.to_numpy(), r.posteriors[:, order], atol=1e-12)
    assert labels.name == "agg_label"
    assert list(labels.to_numpy()) == list(np.array(["cat", "dog", "bird"])[r.labels])
    assert (labels == truth.loc[labels.index]).mean() > 0.9
    # the classes are permuted, so sums run in another order: equal to rounding
    np.testing.assert_allclose(ds.loss_history_, r.trace, rtol=1e-12)
    assert ds.n_iter_ == r.iterations and ds.converged_ == r.converged
    assert ds.log_likelihood_ == pytest.approx(r.log_likelihood, rel=1e-12)
    assert ds.notes_ == []
    assert isinstance(ds.result_, crowdspec.Result)


def test_attribute_layouts():
    df, _, (item, worker, label) = crowd_frame()
    ds = crowdspec.DawidSkene(n_jobs=1).fit(df)
    k = 3
    # errors_: rows (worker, observed label), columns true label, columns sum to 1
    assert ds.errors_.index.names == ["worker", "label"]
    assert ds.errors_.shape == (12 * k, k)
    np.testing.assert_allclose(ds.errors_.groupby(level="worker").sum().to_numpy(), 1.0)
    w = "w03"
    block = ds.errors_.loc[w]  # observed x true
    conf = ds.result_.confusion[3]  # true x observed, in class order
    np.testing.assert_allclose(block.to_numpy(), conf.T)
    assert list(block.index) == list(ds.classes_) == list(block.columns)
    # skills_: sum_l prior_l * P(l | l)
    expected = sum(ds.priors_[c] * block.loc[c, c] for c in ds.classes_)
    assert ds.skills_[w] == pytest.approx(expected, abs=1e-15)
    assert ds.skills_.index.name == "worker" and ds.skills_.name == "skill"
    assert ds.priors_.sum() == pytest.approx(1.0)
    assert list(ds.priors_.index) == list(ds.classes_)
    np.testing.assert_allclose(ds.probas_.sum(axis=1), 1.0)


def test_fit_predict_proba_and_methods_return_self():
    df, _, _ = crowd_frame()
    agg = crowdspec.OptDawidSkene(n_jobs=1)
    assert agg.fit(df) is agg
    probas = crowdspec.OptDawidSkene(n_jobs=1).fit_predict_proba(df)
    pd.testing.assert_frame_equal(probas, agg.probas_)


def test_categorical_labels_keep_dtype_and_unused_categories():
    df, _, _ = crowd_frame()
    dtype = pd.CategoricalDtype(["fish", "cat", "dog", "bird"], ordered=True)
    df["label"] = df["label"].astype(dtype)
    mv = crowdspec.MajorityVote()
    labels = mv.fit_predict(df)
    assert labels.dtype == dtype
    # an ordered categorical keeps its order; "fish" (nobody chose it) is a class
    assert list(mv.probas_.columns) == ["fish", "cat", "dog", "bird"]
    assert (mv.probas_["fish"] == 0).all()
    unordered = df.assign(label=df["label"].astype(pd.CategoricalDtype(
        ["fish", "cat", "dog", "bird"])))
    mv2 = crowdspec.MajorityVote().fit(unordered)
    assert list(mv2.probas_.columns) == ["bird", "cat", "dog", "fish"]
    assert mv2.labels_.dtype == unordered["label"].dtype
    # the class order only decides ties (to the lowest class index)
    top = mv.probas_.to_numpy()
    untied = (top >= top.max(axis=1, keepdims=True)).sum(axis=1) == 1
    assert untied.sum() > 100
    assert (mv2.labels_.astype(str) == labels.astype(str))[untied].all()


def test_numeric_labels_sorted_numerically_and_dtype_kept():
    df, _, (item, worker, label) = crowd_frame()
    df["label"] = np.array([10, 9, 100], dtype=np.int64)[label]
    ds = crowdspec.DawidSkene(n_jobs=1).fit(df)
    assert list(ds.probas_.columns) == [9, 10, 100]
    assert ds.labels_.dtype == np.int64
    df["label"] = df["label"].astype(np.float64) / 4
    mv = crowdspec.MajorityVote().fit(df)
    assert list(mv.probas_.columns) == [2.25, 2.5, 25.0]
    assert mv.labels_.dtype == np.float64


def test_integer_task_ids_and_mixed_label_types():
    df = pd.DataFrame({"task": [3, 1, 3, 1, 2, 2], "worker": ["a", "a", "b", "b", "a", "b"],
                       "label": [1, "x", 1, "x", "x", 1]})
    mv = crowdspec.MajorityVote().fit(df)
    assert list(mv.labels_.index) == [1, 2, 3]
    assert list(mv.probas_.columns) == [1, "x"]  # not comparable: sorted as text
    assert mv.labels_.loc[1] == "x" and mv.labels_.loc[3] == 1


def _mapping(codes, uniques, values):
    """The id each row's code names, for comparing codings."""
    uniques = list(uniques)
    return [None if c < 0 else uniques[c] for c in codes]


@pytest.mark.parametrize("column", [
    pd.Series([70, 7, 70, 14, 7]),                                  # dense int64
    pd.Series([2**62, -2**62, 5, 2**62]),                           # sparse: hash path
    pd.Series(np.array([200, 3, 3, 255], dtype=np.uint8)),
    # narrow signed ids whose range exceeds their type: their differences overflow it
    pd.Series(np.array([-100, -100, 100, 100], dtype=np.int8)),
    pd.Series(np.array([-20000, 20000, 5, -20000], dtype=np.int16)),
    pd.Series(np.array([-120, 120, -120, 7], dtype=np.int8)),  # sparse within the span
    pd.Series(np.array([-2**31, 2**31 - 1, 0], dtype=np.int32)),  # too sparse: hash path
    pd.Series(np.arange(-128, 128, dtype=np.int8)),  # the whole range of int8
    pd.Series(np.array([2**63 + 9, 2**63 + 1, 2**63 + 9], dtype=np.uint64)),
    pd.Series(pd.Categorical(["b", "a", "b"], categories=["c", "b", "a"])),  # unused "c"
    pd.Series(pd.Categorical(["b", None, "a"], categories=["a", "b", "z"])),
    pd.Series(["w2", "w10", "w2"], dtype=object),
])
@pytest.mark.parametrize("library", [True, False], ids=["library", "before 0.2"])
def test_id_coding_equals_pandas_factorize(column, library, monkeypatch):
    """The fast codings of integer and categorical id columns give exactly what
    pd.factorize(sort=True) gives: the same codes, the same ids in the same order; with
    the library's coding of int64 columns and objects (cs_intern_integers) and without
    it (a library before 0.2)."""
    from crowdspec import _frame
    if not library:
        monkeypatch.setattr(_frame, "_intern_keys", lambda keys, sort: None)
    codes, uniques = _frame._factorize(column)
    want_codes, want_uniques = pd.factorize(column, sort=True)
    np.testing.assert_array_equal(codes, want_codes)
    assert list(uniques) == list(want_uniques)
    assert _mapping(codes, uniques, column) == [None if pd.isna(v) else v for v in column]


def _copies(strings):
    """An object array of new string objects equal to ``strings`` (one per row)."""
    out = np.array([s[:1] + s[1:] for s in strings], dtype=object)
    assert len({id(x) for x in out}) == out.size
    return out


def _object_columns():
    """Object id columns that take each branch of the object coding, with the layouts
    and object sharing real frames have."""
    rng = np.random.default_rng(11)
    names = np.array(["id%05d" % j for j in range(3000)], dtype=object)
    grouped = np.repeat(rng.permutation(3000), 8)  # runs of 8 rows, ids out of order
    sorted_runs = np.repeat(np.arange(3000), 8)  # runs, ids in order (as exports)
    scattered = rng.integers(0, 40, 100_000)  # few ids, no runs: one object each
    late = np.concatenate([rng.integers(0, 30, 80_000), rng.integers(30, 60, 20_000)])
    return {
        "runs, shuffled ids": names[grouped],
        "runs, sorted ids": names[sorted_runs],
        # equal values held by different objects (a reader that does not share them),
        # adjacent in sorted runs
        "runs, two objects per id": np.where(np.arange(48_000) % 16 >= 8,
                                             _copies(names[np.repeat(np.arange(3000), 16)]),
                                             names[np.repeat(np.arange(3000), 16)]),
        "shared objects, no runs": names[scattered],
        # ids first seen after the prefix the coding samples (65,536 rows)
        "ids first seen late": names[late],
        "one object per row": _copies(names[scattered]),
        "sorted, one object per row": _copies(names[sorted_runs]),
        "missing values": np.where(rng.random(50_000) < 0.01, None,
                                   names[rng.integers(0, 100, 50_000)]),
        "NaN in runs": np.repeat(np.array(["b", np.nan, "a", "b"], dtype=object), 20),
        "mixed types": np.array([3, "x", 2.5, "x", 3, (1, 2), "a", 2.5] * 5000,
                                dtype=object),
        "ints and strings, runs": np.repeat(np.array([10, "b", 2, "a", 10], dtype=object),
                                            9),
        "equal numbers of other types": np.array([1, 1.0, 2, True, 2.0, 1] * 3000,
                                                 dtype=object),
        "bools": np.array([True, False, False] * 1000, dtype=object),
    }


@pytest.mark.parametrize("library", [True, False], ids=["library", "before 0.2"])
@pytest.mark.parametrize("name", list(_object_columns()))
def test_object_id_coding_equals_pandas_factorize(name, library, monkeypatch):
    """Object columns are coded object by object (by the library, cs_intern_integers on
    the objects' addresses; or, with a library before 0.2, run by run in numpy): still
    exactly pd.factorize(sort=True)'s codes and ids (and its first-appearance order for
    values that do not sort)."""
    from crowdspec import _frame
    if not library:
        monkeypatch.setattr(_frame, "_intern_keys", lambda keys, sort: None)
    _factorize = _frame._factorize
    column = pd.Series(_object_columns()[name])
    codes, uniques = _factorize(column)
    values = column.to_numpy()
    try:
        want_codes, want_uniques = pd.factorize(values, sort=True)
    except TypeError:
        want_codes, want_uniques = pd.factorize(values, sort=False)
    np.testing.assert_array_equal(codes, want_codes)
    assert list(uniques) == list(want_uniques)
    got, want = _factorize(column, sort=False), pd.factorize(values, sort=False)
    np.testing.assert_array_equal(got[0], want[0])
    assert list(got[1]) == list(want[1])


def test_object_coding_on_a_strided_column():
    """A column that is a strided view (every other row of an object array)."""
    from crowdspec._frame import _factorize_objects
    base = np.array(["a", "b", "c", "d"] * 50_000, dtype=object)
    view = base[::2]  # a, c, a, c, ...
    assert not view.flags.c_contiguous
    codes, uniques = _factorize_objects(view)
    assert list(uniques) == ["a", "c"]
    np.testing.assert_array_equal(codes, np.tile([0, 1], 50_000))


def test_missing_ids_are_a_clear_error():
    """None, NaN and pd.NA task or worker ids raise ValueError naming the row, in every
    coding path (objects in runs, objects without runs, floats, pandas strings)."""
    n = 40_000
    tasks = np.repeat(np.array(["t%05d" % j for j in range(n // 8)], dtype=object), 8)
    workers = np.array(["w%d" % i for i in range(50)], dtype=object)[np.arange(n) % 50]
    labels = np.arange(n) % 2
    for column, values, row, missing in (("task", tasks.copy(), 17_001, None),
                                         ("task", tasks.copy(), 8, np.nan),
                                         ("worker", workers.copy(), 333, None),
                                         ("worker", workers.copy(), 0, np.nan)):
        values[row] = missing
        df = pd.DataFrame({"task": tasks, "worker": workers, "label": labels})
        df[column] = values
        with pytest.raises(ValueError, match=r"data\['%s'\] has a missing value \(row %d\)"
                           % (column, row)):
            crowdspec.MajorityVote().fit(df)
    df = pd.DataFrame({"task": np.arange(6) / 1.0, "worker": [0, 1, 2] * 2, "label": [0, 1] * 3})
    df.loc[4, "task"] = np.nan
    with pytest.raises(ValueError, match=r"data\['task'\] has a missing value \(row 4\)"):
        crowdspec.MajorityVote().fit(df)
    df = pd.DataFrame({"task": pd.array(["a", "b", None, "a"], dtype="string"),
                       "worker": ["x", "y", "x", "y"], "label": [0, 1, 0, 1]})
    with pytest.raises(ValueError, match=r"data\['task'\] has a missing value \(row 2\)"):
        crowdspec.MajorityVote().fit(df)
    df = pd.DataFrame({"task": ["a", "b", "a", "b"], "worker": ["x", "y", "x", "y"],
                       "label": np.array(["p", None, "q", "p"], dtype=object)})
    with pytest.raises(ValueError, match=r"data\['label'\] has a missing value \(row 1\)"):
        crowdspec.MajorityVote().fit(df)


def test_mixed_type_ids_fit_as_their_values():
    """Worker ids of mixed types (ints, strings, floats) are distinct workers by value:
    the fit equals the one on 0-based codes assigned by hand."""
    item, worker, label, _ = simulate(n_items=150, n_workers=6, k=2, seed=8)
    ids = np.array([7, "seven", 7.5, "7", "", 8], dtype=object)
    df = pd.DataFrame({"task": item, "worker": ids[worker], "label": label})
    ds = crowdspec.DawidSkene(n_jobs=1).fit(df)
    # numbers sort before strings (pandas' rule for mixed ids): 7, 7.5, 8, "", "7",
    # "seven" -- the numpy fit with workers renumbered in that order
    order = {7: 0, 7.5: 1, 8: 2, "": 3, "7": 4, "seven": 5}
    assert list(ds.skills_.index) == list(order)
    renumbered = np.array([order[x] for x in ids])[worker]
    r = crowdspec.fit_labels(*by_item_then_worker(item, renumbered, label), method="ds",
                             threads=1, warn=False)
    np.testing.assert_array_equal(ds.probas_.to_numpy(), r.posteriors)
    np.testing.assert_array_equal(ds.errors_.to_numpy(),
                                  r.confusion.transpose(0, 2, 1).reshape(-1, 2))


def test_categorical_ids_with_unused_categories():
    """Unused categories of a task or worker column are no items or workers (the
    result has rows only for tasks that have labels); the fit equals the one on the
    used categories coded by hand in category order."""
    item, worker, label, _ = simulate(n_items=80, n_workers=6, k=2, seed=9)
    task_names = ["t%02d" % j for j in range(80)]
    categories = ["zzz"] + task_names[::-1] + ["unused"]  # not sorted, two unused
    df = pd.DataFrame({
        "task": pd.Categorical(np.array(task_names, dtype=object)[item],
                               categories=categories),
        "worker": pd.Categorical(np.array(list("abcdef"), dtype=object)[worker],
                                 categories=list("xfedcba")),
        "label": label})
    ds = crowdspec.DawidSkene(n_jobs=1).fit(df)
    assert list(ds.labels_.index) == task_names[::-1]  # category order, used only
    assert list(ds.skills_.index) == list("fedcba")
    r = crowdspec.fit_labels(*by_item_then_worker(79 - item, 5 - worker, label), method="ds",
                             threads=1, warn=False)
    np.testing.assert_array_equal(ds.probas_.to_numpy(), r.posteriors)


def test_object_and_categorical_labels_give_the_integer_fit():
    """Labels as strings (shared objects, one object per row, in runs) and as a
    categorical with an unused category: the same fit as integer labels."""
    item, worker, label, _ = simulate(n_items=300, n_workers=9, k=3, seed=10)
    base = pd.DataFrame({"task": item, "worker": worker, "label": label})
    want = crowdspec.DawidSkene(n_jobs=1).fit(base)
    names = np.array(["a", "b", "c"], dtype=object)
    frames = {
        "shared": names[label],
        "one per row": np.array(["%s" % x for x in names[label]], dtype=object),
        "sorted runs": names[np.sort(label)],
    }
    for name, values in frames.items():
        df = base.assign(label=values)
        if name == "sorted runs":
            df = base.assign(label=np.sort(label)).assign(label=values)
            want_here = crowdspec.DawidSkene(n_jobs=1).fit(base.assign(label=np.sort(label)))
        else:
            want_here = want
        got = crowdspec.DawidSkene(n_jobs=1).fit(df)
        assert list(got.probas_.columns) == ["a", "b", "c"], name
        np.testing.assert_array_equal(got.probas_.to_numpy(), want_here.probas_.to_numpy(),
                                      err_msg=name)
    # an unused category ("d") is a class nobody chose: probability 0 everywhere
    cat = base.assign(label=pd.Categorical.from_codes(label, ["a", "b", "c", "d"]))
    mv = crowdspec.MajorityVote().fit(cat)
    assert list(mv.probas_.columns) == ["a", "b", "c", "d"]
    assert (mv.probas_["d"] == 0).all()
    np.testing.assert_array_equal(
        mv.probas_[["a", "b", "c"]].to_numpy(),
        crowdspec.MajorityVote().fit(base).probas_.to_numpy())


def test_every_id_coding_gives_the_same_fit():
    """Task ids as dense integers, sparse integers, a categorical and strings (all
    ordered alike) give the same posteriors and trace bit for bit."""
    item, worker, label, _ = simulate(n_items=200, n_workers=9, k=3, seed=4)
    frames = {
        "dense": item * 3 + 10,
        "sparse": item.astype(np.int64) * (2**40) - 2**50,
        "categorical": pd.Categorical(item, categories=np.arange(item.max() + 1)),
        "strings": np.array(["t%04d" % j for j in range(item.max() + 1)], dtype=object)[item],
    }
    fits = {}
    for name, tasks in frames.items():
        df = pd.DataFrame({"task": tasks, "worker": worker.astype(np.int64), "label": label})
        ds = crowdspec.DawidSkene(n_jobs=1).fit(df)
        fits[name] = (ds.probas_.to_numpy(), list(ds.loss_history_))
    for name, (probas, trace) in fits.items():
        np.testing.assert_array_equal(probas, fits["strings"][0], err_msg=name)
        assert trace == fits["strings"][1], name


def test_integer_labels_coded_by_value():
    """int64 labels with gaps: the classes are the values present, numerically sorted,
    and the fit is the one of the same labels as strings in the same order."""
    item, worker, label, _ = simulate(n_items=120, n_workers=7, k=3, seed=6)
    values = np.array([-5, 40, 300])
    as_int = pd.DataFrame({"task": item, "worker": worker, "label": values[label]})
    as_text = as_int.assign(label=np.array(["a", "b", "c"], dtype=object)[label])
    a = crowdspec.DawidSkene(n_jobs=1).fit(as_int)
    b = crowdspec.DawidSkene(n_jobs=1).fit(as_text)
    assert list(a.probas_.columns) == [-5, 40, 300] and a.labels_.dtype == np.int64
    np.testing.assert_array_equal(a.probas_.to_numpy(), b.probas_.to_numpy())
    nullable = as_int.assign(label=pd.array(values[label], dtype="Int64"))
    nullable.loc[7, "label"] = pd.NA
    with pytest.raises(ValueError, match="missing value"):
        crowdspec.DawidSkene().fit(nullable)


def test_true_labels_are_pinned():
    df, truth, _ = crowd_frame()
    gold = truth.iloc[:40]
    ds = crowdspec.DawidSkene(n_jobs=1).fit(df, true_labels=gold)
    assert (ds.labels_.loc[gold.index] == gold).all()
    assert (ds.probas_.loc[gold.index].max(axis=1) == 1.0).all()
    # a gold task nobody labelled becomes an item of its own
    extra = pd.concat([gold, pd.Series(["dog"], index=["task-new"])])
    ds2 = crowdspec.DawidSkene(n_jobs=1).fit(df, true_labels=extra)
    assert ds2.labels_.loc["task-new"] == "dog"
    assert len(ds2.labels_) == len(ds.labels_) + 1


def test_crowd_kit_aliases_and_library_parameters():
    df, _, _ = crowd_frame()
    ds = crowdspec.DawidSkene(n_iter=3, tol=0.0, n_jobs=1)
    # get_params gives the arguments as given (scikit-learn's rule); the library
    # receives its own names
    assert ds.get_params() == {"n_iter": 3, "tol": 0.0, "n_jobs": 1}
    assert ds._params == {"max_iter": 3, "tol": 0.0, "threads": 1}
    ds.fit(df)
    assert ds.n_iter_ == 3 and len(ds.loss_history_) == 3
    # n_jobs=-1 is every core (threads = 0)
    assert crowdspec.DawidSkene(n_jobs=-1)._params == {"threads": 0}
    # ours: prior, confusion, seed, and any library parameter by name
    one = crowdspec.DawidSkene(prior="uniform", confusion="one-coin", smoothing=0.5,
                               seed=4, n_jobs=1).fit(df)
    np.testing.assert_allclose(one.priors_.to_numpy(), 1.0 / 3)
    e = one.errors_.loc["w00"].to_numpy()
    off = e[~np.eye(3, dtype=bool)].reshape(3, 2)
    assert np.allclose(off, off[:, :1])  # one-coin: errors uniform per true class
    with pytest.raises(TypeError):
        crowdspec.DawidSkene(n_iter=3, max_iter=4)


@pytest.mark.parametrize("name,value", [("support", "all"), ("support", "answered"),
                                        ("accel", "none"), ("accel", "squarem"),
                                        ("groups", "balanced"), ("starts", 2),
                                        ("identify", "vote")])
def test_parameters_pass_through_by_name(name, value):
    """Parameters the library gains later work without a change here; until then the
    library's own CS_ERR_UNKNOWN_PARAM comes back."""
    df, _, _ = crowd_frame(n_items=60)
    if not crowdspec.has_param(name):
        with pytest.raises(crowdspec.CrowdspecError) as info:
            crowdspec.OptDawidSkene(**{name: value})
        assert info.value.status_name == "CS_ERR_UNKNOWN_PARAM"
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", crowdspec.CrowdspecWarning)
        agg = crowdspec.OptDawidSkene(n_jobs=1, **{name: value}).fit(df)
    assert len(agg.labels_) == 60


def test_every_crowd_method_has_a_class():
    missing = set(crowdspec.methods("crowd")) - set(crowdspec.METHOD_CLASSES)
    assert not missing, "crowd methods without a class: %s" % sorted(missing)


@pytest.mark.parametrize("method", sorted(crowdspec.METHOD_CLASSES))
def test_every_class_fits(method):
    df, truth, _ = crowd_frame(k=2, n_items=200)
    cls = crowdspec.METHOD_CLASSES[method]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", crowdspec.CrowdspecWarning)
        labels = cls(n_jobs=1, seed=1).fit_predict(df)
        generic = crowdspec.Aggregator(method, n_jobs=1, seed=1).fit_predict(df)
    pd.testing.assert_series_equal(labels, generic)
    assert (labels == truth.loc[labels.index]).mean() > 0.8
    assert cls.__name__ in crowdspec.__all__


def test_lloyd_like_kmeans():
    rng = np.random.default_rng(0)
    centres = np.array([[0.0, 0.0], [8.0, 0.0], [0.0, 8.0]])
    truth = rng.integers(0, 3, 600)
    X = centres[truth] + rng.normal(size=(600, 2))
    km = crowdspec.Lloyd(n_clusters=3, random_state=1, n_jobs=1).fit(X)
    assert km.labels_.shape == (600,) and km.cluster_centers_.shape == (3, 2)
    # the clusters are the true ones up to renaming
    mapping = {int(t): int(np.bincount(km.labels_[truth == t]).argmax()) for t in range(3)}
    assert len(set(mapping.values())) == 3
    assert np.mean([mapping[t] == l for t, l in zip(truth, km.labels_)]) > 0.99
    for t, c in mapping.items():
        np.testing.assert_allclose(km.cluster_centers_[c], X[km.labels_ == c].mean(axis=0))
    assert km.inertia_ == pytest.approx(
        ((X - km.cluster_centers_[km.labels_]) ** 2).sum(), rel=1e-9)
    np.testing.assert_array_equal(km.predict(X), km.labels_)
    np.testing.assert_array_equal(crowdspec.KMeansPP(3, random_state=1, n_init=3)
                                  .fit_predict(X) >= 0, True)


def sbm(n=300, k=2, p=0.1, q=0.01, seed=3):
    rng = np.random.default_rng(seed)
    z = rng.integers(0, k, n)
    i, j = np.triu_indices(n, 1)
    prob = np.where(z[i] == z[j], p, q)
    keep = rng.random(i.size) < prob
    return np.column_stack([i[keep], j[keep]]), z


def agreement(labels, z):
    labels = np.asarray(labels)
    return max(np.mean(labels == z), np.mean(labels == 1 - z))


def test_commu_lloyd_on_array_and_frame():
    edges, z = sbm()
    cl = crowdspec.CommuLloyd(2, n_jobs=1).fit(edges)
    assert cl.labels_.shape == (300,)
    assert agreement(cl.labels_, z) > 0.95
    assert cl.within_density_ > cl.between_density_
    names = np.array(["node%03d" % v for v in range(300)], dtype=object)
    frame = pd.DataFrame({"a": names[edges[:, 0]], "b": names[edges[:, 1]]})
    cf = crowdspec.CommuLloyd(n_communities=2, n_jobs=1).fit(frame)
    assert isinstance(cf.labels_, pd.Series) and cf.labels_.name == "community"
    by_node = cf.labels_.reindex(names).to_numpy()
    present = ~pd.isna(by_node)
    assert agreement(by_node[present].astype(int), z[present]) > 0.95
    for cls in (crowdspec.Spec, crowdspec.SpecMLE):
        assert agreement(cls(2, n_jobs=1).fit_predict(edges), z) > 0.9


def test_numpy_layer_methods_and_params_listing():
    names = crowdspec.methods()
    assert "opt-ds" in names and "lloyd" in crowdspec.methods("points")
    assert crowdspec.methods("graph") == [m for m in names if m in ("commu-lloyd", "spec",
                                                                     "spec-mle")]
    summaries = crowdspec.method_summaries()
    assert list(summaries) == names
    assert summaries["ds"] == "Dawid-Skene EM from the soft majority vote (MV-D&S)"
    assert list(crowdspec.method_summaries("points")) == crowdspec.methods("points")
    info = crowdspec.params()
    assert info["max_iter"]["integer"] and not info["tol"]["integer"]
    assert crowdspec.has_param("tol") and not crowdspec.has_param("no_such_param")


def test_pandas_int64_ids_in_numpy_layer():
    """A DataFrame's int64 columns go to fit_labels checked, not reinterpreted."""
    df = pd.DataFrame({"i": [0, 0, 1, 1, 2, 2], "w": [0, 1, 0, 1, 0, 1],
                       "l": [1, 1, 0, 0, 1, 0]})
    assert df["i"].dtype == np.int64
    r = crowdspec.fit_labels(df["i"], df["w"], df["l"], method="mv")
    np.testing.assert_array_equal(r.labels, [1, 0, 0])

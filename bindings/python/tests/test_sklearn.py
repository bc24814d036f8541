# SPDX-License-Identifier: MIT
"""scikit-learn's estimator API: clone, get_params(deep=True), set_params, GridSearchCV,
Pipeline, joblib; sklearn.utils.estimator_checks where its checks apply; warnings only
for notes a user must act on.

Which estimator checks apply: the crowd classes take a DataFrame of (task, worker,
label) rows, not a numeric X and y, so the checks that fit them on generated X, y
arrays (dtypes, NaN/inf, sparse input, pickling after a fit, sample order, ...) do not
apply; the checks of the parameter API do (API_CHECKS). Lloyd and KMeansPP are
clusterers of a numeric X and pass the checks in LLOYD_CHECKS; the others do not apply
or are refused on purpose: the input checks expect scikit-learn's own error wording
(check_complex_data, check_estimators_empty_data_messages, check_estimators_nan_inf,
check_estimator_sparse_data, check_fit2d_1sample, check_fit2d_1feature), and those that
fit n_clusters=1 (check_methods_subset_invariance, check_dict_unchanged,
check_dont_overwrite_parameters, check_fit2d_predict1d) meet the library's rule of at
least 2 clusters (CS_ERR_TOO_FEW_CLASSES)."""

import gc
import os
import pickle
import warnings

import numpy as np
import pandas as pd
import pytest

import crowdspec
from conftest import DATASETS, simulate

sklearn = pytest.importorskip("sklearn", reason="scikit-learn (python3-sklearn) is not installed")
from sklearn.base import clone  # noqa: E402
from sklearn.model_selection import GridSearchCV  # noqa: E402
from sklearn.pipeline import Pipeline  # noqa: E402
from sklearn.utils import estimator_checks  # noqa: E402

API_CHECKS = ("check_no_attributes_set_in_init", "check_estimator_get_tags_default_keys",
              "check_parameters_default_constructible", "check_get_params_invariance",
              "check_set_params")
LLOYD_CHECKS = API_CHECKS + (
    "check_estimators_dtypes", "check_fit_score_takes_y", "check_estimators_fit_returns_self",
    "check_dtype_object", "check_pipeline_consistency", "check_estimators_overwrite_params",
    "check_estimators_pickle", "check_methods_sample_order_invariance", "check_fit_idempotent",
    "check_fit_check_is_fitted", "check_fit1d", "check_n_features_in")

CROWD_CLASSES = sorted(crowdspec.METHOD_CLASSES.values(), key=lambda c: c.__name__)


def crowd_frame(seed=1, n_items=300):
    item, worker, label, truth = simulate(n_items=n_items, seed=seed)
    return pd.DataFrame({"task": ["t%04d" % j for j in item],
                         "worker": ["w%02d" % i for i in worker], "label": label})


def run_checks(estimator, names):
    ran = set()
    for est, check in estimator_checks.check_estimator(estimator, generate_only=True):
        name = getattr(check, "func", check).__name__
        if name in names:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", crowdspec.CrowdspecWarning)
                check(est)
            ran.add(name)
    assert ran == set(names), "checks not generated: %s" % sorted(set(names) - ran)


@pytest.mark.parametrize("cls", CROWD_CLASSES, ids=lambda c: c.__name__)
def test_estimator_checks_of_the_parameter_api(cls):
    run_checks(cls(), API_CHECKS)


@pytest.mark.parametrize("cls", [crowdspec.Lloyd, crowdspec.KMeansPP], ids=lambda c: c.__name__)
def test_estimator_checks_of_the_clusterers(cls):
    run_checks(cls(n_clusters=3), LLOYD_CHECKS)


def test_clone_keeps_every_argument_as_given():
    est = crowdspec.OptDawidSkene(n_iter=7, tol=0.0, prior="uniform", random_state=3)
    params = est.get_params(deep=True)
    assert params == {"n_iter": 7, "tol": 0.0, "prior": "uniform", "random_state": 3}
    twin = clone(est)
    assert type(twin) is crowdspec.OptDawidSkene and twin.get_params() == params
    any_method = crowdspec.Aggregator("ds", n_iter=3)
    assert clone(any_method).get_params() == {"method": "ds", "n_iter": 3, "tol": None}
    assert clone(crowdspec.CommuLloyd(n_communities=3)).get_params() == {"n_communities": 3}


def test_set_params_checks_values_and_keeps_the_old_ones_on_error():
    est = crowdspec.DawidSkene(n_iter=5)
    assert est.set_params(n_iter=9, smoothing=0.5) is est
    assert est.get_params() == {"n_iter": 9, "tol": None, "smoothing": 0.5}
    with pytest.raises(crowdspec.CrowdspecError):
        est.set_params(smoothing=-1.0)
    with pytest.raises(crowdspec.CrowdspecError):
        est.set_params(no_such_parameter=1)
    assert est.get_params() == {"n_iter": 9, "tol": None, "smoothing": 0.5}
    with pytest.raises(TypeError, match="fixed by the class"):
        est.set_params(method="mv")
    with pytest.raises(TypeError, match="not both"):
        crowdspec.DawidSkene(n_iter=3, max_iter=4)
    # the library receives library names
    df = crowd_frame()
    assert crowdspec.DawidSkene(n_iter=2, tol=0).fit(df).n_iter_ == 2


def test_grid_search_by_held_out_likelihood():
    # score() is the likelihood of held-out labels: without smoothing EM's zero
    # confusion entries give some held-out labels almost no probability, so a grid over
    # the smoothing pseudo-count picks the one that generalises (folds of shuffled rows,
    # so that held-out labels fall on tasks the fit saw).
    from sklearn.model_selection import KFold
    df = crowd_frame(n_items=400)
    search = GridSearchCV(crowdspec.DawidSkene(), {"smoothing": [0.0, 1.0]},
                          cv=KFold(3, shuffle=True, random_state=0))
    search.fit(df)
    assert search.best_params_ == {"smoothing": 1.0}
    scores = search.cv_results_["mean_test_score"]
    assert np.all(np.isfinite(scores)) and scores[1] > scores[0] + 1.0
    assert search.best_estimator_.get_params()["smoothing"] == 1.0
    assert search.best_estimator_.labels_.shape == (df["task"].nunique(),)


def test_score_is_the_mean_log_likelihood_of_the_labels():
    df = crowd_frame(n_items=50)
    ds = crowdspec.DawidSkene().fit(df)
    r = ds.result_
    tasks = ds.probas_.index.get_indexer(df["task"])
    workers = ds.errors_.index.levels[0].get_indexer(df["worker"])
    classes = ds.classes_.get_indexer(df["label"])
    p = [r.posteriors[t] @ r.confusion[w, :, c] for t, w, c in zip(tasks, workers, classes)]
    assert ds.score(df) == pytest.approx(np.mean(np.log(p)), rel=1e-12)


def test_pipeline_and_joblib_and_pickle():
    joblib = pytest.importorskip("joblib")
    df = crowd_frame()
    pipe = Pipeline([("aggregate", crowdspec.DawidSkene(n_iter=20))]).fit(df)
    reference = crowdspec.DawidSkene(n_iter=20).fit(df)
    pd.testing.assert_series_equal(pipe.named_steps["aggregate"].labels_, reference.labels_)
    grid = [crowdspec.DawidSkene(n_iter=n) for n in (5, 20)]
    fitted = joblib.Parallel(n_jobs=2)(joblib.delayed(clone(e).fit)(df) for e in grid)
    pd.testing.assert_series_equal(fitted[1].labels_, reference.labels_)
    again = pickle.loads(pickle.dumps(reference))
    pd.testing.assert_frame_equal(again.probas_, reference.probas_)


def test_result_frames_built_on_first_access():
    """errors_, skills_ and the diagnostics are built when first read (not by fit), from
    this fit: a frame read after one fit is replaced by the next fit's, and a pickle of
    a fit whose frames were never read holds them all."""
    df = crowd_frame()
    ds = crowdspec.DawidSkene(n_iter=20).fit(df)
    lazy = ("errors_", "skills_", "label_next_", "label_wrong_", "spammer_", "worst_class_",
            "accuracy_interval_")
    assert not set(lazy) & set(vars(ds))  # not built by fit
    # the builders keep no coded frame (three arrays of the data's length) alive
    from crowdspec._crowd_frame import _Encoded
    gc.collect()
    assert not [o for o in gc.get_objects() if isinstance(o, _Encoded)]
    r = ds.result_
    k = len(ds.classes_)
    np.testing.assert_array_equal(ds.errors_.to_numpy(), r.confusion.transpose(0, 2, 1).reshape(-1, k))
    np.testing.assert_array_equal(ds.skills_.to_numpy(),
                                  np.diagonal(r.confusion, axis1=1, axis2=2) @ r.prior)
    np.testing.assert_array_equal(ds.label_wrong_.to_numpy(), r.diagnostics.label_wrong)
    assert "errors_" in vars(ds)  # built once, then kept
    unread = pickle.loads(pickle.dumps(crowdspec.DawidSkene(n_iter=20).fit(df)))
    assert "_pending" not in vars(unread)
    for name in lazy:
        got, want = getattr(unread, name), getattr(ds, name)
        (pd.testing.assert_frame_equal if isinstance(want, pd.DataFrame)
         else pd.testing.assert_series_equal)(got, want)
    fewer = df[df["worker"] != df["worker"].iloc[0]]
    ds.fit(fewer)  # errors_ of the first fit was read: the second fit's replaces it
    assert len(ds.errors_) == k * fewer["worker"].nunique() < len(unread.errors_)
    with pytest.raises(AttributeError, match="no attribute 'nothing_'"):
        ds.nothing_


def test_model_specific_attributes():
    df = crowd_frame(n_items=120)
    glad = crowdspec.GLAD().fit(df)
    assert glad.alphas_.index.equals(glad.skills_.index) and glad.alphas_.name == "alpha"
    assert glad.betas_.index.equals(glad.labels_.index) and (glad.betas_ > 0).all()
    mace = crowdspec.MACE().fit(df)
    m, k = len(mace.skills_), len(mace.classes_)
    assert mace.spamming_.shape == (m, 2) and mace.thetas_.shape == (m, k)
    np.testing.assert_allclose(mace.spamming_.sum(axis=1), 1.0, rtol=1e-12)
    # errors_ is (1 - theta) xi + theta I: P(observed c | true l) for c != l is (1 - theta) xi_c
    errors = mace.errors_.to_numpy().reshape(m, k, k)  # worker, observed, true
    c, l = 0, 1
    np.testing.assert_allclose(errors[:, c, l], mace.spamming_[:, 0] * mace.thetas_[:, c],
                               rtol=1e-12)


def test_a_normal_outcome_does_not_warn():
    path = os.path.join(DATASETS, "web_crowd.txt")
    if not os.path.exists(path):
        pytest.skip("shared dataset web not found under %s" % DATASETS)
    data = np.loadtxt(path, dtype=np.int64)
    web = pd.DataFrame({"task": data[:, 0], "worker": data[:, 1], "label": data[:, 2]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fit = crowdspec.OptDawidSkene().fit(web)
    assert "majority_start" in fit.notes_  # the majority-vote start won: a note, no warning
    assert "majority_start" not in crowdspec.WARN_NOTES


def test_an_impossible_item_is_named_in_the_warning():
    # tests/test_edge_cases.c's crowd: the reference spectral start without the delta
    # floor leaves items with zero likelihood; the warning names the first by its task.
    item = [0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 8, 9, 10, 10,
            10, 10, 11, 11, 12, 12, 12, 13, 13, 13, 14, 14, 15, 15, 15, 15, 16, 16, 17, 17, 18, 18,
            18, 19, 19, 19, 19, 20, 21, 22, 22, 22, 23, 23, 24, 24, 24]
    worker = [0, 1, 2, 0, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 0, 2, 1, 3, 1, 3, 0, 1, 3, 3, 0, 1,
              2, 3, 1, 3, 0, 1, 3, 0, 1, 2, 0, 2, 0, 1, 2, 3, 2, 3, 0, 1, 0, 1, 3, 0, 1, 2, 3, 2, 2,
              0, 1, 3, 1, 2, 0, 2, 3]
    label = [2, 1, 2, 0, 0, 0, 0, 2, 2, 2, 2, 2, 1, 2, 0, 0, 2, 2, 2, 0, 0, 0, 0, 0, 2, 0, 0, 1, 1,
             1, 1, 1, 0, 0, 0, 0, 1, 1, 0, 2, 2, 0, 0, 0, 0, 2, 2, 2, 0, 1, 1, 1, 1, 2, 2, 2, 1, 0,
             1, 2, 2, 0, 0, 0, 0, 0]
    df = pd.DataFrame({"task": ["task-%02d" % j for j in item], "worker": worker, "label": label})
    est = crowdspec.OptDawidSkene(prior="estimated", starts=1, groups="reference",
                                  identify="reference", support="all", delta=0.0, n_iter=0)
    with pytest.warns(crowdspec.CrowdspecWarning, match=r"impossible_items.* is task 'task-\d\d'"):
        est.fit(df)

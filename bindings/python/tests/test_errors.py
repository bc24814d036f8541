# SPDX-License-Identifier: MIT
"""Every error path: library statuses as CrowdspecError (a ValueError) with the status
name and cs_last_error, MemoryError, conversion checks, notes as warnings, loading."""

import os
import subprocess
import sys
import warnings

import numpy as np
import pandas as pd
import pytest

import crowdspec
from crowdspec import CrowdspecError, CrowdspecWarning
from crowdspec import _lib

ITEM, WORKER, LABEL = [0, 0, 1, 1, 2, 2], [0, 1, 0, 1, 0, 1], [1, 1, 0, 0, 1, 0]


def raises(status_name, fn, *args, **kwargs):
    with pytest.raises(CrowdspecError) as info:
        fn(*args, **kwargs)
    err = info.value
    assert isinstance(err, ValueError)
    assert err.status_name == status_name, str(err)
    assert err.status < 0 and _lib.status_name(err.status) == status_name
    assert err.message and err.message in str(err) and status_name in str(err)
    return err


def test_unknown_parameter():
    err = raises("CS_ERR_UNKNOWN_PARAM", crowdspec.DawidSkene, no_such_option=1)
    assert "no_such_option" in err.message
    raises("CS_ERR_UNKNOWN_PARAM", crowdspec.fit_labels, ITEM, WORKER, LABEL, bogus=2)


def test_parameter_out_of_range_and_unparsable():
    raises("CS_ERR_PARAM_RANGE", crowdspec.DawidSkene, tol=2.0)
    raises("CS_ERR_PARAM_RANGE", crowdspec.DawidSkene, n_iter=-1)
    raises("CS_ERR_INVALID_ARGUMENT", crowdspec.DawidSkene, tol="abc")
    raises("CS_ERR_INVALID_ARGUMENT", crowdspec.DawidSkene, prior="sometimes")
    with pytest.raises(TypeError):
        crowdspec.DawidSkene(tol=[1])
    with pytest.raises(TypeError):
        crowdspec.DawidSkene(method="mv")


def test_unknown_method():
    raises("CS_ERR_UNKNOWN_METHOD", crowdspec.fit_labels, ITEM, WORKER, LABEL,
           method="no-such-method")
    raises("CS_ERR_UNKNOWN_METHOD", crowdspec.Aggregator, "no-such-method")


def test_wrong_input_kind():
    raises("CS_ERR_WRONG_INPUT_KIND", crowdspec.fit_labels, ITEM, WORKER, LABEL,
           method="lloyd")
    raises("CS_ERR_WRONG_INPUT_KIND", crowdspec.fit_points, np.eye(3), 2, method="ds")


def test_ids_that_do_not_fit_in_int32_are_rejected_not_wrapped():
    big = np.array(ITEM, dtype=np.int64)
    big[3] = 2 ** 32 + 1  # as int32 this would silently read as 1
    err = raises("CS_ERR_INVALID_ID", crowdspec.fit_labels, big, WORKER, LABEL)
    assert "index 3" in err.message and str(2 ** 32 + 1) in err.message
    err = raises("CS_ERR_INVALID_ID", crowdspec.fit_labels, ITEM,
                 pd.Series(WORKER, dtype=np.int64).replace(1, 2 ** 31), LABEL)
    assert "worker" in err.message
    raises("CS_ERR_INVALID_LABEL", crowdspec.fit_labels, ITEM, WORKER,
           np.array(LABEL, dtype=np.uint64) + np.uint64(2 ** 63))
    raises("CS_ERR_INVALID_ID", crowdspec.fit_labels, np.array(ITEM, dtype=object) * 0
           + 2 ** 70, WORKER, LABEL)
    raises("CS_ERR_INVALID_ID", crowdspec.fit_labels,
           np.array(ITEM, dtype=np.int64) - 2 ** 40, WORKER, LABEL)


def test_non_integer_ids():
    raises("CS_ERR_INVALID_ID", crowdspec.fit_labels, [0, 0.5, 1, 1, 2, 2], WORKER, LABEL)
    raises("CS_ERR_INVALID_LABEL", crowdspec.fit_labels, ITEM, WORKER,
           [1, 1, np.nan, 0, 1, 0])
    raises("CS_ERR_INVALID_ID", crowdspec.fit_labels, np.array(["a"] * 6, dtype=object),
           WORKER, LABEL)
    with pytest.raises(TypeError):
        crowdspec.fit_labels(np.array(["0"] * 6), WORKER, LABEL)
    with pytest.raises(ValueError):
        crowdspec.fit_labels(np.zeros((3, 2), np.int32), WORKER, LABEL)
    # whole floats are fine
    r = crowdspec.fit_labels(np.array(ITEM, float), WORKER, LABEL, method="mv")
    np.testing.assert_array_equal(r.labels, [1, 0, 0])


def test_negative_ids_and_labels_reach_the_library():
    err = raises("CS_ERR_INVALID_ID", crowdspec.fit_labels, [0, -1, 1, 1, 2, 2], WORKER, LABEL)
    assert "1" in err.message  # the library names the index
    raises("CS_ERR_INVALID_LABEL", crowdspec.fit_labels, ITEM, WORKER, [1, 1, 0, 0, 1, -3])
    raises("CS_ERR_INVALID_LABEL", crowdspec.fit_labels, ITEM, WORKER, [1, 1, 0, 0, 2, 0],
           n_classes=2)
    raises("CS_ERR_TOO_FEW_CLASSES", crowdspec.fit_labels, ITEM, WORKER, LABEL, n_classes=1)
    raises("CS_ERR_INVALID_ID", crowdspec.fit_labels, ITEM, WORKER, LABEL, n_items=2)


def test_lengths_empty_and_too_few_classes():
    with pytest.raises(ValueError, match="same length"):
        crowdspec.fit_labels(ITEM, WORKER[:5], LABEL)
    raises("CS_ERR_EMPTY_INPUT", crowdspec.fit_labels, [], [], [])
    raises("CS_ERR_TOO_FEW_CLASSES", crowdspec.fit_labels, ITEM, WORKER, [0] * 6)
    one_class = pd.DataFrame({"task": ["a", "b"], "worker": ["x", "x"], "label": ["y", "y"]})
    raises("CS_ERR_TOO_FEW_CLASSES", crowdspec.MajorityVote().fit, one_class)


def test_duplicates():
    dup = pd.DataFrame({"task": ["a", "a", "b", "b"], "worker": ["x", "x", "x", "y"],
                        "label": [1, 2, 1, 2]})
    raises("CS_ERR_DUPLICATE", crowdspec.DawidSkene().fit, dup)
    ok = crowdspec.MajorityVote(duplicates="first").fit(dup)
    assert ok.labels_["a"] == 1
    raises("CS_ERR_DUPLICATE", crowdspec.fit_labels, ITEM, WORKER, LABEL,
           gold_item=[0, 0], gold_label=[0, 1])


def test_gold_errors():
    raises("CS_ERR_INVALID_LABEL", crowdspec.fit_labels, ITEM, WORKER, LABEL,
           gold_item=[0], gold_label=[5], n_classes=2)
    raises("CS_ERR_INVALID_ID", crowdspec.fit_labels, ITEM, WORKER, LABEL,
           gold_item=[-1], gold_label=[0])
    with pytest.raises(ValueError, match="same length"):
        crowdspec.fit_labels(ITEM, WORKER, LABEL, gold_item=[0, 1], gold_label=[0])
    df = pd.DataFrame({"task": ITEM, "worker": WORKER, "label": LABEL})
    with pytest.raises(ValueError, match="missing"):
        crowdspec.DawidSkene().fit(df, true_labels=pd.Series([np.nan], index=[0]))


OOM_SCRIPT = """
import resource, crowdspec
crowdspec.version()  # load the library first
with open("/proc/self/statm") as f:
    vm = int(f.read().split()[0]) * resource.getpagesize()
# a ceiling on the address space: the fit's allocations fail at once, touching nothing
resource.setrlimit(resource.RLIMIT_AS, (vm + (256 << 20), resource.RLIM_INFINITY))
try:
    crowdspec.fit_labels([0, 1], [0, 1], [0, 1], method="ds", n_items=100_000_000,
                         threads=1)
except MemoryError as e:
    print("MemoryError:", e)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs /proc and RLIMIT_AS")
def test_out_of_memory_is_memory_error():
    done = run_python(OOM_SCRIPT)
    assert done.returncode == 0, done.stderr
    assert "MemoryError: CS_ERR_OUT_OF_MEMORY" in done.stdout
    assert isinstance(_lib.error(_lib.CS_ERR_OUT_OF_MEMORY, "x"), MemoryError)
    assert isinstance(_lib.error(_lib.CS_ERR_INVALID_ID, "x"), CrowdspecError)


def test_busy_status_is_named():
    # CS_ERR_BUSY: a second call on a handle while one runs (another thread).
    assert _lib.status_name(_lib.CS_ERR_BUSY) == "CS_ERR_BUSY"
    err = _lib.error(_lib.CS_ERR_BUSY, "x")
    assert isinstance(err, CrowdspecError) and err.status == -21


def test_dataframe_errors():
    with pytest.raises(TypeError):
        crowdspec.DawidSkene().fit({"task": [1]})
    with pytest.raises(ValueError, match="'worker'"):
        crowdspec.DawidSkene().fit(pd.DataFrame({"task": [1], "label": [1]}))
    df = pd.DataFrame({"task": ["a", "b"], "worker": ["x", None], "label": [1, 2]})
    with pytest.raises(ValueError, match="missing"):
        crowdspec.DawidSkene().fit(df)
    df = pd.DataFrame({"task": ["a", "b"], "worker": ["x", "y"], "label": [1, np.nan]})
    with pytest.raises(ValueError, match="missing"):
        crowdspec.DawidSkene().fit(df)


def test_points_and_graph_errors():
    X = np.random.default_rng(0).normal(size=(10, 2))
    bad = X.copy()
    bad[4, 1] = np.nan
    raises("CS_ERR_NON_FINITE", crowdspec.Lloyd(2).fit, bad)
    raises("CS_ERR_TOO_MANY_CLASSES", crowdspec.Lloyd(11).fit, X)
    raises("CS_ERR_TOO_FEW_CLASSES", crowdspec.fit_points, X, 0)
    with pytest.raises(ValueError):
        crowdspec.Lloyd(2).fit(X[:, 0])
    edges = np.array([[0, 1], [1, 2], [2, 3], [3, 0]])
    raises("CS_ERR_INVALID_ID", crowdspec.fit_graph, [0, -1], [1, 2], 2, n_nodes=4)
    raises("CS_ERR_TOO_MANY_CLASSES", crowdspec.CommuLloyd(5).fit, edges)
    raises("CS_ERR_EMPTY_INPUT", crowdspec.CommuLloyd(2).fit, np.array([[1, 1]]))
    with pytest.raises(ValueError):
        crowdspec.CommuLloyd(2).fit(np.array([0, 1, 2]))
    with pytest.raises(ValueError):
        crowdspec.CommuLloyd(2).fit(pd.DataFrame({"a": [1], "b": [2], "c": [3]}))


def test_notes_become_warnings():
    from conftest import simulate
    item, worker, label, _ = simulate(n_items=100, n_workers=10, k=2, seed=4)
    with pytest.warns(CrowdspecWarning, match="max_iter_reached") as record:
        r = crowdspec.fit_labels(item, worker, label, method="ds", max_iter=2, tol=1e-15)
    assert "max_iter_reached" in r.note_names and r.notes & 1 and r.message
    assert record[0].filename == __file__  # attributed to the caller
    # Items without labels get the prior, a documented outcome: a note, no warning.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = crowdspec.fit_labels(ITEM, WORKER, LABEL, method="mv", n_items=4)
    assert r.note_names == ["unlabeled_items"] and "unlabeled_items" not in crowdspec.WARN_NOTES
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        crowdspec.fit_labels(item, worker, label, method="ds", max_iter=2, tol=1e-15,
                             warn=False)


def run_python(code, **env):
    full = dict(os.environ, **env)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=full)


def test_library_not_found_is_a_clear_oserror(tmp_path):
    missing = str(tmp_path / "libcrowdspec.so.0")
    done = run_python("import crowdspec\n"
                      "try:\n crowdspec.fit_labels([0],[0],[0])\n"
                      "except OSError as e:\n print('OSError', e)\n",
                      CROWDSPEC_LIBRARY=missing)
    assert done.returncode == 0, done.stderr
    assert "OSError" in done.stdout and missing in done.stdout
    assert "CROWDSPEC_LIBRARY" in done.stdout


def test_library_found_next_to_the_package(tmp_path):
    """Without CROWDSPEC_LIBRARY, a copy of the library in the package folder is used."""
    import shutil
    pkg = tmp_path / "crowdspec"
    src = os.path.dirname(crowdspec.__file__)
    shutil.copytree(src, pkg, ignore=shutil.ignore_patterns("__pycache__", "libcrowdspec*"))
    lib = os.path.realpath(crowdspec.library_path())
    shutil.copy(lib, pkg / "libcrowdspec.so.0")
    env = {k: v for k, v in os.environ.items() if k != "CROWDSPEC_LIBRARY"}
    env["PYTHONPATH"] = str(tmp_path)
    done = subprocess.run([sys.executable, "-c",
                           "import crowdspec; print(crowdspec.library_path()); "
                           "print(crowdspec.fit_labels([0,1],[0,0],[0,1]).labels)"],
                          capture_output=True, text=True, env=env, cwd=str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == str(pkg / "libcrowdspec.so.0")

# SPDX-License-Identifier: MIT
"""The bindings give the C API's results: a small C program (compiled here when a
compiler exists) fits the same triples through the C API, and every result agrees."""

import os
import shutil
import subprocess

import numpy as np
import pytest

import crowdspec
from conftest import HERE, INCLUDE, dataset, simulate

TOL = 1e-12


@pytest.fixture(scope="session")
def reference_program(tmp_path_factory):
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if not cc:
        pytest.skip("no C compiler to build the C-API reference program")
    path = crowdspec.library_path()
    if not os.path.isfile(path):
        pytest.skip("library loaded by name (%s), not from a file to link against" % path)
    exe = str(tmp_path_factory.mktemp("cref") / "cs_reference")
    cmd = [cc, "-std=c99", "-O1", "-I", INCLUDE, os.path.join(HERE, "cs_reference.c"),
           os.path.realpath(path), "-Wl,-rpath," + os.path.dirname(os.path.realpath(path)),
           "-o", exe]
    done = subprocess.run(cmd, capture_output=True, text=True)
    assert done.returncode == 0, "compiling the reference program failed:\n" + done.stderr
    return exe


def run_c(exe, tmp_path, item, worker, label, method, params):
    triples = tmp_path / ("triples_%s.txt" % method)
    np.savetxt(triples, np.column_stack([item, worker, label]), fmt="%d")
    out = tmp_path / ("out_%s.txt" % method)
    args = [exe, str(triples), str(out), method]
    for name, value in params.items():
        args += [name, str(value)]
    done = subprocess.run(args, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    with open(out) as f:
        head = f.readline().split()
        values = np.array([float(x) for x in f.read().split()])
    ni, nw, k, nt, iters, conv = (int(x) for x in head[:6])
    ll = float(head[6])
    parts, pos = {}, 0
    for name, size in (("labels", ni), ("posteriors", ni * k), ("confusion", nw * k * k),
                       ("prior", k), ("trace", nt)):
        parts[name] = values[pos:pos + size]
        pos += size
    assert pos == values.size
    parts.update(iterations=iters, converged=bool(conv), log_likelihood=ll,
                 shape=(ni, nw, k))
    return parts


def compare(c, r):
    ni, nw, k = c["shape"]
    np.testing.assert_array_equal(r.labels, c["labels"].astype(np.int32))
    np.testing.assert_allclose(r.posteriors, c["posteriors"].reshape(ni, k), rtol=0, atol=TOL)
    np.testing.assert_allclose(r.confusion, c["confusion"].reshape(nw, k, k), rtol=0, atol=TOL)
    np.testing.assert_allclose(r.prior, c["prior"], rtol=0, atol=TOL)
    np.testing.assert_allclose(r.trace, c["trace"], rtol=TOL, atol=TOL)
    assert r.iterations == c["iterations"]
    assert r.converged == c["converged"]
    assert r.log_likelihood == pytest.approx(c["log_likelihood"], rel=TOL, abs=TOL)


PARAMS = {"seed": 3, "threads": 1, "max_iter": 200}


@pytest.mark.parametrize("method", crowdspec.methods("crowd"))
def test_simulated_vector_matches_c_api(reference_program, tmp_path, method):
    item, worker, label, _ = simulate(n_items=200, n_workers=15, k=3, seed=11)
    c = run_c(reference_program, tmp_path, item, worker, label, method, PARAMS)
    r = crowdspec.fit_labels(item, worker, label, method=method, warn=False, **PARAMS)
    compare(c, r)


@pytest.mark.parametrize("method", ["mv", "ds", "opt-ds"])
def test_bluebird_matches_c_api(reference_program, tmp_path, method):
    item, worker, label, _ = dataset("bluebird")
    item, worker, label = item - 1, worker - 1, label - 1
    c = run_c(reference_program, tmp_path, item, worker, label, method, {"threads": 1})
    # int64 columns from the file: converted (checked) to int32 by the bindings
    r = crowdspec.fit_labels(item, worker, label, method=method, warn=False, threads=1)
    compare(c, r)

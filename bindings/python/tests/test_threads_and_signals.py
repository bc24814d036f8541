# SPDX-License-Identifier: MIT
"""The GIL is released during a fit; Ctrl-C cancels a long fit; exceptions raised in
the progress callback come back out of the fit instead of vanishing in C."""

import os
import signal
import threading
import warnings
import time

import numpy as np
import pytest

import crowdspec
from conftest import big_crowd

LONG = {"tol": 0, "threads": 1, "prior": "uniform"}


@pytest.fixture(scope="module")
def big():
    return big_crowd()


def test_other_threads_run_during_a_fit(big):
    """While a worker thread is inside cs_fit (about a second, no Python callback
    installed there), the main thread keeps executing Python code."""
    item, worker, label = big
    box = {}

    def work():
        box["start"] = time.perf_counter()
        box["result"] = crowdspec.fit_labels(item, worker, label, method="ds",
                                             max_iter=700, warn=False, **LONG)
        box["end"] = time.perf_counter()

    thread = threading.Thread(target=work)
    ticks = []
    thread.start()
    while thread.is_alive():
        ticks.append(time.perf_counter())
        time.sleep(0.002)
    thread.join()
    assert box["result"].iterations == 700
    start, end = box["start"], box["end"]
    duration = end - start
    during = [t for t in ticks if start <= t <= end]
    assert duration > 0.2, "fit too short to tell (%.3f s)" % duration
    # With the GIL held through cs_fit the main thread would stall for the whole fit.
    gaps = np.diff([start] + during + [end])
    assert len(during) >= 20, "main thread ran %d times in a %.2f s fit" % (len(during),
                                                                             duration)
    assert gaps.max() < 0.5 * duration, "main thread stalled %.3f s of %.3f s" % (
        gaps.max(), duration)


def test_two_fits_run_concurrently_and_agree(big):
    item, worker, label = big
    out = [None, None]

    def work(slot):
        out[slot] = crowdspec.fit_labels(item, worker, label, method="ds", max_iter=50,
                                         warn=False, **LONG)

    threads = [threading.Thread(target=work, args=(s,)) for s in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    np.testing.assert_array_equal(out[0].posteriors, out[1].posteriors)


def test_ctrl_c_cancels_a_long_fit(big):
    item, worker, label = big
    # About 25 s if nothing cancels it; SIGINT arrives after 0.3 s.
    timer = threading.Timer(0.3, os.kill, args=(os.getpid(), signal.SIGINT))
    before = signal.getsignal(signal.SIGINT)
    start = time.perf_counter()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            crowdspec.fit_labels(item, worker, label, method="ds", max_iter=20000,
                                 warn=False, **LONG)
    finally:
        timer.cancel()
    assert time.perf_counter() - start < 5.0
    assert signal.getsignal(signal.SIGINT) is before  # the temporary handler is gone


def test_progress_callback_exception_propagates(big):
    item, worker, label = big[0][:4000], big[1][:4000], big[2][:4000]
    calls = []

    def progress(iteration, objective):
        calls.append(iteration)
        if iteration == 3:
            raise RuntimeError("stop at 3")
        return False

    with pytest.raises(RuntimeError, match="stop at 3"):
        crowdspec.fit_labels(item, worker, label, method="ds", max_iter=100,
                             progress=progress, **LONG)
    assert calls == [0, 1, 2, 3]


def test_progress_callback_can_stop_and_keep_results(big):
    item, worker, label = big[0][:4000], big[1][:4000], big[2][:4000]
    seen = []

    def progress(iteration, objective):
        seen.append((iteration, objective))
        return iteration >= 5

    # A cancel the caller asked for is a note, not a warning.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = crowdspec.fit_labels(item, worker, label, method="ds", max_iter=100,
                                 progress=progress, **LONG)
    assert r.iterations == 5 and not r.converged and "cancelled" in r.note_names
    assert [s[0] for s in seen] == list(range(6))
    np.testing.assert_allclose([s[1] for s in seen[1:]], r.trace, rtol=1e-15)


def test_progress_callback_runs_in_worker_threads(big):
    item, worker, label = big[0][:4000], big[1][:4000], big[2][:4000]
    seen = []

    def work():
        crowdspec.fit_labels(item, worker, label, method="ds", max_iter=4,
                             progress=lambda i, o: seen.append(i), **LONG)

    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert seen == [0, 1, 2, 3, 4]

# SPDX-License-Identifier: MIT
"""crowdspec.Model: pickling through cs_save / cs_load, updates and refits (issue 38)."""

import pickle

import numpy as np
import pytest

import crowdspec
from conftest import simulate

pytestmark = pytest.mark.skipif(not crowdspec._lib.has_function("cs_save"),
                                reason="the loaded library has no saved models (0.2)")


def test_pickle_round_trip_and_bytes():
    item, worker, label, truth = simulate(n_items=400, n_workers=25, k=3, seed=5)
    model = crowdspec.Model().fit(item, worker, label, method="auto")
    again = pickle.loads(pickle.dumps(model))
    assert np.array_equal(again.labels, model.labels)
    assert np.array_equal(again.posteriors, model.posteriors)
    assert np.array_equal(again.confusion, model.confusion)
    assert again.to_bytes() == model.to_bytes()
    raw = bytearray(model.to_bytes())
    raw[len(raw) // 2] ^= 1
    with pytest.raises(crowdspec.CrowdspecError) as err:
        crowdspec.Model.from_bytes(bytes(raw))
    assert err.value.status_name == "CS_ERR_CORRUPT_MODEL"
    raw = bytearray(model.to_bytes())
    raw[8] = 9
    with pytest.raises(crowdspec.CrowdspecError) as err:
        crowdspec.Model.from_bytes(bytes(raw))
    assert err.value.status_name == "CS_ERR_MODEL_VERSION"


def test_update_then_refit(tmp_path):
    item, worker, label, truth = simulate(n_items=600, n_workers=30, k=2, seed=6)
    first = item < 500
    model = crowdspec.Model().fit(item[first], worker[first], label[first], method="auto")
    path = tmp_path / "model.csm"
    model.save(path)
    full = crowdspec.fit_labels(item, worker, label, method="auto", warn=False)
    # A sixth of the labels as new items: with the rotation's 4 labels per new one the
    # update would work on more than half the labels, so by default it refits in full.
    refitted = crowdspec.Model.load(path)
    refitted.update(item[~first], worker[~first], label[~first])
    assert not refitted.notes & 16777216  # CS_NOTE_INCREMENTAL
    assert np.array_equal(refitted.posteriors, full.posteriors)
    loaded = crowdspec.Model.load(path)
    loaded.update(item[~first], worker[~first], label[~first], update_refit_work=0)
    assert loaded.labels.shape == (600,)
    assert loaded.notes & 16777216  # CS_NOTE_INCREMENTAL
    assert (loaded.labels == full.labels).mean() > 0.98
    loaded.refit()
    assert np.array_equal(loaded.labels, full.labels)
    assert np.array_equal(loaded.posteriors, full.posteriors)

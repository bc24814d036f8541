# SPDX-License-Identifier: MIT
"""A crowd fit that lives on: saved, loaded, pickled and updated with new labels.

``Model`` keeps one libcrowdspec handle. ``fit`` runs a method of the Dawid-Skene
family on (item, worker, label) triples of 0-based integers; ``update`` adds labels and
refits incrementally (cs_update), ``refit`` refits in full (cs_refit); ``save``/``load``
and ``to_bytes``/``from_bytes`` are cs_save/cs_load, and pickling goes through them,
so a pickled model is the library's saved model (docs/saved-models.md).
"""

import ctypes

import numpy as np

from . import _lib
from ._fit import _i32p, _f64p, _prepare, _run, _triples
from ._lib import Handle, check, function, lib

__all__ = ["Model"]


class Model:
    """A fitted, loadable and updatable crowd model (ds, opt-ds, one-coin-ds,
    class-one-coin-ds or auto)."""

    def __init__(self):
        self._handle = Handle()

    @property
    def _m(self):
        return self._handle.model

    # -- fitting

    def fit(self, item, worker, label, method="auto", *, progress=None, **params):
        """cs_fit of the triples with ``method`` and library parameters by name."""
        item, worker, label = _triples(item, worker, label)
        _prepare(self._m, method, params)
        check(_run(self._m, lambda: lib().cs_fit(self._m, _i32p(item), _i32p(worker), _i32p(label),
                                                  item.shape[0]), progress), self._m)
        return self

    def update(self, item, worker, label, **params):
        """cs_update: add labels (new or known items and workers) and refit
        incrementally; update settings (update_rounds, update_sweep, duplicates, ...)
        may be given by name."""
        item, worker, label = _triples(item, worker, label)
        for name, value in params.items():
            check(lib().cs_set_param_string(self._m, name.encode(), str(value).encode()), self._m)
        check(function("cs_update")(self._m, _i32p(item), _i32p(worker), _i32p(label), item.shape[0]),
              self._m)
        return self

    def refit(self):
        """cs_refit: the full fit of every label the model holds."""
        check(function("cs_refit")(self._m), self._m)
        return self

    # -- results

    def _size(self, fn):
        n = ctypes.c_size_t()
        check(fn(self._m, ctypes.byref(n)), self._m)
        return n.value

    @property
    def labels(self):
        n = self._size(lib().cs_n_items)
        out = np.empty(n, dtype=np.int32)
        check(lib().cs_labels(self._m, _i32p(out), n), self._m)
        return out

    @property
    def posteriors(self):
        n, k = self._size(lib().cs_n_items), self._size(lib().cs_n_classes)
        out = np.empty((n, k), dtype=np.float64)
        check(lib().cs_posteriors(self._m, _f64p(out), out.size), self._m)
        return out

    @property
    def confusion(self):
        m, k = self._size(lib().cs_n_workers), self._size(lib().cs_n_classes)
        out = np.empty((m, k, k), dtype=np.float64)
        check(lib().cs_confusion(self._m, _f64p(out), out.size), self._m)
        return out

    @property
    def prior(self):
        k = self._size(lib().cs_n_classes)
        out = np.empty(k, dtype=np.float64)
        check(lib().cs_class_prior(self._m, _f64p(out), k), self._m)
        return out

    @property
    def notes(self):
        n = ctypes.c_int32()
        check(lib().cs_fit_notes(self._m, ctypes.byref(n)), self._m)
        return n.value

    # -- saving

    def to_bytes(self):
        """The saved model (cs_save_buffer) as bytes."""
        n = ctypes.c_size_t()
        save = function("cs_save_buffer")
        check(save(self._m, None, 0, ctypes.byref(n)), self._m)
        buffer = ctypes.create_string_buffer(n.value)
        check(save(self._m, buffer, n.value, ctypes.byref(n)), self._m)
        return buffer.raw[:n.value]

    @classmethod
    def from_bytes(cls, data):
        """A model from saved bytes (cs_load_buffer); CrowdspecError with
        CS_ERR_CORRUPT_MODEL or CS_ERR_MODEL_VERSION when they cannot be read."""
        model = cls()
        data = bytes(data)
        check(function("cs_load_buffer")(model._m, data, len(data)), model._m)
        return model

    def save(self, path):
        """cs_save: write the model to ``path`` (replaced atomically)."""
        check(function("cs_save")(self._m, str(path).encode()), self._m)

    @classmethod
    def load(cls, path):
        """cs_load: a model from a file."""
        model = cls()
        check(function("cs_load")(model._m, str(path).encode()), model._m)
        return model

    def __getstate__(self):
        return {"crowdspec_model": self.to_bytes()}

    def __setstate__(self, state):
        self._handle = Handle()
        data = state["crowdspec_model"]
        check(function("cs_load_buffer")(self._m, data, len(data)), self._m)

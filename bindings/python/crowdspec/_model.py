# SPDX-License-Identifier: MIT
"""A crowd fit that lives on: saved, loaded, pickled and updated with new labels.

``Model`` keeps one libcrowdspec handle. ``fit`` runs a method of the Dawid-Skene
family on (item, worker, label) triples of 0-based integers; ``update`` adds labels and
refits incrementally (cs_update), ``refit`` refits in full (cs_refit); ``save``/``load``
and ``to_bytes``/``from_bytes`` are cs_save/cs_load, and pickling goes through them,
so a pickled model is the library's saved model (docs/saved-models.md). A classifier's
probabilities (``model_probs=``) enter ``fit``, ``update`` (cs_set_model_probs before
cs_update) and ``predict`` (cs_predict_model_probs); docs/model-assist.md.
"""

import ctypes

import numpy as np

from . import _lib
from ._fit import _collect, _i32p, _f64p, _prepare, _run, _triples
from ._lib import Handle, check, function, lib
from ._model_assist import set_model_probs

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

    def fit(self, item, worker, label, method="auto", *, model_probs=None, model_items=None, progress=None,
            **params):
        """cs_fit of the triples with ``method`` and library parameters by name.
        model_probs, model_items: a classifier's (n_rows, k) class probabilities, row r
        for item model_items[r] (default: row j for item j); the saved model keeps them."""
        item, worker, label = _triples(item, worker, label)
        _prepare(self._m, method, params)
        set_model_probs(self._m, np.zeros((0, 0)) if model_probs is None else model_probs,
                        None if model_probs is None else model_items)
        check(_run(self._m, lambda: lib().cs_fit(self._m, _i32p(item), _i32p(worker), _i32p(label),
                                                  item.shape[0]), progress), self._m)
        return self

    def update(self, item, worker, label, *, model_probs=None, model_items=None, **params):
        """cs_update: add labels (new or known items and workers) and refit
        incrementally -- or in full, when the update would work on half the labels or
        more (update_refit_work) or the labels doubled since the last full fit
        (update_refit); notes then lacks CS_NOTE_INCREMENTAL. Update settings
        (update_rounds, update_sweep, update_refit_work, duplicates, ...) may be given
        by name. model_probs, model_items: the classifier's rows for items
        of the model or of this batch (the model's item ids): an item whose row is new
        or differs from the model's is refitted with it (the library checks the rows;
        a row of an item beyond the model and the batch is CS_ERR_INVALID_ID). Rows
        given once stay on the handle, and rows equal to the model's change nothing."""
        item, worker, label = _triples(item, worker, label)
        for name, value in params.items():
            check(lib().cs_set_param_string(self._m, name.encode(), str(value).encode()), self._m)
        if model_probs is not None:
            set_model_probs(self._m, model_probs, model_items)
        check(function("cs_update")(self._m, _i32p(item), _i32p(worker), _i32p(label), item.shape[0]),
              self._m)
        return self

    def predict(self, item, worker, label, *, model_probs=None, model_items=None):
        """Label a new batch with the model's workers without refitting (cs_predict,
        or cs_predict_model_probs with a classifier's rows for the batch's items, in the
        batch's item ids, weighed by the classifier's matrix the model estimated).
        Items are numbered for the batch (0 .. its largest id); the model is left as it
        is (the prediction runs on a copy). Returns a Result."""
        item, worker, label = _triples(item, worker, label)
        copy = Model.from_bytes(self.to_bytes())
        m = copy._m
        if model_probs is None:
            check(lib().cs_predict(m, _i32p(item), _i32p(worker), _i32p(label), item.shape[0]), m)
        else:
            probs = np.ascontiguousarray(model_probs, dtype=np.float64)
            if probs.ndim != 2:
                raise ValueError("model_probs must be a 2-D array (items x classes), got %d dimensions"
                                 % probs.ndim)
            rows = None
            if model_items is not None:
                rows = np.ascontiguousarray(model_items, dtype=np.int32)
                if rows.shape != (probs.shape[0],):
                    raise ValueError("model_items must have one id per row of model_probs (%d), got shape %r"
                                     % (probs.shape[0], rows.shape))
            check(function("cs_predict_model_probs")(m, _i32p(item), _i32p(worker), _i32p(label), item.shape[0],
                                                     None if rows is None else _i32p(rows), _f64p(probs),
                                                     probs.shape[0]), m)
        return _collect(m, "predict", _lib.INPUT_CROWD)

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
    def model_confusion(self):
        """The classifier's (k, k) confusion matrix (true x its answer), or None when
        the model has no classifier."""
        k = self._size(lib().cs_n_classes)
        out = np.empty((k, k), dtype=np.float64)
        status = function("cs_model_confusion")(self._m, _f64p(out), out.size)
        if status == _lib.CS_ERR_NOT_FITTED:
            return None
        check(status, self._m)
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

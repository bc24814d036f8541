# SPDX-License-Identifier: MIT
"""predict_labels: a new batch labelled by workers with known matrices (cs_predict),
without refitting (moved out of _fit.py, which holds the fits themselves)."""

from . import _lib
from ._fit import _collect, _i32p, _set_initial, _triples, set_params, warn_notes
from ._lib import Handle, check, lib

__all__ = ["predict_labels"]


def predict_labels(item, worker, label, confusion, prior, *, temperature=None, mixing=None,
                   warn=True, **params):
    """Label a new batch of items by workers with known matrices, without refitting
    (cs_predict: one E-step).

    Args:
        item, worker, label: the batch's triples (0-based integers; items numbered for
            the batch, workers as in `confusion`).
        confusion: (m, k, k) worker x true x observed matrices (e.g. a fit's
            Result.confusion); workers with ids >= m are unknown and weighed by the mean
            matrix (note "unknown_workers").
        prior: (k,) class prior (e.g. Result.prior).
        temperature, mixing: the calibration applied to the posteriors
            (cs_set_initial_calibration; e.g. Result.temperature and Result.mixing of
            the fit, so that the fit's own items get the fit's posteriors). None: 1 and
            0, the model's posterior as it is.
        **params: library parameters (support=..., threads=...).

    Returns: a Result (iterations 0, trace = [batch log-likelihood]).
    """
    item, worker, label = _triples(item, worker, label)
    with Handle() as model:
        set_params(model, params)
        _set_initial(model, confusion, prior)
        if temperature is not None or mixing is not None:
            check(_lib.function("cs_set_initial_calibration")(
                model, 1.0 if temperature is None else float(temperature),
                0.0 if mixing is None else float(mixing)), model)
        check(lib().cs_predict(model, _i32p(item), _i32p(worker), _i32p(label),
                               item.shape[0]), model)
        result = _collect(model, "predict", _lib.INPUT_CROWD)
    if warn:
        warn_notes(result)
    return result

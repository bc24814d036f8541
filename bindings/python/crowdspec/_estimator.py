# SPDX-License-Identifier: MIT
"""What every estimator class shares (the crowd classes of _aggregators, the points and
graph classes of _points_graphs): crowd-kit and scikit-learn keyword arguments mapped
onto library parameter names and checked at construction, get_params, repr, and the
attributes every fit sets from its Result.
"""

import numbers

from ._fit import validate_params


def _library_params(kwargs):
    """Map the crowd-kit and scikit-learn aliases onto library parameter names."""
    params = dict(kwargs)
    if "method" in params:
        raise TypeError("the method is fixed by the class; use crowdspec.Aggregator(method=...)"
                        " or crowdspec.fit_labels for another one")
    for alias, name in (("n_iter", "max_iter"), ("n_jobs", "threads"),
                        ("random_state", "seed")):
        if alias not in params:
            continue
        value = params.pop(alias)
        if value is None:
            continue
        if params.get(name) is not None:
            raise TypeError("give %s or %s, not both" % (alias, name))
        if alias == "n_jobs" and isinstance(value, numbers.Integral) and value < 0:
            value = 0  # scikit-learn's -1: the library's automatic count (threads = 0)
        params[name] = value
    return {name: value for name, value in params.items() if value is not None}


class _Params:
    _method = None

    def _init_params(self, kwargs):
        self._params = _library_params(kwargs)
        validate_params(self._params)  # an unknown name or bad value fails here

    def get_params(self):
        """The library parameters this object passes (by library name)."""
        return dict(self._params)

    def __repr__(self):
        args = ", ".join("%s=%r" % kv for kv in sorted(self._params.items()))
        return "%s(%s)" % (type(self).__name__, args)

    def _keep_result(self, result):
        """Set the attributes every fit has: result_, loss_history_ (the objective
        trace, a list), n_iter_, converged_ and notes_ (note names)."""
        self.result_ = result
        self.loss_history_ = result.trace.tolist()
        self.n_iter_ = result.iterations
        self.converged_ = result.converged
        self.notes_ = result.note_names

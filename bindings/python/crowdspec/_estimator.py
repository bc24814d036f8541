# SPDX-License-Identifier: MIT
"""What every estimator class shares (the crowd classes of _aggregators, the points and
graph classes of _points_graphs): scikit-learn's estimator API and the attributes every
fit sets from its Result.

The scikit-learn conventions (so that ``sklearn.base.clone``, ``GridSearchCV``,
``Pipeline`` and joblib work; scikit-learn itself is not needed):

- ``__init__`` stores every argument it is given, unchanged, as an attribute of the
  same name (the library parameters given as keywords too), and sets nothing else;
- ``get_params(deep=True)`` returns them (the public attributes that do not end in
  ``_``), ``set_params(**params)`` sets them, and both accept any library parameter
  name besides the class's own arguments;
- the values are checked when they are given (a scratch handle takes them; an unknown
  name or a bad value raises CrowdspecError at once), and mapped onto library names
  when a fit runs (crowd-kit's ``n_iter`` is ``max_iter``, scikit-learn's ``n_jobs``
  ``threads`` and ``random_state`` ``seed``).

A new method class follows by subclassing with a fixed ``_method`` (see
_aggregators._crowd_class): nothing here knows the methods.
"""

import numbers

from ._fit import validate_params

# Arguments of the classes that are not library parameters (the method is set by
# name separately; the cluster and community counts are the library's "classes").
_STRUCTURAL = ("method", "n_clusters", "n_communities")
_ALIASES = (("n_iter", "max_iter"), ("n_jobs", "threads"), ("random_state", "seed"))


def _library_params(params):
    """The library parameters of an estimator's parameters: crowd-kit and scikit-learn
    aliases mapped onto library names, None (the library's default) dropped."""
    out = {name: value for name, value in params.items() if name not in _STRUCTURAL}
    for alias, name in _ALIASES:
        if alias not in out:
            continue
        value = out.pop(alias)
        if value is None:
            continue
        if out.get(name) is not None:
            raise TypeError("give %s or %s, not both" % (alias, name))
        if alias == "n_jobs" and isinstance(value, numbers.Integral) and value < 0:
            value = 0  # scikit-learn's -1: the library's automatic count (threads = 0)
        out[name] = value
    return {name: value for name, value in out.items() if value is not None}


class _Params:
    #: The library method of the class (a subclass fixes it; Aggregator takes it).
    _method = None

    def _set_checked(self, params):
        """Check params (merged with the current ones), then store each as an attribute."""
        merged = dict(self.get_params(), **params)
        library = _library_params(merged)
        method = merged.get("method", type(self)._method)
        validate_params(dict({"method": method}, **library) if method else library)
        for name, value in params.items():
            setattr(self, name, value)

    def get_params(self, deep=True):
        """The estimator's parameters by the names it was given them (scikit-learn's
        get_params; these estimators hold no other estimators, so deep changes
        nothing): the arguments of __init__ and of set_params."""
        return {name: value for name, value in vars(self).items()
                if not name.startswith("_") and not name.endswith("_")}

    def set_params(self, **params):
        """Set parameters by name (those of __init__, or any library parameter);
        returns self. Bad names and values raise CrowdspecError, leaving the
        estimator as it was."""
        if "method" in params and "method" not in vars(self):
            raise TypeError("the method is fixed by the class; use crowdspec.Aggregator(method=...)"
                            " or crowdspec.fit_labels for another one")
        if params:
            self._set_checked(params)
        return self

    @property
    def _params(self):
        """The library parameters a fit passes (library names, None dropped)."""
        return _library_params(self.get_params())

    def _fit_method(self):
        return vars(self).get("method", type(self)._method)

    def __repr__(self):
        args = ", ".join("%s=%r" % kv for kv in self.get_params().items()
                         if kv[1] is not None)
        return "%s(%s)" % (type(self).__name__, args)

    def _keep_result(self, result):
        """Set the attributes every fit has: result_, loss_history_ (the objective
        trace, a list), n_iter_, converged_ and notes_ (note names)."""
        self.result_ = result
        self.loss_history_ = result.trace.tolist()
        self.n_iter_ = result.iterations
        self.converged_ = result.converged
        self.notes_ = result.note_names

# SPDX-License-Identifier: MIT
"""The scikit-learn-shaped classes of the points and graph methods: Lloyd and KMeansPP
(clusters of the rows of a matrix, like KMeans), CommuLloyd, Spec and SpecMLE
(communities of a graph given as an edge array or a two-column DataFrame).
"""

import numpy as np

from ._estimator import _Params
from ._fit import as_int32, fit_graph, fit_points, warn_notes
from ._frame import _factorize, _pd

__all__ = ["Lloyd", "KMeansPP", "CommuLloyd", "Spec", "SpecMLE"]


class Lloyd(_Params):
    """Spectral initialisation + Lloyd iterations for a sub-Gaussian mixture
    ("lloyd"), shaped like scikit-learn's KMeans.

    Keyword arguments: n_init, max_iter, random_state (seed), n_jobs (threads) and any
    library parameter by name. After fit(X): labels_ (int32 array), cluster_centers_
    (k x d), inertia_ (the k-means cost of the final labels), n_iter_, converged_,
    priors_ (cluster proportions), loss_history_, notes_, result_.
    """

    _method = "lloyd"

    def __init__(self, n_clusters=8, **params):
        self._set_checked(dict(n_clusters=n_clusters, **params))

    def fit(self, X, y=None):
        result = fit_points(X, int(self.n_clusters), method=self._method, warn=False,
                            **self._params)
        warn_notes(result, stacklevel=3)
        self._keep_result(result)
        self.labels_ = result.labels
        self.cluster_centers_ = result.centres
        self.n_features_in_ = result.centres.shape[1]
        self.inertia_ = float(-result.trace[-1]) if result.trace.size else None
        self.priors_ = result.prior
        return self

    def fit_predict(self, X, y=None):
        return self.fit(X).labels_

    def predict(self, X):
        """The nearest centre of each row of X (ties to the lowest index)."""
        X = np.asarray(X, dtype=np.float64)
        centres = self.cluster_centers_
        d2 = ((X[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)
        return np.argmin(d2, axis=1).astype(np.int32)


class KMeansPP(Lloyd):
    """k-means++ seeding + Lloyd iterations ("kmeans++"), the baseline."""

    _method = "kmeans++"


class CommuLloyd(_Params):
    """Trimmed spectral initialisation + CommuLloyd ("commu-lloyd") for the
    communities of an undirected graph.

    fit(edges, n_nodes=None): edges is an (E, 2) integer array of 0-based node ids
    (then labels_ is an int32 array over nodes 0 .. n_nodes - 1), or a DataFrame of
    two columns of any hashable node ids (then labels_ is a Series indexed by node,
    name "community"). Also n_iter_, converged_, priors_, within_density_,
    between_density_, loss_history_, notes_, result_.
    """

    _method = "commu-lloyd"

    def __init__(self, n_communities=2, **params):
        self._set_checked(dict(n_communities=n_communities, **params))

    def fit(self, edges, n_nodes=None):
        nodes = None
        if type(edges).__module__.startswith("pandas") and hasattr(edges, "columns"):
            pd = _pd()
            if edges.shape[1] != 2:
                raise ValueError("edges must have two columns, got %d" % edges.shape[1])
            both = pd.concat([edges.iloc[:, 0], edges.iloc[:, 1]], ignore_index=True)
            if both.isna().any():
                raise ValueError("edges has a missing node id")
            codes, nodes = _factorize(both)
            e = len(edges)
            u, v = codes[:e], codes[e:]
            if n_nodes is None:
                n_nodes = len(nodes)
        else:
            arr = np.asarray(edges)
            if arr.ndim != 2 or arr.shape[1] != 2:
                raise ValueError("edges must be an (E, 2) array, got shape %s" % (arr.shape,))
            u, v = as_int32(arr[:, 0], "node id"), as_int32(arr[:, 1], "node id")
        result = fit_graph(u, v, int(self.n_communities), method=self._method, n_nodes=n_nodes,
                           warn=False, **self._params)
        warn_notes(result, stacklevel=3)
        self._keep_result(result)
        if nodes is not None:
            self.labels_ = _pd().Series(result.labels, index=_pd().Index(nodes, name="node"),
                                        name="community")
        else:
            self.labels_ = result.labels
        self.priors_ = result.prior
        self.within_density_, self.between_density_ = result.densities
        return self

    def fit_predict(self, edges, n_nodes=None):
        return self.fit(edges, n_nodes).labels_


class Spec(CommuLloyd):
    """The spectral initialisation of CommuLloyd alone ("spec")."""

    _method = "spec"


class SpecMLE(CommuLloyd):
    """The spectral initialisation and one likelihood step ("spec-mle")."""

    _method = "spec-mle"

# SPDX-License-Identifier: MIT
"""crowdspec: recover true labels from noisy crowd labels (Python bindings).

The crowd-kit-shaped classes (Auto, DawidSkene, MajorityVote, OptDawidSkene, ...) take a
pandas DataFrame with columns task, worker, label; fit_labels() is the numpy layer
under them. Both call libcrowdspec through ctypes (see library_path()). Model is a fit
that is saved, loaded, pickled and updated with new labels; crowdspec.dask fits a crowd
held in a Dask DataFrame (import it explicitly: it needs dask and distributed).
"""

from ._lib import CrowdspecError, CrowdspecWarning, library_path
from ._fit import (NOTE_NAMES, WARN_NOTES, Result, fit_comparisons, fit_graph, fit_labels, fit_points, has_param,
                   method_summaries, methods, params,
                   version)
from ._predict import predict_labels
from ._aggregators import (BCC, BWA, EBCC, GLAD, KOS, LA, MACE, METHOD_CLASSES, MMSR,
                           Aggregator, Auto, ClassOneCoinDawidSkene, CrowdLab, CrowdLloyd, DawidSkene,
                           EigenRatio, GhoshSVD, KOSMessagePassing, LAOnePass, MajorityVote,
                           MinimaxEntropy, OneCoinDawidSkene, OptDawidSkene, OrdinalDawidSkene,
                           OrdinalMinimaxEntropy, Wawa, ZeroBasedSkill)
from ._points_graphs import CommuLloyd, KMeansPP, Lloyd, Spec, SpecMLE
from ._model import Model
from ._pairwise import BradleyTerry, CrowdBT, NoisyBradleyTerry
from ._answers import NumbersResult, TagsResult, fit_numbers, fit_tags
from . import metrics

__version__ = "0.2.0"

__all__ = [
    "CrowdspecError", "CrowdspecWarning", "library_path", "version",
    "Result", "fit_labels", "predict_labels", "fit_points", "fit_graph", "fit_comparisons", "methods",
    "method_summaries", "params", "has_param",
    "NOTE_NAMES", "WARN_NOTES", "METHOD_CLASSES",
    "Aggregator", "Auto", "MajorityVote", "DawidSkene", "OptDawidSkene", "OneCoinDawidSkene",
    "ClassOneCoinDawidSkene", "CrowdLloyd", "KOS", "KOSMessagePassing", "GhoshSVD",
    "EigenRatio", "Wawa", "ZeroBasedSkill", "GLAD", "MACE", "MMSR", "EBCC", "BCC", "BWA",
    "LA", "LAOnePass", "CrowdLab", "MinimaxEntropy", "OrdinalMinimaxEntropy", "OrdinalDawidSkene",
    "Lloyd", "KMeansPP", "CommuLloyd", "Spec", "SpecMLE", "metrics",
    "BradleyTerry", "NoisyBradleyTerry", "CrowdBT", "Model",
    "fit_numbers", "fit_tags", "NumbersResult", "TagsResult",
]

# SPDX-License-Identifier: MIT
"""Loading libcrowdspec through ctypes, the C declarations, and error translation.

Nothing here needs numpy or pandas. The library is loaded on first use (so that
``import crowdspec`` works even where the shared library is missing, and the error
comes with the list of places that were tried).
"""

import ctypes
import ctypes.util
import glob
import os
import sys
import threading

__all__ = [
    "CrowdspecError",
    "CrowdspecWarning",
    "lib",
    "library_path",
    "status_name",
    "check",
]

#: The ABI major version these bindings were written for (the SONAME's number).
ABI_MAJOR = 0

# Status codes of the C API that the bindings treat specially (values are pinned).
CS_OK = 0
CS_ERR_INVALID_ARGUMENT = -3
CS_ERR_UNKNOWN_PARAM = -4
CS_ERR_INVALID_ID = -8
CS_ERR_NOT_FITTED = -13
CS_ERR_INVALID_LABEL = -9
CS_ERR_CANCELLED = -14
CS_ERR_OUT_OF_MEMORY = -15
CS_ERR_BUSY = -21  # another call runs on the same handle (a second thread)

# The parameter of the method (enum cs_param).
CS_PARAM_METHOD = 1

# Sources of a fit's calibration (enum cs_calibration, as cs_calibration reports them).
CALIBRATION_NAMES = {0: "none", 1: "auto", 2: "labels", 3: "gold"}

# Input kinds (enum cs_input_kind).
INPUT_CROWD = 1
INPUT_POINTS = 2
INPUT_GRAPH = 3
INPUT_COMPARISONS = 4
INPUT_TAGS = 5
INPUT_NUMBERS = 6


class CrowdspecError(ValueError):
    """A call into libcrowdspec failed.

    Attributes:
        status: the negative ``cs_status`` code.
        status_name: its name, e.g. ``"CS_ERR_INVALID_ID"`` (``cs_status_string``).
        message: the library's explanation (``cs_last_error`` of the handle), or a
            message of the bindings when the check happened in Python.
    """

    def __init__(self, status, status_name, message):
        self.status = int(status)
        self.status_name = status_name
        self.message = message
        text = "%s: %s" % (status_name, message) if message else status_name
        super().__init__(text)


class CrowdspecWarning(UserWarning):
    """A fit succeeded but reported notes (cs_fit_notes), e.g. max_iter reached."""


class _Model(ctypes.Structure):
    """The opaque ``cs_model``."""


ModelP = ctypes.POINTER(_Model)
I32P = ctypes.POINTER(ctypes.c_int32)
F64P = ctypes.POINTER(ctypes.c_double)
SizeP = ctypes.POINTER(ctypes.c_size_t)

#: ``typedef int32_t (*cs_progress_fn)(void *user, int32_t iteration, double objective)``
PROGRESS_FN = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.c_int32,
                               ctypes.c_double)

_status = ctypes.c_int32

# name: (restype, argtypes). Every function of include/crowdspec/crowdspec.h.
_SIGNATURES = {
    "cs_status_string": (ctypes.c_char_p, [_status]),
    "cs_version_number": (ctypes.c_int32, []),
    "cs_version_string": (ctypes.c_char_p, []),
    "cs_method_input": (ctypes.c_int32, [ctypes.c_int32]),
    "cs_method_count": (ctypes.c_int32, []),
    "cs_method_at": (ctypes.c_int32, [ctypes.c_int32]),
    "cs_method_name": (ctypes.c_char_p, [ctypes.c_int32]),
    "cs_method_summary": (ctypes.c_char_p, [ctypes.c_int32]),
    "cs_method_from_name": (_status, [ctypes.c_char_p, I32P]),
    "cs_param_name": (ctypes.c_char_p, [ctypes.c_int32]),
    "cs_param_from_name": (_status, [ctypes.c_char_p, I32P]),
    "cs_param_count": (ctypes.c_int32, []),
    "cs_param_at": (ctypes.c_int32, [ctypes.c_int32]),
    "cs_param_info": (_status, [ctypes.c_int32, F64P, F64P, F64P, I32P]),
    "cs_create": (ModelP, []),
    "cs_destroy": (None, [ModelP]),
    "cs_last_error": (ctypes.c_char_p, [ModelP]),
    "cs_set_int": (_status, [ModelP, ctypes.c_int32, ctypes.c_int64]),
    "cs_set_double": (_status, [ModelP, ctypes.c_int32, ctypes.c_double]),
    "cs_get_int": (_status, [ModelP, ctypes.c_int32, ctypes.POINTER(ctypes.c_int64)]),
    "cs_get_double": (_status, [ModelP, ctypes.c_int32, F64P]),
    "cs_set_param_string": (_status, [ModelP, ctypes.c_char_p, ctypes.c_char_p]),
    "cs_set_progress": (_status, [ModelP, PROGRESS_FN, ctypes.c_void_p]),
    "cs_set_gold": (_status, [ModelP, I32P, I32P, ctypes.c_size_t]),
    "cs_set_initial_confusion": (_status, [ModelP, F64P, ctypes.c_size_t]),
    "cs_set_initial_prior": (_status, [ModelP, F64P, ctypes.c_size_t]),
    "cs_predict": (_status, [ModelP, I32P, I32P, I32P, ctypes.c_size_t]),
    "cs_fit": (_status, [ModelP, I32P, I32P, I32P, ctypes.c_size_t]),
    "cs_fit_points": (_status, [ModelP, F64P, ctypes.c_size_t, ctypes.c_size_t,
                                ctypes.c_size_t]),
    "cs_fit_graph": (_status, [ModelP, ctypes.c_size_t, I32P, I32P, ctypes.c_size_t]),
    "cs_n_items": (_status, [ModelP, SizeP]),
    "cs_n_workers": (_status, [ModelP, SizeP]),
    "cs_n_classes": (_status, [ModelP, SizeP]),
    "cs_labels": (_status, [ModelP, I32P, ctypes.c_size_t]),
    "cs_posteriors": (_status, [ModelP, F64P, ctypes.c_size_t]),
    "cs_confusion": (_status, [ModelP, F64P, ctypes.c_size_t]),
    "cs_class_prior": (_status, [ModelP, F64P, ctypes.c_size_t]),
    "cs_trace_length": (_status, [ModelP, SizeP]),
    "cs_trace": (_status, [ModelP, F64P, ctypes.c_size_t]),
    "cs_iterations": (_status, [ModelP, I32P]),
    "cs_converged": (_status, [ModelP, I32P]),
    "cs_log_likelihood": (_status, [ModelP, F64P]),
    "cs_fit_notes": (_status, [ModelP, I32P]),
    "cs_n_dims": (_status, [ModelP, SizeP]),
    "cs_centres": (_status, [ModelP, F64P, ctypes.c_size_t]),
    "cs_graph_densities": (_status, [ModelP, F64P, F64P]),
    "cs_median_grades": (_status, [ModelP, I32P, ctypes.c_size_t]),
    "cs_mean_grades": (_status, [ModelP, F64P, ctypes.c_size_t]),
}

I64P = ctypes.POINTER(ctypes.c_int64)

# Functions added in 0.2 (node CS_0.2): declared when the loaded library has them, so
# that these bindings still load a 0.1 library; using one it lacks raises (function()).
_SIGNATURES_0_2 = {
    "cs_estimate": (_status, [ModelP, ctypes.c_char_p, F64P, ctypes.c_size_t, SizeP, SizeP]),
    "cs_agreement": (_status, [ModelP, I32P, I32P, ctypes.c_size_t, F64P, F64P, ctypes.c_size_t]),
    "cs_uncertainty": (_status, [ModelP, I32P, I32P, I32P, ctypes.c_size_t, F64P, ctypes.c_size_t,
                                 ctypes.c_int32, F64P, ctypes.c_size_t]),
    "cs_consistency": (_status, [ModelP, I32P, I32P, I32P, ctypes.c_size_t, F64P, ctypes.c_size_t,
                                 I32P, ctypes.c_size_t, F64P, ctypes.c_size_t]),
    "cs_accuracy_on_aggregates": (_status, [ModelP, I32P, I32P, I32P, ctypes.c_size_t, I32P,
                                            ctypes.c_size_t, F64P, ctypes.c_size_t, F64P]),
    "cs_intern_strings": (_status, [ModelP, ctypes.c_char_p, ctypes.c_size_t, I64P,
                                    ctypes.c_size_t, ctypes.c_int32, I32P, I64P, SizeP]),
    "cs_intern_integers": (_status, [ModelP, I64P, ctypes.c_size_t, ctypes.c_int32, I32P, I64P,
                                     SizeP]),
    "cs_calibration": (_status, [ModelP, F64P, F64P, I32P]),
    "cs_set_initial_calibration": (_status, [ModelP, ctypes.c_double, ctypes.c_double]),
    "cs_fit_comparisons": (_status, [ModelP, I32P, I32P, I32P, I32P, ctypes.c_size_t]),
    "cs_scores": (_status, [ModelP, F64P, F64P, I32P, ctypes.c_size_t]),
    "cs_worker_reliability": (_status, [ModelP, F64P, ctypes.c_size_t]),
    # Saved models and incremental updates; the sufficient-statistics API (issue 38).
    "cs_save": (_status, [ModelP, ctypes.c_char_p]),
    "cs_save_buffer": (_status, [ModelP, ctypes.c_void_p, ctypes.c_size_t, SizeP]),
    "cs_load": (_status, [ModelP, ctypes.c_char_p]),
    "cs_load_buffer": (_status, [ModelP, ctypes.c_void_p, ctypes.c_size_t]),
    "cs_set_user_data": (_status, [ModelP, ctypes.c_void_p, ctypes.c_size_t]),
    "cs_user_data": (_status, [ModelP, ctypes.c_void_p, ctypes.c_size_t, SizeP]),
    "cs_update": (_status, [ModelP, I32P, I32P, I32P, ctypes.c_size_t]),
    "cs_refit": (_status, [ModelP]),
    "cs_stats_length": (ctypes.c_size_t, [ctypes.c_size_t, ctypes.c_size_t]),
    "cs_shard_labels": (_status, [ModelP, I32P, I32P, I32P, ctypes.c_size_t, ctypes.c_size_t,
                                  ctypes.c_size_t, ctypes.c_size_t]),
    "cs_shard_start": (_status, [ModelP, F64P, ctypes.c_size_t]),
    "cs_shard_e_step": (_status, [ModelP, F64P, F64P, F64P, ctypes.c_size_t]),
    "cs_m_step": (_status, [ModelP, F64P, ctypes.c_size_t, ctypes.c_size_t, ctypes.c_size_t,
                            ctypes.c_size_t, F64P, ctypes.c_size_t, F64P, ctypes.c_size_t]),
    "cs_fit_stats": (_status, [ModelP, ctypes.c_size_t, ctypes.c_size_t, ctypes.c_size_t, F64P,
                               ctypes.c_size_t, ctypes.c_void_p, ctypes.c_void_p]),
    "cs_fit_numbers": (_status, [ModelP, I32P, I32P, F64P, ctypes.c_size_t]),
    "cs_number_estimates": (_status, [ModelP, F64P, F64P, ctypes.c_size_t]),
    "cs_number_workers": (_status, [ModelP, F64P, F64P, ctypes.c_size_t]),
    "cs_fit_tags": (_status, [ModelP, I32P, I32P, I64P, I32P, ctypes.c_size_t, ctypes.c_int32]),
    "cs_n_tags": (_status, [ModelP, SizeP]),
    "cs_tag_probabilities": (_status, [ModelP, F64P, ctypes.c_size_t]),
    "cs_tag_sets": (_status, [ModelP, F64P, ctypes.c_size_t, I32P, ctypes.c_size_t]),
    "cs_tag_workers": (_status, [ModelP, F64P, F64P, ctypes.c_size_t]),
    "cs_set_model_probs": (_status, [ModelP, I32P, F64P, ctypes.c_size_t, ctypes.c_int32]),
    "cs_model_confusion": (_status, [ModelP, F64P, ctypes.c_size_t]),
    "cs_predict_model_probs": (_status, [ModelP, I32P, I32P, I32P, ctypes.c_size_t, I32P, F64P,
                                         ctypes.c_size_t]),
    "cs_label_next": (_status, [ModelP, F64P, ctypes.c_size_t]),
    "cs_label_wrong": (_status, [ModelP, I32P, I32P, ctypes.c_size_t, F64P]),
    "cs_worker_diagnostics": (_status, [ModelP, F64P, I32P, F64P, F64P, F64P, ctypes.c_size_t]),
}

#: ``typedef int32_t (*cs_e_step_fn)(void *user, const double *confusion, const double *prior,
#: double *stats)``
E_STEP_FN = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, F64P, F64P, F64P)

_lock = threading.Lock()
_lib = None
_lib_path = None


def _candidates():
    """Where to look for the shared library, in order, as (description, path)."""
    env = os.environ.get("CROWDSPEC_LIBRARY")
    if env:
        # An explicit choice is the only candidate: silently falling back to another
        # copy would hide a wrong path.
        return [("CROWDSPEC_LIBRARY", env)]
    found = []
    here = os.path.dirname(os.path.abspath(__file__))
    if sys.platform == "win32":
        patterns = ["crowdspec*.dll", "libcrowdspec*.dll"]
    elif sys.platform == "darwin":
        patterns = ["libcrowdspec.%d.dylib" % ABI_MAJOR, "libcrowdspec*.dylib"]
    else:
        patterns = ["libcrowdspec.so.%d" % ABI_MAJOR, "libcrowdspec.so.%d.*" % ABI_MAJOR,
                    "libcrowdspec.so"]
    for pattern in patterns:
        for path in sorted(glob.glob(os.path.join(here, pattern))):
            found.append(("next to the package", path))
    name = ctypes.util.find_library("crowdspec")
    if name:
        found.append(("ctypes.util.find_library", name))
    if sys.platform == "darwin":
        found.append(("the install name", "libcrowdspec.%d.dylib" % ABI_MAJOR))
    elif sys.platform != "win32":
        found.append(("the SONAME", "libcrowdspec.so.%d" % ABI_MAJOR))
    return found


def _declare(handle):
    for name, (restype, argtypes) in _SIGNATURES.items():
        fn = getattr(handle, name)
        fn.restype = restype
        fn.argtypes = argtypes
    for name, (restype, argtypes) in _SIGNATURES_0_2.items():
        fn = getattr(handle, name, None)
        if fn is not None:
            fn.restype = restype
            fn.argtypes = argtypes


def has_function(name):
    """Whether the loaded library exports ``name`` (functions of later releases)."""
    return getattr(lib(), name, None) is not None


def function(name):
    """A function of the loaded library that a later release added; RuntimeError
    naming the library's version when it lacks it."""
    fn = getattr(lib(), name, None)
    if fn is None:
        raise RuntimeError("crowdspec: the loaded library %s (%s) has no %s; it needs "
                           "libcrowdspec 0.2 or later" % (lib().cs_version_string().decode(),
                                                          _lib_path, name))
    return fn


def lib():
    """The loaded library (a ctypes.CDLL with every function declared)."""
    global _lib, _lib_path
    if _lib is not None:
        return _lib
    with _lock:
        if _lib is not None:
            return _lib
        tried = []
        for origin, path in _candidates():
            try:
                # CDLL, not PyDLL: ctypes releases the GIL around every foreign call.
                handle = ctypes.CDLL(path)
            except OSError as exc:
                tried.append("%s (%s): %s" % (path, origin, exc))
                continue
            try:
                _declare(handle)
            except AttributeError as exc:
                tried.append("%s (%s): not libcrowdspec: %s" % (path, origin, exc))
                continue
            version = handle.cs_version_number()
            if version // 10000 != ABI_MAJOR:
                tried.append("%s (%s): version %s, these bindings need %d.x"
                             % (path, origin, handle.cs_version_string().decode(),
                                ABI_MAJOR))
                continue
            _lib, _lib_path = handle, path
            return _lib
        raise OSError("crowdspec: cannot load libcrowdspec; tried:\n  " + "\n  ".join(tried)
                      + "\nSet CROWDSPEC_LIBRARY to the path of libcrowdspec.so.%d."
                      % ABI_MAJOR)


def library_path():
    """The path (or name) the library was loaded from."""
    lib()
    return _lib_path


def status_name(status):
    """``cs_status_string``: the name of a status code."""
    return lib().cs_status_string(int(status)).decode("utf-8", "replace")


def last_error(model):
    """``cs_last_error`` of a handle, as str."""
    return lib().cs_last_error(model).decode("utf-8", "replace")


def error(status, message):
    """The exception for a failed status: MemoryError for out-of-memory, else
    CrowdspecError."""
    if status == CS_ERR_OUT_OF_MEMORY:
        return MemoryError("%s: %s" % (status_name(status), message))
    return CrowdspecError(status, status_name(status), message)


def check(status, model=None):
    """Raise for a negative status, with the handle's cs_last_error as message."""
    if status == CS_OK:
        return
    message = last_error(model) if model else ""
    raise error(status, message)


class Handle:
    """A cs_model owned by Python: ``with Handle() as model: ...`` destroys it."""

    def __init__(self):
        self.model = lib().cs_create()
        if not self.model:
            raise MemoryError("cs_create: out of memory")

    def close(self):
        if self.model:
            lib().cs_destroy(self.model)
            self.model = None

    def __enter__(self):
        return self.model

    def __exit__(self, *exc):
        self.close()
        return False

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown: nothing sensible to do
            pass

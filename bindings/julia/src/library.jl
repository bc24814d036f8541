# SPDX-License-Identifier: MIT
#
# Included by CrowdSpec.jl: the C library itself. Loading it (`__init__`, `_fn` for the
# address of a `cs_` function), the header's constants (`CS_ERR_*`, `CS_NOTE_*`,
# `CS_INPUT_*`, checked against include/crowdspec/crowdspec.h by
# test/check_ccalls.py), and `CrowdSpecError`, which every failed call raises.

# ---------------------------------------------------------------------------- loading

"""
    SONAME

The name the shared library is loaded by when `ENV["CROWDSPEC_LIBRARY"]` is not set:
its SONAME, which carries the major version of the C ABI.
"""
const SONAME = Sys.isapple() ? "libcrowdspec.0.dylib" :
               Sys.iswindows() ? "crowdspec.dll" : "libcrowdspec.so.0"

const _LIB = Ref{Ptr{Cvoid}}(C_NULL)

"""
    library_path()

The file the C library was loaded from (for diagnostics).
"""
library_path() = Libdl.dlpath(_LIB[])

function __init__()
    path = get(ENV, "CROWDSPEC_LIBRARY", SONAME)
    handle = Libdl.dlopen(path; throw_error = false)
    if handle === nothing
        error("CrowdSpec: cannot load the crowdspec C library from \"", path, "\". ",
              "Install crowdspec, or set ENV[\"CROWDSPEC_LIBRARY\"] to the path of ",
              "libcrowdspec (e.g. build/src/libcrowdspec.so.0) before `using CrowdSpec`.")
    end
    _LIB[] = handle
    major = div(ccall(_fn(:cs_version_number), Int32, ()), 10000)
    major == CS_VERSION_MAJOR ||
        error("CrowdSpec: the library at \"", path, "\" has ABI version ", major,
              ", these bindings were written for ", CS_VERSION_MAJOR)
    return nothing
end

# The address of a C function of the loaded library (an error if it lacks the symbol).
_fn(name::Symbol) = Libdl.dlsym(_LIB[], name)

# ---------------------------------------------------------------------------- constants

"""Major version of the C header these bindings follow (`CS_VERSION_MAJOR`)."""
const CS_VERSION_MAJOR = 0

# Status codes (enum cs_status_code of the header). Compare with `err.status`.
const CS_OK = Int32(0)
const CS_ERR_NULL_HANDLE = Int32(-1)
const CS_ERR_NULL_POINTER = Int32(-2)
const CS_ERR_INVALID_ARGUMENT = Int32(-3)
const CS_ERR_UNKNOWN_PARAM = Int32(-4)
const CS_ERR_PARAM_RANGE = Int32(-5)
const CS_ERR_UNKNOWN_METHOD = Int32(-6)
const CS_ERR_EMPTY_INPUT = Int32(-7)
const CS_ERR_INVALID_ID = Int32(-8)
const CS_ERR_INVALID_LABEL = Int32(-9)
const CS_ERR_TOO_FEW_CLASSES = Int32(-10)
const CS_ERR_DUPLICATE = Int32(-11)
const CS_ERR_BUFFER_TOO_SMALL = Int32(-12)
const CS_ERR_NOT_FITTED = Int32(-13)
const CS_ERR_CANCELLED = Int32(-14)
const CS_ERR_OUT_OF_MEMORY = Int32(-15)
const CS_ERR_INTERNAL = Int32(-16)
const CS_ERR_WRONG_INPUT_KIND = Int32(-17)
const CS_ERR_NON_FINITE = Int32(-18)
const CS_ERR_TOO_MANY_CLASSES = Int32(-19)
const CS_ERR_TOO_LARGE = Int32(-20)
const CS_ERR_BUSY = Int32(-21)  # another call runs on the same handle (another task/thread)
const CS_ERR_CORRUPT_MODEL = Int32(-22)  # load: not a saved model, truncated or damaged
const CS_ERR_MODEL_VERSION = Int32(-23)  # load: saved by a newer format version
const CS_ERR_INVALID_ANSWER = Int32(-24)
const CS_ERR_NOT_CONNECTED = Int32(-25)

# The parameter Base.show reads (enum cs_param).
const CS_PARAM_METHOD = Int32(1)

# Methods (enum cs_method): the library's default since 0.2.
const CS_METHOD_AUTO = Int32(24)
const CS_METHOD_CROWDLAB = Int32(25)

# Calibration of the Dawid-Skene family's posteriors (enum cs_calibration): the values
# of the parameter "calibration" and the sources calibration(model) reports.
const CS_CALIBRATION_NONE = Int32(0)
const CS_CALIBRATION_AUTO = Int32(1)
const CS_CALIBRATION_LABELS = Int32(2)
const CS_CALIBRATION_GOLD = Int32(3)

# Input kinds (enum cs_input_kind).
const CS_INPUT_CROWD = Int32(1)
const CS_INPUT_POINTS = Int32(2)
const CS_INPUT_GRAPH = Int32(3)
const CS_INPUT_COMPARISONS = Int32(4)
const CS_INPUT_TAGS = Int32(5)
const CS_INPUT_NUMBERS = Int32(6)

# Fit notes (enum cs_fit_note): bits of fit_notes(model).
const CS_NOTE_MAX_ITER_REACHED = Int32(1)
const CS_NOTE_SPECTRAL_FALLBACK = Int32(2)
const CS_NOTE_IMPOSSIBLE_ITEMS = Int32(4)
const CS_NOTE_UNLABELED_ITEMS = Int32(8)
const CS_NOTE_CANCELLED = Int32(16)
const CS_NOTE_IGNORED_EDGES = Int32(32)
const CS_NOTE_ISOLATED_NODES = Int32(64)
const CS_NOTE_EMPTY_CLUSTER = Int32(128)
const CS_NOTE_LABEL_CYCLE = Int32(256)
const CS_NOTE_EIGEN_NOT_CONVERGED = Int32(512)
const CS_NOTE_MAJORITY_START = Int32(1024)
const CS_NOTE_UNKNOWN_WORKERS = Int32(65536)
const CS_NOTE_DEGENERATE_MAXIMUM = Int32(131072)
const CS_NOTE_APPROXIMATE_SE = Int32(4194304)
const CS_NOTE_VARIANCE_FLOOR = Int32(8388608)
const CS_NOTE_INCREMENTAL = Int32(16777216)
const CS_NOTE_CROWDLAB_FALLBACK = Int32(33554432)

const _NOTE_NAMES = (
    (CS_NOTE_MAX_ITER_REACHED, :max_iter_reached),
    (CS_NOTE_SPECTRAL_FALLBACK, :spectral_fallback),
    (CS_NOTE_IMPOSSIBLE_ITEMS, :impossible_items),
    (CS_NOTE_UNLABELED_ITEMS, :unlabeled_items),
    (CS_NOTE_CANCELLED, :cancelled),
    (CS_NOTE_IGNORED_EDGES, :ignored_edges),
    (CS_NOTE_ISOLATED_NODES, :isolated_nodes),
    (CS_NOTE_EMPTY_CLUSTER, :empty_cluster),
    (CS_NOTE_LABEL_CYCLE, :label_cycle),
    (CS_NOTE_EIGEN_NOT_CONVERGED, :eigen_not_converged),
    (CS_NOTE_MAJORITY_START, :majority_start),
    (CS_NOTE_UNKNOWN_WORKERS, :unknown_workers),
    (CS_NOTE_DEGENERATE_MAXIMUM, :degenerate_maximum),
    (CS_NOTE_APPROXIMATE_SE, :approximate_se),
    (CS_NOTE_VARIANCE_FLOOR, :variance_floor),
    (CS_NOTE_INCREMENTAL, :incremental),
    (CS_NOTE_CROWDLAB_FALLBACK, :crowdlab_fallback),
)

# ---------------------------------------------------------------------------- errors

"""
    CrowdSpecError(status, name, message)

A failed call of the C library: `status` is the C status code (an `Int32`, negative;
compare with the `CrowdSpec.CS_ERR_*` constants), `name` its C name (e.g.
`"CS_ERR_INVALID_ID"`) and `message` the library's explanation (e.g. "worker id 17
at label index 3 is >= n_workers (12)"). Indices in the library's messages are
0-based.
"""
struct CrowdSpecError <: Exception
    status::Int32
    name::String
    message::String
end

function Base.showerror(io::IO, e::CrowdSpecError)
    print(io, "CrowdSpecError: ", e.name)
    isempty(e.message) || print(io, ": ", e.message)
end

_status_name(status::Integer) =
    unsafe_string(ccall(_fn(:cs_status_string), Cstring, (Int32,), status))

_error(status::Integer, message::AbstractString) =
    CrowdSpecError(Int32(status), _status_name(status), String(message))

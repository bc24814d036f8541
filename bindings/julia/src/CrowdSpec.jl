# SPDX-License-Identifier: MIT
"""
    CrowdSpec

Julia bindings of crowdspec, a C library that recovers the true labels of items from
noisy crowd labels (majority vote, Dawid-Skene EM, Opt-D&S and spectral baselines),
clusters points (spectral initialisation + Lloyd) and finds communities in graphs
(CommuLloyd).

The library is loaded at `using CrowdSpec` from `ENV["CROWDSPEC_LIBRARY"]` when set
(a path such as `build/src/libcrowdspec.so.0`), else by its SONAME
(`libcrowdspec.so.0`) through the system's library search path.

Ids and labels are 1-based here, as Julia arrays are; they are converted to the C
API's 0-based `Int32` values on the way in and back on the way out. Failures raise
[`CrowdSpecError`](@ref) with the library's status and message.

```julia
using CrowdSpec
model = Model(method = "ds", tol = 1e-8)
fit!(model, [1, 1, 2, 2], [1, 2, 1, 2], [1, 1, 2, 1])
labels(model)        # most probable class of each item (1-based)
posteriors(model)    # items x classes
```
"""
module CrowdSpec

using Libdl

export Model, CrowdSpecError, fit!, fit_points!, fit_graph!, set_gold!, setparam!, getparam,
    set_initial_confusion!, set_initial_prior!, predict!,
    labels, posteriors, confusion, class_prior, loglikelihood, iterations, converged,
    fit_notes, note_names, objective_trace, last_message, n_items, n_workers, n_classes,
    centres, graph_densities, encode, method_names, method_input, param_names, param_info

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

# The parameter Base.show reads (enum cs_param).
const CS_PARAM_METHOD = Int32(1)

# Input kinds (enum cs_input_kind).
const CS_INPUT_CROWD = Int32(1)
const CS_INPUT_POINTS = Int32(2)
const CS_INPUT_GRAPH = Int32(3)

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

# ---------------------------------------------------------------------------- the model

"""
    Model(; parameters...)

A crowdspec model: a method, its parameters and the results of the last fit. It owns a
C handle, freed by a finalizer (or earlier by `close(model)`). Keyword arguments set
parameters by name, as [`setparam!`](@ref) does, e.g.
`Model(method = "opt-ds", prior = "uniform", max_iter = 200, tol = 1e-8)`.

A model must be used by one task at a time; distinct models share nothing, so fits on
different models may run on different threads.
"""
mutable struct Model
    ptr::Ptr{Cvoid}
    function Model(; parameters...)
        ptr = ccall(_fn(:cs_create), Ptr{Cvoid}, ())
        ptr == C_NULL && throw(OutOfMemoryError())
        model = finalizer(_destroy!, new(ptr))
        for (name, value) in parameters
            setparam!(model, String(name), value)
        end
        return model
    end
end

function _destroy!(model::Model)
    if model.ptr != C_NULL
        ccall(_fn(:cs_destroy), Cvoid, (Ptr{Cvoid},), model.ptr)
        model.ptr = C_NULL
    end
    return nothing
end

"""
    close(model::Model)

Free the model's C handle now instead of at garbage collection. Later calls on the
model raise a [`CrowdSpecError`](@ref) (`CS_ERR_NULL_HANDLE`).
"""
Base.close(model::Model) = _destroy!(model)

# Passing a Model where ccall expects Ptr{Cvoid} passes its handle and keeps the model
# alive (not finalized) for the duration of the call.
Base.unsafe_convert(::Type{Ptr{Cvoid}}, model::Model) = model.ptr

function Base.show(io::IO, model::Model)
    if model.ptr == C_NULL
        print(io, "CrowdSpec.Model(closed)")
    else
        id = Ref{Int64}(0)
        ccall(_fn(:cs_get_int), Int32, (Ptr{Cvoid}, Int32, Ref{Int64}), model, CS_PARAM_METHOD, id)
        print(io, "CrowdSpec.Model(method = \"", _method_name(Int32(id[])), "\")")
    end
end

"""
    last_message(model::Model) -> String

The library's message about the last failure on `model`, or the explanation of the last
fit's notes (empty when there is none).
"""
last_message(model::Model) =
    unsafe_string(ccall(_fn(:cs_last_error), Cstring, (Ptr{Cvoid},), model))

function _check(model::Model, status::Integer)
    status == CS_OK && return nothing
    throw(CrowdSpecError(Int32(status), _status_name(status), last_message(model)))
end

# ---------------------------------------------------------------------------- parameters

function _param_id(name::AbstractString)
    id = Ref{Int32}(0)
    status = ccall(_fn(:cs_param_from_name), Int32, (Cstring, Ref{Int32}), name, id)
    status == CS_OK || throw(_error(status, "unknown parameter \"$name\""))
    return id[]
end

"""
    setparam!(model::Model, name, value) -> model

Set a parameter by name (`"tol"`, `"max_iter"`, `"prior"`, ...; see
[`param_names`](@ref)). Integers go to the C setter for integers, other real numbers to
the one for doubles, strings and symbols to the textual setter (value names such as
`"estimated"`, or numbers). The library checks the type and range and keeps the old
value on failure, raising a [`CrowdSpecError`](@ref).
"""
function setparam!(model::Model, name::AbstractString, value::Integer)
    id = _param_id(name)
    v = Int64(value)  # InexactError beyond Int64
    _check(model, ccall(_fn(:cs_set_int), Int32, (Ptr{Cvoid}, Int32, Int64), model, id, v))
    return model
end

function setparam!(model::Model, name::AbstractString, value::Real)
    id = _param_id(name)
    v = Float64(value)
    _check(model, ccall(_fn(:cs_set_double), Int32, (Ptr{Cvoid}, Int32, Cdouble), model, id, v))
    return model
end

function setparam!(model::Model, name::AbstractString, value::Union{AbstractString,Symbol})
    text = String(value)
    _check(model, ccall(_fn(:cs_set_param_string), Int32, (Ptr{Cvoid}, Cstring, Cstring),
                        model, name, text))
    return model
end

setparam!(model::Model, name::Symbol, value) = setparam!(model, String(name), value)

"""
    getparam(model::Model, name) -> Int64 or Float64

The current value of a parameter: an `Int64` for integer parameters, a `Float64`
otherwise.
"""
function getparam(model::Model, name::AbstractString)
    id = _param_id(name)
    if param_info(name).is_integer
        v = Ref{Int64}(0)
        _check(model, ccall(_fn(:cs_get_int), Int32, (Ptr{Cvoid}, Int32, Ref{Int64}), model, id, v))
        return v[]
    else
        x = Ref{Cdouble}(0.0)
        _check(model, ccall(_fn(:cs_get_double), Int32, (Ptr{Cvoid}, Int32, Ref{Cdouble}),
                            model, id, x))
        return x[]
    end
end

getparam(model::Model, name::Symbol) = getparam(model, String(name))

"""
    param_info(name) -> NamedTuple

Range and default of a parameter: `(name, id, lower, upper, default, is_integer)`.
"""
function param_info(name::AbstractString)
    id = _param_id(name)
    lower, upper, default = Ref{Cdouble}(0.0), Ref{Cdouble}(0.0), Ref{Cdouble}(0.0)
    is_integer = Ref{Int32}(0)
    status = ccall(_fn(:cs_param_info), Int32,
                   (Int32, Ref{Cdouble}, Ref{Cdouble}, Ref{Cdouble}, Ref{Int32}),
                   id, lower, upper, default, is_integer)
    status == CS_OK || throw(_error(status, "no parameter has id $id"))
    return (name = String(name), id = id, lower = lower[], upper = upper[],
            default = default[], is_integer = is_integer[] != 0)
end

"""
    param_names() -> Vector{String}

The names of every parameter of the loaded library.
"""
function param_names()
    count = ccall(_fn(:cs_param_count), Int32, ())
    names = String[]
    for index in 0:count-1
        id = ccall(_fn(:cs_param_at), Int32, (Int32,), index)
        p = ccall(_fn(:cs_param_name), Ptr{UInt8}, (Int32,), id)
        p == C_NULL || push!(names, unsafe_string(p))
    end
    return names
end

function _method_name(id::Int32)
    p = ccall(_fn(:cs_method_name), Ptr{UInt8}, (Int32,), id)
    return p == C_NULL ? "unknown ($id)" : unsafe_string(p)
end

"""
    method_names() -> Vector{String}

The names of every method of the loaded library (`"mv"`, `"ds"`, `"opt-ds"`, ...,
`"lloyd"`, `"commu-lloyd"`, ...).
"""
function method_names()
    count = ccall(_fn(:cs_method_count), Int32, ())
    return [_method_name(ccall(_fn(:cs_method_at), Int32, (Int32,), index)) for index in 0:count-1]
end

"""
    method_input(name) -> Symbol

The kind of input a method takes: `:crowd` ([`fit!`](@ref)), `:points`
([`fit_points!`](@ref)) or `:graph` ([`fit_graph!`](@ref)).
"""
function method_input(name::AbstractString)
    id = Ref{Int32}(0)
    status = ccall(_fn(:cs_method_from_name), Int32, (Cstring, Ref{Int32}), name, id)
    status == CS_OK || throw(_error(status, "unknown method \"$name\""))
    kind = ccall(_fn(:cs_method_input), Int32, (Int32,), id[])
    return kind == CS_INPUT_POINTS ? :points : kind == CS_INPUT_GRAPH ? :graph : :crowd
end

"""
    version() -> VersionNumber

The version of the loaded C library.
"""
version() = VersionNumber(unsafe_string(ccall(_fn(:cs_version_string), Cstring, ())))

# ---------------------------------------------------------------------------- inputs

# 1-based ids to the C API's 0-based Int32 values; a value below 1 or beyond Int32 is a
# CrowdSpecError naming the position, before the library is called.
function _zero_based(values::AbstractVector{<:Integer}, what::AbstractString, status::Int32)
    out = Vector{Int32}(undef, length(values))
    n = 0
    for (index, value) in pairs(values)
        if !(1 <= value <= typemax(Int32))
            throw(_error(status, "$what[$index] = $value: ids and labels are 1-based integers " *
                                 "in 1:$(typemax(Int32))"))
        end
        n += 1
        out[n] = Int32(value - 1)
    end
    return out
end

function _same_length(what::AbstractString, lengths::Pair{String,Int}...)
    n = last(first(lengths))
    if any(p -> last(p) != n, lengths)
        list = join(["$(first(p)) $(last(p))" for p in lengths], ", ")
        throw(_error(CS_ERR_INVALID_ARGUMENT, "$what: the vectors differ in length ($list)"))
    end
    return n
end

"""
    encode(values) -> (ids::Vector{Int}, levels::Vector)

Number arbitrary ids (strings, symbols, ...) 1, 2, 3, ... in order of first appearance:
`levels[ids[i]] == values[i]`. For the item, worker and label columns of a table.
"""
function encode(values::AbstractVector)
    index = Dict{eltype(values),Int}()
    levels = eltype(values)[]
    ids = Vector{Int}(undef, length(values))
    for (i, v) in enumerate(values)
        ids[i] = get!(index, v) do
            push!(levels, v)
            length(levels)
        end
    end
    return ids, levels
end

# ---------------------------------------------------------------------------- progress

mutable struct _Progress
    callback::Any
    error::Any  # nothing, or (exception, backtrace) raised by the callback
end

# The C callback: runs the Julia callback, turns `false` into a cancel, and keeps an
# exception (which must not unwind through the C library) to be rethrown after the fit.
function _progress_trampoline(user::Ptr{Cvoid}, iteration::Int32, objective::Cdouble)::Int32
    state = unsafe_pointer_to_objref(user)::_Progress
    state.error === nothing || return Int32(1)
    try
        keep_going = state.callback(Int(iteration), Float64(objective))
        return keep_going === false ? Int32(1) : Int32(0)
    catch err
        state.error = (err, catch_backtrace())
        return Int32(1)
    end
end

# Runs `call()` (a ccall returning a status) with `progress` installed, removes it, and
# rethrows what the callback raised; returns the status.
function _with_progress(call, model::Model, progress)
    progress === nothing && return call()
    state = _Progress(progress, nothing)
    trampoline = @cfunction(_progress_trampoline, Int32, (Ptr{Cvoid}, Int32, Cdouble))
    status = GC.@preserve state begin
        _check(model, ccall(_fn(:cs_set_progress), Int32, (Ptr{Cvoid}, Ptr{Cvoid}, Ptr{Cvoid}),
                            model, trampoline, pointer_from_objref(state)))
        try
            call()
        finally
            ccall(_fn(:cs_set_progress), Int32, (Ptr{Cvoid}, Ptr{Cvoid}, Ptr{Cvoid}),
                  model, C_NULL, C_NULL)
        end
    end
    if state.error !== nothing
        # the callback's own exception (an InterruptException for Ctrl-C), once the
        # library has returned; its backtrace is in state.error for debugging
        throw(first(state.error))
    end
    return status
end

# ---------------------------------------------------------------------------- fitting

"""
    set_gold!(model::Model, items, labels) -> model

Known true labels (1-based item ids and classes) for some items, used by every later
[`fit!`](@ref): those items are pinned to their class. Empty vectors clear the set.
"""
function set_gold!(model::Model, items::AbstractVector{<:Integer}, labels::AbstractVector{<:Integer})
    n = _same_length("set_gold!", "items" => length(items), "labels" => length(labels))
    it = _zero_based(items, "items", CS_ERR_INVALID_ID)
    lb = _zero_based(labels, "labels", CS_ERR_INVALID_LABEL)
    _check(model, ccall(_fn(:cs_set_gold), Int32, (Ptr{Cvoid}, Ptr{Int32}, Ptr{Int32}, Csize_t),
                        model, it, lb, n))
    return model
end

"""
    set_initial_confusion!(model::Model, confusion::AbstractArray{<:Real,3}) -> model

Warm start: the worker confusion matrices (`n_workers x k x k`, the layout
[`confusion`](@ref) returns, e.g. that of a fit on an earlier batch) the next EM fits
start from instead of their own start. A worker whose matrix is all zeros is one new in
the batch. Copied and kept until replaced; an empty array (`zeros(0, 0, 0)`) clears it.
"""
function set_initial_confusion!(model::Model, confusion::AbstractArray{<:Real,3})
    # Julia [i, l, c] to the C API's row-major ((i k) + l) k + c: reverse the dimensions
    buffer = vec(Float64.(permutedims(confusion, (3, 2, 1))))
    _check(model, ccall(_fn(:cs_set_initial_confusion), Int32, (Ptr{Cvoid}, Ptr{Cdouble}, Csize_t),
                        model, buffer, length(buffer)))
    return model
end

"""
    set_initial_prior!(model::Model, prior::AbstractVector{<:Real}) -> model

The class prior (k values, normalised by the library) a warm start begins from, with
[`set_initial_confusion!`](@ref). An empty vector clears it.
"""
function set_initial_prior!(model::Model, prior::AbstractVector{<:Real})
    buffer = Vector{Float64}(prior)
    _check(model, ccall(_fn(:cs_set_initial_prior), Int32, (Ptr{Cvoid}, Ptr{Cdouble}, Csize_t),
                        model, buffer, length(buffer)))
    return model
end

"""
    predict!(model::Model, items, workers, labels) -> model

Label a new batch of items by the workers of the last crowd fit without refitting: one
E-step with that fit's confusion matrices and prior (before any fit, those of
[`set_initial_confusion!`](@ref) and [`set_initial_prior!`](@ref)). Items are
numbered 1, 2, ... for the batch alone; a worker beyond the fit's workers is weighed as
the average worker (note `:unknown_workers`). Afterwards [`labels`](@ref),
[`posteriors`](@ref), ... describe the batch.
"""
function predict!(model::Model, items::AbstractVector{<:Integer}, workers::AbstractVector{<:Integer},
                  labels::AbstractVector{<:Integer})
    n = _same_length("predict!", "items" => length(items), "workers" => length(workers),
                     "labels" => length(labels))
    it = _zero_based(items, "items", CS_ERR_INVALID_ID)
    wk = _zero_based(workers, "workers", CS_ERR_INVALID_ID)
    lb = _zero_based(labels, "labels", CS_ERR_INVALID_LABEL)
    _check(model, ccall(_fn(:cs_predict), Int32, (Ptr{Cvoid}, Ptr{Int32}, Ptr{Int32}, Ptr{Int32}, Csize_t),
                        model, it, wk, lb, n))
    return model
end

"""
    fit!(model::Model, items, workers, labels; progress = nothing) -> model

Fit the model's method to crowd labels: worker `workers[t]` gave class `labels[t]` to
item `items[t]` (1-based integers; the three vectors have the same length). The
numbers of items, workers and classes are the parameters `"items"`, `"workers"` and
`"classes"`, or the largest id when those are 0. Read the results with
[`labels`](@ref), [`posteriors`](@ref), [`confusion`](@ref), [`class_prior`](@ref),
[`loglikelihood`](@ref), ...

`progress(iteration, objective)` is called after the initialisation (iteration 0) and
after every iteration; returning `false` stops the fit, which then raises a
[`CrowdSpecError`](@ref) with status `CS_ERR_CANCELLED` while the results of the last
completed iteration stay readable. An exception raised by `progress` (an interrupt
too) stops the fit and is rethrown once the library has returned; it never unwinds
through the C library, and the model stays usable.
`progress` runs on the calling thread, between iterations; it must not call functions
on the same model.
"""
function fit!(model::Model, items::AbstractVector{<:Integer}, workers::AbstractVector{<:Integer},
              labels::AbstractVector{<:Integer}; progress = nothing)
    n = _same_length("fit!", "items" => length(items), "workers" => length(workers),
                     "labels" => length(labels))
    it = _zero_based(items, "items", CS_ERR_INVALID_ID)
    wk = _zero_based(workers, "workers", CS_ERR_INVALID_ID)
    lb = _zero_based(labels, "labels", CS_ERR_INVALID_LABEL)
    status = _with_progress(model, progress) do
        ccall(_fn(:cs_fit), Int32, (Ptr{Cvoid}, Ptr{Int32}, Ptr{Int32}, Ptr{Int32}, Csize_t),
              model, it, wk, lb, n)
    end
    _check(model, status)
    return model
end

"""
    fit_points!(model::Model, X::AbstractMatrix{<:Real}; progress = nothing) -> model

Cluster the columns of `X` (a `d x n` matrix: each column is a point, as in
Clustering.jl; pass `permutedims(A)` for an `n x d` matrix `A` of one point per row)
into k clusters, k being the parameter `"classes"`, which must be set. The method must
take points (`"lloyd"` or `"kmeans++"`). Results: [`labels`](@ref) (cluster of each
point), [`centres`](@ref), [`class_prior`](@ref), ... `progress` as for [`fit!`](@ref).
"""
function fit_points!(model::Model, X::AbstractMatrix{<:Real}; progress = nothing)
    # column-major d x n holds the points one after the other: the C API's row-major n x d
    x = convert(Matrix{Float64}, X)
    d, n = size(x)
    status = _with_progress(model, progress) do
        ccall(_fn(:cs_fit_points), Int32, (Ptr{Cvoid}, Ptr{Cdouble}, Csize_t, Csize_t, Csize_t),
              model, x, n, d, 0)
    end
    _check(model, status)
    return model
end

"""
    fit_graph!(model::Model, n_nodes, u, v; progress = nothing) -> model

Find k communities (the parameter `"classes"`, which must be set) among the nodes
`1:n_nodes` of the undirected graph whose edge `t` joins `u[t]` and `v[t]`. The method
must take graphs (`"commu-lloyd"`, `"spec"`, `"spec-mle"`). Results:
[`labels`](@ref) (community of each node), [`graph_densities`](@ref), ...
"""
function fit_graph!(model::Model, n_nodes::Integer, u::AbstractVector{<:Integer},
                    v::AbstractVector{<:Integer}; progress = nothing)
    n_nodes >= 0 || throw(_error(CS_ERR_INVALID_ARGUMENT, "n_nodes = $n_nodes is negative"))
    n = _same_length("fit_graph!", "u" => length(u), "v" => length(v))
    uu = _zero_based(u, "u", CS_ERR_INVALID_ID)
    vv = _zero_based(v, "v", CS_ERR_INVALID_ID)
    status = _with_progress(model, progress) do
        ccall(_fn(:cs_fit_graph), Int32, (Ptr{Cvoid}, Csize_t, Ptr{Int32}, Ptr{Int32}, Csize_t),
              model, n_nodes, uu, vv, n)
    end
    _check(model, status)
    return model
end

# ---------------------------------------------------------------------------- results

"""
    n_items(model::Model) -> Int

Number of items (points, nodes) of the last fit.
"""
function n_items(model::Model)
    n = Ref{Csize_t}(0)
    _check(model, ccall(_fn(:cs_n_items), Int32, (Ptr{Cvoid}, Ref{Csize_t}), model, n))
    return Int(n[])
end

"""
    n_workers(model::Model) -> Int

Number of workers of the last fit (0 for points and graphs).
"""
function n_workers(model::Model)
    n = Ref{Csize_t}(0)
    _check(model, ccall(_fn(:cs_n_workers), Int32, (Ptr{Cvoid}, Ref{Csize_t}), model, n))
    return Int(n[])
end

"""
    n_classes(model::Model) -> Int

Number of classes (clusters, communities) k of the last fit.
"""
function n_classes(model::Model)
    n = Ref{Csize_t}(0)
    _check(model, ccall(_fn(:cs_n_classes), Int32, (Ptr{Cvoid}, Ref{Csize_t}), model, n))
    return Int(n[])
end

function _n_dims(model::Model)
    n = Ref{Csize_t}(0)
    _check(model, ccall(_fn(:cs_n_dims), Int32, (Ptr{Cvoid}, Ref{Csize_t}), model, n))
    return Int(n[])
end

"""
    labels(model::Model) -> Vector{Int}

The most probable class (cluster, community) of each item, 1-based; ties go to the
lowest class.
"""
function labels(model::Model)
    n = n_items(model)
    buffer = Vector{Int32}(undef, n)
    _check(model, ccall(_fn(:cs_labels), Int32, (Ptr{Cvoid}, Ptr{Int32}, Csize_t), model, buffer, n))
    return Int.(buffer) .+ 1
end

"""
    posteriors(model::Model) -> Matrix{Float64}

Posterior class probabilities, `n_items x k`: row `j` is item `j`'s distribution over
the classes (each row sums to 1).
"""
function posteriors(model::Model)
    n, k = n_items(model), n_classes(model)
    buffer = Vector{Float64}(undef, n * k)
    _check(model, ccall(_fn(:cs_posteriors), Int32, (Ptr{Cvoid}, Ptr{Cdouble}, Csize_t),
                        model, buffer, length(buffer)))
    # C is row-major n x k: as a column-major k x n array, column j is item j's row
    return permutedims(reshape(buffer, k, n))
end

"""
    confusion(model::Model) -> Array{Float64,3}

Confusion matrices, `n_workers x k x k`: `confusion(model)[i, l, c]` is the probability
that worker `i` says class `c` of an item whose true class is `l` (each `[i, l, :]`
sums to 1).
"""
function confusion(model::Model)
    m, k = n_workers(model), n_classes(model)
    buffer = Vector{Float64}(undef, m * k * k)
    _check(model, ccall(_fn(:cs_confusion), Int32, (Ptr{Cvoid}, Ptr{Cdouble}, Csize_t),
                        model, buffer, length(buffer)))
    # C index ((i * k) + l) * k + c (row-major); column-major reshape gives A[c, l, i]
    return permutedims(reshape(buffer, k, k, m), (3, 2, 1))
end

"""
    class_prior(model::Model) -> Vector{Float64}

The class prior (k values summing to 1); for points and graphs, the fraction of points
(nodes) in each cluster (community).
"""
function class_prior(model::Model)
    k = n_classes(model)
    buffer = Vector{Float64}(undef, k)
    _check(model, ccall(_fn(:cs_class_prior), Int32, (Ptr{Cvoid}, Ptr{Cdouble}, Csize_t),
                        model, buffer, k))
    return buffer
end

"""
    objective_trace(model::Model) -> Vector{Float64}

The objective after each iteration (for EM methods the marginal log-likelihood; see the
C header's `cs_trace`).
"""
function objective_trace(model::Model)
    n = Ref{Csize_t}(0)
    _check(model, ccall(_fn(:cs_trace_length), Int32, (Ptr{Cvoid}, Ref{Csize_t}), model, n))
    buffer = Vector{Float64}(undef, n[])
    _check(model, ccall(_fn(:cs_trace), Int32, (Ptr{Cvoid}, Ptr{Cdouble}, Csize_t),
                        model, buffer, n[]))
    return buffer
end

"""
    loglikelihood(model::Model) -> Float64

Final marginal log-likelihood of an EM fit (0 for methods that compute none).
"""
function loglikelihood(model::Model)
    x = Ref{Cdouble}(0.0)
    _check(model, ccall(_fn(:cs_log_likelihood), Int32, (Ptr{Cvoid}, Ref{Cdouble}), model, x))
    return x[]
end

"""
    iterations(model::Model) -> Int

Completed iterations (EM rounds, Lloyd iterations, ...) of the last fit.
"""
function iterations(model::Model)
    n = Ref{Int32}(0)
    _check(model, ccall(_fn(:cs_iterations), Int32, (Ptr{Cvoid}, Ref{Int32}), model, n))
    return Int(n[])
end

"""
    converged(model::Model) -> Bool

Whether the last fit met its stopping rule (false after max_iter or a cancel).
"""
function converged(model::Model)
    c = Ref{Int32}(0)
    _check(model, ccall(_fn(:cs_converged), Int32, (Ptr{Cvoid}, Ref{Int32}), model, c))
    return c[] != 0
end

"""
    fit_notes(model::Model) -> Int32

The notes of the last fit, a bitwise OR of the `CrowdSpec.CS_NOTE_*` constants (0 =
none); [`note_names`](@ref) names them and [`last_message`](@ref) explains them.
"""
function fit_notes(model::Model)
    bits = Ref{Int32}(0)
    _check(model, ccall(_fn(:cs_fit_notes), Int32, (Ptr{Cvoid}, Ref{Int32}), model, bits))
    return bits[]
end

"""
    note_names(bits::Integer) -> Vector{Symbol}

The names of the set note bits, e.g. `[:max_iter_reached, :cancelled]`.
"""
note_names(bits::Integer) = [name for (bit, name) in _NOTE_NAMES if bits & bit != 0]

"""
    centres(model::Model) -> Matrix{Float64}

The cluster means of a points fit, `d x k`: column `h` is the mean of the points in
cluster `h` (the same layout as the input of [`fit_points!`](@ref)).
"""
function centres(model::Model)
    k, d = n_classes(model), _n_dims(model)
    buffer = Vector{Float64}(undef, k * d)
    _check(model, ccall(_fn(:cs_centres), Int32, (Ptr{Cvoid}, Ptr{Cdouble}, Csize_t),
                        model, buffer, length(buffer)))
    # C is row-major k x d (centre h is row h): column-major d x k, column h
    return reshape(buffer, d, k)
end

"""
    graph_densities(model::Model) -> (within, between)

Edge densities of a graph fit: the fraction of node pairs inside a community that are
adjacent, and the fraction of pairs across communities that are.
"""
function graph_densities(model::Model)
    within, between = Ref{Cdouble}(0.0), Ref{Cdouble}(0.0)
    _check(model, ccall(_fn(:cs_graph_densities), Int32, (Ptr{Cvoid}, Ref{Cdouble}, Ref{Cdouble}),
                        model, within, between))
    return (within[], between[])
end

end # module

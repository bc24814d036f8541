# SPDX-License-Identifier: MIT
#
# Included by CrowdSpec.jl: 1-based Julia ids to the C API's 0-based `Int32` values
# (`encode` for ids of any type), the progress callback, and the calls that give a
# model its data: `fit!`, `fit_points!`, `fit_graph!`, `predict!`, `set_gold!` and the
# warm start (`set_initial_confusion!`, `set_initial_prior!`, `set_initial_calibration!`).

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

# The three vectors of crowd labels, checked to have one length, as 0-based Int32
# vectors: (n, items, workers, labels). `what` names the caller in errors.
function _crowd_labels(what::AbstractString, items, workers, labels)
    n = _same_length(what, "items" => length(items), "workers" => length(workers),
                     "labels" => length(labels))
    return (n, _zero_based(items, "items", CS_ERR_INVALID_ID),
            _zero_based(workers, "workers", CS_ERR_INVALID_ID),
            _zero_based(labels, "labels", CS_ERR_INVALID_LABEL))
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
    set_initial_calibration!(model::Model, temperature, mixing = 0) -> model

The calibration [`predict!`](@ref) applies with the initial matrices while the model has
no fit of its own: each posterior row becomes `(1 - mixing) q_T + mixing prior`, `q_T`
the E-step's posterior raised to `1 / temperature` and renormalised. Pass a fit's
[`calibration`](@ref) (with its [`confusion`](@ref) and [`class_prior`](@ref)) so that
its items predict as the fit gave them. `temperature` in [1e-6, 1e6], `mixing` in
[0, 1); `(1, 0)`, the default, is none. A fit, and a prediction (kept as the model's
last fit), replace it: later predictions use their matrices and calibration, so set it
before the first [`predict!`](@ref).
"""
function set_initial_calibration!(model::Model, temperature::Real, mixing::Real = 0.0)
    _check(model, ccall(_fn(:cs_set_initial_calibration), Int32, (Ptr{Cvoid}, Cdouble, Cdouble),
                        model, Float64(temperature), Float64(mixing)))
    return model
end

"""
    predict!(model::Model, items, workers, labels) -> model

Label a new batch of items by the workers of the last crowd fit without refitting: one
E-step with that fit's confusion matrices and prior, calibrated as the fit was (before
any fit, those of [`set_initial_confusion!`](@ref), [`set_initial_prior!`](@ref) and
[`set_initial_calibration!`](@ref)). Items are
numbered 1, 2, ... for the batch alone; a worker beyond the fit's workers is weighed as
the average worker (note `:unknown_workers`). Afterwards [`labels`](@ref),
[`posteriors`](@ref), ... describe the batch.
"""
function predict!(model::Model, items::AbstractVector{<:Integer}, workers::AbstractVector{<:Integer},
                  labels::AbstractVector{<:Integer})
    n, it, wk, lb = _crowd_labels("predict!", items, workers, labels)
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
    n, it, wk, lb = _crowd_labels("fit!", items, workers, labels)
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

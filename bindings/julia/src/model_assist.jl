# SPDX-License-Identifier: MIT
# Issue 34: a classifier's probabilities into the next crowd fits, and the scores and
# worker diagnostics of the last one (thin wrappers of the C functions).

"""
    set_model_probs!(model::Model, probs::AbstractMatrix{<:Real}; items=nothing) -> model

A classifier's class probabilities for the next crowd fits (`cs_set_model_probs`): row r
of `probs` (n_rows x k) is item `items[r]` (1-based; `nothing`: row r is item r). The
Dawid-Skene family takes the model as one more worker with an estimated confusion
matrix ([`model_confusion`](@ref)); method "crowdlab" weighs it as CROWDLAB does. An empty
matrix clears them.
"""
function set_model_probs!(model::Model, probs::AbstractMatrix{<:Real}; items=nothing)
    rows, k = size(probs)
    values = Vector{Float64}(vec(permutedims(Float64.(probs))))  # row-major
    if items === nothing
        _check(model, ccall(_fn(:cs_set_model_probs), Int32,
                            (Ptr{Cvoid}, Ptr{Int32}, Ptr{Cdouble}, Csize_t, Int32),
                            model, C_NULL, values, rows, Int32(k)))
    else
        length(items) == rows || throw(ArgumentError("items must have one id per row of probs"))
        ids = _zero_based(items, "items", CS_ERR_INVALID_ID)
        _check(model, ccall(_fn(:cs_set_model_probs), Int32,
                            (Ptr{Cvoid}, Ptr{Int32}, Ptr{Cdouble}, Csize_t, Int32),
                            model, ids, values, rows, Int32(k)))
    end
    return model
end

"""
    predict_model_probs!(model::Model, items, workers, labels, probs; rows=nothing) -> model

[`predict!`](@ref) with a classifier's probabilities for items of the batch
(`cs_predict_model_probs`): row r of `probs` (n_rows x k, k of the fit) is batch item
`rows[r]` (1-based; `nothing`: row r is item r), weighed by the classifier's confusion
matrix the last fit estimated ([`model_confusion`](@ref); a fit after
[`set_model_probs!`](@ref) or a loaded model of one). For an update of a saved model,
[`set_model_probs!`](@ref) (the model's item ids) before [`update!`](@ref).
"""
function predict_model_probs!(model::Model, items::AbstractVector{<:Integer}, workers::AbstractVector{<:Integer},
                              labels::AbstractVector{<:Integer}, probs::AbstractMatrix{<:Real}; rows=nothing)
    n, it, wk, lb = _crowd_labels("predict_model_probs!", items, workers, labels)
    n_rows = size(probs, 1)
    values = Vector{Float64}(vec(permutedims(Float64.(probs))))  # row-major
    ids = C_NULL
    if rows !== nothing
        length(rows) == n_rows || throw(ArgumentError("rows must have one id per row of probs"))
        ids = _zero_based(rows, "rows", CS_ERR_INVALID_ID)
    end
    _check(model, ccall(_fn(:cs_predict_model_probs), Int32,
                        (Ptr{Cvoid}, Ptr{Int32}, Ptr{Int32}, Ptr{Int32}, Csize_t, Ptr{Int32}, Ptr{Cdouble}, Csize_t),
                        model, it, wk, lb, n, ids, values, n_rows))
    return model
end

"""
    model_confusion(model::Model) -> Matrix{Float64}

The classifier's k x k confusion matrix (true class x model label) EM estimated in the
last fit (`cs_model_confusion`).
"""
function model_confusion(model::Model)
    k = n_classes(model)
    buffer = Vector{Float64}(undef, k * k)
    _check(model, ccall(_fn(:cs_model_confusion), Int32, (Ptr{Cvoid}, Ptr{Cdouble}, Csize_t),
                        model, buffer, k * k))
    return permutedims(reshape(buffer, k, k))
end

"""
    label_next(model::Model) -> Vector{Float64}

Each item's "label next" score (`cs_label_next`): the expected fall in the chance that
its label is wrong if one more label is bought from a typical worker.
"""
function label_next(model::Model)
    n = n_items(model)
    buffer = Vector{Float64}(undef, n)
    _check(model, ccall(_fn(:cs_label_next), Int32, (Ptr{Cvoid}, Ptr{Cdouble}, Csize_t),
                        model, buffer, n))
    return buffer
end

"""
    label_wrong(model::Model, items, labels) -> Vector{Float64}

The posterior probability that each given label (1-based items and classes) is wrong
(`cs_label_wrong`).
"""
function label_wrong(model::Model, items::AbstractVector{<:Integer}, labels::AbstractVector{<:Integer})
    n = _same_length("label_wrong", "items" => length(items), "labels" => length(labels))
    it = _zero_based(items, "items", CS_ERR_INVALID_ID)
    lb = _zero_based(labels, "labels", CS_ERR_INVALID_LABEL)
    out = Vector{Float64}(undef, n)
    _check(model, ccall(_fn(:cs_label_wrong), Int32,
                        (Ptr{Cvoid}, Ptr{Int32}, Ptr{Int32}, Csize_t, Ptr{Cdouble}),
                        model, it, lb, n, out))
    return out
end

"""
    worker_diagnostics(model::Model) -> NamedTuple

Per worker (`cs_worker_diagnostics`): `spammer` (Raykar-Yu: 0 spammer .. 1 perfect),
`worst_class` (1-based; 0 without labels), `accuracy` (the share of its labels right,
soft counts) and its 95 % posterior Beta interval `low`, `high`.
"""
function worker_diagnostics(model::Model)
    m = n_workers(model)
    spammer, accuracy, low, high = (Vector{Float64}(undef, m) for _ in 1:4)
    worst = Vector{Int32}(undef, m)
    _check(model, ccall(_fn(:cs_worker_diagnostics), Int32,
                        (Ptr{Cvoid}, Ptr{Cdouble}, Ptr{Int32}, Ptr{Cdouble}, Ptr{Cdouble}, Ptr{Cdouble},
                         Csize_t),
                        model, spammer, worst, accuracy, low, high, m))
    return (spammer=spammer, worst_class=Int.(worst) .+ 1, accuracy=accuracy, low=low, high=high)
end

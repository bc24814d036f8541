# SPDX-License-Identifier: MIT
#
# Included by CrowdSpec.jl: numeric answers and sets of tags (libcrowdspec 0.2).
# `fit_numbers!` and `fit_tags!` give a model its answers (1-based ids and tags, as
# everywhere here); `number_estimates`, `number_workers`, `n_tags`, `tag_probabilities`,
# `tag_sets` and `tag_workers` copy the results out.

"""
    fit_numbers!(model, items, workers, values; progress = nothing) -> model

Estimates a real value per item from answers: worker `workers[t]` gave item `items[t]`
the value `values[t]` (1-based ids). The method is the model's: `"auto"` (=
`"student-t"`), `"mean"`, `"median"`, `"trimmed-mean"`, `"gaussian"`, `"catd"`, `"crh"`.
"""
function fit_numbers!(model::Model, items::AbstractVector{<:Integer}, workers::AbstractVector{<:Integer},
                      values::AbstractVector{<:Real}; progress = nothing)
    n = _same_length("fit_numbers!", "items" => length(items), "workers" => length(workers),
                     "values" => length(values))
    it = _zero_based(items, "items", CS_ERR_INVALID_ID)
    wk = _zero_based(workers, "workers", CS_ERR_INVALID_ID)
    x = Vector{Cdouble}(values)
    status = _with_progress(model, progress) do
        ccall(_fn(:cs_fit_numbers), Int32, (Ptr{Cvoid}, Ptr{Int32}, Ptr{Int32}, Ptr{Cdouble}, Csize_t),
              model, it, wk, x, n)
    end
    _check(model, status)
    return model
end

"""
    fit_tags!(model, items, workers, tags; n_tags = 0, progress = nothing) -> model

Fits sets of tags: worker `workers[t]` ticked the tags `tags[t]` (a vector of 1-based
tag ids, possibly empty) on item `items[t]`; a tag it did not tick is a "no". The
method is the model's: `"auto"` (= `"tag-pooled"`) or any crowd method, run on each tag.
"""
function fit_tags!(model::Model, items::AbstractVector{<:Integer}, workers::AbstractVector{<:Integer},
                   tags::AbstractVector; n_tags::Integer = 0, progress = nothing)
    n = _same_length("fit_tags!", "items" => length(items), "workers" => length(workers), "tags" => length(tags))
    it = _zero_based(items, "items", CS_ERR_INVALID_ID)
    wk = _zero_based(workers, "workers", CS_ERR_INVALID_ID)
    start = zeros(Int64, n + 1)
    for (t, set) in enumerate(tags)
        start[t + 1] = start[t] + length(set)
    end
    flat = _zero_based(collect(Int, Iterators.flatten(tags)), "tags", CS_ERR_INVALID_LABEL)
    status = _with_progress(model, progress) do
        ccall(_fn(:cs_fit_tags), Int32,
              (Ptr{Cvoid}, Ptr{Int32}, Ptr{Int32}, Ptr{Int64}, Ptr{Int32}, Csize_t, Int32),
              model, it, wk, start, flat, n, Int32(n_tags))
    end
    _check(model, status)
    return model
end

"""
    number_estimates(model) -> (value, se)

The estimate of every item of a numbers fit and its standard error.
"""
function number_estimates(model::Model)
    n = n_items(model)
    value, se = Vector{Float64}(undef, n), Vector{Float64}(undef, n)
    _check(model, ccall(_fn(:cs_number_estimates), Int32, (Ptr{Cvoid}, Ptr{Cdouble}, Ptr{Cdouble}, Csize_t),
                        model, value, se, n))
    return (value, se)
end

"""
    number_workers(model) -> (bias, noise)

Each worker's bias (mean of answer - estimate) and noise in a numbers fit.
"""
function number_workers(model::Model)
    m = n_workers(model)
    bias, noise = Vector{Float64}(undef, m), Vector{Float64}(undef, m)
    _check(model, ccall(_fn(:cs_number_workers), Int32, (Ptr{Cvoid}, Ptr{Cdouble}, Ptr{Cdouble}, Csize_t),
                        model, bias, noise, m))
    return (bias, noise)
end

"""
    n_tags(model) -> Int

Number of tags of the last tags fit.
"""
n_tags(model::Model) = Int(_read(model, Csize_t) do n
    ccall(_fn(:cs_n_tags), Int32, (Ptr{Cvoid}, Ref{Csize_t}), model, n)
end)

"""
    tag_probabilities(model) -> Matrix{Float64}

P(tag g applies to item j), items x tags.
"""
function tag_probabilities(model::Model)
    n, t = n_items(model), n_tags(model)
    buffer = Vector{Float64}(undef, n * t)
    _check(model, ccall(_fn(:cs_tag_probabilities), Int32, (Ptr{Cvoid}, Ptr{Cdouble}, Csize_t),
                        model, buffer, length(buffer)))
    return permutedims(reshape(buffer, t, n))  # C is row-major n x t
end

"""
    tag_sets(model; threshold = nothing) -> BitMatrix

The tag sets, items x tags: a tag is in an item's set when its probability is at least
the threshold (`nothing`: 0.5; one number; or one per tag).
"""
function tag_sets(model::Model; threshold = nothing)
    n, t = n_items(model), n_tags(model)
    th = threshold === nothing ? Float64[] : Vector{Float64}(vcat(threshold))
    buffer = Vector{Int32}(undef, n * t)
    _check(model, ccall(_fn(:cs_tag_sets), Int32, (Ptr{Cvoid}, Ptr{Cdouble}, Csize_t, Ptr{Int32}, Csize_t),
                        model, isempty(th) ? C_NULL : th, length(th), buffer, length(buffer)))
    return permutedims(reshape(buffer, t, n)) .!= 0
end

"""
    tag_workers(model) -> (sensitivity, specificity)

Each worker's sensitivity and specificity per tag, workers x tags.
"""
function tag_workers(model::Model)
    m, t = n_workers(model), n_tags(model)
    sens, spec = Vector{Float64}(undef, m * t), Vector{Float64}(undef, m * t)
    _check(model, ccall(_fn(:cs_tag_workers), Int32, (Ptr{Cvoid}, Ptr{Cdouble}, Ptr{Cdouble}, Csize_t),
                        model, sens, spec, length(sens)))
    return (permutedims(reshape(sens, t, m)), permutedims(reshape(spec, t, m)))
end

# SPDX-License-Identifier: MIT
#
# Included by CrowdSpec.jl: saved models (cs_save, cs_save_buffer, cs_load,
# cs_load_buffer) and incremental updates (cs_update, cs_refit).

"""
    save(model::Model, path::AbstractString) -> model
    save(model::Model) -> Vector{UInt8}

Save the model's crowd fit -- parameters, workers, prior, calibration, labels and the EM
statistics an update needs, in the versioned format of docs/saved-models.md -- to the
file `path` (cs_save) or as bytes (cs_save_buffer). Only fits of the Dawid-Skene family
(ds, opt-ds, one-coin-ds, class-one-coin-ds, auto) with `keep_labels = 1` (the default),
loaded models and updated ones can be saved. Throws [`CrowdSpecError`](@ref) otherwise.
"""
function save(model::Model, path::AbstractString)
    _check(model, ccall(_fn(:cs_save), Int32, (Ptr{Cvoid}, Cstring), model, path))
    return model
end

function save(model::Model)
    size = Ref{Csize_t}(0)
    _check(model, ccall(_fn(:cs_save_buffer), Int32, (Ptr{Cvoid}, Ptr{Cvoid}, Csize_t, Ref{Csize_t}),
                        model, C_NULL, 0, size))
    bytes = Vector{UInt8}(undef, size[])
    _check(model, ccall(_fn(:cs_save_buffer), Int32, (Ptr{Cvoid}, Ptr{Cvoid}, Csize_t, Ref{Csize_t}),
                        model, bytes, length(bytes), size))
    return resize!(bytes, size[])
end

"""
    load(path::AbstractString) -> Model
    load(bytes::AbstractVector{UInt8}) -> Model

A model loaded from a saved model: a file that [`save`](@ref), `cs_save` or
`crowdspec fit --save` wrote (cs_load), or the bytes of `save(model)` (cs_load_buffer).
Its results are the saved fit's; [`predict!`](@ref), [`update!`](@ref) and
[`refit!`](@ref) go on from it. Damaged or truncated bytes throw a
[`CrowdSpecError`](@ref) with status `CS_ERR_CORRUPT_MODEL`, a newer format
`CS_ERR_MODEL_VERSION`.
"""
function load(path::AbstractString)
    model = Model()
    _check(model, ccall(_fn(:cs_load), Int32, (Ptr{Cvoid}, Cstring), model, path))
    return model
end

function load(bytes::AbstractVector{UInt8})
    model = Model()
    data = Vector{UInt8}(bytes)
    _check(model, ccall(_fn(:cs_load_buffer), Int32, (Ptr{Cvoid}, Ptr{Cvoid}, Csize_t),
                        model, data, length(data)))
    return model
end

"""
    update!(model::Model, items, workers, labels) -> model

Add crowd labels (1-based ids, as for [`fit!`](@ref); ids beyond the fit's are new items
and workers) to a fitted, loaded or updated model of the Dawid-Skene family and refit
incrementally (cs_update): the E-step of the items they touch, the M-step from the
updated statistics, a few rounds of incremental EM and a rotation over the other items.
The results then cover every item and [`note_names`](@ref) includes `:incremental` --
unless the update was one of the library's automatic full refits: when it would work on
half the labels or more (`update_refit_work`) or the labels doubled since the last full
fit (`update_refit`). On failure the model is unchanged.
"""
function update!(model::Model, items::AbstractVector{<:Integer}, workers::AbstractVector{<:Integer},
                 labels::AbstractVector{<:Integer})
    n, it, wk, lb = _crowd_labels("update!", items, workers, labels)
    _check(model, ccall(_fn(:cs_update), Int32, (Ptr{Cvoid}, Ptr{Int32}, Ptr{Int32}, Ptr{Int32}, Csize_t),
                        model, it, wk, lb, n))
    return model
end

"""
    refit!(model::Model) -> model

Refit every label the model holds in full (cs_refit): the fit from scratch of the same
labels, bit for bit.
"""
function refit!(model::Model)
    _check(model, ccall(_fn(:cs_refit), Int32, (Ptr{Cvoid},), model))
    return model
end

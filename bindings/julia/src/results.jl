# SPDX-License-Identifier: MIT
#
# Included by CrowdSpec.jl: the results of the last fit, copied out of the library
# into Julia arrays (row-major C buffers turned into Julia's layouts): `labels`,
# `posteriors`, `confusion`, `class_prior`, `centres`, `graph_densities`, the posterior
# grades of ordered classes (`median_grades`, `mean_grades`), the sizes and the fit's
# trace, iterations and notes.

# The value of type T a getter writes through its last argument, read with a do-block
# that makes the ccall with the given `Ref{T}`; a failed status raises a CrowdSpecError.
function _read(call, model::Model, ::Type{T}) where {T}
    ref = Ref{T}(zero(T))
    _check(model, call(ref))
    return ref[]
end

"""
    n_items(model::Model) -> Int

Number of items (points, nodes) of the last fit.
"""
n_items(model::Model) = Int(_read(model, Csize_t) do n
    ccall(_fn(:cs_n_items), Int32, (Ptr{Cvoid}, Ref{Csize_t}), model, n)
end)

"""
    n_workers(model::Model) -> Int

Number of workers of the last fit (0 for points and graphs).
"""
n_workers(model::Model) = Int(_read(model, Csize_t) do n
    ccall(_fn(:cs_n_workers), Int32, (Ptr{Cvoid}, Ref{Csize_t}), model, n)
end)

"""
    n_classes(model::Model) -> Int

Number of classes (clusters, communities) k of the last fit.
"""
n_classes(model::Model) = Int(_read(model, Csize_t) do n
    ccall(_fn(:cs_n_classes), Int32, (Ptr{Cvoid}, Ref{Csize_t}), model, n)
end)

_n_dims(model::Model) = Int(_read(model, Csize_t) do n
    ccall(_fn(:cs_n_dims), Int32, (Ptr{Cvoid}, Ref{Csize_t}), model, n)
end)

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
loglikelihood(model::Model) = _read(model, Cdouble) do x
    ccall(_fn(:cs_log_likelihood), Int32, (Ptr{Cvoid}, Ref{Cdouble}), model, x)
end

"""
    iterations(model::Model) -> Int

Completed iterations (EM rounds, Lloyd iterations, ...) of the last fit.
"""
iterations(model::Model) = Int(_read(model, Int32) do n
    ccall(_fn(:cs_iterations), Int32, (Ptr{Cvoid}, Ref{Int32}), model, n)
end)

"""
    converged(model::Model) -> Bool

Whether the last fit met its stopping rule (false after max_iter or a cancel).
"""
converged(model::Model) = !iszero(_read(model, Int32) do c
    ccall(_fn(:cs_converged), Int32, (Ptr{Cvoid}, Ref{Int32}), model, c)
end)

"""
    calibration(model::Model) -> NamedTuple

How the posteriors of the last crowd fit (or prediction) were calibrated: `(temperature,
mixing, source)`. Each posterior row is `(1 - mixing) q_T + mixing prior`, `q_T` the
model's posterior raised to `1 / temperature` and renormalised (with a classifier's
probabilities only the crowd's evidence: its term `m` is left out, `exp((log q - m) / T +
m)`); `source` is `:none`
(temperature 1, mixing 0: not applied -- the parameter `"calibration"` was `"none"`,
the method is not of the Dawid-Skene family, or the fit was cancelled), `:labels`
(the temperature under which held-out labels are best predicted) or `:gold` (both
fitted to at least 10 gold items). Give it to [`set_initial_calibration!`](@ref) to
predict with the fit's workers on another model as the fit did.
"""
function calibration(model::Model)
    temperature, mixing, source = Ref{Cdouble}(1.0), Ref{Cdouble}(0.0), Ref{Int32}(0)
    _check(model, ccall(_fn(:cs_calibration), Int32, (Ptr{Cvoid}, Ref{Cdouble}, Ref{Cdouble}, Ref{Int32}),
                        model, temperature, mixing, source))
    name = source[] == CS_CALIBRATION_NONE ? :none :
           source[] == CS_CALIBRATION_LABELS ? :labels :
           source[] == CS_CALIBRATION_GOLD ? :gold : Symbol("source_", source[])
    return (temperature = temperature[], mixing = mixing[], source = name)
end

"""
    fit_notes(model::Model) -> Int32

The notes of the last fit, a bitwise OR of the `CrowdSpec.CS_NOTE_*` constants (0 =
none); [`note_names`](@ref) names them and [`last_message`](@ref) explains them.
"""
fit_notes(model::Model) = _read(model, Int32) do bits
    ccall(_fn(:cs_fit_notes), Int32, (Ptr{Cvoid}, Ref{Int32}), model, bits)
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

"""
    median_grades(model::Model) -> Vector{Int}

Each item's posterior median grade, 1-based (the lowest class whose cumulative posterior
reaches 1/2), when the classes of the last crowd fit are ordered grades: an ordinal
method (`"ordinal-minimax"`, `"ordinal-ds"`) or the parameter `ordinal = 1`; otherwise a
`CrowdSpecError` (`CS_ERR_INVALID_ARGUMENT`).
"""
function median_grades(model::Model)
    n = n_items(model)
    buffer = Vector{Int32}(undef, n)
    _check(model, ccall(_fn(:cs_median_grades), Int32, (Ptr{Cvoid}, Ptr{Int32}, Csize_t),
                        model, buffer, n))
    return Int.(buffer) .+ 1
end

"""
    mean_grades(model::Model) -> Vector{Float64}

Each item's posterior mean grade in 1-based class positions (1..k), under the conditions
of [`median_grades`](@ref).
"""
function mean_grades(model::Model)
    n = n_items(model)
    buffer = Vector{Float64}(undef, n)
    _check(model, ccall(_fn(:cs_mean_grades), Int32, (Ptr{Cvoid}, Ptr{Cdouble}, Csize_t),
                        model, buffer, n))
    return buffer .+ 1.0
end

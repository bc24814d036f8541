# SPDX-License-Identifier: MIT
#
# Included by CrowdSpec.jl: ranking items from pairwise comparisons
# (cs_fit_comparisons) with the methods "bt", "noisy-bt" and "crowd-bt".

"""
    rank_comparisons(workers, left, right, answers; method = "bt", parameters...)
        -> NamedTuple

Rank items from pairwise comparisons: worker `workers[t]` was shown items `left[t]` and
`right[t]` (1-based ids) and answered `answers[t]`: `:left`, `:right` or `:tie` (or
1, 2, 3). `workers` may be `nothing` (one worker). Keyword parameters are library
parameters by name (`comparison_prior`, `ties`, `max_iter`, ...). Returns
`(scores, se, ranks, reliability, iterations, converged, trace)`: per item the
log-strength s (item i beats item j with probability 1 / (1 + exp(s_j - s_i))), its
standard error and its rank (1 = best); per worker noisy-bt's skill or crowd-bt's eta
(empty for bt).
"""
function rank_comparisons(workers, left::AbstractVector{<:Integer}, right::AbstractVector{<:Integer},
                          answers::AbstractVector; method::AbstractString = "bt", parameters...)
    n = _same_length("rank_comparisons", "left" => length(left), "right" => length(right),
                     "answers" => length(answers))
    codes = Dict(:left => Int32(0), :right => Int32(1), :tie => Int32(2))
    answer = Int32[a isa Symbol ? get(codes, a, Int32(-1)) : Int32(a) - Int32(1) for a in answers]
    ll = _zero_based(left, "left", CS_ERR_INVALID_ID)
    rr = _zero_based(right, "right", CS_ERR_INVALID_ID)
    ww = workers === nothing ? C_NULL :
         _zero_based(workers, "workers", CS_ERR_INVALID_ID)
    workers === nothing || length(workers) == n ||
        throw(_error(CS_ERR_INVALID_ARGUMENT, "rank_comparisons: workers has $(length(workers)) entries, left $n"))
    model = Model(; method = method, parameters...)
    _check(model, ccall(_fn(:cs_fit_comparisons), Int32,
                        (Ptr{Cvoid}, Ptr{Int32}, Ptr{Int32}, Ptr{Int32}, Ptr{Int32}, Csize_t),
                        model, ww, ll, rr, answer, n))
    items = n_items(model)
    scores, se, ranks = Vector{Cdouble}(undef, items), Vector{Cdouble}(undef, items), Vector{Int32}(undef, items)
    _check(model, ccall(_fn(:cs_scores), Int32, (Ptr{Cvoid}, Ptr{Cdouble}, Ptr{Cdouble}, Ptr{Int32}, Csize_t),
                        model, scores, se, ranks, items))
    m = n_workers(model)
    reliability = Vector{Cdouble}(undef, m)
    status = ccall(_fn(:cs_worker_reliability), Int32, (Ptr{Cvoid}, Ptr{Cdouble}, Csize_t), model, reliability, m)
    status == CS_OK || (reliability = Cdouble[])  # bt has no worker parameters
    return (scores = scores, se = se, ranks = Int.(ranks), reliability = reliability,
            iterations = iterations(model), converged = converged(model), trace = objective_trace(model))
end

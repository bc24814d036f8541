# SPDX-License-Identifier: MIT
"""
    CrowdSpec

Julia bindings of crowdspec, a C library that recovers the true labels of items from
noisy crowd labels (by default "auto": Dawid-Skene EM with a prior pooled over workers
of like activity and calibrated posteriors; majority vote, Opt-D&S and the baselines),
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
    set_initial_confusion!, set_initial_prior!, set_initial_calibration!, predict!, calibration,
    labels, posteriors, confusion, class_prior, loglikelihood, iterations, converged,
    fit_notes, note_names, objective_trace, last_message, n_items, n_workers, n_classes,
    centres, graph_densities, median_grades, mean_grades, encode, method_names, method_input,
    param_names, param_info, rank_comparisons,
    fit_numbers!, fit_tags!, number_estimates, number_workers, n_tags, tag_probabilities, tag_sets,
    tag_workers, update!, refit!, set_model_probs!, predict_model_probs!, model_confusion, label_next, label_wrong,
    worker_diagnostics

include("library.jl")   # loading libcrowdspec, the header's constants, CrowdSpecError
include("model.jl")     # Model, parameters, the library's methods and parameters
include("fitting.jl")   # ids and inputs, progress, fit!, fit_points!, fit_graph!, predict!
include("results.jl")   # labels, posteriors, confusion, ... of the last fit
include("ranking.jl")   # rank_comparisons: pairwise comparisons
include("answers.jl")   # numeric answers and sets of tags (0.2): fit_numbers!, fit_tags!
include("saved.jl")     # CrowdSpec.save, CrowdSpec.load (not exported: FileIO has its own), update!, refit!
include("model_assist.jl")  # model probabilities in; label-next scores, worker diagnostics out

end # module

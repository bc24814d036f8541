// SPDX-License-Identifier: MIT
// The degenerate maxima of the Dawid-Skene likelihood (issue 12, item 4), checked once
// after an EM fit, apart from the EM code.
//
// Two classes are confounded by a fit when no worker's confusion matrix tells them
// apart: for every worker, their rows are equal, or one of them is undetermined (the
// class has no posterior mass on the worker's items, so its row is the M-step's
// default). The likelihood then depends only on the confounded classes' total posterior
// mass, and how EM split that mass between them is arbitrary: by the lowest-index rule
// on a tie under the uniform prior (a unanimous crowd, every label 1, k = 5: "every
// class always says 1", posterior 0.2 everywhere, label 0), by an estimated prior that
// nothing in the data identifies otherwise (the prior collapsing onto one class).
#pragma once

#include <cstdint>
#include <vector>

#include "core/fit_result.hpp"
#include "data/crowd_data.hpp"

namespace cs {

/// For an EM fit in `out` (posteriors, confusion, labels): each labelled, non-gold,
/// possible item whose label l is confounded with other classes falls back to majority
/// vote among them: the classes confounded with l (and l) share their posterior mass in
/// proportion to the item's votes for them (nothing changes when nobody voted for any
/// of them), and the label becomes the argmax of the result (ties to the lowest index).
/// Rows count as equal within 1e-6, a class as massless on a worker below 1e-9.
/// Confusion matrices, prior, trace and log-likelihood stay EM's. When an item's
/// label or posterior changed, sets CS_NOTE_DEGENERATE_MAXIMUM and appends the
/// explanation to out.note_message. Returns the number of such items. Runs on
/// threads_for(threads, labels) threads (`threads` as FitOptions::threads); the result is
/// the same for any count.
int64_t resolve_degenerate_ties(const CrowdData &data, FitResult &out, int32_t threads = 1);

/// Whether another class's posterior ties class `top`'s in the row q (k entries):
/// within 1e-4 of it, relative. resolve_degenerate_ties looks at an item whose label is
/// confounded with no class only when its row has such a tie.
bool posterior_tied(const double *q, int32_t k, int32_t top);

/// Whether resolve_degenerate_ties might find some pair of classes confounded by the
/// confusion matrices of `out` (and its model confusion): its test without the
/// posterior masses, which can only find more pairs (O(workers x k^3), no pass over the
/// labels). When false, resolve_degenerate_ties changes only items whose posterior row
/// has a tie (posterior_tied), which lets an incremental update refresh the results of
/// the items it touched alone (crowd/em/incremental.cpp).
bool classes_may_be_confounded(const CrowdData &data, const FitResult &out);

/// resolve_degenerate_ties for the listed items alone (in increasing order), when
/// classes_may_be_confounded is false: each labelled, non-gold item whose row ties is
/// settled as there, and the note counts the listed items that changed. Single thread.
int64_t resolve_ties_of_items(const CrowdData &data, FitResult &out, const std::vector<int32_t> &items);

}  // namespace cs

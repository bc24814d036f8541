// SPDX-License-Identifier: MIT
// Binary relevance (crowd-kit's BinaryRelevance, tags.md): tag g is a binary crowd whose
// labels are, for every answer (item j, worker w), 1 if w ticked g on j and 0 if not.
// The tags share the answers' order and worker index (data/tag_data.hpp); each tag's
// codes worker * 2 + bit are built when the tag is fitted, so memory holds one code
// array per running fit, not one per tag.
#include <algorithm>
#include <exception>
#include <string>

#include "data/crowd_data.hpp"
#include "tags/run_tags.hpp"
#include "util/parallel.hpp"

namespace cs {

namespace {

// Whether some answer ticked g.
std::vector<char> ticked_tags(const TagData &data) {
    std::vector<char> any(static_cast<std::size_t>(data.n_tags), 0);
    for (int32_t g : data.tags) any[static_cast<std::size_t>(g)] = 1;
    return any;
}

// Fits tag g with `base` into the tag's columns of `out`. Returns the tag's fit (its
// iterations, convergence, notes).
FitResult fit_one_tag(const TagData &data, const FitOptions &options, const CrowdFit &base, int32_t g, FitResult &out) {
    const int32_t T = data.n_tags;
    const std::vector<uint32_t> codes = data.tag_codes(g);
    const CrowdData crowd = CrowdData::build_csr(static_cast<std::size_t>(data.n_items()), data.order.item_start.data(),
                                                 codes.data(), 2, options);
    FitResult fit;
    base(crowd, options, fit);
    for (int32_t j = 0; j < data.n_items(); ++j)
        out.tag_probabilities[static_cast<std::size_t>(j) * T + g] = fit.posteriors[static_cast<std::size_t>(j) * 2 + 1];
    for (int32_t w = 0; w < data.n_workers(); ++w) {
        const std::size_t at = static_cast<std::size_t>(w) * T + g;
        if (fit.confusion.size() >= static_cast<std::size_t>(w + 1) * 4) {
            const double *c = fit.confusion.data() + static_cast<std::size_t>(w) * 4;  // true x observed
            out.sensitivity[at] = c[3];
            out.specificity[at] = c[0];
        } else {
            out.sensitivity[at] = 0.5;
            out.specificity[at] = 0.5;
        }
    }
    fit.posteriors.clear();
    fit.confusion.clear();
    return fit;
}

}  // namespace

bool fit_binary_relevance(const TagData &data, const FitOptions &options, const Progress &progress,
                          const CrowdFit &base, FitResult &out) {
    const int32_t T = data.n_tags;
    const std::size_t n = static_cast<std::size_t>(data.n_items()), m = static_cast<std::size_t>(data.n_workers());
    out.tag_probabilities.assign(n * T, 0.0);
    out.sensitivity.assign(m * T, 0.5);
    out.specificity.assign(m * T, 1.0);
    FitOptions tag_options = options;
    tag_options.classes = 2;
    tag_options.items = data.n_items();
    tag_options.workers = data.n_workers();
    tag_options.duplicates = CS_DUPLICATES_REJECT;  // the order has none left
    const std::vector<char> ticked = ticked_tags(data);
    std::vector<int32_t> todo;
    for (int32_t g = 0; g < T; ++g)
        if (ticked[static_cast<std::size_t>(g)]) todo.push_back(g);
    // Tags in parallel, one thread each, in batches of `threads` tags; or one tag at a
    // time on every thread when there are too few tags to go round. Every fit gives the
    // same result on any number of threads.
    const int threads = threads_for(options.threads, static_cast<int64_t>(data.n_answers()) * std::max(1, T));
    const bool across_tags = threads > 1 && static_cast<int>(todo.size()) >= threads;
    if (across_tags) tag_options.threads = 1;
    const int batch = across_tags ? threads : 1;
    std::vector<FitResult> fits(todo.size());
    out.iterations = 0;
    out.converged = true;
    if (progress.cancelled(0, 0.0)) return true;
    for (std::size_t first = 0; first < todo.size(); first += static_cast<std::size_t>(batch)) {
        const std::size_t last = std::min(todo.size(), first + static_cast<std::size_t>(batch));
        std::vector<std::exception_ptr> errors(last - first);
#pragma omp parallel for schedule(dynamic, 1) num_threads(batch) if (batch > 1)
        for (int64_t i = static_cast<int64_t>(first); i < static_cast<int64_t>(last); ++i) {
            try {
                fits[static_cast<std::size_t>(i)] = fit_one_tag(data, tag_options, base, todo[static_cast<std::size_t>(i)], out);
            } catch (...) {
                errors[static_cast<std::size_t>(i) - first] = std::current_exception();
            }
        }
        for (const std::exception_ptr &e : errors)
            if (e) std::rethrow_exception(e);
        if (progress.cancelled(static_cast<int32_t>(last), 0.0)) {
            out.converged = false;
            return true;
        }
    }
    for (std::size_t i = 0; i < fits.size(); ++i) {
        out.iterations = std::max(out.iterations, fits[i].iterations);
        out.converged = out.converged && fits[i].converged;
        out.notes |= fits[i].notes & ~CS_NOTE_UNLABELED_ITEMS;
        if (!fits[i].note_message.empty() && (fits[i].notes & ~CS_NOTE_UNLABELED_ITEMS))
            out.note_message += "tag " + std::to_string(todo[i]) + ": " + fits[i].note_message + " ";
    }
    return false;
}

}  // namespace cs

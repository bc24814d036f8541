// SPDX-License-Identifier: MIT
#include "tags/run_tags.hpp"

#include <string>

namespace cs {

namespace {

void start_result(const TagData &data, FitResult &out) {
    out.input_kind = CS_INPUT_TAGS;
    out.n_items = data.n_items();
    out.n_workers = data.n_workers();
    out.n_tags = data.n_tags;
    out.k = 0;
}

bool finish_result(const TagData &data, bool cancelled, FitResult &out) {
    if (cancelled) {
        out.converged = false;
        out.notes |= CS_NOTE_CANCELLED;  // as every method's fit: cs_fit_notes() says why it stopped
    }
    const int32_t unanswered = data.order.unanswered_items();
    if (unanswered > 0) {
        out.notes |= CS_NOTE_UNLABELED_ITEMS;
        out.note_message += std::to_string(unanswered) +
                            " items have no answers; each tag's probability there is the tag's base rate (0 under "
                            "methods that estimate none). ";
    }
    if (!out.note_message.empty() && out.note_message.back() == ' ') out.note_message.pop_back();
    return cancelled;
}

}  // namespace

bool run_tags_method(const TagData &data, const FitOptions &options, const Progress &progress, TagsMethod method,
                     FitResult &out) {
    start_result(data, out);
    return finish_result(data, method(data, options, progress, out), out);
}

bool run_tags_binary_relevance(const TagData &data, const FitOptions &options, const Progress &progress,
                               const CrowdFit &base, FitResult &out) {
    start_result(data, out);
    return finish_result(data, fit_binary_relevance(data, options, progress, base, out), out);
}

}  // namespace cs

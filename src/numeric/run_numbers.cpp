// SPDX-License-Identifier: MIT
#include "numeric/run_numbers.hpp"

#include <cmath>
#include <string>

#include "numeric/answer_stats.hpp"

namespace cs {

bool run_numbers_method(const NumericData &data, const FitOptions &options, const Progress &progress,
                        NumbersMethod method, FitResult &out) {
    out.input_kind = CS_INPUT_NUMBERS;
    out.n_items = data.n_items();
    out.n_workers = data.n_workers();
    out.k = 0;
    const bool cancelled = method(data, options, progress, out);
    if (cancelled) {
        out.converged = false;
        out.notes |= CS_NOTE_CANCELLED;  // as every method's fit: cs_fit_notes() says why it stopped
    }
    if (out.worker_bias.empty() || out.worker_noise.empty())
        residual_worker_stats(data, out.values, out.worker_bias, out.worker_noise);
    const int32_t unanswered = data.order.unanswered_items();
    if (unanswered > 0) {
        const AnswerMoments moments = answer_moments(data);
        for (int32_t j = 0; j < data.n_items(); ++j)
            if (data.order.item_start[j + 1] == data.order.item_start[j]) {
                out.values[j] = moments.mean;
                out.standard_errors[j] = std::sqrt(moments.variance);
            }
        out.notes |= CS_NOTE_UNLABELED_ITEMS;
        out.note_message += std::to_string(unanswered) +
                            " items have no answers; their estimate is the mean of all answers and its standard "
                            "error their standard deviation. ";
    }
    if (out.notes & CS_NOTE_VARIANCE_FLOOR)
        out.note_message += "some workers' noise variance reached its floor (1e-6 x the answers' variance): they "
                            "agree exactly with the estimates, typically as the only answerer of their items. ";
    if (!out.note_message.empty() && out.note_message.back() == ' ') out.note_message.pop_back();
    return cancelled;
}

}  // namespace cs

// SPDX-License-Identifier: MIT
#include "crowd/em/warm_start.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "crowd/em/model_worker.hpp"
#include "crowd/voting/majority_vote.hpp"
#include "util/error.hpp"

namespace cs {

namespace {

// Normalise each row of k values to sum 1; rows summing to 0 are left as zeros and
// reported in `unknown` (when given). Throws when a value is not finite.
void normalise_rows(std::vector<double> &values, int32_t k, std::vector<uint8_t> *unknown) {
    const std::size_t rows = values.size() / static_cast<std::size_t>(k);
    if (unknown != nullptr) unknown->assign(rows, 0);
    for (std::size_t r = 0; r < rows; ++r) {
        double *row = values.data() + r * k;
        double sum = 0.0;
        for (int32_t c = 0; c < k; ++c) sum += row[c];
        if (sum == 0.0) {
            if (unknown != nullptr) (*unknown)[r] = 1;
            continue;
        }
        if (!std::isfinite(sum))
            throw Error(CS_ERR_INVALID_ARGUMENT, "row " + std::to_string(r) + " of the initial values sums to " +
                                                     std::to_string(sum));
        for (int32_t c = 0; c < k; ++c) row[c] /= sum;
    }
}

std::string count(std::size_t n) { return std::to_string(n); }

}  // namespace

void check_initial_values(const std::vector<double> &values, const char *what) {
    for (std::size_t i = 0; i < values.size(); ++i)
        if (!std::isfinite(values[i]) || values[i] < 0.0)
            throw Error(CS_ERR_INVALID_ARGUMENT, std::string(what) + "[" + std::to_string(i) + "] = " +
                                                     std::to_string(values[i]) +
                                                     ": values must be finite and >= 0");
}

bool takes_initial_params(int32_t method) { return is_ds_family(method); }

bool fit_from_initial(const CrowdData &data, const FitOptions &options, const Progress &progress,
                      const InitialParams &initial, FitResult &out) {
    const int32_t k = data.k;
    const std::size_t kk = static_cast<std::size_t>(k) * k;
    const std::size_t want = static_cast<std::size_t>(data.n_workers) * kk;
    if (initial.confusion.empty())
        throw Error(CS_ERR_INVALID_ARGUMENT,
                    "an initial prior was set without initial confusion matrices (cs_set_initial_confusion): "
                    "EM starts from both");
    if (initial.confusion.size() != want)
        throw Error(CS_ERR_INVALID_ARGUMENT,
                    "the initial confusion has " + count(initial.confusion.size()) + " values; this fit needs " +
                        count(data.n_workers) + " workers x " + count(k) + " x " + count(k) + " = " +
                        count(want) + " (set CS_PARAM_WORKERS and CS_PARAM_CLASSES to fix the sizes)");
    if (!initial.prior.empty() && initial.prior.size() != static_cast<std::size_t>(k))
        throw Error(CS_ERR_INVALID_ARGUMENT, "the initial prior has " + count(initial.prior.size()) +
                                                 " values; this fit has " + count(k) + " classes");

    const FitOptions em = em_options(options);

    EmStart start;
    DsParams &params = start.params;
    params.confusion = initial.confusion;
    std::vector<uint8_t> unknown;
    normalise_rows(params.confusion, k, &unknown);
    // A worker with an all-zero row is unknown as a whole (the M-step estimate of one
    // row alone would mix two starts): it starts from the majority-vote estimate.
    std::vector<uint8_t> unknown_worker(static_cast<std::size_t>(data.n_workers), 0);
    bool any_unknown = false;
    for (std::size_t r = 0; r < unknown.size(); ++r)
        if (unknown[r]) unknown_worker[r / static_cast<std::size_t>(k)] = 1, any_unknown = true;
    if (any_unknown) {
        DsParams vote;
        m_step(data, soft_majority_vote(data), em, vote);
        for (int32_t i = 0; i < data.n_workers; ++i)
            if (unknown_worker[i])
                std::copy(vote.confusion.begin() + i * kk, vote.confusion.begin() + (i + 1) * kk,
                          params.confusion.begin() + i * kk);
    }
    params.prior.assign(static_cast<std::size_t>(k), 1.0 / k);
    if (!initial.prior.empty() && options.prior == CS_PRIOR_ESTIMATED) {
        params.prior = initial.prior;
        double sum = 0.0;
        for (double w : params.prior) sum += w;
        if (!(sum > 0.0) || !std::isfinite(sum))
            throw Error(CS_ERR_INVALID_ARGUMENT, "the initial prior sums to " + std::to_string(sum));
        for (double &w : params.prior) w /= sum;
    }
    return run_em(data, em, progress, std::move(start), out);
}

DsParams initial_for_prediction(const InitialParams &initial, int32_t classes) {
    const std::size_t n = initial.confusion.size();
    const int32_t k = initial.prior.empty() ? classes : static_cast<int32_t>(initial.prior.size());
    if (k < 2)
        throw Error(CS_ERR_INVALID_ARGUMENT,
                    "cs_predict without a fit needs the number of classes: set an initial prior "
                    "(cs_set_initial_prior) or CS_PARAM_CLASSES");
    if (n == 0 || n % (static_cast<std::size_t>(k) * k) != 0)
        throw Error(CS_ERR_INVALID_ARGUMENT, "the initial confusion has " + count(n) +
                                                 " values, not a whole number of " + count(k) + " x " + count(k) +
                                                 " matrices");
    DsParams params;
    params.confusion = initial.confusion;
    std::vector<uint8_t> unknown;
    normalise_rows(params.confusion, k, &unknown);
    for (std::size_t r = 0; r < unknown.size(); ++r)
        if (unknown[r]) std::fill(params.confusion.begin() + r * k, params.confusion.begin() + (r + 1) * k, 1.0 / k);
    params.prior = initial.prior.empty() ? std::vector<double>(static_cast<std::size_t>(k), 1.0 / k) : initial.prior;
    normalise_rows(params.prior, k, nullptr);
    double sum = 0.0;
    for (double w : params.prior) sum += w;
    if (!(sum > 0.0)) throw Error(CS_ERR_INVALID_ARGUMENT, "the initial prior sums to 0");
    return params;
}

void predict_items(const CrowdData &data, const FitOptions &options, const DsParams &known,
                   int32_t known_workers, FitResult &out) {
    const int32_t k = data.k;
    const std::size_t kk = static_cast<std::size_t>(k) * k;
    DsParams params;
    params.prior = known.prior;
    params.confusion.assign(static_cast<std::size_t>(data.n_workers) * kk, 0.0);
    std::copy(known.confusion.begin(), known.confusion.begin() + static_cast<std::size_t>(known_workers) * kk,
              params.confusion.begin());
    int32_t unknown = 0;
    if (data.n_workers > known_workers && known_workers > 0) {
        // The average worker: the mean of the known matrices, entry by entry (rows
        // still sum to 1).
        std::vector<double> mean(kk, 0.0);
        for (int32_t i = 0; i < known_workers; ++i)
            for (std::size_t e = 0; e < kk; ++e) mean[e] += known.confusion[i * kk + e] / known_workers;
        std::vector<uint8_t> labelled(static_cast<std::size_t>(data.n_workers), 0);
        for (uint32_t code : data.item_code) labelled[code / static_cast<uint32_t>(k)] = 1;
        for (int32_t i = known_workers; i < data.n_workers; ++i) {
            std::copy(mean.begin(), mean.end(), params.confusion.begin() + i * kk);
            unknown += labelled[i];
        }
    }
    // The classifier (issue 34): its terms at the fit's pi_M when the batch has rows.
    if (has_model(data)) params.model_confusion = known.model_confusion;
    const EStep e = e_step(data, params, options, out.posteriors);
    out.model_confusion = known.model_confusion;  // kept for the next batch
    out.labels = argmax_labels(out.posteriors, data.n_items, k);
    out.confusion = std::move(params.confusion);
    out.prior = std::move(params.prior);
    out.trace.assign(1, e.log_likelihood);
    out.has_log_likelihood = true;
    out.iterations = 0;
    out.converged = true;
    out.n_items = data.n_items;
    out.n_workers = data.n_workers;
    out.k = k;
    if (unknown > 0) {
        out.notes |= CS_NOTE_UNKNOWN_WORKERS;
        out.note_message += std::to_string(unknown) + " workers of the batch were not in the fit (ids >= " +
                            std::to_string(known_workers) +
                            "); their labels were weighed by the mean of the known workers' matrices. ";
    }
    const int32_t unlabeled = data.unlabeled_items();
    if (unlabeled > 0) {
        out.notes |= CS_NOTE_UNLABELED_ITEMS;
        out.note_message += std::to_string(unlabeled) + " items of the batch have no labels; their posterior is the prior. ";
    }
    if (e.impossible_items > 0) {
        out.notes |= CS_NOTE_IMPOSSIBLE_ITEMS;
        out.note_message += impossible_items_note(e);
    }
    if (!out.note_message.empty() && out.note_message.back() == ' ') out.note_message.pop_back();
}

}  // namespace cs

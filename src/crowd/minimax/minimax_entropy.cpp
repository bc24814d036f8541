// SPDX-License-Identifier: MIT
#include "crowd/minimax/minimax_entropy.hpp"

#include <cmath>
#include <numeric>
#include <string>

#include "crowd/em/dawid_skene.hpp"
#include "crowd/minimax/minimax_model.hpp"
#include "crowd/voting/majority_vote.hpp"
#include "util/rng.hpp"

namespace cs {

namespace {

struct Triples {
    std::vector<int32_t> item, worker, label;
};

// The start posteriors of Algorithm 1: the paper's soft majority vote (eq. 15), or
// those of a ds fit with the caller's options (CS_PARAM_MINIMAX_START; docs/defaults.md
// measures both).
std::vector<double> start_posteriors(const CrowdData &data, const FitOptions &options) {
    if (options.minimax_start != CS_MINIMAX_START_DS) return soft_majority_vote(data, options.threads);
    FitOptions ds = options;
    ds.method = CS_METHOD_DS;
    FitResult result;
    result.n_items = data.n_items;
    result.n_workers = data.n_workers;
    result.k = data.k;
    fit_ds(data, ds, Progress(), result);
    return result.posteriors;
}

// The labels of the fold `fold` (held) or of every other fold, as CrowdData of the same
// items, workers and classes as `data`, with its gold.
CrowdData fold_data(const CrowdData &data, const std::vector<int32_t> &fold_of, int32_t fold, bool held,
                    const FitOptions &options) {
    Triples t;
    for (int32_t j = 0; j < data.n_items; ++j)
        for (int64_t p = data.item_start[j]; p < data.item_start[j + 1]; ++p) {
            if ((fold_of[static_cast<std::size_t>(p)] == fold) != held) continue;
            t.item.push_back(j);
            t.worker.push_back(data.worker_of(p));
            t.label.push_back(data.label_of(p));
        }
    std::vector<int32_t> gold_item, gold_label;
    for (int32_t j = 0; j < data.n_items; ++j)
        if (data.gold_of(j) >= 0) {
            gold_item.push_back(j);
            gold_label.push_back(data.gold_of(j));
        }
    FitOptions sized = options;
    sized.items = data.n_items;
    sized.workers = data.n_workers;
    sized.classes = data.k;
    return CrowdData::build(t.item.data(), t.worker.data(), t.label.data(), t.item.size(), sized, gold_item,
                            gold_label);
}

bool fit_minimax(const CrowdData &data, const FitOptions &options, const Progress &progress, bool ordinal,
                 FitResult &out) {
    const double gamma = minimax_gamma(data, options, ordinal);
    const MinimaxSpec spec = minimax_spec(data, ordinal, gamma);
    MinimaxFit fit = fit_minimax_model(data, spec, options, progress, start_posteriors(data, options));
    out.posteriors = std::move(fit.posteriors);
    out.labels = argmax_labels(out.posteriors, data.n_items, data.k);
    out.prior.assign(static_cast<std::size_t>(data.k), 1.0 / data.k);  // the model's uniform class prior
    out.confusion = minimax_confusion(data, spec, fit.params, options.threads);
    out.trace = std::move(fit.trace);
    out.iterations = fit.iterations;
    out.converged = fit.converged;
    out.has_log_likelihood = true;
    note_fit_end(options, fit.cancelled, out);
    return fit.cancelled;
}

}  // namespace

const std::vector<double> &minimax_gamma_grid() {
    static const std::vector<double> grid = {0.25, 0.5, 1.0, 2.0, 4.0};
    return grid;
}

std::vector<double> minimax_cv_scores(const CrowdData &data, const FitOptions &options, bool ordinal,
                                      int32_t folds, const std::vector<double> &grid) {
    const int64_t n_labels = static_cast<int64_t>(data.n_labels());
    if (folds < 2 || n_labels < 2 * static_cast<int64_t>(folds)) return {};
    // A random permutation of the labels (Fisher-Yates from the seed), dealt into the
    // folds in turn: every fold holds floor or ceil(labels / folds) labels.
    std::vector<int64_t> order(static_cast<std::size_t>(n_labels));
    std::iota(order.begin(), order.end(), int64_t{0});
    Rng rng(options.seed);
    for (int64_t e = n_labels - 1; e > 0; --e)
        std::swap(order[static_cast<std::size_t>(e)], order[rng.below(static_cast<uint64_t>(e + 1))]);
    std::vector<int32_t> fold_of(static_cast<std::size_t>(n_labels));
    for (int64_t e = 0; e < n_labels; ++e) fold_of[static_cast<std::size_t>(order[e])] = static_cast<int32_t>(e % folds);
    std::vector<double> score(grid.size(), 0.0);
    for (int32_t f = 0; f < folds; ++f) {
        const CrowdData train = fold_data(data, fold_of, f, false, options);
        const CrowdData held = fold_data(data, fold_of, f, true, options);
        const std::vector<double> start = start_posteriors(train, options);
        for (std::size_t g = 0; g < grid.size(); ++g) {
            const MinimaxSpec spec = minimax_spec(train, ordinal, grid[g]);
            const MinimaxFit fit = fit_minimax_model(train, spec, options, Progress(), start);
            score[g] += heldout_log_likelihood(held, spec, fit, options.threads);
        }
    }
    for (double &s : score) s /= static_cast<double>(n_labels);
    return score;
}

double minimax_gamma(const CrowdData &data, const FitOptions &options, bool ordinal) {
    if (options.gamma > 0.0) return options.gamma;
    const std::vector<double> score = minimax_cv_scores(data, options, ordinal, options.cv_folds);
    if (score.empty()) return kMinimaxDefaultGamma;
    std::size_t best = 0;
    for (std::size_t g = 1; g < score.size(); ++g)
        if (score[g] > score[best]) best = g;
    return minimax_gamma_grid()[best];
}

bool fit_minimax_entropy(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out) {
    return fit_minimax(data, options, progress, false, out);
}

bool fit_ordinal_minimax(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out) {
    return fit_minimax(data, options, progress, true, out);
}

}  // namespace cs

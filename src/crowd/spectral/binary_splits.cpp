// SPDX-License-Identifier: MIT
#include "crowd/spectral/binary_splits.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "crowd/em/dawid_skene.hpp"
#include "crowdspec/crowdspec.h"

namespace cs {

namespace {

// Majority sign of split s: sign of O 1, the number of labels above the split minus
// the number at or below it (0 on a tie or without labels).
std::vector<int8_t> majority_signs(const CrowdData &data, int32_t split) {
    const std::vector<int64_t> sums = split_row_sums(data, split);
    std::vector<int8_t> t(sums.size());
    for (std::size_t j = 0; j < sums.size(); ++j) t[j] = sums[j] > 0 ? 1 : sums[j] < 0 ? -1 : 0;
    return t;
}

// Class identification of a binary split (crowd/spectral/class_identification.hpp): of the two
// orientations of the signs, the one that agrees more with the split's soft majority
// vote. With p_j the share of item j's labels above the split, the agreement of t is
// sum_{t_j = +1} p_j + sum_{t_j = -1} (1 - p_j), and flipping t changes it by
// -sum_j t_j (2 p_j - 1) = -sum_j t_j (O 1)_j / n_j. On a tie the method's own rule stands.
void orient_by_vote(const CrowdData &data, int32_t split, std::vector<int8_t> &t) {
    const std::vector<int64_t> sums = split_row_sums(data, split);
    double agreement = 0.0;
    for (int32_t j = 0; j < data.n_items; ++j) {
        const int64_t votes = data.item_start[j + 1] - data.item_start[j];
        if (votes > 0) agreement += t[j] * static_cast<double>(sums[j]) / static_cast<double>(votes);
    }
    if (agreement < 0.0)
        for (int8_t &tj : t) tj = static_cast<int8_t>(-tj);
}

}  // namespace

SplitMatrix split_matrix(const CrowdData &data, int32_t split) {
    return SplitMatrix(data.n_items, data.n_workers, data.item_start.data(),
                       SplitEntry{&data, split});
}

std::vector<int64_t> split_row_sums(const CrowdData &data, int32_t split) {
    std::vector<int64_t> sums(static_cast<std::size_t>(data.n_items), 0);
    for (int32_t j = 0; j < data.n_items; ++j)
        for (int64_t p = data.item_start[j]; p < data.item_start[j + 1]; ++p)
            sums[j] += split_sign(data.label_of(p), split);
    return sums;
}

std::vector<int8_t> tie_signs(const std::vector<double> &score) {
    double top = 0.0;
    for (double s : score) top = std::max(top, std::fabs(s));
    const double tie = kTieTolerance * top;
    std::vector<int8_t> t(score.size(), 0);
    if (!(top > 0.0) || !std::isfinite(top)) return t;  // no signal at all: every item ties
    for (std::size_t j = 0; j < score.size(); ++j)
        t[j] = score[j] > tie ? 1 : score[j] < -tie ? -1 : 0;
    return t;
}

std::vector<int32_t> combine_splits(const std::vector<int8_t> &t, int32_t n_items, int32_t k) {
    const int32_t splits = k - 1;
    std::vector<int32_t> classes(static_cast<std::size_t>(n_items), k - 1);
    for (int32_t j = 0; j < n_items; ++j)
        for (int32_t s = 0; s < splits; ++s)
            if (t[static_cast<int64_t>(j) * splits + s] == -1) {
                classes[j] = s;
                break;
            }
    return classes;
}

SplitOutcome missing_vector(bool cancelled, int32_t max_iter, const std::string &problem) {
    if (cancelled || max_iter == 0) return SplitOutcome{};  // NotRun
    return degenerate_split(problem);
}

SplitOutcome degenerate_split(std::string problem) {
    SplitOutcome outcome;
    outcome.kind = SplitOutcome::Kind::Degenerate;
    outcome.problem = std::move(problem);
    return outcome;
}

SplitOutcome split_signs(std::vector<int8_t> t, bool flip, bool converged) {
    SplitOutcome outcome;
    outcome.t = std::move(t);
    if (flip)
        for (int8_t &tj : outcome.t) tj = static_cast<int8_t>(-tj);
    outcome.kind = SplitOutcome::Kind::Signs;
    outcome.converged = converged;
    return outcome;
}

EigenResult top_split_vector(int64_t dim, const BlockOperator &apply, const FitOptions &options, Rng &rng,
                             SplitRun &run) {
    EigenOptions eigen;
    eigen.k = 1;
    eigen.max_iter = options.max_iter;
    eigen.tol = options.tol;
    eigen.observer = run.observer();
    return top_eigenpairs(dim, apply, eigen, rng);
}

SplitRun::SplitRun(const CrowdData &data, const FitOptions &options, const Progress &progress,
                   const char *method_name, FitResult &out)
    : data_(data), options_(options), progress_(progress), name_(method_name), out_(out) {
    const int32_t splits = data.k - 1;
    t_.assign(static_cast<std::size_t>(data.n_items) * splits, 0);
    done_.assign(static_cast<std::size_t>(splits), 0);
    out_.trace.clear();
    out_.has_log_likelihood = false;
    out_.iterations = 0;
    cancelled_ = progress_.cancelled(0, 0.0);
}

bool SplitRun::step() {
    if (cancelled_) return true;
    ++out_.iterations;
    out_.trace.push_back(0.0);
    cancelled_ = progress_.cancelled(out_.iterations, 0.0);
    return cancelled_;
}

void SplitRun::set(int32_t split, SplitOutcome outcome) {
    const int32_t splits = data_.k - 1;
    std::vector<int8_t> t;
    switch (outcome.kind) {
        case SplitOutcome::Kind::Signs:
            t = std::move(outcome.t);
            if (options_.identify == CS_IDENTIFY_VOTE) orient_by_vote(data_, split, t);
            if (!outcome.converged && !cancelled_) {
                all_converged_ = false;
                unconverged_ += (unconverged_.empty() ? "" : ", ") + std::to_string(split);
            }
            break;
        case SplitOutcome::Kind::Degenerate:
            t = majority_signs(data_, split);
            out_.notes |= CS_NOTE_SPECTRAL_FALLBACK;
            out_.note_message += name_ + ": split " + std::to_string(split) + " (label > " +
                                 std::to_string(split) + "): " + outcome.problem +
                                 "; its items take the majority sign of the split instead. ";
            break;
        case SplitOutcome::Kind::NotRun:
            t = majority_signs(data_, split);
            all_converged_ = false;
            break;
    }
    for (int32_t j = 0; j < data_.n_items; ++j) t_[static_cast<int64_t>(j) * splits + split] = t[j];
    done_[split] = 1;
}

bool SplitRun::finish() {
    const int32_t k = data_.k, n = data_.n_items;
    for (int32_t s = 0; s < k - 1; ++s)
        if (!done_[s]) set(s, SplitOutcome{});  // cut short by cancellation: majority sign
    const std::vector<int32_t> classes = combine_splits(t_, n, k);

    out_.posteriors.assign(static_cast<std::size_t>(n) * k, 0.0);
    for (int32_t j = 0; j < n; ++j) {
        double *qj = out_.posteriors.data() + static_cast<int64_t>(j) * k;
        const int32_t gold = data_.gold_of(j);
        if (gold >= 0)
            qj[gold] = 1.0;
        else if (data_.item_start[j] == data_.item_start[j + 1])
            std::fill(qj, qj + k, 1.0 / k);  // no labels: no information
        else
            qj[classes[j]] = 1.0;
    }
    out_.labels = argmax_labels(out_.posteriors, n, k);
    DsParams params;
    m_step(data_, out_.posteriors, options_, params);
    out_.confusion = std::move(params.confusion);
    out_.prior = std::move(params.prior);

    out_.converged = all_converged_ && !cancelled_;
    if (!unconverged_.empty() && options_.max_iter > 0 && options_.tol > 0.0) {
        out_.notes |= CS_NOTE_MAX_ITER_REACHED;
        out_.note_message += name_ + ": split(s) " + unconverged_ + " stopped at max_iter = " +
                             std::to_string(options_.max_iter) +
                             " iterations before meeting tol; their signs are those of the "
                             "last iterate. ";
    }
    if (cancelled_) out_.notes |= CS_NOTE_CANCELLED;
    return cancelled_;
}

}  // namespace cs

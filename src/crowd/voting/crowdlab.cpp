// SPDX-License-Identifier: MIT
#include "crowd/voting/crowdlab.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "crowd/em/dawid_skene.hpp"
#include "util/error.hpp"

namespace cs {

namespace {

constexpr double kClip = 1e-6;  // the paper's lower bound on errors and weights

struct Weights {
    std::vector<double> worker;  // w_i
    double model = 0.0;          // w_M
    double agreement = 0.0;      // P
};

int32_t argmax(const double *v, int32_t k) {
    int32_t best = 0;
    for (int32_t l = 1; l < k; ++l)
        if (v[l] > v[best]) best = l;
    return best;
}

class Crowdlab {
public:
    explicit Crowdlab(const CrowdData &data) : d_(data), k_(data.k), uniform_(static_cast<std::size_t>(data.k), 1.0 / data.k) {}

    bool shared_items() const { return multi_ > 0; }

    // The two passes: the first (weights from majority vote) is iteration 0, the
    // start; the second (weights from y_best) iteration 1. False when cancelled (the
    // first pass's results are kept).
    bool run(const Progress &progress, FitResult &out) {
        co_agreement();
        std::vector<int32_t> y = majority_vote();
        Weights w = weights(y);
        std::vector<double> p = ensemble(w);
        keep(p, w, 0, out);
        if (progress.cancelled(0, 0.0)) return false;
        // y_best: the ensemble's argmax; a tie with the majority label keeps it.
        for (int32_t j = 0; j < d_.n_items; ++j) {
            const double *pj = p.data() + static_cast<int64_t>(j) * k_;
            const int32_t best = argmax(pj, k_);
            if (pj[best] > pj[y[j]]) y[j] = best;
        }
        w = weights(y);
        keep(ensemble(w), w, 1, out);
        out.trace.push_back(0.0);
        return !progress.cancelled(1, 0.0);
    }

    // A pass's results: posteriors p_CR, labels their argmax (see crowdlab.hpp), weights.
    void keep(std::vector<double> p, const Weights &w, int32_t pass, FitResult &out) const {
        out.posteriors = std::move(p);
        out.labels = argmax_labels(out.posteriors, d_.n_items, k_);
        out.estimates.clear();
        out.estimates.push_back({"annotator_weight", d_.n_workers, 1, w.worker});
        out.estimates.push_back({"model_weight", 1, 1, {w.model}});
        out.iterations = pass;
    }

    int32_t labels_of(int32_t j) const { return static_cast<int32_t>(d_.item_start[j + 1] - d_.item_start[j]); }
    // The model's row of item j; uniform (no information) without model probabilities.
    const double *model(int32_t j) const {
        return d_.model_probs != nullptr ? d_.model_probs + static_cast<int64_t>(j) * k_ : uniform_.data();
    }

    // s_i: each worker's agreement with its co-workers (independent of the consensus).
    void co_agreement() {
        std::vector<double> agree(static_cast<std::size_t>(d_.n_workers), 0.0), pairs(agree.size(), 0.0);
        std::vector<int32_t> count(static_cast<std::size_t>(k_));
        class_total_.assign(static_cast<std::size_t>(k_), 0.0);
        multi_ = 0;
        for (int32_t j = 0; j < d_.n_items; ++j) {
            const int32_t n = labels_of(j);
            for (int64_t p = d_.item_start[j]; p < d_.item_start[j + 1]; ++p) class_total_[d_.label_of(p)] += 1.0;
            if (n < 2) continue;
            ++multi_;
            std::fill(count.begin(), count.end(), 0);
            for (int64_t p = d_.item_start[j]; p < d_.item_start[j + 1]; ++p) ++count[d_.label_of(p)];
            for (int64_t p = d_.item_start[j]; p < d_.item_start[j + 1]; ++p) {
                agree[d_.worker_of(p)] += count[d_.label_of(p)] - 1;
                pairs[d_.worker_of(p)] += n - 1;
            }
        }
        double sum = 0.0;
        int32_t shared = 0;
        share_.assign(static_cast<std::size_t>(d_.n_workers), -1.0);
        for (int32_t i = 0; i < d_.n_workers; ++i)
            if (pairs[i] > 0.0) {
                share_[i] = agree[i] / pairs[i];
                sum += share_[i];
                ++shared;
            }
        for (double &s : share_)
            if (s < 0.0) s = shared > 0 ? sum / shared : 1.0;
    }

    // Majority vote with the paper's tie-breaks (see crowdlab.hpp).
    std::vector<int32_t> majority_vote() const {
        std::vector<int32_t> y(static_cast<std::size_t>(d_.n_items));
        std::vector<int32_t> votes(static_cast<std::size_t>(k_));
        std::vector<double> quality(static_cast<std::size_t>(k_));
        for (int32_t j = 0; j < d_.n_items; ++j) {
            std::fill(votes.begin(), votes.end(), 0);
            std::fill(quality.begin(), quality.end(), 0.0);
            for (int64_t p = d_.item_start[j]; p < d_.item_start[j + 1]; ++p) {
                ++votes[d_.label_of(p)];
                quality[d_.label_of(p)] += share_[d_.worker_of(p)];
            }
            const double *pm = model(j);
            int32_t best = 0;
            for (int32_t l = 1; l < k_; ++l) {
                const auto key = [&](int32_t c) {
                    return std::make_tuple(votes[c], pm[c], class_total_[c], quality[c]);
                };
                if (key(l) > key(best)) best = l;
            }
            const int32_t gold = d_.gold_of(j);
            y[j] = gold >= 0 ? gold : best;
        }
        return y;
    }

    Weights weights(const std::vector<int32_t> &y) const {
        Weights w;
        if (multi_ == 0) {  // nothing to measure agreement on: see crowdlab.hpp
            w.worker.assign(static_cast<std::size_t>(d_.n_workers), 1.0);
            w.model = 1.0;
            w.agreement = 1.0;
            return w;
        }
        std::vector<int64_t> consensus(static_cast<std::size_t>(k_), 0);
        double agreement = 0.0, model_errors = 0.0, labels = 0.0;
        int32_t labelled = 0;
        for (int32_t j = 0; j < d_.n_items; ++j) {
            const int32_t n = labels_of(j);
            if (n > 0) {
                labels += n;
                ++labelled;
            }
            if (n < 2) continue;
            int32_t same = 0;
            for (int64_t p = d_.item_start[j]; p < d_.item_start[j + 1]; ++p) same += d_.label_of(p) == y[j];
            agreement += static_cast<double>(same) / n;
            ++consensus[y[j]];
            model_errors += argmax(model(j), k_) != y[j];
        }
        const double multi = static_cast<double>(multi_);
        w.agreement = agreement / multi;
        const int64_t common = *std::max_element(consensus.begin(), consensus.end());
        const double baseline = std::max(1.0 - static_cast<double>(common) / multi, kClip);
        w.worker.resize(static_cast<std::size_t>(d_.n_workers));
        for (int32_t i = 0; i < d_.n_workers; ++i) w.worker[i] = std::max(1.0 - (1.0 - share_[i]) / baseline, kClip);
        const double mean_labels = labelled > 0 ? labels / labelled : 0.0;
        w.model = std::max(1.0 - (model_errors / multi) / baseline, kClip) * std::sqrt(mean_labels);
        return w;
    }

    std::vector<double> ensemble(const Weights &w) const {
        std::vector<double> p(static_cast<std::size_t>(d_.n_items) * k_);
        const double other = k_ > 1 ? (1.0 - w.agreement) / (k_ - 1) : 0.0;
        for (int32_t j = 0; j < d_.n_items; ++j) {
            double *pj = p.data() + static_cast<int64_t>(j) * k_;
            const double *pm = model(j);
            // Without labels only the model speaks (whatever its weight).
            double total = labels_of(j) > 0 ? w.model : 1.0;
            for (int32_t l = 0; l < k_; ++l) pj[l] = total * pm[l];
            for (int64_t q = d_.item_start[j]; q < d_.item_start[j + 1]; ++q) {
                const double wi = w.worker[d_.worker_of(q)];
                const int32_t c = d_.label_of(q);
                for (int32_t l = 0; l < k_; ++l) pj[l] += wi * (l == c ? w.agreement : other);
                total += wi;
            }
            for (int32_t l = 0; l < k_; ++l) pj[l] /= total;
            const int32_t gold = d_.gold_of(j);  // a gold item is pinned, as in every method
            if (gold >= 0)
                for (int32_t l = 0; l < k_; ++l) pj[l] = l == gold ? 1.0 : 0.0;
        }
        return p;
    }

    const CrowdData &d_;
    const int32_t k_;
    const std::vector<double> uniform_;
    std::vector<double> share_;        // s_i
    std::vector<double> class_total_;  // labels of each class over the crowd
    int64_t multi_ = 0;                // |I_multi|
};

}  // namespace

bool fit_crowdlab(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out) {
    if (data.k < 2) throw Error(CS_ERR_INVALID_ARGUMENT, "crowdlab needs k >= 2 classes");
    Crowdlab lab(data);
    const bool done = lab.run(progress, out);
    out.converged = done;
    if (!done) out.notes |= CS_NOTE_CANCELLED;
    // Confusion matrices and prior as every crowd method gives them: the Dawid-Skene
    // M-step of the posteriors (as mv's), which the worker diagnostics also read.
    DsParams params;
    m_step(data, out.posteriors, options, params);
    out.confusion = std::move(params.confusion);
    out.prior = std::move(params.prior);
    out.has_log_likelihood = false;
    if (data.model_probs == nullptr || !lab.shared_items()) {
        out.notes |= CS_NOTE_CROWDLAB_FALLBACK;
        if (data.model_probs == nullptr)
            out.note_message += "crowdlab without model probabilities (cs_set_model_probs): every item's model row "
                                "is uniform, so the model carries no information and crowdlab is a weighted vote. ";
        if (!lab.shared_items())
            out.note_message += "crowdlab: no item has two or more labels, so no agreement can weigh the workers: "
                                "every weight is 1 and each label counts at face value (the single-label case of "
                                "ActiveLab). ";
    }
    return !done;
}

}  // namespace cs

// SPDX-License-Identifier: MIT
#include "crowd/voting/crowdlab.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

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
    explicit Crowdlab(const CrowdData &data) : d_(data), k_(data.k) {}

    void run(FitResult &out) {
        co_agreement();
        std::vector<int32_t> y = majority_vote();
        std::vector<double> p = ensemble(weights(y));
        // y_best: the ensemble's argmax; a tie with the majority label keeps it.
        for (int32_t j = 0; j < d_.n_items; ++j) {
            const double *pj = p.data() + static_cast<int64_t>(j) * k_;
            const int32_t best = argmax(pj, k_);
            if (pj[best] > pj[y[j]]) y[j] = best;
        }
        const Weights w = weights(y);
        out.posteriors = ensemble(w);
        out.labels = std::move(y);
        out.estimates.push_back({"annotator_weight", d_.n_workers, 1, w.worker});
        out.estimates.push_back({"model_weight", 1, 1, {w.model}});
        out.iterations = 2;
        out.converged = true;
    }

private:
    int32_t labels_of(int32_t j) const { return static_cast<int32_t>(d_.item_start[j + 1] - d_.item_start[j]); }
    const double *model(int32_t j) const { return d_.model_probs + static_cast<int64_t>(j) * k_; }

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
        if (multi_ == 0)
            throw Error(CS_ERR_INVALID_ARGUMENT,
                        "crowdlab needs an item with two or more labels: it measures workers by their agreement");
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
            if (s < 0.0) s = sum / shared;
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
            y[j] = best;
        }
        return y;
    }

    Weights weights(const std::vector<int32_t> &y) const {
        Weights w;
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
        }
        return p;
    }

    const CrowdData &d_;
    const int32_t k_;
    std::vector<double> share_;        // s_i
    std::vector<double> class_total_;  // labels of each class over the crowd
    int64_t multi_ = 0;                // |I_multi|
};

}  // namespace

bool fit_crowdlab(const CrowdData &data, const FitOptions &options, const Progress &progress, FitResult &out) {
    (void)options;
    (void)progress;
    if (data.model_probs == nullptr)
        throw Error(CS_ERR_INVALID_ARGUMENT, "crowdlab needs a classifier's probabilities (cs_set_model_probs)");
    if (data.k < 2) throw Error(CS_ERR_INVALID_ARGUMENT, "crowdlab needs k >= 2 classes");
    Crowdlab(data).run(out);
    return false;
}

}  // namespace cs

// SPDX-License-Identifier: MIT
#include "report/quality.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <numeric>
#include <stdexcept>

#include "crowdspec/crowdspec.h"

namespace cli {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string fixed(const char *format, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

}  // namespace

Agreement nominal_agreement(const std::vector<int32_t> &item, const std::vector<int32_t> &label, std::size_t n_items,
                            std::size_t k) {
    Agreement a;
    a.k = k;
    a.coincidence.assign(k * k, 0.0);
    a.values.assign(k, 0.0);
    a.class_agreement.assign(k, kNaN);
    a.observed = a.expected = a.alpha = kNaN;
    if (item.empty()) return a;
    // The library computes the coincidence matrix and alpha (cs_agreement); the
    // report's other figures are its sums. Its k is 1 + the largest label given.
    std::size_t given_k = 0;
    for (int32_t c : label) given_k = std::max(given_k, static_cast<std::size_t>(c) + 1);
    std::vector<double> o(given_k * given_k, 0.0);
    std::unique_ptr<cs_model, void (*)(cs_model *)> model(cs_create(), cs_destroy);
    if (!model || cs_agreement(model.get(), item.data(), label.data(), item.size(), &a.alpha, o.data(), o.size()) != CS_OK)
        throw std::runtime_error(std::string("agreement: ") + (model ? cs_last_error(model.get()) : "out of memory"));
    for (std::size_t c = 0; c < given_k && c < k; ++c)
        for (std::size_t d = 0; d < given_k && d < k; ++d) a.coincidence[c * k + d] = o[c * given_k + d];
    double disagree = 0.0, squares = 0.0;
    for (std::size_t c = 0; c < k; ++c) {
        for (std::size_t d = 0; d < k; ++d) {
            a.values[c] += a.coincidence[c * k + d];
            if (c != d) disagree += a.coincidence[c * k + d];
        }
        a.pairable += a.values[c];
        squares += a.values[c] * a.values[c];
        if (a.values[c] > 0.0) a.class_agreement[c] = a.coincidence[c * k + c] / a.values[c];
    }
    const double n = a.pairable;
    if (n > 0.0) a.observed = disagree / n;
    if (n > 1.0) a.expected = (n * n - squares) / (n * (n - 1.0));  // sum_{c != d} n_c n_d / (n (n - 1))
    std::vector<std::size_t> per_item(n_items, 0);
    for (int32_t j : item) ++per_item[static_cast<std::size_t>(j)];
    a.units = static_cast<std::size_t>(std::count_if(per_item.begin(), per_item.end(), [](std::size_t m) { return m >= 2; }));
    return a;
}

WorkerReview review_worker(const std::vector<std::size_t> &answers, const double *pi, double accuracy,
                           const std::vector<std::string> &classes, const ReviewRules &rules, const double *interval) {
    WorkerReview r;
    const std::size_t k = classes.size();
    const std::size_t total = std::accumulate(answers.begin(), answers.end(), std::size_t{0});
    if (total == 0 || k == 0) return r;
    r.top_answer = static_cast<int32_t>(std::max_element(answers.begin(), answers.end()) - answers.begin());
    r.top_share = static_cast<double>(answers[static_cast<std::size_t>(r.top_answer)]) / static_cast<double>(total);
    if (total < rules.min_labels) return r;
    const auto add = [&](const char *tag, const std::string &why) {
        r.tags.emplace_back(tag);
        r.reason += (r.reason.empty() ? "" : " ") + why;
    };
    const double chance = 1.0 / static_cast<double>(k);
    if (accuracy < chance)
        add("below-chance", "Estimated accuracy " + fixed("%.3f", accuracy) + " is below 1/" + std::to_string(k) +
                                " (guessing).");
    // Near-constant answers that do not follow the true class.
    const std::size_t top = static_cast<std::size_t>(r.top_answer);
    bool constant = r.top_share >= rules.constant_share;
    for (std::size_t l = 0; l < k && constant; ++l) constant = pi[l * k + top] >= rules.row_mass;
    if (constant)
        add("spammer", fixed("%.0f%%", 100.0 * r.top_share) + " of its labels are " + classes[top] +
                           ", whatever the true class.");
    // The accuracy interval wholly below chance (issue 34): a worker with 10-20 labels
    // at 30 % where chance is 20 % is not flagged on its point estimate alone.
    if (interval != nullptr) {
        if (interval[1] < chance)
            add("adversary", "Its labels are right less often than guessing: 95% interval " +
                                 fixed("%.3f", interval[0]) + " to " + fixed("%.3f", interval[1]) + ", below 1/" +
                                 std::to_string(k) + ".");
        return r;
    }
    // Wrong answers preferred for at least two true classes, not all the same answer.
    std::vector<std::pair<std::size_t, std::size_t>> swapped;  // (true class, answer)
    for (std::size_t l = 0; l < k; ++l) {
        const double *row = pi + l * k;
        const std::size_t best = static_cast<std::size_t>(std::max_element(row, row + k) - row);
        if (best != l && row[best] >= rules.row_mass) swapped.emplace_back(l, best);
    }
    bool distinct = false;
    for (const auto &s : swapped) distinct |= s.second != swapped.front().second;
    if (swapped.size() >= 2 && distinct) {
        std::string why = "Answers";
        for (std::size_t i = 0; i < swapped.size() && i < 4; ++i)
            why += std::string(i ? "," : "") + " " + classes[swapped[i].second] + " for true " +
                   classes[swapped[i].first] + " (" + fixed("%.2f", pi[swapped[i].first * k + swapped[i].second]) + ")";
        if (swapped.size() > 4) why += ", ...";
        add("adversary", why + ".");
    }
    return r;
}

std::vector<std::size_t> relabel_order(const std::vector<double> &confidence, const std::vector<std::size_t> &labels,
                                       const std::vector<bool> &exclude, std::size_t count,
                                       const std::vector<double> &score) {
    std::vector<std::size_t> order;
    for (std::size_t j = 0; j < confidence.size(); ++j)
        if (j >= exclude.size() || !exclude[j]) order.push_back(j);
    const bool scored = score.size() == confidence.size();
    const auto before = [&](std::size_t a, std::size_t b) {
        if (scored && score[a] != score[b]) return score[a] > score[b];
        if (confidence[a] != confidence[b]) return confidence[a] < confidence[b];
        if (labels[a] != labels[b]) return labels[a] < labels[b];
        return a < b;
    };
    if (order.size() > count) {
        std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(count), order.end(), before);
        order.resize(count);
    } else {
        std::sort(order.begin(), order.end(), before);
    }
    return order;
}

Calibration calibration_against_truth(const std::vector<double> &confidence, const std::vector<bool> &correct,
                                      const std::vector<double> &truth_prob, const std::vector<double> &sum_sq) {
    Calibration c;
    const std::size_t n = confidence.size(), bins = Calibration::kBins;
    c.items = n;
    c.bin_items.assign(bins, 0);
    std::vector<double> conf_sum(bins, 0.0), right(bins, 0.0);
    double brier = 0.0, conf_total = 0.0, right_total = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        const double x = confidence[i];
        const std::size_t b = std::min(bins - 1, static_cast<std::size_t>(std::max(0.0, x) * static_cast<double>(bins)));
        ++c.bin_items[b];
        conf_sum[b] += x;
        right[b] += correct[i] ? 1.0 : 0.0;
        brier += sum_sq[i] - 2.0 * truth_prob[i] + 1.0;
        conf_total += x;
        right_total += correct[i] ? 1.0 : 0.0;
    }
    const double nan = std::nan("");
    c.bin_confidence.assign(bins, nan);
    c.bin_accuracy.assign(bins, nan);
    for (std::size_t b = 0; b < bins; ++b) {
        if (c.bin_items[b] == 0) continue;
        const double m = static_cast<double>(c.bin_items[b]);
        c.bin_confidence[b] = conf_sum[b] / m;
        c.bin_accuracy[b] = right[b] / m;
        c.ece += m / static_cast<double>(n) * std::fabs(c.bin_accuracy[b] - c.bin_confidence[b]);
    }
    if (n > 0) {
        c.brier = brier / static_cast<double>(n);
        c.mean_confidence = conf_total / static_cast<double>(n);
        c.accuracy = right_total / static_cast<double>(n);
    }
    return c;
}

}  // namespace cli

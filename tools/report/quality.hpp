// SPDX-License-Identifier: MIT
// What `crowdspec report` tells a team lead about the crowd itself: how much the
// workers agree (Krippendorff's alpha for nominal data, per-class agreement), which
// workers to review (documented tags), which items to relabel first. Plain functions
// of label counts and fitted confusion matrices, so that they are tested on
// hand-computed cases (tests/test_cli_quality.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cli {

/// Agreement among the labels given to the same items, nominal classes.
///
/// Krippendorff's alpha and its coincidence matrix come from the library
/// (cs_agreement, whose documentation in crowdspec.h gives the formulas); the other
/// fields are their sums: n_c = sum_d o[c][d], n = sum_c n_c, D_o = sum_{c != d}
/// o[c][d] / n, D_e = sum_{c != d} n_c n_d / (n (n - 1)). When every label has one
/// value alpha is 1 (NLTK's and crowd-kit's rule), otherwise NaN when D_e = 0 or n < 2.
struct Agreement {
    std::size_t k = 0;
    std::vector<double> coincidence;  ///< k x k, row-major: o[c][d]
    std::vector<double> values;       ///< n_c: pairable labels of each class
    double pairable = 0.0;            ///< n
    std::size_t units = 0;            ///< items with at least two labels
    double observed = 0.0;            ///< D_o (NaN when n = 0)
    double expected = 0.0;            ///< D_e (NaN when n < 2)
    double alpha = 0.0;               ///< 1 - D_o / D_e (see above)
    /// Per class c: o[c][c] / n_c, the chance that another label on an item that has a
    /// label c is c too (NaN when n_c = 0).
    std::vector<double> class_agreement;
};

/// Agreement of labels `label[t]` on items `item[t]` (0-based, < n_items and < k).
/// Each (item, label) pair given counts once per occurrence; the caller removes
/// repeated labellings it does not want counted. Throws std::runtime_error when the
/// library refuses the labels (they are checked before: it does not).
Agreement nominal_agreement(const std::vector<int32_t> &item, const std::vector<int32_t> &label, std::size_t n_items,
                            std::size_t k);

/// The thresholds of the worker-review rules (documented in the report and its help).
struct ReviewRules {
    std::size_t min_labels = 10;   ///< workers with fewer labels are not tagged
    double constant_share = 0.9;   ///< spammer: the share of its labels that one answer reaches
    double row_mass = 0.5;         ///< spammer/adversary: probability of the answer in a confusion row
};

/// Why a worker is worth reviewing. Tags:
/// - "below-chance": estimated accuracy (sum_l prior_l pi[l][l]) below 1/k, the
///   accuracy of guessing uniformly at random;
/// - "spammer" (near-constant answers): one answer c makes up at least
///   constant_share of its labels and its confusion matrix gives c with probability
///   >= row_mass for every true class: the answer does not follow the item;
/// - "adversary": with an accuracy interval (cs_worker_diagnostics: the 95 % posterior
///   interval of the share of its labels that are right), its upper end is below 1/k:
///   worse than guessing, beyond reasonable doubt. Without one (no diagnostics), the
///   earlier rule: for at least two true classes l its most likely answer is a wrong
///   class c_l != l with pi[l][c_l] >= row_mass, and these answers are not all one class.
/// Workers with fewer than min_labels labels get no tag.
struct WorkerReview {
    std::vector<std::string> tags;  ///< in the order above
    std::string reason;             ///< one sentence per tag, with the numbers
    int32_t top_answer = -1;        ///< its most frequent answer (class index)
    double top_share = 0.0;         ///< that answer's share of its labels
};

/// Reviews one worker: `answers` = its labels per class (k counts), `pi` = its k x k
/// confusion matrix (row = true class), `accuracy` = sum_l prior_l pi[l][l];
/// `classes` names the classes in the reason text.
/// `interval`, when not null, is its accuracy interval {low, high} (the adversary rule).
WorkerReview review_worker(const std::vector<std::size_t> &answers, const double *pi, double accuracy,
                           const std::vector<std::string> &classes, const ReviewRules &rules,
                           const double *interval = nullptr);

/// How well confidences match accuracy against a truth: `confidence[i]` the largest
/// posterior of item i, `correct[i]` whether its hard label is the truth, `truth_prob[i]`
/// the posterior of the true class (0 when the truth is not a class) and `sum_sq[i]`
/// the sum of its squared posteriors.
/// - ECE, the expected calibration error: items in 10 equal-width bins of confidence
///   ([0, 0.1), ..., [0.9, 1]); sum over bins of (n_b / n) |accuracy_b - confidence_b|.
/// - Brier score: mean over items of sum_t (p_t - [t = truth])^2
///   = sum_sq - 2 truth_prob + 1 (the truth one-hot; 0 to 2).
/// The bins are kept for the reliability diagram.
struct Calibration {
    static constexpr std::size_t kBins = 10;
    std::size_t items = 0;
    double ece = 0.0, brier = 0.0, mean_confidence = 0.0, accuracy = 0.0;
    std::vector<std::size_t> bin_items;      ///< kBins
    std::vector<double> bin_confidence;      ///< mean confidence per bin (NaN when empty)
    std::vector<double> bin_accuracy;        ///< accuracy per bin (NaN when empty)
};

Calibration calibration_against_truth(const std::vector<double> &confidence, const std::vector<bool> &correct,
                                      const std::vector<double> &truth_prob, const std::vector<double> &sum_sq);

/// Items to relabel first: item indices by descending `score` (the label-next score,
/// cs_label_next; all equal when empty), then ascending confidence (the largest
/// posterior), fewer labels, index; items in `exclude` (gold) are left out. At most
/// `count` of them.
std::vector<std::size_t> relabel_order(const std::vector<double> &confidence, const std::vector<std::size_t> &labels,
                                       const std::vector<bool> &exclude, std::size_t count,
                                       const std::vector<double> &score = {});

}  // namespace cli

// SPDX-License-Identifier: MIT
// Measures of a crowd's labels that need no fit of the library's own: Krippendorff's
// alpha (nominal), label uncertainty per item or worker, consistency of items with
// their aggregates, and workers' accuracy on aggregates -- crowd-kit's metrics module,
// computed sparsely: labels are grouped once by a counting sort (O(labels + groups)),
// and a group's classes that none of its labels has are summed in closed form, so no
// dense items x classes or workers x classes table is made. The C entry points are in
// api/capi_measures.cpp; the definitions are documented there, in crowdspec.h
// (cs_agreement, cs_uncertainty, cs_consistency, cs_accuracy_on_aggregates).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cs {

/// Labels checked for the measures: 0-based item, worker and class arrays of one length;
/// n_items, n_workers and k are 1 + the largest of each (checks in check_measure_labels).
struct MeasureLabels {
    const int32_t *item = nullptr;
    const int32_t *worker = nullptr;  // may be null for agreement
    const int32_t *label = nullptr;
    std::size_t n = 0;
    int32_t n_items = 0;
    int32_t n_workers = 0;
    int32_t k = 0;
};

/// Checks the arrays (nonnegative ids and labels, k <= CS_MAX_CROWD_CLASSES) and sets
/// the counts; throws cs::Error naming the first bad index.
MeasureLabels check_measure_labels(const int32_t *item, const int32_t *worker, const int32_t *label, std::size_t n);

/// Nominal agreement: the k x k coincidence matrix, the pairable values per class and
/// Krippendorff's alpha (crowdspec.h, cs_agreement, states the formulas).
struct Agreement {
    std::size_t k = 0;
    std::vector<double> coincidence;  ///< k x k, row-major: o[c][d]
    std::vector<double> values;       ///< n_c: pairable labels of each class
    double pairable = 0.0;            ///< n
    std::size_t units = 0;            ///< items with at least two labels
    double observed = 0.0;            ///< D_o (NaN when n = 0)
    double expected = 0.0;            ///< D_e (NaN when n < 2)
    double alpha = 0.0;               ///< 1 - D_o / D_e; 1 when every label has one value; else NaN when undefined
    std::vector<double> class_agreement;  ///< o[c][c] / n_c (NaN when n_c = 0)
};

Agreement nominal_agreement(const MeasureLabels &labels);

/// Entropy (nats) of the skill-weighted label distribution of each item (by_worker
/// false) or worker; NaN for those without labels. skill: one per worker, or empty
/// (every skill 1).
std::vector<double> label_uncertainty(const MeasureLabels &labels, const std::vector<double> &skill, bool by_worker);

/// Posterior probability of each item's aggregate under the one-coin model of the
/// skills (uniform prior); NaN for items without labels or aggregate.
std::vector<double> aggregate_consistency(const MeasureLabels &labels, const std::vector<double> &skill,
                                          const int32_t *aggregate);

/// Share of each worker's labels (on items with an aggregate) equal to the aggregate;
/// NaN for workers with none. *overall: matches over counted labels (NaN if none).
std::vector<double> accuracy_on_aggregates(const MeasureLabels &labels, const int32_t *aggregate, double *overall);

}  // namespace cs

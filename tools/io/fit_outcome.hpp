// SPDX-License-Identifier: MIT
// The results of one fit as the command-line programs hold them once copied out of the
// library (fitting/fitting.hpp fills it; io/result_writers.hpp writes it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cli {

/// Everything a fitted model reports, copied out of the library.
struct FitOutcome {
    std::size_t n_items = 0, n_workers = 0, k = 0;
    std::vector<int32_t> labels;      ///< n_items
    std::vector<double> posteriors;   ///< n_items x k
    std::vector<double> confusion;    ///< n_workers x k x k
    std::vector<double> prior;        ///< k
    std::vector<double> trace;        ///< objective per iteration
    int32_t iterations = 0, converged = 0, notes = 0;
    double log_likelihood = 0.0;
    double temperature = 1.0, mixing = 0.0;  ///< the calibration applied (cs_calibration)
    int32_t calibration = 0;                 ///< its cs_calibration source (0 = none)
    double seconds = 0.0;             ///< cs_fit wall time
    /// Ordered grades only (an ordinal method or --ordinal; empty otherwise): each
    /// item's posterior median grade (class index) and mean grade (cs_mean_grades).
    std::vector<int32_t> median_grades;
    std::vector<double> mean_grades;
};

/// Estimated accuracy of each worker: sum_l prior_l * pi[l][l], the probability that
/// the worker's label is right for an item drawn from the class prior.
std::vector<double> worker_accuracy(const std::vector<double> &confusion, const std::vector<double> &prior,
                                    std::size_t n_workers, std::size_t k);

/// The mean grade written for item j: sum_g q_jg v_g with v_g the class's name read as a
/// number when every class name is a number, else its position g (0-based).
double written_mean_grade(const std::vector<std::string> &classes, const FitOutcome &fit, std::size_t j);

}  // namespace cli

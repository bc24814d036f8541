// SPDX-License-Identifier: MIT
#include "io/fit_outcome.hpp"

#include "io/text_values.hpp"

namespace cli {

std::vector<double> worker_accuracy(const std::vector<double> &confusion, const std::vector<double> &prior,
                                    std::size_t n_workers, std::size_t k) {
    std::vector<double> accuracy(n_workers, 0.0);
    for (std::size_t i = 0; i < n_workers; ++i)
        for (std::size_t l = 0; l < k; ++l) accuracy[i] += prior[l] * confusion[(i * k + l) * k + l];
    return accuracy;
}

double written_mean_grade(const std::vector<std::string> &classes, const FitOutcome &fit, std::size_t j) {
    const std::size_t k = classes.size();
    std::vector<double> value(k);
    for (std::size_t g = 0; g < k; ++g)
        if (!parse_number(classes[g], value[g])) return fit.mean_grades[j];  // names: the library's 0-based position
    double mean = 0.0;
    for (std::size_t g = 0; g < k; ++g) mean += fit.posteriors[j * k + g] * value[g];
    return mean;
}

}  // namespace cli

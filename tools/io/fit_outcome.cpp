// SPDX-License-Identifier: MIT
#include "io/fit_outcome.hpp"

namespace cli {

std::vector<double> worker_accuracy(const std::vector<double> &confusion, const std::vector<double> &prior,
                                    std::size_t n_workers, std::size_t k) {
    std::vector<double> accuracy(n_workers, 0.0);
    for (std::size_t i = 0; i < n_workers; ++i)
        for (std::size_t l = 0; l < k; ++l) accuracy[i] += prior[l] * confusion[(i * k + l) * k + l];
    return accuracy;
}

}  // namespace cli

// SPDX-License-Identifier: MIT
// Numeric answers after validation (cs_fit_numbers): the values in the by-item order
// of data/answer_order.hpp, with its by-worker index.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/fit_options.hpp"
#include "data/answer_order.hpp"

namespace cs {

struct NumericData {
    AnswerOrder order;          // item_start, worker of each position, by-worker index
    std::vector<double> value;  // the answer at each position

    int32_t n_items() const { return order.n_items; }
    int32_t n_workers() const { return order.n_workers; }
    std::size_t n_answers() const { return value.size(); }

    /// Checks the answers (ids as cs_fit; every value finite and of magnitude at most
    /// 1e100, else CS_ERR_NON_FINITE naming the index) and orders them. Throws cs::Error.
    static NumericData build(const int32_t *item, const int32_t *worker, const double *value, std::size_t n,
                             const FitOptions &options);
};

}  // namespace cs

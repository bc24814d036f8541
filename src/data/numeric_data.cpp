// SPDX-License-Identifier: MIT
#include "data/numeric_data.hpp"

#include <cmath>
#include <string>

#include "util/error.hpp"

namespace cs {

NumericData NumericData::build(const int32_t *item, const int32_t *worker, const double *value, std::size_t n,
                               const FitOptions &options) {
    if (item == nullptr || worker == nullptr || value == nullptr)
        throw Error(CS_ERR_NULL_POINTER, std::string(item == nullptr ? "item" : worker == nullptr ? "worker" : "value") +
                                             " array is NULL");
    if (n == 0) throw Error(CS_ERR_EMPTY_INPUT, "no answers (n_answers = 0)");
    // Squares of the values must not overflow (variances, squared residuals).
    for (std::size_t t = 0; t < n; ++t)
        if (!(std::fabs(value[t]) <= 1e100))
            throw Error(CS_ERR_NON_FINITE, "value " + std::to_string(value[t]) + " at answer index " +
                                               std::to_string(t) + " is not finite or exceeds 1e100 in magnitude");
    NumericData d;
    d.order = AnswerOrder::build(item, worker, n, options, "answer");
    d.value.resize(d.order.size());
    for (std::size_t p = 0; p < d.value.size(); ++p) d.value[p] = value[d.order.source[p]];
    return d;
}

}  // namespace cs

// SPDX-License-Identifier: MIT
#include "crowd/em/confusion_model.hpp"

#include "crowdspec/crowdspec.h"

namespace cs {

namespace {

void set_one_coin_row(double *row, int32_t k, int32_t l, double p) {
    const double off = (1.0 - p) / (k - 1);
    for (int32_t c = 0; c < k; ++c) row[c] = c == l ? p : off;
}

}  // namespace

void apply_confusion_model(double *counts, int32_t k, int32_t model) {
    const double uniform = 1.0 / k;
    if (model == CS_CONFUSION_ONE_COIN) {
        double diagonal = 0.0, total = 0.0;
        for (int32_t l = 0; l < k; ++l)
            for (int32_t c = 0; c < k; ++c) {
                total += counts[l * k + c];
                if (c == l) diagonal += counts[l * k + c];
            }
        const double p = total > 0.0 ? diagonal / total : uniform;
        for (int32_t l = 0; l < k; ++l) set_one_coin_row(counts + l * k, k, l, p);
        return;
    }
    for (int32_t l = 0; l < k; ++l) {
        double *row = counts + l * k;
        double mass = 0.0;
        for (int32_t c = 0; c < k; ++c) mass += row[c];
        if (!(mass > 0.0)) {
            for (int32_t c = 0; c < k; ++c) row[c] = uniform;
        } else if (model == CS_CONFUSION_CLASS_ONE_COIN) {
            set_one_coin_row(row, k, l, row[l] / mass);
        } else {
            for (int32_t c = 0; c < k; ++c) row[c] /= mass;
        }
    }
}

}  // namespace cs

// SPDX-License-Identifier: MIT
// The three confusion-matrix models (ALGORITHMS.md, "Confusion models"; the
// reference code's AggregateCFG modes): turn one worker's k x k count matrix
// (true x observed) into a confusion matrix whose rows sum to 1.
#pragma once

#include <cstdint>

namespace cs {

/// counts: k x k, row l = true class, column c = observed label, non-negative.
/// In place: full = row-normalise; one-coin = one accuracy p = trace / total;
/// class-one-coin = one accuracy per row p_l = counts[l][l] / row sum. Off-diagonal
/// entries become (1 - p) / (k - 1). A row (or matrix) with zero mass becomes uniform.
void apply_confusion_model(double *counts, int32_t k, int32_t model);

}  // namespace cs

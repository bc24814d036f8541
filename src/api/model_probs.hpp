// SPDX-License-Identifier: MIT
// A classifier's probabilities on the handle (cs_set_model_probs): the checks when
// they are set, and their dense n_items x k table for a fit (issue 34). Dawid-Skene EM
// takes them as one more, soft-labelling worker (crowd/em/model_worker.hpp), crowdlab
// as its model; every other method refuses them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "api/model.hpp"
#include "data/crowd_data.hpp"

namespace cs {

/// Checks the rows of cs_set_model_probs (n_rows > 0; item null: items 0 .. n_rows - 1)
/// and returns them normalised: item ids into `items`, n_rows x k values into `values`.
/// Errors name the row (`what` starts each message).
void check_model_rows(const int32_t *item, const double *probs, std::size_t n_rows, int32_t k, const char *what,
                      std::vector<int32_t> &items, std::vector<double> &values);

/// Checks and stores the rows of cs_set_model_probs (n_rows = 0 clears them).
void set_model_probs(cs_model *model, const int32_t *item, const double *probs, std::size_t n_rows, int32_t k);

/// Whether `method` takes model probabilities (the Dawid-Skene family and crowdlab).
bool takes_model_probs(int32_t method);

/// The handle's model probabilities as a dense n_items x k table for `data` (into
/// `dense`; an item without a row gets the uniform row, which carries no information),
/// and data.model_probs pointing at it. Nothing when the handle has none. Throws
/// CS_ERR_INVALID_ARGUMENT when the method does not take them, k differs from the
/// fit's or an item id is beyond the fit's items.
void attach_model_probs(const cs_model *model, int32_t method, const char *method_name, CrowdData &data,
                        std::vector<double> &dense);

}  // namespace cs

// SPDX-License-Identifier: MIT
// Fixed partitions of the items for passes that scatter into per-worker tables
// (M-step counts, CrowdLloyd centres; the Opt-D&S moments, exact integer sums, use
// split_items with one table per thread).
//
// Each partition accumulates into its own copy of the table; the copies are summed
// in partition order (sum_tables, util/parallel.hpp). The partitions depend only on the data (never on the thread
// count), so results are bit-identical for any number of threads (DESIGN.md,
// "Determinism"), while the threads never share a cache line of a table.
#pragma once

#include <cstdint>
#include <vector>

#include "data/crowd_data.hpp"

namespace cs {

struct ItemRange {
    int32_t first = 0;  // first item
    int32_t last = 0;   // one past the last item
};

/// Split the items into consecutive ranges of about equal label counts. The number
/// of ranges is at most 64 and at most n_labels / (table_size * labels_per_entry), so
/// that the copies of a table of `table_size` doubles cost at most 8 / labels_per_entry
/// bytes per label to clear and as much to sum; but never fewer than min(16, n_labels /
/// table_size), so that a few threads still share the passes evenly; at least 1.
/// labels_per_entry = 1 is the rule of the Bayesian methods and CrowdLloyd; Dawid-Skene
/// EM, which clears and sums its tables every round, uses 4 (issue 19).
std::vector<ItemRange> partition_items(const CrowdData &data, int64_t table_size, int64_t labels_per_entry = 1);

/// Split the items into `parts` consecutive ranges of about equal label counts (fewer
/// when there are fewer items). partition_items() uses it; passes whose sums are exact
/// whatever their order (integer counts) use it directly with one range per thread.
std::vector<ItemRange> split_items(const CrowdData &data, int64_t parts);

}  // namespace cs

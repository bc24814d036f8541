// SPDX-License-Identifier: MIT
// The three worker groups of the Opt-D&S spectral stage (ALGORITHMS.md, "Opt-D&S -
// Stage 1", step 1), chosen from the data rather than from the worker ids.
//
// The moments of the spectral stage are sums over the workers of each group, so the
// estimate depends on the partition. The reference code's i mod 3 makes it an
// accident of how the workers happen to be numbered (on one real crowd six
// renumberings gave 18 to 39 % error). Here a partition is a function of what each
// worker did, so renumbering the workers or the items, or shuffling the rows, gives
// the same groups.
#pragma once

#include <cstdint>
#include <vector>

#include "data/crowd_data.hpp"

namespace cs {

/// An order-free fingerprint of each worker's labels: for worker i, a hash of the
/// multiset of (label c, fingerprint of the item's whole label multiset) over i's
/// labels. It does not depend on worker ids, item ids or the order of the labels;
/// two workers get the same value only if their labels look alike at that depth.
std::vector<uint64_t> worker_signatures(const CrowdData &data);

/// Group 0, 1 or 2 of every worker for spectral start `start` (0-based).
/// - start 0, CS_GROUPS_REFERENCE: worker i -> i mod 3 (the reference code).
/// - start 0, CS_GROUPS_BALANCED: workers in decreasing label count (the classical
///   longest-first greedy for balanced sums), each to the group with the fewest labels
///   so far (ties to the lower group); equal counts are ordered by a hash of the
///   worker's signature and the seed, then by id (only for workers whose labels are
///   indistinguishable by the signature).
/// - start >= 1: workers in a random order drawn from their signatures, the seed and
///   the start (the same for any numbering), each to the group with the fewest labels
///   so far: a different, still balanced partition per start.
/// `signatures` are worker_signatures(data), computed once per fit by a caller that
/// draws several partitions.
std::vector<uint8_t> worker_groups(const CrowdData &data, const std::vector<uint64_t> &signatures,
                                   int32_t rule, uint64_t seed, int32_t start);

/// The same, computing the signatures.
std::vector<uint8_t> worker_groups(const CrowdData &data, int32_t rule, uint64_t seed, int32_t start);

}  // namespace cs

// SPDX-License-Identifier: MIT
// 64-bit integer keys numbered inside the library (cs_intern_integers): a binding hands
// over one array of keys -- integer ids, or the addresses of the objects a column of
// strings holds -- and each distinct key gets a code from an open-addressing hash
// table, in one pass, then optionally the codes are renumbered in the keys' order.
// The codes and first rows are written straight into the caller's buffers.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cs {

/// Codes of the n keys, written to codes[0 .. n), in order of first appearance or
/// (sorted) in ascending order of the distinct keys as signed integers; first[c]
/// receives the index of the first key of code c (first has room for n). Returns the
/// number of distinct keys. O(n) for the pass, plus O(d log d) or O(span) for the
/// renumbering of d distinct keys when sorted and they did not appear in order.
std::size_t intern_integers(const int64_t *keys, std::size_t n, bool sorted, int32_t *codes, int64_t *first);

}  // namespace cs

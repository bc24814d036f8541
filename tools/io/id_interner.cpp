// SPDX-License-Identifier: MIT
#include "io/id_interner.hpp"

namespace cli {

// intern_local for an id the chunk has not seen (or a string that is not a canonical
// integer and not the previous one): out of line, the fast paths stay small.
int32_t intern_local_slow(LocalIds &ids, RoleScratch &scratch, uint32_t generation, std::string_view s, int64_t value,
                          std::size_t line) {
    const int32_t fresh = static_cast<int32_t>(ids.names.size());
    if (value >= 0 && scratch.base_generation != generation) {  // the chunk's first: place the window
        const std::size_t v = static_cast<std::size_t>(value), margin = RoleScratch::kWindow / 4;
        scratch.base = v >= margin ? v - margin : 0;
        scratch.base_generation = generation;
        if (scratch.by_value.empty()) scratch.by_value.assign(RoleScratch::kWindow, {0, -1});
    }
    const std::size_t i = static_cast<std::size_t>(value) - scratch.base;  // wraps below the window
    if (value >= 0 && i < RoleScratch::kWindow) {
        RoleScratch::Entry &e = scratch.by_value[i];
        if (e.stamp == generation) return e.id;
        e.stamp = generation;
        e.id = fresh;
        ids.hashes.push_back(0);
    } else {
        ids.last = s;
        const uint64_t h = hash_bytes(s);
        const int32_t seen = scratch.index.insert(s, h, fresh, ids.names);
        if (seen >= 0) return ids.last_id = seen;
        ids.hashes.push_back(h);
        ids.last_id = fresh;
    }
    ids.names.push_back(s);
    ids.lines.push_back(line);
    return fresh;
}

void translate(Interner &global, const LocalIds &local, std::size_t line_offset, std::vector<int32_t> &map) {
    map.resize(local.names.size());
    for (std::size_t k = 0; k < map.size(); ++k)
        map[k] = global.intern_hashed(local.names[k], local.lines[k] + line_offset, local.hashes[k]);
}

}  // namespace cli

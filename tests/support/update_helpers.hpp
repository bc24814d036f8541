// SPDX-License-Identifier: MIT
// What the tests of saved models and incremental updates share (test_incremental,
// test_update_refresh): a simulated crowd, slices of labels in a given order, cs_update
// of triples, and a model to bytes and back.
#pragma once

#include <cstdint>
#include <vector>

#include "support/cmocka_cpp.hpp"
#include "support/fit_helpers.hpp"
#include "support/splitmix.hpp"

namespace test {

// A crowd of one-coin workers of accuracy 0.55-0.95, k classes, `per_item` labels each.
inline Triples simulate(int32_t items, int32_t workers, int32_t k, int32_t per_item, uint64_t seed,
                        std::vector<int32_t> *truth = nullptr) {
    SplitMix rng{seed};
    std::vector<double> accuracy(static_cast<std::size_t>(workers));
    for (double &a : accuracy) a = 0.55 + 0.4 * rng.uniform();
    Triples t;
    for (int32_t j = 0; j < items; ++j) {
        const int32_t y = rng.below(k);
        if (truth) truth->push_back(y);
        const int32_t first = rng.below(workers);
        for (int32_t r = 0; r < per_item; ++r) {
            const int32_t w = (first + r * 7) % workers;
            const int32_t label = rng.uniform() < accuracy[w] ? y : (y + 1 + rng.below(k - 1)) % k;
            t.add(j, w, label);
        }
    }
    return t;
}

// The labels order[from] .. order[to - 1] of t.
inline Triples slice(const Triples &t, const std::vector<std::size_t> &order, std::size_t from, std::size_t to) {
    Triples out;
    for (std::size_t e = from; e < to; ++e) out.add(t.item[order[e]], t.worker[order[e]], t.label[order[e]]);
    return out;
}

inline cs_status update(cs_model *m, const Triples &t) {
    return cs_update(m, t.item.data(), t.worker.data(), t.label.data(), t.size());
}

inline std::vector<uint8_t> saved(cs_model *m) {
    std::size_t n = 0;
    assert_int_equal(cs_save_buffer(m, nullptr, 0, &n), CS_OK);
    std::vector<uint8_t> bytes(n);
    assert_int_equal(cs_save_buffer(m, bytes.data(), bytes.size(), &n), CS_OK);
    assert_int_equal(n, bytes.size());
    return bytes;
}

inline Model loaded(const std::vector<uint8_t> &bytes) {
    Model m(cs_create());
    const cs_status s = cs_load_buffer(m.get(), bytes.data(), bytes.size());
    if (s != CS_OK) print_error("cs_load_buffer: %s\n", cs_last_error(m.get()));
    assert_int_equal(s, CS_OK);
    return m;
}

}  // namespace test

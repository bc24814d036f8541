// SPDX-License-Identifier: MIT
// Random parameters by name for the fit targets: any parameter of the table
// (cs_param_at), set through cs_set_param_string with a valid or invalid value, which
// must either succeed or be refused with a documented status, the old value kept.
// Afterwards the costly ones are capped, so that one input stays a few milliseconds.
#pragma once

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "crowdspec/crowdspec.h"
#include "fuzz_input.hpp"

namespace fuzz {

inline const std::vector<std::string> *value_names(const std::string &param) {
    static const std::vector<std::pair<std::string, std::vector<std::string>>> table = {
        {"duplicates", {"reject", "first", "last"}},
        {"confusion", {"full", "one-coin", "class-one-coin"}},
        {"prior", {"uniform", "estimated"}},
        {"support", {"all", "answered", "auto"}},
        {"accel", {"none", "squarem"}},
        {"identify", {"vote", "reference"}},
        {"groups", {"balanced", "reference"}},
    };
    for (const auto &[name, values] : table)
        if (name == param) return &values;
    return nullptr;
}

/// Sets `count` random parameters (the method excepted: the target chose it).
inline void set_random_params(cs_model *m, Input &in, int count) {
    for (int t = 0; t < count; ++t) {
        const int32_t id = cs_param_at(in.in(0, cs_param_count() - 1));
        const std::string name = cs_param_name(id);
        if (id == CS_PARAM_METHOD) continue;
        double lower = 0, upper = 0;
        int32_t integer = 0;
        if (cs_param_info(id, &lower, &upper, nullptr, &integer) != CS_OK) fail("cs_param_info(%d) failed", id);
        std::string value;
        const std::vector<std::string> *names = value_names(name);
        const uint8_t how = in.byte() % 8;
        char buf[64];
        if (names != nullptr && how < 4) {
            value = how == 3 ? "bogus" : (*names)[in.byte() % names->size()];
        } else if (how == 4) {
            std::snprintf(buf, sizeof buf, "%.17g", lower - 1);
            value = buf;
        } else if (how == 5) {
            std::snprintf(buf, sizeof buf, "%.17g", upper + (integer ? 1 : 0.5));
            value = buf;
        } else if (how == 6) {
            static const char *const odd[] = {"nan", "inf", "", "1e", "0x10", "2.5", "-0", " 3", "1e400"};
            value = odd[in.byte() % (sizeof odd / sizeof odd[0])];
        } else {
            // In range: small values, where the costs are.
            const double span = std::min(upper - lower, 40.0);
            const double v = lower + span * (in.byte() / 255.0);
            std::snprintf(buf, sizeof buf, integer ? "%.0f" : "%.6g", v);
            value = buf;
        }
        double before = 0, after = 0;
        cs_get_double(m, id, &before);
        const cs_status s = cs_set_param_string(m, name.c_str(), value.c_str());
        cs_get_double(m, id, &after);
        if (s == CS_OK) continue;
        if (s != CS_ERR_PARAM_RANGE && s != CS_ERR_INVALID_ARGUMENT && s != CS_ERR_TOO_FEW_CLASSES)
            fail("cs_set_param_string(%s, \"%s\") returned %s: %s", name.c_str(), value.c_str(), cs_status_string(s),
                 cs_last_error(m));
        if (!(before == after || (before != before && after != after)))
            fail("a refused cs_set_param_string(%s, \"%s\") changed the value from %g to %g", name.c_str(),
                 value.c_str(), before, after);
        if (cs_last_error(m)[0] == '\0') fail("a refused parameter left no message");
    }
}

/// Caps what makes a fit slow (iterations, restarts, declared sizes) at small values.
inline void cap_costs(cs_model *m) {
    static const std::pair<int32_t, double> caps[] = {
        {CS_PARAM_MAX_ITER, 60}, {CS_PARAM_POWER_STARTS, 10}, {CS_PARAM_POWER_ITERS, 30}, {CS_PARAM_STARTS, 4},
        {CS_PARAM_START_ROUNDS, 5}, {CS_PARAM_N_INIT, 3}, {CS_PARAM_CLASSES, 8}, {CS_PARAM_ITEMS, 24},
        {CS_PARAM_WORKERS, 16}, {CS_PARAM_THREADS, 4}};
    for (const auto &[id, cap] : caps) {
        double v = 0;
        if (cs_get_double(m, id, &v) == CS_OK && v > cap && cs_set_double(m, id, cap) != CS_OK)
            fail("cannot cap parameter %s at %g", cs_param_name(id), cap);
    }
}

/// Cancels at the progress call `at` (-1: never), counting calls.
struct Cancel {
    int32_t at = -1;
    int32_t calls = 0;
    static int32_t callback(void *user, int32_t, double objective) {
        Cancel *c = static_cast<Cancel *>(user);
        if (!(objective == objective) || objective == 1.0 / 0.0 || objective == -1.0 / 0.0)
            fail("the progress callback got a non-finite objective");
        return c->calls++ == c->at ? 1 : 0;
    }
};

/// Copies every parameter of `from` to `to` (by id), except the thread count.
inline void copy_params(const cs_model *from, cs_model *to) {
    for (int32_t i = 0; i < cs_param_count(); ++i) {
        const int32_t id = cs_param_at(i);
        if (id == CS_PARAM_THREADS) continue;
        int32_t integer = 0;
        cs_param_info(id, nullptr, nullptr, nullptr, &integer);
        bool ok;
        if (integer) {  // exactly: a seed near 2^63 does not survive a double
            int64_t v = 0;
            ok = cs_get_int(from, id, &v) == CS_OK && cs_set_int(to, id, v) == CS_OK;
        } else {
            double v = 0;
            ok = cs_get_double(from, id, &v) == CS_OK && cs_set_double(to, id, v) == CS_OK;
        }
        if (!ok) fail("copying parameter %s failed", cs_param_name(id));
    }
}

/// What a points or graph target sets on a fresh handle, in this order (the input's
/// bytes are consumed in it): the method, `n_random` random parameters (in.in(0, 4)),
/// the class count k0, the cost caps, then 1-3 threads. Returns {k after the caps,
/// threads}.
struct Setup {
    int32_t k;
    int32_t threads;
};
inline Setup set_up_model(cs_model *m, Input &in, const char *method, int32_t k0) {
    if (cs_set_param_string(m, "method", method) != CS_OK) fail("setting the method failed");
    set_random_params(m, in, in.in(0, 4));
    cs_set_int(m, CS_PARAM_CLASSES, k0);
    cap_costs(m);
    int64_t k64 = 0;
    cs_get_int(m, CS_PARAM_CLASSES, &k64);  // after the caps
    const int32_t threads = in.in(1, 3);
    cs_set_int(m, CS_PARAM_THREADS, threads);
    return {static_cast<int32_t>(k64), threads};
}

}  // namespace fuzz

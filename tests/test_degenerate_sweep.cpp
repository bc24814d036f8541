// SPDX-License-Identifier: MIT
// The degenerate sweep of issue 12: random tiny crowds (1-10 items, 1-6 workers,
// k = 2..6, six label patterns including unanimous items and a single class, gold,
// random parameters by name, random cancels) through every crowd method. Every fit must
// return CS_OK (or the documented CS_ERR_TOO_FEW_CLASSES / CS_ERR_CANCELLED) and
// satisfy the invariants of tests/support/crowd_invariants.hpp; on a unanimity crowd
// (every labelled item has >= 2 agreeing labels, or one class everywhere) the methods
// in kOracleMethods must give each labelled item that class.
//
// CS_SWEEP_CROWDS sets the number of crowds (default 10000; the sanitizer build in CI
// runs 1500). The table printed at the end counts, per method, the unanimity crowds it
// mislabels (the spectral baselines are reported, not asserted: their sign rules can
// contradict a unanimous crowd by design, see crowdspec.h).
#include <chrono>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "support/cmocka_cpp.hpp"
#include "support/crowd_invariants.hpp"
#include "support/fit_helpers.hpp"

namespace {

// Methods that must follow a unanimous crowd.
const char *const kOracleMethods[] = {"mv",  "ds", "opt-ds",    "crowd-lloyd", "one-coin-ds", "class-one-coin-ds",
                                      "bwa", "la", "la-onepass"};

bool oracle_method(const char *name) {
    for (const char *m : kOracleMethods)
        if (std::string(m) == name) return true;
    return false;
}

struct CancelAt {
    int32_t at = -1;
    int32_t calls = 0;
};

int32_t cancel_at(void *user, int32_t, double) {
    CancelAt *c = static_cast<CancelAt *>(user);
    return c->calls++ == c->at ? 1 : 0;
}

struct Tally {
    long fits = 0, unanimity = 0, mislabelled = 0, cancelled = 0, too_few = 0;
    long smoothed_unanimity = 0, smoothed_mislabelled = 0;  // fits with smoothing > 0
    double seconds = 0.0;
    std::string first_mislabelled;
};

long crowd_count() {
    const char *env = std::getenv("CS_SWEEP_CROWDS");
    if (env == nullptr || *env == '\0') return 10000;
    return std::strtol(env, nullptr, 10);
}

std::string crowd_text(const test::Crowd &c, int32_t classes,
                       const std::vector<std::pair<std::string, std::string>> &params) {
    std::string s = "classes=" + std::to_string(classes);
    for (const auto &[name, value] : params) s += " " + name + "=" + value;
    s += " labels (item worker label):";
    for (std::size_t t = 0; t < c.item.size(); ++t)
        s += " " + std::to_string(c.item[t]) + "," + std::to_string(c.worker[t]) + "," +
             std::to_string(c.label[t]);
    if (!c.gold_item.empty()) {
        s += " gold:";
        for (std::size_t g = 0; g < c.gold_item.size(); ++g)
            s += " " + std::to_string(c.gold_item[g]) + "=" + std::to_string(c.gold_label[g]);
    }
    return s;
}

void degenerate_sweep(void **) {
    const long crowds = crowd_count();
    std::vector<int32_t> methods;
    for (int32_t i = 0; i < cs_method_count(); ++i)
        if (cs_method_input(cs_method_at(i)) == CS_INPUT_CROWD) methods.push_back(cs_method_at(i));
    std::map<int32_t, Tally> tally;
    long failures = 0;
    test::SplitMix rng(20261201);
    for (long n = 0; n < crowds; ++n) {
        int32_t k = 0;
        const test::Crowd crowd = test::random_crowd(rng, &k);
        const auto params = test::random_params(rng);
        // k: inferred (0) or declared, possibly above the largest label.
        const int32_t classes = rng.chance(0.5) ? 0 : std::max(crowd.k_labels, k);
        const int32_t extra_items = rng.chance(0.2) ? 1 + rng.below(3) : 0;
        const int32_t n_items = crowd.n_items + extra_items;
        const int32_t cancel_call = rng.chance(0.05) ? rng.below(4) : -1;
        const int32_t k_fit = classes > 0 ? classes : crowd.k_labels;
        const std::vector<int32_t> oracle = test::unanimity_labels(crowd, n_items);
        bool smoothed = false;  // a pseudo-count: the MAP estimate, not maximum likelihood
        for (const auto &[pname, value] : params) smoothed = smoothed || pname == "smoothing";
        for (int32_t method : methods) {
            const char *name = cs_method_name(method);
            Tally &t = tally[method];
            test::Model model(cs_create());
            cs_model *m = model.get();
            assert_non_null(m);
            CancelAt cancel;
            cancel.at = cancel_call;
            bool setup = cs_set_int(m, CS_PARAM_METHOD, method) == CS_OK &&
                         cs_set_int(m, CS_PARAM_CLASSES, classes) == CS_OK &&
                         cs_set_int(m, CS_PARAM_ITEMS, extra_items > 0 ? n_items : 0) == CS_OK &&
                         cs_set_gold(m, crowd.gold_item.data(), crowd.gold_label.data(),
                                     crowd.gold_item.size()) == CS_OK &&
                         cs_set_progress(m, cancel_at, &cancel) == CS_OK;
            for (const auto &[pname, value] : params)
                setup = setup && cs_set_param_string(m, pname.c_str(), value.c_str()) == CS_OK;
            if (!setup) {
                print_error("crowd %ld, %s: setting up the handle failed: %s\n", n, name, cs_last_error(m));
                ++failures;
                continue;
            }
            const auto start = std::chrono::steady_clock::now();
            const cs_status s = cs_fit(m, crowd.item.data(), crowd.worker.data(), crowd.label.data(),
                                       crowd.item.size());
            t.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            ++t.fits;
            if (k_fit < 2) {
                if (s != CS_ERR_TOO_FEW_CLASSES) {
                    print_error("crowd %ld, %s: k = %d gave %s, expected CS_ERR_TOO_FEW_CLASSES (%s)\n", n,
                                name, k_fit, cs_status_string(s), crowd_text(crowd, classes, params).c_str());
                    ++failures;
                }
                ++t.too_few;
                continue;
            }
            if (s != CS_OK && s != CS_ERR_CANCELLED) {
                print_error("crowd %ld, %s: %s: %s (%s)\n", n, name, cs_status_string(s), cs_last_error(m),
                            crowd_text(crowd, classes, params).c_str());
                ++failures;
                continue;
            }
            const bool cancelled = s == CS_ERR_CANCELLED;
            if (cancelled != (cancel.at >= 0 && cancel.calls > cancel.at)) {
                print_error("crowd %ld, %s: status %s but the callback %s\n", n, name, cs_status_string(s),
                            cancelled ? "did not cancel" : "cancelled");
                ++failures;
            }
            t.cancelled += cancelled;
            test::FitReadout r;
            const std::string bad = test::check_crowd_fit(m, method, cancelled, crowd.gold_item,
                                                          crowd.gold_label, &r);
            if (!bad.empty()) {
                print_error("crowd %ld, %s: %s (%s)\n", n, name, bad.c_str(),
                            crowd_text(crowd, classes, params).c_str());
                ++failures;
                continue;
            }
            if (oracle.empty() || cancelled) continue;
            bool wrong = false;
            for (std::size_t j = 0; j < oracle.size(); ++j)
                if (oracle[j] >= 0 && r.labels[j] != oracle[j]) wrong = true;
            if (smoothed) {
                ++t.smoothed_unanimity;
                t.smoothed_mislabelled += wrong;
                continue;
            }
            ++t.unanimity;
            if (wrong) {
                ++t.mislabelled;
                if (std::getenv("CS_SWEEP_VERBOSE") != nullptr)  // every one, not only the first
                    std::printf("mislabelled %s: %s\n", name, crowd_text(crowd, classes, params).c_str());
                if (t.first_mislabelled.empty()) t.first_mislabelled = crowd_text(crowd, classes, params);
            }
        }
    }
    std::printf("degenerate sweep: %ld crowds; unanimity crowds and those mislabelled, maximum-likelihood fits "
                "(smoothing 0, the oracle) and smoothed ones (reported)\n%-18s %6s %9s %11s %9s %11s %9s %6s %8s\n",
                crowds, "method", "fits", "unanimity", "mislabelled", "smoothed", "mislabelled", "cancelled", "k<2",
                "seconds");
    for (int32_t method : methods) {
        const Tally &t = tally[method];
        std::printf("%-18s %6ld %9ld %11ld %9ld %11ld %9ld %6ld %8.2f\n", cs_method_name(method), t.fits,
                    t.unanimity, t.mislabelled, t.smoothed_unanimity, t.smoothed_mislabelled, t.cancelled,
                    t.too_few, t.seconds);
    }
    for (int32_t method : methods) {
        const Tally &t = tally[method];
        if (t.mislabelled == 0) continue;
        const bool asserted = oracle_method(cs_method_name(method));
        std::printf("%s %s: first mislabelled unanimity crowd: %s\n", asserted ? "FAIL" : "note",
                    cs_method_name(method), t.first_mislabelled.c_str());
        if (asserted) ++failures;
    }
    if (failures > 0) fail_msg("%ld violations (see above)", failures);
}

}  // namespace

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(degenerate_sweep)};
    return cmocka_run_group_tests_name("degenerate_sweep", tests, nullptr, nullptr);
}

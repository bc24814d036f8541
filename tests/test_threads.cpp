// SPDX-License-Identifier: MIT
// Many handles fitting at once (issue 12: the ThreadSanitizer build of CI runs this):
// 8 threads, each with its own handles, fit every method -- crowd, points and graph --
// several times on shared read-only inputs, while also calling the handle-free
// functions (names, parameter table, versions, status strings), and every result must
// equal, bit for bit, the one a single thread computed first. "Distinct handles share
// no mutable state" (crowdspec.h, Threads). Under ThreadSanitizer any data race between
// the fits is reported; CI builds that variant without OpenMP (CS_OPENMP=OFF: libgomp
// is not instrumented and would be reported falsely), so the threads here are the only
// ones, and with OPENBLAS_NUM_THREADS=1 so that OpenBLAS runs in the calling thread.
#include <atomic>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "support/cmocka_cpp.hpp"
#include "support/crowd_invariants.hpp"

namespace {

constexpr int kThreads = 8, kRounds = 2;

struct Inputs {
    std::vector<int32_t> item, worker, label;  // 300 items x 4 labels, k = 3
    std::vector<double> x;                     // 200 x 4, three clusters
    std::vector<int32_t> u, v;                 // 120 nodes, two blocks
    std::vector<int32_t> judge, left, right, answer;  // 900 comparisons of 60 items
    std::vector<double> value;                        // a number for each crowd label
    std::vector<int64_t> tag_start;                   // the crowd labels as tag sets (tag = label)
    std::vector<int32_t> tag;
};

Inputs make_inputs() {
    Inputs in;
    test::SplitMix rng(5);
    for (int32_t j = 0; j < 300; ++j) {
        const int32_t truth = rng.below(3);
        for (int32_t t = 0; t < 4; ++t) {
            const int32_t w = (3 * j + 5 * t) % 20;
            in.item.push_back(j);
            in.worker.push_back(w);
            in.label.push_back(rng.chance(0.4 + 0.025 * w) ? truth : rng.below(3));
        }
    }
    for (int32_t i = 0; i < 200; ++i)
        for (int32_t c = 0; c < 4; ++c) in.x.push_back(5.0 * (i % 3 == c % 3) + rng.unit());
    for (int32_t a = 0; a < 120; ++a)
        for (int32_t b = a + 1; b < 120; ++b)
            if (rng.chance(a % 2 == b % 2 ? 0.15 : 0.02)) {
                in.u.push_back(a);
                in.v.push_back(b);
            }
    // Comparisons of 60 items by 12 workers: the higher id wins two times in three.
    for (int32_t c = 0; c < 900; ++c) {
        const int32_t a = rng.below(60), b = rng.below(60);
        in.judge.push_back(c % 12);
        in.left.push_back(a);
        in.right.push_back(b);
        in.answer.push_back(rng.chance(0.1) ? CS_ANSWER_TIE : ((a > b) == rng.chance(0.67) ? CS_ANSWER_LEFT : CS_ANSWER_RIGHT));
    }
    // The same answers as numbers (label plus noise) and as one-tag sets.
    for (std::size_t t = 0; t < in.item.size(); ++t) {
        in.value.push_back(in.label[t] + rng.unit());
        in.tag_start.push_back(static_cast<int64_t>(t));
        in.tag.push_back(in.label[t]);
    }
    in.tag_start.push_back(static_cast<int64_t>(in.item.size()));
    return in;
}

struct Outcome {
    cs_status status = CS_OK;
    std::vector<int32_t> labels;
    std::vector<double> posteriors;
    int32_t iterations = -1;
};

Outcome fit_method(int32_t method, const Inputs &in, int32_t threads_param) {
    Outcome o;
    cs_model *m = cs_create();
    if (m == nullptr) {
        o.status = CS_ERR_OUT_OF_MEMORY;
        return o;
    }
    cs_set_int(m, CS_PARAM_METHOD, method);
    cs_set_int(m, CS_PARAM_THREADS, threads_param);
    switch (cs_method_input(method)) {
        case CS_INPUT_CROWD:
            o.status = cs_fit(m, in.item.data(), in.worker.data(), in.label.data(), in.item.size());
            break;
        case CS_INPUT_POINTS:
            cs_set_int(m, CS_PARAM_CLASSES, 3);
            o.status = cs_fit_points(m, in.x.data(), 200, 4, 0);
            break;
        case CS_INPUT_COMPARISONS:
            o.status = cs_fit_comparisons(m, in.judge.data(), in.left.data(), in.right.data(), in.answer.data(),
                                          in.left.size());
            break;
        case CS_INPUT_NUMBERS:
            o.status = cs_fit_numbers(m, in.item.data(), in.worker.data(), in.value.data(), in.item.size());
            break;
        case CS_INPUT_TAGS:
            o.status = cs_fit_tags(m, in.item.data(), in.worker.data(), in.tag_start.data(), in.tag.data(),
                                   in.item.size(), 3);
            break;
        default:
            cs_set_int(m, CS_PARAM_CLASSES, 2);
            o.status = cs_fit_graph(m, 120, in.u.data(), in.v.data(), in.u.size());
            break;
    }
    if (o.status == CS_OK) {
        size_t n = 0, k = 0;
        cs_n_items(m, &n);
        cs_n_classes(m, &k);
        o.labels.resize(n);
        o.posteriors.resize(n * k);
        cs_labels(m, o.labels.data(), n);
        cs_posteriors(m, o.posteriors.data(), n * k);
        cs_iterations(m, &o.iterations);
        // The scores, estimates or tag probabilities in place of posteriors.
        if (cs_method_input(method) == CS_INPUT_COMPARISONS) {
            o.posteriors.resize(n);
            cs_scores(m, o.posteriors.data(), nullptr, nullptr, n);
        } else if (cs_method_input(method) == CS_INPUT_NUMBERS) {
            o.posteriors.resize(2 * n);
            cs_number_estimates(m, o.posteriors.data(), o.posteriors.data() + n, n);
        } else if (cs_method_input(method) == CS_INPUT_TAGS) {
            o.posteriors.resize(3 * n);
            cs_tag_probabilities(m, o.posteriors.data(), 3 * n);
        }
    }
    cs_destroy(m);
    return o;
}

bool same(const Outcome &a, const Outcome &b) {
    return a.status == b.status && a.labels == b.labels && a.iterations == b.iterations &&
           a.posteriors.size() == b.posteriors.size() &&
           (a.posteriors.empty() ||
            std::memcmp(a.posteriors.data(), b.posteriors.data(), a.posteriors.size() * sizeof(double)) == 0);
}

// The handle-free functions, which read only constant tables.
bool tables_agree() {
    bool ok = std::strcmp(cs_version_string(), cs_version_string()) == 0 && cs_version_number() == CS_VERSION_NUMBER;
    for (int32_t i = 0; i < cs_method_count(); ++i) {
        int32_t id = 0;
        ok = ok && cs_method_from_name(cs_method_name(cs_method_at(i)), &id) == CS_OK && id == cs_method_at(i);
    }
    for (int32_t i = 0; i < cs_param_count(); ++i) {
        int32_t id = 0;
        double lo = 0, hi = 0;
        ok = ok && cs_param_from_name(cs_param_name(cs_param_at(i)), &id) == CS_OK && id == cs_param_at(i) &&
             cs_param_info(id, &lo, &hi, nullptr, nullptr) == CS_OK && lo <= hi;
    }
    return ok && std::strcmp(cs_status_string(CS_ERR_TOO_LARGE), "CS_ERR_TOO_LARGE") == 0;
}

void many_handles_fit_every_method_at_once(void **) {
    const Inputs in = make_inputs();
    std::vector<int32_t> methods;
    std::vector<Outcome> reference;
    for (int32_t i = 0; i < cs_method_count(); ++i) {
        methods.push_back(cs_method_at(i));
        reference.push_back(fit_method(cs_method_at(i), in, 1));
        if (reference.back().status != CS_OK)
            fail_msg("%s: the single-threaded fit failed: %s", cs_method_name(cs_method_at(i)),
                     cs_status_string(reference.back().status));
    }
    std::atomic<int> mismatches{0}, table_errors{0};
    std::vector<std::thread> pool;
    for (int t = 0; t < kThreads; ++t)
        pool.emplace_back([&, t] {
            for (int round = 0; round < kRounds; ++round)
                for (std::size_t i = 0; i < methods.size(); ++i) {
                    // Each thread walks the methods from a different place, so that
                    // different methods overlap in time.
                    const std::size_t at = (i + static_cast<std::size_t>(t) * 2) % methods.size();
                    if (!same(fit_method(methods[at], in, 1 + (t + round) % 2), reference[at])) ++mismatches;
                    if (!tables_agree()) ++table_errors;
                }
        });
    for (std::thread &th : pool) th.join();
    if (mismatches != 0 || table_errors != 0)
        fail_msg("%d fits differed from the single-threaded reference, %d table lookups failed", mismatches.load(),
                 table_errors.load());
}

}  // namespace

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(many_handles_fit_every_method_at_once)};
    return cmocka_run_group_tests_name("threads", tests, nullptr, nullptr);
}

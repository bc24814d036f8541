// SPDX-License-Identifier: MIT
// A crowd fit does not depend on the order of the labels: the library puts every
// item's labels in worker order before any method sees them (CrowdData::build), so
// labels, posteriors, confusion matrices and log-likelihood are bit for bit the same
// whether the triples come item by item in worker order, item by item in another order,
// completely shuffled, or as cs_fit_csr codes in any order within an item; for every
// crowd method, and for one or two threads (the build runs in parallel above 100,000
// labels). With the duplicate policies 'first' and 'last', "first" and "last" mean the
// order the labels came in: the expected fit is that of the labels deduplicated by hand.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "cs_test.h"

namespace {

uint64_t next_random(uint64_t &s) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    return s >> 33;
}

struct Triples {
    std::vector<int32_t> item, worker, label;
    std::size_t size() const { return item.size(); }
    void add(int32_t j, int32_t w, int32_t l) {
        item.push_back(j);
        worker.push_back(w);
        label.push_back(l);
    }
    Triples permuted(const std::vector<std::size_t> &order) const {
        Triples out;
        for (std::size_t t : order) out.add(item[t], worker[t], label[t]);
        return out;
    }
};

// `items` items with `per_item` distinct workers each out of `workers`, k classes,
// listed item by item with each item's workers in increasing order. Worker w is right
// with probability 0.55 + 0.4 w / workers, else picks a wrong class at random.
Triples canonical_crowd(int32_t items, int32_t workers, int32_t k, int32_t per_item, uint64_t seed) {
    Triples out;
    uint64_t s = seed;
    std::vector<int32_t> chosen;
    for (int32_t j = 0; j < items; ++j) {
        const int32_t truth = static_cast<int32_t>(next_random(s) % static_cast<uint64_t>(k));
        chosen.clear();
        while (static_cast<int32_t>(chosen.size()) < per_item) {
            const int32_t w = static_cast<int32_t>(next_random(s) % static_cast<uint64_t>(workers));
            if (std::find(chosen.begin(), chosen.end(), w) == chosen.end()) chosen.push_back(w);
        }
        std::sort(chosen.begin(), chosen.end());
        for (int32_t w : chosen) {
            const double accuracy = 0.55 + 0.4 * w / workers;
            const double u = static_cast<double>(next_random(s)) / 2147483648.0;
            const int32_t l = u < accuracy ? truth
                                           : (truth + 1 + static_cast<int32_t>(next_random(s) % (k - 1))) % k;
            out.add(j, w, l);
        }
    }
    return out;
}

std::vector<std::size_t> shuffled_order(std::size_t n, uint64_t seed) {
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    uint64_t s = seed;
    for (std::size_t i = n - 1; i > 0; --i) std::swap(order[i], order[next_random(s) % (i + 1)]);
    return order;
}

// Item by item as in `t`, but each item's labels in a random order.
std::vector<std::size_t> shuffled_within_items(const Triples &t, uint64_t seed) {
    std::vector<std::size_t> order(t.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    uint64_t s = seed;
    for (std::size_t a = 0; a < t.size();) {
        std::size_t b = a;
        while (b < t.size() && t.item[b] == t.item[a]) ++b;
        for (std::size_t m = b - a; m > 1; --m) std::swap(order[a + m - 1], order[a + next_random(s) % m]);
        a = b;
    }
    return order;
}

// Everything a crowd fit gives, or the status it failed with.
struct Outcome {
    cs_status status = CS_OK;
    std::vector<int32_t> labels;
    std::vector<double> posteriors, confusion;
    cs_status confusion_status = CS_OK, log_likelihood_status = CS_OK;
    double log_likelihood = 0;
};

Outcome collect(cs_model *m, cs_status status) {
    Outcome out;
    out.status = status;
    if (status != CS_OK) return out;
    size_t items = 0, workers = 0, k = 0;
    CS_ASSERT_OK(cs_n_items(m, &items));
    CS_ASSERT_OK(cs_n_workers(m, &workers));
    CS_ASSERT_OK(cs_n_classes(m, &k));
    out.labels.resize(items);
    out.posteriors.resize(items * k);
    out.confusion.resize(workers * k * k);
    CS_ASSERT_OK(cs_labels(m, out.labels.data(), items));
    CS_ASSERT_OK(cs_posteriors(m, out.posteriors.data(), out.posteriors.size()));
    out.confusion_status = cs_confusion(m, out.confusion.data(), out.confusion.size());
    out.log_likelihood_status = cs_log_likelihood(m, &out.log_likelihood);
    return out;
}

cs_model *model_for(const char *method, int threads, const char *duplicates) {
    cs_model *m = cs_new_model(method);
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_SEED, 5));
    CS_ASSERT_OK(cs_set_int(m, CS_PARAM_THREADS, threads));
    if (duplicates != nullptr) CS_ASSERT_OK(cs_set_param_string(m, "duplicates", duplicates));
    return m;
}

Outcome fit_triples(const char *method, const Triples &t, int threads, const char *duplicates = nullptr) {
    cs_model *m = model_for(method, threads, duplicates);
    const Outcome out = collect(m, cs_fit(m, t.item.data(), t.worker.data(), t.label.data(), t.size()));
    cs_destroy(m);
    return out;
}

// The triples (grouped by item, items 0 .. n - 1 all present) as cs_fit_csr codes, in
// their order within each item.
Outcome fit_codes(const char *method, const Triples &t, int32_t k, int threads) {
    const int32_t items = t.item.back() + 1;
    std::vector<int64_t> start(static_cast<std::size_t>(items) + 1, 0);
    std::vector<uint32_t> code(t.size());
    for (std::size_t p = 0; p < t.size(); ++p) {
        ++start[static_cast<std::size_t>(t.item[p]) + 1];
        code[p] = static_cast<uint32_t>(t.worker[p] * k + t.label[p]);
    }
    for (int32_t j = 0; j < items; ++j) start[j + 1] += start[j];
    cs_model *m = model_for(method, threads, nullptr);
    const Outcome out = collect(m, cs_fit_csr(m, static_cast<size_t>(items), start.data(), code.data(), k));
    cs_destroy(m);
    return out;
}

void assert_same(const Outcome &a, const Outcome &b, const std::string &what) {
    if (a.status != b.status) {
        print_error("%s: status %s against %s\n", what.c_str(), cs_status_string(a.status),
                    cs_status_string(b.status));
        fail();
    }
    if (a.status != CS_OK) return;
    const bool same = a.labels == b.labels && a.posteriors.size() == b.posteriors.size() &&
                      std::memcmp(a.posteriors.data(), b.posteriors.data(), a.posteriors.size() * sizeof(double)) == 0 &&
                      a.confusion_status == b.confusion_status && a.log_likelihood_status == b.log_likelihood_status &&
                      (a.confusion_status != CS_OK ||
                       std::memcmp(a.confusion.data(), b.confusion.data(), a.confusion.size() * sizeof(double)) == 0) &&
                      (a.log_likelihood_status != CS_OK ||
                       std::memcmp(&a.log_likelihood, &b.log_likelihood, sizeof(double)) == 0);
    if (!same) {
        double worst = 0;
        for (std::size_t i = 0; i < a.posteriors.size() && i < b.posteriors.size(); ++i)
            worst = std::max(worst, std::fabs(a.posteriors[i] - b.posteriors[i]));
        print_error("%s: results differ (largest posterior difference %.3g, log-likelihoods %.17g / %.17g)\n",
                    what.c_str(), worst, a.log_likelihood, b.log_likelihood);
        fail();
    }
}

const char *const kMethods[] = {"mv",   "ds",          "opt-ds",     "crowd-lloyd",       "kos",  "kos-mp",
                                "ghosh-svd", "eigen-ratio", "one-coin-ds", "class-one-coin-ds", "wawa", "zbs",
                                "glad", "mace",        "m-msr",      "ebcc",              "bcc"};

// Every crowd method on 2,000 items x 6 labels (k = 3, 40 workers): the four orders agree.
void every_method_every_order(void **) {
    const int32_t k = 3;
    const Triples canonical = canonical_crowd(2000, 40, k, 6, 17);
    const Triples shuffled = canonical.permuted(shuffled_order(canonical.size(), 3));
    const Triples mixed_items = canonical.permuted(shuffled_within_items(canonical, 4));
    int methods = 0;
    for (const char *method : kMethods) {
        const Outcome reference = fit_triples(method, canonical, 1);
        if (reference.status != CS_OK) {
            print_error("%s failed on the canonical crowd: %s\n", method, cs_status_string(reference.status));
            fail();
        }
        assert_same(reference, fit_triples(method, shuffled, 1), std::string(method) + ", shuffled");
        assert_same(reference, fit_triples(method, mixed_items, 1), std::string(method) + ", shuffled within items");
        assert_same(reference, fit_codes(method, mixed_items, k, 1), std::string(method) + ", cs_fit_csr unordered");
        assert_same(reference, fit_codes(method, canonical, k, 1), std::string(method) + ", cs_fit_csr ordered");
        ++methods;
    }
    assert_int_equal(methods, sizeof kMethods / sizeof kMethods[0]);
}

// 300,000 labels (the build runs on two threads when asked): shuffled or not, one or two
// threads, the same fit. Several items hold many labels (the sort's long-item path).
void large_crowd_threads(void **) {
    const int32_t k = 2;
    Triples canonical = canonical_crowd(30000, 500, k, 10, 23);
    // Three more items labelled by every worker, in worker order.
    for (int32_t j = 30000; j < 30003; ++j)
        for (int32_t w = 0; w < 500; ++w) canonical.add(j, w, (j + w) % 3 == 0);
    const Triples shuffled = canonical.permuted(shuffled_order(canonical.size(), 9));
    const Triples mixed_items = canonical.permuted(shuffled_within_items(canonical, 10));
    for (const char *method : {"mv", "ds", "opt-ds", "glad"}) {
        const Outcome reference = fit_triples(method, canonical, 1);
        assert_int_equal(reference.status, CS_OK);
        for (int threads : {1, 2}) {
            const std::string tag = std::string(method) + ", " + std::to_string(threads) + " thread(s), ";
            assert_same(reference, fit_triples(method, canonical, threads), tag + "ordered");
            assert_same(reference, fit_triples(method, shuffled, threads), tag + "shuffled");
            assert_same(reference, fit_triples(method, mixed_items, threads), tag + "shuffled within items");
            assert_same(reference, fit_codes(method, mixed_items, k, threads), tag + "cs_fit_csr unordered");
        }
    }
}

// Duplicates: each of 20% of the (item, worker) pairs labelled again with another
// label; the rows then shuffled. 'first' / 'last' keep the pair's label that comes
// first / last in the shuffled input: the same fit as the labels deduplicated here.
void duplicates_keep_input_order(void **) {
    const int32_t k = 3;
    const Triples canonical = canonical_crowd(3000, 30, k, 5, 31);
    Triples with_repeats = canonical;
    uint64_t s = 77;
    for (std::size_t t = 0; t < canonical.size(); ++t)
        if (next_random(s) % 5 == 0) with_repeats.add(canonical.item[t], canonical.worker[t], (canonical.label[t] + 1) % k);
    for (uint64_t seed : {1u, 2u}) {
        const Triples input = with_repeats.permuted(shuffled_order(with_repeats.size(), seed));
        for (const char *policy : {"first", "last"}) {
            const bool first = std::strcmp(policy, "first") == 0;
            // Keep, for each (item, worker), the row seen first (or last) in `input`.
            std::vector<std::vector<std::size_t>> rows_of(3000);
            for (std::size_t t = 0; t < input.size(); ++t) rows_of[input.item[t]].push_back(t);
            Triples expected;
            for (int32_t j = 0; j < 3000; ++j) {
                std::vector<std::size_t> &rows = rows_of[j];
                std::vector<std::size_t> kept;
                for (std::size_t a = 0; a < rows.size(); ++a) {
                    bool is_kept = true;
                    for (std::size_t b = 0; b < rows.size(); ++b)
                        if (b != a && input.worker[rows[b]] == input.worker[rows[a]] &&
                            (first ? rows[b] < rows[a] : rows[b] > rows[a]))
                            is_kept = false;
                    if (is_kept) kept.push_back(rows[a]);
                }
                for (std::size_t t : kept) expected.add(j, input.worker[t], input.label[t]);
            }
            assert_true(expected.size() == canonical.size());
            for (const char *method : {"mv", "ds", "mace"}) {
                const std::string tag = std::string(method) + ", duplicates " + policy;
                assert_same(fit_triples(method, expected, 1), fit_triples(method, input, 1, policy), tag);
            }
        }
        // And 'reject' names one of the pairs.
        cs_model *m = model_for("mv", 1, nullptr);
        CS_ASSERT_FAIL(m, cs_fit(m, input.item.data(), input.worker.data(), input.label.data(), input.size()),
                       CS_ERR_DUPLICATE, "labelled item", "twice", "label indices");
        cs_destroy(m);
    }
}

}  // namespace

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_method_every_order),
        cmocka_unit_test(large_crowd_threads),
        cmocka_unit_test(duplicates_keep_input_order),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}

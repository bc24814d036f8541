// SPDX-License-Identifier: MIT
// libFuzzer target: cs_fit with every crowd method (and now and then a method of
// another kind), random triples (ids and labels sometimes out of range), random
// parameters by name, gold, a classifier's probabilities (issue 34: rows of extreme
// values, now and then of another k or of items beyond the crowd), and cancels.
// Invariants (tests/support/crowd_invariants.hpp):
// a documented status; after a failure no fit and a message; after CS_OK or a cancel
// finite outputs, posterior rows summing to 1, labels in range and equal to the argmax,
// gold pinned, converged = 0 after a cancel; the same results bit for bit from a second
// handle with another thread count, and from the first handle fitted again.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "fuzz_input.hpp"
#include "fuzz_params.hpp"
#include "support/crowd_invariants.hpp"
#include "support/fit_helpers.hpp"

namespace {

// with_model: the handle has a classifier's rows, whose k or items may not fit the
// crowd, or whose method takes none (CS_ERR_INVALID_ARGUMENT, cs_set_model_probs).
bool documented_fit_status(cs_status s, bool with_model) {
    switch (s) {
        case CS_OK: case CS_ERR_NULL_POINTER: case CS_ERR_EMPTY_INPUT: case CS_ERR_INVALID_ID: case CS_ERR_INVALID_LABEL:
        case CS_ERR_TOO_FEW_CLASSES: case CS_ERR_TOO_MANY_CLASSES: case CS_ERR_TOO_LARGE: case CS_ERR_DUPLICATE:
        case CS_ERR_WRONG_INPUT_KIND: case CS_ERR_CANCELLED:
            return true;
        case CS_ERR_INVALID_ARGUMENT:
            return with_model;
        default:
            return false;  // CS_ERR_OUT_OF_MEMORY is not expected of inputs this small
    }
}

// A classifier's rows: for items 0 .. n - 1 (item empty) or listed ids, each value one
// of a few extremes or a byte's fraction; a row of zeros gets one 1.
struct ClassifierRows {
    std::vector<int32_t> item;
    std::vector<double> probs;
    int32_t k = 0;
    std::size_t n = 0;
    cs_status set_on(cs_model *m) const {
        return cs_set_model_probs(m, item.empty() ? nullptr : item.data(), probs.data(), n, k);
    }
};

ClassifierRows classifier_rows(fuzz::Input &in, int32_t n_items, int32_t k) {
    ClassifierRows rows;
    rows.k = in.flip(16) ? k + 1 : k;
    rows.n = static_cast<std::size_t>(in.in(1, n_items));
    if (in.flip(2))
        for (std::size_t r = 0; r < rows.n; ++r)  // r or 2r (a repeat now and then), or beyond the items
            rows.item.push_back(static_cast<int32_t>(r) * in.in(1, 2) + (in.flip(32) ? n_items : 0));
    static const double extreme[] = {0.0, 5e-324, 1e-300, 1e-12, 0.5, 1.0, 1e300};
    for (std::size_t r = 0; r < rows.n; ++r) {
        bool any = false;
        for (int32_t c = 0; c < rows.k; ++c) {
            const uint8_t b = in.byte();
            const double v = b < 64 ? extreme[b % 7] : (b - 63) / 192.0;
            rows.probs.push_back(v);
            any = any || v > 0.0;
        }
        if (!any) rows.probs.back() = 1.0;
    }
    return rows;
}

struct Fit {
    cs_status status = CS_OK;
    test::FitReadout r;
    int32_t calls = 0;
};

Fit run(cs_model *m, const std::vector<int32_t> &item, const std::vector<int32_t> &worker,
        const std::vector<int32_t> &label, int32_t cancel_at) {
    Fit f;
    fuzz::Cancel cancel;
    cancel.at = cancel_at;
    if (cs_set_progress(m, fuzz::Cancel::callback, &cancel) != CS_OK) fuzz::fail("cs_set_progress failed");
    f.status = cs_fit(m, item.data(), worker.data(), label.data(), item.size());
    f.calls = cancel.calls;
    return f;
}

bool same(const test::FitReadout &a, const test::FitReadout &b) {
    auto bits = [](const std::vector<double> &x, const std::vector<double> &y) {
        return x.size() == y.size() && (x.empty() || std::memcmp(x.data(), y.data(), x.size() * sizeof(double)) == 0);
    };
    return a.labels == b.labels && bits(a.posteriors, b.posteriors) && bits(a.confusion, b.confusion) &&
           bits(a.prior, b.prior) && bits(a.trace, b.trace) && a.iterations == b.iterations &&
           a.converged == b.converged && a.notes == b.notes &&
           std::memcmp(&a.log_likelihood, &b.log_likelihood, sizeof(double)) == 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz::Input in(data, size);
    std::vector<int32_t> crowd_methods, other_methods;
    for (int32_t i = 0; i < cs_method_count(); ++i)
        (cs_method_input(cs_method_at(i)) == CS_INPUT_CROWD ? crowd_methods : other_methods).push_back(cs_method_at(i));
    const uint8_t pick = in.byte();
    const int32_t method = pick % 16 == 15 ? other_methods[pick / 16 % other_methods.size()]
                                           : crowd_methods[pick % crowd_methods.size()];
    const int32_t n_items = in.in(1, 12), n_workers = in.in(1, 8), k = in.in(2, 6), n_labels = in.in(0, 60);
    const bool bad_ids = in.flip(8);
    std::vector<int32_t> item, worker, label;
    for (int32_t t = 0; t < n_labels; ++t) {
        item.push_back(in.in(0, n_items - 1));
        worker.push_back(in.in(0, n_workers - 1));
        label.push_back(in.in(0, k - 1));
        if (bad_ids && in.flip(16)) {  // one id or label out of range
            const int32_t bad[] = {-1, INT32_MIN, INT32_MAX, n_items + 3};
            (in.flip(3) ? item : in.flip(2) ? worker : label).back() = bad[in.byte() % 4];
        }
    }
    std::vector<int32_t> gold_item, gold_label;
    for (int32_t g = in.in(0, 3); g > 0; --g) {
        gold_item.push_back(in.in(0, n_items));
        gold_label.push_back(in.in(0, k - 1));
    }
    const int32_t cancel_at = in.flip(6) ? in.in(0, 5) : -1;
    const bool with_model = in.flip(3);
    const ClassifierRows rows = with_model ? classifier_rows(in, n_items, k) : ClassifierRows{};

    test::Model model(cs_create());
    cs_model *m = model.get();
    if (m == nullptr) fuzz::fail("cs_create failed");
    if (cs_set_int(m, CS_PARAM_METHOD, method) != CS_OK) fuzz::fail("cs_set_int(method) failed");
    fuzz::set_random_params(m, in, in.in(0, 6));
    fuzz::cap_costs(m);
    const cs_status gs = cs_set_gold(m, gold_item.data(), gold_label.data(), gold_item.size());
    if (gs != CS_OK && gs != CS_ERR_DUPLICATE) fuzz::fail("cs_set_gold returned %s", cs_status_string(gs));
    if (gs != CS_OK) gold_item.clear(), gold_label.clear();
    bool model_set = false;
    if (with_model) {
        // Ids listed twice are refused here, the handle left as it was: then no rows.
        const cs_status ms = rows.set_on(m);
        if (ms != CS_OK && ms != CS_ERR_INVALID_ARGUMENT)
            fuzz::fail("cs_set_model_probs returned %s", cs_status_string(ms));
        model_set = ms == CS_OK;
    }
    const int32_t threads = in.in(1, 3);
    cs_set_int(m, CS_PARAM_THREADS, threads);

    const Fit first = run(m, item, worker, label, cancel_at);
    if (!documented_fit_status(first.status, model_set))
        fuzz::fail("cs_fit returned %s, not in its documented list: %s", cs_status_string(first.status),
                   cs_last_error(m));
    const bool cancelled = first.status == CS_ERR_CANCELLED;
    Fit a = first;
    if (first.status != CS_OK && !cancelled) {
        int32_t l = 0;
        if (cs_labels(m, &l, 1) != CS_ERR_NOT_FITTED) fuzz::fail("a failed fit left results");
        if (cs_last_error(m)[0] == '\0') fuzz::fail("a failed fit (%s) left no message", cs_status_string(first.status));
        if (std::strchr(cs_last_error(m), '\n') != nullptr) fuzz::fail("a message spans lines: %s", cs_last_error(m));
        return 0;
    }
    const std::string bad = test::check_crowd_fit(m, method, cancelled, gold_item, gold_label, &a.r);
    if (!bad.empty()) fuzz::fail("%s (method %s, status %s)", bad.c_str(), cs_method_name(method),
                                 cs_status_string(first.status));

    // The same fit from another handle with another thread count, and again here.
    test::Model other(cs_create());
    fuzz::copy_params(m, other.get());
    cs_set_int(other.get(), CS_PARAM_THREADS, threads == 1 ? 2 : 1);
    cs_set_gold(other.get(), gold_item.data(), gold_label.data(), gold_item.size());
    if (model_set) rows.set_on(other.get());
    Fit b = run(other.get(), item, worker, label, cancel_at);
    if (b.status != first.status || b.calls != first.calls)
        fuzz::fail("threads %d vs %d: status %s vs %s, %d vs %d progress calls", threads, threads == 1 ? 2 : 1,
                   cs_status_string(first.status), cs_status_string(b.status), first.calls, b.calls);
    if (!test::read_fit(other.get(), b.r).empty() || !same(a.r, b.r))
        fuzz::fail("results depend on the thread count (method %s)", cs_method_name(method));
    Fit c = run(m, item, worker, label, cancel_at);
    if (c.status != first.status || !test::read_fit(m, c.r).empty() || !same(a.r, c.r))
        fuzz::fail("a second fit on the same handle differs (method %s)", cs_method_name(method));
    return 0;
}

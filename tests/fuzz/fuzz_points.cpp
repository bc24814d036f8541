// SPDX-License-Identifier: MIT
// libFuzzer target: cs_fit_points (lloyd, kmeans++) on up to 40 points in up to 5
// dimensions, coordinates including huge, tiny, infinite and NaN values, with a leading
// dimension, random k (also 0 and > n) and parameters by name, and cancels. Invariants:
// the documented status, CS_ERR_NON_FINITE exactly when a coordinate is not finite or
// above 1e100 in magnitude, CS_ERR_TOO_MANY_CLASSES when k > n; after CS_OK or a cancel,
// labels in [0, k), every cluster non-empty, the centres the means of their points, the
// prior the cluster fractions, one-hot posteriors, a trace that never decreases,
// converged = 0 after a cancel, and the same results for another thread count.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "fuzz_input.hpp"
#include "fuzz_params.hpp"
#include "support/fit_helpers.hpp"

namespace {

struct Result {
    cs_status status = CS_OK;
    std::vector<int32_t> labels;
    std::vector<double> centres, prior, trace, posteriors;
    int32_t iterations = 0, converged = 0, notes = 0;
};

Result run(cs_model *m, const std::vector<double> &x, size_t n, size_t d, size_t ld, int32_t cancel_at) {
    Result r;
    fuzz::Cancel cancel;
    cancel.at = cancel_at;
    cs_set_progress(m, fuzz::Cancel::callback, &cancel);
    r.status = cs_fit_points(m, x.data(), n, d, ld);
    if (r.status != CS_OK && r.status != CS_ERR_CANCELLED) return r;
    size_t items = 0, k = 0, dims = 0, tl = 0;
    if (cs_n_items(m, &items) != CS_OK || cs_n_classes(m, &k) != CS_OK || cs_n_dims(m, &dims) != CS_OK ||
        cs_trace_length(m, &tl) != CS_OK)
        fuzz::fail("reading the sizes of a points fit failed");
    if (items != n || dims != d) fuzz::fail("n_items %zu / n_dims %zu, expected %zu / %zu", items, dims, n, d);
    r.labels.resize(n);
    r.centres.resize(k * d);
    r.prior.resize(k);
    r.trace.resize(tl);
    r.posteriors.resize(n * k);
    double none = 0;
    if (cs_labels(m, r.labels.data(), n) != CS_OK || cs_centres(m, r.centres.data(), k * d) != CS_OK ||
        cs_class_prior(m, r.prior.data(), k) != CS_OK || cs_trace(m, tl ? r.trace.data() : &none, tl) != CS_OK ||
        cs_posteriors(m, r.posteriors.data(), n * k) != CS_OK || cs_iterations(m, &r.iterations) != CS_OK ||
        cs_converged(m, &r.converged) != CS_OK || cs_fit_notes(m, &r.notes) != CS_OK)
        fuzz::fail("reading the results of a points fit failed: %s", cs_last_error(m));
    return r;
}

bool same_bits(const std::vector<double> &a, const std::vector<double> &b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz::Input in(data, size);
    static const char *const methods[] = {"lloyd", "kmeans++", "lloyd", "kmeans++", "ds"};
    const char *method = methods[in.byte() % 5];
    const size_t n = static_cast<size_t>(in.in(1, 40)), d = static_cast<size_t>(in.in(1, 5));
    const size_t ld = in.flip(4) ? d + 1 : (in.flip(8) ? 0 : d);
    const size_t stride = ld == 0 ? d : ld;
    std::vector<double> x((n - 1) * stride + d);
    const bool special = in.flip(3);
    for (double &v : x) v = special ? in.number() : (static_cast<int32_t>(in.byte()) - 128) / 4.0;
    bool bad_value = false;
    for (size_t i = 0; i < n; ++i)
        for (size_t j = 0; j < d; ++j) {
            const double v = x[i * stride + j];
            bad_value = bad_value || !std::isfinite(v) || std::fabs(v) > 1e100;
        }
    const int32_t k0 = in.in(0, static_cast<int32_t>(std::min<size_t>(n, 8)) + 1);
    const int32_t cancel_at = in.flip(6) ? in.in(0, 6) : -1;

    test::Model model(cs_create());
    cs_model *m = model.get();
    const fuzz::Setup setup = fuzz::set_up_model(m, in, method, k0);
    const int32_t k = setup.k, threads = setup.threads;

    const Result a = run(m, x, n, d, ld, cancel_at);
    const bool points_method = std::strcmp(method, "ds") != 0;
    cs_status expected = CS_OK;
    if (!points_method) expected = CS_ERR_WRONG_INPUT_KIND;
    else if (k < 2) expected = CS_ERR_TOO_FEW_CLASSES;
    else if (static_cast<size_t>(k) > n) expected = CS_ERR_TOO_MANY_CLASSES;
    else if (bad_value) expected = CS_ERR_NON_FINITE;
    if (expected != CS_OK && a.status != expected)
        fuzz::fail("cs_fit_points returned %s, expected %s: %s", cs_status_string(a.status), cs_status_string(expected),
                   cs_last_error(m));
    if (expected != CS_OK) return 0;
    if (a.status != CS_OK && a.status != CS_ERR_CANCELLED)
        fuzz::fail("cs_fit_points returned %s: %s", cs_status_string(a.status), cs_last_error(m));
    const bool cancelled = a.status == CS_ERR_CANCELLED;

    // Labels, non-empty clusters, centres = means, prior = fractions, one-hot rows.
    double scale = 1.0;
    for (size_t i = 0; i < n; ++i)
        for (size_t j = 0; j < d; ++j) scale = std::max(scale, std::fabs(x[i * stride + j]));
    std::vector<double> sum(static_cast<size_t>(k) * d, 0.0);
    std::vector<size_t> count(static_cast<size_t>(k), 0);
    for (size_t i = 0; i < n; ++i) {
        const int32_t h = a.labels[i];
        if (h < 0 || h >= k) fuzz::fail("label %d of point %zu outside [0, %d)", h, i, k);
        ++count[h];
        for (size_t j = 0; j < d; ++j) sum[h * d + j] += x[i * stride + j];
        for (int32_t l = 0; l < k; ++l)
            if (a.posteriors[i * k + l] != (l == h ? 1.0 : 0.0)) fuzz::fail("posterior row %zu is not one-hot", i);
    }
    for (int32_t h = 0; h < k; ++h) {
        if (count[h] == 0) fuzz::fail("cluster %d is empty", h);
        if (std::fabs(a.prior[h] - static_cast<double>(count[h]) / n) > 1e-12)
            fuzz::fail("prior[%d] = %.17g, cluster fraction %zu/%zu", h, a.prior[h], count[h], n);
        for (size_t j = 0; j < d; ++j) {
            const double mean = sum[h * d + j] / static_cast<double>(count[h]), c = a.centres[h * d + j];
            if (!std::isfinite(c) || std::fabs(c - mean) > 1e-9 * scale)
                fuzz::fail("centre %d, coordinate %zu: %.17g, the mean of its points is %.17g", h, j, c, mean);
        }
    }
    for (size_t t = 0; t < a.trace.size(); ++t) {
        if (!std::isfinite(a.trace[t])) fuzz::fail("trace[%zu] = %g", t, a.trace[t]);
        if (t > 0 && a.trace[t] < a.trace[t - 1] - 1e-9 * std::max(1.0, std::fabs(a.trace[t - 1])))
            fuzz::fail("the trace decreases: %.17g then %.17g (it never decreases)", a.trace[t - 1], a.trace[t]);
    }
    if (a.converged != 0 && a.converged != 1) fuzz::fail("converged = %d", a.converged);
    if (cancelled && (a.converged != 0 || !(a.notes & CS_NOTE_CANCELLED)))
        fuzz::fail("after a cancel: converged %d, notes %d", a.converged, a.notes);

    test::Model other(cs_create());
    fuzz::copy_params(m, other.get());
    cs_set_int(other.get(), CS_PARAM_THREADS, threads == 1 ? 2 : 1);
    const Result b = run(other.get(), x, n, d, ld, cancel_at);
    if (b.status != a.status || b.labels != a.labels || !same_bits(a.centres, b.centres) ||
        !same_bits(a.trace, b.trace) || a.iterations != b.iterations || a.converged != b.converged ||
        a.notes != b.notes)
        fuzz::fail("points results depend on the thread count (%s)", method);
    return 0;
}

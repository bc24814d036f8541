// SPDX-License-Identifier: MIT
// libFuzzer target: cs_fit_graph (commu-lloyd, spec, spec-mle) on up to 40 nodes and 90
// edges (ids sometimes out of range, self-loops, repeats), random k and parameters by
// name, and cancels. Invariants: the documented status (CS_ERR_INVALID_ID for a bad id,
// CS_ERR_EMPTY_INPUT without an edge that is not a self-loop, CS_ERR_TOO_FEW_CLASSES /
// CS_ERR_TOO_MANY_CLASSES for k); after CS_OK or a cancel, labels in [0, k), the prior
// the community fractions, densities in [0, 1], a finite trace, one-hot posteriors,
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
    std::vector<double> prior, trace, posteriors;
    double within = -1, between = -1;
    int32_t iterations = 0, converged = 0, notes = 0;
};

Result run(cs_model *m, size_t n, const std::vector<int32_t> &u, const std::vector<int32_t> &v, int32_t cancel_at) {
    Result r;
    fuzz::Cancel cancel;
    cancel.at = cancel_at;
    cs_set_progress(m, fuzz::Cancel::callback, &cancel);
    r.status = cs_fit_graph(m, n, u.data(), v.data(), u.size());
    if (r.status != CS_OK && r.status != CS_ERR_CANCELLED) return r;
    size_t items = 0, k = 0, tl = 0;
    if (cs_n_items(m, &items) != CS_OK || cs_n_classes(m, &k) != CS_OK || cs_trace_length(m, &tl) != CS_OK)
        fuzz::fail("reading the sizes of a graph fit failed");
    if (items != n) fuzz::fail("n_items %zu, expected %zu", items, n);
    r.labels.resize(n);
    r.prior.resize(k);
    r.trace.resize(tl);
    r.posteriors.resize(n * k);
    double none = 0;
    if (cs_labels(m, r.labels.data(), n) != CS_OK || cs_class_prior(m, r.prior.data(), k) != CS_OK ||
        cs_trace(m, tl ? r.trace.data() : &none, tl) != CS_OK || cs_posteriors(m, r.posteriors.data(), n * k) != CS_OK ||
        cs_graph_densities(m, &r.within, &r.between) != CS_OK || cs_iterations(m, &r.iterations) != CS_OK ||
        cs_converged(m, &r.converged) != CS_OK || cs_fit_notes(m, &r.notes) != CS_OK)
        fuzz::fail("reading the results of a graph fit failed: %s", cs_last_error(m));
    return r;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz::Input in(data, size);
    static const char *const methods[] = {"commu-lloyd", "spec", "spec-mle", "commu-lloyd", "lloyd"};
    const char *method = methods[in.byte() % 5];
    const int32_t n = in.in(1, 40), n_edges = in.in(0, 90);
    std::vector<int32_t> u, v;
    bool bad_id = false, real_edge = false;
    for (int32_t e = 0; e < n_edges; ++e) {
        int32_t a = in.in(0, n - 1), b = in.in(0, n - 1);
        if (in.flip(64)) (in.flip(2) ? a : b) = in.flip(2) ? -1 : n;
        bad_id = bad_id || a < 0 || a >= n || b < 0 || b >= n;
        real_edge = real_edge || a != b;
        u.push_back(a);
        v.push_back(b);
    }
    const int32_t k0 = in.in(0, std::min(n, 6) + 1);
    const int32_t cancel_at = in.flip(6) ? in.in(0, 6) : -1;

    test::Model model(cs_create());
    cs_model *m = model.get();
    const fuzz::Setup setup = fuzz::set_up_model(m, in, method, k0);
    const int32_t k = setup.k, threads = setup.threads;

    const Result a = run(m, static_cast<size_t>(n), u, v, cancel_at);
    const bool graph_method = std::strcmp(method, "lloyd") != 0;
    // The failures the input implies; the order in which they are checked is the
    // library's, so any of them is accepted.
    std::vector<cs_status> allowed;
    if (!graph_method) allowed.push_back(CS_ERR_WRONG_INPUT_KIND);
    if (n_edges == 0 || (!bad_id && !real_edge)) allowed.push_back(CS_ERR_EMPTY_INPUT);
    if (bad_id) allowed.push_back(CS_ERR_INVALID_ID);
    if (k < 2) allowed.push_back(CS_ERR_TOO_FEW_CLASSES);
    if (k > n) allowed.push_back(CS_ERR_TOO_MANY_CLASSES);
    if (!allowed.empty()) {
        if (std::find(allowed.begin(), allowed.end(), a.status) == allowed.end())
            fuzz::fail("cs_fit_graph returned %s for an input it must refuse: %s", cs_status_string(a.status),
                       cs_last_error(m));
        return 0;
    }
    if (a.status != CS_OK && a.status != CS_ERR_CANCELLED)
        fuzz::fail("cs_fit_graph returned %s: %s", cs_status_string(a.status), cs_last_error(m));
    const bool cancelled = a.status == CS_ERR_CANCELLED;
    std::vector<size_t> count(static_cast<size_t>(k), 0);
    for (int32_t i = 0; i < n; ++i) {
        const int32_t h = a.labels[i];
        if (h < 0 || h >= k) fuzz::fail("label %d of node %d outside [0, %d)", h, i, k);
        ++count[h];
        for (int32_t l = 0; l < k; ++l)
            if (a.posteriors[static_cast<size_t>(i) * k + l] != (l == h ? 1.0 : 0.0))
                fuzz::fail("posterior row %d is not one-hot", i);
    }
    for (int32_t h = 0; h < k; ++h)
        if (std::fabs(a.prior[h] - static_cast<double>(count[h]) / n) > 1e-12)
            fuzz::fail("prior[%d] = %.17g, community fraction %zu/%d", h, a.prior[h], count[h], n);
    if (!(a.within >= 0 && a.within <= 1 && a.between >= 0 && a.between <= 1))
        fuzz::fail("densities %g, %g outside [0, 1]", a.within, a.between);
    for (double t : a.trace)
        if (!std::isfinite(t)) fuzz::fail("a trace entry is %g", t);
    if (a.converged != 0 && a.converged != 1) fuzz::fail("converged = %d", a.converged);
    if (cancelled && (a.converged != 0 || !(a.notes & CS_NOTE_CANCELLED)))
        fuzz::fail("after a cancel: converged %d, notes %d", a.converged, a.notes);

    test::Model other(cs_create());
    fuzz::copy_params(m, other.get());
    cs_set_int(other.get(), CS_PARAM_THREADS, threads == 1 ? 2 : 1);
    const Result b = run(other.get(), static_cast<size_t>(n), u, v, cancel_at);
    if (b.status != a.status || b.labels != a.labels || b.trace != a.trace || b.within != a.within ||
        b.between != a.between || b.iterations != a.iterations || b.converged != a.converged || b.notes != a.notes)
        fuzz::fail("graph results depend on the thread count (%s)", method);
    return 0;
}

// SPDX-License-Identifier: MIT
#include "crowd/fit_memory.hpp"

#include <cstdio>

#include "util/memory_budget.hpp"

namespace cs {

namespace {

// Tables of n_workers x k x k doubles (ebcc and bcc: x subtypes) that each method keeps
// at once, counted from its code; the results' confusion matrices are one of them.
struct Tables {
    double per_worker_classes = 1.0;  // the k x k x subtypes multiplier of one table
    int copies = 1;
    const char *what = "the confusion matrices of the result";
};

Tables tables_of(const FitOptions &options) {
    switch (options.method) {
        case CS_METHOD_DS:
        case CS_METHOD_ONE_COIN_DS:
        case CS_METHOD_CLASS_ONE_COIN_DS:
            // The M-step's count table (one partition at least), their sum, the logs of
            // the confusion matrices, the parameters, the result (crowd/em/ds_workspace.hpp).
            return {1.0, 5, "counts, their sum, log confusion, parameters and result"};
        case CS_METHOD_OPT_DS:
            // As ds, plus the spectral start's confusion matrices.
            return {1.0, 6, "counts, their sum, log confusion, the spectral start, parameters and result"};
        case CS_METHOD_CROWD_LLOYD:
            return {1.0, 3, "centre counts, their sum and result"};
        case CS_METHOD_EBCC:
        case CS_METHOD_BCC: {
            // Per worker a k x (k subtypes) table: the item pass's counts, their sum, the
            // E log table; with SQUAREM three points, a trial and three tables of logs
            // (crowd/bayes/ebcc.cpp); plus the result's k x k.
            const double subtypes = options.method == CS_METHOD_BCC ? 1.0 : static_cast<double>(options.subtypes);
            const bool squarem = options.accel == CS_ACCEL_SQUAREM;
            return {subtypes, squarem ? 10 : 3,
                    squarem ? "counts, their sum, E log, SQUAREM's three points, a trial and three tables of logs"
                            : "counts, their sum and E log"};
        }
        default:
            return {};
    }
}

std::string number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
}

}  // namespace

FitMemory crowd_fit_memory(const CrowdData &data, const FitOptions &options) {
    const Tables t = tables_of(options);
    const double workers = data.n_workers, k = data.k, items = data.n_items;
    const double table = workers * k * k * t.per_worker_classes;
    const bool subtyped = t.per_worker_classes != 1.0;
    // ebcc's tables are k x kM; its result is one more k x k table.
    const double tables = table * t.copies + (subtyped ? workers * k * k : 0.0);
    const double posteriors = 2.0 * items * k;  // the method's and the result's
    FitMemory m;
    m.bytes = 8.0 * (tables + posteriors);
    m.detail = number(workers) + " workers x " + number(k) + "^2 confusion entries" +
               (subtyped ? " x " + number(t.per_worker_classes) + " subtypes" : std::string()) + " x " +
               std::to_string(t.copies) + (t.copies == 1 ? " table (" : " tables (") + t.what + "), and 2 x " +
               number(items) + " items x " + number(k) + " posteriors";
    return m;
}

void check_crowd_fit_memory(const CrowdData &data, const FitOptions &options, const char *method_name) {
    const FitMemory m = crowd_fit_memory(data, options);
    require_memory(m.bytes, method_name, m.detail);
}

}  // namespace cs

// SPDX-License-Identifier: MIT
#include "crowd/fit_memory.hpp"

#include <cstdio>
#include <vector>

#include "util/memory_budget.hpp"

namespace cs {

namespace {

// Tables of n_workers x k x k doubles (ebcc and bcc: x subtypes) that each method keeps
// at once, counted from its code; the results' confusion matrices are one of them.
struct Tables {
    double subtypes = 1.0;  // ebcc and bcc: a table is k x (answers in use) x subtypes
    int copies = 1;
    const char *what = "the confusion matrices of the result";
};

// The answer classes some label gives: ebcc and bcc keep rows for those only.
double answers_in_use(const CrowdData &data) {
    std::vector<char> used(static_cast<std::size_t>(data.k), 0);
    for (std::size_t t = 0; t < data.n_labels(); ++t) used[data.label_of(static_cast<int64_t>(t))] = 1;
    double n = 0.0;
    for (char u : used) n += u;
    return n;
}

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
            // Per worker a (answers in use) x (k subtypes) table: the item pass's counts,
            // their sum, the E log table; with SQUAREM three points, a trial and three
            // tables of logs (crowd/bayes/ebcc.cpp); plus the result's k x k.
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
    const bool bayes = options.method == CS_METHOD_EBCC || options.method == CS_METHOD_BCC;
    const double workers = data.n_workers, k = data.k, items = data.n_items;
    const double answers = bayes ? answers_in_use(data) : k;
    const double table = workers * k * answers * t.subtypes;
    // ebcc's and bcc's tables are (answers in use) x kM; their result is a k x k table.
    const double tables = table * t.copies + (bayes ? workers * k * k : 0.0);
    const double posteriors = 2.0 * items * k;  // the method's and the result's
    FitMemory m;
    m.bytes = 8.0 * (tables + posteriors);
    m.detail = number(workers) + " workers x " +
               (bayes ? number(k) + " x " + number(answers) + " answers in use" : number(k) + "^2") +
               " confusion entries" + (bayes ? " x " + number(t.subtypes) + " subtypes" : std::string()) + " x " +
               std::to_string(t.copies) + (t.copies == 1 ? " table (" : " tables (") + t.what + ")" +
               (bayes ? ", the k^2 result" : "") + ", and 2 x " + number(items) + " items x " + number(k) +
               " posteriors";
    return m;
}

void check_crowd_fit_memory(const CrowdData &data, const FitOptions &options, const char *method_name) {
    const FitMemory m = crowd_fit_memory(data, options);
    require_memory(m.bytes, method_name, m.detail);
}

}  // namespace cs

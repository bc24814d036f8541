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
    double n = 0.0;
    for (char u : answer_classes_in_use(data)) n += u;
    return n;
}

Tables tables_of(const FitOptions &options) {
    switch (options.method) {
        // Counted from the code and checked by the peak memory of fits with 30 workers
        // and k = 600 (getrusage: 5.0 tables for ds, 11 for opt-ds, 3 for mv and the
        // split methods, 4 for crowd-lloyd, 1 for the weighted votes, glad, mace, m-msr).
        case CS_METHOD_DS:
        case CS_METHOD_ONE_COIN_DS:
        case CS_METHOD_CLASS_ONE_COIN_DS:
            // The M-step's count table (one partition at least), their sum, the logs of
            // the confusion matrices, the parameters, the result (crowd/em/ds_workspace.hpp).
            return {1.0, 5, "counts, their sum, log confusion, parameters and result"};
        case CS_METHOD_OPT_DS:
            // Two EM runs (a spectral start and the majority-vote start) of ds's tables,
            // and the winner.
            return {1.0, 11, "two EM runs of 5 and the result"};
        case CS_METHOD_CROWD_LLOYD:
            return {1.0, 4, "centre counts, their sum, the centres and result"};
        case CS_METHOD_MV:
        case CS_METHOD_KOS:
        case CS_METHOD_KOS_MP:
        case CS_METHOD_GHOSH_SVD:
        case CS_METHOD_EIGEN_RATIO:
            return {1.0, 3, "counts, their normalised copy and result"};
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
    // Opt-D&S's spectral stage, when it runs (3 or more workers, every class in use:
    // crowd/spectral/spectral_init.cpp): third moments of k^3 doubles, at least three
    // at once (a thread's sums, their total, the moment tensor).
    const bool spectral = options.method == CS_METHOD_OPT_DS && data.n_workers >= 3 && answers_in_use(data) == k;
    const double tensors = spectral ? 3.0 * k * k * k : 0.0;
    FitMemory m;
    m.bytes = 8.0 * (tables + posteriors + tensors);
    m.detail = number(workers) + " workers x " +
               (bayes ? number(k) + " x " + number(answers) + " answers in use" : number(k) + "^2") +
               " confusion entries" + (bayes ? " x " + number(t.subtypes) + " subtypes" : std::string()) + " x " +
               std::to_string(t.copies) + (t.copies == 1 ? " table (" : " tables (") + t.what + ")" +
               (bayes ? ", the k^2 result" : "") + (spectral ? ", 3 x " + number(k) + "^3 third moments" : "") +
               ", and 2 x " + number(items) + " items x " + number(k) + " posteriors";
    return m;
}

void check_crowd_fit_memory(const CrowdData &data, const FitOptions &options, const char *method_name) {
    const FitMemory m = crowd_fit_memory(data, options);
    require_memory(m.bytes, method_name, m.detail);
}

}  // namespace cs

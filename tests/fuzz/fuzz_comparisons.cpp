// SPDX-License-Identifier: MIT
// libFuzzer target: the comparisons reader of `crowdspec rank` (tools/io/comparison_file)
// on arbitrary file contents with random options (format, header, column names or
// numbers, a .csv, .tsv or .txt name), then cs_fit_comparisons on what it read with a
// random comparison method and parameters. Invariants: the reader either returns a
// consistent table (equal lengths, ids within the distinct name tables, answers 0..2) or
// throws CliError with the input or usage exit code and a one-line message; the fit
// returns CS_OK or a documented status, and on success every score and standard error is
// finite (se >= 0), the ranks are a permutation of 1..n, every reliability is in [0, 1],
// the trace never decreases, and a second handle on another thread count agrees bit for
// bit.
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "common/errors.hpp"
#include "crowdspec/crowdspec.h"
#include "fuzz_input.hpp"
#include "io/comparison_file.hpp"

namespace {

const char *const kNames[] = {"", "worker", "left", "right", "winner", "label", "1", "2", "3", "4", "a", "b", "x"};
const char *const kMethods[] = {"bt", "noisy-bt", "crowd-bt"};
const char *const kTies[] = {"auto", "davidson", "half", "ignore"};

void check_table(const cli::ComparisonTable &t) {
    const std::size_t n = t.left.size();
    if (n == 0 || t.right.size() != n || t.worker.size() != n || t.answer.size() != n) fuzz::fail("ragged table");
    if (std::set<std::string>(t.item_names.begin(), t.item_names.end()).size() != t.item_names.size())
        fuzz::fail("repeated item names");
    if (std::set<std::string>(t.worker_names.begin(), t.worker_names.end()).size() != t.worker_names.size())
        fuzz::fail("repeated worker names");
    for (std::size_t c = 0; c < n; ++c) {
        if (t.left[c] < 0 || static_cast<std::size_t>(t.left[c]) >= t.item_names.size() || t.right[c] < 0 ||
            static_cast<std::size_t>(t.right[c]) >= t.item_names.size())
            fuzz::fail("item index out of range at %zu", c);
        if (t.worker[c] < 0 || static_cast<std::size_t>(t.worker[c]) >= t.worker_names.size())
            fuzz::fail("worker index out of range at %zu", c);
        if (t.answer[c] < cli::kAnswerLeft || t.answer[c] > cli::kAnswerTie) fuzz::fail("answer %d", t.answer[c]);
    }
}

struct Result {
    cs_status status = CS_OK;
    std::vector<double> score, se, reliability, trace;
    std::vector<int32_t> rank;
};

Result fit(const cli::ComparisonTable &t, const std::string &method, const std::string &ties, double prior,
           int32_t max_iter, int32_t se_items, int32_t threads) {
    Result r;
    cs_model *m = cs_create();
    if (m == nullptr) fuzz::fail("cs_create");
    cs_set_param_string(m, "method", method.c_str());
    cs_set_param_string(m, "ties", ties.c_str());
    cs_set_double(m, CS_PARAM_COMPARISON_PRIOR, prior);
    cs_set_int(m, CS_PARAM_MAX_ITER, max_iter);
    cs_set_int(m, CS_PARAM_SE_ITEMS, se_items);
    cs_set_int(m, CS_PARAM_THREADS, threads);
    r.status = cs_fit_comparisons(m, t.worker.data(), t.left.data(), t.right.data(), t.answer.data(), t.left.size());
    if (r.status == CS_OK) {
        const std::size_t n = t.item_names.size(), w = t.worker_names.size();
        r.score.resize(n);
        r.se.resize(n);
        r.rank.resize(n);
        if (cs_scores(m, r.score.data(), r.se.data(), r.rank.data(), n) != CS_OK) fuzz::fail("cs_scores");
        std::size_t length = 0;
        cs_trace_length(m, &length);
        r.trace.resize(length);
        cs_trace(m, r.trace.data(), length);
        if (method != "bt") {
            r.reliability.resize(w);
            if (cs_worker_reliability(m, r.reliability.data(), w) != CS_OK) fuzz::fail("cs_worker_reliability");
        }
    } else if (r.status != CS_ERR_NOT_CONNECTED && r.status != CS_ERR_INVALID_ARGUMENT) {
        fuzz::fail("status %s: %s", cs_status_string(r.status), cs_last_error(m));
    } else if (r.status == CS_ERR_INVALID_ARGUMENT && ties != "davidson") {
        fuzz::fail("CS_ERR_INVALID_ARGUMENT without ties = davidson: %s", cs_last_error(m));
    }
    cs_destroy(m);
    return r;
}

void check_fit(const Result &r) {
    if (r.status != CS_OK) return;
    std::vector<char> seen(r.rank.size() + 1, 0);
    for (std::size_t i = 0; i < r.score.size(); ++i) {
        if (!std::isfinite(r.score[i]) || !std::isfinite(r.se[i]) || r.se[i] < 0.0)
            fuzz::fail("item %zu: score %g, se %g", i, r.score[i], r.se[i]);
        if (r.rank[i] < 1 || static_cast<std::size_t>(r.rank[i]) > r.rank.size() || seen[r.rank[i]]++)
            fuzz::fail("ranks are not a permutation (item %zu has %d)", i, r.rank[i]);
    }
    for (double v : r.reliability)
        if (!(v >= 0.0 && v <= 1.0)) fuzz::fail("reliability %g", v);
    for (std::size_t t = 1; t < r.trace.size(); ++t)
        if (!std::isfinite(r.trace[t]) || r.trace[t] < r.trace[t - 1] - 1e-8 * (1.0 + std::fabs(r.trace[t - 1])))
            fuzz::fail("trace decreases at %zu: %.17g < %.17g", t, r.trace[t], r.trace[t - 1]);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz::Input in(data, size);
    cli::ComparisonColumns columns;
    columns.format = static_cast<cli::TextFormat>(in.in(0, 3));
    columns.header = static_cast<cli::HeaderMode>(in.in(0, 2));
    if (in.flip(4)) columns.worker = kNames[in.in(0, 12)];
    if (in.flip(4)) columns.left = kNames[in.in(0, 12)];
    if (in.flip(4)) columns.right = kNames[in.in(0, 12)];
    if (in.flip(4)) columns.winner = kNames[in.in(0, 12)];
    columns.keep_rejected = in.flip(2);
    const char *const names[] = {"c.csv", "c.tsv", "c.txt"};
    const std::string path = names[in.in(0, 2)];
    const std::string method = kMethods[in.in(0, 2)], ties = kTies[in.in(0, 3)];
    const double prior = in.flip(4) ? 0.0 : in.in(1, 40) / 8.0;
    const int32_t max_iter = in.in(0, 60), se_items = in.in(0, 64);

    cli::ComparisonTable table;
    try {
        table = cli::read_comparison_text(std::string(in.rest()), path, columns);
    } catch (const cli::CliError &e) {
        const std::string what = e.what();
        if (e.exit_code() != cli::kExitInput && e.exit_code() != cli::kExitUsage)
            fuzz::fail("reader error with exit code %d: %s", e.exit_code(), what.c_str());
        if (what.empty() || what.find('\n') != std::string::npos) fuzz::fail("reader error not on one line: %s", what.c_str());
        return 0;
    }
    check_table(table);
    if (table.item_names.size() > 5000) return 0;  // keep an input's fit short
    const Result one = fit(table, method, ties, prior, max_iter, se_items, 1);
    check_fit(one);
    const Result two = fit(table, method, ties, prior, max_iter, se_items, 2);
    if (one.status != two.status || one.score != two.score || one.se != two.se || one.rank != two.rank ||
        one.reliability != two.reliability)
        fuzz::fail("1 and 2 threads disagree");
    return 0;
}

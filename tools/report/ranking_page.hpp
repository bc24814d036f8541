// SPDX-License-Identifier: MIT
// The HTML page of a ranking from pairwise comparisons (`crowdspec rank --report`):
// self-contained like the crowd report (report_page.hpp): a summary, the top of the
// ranking with its 95% intervals as an inline SVG chart, the whole ranking as a table,
// the least reliable workers (the model's reliability for noisy-bt and crowd-bt; for
// every method, each worker's agreement with the fitted order) and the log posterior
// by iteration.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cli {
namespace report {

struct RankingReport {
    std::string source, method, notes_message, read_note;
    std::vector<std::string> item_names, worker_names;
    std::vector<double> score, se;
    std::vector<int32_t> rank;
    std::vector<std::size_t> comparisons;        // per item
    std::vector<std::size_t> half_wins;          // per item: 2 x wins + ties (a tie is half a win)
    std::vector<double> reliability;             // per worker; empty for bt
    std::vector<std::size_t> answers;            // per worker, non-tie answers
    std::vector<double> agreement;               // per worker: share of answers agreeing with the fitted order
    std::size_t n_comparisons = 0, ties = 0;
    int32_t iterations = 0, converged = 0, notes = 0;
    std::vector<double> trace;
    std::size_t top = 40, worst = 15;            // chart rows; least reliable workers listed
};

/// The whole page.
std::string ranking_html(const RankingReport &in);

}  // namespace report
}  // namespace cli

// SPDX-License-Identifier: MIT
// The HTML page of `crowdspec report --answers tags|numbers`: self-contained like the
// class-label report (report_page.hpp: no scripts, no network), with what to check
// before trusting the estimates. Numbers: the summary, the scores of each method on the
// truth (MAE, RMSE), the workers' noise and bias (histograms and the noisiest and most
// biased workers), the items of largest standard error. Tags: the summary, the scores
// (Hamming loss, exact-set accuracy, per-tag F1), each tag's prevalence and its
// workers' mean sensitivity and specificity, the workers who tick least, the items whose
// tags are least certain.
#pragma once

#include <string>
#include <vector>

#include "fitting/answer_fitting.hpp"

namespace cli {
namespace report {

/// One method's scores on the truth (or its failure).
struct AnswerScore {
    std::string method;
    NumberScores numbers;
    TagScores tags;
    std::string failure;
};

struct AnswersReport {
    AnswerKind kind = AnswerKind::Numbers;
    const AnswerTable *table = nullptr;
    const NumberOutcome *numbers = nullptr;  ///< kind Numbers
    const TagOutcome *tags = nullptr;        ///< kind Tags
    std::vector<int32_t> member;             ///< tags: the sets at the thresholds
    std::string read_note, truth_name;
    std::vector<AnswerScore> scores;         ///< with --truth: every method asked for
    std::size_t worst = 10;                  ///< rows of the worker and item tables
};

/// The whole page.
std::string answers_report_html(const AnswersReport &in);

}  // namespace report
}  // namespace cli

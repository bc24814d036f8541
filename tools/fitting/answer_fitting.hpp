// SPDX-License-Identifier: MIT
// Fitting the answer kinds beside class labels (`--answers tags|numbers`): a configured
// handle, the timed fit, the results copied out, and the scores against a truth file
// (`evaluate`: MAE and RMSE for numbers; Hamming loss, per-tag F1 and exact-set
// accuracy for tags).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fitting/fitting.hpp"
#include "io/answer_file.hpp"

namespace cli {

/// What `--answers` selects.
enum class AnswerKind { Classes, Tags, Numbers };
/// Parses an --answers value (classes, tags, numbers); anything else is a usage error.
AnswerKind parse_answer_kind(const std::string &value);

/// The results of a numbers fit.
struct NumberOutcome {
    std::vector<double> value, se;     ///< per item
    std::vector<double> bias, noise;   ///< per worker
    int32_t iterations = 0, notes = 0;
    bool converged = false;
    double seconds = 0.0;              ///< the fit alone
    std::string method;                ///< the method that ran (auto resolved)
};

/// The results of a tags fit.
struct TagOutcome {
    std::vector<double> p;                       ///< items x tags
    std::vector<double> sensitivity, specificity;  ///< workers x tags
    int32_t iterations = 0, notes = 0;
    bool converged = false;
    double seconds = 0.0;
    std::string method;
};

/// Fits the numbers of `table` with `method` and `settings` (every option through the
/// library). Throws CliError(kExitUsage) for a bad option, CliError(kExitFit) when the
/// library refuses the data.
NumberOutcome fit_number_table(int32_t method, const FitSettings &settings, const AnswerTable &table,
                               FitMonitor *monitor);
/// The same for tags.
TagOutcome fit_tag_table(int32_t method, const FitSettings &settings, const AnswerTable &table, FitMonitor *monitor);

/// The name of the method a fit of this kind runs for `method` ("auto" names the
/// kind's default, e.g. "auto (gaussian)").
std::string answer_method_name(int32_t method, AnswerKind kind);

/// Every method that takes this kind of answer (tags: the tag models, then the crowd
/// methods run on each tag), for `evaluate --method all` and the help.
std::vector<int32_t> answer_methods(AnswerKind kind);
/// The methods of a --method value for this kind (one, a list, or all).
std::vector<int32_t> answer_method_list(const std::string &value, AnswerKind kind);

/// Per-tag thresholds from --threshold: "0.7" (every tag) or "a=0.3,b=0.8" (the
/// others 0.5). Throws CliError(kExitUsage) naming an unknown tag or a bad number.
std::vector<double> parse_thresholds(const std::string &value, const std::vector<std::string> &tag_names);

/// The tag sets at the thresholds: member[j * T + g].
std::vector<int32_t> tag_members(const TagOutcome &fit, const std::vector<double> &threshold, std::size_t n_tags);

/// Scores against a truth file.
struct NumberScores {
    double mae = 0.0, rmse = 0.0;
    std::size_t scored = 0;
};
/// Truth lines `item value` (read like a gold file); items absent from the table are
/// ignored, a value that is not a number is an input error.
NumberScores score_numbers(const AnswerTable &table, const NumberOutcome &fit, const std::string &truth_path,
                           const InputOptions &input);

struct TagScores {
    double hamming_loss = 0.0, exact_set_accuracy = 0.0, macro_f1 = 0.0, micro_f1 = 0.0;
    std::vector<double> f1;  ///< per tag (NaN when the tag is neither true nor predicted anywhere)
    std::size_t scored = 0;
};
/// Truth rows `item tags` (a delimited list, JSON list or one row per tag, merged by
/// item; an empty cell is the empty set); items absent from the table are ignored,
/// tags absent from the table count as never predicted.
TagScores score_tags(const AnswerTable &table, const std::vector<int32_t> &member, const std::string &truth_path,
                     const InputOptions &input, const std::string &delimiter);

}  // namespace cli

// SPDX-License-Identifier: MIT
// `fit`, `evaluate` and `report` with `--answers tags|numbers` (command_answers.cpp): the options
// these kinds add, their help, and the two commands' runs for them.
#pragma once

#include <string>
#include <vector>

#include "common/options.hpp"

namespace cli {

/// --answers, --tag-delimiter, --threshold.
std::vector<OptionSpec> answer_option_specs();
/// Their help, with the methods of each kind.
std::string answers_help();
/// Whether --answers selects tags or numbers (false: class labels, the default).
bool answers_requested(const ParsedArgs &parsed);
/// `crowdspec fit --answers tags|numbers`: the parsed options of fit.
int run_fit_answers(const ParsedArgs &parsed);
/// `crowdspec evaluate --answers tags|numbers`.
int run_evaluate_answers(const ParsedArgs &parsed);
/// `crowdspec report --answers tags|numbers`: the page of report/answers_page.hpp.
int run_report_answers(const ParsedArgs &parsed);

}  // namespace cli

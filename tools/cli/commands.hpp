// SPDX-License-Identifier: MIT
// The subcommands of `crowdspec`. Each takes the whole argument vector and the index
// of its first own argument, returns an exit code, and throws CliError on failure
// (main() turns that into a message and the error's exit code).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace cli {

int run_fit(const std::vector<std::string> &args, std::size_t first);
int run_predict(const std::vector<std::string> &args, std::size_t first);
int run_update(const std::vector<std::string> &args, std::size_t first);
int run_evaluate(const std::vector<std::string> &args, std::size_t first);
int run_demo(const std::vector<std::string> &args, std::size_t first);
int run_simulate(const std::vector<std::string> &args, std::size_t first);
int run_report(const std::vector<std::string> &args, std::size_t first);
int run_convert(const std::vector<std::string> &args, std::size_t first);
int run_rank(const std::vector<std::string> &args, std::size_t first);

/// The `--help` text of each command (also shown by `crowdspec help COMMAND`).
std::string fit_help();
std::string predict_help();
std::string update_help();
std::string evaluate_help();
std::string demo_help();
std::string simulate_help();
std::string report_help();
std::string convert_help();
std::string rank_help();

}  // namespace cli

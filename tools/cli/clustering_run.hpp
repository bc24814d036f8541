// SPDX-License-Identifier: MIT
// What `crowdspec cluster` and `crowdspec communities` share on their command line: one
// input file, a required --k, a method of the right input kind, an optional --truth
// (exclusive with --output), the options that map one-to-one onto library parameters,
// and the JSON line scored against the truth.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/options.hpp"
#include "fitting/fitting.hpp"
#include "io/output.hpp"
#include "io/point_files.hpp"

namespace cli {

/// The id of method `name`, which must take `kind` input (a cs_input_kind); otherwise a
/// usage error for `command` listing the methods that do.
int32_t method_of_kind(const std::string &command, const std::string &name, int32_t kind);

/// What `cluster` and `communities` share on their command line: one input file, a
/// required --k, a method of the right kind, an optional --truth (exclusive with
/// --output), and the options that map one-to-one onto library parameters.
struct ClusteringRun {
    ParsedArgs parsed;
    std::string method;                      ///< --method or the default
    std::optional<std::string> truth_path;   ///< --truth
    ModelPtr model;                          ///< configured, not yet fitted
};

/// Parses and checks the arguments of `command` and configures the model. Returns
/// nullopt after printing `help` for --help. Throws CliError(kExitUsage) on misuse.
/// `params` maps option names to library parameter names.
std::optional<ClusteringRun> start_clustering(
    const std::string &command, const std::string &input_noun, const std::string &default_method,
    int32_t input_kind, const std::vector<OptionSpec> &specs,
    const std::vector<std::pair<std::string, std::string>> &params, const std::string &help,
    const std::vector<std::string> &args, std::size_t first);

/// Without --truth: the labels (one line per row or node, from `line_of`) to --output or
/// stdout, written atomically.
template <class LineOf>
void write_clustering_labels(const ClusteringRun &run, std::size_t n, LineOf line_of);

/// With --truth: the JSON line's common part -- method, error_rate (mis-clustering rate
/// against `truth`), scored, iterations, converged, seconds -- for the caller to extend
/// and then finish with finish_clustering_json().
std::string clustering_json(const ClusteringRun &run, const std::vector<int32_t> &labels,
                            const TruthClasses &truth, double seconds);

/// Appends the notes, closes the object and writes the line to stdout.
void finish_clustering_json(const ClusteringRun &run, std::string &line);

template <class LineOf>
void write_clustering_labels(const ClusteringRun &run, std::size_t n, LineOf line_of) {
    std::string text;
    text.reserve(n * 4);
    for (std::size_t i = 0; i < n; ++i) line_of(text, i);
    OutputFile out(run.parsed.last("output").value_or(""));
    out.write(text);
    out.commit();
}

}  // namespace cli

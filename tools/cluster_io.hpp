// SPDX-License-Identifier: MIT
// Input and scoring shared by `crowdspec cluster` and `crowdspec communities`: reading
// numeric point rows and edge lists, matching truth files to points or nodes, and the
// names of the fit notes, all for the points and graph methods of the library.
//
// File rules (also in the commands' --help):
// - Fields are separated by blanks and/or commas; blank lines and lines starting with
//   '#' are skipped; a trailing CR is ignored.
// - Points: every row has the same number of numeric fields; a first row that is not
//   all numbers is a header and is skipped.
// - Edges: `u v` per line, ids any strings (a field may be "double quoted"). A first
//   line with a field named source, target, from, to, u, v, src, dst, node1 or node2 is
//   a header. Nodes are numbered in ascending numeric order when every id is an
//   integer, else in order of first appearance.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <optional>
#include <utility>

#include "cli.hpp"
#include "fitting.hpp"
#include "label_file.hpp"
#include "output.hpp"

namespace cli {

/// Point rows read from a file, row-major.
struct PointTable {
    std::string source;               ///< file name for messages ("<stdin>" for -)
    std::size_t n = 0;                ///< rows
    std::size_t d = 0;                ///< fields per row
    std::vector<double> x;            ///< n x d
    std::vector<std::size_t> line;    ///< 1-based source line of each row
};

/// Reads POINTS ("-" = stdin). Throws CliError(kExitInput) naming the file and line
/// of the first problem (unreadable, a field that is not a number, a row of another
/// width, no rows).
PointTable read_points_file(const std::string &path);

/// An edge list with node ids mapped to 0-based indices.
struct EdgeTable {
    std::string source;
    std::vector<std::string> node_names;  ///< index -> original id
    std::vector<int32_t> u, v;            ///< the edges, in file order
};

/// Reads EDGES ("-" = stdin). Throws CliError(kExitInput) (unreadable, a line without
/// exactly two fields, no edges).
EdgeTable read_edges_file(const std::string &path);

/// Truth classes of the points (or nodes): class index per item (-1 = no truth), the
/// classes numbered in order of first appearance in the truth file.
struct TruthClasses {
    std::vector<int32_t> label;
    int32_t classes = 0;
    std::size_t scored = 0;
};

/// Points: truth ids are 1-based row numbers. Ids that are not a row number are
/// reported once on stderr and ignored; none matching is CliError(kExitInput).
TruthClasses match_row_truth(const TruthTable &truth, std::size_t n_rows, const std::string &points_source);

/// Nodes: truth ids are node ids (exact string, or numerically equal when all are
/// numbers). Unknown ids are reported once and ignored; none matching is an error.
TruthClasses match_node_truth(const TruthTable &truth, const EdgeTable &edges);

/// The id of method `name`, which must take `kind` input (a cs_input_kind); otherwise a
/// usage error for `command` listing the methods that do.
int32_t method_of_kind(const std::string &command, const std::string &name, int32_t kind);

/// Names of every cs_fit_note bit set in `notes` (unknown bits as "other_<n>").
std::vector<std::string> clustering_note_names(int32_t notes);

/// Appends `,"notes":[...]` to a JSON object under construction.
void append_notes(std::string &json, int32_t notes);

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

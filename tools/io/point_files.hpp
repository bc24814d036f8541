// SPDX-License-Identifier: MIT
// The inputs of `crowdspec cluster` and `crowdspec communities`: numeric point rows and
// edge lists, and truth files matched to points or nodes.
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


#include "io/crowd_table.hpp"

namespace cli {

/// Point rows read from a file, row-major.
struct PointTable {
    std::string source;               ///< file name for messages ("<stdin>" for -)
    std::size_t n = 0;                ///< rows
    std::size_t d = 0;                ///< fields per row
    std::vector<double> x;            ///< n x d
    std::vector<std::size_t> line;    ///< 1-based source line of each row
    /// Set when the first row was taken as a header although some of its fields are
    /// numbers (a point with a typo would be dropped silently): "FILE:1: ...".
    std::string header_note;
};

/// Reads POINTS ("-" = stdin). A first row that is not all numbers is a header; when
/// some of its fields are numbers, header_note says so. Throws CliError(kExitInput)
/// naming the file and line of the first problem (unreadable, a field that is not a
/// number, a row of another width, no rows).
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

}  // namespace cli

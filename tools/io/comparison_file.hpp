// SPDX-License-Identifier: MIT
// Pairwise-comparison files (`crowdspec rank`): a table of (worker, left, right,
// winner) read as CSV, TSV or whitespace-separated text (table_reader.hpp), with its
// string ids numbered for cs_fit_comparisons(); and the truth file of a ranking (a true
// score or a true rank per item).
//
// Columns (also in `crowdspec rank --help` and crowdspec(1)):
// - With a header, by name (case-insensitive; an _id/id suffix and a "prefix:" are
//   ignored, as for crowd files): --worker-col, --left-col, --right-col, --winner-col
//   NAME (or a 1-based position), else worker: worker, annotator, user, performer,
//   judge, rater; left: left, item_a, a, first, item1, passage_a, option_a; right:
//   right, item_b, b, second, item2, passage_b, option_b; winner: winner, label,
//   answer, result, choice, preferred, better, chosen, output. A file without a worker
//   column is one worker's.
// - Toloka's side-by-side export (recognised by its ASSIGNMENT:worker_id column): the
//   left and right items are the two INPUT:* columns (the one whose name contains
//   "left", "_a" or "1" is left), the winner the one OUTPUT:* column; rejected
//   assignments are skipped unless --keep-rejected, and skipped, expired or active
//   ones (no answer) always.
// - Without a header: `worker left right winner` (4 fields) or `left right winner` (3).
// - A winner is the left or right item's id (crowd-kit's `label`), or left/l/a/first/1,
//   right/r/b/second/2, or tie/draw/equal/same/none/0 for a tie (case-insensitive); an
//   empty winner is no answer and the row is skipped.
// - Items (left and right together) and workers are numbered in ascending numeric order
//   when every id is an integer, else in order of first appearance.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "io/table_reader.hpp"

namespace cli {

/// The column options of `crowdspec rank` ("" = find by name).
struct ComparisonColumns {
    std::string worker, left, right, winner;
    bool keep_rejected = false;
    TextFormat format = TextFormat::Auto;
    HeaderMode header = HeaderMode::Auto;
};

/// The answers as the library numbers them (enum cs_answer of crowdspec.h, which io/
/// does not include; command_rank.cpp checks that they agree).
inline constexpr int32_t kAnswerLeft = 0, kAnswerRight = 1, kAnswerTie = 2;

/// Comparisons with their ids numbered; answer holds kAnswer* values.
struct ComparisonTable {
    std::string source;
    std::vector<std::string> item_names, worker_names;
    std::vector<int32_t> worker, left, right, answer;
    std::size_t skipped_no_answer = 0;  ///< empty winners, and assignments without an answer
    std::size_t skipped_rejected = 0;   ///< rejected assignments (Toloka)
    std::string columns_note;           ///< which columns were used, for messages
};

/// Reads comparisons from `text` (the content of `path`, named in messages). Throws
/// CliError(kExitInput) naming the line of the first problem (a missing column, a winner
/// that is neither item nor a known word, no comparisons).
ComparisonTable read_comparison_text(std::string text, const std::string &path, const ComparisonColumns &columns);

/// Reads a comparison file ("-" = stdin).
ComparisonTable read_comparison_file(const std::string &path, const ComparisonColumns &columns);

/// The truth of a ranking: per item of `items`, a value where higher is better (a true
/// score; a true rank is negated), NaN for items the file does not name.
struct RankTruth {
    std::vector<double> value;
    std::size_t scored = 0;
    bool ranks = false;  ///< the file gave ranks (1 = best)
};

/// Reads `item value` lines (a header is optional: a second column named rank, order or
/// position holds ranks, 1 = best; anything else scores, higher = better; `ranks` forces
/// ranks). Items are matched to `items` by exact string. Unknown items are counted in
/// the message; none matching is CliError(kExitInput).
RankTruth read_rank_truth(const std::string &path, const std::vector<std::string> &items, bool ranks);

}  // namespace cli

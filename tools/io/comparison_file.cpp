// SPDX-License-Identifier: MIT
#include "io/comparison_file.hpp"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <limits>
#include <string_view>
#include <unordered_map>

#include "common/errors.hpp"
#include "io/column_layout.hpp"
#include "io/export_presets.hpp"
#include "io/id_interner.hpp"
#include "io/id_mapping.hpp"
#include "io/parallel_reader.hpp"

namespace cli {

namespace {

const std::vector<std::string> kWorkerNames = {"worker", "annotator", "user", "performer", "judge", "rater"};
const std::vector<std::string> kLeftNames = {"left", "item_a", "a", "first", "item1", "passage_a", "option_a"};
const std::vector<std::string> kRightNames = {"right", "item_b", "b", "second", "item2", "passage_b", "option_b"};
const std::vector<std::string> kWinnerNames = {"winner", "label", "answer", "result", "choice",
                                               "preferred", "better", "chosen", "output"};

bool starts_with_ci(std::string_view s, std::string_view prefix) {
    return s.size() >= prefix.size() && iequals(s.substr(0, prefix.size()), prefix);
}

bool contains_ci(std::string_view s, std::string_view part) {
    for (std::size_t i = 0; i + part.size() <= s.size(); ++i)
        if (iequals(s.substr(i, part.size()), part)) return true;
    return false;
}

// The column of a role: the option's name or number, else the first default name present.
std::size_t find_column(const std::vector<std::string_view> &header, const std::string &given,
                        const std::vector<std::string> &names) {
    std::size_t position = 0;
    if (!given.empty()) {
        for (std::size_t i = 0; i < header.size(); ++i)
            if (iequals(header[i], given)) return i;
        if (positive_integer(given, position) && position <= header.size()) return position - 1;
        return kNoColumn;
    }
    for (const std::string &name : names)
        for (std::size_t i = 0; i < header.size(); ++i)
            if (iequals(column_word(header[i]), name) || iequals(header[i], name)) return i;
    return kNoColumn;
}

struct Columns {
    std::size_t worker = kNoColumn, left = kNoColumn, right = kNoColumn, winner = kNoColumn, status = kNoColumn;
    std::size_t fields = 0;
    bool toloka = false;
};

// Toloka's side-by-side export: the two INPUT:* columns, the OUTPUT:* one, the worker.
void toloka_columns(const std::vector<std::string_view> &header, Columns &c, const RecordReader &reader) {
    std::vector<std::size_t> inputs, outputs;
    for (std::size_t i = 0; i < header.size(); ++i) {
        if (starts_with_ci(header[i], "INPUT:")) inputs.push_back(i);
        if (starts_with_ci(header[i], "OUTPUT:")) outputs.push_back(i);
        if (iequals(header[i], "ASSIGNMENT:worker_id") && c.worker == kNoColumn) c.worker = i;
        if (iequals(header[i], "ASSIGNMENT:status")) c.status = i;
    }
    if (c.winner == kNoColumn && outputs.size() == 1) c.winner = outputs[0];
    if (c.left == kNoColumn && c.right == kNoColumn && inputs.size() == 2) {
        const auto lefty = [&](std::size_t i) {
            const std::string_view w = column_word(header[i]);
            return contains_ci(w, "left") || (w.size() >= 2 && (iequals(w.substr(w.size() - 2), "_a") ||
                                                                 iequals(w.substr(w.size() - 1), "1")));
        };
        const bool first_left = lefty(inputs[0]) || !lefty(inputs[1]);
        c.left = first_left ? inputs[0] : inputs[1];
        c.right = first_left ? inputs[1] : inputs[0];
    } else if (c.left == kNoColumn && c.right == kNoColumn && inputs.size() > 2) {
        reader.fail("a Toloka export with " + std::to_string(inputs.size()) +
                    " INPUT:* columns: choose the items with --left-col and --right-col");
    }
}

Columns plan_columns(const std::vector<std::string_view> &first, bool header, const ComparisonColumns &options,
                     const RecordReader &reader) {
    Columns c;
    c.fields = first.size();
    if (!header) {
        std::size_t position = 0;
        const auto at = [&](const std::string &given, std::size_t fallback) {
            return positive_integer(given, position) ? position - 1 : fallback;
        };
        if (first.size() == 4) {
            c.worker = at(options.worker, 0);
            c.left = at(options.left, 1);
            c.right = at(options.right, 2);
            c.winner = at(options.winner, 3);
        } else if (first.size() == 3) {
            c.left = at(options.left, 0);
            c.right = at(options.right, 1);
            c.winner = at(options.winner, 2);
        } else {
            reader.fail("a line without a header must be `worker left right winner` or `left right winner`; this "
                        "one has " + std::to_string(first.size()) + " fields");
        }
        for (std::size_t col : {c.worker, c.left, c.right, c.winner})
            if (col != kNoColumn && col >= first.size())
                reader.fail("a column number is beyond the line's " + std::to_string(first.size()) + " fields");
        return c;
    }
    c.worker = find_column(first, options.worker, options.worker.empty() ? kWorkerNames : std::vector<std::string>());
    c.left = find_column(first, options.left, options.left.empty() ? kLeftNames : std::vector<std::string>());
    c.right = find_column(first, options.right, options.right.empty() ? kRightNames : std::vector<std::string>());
    c.winner = find_column(first, options.winner, options.winner.empty() ? kWinnerNames : std::vector<std::string>());
    if (detect_preset(first) == Preset::Toloka) {
        c.toloka = true;
        if (options.worker.empty()) c.worker = kNoColumn;
        if (options.winner.empty()) c.winner = kNoColumn;
        if (options.left.empty() && options.right.empty()) c.left = c.right = kNoColumn;
        toloka_columns(first, c, reader);
    }
    const auto missing = [&](std::size_t col, const char *role, const char *option, const std::string &given,
                             const std::vector<std::string> &names) {
        if (col != kNoColumn) return;
        reader.fail("no " + std::string(role) + " column in the header (" + column_list(first) + "): " +
                    (given.empty() ? "expected one named " + word_list(names) + ", or " + option + " NAME"
                                   : std::string(option) + " '" + given + "' names no column"));
    };
    missing(c.left, "left item", "--left-col", options.left, kLeftNames);
    missing(c.right, "right item", "--right-col", options.right, kRightNames);
    missing(c.winner, "winner", "--winner-col", options.winner, kWinnerNames);
    if (!options.worker.empty()) missing(c.worker, "worker", "--worker-col", options.worker, kWorkerNames);
    if (c.left == c.right) reader.fail("the left and right items are the same column");
    return c;
}

bool names_a_column(const std::vector<std::string_view> &fields, const ComparisonColumns &options) {
    if (has_export_column(fields)) return true;
    for (std::string_view f : fields) {
        for (const std::string *given : {&options.worker, &options.left, &options.right, &options.winner}) {
            std::size_t unused = 0;
            if (!given->empty() && !positive_integer(*given, unused) && iequals(f, *given)) return true;
        }
        // Single letters (a, b) name columns only beside a longer name.
        for (const auto *names : {&kWorkerNames, &kLeftNames, &kRightNames, &kWinnerNames})
            for (const std::string &name : *names)
                if (name.size() > 1 && iequals(column_word(f), name)) return true;
    }
    return false;
}

// kAnswer* of a winner field, -1 for no answer (empty), -2 for an unknown word.
int32_t parse_winner(std::string_view winner, std::string_view left, std::string_view right) {
    if (winner.empty()) return -1;
    if (winner == left) return kAnswerLeft;
    if (winner == right) return kAnswerRight;
    for (std::string_view w : {"left", "l", "a", "first", "1"})
        if (iequals(winner, w)) return kAnswerLeft;
    for (std::string_view w : {"right", "r", "b", "second", "2"})
        if (iequals(winner, w)) return kAnswerRight;
    for (std::string_view w : {"tie", "draw", "equal", "same", "none", "0"})
        if (iequals(winner, w)) return kAnswerTie;
    return -2;
}

std::vector<int32_t> renumber(const Interner &ids, std::vector<std::string> &names) {
    const std::vector<int32_t> rank = id_order(ids);
    names = ordered_names(ids.names(), rank);
    return rank;
}

}  // namespace

namespace {

// One record's comparison (its fields as the header's columns) added to the table, or
// counted as skipped (an empty winner).
void add_comparison(const RecordReader &reader, const Columns &c, const std::string_view *fields, Interner &items,
                    Interner &workers, ComparisonTable &table) {
    const std::string_view left = fields[c.left], right = fields[c.right];
    const int32_t answer = parse_winner(fields[c.winner], left, right);
    if (answer == -1) {
        ++table.skipped_no_answer;
        return;
    }
    if (answer == -2)
        reader.fail("the winner '" + std::string(fields[c.winner].substr(0, 80)) + "' is neither item ('" +
                    std::string(left.substr(0, 80)) + "', '" + std::string(right.substr(0, 80)) +
                    "') nor left, right or tie");
    if (left.empty() || right.empty()) reader.fail("an empty item id");
    table.left.push_back(items.intern(left, reader.line()));
    table.right.push_back(items.intern(right, reader.line()));
    table.worker.push_back(c.worker == kNoColumn ? workers.intern("all", reader.line())
                                                 : workers.intern(fields[c.worker], reader.line()));
    table.answer.push_back(answer);
}

// The records of `reader` after the format is known: the columns from the first
// record, then every comparison, the ids numbered.
void read_records(RecordReader &reader, std::string_view text, const ComparisonColumns &options,
                  ComparisonTable &table) {
    std::vector<std::string_view> fields;
    if (!reader.next(fields)) throw CliError(kExitInput, table.source + ": no comparisons (the file is empty)");
    const bool header = options.header == HeaderMode::Yes ||
                        (options.header == HeaderMode::Auto && names_a_column(fields, options));
    const Columns c = plan_columns(fields, header, options, reader);
    table.columns_note = c.toloka ? "Toloka side-by-side export" : header ? "columns by name" : "columns by position";

    // At most one comparison a line: the four arrays allocated once rather than grown
    // (each regrowth copies and faults in new pages: 8 % of a 10^6-line `rank`'s CPU).
    std::size_t lines = 1;
    for (const char *at = text.data(), *end = at + text.size();
         (at = static_cast<const char *>(std::memchr(at, '\n', static_cast<std::size_t>(end - at)))) != nullptr; ++at)
        ++lines;
    table.left.reserve(lines);
    table.right.reserve(lines);
    table.worker.reserve(lines);
    table.answer.reserve(lines);

    Interner items(false), workers(false);
    // Plain lines (no quotes, the header's field count) take the reader's fast path
    // (RecordReader::next_plain, as the crowd readers do) unless a status column is read.
    std::vector<std::string_view> plain(c.fields);
    const bool plain_ok = c.status == kNoColumn && c.fields >= 2;
    bool have_record = !header;  // without a header the first record is data
    for (;;) {
        if (!have_record) {
            if (plain_ok) {
                const RecordReader::Plain got = reader.next_plain(plain.data(), c.fields);
                if (got == RecordReader::Plain::End) break;
                if (got == RecordReader::Plain::Record) {
                    add_comparison(reader, c, plain.data(), items, workers, table);
                    continue;
                }
            }
            if (!reader.next(fields)) break;
        }
        have_record = false;
        if (fields.size() != c.fields)
            reader.fail("expected " + std::to_string(c.fields) + " fields (as the " +
                        (header ? "header" : "first line") + "), found " + std::to_string(fields.size()));
        if (c.status != kNoColumn) {
            const RowStatus status = classify_status(Preset::Toloka, fields[c.status]);
            if (status == RowStatus::NoAnswer || (status == RowStatus::Rejected && !options.keep_rejected)) {
                ++(status == RowStatus::Rejected ? table.skipped_rejected : table.skipped_no_answer);
                continue;
            }
        }
        add_comparison(reader, c, fields.data(), items, workers, table);
    }
    if (table.left.empty())
        throw CliError(kExitInput, table.source + ": no comparisons with an answer (" +
                                       std::to_string(table.skipped_no_answer + table.skipped_rejected) +
                                       " rows skipped)");
    const std::vector<int32_t> item_rank = renumber(items, table.item_names);
    const std::vector<int32_t> worker_rank = renumber(workers, table.worker_names);
    for (int32_t &i : table.left) i = item_rank[static_cast<std::size_t>(i)];
    for (int32_t &i : table.right) i = item_rank[static_cast<std::size_t>(i)];
    for (int32_t &w : table.worker) w = worker_rank[static_cast<std::size_t>(w)];
}

// The comparisons of `in` (the whole input: a stream's window grows to its end). The
// bytes are read where they are, a regular file's mapping included (a copy of a
// 10^6-line file into a string, and its page faults, are saved); the
// reader's chunk mode never writes them and reports a problem as a RecordError, which
// is given the file's name here.
ComparisonTable read_comparisons(InputBytes &in, const std::string &path, const ComparisonColumns &options) {
    while (!in.at_eof()) in.advance(0);
    const char *const data = in.data();
    const std::size_t size = in.size();
    const std::string_view text(data, size);
    ComparisonTable table;
    table.source = display_name(path);
    const TextFormat format = resolve_text_format(
        options.format, path, text, options.header,
        [&](const std::vector<std::string_view> &fields) { return names_a_column(fields, options); });
    const std::size_t start = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;  // a UTF-8 byte order mark
    std::deque<std::string> escapes;
    RecordReader reader(data, size, start, size, true, 1, format, table.source, &escapes);
    try {
        read_records(reader, text, options, table);
    } catch (const RecordError &e) {
        throw CliError(kExitInput, table.source + ":" + std::to_string(e.line) + ": " + e.what);
    }
    return table;
}

}  // namespace

ComparisonTable read_comparison_text(std::string text, const std::string &path, const ComparisonColumns &options) {
    InputBytes in(std::move(text));
    return read_comparisons(in, path, options);
}

ComparisonTable read_comparison_file(const std::string &path, const ComparisonColumns &columns) {
    InputBytes in(path, std::size_t{1} << 20);
    return read_comparisons(in, path, columns);
}

RankTruth read_rank_truth(const std::string &path, const std::vector<std::string> &items, bool ranks) {
    std::string text = read_whole_file(path);
    const std::string source = display_name(path);
    RankTruth truth;
    truth.ranks = ranks;
    truth.value.assign(items.size(), std::numeric_limits<double>::quiet_NaN());
    std::unordered_map<std::string_view, std::size_t> index;
    for (std::size_t i = 0; i < items.size(); ++i) index.emplace(items[i], i);
    const auto number = [](std::string_view s, double &v) {
        const std::string copy(s);
        char *end = nullptr;
        v = std::strtod(copy.c_str(), &end);
        return !copy.empty() && end == copy.c_str() + copy.size() && std::isfinite(v);
    };
    const TextFormat format = resolve_text_format(TextFormat::Auto, path, text, HeaderMode::Auto,
                                                  [&](const std::vector<std::string_view> &f) {
                                                      double v = 0.0;
                                                      return f.size() >= 2 && !number(f.back(), v);
                                                  });
    RecordReader reader(text, format, source);
    std::vector<std::string_view> fields;
    std::size_t unknown = 0, records = 0;
    while (reader.next(fields)) {
        if (fields.size() < 2) reader.fail("expected `item value`");
        double v = 0.0;
        if (!number(fields.back(), v)) {
            if (records == 0) {  // a header
                const std::string_view word = column_word(fields.back());
                truth.ranks = ranks || iequals(word, "rank") || iequals(word, "order") || iequals(word, "position");
                ++records;
                continue;
            }
            reader.fail("the value '" + std::string(fields.back().substr(0, 80)) + "' is not a number");
        }
        ++records;
        const auto found = index.find(fields[0]);
        if (found == index.end()) {
            ++unknown;
            continue;
        }
        if (std::isnan(truth.value[found->second])) ++truth.scored;
        truth.value[found->second] = v;
    }
    if (truth.scored == 0)
        throw CliError(kExitInput, source + ": no item of the truth file is in the comparisons (" +
                                       std::to_string(unknown) + " unknown items)");
    if (truth.ranks)
        for (double &v : truth.value) v = -v;
    return truth;
}

}  // namespace cli

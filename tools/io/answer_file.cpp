// SPDX-License-Identifier: MIT
#include "io/answer_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <unordered_map>

#include "common/errors.hpp"
#include "io/column_layout.hpp"
#include "io/export_presets.hpp"
#include "io/foreign_formats.hpp"
#include "io/id_mapping.hpp"
#include "io/json_labels.hpp"
#include "io/table_reader.hpp"

namespace cli {

namespace {

const std::vector<std::string> kNumberWords = {"value", "answer", "rating", "estimate", "response", "score",
                                               "output", "label"};
const std::vector<std::string> kTagWords = {"tags", "tag", "labels", "label", "choices", "choice", "answer",
                                            "output", "result"};

enum class Kind { Numbers, Tags };

bool starts_with_ci(std::string_view s, std::string_view prefix) {
    return s.size() >= prefix.size() && iequals(s.substr(0, prefix.size()), prefix);
}

// Numbers ids in order of first appearance; names() are views into the file buffer.
class Ids {
public:
    int32_t id(std::string_view name) {
        auto it = index_.find(name);
        if (it != index_.end()) return it->second;
        const int32_t next = static_cast<int32_t>(names_.size());
        names_.push_back(name);
        index_.emplace(name, next);
        return next;
    }
    const std::vector<std::string_view> &names() const { return names_; }

private:
    std::unordered_map<std::string_view, int32_t> index_;
    std::vector<std::string_view> names_;
};

// Renumbers `ids` (first-appearance) by the id rule and fills `names` in final order.
void renumber(std::vector<int32_t> &ids, const std::vector<std::string_view> &seen, std::vector<std::string> &names) {
    std::vector<std::string> owned(seen.begin(), seen.end());
    const std::vector<int32_t> rank = order_ids(owned);
    for (int32_t &i : ids) i = rank[static_cast<std::size_t>(i)];
    names.assign(owned.size(), std::string());
    for (std::size_t i = 0; i < owned.size(); ++i) names[static_cast<std::size_t>(rank[i])] = std::move(owned[i]);
}

// The JSON string at text[pos] (an opening quote): its value, pos past the closing quote.
std::string json_string(std::string_view text, std::size_t &pos) {
    std::string out;
    for (++pos; pos < text.size(); ++pos) {
        const char c = text[pos];
        if (c == '"') {
            ++pos;
            return out;
        }
        if (c != '\\') {
            out += c;
            continue;
        }
        if (++pos >= text.size()) break;
        const char e = text[pos];
        if (e == 'u') {
            if (pos + 4 >= text.size()) break;
            const unsigned long code = std::strtoul(std::string(text.substr(pos + 1, 4)).c_str(), nullptr, 16);
            pos += 4;
            if (code < 0x80) {
                out += static_cast<char>(code);
            } else if (code < 0x800) {
                out += static_cast<char>(0xC0 | (code >> 6));
                out += static_cast<char>(0x80 | (code & 0x3F));
            } else {
                out += static_cast<char>(0xE0 | (code >> 12));
                out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
                out += static_cast<char>(0x80 | (code & 0x3F));
            }
            continue;
        }
        out += e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e == 'b' ? '\b' : e == 'f' ? '\f' : e;
    }
    throw std::invalid_argument("unterminated JSON string");
}

void skip_blanks(std::string_view text, std::size_t &pos) {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' || text[pos] == '\n' || text[pos] == '\r')) ++pos;
}

// A JSON list of strings (or numbers) at text[pos] == '['.
std::vector<std::string> json_list(std::string_view text, std::size_t &pos) {
    std::vector<std::string> out;
    ++pos;
    skip_blanks(text, pos);
    if (pos < text.size() && text[pos] == ']') {
        ++pos;
        return out;
    }
    for (;;) {
        skip_blanks(text, pos);
        if (pos >= text.size()) throw std::invalid_argument("unterminated JSON list");
        if (text[pos] == '"') {
            out.push_back(json_string(text, pos));
        } else {
            const std::size_t begin = pos;
            while (pos < text.size() && text[pos] != ',' && text[pos] != ']' && text[pos] != ' ') ++pos;
            if (pos == begin) throw std::invalid_argument("expected a string in the JSON list");
            out.emplace_back(text.substr(begin, pos - begin));
        }
        skip_blanks(text, pos);
        if (pos < text.size() && text[pos] == ',') {
            ++pos;
            continue;
        }
        if (pos < text.size() && text[pos] == ']') {
            ++pos;
            return out;
        }
        throw std::invalid_argument("expected ',' or ']' in the JSON list");
    }
}

}  // namespace

std::vector<std::string> split_tag_cell(std::string_view cell, const std::string &delimiter) {
    std::size_t pos = 0;
    skip_blanks(cell, pos);
    cell.remove_prefix(pos);
    while (!cell.empty() && (cell.back() == ' ' || cell.back() == '\t')) cell.remove_suffix(1);
    std::vector<std::string> tags;
    if (!cell.empty() && cell.front() == '[') {
        pos = 0;
        tags = json_list(cell, pos);
        skip_blanks(cell, pos);
        if (pos != cell.size()) throw std::invalid_argument("text after the JSON list");
    } else if (!cell.empty() && cell.front() == '{') {
        // Label Studio: {"choices": [...]} (other keys are ignored).
        const std::size_t key = cell.find("\"choices\"");
        if (key == std::string_view::npos) throw std::invalid_argument("a JSON object without \"choices\"");
        pos = cell.find('[', key);
        if (pos == std::string_view::npos) throw std::invalid_argument("\"choices\" is not a list");
        tags = json_list(cell, pos);
    } else {
        std::size_t begin = 0;
        while (begin <= cell.size()) {
            std::size_t end = delimiter.empty() ? std::string_view::npos : cell.find(delimiter, begin);
            if (end == std::string_view::npos) end = cell.size();
            std::string_view piece = cell.substr(begin, end - begin);
            while (!piece.empty() && (piece.front() == ' ' || piece.front() == '\t')) piece.remove_prefix(1);
            while (!piece.empty() && (piece.back() == ' ' || piece.back() == '\t')) piece.remove_suffix(1);
            if (!piece.empty()) tags.emplace_back(piece);
            begin = end + delimiter.size();
            if (end == cell.size()) break;
        }
    }
    tags.erase(std::remove(tags.begin(), tags.end(), std::string()), tags.end());
    return tags;
}

namespace {

bool boolean_cell(std::string_view cell, bool &value) {
    for (const char *yes : {"true", "1", "yes", "on"})
        if (iequals(cell, yes)) return value = true;
    for (const char *no : {"false", "0", "no", "off", ""})
        if (iequals(cell, no)) {
            value = false;
            return true;
        }
    return false;
}

AnswerTable read_answer_table(std::string text, const std::string &path, const InputOptions &input, Kind kind,
                              const std::string &delimiter, std::size_t first_line) {
    AnswerTable t;
    t.source = display_name(path);
    const std::vector<std::string> &answer_words = kind == Kind::Tags ? kTagWords : kNumberWords;
    std::vector<Role> roles = {{"item", "--item-col", input.item_col, &kItemWords, 0, false},
                               {"worker", "--worker-col", input.worker_col, &kWorkerWords, 1, false},
                               {kind == Kind::Tags ? "tags" : "value", "--label-col", input.label_col, &answer_words, 2,
                                false}};
    const TextFormat format = resolve_text_format(input.format, path, text, input.header,
                                                  [&](const std::vector<std::string_view> &f) {
                                                      return names_columns(f, roles);
                                                  });
    RecordReader reader(text, format, t.source, first_line);
    std::vector<std::string_view> fields;
    if (!reader.next(fields)) throw CliError(kExitInput, t.source + ": no answers (the file is empty)");
    // Toloka's checkbox fields: several OUTPUT:<tag> columns, each a tag.
    std::vector<std::size_t> bool_columns;
    if (kind == Kind::Tags && input.label_col.empty()) {
        for (std::size_t i = 0; i < fields.size(); ++i)
            if (starts_with_ci(fields[i], "OUTPUT:")) bool_columns.push_back(i);
        if (bool_columns.size() >= 2)
            roles[2].given = std::string(fields[bool_columns[0]]);
        else
            bool_columns.clear();
    }
    std::vector<std::string> bool_tags;
    for (std::size_t c : bool_columns) bool_tags.emplace_back(fields[c].substr(7));
    const std::string no_gold = "none";
    // Without a header, a tags file may leave the tag column out of a row (no tag).
    const Layout layout = plan_layout(fields, roles, input.header, reader, input.preset, &no_gold);
    t.columns_note = layout.columns_note;
    if (!bool_columns.empty()) {
        t.columns_note = "item " + quote_field(fields[layout.columns[0]]) + ", worker " +
                         quote_field(fields[layout.columns[1]]) + ", " + std::to_string(bool_columns.size()) +
                         " OUTPUT:<tag> columns as tags";
    }
    Ids items, workers, tags;
    for (const std::string &tag : bool_tags) tags.id(tag);  // every OUTPUT:<tag> column is a tag, ticked or not
    struct Row {
        int32_t item, worker;
        int64_t first_tag, end_tag;  // tags: range in row_tags
        std::size_t line;
        double value;
    };
    std::vector<Row> rows;
    std::vector<int32_t> row_tags;
    std::vector<std::unique_ptr<std::string>> tag_store;
    bool have = layout.header ? reader.next(fields) : true;
    while (have) {
        const bool short_row = kind == Kind::Tags && !layout.header && fields.size() == 2 && layout.n_fields == 3;
        if (!short_row) check_field_count(fields, layout, reader);
        if (layout.status != kNoColumn) {
            const RowStatus status = classify_status(layout.preset, fields[layout.status]);
            if (status == RowStatus::NoAnswer || (status == RowStatus::Rejected && !input.keep_rejected)) {
                ++t.skipped;
                have = reader.next(fields);
                continue;
            }
        }
        Row r{};
        r.item = items.id(fields[layout.columns[0]]);
        r.worker = workers.id(fields[layout.columns[1]]);
        r.line = reader.line();
        r.first_tag = static_cast<int64_t>(row_tags.size());
        if (kind == Kind::Numbers) {
            const std::string cell(fields[layout.columns[2]]);
            char *end = nullptr;
            errno = 0;
            r.value = std::strtod(cell.c_str(), &end);
            if (cell.empty() || end == cell.c_str() || *end != '\0' || errno == ERANGE || !std::isfinite(r.value) ||
                std::fabs(r.value) > 1e100)
                reader.fail("the value " + quote_field(cell) +
                            " is not a finite number (of magnitude at most 1e100)");
        } else if (!bool_columns.empty()) {
            for (std::size_t b = 0; b < bool_columns.size(); ++b) {
                bool on = false;
                if (!boolean_cell(fields[bool_columns[b]], on))
                    reader.fail("the OUTPUT:" + bool_tags[b] + " value " + quote_field(fields[bool_columns[b]]) +
                                " is not true or false");
                if (on) row_tags.push_back(tags.id(bool_tags[b]));
            }
        } else if (!short_row) {
            std::vector<std::string> pieces;
            try {
                pieces = split_tag_cell(fields[layout.columns[2]], delimiter);
            } catch (const std::invalid_argument &e) {
                reader.fail("the tags " + quote_field(fields[layout.columns[2]]) + ": " + e.what());
            }
            for (std::string &p : pieces) {
                tag_store.push_back(std::make_unique<std::string>(std::move(p)));
                row_tags.push_back(tags.id(*tag_store.back()));
            }
        }
        r.end_tag = static_cast<int64_t>(row_tags.size());
        rows.push_back(r);
        have = reader.next(fields);
    }
    t.rows = rows.size() + t.skipped;
    if (rows.empty())
        throw CliError(kExitInput, t.source + ": no answers" +
                                       (t.skipped ? " (" + std::to_string(t.skipped) + " rows skipped by their status)"
                                                  : std::string()));
    if (kind == Kind::Numbers) {
        for (const Row &r : rows) {
            t.item.push_back(r.item);
            t.worker.push_back(r.worker);
            t.value.push_back(r.value);
            t.line.push_back(r.line);
        }
    } else {
        // One answer per (item, worker): rows grouped by a stable two-pass counting sort.
        const auto sort_rows = [&](std::vector<std::size_t> in, auto key, std::size_t buckets) {
            std::vector<std::size_t> count(buckets + 1, 0), out(in.size());
            for (std::size_t r : in) ++count[static_cast<std::size_t>(key(rows[r])) + 1];
            for (std::size_t b = 1; b <= buckets; ++b) count[b] += count[b - 1];
            for (std::size_t r : in) out[count[static_cast<std::size_t>(key(rows[r]))]++] = r;
            return out;
        };
        std::vector<std::size_t> order(rows.size());
        for (std::size_t r = 0; r < rows.size(); ++r) order[r] = r;
        order = sort_rows(order, [](const Row &r) { return r.worker; }, workers.names().size());
        order = sort_rows(order, [](const Row &r) { return r.item; }, items.names().size());
        // Answers in the order of their first row, so the table follows the file.
        std::vector<std::size_t> first_row;
        std::vector<std::vector<int32_t>> merged;
        for (std::size_t a = 0; a < order.size();) {
            std::size_t b = a;
            std::vector<int32_t> set;
            std::size_t first = order[a];
            while (b < order.size() && rows[order[b]].item == rows[order[a]].item &&
                   rows[order[b]].worker == rows[order[a]].worker) {
                const Row &r = rows[order[b]];
                first = std::min(first, order[b]);
                set.insert(set.end(), row_tags.begin() + r.first_tag, row_tags.begin() + r.end_tag);
                ++b;
            }
            first_row.push_back(first);
            merged.push_back(std::move(set));
            a = b;
        }
        std::vector<std::size_t> answer_order(first_row.size());
        for (std::size_t a = 0; a < answer_order.size(); ++a) answer_order[a] = a;
        std::sort(answer_order.begin(), answer_order.end(),
                  [&](std::size_t x, std::size_t y) { return first_row[x] < first_row[y]; });
        // Tags in their sorted order.
        const std::vector<int32_t> tag_rank = inferred_class_order(tags.names());
        t.tag_names.assign(tags.names().size(), std::string());
        for (std::size_t g = 0; g < tags.names().size(); ++g)
            t.tag_names[static_cast<std::size_t>(tag_rank[g])] = std::string(tags.names()[g]);
        t.tag_start.push_back(0);
        for (std::size_t a : answer_order) {
            const Row &r = rows[first_row[a]];
            t.item.push_back(r.item);
            t.worker.push_back(r.worker);
            t.line.push_back(r.line);
            std::vector<int32_t> set;
            for (int32_t g : merged[a]) set.push_back(tag_rank[static_cast<std::size_t>(g)]);
            std::sort(set.begin(), set.end());
            set.erase(std::unique(set.begin(), set.end()), set.end());
            t.tag.insert(t.tag.end(), set.begin(), set.end());
            t.tag_start.push_back(static_cast<int64_t>(t.tag.size()));
        }
    }
    renumber(t.item, items.names(), t.item_names);
    renumber(t.worker, workers.names(), t.worker_names);
    return t;
}

// A file of answers: text as it is, or JSON records and Label Studio exports
// (io/json_labels.hpp) as the CSV table of their records, a JSON list in a cell being
// a tags list.
AnswerTable read_answers(std::string text, const std::string &path, const InputOptions &input, Kind kind,
                         const std::string &delimiter) {
    const std::string source = display_name(path);
    const std::string_view head(text.data(), std::min<std::size_t>(text.size(), 64));
    reject_foreign_format(head, path, source);
    if (!looks_like_json(head)) return read_answer_table(std::move(text), path, input, kind, delimiter, 1);
    return read_json_as_table(
        text, source,
        [&](const JsonTable &json) {
            return read_answer_table(json.csv, path, json_csv_options(input), kind, delimiter, json.first_line);
        },
        kind == Kind::Tags);
}

}  // namespace

AnswerTable read_number_text(std::string text, const std::string &path, const InputOptions &input) {
    return read_answers(std::move(text), path, input, Kind::Numbers, "");
}

AnswerTable read_tag_text(std::string text, const std::string &path, const InputOptions &input,
                          const std::string &delimiter) {
    return read_answers(std::move(text), path, input, Kind::Tags, delimiter);
}

std::vector<std::pair<std::string, std::vector<std::string>>> read_tag_truth(const std::string &path,
                                                                             const InputOptions &input,
                                                                             const std::string &delimiter) {
    static const std::vector<std::string> kTruthTagWords = {"tags", "tag", "truth", "gold", "labels", "label",
                                                            "choices", "answer", "output"};
    std::string text = read_whole_file(path);
    const std::string source = display_name(path);
    const bool item_own = !input.gold_item_col.empty(), tags_own = !input.gold_label_col.empty();
    const std::vector<Role> roles = {
        {"item", "--gold-item-col", item_own ? input.gold_item_col : input.item_col, &kTruthItemWords, 0, !item_own},
        {"tags", "--gold-label-col", tags_own ? input.gold_label_col : input.label_col, &kTruthTagWords, 1,
         !tags_own}};
    const TextFormat format =
        resolve_text_format(input.format, path, text, input.header,
                            [&](const std::vector<std::string_view> &f) { return names_columns(f, roles); });
    RecordReader reader(text, format, source);
    std::vector<std::string_view> fields;
    if (!reader.next(fields)) throw CliError(kExitInput, source + ": the truth file is empty");
    const Layout layout = plan_layout(fields, roles, input.header, reader, Preset::Generic, nullptr);
    std::vector<std::pair<std::string, std::vector<std::string>>> out;
    std::unordered_map<std::string, std::size_t> at;
    bool have = layout.header ? reader.next(fields) : true;
    while (have) {
        const bool item_only = !layout.header && fields.size() == 1 && layout.n_fields == 2;
        if (!item_only) check_field_count(fields, layout, reader);
        const std::string item(fields[layout.columns[0]]);
        auto it = at.find(item);
        if (it == at.end()) {
            it = at.emplace(item, out.size()).first;
            out.push_back({item, {}});
        }
        if (!item_only) {
            try {
                for (std::string &tag : split_tag_cell(fields[layout.columns[1]], delimiter))
                    out[it->second].second.push_back(std::move(tag));
            } catch (const std::invalid_argument &e) {
                reader.fail("the tags " + quote_field(fields[layout.columns[1]]) + ": " + e.what());
            }
        }
        have = reader.next(fields);
    }
    return out;
}

AnswerTable read_number_file(const std::string &path, const InputOptions &input) {
    return read_number_text(read_whole_file(path), path, input);
}

AnswerTable read_tag_file(const std::string &path, const InputOptions &input, const std::string &delimiter) {
    return read_tag_text(read_whole_file(path), path, input, delimiter);
}

}  // namespace cli

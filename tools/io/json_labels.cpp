// SPDX-License-Identifier: MIT
#include "io/json_labels.hpp"

#include <unordered_map>
#include <utility>
#include <vector>

#include "io/json_text.hpp"

namespace cli {

namespace {

// One row of the table being built: (column index, text) pairs, and the line the
// record starts on in the JSON text.
struct Row {
    std::vector<std::pair<std::size_t, std::string>> cells;
    std::size_t line = 0;
};

// The columns in order of first appearance, and the rows, written as CSV as they come
// (a large file is never held as a tree): a row has a field for each column known
// when it came; finish() pads it to the final columns.
class TableBuilder {
public:
    std::size_t column(const std::string &name) {
        auto [it, added] = index_.emplace(name, names_.size());
        if (added) names_.push_back(name);
        return it->second;
    }
    void add(const Row &row) {
        cell_of_.assign(names_.size(), nullptr);
        for (const auto &cell : row.cells) {
            cell_of_[cell.first] = &cell.second;
            if (cell.second.find_first_of("\r\n") != std::string::npos) on_lines_ = false;
        }
        if (row.line == 0 || (!rows_.empty() && row.line <= rows_.back().line)) on_lines_ = false;
        for (std::size_t c = 0; c < names_.size(); ++c) {
            if (c) body_ += ',';
            append_quoted(body_, cell_of_[c] != nullptr ? *cell_of_[c] : std::string());
        }
        rows_.push_back({row.line, body_.size(), names_.size()});
    }
    bool empty() const { return rows_.empty(); }

    // The CSV text; each record on its JSON line when the lines allow (json_labels.hpp).
    JsonTable finish(std::string layout, const char *unit) const {
        JsonTable out;
        out.layout = std::move(layout);
        out.unit = unit;
        bool on_lines = on_lines_;
        for (const std::string &name : names_)
            if (name.find_first_of("\r\n") != std::string::npos) on_lines = false;
        out.by_record = !on_lines;
        out.first_line = on_lines ? rows_.front().line - 1 : 0;
        std::string &csv = out.csv;
        csv.reserve(body_.size() + 2 * rows_.size() + 64);
        for (std::size_t c = 0; c < names_.size(); ++c) {
            if (c) csv += ',';
            append_quoted(csv, names_[c]);
        }
        csv += '\n';
        std::size_t line = out.first_line, begin = 0;
        for (const RowEnd &row : rows_) {
            if (on_lines) csv.append(row.line - line - 1, '\n');  // blank lines: the reader skips them
            line = row.line;
            csv.append(body_, begin, row.end - begin);
            for (std::size_t c = row.fields; c < names_.size(); ++c) csv += c ? ",\"\"" : "\"\"";
            csv += '\n';
            begin = row.end;
        }
        return out;
    }

private:
    struct RowEnd {
        std::size_t line, end, fields;  // JSON line; end of its text in body_; fields written
    };
    static void append_quoted(std::string &out, const std::string &s) {
        out += '"';
        for (const char ch : s) {
            if (ch == '"') out += '"';
            out += ch;
        }
        out += '"';
    }

    std::unordered_map<std::string, std::size_t> index_;
    std::vector<std::string> names_;
    std::string body_;
    std::vector<RowEnd> rows_;
    std::vector<const std::string *> cell_of_;
    bool on_lines_ = true;
};

// A value as a table cell: strings as they are, numbers as written, true/false, null
// as empty, arrays and objects as their JSON text.
std::string cell_text(const JsonValue &v, std::string_view text) {
    switch (v.kind) {
        case JsonValue::Kind::Null: return std::string();
        case JsonValue::Kind::Array:
        case JsonValue::Kind::Object: return std::string(text.substr(v.begin, v.end - v.begin));
        default: return v.text;
    }
}

std::string record_name(std::size_t index) { return "record " + std::to_string(index + 1); }

void add_record(TableBuilder &table, const JsonValue &rec, std::size_t index, std::string_view text,
                const JsonParser &parser) {
    if (rec.kind != JsonValue::Kind::Object)
        parser.fail_at(rec.line, record_name(index) + " is not a JSON object (expected records such as "
                                                      "{\"item\": ..., \"worker\": ..., \"label\": ...})");
    Row row;
    row.line = rec.line;
    for (const auto &[key, value] : rec.members) row.cells.emplace_back(table.column(key), cell_text(value, text));
    table.add(row);
}

// Label Studio's annotator: a user id, or the user object's email, else its id.
std::string annotator_text(const JsonValue *by, std::string_view text) {
    if (by == nullptr) return std::string();
    if (by->kind == JsonValue::Kind::Object) {
        const JsonValue *email = by->member("email");
        if (email != nullptr && email->kind == JsonValue::Kind::String && !email->text.empty()) return email->text;
        const JsonValue *id = by->member("id");
        return id != nullptr ? cell_text(*id, text) : std::string();
    }
    return cell_text(*by, text);
}

// The chosen value of one result of a Choices or Rating control; false for other
// result types (regions, text areas), which are ignored.
bool result_choice(const JsonValue &result, const JsonParser &parser, std::string_view text, bool choice_lists,
                   std::string &choice) {
    const JsonValue *value = result.member("value");
    if (value == nullptr || value->kind != JsonValue::Kind::Object) return false;
    if (const JsonValue *rating = value->member("rating"); rating != nullptr) {
        if (rating->kind != JsonValue::Kind::Number) return false;
        choice = rating->text;
        return true;
    }
    const JsonValue *choices = value->member("choices");
    if (choices == nullptr || choices->kind != JsonValue::Kind::Array) return false;
    if (choice_lists) {  // a set of tags: the list as it is
        choice = cell_text(*choices, text);
        return true;
    }
    if (choices->items.size() > 1)
        parser.fail_at(choices->line, std::to_string(choices->items.size()) +
                                          " choices in one answer (a multi-choice control): a class label is one "
                                          "choice; --answers tags reads each answer as a set of tags");
    if (choices->items.empty()) return true;
    const JsonValue &only = choices->items.front();
    if (only.kind != JsonValue::Kind::String && only.kind != JsonValue::Kind::Number)
        parser.fail_at(only.line, "a choice that is not a string or a number");
    choice = only.text;
    return true;
}

void add_label_studio_task(TableBuilder &table, const JsonValue &task, std::size_t index, std::string_view text,
                           const JsonParser &parser, bool choice_lists) {
    const std::size_t c_id = table.column("id"), c_annotator = table.column("annotator"),
                      c_annotation = table.column("annotation_id");
    if (task.kind != JsonValue::Kind::Object)
        parser.fail_at(task.line, "task " + std::to_string(index + 1) + " is not a JSON object");
    const JsonValue *annotations = task.member("annotations");
    if (annotations == nullptr) return;  // a task nobody annotated yet
    if (annotations->kind != JsonValue::Kind::Array) parser.fail_at(annotations->line, "\"annotations\" is not an array");
    const JsonValue *id = task.member("id");
    const std::string task_id = id != nullptr ? cell_text(*id, text) : std::to_string(index + 1);
    for (const JsonValue &a : annotations->items) {
        if (a.kind != JsonValue::Kind::Object) parser.fail_at(a.line, "an annotation that is not a JSON object");
        Row row;
        row.line = a.line;
        row.cells.emplace_back(c_id, task_id);
        row.cells.emplace_back(c_annotator, annotator_text(a.member("completed_by"), text));
        if (const JsonValue *aid = a.member("id")) row.cells.emplace_back(c_annotation, cell_text(*aid, text));
        const JsonValue *cancelled = a.member("was_cancelled");
        const bool skip = cancelled != nullptr && cancelled->kind == JsonValue::Kind::Bool && cancelled->text == "true";
        const JsonValue *results = a.member("result");
        if (!skip && results != nullptr && results->kind == JsonValue::Kind::Array) {
            for (const JsonValue &result : results->items) {
                std::string choice;
                if (!result_choice(result, parser, text, choice_lists, choice)) continue;
                const JsonValue *from = result.member("from_name");
                const std::string control =
                    from != nullptr && from->kind == JsonValue::Kind::String ? from->text : "choice";
                row.cells.emplace_back(table.column(control), std::move(choice));
            }
        }
        table.add(row);
    }
}

// Whether a record is a Label Studio task (the first record decides for the file).
bool is_label_studio_task(const JsonValue &v) {
    const JsonValue *annotations = v.member("annotations");
    return annotations != nullptr && annotations->kind == JsonValue::Kind::Array;
}

}  // namespace

bool looks_like_json(std::string_view head) {
    std::size_t i = head.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
    while (i < head.size() && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n')) ++i;
    return i < head.size() && (head[i] == '[' || head[i] == '{');
}

JsonTable json_as_table(std::string_view text, const std::string &source, bool choice_lists) {
    JsonParser parser(text, source);
    TableBuilder table;
    std::string layout = "json";
    int label_studio = -1;  // unknown until the first record
    std::size_t index = 0;
    const auto add = [&](const JsonValue &v) {
        if (label_studio < 0) label_studio = is_label_studio_task(v) ? 1 : 0;
        if (label_studio == 1) add_label_studio_task(table, v, index, text, parser, choice_lists);
        else add_record(table, v, index, text, parser);
        ++index;
    };
    if (parser.enter_array()) {
        for (bool first = true; parser.next_element(first); first = false) add(parser.value());
        if (parser.more()) parser.fail_at(parser.line(), "text after the closing ']' of the JSON array");
    } else {
        layout = "jsonl";
        while (parser.more()) {
            JsonValue v = parser.value();
            // fit --format json-nested: {"method": ..., "classes": [...], "items": [records]}.
            const JsonValue *items = index == 0 ? v.member("items") : nullptr;
            if (items != nullptr && items->kind == JsonValue::Kind::Array && v.member("classes") != nullptr &&
                !parser.more()) {
                layout = "json";
                for (const JsonValue &item : items->items) add(item);
                break;
            }
            add(v);
        }
    }
    if (label_studio == 1) {
        layout = "labelstudio-json";
        if (table.empty())
            throw CliError(kExitInput, source + ": a Label Studio export without annotations (export the project "
                                                "after annotating it)");
    }
    if (table.empty())
        throw CliError(kExitInput, source + ": JSON without records (expected an array of objects such as "
                                            "{\"item\": ..., \"worker\": ..., \"label\": ...}, or one object per line)");
    return table.finish(layout, label_studio == 1 ? "annotation" : "record");
}

CliError json_error(const CliError &e, const std::string &source, const JsonTable &table) {
    const std::string what = e.what();
    const std::string prefix = source + ":";
    if (what.compare(0, prefix.size(), prefix) != 0) return e;
    std::size_t i = prefix.size(), line = 0;
    const std::size_t digits_begin = i;
    while (i < what.size() && what[i] >= '0' && what[i] <= '9' && i - digits_begin < 18)
        line = line * 10 + static_cast<std::size_t>(what[i++] - '0');
    if (i == digits_begin || what.compare(i, 2, ": ") != 0) return e;
    const std::string rest = what.substr(i + 2);
    if (line == table.first_line) return CliError(e.exit_code(), source + ": the JSON keys as columns: " + rest);
    if (table.by_record)
        return CliError(e.exit_code(), source + ": " + table.unit + " " + std::to_string(line) + ": " + rest);
    return e;
}

InputOptions json_csv_options(const InputOptions &input) {
    InputOptions as_csv = input;
    as_csv.format = TextFormat::Csv;
    as_csv.header = HeaderMode::Yes;
    return as_csv;
}

}  // namespace cli

// SPDX-License-Identifier: MIT
#include "io/column_layout.hpp"

#include <algorithm>

namespace cli {

namespace {
std::string quoted(std::string_view s) { return quote_field(s); }
}  // namespace

const std::vector<std::string> kItemWords = {"task", "item", "question"};
const std::vector<std::string> kWorkerWords = {"worker", "annotator", "user", "performer"};
const std::vector<std::string> kLabelWords = {"label", "answer", "response", "output"};
const std::vector<std::string> kTruthWords = {"truth",   "gold",  "golden",   "true_label", "ground_truth",
                                              "correct", "label", "answer",   "response",   "output"};
// Truth and gold files also take a bare `id` column for the item (a task table).
const std::vector<std::string> kTruthItemWords = {"task", "item", "question", "id"};

// Header matching compares views case-insensitively and never copies a field: a first
// line may be one field of a gigabyte, and the buffer holding it is all the memory it
// should cost.
bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    for (std::size_t i = 0; i < a.size(); ++i)
        if (lower(a[i]) != lower(b[i])) return false;
    return true;
}
// A header name reduced to the word it stands for (compare it with iequals): without a
// "prefix:" or "prefix." (Toloka's ASSIGNMENT:worker_id, MTurk's Answer.label) and
// without an "_id"/"-id"/" id"/"id" suffix (task_id, WorkerId).
std::string_view column_word(std::string_view s) {
    // No column name of ours is this long: a longer field (a first line that is one
    // huge id) is returned as it is, which matches nothing at once, instead of being
    // scanned for a prefix once per field and name (issue 40: header sniffing cost
    // more than parsing such a line).
    constexpr std::size_t kLongestName = 256;
    if (s.size() > kLongestName) return s;
    const std::size_t cut = s.find_last_of(":.");
    if (cut != std::string_view::npos && cut + 1 < s.size()) s.remove_prefix(cut + 1);
    for (std::string_view suffix : {"_id", "-id", " id", "id"}) {
        const std::size_t n = suffix.size();
        if (s.size() > n && iequals(s.substr(s.size() - n), suffix)) {
            s.remove_suffix(n);
            break;
        }
    }
    return s;
}
bool positive_integer(const std::string &s, std::size_t &value) {
    if (s.empty() || s.size() > 9) return false;
    value = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return false;
        value = value * 10 + static_cast<std::size_t>(c - '0');
    }
    return value > 0;
}
// The header's columns for messages, e.g. "'task', 'worker', 'label'" (at most 12).
std::string column_list(const std::vector<std::string_view> &header) {
    std::string out;
    for (std::size_t i = 0; i < header.size() && i < 12; ++i) out += (i ? ", " : "") + quoted(header[i]);
    if (header.size() > 12) out += ", ... (" + std::to_string(header.size()) + " columns)";
    return out;
}
std::string word_list(const std::vector<std::string> &words) {
    std::string out;
    for (std::size_t i = 0; i < words.size(); ++i) out += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
    return out;
}
// A column given by an option (a header name or a 1-based number), or first.size()
// when the option names no column and `optional` lets that pass.
std::size_t given_column(const std::vector<std::string_view> &first, const std::string &given, const char *option,
                         bool optional, const RecordReader &reader) {
    std::vector<std::size_t> hits;
    for (std::size_t i = 0; i < first.size(); ++i)
        if (iequals(first[i], given)) hits.push_back(i);
    std::size_t position = 0;
    if (hits.size() == 1) return hits[0];
    if (hits.size() > 1)
        reader.fail("the header has " + std::to_string(hits.size()) + " columns named " + quoted(given) + " (columns " +
                    std::to_string(hits[0] + 1) + " and " + std::to_string(hits[1] + 1) + "); give " + option +
                    " a column number to choose one");
    if (positive_integer(given, position)) {
        if (position > first.size())
            reader.fail(std::string(option) + " " + given + ": the header has only " + std::to_string(first.size()) +
                        " columns");
        return position - 1;
    }
    if (!optional)
        reader.fail("no column " + quoted(given) + " in the header (columns: " + column_list(first) + "); " + option +
                    " takes a column name or number");
    return first.size();
}
// The role slot of ExportColumns that a Role fills.
std::size_t &export_slot(ExportColumns &cols, const Role &r) {
    const std::string_view what = r.what;
    return what == "item" ? cols.item : what == "worker" ? cols.worker : cols.label;
}
// `gold_col` is the --gold-col value for crowd files ("" = by the preset, "none" = no
// in-file gold); truth files pass nullptr.
Layout plan_layout(const std::vector<std::string_view> &first, const std::vector<Role> &roles, HeaderMode mode,
                   const RecordReader &reader, Preset preset, const std::string *gold_col) {
    Layout layout;
    layout.header = mode == HeaderMode::Yes || (mode == HeaderMode::Auto && names_columns(first, roles));
    if (!layout.header && preset != Preset::Auto && preset != Preset::Generic)
        reader.fail(std::string("--preset ") + preset_name(preset) +
                    ": the first line is not a header (a platform export starts with its column names)");
    if (layout.header) {
        layout.header_line = reader.line();
        layout.n_fields = first.size();
        layout.count_rule = "as in the header on line " + std::to_string(layout.header_line);
        const FileKind kind = gold_col != nullptr ? FileKind::Crowd : FileKind::Truth;
        // 1. The columns named by options.
        ExportColumns fixed;
        std::vector<std::size_t> chosen(roles.size(), first.size());
        for (std::size_t k = 0; k < roles.size(); ++k) {
            const Role &r = roles[k];
            if (r.given.empty()) continue;
            chosen[k] = given_column(first, r.given, r.option, r.given_optional, reader);
            if (chosen[k] != first.size()) export_slot(fixed, r) = chosen[k];
        }
        bool want_gold = kind == FileKind::Crowd;
        if (gold_col != nullptr && !gold_col->empty()) {
            if (*gold_col == "none") {
                want_gold = false;
            } else {
                fixed.gold = given_column(first, *gold_col, "--gold-col", false, reader);
            }
        }
        // 2. A platform's rules for the open ones.
        RoleOptions options;
        for (const Role &r : roles) {
            const std::string_view what = r.what;
            (what == "item" ? options.item : what == "worker" ? options.worker : options.label) = r.option;
        }
        ExportColumns cols = export_columns(first, preset, kind, fixed, want_gold, options, reader);
        layout.preset = cols.preset;
        if (want_gold) layout.gold = cols.gold;
        layout.status = cols.status;
        if (chosen[roles.size() - 1] == first.size()) layout.radio = cols.radio;  // the label role is open
        // 3. The generic names for what is still open (never the gold or status column;
        // a column another role took is reported below as the same column).
        const auto taken = [&](std::size_t i) { return i == layout.gold || i == layout.status; };
        for (std::size_t k = 0; k < roles.size(); ++k) {
            if (chosen[k] != first.size()) continue;
            const std::size_t proposed = export_slot(cols, roles[k]);
            if (proposed != kNoColumn) chosen[k] = proposed;
        }
        for (std::size_t k = 0; k < roles.size(); ++k) {
            const Role &r = roles[k];
            if (chosen[k] != first.size()) continue;
            for (const std::string &w : *r.words) {
                std::vector<std::size_t> hits;
                for (std::size_t i = 0; i < first.size(); ++i)
                    if (!taken(i) && iequals(column_word(first[i]), w)) hits.push_back(i);
                if (hits.size() > 1)
                    reader.fail("columns " + quoted(first[hits[0]]) + " and " + quoted(first[hits[1]]) +
                                " both look like the " + r.what + " column; choose one with " + r.option);
                if (hits.size() == 1) {
                    chosen[k] = hits[0];
                    break;
                }
            }
            if (chosen[k] == first.size()) {
                const std::string platform = expected_column(layout.preset, kind, r.what);
                reader.fail(std::string("no ") + r.what + " column in the header (expected " +
                            (platform.empty() ? std::string()
                                              : platform + " for the " + preset_name(layout.preset) + " preset, or ") +
                            "one named " + word_list(*r.words) + "; the columns are " + column_list(first) +
                            "); name it with " + r.option);
            }
        }
        layout.columns = chosen;
        for (std::size_t k = 0; k < roles.size(); ++k)
            layout.columns_note += (k ? ", " : "") + std::string(roles[k].what) + " " + quoted(first[chosen[k]]);
        if (!layout.radio.columns.empty()) {
            layout.columns_note.erase(layout.columns_note.rfind(", label "));
            layout.columns_note += ", label the true one of " + std::to_string(layout.radio.columns.size()) +
                                   " Answer.<option>.on columns";
        }
        if (layout.gold != kNoColumn) {
            layout.gold_name = std::string(first[layout.gold]);
            layout.columns_note += ", gold " + quoted(first[layout.gold]);
        }
        for (std::size_t k = 0; k < roles.size(); ++k)
            if (layout.gold == chosen[k] || layout.status == chosen[k])
                reader.fail(std::string("the ") + roles[k].what + " column " + quoted(first[chosen[k]]) +
                            " is also the " + (layout.gold == chosen[k] ? "gold" : "status") + " column");
    } else {
        bool positional = false;
        for (const Role &r : roles) {
            std::size_t position = 0;
            if (r.given.empty()) {
                layout.columns.push_back(r.default_position);
            } else if (positive_integer(r.given, position)) {
                layout.columns.push_back(position - 1);
                positional = true;
            } else if (r.given_optional) {
                layout.columns.push_back(r.default_position);
            } else {
                reader.fail(std::string(r.option) + " " + quoted(r.given) +
                            ": this file has no header line (its first line does not name columns), so columns "
                            "are chosen by number; use --header yes if the first line is a header");
            }
        }
        if (positional) {
            layout.n_fields = first.size();
            layout.count_rule = "as on the first line " + std::to_string(reader.line());
            const std::size_t widest = *std::max_element(layout.columns.begin(), layout.columns.end()) + 1;
            if (widest > first.size())
                reader.fail("expected at least " + std::to_string(widest) + " fields (the columns chosen by " +
                            "--item-col/--worker-col/--label-col), found " + std::to_string(first.size()));
        } else {
            layout.n_fields = roles.size();
            layout.count_rule = roles.size() == 3 ? "(item worker label)" : "(item label)";
        }
    }
    for (std::size_t a = 0; a < roles.size(); ++a)
        for (std::size_t b = a + 1; b < roles.size(); ++b)
            if (layout.columns[a] == layout.columns[b])
                reader.fail(std::string("the ") + roles[a].what + " and " + roles[b].what +
                            " columns are the same column (" + std::to_string(layout.columns[a] + 1) + ")");
    return layout;
}
// Checks a record's field count against the layout, with a hint at the usual cause.
void check_field_count(const std::vector<std::string_view> &fields, const Layout &layout, const RecordReader &reader) {
    if (fields.size() == layout.n_fields) return;
    std::string hint;
    if (fields.size() > layout.n_fields) {
        if (reader.format() == TextFormat::Whitespace)
            hint = "; a field with blanks must be \"quoted\"";
        else if (reader.format() == TextFormat::Csv)
            hint = "; a field with a comma must be \"quoted\"";
    }
    reader.fail("expected " + std::to_string(layout.n_fields) + " fields " + layout.count_rule + ", found " +
                std::to_string(fields.size()) + hint);
}
// The window of a stream grows until it holds a whole first non-blank line (or all of
// the input), so that sniffing the format sees that line entirely.
void complete_first_line(InputBytes &in) {
    while (!in.at_eof()) {
        const std::string_view text(in.data(), in.size());
        std::size_t i = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
        while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n' ||
                                   text[i] == '\v' || text[i] == '\f'))
            ++i;
        if (i < text.size() && text.find('\n', i) != std::string_view::npos) return;
        in.advance(0);
    }
}
std::vector<Role> crowd_roles(const InputOptions &in) {
    return {{"item", "--item-col", in.item_col, &kItemWords, 0, false},
            {"worker", "--worker-col", in.worker_col, &kWorkerWords, 1, false},
            {"label", "--label-col", in.label_col, &kLabelWords, 2, false}};
}

// --gold-item-col/--gold-label-col must name a column; without them --item-col and
// --label-col apply when the header has that column.
std::vector<Role> truth_roles(const InputOptions &in) {
    const bool item_own = !in.gold_item_col.empty(), label_own = !in.gold_label_col.empty();
    return {{"item", "--gold-item-col", item_own ? in.gold_item_col : in.item_col, &kTruthItemWords, 0, !item_own},
            {"label", "--gold-label-col", label_own ? in.gold_label_col : in.label_col, &kTruthWords, 1, !label_own}};
}

}  // namespace cli

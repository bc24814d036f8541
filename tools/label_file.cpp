#include "label_file.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <limits>
#include <new>

#include "cli.hpp"

namespace cli {

namespace {

// ---------------------------------------------------------------------------------
// Whole-file reading and line splitting. We read the entire file into one buffer and
// cut it with memchr and a hand-written field splitter: iostreams per field would be
// an order of magnitude slower on 10^6-line inputs.

// How a file is named in messages: "-" would be cryptic.
std::string display_name(const std::string &path) { return path == "-" ? "<stdin>" : path; }

// Reads all of `path` ("-" = stdin) into a string.
std::string read_all(const std::string &path) {
    const std::string shown = display_name(path);
    const bool use_stdin = path == "-";
    std::FILE *f = use_stdin ? stdin : std::fopen(path.c_str(), "rb");
    if (f == nullptr)
        throw CliError(kExitInput, shown + ": cannot open: " + std::strerror(errno));
    std::string data;
    int read_errno = 0;
    try {
        char chunk[1 << 16];
        for (;;) {
            const std::size_t got = std::fread(chunk, 1, sizeof chunk, f);
            data.append(chunk, got);
            if (got < sizeof chunk) {
                if (std::ferror(f)) read_errno = errno != 0 ? errno : EIO;
                break;
            }
        }
    } catch (const std::bad_alloc &) {
        if (!use_stdin) std::fclose(f);
        throw CliError(kExitInput, shown + ": the file does not fit in memory");
    }
    if (!use_stdin) std::fclose(f);
    if (read_errno != 0)
        throw CliError(kExitInput, shown + ": read error: " + std::strerror(read_errno));
    return data;
}

// Walks a buffer line by line, numbering lines from 1 and dropping a trailing CR
// (two of the reference datasets have CRLF line ends) and a leading UTF-8 BOM.
class LineCursor {
public:
    explicit LineCursor(std::string_view text) : rest_(text) {
        if (rest_.size() >= 3 && rest_.compare(0, 3, "\xEF\xBB\xBF") == 0) rest_.remove_prefix(3);
    }
    bool next(std::string_view &line) {
        if (rest_.empty()) return false;
        const void *nl = std::memchr(rest_.data(), '\n', rest_.size());
        const std::size_t len = nl ? static_cast<std::size_t>(static_cast<const char *>(nl) - rest_.data())
                                   : rest_.size();
        line = rest_.substr(0, len);
        rest_.remove_prefix(nl ? len + 1 : len);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        ++number_;
        return true;
    }
    std::size_t number() const { return number_; }

private:
    std::string_view rest_;
    std::size_t number_ = 0;
};

// Field separators: blanks and commas (a stray CR or form feed counts as a blank).
bool is_separator(char c) { return c == ' ' || c == '\t' || c == ',' || c == '\r' || c == '\v' || c == '\f'; }

// Splits a line into fields. Separators are runs of blanks and/or commas, so both
// "1 2 3" and "1,2,3" (and "1, 2, 3") work. A field that starts with '"' runs to the
// closing quote, with "" standing for one quote; such unescaped text is stored in
// `arena` (a deque, so earlier views stay valid). Returns an error text, or "" on success.
std::string split_fields(std::string_view line, std::vector<std::string_view> &fields,
                         std::deque<std::string> &arena) {
    fields.clear();
    std::size_t i = 0;
    const std::size_t n = line.size();
    while (i < n) {
        while (i < n && is_separator(line[i])) ++i;
        if (i >= n) break;
        if (line[i] != '"') {
            const std::size_t start = i;
            while (i < n && !is_separator(line[i])) ++i;
            fields.push_back(line.substr(start, i - start));
            continue;
        }
        // Quoted field.
        const std::size_t start = ++i;
        bool escaped = false;
        for (;;) {
            if (i >= n) return "unterminated quoted field";
            if (line[i] == '"') {
                if (i + 1 < n && line[i + 1] == '"') {
                    escaped = true;
                    i += 2;
                    continue;
                }
                break;
            }
            ++i;
        }
        std::string_view raw = line.substr(start, i - start);
        ++i;  // closing quote
        if (i < n && !is_separator(line[i])) return "unexpected text after a closing quote";
        if (escaped) {
            std::string unescaped;
            unescaped.reserve(raw.size());
            for (std::size_t p = 0; p < raw.size(); ++p) {
                unescaped.push_back(raw[p]);
                if (raw[p] == '"') ++p;  // skip the second quote of a ""
            }
            arena.push_back(std::move(unescaped));
            raw = arena.back();
        }
        fields.push_back(raw);
    }
    return std::string();
}

// The header rule of the spec: a first line naming a column we recognise.
bool is_header(const std::vector<std::string_view> &fields) {
    static const char *const kWords[] = {"item",      "task", "question", "worker", "annotator",
                                         "user",      "label", "answer",  "response"};
    for (std::string_view f : fields) {
        std::string lower(f);
        for (char &c : lower)
            if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        for (const char *w : kWords)
            if (lower == w) return true;
    }
    return false;
}

// "file:line: message" — the one-line error format of every input problem.
[[noreturn]] void input_error(const std::string &source, std::size_t line, const std::string &what) {
    throw CliError(kExitInput, source + ":" + std::to_string(line) + ": " + what);
}

// Quotes a value for an error message so that blanks and empty strings stay visible.
std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

// ---------------------------------------------------------------------------------
// Number recognition. Written by hand rather than with strtoll/strtod alone because
// those accept leading blanks, hex, "inf" and "nan", none of which we want to treat
// as numeric ids or labels.

bool parse_int64(std::string_view s, int64_t &value) {
    std::size_t i = 0;
    bool negative = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
    if (i >= s.size()) return false;
    uint64_t magnitude = 0;
    const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
    for (; i < s.size(); ++i) {
        if (s[i] < '0' || s[i] > '9') return false;
        const uint64_t d = static_cast<uint64_t>(s[i] - '0');
        if (magnitude > (limit - d) / 10) return false;  // out of int64 range
        magnitude = magnitude * 10 + d;
    }
    value = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
    return true;
}

// A decimal number: [+-] digits [. digits] or [+-] . digits, then [eE [+-] digits].
bool parse_number(std::string_view s, double &value) {
    std::size_t i = 0;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    std::size_t digits = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++digits;
    if (i < s.size() && s[i] == '.') {
        ++i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++digits;
    }
    if (digits == 0) return false;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
        std::size_t exp_digits = 0;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++exp_digits;
        if (exp_digits == 0) return false;
    }
    if (i != s.size()) return false;
    value = std::strtod(std::string(s).c_str(), nullptr);  // syntax checked: safe
    return true;
}

// ---------------------------------------------------------------------------------
// String -> index in order of first appearance; the final order is applied afterwards
// as a permutation, once every distinct string is known.

class Interner {
public:
    int32_t intern(std::string_view s, std::size_t line) {
        auto it = index_.find(s);
        if (it != index_.end()) return it->second;
        if (names_.size() >= static_cast<std::size_t>(INT32_MAX))
            throw CliError(kExitInput, "more than 2^31-1 distinct ids (the library's ids are int32)");
        const int32_t id = static_cast<int32_t>(names_.size());
        index_.emplace(s, id);
        names_.push_back(s);
        first_line_.push_back(line);
        return id;
    }
    const std::vector<std::string_view> &names() const { return names_; }
    std::size_t first_line(int32_t id) const { return first_line_[static_cast<std::size_t>(id)]; }

private:
    std::unordered_map<std::string_view, int32_t> index_;
    std::vector<std::string_view> names_;
    std::vector<std::size_t> first_line_;
};

// Ranks `keys` (one per first-appearance index) by (key, name bytes): rank[old] = new.
// The byte tie-break makes "7" and "07" (both 7) land in a fixed order.
template <class Key>
std::vector<int32_t> rank_by(const std::vector<Key> &keys, const std::vector<std::string_view> &names) {
    std::vector<int32_t> order(names.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int32_t>(i);
    std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
        if (keys[a] != keys[b]) return keys[a] < keys[b];
        return names[a] < names[b];
    });
    std::vector<int32_t> rank(names.size());
    for (std::size_t r = 0; r < order.size(); ++r) rank[order[r]] = static_cast<int32_t>(r);
    return rank;
}

// Item and worker order: ascending integers when every id is an integer (so the
// datasets' 1-based ids give index = id - 1, which Opt-D&S's worker grouping by index
// mod 3 relies on), else order of first appearance (the identity).
std::vector<int32_t> id_order(const std::vector<std::string_view> &names) {
    std::vector<int64_t> values(names.size());
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (!parse_int64(names[i], values[i])) {
            std::vector<int32_t> identity(names.size());
            for (std::size_t j = 0; j < identity.size(); ++j) identity[j] = static_cast<int32_t>(j);
            return identity;
        }
    }
    return rank_by(values, names);
}

// Class order without --classes: numeric when every label is a number, else bytes.
std::vector<int32_t> inferred_class_order(const std::vector<std::string_view> &names) {
    std::vector<double> values(names.size());
    bool numeric = true;
    for (std::size_t i = 0; i < names.size() && numeric; ++i) numeric = parse_number(names[i], values[i]);
    if (!numeric) std::fill(values.begin(), values.end(), 0.0);  // all equal: byte order decides
    return rank_by(values, names);
}

// --classes K: maps each distinct label to its class and names the classes "1".."K"
// (or "0".."K-1"), so a class nobody chose still exists.
std::vector<int32_t> counted_class_map(const Interner &labels, const ClassSpec &spec,
                                       const std::string &source, std::vector<std::string> &class_names) {
    const std::vector<std::string_view> &names = labels.names();
    const int64_t k = spec.count;
    std::vector<int64_t> values(names.size());
    bool fits_one_based = true, fits_zero_based = true;
    int32_t zero_witness = -1, k_witness = -1;  // labels that rule out one range
    for (std::size_t i = 0; i < names.size(); ++i) {
        const int32_t id = static_cast<int32_t>(i);
        if (!parse_int64(names[i], values[i]))
            input_error(source, labels.first_line(id),
                        "label " + quoted(names[i]) + " is not an integer (--classes " + spec.text +
                            " expects labels 1.." + std::to_string(k) + " or 0.." + std::to_string(k - 1) + ")");
        const int64_t v = values[i];
        if (v < 0 || v > k)
            input_error(source, labels.first_line(id),
                        "label " + quoted(names[i]) + " is outside 1.." + std::to_string(k) + " and 0.." +
                            std::to_string(k - 1) + " (--classes " + spec.text + ")");
        if (v == 0 && fits_one_based) fits_one_based = false, zero_witness = id;
        if (v == k && fits_zero_based) fits_zero_based = false, k_witness = id;
    }
    if (!fits_one_based && !fits_zero_based)
        input_error(source, labels.first_line(k_witness),
                    "label " + quoted(names[k_witness]) + " and label " + quoted(names[zero_witness]) +
                        " (line " + std::to_string(labels.first_line(zero_witness)) + ") fit neither 1.." +
                        std::to_string(k) + " nor 0.." + std::to_string(k - 1) + " (--classes " + spec.text + ")");
    const int64_t offset = fits_one_based ? 1 : 0;
    class_names.clear();
    for (int64_t c = 0; c < k; ++c) class_names.push_back(std::to_string(c + offset));
    std::vector<int32_t> map(names.size());
    for (std::size_t i = 0; i < names.size(); ++i) map[i] = static_cast<int32_t>(values[i] - offset);
    return map;
}

// --classes A,B,C: the listed classes in the listed order; any other label is an error.
std::vector<int32_t> listed_class_map(const Interner &labels, const ClassSpec &spec, const std::string &source) {
    std::unordered_map<std::string_view, int32_t> position;
    for (std::size_t c = 0; c < spec.names.size(); ++c) position.emplace(spec.names[c], static_cast<int32_t>(c));
    const std::vector<std::string_view> &names = labels.names();
    std::vector<int32_t> map(names.size());
    for (std::size_t i = 0; i < names.size(); ++i) {
        auto it = position.find(names[i]);
        if (it == position.end())
            input_error(source, labels.first_line(static_cast<int32_t>(i)),
                        "label " + quoted(names[i]) + " is not one of --classes " + spec.text);
        map[i] = it->second;
    }
    return map;
}

// Applies a permutation/map old index -> new index to a column of triples.
void remap(std::vector<int32_t> &column, const std::vector<int32_t> &map) {
    for (int32_t &v : column) v = map[static_cast<std::size_t>(v)];
}

// Names in final index order, copied out of the file buffer (which is then freed).
std::vector<std::string> ordered_names(const std::vector<std::string_view> &names, const std::vector<int32_t> &rank) {
    std::vector<std::string> out(names.size());
    for (std::size_t i = 0; i < names.size(); ++i) out[static_cast<std::size_t>(rank[i])] = std::string(names[i]);
    return out;
}

}  // namespace

ClassSpec parse_class_spec(const std::string &text) {
    ClassSpec spec;
    spec.text = text;
    int64_t k = 0;
    if (parse_int64(text, k)) {
        if (k < 2)
            throw CliError(kExitUsage, "--classes " + text + ": at least 2 classes are needed");
        if (k > INT32_MAX)
            throw CliError(kExitUsage, "--classes " + text + ": too many classes");
        spec.kind = ClassSpec::Kind::Count;
        spec.count = static_cast<int32_t>(k);
        return spec;
    }
    spec.kind = ClassSpec::Kind::List;
    std::size_t start = 0;
    for (;;) {
        const std::size_t comma = text.find(',', start);
        std::string name = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (name.empty())
            throw CliError(kExitUsage, "--classes '" + text + "': empty class name in the list");
        if (std::find(spec.names.begin(), spec.names.end(), name) != spec.names.end())
            throw CliError(kExitUsage, "--classes '" + text + "': class '" + name + "' is listed twice");
        spec.names.push_back(std::move(name));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    if (spec.names.size() < 2)
        throw CliError(kExitUsage, "--classes '" + text + "': give K >= 2 or a list of at least 2 classes (A,B,...)");
    spec.count = static_cast<int32_t>(spec.names.size());
    return spec;
}

CrowdTable read_crowd_file(const std::string &path, const ClassSpec &classes) {
    CrowdTable table;
    table.source = display_name(path);
    Interner items, workers, labels;
    {
        const std::string text = read_all(path);
        std::deque<std::string> arena;  // unescaped quoted fields; must outlive the interners' use
        std::vector<std::string_view> fields;
        LineCursor lines(text);
        std::string_view line;
        bool first_content = true;
        try {
            // A rough line count: avoids repeated regrowth of the triple arrays.
            const std::size_t estimate = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
            table.item.reserve(estimate);
            table.worker.reserve(estimate);
            table.label.reserve(estimate);
            table.line.reserve(estimate);
            while (lines.next(line)) {
                const std::string err = split_fields(line, fields, arena);
                if (!err.empty()) input_error(table.source, lines.number(), err);
                if (fields.empty()) continue;  // blank line
                if (first_content) {
                    first_content = false;
                    if (is_header(fields)) continue;
                }
                if (fields.size() != 3)
                    input_error(table.source, lines.number(),
                                "expected 3 fields (item worker label), found " + std::to_string(fields.size()));
                for (std::size_t f = 0; f < 3; ++f)
                    if (fields[f].empty())
                        input_error(table.source, lines.number(),
                                    std::string("empty ") + (f == 0 ? "item id" : f == 1 ? "worker id" : "label"));
                table.item.push_back(items.intern(fields[0], lines.number()));
                table.worker.push_back(workers.intern(fields[1], lines.number()));
                table.label.push_back(labels.intern(fields[2], lines.number()));
                table.line.push_back(lines.number());
            }
        } catch (const std::bad_alloc &) {
            throw CliError(kExitInput, table.source + ": out of memory while reading the labels");
        }
        if (table.item.empty())
            throw CliError(kExitInput, table.source + ": no labels (the file is empty or has only a header)");

        const std::vector<int32_t> item_rank = id_order(items.names());
        const std::vector<int32_t> worker_rank = id_order(workers.names());
        std::vector<int32_t> label_map;
        switch (classes.kind) {
            case ClassSpec::Kind::Infer:
                label_map = inferred_class_order(labels.names());
                table.class_names = ordered_names(labels.names(), label_map);
                break;
            case ClassSpec::Kind::Count:
                label_map = counted_class_map(labels, classes, table.source, table.class_names);
                break;
            case ClassSpec::Kind::List:
                label_map = listed_class_map(labels, classes, table.source);
                table.class_names = classes.names;
                break;
        }
        remap(table.item, item_rank);
        remap(table.worker, worker_rank);
        remap(table.label, label_map);
        table.item_names = ordered_names(items.names(), item_rank);
        table.worker_names = ordered_names(workers.names(), worker_rank);
    }  // the file buffer and the interners (views into it) end here
    return table;
}

TruthTable read_truth_file(const std::string &path) {
    TruthTable truth;
    truth.source = display_name(path);
    const std::string text = read_all(path);
    std::deque<std::string> arena;
    std::vector<std::string_view> fields;
    // item -> (position in entries, line of first occurrence), to detect conflicts.
    std::unordered_map<std::string, std::pair<std::size_t, std::size_t>> seen;
    LineCursor lines(text);
    std::string_view line;
    bool first_content = true;
    while (lines.next(line)) {
        const std::string err = split_fields(line, fields, arena);
        if (!err.empty()) input_error(truth.source, lines.number(), err);
        if (fields.empty()) continue;
        if (first_content) {
            first_content = false;
            if (is_header(fields)) continue;
        }
        if (fields.size() != 2)
            input_error(truth.source, lines.number(),
                        "expected 2 fields (item label), found " + std::to_string(fields.size()));
        if (fields[0].empty() || fields[1].empty())
            input_error(truth.source, lines.number(), fields[0].empty() ? "empty item id" : "empty label");
        std::string item(fields[0]);
        auto it = seen.find(item);
        if (it != seen.end()) {
            const std::string &before = truth.entries[it->second.first].second;
            if (before != fields[1])
                input_error(truth.source, lines.number(),
                            "item " + quoted(item) + " has truth " + quoted(fields[1]) + " here but " +
                                quoted(before) + " on line " + std::to_string(it->second.second));
            continue;  // an identical repeat (dog_truth.txt repeats every line)
        }
        seen.emplace(item, std::make_pair(truth.entries.size(), lines.number()));
        truth.entries.emplace_back(std::move(item), std::string(fields[1]));
    }
    if (truth.entries.empty())
        throw CliError(kExitInput, truth.source + ": no truth labels (the file is empty or has only a header)");
    return truth;
}

NameIndex::NameIndex(const std::vector<std::string> &names, bool numeric_fallback) {
    exact_.reserve(names.size());
    for (std::size_t i = 0; i < names.size(); ++i) exact_.emplace(names[i], static_cast<int32_t>(i));
    if (!numeric_fallback) return;
    std::vector<std::pair<double, int32_t>> values;
    values.reserve(names.size());
    for (std::size_t i = 0; i < names.size(); ++i) {
        double v = 0.0;
        if (!parse_number(names[i], v)) return;  // not all numeric: exact matches only
        values.emplace_back(v, static_cast<int32_t>(i));
    }
    std::sort(values.begin(), values.end());
    // A value shared by two names ("7" and "07") is ambiguous; keep only unique ones.
    for (std::size_t i = 0; i < values.size(); ++i) {
        const bool dup_prev = i > 0 && values[i - 1].first == values[i].first;
        const bool dup_next = i + 1 < values.size() && values[i + 1].first == values[i].first;
        if (!dup_prev && !dup_next) by_value_.push_back(values[i]);
    }
}

int32_t NameIndex::find(std::string_view name) const {
    auto it = exact_.find(name);
    if (it != exact_.end()) return it->second;
    double v = 0.0;
    if (by_value_.empty() || !parse_number(name, v)) return -1;
    auto pos = std::lower_bound(by_value_.begin(), by_value_.end(), std::make_pair(v, INT32_MIN));
    if (pos != by_value_.end() && pos->first == v) return pos->second;
    return -1;
}

}  // namespace cli

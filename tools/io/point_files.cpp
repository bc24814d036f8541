// SPDX-License-Identifier: MIT
#include "io/point_files.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <unordered_map>

#include "common/errors.hpp"
#include "io/id_mapping.hpp"

#if !defined(_WIN32)
#include <sys/stat.h>
#endif

namespace cli {

namespace {

std::string shown_name(const std::string &path) { return path == "-" ? "<stdin>" : path; }

std::string read_whole(const std::string &path) {
    std::FILE *f = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
    if (f == nullptr)
        throw CliError(kExitInput, path + ": cannot open: " + std::strerror(errno));
    std::string text;
#if !defined(_WIN32)
    // A regular file's size up front: growing by doubling peaks at 3 x the file.
    struct stat st {};
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
        text.reserve(static_cast<std::size_t>(st.st_size));
#endif
    char buffer[1 << 16];
    std::size_t got;
    while ((got = std::fread(buffer, 1, sizeof buffer, f)) > 0) text.append(buffer, got);
    const bool failed = std::ferror(f) != 0;
    if (f != stdin) std::fclose(f);
    if (failed) throw CliError(kExitInput, shown_name(path) + ": read error");
    return text;
}

[[noreturn]] void bad_line(const std::string &source, std::size_t line, const std::string &what) {
    throw CliError(kExitInput, source + ":" + std::to_string(line) + ": " + what);
}

bool separator(char c) { return c == ' ' || c == '\t' || c == ',' || c == '\r' || c == '\v' || c == '\f'; }

// Splits a line into fields; a field may be "double quoted" ("" inside is a quote).
// Unquoted fields are views into the line; quoted ones are unescaped into `arena`.
void split(std::string_view line, std::vector<std::string_view> &fields, std::vector<std::string> &arena,
           const std::string &source, std::size_t number) {
    fields.clear();
    arena.clear();
    // Stable addresses for the views below: a quoted field takes at least two quotes.
    // (Not line.size() strings: 32 bytes of reservation per byte of a long line.)
    arena.reserve(static_cast<std::size_t>(std::count(line.begin(), line.end(), '"')) / 2 + 1);
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && separator(line[i])) ++i;
        if (i >= line.size()) break;
        if (line[i] == '"') {
            std::string value;
            ++i;
            for (;;) {
                if (i >= line.size()) bad_line(source, number, "unterminated quoted field");
                if (line[i] == '"') {
                    if (i + 1 < line.size() && line[i + 1] == '"') {
                        value.push_back('"');
                        i += 2;
                        continue;
                    }
                    ++i;
                    break;
                }
                value.push_back(line[i++]);
            }
            arena.push_back(std::move(value));
            fields.emplace_back(arena.back());
        } else {
            const std::size_t begin = i;
            while (i < line.size() && !separator(line[i])) ++i;
            fields.emplace_back(line.substr(begin, i - begin));
        }
    }
}

// Calls fn(line_view, line_number) for every line that is not blank or a comment.
template <class Fn>
void for_each_line(const std::string &text, Fn &&fn) {
    std::size_t number = 0, pos = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string::npos) end = text.size();
        std::string_view line(text.data() + pos, end - pos);
        ++number;
        pos = end + 1;
        std::size_t first = 0;
        while (first < line.size() && (separator(line[first]))) ++first;
        if (first == line.size() || line[first] == '#') continue;
        fn(line, number);
    }
}

bool parse_double(std::string_view s, double &value) {
    if (s.empty()) return false;
    if (s.front() == '+') s.remove_prefix(1);
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    return ec == std::errc() && end == s.data() + s.size();
}

bool parse_int(std::string_view s, int64_t &value) {
    if (s.empty()) return false;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    return ec == std::errc() && end == s.data() + s.size();
}

bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if ((a[i] >= 'A' && a[i] <= 'Z' ? a[i] - 'A' + 'a' : a[i]) != b[i]) return false;
    return true;
}

// Whether the first record names the edge columns; compares without copying a field
// (a first line may be one huge field).
bool edge_header(const std::vector<std::string_view> &fields) {
    static const char *const kNames[] = {"source", "target", "from", "to", "u", "v", "src", "dst", "node1", "node2"};
    for (std::string_view f : fields)
        for (const char *name : kNames)
            if (iequals(f, name)) return true;
    return false;
}

// Reports ignored truth ids once, fails when nothing matched.
TruthClasses finish(TruthClasses out, std::size_t ignored, const std::string &example, const TruthTable &truth,
                    const std::string &what, const std::string &source) {
    if (out.scored == 0)
        throw CliError(kExitInput, truth.source + ": none of its " + std::to_string(truth.entries.size()) + " ids is " +
                                       what + " of " + source);
    if (ignored > 0)
        std::fprintf(stderr, "crowdspec: note: %zu of %zu truth ids (e.g. '%s') are not %s of %s and are not scored\n",
                     ignored, truth.entries.size(), example.c_str(), what.c_str(), source.c_str());
    return out;
}

// A header row some of whose fields are numbers may be a point with a typo, which the
// header rule drops silently (issue 40, R10): say which fields are and which are not.
void header_note_of(const std::vector<std::string_view> &fields, std::size_t number, PointTable &t) {
    std::vector<std::size_t> numbers, words;
    for (std::size_t j = 0; j < fields.size(); ++j) {
        double v = 0.0;
        (parse_double(fields[j], v) ? numbers : words).push_back(j);
    }
    if (numbers.empty()) return;
    std::string text = t.source + ":" + std::to_string(number) + ": the first row is read as a header, but " +
                       std::to_string(numbers.size()) + " of its " + std::to_string(fields.size()) +
                       " fields are numbers; if it is a point, fix field " + std::to_string(words.front() + 1) + " " +
                       quote_field(fields[words.front()].substr(0, 40));
    if (words.size() > 1) text += " and " + std::to_string(words.size() - 1) + " more";
    t.header_note = text;
}

int32_t class_of(std::unordered_map<std::string, int32_t> &classes, const std::string &label) {
    const auto it = classes.emplace(label, static_cast<int32_t>(classes.size())).first;
    return it->second;
}

}  // namespace

PointTable read_points_file(const std::string &path) {
    PointTable t;
    t.source = shown_name(path);
    const std::string text = read_whole(path);
    std::vector<std::string_view> fields;
    std::vector<std::string> arena;
    bool first = true;
    for_each_line(text, [&](std::string_view line, std::size_t number) {
        split(line, fields, arena, t.source, number);
        if (fields.empty()) return;
        const std::size_t before = t.x.size();
        bool numeric = true;
        for (std::string_view f : fields) {
            double v = 0.0;
            if (!parse_double(f, v)) {
                numeric = false;
                break;
            }
            t.x.push_back(v);
        }
        if (!numeric) {
            t.x.resize(before);
            if (first) {  // a header row
                first = false;
                header_note_of(fields, number, t);
                return;
            }
            for (std::size_t j = 0; j < fields.size(); ++j) {
                double v = 0.0;
                if (!parse_double(fields[j], v))
                    bad_line(t.source, number, "field " + std::to_string(j + 1) + " " + quote_field(fields[j]) +
                                                   " is not a number");
            }
        }
        first = false;
        if (t.n == 0) t.d = fields.size();
        if (fields.size() != t.d)
            bad_line(t.source, number, "expected " + std::to_string(t.d) + " numbers like the first row (line " +
                                           std::to_string(t.line.front()) + "), found " + std::to_string(fields.size()));
        ++t.n;
        t.line.push_back(number);
    });
    if (t.n == 0) throw CliError(kExitInput, t.source + ": no points (the file is empty or has only a header)");
    return t;
}

EdgeTable read_edges_file(const std::string &path) {
    EdgeTable t;
    t.source = shown_name(path);
    const std::string text = read_whole(path);
    std::vector<std::string_view> fields;
    std::vector<std::string> arena;
    std::unordered_map<std::string, int32_t> index;  // id -> order of first appearance
    std::vector<std::string> names;
    bool first = true;
    for_each_line(text, [&](std::string_view line, std::size_t number) {
        split(line, fields, arena, t.source, number);
        if (fields.empty()) return;
        if (first) {
            first = false;
            if (edge_header(fields)) return;
        }
        if (fields.size() != 2)
            bad_line(t.source, number, "expected 2 fields (u v), found " + std::to_string(fields.size()) +
                                           (fields.size() > 2 ? " (edge weights are not supported)" : ""));
        int32_t ends[2];
        for (int e = 0; e < 2; ++e) {
            if (fields[e].empty()) bad_line(t.source, number, "empty node id");
            std::string id(fields[e]);
            auto it = index.find(id);
            if (it == index.end()) {
                if (names.size() >= static_cast<std::size_t>(INT32_MAX))
                    bad_line(t.source, number, "more than 2^31 - 1 nodes");
                it = index.emplace(id, static_cast<int32_t>(names.size())).first;
                names.push_back(std::move(id));
            }
            ends[e] = it->second;
        }
        t.u.push_back(ends[0]);
        t.v.push_back(ends[1]);
    });
    if (t.u.empty()) throw CliError(kExitInput, t.source + ": no edges (the file is empty or has only a header)");
    // Ascending numeric order when every id is an integer.
    std::vector<int64_t> value(names.size());
    bool integers = true;
    for (std::size_t i = 0; i < names.size() && integers; ++i) integers = parse_int(names[i], value[i]);
    std::vector<int32_t> rank(names.size());
    for (std::size_t i = 0; i < names.size(); ++i) rank[i] = static_cast<int32_t>(i);
    if (integers) {
        std::vector<int32_t> order(rank);
        std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) { return value[a] < value[b]; });
        for (std::size_t r = 0; r < order.size(); ++r) rank[order[r]] = static_cast<int32_t>(r);
        for (int32_t &x : t.u) x = rank[x];
        for (int32_t &x : t.v) x = rank[x];
    }
    t.node_names.resize(names.size());
    for (std::size_t i = 0; i < names.size(); ++i) t.node_names[rank[i]] = std::move(names[i]);
    return t;
}

TruthClasses match_row_truth(const TruthTable &truth, std::size_t n_rows, const std::string &points_source) {
    TruthClasses out;
    out.label.assign(n_rows, -1);
    std::unordered_map<std::string, int32_t> classes;
    std::size_t ignored = 0;
    std::string example;
    for (const auto &[id, label] : truth.entries) {
        int64_t row = 0;
        if (!parse_int(id, row) || row < 1 || static_cast<std::size_t>(row) > n_rows) {
            if (ignored++ == 0) example = id;
            continue;
        }
        out.label[static_cast<std::size_t>(row - 1)] = class_of(classes, label);
        ++out.scored;
    }
    out.classes = static_cast<int32_t>(classes.size());
    return finish(std::move(out), ignored, example, truth, "a row number (1.." + std::to_string(n_rows) + ")",
                  points_source);
}

TruthClasses match_node_truth(const TruthTable &truth, const EdgeTable &edges) {
    TruthClasses out;
    out.label.assign(edges.node_names.size(), -1);
    const NameIndex nodes(edges.node_names, true);
    std::unordered_map<std::string, int32_t> classes;
    std::size_t ignored = 0;
    std::string example;
    for (const auto &[id, label] : truth.entries) {
        const int32_t node = nodes.find(id);
        if (node < 0) {
            if (ignored++ == 0) example = id;
            continue;
        }
        if (out.label[static_cast<std::size_t>(node)] < 0) ++out.scored;
        out.label[static_cast<std::size_t>(node)] = class_of(classes, label);
    }
    out.classes = static_cast<int32_t>(classes.size());
    return finish(std::move(out), ignored, example, truth, "a node", edges.source);
}

}  // namespace cli

// SPDX-License-Identifier: MIT
#include "mpi_input.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <numeric>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace cli {
namespace mpi {

namespace {

// ---------------------------------------------------------------------------------
// The file.

class File {
public:
    File(const std::string &path, const std::string &source) : source_(source) {
        fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd_ < 0) throw CliError(kExitInput, source_ + ": cannot open: " + std::strerror(errno));
        struct stat st {};
        if (::fstat(fd_, &st) != 0) throw CliError(kExitInput, source_ + ": cannot read: " + std::strerror(errno));
        if (!S_ISREG(st.st_mode))
            throw CliError(kExitInput, source_ + ": not a regular file (crowdspec-mpi reads a file in parts; "
                                                 "crowdspec fit reads pipes and standard input)");
        size_ = static_cast<uint64_t>(st.st_size);
    }
    ~File() {
        if (fd_ >= 0) ::close(fd_);
    }
    File(const File &) = delete;
    File &operator=(const File &) = delete;

    uint64_t size() const { return size_; }

    // Bytes [from, to).
    std::string read(uint64_t from, uint64_t to) const {
        std::string out(static_cast<std::size_t>(to - from), '\0');
        std::size_t done = 0;
        while (done < out.size()) {
            const ssize_t n = ::pread(fd_, &out[done], out.size() - done, static_cast<off_t>(from + done));
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) throw CliError(kExitInput, source_ + ": cannot read: " + (n < 0 ? std::strerror(errno) : "the file shrank"));
            done += static_cast<std::size_t>(n);
        }
        return out;
    }

    // The first offset in [at, size) that starts a line: `at` itself when it follows
    // a line break, else the byte after the next one (size when there is none).
    uint64_t line_start(uint64_t at) const {
        if (at == 0 || at >= size_) return std::min(at, size_);
        if (read(at - 1, at)[0] == '\n') return at;
        constexpr uint64_t kBlock = 1 << 16;
        for (uint64_t pos = at; pos < size_; pos += kBlock) {
            const std::string block = read(pos, std::min(size_, pos + kBlock));
            const std::size_t nl = block.find('\n');
            if (nl != std::string::npos) return pos + nl + 1;
        }
        return size_;
    }

private:
    std::string source_;
    int fd_ = -1;
    uint64_t size_ = 0;
};

bool is_blank_byte(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

bool has_content(const std::string &text) {
    return std::any_of(text.begin(), text.end(), [](char c) { return !is_blank_byte(c); });
}

// The first non-blank line of the file: its bytes (without the line break), its line
// number and the offset after its line break (the file size when it has none).
struct FirstLine {
    std::string text;
    uint64_t line = 1;
    uint64_t start = 0;
    uint64_t after = 0;
};

FirstLine first_line(const File &f) {
    FirstLine out;
    constexpr uint64_t kBlock = 1 << 16;
    const bool bom = f.size() >= 3 && f.read(0, 3) == "\xEF\xBB\xBF";  // not content
    uint64_t line_start = 0, line = 1;
    bool content = false;
    std::string current;
    for (uint64_t pos = 0; pos < f.size(); pos += kBlock) {
        const std::string block = f.read(pos, std::min(f.size(), pos + kBlock));
        for (std::size_t i = 0; i < block.size(); ++i) {
            const char c = block[i];
            if (c == '\n') {
                if (content) {
                    out.text = std::move(current);
                    out.line = line;
                    out.start = line_start;
                    out.after = pos + i + 1;
                    return out;
                }
                current.clear();
                ++line;
                line_start = pos + i + 1;
                continue;
            }
            current.push_back(c);
            if (!is_blank_byte(c) && !(bom && pos + i < 3)) content = true;
        }
    }
    if (content) {
        out.text = std::move(current);
        out.line = line;
        out.start = line_start;
        out.after = f.size();
    }
    return out;
}

// A record spanning lines (a quoted field with a line break inside) cannot be read in
// parts cut at line ends. The opening quote of a quoted field is a quote at the start
// of a field; inside, "" is a quote and a lone quote closes it. Returns the 0-based line
// of `text` on which such a field is still open at the line's end, or -1.
int64_t open_quote_line(const std::string &text, TextFormat format) {
    const char delimiter = format == TextFormat::Csv ? ',' : '\t';
    const bool whitespace = format == TextFormat::Whitespace;
    bool quoted = false, field_start = true;
    int64_t line = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"') {
                if (i + 1 < text.size() && text[i + 1] == '"') ++i;
                else quoted = false;
            } else if (c == '\n') {
                return line;
            }
            continue;
        }
        if (c == '\n') {
            ++line;
            field_start = true;
        } else if (whitespace ? (c == ' ' || c == '\t') : c == delimiter) {
            field_start = true;
        } else if (c == '"' && field_start) {
            quoted = true;
            field_start = false;
        } else if (!(c == ' ' || c == '\t')) {  // blanks before a CSV/TSV field are trimmed
            field_start = false;
        }
    }
    return -1;
}

// ---------------------------------------------------------------------------------
// Packing.

void put_u64(std::string &out, uint64_t v) { out.append(reinterpret_cast<const char *>(&v), sizeof v); }
void put_i32(std::string &out, int32_t v) { out.append(reinterpret_cast<const char *>(&v), sizeof v); }
void put_text(std::string &out, std::string_view s) {
    const uint32_t n = static_cast<uint32_t>(s.size());
    out.append(reinterpret_cast<const char *>(&n), sizeof n);
    out.append(s.data(), s.size());
}

class Unpacker {
public:
    explicit Unpacker(const std::string &in) : in_(in) {}
    bool done() const { return at_ >= in_.size(); }
    template <class T>
    T get() {
        T v;
        std::memcpy(&v, in_.data() + at_, sizeof v);
        at_ += sizeof v;
        return v;
    }
    std::string_view text() {
        const uint32_t n = get<uint32_t>();
        std::string_view s(in_.data() + at_, n);
        at_ += n;
        return s;
    }

private:
    const std::string &in_;
    std::size_t at_ = 0;
};

uint64_t hash_text(std::string_view s) {
    uint64_t h = 0xCBF29CE484222325ull;  // FNV-1a, then a bijective mix
    for (char c : s) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001B3ull;
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDull;
    return h ^ (h >> 33);
}

int owner_of(std::string_view s, int processes) { return static_cast<int>(hash_text(s) % static_cast<uint64_t>(processes)); }

// Distinct strings of all processes with the first line on which each appears, in
// order of first appearance (the same on every process): each string goes to an owner
// process by hash, which keeps its earliest line, and the owners' lists are gathered.
std::vector<std::pair<std::string, uint64_t>> global_dictionary(const World &w, const std::vector<std::string> &names,
                                                                const std::vector<uint64_t> &lines) {
    std::vector<std::string> out(static_cast<std::size_t>(w.size));
    for (std::size_t i = 0; i < names.size(); ++i) {
        std::string &o = out[static_cast<std::size_t>(owner_of(names[i], w.size))];
        put_text(o, names[i]);
        put_u64(o, lines[i]);
    }
    std::string in;
    all_to_all(w, out, in);
    std::unordered_map<std::string_view, uint64_t> first;
    for (Unpacker u(in); !u.done();) {
        const std::string_view name = u.text();
        const uint64_t line = u.get<uint64_t>();
        auto [it, fresh] = first.emplace(name, line);
        if (!fresh) it->second = std::min(it->second, line);
    }
    std::string mine;
    for (const auto &[name, line] : first) {
        put_text(mine, name);
        put_u64(mine, line);
    }
    const std::string all = all_gather(w, mine);
    std::vector<std::pair<std::string, uint64_t>> entries;
    for (Unpacker u(all); !u.done();) {
        const std::string_view name = u.text();
        entries.emplace_back(std::string(name), u.get<uint64_t>());
    }
    std::sort(entries.begin(), entries.end(),
              [](const auto &a, const auto &b) { return a.second != b.second ? a.second < b.second : a.first < b.first; });
    return entries;
}

// Each local index's first line in the table (triples are in file order).
std::vector<uint64_t> first_lines(const std::vector<int32_t> &ids, const LineMap &line, std::size_t n) {
    std::vector<uint64_t> first(n, UINT64_MAX);
    for (std::size_t t = ids.size(); t-- > 0;) first[static_cast<std::size_t>(ids[t])] = line[t];
    return first;
}

}  // namespace

ShardTable read_crowd_shards(const World &w, const std::string &path, const ClassSpec &classes,
                             const InputOptions &input) {
    const std::string source = display_name(path);
    if (path == "-")
        throw CliError(kExitUsage, "crowdspec-mpi reads a file in parts: standard input is not possible (give a file)");

    // 1. Process 0 looks at the first non-blank line: the format and whether it is a
    //    header (and which platform's export), decided by the reader itself on that line
    //    read twice (a header line then names the columns of the record after it).
    std::unique_ptr<File> file;
    FirstLine head;
    std::string format_name;
    uint64_t header = 0;
    CrowdTable probed;  // process 0: the preset and columns, for the read note
    run_phase(w, kExitInput, [&] {
        file = std::make_unique<File>(path, source);
        if (w.rank != 0) return;
        head = first_line(*file);
        std::string probe = head.text.empty() ? std::string() : head.text + "\n" + head.text + "\n";
        probed = read_crowd_text(std::move(probe), path, ClassSpec(), input, head.line, true);
        header = probed.columns.empty() ? 0 : 1;  // the columns are named only by a header
        format_name = probed.format;
    });
    uint64_t facts[5] = {header, head.line, head.start, head.after, file->size()};
    MPI_Bcast(facts, 5, MPI_UINT64_T, 0, w.comm);
    header = facts[0];
    head.line = facts[1];
    head.start = facts[2];
    head.after = facts[3];
    broadcast(w, format_name);
    if (header) broadcast(w, head.text);
    const TextFormat format = parse_text_format(format_name);
    InputOptions parts = input;
    parts.format = format;
    parts.header = header ? HeaderMode::Yes : HeaderMode::No;

    // 2. The body (the records after a header, or from the first line on) in P ranges
    //    cut at line ends; their first line numbers from the line breaks before them.
    const uint64_t size = facts[4], body = header ? head.after : head.start;
    const uint64_t length = size - body, p = static_cast<uint64_t>(w.size), r = static_cast<uint64_t>(w.rank);
    std::string chunk;
    uint64_t from = 0;
    run_phase(w, kExitInput, [&] {
        from = r == 0 ? body : file->line_start(body + length * r / p);
        const uint64_t to = r + 1 == p ? size : file->line_start(body + length * (r + 1) / p);
        chunk = file->read(from, std::max(from, to));
    });
    file.reset();
    const uint64_t breaks = static_cast<uint64_t>(std::count(chunk.begin(), chunk.end(), '\n'));
    const uint64_t line = (header ? head.line + 1 : head.line) + exclusive_sum(w, breaks);

    // 3. This process's records, by the command-line reader; ids stay strings for now.
    CrowdTable table;
    run_phase(w, kExitInput, [&] {
        const int64_t open = open_quote_line(chunk, format);
        if (open >= 0)
            throw CliError(kExitInput, source + ":" + std::to_string(line + static_cast<uint64_t>(open)) +
                                           ": a quoted field spans lines; crowdspec-mpi reads the file in parts cut "
                                           "at line ends (crowdspec fit reads such a file)");
        if (!has_content(chunk)) return;
        std::string text = header ? head.text + "\n" + chunk : std::move(chunk);
        std::string().swap(chunk);
        try {
            table = read_crowd_text(std::move(text), path, ClassSpec(), parts, header ? line - 1 : line, true);
        } catch (const CliError &e) {
            // The header was put before this part as the line just above it: name its
            // real line in the reader's messages.
            std::string message = e.what();
            const std::string said = "header on line " + std::to_string(line - 1);
            const std::size_t at = header && w.rank > 0 ? message.find(said) : std::string::npos;
            if (at != std::string::npos)
                message.replace(at, said.size(), "header on line " + std::to_string(head.line));
            throw CliError(e.exit_code(), message);
        }
    });
    // What the whole file had: labels, rows skipped by a platform's rules, in-file gold.
    std::vector<uint64_t> counts = {table.item.size(), table.skipped_rejected, table.skipped_no_answer,
                                    table.file_gold.entries.size()};
    sum(w, counts);
    if (counts[0] == 0) {  // the whole-file reader's words for it
        const uint64_t skipped = counts[1] + counts[2];
        agree(w, kExitInput,
              skipped > 0 ? source + ": no labels left after skipping " + std::to_string(skipped) + " rows (" +
                                std::to_string(counts[1]) + " rejected, " + std::to_string(counts[2]) +
                                " without an answer)" + (counts[1] > 0 ? "; --keep-rejected uses rejected ones" : "")
              : header ? source + ":" + std::to_string(head.line) +
                             ": the file has a header line but no labels after it (expected one record per label)"
                       : source + ": the file is empty (expected `item worker label` lines, or a header line "
                                  "naming the columns and then records)");
    }
    if (counts[3] > 0)  // crowdspec fit would pin those items; this fit cannot
        agree(w, kExitInput,
              source + ": the file has gold labels in a column of its own (" + probed.columns +
                  "); crowdspec-mpi does not pin gold items: give --gold-col none to fit without them, or use "
                  "crowdspec fit");
    ShardTable out;
    if (w.rank == 0) {
        probed.skipped_rejected = static_cast<std::size_t>(counts[1]);
        probed.skipped_no_answer = static_cast<std::size_t>(counts[2]);
        out.read_note = crowd_read_note(probed);
    }

    // 4. Workers and classes numbered as a whole-file read numbers them.
    out.source = source;
    out.format = format_name;
    const auto workers = global_dictionary(
        w, table.worker_names, first_lines(table.worker, table.line, table.worker_names.size()));
    const auto labels =
        global_dictionary(w, table.class_names, first_lines(table.label, table.line, table.class_names.size()));
    std::vector<int32_t> worker_of(table.worker_names.size()), class_of(table.class_names.size());
    run_phase(w, kExitInput, [&] {
        std::vector<std::string> names;
        for (const auto &e : workers) names.push_back(e.first);
        const std::vector<int32_t> rank = order_ids(names);
        out.worker_names.assign(names.size(), std::string());
        std::unordered_map<std::string_view, int32_t> index;
        for (std::size_t i = 0; i < names.size(); ++i) out.worker_names[static_cast<std::size_t>(rank[i])] = names[i];
        for (std::size_t i = 0; i < out.worker_names.size(); ++i) index.emplace(out.worker_names[i], static_cast<int32_t>(i));
        for (std::size_t i = 0; i < table.worker_names.size(); ++i) worker_of[i] = index.at(table.worker_names[i]);

        std::vector<std::string> strings;
        std::vector<std::size_t> where;
        for (const auto &e : labels) {
            strings.push_back(e.first);
            where.push_back(static_cast<std::size_t>(e.second));
        }
        const std::vector<int32_t> cls = map_label_strings(strings, where, classes, source, out.class_names);
        std::unordered_map<std::string_view, int32_t> label_index;
        for (std::size_t i = 0; i < strings.size(); ++i) label_index.emplace(strings[i], cls[i]);
        for (std::size_t i = 0; i < table.class_names.size(); ++i) class_of[i] = label_index.at(table.class_names[i]);
    });

    // 5. Every label to the process that holds its item.
    std::vector<std::string> send(static_cast<std::size_t>(w.size));
    {
        std::vector<int> item_owner(table.item_names.size());
        for (std::size_t j = 0; j < table.item_names.size(); ++j) item_owner[j] = owner_of(table.item_names[j], w.size);
        for (std::size_t t = 0; t < table.item.size(); ++t) {
            const std::size_t j = static_cast<std::size_t>(table.item[t]);
            std::string &o = send[static_cast<std::size_t>(item_owner[j])];
            put_text(o, table.item_names[j]);
            put_i32(o, worker_of[static_cast<std::size_t>(table.worker[t])]);
            put_i32(o, class_of[static_cast<std::size_t>(table.label[t])]);
            put_u64(o, table.line[t]);
        }
        table = CrowdTable();
    }
    std::string received;
    all_to_all(w, send, received);
    std::vector<std::string>().swap(send);

    // 6. Local items in order of first appearance, their labels in file order.
    struct Label {
        uint64_t line;
        int32_t item, worker, label;
    };
    std::vector<Label> mine;
    std::vector<std::string> names;
    {
        std::unordered_map<std::string_view, int32_t> index;
        for (Unpacker u(received); !u.done();) {
            const std::string_view name = u.text();
            Label l{0, 0, u.get<int32_t>(), u.get<int32_t>()};
            l.line = u.get<uint64_t>();
            auto [it, fresh] = index.emplace(name, static_cast<int32_t>(names.size()));
            if (fresh) names.emplace_back(name);
            l.item = it->second;
            mine.push_back(l);
        }
    }
    std::string().swap(received);
    std::sort(mine.begin(), mine.end(), [](const Label &a, const Label &b) { return a.line < b.line; });
    std::vector<int32_t> order(names.size(), -1);  // old local index -> new, by first line
    int32_t next = 0;
    for (const Label &l : mine)
        if (order[static_cast<std::size_t>(l.item)] < 0) order[static_cast<std::size_t>(l.item)] = next++;
    out.item_names.assign(names.size(), std::string());
    for (std::size_t j = 0; j < names.size(); ++j) out.item_names[static_cast<std::size_t>(order[j])] = std::move(names[j]);
    out.first_item = static_cast<int64_t>(exclusive_sum(w, out.item_names.size()));
    out.total_items = static_cast<int64_t>(sum(w, out.item_names.size()));
    run_phase(w, kExitInput, [&] {
        if (out.total_items > INT32_MAX)
            throw CliError(kExitInput, source + ": more than 2^31-1 distinct items (the library's ids are int32)");
    });
    out.item.reserve(mine.size());
    out.worker.reserve(mine.size());
    out.label.reserve(mine.size());
    out.line.reserve(mine.size());
    for (const Label &l : mine) {
        out.item.push_back(static_cast<int32_t>(out.first_item + order[static_cast<std::size_t>(l.item)]));
        out.worker.push_back(l.worker);
        out.label.push_back(l.label);
        out.line.push_back(static_cast<std::size_t>(l.line));
    }
    return out;
}

}  // namespace mpi
}  // namespace cli

// SPDX-License-Identifier: MIT
#include "io/table_reader.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <new>

#include "common/errors.hpp"
#include "common/interrupt.hpp"

#if !defined(_WIN32)
#include <sys/stat.h>
#endif

namespace cli {

namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

std::string lower_ascii(std::string_view s) {
    std::string out(s);
    for (char &c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

bool ends_with(const std::string &s, const char *suffix) {
    const std::size_t n = std::strlen(suffix);
    return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

// Owns a FILE* so that every exit path of read_whole_file closes it.
struct FileCloser {
    std::FILE *file;
    bool owned;
    ~FileCloser() {
        if (owned && file != nullptr) std::fclose(file);
    }
};

}  // namespace

TextFormat parse_text_format(const std::string &value) {
    if (value == "auto") return TextFormat::Auto;
    if (value == "csv") return TextFormat::Csv;
    if (value == "tsv") return TextFormat::Tsv;
    if (value == "whitespace" || value == "ws" || value == "txt") return TextFormat::Whitespace;
    throw CliError(kExitUsage, "--input-format '" + value + "': expected auto, csv, tsv or whitespace");
}

HeaderMode parse_header_mode(const std::string &value) {
    if (value == "auto") return HeaderMode::Auto;
    if (value == "yes") return HeaderMode::Yes;
    if (value == "no") return HeaderMode::No;
    throw CliError(kExitUsage, "--header '" + value + "': expected auto, yes or no");
}

const char *text_format_name(TextFormat format) {
    switch (format) {
        case TextFormat::Csv: return "csv";
        case TextFormat::Tsv: return "tsv";
        case TextFormat::Whitespace: return "whitespace";
        case TextFormat::Auto: break;
    }
    return "auto";
}

std::string display_name(const std::string &path) { return path == "-" ? "<stdin>" : path; }

std::string read_whole_file(const std::string &path) {
    const std::string shown = display_name(path);
    const bool use_stdin = path == "-";
    FileCloser f{use_stdin ? stdin : std::fopen(path.c_str(), "rb"), !use_stdin};
    if (f.file == nullptr) throw CliError(kExitInput, shown + ": cannot open: " + std::strerror(errno));
    std::string data;
    try {
        // Reserve the file's size when it is a regular file: one allocation instead
        // of log2(size) regrowths and copies for a multi-gigabyte export.
#if !defined(_WIN32)
        struct stat st {};
        if (fstat(fileno(f.file), &st) == 0) {
            if (S_ISDIR(st.st_mode)) throw CliError(kExitInput, shown + ": cannot read: it is a directory");
            if (S_ISREG(st.st_mode) && st.st_size > 0) data.reserve(static_cast<std::size_t>(st.st_size));
        }
#endif
        char chunk[1 << 16];
        for (;;) {
            errno = 0;
            const std::size_t got = std::fread(chunk, 1, sizeof chunk, f.file);
            data.append(chunk, got);
            throw_if_interrupted();  // a blocked read returns early (EINTR) on Ctrl-C
            if (got == sizeof chunk) continue;
            if (std::ferror(f.file)) {
                const int e = errno != 0 ? errno : EIO;
                if (e == EINTR) {  // a signal we do not handle (e.g. SIGWINCH): go on
                    std::clearerr(f.file);
                    continue;
                }
                if (e == EISDIR) throw CliError(kExitInput, shown + ": cannot read: it is a directory");
                throw CliError(kExitInput, shown + ": read error: " + std::strerror(e));
            }
            break;
        }
    } catch (const std::bad_alloc &) {
        throw CliError(kExitInput, shown + ": the file does not fit in memory");
    }
    return data;
}

std::vector<std::string_view> split_line_for_sniffing(std::string_view line, TextFormat format) {
    std::vector<std::string_view> out;
    const auto trim = [](std::string_view s) {
        while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
        while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
        if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
        return s;
    };
    if (format == TextFormat::Csv || format == TextFormat::Tsv) {
        const char d = format == TextFormat::Csv ? ',' : '\t';
        std::size_t start = 0;
        for (;;) {
            const std::size_t at = line.find(d, start);
            out.push_back(trim(line.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start)));
            if (at == std::string_view::npos) break;
            start = at + 1;
        }
        return out;
    }
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && is_blank(line[i])) ++i;
        const std::size_t start = i;
        while (i < line.size() && !is_blank(line[i])) ++i;
        if (i > start) out.push_back(trim(line.substr(start, i - start)));
    }
    return out;
}

TextFormat resolve_text_format(TextFormat requested, const std::string &path, std::string_view text,
                               HeaderMode header,
                               const std::function<bool(const std::vector<std::string_view> &)> &is_header) {
    if (requested != TextFormat::Auto) return requested;
    const std::string lower = lower_ascii(path);
    if (ends_with(lower, ".csv")) return TextFormat::Csv;
    if (ends_with(lower, ".tsv") || ends_with(lower, ".tab")) return TextFormat::Tsv;
    if (text.compare(0, kBom.size(), kBom) == 0) text.remove_prefix(kBom.size());
    // The first line with something other than blanks on it.
    std::string_view line;
    while (!text.empty()) {
        const std::size_t nl = text.find('\n');
        line = text.substr(0, nl);
        text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
        if (std::any_of(line.begin(), line.end(), [](char c) { return !is_blank(c); })) break;
        line = std::string_view();
    }
    if (line.find('\t') != std::string_view::npos) {
        const bool named = header == HeaderMode::Yes ||
                           (header == HeaderMode::Auto && is_header(split_line_for_sniffing(line, TextFormat::Tsv)));
        if (named) return TextFormat::Tsv;
    }
    if (line.find(',') != std::string_view::npos) return TextFormat::Csv;
    return TextFormat::Whitespace;
}

RecordReader::RecordReader(std::string &buffer, TextFormat format, std::string source, std::size_t first_line)
    : data_(&buffer[0]), size_(buffer.size()), stop_(buffer.size()), format_(format), source_(std::move(source)),
      next_line_(first_line) {
    if (buffer.compare(0, kBom.size(), kBom) == 0) pos_ = kBom.size();
}

RecordReader::RecordReader(const char *data, std::size_t size, std::size_t begin, std::size_t stop, bool at_eof,
                           std::size_t first_line, TextFormat format, std::string source,
                           std::deque<std::string> *escapes)
    : data_(const_cast<char *>(data)), escapes_(escapes), size_(size), stop_(stop), at_eof_(at_eof), chunk_mode_(true),
      format_(format), source_(std::move(source)), pos_(begin), next_line_(first_line) {}

void RecordReader::fail(const std::string &what) const {
    // Messages quote fields, and a quoted field may hold a line break or a tab: escaped
    // here, once for every reader, so that an input error is always one line.
    if (chunk_mode_) throw RecordError{line_, escape_controls(what)};
    throw CliError(kExitInput, source_ + ":" + std::to_string(line_) + ": " + escape_controls(what));
}

void RecordReader::incomplete() const { throw IncompleteRecord{record_start_, line_}; }

void RecordReader::poll_interrupt() { throw_if_interrupted(); }

std::string_view RecordReader::quoted_field() {
    char *const b = data_;
    const std::size_t end = size_;
    const std::size_t start = pos_ + 1;
    std::size_t read = start, write = start;
    std::string *copy = nullptr;  // chunk mode: the unescaped text, once a "" is met
    for (;;) {
        const void *q = read < end ? std::memchr(b + read, '"', end - read) : nullptr;
        if (q == nullptr) {
            if (!at_eof_) incomplete();
            fail("unterminated quoted field: the \" opened on this line is never closed (a quote inside a "
                 "quoted field is written \"\")");
        }
        const std::size_t at = static_cast<std::size_t>(static_cast<const char *>(q) - b);
        if (at + 1 >= end && !at_eof_) incomplete();  // is it "" or the closing quote?
        saw_quote_ = true;
        next_line_ += static_cast<std::size_t>(std::count(b + read, b + at, '\n'));
        const bool escaped = at + 1 < end && b[at + 1] == '"';
        if (escapes_ != nullptr) {
            // Never write the input (another thread may be reading it): "" escapes are
            // resolved into a string of our own.
            if (escaped && copy == nullptr) copy = &escapes_->emplace_back();
            if (copy != nullptr) copy->append(b + read, at - read);
            if (escaped) {
                copy->push_back('"');
                read = at + 2;
                continue;
            }
            pos_ = at + 1;
            return copy != nullptr ? std::string_view(*copy) : std::string_view(b + start, at - start);
        }
        // Unescape in place: the text only ever moves left, over the dropped quotes.
        if (write != read) std::memmove(b + write, b + read, at - read);
        write += at - read;
        if (escaped) {
            b[write++] = '"';
            read = at + 2;
            continue;
        }
        pos_ = at + 1;
        return std::string_view(b + start, write - start);
    }
}

void RecordReader::parse_delimited(std::vector<std::string_view> &fields, char delimiter) {
    const char *const b = data_;
    const std::size_t end = size_;
    // Blanks trimmed around fields: for TSV a tab is the delimiter, not a blank.
    const auto trimmable = [delimiter](char c) { return c != delimiter && is_blank(c); };
    for (;;) {
        while (pos_ < end && trimmable(b[pos_])) ++pos_;
        std::string_view field;
        bool at_quote = pos_ < end && b[pos_] == '"';
        if (at_quote) {
            field = quoted_field();
            while (pos_ < end && trimmable(b[pos_])) ++pos_;
            if (pos_ < end && b[pos_] != delimiter && b[pos_] != '\n')
                fail(std::string("unexpected text after the closing quote of a field (expected ") +
                     (delimiter == ',' ? "a comma" : "a tab") + " or the end of the line)");
        } else {
            const std::size_t start = pos_;
            // The field runs to the delimiter or the line's end: look for both at once.
            std::size_t i = pos_;
            while (i < end) {
                const char c = b[i];
                if (c == delimiter || c == '\n') break;
                ++i;
            }
            pos_ = i;
            std::size_t stop = pos_;
            while (stop > start && trimmable(b[stop - 1])) --stop;
            field = std::string_view(b + start, stop - start);
        }
        if (pos_ >= end && !at_eof_) incomplete();
        fields.push_back(field);
        if (pos_ < end && b[pos_] == delimiter) {
            ++pos_;
            continue;
        }
        if (pos_ < end) {  // at '\n'
            ++pos_;
            ++next_line_;
        }
        return;
    }
}

void RecordReader::parse_whitespace(std::vector<std::string_view> &fields) {
    const char *const b = data_;
    const std::size_t end = size_;
    for (;;) {
        while (pos_ < end && is_blank(b[pos_])) ++pos_;
        if (pos_ >= end) {
            if (!at_eof_) incomplete();
            return;
        }
        if (b[pos_] == '\n') {
            ++pos_;
            ++next_line_;
            return;
        }
        if (b[pos_] == '"') {
            fields.push_back(quoted_field());
            if (pos_ < end && !is_blank(b[pos_]) && b[pos_] != '\n')
                fail("unexpected text after the closing quote of a field (expected a blank or the end of the line)");
            continue;
        }
        const std::size_t start = pos_;
        while (pos_ < end && !is_blank(b[pos_]) && b[pos_] != '\n') ++pos_;
        fields.emplace_back(b + start, pos_ - start);
    }
}

bool RecordReader::next(std::vector<std::string_view> &fields) {
    for (;;) {
        // Poll for Ctrl-C now and then: cheap, and a 10^8-line read stays cancellable.
        if ((++records_ & 0xFFFF) == 0) throw_if_interrupted();
        fields.clear();
        if (pos_ >= stop_) return false;
        line_ = next_line_;
        record_start_ = pos_;
        saw_quote_ = false;
        switch (format_) {
            case TextFormat::Csv: parse_delimited(fields, ','); break;
            case TextFormat::Tsv: parse_delimited(fields, '\t'); break;
            default: parse_whitespace(fields); break;
        }
        const bool blank = fields.empty() || (fields.size() == 1 && fields[0].empty() && !saw_quote_);
        if (!blank) return true;
    }
}

}  // namespace cli

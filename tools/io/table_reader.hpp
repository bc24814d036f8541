// SPDX-License-Identifier: MIT
// Delimited text in: CSV and TSV (RFC 4180 quoting, CRLF, UTF-8 with or without a
// BOM) and the plain whitespace format, read whole into memory and cut into records
// of string views. Shared by every file the program reads (crowd labels, truth,
// gold), so that all of them accept the same formats and report problems alike.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace cli {

/// How a file's fields are separated (the --input-format option).
enum class TextFormat {
    Auto,       ///< decided per file: see resolve_text_format()
    Csv,        ///< comma-separated, RFC 4180 quotes
    Tsv,        ///< tab-separated, the same quoting rules
    Whitespace  ///< runs of blanks and tabs; a field may be "double quoted"
};

/// Whether the first record names the columns (the --header option).
enum class HeaderMode { Auto, Yes, No };

/// Parse option values; an unknown value is a usage error listing the accepted ones.
TextFormat parse_text_format(const std::string &value);
HeaderMode parse_header_mode(const std::string &value);
/// "csv", "tsv", "whitespace" (or "auto").
const char *text_format_name(TextFormat format);

/// How a path is named in messages: "-" becomes "<stdin>".
std::string display_name(const std::string &path);

/// Reads all of `path` ("-" = standard input). Throws CliError(kExitInput) naming the
/// file on failure, or the interrupted error if SIGINT/SIGTERM arrived meanwhile.
std::string read_whole_file(const std::string &path);

/// Splits one physical line the way a format would (no multi-line quotes): used to
/// look at the first line before the format is known. The fields are views into
/// `line` (surrounding blanks and quotes dropped, "" not unescaped): sniffing copies
/// nothing, however long the line.
std::vector<std::string_view> split_line_for_sniffing(std::string_view line, TextFormat format);

/// The format of a file read with --input-format auto: by extension (.csv, .tsv/.tab),
/// otherwise by its first non-blank line: a header (`is_header` says whether fields
/// name columns, or `header` is Yes) with a tab is TSV; a line with a comma is CSV;
/// anything else is whitespace-separated. Headerless tab-separated files are thus read
/// as whitespace (the shared datasets' format, tolerant of mixed blanks and tabs).
TextFormat resolve_text_format(TextFormat requested, const std::string &path, std::string_view text,
                               HeaderMode header,
                               const std::function<bool(const std::vector<std::string_view> &)> &is_header);

/// Thrown by a RecordReader in chunk mode (see RecordReader's range constructor) instead
/// of CliError: the problem and its line counted from the chunk's first line (1), so
/// that the caller, who learns later where the chunk starts, can name the file's line.
struct RecordError {
    std::size_t line;  ///< 1-based within the chunk
    std::string what;  ///< the message without "source:line: "
};

/// Thrown by a RecordReader over part of a stream (`at_eof` false) when a record runs
/// past the bytes it has: the caller reads more and starts again at `start`.
struct IncompleteRecord {
    std::size_t start;  ///< offset of the record's first byte
    std::size_t line;   ///< its line, counted like RecordError::line
};

/// Cuts a buffer into records. A record is one line, or several when a quoted field
/// holds line breaks. Blank lines are skipped. Quoted fields with "" escapes are
/// unescaped in place, which is why the buffer is not const; the views returned stay
/// valid as long as the buffer. Unquoted CSV/TSV fields are trimmed of surrounding
/// blanks (quote a field to keep them); a trailing CR (CRLF files) is dropped.
class RecordReader {
public:
    /// The whole buffer (a UTF-8 BOM at its start is skipped); errors throw CliError.
    /// `first_line`: the line number of the buffer's first line (1 for a whole file;
    /// a part of a file starts further down).
    RecordReader(std::string &buffer, TextFormat format, std::string source, std::size_t first_line = 1);

    /// Chunk mode: the records that start in [begin, stop) of data[0, size): `begin` is
    /// the start of a record, and the last record may run past `stop` (a quoted line
    /// break) up to `size`. Lines are counted from `first_line` at `begin`; problems
    /// throw RecordError. When `at_eof` is false, data[size] is not the end of the
    /// input: a record that needs bytes beyond `size` throws IncompleteRecord. The
    /// data is never written: a quoted field with "" escapes is unescaped into a new
    /// string appended to `escapes` (whose elements never move), and its view points
    /// there.
    RecordReader(const char *data, std::size_t size, std::size_t begin, std::size_t stop, bool at_eof,
                 std::size_t first_line, TextFormat format, std::string source, std::deque<std::string> *escapes);

    /// The next non-blank record, or false at the end. Throws CliError(kExitInput)
    /// "source:line: ..." on a malformed quote, or the interrupted error.
    bool next(std::vector<std::string_view> &fields);
    /// 1-based line on which the last record returned starts.
    std::size_t line() const { return line_; }
    const std::string &source() const { return source_; }
    TextFormat format() const { return format_; }
    /// Offset of the next record (after the last one returned), and its line.
    std::size_t position() const { return pos_; }
    std::size_t next_line() const { return next_line_; }

    /// Throws CliError(kExitInput) "source:line: what" for the last record (in chunk
    /// mode RecordError).
    [[noreturn]] void fail(const std::string &what) const;

    /// What next_plain() found.
    enum class Plain {
        Record,  ///< a plain record: its fields are filled in and the reader is past it
        Other,   ///< anything else: nothing was consumed, call next() for this record
        End      ///< no record starts before the range's end (next() would return false)
    };
    /// The fast path of next() for the common line: exactly `n` fields (n >= 2), none
    /// of them starting with a quote, ending at a line break (or at the end of the
    /// input). For such a line it gives the same fields, line() and position() as
    /// next() and skips the general parser; for every other line (blank, quoted, a
    /// different field count, cut off at the end of a stream window) it returns Other
    /// without moving, so that next() reads (or reports) it as always.
    Plain next_plain(std::string_view *fields, std::size_t n);

private:
    std::string_view quoted_field();  // at an opening quote; advances past the closing one
    void parse_delimited(std::vector<std::string_view> &fields, char delimiter);
    void parse_whitespace(std::vector<std::string_view> &fields);
    [[noreturn]] void incomplete() const;  // the record needs bytes beyond size_
    static void poll_interrupt();            // throw_if_interrupted() (interrupt.hpp)

    char *data_;  // written only by the whole-buffer constructor's in-place unescaping
    std::deque<std::string> *escapes_ = nullptr;
    std::size_t size_;
    std::size_t stop_;
    bool at_eof_ = true;
    bool chunk_mode_ = false;
    TextFormat format_;
    std::string source_;
    std::size_t pos_ = 0;
    std::size_t next_line_ = 1;  // line number at pos_
    std::size_t line_ = 0;
    std::size_t record_start_ = 0;
    std::size_t records_ = 0;
    bool saw_quote_ = false;  // the current record had a quoted field ("" is not blank)
    std::size_t plain_end_ = 0;  // next_plain(): one past a line break, the scans' bound
};

// next_plain() is inline: it runs once per record of a large file.
namespace detail {

// Word-at-a-time byte search: bit 7 of byte i of the result is set when byte i of `w`
// is zero; bits above the lowest set one may be wrong (a borrow), so only
// the lowest is used. Little-endian loads make the lowest byte the first in memory.
inline constexpr uint64_t kOnes = 0x0101010101010101ull, kHighs = 0x8080808080808080ull;
inline uint64_t zero_bytes(uint64_t w) { return (w - kOnes) & ~w & kHighs; }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && (defined(__GNUC__) || defined(__clang__))
inline constexpr bool kWordSearch = true;
inline std::size_t first_flagged(uint64_t m) { return static_cast<std::size_t>(__builtin_ctzll(m)) / 8; }
#else
inline constexpr bool kWordSearch = false;
inline std::size_t first_flagged(uint64_t) { return 0; }
#endif

// Byte classes for next_plain(): 0 part of a field, 1 a quote, 2 a blank (trimmed),
// 3 the delimiter, 4 a line break. The whitespace format has no delimiter (blanks
// separate fields); for TSV the tab is the delimiter, not a blank.
struct ByteClasses {
    unsigned char of[256];
    constexpr explicit ByteClasses(char delimiter) : of() {
        for (char c : {' ', '\t', '\r', '\v', '\f'}) of[static_cast<unsigned char>(c)] = 2;
        of[static_cast<unsigned char>('"')] = 1;
        if (delimiter != '\0') of[static_cast<unsigned char>(delimiter)] = 3;
        of[static_cast<unsigned char>('\n')] = 4;
    }
};
inline constexpr ByteClasses kWhitespaceClasses('\0'), kCsvClasses(','), kTsvClasses('\t');

}  // namespace detail

inline RecordReader::Plain RecordReader::next_plain(std::string_view *fields, std::size_t n) {
    if (pos_ >= stop_) return Plain::End;
    // The scans below stop at a line break without looking at the end of the data:
    // they never pass the last line break of a block of up to 64 KB that plain_end_
    // marks. A line with no line break in its 64 KB (a long record, or the input's
    // last line without one) goes to next().
    if (pos_ >= plain_end_) {
        const std::size_t hi = std::min(size_, pos_ + (std::size_t{1} << 16));
        std::size_t i = hi;
        while (i > pos_ && data_[i - 1] != '\n') --i;
        if (i == pos_) return Plain::Other;
        plain_end_ = i;
    }
    if (pos_ >= plain_end_ || n < 2) return Plain::Other;
    const char *const b = data_;
    const unsigned char *const u = reinterpret_cast<const unsigned char *>(b);
    std::size_t p = pos_;
    std::size_t count = 0;
    if (format_ == TextFormat::Whitespace) {
        // Fields are short (ids of a few digits): a byte at a time through the table.
        const unsigned char *const cls = detail::kWhitespaceClasses.of;
        for (;;) {
            unsigned c;
            while ((c = cls[u[p]]) == 2) ++p;
            if (c == 4) {
                ++p;
                break;
            }
            if (c == 1 || count == n) return Plain::Other;  // a quoted field, or too many
            const std::size_t start = p;
            while (cls[u[++p]] < 2) {
            }
            fields[count++] = std::string_view(b + start, p - start);
        }
    } else {
        const char d = format_ == TextFormat::Tsv ? '\t' : ',';
        const unsigned char *const cls = (format_ == TextFormat::Tsv ? detail::kTsvClasses : detail::kCsvClasses).of;
        const uint64_t wd = detail::kOnes * static_cast<unsigned char>(d), wn = detail::kOnes * static_cast<unsigned char>('\n');
        for (;;) {
            unsigned c;
            while ((c = cls[u[p]]) == 2) ++p;
            if (c == 1 || count == n) return Plain::Other;  // a quoted field, or too many
            const std::size_t start = p;
            // To the delimiter or the line break, 8 bytes at a time while 8 are left.
            if (detail::kWordSearch) {
                for (; p + 8 <= size_; p += 8) {
                    uint64_t w;
                    std::memcpy(&w, b + p, 8);
                    const uint64_t m = detail::zero_bytes(w ^ wd) | detail::zero_bytes(w ^ wn);
                    if (m != 0) {
                        p += detail::first_flagged(m);
                        break;
                    }
                }
            }
            while ((c = cls[u[p]]) < 3) ++p;
            std::size_t stop = p;
            while (stop > start && cls[u[stop - 1]] == 2) --stop;
            fields[count++] = std::string_view(b + start, stop - start);
            ++p;
            if (c == 4) break;
        }
    }
    if (count != n) return Plain::Other;
    if ((++records_ & 0xFFFF) == 0) poll_interrupt();
    line_ = next_line_;
    record_start_ = pos_;
    ++next_line_;
    pos_ = p;
    return Plain::Record;
}

}  // namespace cli

// SPDX-License-Identifier: MIT
// Delimited text in: CSV and TSV (RFC 4180 quoting, CRLF, UTF-8 with or without a
// BOM) and the plain whitespace format, read whole into memory and cut into records
// of string views. Shared by every file the program reads (crowd labels, truth,
// gold), so that all of them accept the same formats and report problems alike.
#pragma once

#include <cstddef>
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

private:
    std::string_view quoted_field();  // at an opening quote; advances past the closing one
    void parse_delimited(std::vector<std::string_view> &fields, char delimiter);
    void parse_whitespace(std::vector<std::string_view> &fields);
    [[noreturn]] void incomplete() const;  // the record needs bytes beyond size_

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
};

}  // namespace cli

// SPDX-License-Identifier: MIT
// Writing results: CSV and JSON formatting, and an output that is either stdout or a
// file replaced atomically (written to FILE.tmp.<pid> beside it, then renamed).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace cli {

/// Appends a CSV field, quoting it (RFC 4180) when it holds a comma, quote, blank at
/// either end, or line break, so any item id or label survives a round trip.
void append_csv_field(std::string &out, std::string_view field);

/// The same for any delimiter (',' for CSV, '\t' for TSV): quoted when it holds the
/// delimiter, a quote, a line break or a blank at either end. Our reader reads it back.
void append_delimited_field(std::string &out, std::string_view field, char delimiter);

/// Appends a JSON string literal (with quotes and escapes). JSON text is UTF-8: each
/// ill-formed sequence of `s` (Latin-1 bytes in an id) becomes U+FFFD, so two ids that
/// differ only there are the same text in JSON (see json_lossy_note).
void append_json_string(std::string &out, std::string_view s);

/// For names about to be written as JSON strings: "" when every one is well-formed
/// UTF-8, else a note saying how many are not and how many distinct names become the
/// same JSON text, e.g. "2 worker ids are not well-formed UTF-8: JSON shows their
/// ill-formed bytes as U+FFFD, which makes 2 distinct ids the same text there (CSV and
/// TSV keep the bytes)". `what` names them ("worker ids").
std::string json_lossy_note(const std::vector<std::string> &names, const std::string &what);

/// Appends a number formatted with printf's `format` (one double conversion); writes
/// null instead of a non-finite value so that the JSON stays valid.
void append_number(std::string &out, const char *format, double value);

/// Destination of a command's result. With path "" or "-" it is stdout; otherwise the
/// data goes to PATH.tmp.<pid> in the same directory, created by the first write (so
/// that a process killed before it writes leaves nothing behind), and commit() renames
/// it over PATH, so readers never see a half-written file. If the object is destroyed before
/// commit() (an error anywhere), the temporary file is removed. A symbolic link is
/// followed (the file it points to is replaced, the link kept) and an existing file's
/// permissions are kept. A path that exists and is not a regular file (/dev/null, a
/// FIFO, a terminal) is written directly: renaming over it would replace a device
/// with a file, and a stream has no half-written state to avoid. write() and commit()
/// stop with the interrupted error when SIGINT/SIGTERM arrived (interrupt.hpp).
/// An existing file without write permission is refused (like cp without -f), and the
/// PATH.tmp.<pid> files of runs whose process is gone (killed by SIGKILL mid-write)
/// are removed when the next run opens PATH.
class OutputFile {
public:
    /// Checks the destination (its directory must be writable, an existing file too).
    /// Throws CliError(kExitOutput) if the file cannot be created or replaced.
    explicit OutputFile(const std::string &path);
    ~OutputFile();
    OutputFile(const OutputFile &) = delete;
    OutputFile &operator=(const OutputFile &) = delete;

    /// Writes bytes. Throws CliError(kExitOutput) on a write error.
    void write(std::string_view data);
    /// Flushes, closes and (for a file) renames into place. Throws CliError(kExitOutput).
    void commit();
    /// The final path ("" for stdout).
    const std::string &path() const { return path_; }

private:
    void fail(const std::string &what);  // cleans up, then throws
    void open_temp();                     // creates temp_; throws CliError(kExitOutput)

    static constexpr unsigned kNoMode = ~0u;

    std::string path_;    // the path as given, for messages ("" for stdout)
    std::string target_;  // what commit() renames onto: path_ with symbolic links resolved
    std::string temp_;    // temporary file once created ("" before, for stdout and direct writes)
    std::string temp_name_;  // the name it gets
    std::FILE *file_ = nullptr;
    bool owns_file_ = false;  // file_ is ours to close (not stdout)
    bool committed_ = false;
    unsigned mode_ = kNoMode;  // permissions of the file being replaced
    unsigned long long written_ = 0, flushed_ = 0;  // bytes written; bytes whose disk write was started
};

/// Writes to stdout and flushes, throwing CliError(kExitOutput) on failure (e.g. a full
/// disk or closed pipe), for the line-by-line output of evaluate and demo.
void write_stdout(std::string_view data);

}  // namespace cli

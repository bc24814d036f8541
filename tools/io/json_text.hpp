// SPDX-License-Identifier: MIT
// A small JSON reader (RFC 8259) for the files the programs read back: the workers
// files `fit --workers` writes (io/worker_file.hpp) and crowd, truth and gold files
// given as JSON records, JSON lines or a Label Studio export (io/json_labels.hpp).
// Every value carries the line it starts on and its byte range, for messages.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cli {

/// One parsed JSON value.
struct JsonValue {
    enum class Kind { Null, Bool, Number, String, Array, Object } kind = Kind::Null;
    std::string text;                                        ///< String: decoded; Number: as written; Bool: true/false
    std::vector<JsonValue> items;                            ///< Array
    std::vector<std::pair<std::string, JsonValue>> members;  ///< Object, in file order
    std::size_t line = 0;                                    ///< 1-based line of its first byte
    std::size_t begin = 0, end = 0;                          ///< its bytes in the parsed text

    /// The first member named `key` of an object; nullptr when absent (or not an object).
    const JsonValue *member(std::string_view key) const {
        for (const auto &[name, value] : members)
            if (name == key) return &value;
        return nullptr;
    }
};

/// Parses JSON text value by value. Problems throw CliError(kExitInput) "SOURCE:LINE:
/// what". `text` must outlive the parser.
class JsonParser {
public:
    JsonParser(std::string_view text, std::string source) : s_(text), source_(std::move(source)) {}

    /// Skips blanks (and a UTF-8 byte order mark at the very start); true when
    /// something is left.
    bool more();
    /// The next value (nested at most 64 deep).
    JsonValue value(int depth = 0);
    /// Streaming the elements of a top-level array: at a '[' (after blanks) consumes it
    /// and returns true; otherwise consumes nothing and returns false.
    bool enter_array();
    /// Inside an entered array: true when another element follows (its ',' consumed),
    /// false at the closing ']' (consumed). `first` is true before the first element.
    bool next_element(bool first);
    /// The line the parser is on.
    std::size_t line() const { return line_; }
    /// Throws CliError(kExitInput) "SOURCE:LINE: what" for `line`.
    [[noreturn]] void fail_at(std::size_t line, const std::string &what) const;

private:
    [[noreturn]] void fail(const std::string &what) const { fail_at(line_, what); }
    void skip_blanks();
    char peek();
    unsigned long hex4();
    std::string string();

    std::string_view s_;
    std::string source_;
    std::size_t pos_ = 0;
    std::size_t line_ = 1;
};

}  // namespace cli

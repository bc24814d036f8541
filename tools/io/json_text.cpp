// SPDX-License-Identifier: MIT
#include "io/json_text.hpp"

#include <cctype>

#include "common/errors.hpp"

namespace cli {

namespace {

void append_utf8(std::string &out, unsigned long cp) {
    if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
}

}  // namespace

void JsonParser::fail_at(std::size_t line, const std::string &what) const {
    throw CliError(kExitInput, source_ + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": " + what);
}

bool JsonParser::more() {
    skip_blanks();
    return pos_ < s_.size();
}

void JsonParser::skip_blanks() {
    // A UTF-8 byte order mark at the very start.
    if (pos_ == 0 && s_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;
    while (pos_ < s_.size()) {
        const char c = s_[pos_];
        if (c == '\n') ++line_;
        else if (c != ' ' && c != '\t' && c != '\r') break;
        ++pos_;
    }
}

char JsonParser::peek() {
    skip_blanks();
    if (pos_ >= s_.size()) fail("unexpected end of the JSON text");
    return s_[pos_];
}

bool JsonParser::enter_array() {
    skip_blanks();
    if (pos_ >= s_.size() || s_[pos_] != '[') return false;
    ++pos_;
    return true;
}

bool JsonParser::next_element(bool first) {
    const char c = peek();
    if (c == ']') {
        ++pos_;
        return false;
    }
    if (!first) {
        if (c != ',') fail("expected ',' or ']' in a JSON array");
        ++pos_;
    }
    return true;
}

JsonValue JsonParser::value(int depth) {
    if (depth > 64) fail("JSON nested too deeply");
    skip_blanks();
    if (pos_ >= s_.size()) fail("unexpected end of the JSON text");
    JsonValue v;
    v.line = line_;
    v.begin = pos_;
    const char c = s_[pos_];
    if (c == '{') {
        v.kind = JsonValue::Kind::Object;
        ++pos_;
        if (peek() == '}') {
            ++pos_;
        } else {
            for (;;) {
                if (peek() != '"') fail("expected a \"key\" in a JSON object");
                std::string key = string();
                if (peek() != ':') fail("expected ':' after the key \"" + escape_controls(key) + "\"");
                ++pos_;
                v.members.emplace_back(std::move(key), value(depth + 1));
                const char next = peek();
                ++pos_;
                if (next == '}') break;
                if (next != ',') fail("expected ',' or '}' in a JSON object");
            }
        }
    } else if (c == '[') {
        v.kind = JsonValue::Kind::Array;
        ++pos_;
        for (bool first = true; next_element(first); first = false) v.items.push_back(value(depth + 1));
    } else if (c == '"') {
        v.kind = JsonValue::Kind::String;
        v.text = string();
    } else if (c == '-' || (c >= '0' && c <= '9')) {
        v.kind = JsonValue::Kind::Number;
        const std::size_t start = pos_;
        while (pos_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '-' ||
                                    s_[pos_] == '+' || s_[pos_] == '.' || s_[pos_] == 'e' || s_[pos_] == 'E'))
            ++pos_;
        v.text = std::string(s_.substr(start, pos_ - start));
    } else if (s_.substr(pos_, 4) == "true" || s_.substr(pos_, 5) == "false") {
        v.kind = JsonValue::Kind::Bool;
        v.text = s_[pos_] == 't' ? "true" : "false";
        pos_ += v.text.size();
    } else if (s_.substr(pos_, 4) == "null") {
        pos_ += 4;
    } else {
        fail(std::string("unexpected ") +
             (static_cast<unsigned char>(c) < 0x20 ? "control character" : quote_field(std::string(1, c))) +
             " in the JSON text");
    }
    v.end = pos_;
    return v;
}

unsigned long JsonParser::hex4() {
    if (pos_ + 4 > s_.size()) fail("a \\u escape needs 4 hex digits");
    unsigned long cp = 0;
    for (int i = 0; i < 4; ++i) {
        const char h = s_[pos_++];
        cp <<= 4;
        if (h >= '0' && h <= '9') cp |= static_cast<unsigned long>(h - '0');
        else if (h >= 'a' && h <= 'f') cp |= static_cast<unsigned long>(h - 'a' + 10);
        else if (h >= 'A' && h <= 'F') cp |= static_cast<unsigned long>(h - 'A' + 10);
        else fail("a \\u escape needs 4 hex digits");
    }
    return cp;
}

// At an opening quote: the decoded string; advances past the closing quote.
std::string JsonParser::string() {
    ++pos_;
    std::string out;
    for (;;) {
        if (pos_ >= s_.size()) fail("a JSON string is not closed");
        const char c = s_[pos_++];
        if (c == '"') return out;
        if (c == '\n') fail("a line break inside a JSON string");
        if (c != '\\') {
            out.push_back(c);
            continue;
        }
        if (pos_ >= s_.size()) fail("a JSON string is not closed");
        const char e = s_[pos_++];
        switch (e) {
            case '"': out.push_back('"'); break;
            case '\\': out.push_back('\\'); break;
            case '/': out.push_back('/'); break;
            case 'b': out.push_back('\b'); break;
            case 'f': out.push_back('\f'); break;
            case 'n': out.push_back('\n'); break;
            case 'r': out.push_back('\r'); break;
            case 't': out.push_back('\t'); break;
            case 'u': {
                unsigned long cp = hex4();
                if (cp >= 0xD800 && cp < 0xDC00 && s_.substr(pos_, 2) == "\\u") {
                    pos_ += 2;
                    const unsigned long low = hex4();
                    if (low >= 0xDC00 && low < 0xE000) {
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                    } else {  // not a pair: both as they are
                        append_utf8(out, cp);
                        cp = low;
                    }
                }
                append_utf8(out, cp);
                break;
            }
            default: fail("unknown escape " + quote_field(std::string("\\") + e) + " in a JSON string");
        }
    }
}

}  // namespace cli

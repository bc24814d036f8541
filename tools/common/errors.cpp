// SPDX-License-Identifier: MIT
#include "common/errors.hpp"

#include <cstdio>

namespace cli {

std::string escape_controls(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        const unsigned char u = static_cast<unsigned char>(c);
        if (u >= 0x20 && u != 0x7f) {
            out.push_back(c);
            continue;
        }
        switch (c) {
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default: {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(u));
                out += buf;
            }
        }
    }
    return out;
}

std::string quote_field(std::string_view s) { return "'" + escape_controls(s) + "'"; }

}  // namespace cli

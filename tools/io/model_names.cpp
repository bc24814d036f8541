// SPDX-License-Identifier: MIT
#include "io/model_names.hpp"

#include <cstdint>
#include <cstring>

#include "common/errors.hpp"

namespace cli {

namespace {

constexpr char kTag[] = "CSNAMES1";

void put_u64(std::string &out, uint64_t v) {
    for (int b = 0; b < 8; ++b) out.push_back(static_cast<char>(v >> (8 * b)));
}

void put_list(std::string &out, const std::vector<std::string> &names) {
    put_u64(out, names.size());
    for (const std::string &n : names) {
        put_u64(out, n.size());
        out += n;
    }
}

struct Reader {
    const std::string &bytes;
    const std::string &source;
    std::size_t at = 0;

    [[noreturn]] void bad(const std::string &what) const {
        throw CliError(kExitInput, source + ": its names are damaged (" + what +
                                       "); was the model saved by `crowdspec fit --save`?");
    }
    uint64_t u64() {
        if (bytes.size() - at < 8) bad("truncated");
        uint64_t v = 0;
        for (int b = 0; b < 8; ++b) v |= static_cast<uint64_t>(static_cast<unsigned char>(bytes[at + b])) << (8 * b);
        at += 8;
        return v;
    }
    std::vector<std::string> list() {
        const uint64_t n = u64();
        if (n > (bytes.size() - at) / 8) bad("a count beyond the bytes");
        std::vector<std::string> out;
        out.reserve(static_cast<std::size_t>(n));
        for (uint64_t i = 0; i < n; ++i) {
            const uint64_t len = u64();
            if (len > bytes.size() - at) bad("a name beyond the bytes");
            out.emplace_back(bytes, at, static_cast<std::size_t>(len));
            at += static_cast<std::size_t>(len);
        }
        return out;
    }
};

}  // namespace

std::string encode_model_names(const ModelNames &names) {
    std::string out(kTag, 8);
    put_list(out, names.items);
    put_list(out, names.workers);
    put_list(out, names.classes);
    return out;
}

ModelNames decode_model_names(const std::string &bytes, const std::string &source) {
    if (bytes.size() < 8 || std::memcmp(bytes.data(), kTag, 8) != 0)
        throw CliError(kExitInput, source + " has no item, worker and class names: it was not saved by "
                                            "`crowdspec fit --save` (use the library to read it)");
    Reader r{bytes, source, 8};
    ModelNames names;
    names.items = r.list();
    names.workers = r.list();
    names.classes = r.list();
    if (r.at != bytes.size()) r.bad("bytes after the names");
    return names;
}

}  // namespace cli

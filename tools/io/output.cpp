// SPDX-License-Identifier: MIT
#include "io/output.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <memory>
#include <unordered_map>

#include "common/errors.hpp"
#include "common/interrupt.hpp"

#if defined(_WIN32)
#include <process.h>
#define CS_CLI_GETPID _getpid
#else
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#define CS_CLI_GETPID getpid
#endif

namespace cli {

void append_csv_field(std::string &out, std::string_view field) { append_delimited_field(out, field, ','); }

void append_delimited_field(std::string &out, std::string_view field, char delimiter) {
    // The reader trims these around unquoted fields (table_reader.cpp): quote them to
    // keep them.
    const auto trimmed = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; };
    bool needs_quotes = !field.empty() && (trimmed(field.front()) || trimmed(field.back()));
    for (char c : field)
        if (c == delimiter || c == '"' || c == '\n' || c == '\r') needs_quotes = true;
    if (!needs_quotes) {
        out.append(field);
        return;
    }
    out.push_back('"');
    for (char c : field) {
        if (c == '"') out.push_back('"');
        out.push_back(c);
    }
    out.push_back('"');
}

namespace {

// Length of the well-formed UTF-8 sequence at s[i] (Unicode table 3-7: no overlong
// forms, no surrogates, nothing above U+10FFFF), or 0 when it is ill-formed; then
// `bad` is the length of its maximal subpart (at least 1), the bytes one U+FFFD replaces.
std::size_t utf8_sequence(std::string_view s, std::size_t i, std::size_t &bad) {
    const auto byte = [&](std::size_t at) { return at < s.size() ? static_cast<unsigned char>(s[at]) : 0u; };
    const unsigned lead = byte(i);
    std::size_t length = 0;
    unsigned low = 0x80, high = 0xBF;  // range of the second byte
    if (lead < 0x80) return 1;
    if (lead >= 0xC2 && lead <= 0xDF) length = 2;
    else if (lead >= 0xE0 && lead <= 0xEF) length = 3;
    else if (lead >= 0xF0 && lead <= 0xF4) length = 4;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
    bad = 1;
    if (length == 0) return 0;
    for (std::size_t k = 1; k < length; ++k) {
        const unsigned b = byte(i + k);
        const bool ok = k == 1 ? b >= low && b <= high : b >= 0x80 && b <= 0xBF;
        if (!ok || i + k >= s.size()) return 0;
        bad = k + 1;
    }
    return length;
}

}  // namespace

void append_json_string(std::string &out, std::string_view s) {
    out.push_back('"');
    for (std::size_t i = 0; i < s.size();) {
        const char c = s[i];
        if (static_cast<unsigned char>(c) >= 0x80) {
            // JSON text is UTF-8 (RFC 8259): an ill-formed sequence (e.g. Latin-1 bytes
            // in an id) becomes U+FFFD, the replacement character.
            std::size_t bad = 1;
            const std::size_t length = utf8_sequence(s, i, bad);
            if (length > 0) {
                out.append(s.substr(i, length));
                i += length;
            } else {
                out += "\xEF\xBF\xBD";
                i += bad;
            }
            continue;
        }
        ++i;
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
                    out += buf;
                } else {
                    out.push_back(c);
                }
        }
    }
    out.push_back('"');
}

std::string json_lossy_note(const std::vector<std::string> &names, const std::string &what) {
    const auto well_formed = [](const std::string &name) {
        for (std::size_t i = 0; i < name.size();) {
            std::size_t bad = 1;
            const std::size_t length = utf8_sequence(name, i, bad);
            if (length == 0) return false;
            i += length;
        }
        return true;
    };
    const auto json = [](const std::string &name) {
        std::string text;
        append_json_string(text, name);
        return text;
    };
    std::vector<char> ill_formed(names.size(), 0);
    std::size_t count = 0;
    std::unordered_map<std::string, std::size_t> texts;  // JSON text of an ill-formed name -> names giving it
    for (std::size_t i = 0; i < names.size(); ++i)
        if (!well_formed(names[i])) {
            ill_formed[i] = 1;
            ++count;
            ++texts[json(names[i])];
        }
    if (count == 0) return "";
    // A well-formed name can give the same text too (one with a literal U+FFFD).
    for (std::size_t i = 0; i < names.size(); ++i)
        if (!ill_formed[i]) {
            auto it = texts.find(json(names[i]));
            if (it != texts.end()) ++it->second;
        }
    std::size_t merged = 0;
    for (const auto &entry : texts)
        if (entry.second > 1) merged += entry.second;
    return std::to_string(count) + " " + what + " are not well-formed UTF-8: JSON shows their ill-formed bytes as "
           "U+FFFD" + (merged > 0 ? ", which makes " + std::to_string(merged) + " distinct ones the same text there" : "") +
           " (CSV and TSV keep the bytes)";
}

namespace {

// "%.10g" of a double between 1e-5 and 1e10 (every posterior but the tiniest), exact
// and without printf: value = m * 2^-shift with an integer m < 2^53, so the 10
// significant digits are floor(m * 10^s / 2^shift) for the right s <= 15 (a product
// below 2^103), rounded half to even on the remainder as printf rounds. Returns false
// for any other value (the caller converts it the slow way) and otherwise the length
// written to buf (at least 24 bytes).
bool append_g10_fast(double value, char *buf, std::size_t &length) {
#if defined(__SIZEOF_INT128__)
    __extension__ typedef unsigned __int128 u128;  // GCC and Clang
    const double magnitude = std::fabs(value);
    if (!(magnitude >= 1e-5 && magnitude < 1e10)) return false;
    uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    const int biased = static_cast<int>((bits >> 52) & 0x7FF);
    const uint64_t m = (bits & ((uint64_t{1} << 52) - 1)) | (uint64_t{1} << 52);
    const int shift = 1075 - biased;  // value = m / 2^shift; 19 <= shift <= 70 here
    if (shift <= 0 || shift >= 100) return false;
    static const uint64_t kPow10[] = {1ull,
                                      10ull,
                                      100ull,
                                      1000ull,
                                      10000ull,
                                      100000ull,
                                      1000000ull,
                                      10000000ull,
                                      100000000ull,
                                      1000000000ull,
                                      10000000000ull,
                                      100000000000ull,
                                      1000000000000ull,
                                      10000000000000ull,
                                      100000000000000ull,
                                      1000000000000000ull,
                                      10000000000000000ull};
    // The decimal exponent, estimated from the binary one and corrected below.
    int exponent = static_cast<int>(std::floor((52 - shift) * 0.30102999566398120));
    u128 product = 0;
    uint64_t head = 0;
    for (int attempt = 0;; ++attempt) {
        const int s = 9 - exponent;
        if (s < 0 || s > 16 || attempt > 2) return false;
        product = static_cast<u128>(m) * kPow10[s];
        head = static_cast<uint64_t>(product >> shift);
        if (head >= 10000000000ull) ++exponent;
        else if (head < 1000000000ull) --exponent;
        else break;
    }
    const u128 rest = product & ((static_cast<u128>(1) << shift) - 1), half = static_cast<u128>(1) << (shift - 1);
    if ((rest > half || (rest == half && (head & 1) != 0)) && ++head == 10000000000ull) {
        head = 1000000000ull;
        ++exponent;
    }
    const bool negative = value < 0;
    // %g: fixed notation when -4 <= exponent < 10, else scientific; no trailing zeros.
    char d[10];
    for (int i = 9; i >= 0; --i, head /= 10) d[i] = static_cast<char>('0' + head % 10);
    int used = 10;
    while (used > 1 && d[used - 1] == '0') --used;
    char *o = buf;
    if (negative) *o++ = '-';
    if (exponent >= -4 && exponent < 10) {
        if (exponent < 0) {
            *o++ = '0';
            *o++ = '.';
            for (int i = -1; i > exponent; --i) *o++ = '0';
            for (int i = 0; i < used; ++i) *o++ = d[i];
        } else {
            for (int i = 0; i <= exponent; ++i) *o++ = d[i];  // used <= 10, exponent < 10
            if (used > exponent + 1) {
                *o++ = '.';
                for (int i = exponent + 1; i < used; ++i) *o++ = d[i];
            }
        }
    } else {
        *o++ = d[0];
        if (used > 1) {
            *o++ = '.';
            for (int i = 1; i < used; ++i) *o++ = d[i];
        }
        *o++ = 'e';
        *o++ = exponent < 0 ? '-' : '+';
        int e = exponent < 0 ? -exponent : exponent;
        if (e >= 100) {
            *o++ = static_cast<char>('0' + e / 100);
            e %= 100;
        }
        *o++ = static_cast<char>('0' + e / 10);
        *o++ = static_cast<char>('0' + e % 10);
    }
    length = static_cast<std::size_t>(o - buf);
    return true;
#else
    (void)value;
    (void)buf;
    (void)length;
    return false;
#endif
}

}  // namespace

void append_number(std::string &out, const char *format, double value) {
    if (!std::isfinite(value)) {
        out += "null";
        return;
    }
    char buf[64];
    // "%.10g" is what every result file uses: std::to_chars gives the same text
    // (shortest of fixed/scientific, 10 significant digits) without printf's locale and
    // format parsing, which dominated writing millions of posteriors.
    if (std::strcmp(format, "%.10g") == 0) {
        // Faster still, for the usual range: integer arithmetic (exactly what %.10g
        // gives; tests/test_cli_numbers.cpp compares the two on millions of values).
        std::size_t length = 0;
        if (append_g10_fast(value, buf, length)) {
            out.append(buf, length);
            return;
        }
        const std::to_chars_result r = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::general, 10);
        if (r.ec == std::errc()) {
            out.append(buf, static_cast<std::size_t>(r.ptr - buf));
            return;
        }
    }
    const int n = std::snprintf(buf, sizeof buf, format, value);
    if (n > 0) out.append(buf, static_cast<std::size_t>(n) < sizeof buf ? static_cast<std::size_t>(n) : sizeof buf - 1);
}

#if !defined(_WIN32)
namespace {

// Removes what an earlier run killed by SIGKILL (or a power cut) left of this output:
// files in `dir` named `base`.tmp.<pid> -- our own naming, nothing else -- whose
// process no longer exists (kill(pid, 0) fails with ESRCH). A live process's temporary
// file, or one whose pid is now another process's, is left alone, as is one of
// another machine sharing the directory over NFS with a pid alive here: stale files
// can stay, a live one is never removed.
void remove_stale_temporaries(const std::string &dir, const std::string &base) {
    DIR *listing = opendir(dir.c_str());
    if (listing == nullptr) return;
    const std::string prefix = base + ".tmp.";
    const long long own = static_cast<long long>(CS_CLI_GETPID());
    while (const dirent *entry = readdir(listing)) {
        const std::string_view name(entry->d_name);
        if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
        const std::string_view digits = name.substr(prefix.size());
        long long pid = 0;
        const auto parsed = std::from_chars(digits.data(), digits.data() + digits.size(), pid);
        if (parsed.ec != std::errc() || parsed.ptr != digits.data() + digits.size() || digits[0] == '0' ||
            pid <= 0 || pid == own || pid > 0x7fffffffLL)
            continue;
        if (kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
        const std::string stale = (dir == "/" ? "" : dir) + "/" + std::string(name);
        struct stat st {};
        if (lstat(stale.c_str(), &st) == 0 && S_ISREG(st.st_mode)) (void)unlink(stale.c_str());
    }
    closedir(listing);
}

}  // namespace
#endif

OutputFile::OutputFile(const std::string &path) {
    if (path.empty() || path == "-") {
        file_ = stdout;
        return;
    }
    path_ = path;
    target_ = path;
    bool keep_mode = false;
#if !defined(_WIN32)
    struct stat st {};
    if (stat(path.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) throw CliError(kExitOutput, path + ": cannot write the output: it is a directory");
        if (!S_ISREG(st.st_mode)) {  // a device, FIFO or terminal: write to it directly
            file_ = std::fopen(path.c_str(), "wb");
            if (file_ == nullptr)
                throw CliError(kExitOutput, path + ": cannot open the output: " + std::strerror(errno));
            owns_file_ = true;
            return;
        }
        keep_mode = true;
        // A file its owner made read-only is not replaced, as cp without -f does not
        // overwrite it (issue 40, R6): the rename would otherwise go through the
        // protection silently. No write bit at all counts for root too, who may write
        // anything but asked for nothing here.
        if (faccessat(AT_FDCWD, path.c_str(), W_OK, AT_EACCESS) != 0 || (st.st_mode & 0222) == 0)
            throw CliError(kExitOutput, path + ": cannot replace the output: the file is write-protected (make it "
                                               "writable or remove it first)");
        struct stat link {};
        if (lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
            // Replace the file the link points to, not the link itself.
            std::unique_ptr<char, decltype(&std::free)> resolved(realpath(path.c_str(), nullptr), &std::free);
            if (resolved) target_ = resolved.get();
        }
    }
#endif
    // The temporary file is created by the first write, not here: a command opens its
    // outputs before the (possibly long) read and fit, and a process killed meanwhile
    // (SIGKILL, out of memory) would leave it behind. Whether it can be created is
    // checked now, so that a missing or read-only directory is still reported at once.
    temp_name_ = target_ + ".tmp." + std::to_string(static_cast<long long>(CS_CLI_GETPID()));
#if !defined(_WIN32)
    if (keep_mode) mode_ = static_cast<unsigned>(st.st_mode & 07777);
    const std::size_t slash = target_.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : target_.substr(0, slash);
    if (faccessat(AT_FDCWD, dir.c_str(), W_OK | X_OK, AT_EACCESS) != 0) {
        const int e = errno;
        throw CliError(kExitOutput, path + ": cannot create the output file: " + std::strerror(e));
    }
    remove_stale_temporaries(dir, slash == std::string::npos ? target_ : target_.substr(slash + 1));
#else
    (void)keep_mode;
#endif
}

void OutputFile::open_temp() {
    file_ = std::fopen(temp_name_.c_str(), "wb");
    if (file_ == nullptr) {
        const int e = errno;
        throw CliError(kExitOutput, path_ + ": cannot create the output file: " + std::strerror(e));
    }
    temp_ = temp_name_;
    owns_file_ = true;
#if !defined(_WIN32)
    // The replacement keeps the permissions of the file it replaces (best effort).
    if (mode_ != kNoMode) (void)fchmod(fileno(file_), static_cast<mode_t>(mode_));
#endif
}

OutputFile::~OutputFile() {
    if (committed_) return;
    if (owns_file_ && file_ != nullptr) std::fclose(file_);
    if (!temp_.empty()) std::remove(temp_.c_str());
}

void OutputFile::fail(const std::string &what) {
    const int e = errno;
    const std::string shown = path_.empty() ? "<stdout>" : path_;
    if (owns_file_ && file_ != nullptr) std::fclose(file_);
    file_ = nullptr;
    owns_file_ = false;
    if (!temp_.empty()) {
        std::remove(temp_.c_str());
        temp_.clear();
    }
    throw CliError(kExitOutput, shown + ": " + what + (e != 0 ? std::string(": ") + std::strerror(e) : ""));
}

void OutputFile::write(std::string_view data) {
    throw_if_interrupted();  // the destructor then removes the temporary file
    if (data.empty()) return;
    if (file_ == nullptr) open_temp();
    errno = 0;
    if (std::fwrite(data.data(), 1, data.size(), file_) != data.size()) fail("write error");
    written_ += data.size();
#if defined(__linux__)
    // Start the disk writes of each 32 MB as it is written (asynchronously), so that
    // commit()'s fsync waits for the last part only, not for the whole file.
    constexpr unsigned long long kWriteBehind = 32ull << 20;
    if (!temp_.empty() && written_ - flushed_ >= kWriteBehind) {
        if (std::fflush(file_) != 0) fail("write error");
        (void)sync_file_range(fileno(file_), static_cast<off64_t>(flushed_), static_cast<off64_t>(written_ - flushed_),
                              SYNC_FILE_RANGE_WRITE);
        flushed_ = written_;
    }
#endif
}

void OutputFile::commit() {
    throw_if_interrupted();  // last chance to leave the old file untouched
    if (file_ == nullptr) open_temp();  // nothing was written: an empty file
    errno = 0;
    if (std::fflush(file_) != 0 || std::ferror(file_)) fail("write error");
    if (!owns_file_) {  // stdout: stays open for the C runtime to close
        committed_ = true;
        return;
    }
#if !defined(_WIN32)
    // Make the data durable before the rename publishes it.
    if (!temp_.empty() && fsync(fileno(file_)) != 0 && errno != EINVAL && errno != EROFS)
        fail("cannot sync the output file");
#endif
    const int closed = std::fclose(file_);
    file_ = nullptr;
    owns_file_ = false;
    if (closed != 0) fail("write error");
    errno = 0;
    if (!temp_.empty() && std::rename(temp_.c_str(), target_.c_str()) != 0)
        fail("cannot rename '" + temp_ + "' into place");
    committed_ = true;
}

void write_stdout(std::string_view data) {
    errno = 0;
    if ((!data.empty() && std::fwrite(data.data(), 1, data.size(), stdout) != data.size()) ||
        std::fflush(stdout) != 0) {
        const int e = errno;
        throw CliError(kExitOutput, std::string("<stdout>: write error") +
                                        (e != 0 ? std::string(": ") + std::strerror(e) : ""));
    }
}

}  // namespace cli

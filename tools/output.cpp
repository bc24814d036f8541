#include "output.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>

#include "cli.hpp"
#include "interrupt.hpp"

#if defined(_WIN32)
#include <process.h>
#define CS_CLI_GETPID _getpid
#else
#include <unistd.h>
#define CS_CLI_GETPID getpid
#endif

namespace cli {

void append_csv_field(std::string &out, std::string_view field) { append_delimited_field(out, field, ','); }

void append_delimited_field(std::string &out, std::string_view field, char delimiter) {
    bool needs_quotes = !field.empty() && (field.front() == ' ' || field.back() == ' ' ||
                                           field.front() == '\t' || field.back() == '\t');
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

void append_json_string(std::string &out, std::string_view s) {
    out.push_back('"');
    for (char c : s) {
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

void append_number(std::string &out, const char *format, double value) {
    if (!std::isfinite(value)) {
        out += "null";
        return;
    }
    char buf[64];
    const int n = std::snprintf(buf, sizeof buf, format, value);
    if (n > 0) out.append(buf, static_cast<std::size_t>(n) < sizeof buf ? static_cast<std::size_t>(n) : sizeof buf - 1);
}

OutputFile::OutputFile(const std::string &path) {
    if (path.empty() || path == "-") {
        file_ = stdout;
        return;
    }
    path_ = path;
    temp_ = path + ".tmp." + std::to_string(static_cast<long long>(CS_CLI_GETPID()));
    file_ = std::fopen(temp_.c_str(), "wb");
    if (file_ == nullptr) {
        const int e = errno;
        temp_.clear();  // nothing was created, nothing to remove
        throw CliError(kExitOutput, path + ": cannot create the output file: " + std::strerror(e));
    }
}

OutputFile::~OutputFile() {
    if (committed_ || temp_.empty()) return;
    if (file_ != nullptr) std::fclose(file_);
    std::remove(temp_.c_str());
}

void OutputFile::fail(const std::string &what) {
    const int e = errno;
    const std::string shown = path_.empty() ? "<stdout>" : path_;
    if (!temp_.empty()) {
        if (file_ != nullptr) std::fclose(file_);
        file_ = nullptr;
        std::remove(temp_.c_str());
        temp_.clear();
    }
    throw CliError(kExitOutput, shown + ": " + what + (e != 0 ? std::string(": ") + std::strerror(e) : ""));
}

void OutputFile::write(std::string_view data) {
    throw_if_interrupted();  // the destructor then removes the temporary file
    if (data.empty()) return;
    errno = 0;
    if (std::fwrite(data.data(), 1, data.size(), file_) != data.size()) fail("write error");
}

void OutputFile::commit() {
    throw_if_interrupted();  // last chance to leave the old file untouched
    errno = 0;
    if (std::fflush(file_) != 0 || std::ferror(file_)) fail("write error");
    if (temp_.empty()) {  // stdout: stays open for the C runtime to close
        committed_ = true;
        return;
    }
#if !defined(_WIN32)
    // Make the data durable before the rename publishes it.
    if (fsync(fileno(file_)) != 0 && errno != EINVAL && errno != EROFS) fail("cannot sync the output file");
#endif
    const int closed = std::fclose(file_);
    file_ = nullptr;
    if (closed != 0) fail("write error");
    errno = 0;
    if (std::rename(temp_.c_str(), path_.c_str()) != 0) fail("cannot rename '" + temp_ + "' into place");
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

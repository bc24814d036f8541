// SPDX-License-Identifier: MIT
#include "io/parallel_reader.hpp"

#include <cerrno>
#include <cstdlib>
#include <new>

#include "common/interrupt.hpp"

#if !defined(_WIN32)
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace cli {

namespace {

// A positive integer from the environment, or `fallback`.
std::size_t env_size(const char *name, std::size_t fallback) {
    const char *v = std::getenv(name);
    if (v == nullptr || *v == '\0') return fallback;
    char *end = nullptr;
    const unsigned long long n = std::strtoull(v, &end, 10);
    if (end == v || *end != '\0' || n == 0) return fallback;
    return static_cast<std::size_t>(n);
}

}  // namespace

ParseSettings parse_settings(std::size_t threads_option) {
    ParseSettings s;
    std::size_t t = threads_option;
    if (t == 0) t = std::max(1u, std::thread::hardware_concurrency());
    s.threads = std::min<std::size_t>(env_size("CROWDSPEC_PARSE_THREADS", t), 64);
    s.chunk_bytes = env_size("CROWDSPEC_PARSE_CHUNK", s.chunk_bytes);
    return s;
}

InputBytes::InputBytes(const std::string &path, std::size_t window_bytes)
    : shown_(display_name(path)), window_bytes_(std::max<std::size_t>(window_bytes, 1024)) {
#if !defined(_WIN32)
    if (path == "-") {
        fd_ = 0;
    } else {
        fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd_ < 0) throw CliError(kExitInput, shown_ + ": cannot open: " + std::strerror(errno));
        owns_fd_ = true;
    }
    struct stat st {};
    if (fstat(fd_, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            if (owns_fd_) ::close(fd_);
            throw CliError(kExitInput, shown_ + ": cannot read: it is a directory");
        }
        // A regular file of known size is mapped; anything else (or a file that
        // cannot be mapped) is read as a stream.
        if (S_ISREG(st.st_mode) && st.st_size > 0) {
            void *m = mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd_, 0);
            if (m != MAP_FAILED) {
                map_ = m;
                map_size_ = static_cast<std::size_t>(st.st_size);
                (void)madvise(m, map_size_, MADV_WILLNEED);
                data_ = static_cast<const char *>(m);
                size_ = map_size_;
                eof_ = true;
                return;
            }
        }
    }
    fill();
#else
    (void)path;
    throw CliError(kExitInput, shown_ + ": reading files is not supported on this platform");
#endif
}

InputBytes::InputBytes(std::string text) : window_(std::move(text)), window_bytes_(window_.size()) {
    data_ = window_.data();
    size_ = window_.size();
    eof_ = true;
}

InputBytes::~InputBytes() {
#if !defined(_WIN32)
    if (map_ != nullptr) munmap(map_, map_size_);
    if (owns_fd_ && fd_ >= 0) ::close(fd_);
#endif
}

void InputBytes::fill() {
#if !defined(_WIN32)
    try {
        while (!eof_ && window_.size() < window_bytes_) {
            const std::size_t have = window_.size();
            const std::size_t want = std::min<std::size_t>(window_bytes_ - have, std::size_t{1} << 20);
            window_.resize(have + want);
            const ssize_t got = ::read(fd_, &window_[have], want);
            const int e = errno;
            window_.resize(have + (got > 0 ? static_cast<std::size_t>(got) : 0));
            throw_if_interrupted();  // a blocked read returns early (EINTR) on Ctrl-C
            if (got == 0) eof_ = true;
            if (got < 0) {
                if (e == EINTR || e == EAGAIN) continue;
                if (e == EISDIR) throw CliError(kExitInput, shown_ + ": cannot read: it is a directory");
                throw CliError(kExitInput, shown_ + ": read error: " + std::strerror(e));
            }
        }
    } catch (const std::bad_alloc &) {
        throw CliError(kExitInput, shown_ + ": a record does not fit in memory");
    }
    data_ = window_.data();
    size_ = window_.size();
#endif
}

void InputBytes::advance(std::size_t consumed) {
    if (map_ != nullptr) return;
    if (consumed == 0) {
        if (eof_) return;
        window_bytes_ = std::max(window_bytes_ * 2, window_.size() * 2);  // a record longer than the window
    } else {
        window_.erase(0, consumed);
    }
    fill();
}

void InputBytes::release_before(std::size_t offset) {
#if !defined(_WIN32)
    if (map_ == nullptr) return;
    static const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    constexpr std::size_t kStep = std::size_t{16} << 20;  // one call per 16 MB
    const std::size_t upto = std::min(offset, map_size_) / page * page;
    if (upto < released_ + kStep) return;
    (void)madvise(static_cast<char *>(map_) + released_, upto - released_, MADV_DONTNEED);
    released_ = upto;
#else
    (void)offset;
#endif
}

void FlatIndex::grow() {
    if (slots_.size() >= (std::size_t{1} << 32)) throw std::bad_alloc();  // the tags choose among 2^32 slots
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(old.empty() ? 64 : 2 * old.size(), Slot{0, -1});
    const std::size_t mask = slots_.size() - 1;
    used_.clear();
    for (const Slot &o : old) {
        if (o.id < 0) continue;
        std::size_t i = o.tag & mask;  // no string is read again
        while (slots_[i].id >= 0) i = (i + 1) & mask;
        slots_[i] = o;
        used_.push_back(static_cast<uint32_t>(i));
    }
}

void FlatIndex::clear() {
    if (slots_.size() > (std::size_t{1} << 22)) {
        std::vector<Slot>().swap(slots_);
        std::vector<uint32_t>().swap(used_);
    } else {
        // Only the slots in use: a chunk's index is cleared for every chunk, and most
        // hold far fewer ids than the largest one did.
        for (uint32_t i : used_) slots_[i] = Slot{0, -1};
        used_.clear();
    }
    count_ = 0;
}

}  // namespace cli

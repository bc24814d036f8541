// SPDX-License-Identifier: MIT
#include "io/binary_labels.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <new>
#include <optional>
#include <string_view>
#include <unordered_set>

#include "common/errors.hpp"
#include "common/interrupt.hpp"
#include "io/parallel_reader.hpp"
#include "io/table_reader.hpp"

namespace cli {

const unsigned char kBinaryMagic[8] = {0x89, 'C', 'S', 'L', 'A', 'B', '\r', '\n'};

namespace {

// Header layout (docs/binary-format.md): all integers little-endian.
constexpr std::size_t kHeaderSize = 192;
constexpr std::size_t kOffVersion = 8, kOffByteOrder = 12, kOffHeaderSize = 16, kOffFlags = 20;
constexpr std::size_t kOffLabels = 24, kOffItems = 32, kOffWorkers = 40, kOffK = 48, kOffFileSize = 56;
constexpr std::size_t kOffSections = 64;  // 5 x (offset, size, checksum)
constexpr std::size_t kOffHeaderCheck = 184;
constexpr uint32_t kByteOrderMark = 0x01020304;
constexpr uint64_t kAlign = 64;
constexpr int kClasses = 0, kItems = 1, kWorkers = 2, kItemStart = 3, kCodes = 4;
const char *const kSectionName[5] = {"class dictionary", "item dictionary", "worker dictionary", "item offsets",
                                     "codes"};
constexpr uint64_t kDictNames = 0, kDictRange = 1;

bool little_endian_host() {
    const uint32_t one = 1;
    unsigned char b;
    std::memcpy(&b, &one, 1);
    return b == 1;
}

uint64_t get64(const unsigned char *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}
uint32_t get32(const unsigned char *p) {
    return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 | static_cast<uint32_t>(p[2]) << 16 |
           static_cast<uint32_t>(p[3]) << 24;
}
void put64(unsigned char *p, uint64_t v) {
    for (int i = 0; i < 8; ++i) p[i] = static_cast<unsigned char>(v >> (8 * i));
}
void put32(unsigned char *p, uint32_t v) {
    for (int i = 0; i < 4; ++i) p[i] = static_cast<unsigned char>(v >> (8 * i));
}
void append64(std::string &s, uint64_t v) {
    unsigned char b[8];
    put64(b, v);
    s.append(reinterpret_cast<const char *>(b), 8);
}

constexpr uint64_t kMul = 0x9E3779B97F4A7C15ULL;
inline uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
inline uint64_t mix(uint64_t h, uint64_t w) { return (rotl(h, 29) ^ w) * kMul; }

uint64_t checksum_of(const unsigned char *p, std::size_t n) {
    Checksum c;
    c.update(p, n);
    return c.value();
}

// The canonical decimal form of v ("0", "-3", "17"; no '+', no leading zeros).
std::string decimal(int64_t v) {
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

// A name that an explicit dictionary holds twice (n names, their n + 1 offsets at
// `offsets`, their bytes at `bytes`), if there is one. The names' 64-bit hashes are
// placed in buckets by their top bits (a counting pass and a placing pass; 8 bytes a
// name, freed on return), each bucket's hashes go into a set small enough for the
// cache, and only names whose hash repeats are compared: about 50 ns a name, where
// std::sort of all the hashes, or the readers' FlatIndex (a random slot of a table
// of 16 bytes a name, and the names kept as views), took about twice as long.
std::optional<std::string> repeated_name(const unsigned char *offsets, uint64_t n, const char *bytes) {
    const auto name = [&](uint64_t i) {
        const uint64_t a = get64(offsets + 8 * i), e = get64(offsets + 8 * (i + 1));
        return std::string_view(bytes + a, static_cast<std::size_t>(e - a));
    };
    const auto hash = hash_bytes;  // the readers' hash of ids (parallel_reader.hpp)
    int bits = 0;  // at most 256 buckets: the lines being filled stay in L1
    while (bits < 8 && (uint64_t{1024} << bits) < n) ++bits;
    const auto bucket = [bits](uint64_t h) { return bits == 0 ? uint64_t{0} : h >> (64 - bits); };
    std::vector<uint64_t> start((std::size_t{1} << bits) + 1, 0);
    for (uint64_t i = 0; i < n; ++i) ++start[bucket(hash(name(i))) + 1];
    for (std::size_t b = 1; b < start.size(); ++b) start[b] += start[b - 1];
    std::vector<uint64_t> hashes(static_cast<std::size_t>(n));
    {
        std::vector<uint64_t> next(start.begin(), start.end() - 1);
        for (uint64_t i = 0; i < n; ++i) {
            const uint64_t h = hash(name(i));
            hashes[next[bucket(h)]++] = h;
        }
    }
    // Each bucket into a small open-addressing set of its hashes, by their low bits (0
    // marks an empty slot: a hash of 0 counts as 1, which at worst makes two names
    // candidates that then compare unequal).
    std::vector<uint64_t> repeated;  // hashes held by more than one name
    std::vector<uint64_t> set;
    for (std::size_t b = 0; b + 1 < start.size(); ++b) {
        std::size_t size = 16;
        while (size < 2 * (start[b + 1] - start[b])) size *= 2;
        set.assign(size, 0);
        for (uint64_t t = start[b]; t < start[b + 1]; ++t) {
            const uint64_t h = std::max<uint64_t>(hashes[t], 1);
            std::size_t slot = static_cast<std::size_t>(h) & (size - 1);
            while (set[slot] != 0 && set[slot] != h) slot = (slot + 1) & (size - 1);
            if (set[slot] == h) repeated.push_back(h);
            set[slot] = h;
        }
    }
    if (repeated.empty()) return std::nullopt;
    std::sort(repeated.begin(), repeated.end());
    std::vector<std::string_view> candidates;
    for (uint64_t i = 0; i < n; ++i)
        if (std::binary_search(repeated.begin(), repeated.end(), std::max<uint64_t>(hash(name(i)), 1)))
            candidates.push_back(name(i));
    std::sort(candidates.begin(), candidates.end());
    for (std::size_t i = 1; i < candidates.size(); ++i)
        if (candidates[i] == candidates[i - 1]) return std::string(candidates[i]);
    return std::nullopt;
}

}  // namespace

// ---------------------------------------------------------------------------------
// Checksum

void Checksum::word(uint64_t w) {
    uint64_t &h = lane_[words_ & 3];
    h = mix(h, w);
    ++words_;
}

void Checksum::update(const void *data, std::size_t n) {
    const unsigned char *p = static_cast<const unsigned char *>(data);
    bytes_ += n;
    while (n > 0 && n_pending_ > 0) {
        pending_[n_pending_++] = *p++;
        --n;
        if (n_pending_ == 8) {
            word(get64(pending_));
            n_pending_ = 0;
        }
    }
    // Whole words, four lanes at a time (the lanes are independent: no stall on the
    // multiplication's latency).
    if (little_endian_host() && (words_ & 3) == 0) {
        uint64_t a = lane_[0], b = lane_[1], c = lane_[2], d = lane_[3];
        while (n >= 32) {
            uint64_t w[4];
            std::memcpy(w, p, 32);
            a = mix(a, w[0]);
            b = mix(b, w[1]);
            c = mix(c, w[2]);
            d = mix(d, w[3]);
            p += 32;
            n -= 32;
            words_ += 4;
        }
        lane_[0] = a, lane_[1] = b, lane_[2] = c, lane_[3] = d;
    }
    while (n >= 8) {
        word(get64(p));
        p += 8;
        n -= 8;
    }
    while (n > 0) {
        pending_[n_pending_++] = *p++;
        --n;
    }
}

uint64_t Checksum::value() const {
    uint64_t lanes[4] = {lane_[0], lane_[1], lane_[2], lane_[3]};
    if (n_pending_ > 0) {
        unsigned char last[8] = {};
        std::memcpy(last, pending_, n_pending_);
        uint64_t &h = lanes[words_ & 3];
        h = mix(h, get64(last));
    }
    uint64_t r = bytes_;
    for (uint64_t h : lanes) r = mix(r, h);
    return r ^ (r >> 32);
}

// ---------------------------------------------------------------------------------
// Writing

bool is_binary_label_file(const std::string &path) {
    if (path == "-") return false;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    struct stat st {};
    unsigned char head[8] = {};
    bool yes = false;
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && ::read(fd, head, 8) == 8)
        yes = std::memcmp(head, kBinaryMagic, 8) == 0;
    ::close(fd);
    return yes;
}

Dictionary dictionary_of(const std::vector<std::string> &names) {
    Dictionary d;
    d.names = &names;
    if (names.empty()) return d;
    int64_t first = 0;
    const std::string &s = names[0];
    const auto r = std::from_chars(s.data(), s.data() + s.size(), first);
    if (r.ec != std::errc() || r.ptr != s.data() + s.size() || decimal(first) != s) return d;
    if (first > INT64_MAX - static_cast<int64_t>(names.size())) return d;
    for (std::size_t i = 1; i < names.size(); ++i)
        if (names[i] != decimal(first + static_cast<int64_t>(i))) return d;
    d.range = true;
    d.first = first;
    d.count = names.size();
    return d;
}

BinaryLabelWriter::BinaryLabelWriter(const std::string &path, const Dictionary &classes, const Dictionary &items,
                                     const Dictionary &workers)
    : path_(path) {
    if (path.empty() || path == "-")
        throw CliError(kExitUsage, "a binary label file is written to a named file, not to standard output");
    if (!little_endian_host())
        throw CliError(kExitOutput, path + ": binary label files are written on little-endian machines only");
    n_items_ = items.size();
    n_workers_ = workers.size();
    k_ = classes.size();
    if (k_ < 1) throw CliError(kExitOutput, path + ": no classes to write");
    if (n_items_ > static_cast<uint64_t>(INT32_MAX) || n_workers_ > static_cast<uint64_t>(INT32_MAX))
        throw CliError(kExitOutput, path + ": more than 2^31 - 1 items or workers");
    code_limit_ = n_workers_ * k_;
    if (code_limit_ > UINT32_MAX)
        throw CliError(kExitOutput, path + ": n_workers x k = " + std::to_string(code_limit_) +
                                        " exceeds 2^32 - 1, the limit of the 4-byte codes");
    temp_ = path + ".tmp." + std::to_string(static_cast<long long>(::getpid()));
    fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd_ < 0) {
        const int e = errno;
        temp_.clear();
        throw CliError(kExitOutput, path + ": cannot create the file: " + std::strerror(e));
    }
    buffer_.reserve(1 << 22);
    buffer_.assign(kHeaderSize, '\0');  // the header, filled in at commit()
    position_ = kHeaderSize;
    write_dictionary(kClasses, classes);
    write_dictionary(kItems, items);
    write_dictionary(kWorkers, workers);
    pad_to(kAlign);
    sections_[kCodes].offset = position_;
    item_start_.reserve(static_cast<std::size_t>(n_items_) + 1);
    item_start_.push_back(0);
}

BinaryLabelWriter::~BinaryLabelWriter() {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_ && !temp_.empty()) ::unlink(temp_.c_str());
}

void BinaryLabelWriter::fail(const std::string &what) {
    const int e = errno;
    throw CliError(kExitOutput, path_ + ": " + what + (e ? std::string(": ") + std::strerror(e) : std::string()));
}

void BinaryLabelWriter::flush() {
    std::size_t done = 0;
    while (done < buffer_.size()) {
        const ssize_t n = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) fail("write error");
        done += static_cast<std::size_t>(n);
    }
    buffer_.clear();
}

void BinaryLabelWriter::write(const void *data, std::size_t n) {
    buffer_.append(static_cast<const char *>(data), n);
    position_ += n;
    if (buffer_.size() >= (1u << 22)) flush();
}

void BinaryLabelWriter::pad_to(uint64_t alignment) {
    static const char zeros[64] = {};
    const uint64_t pad = (alignment - position_ % alignment) % alignment;
    write(zeros, static_cast<std::size_t>(pad));
}

void BinaryLabelWriter::write_dictionary(int section, const Dictionary &d) {
    pad_to(kAlign);
    std::string s;
    append64(s, d.size());
    if (d.range) {
        append64(s, kDictRange);
        append64(s, static_cast<uint64_t>(d.first));
    } else {
        append64(s, kDictNames);
        uint64_t offset = 0;
        append64(s, 0);
        for (const std::string &name : *d.names) {
            offset += name.size();
            append64(s, offset);
        }
        for (const std::string &name : *d.names) s += name;
    }
    sections_[section].offset = position_;
    sections_[section].size = s.size();
    sections_[section].check = checksum_of(reinterpret_cast<const unsigned char *>(s.data()), s.size());
    write(s.data(), s.size());
}

void BinaryLabelWriter::add_item(const uint32_t *codes, std::size_t n) {
    if (item_start_.size() > n_items_)
        throw CliError(kExitOutput, path_ + ": more items than the item dictionary holds (" +
                                        std::to_string(n_items_) + ")");
    for (std::size_t t = 0; t < n; ++t)
        if (codes[t] >= code_limit_)
            throw CliError(kExitOutput, path_ + ": code " + std::to_string(codes[t]) + " of item " +
                                            std::to_string(item_start_.size() - 1) + " is >= n_workers x k (" +
                                            std::to_string(code_limit_) + ")");
    // Each item's labels in worker order, as the library keeps them (a stable sort: a
    // worker's repeated labels keep their input order, which --duplicates first/last
    // refer to), so that fitting the file uses its codes in place, without a copy.
    const uint32_t k32 = static_cast<uint32_t>(k_);
    bool in_order = true;
    for (std::size_t t = 1; t < n && in_order; ++t) in_order = codes[t] / k32 > codes[t - 1] / k32;
    if (!in_order) {
        sorted_.assign(codes, codes + n);
        std::stable_sort(sorted_.begin(), sorted_.end(), [k32](uint32_t a, uint32_t b) { return a / k32 < b / k32; });
        codes = sorted_.data();
    }
    // Little-endian host (checked): the codes' bytes are already in file order.
    codes_check_.update(codes, n * 4);
    write(codes, n * 4);
    n_labels_ += n;
    item_start_.push_back(static_cast<int64_t>(n_labels_));
}

uint64_t BinaryLabelWriter::commit() {
    if (item_start_.size() != n_items_ + 1)
        throw CliError(kExitOutput, path_ + ": " + std::to_string(item_start_.size() - 1) +
                                        " items written, the item dictionary has " + std::to_string(n_items_));
    sections_[kCodes].size = n_labels_ * 4;
    sections_[kCodes].check = codes_check_.value();
    pad_to(kAlign);
    sections_[kItemStart].offset = position_;
    sections_[kItemStart].size = item_start_.size() * 8;
    {
        Checksum c;
        c.update(item_start_.data(), item_start_.size() * 8);
        sections_[kItemStart].check = c.value();
    }
    write(item_start_.data(), item_start_.size() * 8);
    flush();
    const uint64_t file_size = position_;

    unsigned char h[kHeaderSize] = {};
    std::memcpy(h, kBinaryMagic, 8);
    put32(h + kOffVersion, kBinaryVersion);
    put32(h + kOffByteOrder, kByteOrderMark);
    put32(h + kOffHeaderSize, static_cast<uint32_t>(kHeaderSize));
    put32(h + kOffFlags, 0);
    put64(h + kOffLabels, n_labels_);
    put64(h + kOffItems, n_items_);
    put64(h + kOffWorkers, n_workers_);
    put64(h + kOffK, k_);
    put64(h + kOffFileSize, file_size);
    for (int s = 0; s < 5; ++s) {
        put64(h + kOffSections + 24 * s, sections_[s].offset);
        put64(h + kOffSections + 24 * s + 8, sections_[s].size);
        put64(h + kOffSections + 24 * s + 16, sections_[s].check);
    }
    put64(h + kOffHeaderCheck, checksum_of(h, kOffHeaderCheck));
    if (::pwrite(fd_, h, kHeaderSize, 0) != static_cast<ssize_t>(kHeaderSize)) fail("write error (header)");
    if (::close(fd_) != 0) {
        fd_ = -1;
        fail("write error (close)");
    }
    fd_ = -1;
    if (::rename(temp_.c_str(), path_.c_str()) != 0) fail("cannot rename " + temp_ + " to it");
    committed_ = true;
    return file_size;
}

// ---------------------------------------------------------------------------------
// Reading

std::shared_ptr<BinaryLabels> BinaryLabels::open(const std::string &path) {
    std::shared_ptr<BinaryLabels> b(new BinaryLabels());
    b->source_ = display_name(path);
    const std::string &src = b->source_;
    const auto bad = [&](const std::string &what) -> CliError { return CliError(kExitInput, src + ": " + what); };
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw bad(std::string("cannot open: ") + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        throw bad("not a regular file (a binary label file is memory-mapped)");
    }
    b->size_ = static_cast<uint64_t>(st.st_size);
    if (b->size_ < kHeaderSize) {
        ::close(fd);
        throw bad("truncated binary label file: " + std::to_string(b->size_) + " bytes, less than its " +
                  std::to_string(kHeaderSize) + "-byte header");
    }
    void *map = ::mmap(nullptr, static_cast<std::size_t>(b->size_), PROT_READ, MAP_PRIVATE, fd, 0);
    const int map_errno = errno;
    ::close(fd);
    if (map == MAP_FAILED) throw bad(std::string("cannot map the file: ") + std::strerror(map_errno));
    b->base_ = static_cast<const unsigned char *>(map);
    const unsigned char *h = b->base_;

    if (std::memcmp(h, kBinaryMagic, 8) != 0) throw bad("not a crowdspec binary label file (wrong magic bytes)");
    const uint32_t version = get32(h + kOffVersion);
    if (get32(h + kOffByteOrder) != kByteOrderMark)
        throw bad("unknown byte order mark (a binary label file is little-endian; this one is corrupt or was "
                  "written by another program)");
    if (!little_endian_host()) throw bad("binary label files are read on little-endian machines only");
    if (version != kBinaryVersion)
        throw bad("binary label format version " + std::to_string(version) + "; this crowdspec reads version " +
                  std::to_string(kBinaryVersion) + (version > kBinaryVersion ? " (convert it again with this version)" : ""));
    if (get32(h + kOffHeaderSize) != kHeaderSize || get64(h + kOffHeaderCheck) != checksum_of(h, kOffHeaderCheck))
        throw bad("the header's checksum does not match: the file is corrupt");
    if (get32(h + kOffFlags) != 0) throw bad("unknown flags " + std::to_string(get32(h + kOffFlags)) + " in the header");
    const uint64_t declared_size = get64(h + kOffFileSize);
    if (declared_size > b->size_)
        throw bad("truncated binary label file: " + std::to_string(b->size_) + " of its " +
                  std::to_string(declared_size) + " bytes");
    if (declared_size < b->size_)
        throw bad(std::to_string(b->size_ - declared_size) + " bytes after the end of the binary label file (" +
                  std::to_string(declared_size) + " bytes)");
    b->n_labels_ = get64(h + kOffLabels);
    b->n_items_ = get64(h + kOffItems);
    b->n_workers_ = get64(h + kOffWorkers);
    b->k_ = get64(h + kOffK);
    if (b->n_items_ > static_cast<uint64_t>(INT32_MAX) || b->n_workers_ > static_cast<uint64_t>(INT32_MAX) ||
        b->k_ < 1 || b->k_ > static_cast<uint64_t>(INT32_MAX) || b->n_workers_ * b->k_ > UINT32_MAX ||
        b->n_labels_ > (uint64_t{1} << 60))
        throw bad("impossible counts in the header (" + std::to_string(b->n_items_) + " items, " +
                  std::to_string(b->n_workers_) + " workers, k = " + std::to_string(b->k_) + ", " +
                  std::to_string(b->n_labels_) + " labels)");
    for (int s = 0; s < 5; ++s) {
        const uint64_t offset = get64(h + kOffSections + 24 * s), length = get64(h + kOffSections + 24 * s + 8);
        if (offset % 8 != 0 || offset < kHeaderSize || offset > b->size_ || length > b->size_ - offset)
            throw bad(std::string("the ") + kSectionName[s] + " lies outside the file (offset " +
                      std::to_string(offset) + ", " + std::to_string(length) + " bytes): the file is corrupt");
        b->offset_[s] = offset;
        b->length_[s] = length;
    }
    if (b->length_[kItemStart] != (b->n_items_ + 1) * 8 || b->length_[kCodes] != b->n_labels_ * 4)
        throw bad("section lengths do not match the header's counts: the file is corrupt");
    // Checksums: every section; the codes' pass also finds the largest code.
    for (int s = 0; s < 5; ++s) {
        const unsigned char *p = b->base_ + b->offset_[s];
        if (checksum_of(p, static_cast<std::size_t>(b->length_[s])) != get64(h + kOffSections + 24 * s + 16))
            throw bad(std::string("the checksum of the ") + kSectionName[s] + " does not match: the file is corrupt");
    }
    // Contents: offsets and dictionaries well formed, codes within n_workers x k.
    const int64_t *start = b->item_start();
    if (start[0] != 0 || static_cast<uint64_t>(start[b->n_items_]) != b->n_labels_)
        throw bad("the item offsets do not run from 0 to the number of labels: the file is corrupt");
    for (uint64_t j = 0; j < b->n_items_; ++j)
        if (start[j + 1] < start[j])
            throw bad("the item offsets decrease at item " + std::to_string(j) + ": the file is corrupt");
    const uint64_t counts[3] = {b->k_, b->n_items_, b->n_workers_};
    for (int s = 0; s < 3; ++s) {
        const unsigned char *p = b->base_ + b->offset_[s];
        const uint64_t length = b->length_[s];
        if (length < 24 || get64(p) != counts[s])
            throw bad(std::string("the ") + kSectionName[s] + " does not have the header's count: the file is corrupt");
        const uint64_t kind = get64(p + 8);
        if (kind == kDictRange) {
            const int64_t first = static_cast<int64_t>(get64(p + 16));
            if (length != 24 || first > INT64_MAX - static_cast<int64_t>(counts[s]))
                throw bad(std::string("malformed ") + kSectionName[s]);
        } else if (kind == kDictNames) {
            const uint64_t n = counts[s];
            if ((length - 16) / 8 < n + 1) throw bad(std::string("malformed ") + kSectionName[s]);
            const uint64_t bytes = length - 16 - 8 * (n + 1);
            uint64_t prev = 0;
            for (uint64_t i = 0; i <= n; ++i) {
                const uint64_t o = get64(p + 16 + 8 * i);
                if (o < prev || o > bytes || (i == 0 && o != 0) || (i == n && o != bytes))
                    throw bad(std::string("malformed ") + kSectionName[s] + " (name offsets)");
                prev = o;
            }
            // Names are distinct (docs/binary-format.md): a class named twice would give
            // two columns of one name, an item or worker two rows of one id.
            if (const auto twice = repeated_name(p + 16, n, reinterpret_cast<const char *>(p + 16 + 8 * (n + 1))))
                throw bad(std::string("malformed ") + kSectionName[s] + " (the name '" + escape_controls(*twice) +
                          "' is there twice)");
        } else {
            throw bad(std::string("unknown kind ") + std::to_string(kind) + " of the " + kSectionName[s]);
        }
    }
    const uint32_t *codes = b->codes();
    uint32_t highest = 0;
    for (uint64_t t = 0; t < b->n_labels_; ++t) highest = std::max(highest, codes[t]);
    if (b->n_labels_ > 0 && highest >= b->n_workers_ * b->k_)
        throw bad("code " + std::to_string(highest) + " is >= n_workers x k = " +
                  std::to_string(b->n_workers_ * b->k_) + ": the file is corrupt");
    return b;
}

BinaryLabels::~BinaryLabels() {
    if (base_ != nullptr) ::munmap(const_cast<unsigned char *>(base_), static_cast<std::size_t>(size_));
}

const int64_t *BinaryLabels::item_start() const {
    return reinterpret_cast<const int64_t *>(base_ + offset_[kItemStart]);
}

const uint32_t *BinaryLabels::codes() const { return reinterpret_cast<const uint32_t *>(base_ + offset_[kCodes]); }

std::vector<std::string> BinaryLabels::names(int which) const {
    const unsigned char *p = base_ + offset_[which];
    const uint64_t n = get64(p);
    std::vector<std::string> out;
    out.reserve(static_cast<std::size_t>(n));
    if (get64(p + 8) == kDictRange) {
        const int64_t first = static_cast<int64_t>(get64(p + 16));
        for (uint64_t i = 0; i < n; ++i) out.push_back(decimal(first + static_cast<int64_t>(i)));
    } else {
        const char *bytes = reinterpret_cast<const char *>(p + 16 + 8 * (n + 1));
        for (uint64_t i = 0; i < n; ++i) {
            const uint64_t a = get64(p + 16 + 8 * i), e = get64(p + 16 + 8 * (i + 1));
            out.emplace_back(bytes + a, static_cast<std::size_t>(e - a));
        }
    }
    return out;
}

std::vector<std::size_t> BinaryLabels::labels_per_worker() const {
    std::vector<std::size_t> count(static_cast<std::size_t>(n_workers_), 0);
    const uint32_t *c = codes();
    const uint32_t k32 = static_cast<uint32_t>(k_);
    for (uint64_t t = 0; t < n_labels_; ++t) ++count[c[t] / k32];
    return count;
}

void BinaryLabels::release_codes() const {
    // Whole pages inside the codes section only.
    const long page = ::sysconf(_SC_PAGESIZE);
    const uint64_t ps = page > 0 ? static_cast<uint64_t>(page) : 4096;
    const uint64_t begin = (offset_[kCodes] + ps - 1) / ps * ps, end = (offset_[kCodes] + length_[kCodes]) / ps * ps;
    if (end > begin)
        ::madvise(const_cast<unsigned char *>(base_) + begin, static_cast<std::size_t>(end - begin), MADV_DONTNEED);
}

// ---------------------------------------------------------------------------------
// Tables

namespace {

// --classes with a binary file: its classes are fixed; the option must name them.
void check_classes(const ClassSpec &spec, const std::vector<std::string> &names, const std::string &source) {
    if (spec.kind == ClassSpec::Kind::Infer) return;
    std::string have;
    for (std::size_t l = 0; l < names.size() && l < 20; ++l) have += (l ? "," : "") + names[l];
    if (spec.kind == ClassSpec::Kind::Count) {
        if (static_cast<std::size_t>(spec.count) == names.size()) return;
        throw CliError(kExitUsage, "--classes " + spec.text + ": " + source + " is a binary label file with " +
                                       std::to_string(names.size()) + " classes (" + escape_controls(have) + ")");
    }
    // A list from a workers file may order the classes differently (they are matched by
    // name); one given with --classes must be the file's, in its order.
    std::vector<std::string> a = spec.names, b = names;
    if (spec.origin.empty() ? a == b : (std::sort(a.begin(), a.end()), std::sort(b.begin(), b.end()), a == b)) return;
    throw CliError(kExitInput, (spec.origin.empty() ? "--classes " + spec.text : "the classes of " + spec.origin) +
                                   ": " + source + " is a binary label file whose classes are " + escape_controls(have) +
                                   (spec.origin.empty() ? " (in this order)" : ""));
}

}  // namespace

CrowdTable read_binary_crowd_file(const std::string &path, const ClassSpec &classes, bool with_item_names) {
    CrowdTable table;
    std::shared_ptr<BinaryLabels> b = BinaryLabels::open(path);
    table.source = b->source();
    table.format = "binary";
    table.class_names = b->names(0);
    check_classes(classes, table.class_names, table.source);
    table.worker_names = b->names(2);
    if (with_item_names) table.item_names = b->names(1);
    table.binary = std::move(b);
    return table;
}

void fill_item_names(CrowdTable &table) {
    if (table.binary && table.item_names.empty()) table.item_names = table.binary->names(1);
}

void expand_binary_triples(CrowdTable &table, const ClassSpec &classes) {
    if (!table.binary) return;
    const BinaryLabels &b = *table.binary;
    fill_item_names(table);
    // Labels in the order of a class list given by a workers file (predict).
    std::vector<int32_t> relabel(static_cast<std::size_t>(b.k()));
    for (std::size_t l = 0; l < relabel.size(); ++l) relabel[l] = static_cast<int32_t>(l);
    if (classes.kind == ClassSpec::Kind::List && classes.names != table.class_names) {
        for (std::size_t l = 0; l < relabel.size(); ++l)
            relabel[l] = static_cast<int32_t>(std::find(classes.names.begin(), classes.names.end(), table.class_names[l]) -
                                              classes.names.begin());
        table.class_names = classes.names;
    }
    const std::size_t n = static_cast<std::size_t>(b.n_labels());
    try {
        table.item.resize(n);
        table.worker.resize(n);
        table.label.resize(n);
    } catch (const std::bad_alloc &) {
        throw CliError(kExitInput, table.source + ": out of memory while reading the labels");
    }
    const int64_t *start = b.item_start();
    const uint32_t *code = b.codes();
    const uint32_t k32 = static_cast<uint32_t>(b.k());
    for (uint64_t j = 0; j < b.n_items(); ++j)
        for (int64_t p = start[j]; p < start[j + 1]; ++p) {
            table.item[static_cast<std::size_t>(p)] = static_cast<int32_t>(j);
            table.worker[static_cast<std::size_t>(p)] = static_cast<int32_t>(code[p] / k32);
            table.label[static_cast<std::size_t>(p)] = relabel[code[p] % k32];
        }
    table.binary.reset();
}

std::string binary_duplicate_message(const CrowdTable &table) {
    if (!table.binary) return std::string();
    const BinaryLabels &b = *table.binary;
    const int64_t *start = b.item_start();
    const uint32_t *code = b.codes();
    const uint32_t k32 = static_cast<uint32_t>(b.k());
    std::vector<int64_t> seen(static_cast<std::size_t>(b.n_workers()), -1);
    for (uint64_t j = 0; j < b.n_items(); ++j)
        for (int64_t p = start[j]; p < start[j + 1]; ++p) {
            const uint32_t w = code[p] / k32;
            if (seen[w] == static_cast<int64_t>(j)) {
                const std::vector<std::string> workers = b.names(2);
                std::string item = table.item_names.empty() ? b.names(1)[j] : table.item_names[j];
                return table.source + ": worker " + quote_field(workers[w]) + " labels item " + quote_field(item) +
                       " twice; use --duplicates first or --duplicates last to keep one";
            }
            seen[w] = static_cast<int64_t>(j);
        }
    return std::string();
}

uint64_t write_binary_labels(const std::string &path, const CrowdTable &table) {
    const Dictionary classes = dictionary_of(table.class_names), workers = dictionary_of(table.worker_names);
    std::vector<std::string> item_names;
    const std::vector<std::string> *items = &table.item_names;
    if (table.binary && table.item_names.empty()) {
        item_names = table.binary->names(1);
        items = &item_names;
    }
    BinaryLabelWriter writer(path, classes, dictionary_of(*items), workers);
    if (table.binary) {
        const BinaryLabels &b = *table.binary;
        const int64_t *start = b.item_start();
        for (uint64_t j = 0; j < b.n_items(); ++j) {
            if ((j & 0xFFFFF) == 0) throw_if_interrupted();  // Ctrl-C: the temporary file goes
            writer.add_item(b.codes() + start[j], static_cast<std::size_t>(start[j + 1] - start[j]));
        }
        throw_if_interrupted();
        return writer.commit();
    }
    // A stable counting sort by item.
    const std::size_t n_items = table.item_names.size(), n = table.item.size();
    const uint32_t k32 = static_cast<uint32_t>(table.class_names.size());
    std::vector<int64_t> start(n_items + 1, 0);
    for (int32_t j : table.item) ++start[static_cast<std::size_t>(j) + 1];
    for (std::size_t j = 0; j < n_items; ++j) start[j + 1] += start[j];
    std::vector<uint32_t> code(n);
    {
        std::vector<int64_t> next(start.begin(), start.end() - 1);
        for (std::size_t t = 0; t < n; ++t)
            code[static_cast<std::size_t>(next[static_cast<std::size_t>(table.item[t])]++)] =
                static_cast<uint32_t>(table.worker[t]) * k32 + static_cast<uint32_t>(table.label[t]);
    }
    for (std::size_t j = 0; j < n_items; ++j) {
        if ((j & 0xFFFFF) == 0) throw_if_interrupted();
        writer.add_item(code.data() + start[j], static_cast<std::size_t>(start[j + 1] - start[j]));
    }
    throw_if_interrupted();
    return writer.commit();
}

}  // namespace cli

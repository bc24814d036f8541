// SPDX-License-Identifier: MIT
// Reading delimited text at disk speed: the bytes of a regular file memory-mapped (a
// pipe or standard input read in windows of whole records), cut into chunks on line
// boundaries, the chunks parsed by a few threads and merged in file order, so that
// whatever depends on order (ids numbered by first appearance, the first error's line)
// is exactly what one thread reading the file from its start would give.
//
// Chunks start at a line start chosen without knowing whether a quoted field spans
// it (a quoted field may hold line breaks). Each chunk is parsed speculatively from
// its start; the merge accepts a chunk only when the previous chunk's last record
// ended exactly there, and otherwise parses it again from where that record ended.
// A wrong guess therefore costs time, never a different answer.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "common/errors.hpp"
#include "io/table_reader.hpp"

namespace cli {

/// How many threads parse and how large their chunks are: `threads` 0 means the
/// machine's cores; the environment variables CROWDSPEC_PARSE_THREADS and
/// CROWDSPEC_PARSE_CHUNK (bytes) override both (the tests use them to put chunk
/// boundaries everywhere).
struct ParseSettings {
    std::size_t threads = 1;
    std::size_t chunk_bytes = std::size_t{1} << 20;
};
ParseSettings parse_settings(std::size_t threads_option);

/// The bytes of one input, read-only: a mapping of a regular file, or a window of a
/// stream (pipe, terminal, standard input, a file whose size is unknown) that
/// advance() slides forward. The window always starts at the start of a record.
class InputBytes {
public:
    /// Opens `path` ("-" = standard input) and reads the first window. Throws
    /// CliError(kExitInput) naming the file ("cannot open", "it is a directory", ...).
    InputBytes(const std::string &path, std::size_t window_bytes);
    /// Text already in memory (the whole input).
    explicit InputBytes(std::string text);
    ~InputBytes();
    InputBytes(const InputBytes &) = delete;
    InputBytes &operator=(const InputBytes &) = delete;

    const char *data() const { return data_; }
    std::size_t size() const { return size_; }
    /// Whether the input ends at size() (always true for a mapping).
    bool at_eof() const { return eof_; }
    bool mapped() const { return map_ != nullptr; }
    /// Drops [0, consumed) and reads on. With consumed == 0 the window grows instead
    /// (a record longer than it). No-op for a mapping.
    void advance(std::size_t consumed);
    /// A mapping: the bytes before `offset` are done with for now, so their pages
    /// leave the process (MADV_DONTNEED; they stay in the page cache, and reading them
    /// again maps them back in, unchanged). Keeps the resident set of a large file's
    /// read to what is being parsed. No-op for a stream.
    void release_before(std::size_t offset);

private:
    void fill();  // reads until the window is full or the input ends

    std::string shown_;
    int fd_ = -1;
    bool owns_fd_ = false;
    void *map_ = nullptr;
    std::size_t map_size_ = 0;
    std::size_t released_ = 0;  // mapping: pages before this offset were released
    std::string window_;  // stream: the window
    std::size_t window_bytes_;
    const char *data_ = nullptr;
    std::size_t size_ = 0;
    bool eof_ = false;
};

/// Whether two strings are equal, compared inline 8 bytes at a time (ids are short:
/// a call to memcmp costs more than the comparison).
inline bool same_bytes(std::string_view a, std::string_view b) noexcept {
    if (a.size() != b.size()) return false;
    const char *p = a.data(), *q = b.data();
    std::size_t n = a.size();
    for (; n >= 8; p += 8, q += 8, n -= 8) {
        uint64_t x, y;
        std::memcpy(&x, p, 8);
        std::memcpy(&y, q, 8);
        if (x != y) return false;
    }
    for (; n > 0; --n)
        if (*p++ != *q++) return false;
    return true;
}

namespace detail {
inline uint64_t load8(const char *p) noexcept {
    uint64_t w;
    std::memcpy(&w, p, 8);
    return w;
}
inline uint64_t load4(const char *p) noexcept {
    uint32_t w;
    std::memcpy(&w, p, 4);
    return w;
}
inline uint64_t mix_word(uint64_t h, uint64_t w) noexcept {
    h = (h ^ w) * 0x9E3779B97F4A7C15ull;
    return h ^ (h >> 29);
}
}  // namespace detail

/// A 64-bit hash of a byte string, for FlatIndex: inline, and for the short strings
/// ids are (up to 16 bytes) two loads that cover every byte (overlapping when the
/// length is not 8 or 16) instead of a loop; longer ones are mixed 8 bytes at a time.
inline uint64_t hash_bytes(std::string_view s) noexcept {
    const char *p = s.data();
    const std::size_t n = s.size();
    uint64_t h = 0x243F6A8885A308D3ull ^ (static_cast<uint64_t>(n) * 0xD6E8FEB86659FD93ull);
    if (n >= 8) {
        std::size_t i = 0;
        for (; i + 16 <= n; i += 8) h = detail::mix_word(h, detail::load8(p + i));
        h = detail::mix_word(h, detail::load8(p + i));
        h = detail::mix_word(h, detail::load8(p + n - 8));
    } else if (n >= 4) {
        h = detail::mix_word(h, detail::load4(p) | (detail::load4(p + n - 4) << 32));
    } else if (n > 0) {
        const auto byte = [&](std::size_t i) { return static_cast<uint64_t>(static_cast<unsigned char>(p[i])); };
        h = detail::mix_word(h, byte(0) | (byte(n / 2) << 8) | (byte(n - 1) << 16));
    }
    h *= 0xBF58476D1CE4E5B9ull;
    return h ^ (h >> 31);
}

/// An open-addressing hash index from strings to int32 ids, for interning millions of
/// ids: 8 bytes a slot (32 hash bits and the id), the strings themselves kept by the
/// caller in `names` (index = id), linear probing, at most half full; growing never
/// reads the strings again.
class FlatIndex {
public:
    /// The id of `s`, or -1.
    int32_t find(std::string_view s, uint64_t hash, const std::vector<std::string_view> &names) const {
        if (slots_.empty()) return -1;
        const std::size_t mask = slots_.size() - 1;
        const uint32_t tag = slot_tag(hash);
        for (std::size_t i = tag & mask;; i = (i + 1) & mask) {
            const Slot &slot = slots_[i];
            if (slot.id < 0) return -1;
            if (slot.tag == tag && same_bytes(names[static_cast<std::size_t>(slot.id)], s)) return slot.id;
        }
    }
    /// The id of `s` if present; otherwise records `id` for it (names[id] must then be
    /// `s`, pushed by the caller right after) and returns -1.
    int32_t insert(std::string_view s, uint64_t hash, int32_t id, const std::vector<std::string_view> &names) {
        if (2 * (count_ + 1) > slots_.size()) grow();
        const std::size_t mask = slots_.size() - 1;
        const uint32_t tag = slot_tag(hash);
        for (std::size_t i = tag & mask;; i = (i + 1) & mask) {
            Slot &slot = slots_[i];
            if (slot.id < 0) {
                slot.tag = tag;
                slot.id = id;
                ++count_;
                used_.push_back(static_cast<uint32_t>(i));
                return -1;
            }
            if (slot.tag == tag && same_bytes(names[static_cast<std::size_t>(slot.id)], s)) return slot.id;
        }
    }
    /// Empties the index (in time proportional to its size), keeping its memory unless
    /// it is large.
    void clear();
    std::size_t size() const { return count_; }

private:
    struct Slot {
        uint32_t tag;
        int32_t id;  // -1 = empty
    };
    // The 32 bits a slot keeps: they choose the slot (low bits) and tell most strings
    // apart without looking at them (the bits above the table's size).
    static uint32_t slot_tag(uint64_t hash) noexcept { return static_cast<uint32_t>(hash ^ (hash >> 32)); }
    void grow();

    std::vector<Slot> slots_;
    std::vector<uint32_t> used_;  // the occupied slots, for clear()
    std::size_t count_ = 0;
};

/// Calls fn(begin, end) on `threads` contiguous parts of [0, n), in parallel when n is
/// large enough to be worth threads. Exceptions are rethrown in the caller.
template <class Fn>
void parallel_for(std::size_t n, std::size_t threads, Fn fn) {
    if (threads <= 1 || n < (std::size_t{1} << 16)) {
        fn(std::size_t{0}, n);
        return;
    }
    threads = std::min<std::size_t>(threads, 64);
    std::vector<std::thread> pool;
    std::vector<std::exception_ptr> errors(threads);
    for (std::size_t t = 1; t < threads; ++t)
        pool.emplace_back([&, t] {
            try {
                fn(n * t / threads, n * (t + 1) / threads);
            } catch (...) {
                errors[t] = std::current_exception();
            }
        });
    try {
        fn(std::size_t{0}, n / threads);
    } catch (...) {
        errors[0] = std::current_exception();
    }
    for (std::thread &th : pool) th.join();
    for (const std::exception_ptr &e : errors)
        if (e) std::rethrow_exception(e);
}

namespace detail {

// One chunk of a window: where it starts and its nominal end, what its parse found.
template <class Chunk>
struct ChunkSlot {
    std::size_t begin = 0, stop = 0;
    std::unique_ptr<Chunk> chunk;  // from the pool of read_chunks, returned after the merge
    std::size_t end = 0;        // offset after its last record
    std::size_t next_line = 1;  // local line at `end`
    bool failed = false, incomplete = false;
    RecordError error{0, std::string()};
    IncompleteRecord partial{0, 0};
    std::exception_ptr exception;
    std::deque<std::string> escapes;  // unescaped quoted fields the chunk's views point into
    bool done = false;
};

template <class Job, class Chunk, class Local>
void parse_one(Job &job, ChunkSlot<Chunk> &slot, Local &local, const char *data, std::size_t size, bool at_eof,
               std::size_t first_line, TextFormat format, const std::string &source) {
    slot.chunk->clear();
    slot.failed = slot.incomplete = false;
    slot.exception = nullptr;
    slot.escapes.clear();
    RecordReader reader(data, size, slot.begin, slot.stop, at_eof, first_line, format, source, &slot.escapes);
    try {
        job.parse(reader, *slot.chunk, local);
        slot.end = reader.position();
        slot.next_line = reader.next_line();
    } catch (const RecordError &e) {
        slot.failed = true;
        slot.error = e;
    } catch (const IncompleteRecord &e) {
        slot.incomplete = true;
        slot.partial = e;
    } catch (...) {
        slot.exception = std::current_exception();
    }
}

}  // namespace detail

/// Parses the records of `in` from offset `start` of its first window (a record start,
/// on line `start_line`) to the end, chunk by chunk. `Job` provides
///   struct Chunk (default-constructible: what one chunk's records give; clear()
///       empties it keeping its memory, as chunks are reused),
///   struct Local (scratch of one thread, default-constructible),
///   void parse(RecordReader &r, Chunk &c, Local &l)  (reads records while r.next()),
///   void merge(Chunk &c, std::size_t line_offset)     (in file order, one thread;
///       a line of the chunk is line_offset + its local line),
///   bool serial() const  (true: one chunk at a time, each parsed knowing its real
///       first line, so parse() may consult state earlier chunks left).
/// A problem a chunk reports (RecordError) is thrown as CliError(kExitInput)
/// "source:line: what" once the chunks before it, and its records before the problem,
/// are merged; IncompleteRecord makes the window slide on.
template <class Job>
void read_chunks(InputBytes &in, std::size_t start, std::size_t start_line, TextFormat format,
                 const std::string &source, const ParseSettings &settings, Job &job) {
    using Chunk = typename Job::Chunk;
    using Local = typename Job::Local;
    using Slot = detail::ChunkSlot<Chunk>;
    const std::size_t threads = job.serial() ? 1 : std::max<std::size_t>(settings.threads, 1);
    const std::size_t chunk_bytes = std::max<std::size_t>(settings.chunk_bytes, 1);
    Local main_local;
    std::size_t line = start_line;
    // Chunks are recycled: their arrays keep their memory, so the pages are not
    // faulted in and zeroed again for every chunk.
    std::mutex pool_mutex;
    std::vector<std::unique_ptr<Chunk>> pool_chunks;
    const auto take_chunk = [&] {
        std::lock_guard<std::mutex> lock(pool_mutex);
        if (pool_chunks.empty()) return std::unique_ptr<Chunk>(new Chunk());
        std::unique_ptr<Chunk> c = std::move(pool_chunks.back());
        pool_chunks.pop_back();
        return c;
    };
    const auto give_chunk = [&](std::unique_ptr<Chunk> &c) {
        if (!c) return;
        std::lock_guard<std::mutex> lock(pool_mutex);
        pool_chunks.push_back(std::move(c));
    };
    for (;;) {
        const char *const data = in.data();
        const std::size_t size = in.size();
        const bool eof = in.at_eof();
        // A stream window is parsed up to its last line break; the rest waits for more.
        std::size_t limit = size;
        if (!eof) {
            const void *nl = nullptr;
            for (std::size_t i = size; i > start; --i)
                if (data[i - 1] == '\n') {
                    nl = data + i;
                    break;
                }
            limit = nl == nullptr ? start : static_cast<std::size_t>(static_cast<const char *>(nl) - data);
            if (limit == start) {  // not one line break: a longer window
                in.advance(start);
                start = 0;
                continue;
            }
        }
        // Chunk boundaries: the line start at or after every chunk_bytes.
        std::vector<std::size_t> bounds{start};
        while (bounds.back() < limit) {
            std::size_t at = bounds.back() + chunk_bytes;
            if (at >= limit) {
                bounds.push_back(limit);
                break;
            }
            const void *nl = std::memchr(data + at - 1, '\n', limit - (at - 1));
            at = nl == nullptr ? limit : static_cast<std::size_t>(static_cast<const char *>(nl) - data) + 1;
            bounds.push_back(at);
        }
        const std::size_t n = bounds.size() - 1;
        std::vector<std::unique_ptr<Slot>> slots(n);
        for (std::size_t i = 0; i < n; ++i) {
            slots[i].reset(new Slot());
            slots[i]->begin = bounds[i];
            slots[i]->stop = bounds[i + 1];
        }

        // Workers take chunks in order, at most `ahead` beyond the one being merged.
        std::mutex mutex;
        std::condition_variable ready, room;
        std::size_t next_task = 0, merged = 0;
        bool stop_workers = false;
        const std::size_t ahead = 2 * threads + 2;
        std::vector<std::thread> pool;
        const bool parallel = threads > 1 && n > 1;
        if (parallel) {
            for (std::size_t t = 0; t < std::min(threads, n); ++t)
                pool.emplace_back([&] {
                    Local local;
                    for (;;) {
                        std::size_t i;
                        {
                            std::unique_lock<std::mutex> lock(mutex);
                            room.wait(lock, [&] { return stop_workers || next_task >= n || next_task < merged + ahead; });
                            if (stop_workers || next_task >= n) return;
                            i = next_task++;
                        }
                        slots[i]->chunk = take_chunk();
                        detail::parse_one(job, *slots[i], local, data, size, eof, 1, format, source);
                        {
                            std::lock_guard<std::mutex> lock(mutex);
                            slots[i]->done = true;
                        }
                        ready.notify_all();
                    }
                });
        }
        const auto finish_workers = [&] {
            {
                std::lock_guard<std::mutex> lock(mutex);
                stop_workers = true;
            }
            room.notify_all();
            for (std::thread &th : pool) th.join();
            pool.clear();
        };

        std::size_t expected = start;  // where the next record starts
        bool slide = false;
        std::size_t slide_at = 0;
        try {
            for (std::size_t i = 0; i < n; ++i) {
                Slot &s = *slots[i];
                if (parallel) {
                    std::unique_lock<std::mutex> lock(mutex);
                    ready.wait(lock, [&] { return s.done; });
                }
                if (s.stop <= expected) {  // the previous chunk's last record covered it
                    give_chunk(s.chunk);
                } else {
                    std::size_t offset = line - 1;
                    if (!s.chunk) s.chunk = take_chunk();
                    if (!parallel || s.begin != expected) {
                        // Serial, or a wrong guess: parse from where the records really are.
                        s.begin = expected;
                        detail::parse_one(job, s, main_local, data, size, eof, parallel ? 1 : line, format, source);
                        if (!parallel) offset = 0;
                    }
                    job.merge(*s.chunk, offset);
                    if (s.exception) std::rethrow_exception(s.exception);
                    if (s.failed)
                        throw CliError(kExitInput, source + ":" + std::to_string(offset + s.error.line) + ": " + s.error.what);
                    if (s.incomplete) {
                        slide = true;
                        slide_at = s.partial.start;
                        line = offset + s.partial.line;
                        give_chunk(s.chunk);
                        break;
                    }
                    expected = s.end;
                    line = offset + s.next_line;
                    in.release_before(expected);
                }
                give_chunk(s.chunk);  // for the next chunk to fill
                s.escapes.clear();
                if (parallel) {
                    {
                        std::lock_guard<std::mutex> lock(mutex);
                        merged = i + 1;
                    }
                    room.notify_all();
                }
            }
        } catch (...) {
            finish_workers();
            throw;
        }
        finish_workers();
        if (!slide) slide_at = expected;
        if (eof && !slide) return;
        in.advance(slide_at);
        start = 0;
        if (in.size() == 0 && in.at_eof()) return;
    }
}

}  // namespace cli

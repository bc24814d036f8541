// SPDX-License-Identifier: MIT
// Little-endian bytes in and out, for the saved-model format (docs/saved-models.md):
// a writer that appends fixed-width values and arrays to a byte vector, a reader that
// takes them back and throws CS_ERR_CORRUPT_MODEL naming the offset instead of reading
// past the end, and the format's 64-bit checksum.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "util/error.hpp"

namespace cs {

/// splitmix64's finaliser: a bijection of 64-bit words that mixes every input bit into
/// every output bit.
inline uint64_t mix64(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/// The checksum of the saved-model format: h = mix64(h ^ w) over the little-endian
/// 64-bit words w of the bytes (the last one zero-padded), from h = the byte count, and
/// a last h = mix64(h ^ n). Each step is a bijection of h, so a change in any one word
/// always changes the result; several changes escape it with probability 2^-64.
inline uint64_t checksum64(const uint8_t *bytes, std::size_t n) {
    uint64_t h = mix64(n);
    std::size_t at = 0;
    for (; at + 8 <= n; at += 8) {
        uint64_t w = 0;
        for (int b = 0; b < 8; ++b) w |= static_cast<uint64_t>(bytes[at + b]) << (8 * b);
        h = mix64(h ^ w);
    }
    if (at < n) {
        uint64_t w = 0;
        for (std::size_t b = 0; at + b < n; ++b) w |= static_cast<uint64_t>(bytes[at + b]) << (8 * b);
        h = mix64(h ^ w);
    }
    return mix64(h ^ n);
}

/// Appends little-endian values.
class ByteWriter {
public:
    void u8(uint8_t v) { bytes_.push_back(v); }
    void u32(uint32_t v) { put(v, 4); }
    void i32(int32_t v) { put(static_cast<uint32_t>(v), 4); }
    void u64(uint64_t v) { put(v, 8); }
    void i64(int64_t v) { put(static_cast<uint64_t>(v), 8); }
    void f64(double v) {
        uint64_t bits = 0;
        std::memcpy(&bits, &v, sizeof bits);
        put(bits, 8);
    }
    void raw(const void *data, std::size_t n) {
        const auto *p = static_cast<const uint8_t *>(data);
        bytes_.insert(bytes_.end(), p, p + n);
    }
    template <class T>
    void array(const T *values, std::size_t n) {
        for (std::size_t i = 0; i < n; ++i) {
            if constexpr (sizeof(T) == 8 && std::is_floating_point<T>::value) f64(values[i]);
            else if constexpr (sizeof(T) == 8) u64(static_cast<uint64_t>(values[i]));
            else if constexpr (sizeof(T) == 4) u32(static_cast<uint32_t>(values[i]));
            else u8(static_cast<uint8_t>(values[i]));
        }
    }
    std::size_t size() const { return bytes_.size(); }
    std::vector<uint8_t> &bytes() { return bytes_; }
    void reserve(std::size_t n) { bytes_.reserve(n); }

private:
    void put(uint64_t v, int width) {
        for (int b = 0; b < width; ++b) bytes_.push_back(static_cast<uint8_t>(v >> (8 * b)));
    }
    std::vector<uint8_t> bytes_;
};

/// Reads little-endian values from a byte range; every read past the end throws
/// CS_ERR_CORRUPT_MODEL ("truncated: ... at byte offset N").
class ByteReader {
public:
    ByteReader(const uint8_t *data, std::size_t n, std::size_t base = 0) : data_(data), n_(n), base_(base) {}

    uint8_t u8(const char *what) { return static_cast<uint8_t>(get(1, what)); }
    uint32_t u32(const char *what) { return static_cast<uint32_t>(get(4, what)); }
    int32_t i32(const char *what) { return static_cast<int32_t>(static_cast<uint32_t>(get(4, what))); }
    uint64_t u64(const char *what) { return get(8, what); }
    int64_t i64(const char *what) { return static_cast<int64_t>(get(8, what)); }
    double f64(const char *what) {
        const uint64_t bits = get(8, what);
        double v = 0.0;
        std::memcpy(&v, &bits, sizeof v);
        return v;
    }
    /// n values of T (1, 4 or 8 bytes; doubles as their bits), after checking that
    /// they are there: a corrupt count cannot make the reader allocate beyond the bytes.
    template <class T>
    std::vector<T> array(uint64_t n, const char *what) {
        need(n, sizeof(T), what);
        std::vector<T> out(static_cast<std::size_t>(n));
        for (std::size_t i = 0; i < out.size(); ++i) {
            if constexpr (std::is_floating_point<T>::value) out[i] = f64(what);
            else out[i] = static_cast<T>(get(sizeof(T), what));
        }
        return out;
    }
    /// The next n bytes as a reader of their own (a section).
    ByteReader sub(uint64_t n, const char *what) {
        need(n, 1, what);
        ByteReader r(data_ + at_, static_cast<std::size_t>(n), base_ + at_);
        at_ += static_cast<std::size_t>(n);
        return r;
    }
    const uint8_t *take(uint64_t n, const char *what) {
        need(n, 1, what);
        const uint8_t *p = data_ + at_;
        at_ += static_cast<std::size_t>(n);
        return p;
    }
    std::size_t remaining() const { return n_ - at_; }
    std::size_t offset() const { return base_ + at_; }

private:
    void need(uint64_t count, std::size_t width, const char *what) const {
        if (count > remaining() / width)
            throw Error(CS_ERR_CORRUPT_MODEL, std::string("truncated or corrupt: ") + what + " needs " +
                                                  std::to_string(count) + " values of " + std::to_string(width) +
                                                  " bytes at byte offset " + std::to_string(offset()) + ", " +
                                                  std::to_string(remaining()) + " bytes remain");
    }
    uint64_t get(std::size_t width, const char *what) {
        need(1, width, what);
        uint64_t v = 0;
        for (std::size_t b = 0; b < width; ++b) v |= static_cast<uint64_t>(data_[at_ + b]) << (8 * b);
        at_ += width;
        return v;
    }
    const uint8_t *data_;
    std::size_t n_;
    std::size_t base_;
    std::size_t at_ = 0;
};

}  // namespace cs

// SPDX-License-Identifier: MIT
// A std::allocator replacement that aligns every array to a cache line, so that a row
// of 8 doubles (a block of 8 vectors, src/linalg/subspace_eigen) is one cache line and
// a random gather of rows (a sparse block product) touches one line per row. Arrays of
// 8 MiB or more are aligned to 2 MiB and, on Linux, marked for transparent huge pages
// before they are first touched: a gather over a 64 MiB block (10^6 nodes x 8 vectors)
// otherwise misses the TLB on nearly every row (measured: 0.33-0.46 s per sparse
// product with 4 KiB pages, 0.24 s with huge pages, 10^7 edges).
#pragma once

#include <cstddef>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace cs {

template <class T, std::size_t Alignment = 64>
struct AlignedAllocator {
    using value_type = T;
    static constexpr std::size_t kHugeAlignment = std::size_t(2) << 20;
    static constexpr std::size_t kHugeThreshold = std::size_t(8) << 20;

    AlignedAllocator() noexcept = default;
    template <class U>
    AlignedAllocator(const AlignedAllocator<U, Alignment> &) noexcept {}
    template <class U>
    struct rebind {
        using other = AlignedAllocator<U, Alignment>;
    };

    T *allocate(std::size_t n) {
        if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_alloc();
        const std::size_t bytes = n * sizeof(T);
        if (bytes < kHugeThreshold)
            return static_cast<T *>(::operator new(bytes, std::align_val_t(Alignment)));
        void *p = ::operator new(bytes, std::align_val_t(kHugeAlignment));
#if defined(__linux__) && defined(MADV_HUGEPAGE)
        // A hint only: failure (no THP support) changes nothing but speed.
        (void)madvise(p, bytes - bytes % kHugeAlignment, MADV_HUGEPAGE);
#endif
        return static_cast<T *>(p);
    }
    void deallocate(T *p, std::size_t n) noexcept {
        const std::size_t alignment = n * sizeof(T) < kHugeThreshold ? Alignment : kHugeAlignment;
        ::operator delete(p, std::align_val_t(alignment));
    }

    template <class U>
    bool operator==(const AlignedAllocator<U, Alignment> &) const noexcept { return true; }
    template <class U>
    bool operator!=(const AlignedAllocator<U, Alignment> &) const noexcept { return false; }
};

}  // namespace cs

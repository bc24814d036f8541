// A std::allocator replacement that aligns every array to a cache line, so that a row
// of 8 doubles (a block of 8 vectors, src/linalg/subspace_eigen) is one cache line and
// a random gather of rows (a sparse block product) touches one line per row.
#pragma once

#include <cstddef>
#include <new>

namespace cs {

template <class T, std::size_t Alignment = 64>
struct AlignedAllocator {
    using value_type = T;
    AlignedAllocator() noexcept = default;
    template <class U>
    AlignedAllocator(const AlignedAllocator<U, Alignment> &) noexcept {}
    template <class U>
    struct rebind {
        using other = AlignedAllocator<U, Alignment>;
    };

    T *allocate(std::size_t n) {
        if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_alloc();
        return static_cast<T *>(::operator new(n * sizeof(T), std::align_val_t(Alignment)));
    }
    void deallocate(T *p, std::size_t) noexcept { ::operator delete(p, std::align_val_t(Alignment)); }

    template <class U>
    bool operator==(const AlignedAllocator<U, Alignment> &) const noexcept { return true; }
    template <class U>
    bool operator!=(const AlignedAllocator<U, Alignment> &) const noexcept { return false; }
};

}  // namespace cs

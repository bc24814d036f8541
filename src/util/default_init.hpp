// SPDX-License-Identifier: MIT
// An allocator whose vectors default-initialise their elements: `std::vector<T,
// DefaultInitAllocator<T>> v(n)` of a trivial T leaves the values unset instead of
// zero-filling them, for arrays that are overwritten entirely: a counting sort's
// placement (data/comparison_data.cpp: the zero fill was a pass over 8 MB for nothing at
// 10^6 comparisons), or parallel passes whose threads should each first touch the
// pages they fill (data/crowd_data.hpp).
#pragma once

#include <memory>
#include <new>
#include <utility>

namespace cs {

template <class T>
struct DefaultInitAllocator : std::allocator<T> {
    using value_type = T;
    template <class U>
    struct rebind {
        using other = DefaultInitAllocator<U>;
    };
    DefaultInitAllocator() noexcept = default;
    template <class U>
    DefaultInitAllocator(const DefaultInitAllocator<U> &) noexcept {}

    /// Default-initialisation (no value) instead of value-initialisation (zero).
    template <class U>
    void construct(U *p) noexcept(noexcept(::new (static_cast<void *>(p)) U)) {
        ::new (static_cast<void *>(p)) U;
    }
    template <class U, class... Args>
    void construct(U *p, Args &&...args) {
        ::new (static_cast<void *>(p)) U(std::forward<Args>(args)...);
    }
};

}  // namespace cs

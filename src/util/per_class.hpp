// SPDX-License-Identifier: MIT
// Per-class kernels: compile-time k for the common small class counts, and a scratch
// vector of k doubles that lives on the stack when k is small.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

namespace cs {

/// Call f(std::integral_constant<int, K>{}) with K = k for k = 2..5, else K = 0 (the
/// kernel then reads k at run time). Kernels templated on K unroll their loops over
/// classes, which the E-step, CrowdLloyd and the moments spend most of their time in.
template <class F>
decltype(auto) with_classes(int32_t k, F &&f) {
    switch (k) {
        case 2: return f(std::integral_constant<int, 2>{});
        case 3: return f(std::integral_constant<int, 3>{});
        case 4: return f(std::integral_constant<int, 4>{});
        case 5: return f(std::integral_constant<int, 5>{});
        default: return f(std::integral_constant<int, 0>{});
    }
}

/// k doubles of scratch: on the stack for K > 0 (or k <= 16), on the heap otherwise.
template <int K>
class ClassScratch {
public:
    explicit ClassScratch(int32_t k) {
        if (K == 0 && k > kStack) {
            heap_.resize(static_cast<std::size_t>(k));
            data_ = heap_.data();
        }
    }
    ClassScratch(const ClassScratch &) = delete;
    ClassScratch &operator=(const ClassScratch &) = delete;
    double *data() { return data_; }

private:
    static constexpr int32_t kStack = K > 0 ? K : 16;
    double stack_[kStack];
    std::vector<double> heap_;
    double *data_ = stack_;
};

}  // namespace cs

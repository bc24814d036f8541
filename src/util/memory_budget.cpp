// SPDX-License-Identifier: MIT
#include "util/memory_budget.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <limits>

#include "util/error.hpp"

#if defined(__linux__)
#include <dlfcn.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <unistd.h>
#define CS_HAVE_PROC 1
#endif

namespace cs {

namespace {

constexpr uint64_t kUnknown = std::numeric_limits<uint64_t>::max();

#if defined(CS_HAVE_PROC)
uint64_t address_space_limit() {
    struct rlimit limit {};
    if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return kUnknown;
    return static_cast<uint64_t>(limit.rlim_cur);
}

// The process's current size (the first field of /proc/self/statm, in pages).
uint64_t mapped_bytes() {
    std::FILE *f = std::fopen("/proc/self/statm", "r");
    if (f == nullptr) return 0;
    unsigned long long pages = 0;
    const int read = std::fscanf(f, "%llu", &pages);
    std::fclose(f);
    const long page = sysconf(_SC_PAGESIZE);
    return read == 1 && page > 0 ? pages * static_cast<uint64_t>(page) : 0;
}

uint64_t physical_memory() {
    struct sysinfo info {};
    if (sysinfo(&info) != 0) return kUnknown;
    const uint64_t unit = info.mem_unit > 0 ? info.mem_unit : 1;
    return (static_cast<uint64_t>(info.totalram) + static_cast<uint64_t>(info.totalswap)) * unit;
}

// cgroup v2's memory.max of this process's group, when it is a number ("max": none).
uint64_t cgroup_memory_max() {
    std::ifstream cgroup("/proc/self/cgroup");
    std::string line;
    while (std::getline(cgroup, line)) {
        if (line.rfind("0::", 0) != 0) continue;
        std::ifstream max("/sys/fs/cgroup" + line.substr(3) + "/memory.max");
        unsigned long long bytes = 0;
        if (max >> bytes) return static_cast<uint64_t>(bytes);
        return kUnknown;
    }
    return kUnknown;
}

// OpenBLAS's thread count when the BLAS loaded is OpenBLAS, whose buffer allocations
// never fail (it retries), else 0: probed at run time by symbols only OpenBLAS exports,
// so that nothing links against a vendor's extension. The function is looked up once
// (it cannot change while the library is loaded); the count is asked each time, since
// openblas_set_num_threads() can change it.
int openblas_threads() {
    using Count = int (*)();
    static const bool openblas = dlsym(RTLD_DEFAULT, "openblas_get_config") != nullptr;
    static const Count count =
        openblas ? reinterpret_cast<Count>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads")) : nullptr;
    if (!openblas) return 0;
    return count != nullptr ? std::max(count(), 1) : 1;
}
#endif

}  // namespace

uint64_t address_space_headroom() {
#if defined(CS_HAVE_PROC)
    const uint64_t limit = address_space_limit();
    if (limit == kUnknown) return kUnknown;
    const uint64_t used = mapped_bytes();
    return used >= limit ? 0 : limit - used;
#else
    return kUnknown;
#endif
}

uint64_t memory_available() {
#if defined(CS_HAVE_PROC)
    return std::min({address_space_headroom(), physical_memory(), cgroup_memory_max()});
#else
    return kUnknown;
#endif
}

std::string bytes_text(double bytes) {
    static const char *const kUnits[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
    int unit = 0;
    while (bytes >= 1000.0 && unit < 6) {
        bytes /= 1000.0;
        ++unit;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, unit == 0 || bytes >= 100.0 ? "%.0f %s" : "%.1f %s", bytes, kUnits[unit]);
    return buf;
}

void require_memory(double bytes, const std::string &who, const std::string &detail) {
    const uint64_t available = memory_available();
    if (available == kUnknown || bytes <= static_cast<double>(available)) return;
    const bool limited = address_space_headroom() == available;
    throw Error(CS_ERR_OUT_OF_MEMORY, "out of memory: " + who + " needs about " + bytes_text(bytes) + ": " + detail +
                                          "; this process can allocate about " + bytes_text(static_cast<double>(available)) +
                                          (limited ? " (its address-space limit, ulimit -v)" : " (physical memory)"));
}

void require_blas_headroom(double workspace, const char *call) {
    int threads = 1;
#if defined(CS_HAVE_PROC)
    // A BLAS that fails cleanly (the reference one) maps its failures to
    // CS_ERR_OUT_OF_MEMORY itself (linalg/lapack_status.hpp): nothing to check.
    threads = openblas_threads();
    if (threads == 0) return;
#endif
    const uint64_t headroom = address_space_headroom();
    if (headroom == kUnknown) return;
    // The calling thread's buffer, and each pool thread's buffer plus the malloc arena
    // glibc reserves for a new thread's first allocation.
    const double need = workspace + static_cast<double>(kBlasBufferBytes) +
                        (threads - 1) * static_cast<double>(kBlasBufferBytes + kThreadArenaBytes);
    if (need <= static_cast<double>(headroom)) return;
    throw Error(CS_ERR_OUT_OF_MEMORY,
                std::string("out of memory: ") + call + " needs about " + bytes_text(need) +
                    " of address space (its workspace and the buffers of OpenBLAS's " + std::to_string(threads) +
                    (threads == 1 ? " thread" : " threads") +
                    ", which OpenBLAS retries forever when it cannot have them; OPENBLAS_NUM_THREADS=1 needs the "
                    "least); the address-space limit (ulimit -v) leaves " +
                    bytes_text(static_cast<double>(headroom)));
}

}  // namespace cs

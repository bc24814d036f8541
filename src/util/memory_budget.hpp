// SPDX-License-Identifier: MIT
// How much memory a fit may still take, so that a need known before anything is
// allocated is refused at once with its figure (issue 40): the address-space limit
// (RLIMIT_AS, `ulimit -v`) less what the process already maps, physical memory, and a
// cgroup's memory.max. Also the headroom a dense BLAS call needs: OpenBLAS retries a
// failed allocation of its buffer forever (docs/reliability.md, Known limits).
#pragma once

#include <cstdint>
#include <string>

namespace cs {

/// Bytes the process may still map under RLIMIT_AS (the limit less its current size,
/// from /proc/self/statm), or UINT64_MAX without a limit or where it cannot be read.
uint64_t address_space_headroom();

/// Bytes a fit may allocate: the smallest of address_space_headroom(), physical memory
/// plus swap, and the cgroup's memory.max; UINT64_MAX where none is known.
uint64_t memory_available();

/// A size for a message: "512 B", "3.4 MB", "48.0 GB", "344 TB" (decimal units).
std::string bytes_text(double bytes);

/// Throws cs::Error(CS_ERR_OUT_OF_MEMORY) when `bytes` exceed memory_available(), with
/// the message "out of memory: <who> needs about <bytes>: <detail>; this process can
/// allocate about <available> (<which limit>)". Nothing is allocated.
void require_memory(double bytes, const std::string &who, const std::string &detail);

/// OpenBLAS's buffer, allocated by a thread's first level-3 BLAS or LAPACK call: 32 MB
/// of data plus its alignment padding in Debian's 0.3.21 builds, 128 MB with other
/// configurations; 136 MB covers both. Other BLAS libraries need less.
constexpr uint64_t kBlasBufferBytes = 136ull << 20;

/// The malloc arena glibc maps for a thread's first allocation (64 MB on 64-bit), which
/// an OpenBLAS pool thread also retries forever when it is refused.
constexpr uint64_t kThreadArenaBytes = 64ull << 20;

/// Before a dense BLAS/LAPACK call that needs `workspace` bytes of its own: when the
/// BLAS loaded is OpenBLAS and RLIMIT_AS is finite, throws cs::Error(CS_ERR_OUT_OF_MEMORY)
/// unless the headroom holds the workspace plus kBlasBufferBytes for the calling thread
/// and kBlasBufferBytes + kThreadArenaBytes for each other thread of OpenBLAS's pool,
/// since OpenBLAS retries a failed allocation forever instead of failing (a hang in
/// dsyevd, or in dsymv waiting for a pool thread). The check is conservative: a thread
/// that already has its buffer needs no new one. Without a limit it costs one
/// getrlimit() call.
void require_blas_headroom(double workspace, const char *call);

}  // namespace cs

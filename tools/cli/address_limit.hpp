// SPDX-License-Identifier: MIT
// The program under an address-space limit (`ulimit -v`, RLIMIT_AS): OpenBLAS's thread
// pool and the end of the process (issue 40, R1).
#pragma once

namespace cli {

/// Ends the process with `code` once the command is done and its outputs are committed.
/// Under a finite RLIMIT_AS it flushes stdout and stderr and calls _exit(): exit() would
/// run OpenBLAS's destructor, which joins its pool threads, and a pool thread that
/// could not get its buffer under the limit retries forever, so exit() never returns
/// (`crowdspec --version` hung). Without a limit it returns normally (exit handlers, and
/// LeakSanitizer's check in sanitizer builds, still run). A failed flush of stdout turns
/// a success into the output error.
int finish_process(int code);

}  // namespace cli

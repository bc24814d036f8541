/* SPDX-License-Identifier: MIT */
/* Part of crowdspec_abi only (src/CMakeLists.txt), the library the ABI check reads
   with abi-dumper: compiled with -g -fno-eliminate-unused-debug-types, this unit puts
   the debug description of every type and enum of the public header into the
   library, also of those that no exported signature names (parameter ids, method
   ids, status codes and notes all travel as int32_t). It defines nothing. */
#include "crowdspec/crowdspec.h"

// SPDX-License-Identifier: MIT
// Reading a crowd file of any kind: a binary label file (`crowdspec convert`,
// io/binary_labels.hpp), recognised by its first bytes, or text (io/label_file.hpp).
#pragma once

#include <string>

#include "io/crowd_table.hpp"

namespace cli {

/// Reads a crowd file ("-" = stdin). A binary label file (`crowdspec convert`) is
/// recognised by its magic bytes and read into triples (commands that fit it in place
/// call read_binary_crowd_file instead). Throws CliError(kExitInput) naming the file and
/// line of the first problem (unreadable file, wrong field count, unknown column,
/// label outside --classes, no labels at all).
CrowdTable read_crowd_file(const std::string &path, const ClassSpec &classes,
                           const InputOptions &input = InputOptions());

}  // namespace cli

// SPDX-License-Identifier: MIT
// The clustering subcommands of `crowdspec`: `cluster` (points) and `communities`
// (graphs). Same conventions as commands.hpp: the whole argument vector and the index
// of the command's first own argument in, an exit code out, CliError on failure.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace cli {

int run_cluster(const std::vector<std::string> &args, std::size_t first);
int run_communities(const std::vector<std::string> &args, std::size_t first);

/// The `--help` texts (also shown by `crowdspec help cluster|communities`).
std::string cluster_help();
std::string communities_help();

}  // namespace cli

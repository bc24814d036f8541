// SPDX-License-Identifier: MIT
// crowdspec-mpi's input: every process reads a byte range of one crowd file (cut at
// line ends) with the command-line program's reader (label_file.hpp), the processes
// agree on the worker and class numbering of a whole-file read, and the labels go to
// the process that holds their item, chosen by a hash of the item id (MPI_Alltoallv).
// No process ever holds the whole file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "io/label_file.hpp"
#include "mpi_world.hpp"

namespace cli {
namespace mpi {

/// This process's items with all their labels, numbered for cs_fit_mpi.
struct ShardTable {
    std::string source;                     ///< the file, for messages
    std::vector<std::string> item_names;    ///< this process's items (local index -> id)
    int64_t first_item = 0;                 ///< global id of local item 0 (ids are consecutive)
    int64_t total_items = 0;                ///< items over all processes
    std::vector<std::string> worker_names;  ///< global worker index -> id (every process)
    std::vector<std::string> class_names;   ///< class index -> label string (every process)
    std::vector<int32_t> item, worker, label;  ///< this process's triples: global item id, worker, class
    std::vector<std::size_t> line;             ///< source line of each triple
    std::string format;                        ///< csv, tsv or whitespace
    std::string read_note;                     ///< crowd_read_note of the whole file ("" if none)
};

/// Reads `path` (a regular file; not standard input) over the processes of `w`.
/// Collective; on any process's problem every process throws the same CliError
/// (kExitInput, "FILE:LINE: ..." as crowdspec fit would say it).
ShardTable read_crowd_shards(const World &w, const std::string &path, const ClassSpec &classes,
                             const InputOptions &input);

}  // namespace mpi
}  // namespace cli

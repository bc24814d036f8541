// SPDX-License-Identifier: MIT
#include "io/crowd_input.hpp"

#include "io/binary_labels.hpp"
#include "io/label_file.hpp"

namespace cli {

CrowdTable read_crowd_file(const std::string &path, const ClassSpec &classes, const InputOptions &input) {
    if (is_binary_label_file(path)) {  // `crowdspec convert` output: its triples, in item order
        CrowdTable binary = read_binary_crowd_file(path, classes);
        expand_binary_triples(binary, classes);
        return binary;
    }
    return read_crowd_text_file(path, classes, input);
}

}  // namespace cli

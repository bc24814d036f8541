// SPDX-License-Identifier: MIT
// `crowdspec convert`: any crowd file the other commands read in; a binary label file
// (docs/binary-format.md) out, which fit, evaluate, predict and report read
// memory-mapped, without parsing, at about 4 bytes per label.
#include <cstdio>

#include "io/binary_labels.hpp"
#include "cli/command_args.hpp"
#include "cli/commands.hpp"
#include "fitting/fitting.hpp"
#include "common/interrupt.hpp"
#include "io/crowd_input.hpp"
#include "io/label_file.hpp"
#include "io/output.hpp"

namespace cli {

std::string convert_help() {
    return std::string(
               "Usage: crowdspec convert [options] IN OUT\n"
               "\n"
               "Write the crowd labels of IN (any file fit reads: CSV, TSV, whitespace, a\n"
               "platform export, or a binary label file) as a binary label file OUT: a header\n"
               "(magic bytes, format version, counts, checksums), the class, item and worker\n"
               "dictionaries, then one 4-byte code per label, item by item (docs/binary-format.md).\n"
               "fit, evaluate, predict and report recognise OUT by its first bytes and read it\n"
               "memory-mapped: no parsing, and a fit keeps about 4 bytes per label in memory.\n"
               "Ids, labels and classes are mapped exactly as fit maps IN (see below), and each\n"
               "item's labels keep their order in IN, so fitting OUT gives the same labels and\n"
               "posteriors as fitting IN, bit for bit. Repeated labels (a worker labelling an\n"
               "item twice) are kept; --duplicates applies when OUT is fitted. An in-file gold\n"
               "column is not stored: give it to fit with --gold. convert itself reads IN whole\n"
               "before writing: it holds the labels as fit reading IN would (about 20-30 bytes\n"
               "per label: 0.3 GB for 10^7 labels, 2.1 GB for 10^8), once, to make the file every\n"
               "later fit maps at 4 bytes per label.\n"
               "\n"
               "Options:\n"
               "      --classes K|A,B,..  the classes, as for fit (stored in OUT)\n"
               "  -q, --quiet             no summary on stderr\n"
               "  -h, --help              show this help\n"
               "OUT is written atomically (OUT.tmp.<pid>, then renamed); IN may be - (stdin),\n"
               "OUT must be a file.\n\n") +
           kInputHelp + "\n" + kMappingHelp + "\n" + kExitCodesHelp;
}

int run_convert(const std::vector<std::string> &args, std::size_t first) {
    std::vector<OptionSpec> specs = input_option_specs();
    specs.push_back({"classes", true, '\0'});
    specs.push_back({"quiet", false, 'q'});
    const std::optional<ParsedArgs> maybe_parsed = parse_command("convert", args, first, specs, convert_help);
    if (!maybe_parsed) return kExitOk;
    const ParsedArgs &parsed = *maybe_parsed;
    if (parsed.positionals.size() != 2)
        throw CliError(kExitUsage, "convert: expected IN and OUT (see 'crowdspec convert --help'), got " +
                                       std::to_string(parsed.positionals.size()) + " file names");
    const std::string &in = parsed.positionals[0], &out = parsed.positionals[1];
    if (out == "-") throw CliError(kExitUsage, "convert: OUT must be a file (a binary label file is not for a terminal)");
    if (in == out) throw CliError(kExitUsage, "convert: IN and OUT are the same file '" + in + "'");
    const InterruptGuard interrupt_guard;
    const InputOptions input = input_options_from(parsed);
    ClassSpec classes;
    if (auto c = parsed.last("classes")) classes = parse_class_spec(*c);
    const bool quiet = parsed.has("quiet");

    const CrowdTable table = is_binary_label_file(in) ? read_binary_crowd_file(in, classes)
                                                      : read_crowd_file(in, classes, input);
    if (!quiet) {
        const std::string note = crowd_read_note(table);
        if (!note.empty()) std::fprintf(stderr, "crowdspec: note: %s\n", escape_controls(note).c_str());
        if (!table.file_gold.entries.empty())
            std::fprintf(stderr, "crowdspec: note: the %zu gold labels of %s are not stored in %s; give them to fit "
                                 "with --gold\n",
                         table.file_gold.entries.size(), escape_controls(table.file_gold.source).c_str(),
                         escape_controls(out).c_str());
    }
    throw_if_interrupted();
    const std::size_t n_labels =
        table.binary ? static_cast<std::size_t>(table.binary->n_labels()) : table.item.size();
    const uint64_t bytes = write_binary_labels(out, table);
    if (!quiet)
        std::fprintf(stderr,
                     "crowdspec: wrote %s: %zu labels, %zu items, %zu workers, %zu classes, %llu bytes (%.2f bytes "
                     "per label)\n",
                     escape_controls(out).c_str(), n_labels,
                     table.binary ? static_cast<std::size_t>(table.binary->n_items()) : table.item_names.size(),
                     table.worker_names.size(), table.class_names.size(), static_cast<unsigned long long>(bytes),
                     static_cast<double>(bytes) / static_cast<double>(n_labels));
    return kExitOk;
}

}  // namespace cli

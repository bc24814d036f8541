// SPDX-License-Identifier: MIT
// `crowdspec`: the command-line program. main() dispatches to a command and is the one
// place where errors become a message on stderr and an exit code; nothing thrown
// inside ever escapes it.
#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "common/errors.hpp"
#include "cli/address_limit.hpp"
#include "cli/commands.hpp"
#include "cli/commands_clustering.hpp"
#include "crowdspec/crowdspec.h"
#include "fitting/fitting.hpp"
#include "io/output.hpp"

namespace {

// The commands: one line each. The help, `help CMD` and the dispatch all read this.
struct Command {
    const char *name;
    int (*run)(const std::vector<std::string> &args, std::size_t first);
    std::string (*help)();
    const char *summary;
};

const Command kCommands[] = {
    {"fit", cli::run_fit, cli::fit_help, "infer labels: crowd labels in (CSV/TSV/text), labels + posteriors out"},
    {"predict", cli::run_predict, cli::predict_help, "label a new batch with the workers of a fit (-w file), no refit"},
    {"update", cli::run_update, cli::update_help, "add a batch of labels to a saved model and refit incrementally"},
    {"evaluate", cli::run_evaluate, cli::evaluate_help, "fit and score against a truth file; one JSON line per method"},
    {"simulate", cli::run_simulate, cli::simulate_help, "generate Dawid-Skene crowd labels with known truth"},
    {"report", cli::run_report, cli::report_help, "fit and write a self-contained HTML report with charts"},
    {"demo", cli::run_demo, cli::demo_help, "simulate a crowd and compare mv, ds, opt-ds and auto to the oracle"},
    {"convert", cli::run_convert, cli::convert_help, "write crowd labels as a binary label file (memory-mapped by fit)"},
    {"cluster", cli::run_cluster, cli::cluster_help, "cluster numeric points into K clusters (lloyd, kmeans++)"},
    {"communities", cli::run_communities, cli::communities_help, "find K communities of a graph (commu-lloyd, spec, spec-mle)"},
    {"rank", cli::run_rank, cli::rank_help, "rank items from pairwise comparisons (bt, noisy-bt, crowd-bt)"},
};

const Command *find_command(const std::string &name) {
    for (const Command &c : kCommands)
        if (name == c.name) return &c;
    return nullptr;
}

std::string command_names() {
    std::string names;
    for (const Command &c : kCommands) names += std::string(names.empty() ? "" : ", ") + c.name;
    return names;
}

// The top-level help: commands, the mapping rules and the exit codes.
std::string main_help() {
    std::string text =
        "Usage: crowdspec COMMAND [options] [FILE]\n"
        "       crowdspec --help | --version\n"
        "\n"
        "Recover true labels from noisy crowd labels (Dawid-Skene model; spectral\n"
        "initialisation + EM).\n"
        "\n"
        "Commands:\n";
    for (const Command &c : kCommands) {
        char line[200];
        std::snprintf(line, sizeof line, "  %-11s %s\n", c.name, c.summary);
        text += line;
    }
    text +=
        "  help CMD    show the help of a command (same as crowdspec CMD --help)\n"
        "\n"
        "Examples:\n"
        "  crowdspec fit --output labels.csv --workers workers.json answers.csv\n"
        "  crowdspec predict --workers workers.json new_batch.csv\n"
        "  crowdspec fit --save model.csm labels.csv -o labels_out.csv\n"
        "  crowdspec update --model model.csm new_batch.csv --output labels_out.csv\n"
        "  crowdspec fit --item-col task --worker-col annotator --label-col answer export.tsv\n"
        "  crowdspec evaluate --method all --truth truth.txt crowd.txt\n"
        "  crowdspec simulate --items 1000 --workers 50 --labels crowd.csv --truth truth.csv\n"
        "  crowdspec report --output report.html crowd.csv\n"
        "  crowdspec demo --seed 7\n"
        "  crowdspec cluster --k 10 --truth truth.txt points.csv\n"
        "  crowdspec communities --k 2 edges.txt\n"
        "  crowdspec rank --method crowd-bt --workers workers.csv comparisons.csv\n"
        "\n"
        "Methods: ";
    text += cli::known_methods_text() + " (default auto).\n\n";
    text += std::string(cli::kMappingHelp) + "\n" + cli::kExitCodesHelp +
            "\nSee also the manual page crowdspec(1).\n";
    return text;
}

// Runs the command named by args[1]; any CliError propagates to main().
int dispatch(const std::vector<std::string> &args) {
    if (args.size() < 2) {
        std::fprintf(stderr, "Usage: crowdspec COMMAND [options] [FILE]   (commands: %s; see 'crowdspec --help')\n",
                     command_names().c_str());
        return cli::kExitUsage;
    }
    const std::string &command = args[1];
    if (command == "--help" || command == "-h") {
        cli::write_stdout(main_help());
        return cli::kExitOk;
    }
    if (command == "--version" || command == "-V") {
        cli::write_stdout(std::string("crowdspec ") + cs_version_string() + "\n");
        return cli::kExitOk;
    }
    if (const Command *c = find_command(command)) return c->run(args, 2);
    if (command == "help") {
        if (args.size() < 3) {
            cli::write_stdout(main_help());
            return cli::kExitOk;
        }
        const Command *c = find_command(args[2]);
        if (c == nullptr)
            throw cli::CliError(cli::kExitUsage, "help: unknown command '" + args[2] + "' (commands: " + command_names() + ")");
        cli::write_stdout(c->help());
        return cli::kExitOk;
    }
    if (!command.empty() && command[0] == '-')
        throw cli::CliError(cli::kExitUsage, "unknown option '" + command + "' (see 'crowdspec --help')");
    throw cli::CliError(cli::kExitUsage,
                        "unknown command '" + command + "' (commands: " + command_names() + "; see 'crowdspec --help')");
}

// Every path ends in finish_process(), which under `ulimit -v` ends the process without
// waiting for OpenBLAS's threads (cli/address_limit.hpp).
int run_main(int argc, char **argv) {
    try {
        const std::vector<std::string> args(argv, argv + argc);
        return dispatch(args);
    } catch (const cli::CliError &e) {
        // One line, whatever a message quotes (a file name with a line break).
        std::fprintf(stderr, "crowdspec: %s\n", cli::escape_controls(e.what()).c_str());
        return e.exit_code();
    } catch (const std::bad_alloc &) {
        // The readers report their own out-of-memory as an input error (exit 2); one
        // that reaches here came from the fit's results or an output: the fit's class.
        std::fputs("crowdspec: out of memory [CS_ERR_OUT_OF_MEMORY]\n", stderr);
        return cli::kExitFit;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "crowdspec: unexpected error: %s\n", e.what());
        return cli::kExitFit;
    } catch (...) {
        std::fputs("crowdspec: unexpected error\n", stderr);
        return cli::kExitFit;
    }
}

}  // namespace

int main(int argc, char **argv) { return cli::finish_process(run_main(argc, argv)); }

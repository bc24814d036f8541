// `crowdspec`: the command-line program. main() dispatches to a command and is the one
// place where errors become a message on stderr and an exit code; nothing thrown
// inside ever escapes it.
#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "cli.hpp"
#include "commands.hpp"
#include "commands_clustering.hpp"
#include "crowdspec/crowdspec.h"
#include "fitting.hpp"
#include "output.hpp"

namespace {

// The top-level help: commands, the mapping rules and the exit codes.
std::string main_help() {
    return std::string(
               "Usage: crowdspec COMMAND [options] [FILE]\n"
               "       crowdspec --help | --version\n"
               "\n"
               "Recover true labels from noisy crowd labels (Dawid-Skene model; spectral\n"
               "initialisation + EM).\n"
               "\n"
               "Commands:\n"
               "  fit       infer labels: FILE of `item worker label` lines in, CSV out\n"
               "  evaluate  fit and score against a truth file; one JSON line per method\n"
               "  demo      simulate a crowd and compare mv, ds and opt-ds to the oracle\n"
               "  cluster   cluster numeric points into K clusters (lloyd, kmeans++)\n"
               "  communities  find K communities of a graph (commu-lloyd, spec, spec-mle)\n"
               "  help CMD  show the help of a command (same as crowdspec CMD --help)\n"
               "\n"
               "Examples:\n"
               "  crowdspec fit labels.csv -o labels_out.csv\n"
               "  crowdspec evaluate --method all --truth truth.txt crowd.txt\n"
               "  crowdspec demo --seed 7\n"
               "\n"
               "Methods: ") +
           cli::known_methods_text() + " (default opt-ds).\n\n" + cli::kMappingHelp + "\n" + cli::kExitCodesHelp;
}

// Runs the command named by args[1]; any CliError propagates to main().
int dispatch(const std::vector<std::string> &args) {
    if (args.size() < 2) {
        std::fputs("Usage: crowdspec COMMAND [options] [FILE]   (commands: fit, evaluate, demo; "
                   "see 'crowdspec --help')\n",
                   stderr);
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
    if (command == "fit") return cli::run_fit(args, 2);
    if (command == "evaluate") return cli::run_evaluate(args, 2);
    if (command == "demo") return cli::run_demo(args, 2);
    if (command == "cluster") return cli::run_cluster(args, 2);
    if (command == "communities") return cli::run_communities(args, 2);
    if (command == "help") {
        if (args.size() < 3) {
            cli::write_stdout(main_help());
            return cli::kExitOk;
        }
        const std::string &topic = args[2];
        if (topic == "fit") cli::write_stdout(cli::fit_help());
        else if (topic == "evaluate") cli::write_stdout(cli::evaluate_help());
        else if (topic == "demo") cli::write_stdout(cli::demo_help());
        else if (topic == "cluster") cli::write_stdout(cli::cluster_help());
        else if (topic == "communities") cli::write_stdout(cli::communities_help());
        else throw cli::CliError(cli::kExitUsage, "help: unknown command '" + topic + "' (commands: fit, evaluate, demo)");
        return cli::kExitOk;
    }
    if (!command.empty() && command[0] == '-')
        throw cli::CliError(cli::kExitUsage, "unknown option '" + command + "' (see 'crowdspec --help')");
    throw cli::CliError(cli::kExitUsage, "unknown command '" + command + "' (commands: fit, evaluate, demo; see 'crowdspec --help')");
}

}  // namespace

int main(int argc, char **argv) {
    try {
        const std::vector<std::string> args(argv, argv + argc);
        return dispatch(args);
    } catch (const cli::CliError &e) {
        std::fprintf(stderr, "crowdspec: %s\n", e.what());
        return e.exit_code();
    } catch (const std::bad_alloc &) {
        std::fputs("crowdspec: out of memory\n", stderr);
        return cli::kExitInput;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "crowdspec: unexpected error: %s\n", e.what());
        return cli::kExitFit;
    } catch (...) {
        std::fputs("crowdspec: unexpected error\n", stderr);
        return cli::kExitFit;
    }
}

// SPDX-License-Identifier: MIT
// `crowdspec communities`: find the communities of a graph given as an edge list with
// the library's graph methods (commu-lloyd, spec, spec-mle), printing `node community`
// lines, or with --truth one JSON line scored by the mis-clustering rate (minimum over
// label permutations, Hungarian algorithm).
#include <chrono>
#include <cstdio>

#include "common/options.hpp"
#include "cli/clustering_run.hpp"
#include "io/label_file.hpp"
#include "cli/commands_clustering.hpp"
#include "fitting/fitting.hpp"
#include "io/output.hpp"
#include "sim/scoring.hpp"

namespace cli {

namespace {

const std::vector<std::pair<std::string, std::string>> kGraphParams = {
    {"k", "classes"},     {"seed", "seed"}, {"max-iter", "max_iter"},
    {"threads", "threads"}, {"n-init", "n_init"}, {"trim", "trim"}};

}  // namespace

std::string communities_help() {
    return std::string(
               "Usage: crowdspec communities --k K [options] EDGES\n"
               "\n"
               "Find K communities in the undirected graph of EDGES: one edge `u v` per line,\n"
               "node ids any strings (fields separated by blanks and/or commas, \"quoted\" if\n"
               "needed; blank lines and lines starting with # are skipped; a first line naming\n"
               "source/target, from/to, u/v, src/dst or node1/node2 is a header). An edge given\n"
               "twice (in either direction) counts once and self-loops are ignored. Nodes are\n"
               "numbered in ascending numeric order when every id is an integer, else in order of\n"
               "first appearance; only nodes that appear in an edge exist. Without --truth, prints\n"
               "`node community` lines (community 0..K-1) in that order. With --truth, prints one\n"
               "JSON line instead:\n"
               "  {\"method\":\"commu-lloyd\",\"error_rate\":0.0368,\"scored\":100000,\"iterations\":10,\n"
               "   \"converged\":false,\"seconds\":0.70,\"nodes\":100000,\"edge_lines\":999865,\"k\":5,\n"
               "   \"within\":0.000523,\"between\":0.000119,\"notes\":[\"label_cycle\"]}\n"
               "error_rate = the mis-clustering rate (best one-to-one matching of communities to\n"
               "truth labels, Hungarian algorithm); within / between = edge densities inside and\n"
               "across the found communities; edge_lines = edges read (repeats included);\n"
               "seconds = wall time of the fit alone.\n"
               "\n"
               "Methods:\n"
               "  commu-lloyd  (default) spectral initialisation on the trimmed adjacency, then\n"
               "               CommuLloyd iterations (Lu and Zhou)\n"
               "  spec         the spectral initialisation alone\n"
               "  spec-mle     the spectral initialisation and one likelihood step (Gao et al.)\n"
               "\n"
               "Options:\n"
               "  -k, --k K             number of communities (required, 2..number of nodes)\n"
               "  -m, --method NAME     commu-lloyd, spec or spec-mle\n"
               "  -t, --truth FILE      lines `node label` (node ids as in EDGES); nodes without\n"
               "                        truth are not scored\n"
               "  -o, --output FILE     write the `node community` lines to FILE (atomically)\n"
               "      --trim X          trim nodes of degree > X x the average degree from the\n"
               "                        spectral initialisation; 0 = none (default 3)\n"
               "      --seed N          seed of every random choice (default 0)\n"
               "      --max-iter N      maximum CommuLloyd iterations (default 1000)\n"
               "      --n-init N        k-means++ restarts in the spectral initialisation (default 1)\n"
               "      --threads N       threads used inside the fit; 0 = automatic (default)\n"
               "  -h, --help            show this help\n\n") +
           kExitCodesHelp;
}

int run_communities(const std::vector<std::string> &args, std::size_t first) {
    const std::vector<OptionSpec> specs = {{"k", true, 'k'},        {"method", true, 'm'}, {"truth", true, 't'},
                                           {"output", true, 'o'},   {"seed", true, '\0'},  {"max-iter", true, '\0'},
                                           {"threads", true, '\0'}, {"n-init", true, '\0'}, {"trim", true, '\0'}};
    std::optional<ClusteringRun> run = start_clustering("communities", "EDGES", "commu-lloyd", CS_INPUT_GRAPH,
                                                        specs, kGraphParams, communities_help(), args, first);
    if (!run) return kExitOk;  // --help

    const EdgeTable edges = read_edges_file(run->parsed.positionals[0]);
    const std::size_t n = edges.node_names.size();
    cs_model *model = run->model.get();
    const auto start = std::chrono::steady_clock::now();
    const cs_status status = cs_fit_graph(model, n, edges.u.data(), edges.v.data(), edges.u.size());
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (status != CS_OK)
        throw CliError(kExitFit, run->method + ": " + cs_last_error(model) + " [" + cs_status_string(status) + "]");
    report_fit_notes(model, run->method);
    const std::vector<int32_t> labels = fitted_labels(model, n);

    if (!run->truth_path) {
        write_clustering_labels(*run, n, [&](std::string &text, std::size_t i) {
            append_csv_field(text, edges.node_names[i]);
            text += " " + std::to_string(labels[i]) + "\n";
        });
        return kExitOk;
    }
    const TruthTable truth = read_truth_file(*run->truth_path);
    std::string line = clustering_json(*run, labels, match_node_truth(truth, edges), seconds);
    double within = 0.0, between = 0.0;
    check_status(model, cs_graph_densities(model, &within, &between), "reading the densities");
    line += ",\"nodes\":" + std::to_string(n) + ",\"edge_lines\":" + std::to_string(edges.u.size());
    line += ",\"within\":";
    append_number(line, "%.6g", within);
    line += ",\"between\":";
    append_number(line, "%.6g", between);
    finish_clustering_json(*run, line);
    return kExitOk;
}

}  // namespace cli

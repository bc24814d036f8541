// `crowdspec communities`: find the communities of a graph given as an edge list with
// the library's graph methods (commu-lloyd, spec, spec-mle), printing `node community`
// lines, or with --truth one JSON line scored by the mis-clustering rate (minimum over
// label permutations, Hungarian algorithm).
#include <chrono>
#include <cstdio>

#include "cli.hpp"
#include "cluster_io.hpp"
#include "commands_clustering.hpp"
#include "fitting.hpp"
#include "output.hpp"
#include "sim/scoring.hpp"

namespace cli {

namespace {

const std::pair<const char *, const char *> kGraphParams[] = {
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
               "      --threads N       threads used inside the fit; 0 = all cores (default)\n"
               "  -h, --help            show this help\n\n") +
           kExitCodesHelp;
}

int run_communities(const std::vector<std::string> &args, std::size_t first) {
    const std::vector<OptionSpec> specs = {{"k", true, 'k'},        {"method", true, 'm'}, {"truth", true, 't'},
                                           {"output", true, 'o'},   {"seed", true, '\0'},  {"max-iter", true, '\0'},
                                           {"threads", true, '\0'}, {"n-init", true, '\0'}, {"trim", true, '\0'}};
    const ParsedArgs parsed = parse_args("communities", args, first, specs);
    if (parsed.help) {
        write_stdout(communities_help());
        return kExitOk;
    }
    if (parsed.positionals.size() != 1)
        throw CliError(kExitUsage, parsed.positionals.empty()
                                       ? "communities: missing the EDGES file (see 'crowdspec communities --help')"
                                       : "communities: expected one EDGES file, got " +
                                             std::to_string(parsed.positionals.size()));
    if (!parsed.has("k")) throw CliError(kExitUsage, "communities: --k K is required");
    const std::string method = parsed.last("method").value_or("commu-lloyd");
    const std::optional<std::string> truth_path = parsed.last("truth");
    if (truth_path && *truth_path == "-" && parsed.positionals[0] == "-")
        throw CliError(kExitUsage, "communities: EDGES and --truth cannot both be standard input");
    if (truth_path && parsed.has("output"))
        throw CliError(kExitUsage, "communities: --output writes labels; with --truth the result is the JSON line");

    const int32_t id = method_of_kind("communities", method, CS_INPUT_GRAPH);
    FitSettings settings;
    for (const auto &[option, value] : parsed.options)
        for (const auto &[opt, name] : kGraphParams)
            if (option == opt) settings.params.push_back({"--" + option, name, value});
    ModelPtr model = make_model(id, settings);

    const EdgeTable edges = read_edges_file(parsed.positionals[0]);
    const std::size_t n = edges.node_names.size();
    const auto start = std::chrono::steady_clock::now();
    const cs_status status = cs_fit_graph(model.get(), n, edges.u.data(), edges.v.data(), edges.u.size());
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (status != CS_OK)
        throw CliError(kExitFit, method + ": " + cs_last_error(model.get()) + " [" + cs_status_string(status) + "]");
    report_fit_notes(model.get(), method);
    const std::vector<int32_t> labels = fitted_labels(model.get(), n);

    if (!truth_path) {
        std::string text;
        for (std::size_t i = 0; i < n; ++i) {
            append_csv_field(text, edges.node_names[i]);
            text += " " + std::to_string(labels[i]) + "\n";
        }
        OutputFile out(parsed.last("output").value_or(""));
        out.write(text);
        out.commit();
        return kExitOk;
    }
    const TruthTable truth = read_truth_file(*truth_path);
    const TruthClasses classes = match_node_truth(truth, edges);
    std::size_t k = 0;
    int32_t iterations = 0, converged = 0, notes = 0;
    double within = 0.0, between = 0.0;
    check_status(model.get(), cs_n_classes(model.get(), &k), "reading k");
    check_status(model.get(), cs_iterations(model.get(), &iterations), "reading the iterations");
    check_status(model.get(), cs_converged(model.get(), &converged), "reading the converged flag");
    check_status(model.get(), cs_fit_notes(model.get(), &notes), "reading the fit notes");
    check_status(model.get(), cs_graph_densities(model.get(), &within, &between), "reading the densities");
    const cs::sim::Misclustering score = cs::sim::misclustering_rate(
        labels.data(), classes.label.data(), labels.size(), static_cast<int32_t>(k), classes.classes);

    std::string line = "{\"method\":";
    append_json_string(line, method);
    line += ",\"error_rate\":";
    append_number(line, "%.6f", score.rate);
    line += ",\"scored\":" + std::to_string(score.scored);
    line += ",\"iterations\":" + std::to_string(iterations);
    line += converged ? ",\"converged\":true" : ",\"converged\":false";
    line += ",\"seconds\":";
    append_number(line, "%.6f", seconds);
    line += ",\"nodes\":" + std::to_string(n) + ",\"edge_lines\":" + std::to_string(edges.u.size()) +
            ",\"k\":" + std::to_string(k);
    line += ",\"within\":";
    append_number(line, "%.6g", within);
    line += ",\"between\":";
    append_number(line, "%.6g", between);
    append_notes(line, notes);
    line += "}\n";
    write_stdout(line);
    return kExitOk;
}

}  // namespace cli

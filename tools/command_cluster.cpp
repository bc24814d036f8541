// `crowdspec cluster`: cluster the points of a numeric file with the library's points
// methods (lloyd: spectral initialisation + Lloyd; kmeans++), printing one label per
// row, or with --truth one JSON line scored by the mis-clustering rate (minimum over
// label permutations, Hungarian algorithm).
#include <chrono>
#include <cmath>
#include <cstdio>

#include "cli.hpp"
#include "cluster_io.hpp"
#include "commands_clustering.hpp"
#include "fitting.hpp"
#include "output.hpp"
#include "sim/scoring.hpp"

namespace cli {

namespace {

// Options that map one-to-one onto a library parameter.
const std::pair<const char *, const char *> kClusterParams[] = {
    {"k", "classes"}, {"seed", "seed"}, {"max-iter", "max_iter"}, {"threads", "threads"}, {"n-init", "n_init"}};

// The file line of the first coordinate the library refuses (NaN, Inf, |x| > 1e100).
std::string locate_non_finite(const PointTable &points) {
    for (std::size_t i = 0; i < points.n; ++i)
        for (std::size_t j = 0; j < points.d; ++j) {
            const double v = points.x[i * points.d + j];
            if (!(std::fabs(v) <= 1e100))
                return points.source + ":" + std::to_string(points.line[i]) + ": field " + std::to_string(j + 1) +
                       " is " + (std::isnan(v) ? "NaN" : std::isinf(v) ? "infinite" : "larger than 1e100 in magnitude") +
                       "; points must be finite";
        }
    return std::string();
}

}  // namespace

std::string cluster_help() {
    return std::string(
               "Usage: crowdspec cluster --k K [options] POINTS\n"
               "\n"
               "Cluster the rows of POINTS (numbers separated by blanks and/or commas, one point\n"
               "per line; a first row that is not all numbers is a header; blank lines and lines\n"
               "starting with # are skipped) into K clusters. Without --truth, prints the cluster\n"
               "(0..K-1) of each row, one per line, in file order. With --truth, prints one JSON\n"
               "line instead:\n"
               "  {\"method\":\"lloyd\",\"error_rate\":0.0213,\"scored\":10000,\"iterations\":3,\n"
               "   \"converged\":true,\"seconds\":0.012,\"n\":10000,\"d\":50,\"k\":5,\"notes\":[]}\n"
               "error_rate = the mis-clustering rate: the fraction of scored rows whose cluster,\n"
               "under the best one-to-one matching of clusters to truth labels (Hungarian\n"
               "algorithm), differs from the truth; seconds = wall time of the fit alone.\n"
               "\n"
               "Methods:\n"
               "  lloyd     (default) spectral initialisation -- projection onto the top-K right\n"
               "            singular subspace, k-means++ and Lloyd there -- then Lloyd on the\n"
               "            points until no label changes (Lu and Zhou)\n"
               "  kmeans++  k-means++ seeding and Lloyd on the points (--n-init restarts)\n"
               "\n"
               "Options:\n"
               "  -k, --k K             number of clusters (required, 2..number of rows)\n"
               "  -m, --method NAME     lloyd or kmeans++\n"
               "  -t, --truth FILE      lines `id label`, id = 1-based row number of POINTS; labels\n"
               "                        any strings; rows without truth are not scored\n"
               "  -o, --output FILE     write the labels to FILE (atomically) instead of stdout\n"
               "      --seed N          seed of every random choice (default 0)\n"
               "      --max-iter N      maximum Lloyd iterations (default 1000)\n"
               "      --n-init N        k-means++ restarts (default 1)\n"
               "      --threads N       threads used inside the fit; 0 = all cores (default)\n"
               "  -h, --help            show this help\n\n") +
           kExitCodesHelp;
}

int run_cluster(const std::vector<std::string> &args, std::size_t first) {
    const std::vector<OptionSpec> specs = {{"k", true, 'k'},       {"method", true, 'm'},  {"truth", true, 't'},
                                           {"output", true, 'o'},  {"seed", true, '\0'},   {"max-iter", true, '\0'},
                                           {"n-init", true, '\0'}, {"threads", true, '\0'}};
    const ParsedArgs parsed = parse_args("cluster", args, first, specs);
    if (parsed.help) {
        write_stdout(cluster_help());
        return kExitOk;
    }
    if (parsed.positionals.size() != 1)
        throw CliError(kExitUsage, parsed.positionals.empty()
                                       ? "cluster: missing the POINTS file (see 'crowdspec cluster --help')"
                                       : "cluster: expected one POINTS file, got " +
                                             std::to_string(parsed.positionals.size()));
    if (!parsed.has("k")) throw CliError(kExitUsage, "cluster: --k K is required");
    const std::string method = parsed.last("method").value_or("lloyd");
    const std::optional<std::string> truth_path = parsed.last("truth");
    if (truth_path && *truth_path == "-" && parsed.positionals[0] == "-")
        throw CliError(kExitUsage, "cluster: POINTS and --truth cannot both be standard input");
    if (truth_path && parsed.has("output"))
        throw CliError(kExitUsage, "cluster: --output writes labels; with --truth the result is the JSON line");

    // Configure the handle first: bad options fail before the file is read.
    const int32_t id = method_of_kind("cluster", method, CS_INPUT_POINTS);
    FitSettings settings;
    for (const auto &[option, value] : parsed.options)
        for (const auto &[opt, name] : kClusterParams)
            if (option == opt) settings.params.push_back({"--" + option, name, value});
    ModelPtr model = make_model(id, settings);

    const PointTable points = read_points_file(parsed.positionals[0]);
    const auto start = std::chrono::steady_clock::now();
    const cs_status status = cs_fit_points(model.get(), points.x.data(), points.n, points.d, 0);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (status != CS_OK) {
        std::string message = cs_last_error(model.get());
        if (status == CS_ERR_NON_FINITE) message = locate_non_finite(points);
        throw CliError(kExitFit, method + ": " + message + " [" + cs_status_string(status) + "]");
    }
    report_fit_notes(model.get(), method);
    const std::vector<int32_t> labels = fitted_labels(model.get(), points.n);

    if (!truth_path) {
        std::string text;
        text.reserve(points.n * 3);
        for (int32_t l : labels) text += std::to_string(l) + "\n";
        OutputFile out(parsed.last("output").value_or(""));
        out.write(text);
        out.commit();
        return kExitOk;
    }
    const TruthTable truth = read_truth_file(*truth_path);
    const TruthClasses classes = match_row_truth(truth, points.n, points.source);
    std::size_t k = 0;
    int32_t iterations = 0, converged = 0, notes = 0;
    check_status(model.get(), cs_n_classes(model.get(), &k), "reading k");
    check_status(model.get(), cs_iterations(model.get(), &iterations), "reading the iterations");
    check_status(model.get(), cs_converged(model.get(), &converged), "reading the converged flag");
    check_status(model.get(), cs_fit_notes(model.get(), &notes), "reading the fit notes");
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
    line += ",\"n\":" + std::to_string(points.n) + ",\"d\":" + std::to_string(points.d) + ",\"k\":" + std::to_string(k);
    append_notes(line, notes);
    line += "}\n";
    write_stdout(line);
    return kExitOk;
}

}  // namespace cli

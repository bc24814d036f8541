// SPDX-License-Identifier: MIT
// `crowdspec cluster`: cluster the points of a numeric file with the library's points
// methods (lloyd: spectral initialisation + Lloyd; kmeans++), printing one label per
// row, or with --truth one JSON line scored by the mis-clustering rate (minimum over
// label permutations, Hungarian algorithm).
#include <chrono>
#include <cmath>
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

// Options that map one-to-one onto a library parameter.
const std::vector<std::pair<std::string, std::string>> kClusterParams = {
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
               "per line; a first row that is not all numbers is a header, with a note when some\n"
               "of its fields are numbers; blank lines and lines starting with # are skipped)\n"
               "into K clusters. Without --truth, prints the cluster (0..K-1) of each row, one per\n"
               "line, in file order. With --truth, prints one JSON line instead:\n"
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
               "      --threads N       threads used inside the fit; 0 = automatic (default)\n"
               "  -h, --help            show this help\n\n") +
           kExitCodesHelp;
}

int run_cluster(const std::vector<std::string> &args, std::size_t first) {
    const std::vector<OptionSpec> specs = {{"k", true, 'k'},       {"method", true, 'm'},  {"truth", true, 't'},
                                           {"output", true, 'o'},  {"seed", true, '\0'},   {"max-iter", true, '\0'},
                                           {"n-init", true, '\0'}, {"threads", true, '\0'}};
    std::optional<ClusteringRun> run = start_clustering("cluster", "POINTS", "lloyd", CS_INPUT_POINTS, specs,
                                                        kClusterParams, cluster_help(), args, first);
    if (!run) return kExitOk;  // --help

    const PointTable points = read_points_file(run->parsed.positionals[0]);
    if (!points.header_note.empty())
        std::fprintf(stderr, "crowdspec: note: %s\n", escape_controls(points.header_note).c_str());
    cs_model *model = run->model.get();
    const auto start = std::chrono::steady_clock::now();
    const cs_status status = cs_fit_points(model, points.x.data(), points.n, points.d, 0);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (status != CS_OK) {
        std::string message = cs_last_error(model);
        if (status == CS_ERR_NON_FINITE) message = locate_non_finite(points);
        throw CliError(kExitFit, run->method + ": " + message + " [" + cs_status_string(status) + "]");
    }
    report_fit_notes(model, run->method);
    const std::vector<int32_t> labels = fitted_labels(model, points.n);

    if (!run->truth_path) {
        write_clustering_labels(*run, points.n,
                                [&](std::string &text, std::size_t i) { text += std::to_string(labels[i]) + "\n"; });
        return kExitOk;
    }
    const TruthTable truth = read_truth_file(*run->truth_path);
    std::string line = clustering_json(*run, labels, match_row_truth(truth, points.n, points.source), seconds);
    line += ",\"n\":" + std::to_string(points.n) + ",\"d\":" + std::to_string(points.d);
    finish_clustering_json(*run, line);
    return kExitOk;
}

}  // namespace cli

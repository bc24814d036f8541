// SPDX-License-Identifier: MIT
// crowdspec-mpi: `crowdspec fit` across the processes of an MPI job.
//
//   mpiexec -n 4 crowdspec-mpi fit --output labels.csv --workers workers.json crowd.csv
//
// Every process reads a part of the one input file (mpi_input.hpp), the labels meet on
// the process that holds their item, cs_fit_mpi fits them, and process 0 writes the
// outputs: the same files as `crowdspec fit` (item rows grouped by process instead of
// in the file's order of items), written atomically the same way.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/options.hpp"
#include "crowdspec/crowdspec_mpi.h"
#include "fitting/fitting.hpp"
#include "common/interrupt.hpp"
#include "io/label_file.hpp"
#include "mpi_input.hpp"
#include "mpi_world.hpp"
#include "io/output.hpp"
#include "io/result_writers.hpp"

namespace cli {
namespace {

std::string fit_help() {
    return std::string(
               "Usage: mpiexec -n N crowdspec-mpi fit [options] FILE\n"
               "\n"
               "crowdspec fit across the N processes of an MPI job: every process reads a part\n"
               "of FILE (a regular file, cut at line ends), the labels go to the process that\n"
               "holds their item (by a hash of the item id), and one fit runs over all of them\n"
               "(cs_fit_mpi: each EM round sums the workers' count tables over the processes).\n"
               "The result is the fit of the whole file: the same as `crowdspec fit` up to\n"
               "rounding (posteriors within 1e-10), with the same iterations and labels.\n"
               "Process 0 writes the outputs, in the formats of `crowdspec fit`; the item rows\n"
               "come grouped by process, not in the file's order.\n"
               "\n"
               "Methods: mv, ds, opt-ds, one-coin-ds, class-one-coin-ds, auto (the default).\n"
               "\n"
               "Options:\n"
               "  -o, --output FILE       write the items to FILE (default: standard output)\n"
               "      --format csv|tsv|json   format of the items (default: by the extension of\n"
               "                          --output, .json or .tsv, else csv)\n"
               "  -w, --workers FILE      also write one row per worker (as crowdspec fit)\n"
               "  -h, --help              show this help\n"
               "A quoted field with a line break inside is not possible here (the file is cut\n"
               "at line ends): crowdspec fit reads such files. Gold (--gold, or the gold column\n"
               "of a platform export) is not available: give --gold-col none to fit such an\n"
               "export without its gold.\n\n") +
           fit_options_help() + "\n" + kInputHelp + "\n" + kMappingHelp + "\n" + kExitCodesHelp;
}

// One row per item of this process, as crowdspec fit writes them (result_writers.cpp);
// rank 0 also writes the header (CSV/TSV) or the opening of the JSON document, the
// last process its end. `first_row`: whether this process's first row is the first of
// the file (JSON separators).
std::string item_rows(ResultFormat format, const mpi::ShardTable &t, const std::vector<int32_t> &labels,
                      const std::vector<double> &q, std::size_t k, const std::string &method, bool header,
                      bool first_row, bool footer) {
    std::string buf;
    if (format == ResultFormat::Json) {
        if (header) buf = nested_items_opening(method, t.class_names);
        for (std::size_t j = 0; j < labels.size(); ++j) {
            buf += first_row && j == 0 ? "\n" : ",\n";
            append_nested_item(buf, t.item_names[j], t.class_names, labels[j], q.data() + j * k);
        }
        if (footer) buf += "\n]}\n";
        return buf;
    }
    const char d = format == ResultFormat::Tsv ? '\t' : ',';
    if (header) {
        buf = "item";
        buf += d;
        buf += "label";
        buf += d;
        buf += "confidence";
        for (const std::string &c : t.class_names) {
            buf.push_back(d);
            append_delimited_field(buf, "p_" + c, d);
        }
        buf.push_back('\n');
    }
    for (std::size_t j = 0; j < labels.size(); ++j) {
        const double *p = q.data() + j * k;
        append_delimited_field(buf, t.item_names[j], d);
        buf.push_back(d);
        append_delimited_field(buf, t.class_names[static_cast<std::size_t>(labels[j])], d);
        buf.push_back(d);
        append_number(buf, "%.10g", *std::max_element(p, p + k));
        for (std::size_t l = 0; l < k; ++l) {
            buf.push_back(d);
            append_number(buf, "%.10g", p[l]);
        }
        buf.push_back('\n');
    }
    return buf;
}

// The first (item, worker) pair repeated on this process, as crowdspec fit names it;
// "" when none.
std::string duplicate_here(const mpi::ShardTable &t) {
    std::unordered_map<uint64_t, std::size_t> first;
    for (std::size_t i = 0; i < t.item.size(); ++i) {
        const uint64_t key = (static_cast<uint64_t>(static_cast<uint32_t>(t.item[i])) << 32) |
                             static_cast<uint32_t>(t.worker[i]);
        auto [it, fresh] = first.emplace(key, i);
        if (!fresh)
            return repeated_label_message(t.source, t.line[i], t.worker_names[static_cast<std::size_t>(t.worker[i])],
                                          t.item_names[static_cast<std::size_t>(t.item[i] - t.first_item)],
                                          t.line[it->second]);
    }
    return std::string();
}

int run_fit(const mpi::World &w, const std::vector<std::string> &args) {
    std::vector<OptionSpec> specs = fit_option_specs();
    for (const OptionSpec &s : input_option_specs()) specs.push_back(s);
    specs.push_back({"output", true, 'o'});
    specs.push_back({"format", true, '\0'});
    specs.push_back({"workers", true, 'w'});
    // Usage: the same on every process (the same command line); checked everywhere.
    ParsedArgs parsed;
    FitSettings settings;
    InputOptions input;
    int32_t method = 0;
    std::string output_path, workers_path;
    ResultFormat item_format = ResultFormat::Csv, worker_format = ResultFormat::Csv;
    bool help = false;
    mpi::run_phase(w, kExitUsage, [&] {
        parsed = parse_args("fit", args, 2, specs);
        if (parsed.help) {
            help = true;
            return;
        }
        if (parsed.positionals.size() != 1)
            throw CliError(kExitUsage, parsed.positionals.empty()
                                           ? "fit: missing the input FILE (see 'crowdspec-mpi fit --help')"
                                           : "fit: expected one input FILE, got " +
                                                 std::to_string(parsed.positionals.size()));
        settings = fit_settings_from(parsed);
        input = input_options_from(parsed);
        if (settings.method == "all") throw CliError(kExitUsage, "fit: --method all is only for 'crowdspec evaluate'");
        method = method_id(settings.method);
        if (!cs_mpi_supports(method))
            throw CliError(kExitUsage, "fit: --method " + settings.method +
                                           " cannot be fitted across processes (mv, ds, opt-ds, one-coin-ds and "
                                           "class-one-coin-ds can; crowdspec fit runs the others)");
        output_path = parsed.last("output").value_or("");
        workers_path = parsed.last("workers").value_or("");
        item_format = result_format(parsed.last("format"), output_path, "--format");
        worker_format = result_format(std::nullopt, workers_path, "--workers");
        if (parsed.has("workers") && (workers_path.empty() || workers_path == "-") &&
            (output_path.empty() || output_path == "-"))
            throw CliError(kExitUsage, "fit: --workers and the items cannot both go to standard output; give --output FILE");
        if (!workers_path.empty() && workers_path == output_path)
            throw CliError(kExitUsage, "fit: --output and --workers name the same file '" + output_path + "'");
    });
    if (help) {
        if (w.rank == 0) write_stdout(fit_help());
        return kExitOk;
    }
    const InterruptGuard interrupt_guard;  // Ctrl-C: stop cleanly, remove temporary files

    // The model (every process) and the outputs (process 0), before the long part.
    ModelPtr model;
    std::optional<OutputFile> out, workers_out;
    mpi::run_phase(w, kExitUsage, [&] {
        model = make_model(method, settings);
        if (w.rank != 0) return;
        out.emplace(output_path);
        if (parsed.has("workers")) workers_out.emplace(workers_path);
    });

    const auto start = std::chrono::steady_clock::now();
    const mpi::ShardTable table = mpi::read_crowd_shards(w, parsed.positionals[0], settings.classes, input);
    const double read_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (w.rank == 0 && !settings.quiet && !table.read_note.empty())
        std::fprintf(stderr, "crowdspec-mpi: note: %s\n", escape_controls(table.read_note).c_str());

    // The fit. Every process's progress callback checks for Ctrl-C; process 0 also
    // shows the progress line on a terminal.
    FitMonitor monitor(w.rank == 0 ? settings.quiet : true);
    monitor.begin(model.get(), settings.method);
    const cs_status status = cs_fit_mpi(model.get(), w.comm, table.item.data(), table.worker.data(),
                                        table.label.data(), table.item.size());
    monitor.end();
    cs_set_progress(model.get(), nullptr, nullptr);
    {
        int interrupted = pending_interrupt();
        MPI_Allreduce(MPI_IN_PLACE, &interrupted, 1, MPI_INT, MPI_MAX, w.comm);
        if (status == CS_ERR_CANCELLED && interrupted != 0) throw_interrupted(interrupted);
    }
    if (status != CS_OK) {
        // Duplicates are a problem of the file: named by file and line, as crowdspec fit does.
        std::string located = status == CS_ERR_DUPLICATE ? duplicate_here(table) : std::string();
        mpi::agree(w, located.empty() ? 0 : kExitFit, located);
        throw CliError(kExitFit, settings.method + ": " + cs_last_error(model.get()) + " [" +
                                     cs_status_string(status) + "]");
    }
    if (w.rank == 0 && !settings.quiet) report_fit_notes(model.get(), settings.method);

    // This process's results.
    std::size_t n = 0, m = 0, k = 0;
    cs_n_items(model.get(), &n);
    cs_n_workers(model.get(), &m);
    cs_n_classes(model.get(), &k);
    std::vector<int32_t> labels(n), ids(n);
    std::vector<double> q(n * k), confusion(m * k * k), prior(k);
    double temperature = 1.0, mixing = 0.0;
    int32_t calibration = CS_CALIBRATION_NONE;
    mpi::run_phase(w, kExitFit, [&] {
        if (n > 0) {  // a process may hold no items
            check_status(model.get(), cs_labels(model.get(), labels.data(), n), "reading the labels");
            check_status(model.get(), cs_posteriors(model.get(), q.data(), q.size()), "reading the posteriors");
            check_status(model.get(), cs_mpi_items(model.get(), ids.data(), n), "reading the items");
        }
        check_status(model.get(), cs_confusion(model.get(), confusion.data(), confusion.size()), "reading the confusion");
        check_status(model.get(), cs_class_prior(model.get(), prior.data(), k), "reading the prior");
        check_status(model.get(), cs_calibration(model.get(), &temperature, &mixing, &calibration),
                     "reading the calibration");
        // The reader numbered this process's items first_item, first_item + 1, ...: the
        // rows come back in that order, which the item names follow.
        for (std::size_t j = 0; j < n; ++j)
            if (ids[j] != table.first_item + static_cast<int64_t>(j) || n != table.item_names.size())
                throw CliError(kExitFit, "internal error: the fit's items are not the reader's");
        if (m != table.worker_names.size() || k != table.class_names.size())
            throw CliError(kExitFit, "internal error: the fit's workers or classes are not the reader's");
    });
    model.reset();

    // Labels per worker over all processes, for the workers file.
    std::vector<uint64_t> given(m, 0);
    for (int32_t worker : table.worker) ++given[static_cast<std::size_t>(worker)];
    mpi::sum(w, given);

    // The items: every process formats its rows, process 0 writes them in process order.
    const uint64_t before = mpi::exclusive_sum(w, n);
    const std::string rows = item_rows(item_format, table, labels, q, k, settings.method, w.rank == 0, before == 0,
                                       w.rank == w.size - 1);
    mpi::run_phase(w, kExitOutput, [&] {
        mpi::gather_to_first(w, rows, [&](const char *data, std::size_t bytes) {
            out->write(std::string_view(data, bytes));
        });
        if (w.rank != 0) return;
        if (workers_out) {
            WorkerReport report;
            report.worker_names = &table.worker_names;
            report.class_names = &table.class_names;
            report.labels.assign(given.begin(), given.end());
            report.confusion = &confusion;
            report.prior = &prior;
            report.method = settings.method;
            report.calibrated = calibration != CS_CALIBRATION_NONE;
            report.temperature = temperature;
            report.mixing = mixing;
            write_worker_results(*workers_out, worker_format, report);
        }
        // Both files are complete before either replaces its destination.
        out->commit();
        if (workers_out) workers_out->commit();
    });
    if (w.rank == 0 && std::getenv("CROWDSPEC_MPI_TIMING") != nullptr)
        std::fprintf(stderr, "crowdspec-mpi: %d processes, read and exchange %.3f s, total %.3f s\n", w.size,
                     read_seconds, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    return kExitOk;
}

std::string main_help() {
    return "Usage: mpiexec -n N crowdspec-mpi fit [options] FILE\n"
           "       crowdspec-mpi --help | --version\n"
           "\n"
           "crowdspec fit across the processes of an MPI job (libcrowdspec_mpi): see\n"
           "'crowdspec-mpi fit --help'. The other commands are crowdspec's.\n";
}

int dispatch(const mpi::World &w, const std::vector<std::string> &args) {
    if (args.size() < 2) {
        if (w.rank == 0) std::fprintf(stderr, "Usage: crowdspec-mpi fit [options] FILE   (see 'crowdspec-mpi --help')\n");
        return kExitUsage;
    }
    const std::string &command = args[1];
    if (command == "--help" || command == "-h" || command == "help") {
        if (w.rank == 0) write_stdout(main_help());
        return kExitOk;
    }
    if (command == "--version" || command == "-V") {
        if (w.rank == 0) write_stdout(std::string("crowdspec-mpi ") + cs_version_string() + "\n");
        return kExitOk;
    }
    if (command == "fit") return run_fit(w, args);
    if (w.rank == 0)
        std::fprintf(stderr, "crowdspec-mpi: unknown command '%s' (crowdspec-mpi has fit only)\n",
                     escape_controls(command).c_str());
    return kExitUsage;
}

}  // namespace
}  // namespace cli

int main(int argc, char **argv) {
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    cli::mpi::World w;
    MPI_Comm_rank(w.comm, &w.rank);
    MPI_Comm_size(w.comm, &w.size);
    int code = 0;
    try {
        std::vector<std::string> args(argv, argv + argc);
        code = cli::dispatch(w, args);
    } catch (const cli::CliError &e) {
        // Every process has the same error (agreed); process 0 says it.
        if (w.rank == 0) std::fprintf(stderr, "crowdspec-mpi: %s\n", cli::escape_controls(e.what()).c_str());
        code = e.exit_code();
    } catch (const std::exception &e) {
        std::fprintf(stderr, "crowdspec-mpi: process %d: internal error: %s\n", w.rank, e.what());
        code = cli::kExitFit;
    }
    MPI_Finalize();
    return code;
}

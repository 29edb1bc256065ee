// warpdiv check CONFIG: every kernel and launch a TOML file lists, counted as `warpdiv analyze`
// counts them, against the file's limits and an optional baseline; findings one per line as
// compilers print them, optionally as SARIF. Exit 0 when every limit holds and nothing regressed,
// 1 otherwise, 2 for bad input.
#include "tools/cli/check_command.hpp"

#include <cstring>
#include <filesystem>
#include <iostream>
#include <limits>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/check_sarif.hpp"
#include "analysis/input_file.hpp"
#include "sim/errors.hpp"
#include "sim/message_text.hpp"
#include "tools/cli/command_outputs.hpp"
#include "tools/cli/launch_expression.hpp"
#include "tools/cli/options.hpp"
#include "tools/cli/runs.hpp"
#include "tools/cli/terminal.hpp"

namespace po = boost::program_options;
namespace ir = warpdiv::sim::ir;
namespace fs = std::filesystem;

namespace warpdiv::cli {

namespace {

po::options_description check_options() {
  po::options_description options(
      "warpdiv check CONFIG: a divergence gate for CI. CONFIG (TOML) lists kernels, their launches\n"
      "and limits: divergent fraction per branch, SIMD efficiency per statement, partial barriers,\n"
      "global sector efficiency, sectors per request and shared bank conflicts, per kernel and per\n"
      "line, and optionally a baseline CSV the figures must not get worse than. Findings print one\n"
      "per line as FILE:LINE:COL: warning: ... [rule], then a summary (docs/guide/check.md).\n\n"
      "usage: warpdiv check CONFIG [--sarif FILE] [--baseline FILE | --no-baseline]\n"
      "       warpdiv check CONFIG --write-baseline FILE [--sarif FILE]\n\n"
      "exit status 0: every limit holds and nothing regressed; 1: a limit is crossed or a figure\n"
      "got worse than the baseline; 2: bad input (CONFIG:LINE:COL: names the key).\n\noptions");
  options.add_options()("help,h", "show this help")
      ("sarif", po::value<std::string>()->value_name("FILE"),
       "also write the findings as SARIF 2.1.0 (for code scanning and editors)")
      ("write-baseline", po::value<std::string>()->value_name("FILE"),
       "record every statement's figures as a baseline CSV (compares with no baseline)")
      ("baseline", po::value<std::string>()->value_name("FILE"),
       "compare with this baseline instead of the one CONFIG names")
      ("no-baseline", "compare with no baseline, even if CONFIG names one");
  return options;
}

std::string place(const analysis::CheckConfig& c, const analysis::ConfigPlace& p,
                  const std::string& what) {
  return analysis::config_message(c.path, p, what);
}

// The shared launch code words its refusals for the command line; in a configuration the same
// things are keys.
std::string in_config_words(std::string message) {
  static const std::pair<const char*, const char*> kWords[] = {
      {"--arg ", "args "}, {"--grid", "grid"}, {"--block", "block"}, {"--alloc", "alloc"},
      {"--data", "data"}, {"--dynamic-smem", "dynamic_smem"}, {"--warp-size", "warp_size"},
      {"--max-evaluations", "max_evaluations"}, {"--engine", "engine"}, {"--launch", "launch"}};
  for (const auto& [flag, key] : kWords)
    for (std::size_t at = 0; (at = message.find(flag, at)) != std::string::npos; at += std::strlen(key))
      message.replace(at, std::strlen(flag), key);
  return message;
}

// Runs `f`; an InvalidInput it throws comes back prefixed with the place in the configuration.
template <class F>
auto at_place(const analysis::CheckConfig& c, const analysis::ConfigPlace& p, const std::string& prefix,
              F f) {
  try {
    return f();
  } catch (const InvalidInput& e) {
    throw InvalidInput(place(c, p, prefix + in_config_words(e.what())));
  }
}

}  // namespace

CheckRequest parse_check(const Args& args) {
  const po::options_description options = check_options();
  const po::variables_map vm = parse_with_positional("check", args, options, "config");
  CheckRequest r;
  if (has(vm, "help")) {
    r.help = help_text(options);
    return r;
  }
  if (!has(vm, "config"))
    throw InvalidInput("warpdiv check needs CONFIG, a TOML file of kernels, launches and limits "
                       "(see warpdiv check --help)");
  r.config = get(vm, "config");
  r.sarif = get_optional(vm, "sarif");
  r.write_baseline = get_optional(vm, "write-baseline");
  r.baseline = get_optional(vm, "baseline");
  r.no_baseline = has(vm, "no-baseline");
  if (r.write_baseline && (r.baseline || r.no_baseline))
    throw InvalidInput(std::string("--write-baseline records the figures afresh and compares with "
                                   "no baseline: drop ") +
                       (r.baseline ? "--baseline" : "--no-baseline"));
  if (r.baseline && r.no_baseline) throw InvalidInput("give --baseline FILE or --no-baseline, not both");
  if (r.write_baseline && r.sarif && *r.write_baseline == *r.sarif && *r.sarif != "-")
    throw InvalidInput("--write-baseline and --sarif name the same file " + sim::quote_value(*r.sarif));
  return r;
}

AnalyzeSourceRequest check_kernel_request(const analysis::CheckConfig& config,
                                          const analysis::CheckKernel& k) {
  AnalyzeSourceRequest r;
  const std::string& input = k.model.empty() ? k.file : k.model;
  struct stat info {};
  if (::stat(input.c_str(), &info) != 0 || !S_ISREG(info.st_mode) || ::access(input.c_str(), R_OK) != 0)
    throw InvalidInput(place(config, k.place, "[[kernel]] " + sim::quote_value(k.name) + ": " +
                                                  (k.model.empty() ? "file " : "model ") +
                                                  sim::quote_value(input) +
                                                  " is not a readable regular file"));
  r.source.file = k.file;
  r.source.model = k.model;
  r.source.kernel = k.kernel;
  r.source.defines = k.defines;
  r.source.include_dirs = k.include_dirs;
  r.source.cuda_headers = k.cuda_headers;
  r.source.fmad = k.fmad;
  r.engine = parse_source_engine(k.engine);
  r.source.build_dir = k.build_dir;
  r.values = at_place(config, k.args_place, "", [&] { return parse_arg_values(k.args); });
  r.launch.warp_size = k.warp_size;
  if (!k.grid || !k.block) {  // from the file's host code, completed once the file is read
    LaunchFlags flags;
    flags.grid = k.grid;
    flags.block = k.block;
    flags.values = r.values;
    flags.dynamic_shared = k.dynamic_smem;
    flags.launch = k.launch;
    r.from_host = flags;
    r.source.host_launches = true;
    r.source.host_arguments = host_arguments(r.values);
  } else {
    const Extent3 grid = at_place(config, k.grid_place, "", [&] {
      const Extent3 e = parse_extent("grid", *k.grid, r.values);
      check_grid("grid", e);
      return e;
    });
    const Extent3 block = at_place(config, k.block_place, "", [&] {
      const Extent3 e = parse_extent("block", *k.block, r.values);
      check_block("block", e);
      return e;
    });
    r.launch.grid = to_dim3(grid);
    r.launch.block = to_dim3(block);
    r.launch_text = *k.grid + " " + *k.block;
    r.dynamic_shared = k.dynamic_smem.value_or(0);
  }
  r.replay_options.max_evaluations =
      k.max_evaluations ? static_cast<sim::Count>(*k.max_evaluations) : ir::kDefaultMaxEvaluations;
  r.allocs = k.allocs;
  r.data = k.data;
  return r;
}

std::optional<CheckInputs> prepare_check(const CheckRequest& request) {
  CheckInputs in;
  const std::string text = analysis::read_input_file(request.config, "CONFIG");
  in.config = analysis::parse_check_config(text, request.config);
  in.files.push_back(request.config);
  if (request.baseline) {
    in.baseline_path = request.baseline;
    in.baseline = analysis::read_baseline(analysis::read_input_file(*request.baseline, "--baseline"),
                                          *request.baseline);
  } else if (in.config.baseline && !request.no_baseline && !request.write_baseline) {
    in.baseline_path = in.config.baseline;
    in.baseline = at_place(in.config, in.config.baseline_place, "", [&] {
      return analysis::read_baseline(analysis::read_input_file(*in.config.baseline, "baseline"),
                                     *in.config.baseline);
    });
  }
  if (in.baseline_path) in.files.push_back(*in.baseline_path);
  for (analysis::CheckKernel& k : in.config.kernels) {
    CheckLaunch l;
    l.config = &k;
    l.request = check_kernel_request(in.config, k);
    const std::string prefix = "[[kernel]] " + sim::quote_value(k.name) + ": ";
    std::optional<SourceKernel> read =
        at_place(in.config, k.place, prefix, [&] { return read_source_kernel(l.request.source); });
    if (!read) {
      std::cerr << "warpdiv: error: "
                << place(in.config, k.place, prefix + "the front-end refused " +
                                                 sim::quote_value(l.request.source.input()) + " (Clang's diagnostics above)")
                << '\n';
      return std::nullopt;
    }
    l.kernel = std::move(*read);
    if (l.request.from_host) {  // the launch in the file's host code, the table's keys over it
      const std::string note = at_place(in.config, k.place, prefix, [&] {
        return complete_host_launch(l.request, l.kernel.kernel, l.kernel.launches);
      });
      std::cerr << "warpdiv: note: " << k.name << ": " << note << '\n';
    }
    l.launch = at_place(in.config, k.place, prefix, [&] {
      return bind_launch(l.kernel.kernel, l.request.launch, l.request.values, l.request.launch_text,
                         l.request.allocs, l.request.data);
    });
    l.launch.dynamic_shared_bytes = static_cast<std::uint64_t>(l.request.dynamic_shared);
    if (!l.request.source.build_dir.empty()) in.files.push_back(l.request.source.build_dir + "/compile_commands.json");
    for (const std::string& f : source_files(l.kernel.kernel, l.kernel.files_read)) in.files.push_back(f);
    for (const std::string& f : data_files(l.request.data)) in.files.push_back(f);
    in.launches.push_back(std::move(l));
  }
  return in;
}

CheckRun run_check(CheckInputs& inputs, bool compare, const std::atomic<bool>* stop) {
  CheckRun run;
  const analysis::CheckConfig& config = inputs.config;
  std::vector<std::string> names;
  for (CheckLaunch& l : inputs.launches) {
    analysis::CheckKernel& k = *l.config;
    names.push_back(k.name);
    // A saved model's own file is the source it was read from (where line tables apply).
    if (k.file.empty() && !l.kernel.kernel.files.empty()) k.file = l.kernel.kernel.files[0].path;
    const std::string prefix = "[[kernel]] " + sim::quote_value(k.name) + ": ";
    const AnalyzeSourceReport report = at_place(config, k.place, prefix, [&] {
      return run_analyze_source(l.request, l.kernel.kernel, l.launch, false, stop);
    });
    if (!report.counts.note.empty())
      std::cerr << "warpdiv: note: " << k.name << ": " << report.counts.note << '\n';
    const std::vector<analysis::CheckRow> rows =
        analysis::make_check_rows(k.name, report.report, l.kernel.kernel, l.launch.warp_size, config.root);
    for (analysis::Finding& f : analysis::check_limits(k, rows, config.root))
      run.outcome.findings.push_back(std::move(f));
    for (analysis::Finding& f : analysis::unused_line_limits(k, config.path, config.root))
      run.outcome.findings.push_back(std::move(f));
    run.rows.insert(run.rows.end(), rows.begin(), rows.end());
    ++run.outcome.kernels;
    run.outcome.statements += rows.size();
  }
  if (compare && inputs.baseline_path) {
    run.outcome.baseline = true;
    for (analysis::Finding& f : analysis::compare_with_baseline(run.rows, inputs.baseline, names,
                                                                config.fail_on_stale_baseline))
      run.outcome.findings.push_back(std::move(f));
  }
  return run;
}

int check_command(const Args& args, std::ostream& out) {
  const CheckRequest request = parse_check(args);
  if (answered_at_once(out, request.help)) return 0;
  std::optional<CheckInputs> inputs = prepare_check(request);
  if (!inputs) return 2;
  std::vector<RunInput> protect;
  for (const std::string& f : inputs->files) protect.emplace_back("an input of the check", f);
  CommandOutputs outputs(out, protect);
  analysis::Output* sarif = outputs.open("--sarif", request.sarif, "SARIF");
  analysis::Output* baseline = outputs.open("--write-baseline", request.write_baseline, "Baseline");
  const SigintHandler sigint;
  outputs.stop_on(sigint.flag());  // Ctrl-C while writing: exit 130, no file
  CheckRun run;
  try {
    run = run_check(*inputs, !request.write_baseline, sigint.flag());
  } catch (const Interrupted&) {
    std::cerr << "warpdiv check: interrupted: no file written\n";
    return kInterruptedStatus;
  }
  if (sarif) analysis::write_check_sarif(sarif->stream(), run.outcome, inputs->config.root, WARPDIV_VERSION);
  if (baseline) analysis::write_baseline(baseline->stream(), run.rows);
  outputs.commit();
  analysis::write_check_text(outputs.report(), run.outcome);
  outputs.announce(CommandOutputs::Spacing::none);
  return run.outcome.passed() ? 0 : 1;
}

}  // namespace warpdiv::cli

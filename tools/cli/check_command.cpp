// warpdiv check CONFIG: every kernel and launch a TOML file lists, counted as `warpdiv analyze`
// counts them, against the file's limits and an optional baseline; findings one per line as
// compilers print them, optionally as SARIF. Exit 0 when every limit holds and nothing regressed,
// 1 otherwise, 2 for bad input.
#include "tools/cli/check_command.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <new>
#include <iostream>
#include <limits>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/check_sarif.hpp"
#include "analysis/input_file.hpp"
#include "sim/support/errors.hpp"
#include "sim/support/message_text.hpp"
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
      "statement (keyed by its text, not its line), and optionally a baseline CSV whose shares\n"
      "must not get worse. Findings print one per line as FILE:LINE:COL: warning: ... [rule], then\n"
      "a summary; a comment // warpdiv: allow(RULE) allows them (docs/guide/check.md).\n\n"
      "usage: warpdiv check CONFIG [--sarif FILE] [--baseline FILE | --no-baseline]\n"
      "       warpdiv check CONFIG --write-baseline FILE [--sarif FILE]\n\n"
      "exit status 0: every limit holds and nothing regressed; 1: a limit is crossed, a share\n"
      "got worse than the baseline's or a kernel could not be read; 2: bad input\n"
      "(CONFIG:LINE:COL: names the key).\n\noptions");
  options.add_options()("help,h", "show this help")(
      "sarif", po::value<std::string>()->value_name("FILE"),
      "also write the findings as SARIF 2.1.0 (for code scanning and editors)")(
      "write-baseline", po::value<std::string>()->value_name("FILE"),
      "record every statement's figures as a baseline CSV (compares with no baseline)")(
      "baseline", po::value<std::string>()->value_name("FILE"),
      "compare with this baseline instead of the one CONFIG names")(
      "no-baseline", "compare with no baseline, even if CONFIG names one");
  return options;
}

// The shared launch code words its refusals for the command line; in a configuration the same
// things are keys.
std::string in_config_words(std::string message) {
  static const std::pair<const char*, const char*> kWords[] = {
      {"--arg ", "args "},          {"--grid", "grid"},
      {"--block", "block"},         {"--alloc", "alloc"},
      {"--data", "data"},           {"--dynamic-smem", "dynamic_smem"},
      {"--warp-size", "warp_size"}, {"--max-evaluations", "max_evaluations"},
      {"--engine", "engine"},       {"--launch", "launch"}};
  for (const auto& [flag, key] : kWords)
    for (std::size_t at = 0; (at = message.find(flag, at)) != std::string::npos; at += std::strlen(key))
      message.replace(at, std::strlen(flag), key);
  return message;
}

/// The same diagnostic in the configuration's words.
Diagnostic in_config_words(const Diagnostic& d) {
  return Diagnostic(d.diag(), d.location(), in_config_words(d.message()));
}

// Runs `f`; an InvalidInput it throws comes back prefixed with the place in the configuration.
template <class F>
auto at_place(const analysis::CheckConfig& c, const analysis::ConfigPlace& p, const std::string& prefix,
              F f) {
  try {
    return f();
  } catch (const InvalidInput& e) {
    throw analysis::config_error(e.diag(), c.path, p, prefix + in_config_words(e.what()));
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
    throw InvalidInput(Diag::flag_usage,
                       "warpdiv check needs CONFIG, a TOML file of kernels, launches and limits "
                       "(see warpdiv check --help)");
  r.config = get(vm, "config");
  r.sarif = get_optional(vm, "sarif");
  r.write_baseline = get_optional(vm, "write-baseline");
  r.baseline = get_optional(vm, "baseline");
  r.no_baseline = has(vm, "no-baseline");
  if (r.write_baseline && (r.baseline || r.no_baseline))
    throw InvalidInput(Diag::flag_usage,
                       std::string("--write-baseline records the figures afresh and compares with "
                                   "no baseline: drop ") +
                           (r.baseline ? "--baseline" : "--no-baseline"));
  if (r.baseline && r.no_baseline)
    throw InvalidInput(Diag::flag_usage, "give --baseline FILE or --no-baseline, not both");
  if (r.write_baseline && r.sarif && *r.write_baseline == *r.sarif && *r.sarif != "-")
    throw InvalidInput(Diag::output_clash,
                       "--write-baseline and --sarif name the same file " + sim::quote_value(*r.sarif));
  return r;
}

namespace {

// The args of a [[kernel]], each refused at its value's place when it is no number.
ArgValues config_arg_values(const analysis::CheckConfig& config, const analysis::CheckKernel& k) {
  ArgValues values;
  for (std::size_t i = 0; i < k.args.size(); ++i) {
    const analysis::ConfigPlace& at = i < k.arg_places.size() ? k.arg_places[i] : k.args_place;
    const ArgValues one = at_place(config, at, "", [&] { return parse_arg_values({k.args[i]}); });
    values.insert(one.begin(), one.end());
  }
  return values;
}

// An args value the kernel's integer parameter of that name cannot take (a decimal, a value
// outside its type's range) is the configuration's error, at the value as written.
void check_arg_ranges(const analysis::CheckConfig& config, const analysis::CheckKernel& k,
                      const ir::Kernel& kernel) {
  if (kernel.name.empty()) return;  // not read: the kernel's finding says why
  const std::string sizes = k.grid.value_or("") + " " + k.block.value_or("");
  for (std::size_t i = 0; i < k.args.size() && i < k.arg_places.size(); ++i) {
    const std::string name = k.args[i].substr(0, k.args[i].find('='));
    const auto parameter = std::find_if(kernel.parameters.begin(), kernel.parameters.end(),
                                        [&](const ir::Parameter& p) { return p.name == name; });
    if (parameter == kernel.parameters.end() && identifiers_in(sizes).count(name) == 0)
      throw analysis::config_error(Diag::flag_value, config.path, k.arg_places[i],
                                   "args." + name + ": " + kernel.name + " has no parameter " + name +
                                       " and grid and block do not use the name");
    if (parameter != kernel.parameters.end() && parameter->floating != 0) {
      try {
        (void)floating_bits(*parameter, parse_arg_values({k.args[i]}).at(name).text());
      } catch (const InvalidInput& e) {
        std::string why = e.what();
        why = why.substr(why.find(": ") + 2);  // without "--arg NAME: "
        throw analysis::config_error(Diag::flag_value, config.path, k.arg_places[i],
                                     "args." + name + " = " + k.arg_texts[i] + ": " + why);
      }
    }
    for (const ir::Parameter& p : kernel.parameters) {
      if (p.name != name || !p.scalar) continue;
      const ArgValue v = parse_arg_values({k.args[i]}).at(name);
      bool fits = v.integer();
      try {
        if (fits)
          (void)(v.fits_int64() ? ir::Value::of(p.type, v.value) : ir::Value::of_unsigned(p.type, v.bits()));
      } catch (const InvalidInput&) {
        fits = false;
      }
      if (!fits)
        throw analysis::config_error(Diag::flag_value, config.path, k.arg_places[i],
                                     "args." + name + " = " + k.arg_texts[i] + ": the parameter " + name +
                                         " of " + kernel.name + " is " + ir::name(p.type) +
                                         ", which takes an integer from " + ir::range_text(p.type));
    }
  }
}

}  // namespace

AnalyzeSourceRequest check_kernel_request(const analysis::CheckConfig& config,
                                          const analysis::CheckKernel& k) {
  AnalyzeSourceRequest r;
  r.source.file = k.file;
  r.source.model = k.model;
  r.source.kernel = k.kernel;
  r.source.defines = k.defines;
  r.source.include_dirs = k.include_dirs;
  r.source.cuda_headers = k.cuda_headers;
  r.source.fmad = k.fmad;
  r.engine = parse_source_engine(k.engine);
  r.source.build_dir = k.build_dir;
  r.values = config_arg_values(config, k);
  r.launch.warp_size = k.warp_size;
  if (!k.grid || !k.block) {  // from the file's host code, completed once the file is read
    LaunchFlags flags;
    flags.grid = k.grid;
    flags.block = k.block;
    flags.values = r.values;
    flags.dynamic_shared = k.dynamic_smem;
    flags.launch = k.launch;
    flags.from_configuration = true;
    r.from_host = flags;
    r.source.host_launches = true;
    r.source.host_arguments = host_arguments(r.values);
    r.source.host_grid = host_size(r.from_host->grid, "--grid", r.values);
    r.source.host_block = host_size(r.from_host->block, "--block", r.values);
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

namespace {

// Why `k`'s file (or model) cannot be read, or nothing.
std::optional<Diagnostic> unreadable_input(const analysis::CheckKernel& k) {
  const std::string& input = k.model.empty() ? k.file : k.model;
  struct stat info {};
  if (::stat(input.c_str(), &info) != 0 || !S_ISREG(info.st_mode) || ::access(input.c_str(), R_OK) != 0)
    return Diagnostic(Diag::file_unreadable, std::string(k.model.empty() ? "file " : "model ") +
                                                 sim::quote_value(input) + " is not a readable regular file");
  return std::nullopt;
}

// Clang's first error as the refusal of the kernel, at its place when it has one.
Diagnostic clang_refusal(const frontend::FirstClangError& first) {
  const std::string suffix = " (its diagnostics on stderr)";
  if (first.message.empty()) return Diagnostic(Diag::source_errors, "Clang refused it" + suffix);
  return Diagnostic(Diag::source_errors, first.at, "Clang refused it: " + first.message + suffix);
}

// The inputs of a kernel, which the outputs must not replace, whether it could be read or not: its
// file or model, the compilation database, the data files, every file the front-end read (before
// it failed, where it did) and the model's files.
void add_kernel_inputs(const CheckLaunch& l, std::vector<std::string>& files) {
  const analysis::CheckKernel& k = *l.config;
  files.push_back(k.model.empty() ? k.file : k.model);
  if (!l.request.source.build_dir.empty())
    files.push_back(l.request.source.build_dir + "/compile_commands.json");
  files.insert(files.end(), l.files_tried.begin(), l.files_tried.end());
  for (const std::string& f : source_files(l.kernel.kernel, l.kernel.files_read)) files.push_back(f);
  try {
    for (const std::string& f : data_files(l.request.data)) files.push_back(f);
  } catch (const InvalidInput&) {  // a malformed --data pair names no file
  }
}

// Reads the kernel of `l` and binds its launch; the reason when it cannot (Clang's diagnostics on
// stderr).
std::optional<Diagnostic> read_launch(CheckLaunch& l) {
  analysis::CheckKernel& k = *l.config;
  if (std::optional<Diagnostic> why = unreadable_input(k)) return why;
  try {
    frontend::FirstClangError first_error;
    std::optional<SourceKernel> read = read_source_kernel(l.request.source, &l.files_tried, &first_error);
    if (!read) return clang_refusal(first_error);
    l.kernel = std::move(*read);
    std::string note;  // the launch in the file's host code, the table's keys over it
    if (l.request.from_host) note = complete_host_launch(l.request, l.kernel.kernel, l.kernel.launches);
    l.launch = bind_launch(l.kernel.kernel, l.request.launch, l.request.values, l.request.launch_text,
                           l.request.allocs, l.request.data);
    if (l.request.from_host) print_note(Diag::host_launch, k.name + ": " + note);  // once the values fit
  } catch (const InvalidInput& e) {
    return in_config_words(at_launch_place(e, l.kernel.launches));
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {  // the front-end's own failure on this file (its transport)
    return Diagnostic(Diag::frontend_failed, std::string("the front-end failed on it: ") + e.what());
  }
  l.launch.dynamic_shared_bytes = static_cast<std::uint64_t>(l.request.dynamic_shared);
  return std::nullopt;
}

}  // namespace

std::optional<CheckInputs> prepare_check(const CheckRequest& request) {
  CheckInputs in;
  const std::string text = analysis::read_input_file(request.config, "CONFIG", analysis::InputFormat::toml);
  in.config = analysis::parse_check_config(text, request.config);
  std::error_code error;
  if (!std::filesystem::is_directory(in.config.root, error))
    throw InvalidInput(Diag::file_content,
                       request.config + ": root " + sim::quote_value(in.config.root) +
                           " is not a folder (findings, baselines and SARIF name files relative to it; "
                           "give an existing folder)");
  in.files.push_back(request.config);
  if (request.baseline) {
    in.baseline_path = request.baseline;
    in.baseline = analysis::read_baseline(
        analysis::read_input_file(*request.baseline, "--baseline", analysis::InputFormat::csv),
        *request.baseline);
  } else if (in.config.baseline && !request.no_baseline && !request.write_baseline) {
    in.baseline_path = in.config.baseline;
    in.baseline = at_place(in.config, in.config.baseline_place, "", [&] {
      return analysis::read_baseline(
          analysis::read_input_file(*in.config.baseline, "baseline", analysis::InputFormat::csv),
          *in.config.baseline);
    });
  }
  if (in.baseline_path) in.files.push_back(*in.baseline_path);
  for (analysis::CheckKernel& k : in.config.kernels) {
    CheckLaunch l;
    l.config = &k;
    l.request = check_kernel_request(in.config, k);
    const std::optional<Diagnostic> why = read_launch(l);
    check_arg_ranges(in.config, k, l.kernel.kernel);
    add_kernel_inputs(l, in.files);
    if (why) {
      const std::string& input = k.model.empty() ? k.file : k.model;
      in.unread.push_back(analysis::unreadable_kernel(
          k.name, analysis::relative_to_root(input, in.config.root), *why, in.config.root));
      continue;
    }
    in.launches.push_back(std::move(l));
  }
  return in;
}

namespace {

// The findings of one launch counted (limits, the configuration's tables), its rows appended.
void check_launch(const analysis::CheckConfig& config, CheckLaunch& l, CheckRun& run,
                  const std::atomic<bool>* stop) {
  analysis::CheckKernel& k = *l.config;
  // A saved model's own file is the source it was read from (where line tables apply).
  if (k.file.empty() && !l.kernel.kernel.files.empty()) k.file = l.kernel.kernel.files[0].path;
  const AnalyzeSourceReport report = run_analyze_source(l.request, l.kernel.kernel, l.launch, false, stop);
  print_count_notes(report.counts, k.name + ": ");
  std::vector<analysis::Finding>& findings = run.outcome.findings;
  const std::vector<analysis::CheckRow> rows = analysis::make_check_rows(
      k.name, report.report, l.kernel.kernel, l.launch.warp_size, config.root, findings);
  for (analysis::Finding& f : analysis::check_limits(k, rows, config.root)) findings.push_back(std::move(f));
  for (analysis::Finding& f : analysis::config_table_notes(k, rows, config.path, config.root))
    findings.push_back(std::move(f));
  run.rows.insert(run.rows.end(), rows.begin(), rows.end());
  ++run.outcome.kernels;
  run.outcome.statements += rows.size();
}

// Leaves out the single-lane findings of the checks that do not ask for them (counted).
void settle_single_lane(const analysis::CheckConfig& config, analysis::CheckOutcome& outcome) {
  std::vector<std::string> reported;
  for (const analysis::CheckKernel& k : config.kernels)
    if (k.limits.report_single_lane.value_or(false)) reported.push_back(k.name);
  std::vector<analysis::Finding> kept;
  for (analysis::Finding& f : outcome.findings) {
    const bool hidden = f.rule == "single-lane-branch" && !f.suppressed &&
                        std::find(reported.begin(), reported.end(), f.check) == reported.end();
    if (hidden)
      ++outcome.single_lane_hidden;
    else
      kept.push_back(std::move(f));
  }
  outcome.findings = std::move(kept);
}

// The lines of a file (empty when it cannot be read).
std::vector<std::string> file_lines(const std::string& path) {
  std::vector<std::string> lines;
  std::ifstream in(path, std::ios::binary);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The lines of every file a finding may name, for SARIF's UTF-16 columns: the configuration,
// each kernel's source files, and the files named by the findings of kernels that could not be
// read (regular files only: they were read once already).
analysis::SourceLinesByFile sarif_sources(const CheckInputs& inputs,
                                          const std::vector<analysis::Finding>& findings) {
  const std::string& root = inputs.config.root;
  analysis::SourceLinesByFile sources;
  sources[analysis::relative_to_root(inputs.config.path, root)] = file_lines(inputs.config.path);
  for (const CheckLaunch& l : inputs.launches)
    for (const ir::SourceFile& f : l.kernel.kernel.files) {
      const std::string name = analysis::relative_to_root(f.path, root);
      if (sources.count(name) == 0) sources[name] = f.lines.empty() ? file_lines(f.path) : f.lines;
    }
  for (const analysis::Finding& f : findings) {
    if (f.file.empty() || f.line == 0 || sources.count(f.file) != 0) continue;
    const std::filesystem::path path = std::filesystem::path(root) / f.file;
    std::error_code error;
    if (std::filesystem::is_regular_file(path, error)) sources[f.file] = file_lines(path.string());
  }
  return sources;
}

}  // namespace

CheckRun run_check(CheckInputs& inputs, bool compare, const std::atomic<bool>* stop) {
  CheckRun run;
  const analysis::CheckConfig& config = inputs.config;
  analysis::BaselineComparison how;
  how.stale_fails = config.fail_on_stale_baseline;
  how.tolerance = config.regression_tolerance;
  for (const analysis::Finding& f : inputs.unread) how.unread.push_back(f.check);
  run.outcome.findings = inputs.unread;
  for (CheckLaunch& l : inputs.launches) {
    try {
      check_launch(config, l, run, stop);
      how.checks.push_back(l.config->name);
    } catch (const InvalidInput& e) {
      const analysis::CheckKernel& k = *l.config;
      run.outcome.findings.push_back(analysis::unreadable_kernel(
          k.name, analysis::relative_to_root(k.model.empty() ? k.file : k.model, config.root),
          in_config_words(e), config.root));
      how.unread.push_back(k.name);
    }
  }
  if (compare && inputs.baseline_path) {
    run.outcome.baseline = true;
    for (analysis::Finding& f : analysis::compare_with_baseline(run.rows, inputs.baseline, how))
      run.outcome.findings.push_back(std::move(f));
  }
  settle_single_lane(config, run.outcome);
  run.unread = how.unread.size();
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
  const bool withheld = baseline && run.unread > 0;  // a baseline without some kernels' rows: none
  if (withheld) outputs.withdraw(*baseline);
  if (sarif)
    analysis::write_check_sarif(sarif->stream(), run.outcome, inputs->config.root, WARPDIV_VERSION,
                                sarif_sources(*inputs, run.outcome.findings));
  if (baseline && !withheld) analysis::write_baseline(baseline->stream(), run.rows);
  outputs.commit();
  analysis::write_check_text(outputs.report(), run.outcome);
  if (withheld)
    std::cerr << "warpdiv check: --write-baseline: no baseline written to "
              << sim::quote_value(baseline->name()) << ": a baseline needs every kernel, and " << run.unread
              << (run.unread == 1 ? " was" : " were") << " not read (the error findings above)\n";
  outputs.announce(CommandOutputs::Spacing::none);
  return run.outcome.passed() && run.unread == 0 ? 0 : 1;
}

}  // namespace warpdiv::cli

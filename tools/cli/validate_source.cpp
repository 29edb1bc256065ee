// warpdiv validate FILE.cu | --model FILE.json: the kernel's GPU probe (kernels/probe.hpp) against
// the model's replay, per statement and warp by warp.
#include <ctime>
#include <iostream>

#include "analysis/probe_comparison.hpp"
#include "kernels/probe.hpp"
#include "sim/support/errors.hpp"
#include "sim/model/ir.hpp"
#include "tools/cli/command_outputs.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/options.hpp"
#include "tools/cli/requests.hpp"
#include "tools/cli/runs.hpp"
#include "tools/cli/shorthand.hpp"
#include "tools/cli/source_kernel.hpp"
#include "tools/cli/terminal.hpp"

namespace po = boost::program_options;
namespace ir = warpdiv::sim::ir;

namespace warpdiv::cli {

namespace {

/// The most --records accepts (kDefaultWarpRecords, requests.hpp, is the default).
constexpr std::int64_t kMaxWarpRecords = 100'000'000;

po::options_description validate_source_options() {
  po::options_description options(
      "warpdiv validate FILE.cu: run the kernel's control flow on GPU 0 and compare it with the\n"
      "model. A probe generated from the kernel's model (its conditions, loops, exits and\n"
      "barriers, without its memory work) is compiled with NVRTC and launched with the launch\n"
      "given; it records each warp evaluation with __ballot_sync. Compared: every statement's\n"
      "totals, and every warp evaluation one by one when the launch makes at most --records.\n"
      "Then the kernel itself, compiled by NVRTC with its default flags, runs on the same\n"
      "launch and inputs: its output buffers are compared bit for bit with what the model's\n"
      "stores leave in them, where the model holds the stored values.\n"
      "Exit status 0 when all agree, 1 on a difference (the first is named), 2 on bad input,\n"
      "3 without a GPU or without NVRTC.\n"
      "Without --grid or --block the launch is read from FILE.cu's host code, as for analyze.\n\n"
      "usage: warpdiv validate FILE.cu [--kernel NAME] [-D NAME[=VALUE]]... [-I DIR]... [-p BUILD_DIR]\n"
      "                        [--grid X[,Y[,Z]] --block X[,Y[,Z]]] [--arg NAME=VALUE]... [--launch N]\n"
      "                        [--data NAME=FILE]... [--alloc NAME=COUNT]... [--dynamic-smem BYTES]\n"
      "                        [--records N] [--csv FILE]\n"
      "       (--data, --alloc: the buffers are copied to the GPU; the probe reads the loads that\n"
      "       decide control flow there, as the kernel does)\n"
      "       warpdiv validate --model FILE.json --grid ... (a model saved by analyze --save-model)\n" +
      shorthand_usage("validate") + "\noptions");
  options.add_options()("help,h", "show this help");
  add_kernel_source_options(options);
  add_launch_source_options(options);
  add_buffer_options(options);
  options.add_options()("warp-size", po::value<std::string>()->value_name("S"),
                        "32, the GPU's (the default)")(
      "records", po::value<std::string>()->value_name("N"),
      "compare warp by warp when the model makes at most N warp evaluations, 0 .. 100000000 "
      "(default 4000000; 0 = totals only)")(
      "dynamic-smem", po::value<std::string>()->value_name("BYTES"),
      "extern __shared__ bytes per block for the real kernel's run, 0 .. 1073741824 (default 0: "
      "a kernel with extern __shared__ is then not run)")(
      "csv", po::value<std::string>()->value_name("FILE"),
      "also write the header and one row: device, launch, figures, outcome");
  return options;
}

}  // namespace

std::string cuda_version(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

ValidateSourceRequest parse_validate_source(const Args& args) {
  const po::options_description options = validate_source_options();
  std::string input;
  const po::variables_map vm = parse_source_command_line("validate", args, options, input);
  ValidateSourceRequest r;
  if (has(vm, "help")) {
    r.help = help_text(options);
    return r;
  }
  r.values = parse_arg_values(get_all(vm, "arg"));
  r.source = kernel_source(vm);
  r.from_host = host_launch_flags(vm, "validate", r.values);
  if (!r.from_host) {
    r.launch = launch_from_flags(vm, r.values);
    r.launch_text = get(vm, "grid") + " " + get(vm, "block");
  } else {
    if (has(vm, "warp-size")) r.launch.warp_size = parse_warp_size("--warp-size", get(vm, "warp-size"));
    r.source.host_launches = true;
    r.source.host_arguments = host_arguments(r.values);
    r.source.host_grid = host_size(r.from_host->grid, "--grid", r.values);
    r.source.host_block = host_size(r.from_host->block, "--block", r.values);
  }
  if (r.launch.warp_size != kernels::kProbeWarpSize)
    throw InvalidInput(Diag::unsupported_launch, "--warp-size must be 32 for a GPU run (got " +
                                                     std::to_string(r.launch.warp_size) + ")");
  r.record_limit = has(vm, "records") ? parse_integer("--records", get(vm, "records"), 0, kMaxWarpRecords)
                                      : kDefaultWarpRecords;
  r.max_evaluations = max_evaluations_from(vm);
  r.csv = get_optional(vm, "csv");
  r.allocs = get_all(vm, "alloc");
  r.data = get_all(vm, "data");
  if (has(vm, "dynamic-smem"))
    r.dynamic_shared = parse_integer("--dynamic-smem", get(vm, "dynamic-smem"), 0, std::int64_t{1} << 30);
  return r;
}

int validate_source_command(const Args& args, std::ostream& out) {
  ValidateSourceRequest request = parse_validate_source(args);
  if (answered_at_once(out, request.help)) return 0;
  const std::optional<SourceKernel> read = read_source_kernel(request.source);
  if (!read) return 2;  // Clang's diagnostics are on stderr
  std::string note;
  ir::Launch launch = placed_at_launch(read->launches, [&] {
    if (request.from_host) {
      const ChosenLaunch chosen =
          choose_host_launch(read->kernel, read->launches, *request.from_host, request.source.file);
      request.launch.grid = to_dim3(chosen.grid);
      request.launch.block = to_dim3(chosen.block);
      request.values = chosen.values;
      request.launch_text = chosen.launch_text;
      request.dynamic_shared = chosen.dynamic_shared;
      note = chosen.note;
    }
    return bind_launch(read->kernel, request.launch, request.values, request.launch_text, request.allocs,
                       request.data);
  });
  if (request.from_host) print_note(Diag::host_launch, note);  // once the values are bound
  launch.dynamic_shared_bytes = static_cast<std::uint64_t>(request.dynamic_shared);
  std::vector<RunInput> inputs =
      run_inputs(request.source, std::nullopt, source_files(read->kernel, read->files_read));
  for (const std::string& f : data_files(request.data)) inputs.emplace_back("--data", f);
  CommandOutputs outputs(out, inputs);
  analysis::Output* csv = outputs.open("--csv", request.csv, "CSV");
  const SigintHandler sigint;
  outputs.stop_on(sigint.flag());  // Ctrl-C while writing: exit 130, no file
  ValidateSourceReport report;
  try {
    report = run_validate_source(request, read->kernel, launch, sigint.flag());
  } catch (const Interrupted&) {
    std::cerr << "warpdiv validate: interrupted: no file written\n";
    return kInterruptedStatus;
  }
  if (csv) analysis::write_probe_csv(csv->stream(), {report.record});
  outputs.commit();
  write_validate_source_text(outputs.report(), request, read->kernel, report);
  outputs.announce(CommandOutputs::Spacing::none);
  if (!report.record.comparison.agree()) {
    std::cerr << "warpdiv: mismatch: " << report.record.outcome << '\n';
    return 1;
  }
  if (!report.outputs.agree()) {
    std::cerr << "warpdiv: mismatch: the real kernel's " << report.outputs.summary() << '\n';
    return 1;
  }
  return 0;
}

int validate_command(const Args& args, std::ostream& out) {
  return run_command_form("validate", args, out, validate_source_command);
}

}  // namespace warpdiv::cli

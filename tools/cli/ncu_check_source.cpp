// warpdiv ncu-check FILE.cu | --model FILE.json --grid ... --block ...: the model's
// memory figures of a launch against Nsight Compute's, measured on GPU 0. warpdiv runs ncu on
// itself: the child (WARPDIV_NCU_CHILD=1 in its environment) compiles the user's own kernel with
// NVRTC and launches it once on zero-filled buffers sized from the model (kernels/probe.hpp,
// run_real_kernel); the parent replays the model, reads ncu's CSV (analysis/ncu_csv.hpp) and
// prints figure by figure: global load, store and atomic requests and sectors (these must
// agree: exit 1 otherwise), shared wavefronts and bank conflicts (printed with the difference:
// nvcc may merge or split shared accesses, docs/guide/memory.md says where).
#include <array>
#include <iostream>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <map>
#include <optional>
#include <algorithm>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/ncu_csv.hpp"
#include "kernels/probe.hpp"
#include "sim/support/errors.hpp"
#include "sim/memory/ir_memory.hpp"
#include "sim/support/message_text.hpp"
#include "sim/session.hpp"
#include "tools/cli/command_outputs.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/requests.hpp"
#include "tools/cli/runs.hpp"
#include "tools/cli/shorthand.hpp"
#include "tools/cli/source_kernel.hpp"
#include "tools/cli/terminal.hpp"

namespace ir = warpdiv::sim::ir;

namespace warpdiv::cli {

namespace {

constexpr const char* kChildVariable = "WARPDIV_NCU_CHILD";

/// One figure compared: the model's total, ncu's metric, whether it must agree.
struct Figure {
  std::string name;
  std::string metric;  // summed metrics, '+'-separated
  sim::Count model = 0;
  bool required = true;
};

std::vector<Figure> model_figures(const ir::Kernel& kernel, const ir::ReplayResult& r) {
  sim::Count ld_req = 0, ld_sec = 0, st_req = 0, st_sec = 0, at_req = 0, at_sec = 0;
  sim::Count sh_ld_req = 0, sh_ld_wf = 0, sh_st_req = 0, sh_st_wf = 0, sh_ld_cf = 0, sh_st_cf = 0;
  for (std::size_t i = 0; i < kernel.accesses.size(); ++i) {
    const ir::MemoryAccess& a = kernel.accesses[i];
    const ir::AccessCounts& c = r.accesses[i];
    if (a.space == ir::AddressSpace::Shared) {
      const bool load = a.kind == ir::AccessKind::Load;
      (load ? sh_ld_req : sh_st_req) += c.requests;
      (load ? sh_ld_wf : sh_st_wf) += c.wavefronts;
      (load ? sh_ld_cf : sh_st_cf) += c.conflicts;
    } else if (a.space == ir::AddressSpace::Global) {
      if (a.kind == ir::AccessKind::Load) {
        ld_req += c.requests;
        ld_sec += c.sectors;
      } else if (a.kind == ir::AccessKind::Store) {
        st_req += c.requests;
        st_sec += c.sectors;
      } else {
        at_req += c.requests;
        at_sec += c.sectors;
      }
    }
  }
  return {
      {"global load requests", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", ld_req},
      {"global load sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", ld_sec},
      {"global store requests", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", st_req},
      {"global store sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", st_sec},
      {"global atomic requests",
       "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum+l1tex__t_requests_pipe_lsu_mem_global_op_red.sum",
       at_req},
      {"shared load requests", "smsp__sass_inst_executed_op_shared_ld.sum", sh_ld_req, false},
      {"shared load wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", sh_ld_wf, false},
      {"shared load bank conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", sh_ld_cf,
       false},
      {"shared store requests", "smsp__sass_inst_executed_op_shared_st.sum", sh_st_req, false},
      {"shared store wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", sh_st_wf, false},
      {"shared store bank conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", sh_st_cf,
       false},
  };
}

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, sep)) out.push_back(part);
  return out;
}

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// Runs a command line, returning its stdout (stderr goes to ours) and exit status.
std::pair<std::string, int> capture(const std::string& command) {
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) throw NoDevice("cannot start " + command);
  std::string out;
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) out.append(buffer.data(), n);
  const int status = ::pclose(pipe);
  return {out, WIFEXITED(status) ? WEXITSTATUS(status) : 128};
}

/// The value of a flag of ncu-check's own (--ncu PATH, --save-ncu FILE), or "". Each takes one
/// value and may be given once, as every single-value flag.
std::string own_flag(const Args& args, const std::string& flag) {
  std::string value;
  bool seen = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] != flag) continue;
    if (seen)
      throw InvalidInput(
          Diag::flag_usage,
          "option '" + flag + "' cannot be specified more than once (see warpdiv ncu-check --help)");
    const std::string wanted = flag + " needs a value (see warpdiv ncu-check --help)";
    if (i + 1 == args.size()) throw InvalidInput(Diag::flag_value, wanted);
    seen = true;
    value = args[++i];
    if (value.rfind("--", 0) == 0)  // as every flag's value (tools/cli/options.cpp)
      throw InvalidInput(Diag::flag_value,
                         wanted + ", not " + sim::quote_value(value) +
                             " (a value cannot start with '--'; write ./--NAME for a file of that name)");
  }
  return value;
}

/// The file `program` runs as the shell would find it: a path with a '/' to an executable file,
/// or a name found so on $PATH; "" for none (so that a missing ncu is reported by warpdiv alone,
/// not by the shell).
std::string program_file(const std::string& program) {
  const auto executable = [](const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
  };
  if (program.empty()) return "";
  if (program.find('/') != std::string::npos) return executable(program) ? program : "";
  const char* path = std::getenv("PATH");
  for (const std::string& folder : split(path == nullptr ? "" : path, ':')) {
    const std::string file = (folder.empty() ? std::string(".") : folder) + "/" + program;
    if (executable(file)) return file;
  }
  return "";
}

std::string ncu_path(const Args& args) {
  const std::string given = own_flag(args, "--ncu");
  if (!given.empty()) return given;
  if (const char* env = std::getenv("WARPDIV_NCU")) return env;
  return "ncu";
}

/// ncu-check's launch flags, read as analyze reads them; a refusal points to ncu-check's help.
AnalyzeSourceRequest parse_launch_flags(const Args& analyze_args) {
  try {
    return parse_analyze_source(analyze_args);
  } catch (const InvalidInput& e) {
    std::string what = e.what();
    const std::string analyze_help = "(see warpdiv analyze --help)";
    const std::size_t at = what.rfind(analyze_help);
    if (at == std::string::npos) throw;
    throw InvalidInput(e.diag(), what.replace(at, analyze_help.size(), "(see warpdiv ncu-check --help)"));
  }
}

/// The analyze flags of the command line: --ncu PATH, --save-ncu FILE and --per-line taken out.
Args without_ncu(const Args& args) {
  Args out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if ((args[i] == "--ncu" || args[i] == "--save-ncu") && i + 1 < args.size()) {
      ++i;
      continue;
    }
    if (args[i] == "--per-line") continue;
    out.push_back(args[i]);
  }
  return out;
}

/// The model's global sectors per line of the kernel's file (ncu-check has refused a launch with
/// a global access not counted).
std::map<std::uint32_t, sim::Count> model_sectors_per_line(const ir::Kernel& kernel,
                                                           const ir::ReplayResult& r) {
  std::map<std::uint32_t, sim::Count> out;
  for (std::size_t i = 0; i < kernel.accesses.size(); ++i) {
    const ir::MemoryAccess& a = kernel.accesses[i];
    if (a.space == ir::AddressSpace::Global && a.range.file == 0) out[a.range.line] += r.accesses[i].sectors;
  }
  return out;
}

/// ncu's standard output profiling, with `flags`, one launch of the kernel that `child` (this
/// binary as ncu-check's child) runs. Throws NoDevice when there is no GPU, no ncu, or ncu fails.
std::string profile(const Args& args, const ir::Kernel& kernel, const std::string& child,
                    const std::string& flags) {
  if (program_file(ncu_path(args)).empty())
    throw NoDevice("no ncu: '" + ncu_path(args) + "' was not found (give --ncu PATH)");
  const auto [text, status] = capture(std::string(kChildVariable) + "=1 " + shell_quote(ncu_path(args)) +
                                      " --csv --launch-count 1 --kernel-name " +
                                      shell_quote("regex:^" + kernel.name + "$") + " " + flags + " " + child);
  if (status == 3) throw NoDevice("no CUDA device for the real kernel (ncu's run exited 3)");
  if (status == 127) throw NoDevice("no ncu: '" + ncu_path(args) + "' was not found (give --ncu PATH)");
  if (status != 0)
    throw NoDevice("ncu's run of the real kernel exited " + std::to_string(status) +
                   " (its messages are above)");
  return text;
}

/// The per-line table: the model's global sectors against ncu's source counters, line by line
/// (reported, not required: ncu attributes each SASS instruction to the line -lineinfo gives it,
/// and nvcc may move an access's instructions to another line).
void write_per_line(std::ostream& out, const std::map<std::uint32_t, sim::Count>& model,
                    const std::map<std::uint32_t, std::uint64_t>& measured, const ir::Kernel& kernel) {
  std::map<std::uint32_t, std::pair<sim::Count, std::optional<std::uint64_t>>> lines;
  for (const auto& [line, sectors] : model) lines[line].first = sectors;
  for (const auto& [line, sectors] : measured)
    if (sectors != 0 || lines.count(line) != 0) lines[line].second = sectors;
  out << "\nGlobal sectors per source line (ncu's source counters: L2 Theoretical Sectors Global of\n"
         "the SASS instructions -lineinfo puts on the line):\n"
      << std::setw(6) << "line" << std::setw(16) << "model" << std::setw(16) << "ncu"
      << "  source\n";
  std::size_t equal = 0;
  for (const auto& [line, figures] : lines) {
    const sim::Count ncu = figures.second.value_or(0);
    const bool same = figures.first == ncu;
    equal += same ? 1 : 0;
    std::string text = line >= 1 && !kernel.files.empty() && line <= kernel.files[0].lines.size()
                           ? kernel.files[0].lines[line - 1]
                           : std::string();
    text.erase(0, text.find_first_not_of(" \t"));
    out << std::setw(6) << line << std::setw(16) << sim::to_decimal(figures.first) << std::setw(16)
        << sim::to_decimal(ncu) << "  " << (same ? "equal  " : "differs") << "  " << text << '\n';
  }
  out << equal << " of " << lines.size() << " lines equal.\n";
}

}  // namespace

namespace {

void print_help(std::ostream& out) {
  out << "warpdiv ncu-check FILE.cu | --model FILE.json --grid X[,Y[,Z]] --block X[,Y[,Z]]\n"
         "    (FILE.cu without --grid or --block: the launch in its host code, as for analyze;\n"
         "    -p BUILD_DIR: its flags from compile_commands.json)\n"
         "    [--arg NAME=VALUE]... [--kernel NAME] [-D NAME[=VALUE]]... [-I DIR]...\n"
         "    [--dynamic-smem BYTES] [--alloc NAME=COUNT]... [--data NAME=FILE]... [--ncu PATH]\n"
         "    [--save-ncu FILE] [--per-line]\n\n"
         "Runs the kernel of FILE.cu (compiled by NVRTC, on zero-filled buffers sized from the\n"
         "model, or of --alloc's COUNT elements, or holding --data's values, every access checked\n"
         "against them first) once\n"
         "under Nsight Compute on GPU 0 and compares its global load, store and\n"
         "atomic requests and sectors with the model's (exit 1 where they differ), and prints\n"
         "the shared wavefronts and bank conflicts beside the model's. --ncu PATH (or\n"
         "$WARPDIV_NCU) names ncu; default: ncu on the PATH. --save-ncu FILE keeps ncu's CSV.\n"
         "--per-line profiles the launch once more with ncu's source counters (the kernel\n"
         "compiled with -lineinfo) and prints the global sectors of each source line beside\n"
         "the model's (reported, not required; with --save-ncu, that page goes to FILE.source.csv).\n\n"
         "exit status: 0 ok, 1 mismatch or internal failure, 2 bad input, 3 no GPU, 130 "
         "interrupted\n";
}

// Every global access must be placed (its figures compared, its buffer sized) and defined;
// --data makes addresses from loaded values (a gather x[col_idx[jj]]) countable.
void check_comparable(const ir::Kernel& kernel, const ir::ReplayResult& model) {
  const std::vector<std::string> not_counted = ir::uncounted_accesses(kernel, model.computed_loads);
  for (std::size_t i = 0; i < kernel.accesses.size(); ++i) {
    const ir::MemoryAccess& a = kernel.accesses[i];
    if (!not_counted[i].empty() && (a.base == ir::kNone || a.space == ir::AddressSpace::Global))
      throw InvalidInput(
          Diag::unsupported_construct, ir::source_location(kernel, a.range),
          "ncu-check cannot compare this launch: the access '" + a.text + "' is not counted (" +
              not_counted[i] +
              "); every global access must be placed, to compare its figures and size its buffer");
    if (!model.access_faults[i].empty())
      throw ir::located(
          Diag::out_of_bounds, kernel,
          model.access_faults[i] + "; ncu-check does not run a launch the model finds undefined");
  }
}

// The command ncu runs: this very binary (its path from /proc/self/exe) as the child.
std::string child_command(const Args& analyze_args) {
  char self[4096] = {};
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) throw NoDevice("cannot find warpdiv's own binary to run under ncu");
  std::string child = shell_quote(std::string(self, static_cast<std::size_t>(n))) + " ncu-check";
  for (const std::string& a : analyze_args) child += " " + shell_quote(a);
  return child;
}

// The launch with its values bound (--alloc: the model checks every access against the buffers;
// the real kernel gets them whole). The child under ncu reads the same launch again: only the
// parent prints the note of a launch read from host code.
ir::Launch ncu_check_launch(AnalyzeSourceRequest& request, const SourceKernel& read) {
  std::string note;
  ir::Launch launch = placed_at_launch(read.launches, [&] {
    note = request.from_host ? complete_host_launch(request, read.kernel, read.launches) : "";
    return bind_launch(read.kernel, request.launch, request.values, request.launch_text, request.allocs,
                       request.data);
  });
  if (request.from_host && std::getenv(kChildVariable) == nullptr) print_note(Diag::host_launch, note);
  launch.dynamic_shared_bytes = static_cast<std::uint64_t>(request.dynamic_shared);
  return launch;
}

// The inputs ncu-check protects: the kernel's files and --data's.
std::vector<RunInput> ncu_check_inputs(const AnalyzeSourceRequest& request, const SourceKernel& read) {
  std::vector<RunInput> inputs =
      run_inputs(request.source, std::nullopt, source_files(read.kernel, read.files_read));
  for (const std::string& f : data_files(request.data)) inputs.emplace_back("--data", f);
  return inputs;
}

// ncu's source page as global sectors per line of the profiled kernel.
std::map<std::uint32_t, std::uint64_t> source_sectors(const std::string& page) {
  return analysis::parse_ncu_source_sectors(page, "ncu's source page", "warpdiv_probe.cu");
}

// The table of figures, model beside ncu; true when every required figure is equal.
bool write_comparison(std::ostream& report, const std::vector<Figure>& figures,
                      const analysis::NcuLaunch& measured) {
  report << std::left << std::setw(30) << "figure" << std::right << std::setw(16) << "model" << std::setw(16)
         << "ncu"
         << "  \n";
  bool agree = true;
  for (const Figure& f : figures) {
    double value = 0;
    bool present = true;
    for (const std::string& m : split(f.metric, '+')) {
      const std::optional<double> v = measured.metric(m);
      if (!v) present = false;
      value += v.value_or(0);
    }
    const auto measured_count = static_cast<sim::Count>(value);
    const bool same = present && measured_count == f.model;
    if (f.required && !same) agree = false;
    report << std::left << std::setw(30) << f.name << std::right << std::setw(16) << sim::to_decimal(f.model)
           << std::setw(16) << (present ? sim::to_decimal(measured_count) : std::string("n/a")) << "  "
           << (same         ? "equal"
               : f.required ? "DIFFERS"
                            : "differs (reported)")
           << '\n';
  }
  return agree;
}

}  // namespace

namespace {

// ncu's metrics for the figures, comma-separated (a figure's sum of metrics split).
// A counter ncu left out (it could not read it, or names it otherwise) was not measured: refused.
void require_measured(const std::vector<Figure>& figures, const analysis::NcuLaunch& measured) {
  for (const Figure& f : figures)
    for (const std::string& m : split(f.metric, '+'))
      if (f.required && !measured.metric(m))
        throw InvalidInput(Diag::file_content, "ncu's CSV has no value of " + m +
                                                   ", which ncu-check asked for (" + f.name +
                                                   "): ncu could not read that counter, or names it "
                                                   "otherwise; nothing to compare");
}

std::string metric_list(const std::vector<Figure>& figures) {
  std::string metrics;
  for (const Figure& f : figures)
    for (const std::string& m : split(f.metric, '+')) metrics += (metrics.empty() ? "" : ",") + m;
  return metrics;
}

void write_header(std::ostream& report, const ir::Kernel& kernel, const ir::Launch& launch,
                  const std::string& ncu) {
  report << "warpdiv ncu-check: " << kernel.name << " in "
         << (kernel.files.empty() ? "" : kernel.files[0].path) << "\nlaunch: grid "
         << ir::to_string(launch.grid) << ", block " << ir::to_string(launch.block)
         << "\nmeasured: one launch under Nsight Compute (ncu " << ncu << ")\n\n";
}

}  // namespace

int ncu_check_source_command(const Args& args, std::ostream& out) {
  own_flag(args, "--ncu");  // refuses a repeated or missing value before anything runs
  own_flag(args, "--save-ncu");
  const Args analyze_args = without_ncu(args);
  AnalyzeSourceRequest request = parse_launch_flags(analyze_args);
  if (!request.help.empty()) {
    print_help(out);
    return 0;
  }
  if (request.save_only)
    throw InvalidInput(Diag::flag_usage, "ncu-check needs a launch: give --grid and --block");
  const std::optional<SourceKernel> read = read_source_kernel(request.source);
  if (!read) return 2;
  const ir::Kernel& kernel = read->kernel;
  const ir::Launch launch = ncu_check_launch(request, *read);
  sim::CountRequest replay;
  replay.engine = sim::Engine::replay;
  const ir::ReplayResult model = sim::count_launch(kernel, launch, replay).result;
  check_comparable(kernel, model);

  if (std::getenv(kChildVariable) != nullptr) {  // under ncu: the real kernel, once
    kernels::run_real_kernel(kernel, launch, model.extents, request.dynamic_shared);
    return 0;
  }

  // --save-ncu FILE (and, with --per-line, FILE.source.csv) as every output: opened before ncu
  // runs, never over an input, committed together.
  const bool per_line = std::find(args.begin(), args.end(), "--per-line") != args.end();
  const std::string save = own_flag(args, "--save-ncu");
  CommandOutputs outputs(out, ncu_check_inputs(request, *read));
  if (const std::string ncu = program_file(ncu_path(args)); !ncu.empty())
    outputs.protect("the ncu warpdiv runs", ncu);
  analysis::Output* raw_file =
      outputs.open("--save-ncu", save.empty() ? std::nullopt : std::optional<std::string>(save), "ncu's CSV");
  analysis::Output* page_file = outputs.open(
      "--save-ncu",
      save.empty() || !per_line ? std::nullopt : std::optional<std::string>(save + ".source.csv"),
      "ncu's source page");

  std::vector<Figure> figures = model_figures(kernel, model);
  const std::string child = child_command(analyze_args);
  const std::string csv = profile(args, kernel, child, "--page raw --metrics " + metric_list(figures));
  const analysis::NcuLaunch measured = analysis::parse_ncu_csv(csv, "ncu's CSV").back();
  require_measured(figures, measured);
  std::string page;
  if (per_line)
    page = profile(args, kernel, child, "--section SourceCounters --page source --print-source cuda,sass");
  if (raw_file) raw_file->stream() << csv;
  if (page_file) page_file->stream() << page;
  outputs.commit();

  std::ostream& report = outputs.report();
  write_header(report, kernel, launch, ncu_path(args));
  const bool agree = write_comparison(report, figures, measured);
  if (per_line) write_per_line(report, model_sectors_per_line(kernel, model), source_sectors(page), kernel);
  if (agree) report << "\nGlobal requests and sectors agree.\n";
  outputs.announce();
  if (!agree) throw Mismatch("the model's global requests or sectors differ from ncu's");
  return 0;
}

int ncu_check_command(const Args& args, std::ostream& out) {
  return run_command_form("ncu-check", args, out, ncu_check_source_command);
}

}  // namespace warpdiv::cli

#include "tools/cli/source_kernel.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cstring>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include <sys/stat.h>
#include <unistd.h>

#include "analysis/input_file.hpp"
#include "analysis/matrix_market.hpp"
#include "analysis/npy.hpp"
#include "analysis/source_flags.hpp"
#include "sim/support/errors.hpp"
#include "sim/support/message_text.hpp"
#include "sim/model/ir_json.hpp"
#include "tools/cli/options.hpp"
#include "tools/cli/terminal.hpp"
#include "kernels/frontend/frontend.hpp"

namespace po = boost::program_options;
namespace ir = warpdiv::sim::ir;

namespace warpdiv::cli {

void add_compiler_options(po::options_description& options, const std::string& compiler) {
  options.add_options()(
      "kernel", po::value<std::string>()->value_name("NAME"),
      "the __global__ function of FILE.cu (needed when it defines several; a template as red<16>, "
      "an overload by its parameter types as 'ov(float*)')")(
      "define,D", po::value<std::vector<std::string>>()->value_name("NAME[=VALUE]")->composing(),
      ("a macro for " + compiler + ", as -D NAME=VALUE").c_str())(
      "include-dir,I", po::value<std::vector<std::string>>()->value_name("DIR")->composing(),
      ("a folder " + compiler + " searches for #include files").c_str());
}

void add_kernel_source_options(po::options_description& options) {
  options.add_options()("model", po::value<std::string>()->value_name("FILE"),
                        "a kernel model saved with --save-model, in place of FILE.cu (no Clang needed)");
  add_compiler_options(options, "Clang");
  options.add_options()(
      "build-dir,p", po::value<std::string>()->value_name("BUILD_DIR"),
      "read FILE.cu's flags from BUILD_DIR/compile_commands.json (as clang-tidy -p; CMake writes "
      "it with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON): the entry for FILE.cu's absolute path gives "
      "-I, -isystem, -iquote, -idirafter, -D, -U, -include and -std (nvcc's --include-path, "
      "--system-include, --define-macro, --undefine-macro, --pre-include and --std too), relative "
      "paths taken from the entry's directory; nvcc's code generation, -Xcompiler ..., -o and -c "
      "are left out. -D and -I given here come after the database's")(
      "cuda-headers", po::value<std::string>()->value_name("WHICH"),
      "which headers declare CUDA for Clang: builtin (warpdiv's own, no toolkit needed; the "
      "default), toolkit (the CUDA Toolkit's, as nvcc reads them; slower) or auto (toolkit "
      "where one is found)")(
      "cuda-path", po::value<std::string>()->value_name("DIR"),
      "the CUDA Toolkit's folder for --cuda-headers toolkit/auto (default: $CUDA_PATH, else "
      "/usr/local/cuda)")(
      "fmad", po::value<std::string>()->value_name("true|false"),
      "as nvcc's -fmad: true (the default) contracts floating-point multiplies and adds into "
      "FMAs where nvcc does; false rounds every operation on its own (for code compiled with "
      "-fmad=false)");
}

/// A --cuda-headers value other than builtin, toolkit and auto is refused before anything is read.
static void check_cuda_headers(const po::variables_map& vm) {
  const std::string choices = "builtin, toolkit, auto";  // frontend::kCudaHeadersChoices
  if (!has(vm, "cuda-headers")) return;
  const std::string value = get(vm, "cuda-headers");
  if (value != "builtin" && value != "toolkit" && value != "auto")
    throw InvalidInput(Diag::flag_value,
                       "--cuda-headers " + sim::quote_value(value) + " is not one of " + choices);
}

/// --fmad takes true or false.
static void check_fmad(const po::variables_map& vm) {
  if (!has(vm, "fmad")) return;
  const std::string value = get(vm, "fmad");
  if (value != "true" && value != "false")
    throw InvalidInput(Diag::flag_value, "--fmad " + sim::quote_value(value) + " is not one of true, false");
}

void add_buffer_options(po::options_description& options) {
  options.add_options()(
      "alloc", po::value<std::vector<std::string>>()->value_name("NAME=COUNT")->composing(),
      "pointer parameter NAME's buffer holds COUNT elements of its type (1 .. 2^40), zeros: "
      "every global access through it is bounds-checked, one outside it is an error naming the "
      "access, the element and the first thread (repeat for each)")(
      "data", po::value<std::vector<std::string>>()->value_name("NAME=FILE")->composing(),
      "pointer parameter NAME's buffer holds FILE's elements (.npy of the pointee's type, .bin "
      "raw little-endian elements, .txt for char, FILE.mtx:VIEW a Matrix Market file as csr.row_ptr, "
      "csr.col_idx, csr.values, coo.row, coo.col or coo.values): bounds-checked as --alloc, and branches on "
      "integers loaded from it are counted on these values (repeat for each)");
}

void add_launch_source_options(po::options_description& options) {
  options.add_options()("grid", po::value<std::string>()->value_name("X[,Y[,Z]]"),
                        "gridDim: x 1 .. 2147483647, y and z 1 .. 65535")(
      "block", po::value<std::string>()->value_name("X[,Y[,Z]]"),
      "blockDim: x and y 1 .. 1024, z 1 .. 64, at most 1024 threads")(
      "arg", po::value<std::vector<std::string>>()->value_name("NAME=VALUE")->composing(),
      "a kernel parameter's value (repeat for each): an integer, also usable in --grid and "
      "--block, or for a float or double parameter a decimal such as -2.5 or 1e-3, rounded once "
      "to the parameter's type")(
      "launch", po::value<std::string>()->value_name("N"),
      "without --grid or --block: which launch of the kernel in FILE.cu's host code (1 = the "
      "first in the file), when it has several");
  add_budget_option(options);
}

std::optional<LaunchFlags> host_launch_flags(const po::variables_map& vm, const std::string& command,
                                             const ArgValues& values) {
  const bool both = has(vm, "grid") && has(vm, "block");
  if (has(vm, "launch") && has(vm, "model"))
    throw InvalidInput(Diag::flag_usage,
                       "--launch chooses a launch in FILE.cu's host code; a --model has none");
  if (has(vm, "launch") && both)
    throw InvalidInput(Diag::flag_usage,
                       "--launch chooses a launch in FILE.cu's host code, which --grid and --block "
                       "given together replace: leave out --launch, or one of them");
  if (both) return std::nullopt;
  if (!has(vm, "file"))
    throw InvalidInput(Diag::flag_usage, "warpdiv " + command +
                                             " --model needs --grid X[,Y[,Z]] and --block X[,Y[,Z]] "
                                             "(a model has no host code to read the launch from)");
  LaunchFlags flags;
  flags.grid = get_optional(vm, "grid");
  flags.block = get_optional(vm, "block");
  flags.values = values;
  if (has(vm, "dynamic-smem"))
    flags.dynamic_shared = parse_integer("--dynamic-smem", get(vm, "dynamic-smem"), 0, kMaxDynamicShared);
  if (has(vm, "launch"))
    flags.launch = parse_integer("--launch", get(vm, "launch"), 1, std::numeric_limits<std::int32_t>::max());
  return flags;
}

void add_budget_option(po::options_description& options) {
  options.add_options()("max-evaluations", po::value<std::string>()->value_name("N"),
                        ("the run's budget of warp-statement evaluations, 1 .. 9223372036854775807 "
                         "(default " +
                         sim::to_decimal(ir::kDefaultMaxEvaluations) +
                         ", about a minute): a run past it stops with exit 2 naming the loop "
                         "that was running")
                            .c_str());
}

sim::Count max_evaluations_from(const po::variables_map& vm) {
  if (!has(vm, "max-evaluations")) return ir::kDefaultMaxEvaluations;
  return static_cast<sim::Count>(parse_integer("--max-evaluations", get(vm, "max-evaluations"), 1,
                                               std::numeric_limits<std::int64_t>::max()));
}

po::variables_map parse_source_command_line(const std::string& command, const std::vector<std::string>& args,
                                            const po::options_description& options, std::string& input) {
  po::variables_map vm = parse_with_positional(command, args, options, "file");
  if (has(vm, "help")) return vm;
  if (has(vm, "file") == has(vm, "model"))
    throw InvalidInput(Diag::flag_usage, has(vm, "file")
                                             ? "give FILE.cu or --model FILE, not both"
                                             : "warpdiv " + command + " needs FILE.cu or --model FILE");
  // A misspelt path is the likeliest mistake: name it before anything else.
  input = has(vm, "file") ? get(vm, "file") : get(vm, "model");
  check_kernel_input(vm);
  check_cuda_headers(vm);
  check_fmad(vm);
  return vm;
}

void check_kernel_input(const po::variables_map& vm) {
  const std::string input = has(vm, "file") ? get(vm, "file") : get(vm, "model");
  struct stat info {};
  if (::stat(input.c_str(), &info) != 0 || ::access(input.c_str(), R_OK) != 0)
    throw InvalidInput(Diag::file_unreadable,
                       "cannot read " + sim::quote_value(input) + ": no such file or not readable");
  if (has(vm, "file") && !S_ISREG(info.st_mode))
    throw InvalidInput(Diag::file_unreadable, "cannot read " + sim::quote_value(input) +
                                                  ": not a regular file (give the kernel's .cu source file)");
}

std::vector<std::string> get_all(const po::variables_map& vm, const char* flag) {
  if (!has(vm, flag)) return {};
  return vm[flag].as<std::vector<std::string>>();
}

void check_compiler_flags(const KernelSource& source) {
  for (const std::string& define : source.defines)
    if (const std::string fault = analysis::define_fault(define); !fault.empty())
      throw InvalidInput(Diag::flag_value, "-D " + sim::quote_value(define) + ": " + fault);
  for (const std::string& dir : source.include_dirs)
    if (dir.empty()) throw InvalidInput(Diag::flag_value, "-I '': give a folder to search for headers");
}

KernelSource kernel_source(const po::variables_map& vm) {
  KernelSource source;
  if (has(vm, "file")) source.file = get(vm, "file");
  if (has(vm, "model")) source.model = get(vm, "model");
  if (has(vm, "kernel")) source.kernel = get(vm, "kernel");
  source.defines = get_all(vm, "define");
  source.include_dirs = get_all(vm, "include-dir");
  check_compiler_flags(source);
  if (has(vm, "cuda-headers")) source.cuda_headers = get(vm, "cuda-headers");
  if (has(vm, "cuda-path")) source.cuda_path = get(vm, "cuda-path");
  if (has(vm, "fmad")) source.fmad = get(vm, "fmad") == "true";
  if (has(vm, "build-dir")) {
    source.build_dir = get(vm, "build-dir");
    if (source.build_dir.empty())
      throw InvalidInput(Diag::flag_value, "-p '': give the build folder that holds compile_commands.json");
  }
  if (has(vm, "model"))
    for (const char* flag :
         {"kernel", "define", "include-dir", "cuda-headers", "cuda-path", "fmad", "build-dir"})
      if (has(vm, flag))
        throw InvalidInput(
            Diag::flag_usage,
            std::string("--") + flag + " applies to a source file; a --model holds one kernel already read");
  return source;
}

namespace {

ir::Kernel read_kernel(const KernelSource& source, std::vector<std::string>& notes,
                       std::vector<std::string>* files_read, std::vector<frontend::HostLaunch>* launches) {
  if (!source.model.empty()) {
    const std::string text =
        analysis::read_input_file(source.model, "--model", analysis::InputFormat::model_json);
    try {
      return ir::kernel_from_json(text);
    } catch (const InvalidInput& e) {
      throw InvalidInput(e.diag(), source.model + ": " + e.what());
    }
  }
#ifdef WARPDIV_HAVE_FRONTEND
  frontend::FrontendOptions options;
  options.file = source.file;
  if (source.kernel) options.kernel = *source.kernel;
  options.defines = source.defines;
  options.include_dirs = source.include_dirs;
  if (source.cuda_headers) options.cuda_headers = *source.cuda_headers;
  if (source.cuda_path) options.cuda_path = *source.cuda_path;
  options.fmad = source.fmad;
  options.compile_commands_dir = source.build_dir;
  options.host_launches = source.host_launches;
  options.host_arguments = source.host_arguments;
  options.host_grid = source.host_grid;
  options.host_block = source.host_block;
  return frontend::load_kernel(options, &notes, files_read, launches);
#else
  (void)notes;
  (void)files_read;
  (void)launches;
  throw InvalidInput(Diag::plugin_unavailable,
                     "this warpdiv was built without the Clang front-end, so it cannot read " + source.file +
                         "; save the kernel's model where it was built (warpdiv analyze FILE.cu "
                         "--save-model K.json) and analyse that with --model K.json");
#endif
}

}  // namespace

void print_source_notes(std::ostream& out, const std::vector<std::string>& notes) {
  const std::size_t shown = notes.size() <= kMaxSourceNotes + 1 ? notes.size() : kMaxSourceNotes;
  for (std::size_t i = 0; i < shown; ++i) print_note(Diag::unreached_error, notes[i], out);
  if (shown < notes.size())
    print_note(
        Diag::unreached_error,
        "and " + std::to_string(notes.size() - shown) + " more errors in code the kernel does not reach",
        out);
}

std::optional<SourceKernel> read_source_kernel(const KernelSource& source,
                                               std::vector<std::string>* files_tried,
                                               frontend::FirstClangError* first_error) {
  SourceKernel read;
  std::vector<std::string> notes;
  try {
    read.kernel = read_kernel(source, notes, &read.files_read, &read.launches);
#ifdef WARPDIV_HAVE_FRONTEND
  } catch (const frontend::ClangDiagnostics& e) {
    if (files_tried != nullptr) *files_tried = read.files_read;
    if (first_error != nullptr) *first_error = e.first();
    std::cerr << e.what() << '\n';  // as Clang prints them: file:line:col: error: ...
    return std::nullopt;
#else
    (void)first_error;
#endif
  } catch (...) {
    if (files_tried != nullptr) *files_tried = read.files_read;
    throw;
  }
  if (files_tried != nullptr) *files_tried = read.files_read;
  print_source_notes(std::cerr, notes);
  return read;
}

namespace {

// The decimal `text` rounded once to the parameter's float or double (std::from_chars rounds
// correctly), as its bits; a value past the type's finite range, or so small that it rounds to
// zero, is refused.
template <typename F>
std::uint64_t rounded_bits(const ir::Parameter& p, const std::string& text, const char* type,
                           const char* range) {
  F value = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), value);
  if (r.ptr != text.data() + text.size() || (r.ec != std::errc() && r.ec != std::errc::result_out_of_range))
    throw InvalidInput(Diag::flag_value,
                       "--arg " + p.name + ": " + sim::quote_value(text) + " is not a decimal number");
  if (r.ec == std::errc::result_out_of_range)
    throw InvalidInput(Diag::flag_value, "--arg " + p.name + ": " + text + " is outside " + type +
                                             "'s range (" + p.name + " is " + type +
                                             ": a finite nonzero value from " + range +
                                             " in magnitude; give 0 for zero)");
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof value);
  return bits;
}

}  // namespace

std::uint64_t floating_bits(const ir::Parameter& p, const std::string& text) {
  return p.floating == 32 ? rounded_bits<float>(p, text, "float", "1.4e-45 to 3.4028235e+38")
                          : rounded_bits<double>(p, text, "double", "4.9e-324 to 1.7976931348623157e+308");
}

// The identifiers in `text` (the names --grid and --block use).
std::set<std::string> identifiers_in(const std::string& text) {
  std::set<std::string> names;
  for (std::size_t i = 0; i < text.size();) {
    if (!is_identifier_start(text[i])) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && is_identifier_char(text[end])) ++end;
    names.insert(text.substr(i, end - i));
    i = end;
  }
  return names;
}

std::vector<bool> given_parameters(const ir::Kernel& kernel, const ArgValues& values) {
  std::vector<bool> given;
  for (const ir::Parameter& p : kernel.parameters) given.push_back(values.count(p.name) != 0);
  return given;
}

std::vector<ir::Value> bind_arguments(const ir::Kernel& kernel, const ArgValues& values,
                                      const std::string& expressions) {
  std::set<std::string> used = identifiers_in(expressions);
  std::vector<std::string> parameters;
  for (const ir::Parameter& p : kernel.parameters) {
    // A value for a pointer (or a struct ...) would be ignored: refused, unless --grid or
    // --block use the name (then it is theirs).
    const bool pointer = p.type_spelling.find_first_of("*[") != std::string::npos;
    if (!p.scalar && p.floating == 0 && values.count(p.name) != 0 && used.count(p.name) == 0)
      throw InvalidInput(Diag::flag_value,
                         "--arg " + sim::quote_value(p.name) + ": the parameter " + p.name + " of " +
                             kernel.name + " is " + (pointer ? "a pointer" : "of type") + " ('" +
                             p.type_spelling + "'), which takes no value" +
                             (pointer ? " (the model reads no memory)" : "") + "; leave it out");
    used.insert(p.name);
    if (p.scalar || p.floating != 0) parameters.push_back(p.name);
  }
  for (const auto& [name, value] : values)
    if (used.count(name) == 0) {
      const std::string guess = sim::closest_name(name, parameters);
      throw InvalidInput(Diag::flag_value, "--arg " + sim::quote_value(name) + " names no parameter of " +
                                               kernel.name + " (" +
                                               (parameters.empty() ? "none" : sim::listed(parameters)) +
                                               ") and no name in --grid or --block" +
                                               (guess.empty() ? "" : "; did you mean " + guess + "?"));
    }
  std::vector<ir::Value> arguments;
  for (const ir::Parameter& p : kernel.parameters) {
    if (!p.scalar) {
      // A float or double: its bits (0.0 when not given: check_floating_values refuses a
      // branch that depends on it).
      const auto found = values.find(p.name);
      arguments.emplace_back();
      if (p.floating != 0 && found != values.end())
        arguments.back().bits = floating_bits(p, found->second.text());
      continue;
    }
    const auto found = values.find(p.name);
    if (found == values.end())
      throw InvalidInput(Diag::flag_usage, "kernel " + kernel.name + "'s parameter " + p.name + " (" +
                                               ir::name(p.type) + ") needs a value: give --arg " + p.name +
                                               "=VALUE");
    if (!found->second.integer())
      throw InvalidInput(Diag::flag_value, "--arg " + p.name + ": " + p.name + " is " + ir::name(p.type) +
                                               ", which takes a decimal integer from " +
                                               ir::range_text(p.type) + " (got " +
                                               sim::quote_value(found->second.text()) + ")");
    try {
      const ArgValue& a = found->second;
      arguments.push_back(a.fits_int64() ? ir::Value::of(p.type, a.value)
                                         : ir::Value::of_unsigned(p.type, a.bits()));
    } catch (const InvalidInput& e) {
      throw InvalidInput(e.diag(), "--arg " + p.name + ": " + e.what());
    }
  }
  return arguments;
}

ir::Dim3 to_dim3(const Extent3& e) {
  // check_block / check_grid keep every component within 1 .. 2^31 - 1.
  return ir::Dim3{static_cast<std::uint32_t>(e.x), static_cast<std::uint32_t>(e.y),
                  static_cast<std::uint32_t>(e.z)};
}

ir::Launch launch_from_flags(const po::variables_map& vm, const ArgValues& values) {
  ir::Launch launch;
  const Extent3 grid = parse_extent("--grid", get(vm, "grid"), values);
  const Extent3 block = parse_extent("--block", get(vm, "block"), values);
  check_grid("--grid", grid);
  check_block("--block", block);
  launch.grid = to_dim3(grid);
  launch.block = to_dim3(block);
  if (has(vm, "warp-size")) launch.warp_size = parse_warp_size("--warp-size", get(vm, "warp-size"));
  return launch;
}

SourceEngine parse_source_engine(const std::string& text) {
  if (text == "auto") return SourceEngine::automatic;
  if (text == "exact") return SourceEngine::exact;
  if (text == "replay") return SourceEngine::replay;
  if (text == "all") return SourceEngine::all;
  throw InvalidInput(Diag::flag_value,
                     "--engine must be auto, exact, replay or all (got " + sim::quote_value(text) + ")");
}

namespace {

// The pointer parameter `name` with a known element size, for `flag`; else InvalidInput listing them.
std::size_t pointer_parameter(const ir::Kernel& kernel, const std::string& name, const std::string& flag) {
  std::size_t i = 0;
  while (i < kernel.parameters.size() && kernel.parameters[i].name != name) ++i;
  if (i < kernel.parameters.size() && kernel.parameters[i].element_bytes != 0) return i;
  std::vector<std::string> pointers;
  for (const ir::Parameter& p : kernel.parameters)
    if (p.element_bytes != 0) pointers.push_back(p.name);
  const std::string guess = sim::closest_name(name, pointers);
  throw InvalidInput(Diag::flag_value, flag + " " + sim::quote_value(name) +
                                           " names no pointer parameter of " + kernel.name +
                                           " whose element size is known (" +
                                           (pointers.empty() ? "none" : sim::listed(pointers)) + ")" +
                                           (guess.empty() ? "" : "; did you mean " + guess + "?"));
}

}  // namespace

std::vector<std::uint64_t> bind_allocs(const ir::Kernel& kernel, const std::vector<std::string>& pairs) {
  constexpr std::int64_t kMaxCount = std::int64_t{1} << 40;
  std::vector<std::uint64_t> bytes(kernel.parameters.size(), 0);
  for (const std::string& pair : pairs) {
    const auto equals = pair.find('=');
    const std::string name = pair.substr(0, equals);
    if (equals == std::string::npos || name.empty())
      throw InvalidInput(Diag::flag_value, "--alloc must be NAME=COUNT (got " + sim::quote_value(pair) + ")");
    const std::size_t i = pointer_parameter(kernel, name, "--alloc");
    if (bytes[i] != 0) throw InvalidInput(Diag::flag_usage, "--alloc " + name + " is given twice");
    const std::int64_t count = parse_integer("--alloc " + name, pair.substr(equals + 1), 1, kMaxCount);
    bytes[i] = static_cast<std::uint64_t>(count) * kernel.parameters[i].element_bytes;
  }
  return bytes;
}

namespace {

/// A --data value's file and view: FILE.mtx:VIEW is a Matrix Market file's view (split at the last
/// ':', paths may hold colons); any other value is a file alone.
std::pair<std::string, std::string> file_and_view(std::string file) {
  std::string view;
  if (const auto colon = file.rfind(':');
      colon != std::string::npos && colon >= 4 && file.compare(colon - 4, 4, ".mtx") == 0) {
    view = file.substr(colon + 1);
    file.resize(colon);
  }
  return {file, view};
}

}  // namespace

std::vector<std::string> data_files(const std::vector<std::string>& pairs) {
  std::vector<std::string> files;
  for (const std::string& pair : pairs)
    if (const auto equals = pair.find('='); equals != std::string::npos)
      files.push_back(file_and_view(pair.substr(equals + 1)).first);
  return files;
}

namespace {

// A file's values for a buffer of `p`'s elements, by its name's type: .npy, .bin or .txt.
std::string file_values(const std::string& file, const std::string& name, const ir::Parameter& p,
                        const std::string& what) {
  const auto ends_with = [&](const std::string& suffix) {
    return file.size() >= suffix.size() &&
           file.compare(file.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  const std::string pointee = p.element_type.empty() ? "an unknown type" : p.element_type;
  if (!ends_with(".npy") && !ends_with(".bin") && !ends_with(".txt"))
    throw InvalidInput(Diag::flag_value,
                       what +
                           ": the file type is not known from its name (allowed: .npy, NumPy's format; "
                           ".bin, raw little-endian elements; .txt, text for a char buffer; FILE.mtx:VIEW, "
                           "a view of a Matrix Market file)");
  const analysis::InputFormat format = ends_with(".npy")   ? analysis::InputFormat::npy
                                       : ends_with(".bin") ? analysis::InputFormat::raw_binary
                                                           : analysis::InputFormat::text;
  std::string bytes = analysis::read_input_file(file, "--data " + name, format);
  if (format == analysis::InputFormat::npy) {
    analysis::NpyArray array = analysis::parse_npy(bytes, "--data " + name + ": " + sim::quote_value(file));
    const std::string mismatch = analysis::npy_matches(array, p.element_type);
    if (!mismatch.empty()) throw InvalidInput(Diag::file_content, what + ": " + mismatch);
    return std::move(array.data);
  }
  if (format == analysis::InputFormat::raw_binary) {
    if (bytes.size() % p.element_bytes != 0)
      throw InvalidInput(Diag::file_content,
                         what + ": " + std::to_string(bytes.size()) + " bytes are not a whole number of " +
                             pointee + " elements of " + std::to_string(p.element_bytes) + " bytes");
    const std::optional<std::size_t> k =
        pointee == "bool" || pointee == "_Bool" ? analysis::first_non_bool(bytes) : std::nullopt;
    if (k)
      throw InvalidInput(Diag::file_content, what + ": element " + std::to_string(*k) + " (byte " +
                                                 std::to_string(*k) + " of the file) is " +
                                                 std::to_string(static_cast<unsigned char>(bytes[*k])) +
                                                 "; a bool element is 0 or 1");
    return bytes;
  }
  if (p.element_bytes != 1 || (pointee != "char" && pointee != "unsigned char" && pointee != "signed char"))
    throw InvalidInput(Diag::file_content, what + ": a text file gives a char buffer's bytes, but '" + name +
                                               "' points to " + pointee + " (use .npy or .bin)");
  return bytes;
}

}  // namespace

void bind_data(const ir::Kernel& kernel, const std::vector<std::string>& pairs, ir::Launch& launch) {
  if (pairs.empty()) return;
  launch.buffer_bytes.resize(kernel.parameters.size(), 0);
  launch.buffer_data.assign(kernel.parameters.size(), nullptr);
  std::map<std::string, std::shared_ptr<analysis::SparseMatrix>> matrices;  // each file read once
  for (const std::string& pair : pairs) {
    const auto equals = pair.find('=');
    const std::string name = pair.substr(0, equals);
    if (equals == std::string::npos || name.empty() || equals + 1 == pair.size())
      throw InvalidInput(Diag::flag_value, "--data must be NAME=FILE (got " + sim::quote_value(pair) + ")");
    const auto [file, view] = file_and_view(pair.substr(equals + 1));
    const std::size_t i = pointer_parameter(kernel, name, "--data");
    const ir::Parameter& p = kernel.parameters[i];
    if (launch.buffer_data[i] != nullptr)
      throw InvalidInput(Diag::flag_usage, "--data " + name + " is given twice");
    if (launch.buffer_bytes[i] != 0)
      throw InvalidInput(Diag::flag_usage,
                         "--data " + name + " and --alloc " + name + " both give its buffer: choose one");
    const std::string what = "--data " + name + "=" + pair.substr(equals + 1);
    std::string values;
    if (!view.empty() || (file.size() >= 4 && file.compare(file.size() - 4, 4, ".mtx") == 0)) {
      if (view.empty())
        throw InvalidInput(Diag::flag_value, what + ": a Matrix Market file needs a view, FILE.mtx:VIEW (" +
                                                 sim::listed(analysis::matrix_market_views()) + ")");
      auto& matrix = matrices[file];
      if (matrix == nullptr)
        matrix =
            std::make_shared<analysis::SparseMatrix>(analysis::read_matrix_market(file, "--data " + name));
      values = analysis::matrix_market_view(*matrix, view, p.element_type, p.element_bytes, what);
      if (values.empty())
        throw InvalidInput(Diag::file_content,
                           what + ": the view holds no elements (a buffer needs at least one)");
    } else {
      values = file_values(file, name, p, what);
      if (values.empty())
        throw InvalidInput(Diag::file_content,
                           what + ": the file holds no elements (a buffer needs at least one)");
    }
    launch.buffer_bytes[i] = values.size();
    launch.buffer_data[i] = std::make_shared<const std::string>(std::move(values));
  }
}

void check_bounds(const ir::Kernel& kernel, const ir::Launch& launch, SourceCounts& counts) {
  // Pointer parameters' buffers given with --alloc/--data, and declared arrays (__shared__,
  // local ...), whose sizes the model always has: an access outside one is bad input.
  const bool given = std::any_of(launch.buffer_bytes.begin(), launch.buffer_bytes.end(),
                                 [](std::uint64_t b) { return b != 0; });
  const bool declared = launch.dynamic_shared_bytes != 0 ||
                        std::any_of(kernel.bases.begin(), kernel.bases.end(),
                                    [](const ir::MemoryBase& b) { return b.parameter < 0 && b.bytes != 0; });
  if (!given && !declared) return;
  const ir::ReplayResult& r = counts.result;
  for (std::size_t a = 0; a < r.access_out_of_bounds.size() && a < r.access_faults.size(); ++a)
    if (r.access_out_of_bounds[a]) throw ir::located(Diag::out_of_bounds, kernel, r.access_faults[a]);
  if (counts.class_memory_out_of_bounds && !r.memory_counted)
    throw ir::located(Diag::out_of_bounds, kernel,
                      counts.class_memory_unproven + ", here " +
                          sim::to_decimal(r.warp_statement_evaluations) +
                          " warp-statement evaluations, above its budget of " +
                          sim::to_decimal(kMemoryReplayBudget) + " (--engine replay runs it all)");
  if (!r.memory_counted) {
    counts.memory_note +=
        given ? "; so the accesses were not checked against --alloc's buffers either"
              : "; so the accesses were not checked against the declared arrays' sizes either";
    return;
  }
  // A backstop: every access in bounds means every base's extent is.
  for (std::size_t b = 0; b < kernel.bases.size() && b < r.extents.size(); ++b) {
    const ir::MemoryBase& base = kernel.bases[b];
    if (base.parameter < 0 || static_cast<std::size_t>(base.parameter) >= launch.buffer_bytes.size())
      continue;
    const std::uint64_t bound = launch.buffer_bytes[static_cast<std::size_t>(base.parameter)];
    const ir::BaseExtent& e = r.extents[b];
    if (bound != 0 && e.touched && (e.lowest < 0 || static_cast<std::uint64_t>(e.end) > bound))
      throw InternalError("the accesses through '" + base.name + "' reach bytes " + std::to_string(e.lowest) +
                          " to " + std::to_string(e.end) + " of a buffer of " + std::to_string(bound) +
                          " bytes, yet no access was found out of bounds");
  }
}

SourceCounts count_source(const ir::Kernel& kernel, const ir::Launch& launch,
                          const ir::ReplayOptions& options, SourceEngine engine) {
  sim::CountRequest request;
  request.engine = engine;
  request.options = options;
  return sim::count_launch(kernel, launch, request);
}

void print_count_notes(const SourceCounts& counts, const std::string& prefix) {
  if (!counts.note.empty()) print_note(counts.note_id, prefix + counts.note);
  if (!counts.result.races_unchecked.empty())
    print_note(Diag::race_check_partial, prefix + counts.result.races_unchecked);
}

analysis::SourceHtmlPage source_html_page(const ir::Kernel& kernel, const ir::Launch& launch,
                                          const ir::ReplayOptions& options, const SourceCounts& counts) {
  analysis::SourceHtmlPage page;
  for (std::size_t i = 0; i < counts.classes.size(); ++i) {
    const ir::BlockClass& c = counts.classes[i];
    analysis::BlockClassView v;
    v.name = "class " + std::to_string(i + 1);
    v.definition = c.definition;
    v.x = {c.intervals[0].first, c.intervals[0].last + 1};
    v.y = {c.intervals[1].first, c.intervals[1].last + 1};
    v.z = {c.intervals[2].first, c.intervals[2].last + 1};
    v.blocks = c.blocks;
    v.representative = c.representative;
    page.classes.push_back(v);
  }
  page.engine_note = counts.classes.empty() ? counts.engine_line +
                                                  " Block classes are found by the class engine "
                                                  "(--engine exact or auto)."
                                            : counts.engine_line;
  page.memory_note = counts.memory_line;
  const auto add = [&](const std::string& title, const ir::Dim3& block) {
    std::string note;
    auto maps = analysis::warp_iteration_maps(kernel, launch, block, &note);
    page.maps.push_back({title, std::move(maps), note});
  };
  // With classes: maps from each class's run (iteration classes as columns), at any size.
  const auto add_class = [&](const std::string& title, const ir::BlockClass& c) {
    std::string note;
    auto maps = analysis::class_iteration_maps(kernel, launch, c, &note);
    page.maps.push_back({title, std::move(maps), note});
  };
  if (options.only_block) {
    const std::string title = "block " + ir::to_string(*options.only_block);
    if (counts.classes.size() == 1)
      add_class(title, counts.classes.front());
    else
      add(title, *options.only_block);
  } else if (!counts.classes.empty()) {
    for (std::size_t i = 0; i < page.classes.size() && i < analysis::kMaxMapClasses; ++i) {
      const analysis::BlockClassView& c = page.classes[i];
      add_class(c.name + ": " + c.definition + " (" + sim::to_decimal(c.blocks) + " blocks), block " +
                    ir::to_string(c.representative),
                counts.classes[i]);
    }
  } else {
    const ir::Dim3 first{0, 0, 0};
    const ir::Dim3 last{launch.grid.x - 1, launch.grid.y - 1, launch.grid.z - 1};
    add("first block " + ir::to_string(first), first);
    if (!(last == first)) add("last block " + ir::to_string(last), last);
  }
  return page;
}

ProgressThread::ProgressThread(const std::string& label, const std::string& unit, std::uint64_t total,
                               const std::atomic<std::uint64_t>& done)
    : bar_(label, unit, total), done_(done), thread_([this] {
        std::unique_lock<std::mutex> lock(mutex_);
        while (!finished_) {
          bar_.update(done_.load());
          wake_.wait_for(lock, std::chrono::milliseconds(100));
        }
      }) {}

ProgressThread::~ProgressThread() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    finished_ = true;
  }
  wake_.notify_all();
  thread_.join();
  bar_.update(done_.load());  // the last state: 100% unless the run stopped early
  bar_.finish();
}

}  // namespace warpdiv::cli

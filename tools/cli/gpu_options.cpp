#include "tools/cli/gpu_options.hpp"

#include <cctype>
#include <filesystem>

#include "analysis/gpu_presets.hpp"
#include "sim/support/errors.hpp"
#include "sim/support/message_text.hpp"
#include "tools/cli/options.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace warpdiv::cli {

namespace {
constexpr const char* kPresetFileName = "gpus.csv";
}  // namespace

std::vector<std::string> gpu_file_candidates() {
  std::vector<fs::path> candidates;
  std::error_code error;
  // Beside the binary first: a binary copied elsewhere (the device machine) takes its CSV along.
  const fs::path exe = fs::read_symlink("/proc/self/exe", error);
  if (!error) {
    candidates.push_back(exe.parent_path() / kPresetFileName);
    candidates.push_back(exe.parent_path() / "data" / kPresetFileName);
#ifdef WARPDIV_INSTALLED_DATA_FROM_BIN
    // Where `cmake --install` puts it: PREFIX/share/warpdiv beside PREFIX/bin.
    candidates.push_back(
        (exe.parent_path() / WARPDIV_INSTALLED_DATA_FROM_BIN / kPresetFileName).lexically_normal());
#endif
  }
#ifdef WARPDIV_DATA_DIR
  candidates.push_back(fs::path(WARPDIV_DATA_DIR) / kPresetFileName);
#endif
  std::vector<std::string> paths;
  for (const fs::path& p : candidates) paths.push_back(p.string());
  return paths;
}

std::string default_gpu_file() {
  std::error_code error;
  std::vector<std::string> candidates = gpu_file_candidates();
  std::string looked;
  for (const std::string& p : candidates) {
    if (fs::is_regular_file(p, error)) return p;
    looked += (looked.empty() ? "" : ", ") + p;
  }
  throw InvalidInput(Diag::file_unreadable,
                     "no GPU presets file found (looked at " + looked + "); give one with --gpu-file FILE");
}

void add_gpu_options(po::options_description& options) {
  options.add_options()("gpu", po::value<std::string>()->value_name("NAME"),
                        "GPU preset (case-insensitive); 'list' prints the presets (with no other flag but "
                        "--gpu-file)")("gpu-file", po::value<std::string>()->value_name("FILE"),
                                       "read the GPU presets from FILE (same columns as data/gpus.csv)")(
      "regs", po::value<std::string>()->value_name("R"), "registers per thread: 0 .. 1024 (default 32)");
}

GpuRequest gpu_request(const po::variables_map& vm) {
  GpuRequest gpu;
  if (has(vm, "gpu")) gpu.name = get(vm, "gpu");
  if (has(vm, "gpu-file")) gpu.file = get(vm, "gpu-file");
  if (has(vm, "regs"))
    gpu.registers = static_cast<int>(parse_integer("--regs", get(vm, "regs"), 0, gpu_flags::kMaxRegs));
  return gpu;
}

bool gpu_list_asked(const po::variables_map& vm, GpuRequest& gpu) {
  if (!has(vm, "gpu")) return false;
  std::string wanted = get(vm, "gpu");
  for (char& c : wanted) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (wanted != "list") return false;
  const std::vector<std::string> ignored = flags_other_than(vm, {"gpu", "gpu-file"});
  if (!ignored.empty())
    throw InvalidInput(
        Diag::flag_usage,
        "--gpu list prints the presets and takes no flag but --gpu-file (got " + sim::listed(ignored) + ")");
  gpu = gpu_request(vm);
  return true;
}

GpuCatalogue load_gpu_catalogue(const GpuRequest& gpu) {
  GpuCatalogue catalogue;
  catalogue.file = gpu.file ? *gpu.file : default_gpu_file();
  catalogue.gpus = analysis::load_gpu_file(catalogue.file, gpu.file ? "--gpu-file" : "the GPU presets file");
  return catalogue;
}

analysis::GpuSpec find_requested_gpu(const GpuRequest& gpu) {
  const GpuCatalogue catalogue = load_gpu_catalogue(gpu);
  return analysis::find_gpu(catalogue.gpus, gpu.name, "--gpu", catalogue.file);
}

void list_gpus(std::ostream& out, const GpuRequest& gpu) {
  const GpuCatalogue catalogue = load_gpu_catalogue(gpu);
  analysis::write_gpu_list(out, catalogue.gpus, catalogue.file);
}

}  // namespace warpdiv::cli

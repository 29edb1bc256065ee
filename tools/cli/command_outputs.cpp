#include "tools/cli/command_outputs.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "jit/loader.hpp"
#include "kernels/frontend/frontend.hpp"
#include "tools/cli/gpu_options.hpp"

namespace warpdiv::cli {

std::vector<RunInput> run_inputs(const KernelSource& source, const std::optional<std::string>& gpu_file,
                                 const std::vector<std::string>& sources) {
  std::vector<RunInput> inputs;
  if (!source.file.empty()) inputs.emplace_back("the kernel source", source.file);
  if (!source.model.empty()) inputs.emplace_back("--model", source.model);
  if (gpu_file) inputs.emplace_back("--gpu-file", *gpu_file);
  if (!source.build_dir.empty())
    inputs.emplace_back("the compilation database", source.build_dir + "/compile_commands.json");
  for (std::size_t i = 0; i < sources.size(); ++i)
    inputs.emplace_back(i == 0 ? "the kernel source" : "a file the kernel was read from", sources[i]);
  return inputs;
}

bool answered_at_once(std::ostream& out, const std::string& help, const GpuRequest* gpus) {
  if (gpus) {
    // The listing goes to standard output, which must not be the presets it lists.
    std::vector<RunInput> inputs;
    if (gpus->file) inputs.emplace_back("--gpu-file", *gpus->file);
    const CommandOutputs guard(out, inputs);
    list_gpus(out, *gpus);
  }
  out << help;
  return gpus || !help.empty();
}

CommandOutputs::CommandOutputs(std::ostream& standard_output, const std::vector<RunInput>& inputs)
    : files_(standard_output) {
  for (const auto& [what, path] : inputs) files_.protect(what, path);
  // What every run reads or runs: the program, its plugins and its GPU presets.
  std::error_code error;
  const std::filesystem::path program = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) files_.protect("the warpdiv program", program.string());
#ifdef WARPDIV_HAVE_FRONTEND
  for (const std::string& path : frontend::plugin_files()) files_.protect("warpdiv's Clang front-end", path);
#endif
#ifdef WARPDIV_HAVE_NATIVE_LOADER
  for (const std::string& path : jit::plugin_files()) files_.protect("warpdiv's native-replay plugin", path);
#endif
  for (const std::string& path : gpu_file_candidates()) files_.protect("warpdiv's GPU presets", path);
}

analysis::Output* CommandOutputs::open(const std::string& flag, const std::optional<std::string>& path,
                                       const std::string& label) {
  if (!path) return nullptr;
  analysis::Output& output = files_.open(flag, *path);
  opened_.emplace_back(label, &output);
  return &output;
}

void CommandOutputs::announce(Spacing spacing) {
  std::ostream& text = files_.report();
  const auto written = [](const auto& opened) { return !opened.second->withdrawn(); };
  if (spacing == Spacing::blank_line && std::any_of(opened_.begin(), opened_.end(), written)) text << '\n';
  for (const auto& opened : opened_)
    if (written(opened)) text << opened.first << " written to " << opened.second->name() << '\n';
}

}  // namespace warpdiv::cli

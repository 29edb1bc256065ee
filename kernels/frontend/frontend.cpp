// The front-end's public API: parse, choose the kernel, lower, validate.
#include "kernels/frontend/frontend.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "sim/model/ir_contract.hpp"
#include "sim/support/large_stack.hpp"
#include "sim/support/message_text.hpp"
#include "kernels/frontend/clang_parse.hpp"
#include "kernels/frontend/host_launch.hpp"
#include "kernels/frontend/lower.hpp"

namespace warpdiv::frontend {
namespace {

/// "ns::k<16>" -> "ns::k"; "ns::k" -> "k" by unqualified().
std::string without_template_arguments(const std::string& name) { return name.substr(0, name.find('<')); }
std::string unqualified(const std::string& name) {
  const std::size_t colons = name.rfind("::");
  return colons == std::string::npos ? name : name.substr(colons + 2);
}

/// `text` without spaces: signatures compare so ("ov(float*)" is "ov(float *)").
std::string without_spaces(const std::string& text) {
  std::string result;
  for (const char c : text)
    if (std::isspace(static_cast<unsigned char>(c)) == 0) result += c;
  return result;
}

/// `name` as its template arguments may be written: without spaces, and an integer argument without
/// its suffix ("reduce4<int,256>" for Clang's "reduce4<int, 256U>", "k<16>" for "k<16UL>").
std::string as_written(const std::string& name) {
  const std::string bare = without_spaces(name);
  std::string result;
  const auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; };
  for (std::size_t i = 0; i < bare.size();) {
    if (std::isdigit(static_cast<unsigned char>(bare[i])) != 0 && (i == 0 || !word(bare[i - 1]))) {
      std::size_t end = i;
      while (end < bare.size() && std::isdigit(static_cast<unsigned char>(bare[end])) != 0) ++end;
      std::size_t suffix = end;
      while (suffix < bare.size() && std::strchr("uUlL", bare[suffix]) != nullptr && bare[suffix] != '\0')
        ++suffix;
      result += bare.substr(i, end - i);
      i = (suffix == bare.size() || !word(bare[suffix])) ? suffix : end;
      continue;
    }
    result += bare[i++];
  }
  return result;
}

/// The kernel `wanted` names: with '(' its signature (spaces ignored); else its full name, when
/// no other kernel has it (overloads); else the only one it names with its template arguments as
/// the source writes them (as_written); else the only one whose name without template arguments,
/// or without namespaces, is `wanted`. Where Clang reported errors and no kernel, or no single
/// kernel, is found, the errors may be why (a file that includes itself defines its kernels once
/// per inclusion): they are shown, with the reason after them.
const detail::FoundKernel& choose(const detail::ParsedSource& source, const FrontendOptions& options) {
  const std::vector<detail::FoundKernel>& kernels = source.kernels();
  const auto not_found = [&](const std::string& message) {
    if (source.has_errors())  // Clang's errors, then this one as the CLI prints diagnostics
      throw ClangDiagnostics(source.all_errors() + "\nwarpdiv: error: " + sim::one_line(message) + " [" +
                                 diagnostic_tag(Diag::kernel_choice) + "]",
                             source.first_error());
    throw InvalidInput(Diag::kernel_choice, message);
  };
  std::vector<KernelInfo> infos;
  for (const auto& kernel : kernels) infos.push_back(kernel.info);
  if (kernels.empty()) not_found(options.file + ": no __global__ function is defined");
  if (options.kernel.empty()) {
    if (kernels.size() == 1) return kernels[0];
    const bool one_again = std::all_of(
        infos.begin(), infos.end(), [&](const KernelInfo& i) { return i.signature == infos[0].signature; });
    if (one_again && source.has_errors())  // a file included again and again (itself, or no guard)
      not_found(options.file + " defines the __global__ function " + infos[0].signature + " " +
                std::to_string(kernels.size()) +
                " times: the file is included again and again (it includes itself, or a header without an "
                "include guard does), as Clang's errors above say");
    not_found(options.file + " defines " + std::to_string(kernels.size()) + " __global__ functions (" +
              kernel_names(infos) + "): choose one with --kernel NAME");
  }
  std::vector<const detail::FoundKernel*> matches;
  if (options.kernel.find('(') != std::string::npos) {
    const std::string wanted = without_spaces(options.kernel);
    for (const auto& kernel : kernels)
      if (without_spaces(kernel.info.signature) == wanted) return kernel;
    std::string signatures;
    for (const auto& kernel : kernels) signatures += (signatures.empty() ? "" : ", ") + kernel.info.signature;
    not_found(options.file + ": no __global__ function has the signature '" + options.kernel +
              "' (defined: " + signatures + ")");
  }
  for (const auto& kernel : kernels)
    if (kernel.info.name == options.kernel) matches.push_back(&kernel);
  if (matches.size() > 1) {  // overloads: only a signature tells them apart
    std::string signatures;
    for (const auto* match : matches) signatures += (signatures.empty() ? "" : ", ") + match->info.signature;
    not_found(options.file + ": --kernel " + options.kernel + " names " + std::to_string(matches.size()) +
              " overloaded kernels (" + signatures + "): choose one by its parameter types, as --kernel '" +
              matches.back()->info.signature + "'");
  }
  if (matches.size() == 1) return *matches[0];
  // Template arguments as the source writes them (256 for Clang's 256U), namespaces or not.
  const std::string written = as_written(options.kernel);
  for (const auto& kernel : kernels)
    if (as_written(kernel.info.name) == written || as_written(unqualified(kernel.info.name)) == written)
      matches.push_back(&kernel);
  if (matches.size() == 1) return *matches[0];
  matches.clear();
  for (const auto& kernel : kernels) {
    const std::string base = without_template_arguments(kernel.info.name);
    if (base == options.kernel || unqualified(base) == options.kernel ||
        unqualified(kernel.info.name) == options.kernel)
      matches.push_back(&kernel);
  }
  if (matches.size() == 1) return *matches[0];
  if (matches.empty()) {
    not_found(options.file + ": no __global__ function named '" + options.kernel +
              "' (defined: " + kernel_names(infos) + ")");
  }
  std::vector<KernelInfo> candidates;
  for (const auto* match : matches) candidates.push_back(match->info);
  throw InvalidInput(Diag::kernel_choice, options.file + ": --kernel " + options.kernel + " matches " +
                                              std::to_string(matches.size()) + " kernels (" +
                                              kernel_names(candidates) + "): name one exactly");
}

}  // namespace

// Both entry points run Clang and the lowering on a large stack (sim/support/large_stack.hpp): Clang's
// parser recurses once per nested statement, and an else-if chain is as deep as it is long.

std::vector<KernelInfo> list_kernels(const FrontendOptions& options) {
  std::vector<KernelInfo> infos;
  sim::run_with_large_stack([&] {
    const detail::ParsedSource source(options);
    for (const auto& kernel : source.kernels()) infos.push_back(kernel.info);
  });
  return infos;
}

namespace {

sim::ir::Kernel load_parsed(const detail::ParsedSource& source, const FrontendOptions& options,
                            std::vector<std::string>* notes, std::vector<std::string>* files_read,
                            std::vector<HostLaunch>* launches);

/// load_kernel on this thread; every file read reported in `files_read` when it fails too.
sim::ir::Kernel load_here(const FrontendOptions& options, std::vector<std::string>* notes,
                          std::vector<std::string>* files_read, std::vector<HostLaunch>* launches) {
  const detail::ParsedSource source(options, files_read);
  try {
    return load_parsed(source, options, notes, files_read, launches);
  } catch (...) {
    if (files_read != nullptr) *files_read = source.files_read();
    throw;
  }
}

sim::ir::Kernel load_parsed(const detail::ParsedSource& source, const FrontendOptions& options,
                            std::vector<std::string>* notes, std::vector<std::string>* files_read,
                            std::vector<HostLaunch>* launches) {
  const detail::FoundKernel& kernel = choose(source, options);
  if (kernel.info.uninstantiated_template) {
    throw InvalidInput(Diag::kernel_choice,
                       kernel.info.location + ": the kernel template '" + kernel.info.name +
                           "' has no instantiation in this file: launch it (" + kernel.info.name +
                           "<...><<<grid, block>>>(...)) or instantiate it (template __global__ void " +
                           kernel.info.name + "<...>(...);)");
  }
  std::vector<std::string> host_notes = source.notes_for(kernel);  // throws for errors in reach
  // An overloaded kernel is named by its signature in the model (and so in reports).
  bool overloaded = false;
  for (const auto& other : source.kernels())
    overloaded = overloaded || (&other != &kernel && other.info.name == kernel.info.name);
  sim::ir::Kernel model =
      detail::lower_kernel(*kernel.decl, source.context(),
                           overloaded ? kernel.info.signature : kernel.info.name, source.api_dirs());
  if (options.fmad) sim::ir::refuse_unsettled_branches(model, sim::ir::contract_floating(model));
  sim::ir::add_undefined_checks(model);
  sim::ir::validate(model);
  if (notes != nullptr) *notes = std::move(host_notes);
  if (files_read != nullptr) *files_read = source.files_read();
  if (launches != nullptr && options.host_launches)
    *launches = detail::find_host_launches(*kernel.decl, source.context(), source.errors(), options);
  return model;
}

}  // namespace

sim::ir::Kernel load_kernel(const FrontendOptions& options, std::vector<std::string>* notes,
                            std::vector<std::string>* files_read, std::vector<HostLaunch>* launches) {
  sim::ir::Kernel model;
  sim::run_with_large_stack([&] { model = load_here(options, notes, files_read, launches); });
  return model;
}

}  // namespace warpdiv::frontend

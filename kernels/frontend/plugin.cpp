// The front-end plugin, libwarpdiv-frontend.so: Clang and LLVM behind one C entry point
// (plugin_abi.hpp), loaded by loader.cpp only when a source file is read. Everything but the three
// entry points is hidden (-fvisibility=hidden, --exclude-libs), so the plugin's copy of sim/ never
// meets the executable's.
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernels/frontend/frontend.hpp"
#include "kernels/frontend/plugin_abi.hpp"
#include "sim/model/ir_json.hpp"
#include "sim/support/json_bytes.hpp"

namespace {

using nlohmann::json;
using warpdiv::frontend::FrontendOptions;

char* copy_out(const std::string& text) {
  char* reply = static_cast<char*>(std::malloc(text.size() + 1));
  if (reply != nullptr) std::memcpy(reply, text.c_str(), text.size() + 1);
  return reply;
}

/// `reply` with its strings escaped for JSON (plugin_abi.hpp).
json escaped(json reply) {
  warpdiv::sim::map_json_strings(reply, warpdiv::sim::escape_bytes);
  return reply;
}

json error(const char* kind, const std::string& message, const std::vector<std::string>& files_read) {
  return escaped(json{{"error", {{"kind", kind}, {"message", message}}}, {"files_read", files_read}});
}

/// A diagnostic whole: its id, its place and its message apart (the loader throws it again).
json error(const char* kind, const warpdiv::Diagnostic& d, const std::vector<std::string>& files_read) {
  const warpdiv::SourceLocation& at = d.location();
  return escaped(json{{"error",
                       {{"kind", kind},
                        {"message", d.message()},
                        {"diagnostic", warpdiv::info(d.diag()).id},
                        {"file", at.file},
                        {"line", at.line},
                        {"column", at.column}}},
                      {"files_read", files_read}});
}

json answer(const std::string& request_text) {
  std::vector<std::string> files_read;  // also on failure: the files Clang read before it
  try {
    json request = json::parse(request_text);
    warpdiv::sim::map_json_strings(request, warpdiv::sim::unescape_bytes);
    FrontendOptions options;
    options.file = request.at("file").get<std::string>();
    options.kernel = request.value("kernel", std::string());
    options.defines = request.value("defines", std::vector<std::string>());
    options.include_dirs = request.value("include_dirs", std::vector<std::string>());
    options.cuda_headers = request.value("cuda_headers", options.cuda_headers);
    options.cuda_path = request.value("cuda_path", std::string());
    options.fmad = request.value("fmad", options.fmad);
    options.compile_commands_dir = request.value("compile_commands_dir", std::string());
    options.host_launches = request.value("host_launches", false);
    options.host_arguments = request.value("host_arguments", std::map<std::string, std::string>());
    options.host_grid = request.value("host_grid", std::vector<std::string>());
    options.host_block = request.value("host_block", std::vector<std::string>());
    const std::string op = request.at("op").get<std::string>();
    if (op == "load") {
      std::vector<std::string> notes;
      std::vector<warpdiv::frontend::HostLaunch> launches;
      const warpdiv::sim::ir::Kernel kernel =
          warpdiv::frontend::load_kernel(options, &notes, &files_read, &launches);
      json launches_json = json::array();
      for (const auto& launch : launches) {
        const auto value = [](const warpdiv::frontend::HostValue& v) {
          return json{{"known", v.known},
                      {"value", v.value},
                      {"where", v.where},
                      {"reason", v.reason},
                      {"refused", v.refused}};
        };
        json arguments = json::array();
        for (const auto& a : launch.arguments) arguments.push_back(value(a));
        launches_json.push_back(
            {{"location", launch.location},
             {"function", launch.function},
             {"grid", {value(launch.grid[0]), value(launch.grid[1]), value(launch.grid[2])}},
             {"block", {value(launch.block[0]), value(launch.block[1]), value(launch.block[2])}},
             {"dynamic_shared", value(launch.dynamic_shared)},
             {"arguments", arguments},
             {"followed", launch.followed},
             {"unfollowed", launch.unfollowed},
             {"never_made", launch.never_made}});
      }
      json reply = escaped({{"notes", notes}, {"files_read", files_read}, {"launches", launches_json}});
      reply["model"] = json::parse(warpdiv::sim::ir::to_json(kernel));  // escaped by to_json
      return reply;
    }
    if (op == "list") {
      json kernels = json::array();
      for (const auto& k : warpdiv::frontend::list_kernels(options))
        kernels.push_back({{"name", k.name},
                           {"location", k.location},
                           {"uninstantiated_template", k.uninstantiated_template},
                           {"signature", k.signature}});
      return escaped(json{{"kernels", kernels}});
    }
    return error("internal", "unknown front-end request '" + op + "'", files_read);
  } catch (const warpdiv::frontend::ClangDiagnostics& e) {
    json reply = error("clang", e.what(), files_read);
    const warpdiv::frontend::FirstClangError& first = e.first();
    reply["error"]["first"] = escaped(json{{"file", first.at.file},
                                           {"line", first.at.line},
                                           {"column", first.at.column},
                                           {"message", first.message}});
    return reply;
  } catch (const warpdiv::InvalidInput& e) {
    return error("input", e, files_read);
  } catch (const std::exception& e) {
    return error("internal", e.what(), files_read);
  }
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) int warpdiv_frontend_abi_version() {
  return warpdiv::frontend::plugin_abi::kVersion;
}

__attribute__((visibility("default"))) char* warpdiv_frontend_request(const char* request) {
  try {
    return copy_out(answer(request == nullptr ? "" : request).dump());
  } catch (...) {
    return nullptr;  // out of memory while building the reply: the loader reports it
  }
}

__attribute__((visibility("default"))) void warpdiv_frontend_free(char* reply) { std::free(reply); }

}  // extern "C"

// The one entry point of the front-end plugin (libwarpdiv-frontend.so), shared by plugin.cpp and
// loader.cpp. Requests and replies are JSON text, so that no C++ object crosses the boundary:
//   request  {"op": "load" | "list", "file": ..., "kernel": ..., "defines": [...], "include_dirs": [...],
//             "cuda_headers": "builtin" | "toolkit" | "auto", "cuda_path": ..., "fmad": bool,
//             "compile_commands_dir": ..., "host_launches": bool,
//             "host_arguments": {"NAME": "VALUE", ...}, "host_grid": [X, Y, Z], "host_block": [...]}
//   reply    {"model": <the kernel model, sim/ir_json's format>, "notes": [...],
//             "files_read": [...], "launches": [{"location", "function", "grid": [v, v, v],
//             "block": [...], "dynamic_shared": v, "arguments": [v, ...],
//             "followed": [...], "unfollowed": [...]}]}
//             (op "load"; notes, files_read and launches: frontend.hpp's load_kernel; each v
//             {"known", "value", "where", "reason", "refused"}, a HostValue)
//            {"kernels": [{"name", "location", "uninstantiated_template", "signature"}]}
//                                                                              (op "list")
//            {"error": {"kind": "clang" | "input" | "internal", "message": ...}, "files_read": [...]}
//                                      (files_read: those read before the failure, for op "load";
//                                      kind "clang" with "first": {"file", "line", "column",
//                                      "message"}, frontend.hpp's FirstClangError)
// Every string of a request and reply (object keys included) is a byte string carried as valid
// UTF-8 by sim/support/json_bytes.hpp's escape_bytes (a byte that is not part of UTF-8, as in a Latin-1
// path or comment, becomes a private code point) and read back with unescape_bytes, so that any
// path, -D value or source line crosses exactly; the model's strings are escaped by sim/ir_json.
#pragma once

namespace warpdiv::frontend::plugin_abi {

/// Bumped whenever the request or reply changes: the loader refuses a plugin of another version.
constexpr int kVersion = 11;
constexpr const char* kFileName = "libwarpdiv-frontend.so";
constexpr const char* kVersionSymbol = "warpdiv_frontend_abi_version";
constexpr const char* kRequestSymbol = "warpdiv_frontend_request";
constexpr const char* kFreeSymbol = "warpdiv_frontend_free";

using VersionFunction = int (*)();
/// Returns the reply, allocated by the plugin and released with the free function.
using RequestFunction = char* (*)(const char* request);
using FreeFunction = void (*)(char* reply);

}  // namespace warpdiv::frontend::plugin_abi

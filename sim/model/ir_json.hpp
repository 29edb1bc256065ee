// Saving and loading the kernel model (sim/model/ir.hpp) as JSON, so that a machine without Clang (the GPU
// machine) can analyse a kernel read elsewhere. The format is versioned:
//   {"format": "warpdiv-kernel-model", "version": 2, "kernel": {...}}
// and validated on load: a bad file throws InvalidInput naming the JSON path of the bad field
// ("kernel model JSON: /kernel/stmts/4/kind: unknown statement kind 'goto' (allowed: ...)").
// Strings are bytes (a path or a source line need not be UTF-8): each is saved as valid UTF-8, a
// byte that is not part of UTF-8 as a private code point (sim/support/json_bytes.hpp: byte 0xE9 alone is
// U+10FFE9), and read back as the same bytes. A model of UTF-8 sources holds no such escape.
// nlohmann/json is used only inside ir_json.cpp; nothing of it leaks through this header.
#pragma once

#include <string>

#include "sim/model/ir.hpp"

namespace warpdiv::sim::ir {

constexpr const char* kModelFormat = "warpdiv-kernel-model";
constexpr int kModelVersion =
    4;  // 3: floating types and intrinsics; 4: exch, cas, inc, dec, float add (2, 3 read too)

/// The kernel as JSON text (2-space indented, ending in a newline).
std::string to_json(const Kernel& kernel);

/// Parses JSON text into a kernel and validates it (validate() included, so a data-dependent
/// branch in a saved model is refused on load too). Throws InvalidInput.
Kernel kernel_from_json(const std::string& text);

/// Reads a file and parses it (InvalidInput names the file when it cannot be read).
Kernel load_kernel(const std::string& path);

}  // namespace warpdiv::sim::ir

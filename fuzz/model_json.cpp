// Fuzz target: the kernel model JSON reader. Text -> kernel_from_json() (which validates) -> and,
// for a model it accepts, to_json() -> kernel_from_json() again, which must give the same text.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz/fuzz_common.hpp"
#include "sim/model/ir.hpp"
#include "sim/model/ir_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace ir = warpdiv::sim::ir;
  const std::string text(reinterpret_cast<const char*>(data), size);
  warpdiv::fuzz::expect_no_surprise([&] {
    const ir::Kernel kernel = ir::kernel_from_json(text);
    // What the analyses compute first on a loaded model (they walk it recursively).
    (void)ir::innermost_loops(kernel);
    (void)ir::opaque_origins(kernel);
    const std::string saved = ir::to_json(kernel);
    if (ir::to_json(ir::kernel_from_json(saved)) != saved) {
      std::fprintf(stderr, "fuzz: a model accepted once does not round-trip\n");
      std::abort();
    }
  });
  return 0;
}

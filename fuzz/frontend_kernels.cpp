// Fuzz target: the front-end on generated small kernels. The input's bytes drive a small grammar of
// CUDA device code (ifs, else-if chains, for and while loops, switch, break, continue, return,
// barriers, integer arithmetic of every width over threadIdx, blockIdx, parameters and locals),
// which Clang reads and the lowering turns into a model; the model is then replayed, and counted by
// the class engine where it proves its classes, on a small launch with a small budget. Findings: a
// crash, a sanitizer report, an exception other than the project's typed errors, a message that is
// not one bounded line, and a class engine whose counts differ from the replay's.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "fuzz/fuzz_common.hpp"
#include "kernels/frontend/frontend.hpp"
#include "sim/classes/ir_classes.hpp"
#include "sim/engine/ir_replay.hpp"
#include "sim/support/large_stack.hpp"

namespace {

namespace ir = warpdiv::sim::ir;

// Consumes the input a byte at a time; past its end every choice is 0 (the shortest production).
class Generator {
 public:
  Generator(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  std::string kernel() {
    std::string s =
        "__device__ int twice(int v) { return v * 2; }\n"
        "__global__ void k(int* out, int n, unsigned u, long long w) {\n"
        "  int l0 = threadIdx.x; unsigned l1 = blockIdx.x; long long l2 = n; int l3 = 0;\n";
    const unsigned statements = 1 + pick(6);
    for (unsigned i = 0; i < statements; ++i) s += statement(1);
    return s + "  out[threadIdx.x] = l3;\n}\n";
  }
  unsigned pick(unsigned choices) { return pos_ < size_ ? data_[pos_++] % choices : 0; }

 private:
  std::string indent(int depth) const { return std::string(2 * static_cast<std::size_t>(depth), ' '); }

  std::string leaf() {
    static const char* const leaves[] = {
        "threadIdx.x", "threadIdx.y", "blockIdx.x", "blockDim.x", "gridDim.x", "n",       "u",
        "w",           "l0",          "l1",         "l2",         "l3",        "warpSize"};
    if (pick(3) == 0) return std::to_string(static_cast<int>(pick(256)) - 64);
    return leaves[pick(sizeof leaves / sizeof *leaves)];
  }

  std::string expression(int depth) {
    if (depth > 4) return leaf();
    static const char* const binary[] = {"+", "-", "*",  "/", "%",  "<<", ">>", "&",  "|",
                                         "^", "<", "<=", ">", ">=", "==", "!=", "&&", "||"};
    switch (pick(7)) {
      case 0:
      case 1:
        return leaf();
      case 2:
      case 3:
        return "(" + expression(depth + 1) + " " + binary[pick(sizeof binary / sizeof *binary)] + " " +
               expression(depth + 1) + ")";
      case 4: {
        static const char* const unary[] = {
            "-", "!", "~", "(unsigned)", "(long long)", "(short)", "(unsigned char)"};
        return std::string(unary[pick(sizeof unary / sizeof *unary)]) + "(" + expression(depth + 1) + ")";
      }
      case 5:
        return "(" + expression(depth + 1) + " ? " + expression(depth + 1) + " : " + expression(depth + 1) +
               ")";
      default:
        return "twice(" + expression(depth + 1) + ")";
    }
  }

  std::string block(int depth) {
    std::string s = "{\n";
    const unsigned n = pick(3) + 1;
    for (unsigned i = 0; i < n; ++i) s += statement(depth + 1);
    return s + indent(depth) + "}";
  }

  std::string statement(int depth) {
    const std::string in = indent(depth);
    if (depth > 4) return in + "l3 += " + leaf() + ";\n";
    const int loop = loops_;
    switch (pick(10)) {
      case 0:
      case 1: {
        static const char* const locals[] = {"l0", "l1", "l2", "l3"};
        static const char* const ops[] = {"=", "+=", "-=", "^="};
        return in + locals[pick(4)] + " " + ops[pick(4)] + " " + expression(0) + ";\n";
      }
      case 2: {
        std::string s = in + "if (" + expression(0) + ") " + block(depth);
        for (unsigned links = pick(4); links > 0; --links)
          s += " else if (" + expression(0) + ") " + block(depth);
        if (pick(2)) s += " else " + block(depth);
        return s + "\n";
      }
      case 3: {
        const std::string v = "i" + std::to_string(depth);
        ++loops_;
        std::string s = in + "for (int " + v + " = " + expression(2) + "; " + v + " < " + expression(2) +
                        "; " + v + " += " + std::to_string(1 + pick(3)) + ") " + block(depth) + "\n";
        loops_ = loop;
        return s;
      }
      case 4: {
        ++loops_;
        std::string s = in + "while (l3 < " + expression(2) + ") { l3 += " + std::to_string(1 + pick(4)) +
                        "; " + block(depth) + " }\n";
        loops_ = loop;
        return s;
      }
      case 5: {
        std::string s = in + "switch (" + expression(1) + ") {\n";
        unsigned value = pick(4);
        for (unsigned c = pick(3) + 1; c > 0; --c, value += 1 + pick(3))
          s += in + "  case " + std::to_string(value) + ": l3 += " + leaf() + "; break;\n";
        if (pick(2)) s += in + "  default: l3 -= 1;\n";
        return s + in + "}\n";
      }
      case 6:
        if (loops_ > 0) return in + (pick(2) ? "break;\n" : "continue;\n");
        return in + "l3 += 1;\n";
      case 7:
        return in + "if (" + expression(1) + ") return;\n";
      case 8:
        return in + "__syncthreads();\n";
      default:
        return in + "out[" + expression(1) + " & 63] = " + expression(1) + ";\n";
    }
  }

  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
  int loops_ = 0;
};

std::string source_path() {
  static const std::string path = [] {
    char name[] = "/tmp/warpdiv-fuzz-XXXXXX.cu";
    const int fd = ::mkstemps(name, 3);
    if (fd < 0) std::abort();
    ::close(fd);
    return std::string(name);
  }();
  return path;
}

// The class engine's statement totals must be the replay's.
void compare(const ir::ReplayResult& replay, const ir::ClassReplayResult& classes) {
  for (std::size_t i = 0; i < replay.statements.size(); ++i)
    if (!(replay.statements[i] == classes.statements[i])) {
      std::fprintf(stderr, "fuzz: the class engine and the replay differ at statement %zu\n", i);
      std::abort();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Generator g(data, size);
  const std::string text = g.kernel();
  std::ofstream(source_path(), std::ios::trunc) << text;
  ir::Launch launch;
  launch.grid = {1 + g.pick(3), 1, 1};
  launch.block = {1 + g.pick(96), 1 + g.pick(2), 1};
  const std::int64_t n = static_cast<std::int64_t>(g.pick(64)) - 8;
  launch.arguments = {ir::Value{}, ir::Value::of(ir::ScalarType::I32, n),
                      ir::Value::of(ir::ScalarType::U32, g.pick(64)),
                      ir::Value::of(ir::ScalarType::I64, n * 3)};
  warpdiv::frontend::FrontendOptions options;
  options.file = source_path();
  ir::Kernel kernel;
  bool read = false;
  // Clang's own diagnostics (a generated kernel Clang refuses) come as Clang prints them.
  warpdiv::fuzz::expect_no_surprise(
      [&] {
        kernel = warpdiv::frontend::load_kernel(options);
        read = true;
      },
      warpdiv::fuzz::Message::any);
  if (!read) return 0;
  ir::ReplayOptions budget;
  budget.max_evaluations = 200000;
  budget.threads = 1;
  warpdiv::sim::run_with_large_stack([&] {
    ir::ReplayResult replay;
    bool replayed = false;
    warpdiv::fuzz::expect_no_surprise([&] {
      replay = ir::replay(kernel, launch, budget);
      replayed = true;
    });
    warpdiv::fuzz::expect_no_surprise([&] {
      try {
        const ir::ClassReplayResult classes = ir::class_replay(kernel, launch, budget);
        if (replayed) compare(replay, classes);
      } catch (const ir::ClassesUnproven&) {
        // the class engine says where it cannot prove its classes: a normal outcome
      }
    });
  });
  return 0;
}

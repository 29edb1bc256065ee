// Sectors of global atomics whose lanes share addresses (sim/memory/ir_memory.hpp: each sector
// counted once per lane on its busiest address), and wavefronts of shared ones (the lanes asking
// one bank, each its own turn). The measured table: every kernel of
// data/validation/atomics/nvidia-h200-sectors/ (made by tools/device-validate-atomic-sectors on
// an H200) replayed and counted by the class engine, its atomic's requests and sectors against
// what Nsight Compute measured there (op_atom + op_red); where nvcc aggregated the warp's lanes
// into one atomic (VOTE / REDUX in the row's SASS) the GPU's figure is one sector per request and
// the model's is the source's, as data/validation/atomics/README.md records. Then kernels whose
// figures are worked out by hand, through every engine.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "analysis/csv.hpp"
#include "sim/classes/ir_classes.hpp"
#include "sim/engine/ir_native.hpp"
#include "sim/engine/ir_replay.hpp"
#include "sim/session.hpp"
#include "tests/kernels/source_dir.hpp"

namespace warpdiv::testing {
namespace {

namespace ir = sim::ir;

const std::string kFolder = std::string(WARPDIV_SOURCE_DIR) + "/data/validation/atomics/nvidia-h200-sectors/";
const std::string kSharedFolder =
    std::string(WARPDIV_SOURCE_DIR) + "/data/validation/atomics/nvidia-h200-shared/";

// The table's rows, each a map from column to field.
std::vector<std::map<std::string, std::string>> recorded_rows(const std::string& folder = kFolder) {
  std::ifstream in(folder + "results.csv");
  std::stringstream read;
  read << in.rdbuf();
  const std::string text = read.str();
  analysis::CsvTokenizer csv(text, "results.csv");
  const std::vector<std::string> header = csv.next().fields;
  std::vector<std::map<std::string, std::string>> rows;
  while (!csv.at_end()) {
    const std::vector<std::string> fields = csv.next().fields;
    std::map<std::string, std::string>& row = rows.emplace_back();
    for (std::size_t i = 0; i < header.size() && i < fields.size(); ++i) row[header[i]] = fields[i];
  }
  return rows;
}

// "32" or "dim3(8, 4)".
ir::Dim3 block_of(const std::string& text) {
  ir::Dim3 d;
  std::istringstream in(text.rfind("dim3(", 0) == 0 ? text.substr(5) : text);
  char comma = 0;
  in >> d.x;
  if (in >> comma >> d.y) return d;
  d.y = 1;
  return d;
}

ir::Launch launch_of(const ir::Kernel& k, ir::Dim3 grid, ir::Dim3 block) {
  ir::Launch l;
  l.grid = grid;
  l.block = block;
  l.arguments.assign(k.parameters.size(), ir::Value{});
  return l;
}

// The requests and sectors of the kernel's global atomics.
std::pair<std::string, std::string> atomic_figures(const ir::Kernel& k, const ir::ReplayResult& r) {
  sim::Count requests = 0, sectors = 0;
  for (std::size_t i = 0; i < k.accesses.size(); ++i)
    if (k.accesses[i].kind == ir::AccessKind::Atomic && k.accesses[i].space != ir::AddressSpace::Shared) {
      requests += r.accesses[i].requests;
      sectors += r.accesses[i].sectors;
    }
  return {sim::to_decimal(requests), sim::to_decimal(sectors)};
}

std::string sum(const std::string& a, const std::string& b) {
  return std::to_string(std::stoll(a) + std::stoll(b));
}

TEST(AtomicSectorsRecorded, EveryKernelAsTheH200CountedIt) {
  const std::vector<std::map<std::string, std::string>> rows = recorded_rows();
  ASSERT_EQ(rows.size(), 310u);
  int aggregated = 0;
  for (const auto& row : rows) {
    SCOPED_TRACE(row.at("kernel") + ": " + row.at("op") + " " + row.at("type") + " if (" +
                 row.at("condition") + ") out[" + row.at("index") + "], block " + row.at("block"));
    frontend::FrontendOptions o;
    o.file = kFolder + "atomic_sectors.cu";
    o.kernel = row.at("kernel");
    const ir::Kernel k = frontend::load_kernel(o);
    const ir::Launch l = launch_of(k, ir::Dim3{1, 1, 1}, block_of(row.at("block")));
    const auto replayed = atomic_figures(k, ir::replay(k, l));
    EXPECT_EQ(atomic_figures(k, ir::class_replay(k, l)), replayed);
    const std::string requests = sum(row.at("atom_requests"), row.at("red_requests"));
    const std::string sectors = sum(row.at("atom_sectors"), row.at("red_sectors"));
    EXPECT_EQ(replayed.first, requests);
    const std::string& sass = row.at("sass");
    if (sass.find("VOTE") != std::string::npos || sass.find("REDUX") != std::string::npos) {
      ++aggregated;  // one lane's atomic per request on the GPU
      EXPECT_EQ(sectors, requests);
    } else {
      EXPECT_EQ(replayed.second, sectors);
    }
  }
  EXPECT_EQ(aggregated, 43);
}

// The requests, wavefronts and conflicts of the kernel's shared atomics.
std::vector<sim::Count> shared_atomic_figures(const ir::Kernel& k, const ir::ReplayResult& r) {
  std::vector<sim::Count> f(3, 0);
  for (std::size_t i = 0; i < k.accesses.size(); ++i)
    if (k.accesses[i].kind == ir::AccessKind::Atomic && k.accesses[i].space == ir::AddressSpace::Shared) {
      f[0] += r.accesses[i].requests;
      f[1] += r.accesses[i].wavefronts;
      f[2] += r.accesses[i].conflicts;
    }
  return f;
}

// Every shared atomic of data/validation/atomics/nvidia-h200-shared/ (tools/device-validate-
// shared-atomics on an H200), replayed (the arrays' values followed): the model's instructions,
// wavefronts and conflicts are Nsight Compute's, but
// where nvcc aggregated a warp's lanes on one address (VOTE / REDUX in the SASS: one lane's
// atomic, 1 wavefront) and where it made a float or 64-bit atomic a compare-and-swap loop
// (ATOMS.CAST.SPIN), which the model counts as the source's one atomic.
TEST(SharedAtomicsRecorded, EveryKernelAsTheH200CountedIt) {
  const std::vector<std::map<std::string, std::string>> rows = recorded_rows(kSharedFolder);
  ASSERT_EQ(rows.size(), 233u);
  int aggregated = 0, loops = 0;
  for (const auto& row : rows) {
    SCOPED_TRACE(row.at("kernel") + ": " + row.at("op") + " " + row.at("type") + " if (" +
                 row.at("condition") + ") s[" + row.at("index") + "], operand " + row.at("operand"));
    frontend::FrontendOptions o;
    o.file = kSharedFolder + "shared_atomics.cu";
    o.kernel = row.at("kernel");
    const ir::Kernel k = frontend::load_kernel(o);
    const ir::Launch l = launch_of(k, ir::Dim3{1, 1, 1}, block_of(row.at("block")));
    const std::vector<sim::Count> replayed = shared_atomic_figures(k, ir::replay(k, l));
    const std::string& sass = row.at("sass");
    if (sass.find("VOTE") != std::string::npos || sass.find("REDUX") != std::string::npos) {
      ++aggregated;
      EXPECT_EQ(row.at("wavefronts"), "1");
    } else if (sass.find("CAST.SPIN") != std::string::npos) {
      ++loops;
    } else {
      EXPECT_EQ(sim::to_decimal(replayed[0]), row.at("instructions"));
      EXPECT_EQ(sim::to_decimal(replayed[1]), row.at("wavefronts"));
      EXPECT_EQ(sim::to_decimal(replayed[2]), row.at("conflicts"));
    }
  }
  EXPECT_EQ(aggregated, 8);
  EXPECT_EQ(loops, 6);
}

// Unused shared atomicAdds whose operand nvcc folds to 1, atomicSub(p, -1) and atomicInc(p,
// 0xffffffff) are ATOMS.POPC.INC on the H200 (data/validation/atomics/nvidia-h200-shared-folded
// and its second/: one warp of 32 on s[t % 4], the int parameters 1): 1 wavefront, 0 conflicts; operands it
// cannot fold (a parameter, 1 * inc, a
// __constant__, t / 64 + 1) are ATOMS.ADD, 8 lanes a word taking turns: 8 wavefronts, 7 conflicts.
TEST(SharedAtomicsRecorded, OperandsNvccFoldsToOneAsTheH200CountedThem) {
  const std::string root =
      std::string(WARPDIV_SOURCE_DIR) + "/data/validation/atomics/nvidia-h200-shared-folded/";
  // The second set (int *o, int n): atomicInc bounded by 0xffffffff, a result kept only in a
  // local nothing reads, sizeof(int) / 4, true, n - n + 1, ~0 subtracted, 'b' - 'a', s[0].
  for (const auto& [folder, file, count] :
       {std::tuple<std::string, std::string, std::size_t>{root, "folded.cu", 16},
        std::tuple<std::string, std::string, std::size_t>{root + "second/", "folded2.cu", 12}}) {
    const std::vector<std::map<std::string, std::string>> rows = recorded_rows(folder);
    ASSERT_EQ(rows.size(), count) << folder;
    for (const auto& row : rows) {
      SCOPED_TRACE(file + " " + row.at("kernel") + ": " + row.at("statement") + " (" + row.at("sass") + ")");
      frontend::FrontendOptions o;
      o.file = folder + file;
      o.kernel = row.at("kernel");
      const ir::Kernel k = frontend::load_kernel(o);
      ir::Launch l = launch_of(k, ir::Dim3{1, 1, 1}, ir::Dim3{32, 1, 1});
      for (std::size_t p = 1; p < l.arguments.size(); ++p)
        l.arguments[p] = ir::Value::of(ir::ScalarType::I32, 1);
      const std::vector<sim::Count> replayed = shared_atomic_figures(k, ir::replay(k, l));
      EXPECT_EQ(sim::to_decimal(replayed[0]), row.at("instructions"));
      EXPECT_EQ(sim::to_decimal(replayed[1]), row.at("wavefronts"));
      EXPECT_EQ(sim::to_decimal(replayed[2]), row.at("conflicts"));
    }
  }
}

class AtomicSectorsByHand : public SnippetTest {
 protected:
  AtomicSectorsByHand() : SnippetTest("warpdiv_atomic_sectors_") {}

  // The kernel's atomic figures from each engine (native code where this build has it).
  void expect_everywhere(const std::string& source, ir::Dim3 grid, ir::Dim3 block,
                         const std::string& requests, const std::string& sectors) {
    const ir::Kernel k = load(source);
    const ir::Launch l = launch_of(k, grid, block);
    std::vector<std::pair<sim::Engine, const char*>> engines = {{sim::Engine::replay, "the replay"},
                                                                {sim::Engine::exact, "the class engine"}};
    if (ir::detail::native_compiler() != nullptr) engines.emplace_back(sim::Engine::native, "native code");
    for (const auto& [e, name] : engines) {
      SCOPED_TRACE(name);
      sim::CountRequest request;
      request.engine = e;
      request.options.memory = true;
      request.native = sim::NativeMode::automatic;
      request.native_min_evaluations = 1;
      EXPECT_EQ(atomic_figures(k, sim::count_launch(k, l, request).result),
                std::make_pair(requests, sectors));
    }
  }
};

// A weighted histogram of 16 bins in shared memory whose values the model does not hold (the
// class engine and native code count it too): atomicAdd(&h[t % 16], in[t]) puts 2 lanes of a warp
// on each of 16 words in 16 banks: 2 turns, 2 wavefronts and 1 conflict a request, 2 warps. The
// same add of the constant 1 (ATOMS.POPC.INC) shares each word: 1 wavefront, no conflict; a
// compare-and-swap takes 2 wavefronts a turn, its turns beyond the first conflicts: 4 and 1; a
// float's exchange (ATOMS.EXCH) takes turns as an int's does.
TEST_F(AtomicSectorsByHand, SharedAtomicsTakeTurnsOnAWord) {
  const auto figures = [&](const std::string& atomic, sim::Engine e, const std::string& type = "int") {
    const ir::Kernel k = load(
        "__global__ void k(int *o, const int *in) {\n"
        "  __shared__ " +
        type +
        " h[16];\n"
        "  int t = threadIdx.x;\n"
        "  if (t < 16) h[t] = in[t];\n"
        "  __syncthreads();\n"
        "  " +
        atomic +
        ";\n"
        "  __syncthreads();\n"
        "  if (t < 16) o[t] = h[t];\n"
        "}\n");
    sim::CountRequest request;
    request.engine = e;
    request.options.memory = true;
    request.native = sim::NativeMode::automatic;
    request.native_min_evaluations = 1;
    return shared_atomic_figures(k,
                                 sim::count_launch(k, launch_of(k, {1, 1, 1}, {64, 1, 1}), request).result);
  };
  std::vector<std::pair<sim::Engine, const char*>> engines = {{sim::Engine::replay, "the replay"},
                                                              {sim::Engine::exact, "the class engine"}};
  if (ir::detail::native_compiler() != nullptr) engines.emplace_back(sim::Engine::native, "native code");
  for (const auto& [e, name] : engines) {
    SCOPED_TRACE(name);
    EXPECT_EQ(figures("atomicAdd(&h[t % 16], in[t])", e), (std::vector<sim::Count>{2, 4, 2}));
    EXPECT_EQ(figures("atomicAdd(&h[t % 16], 1)", e), (std::vector<sim::Count>{2, 2, 0}));
    EXPECT_EQ(figures("atomicCAS(&h[t % 16], 0, in[t])", e), (std::vector<sim::Count>{2, 8, 2}));
    EXPECT_EQ(figures("atomicExch(&h[t % 16], (float)in[t])", e, "float"),
              (std::vector<sim::Count>{2, 4, 2}));
    // An increment nvcc folds to 1 (1 converted to unsigned, a local set once to 1) is one too.
    EXPECT_EQ(figures("atomicAdd(&h[t % 16], 1)", e, "unsigned int"), (std::vector<sim::Count>{2, 2, 0}));
    EXPECT_EQ(figures("const int one = 1; atomicAdd(&h[t % 16], one)", e),
              (std::vector<sim::Count>{2, 2, 0}));
    EXPECT_EQ(figures("int two = 2; atomicAdd(&h[t % 16], two - 1)", e), (std::vector<sim::Count>{2, 2, 0}));
  }
}

// A histogram of 4 bins, 8 lanes on each, all in one sector: 8 sectors a warp (the distinct
// sectors would be 1). Grid 2 x 64 threads: 4 warps.
TEST_F(AtomicSectorsByHand, AHistogramOfFourBins) {
  expect_everywhere(R"(__global__ void k(float *hist) { atomicAdd(&hist[threadIdx.x % 4], 1.0f); })",
                    ir::Dim3{2, 1, 1}, ir::Dim3{64, 1, 1}, "4", "32");
}

// Block b adds at floats 3b and 3b + 1, 16 lanes each: bytes 12b and 12b + 4, one sector (16)
// unless 12b + 4 starts a sector, 12b = 28 (mod 32), b = 5 or 13 of 16 blocks (32). 14 x 16 +
// 2 x 32 = 288. (The class engine counts the blocks it does not replay from residues.)
TEST_F(AtomicSectorsByHand, BlocksWhoseTwoAddressesFallInOneSectorOrTwo) {
  expect_everywhere(
      R"(__global__ void k(float *out) { atomicAdd(&out[blockIdx.x * 3 + threadIdx.x / 16], 1.0f); })",
      ir::Dim3{16, 1, 1}, ir::Dim3{32, 1, 1}, "16", "288");
}

// In iteration i the warp adds at floats i and i + 1 (16 lanes each): one sector (16) except
// at i = 7, bytes 28 and 32 (32). Ten iterations: 9 x 16 + 32 = 176 a warp, 3 blocks: 528.
TEST_F(AtomicSectorsByHand, ALoopWhoseAddressesCrossASector) {
  expect_everywhere(R"(__global__ void k(float *out) {
  for (int i = 0; i < 10; ++i) atomicAdd(&out[i + threadIdx.x / 16], 1.0f);
})",
                    ir::Dim3{3, 1, 1}, ir::Dim3{32, 1, 1}, "30", "528");
}

// Lanes on distinct addresses: the distinct sectors, as for a store (32 ints: 4).
TEST_F(AtomicSectorsByHand, DistinctAddressesAreTheDistinctSectors) {
  expect_everywhere(R"(__global__ void k(int *out) { atomicMax(&out[threadIdx.x], 3); })", ir::Dim3{1, 1, 1},
                    ir::Dim3{32, 1, 1}, "1", "4");
}

}  // namespace
}  // namespace warpdiv::testing

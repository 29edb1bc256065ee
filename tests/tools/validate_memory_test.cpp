// Host memory of validate's model side: the replay keeping the stores' values (capture_stores) and
// the comparison of the output buffer with a stand-in for the GPU's, on the 64-bit SAXPY of
// tests/tools/data/saxpy_grid_stride_64.cu over zero-filled --alloc buffers (y = 2 * 0 + 0: every
// element 0, worked out by hand). Run in a child process, whose peak resident set (getrusage) must
// grow by less than validate's estimate of it (20.5 x the launch's buffers here).
// WARPDIV_MEMORY_TEST_ELEMENTS sets n (default 4000000) to measure other sizes; the child's figures are
// printed.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "analysis/output_comparison.hpp"
#include "sim/support/count.hpp"
#include "sim/support/errors.hpp"
#include "sim/model/ir_json.hpp"
#include "sim/engine/ir_replay.hpp"
#include "tests/tools/cli_runner.hpp"
#include "tools/cli/launch_expression.hpp"
#include "tools/cli/runs.hpp"

namespace warpdiv::cli {
namespace {

namespace ir = sim::ir;

const std::string kSaxpy = std::string(WARPDIV_SOURCE_DIR) + "/tests/tools/data/saxpy_grid_stride_64.cu";

long peak_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

std::uint64_t elements() {
  const char* text = std::getenv("WARPDIV_MEMORY_TEST_ELEMENTS");
  return text != nullptr && *text != '\0' ? std::strtoull(text, nullptr, 10) : 4'000'000;
}

// In the child: the model's replay with values and the comparison; writes "peak growth in bytes,
// elements compared, agree" to `fd`.
void model_side(const std::string& path, std::uint64_t n, int fd) {
  const ir::Kernel kernel = ir::load_kernel(path);
  ir::Launch shape;
  shape.grid = ir::Dim3{1024, 1, 1};
  shape.block = ir::Dim3{256, 1, 1};
  const std::string count = std::to_string(n);
  const ir::Launch launch = bind_launch(kernel, shape, parse_arg_values({"n=" + count, "a=2"}), "1024 256",
                                        {"x=" + count, "y=" + count});
  const long before = peak_kib();
  ir::ReplayOptions options;
  options.capture_stores = true;
  ir::ReplayResult model = ir::replay(kernel, launch, options);
  std::vector<std::vector<std::uint8_t>> gpu(kernel.parameters.size());
  gpu[3].assign(n * 4, 0);  // y after the GPU's run: 2 * 0 + 0 everywhere
  const analysis::OutputComparison c =
      analysis::compare_outputs(kernel, model.stored, model.stores_not_captured, gpu);
  const long growth = (peak_kib() - before) * 1024;
  const unsigned long long compared = c.buffers.empty() ? 0 : c.buffers[0].compared;
  const sim::Count need = validate_host_memory(kernel, launch, ir::estimate(kernel, launch, options)).total();
  const std::string line = std::to_string(growth) + " " + std::to_string(compared) + " " +
                           (c.agree() ? "1" : "0") + " " + sim::to_decimal(need);
  if (write(fd, line.data(), line.size()) < 0) _exit(3);
}

TEST(ValidateMemory, ModelSideGrowsByASmallMultipleOfTheBuffers) {
  const std::string model = ::testing::TempDir() + "/saxpy64_model.json";
  const testing::CliResult saved = testing::run_warpdiv({"analyze", kSaxpy, "--save-model", model});
  if (saved.status != 0) GTEST_SKIP() << "this warpdiv has no Clang front-end to save a model with";
  const std::uint64_t n = elements();
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    close(pipe_fds[0]);
    try {
      model_side(model, n, pipe_fds[1]);
    } catch (...) {
      _exit(2);
    }
    _exit(0);
  }
  close(pipe_fds[1]);
  char text[128] = {};
  const ssize_t got = read(pipe_fds[0], text, sizeof text - 1);
  close(pipe_fds[0]);
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the child failed: " << status;
  ASSERT_GT(got, 0);
  long long growth = 0;
  unsigned long long compared = 0;
  int agree = 0;
  unsigned long long need = 0;
  ASSERT_EQ(std::sscanf(text, "%lld %llu %d %llu", &growth, &compared, &agree, &need), 4);
  const double buffers = 8.0 * static_cast<double>(n);  // x and y, 4 bytes an element
  std::printf(
      "n = %llu: peak RSS grew by %lld bytes, %.1f bytes per element, %.2f x the buffers' %.0f bytes; "
      "estimate %llu\n",
      static_cast<unsigned long long>(n), growth, static_cast<double>(growth) / static_cast<double>(n),
      static_cast<double>(growth) / buffers, buffers, need);
  EXPECT_EQ(compared, n);  // every y[i] held by the model and compared
  EXPECT_EQ(agree, 1);
  // The estimate (y followed by value, 100 bytes an element; records of 56 bytes a store; y's values
  // and states, 8: 164 bytes an element, 20.5 x the buffers; from sampled blocks, within 1%) bounds
  // what the host side holds, within the allocator's slack.
  EXPECT_NEAR(static_cast<double>(need), 164.0 * static_cast<double>(n), 1.64 * static_cast<double>(n));
  EXPECT_LT(static_cast<double>(growth), 1.1 * static_cast<double>(need));
}

// The estimate for n = 1000 over grid 4, block 128 (512 threads), --alloc x=1000 y=1000, by hand:
// y[i] is stored once for each i, so 1000 lane stores (x is only loaded); y, written and read, is
// followed by value: 4000 bytes x (a value byte + GlobalByte's writer and reader of 8 bytes and
// read_by of 4, padded to 24) = 100000; records 1000 x 56 bytes (StoreWrite: a 4-byte parameter
// padded to 8, offset, bits, thread, sequence of 8, the access's 4 bytes and four 1-byte fields,
// compare of 8); stored: y's 4000 bytes, a value and a state byte each = 8000; read back: x and y,
// 8000; no --data. Peak: max(100000 + 56000 + 8000, 8000 + 8000) = 164000.
ir::Kernel saxpy_kernel() {
  const std::string model = ::testing::TempDir() + "/saxpy64_small.json";
  const testing::CliResult saved = testing::run_warpdiv({"analyze", kSaxpy, "--save-model", model});
  if (saved.status != 0) return ir::Kernel{};
  return ir::load_kernel(model);
}

const std::vector<std::string> kSmallLaunch = {"validate", kSaxpy,   "--grid",  "4",     "--block",
                                               "128",      "--arg",  "n=1000",  "--arg", "a=2",
                                               "--alloc",  "x=1000", "--alloc", "y=1000"};

TEST(ValidateMemory, EstimateIsWorkedOutByHand) {
  const ir::Kernel kernel = saxpy_kernel();
  if (kernel.name.empty()) GTEST_SKIP() << "this warpdiv has no Clang front-end to save a model with";
  ir::Launch shape;
  shape.grid = ir::Dim3{4, 1, 1};
  shape.block = ir::Dim3{128, 1, 1};
  const ir::Launch launch =
      bind_launch(kernel, shape, parse_arg_values({"n=1000", "a=2"}), "4 128", {"x=1000", "y=1000"});
  ir::ReplayOptions options;
  options.capture_stores = true;
  const ir::ReplayEstimate estimate = ir::estimate(kernel, launch, options);
  EXPECT_EQ(estimate.lane_stores, sim::Count{1000});
  const ValidateHostMemory m = validate_host_memory(kernel, launch, estimate);
  EXPECT_EQ(m.followed, sim::Count{100000});
  EXPECT_EQ(m.records, sim::Count{56000});
  EXPECT_EQ(m.stored, sim::Count{8000});
  EXPECT_EQ(m.read_back, sim::Count{8000});
  EXPECT_EQ(m.inputs, sim::Count{0});
  EXPECT_EQ(m.total(), sim::Count{164000});
}

// Above the host's memory (WARPDIV_TEST_HOST_MEMORY stands for MemAvailable): refused in one line
// naming both figures; at the estimate itself, not refused.
TEST(ValidateMemory, ALaunchAboveTheHostsMemoryIsRefused) {
  const ValidateHostMemory need{0, 100000, 56000, 8000, 8000};  // the launch worked out above
  ASSERT_EQ(need.total(), sim::Count{164000});
  setenv("WARPDIV_TEST_HOST_MEMORY", "163999", 1);
  std::string message;
  try {
    check_validate_host_memory(need);
  } catch (const InvalidInput& e) {
    message = e.what();
  }
  setenv("WARPDIV_TEST_HOST_MEMORY", "164000", 1);
  EXPECT_NO_THROW(check_validate_host_memory(need));
  unsetenv("WARPDIV_TEST_HOST_MEMORY");
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  EXPECT_NE(message.find("about 164000 bytes of host memory"), std::string::npos) << message;
  EXPECT_NE(message.find("the 163999 bytes this host has available"), std::string::npos) << message;
}

// Through the binary on a GPU machine: exit 2 before the GPU runs anything (exit 3 without one,
// which validate says before it samples the model).
TEST(ValidateMemory, ALaunchAboveTheHostsMemoryIsRefusedWithExitTwo) {
  if (saxpy_kernel().name.empty()) GTEST_SKIP() << "this warpdiv has no Clang front-end";
  setenv("WARPDIV_TEST_HOST_MEMORY", "163999", 1);
  const testing::CliResult refused = testing::run_warpdiv(kSmallLaunch);
  setenv("WARPDIV_TEST_HOST_MEMORY", "164000", 1);
  const testing::CliResult fits = testing::run_warpdiv(kSmallLaunch);
  unsetenv("WARPDIV_TEST_HOST_MEMORY");
  if (refused.status == 3) GTEST_SKIP() << "no GPU: " << refused.err;
  EXPECT_EQ(refused.status, 2);
  EXPECT_EQ(std::count(refused.err.begin(), refused.err.end(), '\n'), 1) << refused.err;
  EXPECT_NE(refused.err.find("about 164000 bytes of host memory"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("the 163999 bytes this host has available"), std::string::npos) << refused.err;
  EXPECT_TRUE(refused.out.empty());
  EXPECT_NE(fits.status, 2) << fits.err;
}

// The stores assembled without a per-byte writer: a thread's later store replaces its own earlier
// one, another thread's different value makes the byte conflicting. tests/tools/data/overwrite.cu
// on one block of 4 threads, by hand: out[1..3] = i + 2 = 3, 4, 5 (each overwrote its 1); out[0]
// gets 1, 2, 7 from thread 0 and 8 from thread 1: its low byte conflicting (the state is per byte).
TEST(ValidateMemory, StoresOfOneThreadReplaceOthersConflict) {
  const std::string model = ::testing::TempDir() + "/overwrite_model.json";
  const std::string source = std::string(WARPDIV_SOURCE_DIR) + "/tests/tools/data/overwrite.cu";
  if (testing::run_warpdiv({"analyze", source, "--grid", "1", "--block", "4", "--save-model", model})
          .status != 0)
    GTEST_SKIP() << "this warpdiv has no Clang front-end to save a model with";
  const ir::Kernel kernel = ir::load_kernel(model);
  ir::Launch shape;
  shape.grid = ir::Dim3{1, 1, 1};
  shape.block = ir::Dim3{4, 1, 1};
  const ir::Launch launch = bind_launch(kernel, shape, {}, "1 4", {"out=4"});
  ir::ReplayOptions options;
  options.capture_stores = true;
  const ir::ReplayResult r = ir::replay(kernel, launch, options);
  ASSERT_EQ(r.stored.size(), 1u);
  const ir::StoredBuffer& out = r.stored[0];
  ASSERT_EQ(out.bytes.size(), 16u);
  EXPECT_EQ(out.state[0], ir::StoredBuffer::kConflict);  // 7 or 8; the upper bytes, 0 either way, agree
  for (std::size_t b = 1; b < 4; ++b) EXPECT_EQ(out.state[b], ir::StoredBuffer::kWritten) << b;
  for (int e = 1; e < 4; ++e)
    for (int b = 0; b < 4; ++b) {
      const auto at = static_cast<std::size_t>(4 * e + b);
      EXPECT_EQ(out.state[at], ir::StoredBuffer::kWritten) << at;
      EXPECT_EQ(out.bytes[at], b == 0 ? e + 2 : 0) << at;
    }
}

}  // namespace
}  // namespace warpdiv::cli

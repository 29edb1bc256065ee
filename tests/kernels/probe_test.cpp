// The generated probe without a GPU: what the source must and must not contain, and that it
// compiles (NVRTC where libnvrtc is found; nvcc where the build found it).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "kernels/probe.hpp"
#include "kernels/probe_source.hpp"
#include "sim/support/errors.hpp"
#include "tests/kernels/probe_models.hpp"

namespace warpdiv::testing {
namespace {

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(ProbeSource, VotesOverTheTrackedMaskNeverTheScheduler) {
  const std::string src = kernels::probe_source(all_constructs_model());
  EXPECT_NE(src.find(std::string("extern \"C\" __global__ void ") + kernels::kProbeEntry), std::string::npos);
  EXPECT_EQ(src.find("__activemask"), std::string::npos);
  // One vote where each condition appears: 9 ifs (one inside the call), the for, the while, the
  // do and the switch's 3 case labels, 15 in all; every vote names the warp's existing lanes and
  // the tracked mask.
  EXPECT_EQ(occurrences(src, "__ballot_sync("), 15u);
  EXPECT_EQ(occurrences(src, "__ballot_sync(ex, (("), 15u);
}

TEST(ProbeSource, NoRealBarrierWhereTheKernelHasOne) {
  // Three __syncthreads() in the model, two of them partial: the probe counts arrivals instead and
  // keeps only its own two barriers, at its start and its end, which every thread reaches once.
  const std::string src = kernels::probe_source(all_constructs_model());
  EXPECT_EQ(occurrences(src, "__syncthreads()"), 2u);
  EXPECT_EQ(occurrences(src, "wd_arrivals[0] += 1ull"), 1u);
  EXPECT_EQ(occurrences(src, "wd_arrivals[2] += 1ull"), 1u);
}

TEST(ProbeSource, OpaqueValuesAreLeftOut) {
  const std::string src = kernels::probe_source(all_constructs_model());
  // The opaque parameter `data` is neither passed nor read, nor is the work on it generated.
  EXPECT_EQ(src.find("data"), std::string::npos);
  // The local x is only ever assigned an opaque value: no assignment to it is generated.
  EXPECT_EQ(src.find(" l5 = v;"), std::string::npos);
  EXPECT_NE(src.find(" l0 = v;"), std::string::npos);  // s is assigned
}

TEST(ProbeSource, RefusesAnInvalidModel) {
  ir::Kernel k = if_else_model().kernel;
  k.root = ir::kNone;
  EXPECT_THROW(kernels::probe_source(k), InvalidInput);
}

TEST(ProbeSource, CompilesWithNvrtc) {
  for (const ir::Kernel& k : {if_else_model().kernel, all_constructs_model()}) {
    SCOPED_TRACE(k.name);
    try {
      const std::vector<char> cubin = kernels::compile_probe(kernels::probe_source(k), "sm_90");
      // An ELF file: 0x7f 'E' 'L' 'F'.
      ASSERT_GT(cubin.size(), 4u);
      EXPECT_EQ(std::string(cubin.data() + 1, 3), "ELF");
    } catch (const NoDevice& e) {
      GTEST_SKIP() << "no NVRTC here: " << e.what();
    }
  }
}

TEST(ProbeSource, CompilesWithNvcc) {
#ifndef WARPDIV_NVCC
  GTEST_SKIP() << "the build found no nvcc";
#else
  if (access(WARPDIV_NVCC, X_OK) != 0) GTEST_SKIP() << WARPDIV_NVCC << " is not on this machine";
  const std::string path = ::testing::TempDir() + "warpdiv_probe_test.cu";
  std::ofstream(path) << kernels::probe_source(all_constructs_model());
  const std::string command =
      std::string(WARPDIV_NVCC) + " -c -arch=sm_90 -o " + path + ".o " + path + " > " + path + ".log 2>&1";
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
  std::remove((path + ".o").c_str());
  std::remove((path + ".log").c_str());
  std::remove(path.c_str());
#endif
}

}  // namespace
}  // namespace warpdiv::testing

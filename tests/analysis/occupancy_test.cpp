// compute_occupancy() on launches worked out by hand (the arithmetic is in the comments), the
// lecture's figures, launches that cannot run, and invalid input.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "analysis/gpu_presets.hpp"
#include "analysis/occupancy.hpp"
#include "analysis/occupancy_report.hpp"
#include "sim/support/errors.hpp"

namespace warpdiv::analysis {
namespace {

const std::vector<GpuSpec>& presets() {
  static const std::vector<GpuSpec> gpus = load_gpu_file(WARPDIV_SOURCE_DIR "/data/gpus.csv");
  return gpus;
}
const GpuSpec& preset(const std::string& name) { return find_gpu(presets(), name, "--gpu", "gpus.csv"); }

std::vector<Limiter> limiters(std::initializer_list<Limiter> l) { return l; }

TEST(Occupancy, LectureTile16) {
  // The lecture: 16 KB shared memory, 1,536 threads, 8 blocks per SM. T = 16: 256 threads and
  // 2 * 16 * 16 * 4 = 2048 bytes per block. Shared memory: 16384 / 2048 = 8 blocks. Threads:
  // 1536 / 256 = 6 blocks. Registers (16 per thread): 16 * 32 = 512 per warp, 32768 / 2 = 16384
  // per partition = 32 warps, 64 per SM / 8 = 8 blocks. So 6 active blocks, 48 warps, 100%.
  const OccupancyResult r = compute_occupancy(preset("lecture-16k"), tiled_kernel_launch(16, 16));
  EXPECT_EQ(r.limit_shared_mem, 8);
  EXPECT_EQ(r.limit_warps, 6);
  EXPECT_EQ(r.limit_registers, 8);
  EXPECT_EQ(r.limit_blocks, 8);
  EXPECT_EQ(r.active_blocks, 6);
  EXPECT_EQ(r.active_warps, 48);
  EXPECT_DOUBLE_EQ(r.occupancy_pct, 100.0);
  EXPECT_EQ(r.limiters, limiters({Limiter::warps}));
  EXPECT_TRUE(r.reason.empty());
}

TEST(Occupancy, LectureTile32) {
  // T = 32: 1024 threads, 8192 bytes. Shared memory 16384 / 8192 = 2; threads 1536 / 1024 = 1;
  // registers 64 warps / 32 = 2. One block of 32 warps of 48: 66.67%.
  const OccupancyResult r = compute_occupancy(preset("lecture-16k"), tiled_kernel_launch(32, 16));
  EXPECT_EQ(r.limit_shared_mem, 2);
  EXPECT_EQ(r.limit_warps, 1);
  EXPECT_EQ(r.limit_registers, 2);
  EXPECT_EQ(r.active_blocks, 1);
  EXPECT_EQ(r.active_warps, 32);
  EXPECT_NEAR(r.occupancy_pct, 200.0 / 3.0, 1e-9);
  EXPECT_EQ(r.limiters, limiters({Limiter::warps}));
}

TEST(Occupancy, H100TiledKernel) {
  // H100, T = 16, 32 registers: 1024 registers per warp; 65536 / 4 partitions = 16384 = 16 warps
  // each, 64 per SM / 8 warps = 8 blocks. Warps 64 / 8 = 8. Shared memory 2048 + 1024 reserved
  // = 3072 bytes; 233472 / 3072 = 76. Blocks 32, barriers 64 / 1 = 64. 8 active, 100%.
  const OccupancyResult r = compute_occupancy(preset("h100"), tiled_kernel_launch(16, 32));
  EXPECT_EQ(r.registers_per_warp, 1024);
  EXPECT_EQ(r.shared_bytes_per_block, 3072);
  EXPECT_EQ(r.limit_registers, 8);
  EXPECT_EQ(r.limit_warps, 8);
  EXPECT_EQ(r.limit_shared_mem, 76);
  EXPECT_EQ(r.limit_blocks, 32);
  EXPECT_EQ(r.limit_barriers, 64);
  EXPECT_EQ(r.active_blocks, 8);
  EXPECT_EQ(r.active_warps, 64);
  EXPECT_EQ(r.limiters, limiters({Limiter::warps, Limiter::registers}));
}

TEST(Occupancy, RegisterAllocationUnitRoundsPerWarp) {
  // H100, 1 warp, 255 registers: 255 * 32 = 8160, rounded up to 8192 per warp. A partition of
  // 16384 holds 2 such warps, 8 per SM: 8 blocks, registers the only limiter (warps 64, blocks 32).
  LaunchResources launch;
  launch.threads_per_block = 32;
  launch.registers_per_thread = 255;
  const OccupancyResult r = compute_occupancy(preset("h100"), launch);
  EXPECT_EQ(r.registers_per_warp, 8192);
  EXPECT_EQ(r.limit_registers, 8);
  EXPECT_EQ(r.active_blocks, 8);
  EXPECT_EQ(r.limiters, limiters({Limiter::registers}));
  EXPECT_DOUBLE_EQ(r.occupancy_pct, 12.5);  // 8 of 64 warps
}

TEST(Occupancy, PartitionsRoundTheRegisterFileDown) {
  // A100, 224 threads (7 warps), 40 registers: 1280 per warp. 16384 / 1280 = 12.8 -> 12 warps per
  // partition, 48 per SM, 48 / 7 = 6 blocks (the whole file would hold 65536 / 1280 = 51 warps,
  // 51 / 7 = 7 blocks).
  LaunchResources launch;
  launch.threads_per_block = 224;
  launch.registers_per_thread = 40;
  const OccupancyResult r = compute_occupancy(preset("a100"), launch);
  EXPECT_EQ(r.limit_registers, 6);
}

TEST(Occupancy, HardwareChecksBlockRegistersInWholePartitions) {
  // H100, 800 threads = 25 warps, 80 registers = 2560 per warp: 25 * 2560 = 64000 fits 65536
  // registers per block, but the hardware counts 28 warps (a multiple of 4 partitions):
  // 28 * 2560 = 71680 > 65536. The block cannot run.
  LaunchResources launch;
  launch.threads_per_block = 800;
  launch.registers_per_thread = 80;
  const OccupancyResult r = compute_occupancy(preset("h100"), launch);
  EXPECT_EQ(r.limit_registers, 0);
  EXPECT_EQ(r.active_blocks, 0);
  EXPECT_EQ(r.limiters, limiters({Limiter::registers}));
  EXPECT_NE(r.reason.find("counted as 28 warps"), std::string::npos) << r.reason;
  // 72 registers = 2304 per warp: 28 * 2304 = 64512 fits.
  launch.registers_per_thread = 72;
  EXPECT_GT(compute_occupancy(preset("h100"), launch).active_blocks, 0);
}

TEST(Occupancy, Gp100UsesTheFourPartitionCheckOfGp10x) {
  // P100 (2 partitions), 288 threads = 9 warps, 192 registers = 6144 per warp. Its own check
  // counts 10 warps: 61440 <= 65536; GP10x (4 partitions) counts 12: 73728 > 65536, and NVIDIA
  // applies that check to every Pascal chip. 0 blocks.
  LaunchResources launch;
  launch.threads_per_block = 288;
  launch.registers_per_thread = 192;
  EXPECT_EQ(compute_occupancy(preset("pascal"), launch).active_blocks, 0);
  // 8 warps (256 threads): 8 * 6144 = 49152 under both counts. 32768 per partition / 6144 = 5
  // warps, 10 per SM, 10 / 8 = 1 block.
  launch.threads_per_block = 256;
  const OccupancyResult r = compute_occupancy(preset("pascal"), launch);
  EXPECT_EQ(r.limit_registers, 1);
  EXPECT_EQ(r.active_blocks, 1);
}

TEST(Occupancy, ReservedSharedMemoryCountsFromAmpere) {
  // A100, 48 KB static: 49152 + 1024 reserved = 50176 bytes; 167936 / 50176 = 3.35 -> 3 blocks.
  // V100 (no reserve), the same launch: 98304 / 49152 = 2.
  LaunchResources launch;
  launch.threads_per_block = 128;
  launch.static_shared_bytes = 49152;
  EXPECT_EQ(compute_occupancy(preset("a100"), launch).limit_shared_mem, 3);
  EXPECT_EQ(compute_occupancy(preset("volta"), launch).limit_shared_mem, 2);
}

TEST(Occupancy, AllocationUnitRoundsSharedMemoryUp) {
  // V100 (unit 256): 1 byte takes 256; 98304 / 256 = 384 blocks of shared memory. A100 (unit
  // 128): 1 + 1024 -> 1152; 167936 / 1152 = 145.8 -> 145.
  LaunchResources launch;
  launch.threads_per_block = 32;
  launch.static_shared_bytes = 1;
  const OccupancyResult v = compute_occupancy(preset("volta"), launch);
  EXPECT_EQ(v.shared_bytes_per_block, 256);
  EXPECT_EQ(v.limit_shared_mem, 384);
  const OccupancyResult a = compute_occupancy(preset("a100"), launch);
  EXPECT_EQ(a.shared_bytes_per_block, 1152);
  EXPECT_EQ(a.limit_shared_mem, 145);
}

TEST(Occupancy, NoSharedMemoryIsUnlimitedBeforeAmpere) {
  LaunchResources launch;
  launch.threads_per_block = 64;
  const OccupancyResult r = compute_occupancy(preset("volta"), launch);
  EXPECT_EQ(r.limit_shared_mem, occupancy_limits::kUnlimited);
  // From cc 8.0 the 1 KB reserve is always there: H100 233472 / 1024 = 228.
  EXPECT_EQ(compute_occupancy(preset("h100"), launch).limit_shared_mem, 228);
}

TEST(Occupancy, CarveoutRoundsUpToASupportedSize) {
  // H100, T = 16 launch (3072 bytes allocated). 25% of 233472 = 58368 -> 64 KB = 65536:
  // 65536 / 3072 = 21 (the 21 blocks Nsight Compute reported on an H200, see DESIGN.md).
  // 50% = 116736 -> 132 KB = 135168: 44. 0% -> 0, smaller than one block: the smallest size that
  // holds it, 8 KB: 2 blocks, shared memory the limiter.
  LaunchResources launch = tiled_kernel_launch(16, 32);
  launch.carveout_percent = 25;
  OccupancyResult r = compute_occupancy(preset("h100"), launch);
  EXPECT_EQ(r.shared_memory_config, 65536);
  EXPECT_EQ(r.limit_shared_mem, 21);
  launch.carveout_percent = 50;
  EXPECT_EQ(compute_occupancy(preset("h100"), launch).limit_shared_mem, 44);
  launch.carveout_percent = 0;
  r = compute_occupancy(preset("h100"), launch);
  EXPECT_EQ(r.shared_memory_config, 8192);
  EXPECT_EQ(r.limit_shared_mem, 2);
  EXPECT_EQ(r.active_blocks, 2);
  EXPECT_EQ(r.limiters, limiters({Limiter::shared_memory}));
  // T = 32 (8192 + 1024 = 9216 bytes) at 10%: 23347 -> 32 KB: 32768 / 9216 = 3 (Nsight's 3).
  launch = tiled_kernel_launch(32, 32);
  launch.carveout_percent = 10;
  EXPECT_EQ(compute_occupancy(preset("h100"), launch).limit_shared_mem, 3);
}

TEST(Occupancy, PreVoltaFallsBackToTheLargestConfiguration) {
  // GTX 480 preferring L1 (carveout 0 -> 16 KB). A block of 20000 bytes does not fit 16 KB; the
  // driver switches to 48 KB: 49152 / 20096 (unit 128) = 2 blocks.
  LaunchResources launch;
  launch.threads_per_block = 64;
  launch.registers_per_thread = 16;
  launch.static_shared_bytes = 20000;
  launch.carveout_percent = 0;
  const OccupancyResult r = compute_occupancy(preset("fermi"), launch);
  EXPECT_EQ(r.shared_bytes_per_block, 20096);
  EXPECT_EQ(r.shared_memory_config, 49152);
  EXPECT_EQ(r.limit_shared_mem, 2);
  // A block of 4000 bytes fits 16 KB: 16384 / 4096 = 4.
  launch.static_shared_bytes = 4000;
  EXPECT_EQ(compute_occupancy(preset("fermi"), launch).limit_shared_mem, 4);
}

TEST(Occupancy, OptInAllowsMoreThan48KBFromVolta) {
  // H100: 100 KB dynamic + 1 KB reserved = 103424 bytes, more than 48 KB but within the opt-in
  // limit of 227 KB + 1 KB. Kepler has no opt-in: 48 KB per block, it cannot run.
  LaunchResources launch;
  launch.threads_per_block = 256;
  launch.dynamic_shared_bytes = 100 * 1024;
  const OccupancyResult r = compute_occupancy(preset("h100"), launch);
  EXPECT_EQ(r.shared_memory_limit_per_block, 232448 + 1024);
  EXPECT_EQ(r.limit_shared_mem, 2);  // default carveout, the largest: 233472 / 103424 = 2.26
  EXPECT_EQ(compute_occupancy(preset("kepler"), launch).active_blocks, 0);
}

TEST(Occupancy, BarrierLimitOnConsumerBlackwell) {
  // RTX 5090 (cc 12.0): 24 barriers per SM, 24 blocks per SM. 32 threads, 16 registers:
  // registers 65536 / 4 = 16384 / 512 = 32 warps per partition -> 128 / 1 = 128; warps 48;
  // shared memory 102400 / 1024 = 100. Blocks and barriers both stop at 24.
  LaunchResources launch;
  launch.threads_per_block = 32;
  launch.registers_per_thread = 16;
  const OccupancyResult r = compute_occupancy(preset("rtx5090"), launch);
  EXPECT_EQ(r.active_blocks, 24);
  EXPECT_EQ(r.limiters, limiters({Limiter::blocks, Limiter::barriers}));
}

TEST(Occupancy, LaunchesThatCannotRunAreResultsNotErrors) {
  const GpuSpec& h100 = preset("h100");
  LaunchResources launch;
  launch.threads_per_block = 1025;
  OccupancyResult r = compute_occupancy(h100, launch);
  EXPECT_EQ(r.active_blocks, 0);
  EXPECT_EQ(r.active_warps, 0);
  EXPECT_EQ(r.limit_warps, 0);
  EXPECT_EQ(r.limiters, limiters({Limiter::warps}));
  EXPECT_NE(r.reason.find("1025 threads"), std::string::npos) << r.reason;

  launch = LaunchResources{};
  launch.registers_per_thread = 256;  // above 255
  r = compute_occupancy(h100, launch);
  EXPECT_EQ(r.active_blocks, 0);
  EXPECT_NE(r.reason.find("256 registers per thread"), std::string::npos) << r.reason;

  // 1024 threads * 65 registers: 2080 -> 2304 per warp, * 32 = 73728 > 65536 per block.
  launch.threads_per_block = 1024;
  launch.registers_per_thread = 65;
  r = compute_occupancy(h100, launch);
  EXPECT_EQ(r.active_blocks, 0);
  EXPECT_EQ(r.limiters, limiters({Limiter::registers}));
  EXPECT_NE(r.reason.find("73728"), std::string::npos) << r.reason;

  // 227 KB + 1 byte of dynamic shared memory: 232449 + 1024 -> 233600 > 233472.
  launch = LaunchResources{};
  launch.dynamic_shared_bytes = 232449;
  r = compute_occupancy(h100, launch);
  EXPECT_EQ(r.active_blocks, 0);
  EXPECT_EQ(r.limiters, limiters({Limiter::shared_memory}));
  EXPECT_NE(r.reason.find("233600"), std::string::npos) << r.reason;
  launch.dynamic_shared_bytes = 232448;  // exactly the opt-in maximum: one block
  EXPECT_EQ(compute_occupancy(h100, launch).active_blocks, 1);

  // The lecture's SM: a 33 x 33 tile (1089 threads) has too many threads.
  r = compute_occupancy(preset("lecture-16k"), tiled_kernel_launch(33, 16));
  EXPECT_EQ(r.active_blocks, 0);
  EXPECT_NE(r.reason.find("1024 threads per block"), std::string::npos) << r.reason;
}

TEST(Occupancy, WarpsArePartialBlocksRoundedUp) {
  // 33 threads take 2 warps: H100 64 / 2 = 32 blocks by warps; the T4's 32 warps / 2 = 16.
  LaunchResources launch;
  launch.threads_per_block = 33;
  launch.registers_per_thread = 16;
  EXPECT_EQ(compute_occupancy(preset("h100"), launch).limit_warps, 32);
  EXPECT_EQ(compute_occupancy(preset("turing"), launch).limit_warps, 16);
}

TEST(Occupancy, InvalidInputThrows) {
  const GpuSpec& h100 = preset("h100");
  LaunchResources launch;
  launch.threads_per_block = 0;
  EXPECT_THROW(compute_occupancy(h100, launch), InvalidInput);
  launch = LaunchResources{};
  launch.registers_per_thread = -1;
  EXPECT_THROW(compute_occupancy(h100, launch), InvalidInput);
  launch = LaunchResources{};
  launch.dynamic_shared_bytes = -1;
  EXPECT_THROW(compute_occupancy(h100, launch), InvalidInput);
  launch = LaunchResources{};
  launch.carveout_percent = 101;
  EXPECT_THROW(compute_occupancy(h100, launch), InvalidInput);
  GpuSpec broken = h100;
  broken.register_allocation_unit = 0;
  try {
    compute_occupancy(broken, LaunchResources{});
    ADD_FAILURE() << "no exception";
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find("register_allocation_unit"), std::string::npos) << e.what();
  }
  broken = h100;
  broken.shared_memory_carveouts.pop_back();  // no longer ends at shared_memory_per_sm
  EXPECT_THROW(compute_occupancy(broken, LaunchResources{}), InvalidInput);
  EXPECT_THROW(tiled_kernel_launch(0, 32), InvalidInput);
}

TEST(ArchitectureSpec, MatchesThePresetsOfTheSameComputeCapability) {
  // Two sources written apart (the table in code, the CSV): the same figures for each preset's cc.
  for (const GpuSpec& p : presets()) {
    if (p.name == "lecture-16k") continue;  // a 16 KB configuration, not a chip
    const GpuSpec a = architecture_spec(p.cc_major, p.cc_minor);
    EXPECT_EQ(a.max_threads_per_sm, p.max_threads_per_sm) << p.name;
    EXPECT_EQ(a.max_blocks_per_sm, p.max_blocks_per_sm) << p.name;
    EXPECT_EQ(a.registers_per_sm, p.registers_per_sm) << p.name;
    EXPECT_EQ(a.registers_per_block, p.registers_per_block) << p.name;
    EXPECT_EQ(a.max_registers_per_thread, p.max_registers_per_thread) << p.name;
    EXPECT_EQ(a.register_allocation_unit, p.register_allocation_unit) << p.name;
    EXPECT_EQ(a.warp_allocation_granularity, p.warp_allocation_granularity) << p.name;
    EXPECT_EQ(a.shared_memory_per_sm, p.shared_memory_per_sm) << p.name;
    EXPECT_EQ(a.shared_memory_per_block, p.shared_memory_per_block) << p.name;
    EXPECT_EQ(a.shared_memory_per_block_optin, p.shared_memory_per_block_optin) << p.name;
    EXPECT_EQ(a.shared_memory_allocation_unit, p.shared_memory_allocation_unit) << p.name;
    EXPECT_EQ(a.reserved_shared_memory_per_block, p.reserved_shared_memory_per_block) << p.name;
    EXPECT_EQ(a.shared_memory_carveouts, p.shared_memory_carveouts) << p.name;
    EXPECT_EQ(a.barriers_per_sm, p.barriers_per_sm) << p.name;
  }
  EXPECT_THROW(architecture_spec(4, 0), InvalidInput);
  EXPECT_THROW(architecture_spec(13, 0), InvalidInput);
}

TEST(ArchitectureSpec, SpecFromDeviceTakesTheDevicesFigures) {
  // What cudaGetDeviceProperties reports on an H100 SXM5 (CUDA C Programming Guide, cc 9.0).
  DeviceProperties d;
  d.name = "NVIDIA H100 80GB HBM3";
  d.major = 9;
  d.minor = 0;
  d.multiProcessorCount = 132;
  d.warpSize = 32;
  d.maxThreadsPerBlock = 1024;
  d.maxThreadsPerMultiProcessor = 2048;
  d.maxBlocksPerMultiProcessor = 32;
  d.regsPerBlock = 65536;
  d.regsPerMultiprocessor = 65536;
  d.sharedMemPerBlock = 49152;
  d.sharedMemPerBlockOptin = 232448;
  d.sharedMemPerMultiprocessor = 233472;
  d.reservedSharedMemPerBlock = 1024;
  const GpuSpec g = spec_from_device(d);
  const LaunchResources launch = tiled_kernel_launch(16, 32);
  const OccupancyResult from_device = compute_occupancy(g, launch);
  const OccupancyResult from_preset = compute_occupancy(preset("h100"), launch);
  EXPECT_EQ(from_device.active_blocks, from_preset.active_blocks);
  EXPECT_EQ(from_device.limit_shared_mem, from_preset.limit_shared_mem);
  EXPECT_EQ(g.sm_count, 132);
  EXPECT_EQ(g.shared_memory_carveouts, preset("h100").shared_memory_carveouts);
}

TEST(OccupancyReport, CsvHasTheSchemaAndOneRow) {
  const GpuSpec& gpu = preset("lecture-16k");
  const LaunchResources launch = tiled_kernel_launch(16, 16);
  std::ostringstream csv;
  write_occupancy_csv(csv, gpu, launch, compute_occupancy(gpu, launch));
  // The lecture figures of LectureTile16.
  EXPECT_EQ(csv.str(),
            "gpu,threads_per_block,regs_per_thread,smem_per_block,limit_warps,limit_blocks,"
            "limit_registers,limit_shared_mem,active_blocks,active_warps,occupancy_pct,limiter\n"
            "lecture-16k,256,16,2048,6,8,8,8,6,48,100.00,warps\n");
}

TEST(OccupancyReport, UnlimitedAndSeveralLimiters) {
  // V100, 64 threads, no registers, no shared memory: registers and shared memory unlimited;
  // warps 64 / 2 = 32 = blocks 32: two limiters. 32 * 2 = 64 warps, 100%.
  LaunchResources launch;
  launch.threads_per_block = 64;
  launch.registers_per_thread = 0;
  std::ostringstream csv;
  write_occupancy_csv(csv, preset("volta"), launch, compute_occupancy(preset("volta"), launch));
  EXPECT_NE(csv.str().find("\nvolta,64,0,0,32,32,unlimited,unlimited,32,64,100.00,warps;blocks\n"),
            std::string::npos)
      << csv.str();
}

TEST(OccupancyReport, TextNamesEveryLimitLikeNsight) {
  const GpuSpec& gpu = preset("h100");
  const LaunchResources launch = tiled_kernel_launch(16, 32);
  std::ostringstream text;
  write_occupancy_text(text, gpu, launch, compute_occupancy(gpu, launch));
  for (const char* label :
       {"Block Limit SM", "Block Limit Registers", "Block Limit Shared Mem", "Block Limit Warps",
        "Block Limit Barriers", "Theoretical Active Warps per SM", "Theoretical Occupancy", "Limiter"})
    EXPECT_NE(text.str().find(label), std::string::npos) << label << "\n" << text.str();
}

}  // namespace
}  // namespace warpdiv::analysis

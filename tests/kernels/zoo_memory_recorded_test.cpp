// The model's global memory figures against Nsight Compute's, as recorded on an H100 and an H200
// (data/validation/memory/*/results.csv, made by tools/device-ncu-memory and
// tools/ncu-memory-table): every recorded launch of a zoo kernel is replayed here and its global
// load, store and atomic requests and sectors must equal what ncu measured on the GPU (not what
// the model said then). The shared figures differ where nvcc merged or moved shared accesses
// (data/validation/memory/README.md): for them, the model's present figures must equal the
// model's recorded ones, so that a change to the shared rules shows up here.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "sim/engine/ir_replay.hpp"
#include "tests/kernels/zoo_launches.hpp"

namespace warpdiv::sim::ir {
namespace {

struct Recorded {
  std::string gpu, model, arguments;
  std::map<std::string, std::pair<std::string, std::string>> figures;  // figure -> (model, ncu)
};

// A CSV line's fields (quoted fields may hold commas; the table has no doubled quotes).
std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (char c : line) {
    if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

std::map<std::string, Recorded> read_records(const std::string& gpu_folder) {
  std::ifstream in(std::string(WARPDIV_SOURCE_DIR) + "/data/validation/memory/" + gpu_folder +
                   "/results.csv");
  std::map<std::string, Recorded> launches;  // by launch number
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "gpu,launch,model,arguments,figure,model_value,ncu_value,agreement");
  while (std::getline(in, line)) {
    const std::vector<std::string> f = fields(line);
    if (f.size() != 8) {
      ADD_FAILURE() << line;
      continue;
    }
    Recorded& r = launches[f[1]];
    r.gpu = f[0];
    r.model = f[2];
    r.arguments = f[3];
    r.figures[f[4]] = {f[5], f[6]};
  }
  return launches;
}

Dim3 dim3_of(const std::string& text) {
  Dim3 d;
  std::vector<std::uint32_t> v;
  std::istringstream in(text);
  std::string part;
  while (std::getline(in, part, ',')) v.push_back(static_cast<std::uint32_t>(std::stoul(part)));
  d.x = v.at(0);
  if (v.size() > 1) d.y = v[1];
  if (v.size() > 2) d.z = v[2];
  return d;
}

Launch launch_of(const Kernel& k, const std::string& arguments) {
  std::istringstream in(arguments);
  std::string flag, value;
  Launch l;
  std::map<std::string, std::int64_t> args;
  while (in >> flag >> value) {
    if (flag == "--grid") l.grid = dim3_of(value);
    if (flag == "--block") l.block = dim3_of(value);
    if (flag == "--arg")
      args[value.substr(0, value.find('='))] = std::stoll(value.substr(value.find('=') + 1));
  }
  for (const Parameter& p : k.parameters)
    l.arguments.push_back(p.scalar ? Value::of(p.type, args.at(p.name)) : Value{});
  return l;
}

void check_gpu(const std::string& folder) {
  const std::map<std::string, Recorded> launches = read_records(folder);
  ASSERT_GE(launches.size(), 100u) << folder;
  std::map<std::string, Kernel> kernels;
  for (const auto& [number, r] : launches) {
    SCOPED_TRACE(folder + " launch " + number + ": " + r.model + " " + r.arguments);
    if (!kernels.count(r.model)) kernels.emplace(r.model, zoo::load(r.model + ".cu"));
    const Kernel& k = kernels.at(r.model);
    const ReplayResult result = replay(k, launch_of(k, r.arguments));
    Count ld_req = 0, ld_sec = 0, st_req = 0, st_sec = 0, at_req = 0;
    Count sh_ld_wf = 0, sh_st_wf = 0, sh_ld_cf = 0, sh_st_cf = 0;
    for (std::size_t i = 0; i < k.accesses.size(); ++i) {
      const MemoryAccess& a = k.accesses[i];
      const AccessCounts& c = result.accesses[i];
      if (a.space == AddressSpace::Shared) {
        (a.kind == AccessKind::Load ? sh_ld_wf : sh_st_wf) += c.wavefronts;
        (a.kind == AccessKind::Load ? sh_ld_cf : sh_st_cf) += c.conflicts;
      } else if (a.kind == AccessKind::Load) {
        ld_req += c.requests;
        ld_sec += c.sectors;
      } else if (a.kind == AccessKind::Store) {
        st_req += c.requests;
        st_sec += c.sectors;
      } else {
        at_req += c.requests;
      }
    }
    const auto measured = [&](const std::string& figure) { return r.figures.at(figure).second; };
    const auto recorded_model = [&](const std::string& figure) { return r.figures.at(figure).first; };
    EXPECT_EQ(to_decimal(ld_req), measured("global load requests"));
    EXPECT_EQ(to_decimal(ld_sec), measured("global load sectors"));
    EXPECT_EQ(to_decimal(st_req), measured("global store requests"));
    EXPECT_EQ(to_decimal(st_sec), measured("global store sectors"));
    EXPECT_EQ(to_decimal(at_req), measured("global atomic requests"));
    EXPECT_EQ(to_decimal(sh_ld_wf), recorded_model("shared load wavefronts"));
    EXPECT_EQ(to_decimal(sh_st_wf), recorded_model("shared store wavefronts"));
    EXPECT_EQ(to_decimal(sh_ld_cf), recorded_model("shared load bank conflicts"));
    EXPECT_EQ(to_decimal(sh_st_cf), recorded_model("shared store bank conflicts"));
  }
}

TEST(ZooMemoryRecorded, GlobalFiguresEqualNsightComputeOnAnH100) { check_gpu("nvidia-h100"); }
TEST(ZooMemoryRecorded, GlobalFiguresEqualNsightComputeOnAnH200) { check_gpu("nvidia-h200"); }

// Every zoo kernel was measured, on one GPU at least (the kernels added after the H100's records,
// data/validation/memory/README.md, on the H200 only).
TEST(ZooMemoryRecorded, EveryZooKernelWasMeasured) {
  std::set<std::string> models;
  for (const char* gpu : {"nvidia-h100", "nvidia-h200"})
    for (const auto& [number, r] : read_records(gpu)) models.insert(r.model);
  for (const std::string& file : zoo::files())
    EXPECT_TRUE(models.count(file.substr(0, file.size() - 3))) << file << " has no recorded launch";
}

}  // namespace
}  // namespace warpdiv::sim::ir

// Nsight Compute against the calculator and the model: for each profiled launch of warpdiv's
// kernels, ncu's occupancy limits and theoretical occupancy beside the calculator fed the same
// figures (ncu's registers, shared memory and the carveout the driver chose), and ncu's branch
// metrics beside the model's divergent warp-phases.
#pragma once

#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/ncu_csv.hpp"
#include "analysis/occupancy.hpp"
#include "sim/divergence.hpp"

namespace warpdiv::analysis {

/// One figure two ways.
struct CrosscheckFigure {
  std::string what;     // "occupancy limit: registers (blocks)"
  double ncu = 0.0;
  double other = 0.0;   // the calculator's (or the runtime's) figure
  std::string other_name;  // "calculator", "runtime"
  bool matched = false;
};

struct NcuKernelCheck {
  std::int64_t id = 0;
  std::string kernel;   // "checked", "instrumented", "unchecked"
  int tile = 0;
  std::vector<CrosscheckFigure> figures;
  std::optional<double> branch_uniform_pct;        // smsp__sass_average_branch_targets_threads_uniform.pct
  std::optional<double> divergent_branch_targets;  // smsp__sass_branch_targets_threads_divergent.sum
  std::optional<double> branch_targets;            // smsp__sass_branch_targets.sum

  bool matched() const;
};

struct NcuCrosscheck {
  sim::DivergenceResult model;  // the launch being profiled
  std::string gpu_source;       // where the calculator's GPU figures came from
  std::vector<NcuKernelCheck> kernels;

  bool matched() const;
};

/// Registers per thread that the CUDA runtime reported for each kernel ("checked" -> 32), from
/// `warpdiv validate --csv`; compared with ncu's when given.
using RuntimeRegisters = std::map<std::string, int>;

/// Reads registers_{checked,instrumented,unchecked} and tile of the first row of a
/// `warpdiv validate --csv` file. Throws InvalidInput naming `flag` on a bad file.
RuntimeRegisters read_runtime_registers(const std::string& path, const std::string& flag,
                                        int& tile);

/// Checks every launch of warpdiv's kernels in `launches` (others are skipped) against the
/// calculator and `model`. InvalidInput when none of them is warpdiv's, or a launch's grid or
/// block is not the model's launch.
NcuCrosscheck crosscheck_ncu(const std::vector<NcuLaunch>& launches,
                             const sim::DivergenceResult& model,
                             const RuntimeRegisters& runtime_registers);

void write_ncu_crosscheck_text(std::ostream& out, const NcuCrosscheck& check);

}  // namespace warpdiv::analysis

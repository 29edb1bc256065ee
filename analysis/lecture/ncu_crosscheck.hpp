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
#include "analysis/lecture/divergence.hpp"

namespace warpdiv::analysis {

/// One figure two ways.
struct CrosscheckFigure {
  std::string what;  // "occupancy limit: registers (blocks)"
  double ncu = 0.0;
  double other = 0.0;      // the calculator's (or the runtime's) figure
  std::string other_name;  // "calculator", "runtime"
  bool matched = false;
};

struct NcuKernelCheck {
  std::int64_t id = 0;
  std::string kernel;  // "checked", "instrumented", "unchecked"
  int tile = 0;
  std::vector<CrosscheckFigure> figures;
  std::optional<double> branch_uniform_pct;        // smsp__sass_average_branch_targets_threads_uniform.pct
  std::optional<double> divergent_branch_targets;  // smsp__sass_branch_targets_threads_divergent.sum
  std::optional<double> branch_targets;            // smsp__sass_branch_targets.sum

  bool matched() const;
};

struct NcuCrosscheck {
  lecture::DivergenceResult model;  // the launch being profiled
  std::string gpu_source;           // where the calculator's GPU figures came from
  std::vector<NcuKernelCheck> kernels;

  bool matched() const;
};

/// Registers per thread that the CUDA runtime reported for each kernel ("checked" -> 32), from
/// `warpdiv validate --csv`; compared with ncu's when given.
using RuntimeRegisters = std::map<std::string, int>;

/// One row of a `warpdiv validate --csv` file: the launch it ran and the registers per thread
/// the runtime reported for each kernel.
struct ValidateRun {
  std::string where;  // "FILE:LINE" of the row, for messages
  std::int64_t rows = 0;
  std::int64_t inner = 0;
  std::int64_t cols = 0;
  int tile = 0;
  RuntimeRegisters registers;
};

/// Reads the rows of a `warpdiv validate --csv` file (columns rows, inner, cols, tile,
/// registers_{checked,instrumented,unchecked}; others ignored) through read_input_file(),
/// `flag` naming it there. Every value must be an integer in range; InvalidInput
/// "FILE:LINE: column 'x': ..." otherwise.
std::vector<ValidateRun> read_validate_csv(const std::string& path, const std::string& flag);
std::vector<ValidateRun> parse_validate_csv(const std::string& text, const std::string& source);

/// Which of warpdiv's kernels an ncu "Kernel Name" is: "TiledMatMul" (the lecture's kernel as
/// `warpdiv validate` runs it), "checked", "unchecked" or "instrumented" (the hand-written kernels
/// of earlier versions, in the profiles recorded with them), or "" for any other kernel.
std::string lecture_kernel_kind(const std::string& kernel_name);

/// Checks every launch of warpdiv's kernels in `launches` (others are skipped) against the
/// calculator and `model`. InvalidInput (naming the file and line of the launch) when none of
/// them is warpdiv's, or a launch's grid or block is not the model's launch: blockDim (T, T, 1),
/// grid (ceil(L / T), ceil(J / T), 1), and launch__block_size = T * T and launch__grid_size =
/// the number of blocks where the CSV has them.
NcuCrosscheck crosscheck_ncu(const std::vector<NcuLaunch>& launches, const lecture::DivergenceResult& model,
                             const RuntimeRegisters& runtime_registers);

void write_ncu_crosscheck_text(std::ostream& out, const NcuCrosscheck& check);

}  // namespace warpdiv::analysis

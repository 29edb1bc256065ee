// Formatters of a DivergenceResult: the readable report and the 20-row CSV.
#pragma once

#include <ostream>
#include <string>

#include "sim/divergence.hpp"

namespace warpdiv::analysis {

/// The fixed CSV header of `warpdiv analyze --csv`.
constexpr const char* kDivergenceCsvHeader =
    "condition,block_class,blocks,warps,warp_phases,divergent_warp_phases";

/// Header plus 20 rows: conditions load_M, load_N, compute, store; classes interior, right_edge,
/// bottom_edge, corner, all.
void write_divergence_csv(std::ostream& out, const sim::DivergenceResult& result);

/// The readable report: per condition a table by block class, the lecture's Type 1 / Type 2 view
/// for the loads, the bound on the performance impact, and the barrier note.
void write_divergence_text(std::ostream& out, const sim::DivergenceResult& result);

/// "12.76%" (two decimals) of a/b; "0.00%" when b is 0; "<0.01%" / ">99.99%" rather than rounding a
/// nonzero share to none or a partial one to all.
std::string percent(sim::Count part, sim::Count whole);

/// The condition as written in the kernel ("Row < J && p*T + tx < K").
std::string condition_expression(sim::Condition condition);

}  // namespace warpdiv::analysis

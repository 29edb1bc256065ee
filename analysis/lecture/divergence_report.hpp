// Formatters of a DivergenceResult: the readable report and the 20-row CSV.
#pragma once

#include <ostream>
#include <string>

#include "analysis/lecture/divergence.hpp"

namespace warpdiv::analysis {

/// Header (condition,block_class,blocks,warps,warp_phases,divergent_warp_phases) plus 20 rows: conditions
/// load_M, load_N, compute, store; classes interior, right_edge, bottom_edge, corner, all.
void write_divergence_csv(std::ostream& out, const lecture::DivergenceResult& result);

/// The readable report: per condition a table by block class, the lecture's Type 1 / Type 2 view
/// for the loads, the bound on the performance impact, and the barrier note.
void write_divergence_text(std::ostream& out, const lecture::DivergenceResult& result);

/// "12.76%" (two decimals) of a/b; "0.00%" when b is 0; "<0.01%" / ">99.99%" rather than rounding a
/// nonzero share to none or a partial one to all.
std::string percent(sim::Count part, sim::Count whole);

/// The lecture's two kinds of blocks for a load: Type 1 has all rows (load_M) or all columns
/// (load_N) in range, Type 2 is the last block-row (load_M) or block-column (load_N). Each type is
/// the sum of two block classes.
struct LectureType {
  std::string label;
  lecture::ClassCounts counts;  // the sum of its two block classes
};
struct LectureTypes {
  LectureType type1, type2;
};
/// For load_M; any other condition gets load_N's (the mirror).
LectureTypes lecture_types(const lecture::DivergenceResult& result, lecture::Condition load);

/// True for the lecture's own launch (100 x 100 x 100, T = 16, warp size 32).
bool is_lecture_default(const lecture::LaunchConfig& config);

/// The condition as written in the kernel ("Row < J && p*T + tx < K").
std::string condition_expression(lecture::Condition condition);

}  // namespace warpdiv::analysis

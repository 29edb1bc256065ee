// How the existing lanes of one warp agree on a condition, and the one-byte record of a warp-phase
// that the ballot-instrumented kernel writes (kernels/) and the validator compares (analysis/).
#pragma once

#include <cstdint>

#include "analysis/lecture/conditions.hpp"

namespace warpdiv::lecture {

/// none: no existing lane passes; divergent: some do, some don't; all: every existing lane passes.
/// The values are the record's bit patterns, so they are fixed.
enum class Agreement : std::uint8_t { none = 0, divergent = 1, all = 2 };

constexpr Agreement agreement(LaneMask passing, LaneMask existing) {
  return passing == 0 ? Agreement::none
                      : (passing == existing ? Agreement::all : Agreement::divergent);
}

const char* name(Agreement agreement);

/// A phase record holds the three per-phase conditions (load_M, load_N, compute), 2 bits each:
/// bits 0-1 load_M, bits 2-3 load_N, bits 4-5 compute. The store, evaluated once per warp, has
/// a record of its own per warp (bits 0-1).
constexpr int kAgreementBits = 2;
constexpr std::uint8_t kAgreementMask = 0x3;

constexpr int record_shift(Condition condition) {
  return condition == Condition::load_M    ? 0
         : condition == Condition::load_N  ? kAgreementBits
         : condition == Condition::compute ? 2 * kAgreementBits
                                           : 0;  // store: its own record
}

constexpr Agreement unpack(std::uint8_t record, Condition condition) {
  return static_cast<Agreement>((record >> record_shift(condition)) & kAgreementMask);
}

constexpr std::uint8_t pack(Agreement load_m, Agreement load_n, Agreement compute) {
  return static_cast<std::uint8_t>(static_cast<unsigned>(load_m) |
                                   static_cast<unsigned>(load_n) << kAgreementBits |
                                   static_cast<unsigned>(compute) << (2 * kAgreementBits));
}

}  // namespace warpdiv::lecture

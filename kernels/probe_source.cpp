#include "kernels/probe_source.hpp"

#include <algorithm>
#include <sstream>
#include <vector>

#include "sim/support/errors.hpp"

namespace warpdiv::kernels {

namespace ir = sim::ir;

namespace {

const char* c_type(ir::ScalarType t) {
  switch (t) {
    case ir::ScalarType::Bool:
      return "bool";
    case ir::ScalarType::I8:
      return "signed char";
    case ir::ScalarType::U8:
      return "unsigned char";
    case ir::ScalarType::I16:
      return "short";
    case ir::ScalarType::U16:
      return "unsigned short";
    case ir::ScalarType::I32:
      return "int";
    case ir::ScalarType::U32:
      return "unsigned int";
    case ir::ScalarType::I64:
      return "long long";
    case ir::ScalarType::U64:
      return "unsigned long long";
    case ir::ScalarType::F32:
      return "float";
    case ir::ScalarType::F64:
      return "double";
  }
  return "int";
}

// The unsigned type of the same width, for arithmetic that must wrap instead of overflowing.
const char* unsigned_type(ir::ScalarType t) {
  return ir::bit_width(t) == 64 ? "unsigned long long" : "unsigned int";
}

std::string literal(ir::ScalarType t, std::uint64_t bits) {
  if (t == ir::ScalarType::Bool) return bits != 0 ? "true" : "false";
  // Floating constants by their bits: exact, and NaN, infinities and -0 too.
  if (t == ir::ScalarType::F32) return "__int_as_float((int)" + std::to_string(bits) + "u)";
  if (t == ir::ScalarType::F64) return "__longlong_as_double((long long)" + std::to_string(bits) + "ull)";
  if (ir::is_signed(t)) {
    const auto v = static_cast<std::int64_t>(bits);
    if (v == INT64_MIN) return std::string("((") + c_type(t) + ")(-9223372036854775807LL - 1))";
    return std::string("((") + c_type(t) + ")(" + std::to_string(v) + "LL))";
  }
  return std::string("((") + c_type(t) + ")(" + std::to_string(bits) + "ULL))";
}

// Helpers of the generated source: C's division and shifts made total (the model refuses the
// undefined cases on active lanes; inactive lanes must not make the probe itself undefined).
constexpr const char* kPrologue = R"(typedef unsigned long long wd_u64;
#define WD_DIVS(T, MIN) \
  __device__ __forceinline__ T wd_div(T a, T b) { return (b == 0 || (a == MIN && b == -1)) ? a : a / b; } \
  __device__ __forceinline__ T wd_rem(T a, T b) { return (b == 0 || (a == MIN && b == -1)) ? 0 : a % b; }
#define WD_DIVU(T) \
  __device__ __forceinline__ T wd_div(T a, T b) { return b == 0 ? a : a / b; } \
  __device__ __forceinline__ T wd_rem(T a, T b) { return b == 0 ? 0 : a % b; }
WD_DIVS(int, (-2147483647 - 1))
WD_DIVS(long long, (-9223372036854775807LL - 1))
WD_DIVU(unsigned int)
WD_DIVU(unsigned long long)
__device__ __forceinline__ int wd_shl(int a, wd_u64 s) { return (int)((unsigned int)a << (s & 31u)); }
__device__ __forceinline__ unsigned int wd_shl(unsigned int a, wd_u64 s) { return a << (s & 31u); }
__device__ __forceinline__ long long wd_shl(long long a, wd_u64 s) { return (long long)((wd_u64)a << (s & 63u)); }
__device__ __forceinline__ wd_u64 wd_shl(wd_u64 a, wd_u64 s) { return a << (s & 63u); }
__device__ __forceinline__ int wd_shr(int a, wd_u64 s) { return a >> (s & 31u); }
__device__ __forceinline__ unsigned int wd_shr(unsigned int a, wd_u64 s) { return a >> (s & 31u); }
__device__ __forceinline__ long long wd_shr(long long a, wd_u64 s) { return a >> (s & 63u); }
__device__ __forceinline__ wd_u64 wd_shr(wd_u64 a, wd_u64 s) { return a >> (s & 63u); }
// A loaded element: T at byte `at` of the buffer at `base` of `bytes` bytes; 0 outside
// it or misaligned (only lanes the model does not run get there: it refuses an active one).
template <typename T>
__device__ __forceinline__ T wd_load(wd_u64 base, long long at, wd_u64 bytes) {
  if (at < 0 || (wd_u64)at + sizeof(T) > bytes || ((wd_u64)at % sizeof(T)) != 0u) return (T)0;
  return *(const T*)(base + (wd_u64)at);
}
// Shared memory followed by value: an element of a __shared__ array at byte `at` of
// its `bytes`, starting at `base` in the probe's own shared memory; a store there.
template <typename T>
__device__ __forceinline__ T wd_sload(unsigned char* base, long long at, wd_u64 bytes) {
  if (at < 0 || (wd_u64)at + sizeof(T) > bytes || ((wd_u64)at % sizeof(T)) != 0u) return (T)0;
  return *(volatile T*)(base + at);
}
template <typename T>
__device__ __forceinline__ void wd_sstore(unsigned char* base, long long at, wd_u64 bytes, T value) {
  if (at < 0 || (wd_u64)at + sizeof(T) > bytes || ((wd_u64)at % sizeof(T)) != 0u) return;
  *(volatile T*)(base + at) = value;
}
// A buffer the kernel writes, followed by value: the kernel's store into the probe's own copy.
template <typename T>
__device__ __forceinline__ void wd_gstore(wd_u64 base, long long at, wd_u64 bytes, T value) {
  if (at < 0 || (wd_u64)at + sizeof(T) > bytes || ((wd_u64)at % sizeof(T)) != 0u) return;
  *(volatile T*)(base + (wd_u64)at) = value;
}

struct WdWarp {
  wd_u64* totals;
  wd_u64* records;
  wd_u64 base;   // this warp's first record
  wd_u64 room;   // records it may write
  wd_u64 n;      // evaluations so far (the same in every lane)
  unsigned lane;
};

// One warp evaluation: counted by lane 0, recorded when there is room.
__device__ __forceinline__ void wd_eval(WdWarp& w, int stmt, unsigned active, unsigned taken,
                                        bool condition, bool divergent) {
  if (w.lane == 0u) {
    wd_u64* t = w.totals + (wd_u64)stmt * 7ull;
    atomicAdd(t + 0, 1ull);
    if (divergent) atomicAdd(t + 1, 1ull);
    atomicAdd(t + 2, (wd_u64)__popc(active));
    if (condition) atomicAdd(t + 3, (wd_u64)__popc(taken));
    if (w.records != 0 && w.n < w.room) {
      wd_u64* r = w.records + (w.base + w.n) * 2ull;
      r[0] = (wd_u64)stmt;
      r[1] = (wd_u64)active | ((wd_u64)taken << 32);
    }
  }
  w.n += 1ull;
}

)";

struct Frame {
  ir::StmtKind kind;      // Loop, Switch or InlinedCall
  std::string broken;     // Loop / Switch: lanes that left by break
  std::string continued;  // Loop
  std::string returned;   // InlinedCall
  ir::LocalId result = ir::kNone;
};

class Generator {
 public:
  Generator(const ir::Kernel& k, const std::vector<std::uint64_t>& buffer_bytes,
            std::uint64_t dynamic_shared_bytes)
      : k_(k), buffer_bytes_(buffer_bytes) {
    std::vector<bool> values(k.parameters.size(), false);
    for (std::size_t i = 0; i < values.size() && i < buffer_bytes.size(); ++i)
      values[i] = buffer_bytes[i] != 0;
    loaded_ = ir::computed_loads(k, &values);
    origins_ = ir::opaque_origins(k, loaded_);
    layout_ = ir::memory_layout(k, loaded_, dynamic_shared_bytes);
    // (A buffer the kernel writes and reads back: the probe makes the kernel's stores and atomics
    // on its own copy of it.)
    dynamic_shared_bytes_ = dynamic_shared_bytes;
    barrier_.assign(k.stmts.size(), -1);
    for (std::size_t i = 0; i < k.stmts.size(); ++i)
      if (k.stmts[i].kind == ir::StmtKind::Barrier) {
        barrier_[i] = static_cast<int>(barrier_stmts_.size());
        barrier_stmts_.push_back(static_cast<ir::StmtId>(i));
      }
  }

  std::string source() {
    std::ostringstream o;
    o << "// Generated by warpdiv from the model of " << k_.name;
    if (!k_.files.empty()) o << " (" << k_.files[0].path << ")";
    o << ": its control flow, voted warp by warp. Do not edit.\n" << kPrologue;
    o << "extern \"C\" __global__ void " << kProbeEntry
      << "(const wd_u64* args, wd_u64* totals, wd_u64* records, const wd_u64* offsets,\n"
         "    wd_u64* counts, wd_u64* flags, wd_u64 guard) {\n";
    const std::size_t nb = barrier_stmts_.size();
    o << "  const unsigned wd_t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);\n"
         "  const unsigned wd_threads = blockDim.x * blockDim.y * blockDim.z;\n"
         "  const unsigned wd_lane = wd_t % 32u;\n"
         "  const unsigned wd_warp = wd_t / 32u;\n"
         "  unsigned wd_hw_lane;\n"
         "  asm volatile(\"mov.u32 %0, %%laneid;\" : \"=r\"(wd_hw_lane));\n"
         "  if (wd_hw_lane != wd_lane) atomicAdd(flags + 0, 1ull);\n"
         "  const unsigned wd_lanes = wd_threads - wd_warp * 32u >= 32u ? 32u : wd_threads - wd_warp * 32u;\n"
         "  const unsigned ex = wd_lanes == 32u ? 0xffffffffu : ((1u << wd_lanes) - 1u);\n"
         "  const wd_u64 wd_block = blockIdx.x + (wd_u64)gridDim.x * (blockIdx.y + (wd_u64)gridDim.y * "
         "blockIdx.z);\n"
         "  const wd_u64 wd_gw = wd_block * (wd_u64)((wd_threads + 31u) / 32u) + wd_warp;\n"
         "  WdWarp w;\n"
         "  w.totals = totals;\n"
         "  w.records = records;\n"
         "  w.base = records != 0 ? offsets[wd_gw] : 0ull;\n"
         "  w.room = records != 0 ? offsets[wd_gw + 1] - w.base : 0ull;\n"
         "  w.n = 0ull;\n"
         "  w.lane = wd_lane;\n";
    if (nb > 0) {
      o << "  __shared__ wd_u64 wd_most[" << nb << "], wd_fewest[" << nb << "];\n"
        << "  wd_u64 wd_arrivals[" << nb << "];\n"
        << "  for (unsigned i = 0; i < " << nb << "u; ++i) wd_arrivals[i] = 0ull;\n"
        << "  for (unsigned i = wd_t; i < " << nb << "u; i += wd_threads) {\n"
        << "    wd_most[i] = 0ull;\n    wd_fewest[i] = ~0ull;\n  }\n";
    }
    if (layout_.any_shared)
      o << "  __shared__ __align__(16) unsigned char wd_smem["
        << std::max<std::uint64_t>(layout_.shared_bytes, 16)
        << "];  // the kernel's __shared__ arrays followed by value\n";
    if (layout_.local_bytes > 0)
      o << "  __align__(16) unsigned char wd_local[" << layout_.local_bytes
        << "];  // its local arrays followed by value\n";
    o << "  __syncthreads();  // every thread, once\n";
    for (std::size_t i = 0; i < k_.parameters.size(); ++i) {
      const ir::Parameter& p = k_.parameters[i];
      if (!p.scalar && i < buffer_bytes_.size() && buffer_bytes_[i] != 0)  // a buffer with values
        o << "  const wd_u64 p" << i << " = args[" << i << "];  // " << p.name << " (device address)\n";
      if (p.floating == 32)
        o << "  const float p" << i << " = __int_as_float((int)(unsigned int)args[" << i << "]);  // "
          << p.name << "\n";
      if (p.floating == 64)
        o << "  const double p" << i << " = __longlong_as_double((long long)args[" << i << "]);  // "
          << p.name << "\n";
      if (!p.scalar) continue;
      o << "  const " << c_type(p.type) << " p" << i << " = (" << c_type(p.type) << ")args[" << i << "];  // "
        << p.name << "\n";
    }
    for (std::size_t i = 0; i < k_.locals.size(); ++i)
      o << "  " << c_type(k_.locals[i].type) << " l" << i << " = 0;  // " << k_.locals[i].name << "\n";
    o << "  (void)guard;\n  {\n    unsigned m0 = ex;\n";
    body_.str("");
    indent_ = 4;
    stmt(k_.root, "m0");
    o << body_.str();
    o << "    (void)m0;\n  }\nwd_end:\n"
         "  if (wd_lane == 0u && counts != 0) counts[wd_gw] = w.n;\n";
    if (nb > 0) {
      o << "  for (unsigned i = 0; i < " << nb << "u; ++i) {\n"
        << "    atomicMax(&wd_most[i], wd_arrivals[i]);\n"
        << "    atomicMin(&wd_fewest[i], wd_arrivals[i]);\n  }\n";
    }
    o << "  __syncthreads();  // every thread, once\n";
    if (nb > 0) {
      o << "  if (wd_t == 0u) {\n";
      for (std::size_t b = 0; b < nb; ++b) {
        o << "    {\n      wd_u64* t = totals + " << barrier_stmts_[b] << "ull * 7ull;\n"
          << "      atomicAdd(t + 4, wd_most[" << b << "]);\n"
          << "      atomicAdd(t + 5, wd_most[" << b << "] - wd_fewest[" << b << "]);\n"
          << "      if (wd_most[" << b << "] != wd_fewest[" << b << "]) atomicAdd(t + 6, 1ull);\n"
          << "    }\n";
      }
      o << "  }\n";
    }
    o << "}\n";
    return o.str();
  }

 private:
  std::ostream& line() { return body_ << std::string(static_cast<std::size_t>(indent_), ' '); }
  std::string fresh(const char* prefix) { return prefix + std::to_string(next_++); }
  static std::string lane_in(const std::string& mask) { return "((" + mask + " >> wd_lane) & 1u)"; }
  bool computable(ir::ExprId e) const {
    return e != ir::kNone && origins_[static_cast<std::size_t>(e)] == ir::kNone;
  }

  std::string expr(ir::ExprId id) const {
    const ir::Expr& e = k_.exprs[static_cast<std::size_t>(id)];
    const std::string t = c_type(e.type);
    const auto op = [&](int i) { return expr(e.operands[i]); };
    switch (e.kind) {
      case ir::ExprKind::Constant:
        return literal(e.type, e.constant);
      case ir::ExprKind::Param:
        return "p" + std::to_string(e.index);
      case ir::ExprKind::Local:
        return "l" + std::to_string(e.index);
      case ir::ExprKind::Opaque: {
        if (e.access == ir::kNone || !loaded_[static_cast<std::size_t>(e.access)])
          return "((" + t + ")0)";  // never decides control flow
        const ir::MemoryAccess& a = k_.accesses[static_cast<std::size_t>(e.access)];
        // An atomic's returned value: never decides control flow here (check_probe_supports).
        if (a.kind == ir::AccessKind::Atomic) return "((" + t + ")0)";
        // Through the null pointer: the model faults in any lane that makes it, so none gets here.
        if (k_.bases[static_cast<std::size_t>(a.base)].null) return "((" + t + ")0)";
        if (layout_.local_at[static_cast<std::size_t>(a.base)] >= 0)
          return "wd_sload<" + t + ">(wd_local + " +
                 std::to_string(layout_.local_at[static_cast<std::size_t>(a.base)]) + ", (long long)(" +
                 expr(a.offset) + "), " + std::to_string(array_bytes(a.base)) + "ull)";
        if (layout_.any_shared && layout_.shared_at[static_cast<std::size_t>(a.base)] >= 0)
          return "wd_sload<" + t + ">(wd_smem + " +
                 std::to_string(layout_.shared_at[static_cast<std::size_t>(a.base)]) + ", (long long)(" +
                 expr(a.offset) + "), " + std::to_string(array_bytes(a.base)) + "ull)";
        const auto parameter = static_cast<std::size_t>(k_.bases[static_cast<std::size_t>(a.base)].parameter);
        return "wd_load<" + t + ">(p" + std::to_string(parameter) + ", (long long)(" + expr(a.offset) +
               "), " + std::to_string(buffer_bytes_[parameter]) + "ull)";
      }
      case ir::ExprKind::Builtin: {
        static const char* const names[] = {"threadIdx.x", "threadIdx.y", "threadIdx.z", "blockIdx.x",
                                            "blockIdx.y",  "blockIdx.z",  "blockDim.x",  "blockDim.y",
                                            "blockDim.z",  "gridDim.x",   "gridDim.y",   "gridDim.z",
                                            "warpSize"};
        return names[static_cast<int>(e.builtin)];
      }
      case ir::ExprKind::Cast:
        if (e.type == ir::ScalarType::Bool) return "((" + op(0) + ") != 0)";
        return "((" + t + ")(" + op(0) + "))";
      case ir::ExprKind::Unary: {
        if (ir::is_floating(e.type)) return "(-(" + op(0) + "))";  // flips the sign, as the model
        const std::string u = unsigned_type(e.type);
        switch (e.unary_op) {
          case ir::UnaryOp::Neg:
            return "((" + t + ")((" + u + ")0 - (" + u + ")(" + op(0) + ")))";
          case ir::UnaryOp::BitNot:
            return "((" + t + ")(~(" + u + ")(" + op(0) + ")))";
          case ir::UnaryOp::LogicalNot:
            return "(!(" + op(0) + "))";
        }
        break;
      }
      case ir::ExprKind::Binary: {
        const ir::ScalarType ot = k_.exprs[static_cast<std::size_t>(e.operands[0])].type;
        const std::string u = unsigned_type(ot);
        const std::string a = op(0), b = op(1);
        if (ir::is_floating(ot) && !ir::is_comparison(e.binary_op)) {
          // Rounded on their own, as the model computes them: nvcc contracts none of these.
          static const char* const single[] = {"__fadd_rn", "__fsub_rn", "__fmul_rn", "__fdiv_rn"};
          static const char* const dual[] = {"__dadd_rn", "__dsub_rn", "__dmul_rn", "__ddiv_rn"};
          const int i = static_cast<int>(e.binary_op);  // Add, Sub, Mul, Div
          return std::string(ot == ir::ScalarType::F32 ? single[i] : dual[i]) + "(" + a + ", " + b + ")";
        }
        const auto wrap = [&](const char* sym) {
          return "((" + t + ")((" + u + ")(" + a + ") " + sym + " (" + u + ")(" + b + ")))";
        };
        switch (e.binary_op) {
          case ir::BinaryOp::Add:
            return wrap("+");
          case ir::BinaryOp::Sub:
            return wrap("-");
          case ir::BinaryOp::Mul:
            return wrap("*");
          case ir::BinaryOp::Div:
            return "wd_div(" + a + ", " + b + ")";
          case ir::BinaryOp::Rem:
            return "wd_rem(" + a + ", " + b + ")";
          case ir::BinaryOp::Shl:
            return "wd_shl(" + a + ", (wd_u64)(" + b + "))";
          case ir::BinaryOp::Shr:
            return "wd_shr(" + a + ", (wd_u64)(" + b + "))";
          case ir::BinaryOp::BitAnd:
            return "((" + t + ")((" + a + ") & (" + b + ")))";
          case ir::BinaryOp::BitOr:
            return "((" + t + ")((" + a + ") | (" + b + ")))";
          case ir::BinaryOp::BitXor:
            return "((" + t + ")((" + a + ") ^ (" + b + ")))";
          case ir::BinaryOp::Lt:
            return "((" + a + ") < (" + b + "))";
          case ir::BinaryOp::Le:
            return "((" + a + ") <= (" + b + "))";
          case ir::BinaryOp::Gt:
            return "((" + a + ") > (" + b + "))";
          case ir::BinaryOp::Ge:
            return "((" + a + ") >= (" + b + "))";
          case ir::BinaryOp::Eq:
            return "((" + a + ") == (" + b + "))";
          case ir::BinaryOp::Ne:
            return "((" + a + ") != (" + b + "))";
        }
        break;
      }
      case ir::ExprKind::Logical:
        return "((" + op(0) + ")" + (e.logical_op == ir::LogicalOp::And ? " && " : " || ") + "(" + op(1) +
               "))";
      case ir::ExprKind::Select:
        return "((" + op(0) + ") ? (" + op(1) + ") : (" + op(2) + "))";
      case ir::ExprKind::Warp: {
        const std::string width = std::to_string(e.constant);
        switch (e.warp_op) {
          case ir::WarpOp::Shfl:
            return "__shfl_sync(" + op(0) + ", " + op(1) + ", " + op(2) + ", " + width + ")";
          case ir::WarpOp::ShflUp:
            return "__shfl_up_sync(" + op(0) + ", " + op(1) + ", (unsigned)(" + op(2) + "), " + width + ")";
          case ir::WarpOp::ShflDown:
            return "__shfl_down_sync(" + op(0) + ", " + op(1) + ", (unsigned)(" + op(2) + "), " + width + ")";
          case ir::WarpOp::ShflXor:
            return "__shfl_xor_sync(" + op(0) + ", " + op(1) + ", " + op(2) + ", " + width + ")";
          case ir::WarpOp::Ballot:
            return "__ballot_sync(" + op(0) + ", (" + op(1) + ") ? 1 : 0)";
          case ir::WarpOp::Any:
            return "__any_sync(" + op(0) + ", (" + op(1) + ") ? 1 : 0)";
          case ir::WarpOp::All:
            return "__all_sync(" + op(0) + ", (" + op(1) + ") ? 1 : 0)";
          case ir::WarpOp::ActiveMask:
            return "__activemask()";
          case ir::WarpOp::SyncWarp:
            return "(__syncwarp(" + op(0) + "), 0u)";
        }
        break;
      }
      case ir::ExprKind::Intrinsic: {
        const bool single = e.type == ir::ScalarType::F32;
        const std::string fma = single ? "__fmaf_rn(" : "__fma_rn(";
        switch (e.intrinsic) {
          case ir::Intrinsic::Fma:
            return fma + op(0) + ", " + op(1) + ", " + op(2) + ")";
          case ir::Intrinsic::Fms:
            return fma + op(0) + ", " + op(1) + ", -(" + op(2) + "))";
          case ir::Intrinsic::Fnma:
            return fma + "-(" + op(0) + "), " + op(1) + ", " + op(2) + ")";
          case ir::Intrinsic::Sqrt:
            return (single ? "__fsqrt_rn(" : "__dsqrt_rn(") + op(0) + ")";
          case ir::Intrinsic::Fabs:
            return (single ? "fabsf(" : "fabs(") + op(0) + ")";
        }
        break;
      }
    }
    return "0";
  }

  void eval(ir::StmtId id, const std::string& active, const std::string& taken, bool condition,
            const std::string& divergent) {
    line() << "wd_eval(w, " << id << ", " << active << ", " << taken << ", " << (condition ? "true" : "false")
           << ", " << divergent << ");\n";
  }
  void count(ir::StmtId id, const std::string& m) { eval(id, m, "0u", false, "false"); }

  std::uint64_t array_bytes(std::int32_t base) const {
    const ir::MemoryBase& b = k_.bases[static_cast<std::size_t>(base)];
    return b.bytes != 0 ? b.bytes : dynamic_shared_bytes_;
  }

  // The statement's stores into shared memory followed by value, by the lanes of `m` (and of
  // each store's guard), in the statement's order, as the model makes them.
  void stores(ir::StmtId id, const std::string& m) {
    if (!layout_.any_shared && layout_.local_bytes == 0 &&
        std::find(layout_.written.begin(), layout_.written.end(), true) == layout_.written.end())
      return;
    for (std::int32_t x : k_.stmts[static_cast<std::size_t>(id)].accesses) {
      const ir::MemoryAccess& a = k_.accesses[static_cast<std::size_t>(x)];
      if (a.kind == ir::AccessKind::Load || a.base == ir::kNone || !computable(a.value) ||
          !computable(a.offset) || (a.guard != ir::kNone && !computable(a.guard)) ||
          (a.compare != ir::kNone && !computable(a.compare)))
        continue;
      const std::string t = c_type(k_.exprs[static_cast<std::size_t>(a.value)].type);
      const std::int32_t parameter = k_.bases[static_cast<std::size_t>(a.base)].parameter;
      if (parameter != ir::kNone && layout_.written[static_cast<std::size_t>(a.base)]) {
        const std::string buffer = "p" + std::to_string(parameter);
        const std::string bytes = std::to_string(buffer_bytes_[static_cast<std::size_t>(parameter)]) + "ull";
        const std::string when =
            lane_in(m) + (a.guard != ir::kNone ? " && (" + expr(a.guard) + ")" : std::string());
        if (a.kind == ir::AccessKind::Store) {
          line() << "if (" << when << ") wd_gstore<" << t << ">(" << buffer << ", (long long)("
                 << expr(a.offset) << "), " << bytes << ", (" << t << ")(" << expr(a.value) << "));\n";
        } else {
          line() << "if (" << when << ") { const long long at = (long long)(" << expr(a.offset)
                 << "); if (at >= 0 && (wd_u64)at + sizeof(" << t << ") <= " << bytes << ") "
                 << atomic_call(a, buffer + " + (wd_u64)at") << "; }\n";
        }
        continue;
      }
      if (layout_.local_at[static_cast<std::size_t>(a.base)] >= 0 && a.kind == ir::AccessKind::Store) {
        line() << "if (" << lane_in(m)
               << (a.guard != ir::kNone ? " && (" + expr(a.guard) + ")" : std::string()) << ") wd_sstore<"
               << t << ">(wd_local + " << layout_.local_at[static_cast<std::size_t>(a.base)]
               << ", (long long)(" << expr(a.offset) << "), " << array_bytes(a.base) << "ull, (" << t << ")("
               << expr(a.value) << "));\n";
        continue;
      }
      if (layout_.shared_at[static_cast<std::size_t>(a.base)] < 0) continue;
      if (a.kind == ir::AccessKind::Atomic) {  // the same atomic on the probe's shared memory
        line() << "if (" << lane_in(m)
               << (a.guard != ir::kNone ? " && (" + expr(a.guard) + ")" : std::string())
               << ") { const long long at = (long long)(" << expr(a.offset)
               << "); if (at >= 0 && (wd_u64)at + sizeof(" << t << ") <= " << array_bytes(a.base) << "ull) "
               << atomic_call(a, "wd_smem + " +
                                     std::to_string(layout_.shared_at[static_cast<std::size_t>(a.base)]) +
                                     " + at")
               << "; }\n";
        continue;
      }
      line() << "if (" << lane_in(m) << (a.guard != ir::kNone ? " && (" + expr(a.guard) + ")" : std::string())
             << ") wd_sstore<" << t << ">(wd_smem + " << layout_.shared_at[static_cast<std::size_t>(a.base)]
             << ", (long long)(" << expr(a.offset) << "), " << array_bytes(a.base) << "ull, (" << t << ")("
             << expr(a.value) << "));\n";
    }
  }

  // The CUDA call making atomic `a` on the element at `address` (an expression of a byte address)
  // with the lane's operand: the same operation on the same bits (PTX's atom: exch and cas through
  // the unsigned type of the element's width, as CUDA declares them; inc and dec on unsigned int;
  // add on float and double rounds as the model does, flushing binary32 subnormals on global
  // memory only).
  std::string atomic_call(const ir::MemoryAccess& a, const std::string& address) const {
    const ir::ScalarType type = k_.exprs[static_cast<std::size_t>(a.value)].type;
    const std::string t = c_type(type);
    const std::string bits = a.width == 2   ? "unsigned short"
                             : a.width == 8 ? "unsigned long long"
                                            : "unsigned int";
    const auto as_bits = [&](ir::ExprId e) {
      if (type == ir::ScalarType::F32) return "__float_as_uint(" + expr(e) + ")";
      if (type == ir::ScalarType::F64) return "(unsigned long long)__double_as_longlong(" + expr(e) + ")";
      return "(" + bits + ")(" + expr(e) + ")";
    };
    switch (a.atomic) {
      case ir::AtomicOp::Exch:
        return "atomicExch((" + bits + "*)(" + address + "), " + as_bits(a.value) + ")";
      case ir::AtomicOp::Cas:
        return "atomicCAS((" + bits + "*)(" + address + "), " + as_bits(a.compare) + ", " + as_bits(a.value) +
               ")";
      case ir::AtomicOp::Inc:
      case ir::AtomicOp::Dec:
        return std::string(a.atomic == ir::AtomicOp::Inc ? "atomicInc" : "atomicDec") + "((unsigned int*)(" +
               address + "), (unsigned int)(" + expr(a.value) + "))";
      default:
        break;
    }
    static const char* const names[] = {"",          "atomicAdd", "atomicSub", "atomicMin",
                                        "atomicMax", "atomicAnd", "atomicOr",  "atomicXor"};
    return std::string(names[static_cast<int>(a.atomic)]) + "((" + t + "*)(" + address + "), (" + t + ")(" +
           expr(a.value) + "))";
  }

  // Lanes of `m` assign `value` to local `local` (skipped when the value is opaque).
  void assign(ir::LocalId local, ir::ExprId value, const std::string& m) {
    if (local == ir::kNone || !computable(value)) return;
    line() << "{\n";
    line() << "  const " << c_type(k_.locals[static_cast<std::size_t>(local)].type) << " v = " << expr(value)
           << ";\n";
    line() << "  if (" << lane_in(m) << ") l" << local << " = v;\n";
    line() << "}\n";
  }

  // Votes the condition over the lanes of `m` into a new mask; returns its name.
  std::string vote(ir::ExprId cond, const std::string& m) {
    const std::string t = fresh("t");
    if (cond == ir::kNone) {
      line() << "const unsigned " << t << " = " << m << ";\n";
    } else {
      line() << "const unsigned " << t << " = __ballot_sync(ex, " << lane_in(m) << " && (" << expr(cond)
             << "));\n";
    }
    return t;
  }

  Frame& frame(bool loop_or_switch, bool loop_only) {
    for (auto it = frames_.rbegin(); it != frames_.rend(); ++it) {
      if (loop_only && it->kind == ir::StmtKind::Loop) return *it;
      if (!loop_only && loop_or_switch &&
          (it->kind == ir::StmtKind::Loop || it->kind == ir::StmtKind::Switch))
        return *it;
      if (!loop_or_switch && it->kind == ir::StmtKind::InlinedCall) return *it;
    }
    throw InvalidInput(Diag::model_invalid, "kernel model: break, continue or return outside its construct");
  }
  bool in_call() const {
    for (const Frame& f : frames_)
      if (f.kind == ir::StmtKind::InlinedCall) return true;
    return false;
  }

  // Emits statement `id` run by the (non-empty) mask variable m; leaves the lanes that go on in m.
  void stmt(ir::StmtId id, const std::string& m) {
    const ir::Stmt& s = k_.stmts[static_cast<std::size_t>(id)];
    switch (s.kind) {
      case ir::StmtKind::Block:
        count(id, m);
        for (ir::StmtId child : s.children) {
          line() << "if (" << m << " != 0u) {\n";
          indent_ += 2;
          stmt(child, m);
          indent_ -= 2;
          line() << "}\n";
        }
        return;
      case ir::StmtKind::Declare:
      case ir::StmtKind::Assign:
        count(id, m);
        stores(id, m);
        assign(s.local, s.value, m);
        return;
      case ir::StmtKind::Work:
        count(id, m);
        stores(id, m);
        return;
      case ir::StmtKind::If: {
        stores(id, m);
        const std::string t = vote(s.value, m);
        eval(id, m, t, true, "(" + t + " != 0u && " + t + " != " + m + ")");
        const std::string out = fresh("o"), other = fresh("e");
        line() << "unsigned " << out << " = 0u;\n";
        line() << "if (" << t << " != 0u) {\n";
        indent_ += 2;
        const std::string mt = fresh("m");
        line() << "unsigned " << mt << " = " << t << ";\n";
        stmt(s.then_stmt, mt);
        line() << out << " |= " << mt << ";\n";
        indent_ -= 2;
        line() << "}\n";
        line() << "unsigned " << other << " = " << m << " & ~" << t << ";\n";
        line() << "if (" << other << " != 0u) {\n";
        indent_ += 2;
        if (s.else_stmt != ir::kNone) stmt(s.else_stmt, other);
        line() << out << " |= " << other << ";\n";
        indent_ -= 2;
        line() << "}\n";
        line() << m << " = " << out << ";\n";
        return;
      }
      case ir::StmtKind::Loop:
        return loop(id, s, m);
      case ir::StmtKind::Break: {
        count(id, m);
        line() << frame(true, false).broken << " |= " << m << ";\n";
        line() << m << " = 0u;\n";
        return;
      }
      case ir::StmtKind::Continue: {
        count(id, m);
        line() << frame(true, true).continued << " |= " << m << ";\n";
        line() << m << " = 0u;\n";
        return;
      }
      case ir::StmtKind::Return: {
        count(id, m);
        stores(id, m);
        if (in_call()) {
          Frame& f = frame(false, false);
          if (s.value != ir::kNone) assign(f.result, s.value, m);
          line() << f.returned << " |= " << m << ";\n";
        }
        line() << m << " = 0u;\n";
        return;
      }
      case ir::StmtKind::Barrier:
        count(id, m);
        line() << "if (" << lane_in(m) << ") wd_arrivals[" << barrier_[static_cast<std::size_t>(id)]
               << "] += 1ull;\n";
        // Shared memory followed by value: a real barrier (the whole warp reaches it: the probe's
        // branches are votes), as the model runs each warp up to it before any goes past.
        if (layout_.any_shared) line() << "__syncthreads();\n";
        return;
      case ir::StmtKind::InlinedCall: {
        count(id, m);
        Frame f{ir::StmtKind::InlinedCall, "", "", fresh("r"), s.local};
        line() << "{\n";
        indent_ += 2;
        line() << "unsigned " << f.returned << " = 0u;\n";
        frames_.push_back(f);
        stmt(s.body, m);
        frames_.pop_back();
        line() << m << " |= " << f.returned << ";\n";
        indent_ -= 2;
        line() << "}\n";
        return;
      }
      case ir::StmtKind::Switch:
        return switch_(id, s, m);
    }
  }

  void loop(ir::StmtId id, const ir::Stmt& s, const std::string& m) {
    line() << "{\n";
    indent_ += 2;
    const std::string in = fresh("i"), exits = fresh("x");
    Frame f{ir::StmtKind::Loop, fresh("b"), fresh("c"), "", ir::kNone};
    line() << "unsigned " << in << " = " << m << ";\n";
    if (s.init != ir::kNone) stmt(s.init, in);
    line() << "unsigned " << exits << " = 0u, " << f.broken << " = 0u, " << f.continued << " = 0u;\n";
    line() << "while (" << in << " != 0u) {\n";
    indent_ += 2;
    line() << "if (w.n > guard) goto wd_end;  // the model's count is long passed\n";
    const auto test = [&] {
      stores(id, in);
      const std::string stay = vote(s.value, in);
      eval(id, in, stay, true, "(" + stay + " != 0u && " + stay + " != " + in + ")");
      line() << exits << " |= " << in << " & ~" << stay << ";\n";
      line() << in << " = " << stay << ";\n";
    };
    if (s.loop_kind != ir::LoopKind::Do) {
      test();
      line() << "if (" << in << " == 0u) break;\n";
    }
    line() << f.broken << " = 0u;\n"
           << std::string(static_cast<std::size_t>(indent_), ' ') << f.continued << " = 0u;\n";
    frames_.push_back(f);
    stmt(s.body, in);
    frames_.pop_back();
    line() << in << " |= " << f.continued << ";\n";
    line() << exits << " |= " << f.broken << ";\n";
    if (s.step != ir::kNone) {
      line() << "if (" << in << " != 0u) {\n";
      indent_ += 2;
      stmt(s.step, in);
      indent_ -= 2;
      line() << "}\n";
    }
    if (s.loop_kind == ir::LoopKind::Do) {
      line() << "if (" << in << " != 0u) {\n";
      indent_ += 2;
      test();
      indent_ -= 2;
      line() << "}\n";
    }
    indent_ -= 2;
    line() << "}\n";
    line() << m << " = " << exits << ";\n";
    indent_ -= 2;
    line() << "}\n";
  }

  void switch_(ir::StmtId id, const ir::Stmt& s, const std::string& m) {
    line() << "{\n";
    indent_ += 2;
    const ir::ScalarType type = k_.exprs[static_cast<std::size_t>(s.value)].type;
    const std::string v = fresh("v");
    stores(id, m);
    line() << "const " << c_type(type) << " " << v << " = " << expr(s.value) << ";\n";
    const std::size_t n = s.children.size();
    std::vector<std::string> entry(n + 1);
    for (std::size_t i = 0; i <= n; ++i) {
      entry[i] = fresh("n");
      line() << "unsigned " << entry[i] << " = 0u;\n";
    }
    const std::string matched = fresh("k");
    line() << "unsigned " << matched << " = 0u;\n";
    for (const ir::SwitchCase& c : s.cases) {
      const std::string hit = fresh("h");
      line() << "const unsigned " << hit << " = __ballot_sync(ex, " << lane_in(m) << " && " << v
             << " == " << literal(type, c.value) << ");\n";
      line() << entry[static_cast<std::size_t>(c.child)] << " |= " << hit << ";\n";
      line() << matched << " |= " << hit << ";\n";
    }
    const std::size_t fallback = s.default_child != ir::kNone ? static_cast<std::size_t>(s.default_child) : n;
    line() << entry[fallback] << " |= " << m << " & ~" << matched << ";\n";
    std::string points = "0";
    for (const std::string& e : entry) points += " + (" + e + " != 0u ? 1 : 0)";
    eval(id, m, matched, true, "(" + points + ") > 1");
    Frame f{ir::StmtKind::Switch, fresh("b"), "", "", ir::kNone};
    line() << "unsigned " << f.broken << " = 0u;\n";
    const std::string running = fresh("u");
    line() << "unsigned " << running << " = 0u;\n";
    frames_.push_back(f);
    for (std::size_t i = 0; i < n; ++i) {
      line() << running << " |= " << entry[i] << ";\n";
      line() << "if (" << running << " != 0u) {\n";
      indent_ += 2;
      stmt(s.children[i], running);
      indent_ -= 2;
      line() << "}\n";
    }
    frames_.pop_back();
    line() << m << " = " << running << " | " << entry[n] << " | " << f.broken << ";\n";
    indent_ -= 2;
    line() << "}\n";
  }

  const ir::Kernel& k_;
  std::vector<std::uint64_t> buffer_bytes_;  // [parameter]: a buffer with values
  std::vector<bool> loaded_;                 // [access]: loads the probe reads
  std::vector<ir::ExprId> origins_;
  ir::MemoryLayout layout_;  // memory followed by value
  std::uint64_t dynamic_shared_bytes_ = 0;
  std::vector<int> barrier_;               // [StmtId]: barrier index or -1
  std::vector<ir::StmtId> barrier_stmts_;  // [barrier index]
  std::vector<Frame> frames_;
  std::ostringstream body_;
  int indent_ = 0;
  int next_ = 1;
};

}  // namespace

void check_probe_supports(const sim::ir::Kernel& kernel, const std::vector<std::uint64_t>& buffer_bytes) {
  std::vector<bool> values(kernel.parameters.size(), false);
  for (std::size_t i = 0; i < values.size() && i < buffer_bytes.size(); ++i) values[i] = buffer_bytes[i] != 0;
  // Every atomic's result taken as unknown: what then stops being computed depends on one.
  std::vector<std::int32_t> atomics;
  for (std::size_t i = 0; i < kernel.accesses.size(); ++i)
    if (kernel.accesses[i].kind == ir::AccessKind::Atomic) atomics.push_back(static_cast<std::int32_t>(i));
  if (atomics.empty()) return;
  const std::vector<ir::ExprId> all = ir::opaque_origins(kernel, ir::computed_loads(kernel, &values));
  const std::vector<ir::ExprId> without =
      ir::opaque_origins(kernel, ir::computed_loads(kernel, &values, nullptr, nullptr, &atomics));
  for (const ir::Stmt& s : kernel.stmts) {
    if ((s.kind != ir::StmtKind::If && s.kind != ir::StmtKind::Loop && s.kind != ir::StmtKind::Switch) ||
        s.value == ir::kNone || all[static_cast<std::size_t>(s.value)] != ir::kNone ||
        without[static_cast<std::size_t>(s.value)] == ir::kNone)
      continue;
    const ir::Expr& o = kernel.exprs[static_cast<std::size_t>(without[static_cast<std::size_t>(s.value)])];
    throw InvalidInput(Diag::unsupported_construct, ir::source_location(kernel, s.range),
                       "the GPU probe cannot check this " + ir::report_kind(s) +
                           " yet: its condition depends on " + o.description + " (" +
                           ir::location(kernel, o.range) +
                           "), a value an atomic returns (the model follows it in one order; on the GPU the "
                           "threads' order varies, and the probe does not reproduce atomics' results)");
  }
}

std::string probe_source(const sim::ir::Kernel& kernel, const std::vector<std::uint64_t>& buffer_bytes,
                         std::uint64_t dynamic_shared_bytes) {
  ir::validate(kernel);
  check_probe_supports(kernel, buffer_bytes);
  return Generator(kernel, buffer_bytes, dynamic_shared_bytes).source();
}

}  // namespace warpdiv::kernels

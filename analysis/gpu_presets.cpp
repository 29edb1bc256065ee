#include "analysis/gpu_presets.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <iomanip>
#include <limits>
#include <map>
#include <optional>
#include <vector>

#include "analysis/csv.hpp"
#include "analysis/input_file.hpp"
#include "sim/support/errors.hpp"
#include "sim/support/message_text.hpp"

namespace warpdiv::analysis {

namespace {

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// One row's fields, with the location used in every message about them.
class Row {
 public:
  Row(std::string file, std::size_t line, const std::array<std::string, kGpuCsvColumnCount>& fields)
      : file_(std::move(file)), line_(line), fields_(fields) {}

  [[noreturn]] void fail(std::size_t column, const std::string& what) const {
    throw InvalidInput(Diag::file_content, where() + ": column '" + kGpuCsvColumns[column] + "': " + what);
  }
  std::string where() const { return file_ + ":" + std::to_string(line_); }

  const std::string& text(std::size_t column) const { return fields_[column]; }

  // A decimal integer from 0 to max; anything else ("-1", "1.5", "", "12k") is refused.
  std::int64_t integer(std::size_t column, std::int64_t max = std::numeric_limits<int>::max()) const {
    const std::string& s = fields_[column];
    return parse(column, s, max);
  }
  int small(std::size_t column) const { return static_cast<int>(integer(column)); }

  std::int64_t parse(std::size_t column, const std::string& s, std::int64_t max) const {
    if (s.empty()) fail(column, "is empty (a non-negative integer is required)");
    if (s[0] == '-') fail(column, sim::quote_value(s) + " is negative (a non-negative integer is required)");
    const std::optional<std::int64_t> value = parse_decimal_integer(s, 0, max);
    if (value) return *value;
    for (char c : s)
      if (c < '0' || c > '9')
        fail(column,
             sim::quote_value(s) + " is not a non-negative integer (0 to " + std::to_string(max) + ")");
    fail(column, sim::quote_value(s) + " is larger than " + std::to_string(max));
  }

 private:
  std::string file_;
  std::size_t line_;
  std::array<std::string, kGpuCsvColumnCount> fields_;
};

enum Column : std::size_t {
  kName,
  kDescription,
  kCc,
  kSmCount,
  kWarpSize,
  kMaxThreadsPerBlock,
  kMaxThreadsPerSm,
  kMaxBlocksPerSm,
  kRegistersPerSm,
  kRegistersPerBlock,
  kMaxRegistersPerThread,
  kRegisterAllocationUnit,
  kWarpAllocationGranularity,
  kSharedPerSm,
  kSharedPerBlock,
  kSharedPerBlockOptin,
  kSharedAllocationUnit,
  kReservedShared,
  kCarveouts,
  kBarriersPerSm,
  kSource
};

// Which column a validate() message is about: it names fields as the columns are named, and the
// first name in the message is the field at fault ("max_threads_per_sm must be a multiple of
// warp_size"). At equal positions the longer name wins (..._per_block_optin over ..._per_block).
std::size_t column_named_in(const std::string& message) {
  std::vector<std::pair<std::string, std::size_t>> needles = {{"shared_memory_carveouts", kCarveouts},
                                                              {"compute capability", kCc}};
  for (std::size_t i = 0; i < kGpuCsvColumnCount; ++i) needles.emplace_back(kGpuCsvColumns[i], i);
  std::size_t best = kCc;
  std::size_t best_pos = std::string::npos;
  std::size_t best_length = 0;
  for (const auto& [needle, column] : needles) {
    const std::size_t pos = message.find(needle);
    if (pos == std::string::npos) continue;
    if (best_pos == std::string::npos || pos < best_pos || (pos == best_pos && needle.size() > best_length)) {
      best = column;
      best_pos = pos;
      best_length = needle.size();
    }
  }
  return best;
}

// CUDA's own limits, the same on every compute capability from 2.0 (CUDA C++ Programming Guide,
// "Technical Specifications per Compute Capability"): a warp of 32 threads, at most 1,024 threads
// per block, at most 255 registers per thread; and the figures that bound one another: a block
// fits one SM, a block holds at least one warp, a block's registers are a part of the SM's, and one
// warp at the most registers per thread fits a block's registers.
void check_cuda_limits(const Row& row, const GpuSpec& g) {
  const auto within = [&](std::size_t column, std::int64_t value, std::int64_t high, const std::string& why) {
    if (value > high)
      row.fail(column, std::to_string(value) + " is out of range for GPU " + sim::quote_value(g.name) +
                           " (allowed: 1 to " + std::to_string(high) + ", " + why + ")");
  };
  if (g.warp_size != 32)
    row.fail(kWarpSize, std::to_string(g.warp_size) + " is out of range for GPU " + sim::quote_value(g.name) +
                            " (allowed: 32, CUDA's warp size)");
  within(
      kMaxThreadsPerBlock, g.max_threads_per_block, std::min(1024, g.max_threads_per_sm),
      "CUDA's 1024 threads per block and at most max_threads_per_sm " + std::to_string(g.max_threads_per_sm));
  within(kMaxBlocksPerSm, g.max_blocks_per_sm, g.max_warps_per_sm,
         "at most max_threads_per_sm / warp_size = " + std::to_string(g.max_warps_per_sm) +
             " warps, a block holding at least one");
  within(kRegistersPerBlock, g.registers_per_block, g.registers_per_sm,
         "at most registers_per_sm " + std::to_string(g.registers_per_sm));
  within(kMaxRegistersPerThread, g.max_registers_per_thread,
         std::min(255, g.registers_per_block / g.warp_size),
         "CUDA's 255 registers per thread and a warp's " + std::to_string(g.warp_size) +
             " threads within registers_per_block " + std::to_string(g.registers_per_block));
}

GpuSpec spec_from_row(const Row& row) {
  GpuSpec g;
  g.name = row.text(kName);
  if (g.name.empty()) row.fail(kName, "is empty");
  for (char c : g.name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'))
      row.fail(kName, sim::quote_value(g.name) + " may hold only letters, digits, '.', '_' and '-'");
  if (lower(g.name) == "list") row.fail(kName, "'list' is reserved (--gpu list prints the presets)");
  g.description = row.text(kDescription);

  const std::string& cc = row.text(kCc);
  const std::size_t dot = cc.find('.');
  if (dot == std::string::npos || dot == 0 || dot + 2 != cc.size())
    row.fail(kCc, sim::quote_value(cc) + " is not a compute capability X.Y");
  g.cc_major = static_cast<int>(row.parse(kCc, cc.substr(0, dot), 99));
  g.cc_minor = static_cast<int>(row.parse(kCc, cc.substr(dot + 1), 9));

  g.sm_count = row.small(kSmCount);
  g.warp_size = row.small(kWarpSize);
  g.max_threads_per_block = row.small(kMaxThreadsPerBlock);
  g.max_threads_per_sm = row.small(kMaxThreadsPerSm);
  g.max_blocks_per_sm = row.small(kMaxBlocksPerSm);
  g.registers_per_sm = row.small(kRegistersPerSm);
  g.registers_per_block = row.small(kRegistersPerBlock);
  g.max_registers_per_thread = row.small(kMaxRegistersPerThread);
  g.register_allocation_unit = row.small(kRegisterAllocationUnit);
  g.warp_allocation_granularity = row.small(kWarpAllocationGranularity);
  const std::int64_t max_bytes = occupancy_limits::kMaxBytes;
  g.shared_memory_per_sm = row.integer(kSharedPerSm, max_bytes);
  g.shared_memory_per_block = row.integer(kSharedPerBlock, max_bytes);
  g.shared_memory_per_block_optin = row.integer(kSharedPerBlockOptin, max_bytes);
  g.shared_memory_allocation_unit = row.integer(kSharedAllocationUnit, max_bytes);
  g.reserved_shared_memory_per_block = row.integer(kReservedShared, max_bytes);
  g.barriers_per_sm = row.small(kBarriersPerSm);
  g.source = row.text(kSource);

  const std::string& list = row.text(kCarveouts);
  if (list.empty()) row.fail(kCarveouts, "is empty (KiB sizes separated by ';')");
  std::size_t start = 0;
  while (true) {
    const std::size_t end = list.find(';', start);
    const std::string item = list.substr(start, end == std::string::npos ? std::string::npos : end - start);
    g.shared_memory_carveouts.push_back(row.parse(kCarveouts, item, max_bytes / 1024) * 1024);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  if (g.warp_size > 0) g.max_warps_per_sm = g.max_threads_per_sm / g.warp_size;

  try {
    validate(g);
  } catch (const InvalidInput& e) {
    const std::string message = e.what();
    // validate() prefixes "GPU 'name': "; keep what follows.
    const std::size_t colon = message.find("': ");
    row.fail(column_named_in(message), colon == std::string::npos ? message : message.substr(colon + 3));
  }
  check_cuda_limits(row, g);
  return g;
}

// A rate column's decimal number (empty: unknown, 0).
double rate(const std::string& text, const std::string& where, const char* column) {
  if (text.empty()) return 0;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !(value >= 0) || value > 1e9)
    throw InvalidInput(Diag::file_content, where + ": column '" + column + "': " + sim::quote_value(text) +
                                               " is not a number from 0 to 1e9 (empty: unknown)");
  return value;
}

void read_rates(GpuSpec& gpu, const CsvRecord& record, const std::array<std::size_t, 3>& position,
                const std::string& file_name) {
  const std::string where = file_name + ":" + std::to_string(record.line);
  const auto field = [&](std::size_t i) -> std::string {
    return position[i] < record.fields.size() ? record.fields[position[i]] : std::string();
  };
  gpu.peak_fp32_gflops = rate(field(0), where, kGpuCsvRateColumns[0]);
  gpu.memory_bandwidth_gbs = rate(field(1), where, kGpuCsvRateColumns[1]);
  gpu.rates_source = field(2);
}

}  // namespace

std::string compute_capability_text(const GpuSpec& gpu) {
  return std::to_string(gpu.cc_major) + "." + std::to_string(gpu.cc_minor);
}

std::vector<GpuSpec> parse_gpu_csv(const std::string& file_name, const std::string& text) {
  CsvTokenizer csv(text, file_name);
  // Lines starting with '#' and empty lines are comments, before the header as after it.
  const auto skip_comments = [&] {
    while (!csv.at_end() && (csv.rest_of_line().empty() || csv.rest_of_line()[0] == '#')) csv.skip_line();
  };
  skip_comments();
  if (csv.at_end()) throw InvalidInput(Diag::file_format, file_name + ": no header line (the file is empty)");
  const std::string header_at = file_name + ":" + std::to_string(csv.line()) + ": header: ";
  const CsvRecord header = csv.next();
  refuse_duplicate_columns(header.fields, file_name, header.line);
  // Where each of our columns is in the file's rows (others are ignored).
  std::array<std::size_t, kGpuCsvColumnCount> position{};
  for (std::size_t i = 0; i < kGpuCsvColumnCount; ++i) {
    const std::size_t found =
        std::find(header.fields.begin(), header.fields.end(), kGpuCsvColumns[i]) - header.fields.begin();
    if (found == header.fields.size())
      throw InvalidInput(Diag::file_format,
                         header_at + "column '" + kGpuCsvColumns[i] + "' is missing (see README, Occupancy)");
    position[i] = found;
  }
  std::array<std::size_t, 3> rate_position{};  // header.fields.size() where a column is absent
  for (std::size_t i = 0; i < 3; ++i)
    rate_position[i] =
        std::find(header.fields.begin(), header.fields.end(), kGpuCsvRateColumns[i]) - header.fields.begin();

  std::vector<GpuSpec> gpus;
  std::map<std::string, std::size_t> first_line;  // lower-case name -> line
  while (true) {
    skip_comments();
    if (csv.at_end()) break;
    const CsvRecord record = csv.next();
    const std::string where = file_name + ":" + std::to_string(record.line);
    const std::string expected = " columns (" + std::to_string(record.fields.size()) +
                                 " where the header has " + std::to_string(header.fields.size()) + ")";
    if (record.fields.size() < header.fields.size())
      throw InvalidInput(Diag::file_format, where + ": too few" + expected);
    if (record.fields.size() > header.fields.size())
      throw InvalidInput(Diag::file_format, where + ": too many" + expected);
    std::array<std::string, kGpuCsvColumnCount> fields;
    for (std::size_t i = 0; i < kGpuCsvColumnCount; ++i) fields[i] = record.fields[position[i]];
    const Row row(file_name, record.line, fields);
    GpuSpec gpu = spec_from_row(row);
    read_rates(gpu, record, rate_position, file_name);
    const auto [it, fresh] = first_line.emplace(lower(gpu.name), record.line);
    if (!fresh)
      row.fail(kName, "duplicate name " + sim::quote_value(gpu.name) +
                          " (names are case-insensitive; first on line " + std::to_string(it->second) + ")");
    gpus.push_back(std::move(gpu));
  }
  if (gpus.empty()) throw InvalidInput(Diag::file_content, file_name + ": no GPU rows after the header");
  return gpus;
}

std::vector<GpuSpec> load_gpu_file(const std::string& path, const std::string& what) {
  return parse_gpu_csv(path, read_input_file(path, what, InputFormat::csv));
}

const GpuSpec& find_gpu(const std::vector<GpuSpec>& gpus, const std::string& name, const std::string& flag,
                        const std::string& file_name) {
  const std::string wanted = lower(name);
  for (const GpuSpec& g : gpus)
    if (lower(g.name) == wanted) return g;
  std::vector<std::string> names;
  for (const GpuSpec& g : gpus) names.push_back(g.name);
  // One short line however many presets the file holds: the first few names, a count of the
  // rest, and the closest name when it is a likely typo.
  const std::string guess = sim::closest_name(name, names);
  throw InvalidInput(Diag::flag_value,
                     flag + " must name a GPU of " + file_name + " (got " + sim::quote_value(name) +
                         (guess.empty() ? "" : "; did you mean '" + guess + "'?") +
                         "); known: " + sim::listed(names) + " (" + flag + " list prints them)");
}

void write_gpu_list(std::ostream& out, const std::vector<GpuSpec>& gpus, const std::string& file_name) {
  out << "GPU presets (" << file_name << "):\n";
  out << "  " << std::left << std::setw(14) << "name" << std::setw(6) << "cc" << std::right << std::setw(5)
      << "SMs" << std::setw(9) << "threads" << std::setw(8) << "blocks" << std::setw(9) << "regs"
      << std::setw(10) << "smem/SM" << std::setw(11) << "smem/block"
      << "  description\n";
  for (const GpuSpec& g : gpus) {
    out << "  " << std::left << std::setw(14) << g.name << std::setw(6) << compute_capability_text(g)
        << std::right << std::setw(5) << (g.sm_count ? std::to_string(g.sm_count) : "?") << std::setw(9)
        << g.max_threads_per_sm << std::setw(8) << g.max_blocks_per_sm << std::setw(9) << g.registers_per_sm
        << std::setw(10) << g.shared_memory_per_sm << std::setw(11) << g.shared_memory_per_block_optin << "  "
        << g.description << '\n';
  }
  out << "(threads, blocks, regs and smem/SM per SM; smem/block is the opt-in maximum; bytes)\n";
}

}  // namespace warpdiv::analysis

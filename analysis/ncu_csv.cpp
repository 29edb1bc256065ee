#include "analysis/ncu_csv.hpp"

#include <array>
#include <cstdlib>
#include <fstream>
#include <limits>  // libfccp's csv.h uses std::numeric_limits without including it
#include <sstream>
#include <tuple>

#include <libfccp/csv.h>  // with its reader thread, as in gpu_presets.cpp (one definition)

#include "sim/errors.hpp"

namespace warpdiv::analysis {

namespace {

namespace m = ncu_metric;

// Identity columns first, then the metrics; any may be missing.
constexpr std::array<const char*, 29> kColumns = {
    "ID", "Kernel Name", "Block Size", "Grid Size", "CC",
    m::kBlockSize, m::kGridSize, m::kRegistersPerThread, m::kStaticShared, m::kDynamicShared,
    m::kDriverShared, m::kSharedConfig, m::kLimitWarps, m::kLimitRegisters, m::kLimitSharedMem,
    m::kLimitBlocks, m::kTheoreticalOccupancy, m::kAchievedOccupancy, m::kBranchUniformPct,
    m::kDivergentBranchTargets, m::kBranchTargets, m::kSmCount, m::kRegistersPerSm,
    m::kRegistersPerBlock, m::kSharedPerSm, m::kThreadsPerSm, m::kBlocksPerSm, m::kCcMajor,
    m::kCcMinor};
constexpr std::size_t kIdentityColumns = 5;

using Reader = io::CSVReader<kColumns.size(), io::trim_chars<' ', '\t'>,
                             io::double_quote_escape<',', '"'>, io::throw_on_overflow,
                             io::no_comment>;

bool starts_with(const std::string& text, std::size_t at, const char* prefix) {
  return text.compare(at, std::char_traits<char>::length(prefix), prefix) == 0;
}

bool is_digits(const std::string& s, std::size_t begin, std::size_t end) {
  if (begin >= end) return false;
  for (std::size_t i = begin; i < end; ++i)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

}  // namespace

std::optional<double> NcuLaunch::metric(const std::string& name) const {
  const auto it = metrics.find(name);
  if (it == metrics.end()) return std::nullopt;
  return it->second;
}

double NcuLaunch::require(const std::string& name) const {
  const std::optional<double> value = metric(name);
  if (!value)
    throw InvalidInput("ncu launch " + std::to_string(id) + " (" + kernel_name +
                       ") has no value for " + name +
                       " (profile with the sections tools/ncu-crosscheck uses)");
  return *value;
}

std::optional<double> parse_ncu_number(const std::string& text) {
  std::string s = text;
  const std::size_t first = s.find_first_not_of(' ');
  if (first == std::string::npos) return std::nullopt;
  s = s.substr(first, s.find_last_not_of(' ') - first + 1);
  if (s.find(',') != std::string::npos) {
    // Thousands separators: 1 to 3 digits, then groups of exactly 3, then an optional fraction.
    const std::size_t sign = s[0] == '-' ? 1 : 0;
    const std::size_t dot = s.find('.');
    const std::size_t integer_end = dot == std::string::npos ? s.size() : dot;
    std::size_t group_start = sign;
    std::string digits = s.substr(0, sign);
    std::size_t comma = s.find(',', group_start);
    if (comma == std::string::npos || comma > integer_end) return std::nullopt;
    const std::size_t head = comma - group_start;
    if (head < 1 || head > 3 || !is_digits(s, group_start, comma)) return std::nullopt;
    digits += s.substr(group_start, head);
    group_start = comma + 1;
    while (true) {
      comma = s.find(',', group_start);
      const std::size_t group_end = comma == std::string::npos ? integer_end : comma;
      if (group_end > integer_end || group_end - group_start != 3 ||
          !is_digits(s, group_start, group_end))
        return std::nullopt;
      digits += s.substr(group_start, 3);
      if (group_end == integer_end) break;
      group_start = group_end + 1;
    }
    s = digits + s.substr(integer_end);
  }
  // strtod accepts what ncu prints (and "inf"/"nan", refused below).
  char* end = nullptr;
  const double value = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0') return std::nullopt;
  if (!(value == value) || value > std::numeric_limits<double>::max() ||
      value < -std::numeric_limits<double>::max())
    return std::nullopt;
  return value;
}

std::vector<std::int64_t> parse_ncu_dim3(const std::string& text) {
  const auto bad = [&] {
    return InvalidInput("'" + text + "' is not a dimension like (16, 16, 1)");
  };
  if (text.size() < 2 || text.front() != '(' || text.back() != ')') throw bad();
  std::vector<std::int64_t> dims;
  std::stringstream parts(text.substr(1, text.size() - 2));
  std::string part;
  while (std::getline(parts, part, ',')) {
    const std::optional<double> v = parse_ncu_number(part);
    if (!v || *v < 0 || *v != static_cast<double>(static_cast<std::int64_t>(*v))) throw bad();
    dims.push_back(static_cast<std::int64_t>(*v));
  }
  if (dims.empty() || dims.size() > 3) throw bad();
  return dims;
}

std::vector<NcuLaunch> parse_ncu_csv(const std::string& text, const std::string& source) {
  // The table starts at the header line ("ID",...) and runs while lines start with a quote.
  std::size_t begin = std::string::npos;
  for (std::size_t at = 0; at < text.size();) {
    if (starts_with(text, at, "\"ID\",")) {
      begin = at;
      break;
    }
    const std::size_t next = text.find('\n', at);
    if (next == std::string::npos) break;
    at = next + 1;
  }
  if (begin == std::string::npos)
    throw InvalidInput(source + ": no ncu CSV header (a line starting with \"ID\") found; profile "
                       "with ncu --csv --page raw");
  std::size_t end = begin;
  while (end < text.size() && text[end] == '"') {
    const std::size_t next = text.find('\n', end);
    end = next == std::string::npos ? text.size() : next + 1;
  }
  const std::string table = text.substr(begin, end - begin);

  std::vector<NcuLaunch> launches;
  try {
    Reader reader(source, table.data(), table.data() + table.size());
    std::apply([&](auto... names) {
      reader.read_header(io::ignore_extra_column | io::ignore_missing_column, names...);
    }, kColumns);
    if (!reader.has_column("ID") || !reader.has_column("Kernel Name"))
      throw InvalidInput(source + ": the ncu CSV header has no \"ID\" or \"Kernel Name\" column");
    std::array<std::string, kColumns.size()> fields;
    std::map<std::string, std::string> units;
    while (true) {
      for (std::string& f : fields) f.clear();  // missing columns leave their field untouched
      const bool more = std::apply([&](auto&... f) { return reader.read_row(f...); }, fields);
      if (!more) break;
      if (fields[0].empty()) {  // the units row
        for (std::size_t i = kIdentityColumns; i < kColumns.size(); ++i)
          if (!fields[i].empty()) units[kColumns[i]] = fields[i];
        continue;
      }
      NcuLaunch launch;
      const std::optional<double> id = parse_ncu_number(fields[0]);
      if (!id || *id < 0)
        throw InvalidInput(source + ":" + std::to_string(reader.get_file_line()) + ": ID '" +
                           fields[0] + "' is not a launch number");
      launch.id = static_cast<std::int64_t>(*id);
      launch.kernel_name = fields[1];
      launch.block_size = fields[2];
      launch.grid_size = fields[3];
      launch.compute_capability = fields[4];
      for (std::size_t i = kIdentityColumns; i < kColumns.size(); ++i) {
        if (const std::optional<double> v = parse_ncu_number(fields[i]))
          launch.metrics[kColumns[i]] = *v;
      }
      launch.units = units;
      launches.push_back(std::move(launch));
    }
  } catch (const io::error::base& e) {
    throw InvalidInput(source + ": not an ncu CSV table: " + e.what());
  }
  if (launches.empty()) throw InvalidInput(source + ": the ncu CSV lists no kernel launch");
  return launches;
}

std::vector<NcuLaunch> read_ncu_csv(const std::string& path, const std::string& flag) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InvalidInput(flag + ": cannot read '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_ncu_csv(text.str(), path);
}

}  // namespace warpdiv::analysis

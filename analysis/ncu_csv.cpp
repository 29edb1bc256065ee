#include "analysis/ncu_csv.hpp"

#include <array>
#include <cstdlib>
#include <limits>
#include <tuple>

#include "analysis/csv.hpp"
#include "analysis/input_file.hpp"
#include "sim/support/errors.hpp"
#include "sim/support/message_text.hpp"

namespace warpdiv::analysis {

namespace {

namespace m = ncu_metric;

/// What a metric column may hold.
enum class Kind {
  kSmallInteger,  // registers, bytes, blocks, threads, device attributes: 0 .. 2^31 - 1
  kCount,         // a sum over a launch (branch targets, blocks of a grid): 0 .. 2^53
  kPercent,       // 0 .. 100
};
constexpr std::int64_t kMaxSmall = std::numeric_limits<std::int32_t>::max();
constexpr std::int64_t kMaxCount = std::int64_t{1} << 53;  // exact in a double

struct MetricColumn {
  const char* name;
  Kind kind;
};

constexpr std::array<MetricColumn, 36> kMetricColumns = {{
    {m::kBlockSize, Kind::kSmallInteger},
    {m::kGridSize, Kind::kCount},
    {m::kRegistersPerThread, Kind::kSmallInteger},
    {m::kStaticShared, Kind::kSmallInteger},
    {m::kDynamicShared, Kind::kSmallInteger},
    {m::kDriverShared, Kind::kSmallInteger},
    {m::kSharedConfig, Kind::kSmallInteger},
    {m::kLimitWarps, Kind::kSmallInteger},
    {m::kLimitRegisters, Kind::kSmallInteger},
    {m::kLimitSharedMem, Kind::kSmallInteger},
    {m::kLimitBlocks, Kind::kSmallInteger},
    {m::kTheoreticalOccupancy, Kind::kPercent},
    {m::kAchievedOccupancy, Kind::kPercent},
    {m::kBranchUniformPct, Kind::kPercent},
    {m::kDivergentBranchTargets, Kind::kCount},
    {m::kBranchTargets, Kind::kCount},
    {m::kSmCount, Kind::kSmallInteger},
    {m::kRegistersPerSm, Kind::kSmallInteger},
    {m::kRegistersPerBlock, Kind::kSmallInteger},
    {m::kSharedPerSm, Kind::kSmallInteger},
    {m::kThreadsPerSm, Kind::kSmallInteger},
    {m::kBlocksPerSm, Kind::kSmallInteger},
    {m::kCcMajor, Kind::kSmallInteger},
    {m::kCcMinor, Kind::kSmallInteger},
    {m::kGlobalLoadRequests, Kind::kCount},
    {m::kGlobalLoadSectors, Kind::kCount},
    {m::kGlobalStoreRequests, Kind::kCount},
    {m::kGlobalStoreSectors, Kind::kCount},
    {m::kGlobalAtomRequests, Kind::kCount},
    {m::kGlobalRedRequests, Kind::kCount},
    {m::kSharedLoadInstructions, Kind::kCount},
    {m::kSharedStoreInstructions, Kind::kCount},
    {m::kSharedLoadWavefronts, Kind::kCount},
    {m::kSharedStoreWavefronts, Kind::kCount},
    {m::kSharedLoadConflicts, Kind::kCount},
    {m::kSharedStoreConflicts, Kind::kCount},
}};

std::string trimmed(const std::string& text) {
  const std::size_t first = text.find_first_not_of(' ');
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(' ') - first + 1);
}

bool is_digits(const std::string& s, std::size_t begin, std::size_t end) {
  if (begin >= end) return false;
  for (std::size_t i = begin; i < end; ++i)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

// "1,234,567.5" -> "1234567.5"; "1234" unchanged; nullopt where the commas are not thousands
// separators (1 to 3 digits, then groups of exactly 3, before any fraction).
std::optional<std::string> without_separators(const std::string& s) {
  if (s.find(',') == std::string::npos) return s;
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
    if (group_end > integer_end || group_end - group_start != 3 || !is_digits(s, group_start, group_end))
      return std::nullopt;
    digits += s.substr(group_start, 3);
    if (group_end == integer_end) break;
    group_start = group_end + 1;
  }
  return digits + s.substr(integer_end);
}

bool is_missing(const std::string& field) {
  const std::string t = trimmed(field);
  return t.empty() || t == "n/a";
}

// The position of each wanted column in the header, or npos.
std::size_t column_of(const std::vector<std::string>& header, const char* name) {
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return i;
  return std::string::npos;
}

}  // namespace

std::optional<double> NcuLaunch::metric(const std::string& name) const {
  const auto it = metrics.find(name);
  if (it == metrics.end()) return std::nullopt;
  return it->second;
}

std::string NcuLaunch::describe() const {
  return where + ": ncu launch " + std::to_string(id) + " (" + kernel_name + ")";
}

double NcuLaunch::require(const std::string& name) const {
  const std::optional<double> value = metric(name);
  if (!value)
    throw InvalidInput(Diag::file_content, describe() + " has no value for " + name +
                                               " (profile with the sections tools/ncu-crosscheck uses)");
  return *value;
}

std::optional<double> parse_ncu_number(const std::string& text) {
  const std::string t = trimmed(text);
  if (t.empty()) return std::nullopt;
  const std::optional<std::string> s = without_separators(t);
  if (!s) return std::nullopt;
  // strtod accepts what ncu prints (and "inf"/"nan"/hex, refused below).
  char* end = nullptr;
  const double value = std::strtod(s->c_str(), &end);
  if (end == s->c_str() || *end != '\0') return std::nullopt;
  if (s->find_first_of("xXnN") != std::string::npos) return std::nullopt;  // hex, inf, nan
  if (!(value == value) || value > std::numeric_limits<double>::max() ||
      value < -std::numeric_limits<double>::max())
    return std::nullopt;
  return value;
}

std::optional<std::int64_t> parse_ncu_integer(const std::string& text, std::int64_t max) {
  const std::optional<std::string> s = without_separators(trimmed(text));
  if (!s) return std::nullopt;
  return parse_decimal_integer(*s, 0, max);
}

std::vector<std::int64_t> parse_ncu_dim3(const std::string& text) {
  const auto bad = [&] {
    return InvalidInput(Diag::file_format, sim::quote_value(text) +
                                               " is not a dimension like (16, 16, 1) (one to three " +
                                               "integers from 1 to " + std::to_string(kMaxSmall) + ")");
  };
  if (text.size() < 2 || text.front() != '(' || text.back() != ')') throw bad();
  std::vector<std::int64_t> dims;
  const std::string inside = text.substr(1, text.size() - 2);
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = inside.find(',', start);
    const std::string part =
        trimmed(inside.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    // No thousands separators here: "(65,536, 1, 1)" would be ambiguous.
    const std::optional<std::int64_t> v = parse_decimal_integer(part, 1, kMaxSmall);
    if (!v) throw bad();
    dims.push_back(*v);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (dims.size() > 3) throw bad();
  return dims;
}

std::vector<NcuLaunch> parse_ncu_csv(const std::string& text, const std::string& source) {
  CsvTokenizer csv(text, source);
  // The table starts at the header line ("ID",...) and runs while lines start with a quote.
  while (!csv.at_end() && csv.rest_of_line().substr(0, 5) != "\"ID\",") csv.skip_line();
  if (csv.at_end())
    throw InvalidInput(Diag::file_format,
                       source +
                           ": no ncu CSV header (a line starting with \"ID\") found; profile "
                           "with ncu --csv --page raw");
  const std::size_t header_line = csv.line();
  const std::vector<std::string> header = csv.next().fields;
  refuse_duplicate_columns(header, source, header_line);
  const std::size_t id_column = column_of(header, "ID");
  const std::size_t name_column = column_of(header, "Kernel Name");
  if (id_column == std::string::npos || name_column == std::string::npos)
    throw InvalidInput(Diag::file_format, source + ":" + std::to_string(header_line) +
                                              ": the ncu CSV header has no \"ID\" or \"Kernel Name\" column");
  const std::size_t block_column = column_of(header, "Block Size");
  const std::size_t grid_column = column_of(header, "Grid Size");
  const std::size_t cc_column = column_of(header, "CC");
  std::array<std::size_t, kMetricColumns.size()> metric_column{};
  for (std::size_t i = 0; i < kMetricColumns.size(); ++i)
    metric_column[i] = column_of(header, kMetricColumns[i].name);

  std::vector<NcuLaunch> launches;
  std::map<std::string, std::string> units;
  while (!csv.at_end() && csv.rest_of_line().substr(0, 1) == "\"") {
    const CsvRecord record = csv.next();
    const std::string where = source + ":" + std::to_string(record.line);
    if (record.fields.size() != header.size())
      throw InvalidInput(Diag::file_format, where + ": " + std::to_string(record.fields.size()) +
                                                " fields where the header (line " +
                                                std::to_string(header_line) + ") has " +
                                                std::to_string(header.size()));
    const auto field = [&](std::size_t column) -> const std::string& {
      static const std::string kNone;
      return column == std::string::npos ? kNone : record.fields[column];
    };
    const auto fail = [&](std::size_t column, const std::string& what) {
      return InvalidInput(Diag::file_format, where + ": column " + sim::quote_value(header[column]) + ": " +
                                                 sim::quote_value(record.fields[column]) + " " + what);
    };
    if (field(id_column).empty()) {  // the units row
      for (std::size_t i = 0; i < kMetricColumns.size(); ++i)
        if (!field(metric_column[i]).empty()) units[kMetricColumns[i].name] = field(metric_column[i]);
      continue;
    }
    NcuLaunch launch;
    launch.where = where;
    const std::optional<std::int64_t> id = parse_ncu_integer(field(id_column), kMaxCount);
    if (!id)
      throw fail(id_column,
                 "is not a launch number (an integer from 0 to " + std::to_string(kMaxCount) + ")");
    launch.id = *id;
    launch.kernel_name = field(name_column);
    launch.block_size = field(block_column);
    launch.grid_size = field(grid_column);
    launch.compute_capability = field(cc_column);
    for (const auto& [column, dim_text, dims] : {std::tuple{block_column, &launch.block_size, &launch.block},
                                                 std::tuple{grid_column, &launch.grid_size, &launch.grid}}) {
      if (dim_text->empty()) continue;
      try {
        *dims = parse_ncu_dim3(*dim_text);
      } catch (const InvalidInput& e) {
        throw InvalidInput(e.diag(),
                           where + ": column " + sim::quote_value(header[column]) + ": " + e.what());
      }
    }
    for (std::size_t i = 0; i < kMetricColumns.size(); ++i) {
      const std::size_t column = metric_column[i];
      if (column == std::string::npos || is_missing(record.fields[column])) continue;
      const Kind kind = kMetricColumns[i].kind;
      double value = 0;
      if (kind == Kind::kPercent) {
        const std::optional<double> v = parse_ncu_number(record.fields[column]);
        if (!v || *v < 0 || *v > 100) throw fail(column, "is not a percentage from 0 to 100");
        value = *v;
      } else {
        const std::int64_t max = kind == Kind::kCount ? kMaxCount : kMaxSmall;
        const std::optional<std::int64_t> v = parse_ncu_integer(record.fields[column], max);
        if (!v) throw fail(column, "is not an integer from 0 to " + std::to_string(max));
        value = static_cast<double>(*v);
      }
      launch.metrics[kMetricColumns[i].name] = value;
    }
    launch.units = units;
    launches.push_back(std::move(launch));
  }
  if (launches.empty())
    throw InvalidInput(Diag::file_content,
                       source + ":" + std::to_string(header_line) + ": the ncu CSV lists no kernel launch");
  return launches;
}

std::vector<NcuLaunch> read_ncu_csv(const std::string& path, const std::string& flag) {
  return parse_ncu_csv(read_input_file(path, flag, InputFormat::csv), path);
}

std::map<std::uint32_t, std::uint64_t> parse_ncu_source_sectors(const std::string& text,
                                                                const std::string& source,
                                                                const std::string& file) {
  CsvTokenizer csv(text, source);
  std::map<std::uint32_t, std::uint64_t> sectors;
  bool header_seen = false, wanted = true;
  std::size_t line_column = std::string::npos, sector_column = std::string::npos;
  std::size_t width = 0;
  while (!csv.at_end()) {
    if (csv.rest_of_line().substr(0, 1) != "\"") {  // "==PROF==" lines, the program's output
      csv.skip_line();
      continue;
    }
    const CsvRecord record = csv.next();
    const std::vector<std::string>& f = record.fields;
    const std::string where = source + ":" + std::to_string(record.line);
    if (f.size() == 2 && f[0] == "File Path") {
      wanted = file.empty() || (f[1].size() >= file.size() &&
                                f[1].compare(f[1].size() - file.size(), file.size(), file) == 0);
      continue;
    }
    if (!f.empty() && f[0] == "Line No") {
      header_seen = true;
      width = f.size();
      line_column = 0;
      sector_column = column_of(f, "L2 Theoretical Sectors Global");
      if (sector_column == std::string::npos)
        throw InvalidInput(
            Diag::file_format,
            where +
                ": the source page has no \"L2 Theoretical Sectors Global\" column "
                "(profile with --section SourceCounters --page source --print-source cuda,sass)");
      continue;
    }
    if (!header_seen || f.size() != width || f[line_column].empty() || !wanted) continue;
    const std::optional<std::int64_t> line = parse_ncu_integer(f[line_column], kMaxSmall);
    const std::optional<std::int64_t> count = parse_ncu_integer(f[sector_column], kMaxCount);
    if (!line || *line <= 0)
      throw InvalidInput(Diag::file_format, where + ": \"Line No\" " + sim::quote_value(f[line_column]) +
                                                " is not a line number (a positive integer)");
    if (!count)
      throw InvalidInput(Diag::file_format,
                         where + ": \"L2 Theoretical Sectors Global\" " + sim::quote_value(f[sector_column]) +
                             " is not a count (an integer from 0 to " + std::to_string(kMaxCount) + ")");
    sectors[static_cast<std::uint32_t>(*line)] += static_cast<std::uint64_t>(*count);
  }
  if (!header_seen)
    throw InvalidInput(Diag::file_format,
                       source +
                           ": no ncu source page (a line starting with \"Line No\") found; profile with "
                           "ncu --section SourceCounters --csv --page source --print-source cuda,sass");
  return sectors;
}

}  // namespace warpdiv::analysis

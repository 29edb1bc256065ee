// data/gpus.csv and malformed GPU files: every error names the file, the line and the column.
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>

#include "analysis/gpu_presets.hpp"
#include "sim/support/errors.hpp"

namespace warpdiv::analysis {
namespace {

const char* kHeader =
    "name,description,cc,sm_count,warp_size,max_threads_per_block,max_threads_per_sm,"
    "max_blocks_per_sm,registers_per_sm,registers_per_block,max_registers_per_thread,"
    "register_allocation_unit,warp_allocation_granularity,shared_memory_per_sm,"
    "shared_memory_per_block,shared_memory_per_block_optin,shared_memory_allocation_unit,"
    "reserved_shared_memory_per_block,shared_memory_carveouts_kb,barriers_per_sm,source\n";
// A valid H100 row (figures of the CUDA C Programming Guide, cc 9.0).
const char* kH100 =
    "h100,NVIDIA H100,9.0,132,32,1024,2048,32,65536,65536,255,256,4,233472,49152,232448,128,1024,"
    "0;8;16;32;64;100;132;164;196;228,64,guide\n";

std::string error_of(const std::string& text) {
  try {
    parse_gpu_csv("my.csv", text);
  } catch (const InvalidInput& e) {
    return e.what();
  }
  return "(no error)";
}

// A copy of the H100 row with one column's value replaced.
std::string with(const std::string& column, const std::string& value) {
  std::vector<std::string> fields;
  std::string row = kH100;
  row.pop_back();
  std::size_t start = 0;
  while (true) {
    const std::size_t end = row.find(',', start);
    fields.push_back(row.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  for (std::size_t i = 0; i < kGpuCsvColumnCount; ++i)
    if (column == kGpuCsvColumns[i]) fields[i] = value;
  std::string out;
  for (std::size_t i = 0; i < fields.size(); ++i) out += (i ? "," : "") + fields[i];
  return std::string(kHeader) + out + "\n";
}

TEST(GpuPresets, TheShippedFileHasEveryRequiredPreset) {
  const std::vector<GpuSpec> gpus = load_gpu_file(WARPDIV_SOURCE_DIR "/data/gpus.csv");
  std::set<std::string> names;
  for (const GpuSpec& g : gpus) names.insert(g.name);
  for (const char* name : {"lecture-16k", "fermi", "kepler", "maxwell", "pascal", "volta", "turing", "a100",
                           "rtx3090", "rtx4090", "h100", "h200", "b200", "rtx5090"})
    EXPECT_EQ(names.count(name), 1u) << name;
  // The lecture's SM as the lecture states it.
  const GpuSpec& lecture = find_gpu(gpus, "LECTURE-16K", "--gpu", "gpus.csv");
  EXPECT_EQ(lecture.shared_memory_per_sm, 16 * 1024);
  EXPECT_EQ(lecture.max_threads_per_sm, 1536);
  EXPECT_EQ(lecture.max_blocks_per_sm, 8);
  // H100 as the Programming Guide gives it (cc 9.0: 228 KB per SM, 227 KB per block).
  const GpuSpec& h100 = find_gpu(gpus, "H100", "--gpu", "gpus.csv");
  EXPECT_EQ(h100.cc_major, 9);
  EXPECT_EQ(h100.cc_minor, 0);
  EXPECT_EQ(h100.shared_memory_per_sm, 228 * 1024);
  EXPECT_EQ(h100.shared_memory_per_block_optin, 227 * 1024);
  EXPECT_EQ(h100.max_warps_per_sm, 64);
}

TEST(GpuPresets, ReadsAValidRowWithCommentsAndQuotes) {
  const std::string in(std::string("# comment\n\n") + kHeader +
                       "x,\"A, quoted\",8.6,0,32,1024,1536,16,65536,65536,255,256,4,102400,49152,"
                       "101376,128,1024,0;8;16;32;64;100,0,\"guide, cc 8.6\"\n");
  const std::vector<GpuSpec> gpus = parse_gpu_csv("x.csv", in);
  ASSERT_EQ(gpus.size(), 1u);
  EXPECT_EQ(gpus[0].description, "A, quoted");
  EXPECT_EQ(gpus[0].shared_memory_carveouts.size(), 6u);
  EXPECT_EQ(gpus[0].shared_memory_carveouts.back(), 102400);
}

TEST(GpuPresets, UnknownNameListsTheKnownOnes) {
  const std::string in(std::string(kHeader) + kH100);
  const std::vector<GpuSpec> gpus = parse_gpu_csv("x.csv", in);
  try {
    find_gpu(gpus, "h300", "--gpu", "x.csv");
    ADD_FAILURE();
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find("--gpu"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("h100"), std::string::npos);
  }
}

struct Malformed {
  std::string text;
  std::string expected;  // the message must contain this
};

void PrintTo(const Malformed& m, std::ostream* os) { *os << m.expected; }

class MalformedGpuFile : public ::testing::TestWithParam<Malformed> {};

TEST_P(MalformedGpuFile, NamesFileLineAndColumn) {
  const std::string message = error_of(GetParam().text);
  EXPECT_NE(message.find(GetParam().expected), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

std::string without_column(const std::string& column) {
  std::string header = kHeader;
  const std::size_t at = header.find(column + ",");
  header.erase(at, column.size() + 1);
  std::string row = kH100;
  return header + row.substr(row.find(',') + 1);  // one field fewer (the name goes; never mind)
}

INSTANTIATE_TEST_SUITE_P(
    Files, MalformedGpuFile,
    ::testing::Values(
        Malformed{without_column("registers_per_sm"),
                  "my.csv:1: header: column 'registers_per_sm' is missing"},
        // A column named twice (here "source", the 21st, renamed to the 4th, "sm_count").
        Malformed{
            std::string(kHeader).replace(std::string(kHeader).find(",source\n"), 8, ",sm_count\n") + kH100,
            "my.csv:1: header: column 'sm_count' appears twice (columns 4 and 21;"},
        Malformed{with("registers_per_sm", "lots"),
                  "my.csv:2: column 'registers_per_sm': 'lots' is not a non-negative integer"},
        Malformed{with("sm_count", "-1"), "my.csv:2: column 'sm_count': '-1' is negative"},
        Malformed{with("shared_memory_per_sm", "1.5e5"), "my.csv:2: column 'shared_memory_per_sm'"},
        Malformed{with("warp_size", ""), "my.csv:2: column 'warp_size': is empty"},
        Malformed{with("warp_size", "0"), "my.csv:2: column 'warp_size': warp_size must be positive"},
        Malformed{with("cc", "nine"), "my.csv:2: column 'cc'"},
        Malformed{with("cc", "9.10"), "my.csv:2: column 'cc'"},
        Malformed{with("name", "h 100"), "my.csv:2: column 'name'"},
        Malformed{with("name", "list"), "my.csv:2: column 'name': 'list' is reserved"},
        Malformed{with("max_threads_per_sm", "2000"), "my.csv:2: column 'max_threads_per_sm'"},
        // CUDA's limits and the figures that bound one another (H100: 2048 threads and 32 blocks
        // per SM, 64 warps; 65536 registers per SM and per block).
        Malformed{with("max_threads_per_block", "2048"),
                  "my.csv:2: column 'max_threads_per_block': 2048 is out of range for GPU 'h100' (allowed: 1 "
                  "to 1024, "
                  "CUDA's 1024 threads per block and at most max_threads_per_sm 2048)"},
        Malformed{with("max_registers_per_thread", "256"),
                  "my.csv:2: column 'max_registers_per_thread': 256 is out of range for GPU 'h100' (allowed: "
                  "1 to 255,"},
        Malformed{with("registers_per_block", "65537"),
                  "my.csv:2: column 'registers_per_block': 65537 is out of range for GPU 'h100' (allowed: 1 "
                  "to 65536,"},
        Malformed{
            with("max_blocks_per_sm", "65"),
            "my.csv:2: column 'max_blocks_per_sm': 65 is out of range for GPU 'h100' (allowed: 1 to 64,"},
        Malformed{with("warp_size", "64"),
                  "my.csv:2: column 'warp_size': 64 is out of range for GPU 'h100' (allowed: 32,"},
        Malformed{with("shared_memory_carveouts_kb", "0;8;16"),
                  "my.csv:2: column 'shared_memory_carveouts_kb'"},
        Malformed{with("shared_memory_carveouts_kb", "0;8;x;228"),
                  "my.csv:2: column 'shared_memory_carveouts_kb': 'x'"},
        Malformed{with("shared_memory_per_block_optin", "1024"),
                  "my.csv:2: column 'shared_memory_per_block_optin'"},
        Malformed{with("registers_per_sm", "99999999999999999999"),
                  "my.csv:2: column 'registers_per_sm': '99999999999999999999' is larger than"},
        Malformed{
            std::string(kHeader) + kH100 +
                "H100,dup,9.0,132,32,1024,2048,32,65536,65536,255,256,4,"
                "233472,49152,232448,128,1024,0;8;16;32;64;100;132;164;196;228,64,x\n",
            "my.csv:3: column 'name': duplicate name 'H100' (names are case-insensitive; first on line 2)"},
        Malformed{std::string(kHeader) + "h100,too,few\n", "my.csv:2: too few columns"},
        Malformed{std::string(kHeader) + "# only a comment\n", "my.csv: no GPU rows"},
        Malformed{"", "my.csv: no header line"},
        Malformed{std::string(kHeader) + "h100,\"unclosed,9.0\n", "my.csv:2: a quoted field is not closed"}));

TEST(GpuPresets, StrictIntegersNameTheRange) {
  for (const char* bad : {"1e300", "1.5", "31.9"})
    EXPECT_NE(error_of(with("max_registers_per_thread", bad))
                  .find("my.csv:2: column 'max_registers_per_thread': '" + std::string(bad) +
                        "' is not a non-negative integer (0 to 2147483647)"),
              std::string::npos)
        << bad;
}

TEST(GpuPresets, Rfc4180QuotedLineBreaksBomAndPhysicalLines) {
  // A BOM, a comment, the header on line 2, a row on line 3 whose quoted description spans
  // lines 3-5 and holds a comma and a doubled quote; the duplicate on line 6 is named as such.
  const std::string text = std::string("\xEF\xBB\xBF# presets\n") + kHeader +
                           "h100,\"NVIDIA H100,\nthe \"\"SXM5\"\"\nboard\",9.0,132,32,1024,2048,32,"
                           "65536,65536,255,256,4,233472,49152,232448,128,1024,"
                           "0;8;16;32;64;100;132;164;196;228,64,guide\n";
  const std::vector<GpuSpec> gpus = parse_gpu_csv("my.csv", text);
  ASSERT_EQ(gpus.size(), 1u);
  EXPECT_EQ(gpus[0].description, "NVIDIA H100,\nthe \"SXM5\"\nboard");
  EXPECT_EQ(error_of(text + kH100),
            "my.csv:6: column 'name': duplicate name 'h100' (names are case-insensitive; first on "
            "line 3)");
}

TEST(GpuPresets, BinaryGarbageNamesARealLine) {
  EXPECT_EQ(error_of(std::string(kHeader) + "h100,\x01\x02\n"),
            "my.csv:2: holds the control byte 0x01: binary data, not CSV text");
}

TEST(GpuPresets, UnknownNameAmongManyIsOneShortLine) {
  // 100,000 presets h0 .. h99999 (the H100 row renamed).
  std::string text = kHeader;
  const std::string rest = std::string(kH100).substr(std::string(kH100).find(','));
  for (int i = 0; i < 100000; ++i) text += "h" + std::to_string(i) + rest;
  const std::vector<GpuSpec> gpus = parse_gpu_csv("many.csv", text);
  try {
    find_gpu(gpus, "x12345", "--gpu", "many.csv");
    ADD_FAILURE();
  } catch (const InvalidInput& e) {
    const std::string message = e.what();
    EXPECT_EQ(message,
              "--gpu must name a GPU of many.csv (got 'x12345'; did you mean 'h12345'?); known: h0, "
              "h1, h2, h3, h4, h5, h6, h7, h8, h9, \xe2\x80\xa6 and 99990 more (--gpu list prints them)");
  }
}

TEST(GpuPresets, UnreadableFile) {
  try {
    load_gpu_file("/nonexistent/gpus.csv");
    ADD_FAILURE();
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/gpus.csv"), std::string::npos);
  }
}

}  // namespace
}  // namespace warpdiv::analysis

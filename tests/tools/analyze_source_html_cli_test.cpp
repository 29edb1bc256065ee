// `warpdiv analyze FILE.cu` through the real binary: the engines (exact, by class), the block
// classes and the HTML page.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/csv.hpp"
#include "tests/tools/analyze_source_support.hpp"
#include "tests/tools/cli_runner.hpp"

namespace warpdiv::testing {
namespace {

// ---------------------------------------------------------------------------------------------
// Engines, block classes, the HTML page.

TEST_F(AnalyzeSourceFile, EngineExactRefusesWhatItCannotProveAndAutoFallsBack) {
  const std::string file = source("mod.cu",
                                  "__global__ void k(float* a) {\n"
                                  "  if (blockIdx.x % 3 == 0) a[threadIdx.x] = 0;\n"
                                  "}\n");
  const std::vector<std::string> launch = {"--grid", "7", "--block", "64"};
  CliResult r = run_warpdiv(with({"analyze", file, "--engine", "exact"}, launch));
  expect_refusal(r, {{}, "the class engine cannot prove the block classes"});
  EXPECT_TRUE(r.out.empty());
  r = run_warpdiv(with({"analyze", file}, launch));  // auto: the replay, said in one line
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(count_lines(r.err), 1u) << r.err;
  EXPECT_TRUE(contains(r.err, "warpdiv: note: ")) << r.err;
  EXPECT_TRUE(contains(r.err, "counting every block with the replay instead [warpdiv-engine-fallback]\n"))
      << r.err;
  // 7 blocks x 2 warps test the condition; each block takes it or not as a whole.
  EXPECT_TRUE(contains(r.out, "    2           14           0   100.0%    if (blockIdx.x % 3 == 0)"))
      << r.out;
  r = run_warpdiv(with({"analyze", file, "--engine", "replay"}, launch));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;  // asked for: nothing to say
}

TEST_F(AnalyzeSourceFile, ByClassCsvGivesTheLecturesTypeOneAndTypeTwo) {
  TempDir dir;
  const std::string csv = dir.file("c.csv");
  const CliResult r = run_warpdiv({"analyze", kZoo + "tiled_matmul.cu", "--grid", "7,7", "--block", "16,16",
                                   "--arg", "Width=100", "--by-class", "--csv", csv});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "Block classes (found by the class engine")) << r.out;
  std::istringstream in(read_file(csv));
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line,
            "file,line,column,kind,iteration,warp_evaluations,divergent,active_lanes,taken_lanes,"
            "block_executions,partial_block_executions,global_requests,global_sectors,global_bytes,"
            "global_load_requests,global_store_requests,global_atomic_requests,shared_requests,shared_"
            "wavefronts,shared_bank_conflicts,flops,accesses_not_counted,simd_efficiency,"
            "statement,inlined_at,complete,class,"
            "class_blocks,class_definition,representative,loop_line,first_iteration,iterations,"
            "iteration_class");
  // The lecture: load_M (line 27) diverges in 336 of the 2,352 warp-phases of the 42 blocks whose
  // rows are all in range (Type 1) and in 14 of the 392 of the bottom block-row's 7 (Type 2).
  long long type1_evals = 0, type1_divergent = 0, type2_evals = 0, type2_divergent = 0;
  long long type1_blocks = 0, type2_blocks = 0;
  long long last_phase_divergent = 0, other_phases_divergent = 0;
  std::set<std::string> classes;
  const std::vector<std::string> header = csv_fields(line);
  const auto column = [&](const std::string& name) {
    return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
  };
  const std::size_t divergent = column("divergent"), evaluations = column("warp_evaluations");
  const std::size_t loop_line = column("loop_line"), iteration_class = column("iteration_class");
  const std::size_t representative = column("representative"), block_class = column("class");
  const std::size_t class_blocks = column("class_blocks");
  while (std::getline(in, line)) {
    const std::vector<std::string> f = csv_fields(line);
    ASSERT_EQ(f.size(), header.size()) << line;
    if (f[1] != "27" || f[3] != "if") continue;
    if (!f[loop_line].empty()) {  // an iteration-class row (the phase loop's classes)
      (f[iteration_class] == "p = 6 (last)" ? last_phase_divergent : other_phases_divergent) +=
          std::stoll(f[divergent]);
      continue;
    }
    const bool bottom = f[representative].find(", 6, ") != std::string::npos;  // (x, 6, 0)
    classes.insert(f[block_class]);
    (bottom ? type2_evals : type1_evals) += std::stoll(f[evaluations]);
    (bottom ? type2_divergent : type1_divergent) += std::stoll(f[divergent]);
    (bottom ? type2_blocks : type1_blocks) += std::stoll(f[class_blocks]);
  }
  EXPECT_GE(classes.size(), 2u);
  EXPECT_EQ(type1_blocks, 42);
  EXPECT_EQ(type1_evals, 2352);
  EXPECT_EQ(type1_divergent, 336);
  EXPECT_EQ(type2_blocks, 7);
  EXPECT_EQ(type2_evals, 392);
  EXPECT_EQ(type2_divergent, 14);
  // Every one of those 350 divergent warp-phases is in the last phase, p = 6 (Width = 100 = 6 x
  // 16 + 4: only there do the tile's columns pass the matrix's edge).
  EXPECT_EQ(last_phase_divergent, 350);
  EXPECT_EQ(other_phases_divergent, 0);
}

TEST_F(AnalyzeSourceFile, HtmlPageShadesTheSourceAndMapsTheWarps) {
  TempDir dir;
  const std::string html = dir.file("blur.html");
  // The replay: maps of the first and the last block.
  const CliResult r = run_warpdiv({"analyze", kZoo + "image_blur.cu", "--grid", "3,2", "--block", "16,16",
                                   "--arg", "w=40", "--arg", "h=20", "--engine", "replay", "--html", html});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "HTML written to " + html)) << r.out;
  const std::string page = read_file(html);
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_FALSE(contains(page, "<script"));
  EXPECT_FALSE(contains(page, "http://"));
  EXPECT_FALSE(contains(page, "https://"));
  // `if (Col < w && Row < h)` (line 15) in a 40 x 20 image, blocks of 16 x 16 (warps of two
  // rows): the 8 warps of block (2, 0) straddle column 40 and 2 of block (2, 1) reach rows
  // 16..19: 10 of 48 warps diverge, 20.8%, so the line is shaded.
  EXPECT_TRUE(contains(page, "<td>15</td><td>48</td><td>10 (20.8%)</td>")) << page;
  EXPECT_TRUE(contains(page, "rgba(213,94,0,0.12)"));  // 0.6 x 10/48
  // Every branch gets a map per block shown: 4 branches (if, two fors, if) x 2 blocks.
  EXPECT_TRUE(contains(page, "id=\"map-8\""));
  EXPECT_FALSE(contains(page, "id=\"map-9\""));
  EXPECT_LT(page.size(), 200'000u);
}

TEST_F(AnalyzeSourceFile, HtmlPageDrawsTheBlockClasses) {
  TempDir dir;
  const std::string html = dir.file("blur.html");
  const CliResult r = run_warpdiv({"analyze", kZoo + "image_blur.cu", "--grid", "3,2", "--block", "16,16",
                                   "--arg", "w=40", "--arg", "h=20", "--html", html});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string page = read_file(html);
  // The blur window reaches one pixel past each side, so the first, middle and last block of
  // each row and column differ: 3 x 2 classes of one block. Each class has 6 maps: the guard
  // (line 15, outside loops) one; the window loops run as iteration classes, so a branch gets a
  // map per window loop it is inside: the blurRow loop (line 20) one, the blurCol loop (line 21,
  // inside blurRow) two, the pixel check (line 26, inside both) two.
  EXPECT_TRUE(contains(page, "<svg id=\"class-grid\""));
  EXPECT_TRUE(contains(page, ">class 6</td>"));
  EXPECT_FALSE(contains(page, ">class 7</td>"));
  EXPECT_TRUE(contains(page, "id=\"map-36\""));
  EXPECT_FALSE(contains(page, "id=\"map-37\""));
  EXPECT_TRUE(contains(page, "line 26: if, per iteration class of blurRow (line 20)")) << page;
  EXPECT_TRUE(contains(page, "line 26: if, per iteration class of blurCol (line 21)")) << page;
}

TEST_F(AnalyzeSourceFile, HtmlPageDrawsAPanelPerSegmentOfBlockIdxZ) {
  // early_return_3d.cu, a 20 x 12 x 26 volume in blocks of 8 x 8 x 4 on a grid (3, 2, 8): z =
  // 4 bz + tz < 26 holds for every slice of bz <= 5, half of bz = 6 (24, 25) and none of bz = 7;
  // x < 20 cuts bx at 2, y < 12 cuts by at 1. So 2 x 2 x 3 classes, ordered by z: 1-4 in
  // panel "blockIdx.z < 6", 5-8 in "blockIdx.z = 6", 9-12 in "blockIdx.z = 7 (last)".
  TempDir dir;
  const std::string html = dir.file("volume.html");
  const CliResult r =
      run_warpdiv({"analyze", kZoo + "early_return_3d.cu", "--grid", "3,2,8", "--block", "8,8,4", "--arg",
                   "nx=20", "--arg", "ny=12", "--arg", "nz=26", "--html", html});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string page = read_file(html);
  EXPECT_TRUE(contains(page, ">class 12</td>"));
  EXPECT_FALSE(contains(page, ">class 13</td>"));
  EXPECT_TRUE(contains(page, ">blockIdx.z &lt; 6</figcaption><svg id=\"class-grid-z1\""));
  EXPECT_TRUE(contains(page, ">blockIdx.z = 6</figcaption><svg id=\"class-grid-z2\""));
  EXPECT_TRUE(contains(page, ">blockIdx.z = 7 (last)</figcaption><svg id=\"class-grid-z3\""));
  EXPECT_FALSE(contains(page, "class-grid-z4"));
  for (int panel = 1; panel <= 3; ++panel) {
    const std::string svg = element(page, "svg", "class-grid-z" + std::to_string(panel));
    for (int k = 1; k <= 12; ++k)
      EXPECT_EQ(contains(svg, "<title>class " + std::to_string(k) + ":"), (k + 3) / 4 == panel)
          << "class " << k << ", panel " << panel;
  }
}

TEST_F(AnalyzeSourceFile, HtmlPageStaysSmallAtAnySize) {
  // 2^26 x 65535 blocks of 1024 threads: the page draws classes and a few maps, never the grid.
  TempDir dir;
  const std::string html = dir.file("big.html");
  const CliResult r = run_warpdiv({"analyze", kZoo + "naive_matmul.cu", "--grid", "67108864,65535", "--block",
                                   "32,32", "--arg", "Width=2147483000", "--html", html});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_LT(read_file(html).size(), 300'000u);
  EXPECT_TRUE(contains(read_file(html), "id=\"class-grid\""));
}

// The page of `warpdiv analyze ARGS --html FILE` ("" and a failure when it exits with an error).
std::string analyze_html(const std::vector<std::string>& args) {
  TempDir dir;
  const std::string html = dir.file("page.html");
  const CliResult r = run_warpdiv(with(with({"analyze"}, args), {"--html", html}));
  if (r.status != 0) {
    ADD_FAILURE() << "exit " << r.status << ": " << r.err;
    return "";
  }
  return read_file(html);
}

// The naive multiply at Width = 17 on a grid (2, 1) of 16 x 16 blocks: block (0, 0) has its 256
// threads inside, block (1, 0) only column 16 (16 threads, 2 in each warp of two rows). By hand:
// line 18 loads M[Row*Width+k] (a warp's two rows are 68 bytes apart: 2 sectors a request) and
// N[k*Width+Col] (384 + 136 sectors, tests/kernels/zoo_memory_test.cpp): 8 warps x 17 k x 2
// blocks = 272 requests each, 544 + 520 = 1,064 sectors, (256 + 16) x 17 lanes x 4 bytes =
// 18,496 bytes each, so 36,992 asked of 34,048 in sectors: 108.6% (half-warps share words), no
// shade; all 544 loads; 2 flops per lane and k: 272 x 17 x 2 = 9,248. Line 20 stores P[Row*Width+Col]: in
// block (0, 0) warp w writes rows 2w, 2w+1, 132 bytes from 136w (8w mod 32 in {0, 8, 16, 24}, so the last
// byte is at most 155 past a sector start): 5 sectors; in block (1, 0) 2 words 68 bytes apart: 2 sectors. 16
// store requests, 8 x 5 + 8 x 2 = 56 sectors, 272 x 4 = 1,088 bytes: 60.7%, the first step of the global
// shade.
TEST_F(AnalyzeSourceFile, HtmlPageShowsAndShadesTheMemoryPerLine) {
  const std::string page = analyze_html({kNaive, "--grid", "2,1", "--block", "16,16", "--arg", "Width=17"});
  EXPECT_EQ(source_memory_cells(page, "      Pvalue += M[Row*Width+k]*N[k*Width+Col];"),
            "<td>108.6%</td><td>-</td><td>544</td><td>1,064</td><td>36,992</td><td>544</td><td>0</td>"
            "<td>0</td><td>-</td><td>-</td><td>9,248</td>")
      << page;
  EXPECT_EQ(source_memory_cells(page, "    P[Row*Width+Col] = Pvalue;"),
            "<td class=\"mg1\">60.7%</td><td>-</td><td>16</td><td>56</td><td>1,088</td><td>0</td>"
            "<td>16</td><td>0</td><td>-</td><td>-</td><td>0</td>")
      << page;
  // The guard and the loop make no access: no figures, no shade.
  EXPECT_EQ(source_memory_cells(page, "  if ((Row &lt; Width) &amp;&amp; (Col &lt; Width)) {"),
            kNoMemoryCells);
  EXPECT_EQ(source_memory_cells(page, "    for (int k = 0; k &lt; Width; ++k) {"), kNoMemoryCells);
  EXPECT_EQ(count_occurrences(page, "<td class=\"mg"), 1u);
  EXPECT_EQ(count_occurrences(page, "<td class=\"ms"), 0u);
  EXPECT_FALSE(contains(page, "not counted"));
}

// The memory figures of an address the class engine cannot follow (blockIdx.x % 4 is not affine
// in blockIdx.x): at grid 8 the replay counts them and the page says so; each block's one warp
// stores one word from its 32 lanes: 1 request, 1 sector, 128 bytes asked, so 8 requests, 8
// sectors, 1,024 bytes, 400% (no shade). At 2^31 - 1 blocks the replay would take too long: the
// page says they are not counted, in one line, with the text report's reason, and has no memory
// columns.
TEST_F(AnalyzeSourceFile, HtmlPageSaysHowTheMemoryFiguresWereMade) {
  const std::string file = source("mod4.cu",
                                  "__global__ void k(float* a) {\n"
                                  "  a[blockIdx.x % 4] = 1.0f;\n"
                                  "}\n");
  std::string page = analyze_html({file, "--grid", "8", "--block", "32"});
  EXPECT_EQ(source_memory_cells(page, "  a[blockIdx.x % 4] = 1.0f;"),
            "<td>400.0%</td><td>-</td><td>8</td><td>8</td><td>1,024</td><td>0</td><td>8</td><td>0</td>"
            "<td>-</td><td>-</td><td>0</td>")
      << page;
  EXPECT_TRUE(contains(page,
                       "<p class=\"config\">Memory figures counted by the replay engine (the "
                       "class engine cannot prove them: "))
      << page;

  TempDir dir;
  const std::string html = dir.file("big.html");
  const CliResult r = run_warpdiv({"analyze", file, "--grid", "2147483647", "--block", "32", "--html", html});
  ASSERT_EQ(r.status, 0) << r.err;
  page = read_file(html);
  const std::string said = "Memory of the launch: not counted (";
  const auto at = r.out.find(said);
  ASSERT_NE(at, std::string::npos) << r.out;
  std::string why = r.out.substr(at + said.size(), r.out.find(").\n", at) - at - said.size());
  EXPECT_TRUE(contains(why, "replaying this launch for them would take")) << why;
  std::string escaped;
  for (const char c : why)  // as the page escapes text
    escaped += c == '&'    ? "&amp;"
               : c == '<'  ? "&lt;"
               : c == '>'  ? "&gt;"
               : c == '"'  ? "&quot;"
               : c == '\'' ? "&#39;"
                           : std::string(1, c);
  EXPECT_TRUE(contains(page, "<p class=\"note\">Memory figures: not counted (" + escaped + ").</p>")) << page;
  // Said twice: in the page's incompleteness note at the top, and under the listing.
  EXPECT_TRUE(contains(page, "id=\"incomplete\">Incomplete: memory figures not counted (listed")) << page;
  EXPECT_EQ(count_occurrences(page, "not counted"), 2u);
  EXPECT_FALSE(contains(page, "<th>global req</th>"));
}

// The strongest shades. strided_load.cu at stride 8, one warp of 32: line 10 stores out[i] (128
// contiguous bytes: 4 sectors) and loads in[i * stride] (a float every 32 bytes: 32 sectors), 256
// bytes asked of 36 x 32 = 1,152: 22.2%, below 25%. transpose_bank_conflicts.cu, one 32 x 32
// tile in blocks of 32 x 8 (8 warps x 4 j = 32 requests each way): line 26 reads a column of the
// unpadded tile, 32 words in one bank per request: 1,024 wavefronts, 992 conflicts (31 per
// request), the strongest shared shade, beside its store of odata (a row of 128 aligned bytes a
// request: 128 sectors, 100%); line 18 writes rows of the tile (no conflict) from rows of idata
// (100%): no shade.
TEST_F(AnalyzeSourceFile, HtmlPageShadesStridedLoadsAndBankConflicts) {
  std::string page = analyze_html(
      {kZoo + "strided_load.cu", "--grid", "1", "--block", "32", "--arg", "n=32", "--arg", "stride=8"});
  EXPECT_EQ(source_memory_cells(page, "    out[i] = in[i * stride];"),
            "<td class=\"mg3\">22.2%</td><td>-</td><td>2</td><td>36</td><td>256</td><td>1</td>"
            "<td>1</td><td>0</td><td>-</td><td>-</td><td>0</td>")
      << page;
  EXPECT_EQ(source_memory_cells(page, "  if (i &lt; n)"), kNoMemoryCells);

  page = analyze_html({kZoo + "transpose_bank_conflicts.cu", "--grid", "1,1", "--block", "32,8", "--arg",
                       "width=32", "--arg", "height=32"});
  EXPECT_EQ(
      source_memory_cells(page, "      odata[(yo + j) * height + xo] = tile[threadIdx.x][threadIdx.y + j];"),
      "<td>100.0%</td><td class=\"ms3\">992</td><td>32</td><td>128</td><td>4,096</td><td>0</td>"
      "<td>32</td><td>0</td><td>32</td><td>1,024</td><td>0</td>")
      << page;
  EXPECT_EQ(
      source_memory_cells(page, "      tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];"),
      "<td>100.0%</td><td>0</td><td>32</td><td>128</td><td>4,096</td><td>32</td><td>0</td>"
      "<td>0</td><td>32</td><td>32</td><td>0</td>")
      << page;
  EXPECT_EQ(count_occurrences(page, "<td class=\"m"), 1u);
}

// The lecture's kernel (kernels/zoo/tiled_matmul_rect.cu) at J = K = L = 100, T = 16: the phase
// loop's iteration classes per block class, worked out by hand (see also
// tests/kernels/zoo_iteration_classes_test.cpp). Interior (class 1, 36 blocks = 288 warps): p < 6
// is 6 x 288 = 1728 evaluations of each check, none split; in p = 6 only columns tx < 4 of the
// tile are inside K = 100 = 96 + 4, so line 32 splits all 288 warps; the inner loop (line 45) is
// evaluated 17 times per warp and phase: 288 x 17 = 4896. Corner (class 4, 8 warps): line 37 (Col
// < L, Col = 96 + tx) splits every warp in p < 6 (48 of 48) and warps 0, 1 (rows ty < 4 inside
// K) in p = 6; line 44 (Row < J && Col < L) splits warps 0, 1 (rows 96 .. 99): 12 of 48, 2 of 8.
TEST_F(AnalyzeSourceFile, TextListsTheIterationClassesOfEachLoop) {
  const CliResult r =
      run_warpdiv({"analyze", kZoo + "tiled_matmul_rect.cu", "--grid", "(L-1)/16+1,(J-1)/16+1", "--block",
                   "16,16", "--arg", "J=100", "--arg", "K=100", "--arg", "L=100"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "\nfor loop at line 30 (p):\n")) << r.out;
  EXPECT_TRUE(
      contains(r.out,
               "  class    iterations  defined by         for        if        if        if       for\n"
               "  class 1           6  p < 6           0/1728    0/1728    0/1728    0/1728   0/29376\n"
               "  class 1           1  p = 6 (last)     0/288   288/288     0/288     0/288    0/4896\n"))
      << r.out;
  EXPECT_TRUE(
      contains(r.out,
               "  class 4           6  p < 6             0/48      0/48     48/48     12/48     0/204\n"
               "  class 4           1  p = 6 (last)       0/8       2/8       2/8       2/8      0/34\n"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "(no lane stays): p = 7 (exit).\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "  class 1          16  i in [0, 15] (all)   0/32256\n")) << r.out;
}

// At a size no replay reaches (J = 65535 x 16, K = L = 2^31 - 1: 2^27 phases per block), the maps
// of the phase loop are drawn from its iteration classes, and the page stays small.
TEST_F(AnalyzeSourceFile, HtmlMapsUseIterationClassesAtAnySize) {
  TempDir dir;
  const std::string html = dir.file("tiled.html");
  const CliResult r = run_warpdiv({"analyze", kZoo + "tiled_matmul_rect.cu", "--grid",
                                   "(L-1)/16+1,(J-1)/16+1", "--block", "16,16", "--arg", "J=1048560", "--arg",
                                   "K=2147483647", "--arg", "L=2147483647", "--html", html});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string page = read_file(html);
  EXPECT_LT(page.size(), 100'000u);
  EXPECT_FALSE(contains(page, "No maps")) << page;
  EXPECT_TRUE(contains(page, "line 32: if, per iteration class of p (line 30)")) << page;
  // 2^31 - 2 = 16 x 134217727 + 14: the last phase is p = 134217727, where tx = 15 is past K.
  EXPECT_TRUE(contains(page,
                       "p &lt; 134217727 (134217727 iterations) | p = 134217727 (last) | "
                       "p = 134217728 (exit)"))
      << page;
  EXPECT_TRUE(contains(page, "<title>warp 0: p = 134217727 (last)</title>")) << page;
}

}  // namespace
}  // namespace warpdiv::testing

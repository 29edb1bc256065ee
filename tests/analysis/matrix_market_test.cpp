// The Matrix Market reader (analysis/matrix_market.hpp) on small files written here, every view's
// bytes against figures worked out by hand in the comments (0-based, sorted by row then column,
// duplicates summed), and its refusals.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <new>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>

#include <sys/resource.h>
#include <unistd.h>

#include "analysis/matrix_market.hpp"
#include "sim/support/errors.hpp"

namespace warpdiv::analysis {
namespace {

namespace fs = std::filesystem;

// Little-endian bytes of each value, `bytes` bytes each (two's complement for negatives; IEEE
// patterns given as hexadecimal integers).
std::string le(std::initializer_list<std::uint64_t> values, int bytes) {
  std::string out;
  for (std::uint64_t v : values)
    for (int b = 0; b < bytes; ++b) out.push_back(static_cast<char>(v >> (8 * b) & 0xff));
  return out;
}
std::string le32(std::initializer_list<std::uint64_t> v) { return le(v, 4); }
std::string le64(std::initializer_list<std::uint64_t> v) { return le(v, 8); }

class MatrixMarket : public ::testing::Test {
 protected:
  void SetUp() override {
    char name[] = "/tmp/warpdiv-mtx-XXXXXX";
    ASSERT_NE(::mkdtemp(name), nullptr);
    dir_ = name;
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Writes `text` to NAME in the temporary folder and reads it.
  SparseMatrix read(const std::string& name, const std::string& text) {
    std::ofstream(path(name), std::ios::binary) << text;
    return read_matrix_market(path(name), "--data A");
  }
  std::string path(const std::string& name) const { return dir_ + "/" + name; }
  // The message of reading `text`, or "(no error)".
  std::string error_of(const std::string& text) {
    try {
      read("bad.mtx", text);
    } catch (const InvalidInput& e) {
      return e.what();
    }
    return "(no error)";
  }
  std::string prefix() const { return "--data A: '" + path("bad.mtx") + "' (a Matrix Market file)"; }
  static std::string view_error(const SparseMatrix& m, const std::string& view, const std::string& type,
                                std::uint64_t bytes) {
    try {
      matrix_market_view(m, view, type, bytes, "--data p=A.mtx:" + view);
    } catch (const InvalidInput& e) {
      return e.what();
    }
    return "(no error)";
  }

  std::string dir_;
};

std::string view(const SparseMatrix& m, const std::string& name, const std::string& type,
                 std::uint64_t bytes) {
  return matrix_market_view(m, name, type, bytes, "--data p=A.mtx:" + name);
}

TEST_F(MatrixMarket, GeneralRealWithADuplicate) {
  // 1-based (1,2) twice: 1.5 + 0.25 = 1.75. 0-based and sorted by (row, column):
  //   (0,0) = 3, (0,1) = 1.75, (1,3) = 0.4, (2,0) = -2.
  // Rows 0, 1, 2 hold 2, 1, 1 entries: row_ptr 0 2 3 4.
  const SparseMatrix m = read("g.mtx",
                              "%%MatrixMarket matrix coordinate real general\n"
                              "% a comment, then a blank line\n"
                              "\n"
                              "3 4 5\n"
                              "1 2 1.5\n"
                              "3 1 -2\n"
                              "1 2 0.25\n"
                              "% a comment between entries\n"
                              "2 4 4e-1\n"
                              "1 1 3\n");
  EXPECT_EQ(m.rows, 3u);
  EXPECT_EQ(m.cols, 4u);
  EXPECT_EQ(m.entries(), 4u);
  EXPECT_FALSE(m.pattern);
  EXPECT_EQ(m.field, "real");
  EXPECT_EQ(view(m, "csr.row_ptr", "int", 4), le32({0, 2, 3, 4}));
  EXPECT_EQ(view(m, "csr.col_idx", "int", 4), le32({0, 1, 3, 0}));
  EXPECT_EQ(view(m, "coo.row", "int", 4), le32({0, 0, 1, 2}));
  EXPECT_EQ(view(m, "coo.col", "int", 4), le32({0, 1, 3, 0}));
  // double: 3 = 0x4008000000000000, 1.75 = 0x3FFC000000000000, 0.4 = 0x3FD999999999999A
  // (1.6 x 2^-2, mantissa 0x999999999999A rounded up), -2 = 0xC000000000000000.
  const std::string doubles =
      le64({0x4008000000000000, 0x3FFC000000000000, 0x3FD999999999999A, 0xC000000000000000});
  EXPECT_EQ(view(m, "csr.values", "double", 8), doubles);
  EXPECT_EQ(view(m, "coo.values", "double", 8), doubles);
  // float: 3 = 0x40400000, 1.75 = 0x3FE00000, 0.4 = 0x3ECCCCCD, -2 = 0xC0000000.
  EXPECT_EQ(view(m, "csr.values", "float", 4), le32({0x40400000, 0x3FE00000, 0x3ECCCCCD, 0xC0000000}));
  // Other integer widths and signedness: the same figures in 2, 8 and unsigned 4 bytes.
  EXPECT_EQ(view(m, "csr.row_ptr", "short", 2), le({0, 2, 3, 4}, 2));
  EXPECT_EQ(view(m, "csr.row_ptr", "long", 8), le64({0, 2, 3, 4}));
  EXPECT_EQ(view(m, "csr.row_ptr", "unsigned long long", 8), le64({0, 2, 3, 4}));
  EXPECT_EQ(view(m, "coo.row", "unsigned int", 4), le32({0, 0, 1, 2}));
  EXPECT_EQ(view(m, "csr.col_idx", "char", 1), le({0, 1, 3, 0}, 1));
}

// A real value past float's range (3.4028235e+38) is refused for a float buffer, naming the
// element (it would be infinity); a double takes it, and float takes the largest float itself.
TEST_F(MatrixMarket, ARealPastFloatsRangeIsRefusedForAFloatBuffer) {
  const SparseMatrix m = read("big.mtx",
                              "%%MatrixMarket matrix coordinate real general\n"
                              "1 2 2\n"
                              "1 1 3.4028235e38\n"
                              "1 2 1e39\n");
  EXPECT_EQ(view_error(m, "coo.values", "float", 4),
            "--data p=A.mtx:coo.values: element 1 of coo.values is 9.9999999999999994e+38, outside float's "
            "range (a finite value of magnitude at most 3.4028235e+38)");
  EXPECT_EQ(view(m, "coo.values", "double", 8).size(), 16u);
}

TEST_F(MatrixMarket, SymmetricHoldsBothTrianglesAndTheDiagonalOnce) {
  // Lower triangle given: (1,1) 2, (2,1) -1, (3,2) 5, (3,3) 7. Full, 0-based, sorted:
  //   row 0: (0,0) 2, (0,1) -1; row 1: (1,0) -1, (1,2) 5; row 2: (2,1) 5, (2,2) 7.
  // 2 x 4 - 2 diagonal = 6 entries; row_ptr 0 2 4 6.
  const SparseMatrix m = read("s.mtx",
                              "%%MatrixMarket matrix coordinate real symmetric\n"
                              "3 3 4\n"
                              "1 1 2\n"
                              "2 1 -1\n"
                              "3 2 5\n"
                              "3 3 7\n");
  EXPECT_EQ(m.symmetry, "symmetric");
  EXPECT_EQ(m.entries(), 6u);
  EXPECT_EQ(view(m, "csr.row_ptr", "int", 4), le32({0, 2, 4, 6}));
  EXPECT_EQ(view(m, "csr.col_idx", "int", 4), le32({0, 1, 0, 2, 1, 2}));
  EXPECT_EQ(view(m, "coo.row", "int", 4), le32({0, 0, 1, 1, 2, 2}));
  EXPECT_EQ(view(m, "coo.col", "int", 4), le32({0, 1, 0, 2, 1, 2}));
  // float: 2 = 0x40000000, -1 = 0xBF800000, 5 = 0x40A00000, 7 = 0x40E00000.
  EXPECT_EQ(view(m, "coo.values", "float", 4),
            le32({0x40000000, 0xBF800000, 0xBF800000, 0x40A00000, 0x40A00000, 0x40E00000}));
}

TEST_F(MatrixMarket, SkewSymmetricMirrorsNegated) {
  // Strictly lower: (2,1) 4, (3,1) -1.5. Full, 0-based, sorted:
  //   (0,1) -4, (0,2) 1.5, (1,0) 4, (2,0) -1.5; row_ptr 0 2 3 4.
  const SparseMatrix m = read("k.mtx",
                              "%%MatrixMarket matrix coordinate real skew-symmetric\n"
                              "3 3 2\n"
                              "2 1 4\n"
                              "3 1 -1.5\n");
  EXPECT_EQ(view(m, "csr.row_ptr", "int", 4), le32({0, 2, 3, 4}));
  EXPECT_EQ(view(m, "csr.col_idx", "int", 4), le32({1, 2, 0, 0}));
  // double: -4 = 0xC010000000000000, 1.5 = 0x3FF8000000000000, 4 = 0x4010000000000000,
  // -1.5 = 0xBFF8000000000000.
  EXPECT_EQ(view(m, "csr.values", "double", 8),
            le64({0xC010000000000000, 0x3FF8000000000000, 0x4010000000000000, 0xBFF8000000000000}));
}

TEST_F(MatrixMarket, PatternEntriesAreOne) {
  // Symmetric pattern, lower triangle (1,1), (2,1), (3,3): full (0,0), (0,1), (1,0), (2,2), each 1
  // (not 1 + degree on the diagonal and -1 elsewhere, as cholmod_read_triplet gives by default);
  // row_ptr 0 2 3 4.
  const SparseMatrix s = read("ps.mtx",
                              "%%MatrixMarket matrix coordinate pattern symmetric\n"
                              "3 3 3\n"
                              "1 1\n"
                              "2 1\n"
                              "3 3\n");
  EXPECT_TRUE(s.pattern);
  EXPECT_EQ(view(s, "csr.row_ptr", "int", 4), le32({0, 2, 3, 4}));
  EXPECT_EQ(view(s, "csr.col_idx", "int", 4), le32({0, 1, 0, 2}));
  EXPECT_EQ(view(s, "csr.values", "float", 4), le32({0x3F800000, 0x3F800000, 0x3F800000, 0x3F800000}));
  EXPECT_EQ(view(s, "csr.values", "int", 4), le32({1, 1, 1, 1}));  // integers take a pattern's values
  // General pattern, (1,3) given twice: each entry is 1 and duplicates are summed, so (0,2) is 2.
  // Sorted: (0,2) 2, (1,1) 1; row_ptr 0 1 2.
  const SparseMatrix g = read("pg.mtx",
                              "%%MatrixMarket matrix coordinate pattern general\n"
                              "2 3 3\n"
                              "1 3\n"
                              "2 2\n"
                              "1 3\n");
  EXPECT_EQ(view(g, "csr.row_ptr", "int", 4), le32({0, 1, 2}));
  EXPECT_EQ(view(g, "coo.col", "int", 4), le32({2, 1}));
  EXPECT_EQ(view(g, "coo.values", "unsigned char", 1), le({2, 1}, 1));
  EXPECT_EQ(view(g, "coo.values", "double", 8), le64({0x4000000000000000, 0x3FF0000000000000}));
}

TEST_F(MatrixMarket, IntegerValues) {
  // (2,1) -7 and 2 summed to -5; (1,2) 40000. Sorted: (0,1) 40000, (1,0) -5.
  const SparseMatrix m = read("i.mtx",
                              "%%MatrixMarket matrix coordinate integer general\n"
                              "2 2 3\n"
                              "2 1 -7\n"
                              "1 2 40000\n"
                              "2 1 +2\n");
  EXPECT_EQ(m.field, "integer");
  EXPECT_EQ(view(m, "csr.values", "int", 4), le32({40000, 0xFFFFFFFB}));  // -5 in two's complement
  EXPECT_EQ(view(m, "csr.values", "long", 8), le64({40000, 0xFFFFFFFFFFFFFFFB}));
  // float: 40000 = 1.220703125 x 2^15 = 0x471C4000, -5 = -1.25 x 2^2 = 0xC0A00000.
  EXPECT_EQ(view(m, "csr.values", "float", 4), le32({0x471C4000, 0xC0A00000}));
  EXPECT_EQ(view_error(m, "csr.values", "short", 2),
            "--data p=A.mtx:csr.values: element 0 of csr.values is 40000, outside short's range "
            "(-32768 to 32767)");
  EXPECT_EQ(view_error(m, "csr.values", "unsigned int", 4),
            "--data p=A.mtx:csr.values: element 1 of csr.values is -5, outside unsigned int's range "
            "(0 to 4294967295)");
}

TEST_F(MatrixMarket, EmptyRowsAndAnEmptyMatrix) {
  // 4 x 3, entries in rows 0 and 3 only: (0,1) 1, (3,0) 2, (3,2) 3; rows 1 and 2 are empty, so
  // row_ptr is 0 1 1 1 3.
  const SparseMatrix m = read("e.mtx",
                              "%%MatrixMarket matrix coordinate real general\r\n"
                              "4 3 3\r\n"
                              "4 3 3\r\n"
                              "1 2 1\r\n"
                              "4 1 2\r\n");
  EXPECT_EQ(view(m, "csr.row_ptr", "long", 8), le64({0, 1, 1, 1, 3}));
  EXPECT_EQ(view(m, "csr.col_idx", "long", 8), le64({1, 0, 2}));
  EXPECT_EQ(view(m, "coo.row", "long", 8), le64({0, 3, 3}));
  EXPECT_EQ(view(m, "coo.values", "float", 4), le32({0x3F800000, 0x40000000, 0x40400000}));
  // No entries: row_ptr is rows + 1 zeros, the entry views hold nothing.
  const SparseMatrix z = read("z.mtx", "%%MatrixMarket matrix coordinate real general\n2 5 0\n");
  EXPECT_EQ(z.entries(), 0u);
  EXPECT_EQ(view(z, "csr.row_ptr", "int", 4), le32({0, 0, 0}));
  EXPECT_EQ(view(z, "csr.col_idx", "int", 4), "");
  EXPECT_EQ(view(z, "coo.values", "double", 8), "");
}

TEST_F(MatrixMarket, ExplicitZerosAndCancelledDuplicatesAreKept) {
  // (1,1) 0 is an entry; (2,2) 1 and -1 sum to 0 and stay one: (0,0) 0, (1,1) 0; row_ptr 0 1 2.
  const SparseMatrix m = read("0.mtx",
                              "%%MatrixMarket matrix coordinate real general\n"
                              "2 2 3\n"
                              "1 1 0\n"
                              "2 2 1\n"
                              "2 2 -1\n");
  EXPECT_EQ(view(m, "csr.row_ptr", "int", 4), le32({0, 1, 2}));
  EXPECT_EQ(view(m, "coo.col", "int", 4), le32({0, 1}));
  EXPECT_EQ(view(m, "coo.values", "double", 8), le64({0, 0}));
}

TEST_F(MatrixMarket, ValuesRoundToFloatAsCDoes) {
  // 2^24 + 1 lies halfway between the floats 2^24 and 2^24 + 2: to even, 2^24 = 0x4B800000.
  // 2^24 + 3 lies halfway between 2^24 + 2 (odd mantissa 1) and 2^24 + 4 (mantissa 2): 0x4B800002.
  // 0.1 rounds to 0x3DCCCCCD; an infinity written as one stays one, 0x7F800000 (a finite value
  // past float's range is refused: ARealPastFloatsRangeIsRefusedForAFloatBuffer).
  const SparseMatrix m = read("r.mtx",
                              "%%MatrixMarket matrix coordinate real general\n"
                              "1 4 4\n"
                              "1 1 16777217\n"
                              "1 2 16777219.0\n"
                              "1 3 .1\n"
                              "1 4 inf\n");
  EXPECT_EQ(view(m, "csr.values", "float", 4), le32({0x4B800000, 0x4B800002, 0x3DCCCCCD, 0x7F800000}));
}

TEST_F(MatrixMarket, RefusesViewsThatDoNotFit) {
  // A 1 x 40000 matrix with its one entry in the last column: index 39999 is past short's 32767.
  const SparseMatrix m =
      read("w.mtx", "%%MatrixMarket matrix coordinate real general\n1 40000 1\n1 40000 2.5\n");
  EXPECT_EQ(view_error(m, "csr.col_idx", "short", 2),
            "--data p=A.mtx:csr.col_idx: element 0 of csr.col_idx is 39999, outside short's range "
            "(-32768 to 32767)");
  EXPECT_EQ(view(m, "csr.col_idx", "unsigned short", 2), le({39999}, 2));
  EXPECT_EQ(
      view_error(m, "csr.values", "int", 4),
      "--data p=A.mtx:csr.values: csr.values holds the file's real values: the parameter must point "
      "to float or double, not int (an integer type takes the values of an integer or pattern file only)");
  EXPECT_EQ(view_error(m, "coo.row", "float", 4),
            "--data p=A.mtx:coo.row: coo.row holds indices: the parameter must point to an integer type, not "
            "float");
  EXPECT_EQ(view_error(m, "csr.colidx", "int", 4),
            "--data p=A.mtx:csr.colidx: the view 'csr.colidx' is not known (did you mean csr.col_idx?); "
            "allowed: csr.row_ptr, csr.col_idx, csr.values, coo.row, coo.col, coo.values");
  EXPECT_EQ(view_error(m, "rows", "int", 4),
            "--data p=A.mtx:rows: the view 'rows' is not known; allowed: csr.row_ptr, csr.col_idx, "
            "csr.values, coo.row, coo.col, coo.values");
  EXPECT_NE(view_error(m, "csr.col_idx", "bool", 1), "(no error)");
  EXPECT_NE(view_error(m, "csr.col_idx", "int", 8), "(no error)");  // int is 4 bytes
}

TEST_F(MatrixMarket, RefusesFilesThatAreNotWhatTheyClaim) {
  const std::string real = "%%MatrixMarket matrix coordinate real general\n";
  EXPECT_EQ(error_of("%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 1 1 0\n"),
            prefix() +
                " line 1, column 34: complex values are refused: the model has no complex numbers "
                "(allowed: real, integer, pattern)");
  EXPECT_EQ(error_of("hello\n1 2 3\n"), prefix() + ": its first line does not start with %%MatrixMarket");
  // A size line without the banner is not guessed to be one.
  EXPECT_EQ(error_of("3 3 1\n1 2 5\n"), prefix() + ": its first line does not start with %%MatrixMarket");
  EXPECT_EQ(error_of("%%MatrixMarket matrix array real general\n2 1\n1\n2\n"),
            prefix() +
                " line 1, column 23: the array (dense) format is not read; write the matrix in "
                "coordinate format");
  // An index 0: Matrix Market indices are 1-based, never guessed to be 0-based.
  EXPECT_EQ(error_of(real + "3 3 2\n0 1 1\n2 2 2\n"),
            prefix() + " line 3, column 1: the row 0 is outside 1 .. 3 (Matrix Market indices start at 1)");
  EXPECT_EQ(
      error_of(real + "3 3 1\n1 4 1\n"),
      prefix() + " line 3, column 3: the column 4 is outside 1 .. 3 (Matrix Market indices start at 1)");
  EXPECT_EQ(error_of(real + "3 3 1\n1.7 2 1\n"),
            prefix() + " line 3, column 1: the row '1.7' is not a whole number of digits");
  EXPECT_EQ(error_of(real + "3 3 1\n1 2\n"),
            prefix() + " line 3: the entry '1 2' needs 3 numbers in a real file: ROW COLUMN VALUE");
  EXPECT_EQ(error_of(real + "3 3 1\n1 2 3x\n"),
            prefix() +
                " line 3, column 5: the value '3x' is not a decimal number (digits, a point, an "
                "exponent with e or E; inf or nan)");
  EXPECT_EQ(error_of(real + "3 3 1\n1 2 1.0D+05\n"),
            prefix() +
                " line 3, column 5: the value '1.0D+05' is not a decimal number (digits, a point, an "
                "exponent with e or E; inf or nan)");
  // The largest double is about 1.797e308: 2e308 is past it, 1.7e308 is not.
  EXPECT_EQ(error_of(real + "3 3 1\n1 2 -2e308\n"),
            prefix() +
                " line 3, column 5: the value '-2e308' is past the largest double (about 1.8e308); write "
                "inf if an infinity is meant");
  EXPECT_EQ(read("big.mtx", real + "3 3 1\n1 2 1.7e308\n").values.at(0), 1.7e308);
  // The last line read is line 3, the one entry.
  EXPECT_EQ(error_of(real + "3 3 2\n1 1 1\n"),
            prefix() + " line 3: the file ends after 1 of the 2 entries its size line gives");
  EXPECT_EQ(error_of(real + "% only a comment\n"),
            prefix() + " line 2: the file ends before its size line (ROWS COLUMNS ENTRIES)");
  EXPECT_EQ(error_of(real + "3 3 1\n1 1 1\n2 2 2\n"),
            prefix() + " line 4: more entries than the 1 the size line gives");
  EXPECT_EQ(error_of(real + "3 3\n"),
            prefix() + " line 2: the size line '3 3' needs 3 numbers: ROWS COLUMNS ENTRIES");
  EXPECT_EQ(error_of("%%MatrixMarket matrix coordinate real symmetric\n3 3 1\n1 2 1\n"),
            prefix() +
                " line 3: the entry (1, 2) is above the diagonal; a symmetric file stores the lower "
                "triangle (row >= column)");
  EXPECT_EQ(error_of("%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 1\n2 2 1\n"),
            prefix() +
                " line 3: the entry (2, 2) is not below the diagonal; a skew-symmetric file stores the "
                "strictly lower triangle (row > column)");
  EXPECT_EQ(error_of("%%MatrixMarket matrix coordinate real symmetric\n3 2 0\n"),
            prefix() + " line 2: a symmetric matrix must be square, not 3 x 2");
  EXPECT_EQ(error_of("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 2.5\n"),
            prefix() + " line 3, column 5: the value '2.5' is not an integer");
  EXPECT_EQ(error_of("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 9007199254740993\n"),
            prefix() +
                " line 3, column 5: the integer '9007199254740993' is past 2^53 in magnitude, where a "
                "double (which the reader keeps) is not exact");
  EXPECT_EQ(error_of("%%MatrixMarket matrix coordinate real hermitian\n2 2 0\n"),
            prefix() + " line 1, column 39: hermitian matrices have complex values, which are refused");
  EXPECT_EQ(error_of(real + "67108865 1 0\n"),
            prefix() +
                " line 2, column 1: 67108865 x 1 is too large: at most 2^26 (67108864) rows and columns "
                "are read");
  EXPECT_EQ(error_of(real + "3 3 2147483648\n"),
            prefix() + " line 2, column 5: 2147483648 entries is too many: at most 2^31 - 1 are read");
  EXPECT_EQ(error_of(real + "% " + std::string(1023, 'x') + "\n3 3 0\n"),
            prefix() +
                " line 2, column 1025: the line is 1025 characters long; Matrix Market lines hold at "
                "most 1024");
  // The most a line may hold is read.
  EXPECT_EQ(read("long.mtx", real + "% " + std::string(1022, 'x') + "\n3 3 0\n").rows, 3u);
}

// Runs `parse` in a child whose address space may grow by 64 MiB at most (RLIMIT_AS): the
// child exits 0 when `parse` returns true, 1 when it returns false, 2 when allocation fails.
void within_64_mib(const std::function<bool()>& parse) {
  long pages = 0;
  std::ifstream("/proc/self/statm") >> pages;  // the address space in use, in pages
  const rlim_t limit =
      static_cast<rlim_t>(pages) * static_cast<rlim_t>(::sysconf(_SC_PAGESIZE)) + (rlim_t{64} << 20);
  const rlimit r{limit, limit};
  ::setrlimit(RLIMIT_AS, &r);
  try {
    std::exit(parse() ? 0 : 1);
  } catch (const std::bad_alloc&) {
    std::exit(2);
  } catch (const InvalidInput& e) {
    std::fprintf(stderr, "%s\n", e.what());
    std::exit(3);
  }
}

TEST(MatrixMarketMemory, AHugeDimensionIsNotAllocated) {
  // 2^26 x 2^26 with one entry at row 2^26, column 1: 0-based (67108863, 0). A per-row or
  // per-column array of 8-byte counts would take 512 MiB.
  const std::string text =
      "%%MatrixMarket matrix coordinate real general\n67108864 67108864 1\n67108864 1 2.5\n";
  EXPECT_EXIT(within_64_mib([&] {
                const SparseMatrix m = parse_matrix_market(text, "'big.mtx'");
                return m.rows == 67108864u && m.cols == 67108864u && m.entries() == 1u &&
                       m.row[0] == 67108863 && m.col[0] == 0 && m.values[0] == 2.5 &&
                       matrix_market_view(m, "coo.row", "int", 4, "v") == le32({67108863});
              }),
              ::testing::ExitedWithCode(0), "");
}

TEST(MatrixMarketMemory, AClaimedEntryCountIsNotAllocated) {
  // The size line claims 2^31 - 1 entries (32 GiB at 16 bytes each); the file holds one.
  const std::string text = "%%MatrixMarket matrix coordinate real general\n3 3 2147483647\n1 1 1\n";
  EXPECT_EXIT(within_64_mib([&] {
                try {
                  parse_matrix_market(text, "'claims.mtx'");
                } catch (const InvalidInput& e) {
                  return std::string(e.what()) ==
                         "'claims.mtx' (a Matrix Market file) line 3: the file ends after 1 of the "
                         "2147483647 entries its size line gives";
                }
                return false;
              }),
              ::testing::ExitedWithCode(0), "");
}

TEST_F(MatrixMarket, RefusesAMissingFileNamingIt) {
  try {
    read_matrix_market(path("missing.mtx"), "--data A");
    FAIL() << "read a missing file";
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()),
              "--data A: '" + path("missing.mtx") +
                  "' cannot be read: No such file or directory (read as a Matrix Market file)");
  }
  // The default names the file as a Matrix Market file.
  try {
    read_matrix_market(path("missing.mtx"));
    FAIL() << "read a missing file";
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()),
              "Matrix Market file: '" + path("missing.mtx") +
                  "' cannot be read: No such file or directory (read as a Matrix Market file)");
  }
}

}  // namespace
}  // namespace warpdiv::analysis

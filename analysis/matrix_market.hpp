// A Matrix Market reader for `--data NAME=A.mtx:VIEW`: a sparse matrix as its CSR (csr.row_ptr,
// csr.col_idx, csr.values) or COO (coo.row, coo.col, coo.values) arrays, 0-based, as read:
// duplicates summed, pattern entries 1, explicit zeros kept.
//
// Strict, line by line (the file, line and column in every refusal): the banner
// "%%MatrixMarket matrix coordinate FIELD SYMMETRY" first (FIELD real, integer or pattern;
// SYMMETRY general, symmetric or skew-symmetric, pattern skew-symmetric refused), comments and
// blank lines anywhere after it, the size line ROWS COLUMNS ENTRIES, then exactly ENTRIES entry
// lines of 2 (pattern) or 3 numbers, 1-based indices of digits within the size line's ranges, the
// lower triangle of a symmetric file (the strictly lower one of a skew-symmetric file), integer
// values of at most 2^53 in magnitude (exact as the doubles kept), real values in decimal
// notation (or inf, infinity, nan) within a double's range. Refused besides: complex fields (the
// model has no complex numbers), "array" (dense) files (write them as coordinate), "hermitian"
// (complex only), lines longer than the format's 1,024 characters, more than 2^31 - 1 entries
// (after mirroring) and more than 2^26 rows or columns.
//
// Memory follows the entries read, never the header's claims: nothing is sized from the size line
// beyond what the file's bytes can hold (an entry line takes 4 bytes at least), and the matrix is kept as its
// entries (16 bytes each while read and sorted, 24 in SparseMatrix), never as per-row or per-column arrays;
// only the csr.row_ptr view holds ROWS + 1 elements, as the kernel's buffer must. SuiteSparse's CHOLMOD
// (libsuitesparse-dev), which read these files before, allocates per row and column from the size line
// (cholmod_read_triplet's workspace of ROWS + COLUMNS, then the compressed columns and their
// transpose): 1.5 to 4 GB and 9 s for a 66-byte file claiming 2^26 x 2^26, measured with
// `ulimit -v`; and everything it could add is done here already (each token is checked before
// it could parse it), but for the stable sort that sums duplicates. Eigen 3.4's loadMarket
// (libeigen3-dev) ignores the header (a symmetric file keeps one triangle) and leaves a pattern
// entry's value uninitialised; GSL 2.7's gsl_spmatrix_fscanf reads real general files only. Values are read
// by strtod, as CHOLMOD's sscanf("%lg") reads them (glibc, correctly rounded); duplicates are summed in the
// file's order, a symmetric file's upper triangle mirrored after the entries as CHOLMOD did, so
// every sum is the one it gave. The file is read through read_input_file (analysis/input_file.hpp:
// 64 MiB at most, FIFOs with a bounded wait).
//
// Order: entries sorted by (row, column), each (row, column) once, so the COO views and the CSR
// views list the entries in the same order (csr.col_idx is coo.col, csr.values is coo.values).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace warpdiv::analysis {

namespace matrix_market_limits {
constexpr std::uint64_t kMaxEntries = 2147483647;                // 2^31 - 1, after mirroring
constexpr std::uint64_t kMaxDimension = std::uint64_t{1} << 26;  // rows, columns
constexpr std::size_t kMaxLineBytes = 1024;                      // the format's line length
}  // namespace matrix_market_limits

/// A sparse matrix as read: COO entries, 0-based, sorted by (row, col), duplicates summed, both
/// triangles of a symmetric or skew-symmetric file, pattern entries 1.
struct SparseMatrix {
  std::uint64_t rows = 0, cols = 0;
  std::vector<std::int64_t> row, col;
  std::vector<double> values;
  bool pattern = false;              // the field is "pattern" (every value 1)
  std::string field = "real";        // "real", "integer" or "pattern"
  std::string symmetry = "general";  // "general", "symmetric" or "skew-symmetric"

  std::uint64_t entries() const { return values.size(); }
};

/// Parses the text of a Matrix Market file; `source` names it in messages ("'A.mtx'").
/// Throws InvalidInput "SOURCE (a Matrix Market file) line L, column C: what is wrong" (see the top
/// of this file).
SparseMatrix parse_matrix_market(const std::string& text, const std::string& source);

/// Reads `path` (read_input_file's policy) and parses it. Messages start "WHAT: 'PATH'".
SparseMatrix read_matrix_market(const std::string& path, const std::string& what = "Matrix Market file");

/// The six views: csr.row_ptr, csr.col_idx, csr.values, coo.row, coo.col, coo.values.
const std::vector<std::string>& matrix_market_views();

/// The elements of `view` (csr.row_ptr: rows + 1 of them, the others one per entry) as raw
/// little-endian bytes of the C type `element_type` (Clang's canonical unqualified spelling:
/// "int", "unsigned int", "long", "short", "char", "float", "double" ...; char is signed, long
/// 8 bytes, as on x86-64 Linux) of `element_bytes` bytes. An empty matrix's entry views are "".
/// Index views (csr.row_ptr, csr.col_idx, coo.row, coo.col) need an integer type that holds
/// every value; value views (csr.values, coo.values) need float or double (converted as C
/// converts a double: to float rounded to nearest, past float's range to infinity), or, for an
/// integer or pattern file only, an integer type that holds every value. Throws InvalidInput
/// "WHAT: ..." for an unknown view (listing the six), an element type that does not fit the
/// view, and the first element outside the type's range (its position, value and the range).
std::string matrix_market_view(const SparseMatrix& m, const std::string& view,
                               const std::string& element_type, std::uint64_t element_bytes,
                               const std::string& what);

}  // namespace warpdiv::analysis

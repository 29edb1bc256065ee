// A Matrix Market reader for `--data NAME=A.mtx:VIEW` (issue 22): a sparse matrix as its CSR
// (csr.row_ptr, csr.col_idx, csr.values) or COO (coo.row, coo.col, coo.values) arrays, 0-based,
// as read: duplicates summed, pattern entries 1, explicit zeros kept.
//
// The library: SuiteSparse's CHOLMOD (Debian 12 libsuitesparse-dev, 5.12; Tim Davis's reader of
// the SuiteSparse Matrix Collection's own files): cholmod_l_read_matrix with prefer = 1, then
// cholmod_l_transpose for row order. Verified against the installed library on test files (and
// in its source, CHOLMOD/Check/cholmod_read.c): duplicates summed (triplet_to_sparse), explicit
// zeros and duplicates that cancel kept, 1-based indices made 0-based, comment and blank lines
// skipped, "symmetric" and "skew-symmetric" files returned with both triangles (each off-diagonal
// entry mirrored, negated for skew; the diagonal once), pattern entries 1 (prefer = 1 mirrors
// before the values are set; cholmod_read_triplet alone gives a symmetric pattern 1 + degree on
// the diagonal and -1 elsewhere unless Common->prefer_binary, which is set too), so a pattern
// entry given twice is 2; integer values kept as doubles (exact to 2^53); the output sorted.
// Eigen 3.4's loadMarket (libeigen3-dev, unsupported/, header-only, also about 9 MB installed)
// was rejected: it ignores the header (a symmetric file keeps one triangle), leaves a pattern
// entry's value uninitialised, drops out-of-range entries with a message on std::cerr, and never
// reads a matrix with 0 rows. GSL 2.7's gsl_spmatrix_fscanf reads real general files only and
// keeps the last of duplicates. libsuitesparse-dev is 5 MB installed, about 9 MB with the 16
// SuiteSparse libraries it pulls in (BLAS and LAPACK are on the base image already); only
// libcholmod and libsuitesparseconfig are linked (statically for WARPDIV_STATIC: the functions
// used need neither BLAS nor METIS). Speed: CHOLMOD reads 1,000,000 entries of 17-digit values
// (33 MB) in about 0.6 s (fgets and sscanf per line).
//
// CHOLMOD is lenient where the format is strict, so the text is first checked here, line by line
// (the file, line and column in every refusal). CHOLMOD alone would read a file with no header
// line; infer the field from the number of tokens (a `real` file whose lines have two is read as
// pattern); take a whole file as 0-based when one index is 0 (every other entry then lands a row
// and a column off); cut "1.7" to index 1; ignore entries past the size line's count; read a
// rectangular "symmetric" file as general; double an entry given in both triangles; split lines
// of more than 1,029 characters in two; turn values of magnitude 1e308 or more into infinities.
// Refused here: each of those, complex fields (the model has no complex numbers), "array" (dense)
// files (write them as coordinate), "hermitian" (complex only) and pattern skew-symmetric files,
// entries above the diagonal of a symmetric file (the format stores the lower triangle;
// skew-symmetric the strictly lower one), integer values past 2^53, more than 2^31 - 1 entries
// (after mirroring), and more than 2^26 rows or columns (the reader keeps pointers per row and
// column: a 40-byte file must not ask for gigabytes). The file is read through read_input_file
// (analysis/input_file.hpp: 64 MiB at most, FIFOs with a bounded wait) and handed to CHOLMOD from
// memory (fmemopen).
//
// Order: entries sorted by (row, column), each (row, column) once, so the COO views and the CSR
// views list the entries in the same order (csr.col_idx is coo.col, csr.values is coo.values).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace warpdiv::analysis {

namespace matrix_market_limits {
constexpr std::uint64_t kMaxEntries = 2147483647;           // 2^31 - 1, after mirroring
constexpr std::uint64_t kMaxDimension = std::uint64_t{1} << 26;  // rows, columns
constexpr std::size_t kMaxLineBytes = 1024;                 // the format's line length
}  // namespace matrix_market_limits

/// A sparse matrix as read: COO entries, 0-based, sorted by (row, col), duplicates summed, both
/// triangles of a symmetric or skew-symmetric file, pattern entries 1.
struct SparseMatrix {
  std::uint64_t rows = 0, cols = 0;
  std::vector<std::int64_t> row, col;
  std::vector<double> values;
  bool pattern = false;            // the field is "pattern" (every value 1)
  std::string field = "real";      // "real", "integer" or "pattern"
  std::string symmetry = "general";  // "general", "symmetric" or "skew-symmetric"

  std::uint64_t entries() const { return values.size(); }
};

/// Parses the text of a Matrix Market file; `source` names it in messages ("'A.mtx'").
/// Throws InvalidInput "SOURCE line L, column C: what is wrong" (see the top of this file).
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
std::string matrix_market_view(const SparseMatrix& m, const std::string& view, const std::string& element_type,
                               std::uint64_t element_bytes, const std::string& what);

}  // namespace warpdiv::analysis

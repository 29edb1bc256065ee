// What the front-end takes from a compilation database's command line (compile_database.hpp): the
// flags Clang can use, in order, by every spelling nvcc and gcc give them; written out by hand.
#include "kernels/frontend/compile_database.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/kernels/source_dir.hpp"

namespace {

using warpdiv::frontend::detail::usable_arguments;
using Args = std::vector<std::string>;

TEST(CompileDatabase, TakesNvccsIncludesAndMacrosAndLeavesItsCodeGenerationOut) {
  // The CMake CUDA entry.
  const Args nvcc = {"/usr/local/cuda/bin/nvcc", "-forward-unknown-to-host-compiler", "-DFOO=1", "-I/x",
                     "-isystem", "/y", "--generate-code=arch=compute_70,code=[compute_70,sm_70]", "-x", "cu",
                     "-c", "k.cu", "-o", "k.o"};
  EXPECT_EQ(usable_arguments(nvcc, "/build"), (Args{"-DFOO=1", "-I/x", "-isystem/y"}));
}

TEST(CompileDatabase, LongFormsJoinedFormsAndRelativePaths) {
  const Args line = {"nvcc", "--include-path", "inc", "--include-path=../up", "--define-macro", "A=2",
                     "--define-macro=B", "--undefine-macro", "C", "--pre-include", "pre.h",
                     "--system-include=sys", "-iquote", "q", "-idirafter", "/after", "-std=c++14",
                     "--std", "c++17", "-Xcompiler", "-DHOST_ONLY", "-Xcompiler=-Wall", "-O3",
                     "-ccbin", "/usr/bin/g++", "-U", "D", "-include", "/abs.h", "-Iinc2", "-DE"};
  EXPECT_EQ(usable_arguments(line, "/b/build"),
            (Args{"-I/b/build/inc", "-I/b/up", "-DA=2", "-DB", "-UC", "-include", "/b/build/pre.h",
                  "-isystem/b/build/sys", "-iquote/b/build/q", "-idirafter/after", "-std=c++14",
                  "-std=c++17", "-UD", "-include", "/abs.h", "-I/b/build/inc2", "-DE"}));
}

class CompileDatabaseFiles : public warpdiv::testing::SourceDirTest {
 protected:
  CompileDatabaseFiles() : SourceDirTest("warpdiv_compile_database_") {}
};

TEST_F(CompileDatabaseFiles, ResponseFilesAreReadInPlace) {
  // CMake's CUDA entries name their include folders in a response file.
  write("CMakeFiles/includes_CUDA.rsp", "-I/p/include \"-I/p/with space\"\n-isystem /p/sys\n");
  write("more.rsp", "-DFROM_AT=1\n");
  const Args line = {"nvcc", "-DX=1", "--options-file", "CMakeFiles/includes_CUDA.rsp", "@more.rsp", "-c", "k.cu"};
  EXPECT_EQ(usable_arguments(line, dir_.string()),
            (Args{"-DX=1", "-I/p/include", "-I/p/with space", "-isystem/p/sys", "-DFROM_AT=1"}));
  const Args missing = {"nvcc", "--options-file", "nope.rsp"};
  try {
    usable_arguments(missing, dir_.string());
    FAIL() << "a missing response file was not refused";
  } catch (const warpdiv::InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()),
              "the response file " + (dir_ / "nope.rsp").string() + " of the compile command cannot be read");
  }
}

}  // namespace

// Compiled resources (kernels/compiled_resources.hpp): the zoo kernels compiled for sm_80 and
// sm_90 by nvcc and by NVRTC, checked against figures found another way:
//   - registers: read by this test from the cubin itself (nvcc -cubin without -v, then the ELF's
//     .nv.info section, attribute EIATTR_REGCOUNT), not from ptxas's report that the code reads;
//   - static shared memory and barriers: worked out by hand from the __shared__ arrays and the
//     __syncthreads() calls of each file.
// Each test skips with the reason where nvcc (or NVRTC) is absent.
#include "kernels/compiled_resources.hpp"

#include <dlfcn.h>
#include <sys/stat.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "sim/model/ir.hpp"

namespace warpdiv::kernels {
namespace {

namespace fs = std::filesystem;

const std::string kZoo = std::string(WARPDIV_SOURCE_DIR) + "/kernels/zoo/";
const char* const kNvcc = "/usr/local/cuda/bin/nvcc";
const char* const kNvrtc = "/usr/local/cuda/lib64/libnvrtc.so";
const char* const kNvrtcBuiltins = "/usr/local/cuda/lib64/libnvrtc-builtins.so";

// ---------------------------------------------------------------------------------------------
// The second route: registers per entry function from a cubin's ELF (.nv.info: records of
// {format u8, attribute u8, size u16, payload}; EIATTR_REGCOUNT = 0x2f holds {symbol index u32,
// registers u32}; the symbol's name comes from .symtab/.strtab).

template <typename T>
T read_at(const std::string& d, std::size_t offset) {
  T v{};
  if (offset + sizeof v <= d.size()) std::memcpy(&v, d.data() + offset, sizeof v);
  return v;
}

std::map<std::string, int> registers_from_cubin(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  const std::string d = bytes.str();
  std::map<std::string, int> registers;
  if (d.size() < 64 || d.compare(0, 4,
                                 "\x7f"
                                 "ELF") != 0)
    return registers;
  const auto shoff = read_at<std::uint64_t>(d, 0x28);
  const auto shentsize = read_at<std::uint16_t>(d, 0x3a);
  const auto shnum = read_at<std::uint16_t>(d, 0x3c);
  const auto shstrndx = read_at<std::uint16_t>(d, 0x3e);
  struct Section {
    std::uint32_t name, type, link;
    std::uint64_t offset, size;
  };
  std::vector<Section> sections;
  for (std::size_t i = 0; i < shnum; ++i) {
    const std::size_t h = shoff + i * shentsize;
    sections.push_back({read_at<std::uint32_t>(d, h), read_at<std::uint32_t>(d, h + 4),
                        read_at<std::uint32_t>(d, h + 40), read_at<std::uint64_t>(d, h + 24),
                        read_at<std::uint64_t>(d, h + 32)});
  }
  const auto c_string = [&d](std::size_t at) { return std::string(d.c_str() + at); };
  const Section* info = nullptr;
  const Section* symtab = nullptr;
  for (const Section& s : sections) {
    const std::string name = c_string(sections[shstrndx].offset + s.name);
    if (name == ".nv.info") info = &s;
    if (name == ".symtab") symtab = &s;
  }
  if (!info || !symtab) return registers;
  const Section& strtab = sections[symtab->link];
  for (std::size_t at = info->offset; at + 4 <= info->offset + info->size;) {
    const auto format = static_cast<unsigned char>(d[at]);
    const auto attribute = static_cast<unsigned char>(d[at + 1]);
    const auto size = read_at<std::uint16_t>(d, at + 2);
    if (format == 0x04 && attribute == 0x2f && size == 8) {
      const auto symbol = read_at<std::uint32_t>(d, at + 4);
      const auto name = read_at<std::uint32_t>(d, symtab->offset + symbol * 24);
      registers[c_string(strtab.offset + name)] = static_cast<int>(read_at<std::uint32_t>(d, at + 8));
    }
    at += 4 + (format == 0x04 ? size : 0);
  }
  return registers;
}

// A scratch folder under the system's temporary one.
struct Scratch {
  Scratch() {
    std::string pattern = (fs::temp_directory_path() / "warpdiv-test-XXXXXX").string();
    path = mkdtemp(pattern.data());
  }
  ~Scratch() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
  std::string file(const std::string& name, const std::string& text = "") const {
    const std::string p = (fs::path(path) / name).string();
    if (!text.empty()) std::ofstream(p) << text;
    return p;
  }
  std::string path;
};

// Registers of every entry function, compiled by nvcc into a cubin (no -v).
std::map<std::string, int> cubin_registers(const std::string& source, const std::string& arch) {
  const Scratch scratch;
  const std::string cubin = scratch.file("k.cubin");
  const std::string command =
      std::string(kNvcc) + " -cubin -arch=" + arch + " -o '" + cubin + "' '" + source + "' > /dev/null 2>&1";
  if (std::system(command.c_str()) != 0) return {};
  return registers_from_cubin(cubin);
}

// Registers of every entry function, compiled by NVRTC (opened here by the test) into a cubin.
std::map<std::string, int> nvrtc_cubin_registers(const std::string& source, const std::string& arch) {
  void* lib = dlopen(kNvrtc, RTLD_NOW | RTLD_LOCAL);
  if (!lib) return {};
  // NVRTC opens its builtins by name; where the toolkit's folder is not on the loader's path
  // (a fresh machine, no ldconfig for it), the copy beside it, opened first, answers that name.
  dlopen(kNvrtcBuiltins, RTLD_NOW | RTLD_LOCAL);
  using Program = void*;
  const auto create = reinterpret_cast<int (*)(Program*, const char*, const char*, int, const char* const*,
                                               const char* const*)>(dlsym(lib, "nvrtcCreateProgram"));
  const auto compile =
      reinterpret_cast<int (*)(Program, int, const char* const*)>(dlsym(lib, "nvrtcCompileProgram"));
  const auto cubin_size = reinterpret_cast<int (*)(Program, std::size_t*)>(dlsym(lib, "nvrtcGetCUBINSize"));
  const auto cubin = reinterpret_cast<int (*)(Program, char*)>(dlsym(lib, "nvrtcGetCUBIN"));
  const auto destroy = reinterpret_cast<int (*)(Program*)>(dlsym(lib, "nvrtcDestroyProgram"));
  std::map<std::string, int> registers;
  std::ifstream in(source);
  std::ostringstream text;
  text << in.rdbuf();
  // NVRTC searches no folder by default: the toolkit's, for <cooperative_groups.h> (CUDA 13
  // keeps the libcu++ headers it includes under include/cccl).
  const std::string arch_option = "-arch=" + arch;
  const std::string include = "-I/usr/local/cuda/include";
  const std::string cccl = "-I/usr/local/cuda/include/cccl";
  const char* options[] = {arch_option.c_str(), include.c_str(), cccl.c_str()};
  Program program = nullptr;
  std::size_t size = 0;
  if (create && compile && cubin_size && cubin && destroy &&
      create(&program, text.str().c_str(), "k.cu", 0, nullptr, nullptr) == 0) {
    if (compile(program, 3, options) == 0 && cubin_size(program, &size) == 0) {
      std::string bytes(size, '\0');
      cubin(program, bytes.data());
      const Scratch scratch;
      std::ofstream(scratch.file("k.cubin"), std::ios::binary) << bytes;
      registers = registers_from_cubin(scratch.file("k.cubin"));
    }
    destroy(&program);
  }
  dlclose(lib);
  return registers;
}

// ---------------------------------------------------------------------------------------------

struct ZooKernel {
  const char* file;
  const char* mangled;  // as nvcc names the kernel
  std::int64_t shared;  // bytes, by hand
  int barriers;         // __syncthreads() calls in the kernel (one barrier, 0)
};

// Shared memory by hand: two TILE_WIDTH x TILE_WIDTH float tiles = 2*16*16*4; the reductions'
// partialSum[2*BLOCK_SIZE] floats = 2*256*4; the convolution's N_s[16][16] floats = 16*16*4.
const ZooKernel kZooKernels[] = {
    {"tiled_matmul.cu", "_Z15MatrixMulKernelPfS_S_i", 2 * 16 * 16 * 4, 1},
    {"tiled_matmul_barrier_in_guard.cu", "_Z15MatrixMulKernelPfS_S_i", 2 * 16 * 16 * 4, 1},
    {"reduction_interleaved.cu", "_Z6reducePfS_", 2 * 256 * 4, 1},
    {"reduction_contiguous.cu", "_Z6reducePfS_", 2 * 256 * 4, 1},
    {"convolution_2d.cu", "_Z27convolution_tiled_2D_kernelPfS_S_ii", 16 * 16 * 4, 1},
    {"naive_matmul.cu", "_Z15MatrixMulKernelPfS_S_i", 0, 0},
    {"image_blur.cu", "_Z10blurKernelPhS_ii", 0, 0},
    {"grid_stride_loop.cu", "_Z5saxpyifPfS_", 0, 0},
    {"early_return_3d.cu", "_Z12scale_volumePfiii", 0, 0},
    // Cooperative groups (NVRTC finds <cooperative_groups.h> in the toolkit's include folder):
    // the reduction's shared memory is extern (dynamic, 0 static); the transpose's padded tile
    // is 32 x 33 floats. Each syncs its block: one barrier.
    {"cg_reduction.cu", "_Z9reduce_cgPKiPij", 0, 1},
    {"tiled_transpose.cu", "_Z18transposeCoalescedPfPKfii", 32 * 33 * 4, 1},
};

void expect_zoo(CompilerChoice compiler, const char* tool) {
  for (const ZooKernel& k : kZooKernels)
    for (const auto& [major, arch] : {std::pair<int, const char*>{8, "sm_80"}, {9, "sm_90"}}) {
      SCOPED_TRACE(std::string(k.file) + " " + arch);
      CompileRequest request;
      request.file = kZoo + k.file;
      request.cc_major = major;
      request.compiler = compiler;
      const CompiledResources r = compile_resources(request);
      // nvcc and NVRTC generate different code (seen: reduction_interleaved 12 and 13 registers on
      // sm_80), so each is checked against a cubin of its own compiler.
      const std::map<std::string, int> elf = compiler == CompilerChoice::nvcc
                                                 ? cubin_registers(request.file, arch)
                                                 : nvrtc_cubin_registers(request.file, arch);
      ASSERT_EQ(elf.count(k.mangled), 1u) << "the cubin has no " << k.mangled;
      EXPECT_EQ(r.mangled, k.mangled);
      EXPECT_EQ(r.registers_per_thread, elf.at(k.mangled));
      EXPECT_EQ(r.static_shared_bytes, k.shared);
      EXPECT_EQ(r.barriers, k.barriers);
      EXPECT_EQ(r.local_bytes, 0);  // no local arrays, no spills in the zoo
      EXPECT_EQ(r.arch, arch);
      EXPECT_EQ(r.origin().rfind(tool, 0), 0u) << r.origin();
    }
}

bool have_nvcc() { return fs::exists(kNvcc); }

TEST(CompiledResources, ZooWithNvccMatchesTheCubinAndTheHandFigures) {
  if (!have_nvcc()) GTEST_SKIP() << kNvcc << " is absent: nothing to compile with";
  expect_zoo(CompilerChoice::nvcc, "nvcc ");
}

TEST(CompiledResources, ZooWithNvrtcMatchesItsCubinAndTheHandFigures) {
  if (!have_nvcc() || !fs::exists(kNvrtc)) GTEST_SKIP() << kNvcc << " or " << kNvrtc << " is absent";
  expect_zoo(CompilerChoice::nvrtc, "NVRTC ");
}

const char* const kTemplateFile =
    "#include <cstdio>\n"
    "template <int N> __global__ void red(float* x) {\n"
    "  __shared__ float s[2 * N];\n"
    "  s[threadIdx.x] = x[threadIdx.x];\n"
    "  __syncthreads();\n"
    "  x[threadIdx.x] = s[2 * N - 1 - threadIdx.x];\n"
    "}\n"
    "template __global__ void red<64>(float*);\n"
    "int main() { float* x; cudaMalloc(&x, 512); red<16><<<1, 32>>>(x); std::printf(\"ok\\n\"); "
    "}\n";

TEST(CompiledResources, TemplateInstantiationsByTheFrontEndsNames) {
  if (!have_nvcc()) GTEST_SKIP() << kNvcc << " is absent";
  const Scratch scratch;
  CompileRequest request;
  request.file = scratch.file("red.cu", kTemplateFile);
  request.kernel = "red<16>";  // instantiated by the launch in main()
  EXPECT_EQ(compile_resources(request).static_shared_bytes, 2 * 16 * 4);
  request.kernel = "red< 64 >";
  const CompiledResources r64 = compile_resources(request);
  EXPECT_EQ(r64.static_shared_bytes, 2 * 64 * 4);
  EXPECT_EQ(r64.kernel, "void red<64>(float*)");
  EXPECT_EQ(r64.registers_per_thread, cubin_registers(request.file, "sm_90").at("_Z3redILi64EEvPf"));
  request.kernel = "red<64U>";  // as Clang prints an unsigned argument; the demangler says 64u
  EXPECT_EQ(compile_resources(request).static_shared_bytes, 2 * 64 * 4);
  request.kernel = "red<32>";
  EXPECT_THROW(compile_resources(request), InvalidInput);  // not instantiated
  request.kernel.clear();
  try {
    compile_resources(request);
    ADD_FAILURE() << "two kernels and no name";
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find("red<64>"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("red<16>"), std::string::npos) << e.what();
  }
}

TEST(CompiledResources, FromAModelsText) {
  if (!have_nvcc()) GTEST_SKIP() << kNvcc << " is absent";
  // A model (as --model loads it) holds its file's text: compiled from that text, although the
  // file is not on disk. Two 8 x 8 float arrays: 2*8*8*4 bytes.
  sim::ir::Kernel kernel;
  kernel.name = "k";
  kernel.files.push_back(
      {"/nonexistent/k.cu",
       {"#define W 8", "__global__ void k(float* p) {", "  __shared__ float a[W][W], b[W][W];",
        "  a[threadIdx.y][threadIdx.x] = p[threadIdx.x];", "  __syncthreads();",
        "  b[threadIdx.x][threadIdx.y] = a[threadIdx.y][threadIdx.x];", "  __syncthreads();",
        "  p[threadIdx.x] = b[threadIdx.y][threadIdx.x];", "}"}});
  const CompileRequest request = compile_request(kernel, 8, 6);
  const CompiledResources r = compile_resources(request);
  EXPECT_EQ(r.static_shared_bytes, 2 * 8 * 8 * 4);
  EXPECT_EQ(r.arch, "sm_86");
  EXPECT_EQ(r.barriers, 1);  // both __syncthreads() use barrier 0
}

TEST(CompiledResources, MissingCompilerAndOldArchitecturesAreNoCompiler) {
  if (!have_nvcc()) GTEST_SKIP() << kNvcc << " is absent";
  CompileRequest request;
  request.file = kZoo + "naive_matmul.cu";
  request.cc_major = 3;
  request.cc_minor = 5;  // Kepler: CUDA 12 and 13 build nothing older than sm_50 / sm_75
  try {
    compile_resources(request);
    ADD_FAILURE() << "sm_35 compiled";
  } catch (const NoCompiler& e) {
    EXPECT_NE(std::string(e.what()).find("cannot compile for sm_35"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("--regs"), std::string::npos) << e.what();
  }
  request.cc_major = 9;
  request.cc_minor = 0;
  ::setenv("WARPDIV_NVCC", "/nonexistent/nvcc", 1);
  EXPECT_THROW(compile_resources(request), NoCompiler);
  ::unsetenv("WARPDIV_NVCC");
}

TEST(CompiledResources, CompileErrorsAreBadInput) {
  if (!have_nvcc()) GTEST_SKIP() << kNvcc << " is absent";
  const Scratch scratch;
  CompileRequest request;
  request.file = scratch.file("bad.cu", "__global__ void k() { undeclared = 1; }\n");
  try {
    compile_resources(request);
    ADD_FAILURE() << "compiled";
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find("undeclared"), std::string::npos) << e.what();
  }
}

// What the compiler read, so that no output replaces it: nvcc's own list, NVRTC's by the scan.
TEST(CompiledResources, TheHeadersTheCompilerReadAreListed) {
  if (!have_nvcc() || !fs::exists(kNvrtc)) GTEST_SKIP() << kNvcc << " or " << kNvrtc << " is absent";
  const Scratch scratch;
  fs::create_directory(fs::path(scratch.path) / "inc");
  const std::string sizes = scratch.file("sizes.h", "#define N 4\n");
  const std::string deep = scratch.file("inc/deep.h", "#include \"../sizes.h\"\n");
  scratch.file("unused.h", "#define UNUSED 1\n");  // named by no #include: not read
  CompileRequest request;
  request.file = scratch.file("k.cu", "#include <deep.h>\n__global__ void k(int* a) { a[0] = N; }\n");
  request.include_dirs = {scratch.path + "/inc"};
  for (const CompilerChoice compiler : {CompilerChoice::nvcc, CompilerChoice::nvrtc}) {
    request.compiler = compiler;
    const std::vector<std::string> read = compile_resources(request).files_read;
    std::vector<std::string> mine;  // nvcc's list has the toolkit's and the system's headers too
    for (const std::string& f : read)
      if (f.rfind(scratch.path, 0) == 0) mine.push_back(fs::path(f).lexically_normal().string());
    EXPECT_EQ(mine, (std::vector<std::string>{request.file, deep, sizes}))
        << (compiler == CompilerChoice::nvcc ? "nvcc" : "NVRTC");
  }
}

TEST(IncludedFiles, AnIncludeOfAFifoOrADeviceIsRefusedNamingIt) {
  const Scratch scratch;
  ASSERT_EQ(::mkfifo((fs::path(scratch.path) / "pipe.h").c_str(), 0600), 0);
  const std::string file = scratch.file("k.cu", "#include \"pipe.h\"\n");
  try {
    included_files(file, {});
    ADD_FAILURE() << "a FIFO was followed";
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()), file + ": #include \"pipe.h\" names " + scratch.path +
                                         "/pipe.h, which is not a regular file (a FIFO, a device or a "
                                         "socket: the compiler would wait on it or read it without end)");
  }
  const std::string zero = scratch.file("z.cu", "#include </dev/zero>\n");
  EXPECT_THROW(included_files(zero, {"/"}), InvalidInput);
}

// A TMPDIR that is not a folder is the user's to fix (exit 2), not a missing compiler (exit 3).
TEST(CompiledResources, ATemporaryFolderThatIsNotThereIsBadInput) {
  if (!have_nvcc()) GTEST_SKIP() << kNvcc << " is absent";
  const Scratch scratch;
  CompileRequest request;
  request.file = scratch.file("k.cu", "__global__ void k(int* a) { a[0] = 1; }\n");
  request.compiler = CompilerChoice::nvcc;
  const char* before = std::getenv("TMPDIR");
  const std::string kept = before != nullptr ? before : "";
  ::setenv("TMPDIR", "/nonexistent", 1);
  std::string message;
  try {
    compile_resources(request);
  } catch (const InvalidInput& e) {
    message = e.what();
  }
  if (before != nullptr)
    ::setenv("TMPDIR", kept.c_str(), 1);
  else
    ::unsetenv("TMPDIR");
  EXPECT_NE(message.find("cannot create the compile's temporary folder in '/nonexistent' (TMPDIR)"),
            std::string::npos)
      << message;
}

// An overloaded kernel named by its name alone is ambiguous: refused, listing the overloads.
TEST(CompiledResources, AnOverloadedNameIsRefusedListingTheSignatures) {
  if (!have_nvcc()) GTEST_SKIP() << kNvcc << " is absent";
  const Scratch scratch;
  CompileRequest request;
  request.file = scratch.file("ov.cu",
                              "__global__ void ov(int* a) { a[0] = 1; }\n"
                              "__global__ void ov(float* a) { a[0] = 1; }\n");
  request.kernel = "ov";
  try {
    compile_resources(request);
    ADD_FAILURE() << "an overload was chosen";
  } catch (const InvalidInput& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("kernel ov is overloaded in " + request.file), std::string::npos) << message;
    EXPECT_NE(message.find("ov(int*)"), std::string::npos) << message;
    EXPECT_NE(message.find("ov(float*)"), std::string::npos) << message;
  }
  request.kernel = "ov(float*)";
  EXPECT_EQ(compile_resources(request).kernel, "ov(float*)");
}

TEST(DependencyRule, PrerequisitesAsMakeWritesThem) {
  EXPECT_EQ(parse_dependency_rule("out.cubin : a.cu \\\n    /x/my\\ dir/b.h \\\n    c$$.h\n"),
            (std::vector<std::string>{"a.cu", "/x/my dir/b.h", "c$.h"}));
  EXPECT_EQ(parse_dependency_rule("t: a\\#b.h\n"), (std::vector<std::string>{"a#b.h"}));
  EXPECT_TRUE(parse_dependency_rule("").empty());
}

TEST(IncludedFiles, QuotedBesideTheFileThenInTheFoldersAngledInTheFoldersCyclesOnce) {
  const Scratch scratch;
  fs::create_directory(fs::path(scratch.path) / "inc");
  const std::string a = scratch.file("a.h", "#include \"b.h\"\n#include <stdio.h>\n");
  const std::string b = scratch.file("b.h", "  #  include \"a.h\"  // a cycle\n");
  const std::string c = scratch.file("inc/c.h", "int c;\n");
  scratch.file("c.h", "beside, but only quoted names are looked for there\n");
  const std::string file = scratch.file("k.cu", "#include \"a.h\"\n#include <c.h>\n#include \"gone.h\"\n");
  EXPECT_EQ(included_files(file, {scratch.path + "/inc"}), (std::vector<std::string>{file, a, c, b}));
}

// As the preprocessor reads the directives: a line splice, a comment before the `#`, the `%:`
// digraph, `#include` of an object-like macro defined as a name (also through another macro);
// an #include in a comment or a string is none. A FIFO named through a macro is refused too.
TEST(IncludedFiles, DirectivesAsThePreprocessorReadsThem) {
  const Scratch scratch;
  const std::string a = scratch.file("a.h", "int a;\n");
  const std::string b = scratch.file("b.h", "int b;\n");
  const std::string c = scratch.file("c.h", "int c;\n");
  const std::string d = scratch.file("d.h", "int d;\n");
  const std::string e = scratch.file("e.h", "int e;\n");
  scratch.file("no1.h", "");
  scratch.file("no2.h", "");
  const std::string file = scratch.file("k.cu",
                                        "#define H \"a.h\"\n#include H\n"
                                        "#include \\\n\"b.h\"\n"
                                        "/* a comment */ #include \"c.h\"\n"
                                        "%:include \"d.h\"\n"
                                        "#define E2 \"e.h\"\n#define E E2\n#include E\n"
                                        "// #include \"no1.h\"\n"
                                        "/*\n#include \"no1.h\"\n*/\n"
                                        "const char *s = \"#include \\\"no2.h\\\"\";\n");
  EXPECT_EQ(included_files(file, {}), (std::vector<std::string>{file, a, b, c, d, e}));
  ASSERT_EQ(::mkfifo((fs::path(scratch.path) / "pipe.h").c_str(), 0600), 0);
  const std::string fifo = scratch.file("f.cu", "#define P \"pipe.h\"\n#include P\n");
  EXPECT_THROW(included_files(fifo, {}), InvalidInput);
}

// Function-like macros (#x of a parameter, an argument that is a macro's use itself), empty macros
// around the name, and #include_next, which reads the next directory's file of the name (every
// such file is taken: the scan does not know which directory found the includer).
TEST(IncludedFiles, FunctionLikeAndEmptyMacrosAndIncludeNext) {
  const Scratch scratch;
  const std::string h = scratch.file("h.cuh", "int h;\n");
  const std::string g = scratch.file("g.cuh", "int g;\n");
  const std::string e = scratch.file("e.cuh", "int e;\n");
  fs::create_directories(fs::path(scratch.path) / "inc1");
  fs::create_directories(fs::path(scratch.path) / "inc2");
  const std::string first = scratch.file("inc1/n.cuh", "#include_next <n.cuh>\n");
  const std::string second = scratch.file("inc2/n.cuh", "int n;\n");
  const std::string file = scratch.file("k.cu",
                                        "#define STR(x) #x\n#include STR(h.cuh)\n"
                                        "#define Q( a ) # a\n#define G Q(g.cuh)\n#include G\n"
                                        "#define EMPTY\n#include EMPTY \"e.cuh\" EMPTY\n"
                                        "#include <n.cuh>\n");
  EXPECT_EQ(included_files(file, {scratch.path + "/inc1", scratch.path + "/inc2"}),
            (std::vector<std::string>{file, h, g, e, first, second}));
}

// What a macro the scan does not expand may include, by name: the two-level stringify, a -D
// value, a macro of an earlier header, a variadic macro, a header beside an included one or in
// a folder; names that are no file there are left out, and so is what the scan found itself.
TEST(MentionedFiles, EveryFileTheSourcesOrTheDefinesName) {
  const Scratch scratch;
  const std::string x = scratch.file("x.cuh", "int x;\n");
  const std::string d = scratch.file("d.cuh", "int d;\n");
  const std::string v = scratch.file("v.cuh", "int v;\n");
  fs::create_directories(fs::path(scratch.path) / "inc");
  const std::string h2 = scratch.file("inc/h2.cuh", "int h2;\n");
  const std::string earlier = scratch.file("earlier.h", "#define H2 h2.cuh\n");
  scratch.file("out.csv", "not named anywhere\n");
  const std::string file = scratch.file("k.cu",
                                        "#include \"earlier.h\"\n"
                                        "#define STR(x) #x\n#define XSTR(x) STR(x)\n#define NAME x.cuh\n"
                                        "#include XSTR(NAME)\n#include XSTR(H2)\n"
                                        "#define F(...) __VA_ARGS__\n#include F(\"v.cuh\")\n"
                                        "#include H\n"
                                        "float f = 1.0f; // threadIdx.x, gone.cuh\n");
  EXPECT_EQ(mentioned_files({file, earlier}, {scratch.path + "/inc"}, {"H=\"d.cuh\""}),
            (std::vector<std::string>{d, v, x, h2}));
}

// A figure of the report past what a GPU has (a compiler wrapper's, not ptxas's) is refused naming
// it and its range, not read wrapped or as an internal error.
TEST(PtxasReport, AFigurePastItsRangeIsRefused) {
  const std::string entry = "ptxas info    : Compiling entry function '_Z1kPi' for 'sm_90'\n";
  try {
    parse_ptxas_report(entry + "ptxas info    : Used 18446744073709551617 registers, used 0 barriers\n");
    ADD_FAILURE() << "not refused";
  } catch (const InvalidInput& e) {
    EXPECT_EQ(
        std::string(e.what()),
        "the compiler's report (ptxas -v) gives 18446744073709551617 registers per thread, outside 0 .. 255");
  }
  EXPECT_THROW(
      parse_ptxas_report(entry + "ptxas info    : Used 8 registers, 99999999999999999999 bytes smem\n"),
      InvalidInput);
}

// The report's wording, on text written here (as nvcc 13.0 and NVRTC 13.0 print it).
TEST(PtxasReport, ParsesEveryFigureOfEachEntry) {
  const std::string report =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function '_ZN2ns1kEPii' for 'sm_90'\n"
      "ptxas info    : Function properties for _ZN2ns1kEPii\n"
      "    160 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads\n"
      "ptxas info    : Used 32 registers, used 0 barriers, 160 bytes cumulative stack size\n"
      "ptxas info    : Compile time = 24.971 ms\n"
      "ptxas info    : Compiling entry function '_Z3redILi16EEvPf' for 'sm_90'\n"
      "ptxas info    : Function properties for _Z3redILi16EEvPf\n"
      "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 10 registers, used 1 barriers, 64 bytes smem, 360 bytes cmem[0]\n";
  const std::vector<CompiledResources> f = parse_ptxas_report(report);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].kernel, "ns::k(int*, int)");
  EXPECT_EQ(f[0].registers_per_thread, 32);
  EXPECT_EQ(f[0].local_bytes, 160);
  EXPECT_EQ(f[0].spill_store_bytes, 8);
  EXPECT_EQ(f[0].spill_load_bytes, 4);
  EXPECT_EQ(f[0].barriers, 0);
  EXPECT_EQ(f[0].static_shared_bytes, 0);
  EXPECT_EQ(f[1].mangled, "_Z3redILi16EEvPf");
  EXPECT_EQ(f[1].kernel, "void red<16>(float*)");
  EXPECT_EQ(f[1].registers_per_thread, 10);
  EXPECT_EQ(f[1].barriers, 1);
  EXPECT_EQ(f[1].static_shared_bytes, 64);
  EXPECT_TRUE(parse_ptxas_report("nvcc fatal : something\n").empty());
}

TEST(PtxasReport, FunctionNames) {
  EXPECT_EQ(function_name("void red<16>(float*)"), "red<16>");
  EXPECT_EQ(function_name("ns::k(int*, int)"), "ns::k");
  EXPECT_EQ(function_name("void ns::k<float, (char)3>(float*)"), "ns::k<float, (char)3>");
  EXPECT_EQ(function_name("MatrixMulKernel(float*, float*, float*, int)"), "MatrixMulKernel");
}

}  // namespace
}  // namespace warpdiv::kernels

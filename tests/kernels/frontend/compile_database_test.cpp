// What the front-end takes from a compilation database's command line (compile_database.hpp): the
// flags Clang can use, in order, by every spelling nvcc and gcc give them; written out by hand.
#include "kernels/frontend/compile_database.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <sys/stat.h>

#include "tests/kernels/source_dir.hpp"

namespace {

using warpdiv::frontend::detail::usable_arguments;
using Args = std::vector<std::string>;

TEST(CompileDatabase, TakesNvccsIncludesAndMacrosAndLeavesItsCodeGenerationOut) {
  // A CMake CUDA entry.
  const Args nvcc = {"/usr/local/cuda/bin/nvcc",
                     "-forward-unknown-to-host-compiler",
                     "-DFOO=1",
                     "-I/x",
                     "-isystem",
                     "/y",
                     "--generate-code=arch=compute_70,code=[compute_70,sm_70]",
                     "-x",
                     "cu",
                     "-c",
                     "k.cu",
                     "-o",
                     "k.o"};
  EXPECT_EQ(usable_arguments(nvcc, "/build"), (Args{"-DFOO=1", "-I/x", "-isystem/y"}));
}

TEST(CompileDatabase, LongFormsJoinedFormsAndRelativePaths) {
  const Args line = {"nvcc",
                     "--include-path",
                     "inc",
                     "--include-path=../up",
                     "--define-macro",
                     "A=2",
                     "--define-macro=B",
                     "--undefine-macro",
                     "C",
                     "--pre-include",
                     "pre.h",
                     "--system-include=sys",
                     "-iquote",
                     "q",
                     "-idirafter",
                     "/after",
                     "-std=c++14",
                     "--std",
                     "c++17",
                     "-Xcompiler",
                     "-DHOST_ONLY",
                     "-Xcompiler=-Wall",
                     "-O3",
                     "-ccbin",
                     "/usr/bin/g++",
                     "-U",
                     "D",
                     "-include",
                     "/abs.h",
                     "-Iinc2",
                     "-DE"};
  EXPECT_EQ(usable_arguments(line, "/b/build"),
            (Args{"-I/b/build/inc", "-I/b/up", "-DA=2", "-DB", "-UC", "-include", "/b/build/pre.h",
                  "-isystem/b/build/sys", "-iquote/b/build/q", "-idirafter/after", "-std=c++14", "-std=c++17",
                  "-UD", "-include", "/abs.h", "-I/b/build/inc2", "-DE"}));
}

class CompileDatabaseFiles : public warpdiv::testing::SourceDirTest {
 protected:
  CompileDatabaseFiles() : SourceDirTest("warpdiv_compile_database_") {}
};

TEST_F(CompileDatabaseFiles, ResponseFilesAreReadInPlace) {
  // CMake's CUDA entries name their include folders in a response file.
  write("CMakeFiles/includes_CUDA.rsp", "-I/p/include \"-I/p/with space\"\n-isystem /p/sys\n");
  write("more.rsp", "-DFROM_AT=1\n");
  const Args line = {"nvcc", "-DX=1", "--options-file", "CMakeFiles/includes_CUDA.rsp", "@more.rsp",
                     "-c",   "k.cu"};
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

/// The message of the InvalidInput that usable_arguments throws for `line` in `dir` ("" if none).
std::string refusal(const Args& line, const std::string& dir) {
  try {
    usable_arguments(line, dir);
  } catch (const warpdiv::InvalidInput& e) {
    return e.what();
  }
  return "";
}

TEST_F(CompileDatabaseFiles, ResponseFilesReadAreListedInTheOrderRead) {
  write("a.rsp", "-DA @b.rsp\n");
  write("b.rsp", "-DB\n");
  write("empty.rsp", "");
  Args files;
  EXPECT_EQ(usable_arguments({"nvcc", "@a.rsp", "-optf", "b.rsp", "@empty.rsp"}, dir_.string(), &files),
            (Args{"-DA", "-DB", "-DB"}));
  EXPECT_EQ(files, (Args{(dir_ / "a.rsp").string(), (dir_ / "b.rsp").string(), (dir_ / "b.rsp").string(),
                         (dir_ / "empty.rsp").string()}));
}

TEST_F(CompileDatabaseFiles, ACycleOfResponseFilesIsRefusedNamingTheFileThatComesBack) {
  write("a.rsp", "@b.rsp @b.rsp\n");
  write("b.rsp", "-DB @a.rsp\n");
  write("self.rsp", "@./self.rsp\n");
  EXPECT_EQ(refusal({"nvcc", "@a.rsp"}, dir_.string()),
            "the response file " + (dir_ / "a.rsp").string() +
                " of the compile command names itself (through the response files it names): a cycle");
  EXPECT_EQ(refusal({"nvcc", "@self.rsp"}, dir_.string()),
            "the response file " + (dir_ / "./self.rsp").string() +
                " of the compile command names itself (through the response files it names): a cycle");
  // The same file twice side by side is no cycle.
  write("twice.rsp", "@b2.rsp @b2.rsp\n");
  write("b2.rsp", "-DB2\n");
  EXPECT_EQ(usable_arguments({"nvcc", "@twice.rsp"}, dir_.string()), (Args{"-DB2", "-DB2"}));
}

TEST_F(CompileDatabaseFiles, ResponseFilesAreBoundedInDepthAndInBytesReadInAll) {
  // d0 .. d8 each name the next, d9 names none. From d2: 8 files, d2 .. d9, accepted; from d0 the
  // ninth file, d8, is one level too deep.
  for (int i = 0; i < 9; ++i)
    write("d" + std::to_string(i) + ".rsp", "@d" + std::to_string(i + 1) + ".rsp\n");
  write("d9.rsp", "-DDEEP\n");
  EXPECT_EQ(usable_arguments({"nvcc", "@d2.rsp"}, dir_.string()), (Args{"-DDEEP"}));
  EXPECT_EQ(refusal({"nvcc", "@d0.rsp"}, dir_.string()),
            "the response file " + (dir_ / "d8.rsp").string() +
                " of the compile command nests response files more than 8 deep");
  // 1 MiB read 4 times is 4 MiB, the limit; a fifth reading passes it.
  write("big.rsp", "-DBIG=" + std::string((1 << 20) - 7, 'x') + "\n");
  EXPECT_EQ(refusal({"nvcc", "@big.rsp", "@big.rsp", "@big.rsp", "@big.rsp"}, dir_.string()), "");
  EXPECT_EQ(refusal({"nvcc", "@big.rsp", "@big.rsp", "@big.rsp", "@big.rsp", "@big.rsp"}, dir_.string()),
            "the response file " + (dir_ / "big.rsp").string() +
                " of the compile command takes the response files read past 4 MiB in all");
}

TEST_F(CompileDatabaseFiles, AFifoIsRefusedAsAResponseFileAndAsAnIncludeFile) {
  ASSERT_EQ(::mkfifo((dir_ / "fifo").c_str(), 0600), 0);
  EXPECT_EQ(refusal({"nvcc", "@fifo"}, dir_.string()),
            "the response file " + (dir_ / "fifo").string() +
                " of the compile command is not a regular file (a FIFO, a folder or a device); give a file");
  EXPECT_EQ(refusal({"nvcc", "-include", "fifo"}, dir_.string()),
            "-include " + (dir_ / "fifo").string() +
                " of the compile command is not a regular file (a FIFO, a folder or a device); give a file");
  // An -include file that is not there is Clang's to report (its fatal error names it).
  EXPECT_EQ(usable_arguments({"nvcc", "-include", "missing.h"}, dir_.string()),
            (Args{"-include", (dir_ / "missing.h").string()}));
}

TEST_F(CompileDatabaseFiles, AResponseFileThatIsNotCleanTextOrAnAtWithNoNameIsRefused) {
  // A quote opened on line 2 and never closed (Clang's reader would take the rest of the file as
  // one word and say nothing).
  write("unterminated.rsp", "-DX=5\n-DY=1 \"-DZ\n-DW\n");
  EXPECT_EQ(refusal({"nvcc", "@unterminated.rsp"}, dir_.string()),
            "the response file " + (dir_ / "unterminated.rsp").string() +
                " of the compile command: the quote (\") opened on line 2 is not closed");
  write("single.rsp", "'-DA\n");
  EXPECT_EQ(refusal({"nvcc", "--options-file", "single.rsp"}, dir_.string()),
            "the response file " + (dir_ / "single.rsp").string() +
                " of the compile command: the quote (') opened on line 1 is not closed");
  // A quote closed, an escaped quote, a quote inside the other kind: all clean.
  write("clean.rsp", "\"-DA=1\" -DB=\\\" '-DC=\"'\n");
  EXPECT_EQ(usable_arguments({"nvcc", "@clean.rsp"}, dir_.string()), (Args{"-DA=1", "-DB=\"", "-DC=\""}));
  // A NUL byte on line 2 (Clang's reader would drop what follows it).
  write("nul.rsp", std::string("-DX=5\n-DY\0-DX=7\n", 16));
  EXPECT_EQ(refusal({"nvcc", "@nul.rsp"}, dir_.string()),
            "the response file " + (dir_ / "nul.rsp").string() +
                " of the compile command: line 2 holds a NUL byte (a response file is text)");
  // '@' alone, or --options-file last: no file named.
  EXPECT_EQ(refusal({"nvcc", "@", "-c", "k.cu"}, dir_.string()),
            "the compile command gives '@' with no response file's name after it");
  EXPECT_EQ(refusal({"nvcc", "-c", "k.cu", "--options-file"}, dir_.string()),
            "the compile command ends with --options-file, which needs a response file's name");
  write("at.rsp", "-DA @\n");
  EXPECT_EQ(refusal({"nvcc", "@at.rsp"}, dir_.string()),
            "the response file " + (dir_ / "at.rsp").string() +
                " of the compile command gives '@' with no response file's name after it");
}

// An argument that is only an empty quote, which nvcc keeps (an empty -I folder) and LLVM's reader
// drops (the -I would take -DFAST), is refused with its line; quotes inside an argument are not.
TEST_F(CompileDatabaseFiles, AnEmptyQuotedArgumentInAResponseFileIsRefused) {
  write("e.rsp", "-DA\n-I \"\" -DFAST\n");
  EXPECT_EQ(
      refusal({"nvcc", "--options-file", "e.rsp"}, dir_.string()),
      "the response file " + (dir_ / "e.rsp").string() +
          " of the compile command: line 2 gives an empty argument (\"\"), which Clang would drop: give the "
          "value");
  write("s.rsp", "-I\n''\n");
  EXPECT_EQ(refusal({"nvcc", "@s.rsp"}, dir_.string()),
            "the response file " + (dir_ / "s.rsp").string() +
                " of the compile command: line 2 gives an empty argument (''), which Clang would drop: give "
                "the value");
  write("q.rsp", "-DA=\"\" -DB=''x -I\"\"inc\n");
  EXPECT_EQ(refusal({"nvcc", "@q.rsp"}, dir_.string()), "");
}

/// The message of the InvalidInput that database_arguments throws for dir_'s database ("" if none).
std::string database_refusal(const std::string& dir) {
  try {
    warpdiv::frontend::detail::database_arguments(dir, dir + "/k.cu");
  } catch (const warpdiv::InvalidInput& e) {
    return e.what();
  }
  return "";
}

// The database is JSON and read as strictly: one line naming the file, the line and the column;
// a key given twice (Clang's reader keeps one) refused; a FIFO said to be one, not missing.
TEST_F(CompileDatabaseFiles, AMalformedDatabaseIsOneLineNamingItsLineAndColumn) {
  const std::string db = (dir_ / "compile_commands.json").string();
  const std::string entry = "[{\"directory\": \"" + dir_.string() + "\", \"file\": \"k.cu\", ";
  write("compile_commands.json", entry + "\"command\": \"nvcc -DA -c k.cu\"}]\n");
  EXPECT_EQ(database_refusal(dir_.string()), "");
  write("compile_commands.json",
        entry + "\"command\": \"nvcc -DA -c k.cu\", \"command\": \"nvcc -c k.cu\"}]\n");
  EXPECT_EQ(database_refusal(dir_.string()),
            db + ": not a JSON compilation database: the key 'command' appears twice in the object at /0 "
                 "(each key at most once)");
  // Cut inside the command's string on line 2: "\"command\": \"nvcc -I" is 19 bytes, so the
  // closing quote is missing at line 2, column 20, where the text ends.
  write("compile_commands.json", entry + "\n\"command\": \"nvcc -I");
  const std::string truncated = database_refusal(dir_.string());
  EXPECT_EQ(truncated.rfind(db + ":2:20: not a JSON compilation database: syntax error while parsing value - "
                                 "invalid string: missing closing quote",
                            0),
            0u)
      << truncated;
  EXPECT_EQ(truncated.find('\n'), std::string::npos) << truncated;
  std::filesystem::remove(dir_ / "compile_commands.json");
  ASSERT_EQ(::mkfifo(db.c_str(), 0600), 0);
  EXPECT_EQ(database_refusal(dir_.string()),
            db + " is not a regular file (a FIFO, a folder or a device); -p needs a build folder whose "
                 "compile_commands.json is a file");
}

// nvcc takes an empty value as given (`-I ""` an empty folder, then -DFAST a define); Clang
// would read the flag after it as the value. Refused, named with the database and the entry.
TEST_F(CompileDatabaseFiles, AnEmptyValueOfAFlagIsRefusedNamingTheEntry) {
  const std::string db = (dir_ / "compile_commands.json").string();
  const std::string entry = "[{\"directory\": \"" + dir_.string() + "\", \"file\": \"k.cu\", ";
  for (const std::string flag : {"-I", "-isystem", "-D", "-include"}) {
    SCOPED_TRACE(flag);
    write("compile_commands.json",
          entry + "\"arguments\": [\"nvcc\", \"" + flag + "\", \"\", \"-DFAST\", \"-c\", \"k.cu\"]}]\n");
    EXPECT_EQ(database_refusal(dir_.string()), db + ", the entry for " + (dir_ / "k.cu").string() +
                                                   ": the compile command gives " + flag +
                                                   " an empty value (give a folder, a name or a value)");
  }
  write("compile_commands.json", entry + "\"arguments\": [\"nvcc\", \"-I\", \"inc\", \"-c\", \"k.cu\"]}]\n");
  EXPECT_EQ(database_refusal(dir_.string()), "");
}

// JSON's \u0000 puts a NUL into an argument or the directory; no command line can carry one (Clang
// would read "-Iinc\0zz" as -Iinc, "-DFAST\0=1" as -DFAST, "@r.rsp\0x" as @r.rsp): refused,
// named with the database and the entry, in the "arguments" and the "command" forms alike.
TEST_F(CompileDatabaseFiles, ANulInAnArgumentOrTheDirectoryIsRefusedNamingTheEntry) {
  const std::string db = (dir_ / "compile_commands.json").string();
  const std::string entry = "[{\"directory\": \"" + dir_.string() + "\", \"file\": \"k.cu\", ";
  const std::string named = db + ", the entry for " + (dir_ / "k.cu").string() + ": the compile command's ";
  write("r.rsp", "-DFAST\n");
  for (const std::string word : {"-Iinc\\u0000zz", "-DFAST\\u0000=1", "@r.rsp\\u0000x"}) {
    SCOPED_TRACE(word);
    std::string shown = word;
    shown.replace(shown.find("\\u0000"), 6, "\\x00");  // as one-line messages write a control byte
    write("compile_commands.json",
          entry + "\"arguments\": [\"nvcc\", \"" + word + "\", \"-c\", \"k.cu\"]}]\n");
    EXPECT_EQ(
        database_refusal(dir_.string()),
        named + "argument '" + shown + "' holds a NUL character (\\u0000), which no command line can carry");
    write("compile_commands.json", entry + "\"command\": \"nvcc " + word + " -c k.cu\"}]\n");
    EXPECT_EQ(
        database_refusal(dir_.string()),
        named + "argument '" + shown + "' holds a NUL character (\\u0000), which no command line can carry");
  }
  write("compile_commands.json", "[{\"directory\": \"" + dir_.string() + "\\u0000x\", \"file\": \"" +
                                     (dir_ / "k.cu").string() +
                                     "\", \"arguments\": [\"nvcc\", \"-c\", \"k.cu\"]}]\n");
  const std::string directory = database_refusal(dir_.string());  // a long value is shown cut
  EXPECT_EQ(directory.rfind(named + "directory '", 0), 0u) << directory;
  const std::string tail = "holds a NUL character (\\u0000), which no folder name can hold";
  EXPECT_EQ(directory.substr(directory.size() - std::min(directory.size(), tail.size())), tail);
  write("compile_commands.json",
        entry + "\"arguments\": [\"nvcc\", \"-Iinc\", \"@r.rsp\", \"-c\", \"k.cu\"]}]\n");
  EXPECT_EQ(database_refusal(dir_.string()), "");
}

// Valid JSON of another shape is named with the entry and the key at fault, as Clang's reader
// would refuse it but without its place (Clang says only "Expected array." or "Unknown key").
TEST_F(CompileDatabaseFiles, ADatabaseOfAnotherShapeNamesTheEntryAndTheKey) {
  const std::string db = (dir_ / "compile_commands.json").string();
  const std::string start = db + ": not a JSON compilation database: ";
  const std::string ok =
      "{\"directory\": \"" + dir_.string() + "\", \"file\": \"k.cu\", \"command\": \"nvcc -c k.cu\"}";
  const auto refusal_of = [&](const std::string& text) {
    write("compile_commands.json", text);
    return database_refusal(dir_.string());
  };
  EXPECT_EQ(refusal_of("[" + ok + "]"), "");
  EXPECT_EQ(refusal_of("{\"a\": 1}"), start + "the top level is an object, not an array of entries");
  EXPECT_EQ(refusal_of("[" + ok + ", 7]"), start + "entry 2 (at /1) is a number, not an object");
  EXPECT_EQ(refusal_of("[{\"directory\": 3, \"file\": \"k.cu\", \"command\": \"x\"}]"),
            start + "entry 1 (at /0) \"directory\" is a number, not a string");
  EXPECT_EQ(refusal_of("[{\"directory\": \"/\", \"file\": \"k.cu\"}]"),
            start + "entry 1 (at /0) has neither \"command\" nor \"arguments\"");
  EXPECT_EQ(refusal_of("[{\"directory\": \"/\", \"file\": \"k.cu\", \"arguments\": [\"nvcc\", 2]}]"),
            start + "entry 1 (at /0) \"arguments\" holds a number, not only strings");
  EXPECT_EQ(refusal_of("[{\"directory\": \"/\", \"file\": \"k.cu\", \"command\": \"x\", \"extra\": 1}]"),
            start +
                "entry 1 (at /0) has the key 'extra' (the keys are directory, file, command, arguments and "
                "output)");
  EXPECT_EQ(refusal_of("[{\"file\": \"k.cu\", \"command\": \"x\"}]"),
            start + "entry 1 (at /0) has no \"directory\"");
}

// A file two targets build has two entries: read once when they agree on the flags the front-end
// takes (-o and -O3 are not among them), refused naming both when they do not (-DX=1, -DX=40).
TEST_F(CompileDatabaseFiles, TwoEntriesForOneFileMustAgreeOnTheFlagsTaken) {
  const std::string db = (dir_ / "compile_commands.json").string();
  const auto entry = [&](const std::string& command) {
    return "{\"directory\": \"" + dir_.string() + "\", \"file\": \"k.cu\", \"command\": \"" + command + "\"}";
  };
  write("compile_commands.json",
        "[" + entry("nvcc -DX=1 -c k.cu -o a.o") + ", " + entry("nvcc -DX=1 -O3 -c k.cu -o b.o") + "]");
  EXPECT_EQ(database_refusal(dir_.string()), "");
  write("compile_commands.json",
        "[" + entry("nvcc -DX=1 -c k.cu") + ", " + entry("nvcc -DX=40 -c k.cu") + "]");
  EXPECT_EQ(database_refusal(dir_.string()),
            db + " has 2 entries for " + (dir_ / "k.cu").string() +
                " whose flags differ ('nvcc -DX=1 -c k.cu' and 'nvcc -DX=40 -c k.cu'): which build to read "
                "cannot be told; give its flags (-D, -I, -include) instead of -p");
}

}  // namespace

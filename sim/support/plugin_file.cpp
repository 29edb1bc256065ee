#include "sim/support/plugin_file.hpp"

#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace warpdiv::sim {
namespace {

#if defined(__x86_64__)
constexpr int kMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr int kMachine = EM_AARCH64;
#elif defined(__powerpc64__)
constexpr int kMachine = EM_PPC64;
#else
constexpr int kMachine = -1;  // not checked
#endif

/// Reads `size` bytes at `offset` in full; false when the file holds fewer.
bool read_at(int fd, void* data, std::size_t size, std::uint64_t offset) {
  auto* bytes = static_cast<char*>(data);
  while (size > 0) {
    const ssize_t got = ::pread(fd, bytes, size, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    bytes += got;
    size -= static_cast<std::size_t>(got);
    offset += static_cast<std::uint64_t>(got);
  }
  return true;
}

/// True when [offset, offset + count * entry) lies within `file_size`, without overflow.
bool within(std::uint64_t offset, std::uint64_t count, std::uint64_t entry, std::uint64_t file_size) {
  if (offset > file_size) return false;
  return entry == 0 || count <= (file_size - offset) / entry;
}

/// The problem with the ELF image in `fd` of `size` bytes, or "".
std::string elf_problem(int fd, std::uint64_t size) {
  Elf64_Ehdr header{};
  if (size < sizeof header || !read_at(fd, &header, sizeof header, 0) ||
      std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0)
    return "it is not an ELF shared object";
  const bool little = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
  if (header.e_ident[EI_CLASS] != ELFCLASS64 ||
      header.e_ident[EI_DATA] != (little ? ELFDATA2LSB : ELFDATA2MSB) ||
      (kMachine >= 0 && header.e_machine != kMachine))
    return "it is an ELF file for another machine";
  if (header.e_type != ET_DYN) return "it is an ELF file but not a shared object";
  if (header.e_phentsize != sizeof(Elf64_Phdr) || header.e_phnum == 0 ||
      !within(header.e_phoff, header.e_phnum, sizeof(Elf64_Phdr), size))
    return "its program headers lie outside its " + std::to_string(size) + " bytes (truncated?)";
  // The section headers come last in a linked file: a truncated one loses them first.
  if (header.e_shnum != 0 && (header.e_shentsize != sizeof(Elf64_Shdr) ||
                              !within(header.e_shoff, header.e_shnum, sizeof(Elf64_Shdr), size)))
    return "its section headers lie outside its " + std::to_string(size) + " bytes (truncated?)";
  std::vector<Elf64_Phdr> segments(header.e_phnum);
  if (!read_at(fd, segments.data(), segments.size() * sizeof(Elf64_Phdr), header.e_phoff))
    return "its program headers cannot be read";
  for (const Elf64_Phdr& segment : segments)
    if (!within(segment.p_offset, segment.p_filesz, 1, size))
      return "a segment lies past its end (it is " + std::to_string(size) + " bytes; truncated?)";
  std::vector<Elf64_Shdr> sections(header.e_shnum);
  if (!read_at(fd, sections.data(), sections.size() * sizeof(Elf64_Shdr), header.e_shoff))
    return "its section headers cannot be read";
  for (const Elf64_Shdr& section : sections)
    if (section.sh_type != SHT_NOBITS && !within(section.sh_offset, section.sh_size, 1, size))
      return "a section lies past its end (it is " + std::to_string(size) + " bytes; truncated?)";
  return "";
}

}  // namespace

std::string plugin_file_problem(const std::string& path) {
  // Without blocking: opening a FIFO for reading returns at once instead of waiting for a writer.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return std::string("it cannot be opened: ") + std::strerror(errno);
  struct stat info {};
  std::string problem;
  if (::fstat(fd, &info) != 0) {
    problem = std::string("it cannot be read: ") + std::strerror(errno);
  } else if (!S_ISREG(info.st_mode)) {
    problem = "it is not a regular file (a FIFO, a device, a socket or a folder)";
  } else if (static_cast<std::uint64_t>(info.st_size) > kMaxPluginBytes) {
    problem = "it is " + std::to_string(info.st_size) + " bytes, above the " +
              std::to_string(kMaxPluginBytes >> 20) + " MiB a plugin may have";
  } else {
    problem = elf_problem(fd, static_cast<std::uint64_t>(info.st_size));
  }
  ::close(fd);
  return problem;
}

}  // namespace warpdiv::sim

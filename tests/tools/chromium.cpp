#include "tests/tools/chromium.hpp"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include <png.h>
#include <sys/wait.h>

#include "tests/tools/cli_runner.hpp"

namespace warpdiv::testing {

namespace fs = std::filesystem;

namespace {

// Per run, seconds: a first start on a cold machine takes a few seconds; a hang must not stall CI.
constexpr int kTimeoutSeconds = 90;

std::string on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  if (!path) return "";
  std::string folders = path;
  std::size_t start = 0;
  while (start <= folders.size()) {
    const std::size_t end = std::min(folders.find(':', start), folders.size());
    const fs::path candidate = fs::path(folders.substr(start, end - start)) / name;
    std::error_code error;
    if (fs::is_regular_file(candidate, error) &&
        (fs::status(candidate, error).permissions() & fs::perms::owner_exec) != fs::perms::none)
      return candidate.string();
    start = end + 1;
  }
  return "";
}

// Runs Chromium on `html_file` with `mode` (--dump-dom or --screenshot=...) in a fresh profile,
// offline, under a time limit. Returns stdout; throws with stderr on failure.
std::string run_chromium(const std::string& chromium, const std::string& html_file,
                         const std::string& mode) {
  TempDir scratch;
  const std::string profile = scratch.file("profile");
  fs::create_directory(profile);
  const std::string url = "file://" + fs::absolute(html_file).string();
  // HOME and XDG folders point into the scratch folder so nothing outside it is written.
  std::string command = "env HOME=" + shell_quote(scratch.path()) +
                        " XDG_CONFIG_HOME=" + shell_quote(scratch.path()) +
                        " XDG_CACHE_HOME=" + shell_quote(scratch.path()) + " timeout -k 5 " +
                        std::to_string(kTimeoutSeconds) + " " + shell_quote(chromium) +
                        " --headless --no-sandbox --disable-gpu --disable-background-networking"
                        " --disable-component-update --disable-sync --no-first-run --disable-quic"
                        " --disable-dev-shm-usage --hide-scrollbars --user-data-dir=" +
                        shell_quote(profile) + " " + mode + " " + shell_quote(url) + " >" +
                        shell_quote(scratch.file("out")) + " 2>" +
                        shell_quote(scratch.file("err")) + " </dev/null";
  const int raw = std::system(command.c_str());
  const int status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  if (status != 0) {
    throw std::runtime_error("chromium exited with status " + std::to_string(status) +
                             (status == 124 ? " (timed out)" : "") + ":\n" +
                             read_file(scratch.file("err")));
  }
  return read_file(scratch.file("out"));
}

}  // namespace

std::string find_chromium() {
  if (const char* forced = std::getenv("WARPDIV_CHROMIUM"); forced && *forced) return forced;
  for (const char* name : {"chromium", "chromium-browser"}) {
    const std::string found = on_path(name);
    if (!found.empty()) return found;
  }
  return "";
}

std::string chromium_dump_dom(const std::string& chromium, const std::string& html_file) {
  return run_chromium(chromium, html_file, "--dump-dom");
}

void chromium_screenshot(const std::string& chromium, const std::string& html_file,
                         const std::string& png_file, int width, int height) {
  run_chromium(chromium, html_file,
               "--screenshot=" + shell_quote(fs::absolute(png_file).string()) +
                   " --window-size=" + std::to_string(width) + "," + std::to_string(height));
  if (!fs::exists(png_file)) throw std::runtime_error("chromium wrote no screenshot");
}

Rgb parse_colour(const std::string& hex) {
  if (hex.size() != 7 || hex[0] != '#') throw std::invalid_argument("not #RRGGBB: " + hex);
  const auto byte = [&](std::size_t at) {
    return static_cast<std::uint8_t>(std::stoi(hex.substr(at, 2), nullptr, 16));
  };
  return {byte(1), byte(3), byte(5)};
}

std::size_t Image::count(Rgb colour, int tolerance) const {
  const auto near = [tolerance](std::uint8_t a, std::uint8_t b) {
    return std::abs(int{a} - int{b}) <= tolerance;
  };
  std::size_t n = 0;
  for (std::size_t i = 0; i + 2 < rgb.size(); i += 3)
    if (near(rgb[i], colour.r) && near(rgb[i + 1], colour.g) && near(rgb[i + 2], colour.b)) ++n;
  return n;
}

std::size_t Image::non_white() const {
  std::size_t n = 0;
  for (std::size_t i = 0; i + 2 < rgb.size(); i += 3)
    if (rgb[i] < 250 || rgb[i + 1] < 250 || rgb[i + 2] < 250) ++n;
  return n;
}

Image read_png(const std::string& path) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, path.c_str()))
    throw std::runtime_error("not a PNG file: " + path + " (" + image.message + ")");
  image.format = PNG_FORMAT_RGB;
  Image result;
  result.width = static_cast<int>(image.width);
  result.height = static_cast<int>(image.height);
  result.rgb.resize(PNG_IMAGE_SIZE(image));
  const png_color white{255, 255, 255};  // under any transparent pixel, as a browser shows it
  if (!png_image_finish_read(&image, &white, result.rgb.data(), 0, nullptr)) {
    const std::string message = image.message;
    png_image_free(&image);
    throw std::runtime_error("cannot decode " + path + ": " + message);
  }
  return result;
}

}  // namespace warpdiv::testing

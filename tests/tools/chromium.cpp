#include "tests/tools/chromium.hpp"

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <utility>

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
std::string run_chromium(const std::string& chromium, const std::string& html_file, const std::string& mode) {
  TempDir scratch;
  const std::string profile = scratch.file("profile");
  fs::create_directory(profile);
  const std::string url = "file://" + fs::absolute(html_file).string();
  // HOME and XDG folders point into the scratch folder so nothing outside it is written.
  std::string command =
      "env HOME=" + shell_quote(scratch.path()) + " XDG_CONFIG_HOME=" + shell_quote(scratch.path()) +
      " XDG_CACHE_HOME=" + shell_quote(scratch.path()) + " timeout -k 5 " + std::to_string(kTimeoutSeconds) +
      " " + shell_quote(chromium) +
      " --headless --no-sandbox --disable-gpu --disable-background-networking"
      " --disable-component-update --disable-sync --no-first-run --disable-quic"
      " --disable-dev-shm-usage --hide-scrollbars --user-data-dir=" +
      shell_quote(profile) + " " + mode + " " + shell_quote(url) + " >" + shell_quote(scratch.file("out")) +
      " 2>" + shell_quote(scratch.file("err")) + " </dev/null";
  const int raw = std::system(command.c_str());
  const int status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  if (status != 0) {
    throw std::runtime_error("chromium exited with status " + std::to_string(status) +
                             (status == 124 ? " (timed out)" : "") + ":\n" + read_file(scratch.file("err")));
  }
  return read_file(scratch.file("out"));
}

// Measures the page after it is laid out and appends what it found as <pre id="layout-probe">:
// "window W", "checked N", one line per problem, "end". Boxes closer than 1 px count as touching.
constexpr const char* kLayoutProbe = R"js(
(function () {
  var tolerance = 1;
  var problems = [];
  var width = window.innerWidth;
  var page = document.documentElement;
  if (page.scrollWidth > width + tolerance)
    problems.push('the page is wider than the window: ' + page.scrollWidth + ' px > ' + width +
                  ' px');
  function name(e) {
    var text = (e.textContent || '').trim().replace(/\s+/g, ' ');
    if (text.length > 40) text = text.slice(0, 40) + '...';
    return '<' + e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + '> "' + text + '"';
  }
  function shown(e) {
    // Not drawn: inside a closed <details> (content-visibility: hidden) or display: none.
    if (e.checkVisibility && !e.checkVisibility()) return null;
    var r = e.getBoundingClientRect();
    var box = {left: r.left, top: r.top, right: r.right, bottom: r.bottom};
    for (var a = e.parentElement; a; a = a.parentElement) {
      var s = getComputedStyle(a);
      if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
      var c = a.getBoundingClientRect();
      box.left = Math.max(box.left, c.left); box.top = Math.max(box.top, c.top);
      box.right = Math.min(box.right, c.right); box.bottom = Math.min(box.bottom, c.bottom);
    }
    return box.right - box.left > tolerance && box.bottom - box.top > tolerance ? box : null;
  }
  var items = [];
  document.querySelectorAll('h1,h2,h3,p,figcaption,th,td,summary,footer,.legend>span,svg text')
      .forEach(function (e) { var box = shown(e); if (box) items.push({e: e, box: box}); });
  for (var i = 0; i < items.length; ++i) {
    var a = items[i];
    if (a.e.ownerSVGElement) {
      var svg = a.e.ownerSVGElement.getBoundingClientRect(), r = a.e.getBoundingClientRect();
      if (r.left < svg.left - tolerance || r.right > svg.right + tolerance ||
          r.top < svg.top - tolerance || r.bottom > svg.bottom + tolerance)
        problems.push('label outside its figure: ' + name(a.e));
    }
    for (var j = i + 1; j < items.length; ++j) {
      var b = items[j];
      if (a.e.contains(b.e) || b.e.contains(a.e)) continue;
      if (Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left) > tolerance &&
          Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top) > tolerance)
        problems.push('overlap: ' + name(a.e) + ' and ' + name(b.e));
    }
  }
  // From 1,400 px on, every figure of the annotated source (#source's cells but the source
  // text) must be in view, not scrolled out of its box.
  if (width >= 1400)
    document.querySelectorAll('#source th:not(.src),#source td:not(.src)').forEach(function (e) {
      var box = shown(e), r = e.getBoundingClientRect();
      if (r.width > tolerance && (!box || box.right < r.right - tolerance))
        problems.push('cut off: ' + name(e));
    });
  var report = document.createElement('pre');
  report.id = 'layout-probe';
  report.textContent = 'window ' + width + '\nchecked ' + items.length + '\n' +
                       problems.join('\n') + '\nend\n';
  document.body.appendChild(report);
})();
)js";

std::string html_unescape(std::string text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    bool replaced = false;
    for (const auto& [entity, c] : {std::pair<const char*, char>{"&lt;", '<'},
                                    {"&gt;", '>'},
                                    {"&quot;", '"'},
                                    {"&nbsp;", ' '},
                                    {"&amp;", '&'}}) {
      const std::string e = entity;
      if (text.compare(i, e.size(), e) == 0) {
        out += c;
        i += e.size() - 1;
        replaced = true;
        break;
      }
    }
    if (!replaced) out += text[i];
  }
  return out;
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

LayoutCheck chromium_layout_check(const std::string& chromium, const std::string& html_file, int width) {
  std::string page = read_file(html_file);
  const auto body_end = page.rfind("</body>");
  if (body_end == std::string::npos) throw std::runtime_error("no </body> in " + html_file);
  page.insert(body_end, std::string("<script>") + kLayoutProbe + "</script>");
  TempDir scratch;
  const std::string probe_page = scratch.file("probe.html");
  write_file(probe_page, page);
  const std::string dom =
      run_chromium(chromium, probe_page, "--window-size=" + std::to_string(width) + ",1000 --dump-dom");
  const std::string open = "<pre id=\"layout-probe\">";
  const auto start = dom.find(open);
  const auto stop = dom.find("</pre>", start);
  if (start == std::string::npos || stop == std::string::npos)
    throw std::runtime_error("the layout probe did not run on " + html_file);
  LayoutCheck check;
  std::istringstream lines(html_unescape(dom.substr(start + open.size(), stop - start - open.size())));
  bool ended = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("window ", 0) == 0) {
      check.window_width = std::stoi(line.substr(7));
    } else if (line.rfind("checked ", 0) == 0) {
      check.checked = std::stoi(line.substr(8));
    } else if (line == "end") {
      ended = true;
    } else if (!line.empty()) {
      check.problems.push_back(line);
    }
  }
  if (!ended) throw std::runtime_error("the layout probe stopped early on " + html_file);
  return check;
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

// Headless Chromium for the browser tests: find it, dump a page's DOM, measure its layout, take a
// screenshot, and read the screenshot's pixels back (libpng).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace warpdiv::testing {

/// WARPDIV_CHROMIUM if set, else `chromium` or `chromium-browser` on PATH; "" when there is none.
std::string find_chromium();

/// The DOM after the page loaded (--dump-dom). Throws std::runtime_error (with Chromium's log)
/// when Chromium fails or runs past its time limit.
std::string chromium_dump_dom(const std::string& chromium, const std::string& html_file);

/// A screenshot of the first width x height pixels of the page (--screenshot).
void chromium_screenshot(const std::string& chromium, const std::string& html_file,
                         const std::string& png_file, int width, int height);

/// What the layout check found on a page rendered at one window width.
struct LayoutCheck {
  int window_width = 0;               // px, as the page saw it (window.innerWidth)
  int checked = 0;                    // text boxes compared (headings, paragraphs, cells, captions, labels)
  std::vector<std::string> problems;  // one line each; empty when the layout is clean
};

/// Renders a copy of `html_file` with a measuring script added (the report itself stays
/// script-free) in a window `width` px wide, and reports: the page wider than the window, two
/// text boxes that overlap (headings, paragraphs, table cells, captions, legend entries, SVG
/// labels; parts scrolled out of a scrolling box or inside a closed <details> do not count),
/// SVG labels that stick out of their figure, and, from 1,400 px on, a figure of the annotated
/// source (#source's cells but the source text) scrolled out of view.
LayoutCheck chromium_layout_check(const std::string& chromium, const std::string& html_file, int width);

struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
};
/// "#D55E00" -> {0xD5, 0x5E, 0x00}.
Rgb parse_colour(const std::string& hex);

/// An 8-bit RGB image.
struct Image {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgb;  // row-major, 3 bytes a pixel

  /// Pixels within `tolerance` (per channel) of `colour`.
  std::size_t count(Rgb colour, int tolerance = 2) const;
  /// Pixels that are not (nearly) white.
  std::size_t non_white() const;
};

/// Reads a PNG file; throws std::runtime_error when it is not one.
Image read_png(const std::string& path);

}  // namespace warpdiv::testing

# Shared by tools/run and tools/test: install what is missing, then configure and build into build/.
# Safe to run again: apt-get runs only when a package is missing, cmake only rebuilds what changed.

set -euo pipefail

WARPDIV_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
WARPDIV_BUILD="${WARPDIV_BUILD:-$WARPDIV_ROOT/build}"
export PATH="$PATH:/usr/local/cuda/bin"

# Debian 12 packages the build and the tests need (the compiler toolchain and nvcc are assumed).
WARPDIV_PACKAGES=(cmake make ccache libboost-program-options-dev libfccp-dev googletest libgtest-dev
                  libbenchmark-dev libpng-dev nlohmann-json3-dev
                  # `warpdiv check CONFIG` reads its TOML configuration with toml++ (header-only).
                  libtomlplusplus-dev
                  # The Clang front-end (kernels/frontend): Clang's C++ API and headers, LLVM's headers
                  # and library, and Clang's resource headers (stddef.h ...) that a parse needs.
                  libclang-cpp14-dev libclang-14-dev llvm-14-dev libclang-common-14-dev
                  # The native replay's operations: sim/model/ir_ops.hpp compiled to LLVM bitcode
                  # (jit/ops_lanes.cpp) by the Clang of the LLVM the JIT links.
                  clang-14)
# Only tools/test needs these: the browser test renders the HTML reports in headless Chromium (with a
# font, so that text is drawn on a bare machine); the SARIF of `warpdiv check` is validated against
# the official SARIF 2.1.0 schema with python3's jsonschema. If they cannot be installed, those tests
# skip.
# clang-format-14 checks the sources' layout (tests/format_test.sh; skipped without it).
WARPDIV_TEST_PACKAGES=(chromium fonts-dejavu-core python3-jsonschema clang-format-14)

warpdiv_missing_packages() {
  local pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || echo "$pkg"
  done
}

# warpdiv_install PKG...: apt-get update once, then apt-get install -y what is missing.
warpdiv_install() {
  local missing
  missing=$(warpdiv_missing_packages "$@")
  [ -z "$missing" ] && return 0
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "warpdiv: need root to install:" $missing >&2; return 1; }
    sudo="sudo"
  fi
  echo "warpdiv: installing" $missing >&2
  if [ -z "${WARPDIV_APT_UPDATED:-}" ]; then
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    export WARPDIV_APT_UPDATED=1
  fi
  # shellcheck disable=SC2086
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >&2
}

# warpdiv_install_optional PKG...: like warpdiv_install, but a failure only prints a note.
warpdiv_install_optional() {
  if ! warpdiv_install "$@"; then
    echo "warpdiv: could not install" $(warpdiv_missing_packages "$@") \
         "- the tests that need them will skip" >&2
  fi
}

# warpdiv_build [TARGET...]: configure once, then build the targets named (the tool and its plugins:
# `warpdiv`), or everything (the tests and benchmarks too) when none is named. Compiles go through
# ccache (CMakeLists.txt), so a second clone or build folder rebuilds only what changed.
warpdiv_build() {
  warpdiv_install "${WARPDIV_PACKAGES[@]}"
  if [ ! -f "$WARPDIV_BUILD/CMakeCache.txt" ]; then
    cmake -S "$WARPDIV_ROOT" -B "$WARPDIV_BUILD" -DCMAKE_BUILD_TYPE=Release >&2
  fi
  local targets=()
  local t
  for t in "$@"; do targets+=(--target "$t"); done
  cmake --build "$WARPDIV_BUILD" -j "$(nproc)" "${targets[@]}" >&2
}

// Typed errors shared by every layer. Library code throws; only the CLI maps them to exit codes
// (0 ok, 1 mismatch or internal failure, 2 bad input, 3 no GPU, 130 interrupted).
#pragma once

#include <stdexcept>
#include <string>

namespace warpdiv {

/// Invalid input from the user (a flag, a size, a file): exit status 2.
class InvalidInput : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// No usable CUDA device or driver, or a build without CUDA: exit status 3.
class NoDevice : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A long run stopped on request (Ctrl-C): exit status 130, no partial output.
class Interrupted : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The model and the hardware (or another oracle) disagree: exit status 1.
class Mismatch : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace warpdiv

#pragma once
/// @file error.hpp
/// Exception types thrown by the abfs host API. Library code never prints or exits; the CLI
/// catches `abfs::Error`, prints one line and returns non-zero.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace abfs {

/// Base of every error abfs throws. what() is one line, ready to print.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

/// A CUDA runtime call or kernel launch failed.
/// what(): "<call>: <cudaErrorName> (<description>) at <file>:<line>".
class CudaError : public Error {
 public:
  CudaError(const std::string& message, int code) : Error(message), code_(code) {}
  /// The cudaError_t value, as an int so that this header needs no CUDA include.
  int code() const noexcept { return code_; }

 private:
  int code_;
};

/// An allocation (device, pinned or host) could not be satisfied.
class OutOfMemory : public Error {
 public:
  OutOfMemory(const std::string& message, std::size_t bytes_requested)
      : Error(message), bytes_requested_(bytes_requested) {}
  /// Bytes the failing allocation asked for.
  std::size_t bytes_requested() const noexcept { return bytes_requested_; }

 private:
  std::size_t bytes_requested_;
};

/// A graph file (or cache file) is malformed or unreadable.
/// what(): "<file>:<line>: <problem>"; line is 0 when the problem is not tied to a line
/// (missing file, bad gzip stream, wrong cache checksum).
class InputError : public Error {
 public:
  InputError(std::string file, std::uint64_t line, std::string problem)
      : Error(format(file, line, problem)),
        file_(std::move(file)),
        line_(line),
        problem_(std::move(problem)) {}
  const std::string& file() const noexcept { return file_; }
  std::uint64_t line() const noexcept { return line_; }
  const std::string& problem() const noexcept { return problem_; }

 private:
  static std::string format(const std::string& file, std::uint64_t line,
                            const std::string& problem) {
    return line == 0 ? file + ": " + problem : file + ":" + std::to_string(line) + ": " + problem;
  }
  std::string file_;
  std::uint64_t line_;
  std::string problem_;
};

/// Wisdom is stale, mismatched with this device, or corrupt (reserved for the planner's wisdom).
class WisdomError : public Error {
 public:
  using Error::Error;
};

/// A public precondition was violated (source out of range, unknown strategy name, bad spec).
class InvalidArgument : public Error {
 public:
  using Error::Error;
};

}  // namespace abfs

#pragma once
// Internal: line-by-line reading of plain or gzip-compressed text with strict number parsing.
// Every problem becomes an InputError naming the file and the 1-based line.

#include <abfs/error.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace abfs::detail {

class TextReader {
 public:
  /// Opens path (plain or .gz: zlib detects compression by content).
  /// @throws InputError if it is missing, a directory, or unreadable.
  explicit TextReader(std::string path);
  ~TextReader();
  TextReader(const TextReader&) = delete;
  TextReader& operator=(const TextReader&) = delete;

  /// Next line without its line terminator; false at end of file.
  /// @throws InputError on a bad gzip stream, a NUL byte or a line over 1 MiB.
  bool next_line(std::string_view& line);
  std::uint64_t line_number() const noexcept { return line_; }
  const std::string& path() const noexcept { return path_; }

  /// Throws InputError(path, current line, problem).
  [[noreturn]] void fail(const std::string& problem) const;

  /// Parses a non-negative decimal integer; `what` names the field in errors
  /// ("vertex id", "edge count").
  std::uint64_t parse_uint(std::string_view field, const char* what) const;
  /// Checks that field is a decimal number (integer or real), for ignored weight columns.
  void check_number(std::string_view field, const char* what) const;

 private:
  bool fill();
  std::string path_;
  void* file_ = nullptr;  // gzFile
  std::vector<char> buffer_;
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  bool eof_ = false;
  std::uint64_t line_ = 0;
};

/// Splits line at spaces/tabs into at most max_fields fields; returns the number of fields, or
/// max_fields + 1 if there are more.
std::size_t split_fields(std::string_view line, std::string_view* fields, std::size_t max_fields);

}  // namespace abfs::detail

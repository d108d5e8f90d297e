#include "graph/text_reader.hpp"

#include <zlib.h>

#include <sys/stat.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace abfs::detail {
namespace {

constexpr std::size_t kChunkBytes = std::size_t{1} << 20;
constexpr std::size_t kMaxLineBytes = std::size_t{1} << 20;

std::string printable(std::string_view field) {
  std::string out;
  for (char c : field.substr(0, 40)) {
    out += std::isprint(static_cast<unsigned char>(c)) ? c : '?';
  }
  if (field.size() > 40) out += "...";
  return out;
}

}  // namespace

TextReader::TextReader(std::string path) : path_(std::move(path)) {
  struct stat info {};
  if (::stat(path_.c_str(), &info) != 0) {
    throw InputError(path_, 0, std::string("cannot open: ") + std::strerror(errno));
  }
  if (S_ISDIR(info.st_mode)) throw InputError(path_, 0, "is a directory, not a graph file");
  gzFile file = gzopen(path_.c_str(), "rb");
  if (file == nullptr) {
    throw InputError(path_, 0, std::string("cannot open: ") +
                                   (errno ? std::strerror(errno) : "zlib could not allocate"));
  }
  gzbuffer(file, 1 << 20);
  file_ = file;
  buffer_.resize(kChunkBytes + kMaxLineBytes);
}

TextReader::~TextReader() {
  if (file_ != nullptr) gzclose(static_cast<gzFile>(file_));
}

void TextReader::fail(const std::string& problem) const { throw InputError(path_, line_, problem); }

bool TextReader::fill() {
  if (eof_) return false;
  // Keep the unfinished line at the front and read behind it.
  std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
  end_ -= begin_;
  begin_ = 0;
  if (end_ >= kMaxLineBytes) {
    throw InputError(path_, line_ + 1, "line longer than 1 MiB (binary data?)");
  }
  const int got = gzread(static_cast<gzFile>(file_), buffer_.data() + end_,
                         static_cast<unsigned>(kChunkBytes));
  if (got < 0) {
    int code = 0;
    const char* message = gzerror(static_cast<gzFile>(file_), &code);
    throw InputError(path_, 0, std::string("bad gzip stream or read error: ") + message);
  }
  if (got == 0) {
    // zlib reports a truncated stream only as a non-fatal Z_BUF_ERROR once input runs out.
    int code = Z_OK;
    const char* message = gzerror(static_cast<gzFile>(file_), &code);
    if (code != Z_OK) throw InputError(path_, 0, std::string("truncated gzip stream: ") + message);
    eof_ = true;
    return false;
  }
  end_ += static_cast<std::size_t>(got);
  return true;
}

bool TextReader::next_line(std::string_view& line) {
  for (;;) {
    const char* start = buffer_.data() + begin_;
    const auto* newline = static_cast<const char*>(std::memchr(start, '\n', end_ - begin_));
    std::size_t length = 0;
    if (newline != nullptr) {
      length = static_cast<std::size_t>(newline - start);
    } else if (!fill()) {
      if (begin_ == end_) return false;
      length = end_ - begin_;  // last line without a newline
    } else {
      continue;
    }
    ++line_;
    start = buffer_.data() + begin_;
    line = std::string_view(start, length);
    begin_ += std::min(length + 1, end_ - begin_);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (std::memchr(line.data(), '\0', line.size()) != nullptr) {
      fail("NUL byte in text (binary data, or a compressed file without .gz?)");
    }
    return true;
  }
}

std::uint64_t TextReader::parse_uint(std::string_view field, const char* what) const {
  if (field.empty()) fail(std::string("missing ") + what);
  if (field[0] == '-') fail(std::string("negative ") + what + " '" + printable(field) + "'");
  std::size_t i = field[0] == '+' ? 1 : 0;
  if (i == field.size()) fail(std::string("expected a number for ") + what + ", got '" + printable(field) + "'");
  std::uint64_t value = 0;
  for (; i < field.size(); ++i) {
    const char c = field[i];
    if (c < '0' || c > '9') {
      fail(std::string("expected a non-negative integer for ") + what + ", got '" + printable(field) + "'");
    }
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) {
      fail(std::string(what) + " '" + printable(field) + "' is too large");
    }
    value = value * 10 + digit;
  }
  return value;
}

void TextReader::check_number(std::string_view field, const char* what) const {
  const std::string text(field);
  char* end = nullptr;
  errno = 0;
  std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size()) {
    fail(std::string("expected a number for ") + what + ", got '" + printable(field) + "'");
  }
}

std::size_t split_fields(std::string_view line, std::string_view* fields, std::size_t max_fields) {
  std::size_t count = 0;
  std::size_t i = 0;
  const std::size_t n = line.size();
  while (i < n) {
    while (i < n && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (i == n) break;
    const std::size_t start = i;
    while (i < n && line[i] != ' ' && line[i] != '\t') ++i;
    if (count == max_fields) return max_fields + 1;
    fields[count++] = line.substr(start, i - start);
  }
  return count;
}

}  // namespace abfs::detail

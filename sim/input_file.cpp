#include "sim/input_file.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "sim/units.h"

namespace kairo::sim {
std::string read_bounded(const std::string& path, std::uint64_t limit, const std::string& what,
                         const std::string& advice) {
  auto too_big = [&](const std::string& size) {
    return std::invalid_argument(
        fmt::format("{} {}: {}more than kairo reads ({}){}", what, path, size.empty() ? "" : size + ", ",
                    units::format_size(double(limit)), advice.empty() ? "" : "; " + advice));
  };
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && std::uint64_t(st.st_size) > limit)
    throw too_big(units::format_size(double(st.st_size)));
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f)
    throw std::invalid_argument(fmt::format("{} {}: cannot read: {}", what, path, std::strerror(errno)));
  std::string data;
  char buf[1 << 16];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f.get())) > 0) {
    if (data.size() + n > limit) throw too_big("");  // a device or FIFO without end
    data.append(buf, n);
  }
  if (std::ferror(f.get()))
    throw std::invalid_argument(fmt::format("{} {}: cannot read: {}", what, path, std::strerror(errno)));
  return data;
}

}  // namespace kairo::sim

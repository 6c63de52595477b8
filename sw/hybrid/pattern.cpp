#include "sw/hybrid/pattern.h"

#include <fmt/format.h>

#include <fstream>
#include <string_view>

#include "sim/units.h"

namespace kairo::hybrid {

void EpsShape::validate() const {
  auto positive = [](double v, const char* name) {
    if (!(v > 0)) throw std::invalid_argument(fmt::format("EpsShape.{} must be positive, got {}", name, v));
  };
  positive(edges, "edges");
  positive(hosts_per_edge, "hosts_per_edge");
  positive(host_bytes_per_s, "host_bytes_per_s");
  positive(up_bytes_per_s, "up_bytes_per_s");
  positive(ocs_bytes_per_s, "ocs_bytes_per_s");
}

Pattern Pattern::zeros(int ranks) {
  Pattern p;
  p.ranks = ranks;
  p.bytes.assign(std::size_t(ranks) * std::size_t(ranks), 0);
  return p;
}

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split_cells(std::string_view line) {
  std::vector<std::string_view> cells;
  for (std::size_t start = 0;;) {
    const std::size_t comma = line.find(',', start);
    cells.push_back(trim(line.substr(start, comma - start)));
    if (comma == std::string_view::npos) return cells;
    start = comma + 1;
  }
}

// One cell: a non-negative byte count, bare or with a size unit.
std::uint64_t parse_cell(std::string_view cell, const std::string& where, std::size_t column) {
  if (cell.empty())
    throw PatternError(
        fmt::format("{}: column {} is empty; expected a byte count such as 0, 8192 or 40MB", where, column));
  if (cell.front() == '-')
    throw PatternError(
        fmt::format("{}: column {} is negative ('{}'); expected a byte count >= 0", where, column, cell));
  try {
    return units::parse_bytes(cell);
  } catch (const units::UnitError& e) {
    throw PatternError(
        fmt::format("{}: column {} ('{}') is not a byte count: {}", where, column, cell, e.what()));
  }
}

}  // namespace

Pattern parse_pattern_csv(std::istream& in, const std::string& name) {
  std::vector<std::vector<std::uint64_t>> rows;
  std::string line;
  int line_no = 0, first_line = 0, last_line = 0;
  while (std::getline(in, line)) {
    ++line_no;
    const std::string_view text = trim(line);
    if (text.empty() || text.front() == '#') continue;
    const std::string where = fmt::format("{}:{}", name, line_no);
    const auto cells = split_cells(text);
    if (!rows.empty() && cells.size() != rows.front().size())
      throw PatternError(
          fmt::format("{}: row has {} columns but the first row (line {}) has {}; expected a square "
                      "ranks x ranks matrix",
                      where, cells.size(), first_line, rows.front().size()));
    if (rows.empty()) first_line = line_no;
    std::vector<std::uint64_t> row;
    for (std::size_t c = 0; c < cells.size(); ++c) row.push_back(parse_cell(cells[c], where, c + 1));
    rows.push_back(std::move(row));
    last_line = line_no;
  }
  if (rows.empty())
    throw PatternError(fmt::format("{}: no rows; expected a ranks x ranks matrix of byte counts", name));
  if (rows.size() != rows.front().size())
    throw PatternError(
        fmt::format("{}:{}: the matrix ends after {} rows of {} columns; expected a square ranks x "
                    "ranks matrix",
                    name, last_line, rows.size(), rows.front().size()));
  Pattern p = Pattern::zeros(int(rows.size()));
  for (int s = 0; s < p.ranks; ++s)
    for (int d = 0; d < p.ranks; ++d) p.at(s, d) = rows[std::size_t(s)][std::size_t(d)];
  return p;
}

Pattern load_pattern_csv(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw PatternError(fmt::format("{}: cannot open the communication pattern file", path));
  return parse_pattern_csv(in, path);
}

Pattern neighbor_pattern(const NeighborGrid& g) {
  if (g.rows < 1 || g.cols < 1)
    throw std::invalid_argument(
        fmt::format("neighbor grid {} x {}: rows and cols must be >= 1", g.rows, g.cols));
  Pattern p = Pattern::zeros(g.rows * g.cols);
  auto send = [&](int r, int c, int nr, int nc) {
    if (g.periodic) {
      nr = (nr + g.rows) % g.rows;
      nc = (nc + g.cols) % g.cols;
    } else if (nr < 0 || nr >= g.rows || nc < 0 || nc >= g.cols) {
      return;  // open border: no neighbour on this side
    }
    if (nr == r && nc == c) return;  // a wrapped dimension of size 1
    p.at(r * g.cols + c, nr * g.cols + nc) += g.size;
  };
  for (int r = 0; r < g.rows; ++r)
    for (int c = 0; c < g.cols; ++c) {
      send(r, c, r - 1, c);
      send(r, c, r + 1, c);
      send(r, c, r, c - 1);
      send(r, c, r, c + 1);
    }
  return p;
}

}  // namespace kairo::hybrid

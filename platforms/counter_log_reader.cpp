// Reading a counter log back, both formats (platforms/counter_log.h): what
// `kairo view`, the tests and the fuzzer (tests/fuzz/fuzz_counter_log.cpp) use.
// It names no table. A binary log's header lists each table's columns
// (`<name>_fields`) and rows (`<name>s`) in the order its intervals hold
// them; a CSV log's row carries its table's name in `kind` and its values in
// that table's columns only, the other tables' cells empty, so each table's
// columns are where its first row has values.
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "platforms/counter_log.h"
#include "sim/input_file.h"

namespace kairo::platforms {

namespace {

std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> v;
  std::string cur;
  for (char c : line) {
    if (c == ',') {
      v.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  v.push_back(cur);
  return v;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The labels before a CSV row's values: kind, the interval, then the row's place.
constexpr std::size_t kCsvLabels = 10;

}  // namespace

int CounterTable::field(const std::string& f) const {
  for (std::size_t k = 0; k < fields.size(); ++k)
    if (fields[k] == f) return int(k);
  return -1;
}

int CounterLogData::table_index(const std::string& name) const {
  for (std::size_t k = 0; k < tables.size(); ++k)
    if (tables[k].name == name) return int(k);
  return -1;
}

const CounterTable* CounterLogData::table(const std::string& name) const {
  const int k = table_index(name);
  return k < 0 ? nullptr : &tables[std::size_t(k)];
}

const std::vector<CounterRow>& CounterLogData::rows(const std::string& name) const {
  static const std::vector<CounterRow> none;
  const CounterTable* t = table(name);
  return t ? t->rows : none;
}

CounterLogData read_counter_log(const std::string& path) {
  std::string data;
  try {
    data = sim::read_bounded(path, sim::kCounterLogLimitBytes, "counter log",
                             "record it with a longer --interval or fewer traced ports");
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(e.what());  // the reader's documented error type
  }
  CounterLogData d;
  auto bad = [&](const std::string& what) { return std::runtime_error("counter log " + path + ": " + what); };
  // A whole unsigned decimal number, or the reader's error.
  auto number = [&](const std::string& text) {
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size())
      throw bad("expected a whole number, got '" + text.substr(0, 40) + "'");
    return v;
  };
  auto check_vcs = [&](long long vcs) {
    if (vcs < 1 || vcs > 64) throw bad("expected 1 to 64 VCs per port, got " + std::to_string(vcs));
  };
  if (data.size() >= 8 && data.compare(0, 8, std::string(kCounterLogMagic, 8)) == 0) {
    std::size_t at = 8;
    auto varint = [&]() {
      std::uint64_t v = 0;
      for (int shift = 0;; shift += 7) {
        if (at >= data.size() || shift > 63) throw bad("truncated");
        const auto byte = static_cast<unsigned char>(data[at++]);
        v |= std::uint64_t(byte & 0x7f) << shift;
        if (!(byte & 0x80)) return v;
      }
    };
    const std::uint64_t hlen = varint();
    if (hlen > data.size() - at) throw bad("truncated header");
    // Ordered: the tables' order in the header is their rows' order in an interval.
    nlohmann::ordered_json h = nlohmann::ordered_json::parse(data.substr(at, hlen), nullptr, false);
    if (h.is_discarded() || !h.is_object() || !h.contains("version") || h["version"] != 1)
      throw bad("not a version 1 header");
    at += hlen;
    try {
      // Integers only: a float converted to an integer is undefined behaviour.
      auto whole = [&](const nlohmann::ordered_json& v, const std::string& what) {
        if (!v.is_number_unsigned()) throw bad("bad header: " + what + " is not a whole number >= 0");
        return v.get<std::uint64_t>();
      };
      auto text = [&](const nlohmann::ordered_json& v, const std::string& what) {
        if (!v.is_string()) throw bad("bad header: " + what + " is not a string");
        return v.get<std::string>();
      };
      d.interval_ps = whole(h.at("interval_ps"), "interval_ps");
      d.clock_period_ps = whole(h.at("clock_period_ps"), "clock_period_ps");
      const std::uint64_t vcs = whole(h.at("vcs"), "vcs");
      check_vcs(vcs > 64 ? 65 : (long long)vcs);
      d.vcs = int(vcs);
      for (const auto& [key, value] : h.items()) {
        if (!ends_with(key, "_fields")) continue;
        CounterTable t;
        t.name = key.substr(0, key.size() - 7);
        if (!value.is_array() || value.empty()) throw bad("bad header: " + key + " is not a list of names");
        for (const auto& f : value) t.fields.push_back(text(f, "a name of " + key));
        const std::string list = t.name + "s";
        if (!h.contains(list) || !h[list].is_array())
          throw bad("bad header: no list " + list + " for " + key);
        // A row: a link end's seven names, or an engine's [node, coord, k] (port tni<k>).
        for (const auto& r : h[list]) {
          if (r.is_array() && r.size() == 7) {
            CounterRow row;
            std::string* to[] = {&row.unit,      &row.port, &row.coord, &row.peer,
                                 &row.peer_port, &row.dim,  &row.dir};
            for (std::size_t k = 0; k < 7; ++k) *to[k] = text(r[k], "a name in " + list);
            t.rows.push_back(std::move(row));
          } else if (r.is_array() && r.size() == 3) {
            const std::string unit = text(r[0], "a name in " + list);
            t.rows.push_back(CounterRow{unit, t.name + std::to_string(whole(r[2], "an index in " + list)),
                                        text(r[1], "a coordinate in " + list), "", "", "", ""});
          } else {
            throw bad("bad header: a row of " + list + " is not a list of 7 names or [name, coord, index]");
          }
        }
        d.tables.push_back(std::move(t));
      }
    } catch (const nlohmann::json::exception& e) {
      throw bad(std::string("bad header: ") + e.what());
    }
    for (;;) {
      if (at >= data.size()) throw bad("truncated: no end mark (was the run interrupted?)");
      const char tag = data[at++];
      if (tag == 'E') break;
      if (tag != 'I') throw bad("corrupt interval mark");
      CounterLogData::Interval iv;
      iv.start = varint();
      iv.end = varint();
      iv.rows.resize(d.tables.size());
      for (std::size_t table = 0; table < d.tables.size(); ++table) {
        const CounterTable& t = d.tables[table];
        std::uint64_t index = 0;
        const std::uint64_t n = varint();
        if (n > data.size() - at) throw bad("truncated: more rows than bytes");  // a row takes bytes
        for (std::uint64_t k = 0; k < n; ++k) {
          index += varint();
          if (index >= t.rows.size()) throw bad("a row names an unknown " + t.name);
          std::vector<std::uint64_t> f(t.fields.size());
          for (auto& x : f) x = varint();
          iv.rows[table].emplace_back(std::uint32_t(index), std::move(f));
        }
      }
      d.intervals.push_back(std::move(iv));
    }
    return d;
  }
  // CSV
  std::stringstream ss(data);
  std::string line;
  if (!std::getline(ss, line) || line.rfind("# kairo counter log v1:", 0) != 0)
    throw bad("not a kairo counter log");
  unsigned long long interval = 0, period = 0;
  int vcs = 0;
  if (std::sscanf(line.c_str(), "# kairo counter log v1: interval_ps=%llu clock_period_ps=%llu vcs=%d",
                  &interval, &period, &vcs) != 3)
    throw bad("bad first line");
  check_vcs(vcs);
  d.interval_ps = interval, d.clock_period_ps = period, d.vcs = vcs;
  std::getline(ss, line);  // the labels, then every table's columns
  const auto names = split_csv(line);
  if (names.size() <= kCsvLabels)
    throw bad("the column names line has " + std::to_string(names.size()) + " columns, expected the " +
              std::to_string(kCsvLabels) + " labels and at least one counter");
  // Per table (in the order first seen), the columns [first, last) its values fill.
  std::vector<std::pair<std::size_t, std::size_t>> span;
  std::vector<std::map<std::string, std::uint32_t>> index;  // [table]: unit.port -> row
  std::vector<bool> taken(names.size(), false);
  while (std::getline(ss, line)) {
    if (line.empty()) continue;
    const auto c = split_csv(line);
    if (c.size() != names.size()) throw bad("a row has " + std::to_string(c.size()) + " columns");
    int table = d.table_index(c[0]);
    if (table < 0) {
      // A new table: its columns are where this row has values.
      std::size_t first = kCsvLabels;
      while (first < c.size() && c[first].empty()) ++first;
      std::size_t last = first;
      while (last < c.size() && !c[last].empty()) ++last;
      if (first == c.size()) throw bad("a row of kind '" + c[0].substr(0, 40) + "' has no values");
      for (std::size_t k = first; k < last; ++k)
        if (taken[k]) throw bad("tables '" + c[0].substr(0, 40) + "' and another share column " + names[k]);
      for (std::size_t k = first; k < last; ++k) taken[k] = true;
      table = int(d.tables.size());
      d.tables.push_back(CounterTable{
          c[0], {names.begin() + std::ptrdiff_t(first), names.begin() + std::ptrdiff_t(last)}, {}});
      span.emplace_back(first, last);
      index.emplace_back();
    }
    const auto [first, last] = span[std::size_t(table)];
    for (std::size_t k = kCsvLabels; k < c.size(); ++k)
      if ((k < first || k >= last) && !c[k].empty())
        throw bad("a row of kind '" + c[0].substr(0, 40) + "' has a value in column " + names[k] +
                  ", which is not its table's");
    const sim::Time start = number(c[1]), end = number(c[2]);
    if (d.intervals.empty() || d.intervals.back().end != end) {
      d.intervals.push_back({});
      d.intervals.back().start = start, d.intervals.back().end = end;
    }
    auto& iv = d.intervals.back();
    CounterTable& t = d.tables[std::size_t(table)];
    auto [it, fresh] = index[std::size_t(table)].emplace(c[3] + "." + c[4], std::uint32_t(t.rows.size()));
    if (fresh) t.rows.push_back(CounterRow{c[3], c[4], c[5], c[6], c[7], c[8], c[9]});
    std::vector<std::uint64_t> f(last - first);
    for (std::size_t k = first; k < last; ++k) f[k - first] = number(c[k]);
    if (iv.rows.size() <= std::size_t(table)) iv.rows.resize(std::size_t(table) + 1);
    iv.rows[std::size_t(table)].emplace_back(it->second, std::move(f));
  }
  // The tables in their columns' order, which is the writer's (a binary
  // log's header order).
  std::vector<std::size_t> order(d.tables.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return span[a] < span[b]; });
  std::vector<CounterTable> tables;
  for (std::size_t k : order) tables.push_back(std::move(d.tables[k]));
  d.tables = std::move(tables);
  for (auto& iv : d.intervals) {
    iv.rows.resize(order.size());
    std::vector<CounterLogData::Rows> rows;
    for (std::size_t k : order) rows.push_back(std::move(iv.rows[k]));
    iv.rows = std::move(rows);
  }
  return d;
}

}  // namespace kairo::platforms

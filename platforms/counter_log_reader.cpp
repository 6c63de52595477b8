// Reading a counter log back, both formats (platforms/counter_log.h): what
// `kairo view`, the tests and the fuzzer (tests/fuzz/fuzz_counter_log.cpp) use.
#include <charconv>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "platforms/counter_log.h"

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

}  // namespace

CounterLogData read_counter_log(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read the counter log " + path);
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
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
    nlohmann::json h = nlohmann::json::parse(data.substr(at, hlen), nullptr, false);
    if (h.is_discarded() || !h.is_object() || !h.contains("version") || h["version"] != 1)
      throw bad("not a version 1 header");
    at += hlen;
    try {
      // Integers only: a float converted to an integer is undefined behaviour.
      auto whole = [&](const nlohmann::json& v, const char* what) {
        if (!v.is_number_unsigned())
          throw bad(std::string("bad header: ") + what + " is not a whole number >= 0");
        return v.get<std::uint64_t>();
      };
      d.interval_ps = whole(h.at("interval_ps"), "interval_ps");
      d.clock_period_ps = whole(h.at("clock_period_ps"), "clock_period_ps");
      const std::uint64_t vcs = whole(h.at("vcs"), "vcs");
      check_vcs(vcs > 64 ? 65 : (long long)vcs);
      d.vcs = int(vcs);
      for (const auto& l : h.at("links")) {
        if (!l.is_array() || l.size() != 7) throw bad("a link of the header is not a list of 7 names");
        d.links.push_back(LinkInfo{l[0], l[1], l[2], l[3], l[4], l[5], l[6]});
      }
      if (h.contains("allocs")) {
        for (const auto& f : h.at("alloc_fields")) d.alloc_fields.push_back(f.get<std::string>());
        if (d.alloc_fields.size() != std::size_t(kAllocFields))
          throw bad("bad header: expected " + std::to_string(kAllocFields) + " alloc_fields");
        for (const auto& l : h.at("allocs")) {
          if (!l.is_array() || l.size() != 7) throw bad("a port of the alloc table is not a list of 7 names");
          d.alloc_ports.push_back(LinkInfo{l[0], l[1], l[2], l[3], l[4], l[5], l[6]});
        }
      }
      for (const auto& t : h.at("tnis")) {
        if (!t.is_array() || t.size() != 3) throw bad("an engine of the header is not a list of 3 fields");
        const std::uint64_t tni = whole(t[2], "an engine's index");
        if (tni > 1023) throw bad("bad header: an engine's index passes 1023");
        d.tnis.push_back(TniInfo{t[0], t[1], int(tni)});
      }
    } catch (const nlohmann::json::exception& e) {
      throw bad(std::string("bad header: ") + e.what());
    }
    const std::size_t lf = std::size_t(kLinkFixedFields + d.vcs);
    for (;;) {
      if (at >= data.size()) throw bad("truncated: no end mark (was the run interrupted?)");
      const char tag = data[at++];
      if (tag == 'E') break;
      if (tag != 'I') throw bad("corrupt interval mark");
      CounterLogData::Interval iv;
      iv.start = varint();
      iv.end = varint();
      const int tables = d.alloc_fields.empty() ? 2 : 3;  // link, tni, then alloc
      for (int table = 0; table < tables; ++table) {
        const std::size_t fields = table == 0 ? lf : table == 1 ? std::size_t(kTniFields) : kAllocFields;
        const std::size_t limit = table == 0   ? d.links.size()
                                  : table == 1 ? d.tnis.size()
                                               : d.alloc_ports.size();
        std::uint64_t index = 0;
        const std::uint64_t n = varint();
        if (n > data.size() - at) throw bad("truncated: more rows than bytes");  // a row takes bytes
        for (std::uint64_t k = 0; k < n; ++k) {
          index += varint();
          if (index >= limit) throw bad("a row names an unknown link or engine");
          std::vector<std::uint64_t> f(fields);
          for (auto& x : f) x = varint();
          (table == 0   ? iv.links
           : table == 1 ? iv.tnis
                        : iv.allocs)
              .emplace_back(std::uint32_t(index), std::move(f));
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
  std::getline(ss, line);  // column names: the labels, link's, tni's, then alloc's if any
  const std::size_t lf = std::size_t(kLinkFixedFields + vcs);
  const auto names = split_csv(line);
  const std::size_t width = 10 + lf + kTniFields;
  if (names.size() == width + kAllocFields)
    d.alloc_fields.assign(names.begin() + std::ptrdiff_t(width), names.end());
  else if (names.size() != width)
    throw bad("the column names line has " + std::to_string(names.size()) + " columns, expected " +
              std::to_string(width) + " or " + std::to_string(width + kAllocFields));
  std::map<std::string, std::uint32_t> link_index, tni_index, alloc_index;
  while (std::getline(ss, line)) {
    if (line.empty()) continue;
    const auto c = split_csv(line);
    if (c.size() != names.size()) throw bad("a row has " + std::to_string(c.size()) + " columns");
    const sim::Time start = number(c[1]), end = number(c[2]);
    if (d.intervals.empty() || d.intervals.back().end != end) {
      d.intervals.push_back({});
      d.intervals.back().start = start, d.intervals.back().end = end;
    }
    auto& iv = d.intervals.back();
    if (c[0] == "link") {
      const std::string key = c[3] + "." + c[4];
      auto [it, fresh] = link_index.emplace(key, std::uint32_t(d.links.size()));
      if (fresh) d.links.push_back(LinkInfo{c[3], c[4], c[5], c[6], c[7], c[8], c[9]});
      std::vector<std::uint64_t> f(lf);
      for (std::size_t k = 0; k < lf; ++k) f[k] = number(c[10 + k]);
      iv.links.emplace_back(it->second, std::move(f));
    } else if (c[0] == "tni") {
      const std::string key = c[3] + "." + c[4];
      auto [it, fresh] = tni_index.emplace(key, std::uint32_t(d.tnis.size()));
      if (c[4].rfind("tni", 0) != 0 || c[4].size() > 6)
        throw bad("expected an engine named tniN, got '" + c[4] + "'");
      if (fresh) d.tnis.push_back(TniInfo{c[3], c[5], int(number(c[4].substr(3)))});
      std::vector<std::uint64_t> f(kTniFields);
      for (int k = 0; k < kTniFields; ++k) f[std::size_t(k)] = number(c[10 + lf + std::size_t(k)]);
      iv.tnis.emplace_back(it->second, std::move(f));
    } else if (c[0] == "alloc" && !d.alloc_fields.empty()) {
      const std::string key = c[3] + "." + c[4];
      auto [it, fresh] = alloc_index.emplace(key, std::uint32_t(d.alloc_ports.size()));
      if (fresh) d.alloc_ports.push_back(LinkInfo{c[3], c[4], c[5], c[6], c[7], c[8], c[9]});
      std::vector<std::uint64_t> f(kAllocFields);
      for (int k = 0; k < kAllocFields; ++k) f[std::size_t(k)] = number(c[width + std::size_t(k)]);
      iv.allocs.emplace_back(it->second, std::move(f));
    } else {
      throw bad("unknown row kind '" + c[0] + "'");
    }
  }
  return d;
}

}  // namespace kairo::platforms

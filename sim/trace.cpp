#include "sim/trace.h"

#include <fstapi.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <numeric>
#include <stdexcept>

namespace kairo::sim {

Trace::Signal Trace::add(const std::string& path, int width, bool delta) {
  if (width < 1 || width > 64) throw std::invalid_argument("trace signal " + path + ": width must be 1..64");
  signals_.push_back(Info{path, width, delta});
  return Signal(signals_.size() - 1);
}

std::vector<Trace::Emitted> Trace::emitted() const {
  std::vector<std::uint32_t> order(changes_.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return changes_[a].t < changes_[b].t; });
  const std::size_t n = signals_.size();
  std::vector<std::uint64_t> value(n, 0), shown(n, 0);
  std::vector<char> touched(n, 0);
  std::vector<Signal> group;
  std::vector<Emitted> out;
  auto apply = [&](const Change& c) {
    if (signals_[c.s].delta)
      value[c.s] += c.v;
    else
      value[c.s] = c.v;
    if (!touched[c.s]) touched[c.s] = 1, group.push_back(c.s);
  };
  std::size_t i = 0;
  while (i < order.size() && changes_[order[i]].t <= from_) apply(changes_[order[i++]]);
  for (Signal s = 0; s < n; ++s) {  // every signal's value at the window's start
    out.push_back(Emitted{from_, s, value[s]});
    shown[s] = value[s];
    touched[s] = 0;
  }
  group.clear();
  while (i < order.size()) {
    const Time t = changes_[order[i]].t;
    for (; i < order.size() && changes_[order[i]].t == t; ++i) apply(changes_[order[i]]);
    std::sort(group.begin(), group.end());
    for (Signal s : group) {
      touched[s] = 0;
      if (value[s] == shown[s]) continue;
      shown[s] = value[s];
      out.push_back(Emitted{t, s, value[s]});
    }
    group.clear();
  }
  return out;
}

namespace {

std::vector<std::string> split(const std::string& path) {
  std::vector<std::string> parts;
  std::size_t at = 0;
  for (;;) {
    const std::size_t dot = path.find('.', at);
    parts.push_back(path.substr(at, dot - at));
    if (dot == std::string::npos) return parts;
    at = dot + 1;
  }
}

// Walks the signals in path order, calling open(scope), close() and var(s, leaf).
template <class Open, class Close, class Var>
void walk_scopes(const Trace& t, Open open, Close close, Var var) {
  std::vector<Trace::Signal> order(t.num_signals());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return t.name(a) < t.name(b); });
  std::vector<std::string> stack;
  for (Trace::Signal s : order) {
    std::vector<std::string> parts = split(t.name(s));
    const std::string leaf = parts.back();
    parts.pop_back();
    std::size_t common = 0;
    while (common < stack.size() && common < parts.size() && stack[common] == parts[common]) ++common;
    while (stack.size() > common) close(), stack.pop_back();
    for (std::size_t k = common; k < parts.size(); ++k) open(parts[k]), stack.push_back(parts[k]);
    var(s, leaf);
  }
  while (!stack.empty()) close(), stack.pop_back();
}

std::string vcd_id(Trace::Signal s) {
  std::string id;
  do {
    id += char('!' + s % 94);
    s /= 94;
  } while (s);
  return id;
}

std::string bits(std::uint64_t v, int width) {
  std::string b(std::size_t(width), '0');
  for (int k = 0; k < width; ++k) b[std::size_t(width - 1 - k)] = (v >> k & 1) ? '1' : '0';
  return b;
}

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

}  // namespace

void Trace::write_vcd(const std::string& path) const {
  std::unique_ptr<std::FILE, FileCloser> f(std::fopen(path.c_str(), "w"));
  if (!f) throw std::runtime_error("cannot write the VCD file " + path);
  std::FILE* o = f.get();
  std::fprintf(o, "$version kairo $end\n$timescale 1ps $end\n");
  walk_scopes(
      *this, [&](const std::string& scope) { std::fprintf(o, "$scope module %s $end\n", scope.c_str()); },
      [&] { std::fprintf(o, "$upscope $end\n"); },
      [&](Signal s, const std::string& leaf) {
        std::fprintf(o, "$var wire %d %s %s $end\n", signals_[s].width, vcd_id(s).c_str(), leaf.c_str());
      });
  std::fprintf(o, "$enddefinitions $end\n");
  Time last = kNever;
  bool dumpvars = false;  // inside the initial values' $dumpvars section
  for (const Emitted& e : emitted()) {
    if (e.t != last) {
      if (dumpvars) std::fprintf(o, "$end\n"), dumpvars = false;
      std::fprintf(o, "#%llu\n", static_cast<unsigned long long>(e.t));
      if (last == kNever) std::fprintf(o, "$dumpvars\n"), dumpvars = true;
      last = e.t;
    }
    if (signals_[e.s].width == 1)
      std::fprintf(o, "%c%s\n", (e.v & 1) ? '1' : '0', vcd_id(e.s).c_str());
    else
      std::fprintf(o, "b%s %s\n", bits(e.v, signals_[e.s].width).c_str(), vcd_id(e.s).c_str());
  }
  if (dumpvars) std::fprintf(o, "$end\n");
  if (std::ferror(o)) throw std::runtime_error("writing the VCD file " + path + " failed");
}

void Trace::write_fst(const std::string& path) const {
  void* ctx = fstWriterCreate(path.c_str(), 1);
  if (!ctx) throw std::runtime_error("cannot write the FST file " + path);
  fstWriterSetTimescale(ctx, -12);  // ps
  fstWriterSetVersion(ctx, "kairo");
  std::vector<fstHandle> handle(signals_.size(), 0);
  walk_scopes(
      *this, [&](const std::string& scope) { fstWriterSetScope(ctx, FST_ST_VCD_MODULE, scope.c_str(), nullptr); },
      [&] { fstWriterSetUpscope(ctx); },
      [&](Signal s, const std::string& leaf) {
        handle[s] = fstWriterCreateVar(ctx, FST_VT_VCD_WIRE, FST_VD_IMPLICIT, std::uint32_t(signals_[s].width),
                                       leaf.c_str(), 0);
      });
  Time last = kNever;
  std::string b;
  for (const Emitted& e : emitted()) {
    if (e.t != last) {
      fstWriterEmitTimeChange(ctx, e.t);
      last = e.t;
    }
    b = bits(e.v, signals_[e.s].width);
    fstWriterEmitValueChange(ctx, handle[e.s], b.c_str());
  }
  fstWriterClose(ctx);
}

}  // namespace kairo::sim

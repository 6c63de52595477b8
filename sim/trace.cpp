#include "sim/trace.h"

#include <fstapi.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <numeric>
#include <stdexcept>

#include "sim/output_file.h"

namespace kairo::sim {

Trace::Signal Trace::add(const std::string& path, int width, bool delta) {
  if (width < 1 || width > 64) throw std::invalid_argument("trace signal " + path + ": width must be 1..64");
  signals_.push_back(Info{path, width, delta, {}});
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

}  // namespace

void Trace::write_vcd(const std::string& path) const {
  OutputFile f("--vcd", path);
  std::FILE* o = f.stream();
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
  f.close();  // every fprintf's error, and the flush's, surface here
}

// GTKWave's FST writer reports no write errors, so the file is written to a
// private temporary file first, read back (its variables and end time must be
// all there), then copied to `path` with every write checked.
namespace {
std::string fst_temp_template() {
  const char* tmpdir = std::getenv("TMPDIR");
  return std::string(tmpdir && *tmpdir ? tmpdir : "/tmp") + "/kairo-fst-XXXXXX";
}
std::string no_fst_temp(const std::string& path, const std::string& tmp, int err) {
  return "--fst: cannot write '" + path + "': no temporary file in " + tmp.substr(0, tmp.rfind('/')) + " (" +
         std::strerror(err) + "); set TMPDIR to a directory kairo can write";
}
}  // namespace

void Trace::check_fst_temp(const std::string& path) {
  std::string tmp = fst_temp_template();
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) throw std::invalid_argument(no_fst_temp(path, tmp, errno));
  ::close(fd);
  ::unlink(tmp.c_str());
}

void Trace::write_fst(const std::string& path) const {
  std::string tmp = fst_temp_template();
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) throw OutputError(no_fst_temp(path, tmp, errno));
  ::close(fd);
  struct Remove {
    const std::string& p;
    ~Remove() { ::unlink(p.c_str()); }
  } remove_tmp{tmp};
  void* ctx = fstWriterCreate(tmp.c_str(), 1);
  if (!ctx) throw OutputError("--fst: cannot write '" + path + "': no temporary file");
  fstWriterSetTimescale(ctx, -12);  // ps
  fstWriterSetVersion(ctx, "kairo");
  // A fixed date instead of the wall clock's: the same run gives the same file.
  fstWriterSetDate(ctx, "Thu Jan  1 00:00:00 1970\n");
  std::vector<fstHandle> handle(signals_.size(), 0);
  walk_scopes(
      *this,
      [&](const std::string& scope) { fstWriterSetScope(ctx, FST_ST_VCD_MODULE, scope.c_str(), nullptr); },
      [&] { fstWriterSetUpscope(ctx); },
      [&](Signal s, const std::string& leaf) {
        handle[s] = fstWriterCreateVar(ctx, FST_VT_VCD_WIRE, FST_VD_IMPLICIT,
                                       std::uint32_t(signals_[s].width), leaf.c_str(), 0);
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
  // Read back: a short write (the temporary directory full) loses variables or the end.
  bool whole = false;
  if (void* r = fstReaderOpen(tmp.c_str())) {
    whole = fstReaderGetVarCount(r) == signals_.size() && (last == kNever || fstReaderGetEndTime(r) == last);
    fstReaderClose(r);
  }
  if (!whole)
    throw OutputError("--fst: cannot write '" + path + "': the temporary file " + tmp + " came out short");
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(tmp.c_str(), "rb"), &std::fclose);
  std::FILE* in = file.get();
  if (!in)
    throw OutputError("--fst: cannot write '" + path + "': the temporary file " + tmp + " cannot be read");
  OutputFile out("--fst", path);
  char buf[1 << 16];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, in)) > 0) out.write(buf, n);
  if (std::ferror(in))
    throw OutputError("--fst: cannot write '" + path + "': the temporary file " + tmp + " cannot be read");
  out.close();
}

}  // namespace kairo::sim

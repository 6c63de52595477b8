// Every value change of an FST file, read through GTKWave's own reader
// (fstapi, as Debian's verilator package ships it), as sorted
// (time in ps, hierarchical signal name, value) rows. Empty (and a test
// failure) when the file cannot be opened.
#pragma once
#include <fstapi.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace kairo::test {

using FstRow = std::tuple<std::uint64_t, std::string, std::uint64_t>;

inline std::vector<FstRow> read_fst(const std::string& path) {
  void* ctx = fstReaderOpen(path.c_str());
  EXPECT_NE(ctx, nullptr) << path;
  if (!ctx) return {};
  std::map<fstHandle, std::string> names;
  std::vector<std::string> scopes;
  while (fstHier* h = fstReaderIterateHier(ctx)) {
    if (h->htyp == FST_HT_SCOPE) scopes.emplace_back(h->u.scope.name);
    if (h->htyp == FST_HT_UPSCOPE) scopes.pop_back();
    if (h->htyp == FST_HT_VAR) {
      std::string n;
      for (const auto& s : scopes) n += s + ".";
      names[h->u.var.handle] = n + h->u.var.name;
    }
  }
  struct Sink {
    std::map<fstHandle, std::string>* names;
    std::vector<FstRow> rows;
  } sink{&names, {}};
  fstReaderSetFacProcessMaskAll(ctx);
  fstReaderIterBlocks(
      ctx,
      [](void* user, std::uint64_t time, fstHandle h, const unsigned char* value) {
        auto* s = static_cast<Sink*>(user);
        s->rows.emplace_back(time, (*s->names)[h],
                             std::strtoull(reinterpret_cast<const char*>(value), nullptr, 2));
      },
      &sink, nullptr);
  fstReaderClose(ctx);
  std::sort(sink.rows.begin(), sink.rows.end());
  return sink.rows;
}

}  // namespace kairo::test

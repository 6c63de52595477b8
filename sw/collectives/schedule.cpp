#include "sw/collectives/schedule.h"

#include <fmt/format.h>

#include <map>
#include <tuple>

namespace kairo::coll {

std::vector<std::string> check_schedules(const std::vector<Schedule>& per_rank) {
  const int p = int(per_rank.size());
  std::vector<std::string> problems;
  auto problem = [&](std::string s) {
    if (problems.size() < 8) problems.push_back(std::move(s));
  };
  // (destination, source, tag) -> puts minus waits
  std::map<std::tuple<int, int, std::uint32_t>, int> balance;
  std::map<std::pair<int, std::uint32_t>, int> waits_per_tag;
  for (int r = 0; r < p; ++r)
    for (const Step& s : per_rank[std::size_t(r)]) {
      for (const Put& put : s.puts) {
        if (put.to < 0 || put.to >= p || put.to == r)
          problem(fmt::format("rank {} puts to rank {}", r, put.to));
        ++balance[{put.to, r, put.tag}];
      }
      for (const Wait& w : s.waits) {
        --balance[{r, w.from, w.tag}];
        if (++waits_per_tag[{r, w.tag}] > 1) problem(fmt::format("rank {} waits twice for tag {}", r, w.tag));
      }
    }
  for (const auto& [key, n] : balance) {
    const auto& [dst, src, tag] = key;
    if (n > 0)
      problem(fmt::format("rank {} puts to rank {} with tag {} but nobody waits for it", src, dst, tag));
    if (n < 0) problem(fmt::format("rank {} waits for rank {}'s tag {} that is never put", dst, src, tag));
  }
  return problems;
}

}  // namespace kairo::coll

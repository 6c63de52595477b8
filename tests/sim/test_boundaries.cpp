// sim::Boundaries: several sides of a cut sent as one message per process;
// each part gets back exactly what it sent, and a part with nothing for a
// process is not called for it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/window_runner.h"

namespace kairo::sim {
namespace {

struct Part : Boundary {
  std::vector<std::string> to;  // per process: what this part sends
  std::vector<std::pair<int, std::string>> got;
  void take_outgoing(std::vector<std::vector<char>>& out) override {
    for (std::size_t p = 0; p < to.size(); ++p) out[p].assign(to[p].begin(), to[p].end());
  }
  void deliver(int from, const std::vector<char>& bytes, Time) override {
    got.emplace_back(from, std::string(bytes.begin(), bytes.end()));
  }
};

TEST(Boundaries, EachPartGetsItsOwnBytesBack) {
  Part a, b;
  a.to = {"", "packets for 1", ""};
  b.to = {"", "", "registrations for 2"};
  Boundaries sending({&a, &b});
  std::vector<std::vector<char>> out(3);
  sending.take_outgoing(out);
  EXPECT_TRUE(out[0].empty());  // nothing for process 0: no message at all
  Part ra, rb;
  Boundaries receiving({&ra, &rb});
  for (int p = 1; p < 3; ++p) receiving.deliver(7, out[std::size_t(p)], 0);
  ASSERT_EQ(ra.got.size(), 1u);
  EXPECT_EQ(ra.got[0], std::make_pair(7, std::string("packets for 1")));
  ASSERT_EQ(rb.got.size(), 1u);
  EXPECT_EQ(rb.got[0], std::make_pair(7, std::string("registrations for 2")));
}

TEST(Boundaries, ATruncatedMessageIsAnError) {
  Part a;
  a.to = {"abc", "def"};
  Boundaries sending({&a});
  std::vector<std::vector<char>> out(2);
  sending.take_outgoing(out);
  out[1].pop_back();
  Part r;
  Boundaries receiving({&r});
  EXPECT_THROW(receiving.deliver(0, out[1], 0), std::runtime_error);
}

}  // namespace
}  // namespace kairo::sim

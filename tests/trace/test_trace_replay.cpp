// `kairo run PLATFORM --workload trace`: OTF2 archives written here with
// libotf2 (otf2_writer.h), each stating exactly what its ranks did, replayed
// through the binary. Expected values come from the protocol's definition
// (docs/traces.md: an eager message is one put of its bytes plus a 32-byte
// header; a rendezvous one a 32-byte request, a get of its bytes and a
// 32-byte finish) and from the trace's own times, never from a run.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/test_support.h"
#include "tests/trace/otf2_writer.h"

namespace kairo {
namespace {

using test::Otf2Writer;
using test::run_kairo;

constexpr std::uint64_t kHeader = 32;

std::string anchor(const std::string& dir) { return dir + "/traces.otf2"; }

test::CommandResult replay(const std::string& dir, std::vector<std::string> extra = {},
                           const std::string& platform = "tofu-small") {
  std::vector<std::string> args = {"run",    platform,    "--workload",
                                   "trace",  "--param",   "trace=" + anchor(dir),
                                   "--mode", "size-only", "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_kairo(args, {120, 0});
}

// Two ranks: MPI_Init at 0, then `gap` ns of compute, then MPI_Finalize.
std::string compute_only(std::uint64_t gap) {
  const std::string dir = test::temp_dir() + "/compute";
  Otf2Writer w(dir, 2);
  for (int r = 0; r < 2; ++r) {
    w.call(r, 0, "MPI_Init");
    w.call(r, 1 + gap, "MPI_Finalize");
  }
  return dir;
}

TEST(TraceReplay, ComputeGapsAreReplayedScaled) {
  const std::string dir = compute_only(250000);
  for (double scale : {1.0, 2.5}) {
    const auto r = replay(dir, {"--param", "compute_scale=" + std::to_string(scale)});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_DOUBLE_EQ(j["latency_ns"].get<double>(), 250000 * scale);
    EXPECT_EQ(j["details"]["recorded_ns"].get<double>(), 250000);  // Init's end to Finalize's start
    for (const auto& pr : j["details"]["per_rank"]) {
      EXPECT_DOUBLE_EQ(pr["compute_ns"].get<double>(), 250000 * scale);
      EXPECT_DOUBLE_EQ(pr["communication_ns"].get<double>(), 0);
    }
  }
}

// Rank 0 sends `sizes` to rank 1 (blocking sends; rank 1 receives them in order).
std::string one_way(const std::vector<std::uint64_t>& sizes) {
  const std::string dir = test::temp_dir() + "/oneway";
  Otf2Writer w(dir, 2);
  std::uint64_t t = 10;
  for (int r = 0; r < 2; ++r) w.call(r, 0, "MPI_Init");
  for (std::size_t i = 0; i < sizes.size(); ++i, t += 10) {
    w.send(0, t, 1, int(i), sizes[i]);
    w.recv(1, t, 0, int(i), sizes[i], 0, int(i));
  }
  for (int r = 0; r < 2; ++r) w.call(r, t, "MPI_Finalize");
  return dir;
}

TEST(TraceReplay, EagerBelowTheLimitRendezvousAbove) {
  const std::vector<std::uint64_t> sizes = {0, 100, 12288, 12289, 100000, 4096};
  const std::string dir = one_way(sizes);
  for (std::uint64_t limit : {std::uint64_t(12288), std::uint64_t(4096)}) {
    const auto r = replay(dir, {"--param", "eager_limit=" + std::to_string(limit)});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    std::uint64_t eager = 0, rendezvous = 0, dma = 0, bytes = 0;
    for (std::uint64_t s : sizes) {
      bytes += s;
      if (s <= limit) {
        ++eager;
        dma += s + kHeader;  // one put: header and data
      } else {
        ++rendezvous;
        dma += kHeader + s + kHeader;  // request to send, the get, the finish
      }
    }
    const auto& d = j["details"];
    EXPECT_EQ(d["eager_messages"].get<std::uint64_t>(), eager) << limit;
    EXPECT_EQ(d["rendezvous_messages"].get<std::uint64_t>(), rendezvous) << limit;
    EXPECT_EQ(d["p2p_messages"].get<std::uint64_t>(), sizes.size());
    EXPECT_EQ(d["p2p_bytes"].get<std::uint64_t>(), bytes);
    EXPECT_EQ(d["p2p_pairs"], nlohmann::json::parse("[[0, 1, " + std::to_string(sizes.size()) + ", " +
                                                    std::to_string(bytes) + "]]"));
    EXPECT_EQ(j["nic_counters"]["commands"].get<std::uint64_t>(), eager + 3 * rendezvous) << limit;
    EXPECT_EQ(j["nic_counters"]["dma_bytes_read"].get<std::uint64_t>(), dma) << limit;
    EXPECT_EQ(d["calls"]["MPI_Send"]["count"].get<int>(), int(sizes.size()));
    EXPECT_EQ(d["calls"]["MPI_Send"]["bytes"].get<std::uint64_t>(), bytes);
  }
}

// Rank 0 receives from any source with any tag, then from rank 2 with tag 5.
// Rank 1 sends (tag 7) at once, rank 2 (tag 5) after 400 us of compute: as
// MPI defines the wildcard, the first receive takes rank 1's message, the
// one that arrives first, and the second receive rank 2's. Matching the
// wildcard to rank 2's message would leave the second receive without one.
TEST(TraceReplay, AWildcardReceiveTakesTheFirstMatchingArrival) {
  const std::string dir = test::temp_dir() + "/wildcard";
  {
    Otf2Writer w(dir, 3);
    for (int r = 0; r < 3; ++r) w.call(r, 0, "MPI_Init");
    w.recv(0, 10, 2, 5, 64, -1, -1);  // as traced, it matched rank 2: the replay decides anew
    w.recv(0, 20, 1, 7, 64, 2, 5);
    w.send(1, 10, 0, 7, 64);
    w.send(2, 400010, 0, 5, 64);
    for (int r = 0; r < 3; ++r) w.call(r, 400100, "MPI_Finalize");
  }
  const auto r = replay(dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_GE(j["latency_ns"].get<double>(), 400000.0);
}

// A Score-P trace records the envelope a receive matched, not the one it
// was posted with, so its receives replay as recorded. Rank 0's first
// receive matched rank 2's message (tag 5), sent after 400 us; rank 1's
// (tag 7) arrives at once. Without kairo's posted_* attributes the replay
// gives the first receive rank 2's message and the second rank 1's, and
// rank 0 spends the 400 us waiting. The same events with the first receive
// posted as a wildcard and the second as (rank 1, tag 7), as kairo's tracer
// writes them, let the wildcard take rank 1's message, which leaves the
// second receive nothing to match: the rank never finishes (exit 1). Then a
// nonblocking pair, posted without attributes and completed by a Waitall in
// the other order, matches as recorded too.
std::string recorded_envelopes(bool posted_envelopes) {
  const std::string dir = test::temp_dir() + (posted_envelopes ? "/kairo" : "/scorep");
  Otf2Writer w(dir, 3, posted_envelopes);
  for (int r = 0; r < 3; ++r) w.call(r, 0, "MPI_Init");
  w.recv(0, 10, 2, 5, 64, -1, -1);
  w.recv(0, 20, 1, 7, 64, 1, 7);
  w.send(1, 10, 0, 7, 64);
  w.send(2, 400010, 0, 5, 64);
  w.irecv_post(0, 400100, 1, 2, 9);
  w.irecv_post(0, 400101, 2, 1, 8);
  w.enter(0, 400102, "MPI_Waitall");
  w.irecv_done(0, 400103, 1, 8, 1000, 2);
  w.irecv_done(0, 400104, 2, 9, 1000, 1);
  w.leave(0, 400105, "MPI_Waitall");
  w.send(1, 400100, 0, 8, 1000);
  w.send(2, 400100, 0, 9, 1000);
  for (int r = 0; r < 3; ++r) w.call(r, 400200, "MPI_Finalize");
  return dir;
}

TEST(TraceReplay, AScorePTraceReplaysTheEnvelopesItsReceivesMatched) {
  auto r = replay(recorded_envelopes(false));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["details"]["p2p_pairs"], nlohmann::json::parse("[[1, 0, 2, 1064], [2, 0, 2, 1064]]"));
  EXPECT_GE(j["details"]["per_rank"][0]["communication_ns"].get<double>(), 400000.0 - 20);
  EXPECT_TRUE(j["status_ok"].get<bool>());

  r = replay(recorded_envelopes(true));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("rank 0: trace rank 0 is in MPI_Recv (its MPI call 3), waiting for a message from "
                       "rank 1 with tag 7"),
            std::string::npos)
      << r.err;
}

// Collectives follow the documented default rule (docs/traces.md, after
// Open MPI's tuned decisions) unless algo.NAME overrides it for every call
// of that collective. Eight ranks: allreduces of 64 B and 80,000 B (Score-P
// records sizeSent = N x the buffer), bcasts of 1 KiB and 100 KiB, and a
// barrier. (A ring allreduce keeps p - 1 partial sums: its receive region
// must be sized by the algorithm, not by recursive doubling's rounds, or its
// puts land out of bounds and the ranks never finish.)
std::string collectives_8() {
  const std::string dir = test::temp_dir() + "/collectives";
  Otf2Writer w(dir, 8);
  for (int r = 0; r < 8; ++r) {
    w.call(r, 0, "MPI_Init");
    w.collective(r, 10, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, 8 * 64, 8 * 64);
    w.collective(r, 20, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, 8 * 80000, 8 * 80000);
    w.collective(r, 30, "MPI_Bcast", OTF2_COLLECTIVE_OP_BCAST, r == 0 ? 7 * 1024 : 0, r == 0 ? 0 : 1024, 0);
    w.collective(r, 40, "MPI_Bcast", OTF2_COLLECTIVE_OP_BCAST, r == 0 ? 7 * 102400 : 0, r == 0 ? 0 : 102400,
                 0);
    w.collective(r, 50, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0);
    w.call(r, 60, "MPI_Finalize");
  }
  return dir;
}

TEST(TraceReplay, CollectivesFollowTheDefaultRuleUnlessAnAlgorithmIsNamed) {
  const std::string dir = collectives_8();
  auto r = replay(dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto c = nlohmann::json::parse(r.out)["details"]["collectives"];
  EXPECT_EQ(c["allreduce"]["algorithms"], nlohmann::json::parse(R"({"recursive-doubling": 1, "ring": 1})"));
  EXPECT_EQ(c["bcast"]["algorithms"], nlohmann::json::parse(R"({"binomial": 1, "vandegeijn": 1})"));
  EXPECT_EQ(c["barrier"]["algorithms"], nlohmann::json::parse(R"({"recursive-doubling": 1})"));

  r = replay(dir, {"--param", "algo.allreduce=rabenseifner", "--param", "algo.barrier=ring"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  c = nlohmann::json::parse(r.out)["details"]["collectives"];
  EXPECT_EQ(c["allreduce"]["algorithms"], nlohmann::json::parse(R"({"rabenseifner": 2})"));
  EXPECT_EQ(c["bcast"]["algorithms"], nlohmann::json::parse(R"({"binomial": 1, "vandegeijn": 1})"));
  EXPECT_EQ(c["barrier"]["algorithms"], nlohmann::json::parse(R"({"ring": 1})"));

  r = replay(dir, {"--param", "algo.allreduce=bogus"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--param algo.allreduce=bogus: expected one of: "), std::string::npos) << r.err;
  r = replay(dir, {"--param", "algo.allgatherv=ring"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--param algo.allgatherv: not a parameter of workload trace"), std::string::npos)
      << r.err;
}

// The hybrid EPS+OCS network (hybrid-eps-ocs-128: 4 edge switches of 32
// nodes, an 8 KiB OCS threshold). 128 ranks; ranks 0..7 each send four
// 64 KiB messages to rank r + 32 (the next switch) and one 4 KiB message
// (below the threshold, so no candidate for a pathway) to rank r + 64; ranks 100 and 101 (one switch)
// exchange 64 KiB. Under SP with 8 pathways the eight (r, r + 32) pairs get a circuit each, so the 32 large
// inter-switch messages, and only they, go over the OCS, directly (no relay). CP re-places the ranks so that
// every pair shares a switch: nothing crosses switches and nothing is routed. EPS alone routes nothing.
std::string hybrid_128() {
  const std::string dir = test::temp_dir() + "/hybrid";
  Otf2Writer w(dir, 128);
  for (int r = 0; r < 128; ++r) w.call(r, 0, "MPI_Init");
  std::uint64_t t = 10;
  for (int k = 0; k < 4; ++k, t += 10)
    for (int r = 0; r < 8; ++r) {
      w.send(r, t, r + 32, k, 65536);
      w.recv(r + 32, t, r, k, 65536, r, k);
    }
  for (int r = 0; r < 8; ++r) {
    w.send(r, t, r + 64, 0, 4096);
    w.recv(r + 64, t, r, 0, 4096, r, 0);
  }
  t += 10;
  w.send(100, t, 101, 0, 65536);
  w.recv(101, t, 100, 0, 65536, 100, 0);
  for (int r = 0; r < 128; ++r) w.call(r, t + 10, "MPI_Finalize");
  return dir;
}

TEST(TraceReplay, OnTheHybridNetworkLargeMessagesTakeThePathwaysSpAndCpAssign) {
  const std::string dir = hybrid_128();
  auto run = [&](const std::string& scheme) {
    const auto r =
        replay(dir, {"--param", "scheme=" + scheme, "--param", "pathways=8"}, "hybrid-eps-ocs-128");
    EXPECT_EQ(r.exit_code, 0) << scheme << ": " << r.err;
    return r.exit_code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json();
  };
  const auto eps = run("eps"), sp = run("sp"), cp = run("cp");
  ASSERT_FALSE(eps.is_null() || sp.is_null() || cp.is_null());
  for (const auto* j : {&eps, &sp, &cp}) {
    EXPECT_EQ((*j)["details"]["p2p_messages"].get<int>(), 8 * 4 + 8 + 1);
    EXPECT_EQ((*j)["details"]["p2p_bytes"].get<std::uint64_t>(), 8 * 4 * 65536 + 8 * 4096 + 65536);
  }
  EXPECT_FALSE(eps["details"].contains("routed_messages"));
  EXPECT_EQ(sp["details"]["pathways_assigned"].get<int>(), 8);
  EXPECT_EQ(sp["details"]["routed_messages"].get<int>(), 8 * 4);
  EXPECT_EQ(sp["details"]["relayed_hops"].get<int>(), 0);
  EXPECT_EQ(cp["details"]["routed_messages"].get<int>(), 0);
  EXPECT_EQ(cp["details"]["pathways_assigned"].get<int>(), 0);
  // Rank 0's four 64 KiB messages at 32 Gb/s over its circuit instead of 10 Gb/s over the EPS.
  const double eps0 = eps["details"]["per_rank"][0]["communication_ns"].get<double>();
  const double sp0 = sp["details"]["per_rank"][0]["communication_ns"].get<double>();
  EXPECT_LT(sp0, eps0 - 4 * 65536 * 8 * (1 / 10.0 - 1 / 32.0) * 0.8) << sp0 << " " << eps0;
}

TEST(TraceReplay, ARankWaitingForAMessageNobodySendsIsNamed) {
  const std::string dir = test::temp_dir() + "/deadlock";
  {
    Otf2Writer w(dir, 2);
    for (int r = 0; r < 2; ++r) w.call(r, 0, "MPI_Init");
    w.recv(0, 10, 1, 3, 8, 1, 3);
    for (int r = 0; r < 2; ++r) w.call(r, 20, "MPI_Finalize");
  }
  const auto r = replay(dir);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("ranks never finished"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("rank 0: trace rank 0 is in MPI_Recv (its MPI call 2), waiting for a message from "
                       "rank 1 with tag 3"),
            std::string::npos)
      << r.err;
}

TEST(TraceReplay, UnknownCallsAreNamedAndStrictMakesThemAnError) {
  const std::string dir = test::temp_dir() + "/unknown";
  {
    Otf2Writer w(dir, 2);
    for (int r = 0; r < 2; ++r) {
      w.call(r, 0, "MPI_Init");
      w.call(r, 5, "MPI_Put");
      w.call(r, 7, "MPI_Put");
      w.call(r, 9, "MPI_Finalize");
    }
  }
  auto r = replay(dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("4 MPI_Put call(s) not replayed"), std::string::npos) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["details"]["unknown_calls"]["MPI_Put"].get<int>(), 4);
  r = replay(dir, {"--param", "strict=true"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("MPI calls the replay does not know: MPI_Put (4)"), std::string::npos) << r.err;
}

TEST(TraceReplay, MembersThatDisagreeOnTheirCollectivesAreBadInput) {
  const std::string dir = test::temp_dir() + "/mismatch";
  {
    Otf2Writer w(dir, 2);
    for (int r = 0; r < 2; ++r) w.call(r, 0, "MPI_Init");
    w.collective(0, 10, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0);
    for (int r = 0; r < 2; ++r) w.call(r, 20, "MPI_Finalize");
  }
  const auto r = replay(dir);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("ranks 0 and 1 make 1 and 0 collective calls on communicator MPI_COMM_WORLD"),
            std::string::npos)
      << r.err;
}

TEST(TraceReplay, MoreRanksThanTheMachineHasAreBadInput) {
  const std::string dir = test::temp_dir() + "/big";
  {
    Otf2Writer w(dir, 20);
    for (int r = 0; r < 20; ++r) w.call(r, 0, "MPI_Init");
  }
  const auto r = replay(dir, {}, "ib-qdr-16");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("the trace has 20 ranks, but ib-qdr-16 has 16"), std::string::npos) << r.err;
}

TEST(TraceReplay, MissingTruncatedAndCorruptArchivesAreBadInput) {
  const std::string tmp = test::temp_dir();
  auto r = replay(tmp + "/nothing");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(tmp + "/nothing/traces.otf2: no such file"), std::string::npos) << r.err;

  const std::string corrupt = tmp + "/corrupt";
  ::mkdir(corrupt.c_str(), 0755);
  test::write_file(corrupt, "traces.otf2", "this is not an OTF2 anchor file\n");
  r = replay(corrupt);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find(anchor(corrupt) + ": "), std::string::npos) << r.err;

  // A whole archive whose rank 0 events are cut in half.
  const std::string cut = one_way({100, 200, 300, 400, 50000, 60000});
  const std::string evt = cut + "/traces/0.evt";
  struct stat st {};
  ASSERT_EQ(::stat(evt.c_str(), &st), 0);
  ASSERT_EQ(::truncate(evt.c_str(), st.st_size / 2), 0);
  r = replay(cut);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find(anchor(cut) + ": "), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("Segmentation"), std::string::npos);

  r = run_kairo({"run", "tofu-small", "--workload", "trace", "--quiet"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("needs --param trace=DIR/traces.otf2"), std::string::npos) << r.err;
}

// An anchor whose counts cannot be true is refused before libotf2 reads it:
// a property count larger than the file could hold (libotf2 would allocate
// 2 x count pointers first: 17 GB for the count below), a chunk size outside
// OTF2's bounds. The offsets follow OTF2's anchor format 3: chunk header,
// endianness, "OTF2\0", format, trace format and version, then the event
// and definition chunk sizes at 12 and 20, substrate, compression,
// locations and global definitions, three strings, the property count.
TEST(TraceReplay, AnAnchorWhoseCountsCannotBeTrueIsRefusedBeforeItIsRead) {
  namespace fs = std::filesystem;
  const fs::path shipped = fs::path(KAIRO_SOURCE_DIR) / "examples/traces/small-8";
  const std::string good = test::read_file((shipped / "traces.otf2").string());
  ASSERT_EQ(good.substr(2, 5), std::string("OTF2\0", 5));
  ASSERT_EQ(good[1], 0x42) << "the shipped anchor is little-endian";
  std::size_t props = 7 + 1 + 4 + 8 + 8 + 2 + 8 + 8;
  for (int k = 0; k < 3; ++k) props = good.find('\0', props) + 1;  // machine, creator, description
  struct Case {
    std::size_t at;
    std::string bytes, want;
  };
  const std::vector<Case> cases = {
      {props, std::string("\xc0\xc0\xc0\xc0", 4), "properties cannot fit"},
      {20, std::string("\x00\x00\x40\x2e\x00\x00\x00\x00", 8), "chunk size of 775946240 bytes"},
      {12, std::string("\x00\x00\x00\x00\x00\x00\x00\x00", 8), "chunk size of 0 bytes"},
  };
  for (const Case& c : cases) {
    const std::string dir = test::temp_dir() + "/archive";
    fs::copy(shipped, dir, fs::copy_options::recursive);
    std::string bad = good;
    bad.replace(c.at, c.bytes.size(), c.bytes);
    test::write_file(dir, "traces.otf2", bad);
    const auto r = replay(dir, {}, "mesh-8x8");
    EXPECT_EQ(r.exit_code, 2) << c.want << ": " << r.err;
    EXPECT_NE(r.err.find(anchor(dir) + ": malformed anchor file: "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(c.want), std::string::npos) << r.err;
  }
}

// examples/traces/small-8: tests/trace/mpi_small.c traced at 8 ranks, with
// the program's own account of its messages beside it (program.json). The
// replay moves exactly those, and every RDMA operation it makes keeps the
// NIC's ordering promises (the operation log's checker).
TEST(TraceReplay, TheShippedTraceMovesWhatItsProgramSentAndPassesTheOrderingChecker) {
  const std::string dir = std::string(KAIRO_SOURCE_DIR) + "/examples/traces/small-8";
  const auto own = nlohmann::json::parse(test::read_file(dir + "/program.json"));
  const std::string ops = test::temp_dir() + "/ops.csv";
  const auto r = replay(dir, {"--op-log", ops, "--check-ops"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("no violation"), std::string::npos) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["details"]["p2p_pairs"], own["pairs"]);
  for (const auto& [name, per_rank] : own["collectives"].items())
    EXPECT_EQ(j["details"]["calls"][name]["count"].get<int>(), per_rank.get<int>() * own["ranks"].get<int>())
        << name;
}

}  // namespace
}  // namespace kairo

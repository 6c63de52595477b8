// What the packet rows of a waveform show (docs/waveforms.md, "Packet
// values"): each packet by a value that names its operation log id N.T.K/j
// and its kind, so back-to-back packets of one operation are separate
// intervals on the injecting TNI's tx_pkt, on its DMA rows and on the
// target's, and the ping, the pong and their acknowledgements differ; the
// save file's filter names each value as the operation log does; a get's save
// file reaches the get's completion; markers A and B never print over each
// other. Expected values are packed here from the layout the documentation
// gives, not taken from the model.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>

#include "observe/packet_label.h"
#include "platforms/gtkw.h"
#include "tests/fst_rows.h"
#include "tests/test_support.h"

namespace kairo {
namespace {

using Row = test::FstRow;  // time (ps), signal, value

// The layout of docs/waveforms.md: N (20 bits) T (4) kind (4) j (16) K (20).
enum Kind : std::uint64_t { kData = 1, kAck = 2, kGetRequest = 3, kGetResponse = 4 };
std::uint64_t value(std::uint64_t node, std::uint64_t tni, Kind kind, std::uint64_t j, std::uint64_t k) {
  return node << 44 | tni << 40 | std::uint64_t(kind) << 36 | j << 20 | k;
}

const std::string kSrc = "nic_x0y0z0a0b0c0.tni0.", kDst = "nic_x1y0z0a0b0c0.tni0.";

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}
bool packet_signal(const std::string& s) { return ends_with(s, ".pkt") || ends_with(s, ".tx_pkt"); }

// The non-zero intervals of `signal`, in time order: (start, value). A new
// interval starts at every change to a non-zero value.
std::vector<std::pair<std::uint64_t, std::uint64_t>> intervals(const std::vector<Row>& rows,
                                                               const std::string& signal) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
  for (const auto& [t, s, v] : rows)
    if (s == signal && v != 0) out.emplace_back(t, v);
  return out;
}
std::vector<std::uint64_t> values_of(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& iv,
                                     std::size_t n) {
  std::vector<std::uint64_t> v;
  for (std::size_t k = 0; k < iv.size() && k < n; ++k) v.push_back(iv[k].second);
  return v;
}

// The save file's packet filter: value -> text, and the markers.
struct SaveFile {
  double zoom = 0;
  std::uint64_t timestart = 0;
  long long a = -1, b = -1;
  std::string a_name, b_name;
  std::map<std::string, std::string> filter_of;  // row -> filter file
};
SaveFile parse(const std::string& text) {
  SaveFile f;
  std::istringstream in(text);
  std::string filter;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("[timestart] ", 0) == 0) f.timestart = std::stoull(line.substr(12));
    if (line.rfind("*", 0) == 0) {
      std::istringstream w(line.substr(1));
      long long primary = 0;
      w >> f.zoom >> primary >> f.a >> f.b;
    }
    if (line.rfind("[markername] A", 0) == 0) f.a_name = line.substr(14);
    if (line.rfind("[markername] B", 0) == 0) f.b_name = line.substr(14);
    if (line.rfind("@", 0) == 0) filter.clear();
    if (line.rfind("^", 0) == 0) filter = line.substr(line.find(' ') + 1);
    if (line.rfind("+{", 0) == 0) {
      std::string path = line.substr(line.find("} ") + 2);
      path = path.substr(0, path.find('['));
      if (!filter.empty()) f.filter_of[path] = filter;
    }
  }
  return f;
}
std::map<std::uint64_t, std::string> read_filter(const std::string& path) {
  std::map<std::uint64_t, std::string> m;
  std::istringstream in(test::read_file(path));
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const auto sp = line.find(' ');
    m[std::stoull(line.substr(0, sp))] = line.substr(sp + 1);
  }
  return m;
}

struct Traced {
  std::string dir;
  std::vector<Row> rows;
  SaveFile save;
};
Traced traced(const std::vector<std::string>& extra) {
  Traced r;
  r.dir = test::temp_dir();
  std::vector<std::string> args = {
      "run", "tofu-small", "--workload",     "pingpong", "--set",           "nic.mtu=1920", "--trace-nodes",
      "0,1", "--fst",      r.dir + "/w.fst", "--gtkw",   r.dir + "/w.gtkw", "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto res = test::run_kairo(args);
  EXPECT_EQ(res.exit_code, 0) << res.err;
  if (res.exit_code != 0) return r;
  r.rows = test::read_fst(r.dir + "/w.fst");
  r.save = parse(test::read_file(r.dir + "/w.gtkw"));
  return r;
}

// The filter's text for every packet kind, from values packed here: the
// operation log's "N.T.K/j kind"; a value no packet has reads as a number.
TEST(PacketValues, TheTextOfAValueIsTheOperationLogsPacketIdAndKind) {
  EXPECT_EQ(observe::packet_label_text(value(0, 0, kData, 2, 1)), "0.0.1/2 data");
  EXPECT_EQ(observe::packet_label_text(value(95, 3, kAck, 3, 12)), "95.3.12/3 ack");
  EXPECT_EQ(observe::packet_label_text(value(7, 1, kGetRequest, 0, 1000)), "7.1.1000/0 get_request");
  EXPECT_EQ(observe::packet_label_text(value(7, 1, kGetResponse, 65535, 1000)),
            "7.1.1000/65535 get_response");
  EXPECT_EQ(observe::packet_label_text(value(1, 2, Kind(5), 0, 4)), "1.2.4/0 atomic_request");
  EXPECT_EQ(observe::packet_label_text(value(1, 2, Kind(6), 1, 4)), "1.2.4/1 atomic_response");
  EXPECT_EQ(observe::packet_label_text(12345), "12345") << "kind 0: a traffic packet's sequence number";
}

TEST(PacketValues, AFourKibPutsThreeDataPacketsAreThreeIntervalsOnTxPktAndOnBothDmaRows) {
  const Traced r = traced({"--param", "size=4KiB", "--trace-tnis", "0"});
  ASSERT_FALSE(r.rows.empty());
  // 4096 bytes in 1920-byte packets: ceil(4096 / 1920) = 3 data packets of put 0.0.1.
  const std::size_t n = (4096 + 1920 - 1) / 1920;
  std::vector<std::uint64_t> want;
  for (std::uint64_t j = 0; j < n; ++j) want.push_back(value(0, 0, kData, j, 1));
  EXPECT_EQ(values_of(intervals(r.rows, kSrc + "tx_pkt"), n), want) << "injection at the initiator";
  EXPECT_EQ(values_of(intervals(r.rows, kSrc + "tx_dma_pkt"), n), want) << "DMA read at the initiator";
  EXPECT_EQ(values_of(intervals(r.rows, kDst + "rx_dma_pkt"), n), want) << "DMA write at the target";
  // The save file names each of them as the operation log does.
  ASSERT_TRUE(r.save.filter_of.count(kSrc + "tx_pkt")) << "tx_pkt has no filter";
  for (const std::string row : {kSrc + "tx_pkt", kSrc + "tx_dma_pkt", kDst + "rx_dma_pkt"}) {
    ASSERT_TRUE(r.save.filter_of.count(row)) << row << " has no filter";
    const auto names = read_filter(r.dir + "/" + r.save.filter_of.at(row));
    for (std::uint64_t j = 0; j < n; ++j) {
      const auto it = names.find(want[j]);
      ASSERT_NE(it, names.end()) << row << ": no name for packet " << j;
      EXPECT_EQ(it->second, "0.0.1/" + std::to_string(j) + " data");
    }
    EXPECT_EQ(names.count(0), 1u);
    for (const auto& [t, s, v] : r.rows)
      if (s == row) EXPECT_TRUE(names.count(v)) << row << " takes " << v << ", which its filter lacks";
  }
}

TEST(PacketValues, ThePingThePongAndTheirAcknowledgementsCarryDifferentValues) {
  // One packet each way: 1000 bytes fit one 1920-byte packet, so each ack is packet 1.
  const Traced r = traced({"--param", "size=1000B", "--trace-dims", "X,ni"});
  ASSERT_FALSE(r.rows.empty());
  const std::uint64_t ping = value(0, 0, kData, 0, 1), ping_ack = value(0, 0, kAck, 1, 1);
  const std::uint64_t pong = value(1, 0, kData, 0, 1), pong_ack = value(1, 0, kAck, 1, 1);
  std::set<std::uint64_t> x0_to_x1, x1_to_x0, on_links;
  for (const auto& [t, s, v] : r.rows) {
    if (!packet_signal(s) || v == 0) continue;
    on_links.insert(v);
    if (s == "rtr_x0y0z0a0b0c0.x.pkt") x0_to_x1.insert(v);
    if (s == "rtr_x1y0z0a0b0c0.x.pkt") x1_to_x0.insert(v);
  }
  EXPECT_EQ(x0_to_x1, (std::set<std::uint64_t>{ping, pong_ack})) << "x0 -> x1: the ping, the pong's ack";
  EXPECT_EQ(x1_to_x0, (std::set<std::uint64_t>{pong, ping_ack})) << "x1 -> x0: the pong, the ping's ack";
  EXPECT_EQ(on_links.size(), 4u) << "four packets, four values";
  const auto names = read_filter(r.dir + "/" + r.save.filter_of.at("rtr_x0y0z0a0b0c0.x.pkt"));
  EXPECT_EQ(names.at(ping), "0.0.1/0 data");
  EXPECT_EQ(names.at(pong_ack), "1.0.1/1 ack");
}

// The story's facts, from the waveform: the first packet a traced block
// shows, the last time any packet row shows its value, and the first
// completion of the TNI that injected it after its head.
struct Story {
  std::uint64_t head = 0, tail = 0, done = 0, packet = 0;
};
Story story_of(const std::vector<Row>& rows) {
  Story st;
  std::string injector;
  for (const auto& [t, s, v] : rows)
    if (t > 0 && v != 0 && packet_signal(s)) {
      st.head = t, st.packet = v;
      if (ends_with(s, ".tx_pkt")) injector = s.substr(0, s.size() - 6);
      break;
    }
  std::map<std::string, std::uint64_t> now;
  for (const auto& [t, s, v] : rows) {
    if (!packet_signal(s)) continue;
    if (now[s] == st.packet && v != st.packet) st.tail = std::max(st.tail, t);
    now[s] = v;
  }
  for (const auto& [t, s, v] : rows)
    if (!injector.empty() && t > st.head && s == injector + "completions") {
      st.done = t;
      break;
    }
  return st;
}

double ps_per_pixel(double zoom) { return std::pow(2.0, -zoom) * platforms::kGtkwPsPerPixelAtZoom0; }
double window_end(const SaveFile& f) {
  return double(f.timestart) + platforms::kGtkwWavePixels * ps_per_pixel(f.zoom);
}
// docs/waveforms.md: two names centred on their markers clear each other when
// the markers are at least half their widths (7 pixels a character) and 8
// pixels apart.
bool clear(const std::string& a, std::uint64_t ta, const std::string& b, std::uint64_t tb, double zoom) {
  return double(tb - ta) / ps_per_pixel(zoom) >= double(a.size() + b.size()) * 7 / 2 + 8;
}

TEST(PacketValues, AGetsSaveFileReachesItsCompletion) {
  // As a user runs it: relative paths, from the directory of the files.
  const std::string dir = test::temp_dir();
  const std::string cmd = "cd " + dir + " && " + KAIRO_BIN +
                          " run tofu-small --workload pingpong --param op=get --param size=4KiB "
                          "--trace-nodes 0,1 --vcd g.vcd --fst g.fst --gtkw g.gtkw --quiet > run.log 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << test::read_file(dir + "/run.log");
  const std::vector<Row> rows = test::read_fst(dir + "/g.fst");
  const Story st = story_of(rows);
  EXPECT_EQ(st.packet, value(0, 0, kGetRequest, 0, 1)) << "the story is the get's request";
  ASSERT_GT(st.done, st.head) << "no completion at the initiator";
  // The get completes once its last response is written at the initiator.
  std::uint64_t last_write = 0;
  for (const auto& [t, s, v] : rows)
    if (s == kSrc + "rx_dma_pkt" && v == 0 && t > st.head) last_write = t;
  EXPECT_EQ(st.done, last_write) << "the completion follows the last response's DMA write";
  const SaveFile f = parse(test::read_file(dir + "/g.gtkw"));
  EXPECT_LE(f.timestart, st.head);
  EXPECT_GE(window_end(f), double(st.done)) << "the get's completion is off screen";
  EXPECT_EQ(test::read_file(dir + "/g.gtkw").find("\"/"), std::string::npos) << "paths stay relative";
}

// Marker A is at the packet's head; B at its tail when the two names clear
// each other at the save file's zoom, else at the operation's completion when
// that clears A, else left out; a B that is set never overlaps A.
TEST(PacketValues, MarkersAAndBNeverPrintOverEachOther) {
  const std::vector<std::vector<std::string>> runs = {
      {"--param", "size=4KiB", "--trace-tnis", "0"},                             // a put with its completion
      {"--param", "op=get", "--param", "size=4KiB", "--trace-tnis", "0"},        // a get
      {"--param", "size=4KiB", "--trace-signals", "link", "--trace-dims", "X"},  // links only: no completion
  };
  int at_tail = 0, at_completion = 0;
  for (const auto& extra : runs) {
    const Traced r = traced(extra);
    ASSERT_FALSE(r.rows.empty());
    const Story st = story_of(r.rows);
    const SaveFile& f = r.save;
    std::string args;
    for (const auto& a : extra) args += a + " ";
    SCOPED_TRACE(args);
    ASSERT_EQ(f.a, (long long)st.head) << "marker A is not at the packet's head";
    ASSERT_FALSE(f.a_name.empty());
    const double half_a = double(f.a_name.size()) * 7 / 2;
    EXPECT_GE(double(f.a) - half_a * ps_per_pixel(f.zoom), double(f.timestart)) << "A's name runs off screen";
    const bool tail_clears = clear(f.a_name, st.head, "tail of " + f.a_name.substr(8), st.tail, f.zoom);
    if (tail_clears) {
      EXPECT_EQ(f.b, (long long)st.tail) << "B belongs at the tail, which clears A";
      ++at_tail;
    } else if (st.done && f.b >= 0) {
      EXPECT_EQ(f.b, (long long)st.done) << "B belongs at the operation's completion";
      ++at_completion;
    }
    if (f.b >= 0) {
      EXPECT_TRUE(clear(f.a_name, std::uint64_t(f.a), f.b_name, std::uint64_t(f.b), f.zoom))
          << "'" << f.a_name << "' and '" << f.b_name << "' print over each other";
      const double half_b = double(f.b_name.size()) * 7 / 2;  // its name is centred on it
      EXPECT_LE(double(f.b) + half_b * ps_per_pixel(f.zoom), window_end(f)) << "B's name runs off screen";
    } else {
      EXPECT_TRUE(f.b_name.empty());
    }
  }
  EXPECT_GE(at_tail, 1) << "no run put B at the tail";
  EXPECT_GE(at_completion, 1) << "no run put B at the completion";
}

}  // namespace
}  // namespace kairo

// What the locality-aware MPI algorithm of Takizawa et al. 2008 (§3.1) knows before it
// assigns optical circuits: the shape of the two-tier EPS network and the
// application's communication pattern (bytes each rank sends each other rank
// per iteration), obtained by a pre-run or from a file.
//
// Pure data, no SystemC: partitioning.h and forwarding.h turn it into circuit
// assignments and routes that unit tests check without a network.
#pragma once
#include <cstdint>
#include <istream>
#include <stdexcept>
#include <string>
#include <vector>

namespace kairo::hybrid {

// A two-tier EPS tree: `edges` edge (end-tier) switches of `hosts_per_edge`
// nodes each under one top switch S0. Node h hangs under edge h / hosts_per_edge.
// Rates are per link and direction: host <-> edge, edge <-> top, and one
// optical circuit (Takizawa et al. 2008 Table 1: 10 Gbps, 64 Gbps, 32 Gbps).
struct EpsShape {
  int edges = 4;
  int hosts_per_edge = 32;
  double host_bytes_per_s = 10e9 / 8;
  double up_bytes_per_s = 64e9 / 8;
  double ocs_bytes_per_s = 32e9 / 8;

  int nodes() const { return edges * hosts_per_edge; }
  int edge_of(std::uint32_t node) const { return int(node) / hosts_per_edge; }
  // Throws std::invalid_argument naming the field when a count or rate is not positive.
  void validate() const;
};

// Message size below which a message never takes a circuit (Takizawa et al. 2008 §4.1:
// 8192 B, the OCS bandwidth-delay product).
inline constexpr std::uint64_t kDefaultThresholdBytes = 8192;

// bytes[s * ranks + d]: bytes rank s sends rank d per iteration. Not modeled:
// how those bytes split into messages; the threshold is applied to the total
// of one direction as if it were one message.
struct Pattern {
  int ranks = 0;
  std::vector<std::uint64_t> bytes;

  std::uint64_t at(int src, int dst) const {
    return bytes[std::size_t(src) * std::size_t(ranks) + std::size_t(dst)];
  }
  std::uint64_t& at(int src, int dst) {
    return bytes[std::size_t(src) * std::size_t(ranks) + std::size_t(dst)];
  }
  static Pattern zeros(int ranks);
};

struct PatternError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A ranks x ranks CSV matrix: row s, column d = bytes from s to d. Cells are
// non-negative integers, bare (bytes) or with a size unit ("40MB", "4KiB");
// blank lines and lines starting with '#' are skipped. Errors throw
// PatternError "FILE:LINE: what was expected".
Pattern parse_pattern_csv(std::istream& in, const std::string& name);
Pattern load_pattern_csv(const std::string& path);

// Takizawa et al. 2008's "Neighbor" benchmark: a rows x cols process grid, rank =
// row * cols + col, each rank sends `size` bytes to its up/down/left/right
// neighbours.
//
// `periodic` chooses the reading of "exchanges 40MB messages with its four
// neighbors". Wrapped (a torus) every rank has four. Open (default), a rank
// on the border has fewer. Default is open because it is the only reading
// that reproduces the seed's own figures (§4.2): with sequential placement
// (2 x 16 rows per switch) the inter-switch pairs are 3 x 16 = 48 and CP's
// 8 x 4 blocks cut 3 x 8 = 24; a torus would give 64 and 32. On a wrapped
// dimension of size 2 both neighbours are the same rank (its bytes add up);
// a dimension of size 1 has no neighbour in it.
struct NeighborGrid {
  int rows = 8;
  int cols = 16;
  std::uint64_t size = 40'000'000;
  bool periodic = false;
};
Pattern neighbor_pattern(const NeighborGrid& grid);

}  // namespace kairo::hybrid

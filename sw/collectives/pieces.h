// The sub-algorithms that the bcast and reduction algorithms are made of
// (Matsuda et al. builds every collective from such primitives): each appends one
// rank's steps to its schedule, for the ranks of a group.
//
// A message of `bytes` is split into one part per group member (`Parts`);
// part i belongs to member i and keeps its offset in every rank's buffer, so
// a part lands where it finally belongs. Where the buffer is (`Buf`): the
// receive region (a bcast forwards what arrived there) or the send region
// (an allreduce's vector, whose scratch slots are in the receive region).
//
//   scatter_binomial ..... the root's parts down a binomial tree, halving
//                          the distance each round (Matsuda et al.'s split_copy)
//   gather_binomial ...... the reverse: sub-tree ranges up to the root
//   reduce_binomial ...... the whole vector up a binomial tree, summed at
//                          each parent (lower index first)
//   allgather_doubling ... recursive doubling, a power-of-two group: round j
//                          swaps the aligned 2^j parts with index xor 2^j
//                          (Matsuda et al.'s merge_copy)
//   allgather_ring ....... size - 1 steps: member v forwards part (v + shift
//                          - k) to v + 1
//   reduce_scatter_halving recursive halving, a power-of-two group: round k
//                          sends the half it gives up to index xor n/2^(k+1)
//                          and sums the half it keeps (Matsuda et al.'s split_reduce)
//   reduce_scatter_ring .. size - 1 steps; member v ends with part v summed
//                          over the group, in chain order
//   counter_copy ......... Matsuda et al.: the parts held by group A copied to the
//                          same indices of group B (the other cluster); only
//                          members 0..n-1 cross, the others forward their
//                          part to member (index mod n) on their side, and
//                          the designated member of B forwards it on
//   counter_reduce ....... the same in both directions; each part ends at its
//                          owner on both sides as (A's partial + B's partial)
#pragma once
#include <cstdint>
#include <vector>

#include "sw/collectives/schedule.h"

namespace kairo::coll {

struct Group {
  std::vector<int> members;  // ranks, by index; index 0 is the group's root
  int me = -1;               // this rank's index, -1 if it is not a member
  int size() const { return int(members.size()); }
  // `count` ranks first, first + 1, ..., rotated so that index 0 is `root`.
  static Group range(int rank, int first, int count, int root = -1);
};

struct Parts {
  std::uint64_t bytes = 0;
  int count = 1;
  std::uint64_t unit = 1;  // parts are whole units (8: doubles)
  std::uint64_t offset(int i) const {
    return unit * ((bytes / unit) * std::uint64_t(i) / std::uint64_t(count));
  }
  std::uint64_t span(int b, int e) const { return offset(e) - offset(b); }  // parts [b, e)
};

enum class Buf : std::uint8_t { kRecv, kSend };

inline bool is_pow2(int n) { return n > 0 && (n & (n - 1)) == 0; }
inline int log2_floor(int n) {
  int k = 0;
  while ((2 << k) <= n) ++k;
  return k;
}

void scatter_binomial(Schedule& s, const Group& g, const Parts& parts, Buf buf, std::uint32_t tag,
                      const char* phase);
void gather_binomial(Schedule& s, const Group& g, const Parts& parts, Buf buf, std::uint32_t tag,
                     const char* phase);
// Sums go through `slot_base` + round x bytes in the receive region.
void reduce_binomial(Schedule& s, const Group& g, std::uint64_t bytes, std::uint64_t slot_base,
                     std::uint32_t tag, const char* phase);
void allgather_doubling(Schedule& s, const Group& g, const Parts& parts, Buf buf, std::uint32_t tag,
                        const char* phase);
void allgather_ring(Schedule& s, const Group& g, const Parts& parts, Buf buf, int shift, std::uint32_t tag,
                    const char* phase);
// Reductions of the send-region vector; round k's incoming half goes to
// `slot_base` + k x bytes (+ the part's offset) in the receive region.
void reduce_scatter_halving(Schedule& s, const Group& g, const Parts& parts, std::uint64_t slot_base,
                            std::uint32_t tag, const char* phase);
void reduce_scatter_ring(Schedule& s, const Group& g, const Parts& parts, std::uint64_t slot_base,
                         std::uint32_t tag, const char* phase);
// Groups a and b of equal size (the two clusters); `streams` members of each
// cross. counter_reduce uses three slots of `bytes` from `slot_base`.
void counter_copy(Schedule& s, const Group& a, const Group& b, const Parts& parts, Buf buf, int streams,
                  std::uint32_t tag, const char* phase);
void counter_reduce(Schedule& s, const Group& a, const Group& b, const Parts& parts, int streams,
                    std::uint64_t slot_base, std::uint32_t tag, const char* phase);

// The receive-region bytes a rank's schedule touches (slots it sums or
// forwards from): what the rank must register. The algorithms here are
// symmetric, so that is also where its peers write.
std::uint64_t recv_extent(const Schedule& s);

}  // namespace kairo::coll

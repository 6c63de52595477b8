// random-ring: HPCC's randomly ordered ring bandwidth (Susukita et al. 2016 §4.1). The
// ranks form a ring in a random order drawn from `seed`; every rank puts
// `size` bytes to its left and to its right neighbour at once (right on TNI
// 0, left on TNI 1 when the node has two) and waits until both of its puts
// completed and both neighbours' data arrived.
//
// Parameters: size (2MB, i.e. 2,000,000 bytes as in HPCC), seed (the run's --seed, 1).
// Figures, as HPCC defines them: the time is the slowest rank's (from the
// common start to its last event), bandwidth_gbps = 2 x size / that time
// (per rank: all the data moved, divided by ranks and time); latency_ns =
// the time. details: the ring order, the fastest rank's time.
// Buffers: a rank sends from address 0 and receives its left neighbour's
// data at `slot` and its right neighbour's at 2 x `slot` (slot = size
// rounded up to 4 KiB).
#pragma once
#include "sw/workloads/workload.h"

namespace kairo::sw {

WorkloadInfo random_ring_workload();
// The ring order random-ring uses: a permutation of [0, n) drawn with
// xoshiro256** (sim::Rng(seed, 0)) by Fisher-Yates.
std::vector<int> random_ring_order(int n, std::uint64_t seed);

}  // namespace kairo::sw

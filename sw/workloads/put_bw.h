// put-bw: the bandwidth one rank reaches putting large messages on 1..n of
// its TNIs at once. TNI i sends `count` messages of `size` bytes to the i-th
// distinct neighbour of `src` (neighbours in dimension order, + before -;
// on a switched fabric, rank src + 1 + i), into that neighbour's TNI i, so every engine has its own injection
// channel and its own network link. Messages over the per-descriptor limit go as several puts.
//
// Parameters: size (16MiB), tnis (all of the node's), src (0), count (1).
// Figures: bandwidth_gbps = all bytes / (last completion - first post);
// latency_ns = that interval; details: per-TNI bandwidth and the bound that
// applies, tnis x min(DMA rate, link payload rate), where the link payload
// rate is link_bandwidth x MTU / (the packet's flits x flit size).
#pragma once
#include "sw/workloads/workload.h"

namespace kairo::sw {

WorkloadInfo put_bw_workload();

}  // namespace kairo::sw

// The links of a switched fabric: what a platform file sets under `links:`
// (one class of links each for host, up, wan, local and global, the loss
// model of the wide-area link, and per-cable overrides in links.ports), with
// their defaults. The keys are declared in link_params.cpp, beside the checks
// that involve several of them.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/params.h"
#include "sim/time.h"

namespace kairo::platforms {

struct Platform;

// One class of switched-fabric links (links.host, links.up, links.wan,
// links.local, links.global).
struct LinkClass {
  double bytes_per_s = 0;    // links.<class>.bandwidth, per direction
  sim::Time latency_ps = 0;  // links.<class>.latency: propagation delay
  // links.<class>.buffer: the receiver's buffer per VC; 0 = router.vc_buffer_flits
  std::uint64_t buffer_bytes = 0;
  double multiplier = 1;  // links.<class>.multiplier, already applied to bytes_per_s
};

// links.wan.flow_control and the loss model's values (hw/router/wan_path.h
// runs them; these initializers are the keys' defaults).
struct WanFlow {
  bool loss = false;                      // flow_control: loss (TCP-like streams) or credit (lossless)
  std::uint64_t queue_bytes = 256 << 10;  // links.wan.queue: the bottleneck's drop-tail buffer (assumed)
  sim::Time rto_ps = 200'000'000'000;     // links.wan.rto: 200ms, Linux's minimum retransmission timeout
  std::uint32_t initial_window = 3;       // links.wan.initial_window: segments (RFC 3390 at a 1460B MSS)
};

// The `links:` keys, in table order.
const std::vector<sim::ParamDecl>& link_param_decls();

// The link classes of p's kind of fabric, in table order (a fat tree: host,
// up; clusters: host, up, wan; a dragonfly: host, local, global; a
// mesh/torus none).
std::vector<std::string> link_classes(const Platform& p);
// p's class `name`, or null when p's kind of fabric has none of that name.
const LinkClass* link_class(const Platform& p, const std::string& name);
LinkClass* link_class(Platform& p, const std::string& name);
// Whether p's file must give links.<name> (its shape has such links).
bool link_class_required(const Platform& p, const std::string& name);

// The checks across keys of a fabric's links (receive buffers hold the
// largest packet, flit times representable), on the platform as read; the
// first that fails, or nothing.
std::optional<sim::ParamProblem> link_problem(const Platform& p);

}  // namespace kairo::platforms

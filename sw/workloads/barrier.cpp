// The barrier's part of the collective program (collective_run.h): its
// ranks run `iterations` barriers back to back, and the run reports whether
// every one held.
#include "sw/workloads/barrier.h"

namespace kairo::sw {

namespace {

void barrier_params(const CollectiveRun& w, nlohmann::json& j) { j["skew_ns"] = double(w.skew()) / 1000.0; }
void barrier_details(const CollectiveRun& w, Outcome& o) { o.details["barrier_held"] = w.held(); }
bool barrier_verify(const CollectiveRun& w, HostMemory&) { return w.held(); }

}  // namespace

const Spec kBarrierSpec{
    .collective = coll::Collective::kBarrier,
    .summary = "barriers over puts",
    .too_few = "barrier: needs at least 2 ranks",
    .steps_detail = "steps_rank0",
    .timing = Timing::kIterations,
    .skew = true,
    .data = {.verify = barrier_verify, .failure = "a rank left the barrier before every rank had entered it"},
    .own = {.echo = barrier_params, .details = barrier_details}};

}  // namespace kairo::sw

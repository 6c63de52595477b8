// The switch allocator as RTL in the loop: hw/router/rtl/sep_alloc_rr.sv,
// verilated with `verilator --sc` (CMake: verilate(... SYSTEMC)), behind the
// router's Allocator interface, chosen by `router.allocator:
// rtl_separable_rr`. Same request/grant semantics as RoundRobinAllocator,
// cycle for cycle (tests/router/test_rtl_allocator.cpp).
//
// The RTL runs on its own clock, and only while the router has requests:
// each allocate() drives the request wires, lets the combinational grant
// logic settle (one evaluation of the Verilated model), reads the grants,
// then gives one clock edge with `alloc` high so the arbiters' priority
// pointers advance. Between allocations nothing of the RTL runs; the rest of
// the model stays event-driven.
//
// The Verilated SystemC module is a child of the router in the SystemC
// hierarchy (`<router>.alloc`); its pins are signals that take a value at
// once (no delta cycle), and the adapter runs the model's evaluation
// directly (the steps of its private eval_step()), so the router can
// evaluate it in the middle of one of its own events. Its ports are bound at the end of elaboration: the
// allocator works once the simulation has been started (sc_start), as every
// `kairo run` and `kairo traffic` does.
//
// The RTL is verilated once, for at most kMaxInputs ports and kMaxVcs VCs;
// a smaller router leaves the upper requests idle, which grants exactly what
// an arbiter of its own size would (a pointer past the last requester wraps
// round to the first).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hw/router/allocator.h"
#include "sim/event_queue.h"
#include "sim/trace.h"

class Vsep_alloc_rr;

namespace kairo::router {

class RtlSeparableAllocator final : public Allocator {
 public:
  static constexpr const char* kName = "rtl_separable_rr";
  static constexpr int kMaxInputs = 16, kMaxVcs = 8, kMaxOutputs = 16;

  // Throws std::invalid_argument when the router is larger than the RTL.
  RtlSeparableAllocator(int inputs, int vcs, int outputs);
  ~RtlSeparableAllocator() override;

  void clear() override;
  void add_request(int input, int vc, int output, std::uint64_t age) override;
  void allocate() override;
  int grant_vc(int input) const override { return grant_vc_[std::size_t(input)]; }
  int grant_output(int input) const override { return grant_out_[std::size_t(input)]; }

  // Record the RTL's wires into a waveform under `scope` (e.g.
  // "rtr_x0y0.alloc"): grant_valid, grant_vc, grant_out, stage1_valid,
  // stage1_vc, vc_ptr, in_ptr (flat vectors as in the RTL) and clk (one pulse
  // per allocation), at the times `q` gives. Null `t`: stop recording.
  bool trace(sim::Trace* t, const std::string& scope, const sim::EventQueue* q) override;
  std::uint64_t rtl_cycles() const { return cycles_; }

 private:
  struct Pins;
  void start();
  void eval();
  void record();

  struct Bits;  // the request wires' values, reused every round (no allocation)
  std::unique_ptr<Pins> pins_;
  std::unique_ptr<Bits> bits_;
  std::unique_ptr<Vsep_alloc_rr> rtl_;
  std::vector<int> grant_vc_, grant_out_, requested_;  // requested_: input * vcs + vc -> output or -1
  std::vector<int> listed_;                            // the (input * vcs + vc) set this round
  bool started_ = false;
  std::uint64_t cycles_ = 0;
  sim::Trace* trace_ = nullptr;
  const sim::EventQueue* queue_ = nullptr;
  std::vector<sim::Trace::Signal> signals_;
};

}  // namespace kairo::router

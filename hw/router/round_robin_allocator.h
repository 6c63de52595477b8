// Separable input-first switch allocator with round-robin arbiters, the
// allocator of most textbook VC routers (Dally & Towles, ch. 19), arbitrating
// first among each input's VCs.
//
// Not quite BookSim's "separable_input_first" (separable_input_first_
// allocator.h): BookSim's stage-1 arbiter of an input is over the output
// ports that input requests, and the VC is chosen after the match; here it is
// over the input's VCs, and the chosen VC's output goes forward. The two are
// the same allocator with one VC per port; with more they can forward
// different requests (the unit tests work out a case).
//
// Hardware: two ranks of arbiters.
//   Stage 1 (input rank): one vcs-input round-robin arbiter per input port
//   picks one of that port's requesting VCs. Only the winner's output request
//   goes forward, so an input that loses stage 2 gets nothing this cycle even
//   if another of its VCs wanted an idle output.
//   Stage 2 (output rank): one inputs-input round-robin arbiter per output port
//   picks one of the input ports whose stage-1 winner requests it.
// Each arbiter keeps a priority pointer (the index that wins ties) and moves it
// to one past the winner only when that winner receives the final grant; a
// stage-1 winner that loses stage 2 keeps its priority for the next cycle,
// which is what makes the pair of arbiters starvation-free.
//
// The result is a matching but not necessarily a maximal one: two inputs whose
// stage-1 winners collide on one output leave the loser unmatched even if it
// has another VC requesting a free output.
//
// Request vectors are bit vectors, as the wires into the arbiters are, so an
// arbitration is a masked find-first-set. Cost per allocate():
// O(inputs * ceil(vcs/64) + outputs * ceil(inputs/64)); clear() is
// O(requests + inputs). No heap allocation after construction.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "hw/router/allocator.h"

namespace kairo::router {

// Round-robin arbiter over a request vector of `nwords` 64-bit words (bit r of
// word r/64 = requester r; `word(w)` returns word w): grants the first
// requester at or after the priority pointer `ptr`, wrapping round, or returns
// -1 when nobody requests. In hardware, a programmable priority encoder: the
// requests at or above the pointer are tried first, then all of them.
// Shared by the round-robin and iSLIP allocators.
template <class Word>
inline int round_robin_arbitrate(int nwords, int ptr, Word word) {
  int w = ptr >> 6;
  std::uint64_t bits = word(w) & (~std::uint64_t{0} << (ptr & 63));
  for (int k = 0; k < nwords; ++k) {
    if (bits) return (w << 6) + __builtin_ctzll(bits);
    w = w + 1 == nwords ? 0 : w + 1;
    bits = word(w);
  }
  // Back at the pointer's word: only requesters below the pointer remain.
  return bits ? (w << 6) + __builtin_ctzll(bits) : -1;
}

// Words in a request vector of n requesters, and requester index's bit within
// its word (word index / 64).
inline int request_words(int n) { return (n + 63) >> 6; }
inline std::uint64_t request_bit(int index) { return std::uint64_t{1} << (index & 63); }

class RoundRobinAllocator final : public Allocator {
 public:
  static constexpr const char* kName = "round_robin";

  // Throws std::invalid_argument unless inputs, vcs and outputs are all >= 1.
  // shared_rounds: this round's working arrays (requests, request vectors,
  // grants) are shared with every other allocator of the same shape that
  // asked for it, since rounds on one thread never overlap; each allocator
  // keeps only its arbiters' priority pointers. A router does this: on the K
  // computer the working arrays would otherwise be 1.1 KiB per router. The
  // grants are then valid until the next round of any allocator of the shape.
  RoundRobinAllocator(int inputs, int vcs, int outputs, bool shared_rounds = false);
  RoundRobinAllocator(const RoundRobinAllocator&) = delete;  // arrays point into arenas
  RoundRobinAllocator& operator=(const RoundRobinAllocator&) = delete;

  void clear() override;
  // Throws std::out_of_range for an index outside the allocator and
  // std::logic_error for a second request from the same VC in one round.
  void add_request(int input, int vc, int output, std::uint64_t age) override;
  void allocate() override;
  void allocate_single(int input, int vc, int output, std::uint64_t age) override;
  int grant_vc(int input) const override { return r_->grant_vc[input]; }
  int grant_output(int input) const override { return r_->grant_out[input]; }

 private:
  struct Request {
    int input, vc;
  };
  // One round's working state; every array lives in one block (arena), so a
  // round touches a few adjacent cache lines instead of a dozen scattered
  // allocations.
  struct Round {
    Round(int inputs, int vcs, int outputs, int vc_words, int in_words);
    std::vector<std::uint64_t> arena;
    // This round's requests: req_out[input * vcs + vc] is the requested output
    // or -1; reqs[0, num_reqs) lists the set entries so clear() touches only them.
    int* req_out;
    Request* reqs;
    int num_reqs = 0;
    // Request vectors: into each input's VC arbiter (which VCs request), and
    // into each output's input arbiter (which inputs' stage-1 winners want it).
    std::uint64_t* vc_req;   // [input * vc_words + w]
    std::uint64_t* out_req;  // [output * in_words + w], built and consumed by allocate()
    int* stage1_vc;          // per input: stage-1 winning VC or -1
    int *grant_vc, *grant_out;
    int* granted;  // inputs granted in the last round (to forget them cheaply)
    int num_granted = 0;
    void forget_grants() {
      for (int k = 0; k < num_granted; ++k) grant_vc[granted[k]] = grant_out[granted[k]] = -1;
      num_granted = 0;
    }
  };
  static Round* shared_round(int inputs, int vcs, int outputs, int vc_words, int in_words);

  int vc_words_, in_words_;  // words per VC / per input-port bit vector

  // Arbiter state, kept across rounds: per input, the VC with the highest
  // stage-1 priority; per output, the input with the highest stage-2 priority.
  std::vector<int> ptrs_;  // [0, inputs): vc_ptr; [inputs, inputs + outputs): in_ptr
  int* vc_ptr_;
  int* in_ptr_;

  std::unique_ptr<Round> own_;  // unless shared
  Round* r_;
};

}  // namespace kairo::router

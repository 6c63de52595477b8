// Firmware ranks as C++20 coroutines resumed by kairo's event queue
// (docs/performance.md, "Firmware ranks": 174 B per rank against 5.4 KiB for
// an SC_THREAD, and SC_THREADs cannot reach the K computer's 82,944 ranks).
// A rank's program is a coroutine returning fw::Task; it suspends on
// awaitables that schedule its resumption: a delay (compute time) or a
// Signal raised by hardware (a completion entry, a notification).
//
// Compiled as C++20 (this directory only); SystemC stays C++17.
#pragma once
#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <new>
#include <utility>
#include <vector>

#include "sim/event_queue.h"

namespace kairo::fw {

// Bytes held by coroutine frames (programs and the sub-routines they await):
// live now and the most at once. The runtime reports them per rank.
struct FrameBytes {
  static inline std::size_t live = 0, peak = 0;
};

// Where coroutine frames come from. Every runtime call (put, poll, complete)
// is a short-lived coroutine, several per RDMA operation; recycling their
// frames through free lists per 16-byte size class keeps the general
// allocator off that path (malloc's own granule, so a frame costs what
// ::operator new would give it: on the K computer every rank holds its
// program's frames for the whole run). Frames larger than the classes go to
// ::operator new.
// Single-threaded, like the simulation.
class FramePool {
 public:
  static void* get(std::size_t n) {
    const std::size_t c = (n + kGrain - 1) / kGrain;
    if (c >= kClasses) return ::operator new(n);
    Free*& head = free_[c];
    if (Free* f = head) {
      head = f->next;
      return f;
    }
    return ::operator new(c* kGrain);
  }
  static void put(void* p, std::size_t n) noexcept {
    const std::size_t c = (n + kGrain - 1) / kGrain;
    if (c >= kClasses) return ::operator delete(p);
    Free* f = static_cast<Free*>(p);
    f->next = free_[c];
    free_[c] = f;
  }

 private:
  struct Free {
    Free* next;
  };
  static constexpr std::size_t kGrain = 16, kClasses = 125;  // frames up to 1,984 bytes are recycled
  static inline Free* free_[kClasses] = {};
};

// Resumes the coroutine whose address rides in the event's pointer.
class Resumer final : public sim::EventTarget {
 public:
  Resumer() : sim::EventTarget(sim::EventBlock::kFirmware) {}
  void on_event(std::uint32_t, std::uint32_t, void* p) override {
    std::coroutine_handle<>::from_address(p).resume();
  }
};

// A rank's program (or a sub-routine it awaits). Lazily started: start()
// schedules its first step at the current time; awaiting a Task runs it to
// completion and then continues the awaiter.
class Task {
 public:
  struct promise_type {
    std::coroutine_handle<> continuation;
    std::exception_ptr error;
    bool done = false;
    bool started = false;  // running on its own (start()), not as an awaited sub-routine
    static void* operator new(std::size_t n) {
      FrameBytes::live += n;
      if (FrameBytes::live > FrameBytes::peak) FrameBytes::peak = FrameBytes::live;
      return FramePool::get(n);
    }
    static void operator delete(void* p, std::size_t n) noexcept {
      FrameBytes::live -= n;
      FramePool::put(p, n);
    }
    Task get_return_object() { return Task(std::coroutine_handle<promise_type>::from_promise(*this)); }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct FinalAwaiter {
      bool await_ready() noexcept { return false; }
      std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> h) noexcept {
        h.promise().done = true;
        if (auto c = h.promise().continuation) return c;
        return std::noop_coroutine();
      }
      void await_resume() noexcept {}
    };
    FinalAwaiter final_suspend() noexcept { return {}; }
    void return_void() {}
    void unhandled_exception() { error = std::current_exception(); }
  };

  Task() = default;
  explicit Task(std::coroutine_handle<promise_type> h) : h_(h) {}
  Task(Task&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  Task& operator=(Task&& o) noexcept {
    if (this != &o) {
      if (h_) h_.destroy();
      h_ = std::exchange(o.h_, {});
    }
    return *this;
  }
  Task(const Task&) = delete;
  ~Task() {
    if (h_) h_.destroy();
  }

  // Schedule the first step as an event at the queue's current time.
  void start(sim::EventQueue& q, Resumer& r) {
    h_.promise().started = true;
    q.at(q.now(), sim::kPrioState, &r, 0, 0, h_.address());
  }
  bool done() const { return h_ && h_.promise().done; }
  // The exception the program ended with, rethrown (a no-op if none).
  void rethrow_if_failed() const {
    if (h_ && h_.promise().error) std::rethrow_exception(h_.promise().error);
  }

  // co_await task: run it now, continue here when it finishes; a task
  // already started runs on and the awaiter continues when it finishes (a join).
  bool await_ready() const noexcept { return !h_ || h_.promise().done; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> awaiter) noexcept {
    h_.promise().continuation = awaiter;
    if (h_.promise().started) return std::noop_coroutine();
    return h_;
  }
  void await_resume() const { rethrow_if_failed(); }

 private:
  std::coroutine_handle<promise_type> h_;
};

// co_await Delay{q, r, dt}: resume dt picoseconds later (compute time).
struct Delay {
  sim::EventQueue& q;
  Resumer& r;
  sim::Time dt;
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) const {
    q.at(q.now() + dt, sim::kPrioState, &r, 0, 0, h.address());
  }
  void await_resume() const noexcept {}
};

// A level a program waits on, raised by hardware: every coroutine waiting
// when raise() is called resumes at that instant (in the order it began
// waiting), through the event queue so the raiser finishes first.
class Signal {
 public:
  Signal(sim::EventQueue& q, Resumer& r) : q_(q), r_(r) {}
  void raise() {
    for (auto h : waiters_) q_.at(q_.now(), sim::kPrioState, &r_, 0, 0, h.address());
    waiters_.clear();
  }
  std::size_t waiting() const { return waiters_.size(); }
  std::size_t heap_bytes() const { return waiters_.capacity() * sizeof(std::coroutine_handle<>); }

  struct Awaiter {
    Signal& s;
    bool await_ready() const noexcept { return false; }
    void await_suspend(std::coroutine_handle<> h) { s.waiters_.push_back(h); }
    void await_resume() const noexcept {}
  };
  Awaiter wait() { return Awaiter{*this}; }

 private:
  sim::EventQueue& q_;
  Resumer& r_;
  std::vector<std::coroutine_handle<>> waiters_;
};

}  // namespace kairo::fw

// A FIFO queue in one growable circular buffer: nothing is allocated until
// the first push, capacity doubles when full and is kept afterwards, so a
// queue in steady state never allocates. Used where a model holds many
// mostly-empty queues (an RDMA engine has seven; the K computer has 331,776
// engines), where std::deque's 512-byte first block per queue adds up to GiB.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

namespace kairo::sim {

template <class T>
class Ring {
 public:
  Ring() = default;
  Ring(const Ring&) = delete;
  Ring& operator=(const Ring&) = delete;
  Ring(Ring&&) noexcept = default;
  Ring& operator=(Ring&&) noexcept = default;

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  std::size_t capacity() const { return cap_; }
  T& front() { return buf_[head_]; }
  const T& front() const { return buf_[head_]; }
  T& back() { return (*this)[size_ - 1]; }
  // The i-th element from the front.
  T& operator[](std::size_t i) { return buf_[(head_ + i) & (cap_ - 1)]; }
  const T& operator[](std::size_t i) const { return buf_[(head_ + i) & (cap_ - 1)]; }

  void push_back(T v) {
    if (size_ == cap_) grow();
    buf_[(head_ + size_) & (cap_ - 1)] = std::move(v);
    ++size_;
  }
  void pop_front() {
    buf_[head_] = T{};
    head_ = (head_ + 1) & (cap_ - 1);
    --size_;
  }
  void clear() {
    while (!empty()) pop_front();
  }

 private:
  void grow() {
    const std::uint32_t cap = cap_ ? 2 * cap_ : 1;  // most of a big machine's queues never hold two
    auto buf = std::make_unique<T[]>(cap);
    for (std::uint32_t i = 0; i < size_; ++i) buf[i] = std::move((*this)[i]);
    buf_ = std::move(buf);
    cap_ = cap;
    head_ = 0;
  }

  // 24 bytes: an RDMA engine holds nine of these.
  std::unique_ptr<T[]> buf_;
  std::uint32_t cap_ = 0, head_ = 0, size_ = 0;
};

}  // namespace kairo::sim

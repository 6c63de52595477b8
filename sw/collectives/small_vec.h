// A vector of plain data with room for N elements inside itself, on the
// heap only beyond that. A schedule step (schedule.h) usually holds one put
// and one wait, and the K computer's 82,944 ranks keep their schedules at
// once: with std::vector each of those lists costs 24 bytes plus a heap
// block of its own (and malloc's header), more than the data. The executor
// keeps a rank's puts not yet complete in one too. Only the operations
// those use; elements are trivially copyable (Put, Wait, Op, the executor's
// records), so copies are plain copies and nothing needs destroying.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <new>
#include <type_traits>

namespace kairo::coll {

template <class T, std::uint32_t N>
class SmallVec {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);
  static_assert(N > 0);

 public:
  SmallVec() = default;
  SmallVec(std::initializer_list<T> items) { append(items.begin(), items.size()); }
  SmallVec(const SmallVec& o) { append(o.data(), o.size_); }
  SmallVec(SmallVec&& o) noexcept { take(o); }
  SmallVec& operator=(const SmallVec& o) {
    if (this != &o) {
      clear();
      append(o.data(), o.size_);
    }
    return *this;
  }
  SmallVec& operator=(SmallVec&& o) noexcept {
    if (this != &o) {
      free_heap();
      take(o);
    }
    return *this;
  }
  ~SmallVec() { free_heap(); }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return on_heap() ? heap_ : reinterpret_cast<T*>(inline_); }
  const T* data() const { return on_heap() ? heap_ : reinterpret_cast<const T*>(inline_); }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }
  T& operator[](std::size_t i) { return data()[i]; }
  const T& operator[](std::size_t i) const { return data()[i]; }
  T& back() { return data()[size_ - 1]; }
  const T& back() const { return data()[size_ - 1]; }

  void push_back(T v) {  // by value: `v` may be one of ours, which grow() moves
    if (size_ == capacity_) grow(2 * std::size_t(capacity_) + 1);
    ::new (data() + size_) T(v);
    ++size_;
  }
  T* erase(const T* pos) {  // keeps the order of the rest
    T* at = begin() + (pos - begin());
    std::copy(at + 1, end(), at);
    --size_;
    return at;
  }
  void reserve(std::size_t n) {
    if (n > capacity_) grow(n);
  }
  void clear() { size_ = 0; }  // keeps the capacity, like std::vector

 private:
  bool on_heap() const { return capacity_ > N; }
  void append(const T* from, std::size_t n) {
    reserve(size_ + n);
    std::uninitialized_copy_n(from, n, data() + size_);
    size_ += std::uint32_t(n);
  }
  void grow(std::size_t n) {
    T* to = std::allocator<T>().allocate(n);
    std::uninitialized_copy_n(data(), size_, to);
    free_heap();
    heap_ = to;
    capacity_ = std::uint32_t(n);
  }
  void free_heap() {
    if (on_heap()) std::allocator<T>().deallocate(heap_, capacity_);
  }
  void take(SmallVec& o) {  // `this` holds no heap block
    if (o.on_heap()) {
      heap_ = o.heap_;
    } else {
      std::uninitialized_copy_n(o.data(), o.size_, reinterpret_cast<T*>(inline_));
    }
    size_ = o.size_;
    capacity_ = o.capacity_;
    o.size_ = 0;
    o.capacity_ = N;
  }

  // The elements are inline while capacity_ is N, on the heap above it
  // (N = 0 is the specialization below).
  union {
    T* heap_ = nullptr;
    alignas(T) unsigned char inline_[N * sizeof(T)];
  };
  std::uint32_t size_ = 0, capacity_ = N;
};

// With no inline room, only a pointer: the count and the capacity head the
// heap block, so an empty list (a step's local operations, nearly always
// none) is 8 bytes instead of 16.
template <class T>
class SmallVec<T, 0> {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);
  static_assert(alignof(T) <= alignof(std::max_align_t));

 public:
  SmallVec() = default;
  SmallVec(std::initializer_list<T> items) { append(items.begin(), items.size()); }
  SmallVec(const SmallVec& o) { append(o.data(), o.size()); }
  SmallVec(SmallVec&& o) noexcept : b_(o.b_) { o.b_ = nullptr; }
  SmallVec& operator=(const SmallVec& o) {
    if (this != &o) {
      clear();
      append(o.data(), o.size());
    }
    return *this;
  }
  SmallVec& operator=(SmallVec&& o) noexcept {
    if (this != &o) {
      free_heap();
      b_ = o.b_;
      o.b_ = nullptr;
    }
    return *this;
  }
  ~SmallVec() { free_heap(); }

  std::size_t size() const { return b_ ? b_->size : 0; }
  bool empty() const { return size() == 0; }
  T* data() { return b_ ? items() : nullptr; }
  const T* data() const { return b_ ? items() : nullptr; }
  T* begin() { return data(); }
  T* end() { return data() + size(); }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size(); }
  T& operator[](std::size_t i) { return items()[i]; }
  const T& operator[](std::size_t i) const { return items()[i]; }
  T& back() { return items()[b_->size - 1]; }
  const T& back() const { return items()[b_->size - 1]; }

  void push_back(T v) {  // by value: `v` may be one of ours, which grow() moves
    const std::size_t n = size();
    if (n == capacity()) grow(2 * n + 1);
    ::new (items() + n) T(v);
    ++b_->size;
  }
  T* erase(const T* pos) {  // keeps the order of the rest
    T* at = begin() + (pos - begin());
    std::copy(at + 1, end(), at);
    --b_->size;
    return at;
  }
  void reserve(std::size_t n) {
    if (n > capacity()) grow(n);
  }
  void clear() {  // keeps the capacity, like std::vector
    if (b_) b_->size = 0;
  }

 private:
  struct Block {
    std::uint32_t size, capacity;
  };
  // The elements follow the block's head, aligned as malloc aligns it.
  static constexpr std::size_t kHead = alignof(std::max_align_t);
  T* items() const { return reinterpret_cast<T*>(reinterpret_cast<unsigned char*>(b_) + kHead); }
  std::size_t capacity() const { return b_ ? b_->capacity : 0; }
  void append(const T* from, std::size_t n) {
    if (n == 0) return;
    reserve(size() + n);
    std::uninitialized_copy_n(from, n, items() + b_->size);
    b_->size += std::uint32_t(n);
  }
  void grow(std::size_t n) {
    Block* to = static_cast<Block*>(::operator new(kHead + n * sizeof(T)));
    to->size = std::uint32_t(size());
    to->capacity = std::uint32_t(n);
    if (b_)
      std::uninitialized_copy_n(items(), b_->size,
                                reinterpret_cast<T*>(reinterpret_cast<unsigned char*>(to) + kHead));
    free_heap();
    b_ = to;
  }
  void free_heap() {
    if (b_) ::operator delete(b_);  // most lists never had a block: no call
  }

  Block* b_ = nullptr;
};

}  // namespace kairo::coll

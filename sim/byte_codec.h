// Packing plain values into a byte buffer and reading them back: what the
// processes of a partitioned run send each other (sim/mpi_world.h), and what
// a block writes of its state to be rebuilt in another process's copy of it
// (observe/registry.h). No MPI here, so blocks that pack themselves need not
// see it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace kairo::sim {

class ByteWriter {
 public:
  explicit ByteWriter(std::vector<char>& out) : out_(out) {}
  template <class T>
  void put(const T& v) {
    const char* p = reinterpret_cast<const char*>(&v);
    out_.insert(out_.end(), p, p + sizeof(T));
  }
  void put_bytes(const void* p, std::size_t n) {
    const char* c = static_cast<const char*>(p);
    out_.insert(out_.end(), c, c + n);
  }
  void put_string(const std::string& s) {
    put(std::uint64_t(s.size()));
    put_bytes(s.data(), s.size());
  }

 private:
  std::vector<char>& out_;
};

class ByteReader {
 public:
  ByteReader(const char* p, std::size_t n) : p_(p), end_(p + n) {}
  explicit ByteReader(const std::vector<char>& v) : ByteReader(v.data(), v.size()) {}
  bool done() const { return p_ == end_; }
  template <class T>
  T get() {
    T v;
    get_bytes(&v, sizeof(T));
    return v;
  }
  // Throws std::runtime_error when fewer than n bytes are left.
  void get_bytes(void* out, std::size_t n);
  std::string get_string() {
    const auto n = get<std::uint64_t>();
    std::string s(n, '\0');
    get_bytes(s.data(), n);
    return s;
  }

 private:
  const char* p_;
  const char* end_;
};

}  // namespace kairo::sim

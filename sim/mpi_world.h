// The processes of a partitioned run (docs/parallel.md), over Open
// MPI. kairo loads MPI (the plugin libkairo_mpi.so, sim/mpi_transport.h) and
// initialises it only when mpirun started it (Open MPI's
// OMPI_COMM_WORLD_SIZE is set); a kairo started without mpirun is a world of
// one process and never loads MPI, so it runs exactly as it always has.
//
// Only the plugin (sim/mpi_plugin.cpp) includes <mpi.h>; everything else
// sees the few collectives a conservative parallel simulation needs.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/byte_codec.h"
#include "sim/time.h"

namespace kairo::sim {

class MpiTransport;

class MpiWorld {
 public:
  // The world of this process: initialises MPI on first use when mpirun
  // started kairo.
  static MpiWorld& get();
  // Called once at exit (kairo's main): MPI_Finalize if MPI was initialised.
  static void finalize();

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool parallel() const { return size_ > 1; }
  bool root() const { return rank_ == 0; }

  // Collectives: every process calls each one, in the same order.
  void min(std::vector<std::uint64_t>& values) const;  // element-wise, in place
  std::uint64_t max(std::uint64_t local) const;
  std::uint64_t sum(std::uint64_t local) const;
  void sum(std::vector<std::uint64_t>& values) const;  // element-wise, in place
  bool any(bool local) const;
  // Every process sends out[p] to process p and receives from each process
  // what it sent to this one (in[p]). Returns the bytes this process sent.
  std::uint64_t exchange(const std::vector<std::vector<char>>& out, std::vector<std::vector<char>>& in) const;
  // Point to point with `peers` only (a partitioned run's neighbours): sends
  // out[p] to each peer p, an empty message too, and receives each peer's
  // into in[p]. Every peer must call it with this process among its peers.
  // Returns the bytes this process sent.
  std::uint64_t exchange_with(const std::vector<int>& peers, const std::vector<std::vector<char>>& out,
                              std::vector<std::vector<char>>& in) const;
  // Process 0 receives every process's bytes, in rank order (others: empty).
  std::vector<std::vector<char>> gather(const std::vector<char>& mine) const;
  // Process 0's bytes to every process.
  void broadcast(std::vector<char>& bytes) const;
  // Ends every process of the run with `code` (a process that fails while the
  // others wait in a collective: no hang).
  [[noreturn]] void abort(int code) const;

  // Split runs fail together (docs/reliability.md). A process that ends
  // with an error its partners did not agree to (mark_agreed) calls fail()
  // after everything of its own is unwound. When every process fails
  // within 2 s (the same bad input everywhere), process 0 says `message`
  // (unless `said`) and fail() returns: all finish normally. Otherwise the
  // others wait in a collective: this process says its message (process
  // 0's as it is, another's as "process k of n: message") and leaves at
  // once without MPI_Finalize, which makes mpirun end every process.
  void fail(int code, const std::string& message, bool said) const;
  // The outcome about to be returned was agreed by every process (the same
  // collective decided it): they all finish normally.
  void mark_agreed() const { agreed_ = true; }
  bool agreed() const { return agreed_; }
  // Each process's digest (of its build and command, or of its platform)
  // against the others'. Returns "" when all agree, else (on every process)
  // the message naming each process whose `what` ("runs `kairo ...`")
  // differs from process 0's.
  std::string compare_digests(std::uint64_t digest, const std::string& what) const;

 private:
  MpiWorld();
  void start_watchdog();
  int rank_ = 0, size_ = 1;
  MpiTransport* mpi_ = nullptr;  // the plugin's, when mpirun started the process
  mutable bool agreed_ = false;
};

// A digest of bytes (64-bit FNV-1a), for comparing what processes run.
std::uint64_t digest_bytes(const void* data, std::size_t n, std::uint64_t seed = 14695981039346656037ull);
// The running binary's digest (its file, /proc/self/exe).
std::uint64_t build_digest();

// While one lives, this process is inside a collective named `what`; the
// watchdog (started under mpirun) ends the run with an error naming it when
// one lasts longer than KAIRO_MPI_TIMEOUT seconds (default 600).
class CollectiveWait {
 public:
  explicit CollectiveWait(const char* what);
  ~CollectiveWait();
  CollectiveWait(const CollectiveWait&) = delete;
  CollectiveWait& operator=(const CollectiveWait&) = delete;
};

}  // namespace kairo::sim

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

 private:
  MpiWorld();
  int rank_ = 0, size_ = 1;
  MpiTransport* mpi_ = nullptr;  // the plugin's, when mpirun started the process
};

}  // namespace kairo::sim

// What a partitioned run's processes need of MPI, as the MPI plugin
// (libkairo_mpi.so, built from sim/mpi_plugin.cpp beside the kairo binary)
// provides it. kairo itself does not link MPI: loading Open MPI's libraries
// (libmpi and the half-dozen it pulls in, with their relocations) costs a
// run that never uses them about a fifth of an empty run's instructions, so
// sim::MpiWorld loads the plugin only when mpirun started the process.
// The plugin is built with kairo by the same compiler, so C++ types cross.
#pragma once
#include <cstdint>
#include <vector>

namespace kairo::sim {

class MpiTransport {
 public:
  enum class Reduce { kMin, kMax, kSum };
  virtual ~MpiTransport() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Element-wise over every process, in place.
  virtual void allreduce(std::uint64_t* values, std::size_t n, Reduce op) = 0;
  // sim::MpiWorld's exchange, exchange_with, gather and broadcast (see there).
  virtual std::uint64_t exchange(const std::vector<std::vector<char>>& out,
                                 std::vector<std::vector<char>>& in) = 0;
  virtual std::uint64_t exchange_with(const std::vector<int>& peers,
                                      const std::vector<std::vector<char>>& out,
                                      std::vector<std::vector<char>>& in) = 0;
  virtual std::vector<std::vector<char>> gather(const std::vector<char>& mine) = 0;
  virtual void broadcast(std::vector<char>& bytes) = 0;
  [[noreturn]] virtual void abort(int code) = 0;
  // Called by a process that failed: true when every process calls it
  // within `seconds` (they all failed), false when some do not.
  virtual bool all_fail(double seconds) = 0;
  virtual void finalize() = 0;
};

}  // namespace kairo::sim

// The plugin's one entry point: initialises MPI (once) and returns its
// transport, which lives until exit.
extern "C" kairo::sim::MpiTransport* kairo_mpi_transport();
inline constexpr const char* kKairoMpiTransportSymbol = "kairo_mpi_transport";

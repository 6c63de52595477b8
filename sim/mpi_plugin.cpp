// The MPI plugin (sim/mpi_transport.h): Open MPI behind sim::MpiTransport,
// built as libkairo_mpi.so beside the kairo binary and loaded by
// sim::MpiWorld only when mpirun started the process. The only file that
// includes <mpi.h>.

// MPI's C interface only (Open MPI would otherwise pull in its deprecated C++ bindings).
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <stdexcept>

#include "sim/mpi_transport.h"

namespace kairo::sim {

namespace {

class OpenMpi final : public MpiTransport {
 public:
  OpenMpi() {
    int done = 0;
    MPI_Initialized(&done);
    if (!done) MPI_Init(nullptr, nullptr);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    // A communicator of its own for the failure barrier: it never meets
    // the run's collectives on MPI_COMM_WORLD.
    MPI_Comm_dup(MPI_COMM_WORLD, &failures_);
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }

  void allreduce(std::uint64_t* values, std::size_t n, Reduce op) override {
    if (n == 0) return;
    if (n > std::size_t(INT32_MAX)) throw std::length_error("a reduction of more than 2^31 values");
    const MPI_Op o = op == Reduce::kMin ? MPI_MIN : op == Reduce::kMax ? MPI_MAX : MPI_SUM;
    MPI_Allreduce(MPI_IN_PLACE, values, int(n), MPI_UINT64_T, o, MPI_COMM_WORLD);
  }

  std::uint64_t exchange(const std::vector<std::vector<char>>& out,
                         std::vector<std::vector<char>>& in) override {
    const std::size_t n = std::size_t(size_);
    in.resize(n);
    std::vector<int> send_counts(n), recv_counts(n), send_displs(n), recv_displs(n);
    std::uint64_t sent = 0;
    for (std::size_t p = 0; p < n; ++p) {
      if (out[p].size() > std::size_t(INT32_MAX))
        throw std::length_error("a window's boundary messages exceed 2 GiB");
      send_counts[p] = int(out[p].size());
      if (p != std::size_t(rank_)) sent += out[p].size();
    }
    MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
    std::vector<char> send_buf, recv_buf;
    std::size_t total_send = 0, total_recv = 0;
    for (std::size_t p = 0; p < n; ++p) {
      send_displs[p] = int(total_send);
      recv_displs[p] = int(total_recv);
      total_send += std::size_t(send_counts[p]);
      total_recv += std::size_t(recv_counts[p]);
    }
    send_buf.resize(total_send);
    recv_buf.resize(total_recv);
    for (std::size_t p = 0; p < n; ++p)
      if (!out[p].empty()) std::memcpy(send_buf.data() + send_displs[p], out[p].data(), out[p].size());
    MPI_Alltoallv(send_buf.data(), send_counts.data(), send_displs.data(), MPI_BYTE, recv_buf.data(),
                  recv_counts.data(), recv_displs.data(), MPI_BYTE, MPI_COMM_WORLD);
    for (std::size_t p = 0; p < n; ++p)
      in[p].assign(recv_buf.begin() + recv_displs[p], recv_buf.begin() + recv_displs[p] + recv_counts[p]);
    return sent;
  }

  std::uint64_t exchange_with(const std::vector<int>& peers, const std::vector<std::vector<char>>& out,
                              std::vector<std::vector<char>>& in) override {
    in.resize(std::size_t(size_));
    constexpr int kTag = 17;  // messages between two processes with one tag never overtake each other
    std::vector<MPI_Request> sends(peers.size());
    std::uint64_t sent = 0;
    for (std::size_t k = 0; k < peers.size(); ++k) {
      const std::vector<char>& o = out[std::size_t(peers[k])];
      if (o.size() > std::size_t(INT32_MAX))
        throw std::length_error("a window's boundary messages exceed 2 GiB");
      MPI_Isend(o.data(), int(o.size()), MPI_BYTE, peers[k], kTag, MPI_COMM_WORLD, &sends[k]);
      sent += o.size();
    }
    for (int p : peers) {
      MPI_Status st;
      MPI_Probe(p, kTag, MPI_COMM_WORLD, &st);
      int n = 0;
      MPI_Get_count(&st, MPI_BYTE, &n);
      std::vector<char>& i = in[std::size_t(p)];
      i.resize(std::size_t(n));
      MPI_Recv(i.data(), n, MPI_BYTE, p, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Waitall(int(sends.size()), sends.data(), MPI_STATUSES_IGNORE);
    return sent;
  }

  // Each process's bytes straight into process 0's vector for it, point to
  // point: no buffer of them all beside the copies (the window messages have
  // a tag of their own, so these cannot be taken for them).
  std::vector<std::vector<char>> gather(const std::vector<char>& mine) override {
    constexpr int kTag = 18;
    std::vector<std::vector<char>> all;
    const bool root = rank_ == 0;
    if (mine.size() > std::size_t(INT32_MAX)) throw std::length_error("a process's results exceed 2 GiB");
    int n = int(mine.size());
    std::vector<int> counts(root ? std::size_t(size_) : 0);
    MPI_Gather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!root) {
      MPI_Send(mine.data(), n, MPI_BYTE, 0, kTag, MPI_COMM_WORLD);
      return all;
    }
    all.resize(std::size_t(size_));
    all[0] = mine;
    for (int p = 1; p < size_; ++p) {
      all[std::size_t(p)].resize(std::size_t(counts[std::size_t(p)]));
      MPI_Recv(all[std::size_t(p)].data(), counts[std::size_t(p)], MPI_BYTE, p, kTag, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
    }
    return all;
  }

  void broadcast(std::vector<char>& bytes) override {
    std::uint64_t n = bytes.size();
    MPI_Bcast(&n, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    bytes.resize(n);
    MPI_Bcast(bytes.data(), int(n), MPI_BYTE, 0, MPI_COMM_WORLD);
  }

  [[noreturn]] void abort(int code) override {
    MPI_Abort(MPI_COMM_WORLD, code);
    std::exit(code);
  }

  bool all_fail(double seconds) override {
    MPI_Request r;
    MPI_Ibarrier(failures_, &r);
    const double until = MPI_Wtime() + seconds;
    int done = 0;
    while (MPI_Test(&r, &done, MPI_STATUS_IGNORE), !done) {
      if (MPI_Wtime() > until) return false;  // the request stays: the process leaves at once
      struct timespec ms = {0, 1000000};
      nanosleep(&ms, nullptr);
    }
    return true;
  }

  void finalize() override {
    int done = 0;
    MPI_Finalized(&done);
    if (!done) MPI_Finalize();
  }

 private:
  int rank_ = 0, size_ = 1;
  MPI_Comm failures_ = MPI_COMM_NULL;
};

}  // namespace

}  // namespace kairo::sim

extern "C" kairo::sim::MpiTransport* kairo_mpi_transport() {
  static kairo::sim::OpenMpi* transport =
      new kairo::sim::OpenMpi();  // lives until exit: MPI is finalised once
  return transport;
}

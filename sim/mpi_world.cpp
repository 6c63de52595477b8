#include "sim/mpi_world.h"

#include <dlfcn.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>

#include "sim/mpi_transport.h"

namespace kairo::sim {

namespace {

bool started_by_mpirun() { return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr; }
MpiWorld* world = nullptr;

// The folder of the running kairo binary, where the build puts the plugin.
std::string own_folder() {
  std::string path(4096, '\0');
  const ssize_t n = ::readlink("/proc/self/exe", path.data(), path.size() - 1);
  if (n <= 0) return ".";
  path.resize(std::size_t(n));
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

// libkairo_mpi.so, beside the binary (KAIRO_MPI_PLUGIN names another). A
// process mpirun started cannot run alone: without the plugin it stops with
// exit code 2, saying what is missing, before any work.
MpiTransport* load_transport() {
  const char* env = std::getenv("KAIRO_MPI_PLUGIN");
  const std::string path = env && *env ? env : own_folder() + "/libkairo_mpi.so";
  void* lib = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  auto entry = lib ? reinterpret_cast<MpiTransport* (*)()>(::dlsym(lib, kKairoMpiTransportSymbol)) : nullptr;
  if (!entry) {
    const char* why = ::dlerror();
    const char* rank = std::getenv("OMPI_COMM_WORLD_RANK");
    if (!rank || std::string(rank) == "0")  // process 0 speaks for all
      std::fprintf(
          stderr,
          "kairo: error: started by mpirun, but its MPI plugin %s cannot be loaded (%s); build it "
          "with the kairo target (cmake --build build --target kairo), or name it in KAIRO_MPI_PLUGIN\n",
          path.c_str(), why ? why : "no entry point");
    std::exit(2);
  }
  return entry();
}

// The collective this process is in (CollectiveWait), for the watchdog.
std::atomic<std::int64_t> g_wait_since_ns{0};  // 0: in none
std::atomic<const char*> g_wait_what{""};
std::atomic<std::uint64_t> g_waits{0};

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// KAIRO_MPI_TIMEOUT: seconds a collective may wait (default 600). Bad
// values are refused before any work, by process 0 for all.
double mpi_timeout_s(int rank) {
  const char* v = std::getenv("KAIRO_MPI_TIMEOUT");
  if (!v || !*v) return 600;
  char* end = nullptr;
  const double t = std::strtod(v, &end);
  if (end && *end == '\0' && t > 0 && t <= 1e9) return t;
  if (rank == 0)
    std::fprintf(stderr,
                 "kairo: error: KAIRO_MPI_TIMEOUT=%s: expected the seconds a collective may wait, a "
                 "number above 0 (default 600)\n",
                 v);
  std::fflush(stderr);
  std::_Exit(2);
}

}  // namespace

std::uint64_t digest_bytes(const void* data, std::size_t n, std::uint64_t h) {
  const auto* b = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

std::uint64_t build_digest() {
  std::ifstream in("/proc/self/exe", std::ios::binary);
  std::uint64_t h = 14695981039346656037ull;
  // Eight bytes at a time: a 6 MB binary in a few milliseconds.
  std::vector<char> buf(1 << 20);
  while (in) {
    in.read(buf.data(), std::streamsize(buf.size()));
    const std::size_t got = std::size_t(in.gcount());
    std::size_t i = 0;
    for (; i + 8 <= got; i += 8) {
      std::uint64_t w;
      std::memcpy(&w, buf.data() + i, 8);
      h = (h ^ w) * 1099511628211ull;
    }
    h = digest_bytes(buf.data() + i, got - i, h);
  }
  return h;
}

CollectiveWait::CollectiveWait(const char* what) {
  g_wait_what.store(what, std::memory_order_relaxed);
  g_waits.fetch_add(1, std::memory_order_relaxed);
  g_wait_since_ns.store(now_ns(), std::memory_order_relaxed);
}
CollectiveWait::~CollectiveWait() { g_wait_since_ns.store(0, std::memory_order_relaxed); }

MpiWorld::MpiWorld() {
  if (!started_by_mpirun()) return;
  mpi_ = load_transport();
  rank_ = mpi_->rank();
  size_ = mpi_->size();
  if (size_ > 1) start_watchdog();
}

void MpiWorld::start_watchdog() {
  const double timeout = mpi_timeout_s(rank_);
  std::thread([timeout, rank = rank_, size = size_] {
    for (;;) {
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
      const std::int64_t since = g_wait_since_ns.load(std::memory_order_relaxed);
      if (since == 0 || double(now_ns() - since) < timeout * 1e9) continue;
      std::fprintf(stderr,
                   "kairo: error: process %d of %d: waited %.0f s in %s (its collective %llu) for the other "
                   "processes; one of them is lost or stuck (KAIRO_MPI_TIMEOUT sets the limit, now %g s)\n",
                   rank, size, double(now_ns() - since) / 1e9, g_wait_what.load(),
                   static_cast<unsigned long long>(g_waits.load()), timeout);
      std::fflush(stderr);
      std::_Exit(2);  // without MPI_Finalize: mpirun ends the others
    }
  }).detach();
}

void MpiWorld::fail(int code, const std::string& message, bool said) const {
  if (!parallel()) return;
  const bool all = mpi_->all_fail(2.0);
  if (rank_ != 0 && !all)
    std::fprintf(stderr, "kairo: error: process %d of %d: %s\n", rank_, size_, message.c_str());
  else if (rank_ == 0 && !said)
    std::fprintf(stderr, "kairo: error: %s\n", message.c_str());
  if (all) return;
  std::fflush(stdout);
  std::fflush(stderr);
  std::_Exit(code);
}

std::string MpiWorld::compare_digests(std::uint64_t digest, const std::string& what) const {
  if (!parallel()) return "";
  std::vector<std::uint64_t> v = {digest, ~digest};
  {
    CollectiveWait w("the check that every process runs the same build and command");
    mpi_->allreduce(v.data(), v.size(), MpiTransport::Reduce::kMin);
  }
  if (v[0] == ~v[1]) return "";
  std::vector<char> mine(what.begin(), what.end());
  std::vector<std::vector<char>> all;
  {
    CollectiveWait w("the check that every process runs the same build and command");
    all = mpi_->gather(mine);
  }
  std::string msg;
  if (rank_ == 0) {
    for (std::size_t p = 1; p < all.size(); ++p) {
      const std::string theirs(all[p].begin(), all[p].end());
      if (theirs != what) msg += "; process " + std::to_string(p) + " " + theirs;
    }
    if (msg.empty()) msg = "; the others alike, but their kairo binaries differ";
    msg = "the processes of this run differ: process 0 " + what + msg +
          "; every process must run the same kairo build with the same command and platform";
  }
  std::vector<char> bytes(msg.begin(), msg.end());
  {
    CollectiveWait w("the check that every process runs the same build and command");
    mpi_->broadcast(bytes);
  }
  return std::string(bytes.begin(), bytes.end());
}

MpiWorld& MpiWorld::get() {
  if (!world) world = new MpiWorld();  // lives until exit: MPI is finalised once
  return *world;
}

void MpiWorld::finalize() {
  if (world && world->mpi_) world->mpi_->finalize();
}

void MpiWorld::min(std::vector<std::uint64_t>& values) const {
  if (!parallel()) return;
  CollectiveWait w("an agreement (a minimum over the processes)");
  mpi_->allreduce(values.data(), values.size(), MpiTransport::Reduce::kMin);
}

std::uint64_t MpiWorld::max(std::uint64_t local) const {
  if (!parallel()) return local;
  CollectiveWait w("an agreement (a maximum over the processes)");
  mpi_->allreduce(&local, 1, MpiTransport::Reduce::kMax);
  return local;
}

std::uint64_t MpiWorld::sum(std::uint64_t local) const {
  if (!parallel()) return local;
  CollectiveWait w("a sum over the processes");
  mpi_->allreduce(&local, 1, MpiTransport::Reduce::kSum);
  return local;
}

void MpiWorld::sum(std::vector<std::uint64_t>& values) const {
  if (!parallel()) return;
  CollectiveWait w("a sum over the processes");
  mpi_->allreduce(values.data(), values.size(), MpiTransport::Reduce::kSum);
}

bool MpiWorld::any(bool local) const { return max(local ? 1 : 0) != 0; }

std::uint64_t MpiWorld::exchange(const std::vector<std::vector<char>>& out,
                                 std::vector<std::vector<char>>& in) const {
  if (parallel()) {
    CollectiveWait w("a window's exchange of boundary messages with every process");
    return mpi_->exchange(out, in);
  }
  in.resize(1);
  in[0] = out[0];
  return 0;
}

std::uint64_t MpiWorld::exchange_with(const std::vector<int>& peers,
                                      const std::vector<std::vector<char>>& out,
                                      std::vector<std::vector<char>>& in) const {
  if (!parallel() || peers.empty()) {
    in.resize(std::size_t(size_));
    return 0;
  }
  CollectiveWait w("a window's exchange of boundary messages with the neighbouring processes");
  return mpi_->exchange_with(peers, out, in);
}

std::vector<std::vector<char>> MpiWorld::gather(const std::vector<char>& mine) const {
  if (!parallel()) return {mine};
  CollectiveWait w("the gathering of the processes' results on process 0");
  return mpi_->gather(mine);
}

void MpiWorld::broadcast(std::vector<char>& bytes) const {
  if (!parallel()) return;
  CollectiveWait w("a broadcast from process 0");
  mpi_->broadcast(bytes);
}

void MpiWorld::abort(int code) const {
  if (mpi_) mpi_->abort(code);
  std::exit(code);
}

}  // namespace kairo::sim

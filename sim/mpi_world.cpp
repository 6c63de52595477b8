#include "sim/mpi_world.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

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

}  // namespace

MpiWorld::MpiWorld() {
  if (!started_by_mpirun()) return;
  mpi_ = load_transport();
  rank_ = mpi_->rank();
  size_ = mpi_->size();
}

MpiWorld& MpiWorld::get() {
  if (!world) world = new MpiWorld();  // lives until exit: MPI is finalised once
  return *world;
}

void MpiWorld::finalize() {
  if (world && world->mpi_) world->mpi_->finalize();
}

void MpiWorld::min(std::vector<std::uint64_t>& values) const {
  if (parallel()) mpi_->allreduce(values.data(), values.size(), MpiTransport::Reduce::kMin);
}

std::uint64_t MpiWorld::max(std::uint64_t local) const {
  if (parallel()) mpi_->allreduce(&local, 1, MpiTransport::Reduce::kMax);
  return local;
}

std::uint64_t MpiWorld::sum(std::uint64_t local) const {
  if (parallel()) mpi_->allreduce(&local, 1, MpiTransport::Reduce::kSum);
  return local;
}

void MpiWorld::sum(std::vector<std::uint64_t>& values) const {
  if (parallel()) mpi_->allreduce(values.data(), values.size(), MpiTransport::Reduce::kSum);
}

bool MpiWorld::any(bool local) const { return max(local ? 1 : 0) != 0; }

std::uint64_t MpiWorld::exchange(const std::vector<std::vector<char>>& out,
                                 std::vector<std::vector<char>>& in) const {
  if (parallel()) return mpi_->exchange(out, in);
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
  return mpi_->exchange_with(peers, out, in);
}

std::vector<std::vector<char>> MpiWorld::gather(const std::vector<char>& mine) const {
  if (parallel()) return mpi_->gather(mine);
  return {mine};
}

void MpiWorld::broadcast(std::vector<char>& bytes) const {
  if (parallel()) mpi_->broadcast(bytes);
}

void MpiWorld::abort(int code) const {
  if (mpi_) mpi_->abort(code);
  std::exit(code);
}

}  // namespace kairo::sim

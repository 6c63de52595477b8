// Communicators as the trace names them: OTF2 Comm ids that are the same on
// every rank, and each communicator's members as world ranks (the Comm and
// Group definitions rank 0 writes at MPI_Finalize).
//
// Not modeled: intercommunicators, and communicators made by calls the tracer
// does not wrap (MPI_Cart_create, MPI_Comm_create_group, MPI_Intercomm_*):
// their events name OTF2_UNDEFINED_COMM.
#pragma once

#include <cstdint>
#include <vector>

#include "mpitrace/tracer.h"

namespace kairo::mpitrace {

constexpr uint32_t kWorldComm = 0;
constexpr uint32_t kSelfComm = 1;

// A communicator made during the run, as its leader (its rank 0) records it.
struct CommRecord {
  uint32_t id = 0;
  uint32_t parent = 0;
  uint32_t creator = 0;           // the Region that made it
  std::vector<uint32_t> members;  // world ranks, in communicator-rank order
};

// Called once by MPI_Init, after PMPI_Init.
void comms_start(int world_rank, int world_size);
// The trace id of comm; OTF2_UNDEFINED_COMM for one the tracer does not know.
uint32_t comm_id(MPI_Comm comm);
// Gives newcomm (not MPI_COMM_NULL) its id: collective over newcomm.
uint32_t comm_register(MPI_Comm parent, MPI_Comm newcomm, Region creator);
void comm_forget(MPI_Comm comm);
bool comm_self_used();
// Calls that named a communicator the tracer does not know.
uint64_t comm_unknown_uses();
// Every communicator made on any rank, gathered on rank 0 (collective over
// MPI_COMM_WORLD; empty on the other ranks).
std::vector<CommRecord> comms_gather();

}  // namespace kairo::mpitrace

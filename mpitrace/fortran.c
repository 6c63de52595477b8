/* Fortran bindings of every wrapped call (mpif.h and `use mpi`). Open MPI's
 * own Fortran functions call PMPI_* directly, so a C wrapper never sees a
 * Fortran program's calls; these replace them (the library is preloaded ahead
 * of libmpi_mpifh), convert the Fortran handles and sentinels, and call the C
 * wrapper of the same name, which traces and then calls PMPI. The trace
 * therefore names the C functions (MPI_Send) for Fortran callers too.
 *
 * Each function is defined once and exported under the four usual manglings
 * (mpi_send, mpi_send_, mpi_send__, MPI_SEND) as aliases.
 * Not modeled: the mpi_f08 module, whose symbols differ (mpi_send_f08). */
#include <mpi.h>
#include <stdlib.h>

/* Open MPI's Fortran sentinels: the addresses a Fortran caller passes for
 * MPI_IN_PLACE, MPI_BOTTOM, MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE. */
extern int mpi_fortran_in_place_, mpi_fortran_bottom_, mpi_fortran_status_ignore_,
    mpi_fortran_statuses_ignore_;

#define FORTRAN_NAMES(lower, upper)                     \
  void lower() __attribute__((alias("f_" #lower)));     \
  void lower##_() __attribute__((alias("f_" #lower)));  \
  void lower##__() __attribute__((alias("f_" #lower))); \
  void upper() __attribute__((alias("f_" #lower)));

#define COMM(f) MPI_Comm_f2c(*(f))
#define TYPE(f) MPI_Type_f2c(*(f))
#define OP(f) MPI_Op_f2c(*(f))
#define LOGICAL(c) ((c) ? 1 : 0) /* gfortran's .true. and .false. */
enum { kStatusInts = sizeof(MPI_Status) / sizeof(MPI_Fint) };

static void* buf(void* p) {
  if (p == &mpi_fortran_in_place_) return MPI_IN_PLACE;
  if (p == &mpi_fortran_bottom_) return MPI_BOTTOM;
  return p;
}

/* A C status for a Fortran one, or MPI_STATUS_IGNORE; put_status copies back. */
static MPI_Status* status_for(MPI_Fint* f, MPI_Status* local) {
  return f == &mpi_fortran_status_ignore_ ? MPI_STATUS_IGNORE : local;
}
static void put_status(const MPI_Status* c, MPI_Fint* f) {
  if (c != MPI_STATUS_IGNORE) MPI_Status_c2f(c, f);
}

/* Scratch arrays for the request-array calls: one process, one thread, so
 * one set, grown to the largest call. */
static MPI_Request* g_req;
static MPI_Status* g_st;
static int g_capacity;
static MPI_Request* requests_for(int n, const MPI_Fint* f) {
  if (n > g_capacity) {
    g_capacity = n;
    g_req = realloc(g_req, sizeof(MPI_Request) * (size_t)n);
    g_st = realloc(g_st, sizeof(MPI_Status) * (size_t)n);
  }
  for (int i = 0; i < n; ++i) g_req[i] = MPI_Request_f2c(f[i]);
  return g_req;
}
static void put_requests(int n, MPI_Fint* f) {
  for (int i = 0; i < n; ++i) f[i] = MPI_Request_c2f(g_req[i]);
}
static MPI_Status* statuses_for(MPI_Fint* f) {
  return f == &mpi_fortran_statuses_ignore_ ? MPI_STATUSES_IGNORE : g_st;
}
static void put_statuses(int n, const MPI_Status* c, MPI_Fint* f) {
  if (c == MPI_STATUSES_IGNORE) return;
  for (int i = 0; i < n; ++i) MPI_Status_c2f(&c[i], f + i * kStatusInts);
}

/* ---- environment ---- */
static void f_mpi_init(MPI_Fint* ierr) { *ierr = MPI_Init(NULL, NULL); }
FORTRAN_NAMES(mpi_init, MPI_INIT)
static void f_mpi_init_thread(MPI_Fint* required, MPI_Fint* provided, MPI_Fint* ierr) {
  int p = 0;
  *ierr = MPI_Init_thread(NULL, NULL, *required, &p);
  *provided = p;
}
FORTRAN_NAMES(mpi_init_thread, MPI_INIT_THREAD)
static void f_mpi_finalize(MPI_Fint* ierr) { *ierr = MPI_Finalize(); }
FORTRAN_NAMES(mpi_finalize, MPI_FINALIZE)
static void f_mpi_comm_rank(MPI_Fint* comm, MPI_Fint* rank, MPI_Fint* ierr) {
  *ierr = MPI_Comm_rank(COMM(comm), rank);
}
FORTRAN_NAMES(mpi_comm_rank, MPI_COMM_RANK)
static void f_mpi_comm_size(MPI_Fint* comm, MPI_Fint* size, MPI_Fint* ierr) {
  *ierr = MPI_Comm_size(COMM(comm), size);
}
FORTRAN_NAMES(mpi_comm_size, MPI_COMM_SIZE)

/* ---- point to point ---- */
#define BLOCKING_SEND(lower, upper, c)                                                                    \
  static void f_##lower(void* b, MPI_Fint* n, MPI_Fint* t, MPI_Fint* dest, MPI_Fint* tag, MPI_Fint* comm, \
                        MPI_Fint* ierr) {                                                                 \
    *ierr = c(buf(b), *n, TYPE(t), *dest, *tag, COMM(comm));                                              \
  }                                                                                                       \
  FORTRAN_NAMES(lower, upper)
BLOCKING_SEND(mpi_send, MPI_SEND, MPI_Send)
BLOCKING_SEND(mpi_ssend, MPI_SSEND, MPI_Ssend)
BLOCKING_SEND(mpi_bsend, MPI_BSEND, MPI_Bsend)
BLOCKING_SEND(mpi_rsend, MPI_RSEND, MPI_Rsend)

#define NONBLOCKING(lower, upper, c)                                                                      \
  static void f_##lower(void* b, MPI_Fint* n, MPI_Fint* t, MPI_Fint* peer, MPI_Fint* tag, MPI_Fint* comm, \
                        MPI_Fint* req, MPI_Fint* ierr) {                                                  \
    MPI_Request r;                                                                                        \
    *ierr = c(buf(b), *n, TYPE(t), *peer, *tag, COMM(comm), &r);                                          \
    if (*ierr == MPI_SUCCESS) *req = MPI_Request_c2f(r);                                                  \
  }                                                                                                       \
  FORTRAN_NAMES(lower, upper)
NONBLOCKING(mpi_isend, MPI_ISEND, MPI_Isend)
NONBLOCKING(mpi_issend, MPI_ISSEND, MPI_Issend)
NONBLOCKING(mpi_ibsend, MPI_IBSEND, MPI_Ibsend)
NONBLOCKING(mpi_irsend, MPI_IRSEND, MPI_Irsend)
NONBLOCKING(mpi_irecv, MPI_IRECV, MPI_Irecv)

static void f_mpi_recv(void* b, MPI_Fint* n, MPI_Fint* t, MPI_Fint* src, MPI_Fint* tag, MPI_Fint* comm,
                       MPI_Fint* status, MPI_Fint* ierr) {
  MPI_Status local, *s = status_for(status, &local);
  *ierr = MPI_Recv(buf(b), *n, TYPE(t), *src, *tag, COMM(comm), s);
  put_status(s, status);
}
FORTRAN_NAMES(mpi_recv, MPI_RECV)

static void f_mpi_sendrecv(void* sb, MPI_Fint* sn, MPI_Fint* st, MPI_Fint* dest, MPI_Fint* stag, void* rb,
                           MPI_Fint* rn, MPI_Fint* rt, MPI_Fint* src, MPI_Fint* rtag, MPI_Fint* comm,
                           MPI_Fint* status, MPI_Fint* ierr) {
  MPI_Status local, *s = status_for(status, &local);
  *ierr =
      MPI_Sendrecv(buf(sb), *sn, TYPE(st), *dest, *stag, buf(rb), *rn, TYPE(rt), *src, *rtag, COMM(comm), s);
  put_status(s, status);
}
FORTRAN_NAMES(mpi_sendrecv, MPI_SENDRECV)

static void f_mpi_sendrecv_replace(void* b, MPI_Fint* n, MPI_Fint* t, MPI_Fint* dest, MPI_Fint* stag,
                                   MPI_Fint* src, MPI_Fint* rtag, MPI_Fint* comm, MPI_Fint* status,
                                   MPI_Fint* ierr) {
  MPI_Status local, *s = status_for(status, &local);
  *ierr = MPI_Sendrecv_replace(buf(b), *n, TYPE(t), *dest, *stag, *src, *rtag, COMM(comm), s);
  put_status(s, status);
}
FORTRAN_NAMES(mpi_sendrecv_replace, MPI_SENDRECV_REPLACE)

static void f_mpi_probe(MPI_Fint* src, MPI_Fint* tag, MPI_Fint* comm, MPI_Fint* status, MPI_Fint* ierr) {
  MPI_Status local, *s = status_for(status, &local);
  *ierr = MPI_Probe(*src, *tag, COMM(comm), s);
  put_status(s, status);
}
FORTRAN_NAMES(mpi_probe, MPI_PROBE)
static void f_mpi_iprobe(MPI_Fint* src, MPI_Fint* tag, MPI_Fint* comm, MPI_Fint* flag, MPI_Fint* status,
                         MPI_Fint* ierr) {
  MPI_Status local, *s = status_for(status, &local);
  int c = 0;
  *ierr = MPI_Iprobe(*src, *tag, COMM(comm), &c, s);
  *flag = LOGICAL(c);
  if (c) put_status(s, status);
}
FORTRAN_NAMES(mpi_iprobe, MPI_IPROBE)

/* ---- completion ---- */
static void f_mpi_wait(MPI_Fint* req, MPI_Fint* status, MPI_Fint* ierr) {
  MPI_Status local, *s = status_for(status, &local);
  MPI_Request r = MPI_Request_f2c(*req);
  *ierr = MPI_Wait(&r, s);
  *req = MPI_Request_c2f(r);
  put_status(s, status);
}
FORTRAN_NAMES(mpi_wait, MPI_WAIT)
static void f_mpi_test(MPI_Fint* req, MPI_Fint* flag, MPI_Fint* status, MPI_Fint* ierr) {
  MPI_Status local, *s = status_for(status, &local);
  MPI_Request r = MPI_Request_f2c(*req);
  int c = 0;
  *ierr = MPI_Test(&r, &c, s);
  *req = MPI_Request_c2f(r);
  *flag = LOGICAL(c);
  if (c) put_status(s, status);
}
FORTRAN_NAMES(mpi_test, MPI_TEST)
static void f_mpi_waitall(MPI_Fint* n, MPI_Fint* reqs, MPI_Fint* statuses, MPI_Fint* ierr) {
  MPI_Request* r = requests_for(*n, reqs);
  MPI_Status* s = statuses_for(statuses);
  *ierr = MPI_Waitall(*n, r, s);
  put_requests(*n, reqs);
  put_statuses(*n, s, statuses);
}
FORTRAN_NAMES(mpi_waitall, MPI_WAITALL)
static void f_mpi_testall(MPI_Fint* n, MPI_Fint* reqs, MPI_Fint* flag, MPI_Fint* statuses, MPI_Fint* ierr) {
  MPI_Request* r = requests_for(*n, reqs);
  MPI_Status* s = statuses_for(statuses);
  int c = 0;
  *ierr = MPI_Testall(*n, r, &c, s);
  put_requests(*n, reqs);
  *flag = LOGICAL(c);
  if (c) put_statuses(*n, s, statuses);
}
FORTRAN_NAMES(mpi_testall, MPI_TESTALL)
static void f_mpi_waitany(MPI_Fint* n, MPI_Fint* reqs, MPI_Fint* index, MPI_Fint* status, MPI_Fint* ierr) {
  MPI_Status local, *s = status_for(status, &local);
  MPI_Request* r = requests_for(*n, reqs);
  int i = 0;
  *ierr = MPI_Waitany(*n, r, &i, s);
  put_requests(*n, reqs);
  *index = i == MPI_UNDEFINED ? i : i + 1; /* Fortran counts from 1 */
  put_status(s, status);
}
FORTRAN_NAMES(mpi_waitany, MPI_WAITANY)
static void f_mpi_testany(MPI_Fint* n, MPI_Fint* reqs, MPI_Fint* index, MPI_Fint* flag, MPI_Fint* status,
                          MPI_Fint* ierr) {
  MPI_Status local, *s = status_for(status, &local);
  MPI_Request* r = requests_for(*n, reqs);
  int i = 0, c = 0;
  *ierr = MPI_Testany(*n, r, &i, &c, s);
  put_requests(*n, reqs);
  *index = i == MPI_UNDEFINED ? i : i + 1;
  *flag = LOGICAL(c);
  if (c) put_status(s, status);
}
FORTRAN_NAMES(mpi_testany, MPI_TESTANY)

#define SOME(lower, upper, c)                                                               \
  static void f_##lower(MPI_Fint* n, MPI_Fint* reqs, MPI_Fint* outcount, MPI_Fint* indices, \
                        MPI_Fint* statuses, MPI_Fint* ierr) {                               \
    MPI_Request* r = requests_for(*n, reqs);                                                \
    MPI_Status* s = statuses_for(statuses);                                                 \
    *ierr = c(*n, r, outcount, indices, s);                                                 \
    put_requests(*n, reqs);                                                                 \
    if (*outcount == MPI_UNDEFINED) return;                                                 \
    for (int k = 0; k < *outcount; ++k) ++indices[k];                                       \
    put_statuses(*outcount, s, statuses);                                                   \
  }                                                                                         \
  FORTRAN_NAMES(lower, upper)
SOME(mpi_waitsome, MPI_WAITSOME, MPI_Waitsome)
SOME(mpi_testsome, MPI_TESTSOME, MPI_Testsome)

static void f_mpi_request_free(MPI_Fint* req, MPI_Fint* ierr) {
  MPI_Request r = MPI_Request_f2c(*req);
  *ierr = MPI_Request_free(&r);
  *req = MPI_Request_c2f(r);
}
FORTRAN_NAMES(mpi_request_free, MPI_REQUEST_FREE)
static void f_mpi_cancel(MPI_Fint* req, MPI_Fint* ierr) {
  MPI_Request r = MPI_Request_f2c(*req);
  *ierr = MPI_Cancel(&r);
}
FORTRAN_NAMES(mpi_cancel, MPI_CANCEL)

/* ---- collectives ---- */
static void f_mpi_barrier(MPI_Fint* comm, MPI_Fint* ierr) { *ierr = MPI_Barrier(COMM(comm)); }
FORTRAN_NAMES(mpi_barrier, MPI_BARRIER)
static void f_mpi_bcast(void* b, MPI_Fint* n, MPI_Fint* t, MPI_Fint* root, MPI_Fint* comm, MPI_Fint* ierr) {
  *ierr = MPI_Bcast(buf(b), *n, TYPE(t), *root, COMM(comm));
}
FORTRAN_NAMES(mpi_bcast, MPI_BCAST)
static void f_mpi_reduce(void* sb, void* rb, MPI_Fint* n, MPI_Fint* t, MPI_Fint* op, MPI_Fint* root,
                         MPI_Fint* comm, MPI_Fint* ierr) {
  *ierr = MPI_Reduce(buf(sb), buf(rb), *n, TYPE(t), OP(op), *root, COMM(comm));
}
FORTRAN_NAMES(mpi_reduce, MPI_REDUCE)

/* Allreduce, Scan, Exscan and Reduce_scatter_block share one shape. */
#define REDUCTION(lower, upper, c)                                                                  \
  static void f_##lower(void* sb, void* rb, MPI_Fint* n, MPI_Fint* t, MPI_Fint* op, MPI_Fint* comm, \
                        MPI_Fint* ierr) {                                                           \
    *ierr = c(buf(sb), buf(rb), *n, TYPE(t), OP(op), COMM(comm));                                   \
  }                                                                                                 \
  FORTRAN_NAMES(lower, upper)
REDUCTION(mpi_allreduce, MPI_ALLREDUCE, MPI_Allreduce)
REDUCTION(mpi_scan, MPI_SCAN, MPI_Scan)
REDUCTION(mpi_exscan, MPI_EXSCAN, MPI_Exscan)
REDUCTION(mpi_reduce_scatter_block, MPI_REDUCE_SCATTER_BLOCK, MPI_Reduce_scatter_block)

static void f_mpi_reduce_scatter(void* sb, void* rb, MPI_Fint* counts, MPI_Fint* t, MPI_Fint* op,
                                 MPI_Fint* comm, MPI_Fint* ierr) {
  *ierr = MPI_Reduce_scatter(buf(sb), buf(rb), counts, TYPE(t), OP(op), COMM(comm));
}
FORTRAN_NAMES(mpi_reduce_scatter, MPI_REDUCE_SCATTER)

/* Gather and Scatter (rooted) and Allgather and Alltoall share two shapes. */
#define ROOTED(lower, upper, c)                                                                     \
  static void f_##lower(void* sb, MPI_Fint* sn, MPI_Fint* st, void* rb, MPI_Fint* rn, MPI_Fint* rt, \
                        MPI_Fint* root, MPI_Fint* comm, MPI_Fint* ierr) {                           \
    *ierr = c(buf(sb), *sn, TYPE(st), buf(rb), *rn, TYPE(rt), *root, COMM(comm));                   \
  }                                                                                                 \
  FORTRAN_NAMES(lower, upper)
ROOTED(mpi_gather, MPI_GATHER, MPI_Gather)
ROOTED(mpi_scatter, MPI_SCATTER, MPI_Scatter)
#define ALL(lower, upper, c)                                                                        \
  static void f_##lower(void* sb, MPI_Fint* sn, MPI_Fint* st, void* rb, MPI_Fint* rn, MPI_Fint* rt, \
                        MPI_Fint* comm, MPI_Fint* ierr) {                                           \
    *ierr = c(buf(sb), *sn, TYPE(st), buf(rb), *rn, TYPE(rt), COMM(comm));                          \
  }                                                                                                 \
  FORTRAN_NAMES(lower, upper)
ALL(mpi_allgather, MPI_ALLGATHER, MPI_Allgather)
ALL(mpi_alltoall, MPI_ALLTOALL, MPI_Alltoall)

static void f_mpi_gatherv(void* sb, MPI_Fint* sn, MPI_Fint* st, void* rb, MPI_Fint* rcounts, MPI_Fint* displs,
                          MPI_Fint* rt, MPI_Fint* root, MPI_Fint* comm, MPI_Fint* ierr) {
  *ierr = MPI_Gatherv(buf(sb), *sn, TYPE(st), buf(rb), rcounts, displs, TYPE(rt), *root, COMM(comm));
}
FORTRAN_NAMES(mpi_gatherv, MPI_GATHERV)
static void f_mpi_scatterv(void* sb, MPI_Fint* scounts, MPI_Fint* displs, MPI_Fint* st, void* rb,
                           MPI_Fint* rn, MPI_Fint* rt, MPI_Fint* root, MPI_Fint* comm, MPI_Fint* ierr) {
  *ierr = MPI_Scatterv(buf(sb), scounts, displs, TYPE(st), buf(rb), *rn, TYPE(rt), *root, COMM(comm));
}
FORTRAN_NAMES(mpi_scatterv, MPI_SCATTERV)
static void f_mpi_allgatherv(void* sb, MPI_Fint* sn, MPI_Fint* st, void* rb, MPI_Fint* rcounts,
                             MPI_Fint* displs, MPI_Fint* rt, MPI_Fint* comm, MPI_Fint* ierr) {
  *ierr = MPI_Allgatherv(buf(sb), *sn, TYPE(st), buf(rb), rcounts, displs, TYPE(rt), COMM(comm));
}
FORTRAN_NAMES(mpi_allgatherv, MPI_ALLGATHERV)
static void f_mpi_alltoallv(void* sb, MPI_Fint* scounts, MPI_Fint* sdispls, MPI_Fint* st, void* rb,
                            MPI_Fint* rcounts, MPI_Fint* rdispls, MPI_Fint* rt, MPI_Fint* comm,
                            MPI_Fint* ierr) {
  *ierr = MPI_Alltoallv(buf(sb), scounts, sdispls, TYPE(st), buf(rb), rcounts, rdispls, TYPE(rt), COMM(comm));
}
FORTRAN_NAMES(mpi_alltoallv, MPI_ALLTOALLV)
static void f_mpi_alltoallw(void* sb, MPI_Fint* scounts, MPI_Fint* sdispls, MPI_Fint* st, void* rb,
                            MPI_Fint* rcounts, MPI_Fint* rdispls, MPI_Fint* rt, MPI_Fint* comm,
                            MPI_Fint* ierr) {
  const MPI_Comm c = COMM(comm);
  int n = 0;
  PMPI_Comm_size(c, &n);
  MPI_Datatype* types = malloc(sizeof(MPI_Datatype) * 2 * (size_t)n);
  for (int i = 0; i < n; ++i) types[i] = MPI_Type_f2c(st[i]), types[n + i] = MPI_Type_f2c(rt[i]);
  *ierr = MPI_Alltoallw(buf(sb), scounts, sdispls, types, buf(rb), rcounts, rdispls, types + n, c);
  free(types);
}
FORTRAN_NAMES(mpi_alltoallw, MPI_ALLTOALLW)

/* ---- communicators ---- */
static void f_mpi_comm_split(MPI_Fint* comm, MPI_Fint* color, MPI_Fint* key, MPI_Fint* newcomm,
                             MPI_Fint* ierr) {
  MPI_Comm c;
  *ierr = MPI_Comm_split(COMM(comm), *color, *key, &c);
  if (*ierr == MPI_SUCCESS) *newcomm = MPI_Comm_c2f(c);
}
FORTRAN_NAMES(mpi_comm_split, MPI_COMM_SPLIT)
static void f_mpi_comm_split_type(MPI_Fint* comm, MPI_Fint* type, MPI_Fint* key, MPI_Fint* info,
                                  MPI_Fint* newcomm, MPI_Fint* ierr) {
  MPI_Comm c;
  *ierr = MPI_Comm_split_type(COMM(comm), *type, *key, MPI_Info_f2c(*info), &c);
  if (*ierr == MPI_SUCCESS) *newcomm = MPI_Comm_c2f(c);
}
FORTRAN_NAMES(mpi_comm_split_type, MPI_COMM_SPLIT_TYPE)
static void f_mpi_comm_dup(MPI_Fint* comm, MPI_Fint* newcomm, MPI_Fint* ierr) {
  MPI_Comm c;
  *ierr = MPI_Comm_dup(COMM(comm), &c);
  if (*ierr == MPI_SUCCESS) *newcomm = MPI_Comm_c2f(c);
}
FORTRAN_NAMES(mpi_comm_dup, MPI_COMM_DUP)
static void f_mpi_comm_create(MPI_Fint* comm, MPI_Fint* group, MPI_Fint* newcomm, MPI_Fint* ierr) {
  MPI_Comm c;
  *ierr = MPI_Comm_create(COMM(comm), MPI_Group_f2c(*group), &c);
  if (*ierr == MPI_SUCCESS) *newcomm = MPI_Comm_c2f(c);
}
FORTRAN_NAMES(mpi_comm_create, MPI_COMM_CREATE)
static void f_mpi_comm_free(MPI_Fint* comm, MPI_Fint* ierr) {
  MPI_Comm c = COMM(comm);
  *ierr = MPI_Comm_free(&c);
  if (*ierr == MPI_SUCCESS) *comm = MPI_Comm_c2f(c);
}
FORTRAN_NAMES(mpi_comm_free, MPI_COMM_FREE)

/* A small MPI program that uses every kind of call the tracer records
 * (mpitrace/README.md), for tests/trace/check_trace.py. It keeps its own
 * account of what it sends, independent of the tracer, and rank 0 writes it
 * to the JSON file argv[1]:
 *
 *   {"ranks": N, "pairs": [[src, dst, messages, bytes], ...],
 *    "collectives": {"MPI_Allreduce": calls per rank, ...}}
 *
 * pairs are world ranks, sorted, one entry per (src, dst) that exchanged
 * point-to-point messages (every send of any kind, Sendrecv's send too).
 * Needs an even number of ranks, at least 4. Message sizes straddle 12288
 * bytes (a common eager/rendezvous threshold) and include 0 bytes. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kMaxRanks = 64, kBig = 20000, kMid = 13000 };

static int g_rank, g_size;
static long long g_msgs[kMaxRanks], g_bytes[kMaxRanks];
static char g_buf[8][kBig], g_rbuf[8][kBig];

/* Collectives counted per kind, in the order of the JSON. */
static const char* const kColls[] = {"MPI_Barrier",   "MPI_Bcast",     "MPI_Reduce",
                                     "MPI_Allreduce", "MPI_Allgather", "MPI_Alltoall",
                                     "MPI_Gather",    "MPI_Scatter",   "MPI_Reduce_scatter_block"};
enum { BARRIER, BCAST, REDUCE, ALLREDUCE, ALLGATHER, ALLTOALL, GATHER, SCATTER, RSB, NCOLL };
static int g_colls[NCOLL];

/* Deterministic work between calls, so that the trace has compute gaps. */
static double compute(int n) {
  volatile double x = 1.0;
  for (int i = 0; i < n * 1000; ++i) x = x * 1.0000001 + 1e-9;
  return x;
}

/* The program's own account of a send to world rank dst. */
static void sent(int dst, int bytes) {
  g_msgs[dst] += 1;
  g_bytes[dst] += bytes;
}

static void blocking_pairs(void) {
  const int partner = g_rank ^ 1; /* pairs (0,1), (2,3), ... */
  if (g_rank % 2 == 0) {
    sent(partner, 100);
    MPI_Send(g_buf[0], 100, MPI_CHAR, partner, 10, MPI_COMM_WORLD);
    sent(partner, 0);
    MPI_Send(g_buf[0], 0, MPI_CHAR, partner, 11, MPI_COMM_WORLD);
    MPI_Recv(g_rbuf[0], kBig, MPI_CHAR, partner, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Status st;
    MPI_Recv(g_rbuf[0], kBig, MPI_CHAR, partner, 10, MPI_COMM_WORLD, &st);
    MPI_Recv(g_rbuf[0], kBig, MPI_CHAR, partner, 11, MPI_COMM_WORLD, &st);
    sent(partner, kBig);
    MPI_Ssend(g_buf[0], kBig, MPI_CHAR, partner, 12, MPI_COMM_WORLD);
  }
}

/* Two receives (from left and right) and two sends, the given sizes. */
static void post_ring(MPI_Request req[4], int small, int large, int tag) {
  const int right = (g_rank + 1) % g_size, left = (g_rank + g_size - 1) % g_size;
  MPI_Irecv(g_rbuf[1], kBig, MPI_CHAR, left, tag, MPI_COMM_WORLD, &req[0]);
  MPI_Irecv(g_rbuf[2], kBig, MPI_CHAR, right, tag + 1, MPI_COMM_WORLD, &req[1]);
  sent(right, small);
  MPI_Isend(g_buf[1], small, MPI_CHAR, right, tag, MPI_COMM_WORLD, &req[2]);
  sent(left, large);
  MPI_Isend(g_buf[2], large, MPI_CHAR, left, tag + 1, MPI_COMM_WORLD, &req[3]);
}

static void nonblocking(void) {
  MPI_Request req[4];
  int done = 0, index, outcount, indices[4], flag;

  post_ring(req, 4096, 0, 20);
  for (int i = 0; i < 4; ++i) MPI_Wait(&req[i], MPI_STATUS_IGNORE);
  compute(50);

  MPI_Status statuses[4];
  post_ring(req, 0, kBig, 30);
  MPI_Waitall(4, req, statuses);
  compute(50);

  post_ring(req, 5000, 12288, 40);
  for (int i = 0; i < 4; ++i) MPI_Waitany(4, req, &index, MPI_STATUS_IGNORE);
  compute(50);

  post_ring(req, 12289, 64, 50);
  for (done = 0; done < 4; done += outcount) MPI_Waitsome(4, req, &outcount, indices, MPI_STATUSES_IGNORE);
  compute(50);

  post_ring(req, 800, kBig, 60);
  for (int i = 0; i < 4; ++i)
    for (flag = 0; !flag;) MPI_Test(&req[i], &flag, MPI_STATUS_IGNORE);
  compute(50);

  post_ring(req, kBig, 1, 70);
  for (flag = 0; !flag;) MPI_Testall(4, req, &flag, MPI_STATUSES_IGNORE);
  compute(50);

  post_ring(req, 3, kMid, 80);
  for (done = 0; done < 4;) {
    MPI_Testany(4, req, &index, &flag, MPI_STATUS_IGNORE);
    if (flag && index != MPI_UNDEFINED) ++done;
  }
}

/* Several small sends in flight at once, each set completed by one kind of
 * call. Open MPI finishes a small send inside MPI_Isend and hands all such
 * sends one shared request handle, as it does for every request with
 * MPI_PROC_NULL as peer; the tracer must still complete each request in the
 * call that completes it. Per round: three receives from the left, three
 * sends of at most 64 bytes to the right, a send to and a receive from
 * MPI_PROC_NULL. */
enum { WAIT, WAITANY, TESTANY, WAITSOME, TESTSOME, NKINDS };

static void post_small(MPI_Request req[8], int tag) {
  const int right = (g_rank + 1) % g_size, left = (g_rank + g_size - 1) % g_size;
  static const int sizes[3] = {0, 8, 64};
  for (int i = 0; i < 3; ++i) {
    sent(right, sizes[i]);
    MPI_Isend(g_buf[1], sizes[i], MPI_CHAR, right, tag + i, MPI_COMM_WORLD, &req[i]);
  }
  MPI_Isend(g_buf[1], 8, MPI_CHAR, MPI_PROC_NULL, tag, MPI_COMM_WORLD, &req[3]);
  for (int i = 0; i < 3; ++i)
    MPI_Irecv(g_rbuf[1] + 64 * i, 64, MPI_CHAR, left, tag + i, MPI_COMM_WORLD, &req[4 + i]);
  MPI_Irecv(g_rbuf[2], 8, MPI_CHAR, MPI_PROC_NULL, tag, MPI_COMM_WORLD, &req[7]);
}

static void shared_handles(void) {
  MPI_Request req[8];
  MPI_Status statuses[8];
  int index, flag, outcount, indices[8];
  for (int kind = 0; kind < NKINDS; ++kind) {
    post_small(req, 100 + 10 * kind);
    compute(5); /* let the receives match */
    int done = 0;
    switch (kind) {
      case WAIT: /* the last send first: not the order they were started in */
        for (int i = 7; i >= 0; --i) MPI_Wait(&req[i], &statuses[0]);
        break;
      case WAITANY:
        for (int i = 0; i < 8; ++i) MPI_Waitany(8, req, &index, MPI_STATUS_IGNORE);
        MPI_Waitany(8, req, &index, MPI_STATUS_IGNORE); /* all inactive: MPI_UNDEFINED */
        break;
      case TESTANY:
        while (done < 8) {
          MPI_Testany(8, req, &index, &flag, &statuses[0]);
          if (flag && index != MPI_UNDEFINED) ++done;
        }
        break;
      case WAITSOME:
        for (; done < 8; done += outcount) MPI_Waitsome(8, req, &outcount, indices, statuses);
        break;
      case TESTSOME:
        for (; done < 8; done += outcount) MPI_Testsome(8, req, &outcount, indices, MPI_STATUSES_IGNORE);
        break;
    }
  }
}

static void sendrecv(void) {
  const int right = (g_rank + 1) % g_size, left = (g_rank + g_size - 1) % g_size;
  sent(right, kMid);
  MPI_Sendrecv(g_buf[3], kMid, MPI_CHAR, right, 90, g_rbuf[3], kBig, MPI_CHAR, left, 90, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  sent(left, 8 * 10);
  MPI_Sendrecv_replace(g_buf[4], 10, MPI_DOUBLE, left, 91, right, 91, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* Wildcards whose match is deterministic: in this phase rank 1 is the only
 * sender to rank 0, and rank 3 the only sender to rank 2. The barrier after
 * keeps later messages away from the wildcard receives. */
static void wildcards(void) {
  if (g_rank == 1) {
    sent(0, 300);
    MPI_Send(g_buf[5], 300, MPI_CHAR, 0, 77, MPI_COMM_WORLD);
  } else if (g_rank == 0) {
    MPI_Recv(g_rbuf[5], kBig, MPI_CHAR, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (g_rank == 3) {
    sent(2, 15000);
    MPI_Send(g_buf[5], 15000, MPI_CHAR, 2, 78, MPI_COMM_WORLD);
  } else if (g_rank == 2) {
    MPI_Request r;
    MPI_Irecv(g_rbuf[5], kBig, MPI_CHAR, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  }
  ++g_colls[BARRIER];
  MPI_Barrier(MPI_COMM_WORLD);
}

static void collectives(MPI_Comm comm) {
  int n;
  MPI_Comm_size(comm, &n);
  double a[kMaxRanks * 4] = {0}, b[kMaxRanks * 4] = {0};
  ++g_colls[BARRIER], MPI_Barrier(comm);
  ++g_colls[BCAST], MPI_Bcast(a, 100, MPI_DOUBLE, 0, comm);
  compute(20);
  ++g_colls[REDUCE], MPI_Reduce(a, b, 10, MPI_DOUBLE, MPI_SUM, 1, comm);
  ++g_colls[ALLREDUCE], MPI_Allreduce(a, b, 4, MPI_DOUBLE, MPI_SUM, comm);
  ++g_colls[ALLREDUCE], MPI_Allreduce(MPI_IN_PLACE, a, 4, MPI_DOUBLE, MPI_MAX, comm);
  ++g_colls[ALLGATHER], MPI_Allgather(a, 2, MPI_DOUBLE, b, 2, MPI_DOUBLE, comm);
  compute(20);
  ++g_colls[ALLTOALL], MPI_Alltoall(a, 3, MPI_DOUBLE, b, 3, MPI_DOUBLE, comm);
  ++g_colls[GATHER], MPI_Gather(a, 1, MPI_DOUBLE, b, 1, MPI_DOUBLE, 0, comm);
  ++g_colls[SCATTER], MPI_Scatter(a, 2, MPI_DOUBLE, b, 2, MPI_DOUBLE, n - 1, comm);
  ++g_colls[RSB], MPI_Reduce_scatter_block(a, b, 2, MPI_DOUBLE, MPI_SUM, comm);
}

/* Even and odd ranks in communicators of their own: a ring inside each, its
 * collectives, then a duplicate of MPI_COMM_WORLD with one exchange. */
static void communicators(void) {
  MPI_Comm half, dup;
  MPI_Comm_split(MPI_COMM_WORLD, g_rank % 2, g_rank, &half);
  int r, n;
  MPI_Comm_rank(half, &r);
  MPI_Comm_size(half, &n);
  const int right = (r + 1) % n, left = (r + n - 1) % n;
  MPI_Request req[2];
  MPI_Irecv(g_rbuf[6], kBig, MPI_CHAR, left, 5, half, &req[0]);
  sent(2 * right + g_rank % 2, 640);
  MPI_Isend(g_buf[6], 640, MPI_CHAR, right, 5, half, &req[1]);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  if (r == 0) {
    sent(2 * 1 + g_rank % 2, 16000);
    MPI_Send(g_buf[6], 16000, MPI_CHAR, 1, 6, half);
  } else if (r == 1) {
    MPI_Recv(g_rbuf[6], kBig, MPI_CHAR, MPI_ANY_SOURCE, 6, half, MPI_STATUS_IGNORE);
  }
  collectives(half);
  compute(30);

  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  const int partner = g_rank ^ 1;
  sent(partner, 48);
  MPI_Sendrecv(g_buf[7], 6, MPI_DOUBLE, partner, 7, g_rbuf[7], 6, MPI_DOUBLE, partner, 7, dup,
               MPI_STATUS_IGNORE);
  ++g_colls[ALLREDUCE], MPI_Allreduce(g_buf[7], g_rbuf[7], 1, MPI_INT, MPI_SUM, dup);
  MPI_Comm_free(&dup);
  MPI_Comm_free(&half);
}

static void report(const char* path) {
  long long mine[2 * kMaxRanks], all[2 * kMaxRanks * kMaxRanks];
  for (int d = 0; d < g_size; ++d) mine[d] = g_msgs[d], mine[g_size + d] = g_bytes[d];
  ++g_colls[GATHER];
  MPI_Gather(mine, 2 * g_size, MPI_LONG_LONG, all, 2 * g_size, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  if (g_rank != 0) return;
  FILE* f = fopen(path, "w");
  if (!f) {
    perror(path);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  fprintf(f, "{\"ranks\": %d, \"pairs\": [", g_size);
  const char* sep = "";
  for (int s = 0; s < g_size; ++s)
    for (int d = 0; d < g_size; ++d) {
      const long long* row = all + 2 * g_size * s;
      if (row[d] == 0) continue;
      fprintf(f, "%s[%d, %d, %lld, %lld]", sep, s, d, row[d], row[g_size + d]);
      sep = ", ";
    }
  fprintf(f, "], \"collectives\": {");
  for (int c = 0; c < NCOLL; ++c) fprintf(f, "%s\"%s\": %d", c ? ", " : "", kColls[c], g_colls[c]);
  fprintf(f, "}}\n");
  fclose(f);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  if (argc < 2 || g_size < 4 || g_size % 2 != 0 || g_size > kMaxRanks) {
    if (g_rank == 0) fprintf(stderr, "usage: mpirun -np N mpi_small OUT.json (N even, 4..%d)\n", kMaxRanks);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  for (int i = 0; i < 8; ++i) memset(g_buf[i], i + g_rank, kBig);
  compute(100);
  blocking_pairs();
  compute(100);
  nonblocking();
  compute(100);
  shared_handles();
  compute(100);
  sendrecv();
  compute(100);
  wildcards();
  collectives(MPI_COMM_WORLD);
  compute(100);
  communicators();
  report(argv[1]);
  MPI_Finalize();
  return 0;
}

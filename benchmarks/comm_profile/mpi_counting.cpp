// MPI counting layer (PMPI wrappers), loaded with LD_PRELOAD into any program that uses
// tseig and switched on by the environment variable TSEIG_COMM_PROFILE=FILE: each MPI
// call is counted under the tseig stage running at the time (tseig_current_stage(),
// looked up at run time; "outside" when none), including the calls ScaLAPACK and BLACS
// make inside a stage. At MPI_Finalize rank 0 writes FILE (JSON): per rank and stage the
// point-to-point messages and bytes sent, and the collective calls and their payload bytes.
//
// Conventions (benchmarks/comm_model.py predicts the same quantities): a point-to-point
// send counts one message of count·size bytes; a collective counts one call and the bytes
// this rank contributes: Bcast, Allreduce, Reduce, Scan: count·size; Allgather(v),
// Gather(v): its send count; Alltoall(v), Scatter(v) at the root: the sum of its send
// counts; Barrier: no bytes. Receives are not counted (the sender's side has them).
#include <dlfcn.h>
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace {

struct Counts {
  long long p2p_messages = 0, p2p_bytes = 0, collective_calls = 0, collective_bytes = 0;
};

struct Profile {
  bool on = std::getenv("TSEIG_COMM_PROFILE") != nullptr;
  const char* (*stage)() = nullptr;  // tseig_current_stage, once found
  bool looked_up = false;
  std::map<std::string, Counts> by_stage;

  Counts& current() {
    if (!looked_up) {
      looked_up = true;
      stage = reinterpret_cast<const char* (*)()>(dlsym(RTLD_DEFAULT, "tseig_current_stage"));
    }
    const char* name = stage ? stage() : nullptr;
    return by_stage[name ? name : "outside"];
  }
};

Profile& profile() {
  static Profile p;
  return p;
}

long long bytes(int count, MPI_Datatype type) {
  int size = 0;
  PMPI_Type_size(type, &size);
  return static_cast<long long>(count) * size;
}

void sent(int count, MPI_Datatype type) {
  if (!profile().on) return;
  Counts& c = profile().current();
  ++c.p2p_messages;
  c.p2p_bytes += bytes(count, type);
}

void collective(long long payload) {
  if (!profile().on) return;
  Counts& c = profile().current();
  ++c.collective_calls;
  c.collective_bytes += payload;
}

int size_of(MPI_Comm comm) {
  int n = 0;
  PMPI_Comm_size(comm, &n);
  return n;
}

long long sum(const int* counts, int n, MPI_Datatype type) {
  long long total = 0;
  for (int i = 0; i < n; ++i) total += bytes(counts[i], type);
  return total;
}

// This rank's counters as one JSON object.
std::string to_json(const std::map<std::string, Counts>& stages) {
  std::string out = "{";
  for (const auto& [name, c] : stages) {
    char line[320];
    std::snprintf(line, sizeof line,
                  "%s\"%s\": {\"p2p_messages\": %lld, \"p2p_bytes\": %lld, "
                  "\"collective_calls\": %lld, \"collective_bytes\": %lld}",
                  out.size() > 1 ? ", " : "", name.c_str(), c.p2p_messages, c.p2p_bytes,
                  c.collective_calls, c.collective_bytes);
    out += line;
  }
  return out + "}";
}

}  // namespace

extern "C" {

int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  sent(count, type);
  return PMPI_Send(buf, count, type, dest, tag, comm);
}

int MPI_Ssend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  sent(count, type);
  return PMPI_Ssend(buf, count, type, dest, tag, comm);
}

int MPI_Rsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  sent(count, type);
  return PMPI_Rsend(buf, count, type, dest, tag, comm);
}

int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
              MPI_Request* request) {
  sent(count, type);
  return PMPI_Isend(buf, count, type, dest, tag, comm, request);
}

int MPI_Issend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
               MPI_Request* request) {
  sent(count, type);
  return PMPI_Issend(buf, count, type, dest, tag, comm, request);
}

int MPI_Sendrecv(const void* sbuf, int scount, MPI_Datatype stype, int dest, int stag, void* rbuf,
                 int rcount, MPI_Datatype rtype, int source, int rtag, MPI_Comm comm,
                 MPI_Status* status) {
  sent(scount, stype);
  return PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm,
                       status);
}

int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype type, int dest, int stag, int source,
                         int rtag, MPI_Comm comm, MPI_Status* status) {
  sent(count, type);
  return PMPI_Sendrecv_replace(buf, count, type, dest, stag, source, rtag, comm, status);
}

int MPI_Bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  collective(bytes(count, type));
  return PMPI_Bcast(buf, count, type, root, comm);
}

int MPI_Allreduce(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm) {
  collective(bytes(count, type));
  return PMPI_Allreduce(sbuf, rbuf, count, type, op, comm);
}

int MPI_Iallreduce(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op,
                   MPI_Comm comm, MPI_Request* request) {
  collective(bytes(count, type));
  return PMPI_Iallreduce(sbuf, rbuf, count, type, op, comm, request);
}

int MPI_Ibcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm,
               MPI_Request* request) {
  collective(bytes(count, type));
  return PMPI_Ibcast(buf, count, type, root, comm, request);
}

int MPI_Reduce(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, int root,
               MPI_Comm comm) {
  collective(bytes(count, type));
  return PMPI_Reduce(sbuf, rbuf, count, type, op, root, comm);
}

int MPI_Scan(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  collective(bytes(count, type));
  return PMPI_Scan(sbuf, rbuf, count, type, op, comm);
}

int MPI_Exscan(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op,
               MPI_Comm comm) {
  collective(bytes(count, type));
  return PMPI_Exscan(sbuf, rbuf, count, type, op, comm);
}

int MPI_Allgather(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount,
                  MPI_Datatype rtype, MPI_Comm comm) {
  collective(sbuf == MPI_IN_PLACE ? bytes(rcount, rtype) : bytes(scount, stype));
  return PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm);
}

int MPI_Allgatherv(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, const int* rcounts,
                   const int* displs, MPI_Datatype rtype, MPI_Comm comm) {
  int me = 0;
  PMPI_Comm_rank(comm, &me);
  collective(sbuf == MPI_IN_PLACE ? bytes(rcounts[me], rtype) : bytes(scount, stype));
  return PMPI_Allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm);
}

int MPI_Gather(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount,
               MPI_Datatype rtype, int root, MPI_Comm comm) {
  collective(sbuf == MPI_IN_PLACE ? bytes(rcount, rtype) : bytes(scount, stype));
  return PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
}

int MPI_Gatherv(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, const int* rcounts,
                const int* displs, MPI_Datatype rtype, int root, MPI_Comm comm) {
  collective(sbuf == MPI_IN_PLACE ? 0 : bytes(scount, stype));
  return PMPI_Gatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm);
}

int MPI_Scatter(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount,
                MPI_Datatype rtype, int root, MPI_Comm comm) {
  int me = 0;
  PMPI_Comm_rank(comm, &me);
  collective(me == root ? bytes(scount, stype) * size_of(comm) : 0);
  return PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
}

int MPI_Scatterv(const void* sbuf, const int* scounts, const int* displs, MPI_Datatype stype,
                 void* rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm) {
  int me = 0;
  PMPI_Comm_rank(comm, &me);
  collective(me == root ? sum(scounts, size_of(comm), stype) : 0);
  return PMPI_Scatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm);
}

int MPI_Alltoall(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount,
                 MPI_Datatype rtype, MPI_Comm comm) {
  collective(bytes(scount, stype) * size_of(comm));
  return PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
}

int MPI_Alltoallv(const void* sbuf, const int* scounts, const int* sdispls, MPI_Datatype stype,
                  void* rbuf, const int* rcounts, const int* rdispls, MPI_Datatype rtype,
                  MPI_Comm comm) {
  collective(sum(scounts, size_of(comm), stype));
  return PMPI_Alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm);
}

int MPI_Reduce_scatter_block(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op,
                             MPI_Comm comm) {
  collective(bytes(count, type) * size_of(comm));
  return PMPI_Reduce_scatter_block(sbuf, rbuf, count, type, op, comm);
}

int MPI_Barrier(MPI_Comm comm) {
  collective(0);
  return PMPI_Barrier(comm);
}

// Rank 0 gathers every rank's counters and writes them before MPI goes away.
int MPI_Finalize(void) {
  Profile& p = profile();
  if (p.on) {
    p.on = false;
    const std::string mine = to_json(p.by_stage);
    int me = 0, n = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &me);
    PMPI_Comm_size(MPI_COMM_WORLD, &n);
    int length = static_cast<int>(mine.size());
    std::vector<int> lengths(n), displs(n);
    PMPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    int total = 0;
    for (int r = 0; r < n; ++r) {
      displs[r] = total;
      total += lengths[r];
    }
    std::string all(me == 0 ? total : 0, ' ');
    PMPI_Gatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), displs.data(), MPI_CHAR,
                 0, MPI_COMM_WORLD);
    if (me == 0) {
      const char* path = std::getenv("TSEIG_COMM_PROFILE");
      if (FILE* f = std::fopen(path, "w")) {
        std::fprintf(f, "{\"np\": %d, \"ranks\": [", n);
        for (int r = 0; r < n; ++r)
          std::fprintf(f, "%s%.*s", r ? ", " : "", lengths[r], all.data() + displs[r]);
        std::fprintf(f, "]}\n");
        std::fclose(f);
      } else {
        std::fprintf(stderr, "tseig comm profile: cannot write %s\n", path);
      }
    }
  }
  return PMPI_Finalize();
}

}  // extern "C"

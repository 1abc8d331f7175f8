// Halo plan: every rank tells each owner which of its rows it needs (one all-to-all of
// counts, one of indices); the exchange then packs exactly those rows.
#include "sparse/dist/halo_plan.hpp"

#include <algorithm>
#include <complex>

#include "core/instantiate.hpp"
#include "core/mpi_types.hpp"

namespace tseig::sparse {

namespace {
constexpr int kHaloTag = 7341;  // distinct from the tags of other tseig traffic
}

HaloPlan make_halo_plan(MPI_Comm comm, const RowPartition& partition,
                        std::span<const std::int64_t> halo) {
  int ranks = 0, me = 0;
  MPI_Comm_size(comm, &ranks);
  MPI_Comm_rank(comm, &me);
  std::vector<int> wanted(ranks, 0), requested(ranks, 0);
  for (std::int64_t g : halo) ++wanted[partition.owner(g)];
  MPI_Alltoall(wanted.data(), 1, MPI_INT, requested.data(), 1, MPI_INT, comm);

  HaloPlan plan;
  std::vector<int> wdispl(ranks + 1, 0), rdispl(ranks + 1, 0);
  for (int r = 0; r < ranks; ++r) {
    wdispl[r + 1] = wdispl[r] + wanted[r];
    rdispl[r + 1] = rdispl[r] + requested[r];
  }
  std::vector<std::int64_t> asked(rdispl[ranks]);
  MPI_Alltoallv(halo.data(), wanted.data(), wdispl.data(), MPI_INT64_T, asked.data(),
                requested.data(), rdispl.data(), MPI_INT64_T, comm);

  plan.recv_offsets.push_back(0);
  plan.send_offsets.push_back(0);
  for (int r = 0; r < ranks; ++r) {
    if (wanted[r] > 0) {
      plan.recv_ranks.push_back(r);
      plan.recv_offsets.push_back(wdispl[r + 1]);
    }
    if (requested[r] > 0) {
      plan.send_ranks.push_back(r);
      plan.send_offsets.push_back(rdispl[r + 1]);
    }
  }
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, &node);
  MPI_Group all = MPI_GROUP_NULL, local = MPI_GROUP_NULL;
  MPI_Comm_group(comm, &all);
  MPI_Comm_group(node, &local);
  std::vector<int> on_node(plan.recv_ranks.size());
  MPI_Group_translate_ranks(all, static_cast<int>(plan.recv_ranks.size()), plan.recv_ranks.data(),
                            local, on_node.data());
  plan.peers_on_node =
      std::none_of(on_node.begin(), on_node.end(), [](int r) { return r == MPI_UNDEFINED; });
  MPI_Group_free(&local);
  MPI_Group_free(&all);
  MPI_Comm_free(&node);

  const std::int64_t first = partition.first(me);
  plan.send_rows.resize(asked.size());
  std::transform(asked.begin(), asked.end(), plan.send_rows.begin(),
                 [&](std::int64_t g) { return static_cast<std::int32_t>(g - first); });
  return plan;
}

template <class T>
HaloExchange<T>::HaloExchange(MPI_Comm comm, const HaloPlan& plan, T* x, int local_rows, int ld,
                              int nb)
    : comm_(comm), plan_(plan), x_(x), local_rows_(local_rows), ld_(ld), nb_(nb) {}

template <class T>
HaloExchange<T>::~HaloExchange() {
  // Completed requests are MPI_REQUEST_NULL, so after finish() this returns at once.
  if (!requests_.empty())
    MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
}

template <class T>
void HaloExchange<T>::begin() {
  const std::size_t nb = nb_;
  T* const halo = ld_ == nb_ ? x_ + static_cast<std::size_t>(local_rows_) * ld_
                             : recv_.reserve(static_cast<std::size_t>(plan_.halo_rows()) * nb);
  T* const packed = send_.reserve(plan_.send_rows.size() * nb);
  requests_.assign(plan_.recv_ranks.size() + plan_.send_ranks.size(), MPI_REQUEST_NULL);
  for (std::size_t k = 0; k < plan_.recv_ranks.size(); ++k) {
    const int b = plan_.recv_offsets[k], e = plan_.recv_offsets[k + 1];
    MPI_Irecv(halo + b * nb, static_cast<int>((e - b) * nb), mpi_type<T>(), plan_.recv_ranks[k],
              kHaloTag, comm_, &requests_[k]);
  }
  for (std::size_t i = 0; i < plan_.send_rows.size(); ++i)
    std::copy_n(x_ + static_cast<std::size_t>(plan_.send_rows[i]) * ld_, nb, packed + i * nb);
  for (std::size_t k = 0; k < plan_.send_ranks.size(); ++k) {
    const int b = plan_.send_offsets[k], e = plan_.send_offsets[k + 1];
    MPI_Isend(packed + b * nb, static_cast<int>((e - b) * nb), mpi_type<T>(), plan_.send_ranks[k],
              kHaloTag, comm_, &requests_[plan_.recv_ranks.size() + k]);
  }
}

template <class T>
void HaloExchange<T>::finish() {
  MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  if (ld_ == nb_) return;
  const std::size_t nb = nb_;
  for (int h = 0; h < plan_.halo_rows(); ++h)
    std::copy_n(recv_.data() + static_cast<std::size_t>(h) * nb, nb,
                x_ + static_cast<std::size_t>(local_rows_ + h) * ld_);
}

#define TSEIG_INSTANTIATE(T) template class HaloExchange<T>;
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::sparse

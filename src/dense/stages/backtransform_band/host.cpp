// Order. Reflector (s, j) acts on rows s+1+j·b … s+j·b+b; those of one sweep are
// disjoint, and (s, j) meets (s', j') with s' < s only for j' ∈ {j, j+1}. So instead of
// the exact reverse (s from the last, j from the last) this equivalent order is used:
// blocks of k sweeps from the last, inside a block steps j from the first, inside a
// step sweeps from the last. A block then walks down the columns once, and consecutive
// sweeps of a step are one row apart, so they are applied in groups (four real, two
// complex) by one kernel.
#include "dense/stages/backtransform_band/api.hpp"

#include <algorithm>
#include <optional>

#include "core/buffer_cache.hpp"
#include "core/collectives.hpp"
#include "core/instantiate.hpp"
#include "core/mpi_types.hpp"
#include "dense/stages/backtransform_band/reflector_group_kernel.hpp"
#include "dense/stages/backtransform_band/row_panels.hpp"
#include "dense/stages/backtransform_band/stripes.hpp"
#include "tseig/error.hpp"

namespace tseig::dense {
namespace {

// The reflectors of one block of sweeps [s0, s1) whose steps start (row s0 + 1 + j·b) in
// [lo, hi), in groups padded to a common window once and applied to every stripe. Group
// g holds G reflectors at pv[g.v + k·slot], k = 0..G−1, reflector k starting k rows below
// the group's first row (zeros where it does not reach).
template <class T>
class BlockGroups {
 public:
  static constexpr int G = reflector_group_size<T>();
  explicit BlockGroups(int b) : slot_(static_cast<std::size_t>(b) + G - 1) {}

  /// Room for any block of k sweeps over `rows` rows (at most ⌈rows / b⌉ steps of ⌈k / G⌉
  /// groups), so that build allocates nothing where other ranks wait in a transfer.
  void reserve(int rows, int b, int k) {
    const std::size_t steps = (rows + b - 1) / b, groups = steps * ((k + G - 1) / G);
    steps_.reserve(steps + 1);
    groups_.reserve(groups);
    pv_.reserve(groups * G * slot_);
  }

  void build(const BandReflectors<T>& q, int s0, int s1, int lo, int hi) {
    groups_.clear();
    steps_.assign(1, 0);
    pv_.clear();
    const int b = q.b;
    auto reflector = [&](int s, int j) {
      return &q.v[q.index(s, j) * static_cast<std::size_t>(b)];
    };
    for (int j = 0; j < q.steps(s0); ++j) {
      const int first_row = q.row(s0, j);
      if (first_row < lo) continue;
      if (first_row >= hi) break;
      int kg = 0;  // steps(s) decreases with s: the sweeps with a step j are a prefix
      while (s0 + kg < s1 && q.steps(s0 + kg) > j) ++kg;
      // (s, j) before (s−1, j): groups from the last sweep of the block; reflector k of
      // a group is sweep first + k, one row below sweep first + k − 1.
      for (int i = kg - 1; i >= 0; i -= G) {
        ReflectorGroup<T> g;
        g.count = std::min(G, i + 1);
        const int first = s0 + i - g.count + 1;
        g.row = q.row(first, j);
        g.v = pv_.size();
        pv_.resize(g.v + G * slot_, T(0));
        for (int r = 0; r < g.count; ++r) {
          const int l = q.length(first + r, j);
          std::copy(reflector(first + r, j), reflector(first + r, j) + l,
                    &pv_[g.v + r * slot_ + r]);
          g.tau[r] = q.tau[q.index(first + r, j)];
          g.len = std::max(g.len, r + l);
        }
        g.set_products(pv_.data(), slot_);
        groups_.push_back(g);
      }
      steps_.push_back(groups_.size());
    }
  }

  // Eight stripes at a time, one step after the other: a step's groups (its sweeps'
  // reflectors at one position, ~100 KiB) stay in L2 while each of the eight stripes
  // takes them, and a stripe's window of that step (b + k rows) stays in L1 from one
  // group to the next. Per stripe the order of the groups is unchanged. Before, every
  // stripe streamed the whole block's reflectors (MiBs) from memory: stage 4 is
  // 25-30 % faster (N = 4000, 2000 columns, one core).
  void apply(Stripes<T>& S) const {
    constexpr int stripes_per_pass = 8;
    for (int st0 = 0; st0 < S.count(); st0 += stripes_per_pass) {
      const int st1 = std::min(S.count(), st0 + stripes_per_pass);
      for (std::size_t t = 0; t + 1 < steps_.size(); ++t)
        for (int st = st0; st < st1; ++st)
          for (std::size_t i = steps_[t]; i < steps_[t + 1]; ++i)
            groups_[i].apply(pv_.data(), slot_, S.at(st, groups_[i].row));
    }
  }

 private:
  std::size_t slot_;
  std::vector<ReflectorGroup<T>> groups_;
  std::vector<std::size_t> steps_;  // groups of step t: [steps_[t], steps_[t + 1])
  std::vector<T> pv_;
};

}  // namespace

template <class T>
void backtransform_band(const BandReflectors<T>& q, T* X, int ldx, int ncols, int group) {
  const int n = q.n, sweeps = n - 1;
  if (sweeps <= 0 || ncols <= 0) return;
  const int k = std::max(2, group);
  Stripes<T> S(0, n, ncols);
  S.load(X, ldx, n);
  BlockGroups<T> blocks(q.b);
  for (int s0 = last_block_start(sweeps, k); s0 >= 0; s0 -= k) {
    blocks.build(q, s0, std::min(s0 + k, sweeps), 0, n);
    blocks.apply(S);
  }
  S.store(X, ldx, n);
}

// The sweeps a rank of a process row keeps of the row's reflectors (rows [lo, hi)):
// [cut[c], cut[c + 1]) for process column c, cut where the entries are balanced, so the
// row's ranks together hold its reflectors once.
template <class T>
std::vector<int> sweep_shares(const BandReflectors<T>& q, int lo, int hi, int npcol) {
  const int sweeps = q.n - 1;
  std::vector<double> before(1, 0);  // entries of the sweeps before sweep s
  for (int s = 0; s < sweeps; ++s) {
    const auto [j0, j1] = q.steps_in(s, lo, hi);
    before.push_back(before.back() + (j1 - j0));
  }
  std::vector<int> cut(npcol + 1, sweeps);
  cut[0] = 0;
  for (int c = 1; c < npcol; ++c) {
    const double target = before.back() * c / npcol;
    cut[c] =
        static_cast<int>(std::lower_bound(before.begin(), before.end(), target) - before.begin());
    cut[c] = std::clamp(cut[c], cut[c - 1], sweeps);
  }
  return cut;
}

// Process row r applies the steps that start in its rows [lo, hi) to its columns of
// them, plus the `halo` rows below that those steps reach. Per block of sweeps, in the
// order the reflectors must be applied: the rows above applied their steps (which reach
// into my first rows: received), the rows below sent my halo as their last block left it;
// I apply mine, send the halo down and my first rows up. A pipeline: process row r works
// on a block while r + 1 works on the one before. The process row's reflectors are dealt
// out over its ranks by sweeps (sweep_shares) and each block is broadcast along the row
// when it is applied, so a rank holds 1/P_c of its row's reflectors, not all of them.
template <Device D, class T>
void backtransform_band(BandReflectors<T> chased, DistMatrix<T>& Z, int nev,
                        const TuneParameters& tune) {
  const Grid& g = Z.grid();
  const int n = Z.m(), sweeps = n - 1;
  if (n <= 1 || nev <= 0) return;
  const PipelineRows p(g, n, Z.local_cols_before(nev), chased.b,
                       std::max(2, tune.band_sweeps_per_pass));
  const auto& [k, halo, row_cut, me, lo, hi, ext, cols, top, below, mine, up, down] = p;
  const int rows_hi = mine ? std::min(n, hi + k - 1) : lo;  // the rows my steps start in
  const std::vector<int> share = sweep_shares(chased, lo, rows_hi, g.npcol());
  const int mycol = g.mycol();
  const BandReflectors<T> q =
      reflectors_for_rows(chased, g.comm(), lo, rows_hi, share[mycol], share[mycol + 1]);
  chased = {};
  std::optional<Stripes<T>> S;
  cached_vector<T> buf;
  BandReflectors<T> block;  // the block being applied, from the rank of the row holding it
  BlockGroups<T> blocks(q.b);
  allocate_collectively(g.comm(), [&] {
    if (mine && cols > 0) blocks.reserve(hi - lo, q.b, k);
    S.emplace(lo, ext - lo, cols);
    buf.resize(static_cast<std::size_t>(S->count()) * std::max(top, below) * Stripes<T>::W);
    if (mine && g.npcol() > 1) {
      // A sweep has at most ⌈rows / b⌉ steps in my rows: reserved once, so the loop
      // between the broadcasts allocates nothing.
      const std::size_t most = static_cast<std::size_t>(k) * ((rows_hi - lo + q.b - 1) / q.b);
      block.reserve_rows(n, q.b, lo, rows_hi, true, 0, 0);
      block.tau.reserve(most);
      block.v.reserve(most * q.b);
    }
  });
  exchange_panels(Z, row_cut, cols, S->data(), S->storage(), true);
  // The steps run on this rank alone between the transfers; a failed allocation there
  // must still reach the other ranks.
  collectively(g.comm(), [&] {
    if (!mine) return;
    const MPI_Comm col = g.col_comm();
    const MPI_Datatype type = mpi_type<T>();
    auto send = [&](int row, int nrows, int peer) {
      S->pack(row, nrows, buf.data());
      MPI_Send(buf.data(), S->count() * nrows * Stripes<T>::W, type, peer, 0, col);
    };
    auto receive = [&](int row, int nrows, int peer) {
      MPI_Recv(buf.data(), S->count() * nrows * Stripes<T>::W, type, peer, 0, col,
               MPI_STATUS_IGNORE);
      S->unpack(row, nrows, buf.data());
    };
    // Block [s0, s1) from the ranks of my process row that hold its sweeps (every rank of
    // the row takes part, with or without columns).
    auto fetch = [&](int s0, int s1) -> const BandReflectors<T>& {
      if (g.npcol() == 1) return q;
      block.reserve_rows(n, q.b, lo, rows_hi, true, s0, s1);
      for (int c = 0; c < g.npcol(); ++c) {
        const int a = std::max(s0, share[c]), e = std::min(s1, share[c + 1]);
        if (a >= e) continue;
        const auto [first, count] = sweep_range(block, a, e);
        if (c == mycol) {
          const std::size_t from = sweep_range(q, a, e).first;
          std::copy_n(&q.v[from * q.b], count * q.b, &block.v[first * q.b]);
          std::copy_n(&q.tau[from], count, &block.tau[first]);
        }
        // v and tau in one message: a derived type over both parts, by absolute address.
        MPI_Aint at[2];
        MPI_Get_address(&block.v[first * q.b], &at[0]);
        MPI_Get_address(&block.tau[first], &at[1]);
        const int length[2] = {static_cast<int>(count * q.b), static_cast<int>(count)};
        MPI_Datatype both;
        MPI_Type_create_hindexed(2, length, at, type, &both);
        MPI_Type_commit(&both);
        MPI_Bcast(MPI_BOTTOM, 1, both, c, g.row_comm());
        MPI_Type_free(&both);
      }
      return block;
    };
    const bool work = cols > 0;
    if (work && up) send(lo, top, me - 1);  // the halo of the rows above, before any block
    for (int s0 = last_block_start(sweeps, k); s0 >= 0; s0 -= k) {
      const int s1 = std::min(s0 + k, sweeps);
      const BandReflectors<T>& r = fetch(s0, s1);
      if (!work) continue;
      if (up) receive(lo, top, me - 1);
      if (down) receive(hi, below, me + 1);
      blocks.build(r, s0, s1, lo, hi);
      blocks.apply(*S);
      if (down) send(hi, below, me + 1);
      if (up && s0 > 0) send(lo, top, me - 1);
    }
  });
  exchange_panels(Z, row_cut, cols, S->data(), S->storage(), false);
}

#define TSEIG_INSTANTIATE(T)                                                                \
  template void backtransform_band(const BandReflectors<T>&, T*, int, int, int);            \
  template void backtransform_band<Device::host, T>(BandReflectors<T>, DistMatrix<T>&, int, \
                                                    const TuneParameters&);
TSEIG_FOR_EACH_SCALAR(TSEIG_INSTANTIATE)
#undef TSEIG_INSTANTIATE

}  // namespace tseig::dense

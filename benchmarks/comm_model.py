#!/usr/bin/env python3
"""Analytical model of the MPI traffic of tseig's dense solvers, stage by stage.

Quantities (the conventions of benchmarks/comm_profile/mpi_counting.cpp), summed over ranks:
  p2p_messages / p2p_bytes   sends only (MPI_Send and friends), count*size bytes each;
  collective_calls            one per rank per call;
  collective_bytes            what THIS rank contributes, summed over ranks: Bcast/Allreduce/
                              Reduce count*size on every rank, Allgather its send count,
                              Alltoallv the sum of its send counts (its own part included).
Parameters: N, nb (block size), b (two_stage bandwidth), grid pr x pc (row-major ranks),
s (scalar size: 8 double, 16 complex double; r = s // (1 + complex) the real size), nev.
Every formula is read off the code (file named in each function); MPI calls made by the
bookkeeping helpers are counted too:
  raise_if_any / collectively / allocate_collectively: 1 Allreduce of one int (4 bytes);
  sum_in_pieces (core/collectives.hpp): one Allreduce per 2^17 entries;
  DistMatrix ctor: 2 such calls; Grid ctor: ranks_agree (4 ints) + 2 raise_if_any;
  copy_from (core/redistribute.cpp): ranks_agree(17 ints -> 34) + 2 raise_if_any +
  Allgather(4 ints) + raise_if_any + allocate + one Alltoallv of all its entries.
Simplifications (stated where they are made): the divide & conquer depends on deflation,
which depends on the input, not on the code: a fraction DEFLATION of each merge's rows is
taken as deflated (0 is the upper bound; ~0.12 is what the random test matrices give at
N = 1000..2000). The driver's own calls ("outside") are not modelled.
usage: comm_model.py compare DIR | predict --n N --np P1,P2,.. [--nb NB] [--b B] [--scalar d|z]
"""
import argparse, bisect, glob, json, math, os, re, sys

PIECE = 1 << 17        # sum_in_pieces: entries per Allreduce
DC_MIN_LEAF, DC_CHUNK = 32, 512   # TuneParameters defaults
WY_WIDTH = 256
DEFLATION = 0.12       # input-dependent (see docstring); 0 gives the upper bound
INT = 4
STAGES = {"one_stage": ["check_input", "tridiagonalize", "tridiagonal_solve", "backtransform"],
          "two_stage": ["check_input", "reduce_to_band", "bulge_chase", "tridiagonal_solve",
                        "backtransform_band", "backtransform_full"]}


class C:
    """[p2p messages, p2p bytes, collective calls (over ranks), collective bytes (over ranks)]"""
    def __init__(self, m=0, mb=0, c=0, cb=0):
        self.v = [m, mb, c, cb]

    def __iadd__(self, o):
        self.v = [a + b for a, b in zip(self.v, o.v)]
        return self

    def coll(self, ranks, count, size, pieced=False):
        """`ranks` ranks each call a collective of `count` entries of `size` bytes."""
        if count <= 0 or ranks <= 0:
            return self
        calls = math.ceil(count / PIECE) if pieced else 1
        self.v[2] += ranks * calls
        self.v[3] += ranks * count * size
        return self

    def small(self, ranks, calls=1, nbytes=INT):
        """`calls` bookkeeping collectives (raise_if_any & co.) of `nbytes` each on `ranks`."""
        self.v[2] += ranks * calls
        self.v[3] += ranks * calls * nbytes
        return self

    def messages(self):
        return self.v[0] + self.v[2]

    def bytes(self):
        return self.v[1] + self.v[3]


def owned_before(x, nb, p, nprocs):
    """Indices < x of a block-cyclic axis (block nb, first block on 0) owned by process p."""
    full, rest = divmod(x, nb * nprocs)
    return full * nb + min(max(rest - p * nb, 0), nb)


def numroc(n, nb, p, nprocs):
    return owned_before(n, nb, p, nprocs)


class Cfg:
    def __init__(self, n, nb, pr, pc, s=8, nev=None, b=None, cplx=False, one_node=False):
        self.n, self.nb, self.pr, self.pc, self.s = n, nb, pr, pc, s
        self.one_node = one_node   # all ranks on one node: the bulge chase shares the band
        self.r = s // 2 if cplx else s
        self.P = pr * pc
        self.nev = n if nev is None else nev
        self.b = nb if b is None else b


def sum_over_grid(c, g, count, size):   # core/collectives.hpp: along rows, then columns
    if g.pc > 1: c.coll(g.P, count, size, True)
    if g.pr > 1: c.coll(g.P, count, size, True)


# --- stages ----------------------------------------------------------------------------
def check_input(g, round_entries=1 << 18):
    """dense/check_input.cpp, triangle = full: scan_finite (raise_if_any + Allreduce of the
    largest component), mirror_blocks (dense/mirror_blocks.hpp: per round of
    max(1, round_entries*P/(nb*n)) block rows an allocate_collectively and one Alltoallv of
    the strictly upper blocks whose block column is in the round) and one Allreduce of the
    defect and max|A| (2 reals)."""
    c = C().small(g.P).coll(g.P, 1, g.r)
    nblk = math.ceil(g.n / g.nb)
    per_round = min(max(round_entries * g.P // (g.nb * g.n), 1), nblk)
    for first in range(0, nblk, per_round):
        sent = sum(min(g.nb, g.n - I * g.nb) * I * g.nb
                   for I in range(first, min(nblk, first + per_round)))
        c.small(g.P)
        c.v[2] += g.P
        c.v[3] += sent * g.s
    c.coll(g.P, 2, g.r)
    return c


def tridiagonalize(g):
    """stages/tridiagonalize/host.cpp: per column j < n-1 (len = n-j-1, i = j mod nb):
    make_reflector on the owning process column (Allreduce of amax and of 3 reals along
    the column), Bcast of [tau, beta, v] (2+len) along rows, sum_over_column(v, len),
    an Iallreduce of [W^H v | V^H v] (2i) over the grid, sum_over_grid(y, len); at the end
    sum_over_grid(d, n)."""
    c = C().small(g.P)            # allocate_collectively
    for j in range(g.n - 1):
        ln, i = g.n - j - 1, j % g.nb
        if g.pr > 1:
            c.coll(g.pr, 1, g.r).coll(g.pr, 3, g.r)
        if g.pc > 1:
            c.coll(g.P, 2 + ln, g.s)
        if g.pr > 1:
            c.coll(g.P, ln, g.s, True)
        if g.P > 1 and i > 0:
            c.coll(g.P, 2 * i, g.s)
        sum_over_grid(c, g, ln, g.s)
    sum_over_grid(c, g, g.n, g.r)
    return c


def reduce_to_band(g):
    """stages/reduce_to_band/host.cpp: per panel k (m = n-k-b rows below it, kk = min(m, b),
    t0 = k+b; process row i holds ldr_i = max(1, its rows >= t0), column j ldc_j): when the
    panel spans several process columns a sum_over_row of ldr_i*b; on the owner column a
    sum_over_column of the whole panel (m*b); a raise_if_any; a Bcast along each row of
    ldr_i*b + kk*kk; then along columns V_c (ldc_j*kk), Y_c twice (ldc_j*kk) and V^H Y
    (kk*kk), along rows Y_r (ldr_i*kk)."""
    c = C().small(g.P)            # allocate_collectively
    k = 0
    while k + g.b < g.n:
        m, t0 = g.n - k - g.b, k + g.b
        kk = min(m, g.b)
        ldr = [max(1, numroc(g.n, g.nb, i, g.pr) - owned_before(t0, g.nb, i, g.pr))
               for i in range(g.pr)]
        ldc = [max(1, numroc(g.n, g.nb, j, g.pc) - owned_before(t0, g.nb, j, g.pc))
               for j in range(g.pc)]
        owner = (k // g.nb) % g.pc
        spans = g.b > g.nb
        along_rows = lambda count: [c.coll(g.pc, count(i), g.s, True) for i in range(g.pr)]
        along_cols = lambda count: [c.coll(g.pr, count(j), g.s, True) for j in range(g.pc)]
        if g.pc > 1 and spans:
            along_rows(lambda i: ldr[i] * g.b)
        if g.pr > 1:
            c.coll(g.pr, m * g.b, g.s, True)
        c.small(g.P)
        if g.pc > 1:
            for i in range(g.pr):
                c.coll(g.pc, ldr[i] * g.b + kk * kk, g.s)
        if g.pr > 1:
            along_cols(lambda j: ldc[j] * kk)
            along_cols(lambda j: ldc[j] * kk)
        if g.pc > 1:
            along_rows(lambda i: ldr[i] * kk)
        if g.pr > 1:
            along_cols(lambda j: ldc[j] * kk)
            along_cols(lambda j: kk * kk)
        k += g.b
    return c


def chunk_cuts(n, b, nranks):     # copy of bulge_chase/host.cpp
    for p in range(nranks, 1, -1):
        cut = [int(math.floor(n * math.sqrt(k / p) + 0.5)) for k in range(p + 1)]
        if all(cut[k + 1] - cut[k] >= 4 * b for k in range(p)):
            return cut
    return [0, n]


def bulge_chase(g):
    """gather_band (allocate + sum_over_grid((b+1)*n)), then one of two chases.
    On one node (stages/bulge_chase/dealt_sweeps.cpp) the band lies in a shared-memory
    window (band_columns.hpp: 2 Allreduce of an int to set it up, a Barrier once filled),
    the sweeps' progress counters in another (sweep_progress.hpp: an Allreduce, a
    Barrier), the ranks take whole sweeps and follow each other through the counters, and
    a Barrier ends it: no message per sweep. Across nodes (stages/bulge_chase/host.cpp)
    the band is cut into `active` chunks (chunk_cuts: widths >= 4b, so active <= ~n/(8b));
    a 2b-column zone (2b*2b entries) crosses each cut twice per sweep that reaches it
    (sweeps s < cut): 2*cut - 3 sends per cut (the -3: the last sweeps near the cut, an
    end effect read off the loop, not a fit); then Allreduce of d, e (reals). Each rank
    keeps the reflectors of its sweeps (one node) or of its chunk."""
    n, b = g.n, min(g.b, max(g.n - 1, 1))
    c = C().small(g.P)
    sum_over_grid(c, g, (b + 1) * n, g.s)
    c.small(g.P)                  # allocate_collectively
    if g.P == 1:
        return c
    if g.one_node:
        return c.small(g.P, 2).small(g.P, 1, 0).small(g.P, 1).small(g.P, 2, 0)
    cut = chunk_cuts(n, b, g.P)
    for x in cut[1:-1]:
        c.v[0] += 2 * x - 3
        c.v[1] += (2 * x - 3) * 4 * b * b * g.s
    c.coll(g.P, n, g.r).coll(g.P, n - 1, g.r)
    return c


def reflectors_in(n, b, lo, hi):
    """Reflectors (s, j) of the bulge chase whose first row s + 1 + j*b lies in [lo, hi)."""
    def first_at(row, s, steps):
        return min(max(-((s + 1 - row) // b), 0), steps)   # ceil((row - s - 1) / b), clamped
    total = 0
    for s in range(min(n - 1, max(hi - 1, 0))):
        steps = (n - 1 - s + b - 1) // b
        total += first_at(hi, s, steps) - first_at(lo, s, steps)
    return total


def row_cuts(n, halo, pr):       # copy of backtransform_band/host.cpp
    for p in range(pr, 1, -1):
        cut = [int(math.floor(n * math.sqrt(r / p) + 0.5)) for r in range(p + 1)] + [n] * (pr - p)
        if all(cut[r + 1] - cut[r] >= halo for r in range(p - 1)):
            return cut
    return [0] + [n] * pr


def sweep_steps(n, b, lo, hi):
    """Per sweep s: its reflectors whose first row s + 1 + j*b lies in [lo, hi)."""
    out = []
    for s in range(n - 1):
        steps = (n - 1 - s + b - 1) // b
        first = lambda row: min(max(-((s + 1 - row) // b), 0), steps)   # ceil, clamped
        out.append(max(first(hi) - first(lo), 0))
    return out


def sweep_shares(per_sweep, pc):  # copy of backtransform_band/host.cpp
    before = [0]
    for x in per_sweep:
        before.append(before[-1] + x)
    cut = [0] + [len(per_sweep)] * pc
    for c in range(1, pc):
        target = before[-1] * c / pc
        cut[c] = min(max(bisect.bisect_left(before, target), cut[c - 1]), len(per_sweep))
    return cut


def backtransform_band(g, k=256):
    """stages/bulge_chase/reflectors_for_rows.cpp, then stages/backtransform_band/host.cpp.
    Process row r works on rows [lo, hi) (row_cuts: n*sqrt(r/pr)), its pc ranks each on
    their block-cyclic columns of the first nev. Its reflectors (first row in [lo, hi + k -
    1)) are split over its pc ranks by sweeps (sweep_shares, balanced by entries).
    reflectors_for_rows: Allgather (11 ints), allocate, Allreduce (1 long), then rounds of
    sweeps (16 MiB per rank and round) of allocate + Alltoallv: each reflector (b + 1
    entries with tau) goes to the rank of each process row that keeps its sweep.
    exchange_panels twice: every rank keeps its block-cyclic columns, so on one process row
    a local copy, else one allocate and an Alltoallv within each process column per chunk
    of its columns (2^20 entries per rank: all N x nev entries, own part included). One
    `collectively`. Per block of k sweeps each rank of a process row with rows takes part
    in one Bcast (v and tau as one derived type) along the row per rank holding a part of
    the block (none for pc = 1): every rank of row r receives all of the
    row's reflectors once.
    The pipeline down each process column: per block a process row sends its halo (b + k -
    1 rows, or what is left below it) down and its first min(halo, rows) rows up (once more
    before the first block, once less after the last), as stripes of 128 bytes per row."""
    c = C().small(g.P, 3)         # 2 allocate_collectively + collectively
    c.coll(g.P, 11, INT).coll(g.P, 1, 8)
    if g.n <= 1 or g.nev <= 0:
        return c
    n, b = g.n, min(g.b, max(g.n - 1, 1))
    halo = min(n, b + k - 1)
    cut = row_cuts(n, halo, g.pr)
    blocks = math.ceil((n - 1) / k)
    need, parts = [], []          # per process row: its reflectors; (block, holder) pairs
    row_steps = []                # per process row with rows: its reflectors per sweep
    for r in range(g.pr):
        if cut[r + 1] <= cut[r]:
            need.append(0)
            parts.append(0)
            continue
        steps = sweep_steps(n, b, cut[r], min(n, cut[r + 1] + k - 1))
        row_steps.append(steps)
        need.append(sum(steps))
        share = sweep_shares(steps, g.pc)
        parts.append(sum(1 for s0 in range(0, n - 1, k) for q in range(g.pc)
                         if max(s0, share[q]) < min(s0 + k, n - 1, share[q + 1])))
    if g.one_node and g.P > 1:    # whole sweeps dealt out: a sweep's holder sends to every row
        held = [max(sum(x) for x in zip(*row_steps))]
    else:
        ccut = chunk_cuts(n, b, g.P)
        held = [math.ceil((ccut[q + 1] - ccut[q]) / b) for q in range(len(ccut) - 1)]
    wanted = [math.ceil((min(n, cut[r + 1] + k - 1) - cut[r]) / b) for r in range(g.pr)]
    per_sweep = max(max(held), max(wanted), 1)
    budget = (16 << 20) // ((b + 1) * g.s)
    rounds = math.ceil((n - 1) / min(max(budget // per_sweep, 1), n - 1))
    c.small(g.P, rounds)
    c.v[2] += g.P * rounds
    c.v[3] += sum(need) * (b + 1) * g.s
    if g.pc > 1:
        for r in range(g.pr):
            c.v[2] += g.pc * parts[r]
            c.v[3] += g.pc * need[r] * (b + 1) * g.s
    for _ in range(2):
        if g.pr == 1:
            continue
        c.small(g.P, 1)
        for q in range(g.pc):
            cols = numroc(g.nev, g.nb, q, g.pc)
            if cols > 0:
                c.v[2] += g.pr * math.ceil(cols / min(max((1 << 20) * g.pr // n, 64), cols))
                c.v[3] += n * cols * g.s
    for q in range(g.pc):
        cols = numroc(g.nev, g.nb, q, g.pc)
        if cols == 0:
            continue
        stripes_bytes = math.ceil(cols / (128 // g.s)) * 128      # one row of every stripe
        for r in range(g.pr):
            lo, hi = cut[r], cut[r + 1]
            if hi <= lo:
                continue
            top, below = min(halo, hi - lo), min(n, hi + halo) - hi
            if r > 0:             # up: before the first block and after every block but the last
                c.v[0] += blocks
                c.v[1] += blocks * top * stripes_bytes
            if hi < n:            # down: after every block
                c.v[0] += blocks
                c.v[1] += blocks * below * stripes_bytes
    return c


def dc_merges(c, g, m, ranks):
    """stages/divide_conquer/host.cpp merge over `ranks` ranks (tree.cpp halves the ranks):
    3 any_short_of_memory (1 int), Allreduce(2m+1), Allreduce(3k+1: roots, their offsets
    and origin poles), and for k > 2 Reduce(k) and Bcast(k) of the Loewner product and
    Allreduce(k) of the eigenvectors' scales. Each rank forms the rows of S it needs itself:
    no part of S travels."""
    if ranks <= 1:
        return
    k = max(1, round(m * (1 - DEFLATION)))
    c.small(ranks, 3)
    c.coll(ranks, 2 * m + 1, 8).coll(ranks, 3 * k + 1, 8)
    if k > 2:
        c.coll(ranks, k, 8).coll(ranks, k, 8).coll(ranks, k, 8)
    half = ranks // 2
    dc_merges(c, g, round(m * half / ranks), half)
    dc_merges(c, g, m - round(m * half / ranks), ranks - half)


def tridiagonal_solve(g):
    """tridiagonal_solve.cpp: 5 raise_if_any, D&C over active = min(n/32, P) ranks (rows
    split evenly, real arithmetic: 8 bytes), Bcast of the n eigenvalues, and
    to_block_cyclic.cpp: per 512 columns allocate + Alltoallv of every row-range entry not
    kept by its rank (the own part is not sent)."""
    c = C().small(g.P, 5).coll(g.P, g.n, 8)
    active = max(1, min(g.n // DC_MIN_LEAF, g.P))
    dc_merges(c, g, g.n, active)
    chunks = math.ceil(g.nev / DC_CHUNK)
    c.small(g.P, chunks)
    c.v[2] += g.P * chunks
    first = [r * g.n // active for r in range(active + 1)]
    sent = 0
    for r in range(active):
        pr_, pc_ = divmod(r, g.pc)
        rows = first[r + 1] - first[r]
        mine = (owned_before(first[r + 1], g.nb, pr_, g.pr) -
                owned_before(first[r], g.nb, pr_, g.pr)) * numroc(g.nev, g.nb, pc_, g.pc)
        sent += rows * g.nev - mine
    c.v[3] += sent * 8
    return c


def backtransform_householder(g, nr, offset):
    """stages/backtransform_householder/host.cpp: blocks of width 256 (wy_width) of the nr
    reflectors (wy_blocks.cpp); per nb-panel a Bcast along rows of each rank's ldv =
    max(local rows below the block, 1) x nb; per block sum_over_grid(S, w*w) and, on ranks
    with local columns of Z, sum_over_column(W, w*lcz) (in pieces)."""
    c = C().small(g.P, 2)         # allocate_collectively: WyBlocks and W
    width = max(1, WY_WIDTH // g.nb) * g.nb
    lcz = [numroc(g.nev, g.nb, q, g.pc) for q in range(g.pc)]
    for b0 in range(0, nr, width):
        w = min(b0 + width, nr) - b0
        if g.pc > 1:
            ldv = sum(max(numroc(g.n, g.nb, p, g.pr) - owned_before(b0 + offset, g.nb, p, g.pr), 1)
                      for p in range(g.pr))
            for k0 in range(b0, b0 + w, g.nb):
                kw = min(k0 + g.nb, b0 + w) - k0
                c.v[2] += g.P
                c.v[3] += g.pc * ldv * kw * g.s
        sum_over_grid(c, g, w * w, g.s)
        if g.pr > 1:
            for l in lcz:
                c.coll(g.pr, w * l, g.s, True)
    return c


def model(solver, g):
    out = {"check_input": check_input(g), "tridiagonal_solve": tridiagonal_solve(g)}
    if solver == "one_stage":
        out["tridiagonalize"] = tridiagonalize(g)
        out["backtransform"] = backtransform_householder(g, g.n - 1, 1)
    else:
        out["reduce_to_band"] = reduce_to_band(g)
        out["bulge_chase"] = bulge_chase(g)
        out["backtransform_band"] = backtransform_band(g)
        out["backtransform_full"] = backtransform_householder(g, max(g.n - g.b, 0), g.b)
    return out


def square_grid(P):
    pr = int(math.isqrt(P))
    while P % pr:
        pr -= 1
    return pr, P // pr


# --- commands ----------------------------------------------------------------------------
def fmt(x, unit=""):
    """3 significant digits with an SI prefix: fmt(2.5e9, "B") = '2.5 GB'."""
    for prefix, f in (("T", 1e12), ("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(x) >= f:
            return "%.3g %s%s" % (x / f, prefix, unit)
    return ("%.3g %s" % (x, unit)).rstrip()


def compare(folder):
    runs = {}
    for f in glob.glob(os.path.join(folder, "*_n*_np*.json")):
        m = re.match(r"(one_stage|two_stage)_n(\d+)_np(\d+)\.json$", os.path.basename(f))
        if m:
            runs.setdefault(m.group(1), []).append((int(m.group(2)), int(m.group(3)), f))
    notes = []
    for solver in sorted(runs):
        print("\n### %s (measured vs model, summed over ranks)\n" % solver)
        print("| N | P | grid | stage | msgs meas | msgs model | ratio | bytes meas | bytes model | ratio |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for n, P, f in sorted(runs[solver]):
            prof = json.load(open(f))
            pr, pc = square_grid(P)
            sj = f[:-5] + ".solve.json"
            nb, nev, cplx = 64, n, False
            if os.path.exists(sj):
                info = json.load(open(sj))
                pr, pc = map(int, info.get("grid_used", info["grid"]).split("x"))
                nb, nev = info.get("nb", nb), info.get("nev", nev)
                cplx = info.get("type", "d") in ("z", "c")
            # run_comm_profile.sh runs every rank on this machine
            g = Cfg(n, nb, pr, pc, 16 if cplx else 8, nev, nb, cplx, one_node=True)
            mod = model(solver, g)
            for st in STAGES[solver]:
                meas = C()
                for r in prof["ranks"]:
                    x = r.get(st)
                    if x:
                        meas += C(x["p2p_messages"], x["p2p_bytes"], x["collective_calls"],
                                  x["collective_bytes"])
                mo = mod[st]
                rm = mo.messages() / meas.messages() if meas.messages() else float("nan")
                rb = mo.bytes() / meas.bytes() if meas.bytes() else float("nan")
                print("| %d | %d | %dx%d | %s | %s | %s | %.2f | %s | %s | %.2f |" % (
                    n, P, pr, pc, st, fmt(meas.messages()), fmt(mo.messages()), rm,
                    fmt(meas.bytes(), "B"), fmt(mo.bytes(), "B"), rb))
                if P >= 2 and meas.bytes() > 64 * P and not (0.75 <= rb <= 1.25 and 0.75 <= rm <= 1.25):
                    notes.append("%s N=%d P=%d %s: ratio msgs %.2f bytes %.2f" % (
                        solver, n, P, st, rm, rb))
    print()
    if notes:
        print("Note: outside +-25 %% (P >= 2): %s." % "; ".join(notes))
    else:
        print("Note: every stage that communicates (P >= 2) is within +-25 % of the model.")
    print("Note: tridiagonal_solve assumes %.0f %% of each merge's rows deflate (input-dependent);"
          " 'outside' (driver) is not modelled." % (100 * DEFLATION))


def predict(n, nps, nb, b, cplx, nev):
    s = 16 if cplx else 8
    for solver in ("one_stage", "two_stage"):
        print("\n### %s, N = %d, nb = %d%s (predicted)\n" % (
            solver, n, nb, ", b = %d" % b if solver == "two_stage" else ""))
        print("| P | grid | stage | messages | bytes | msgs/rank | bytes/rank |")
        print("|---|---|---|---|---|---|---|")
        per_rank = []
        for P in nps:
            pr, pc = square_grid(P)
            g = Cfg(n, nb, pr, pc, s, nev, b, cplx)
            mod = model(solver, g)
            for st in STAGES[solver]:
                m = mod[st]
                print("| %d | %dx%d | %s | %s | %s | %s | %s |" % (
                    P, pr, pc, st, fmt(m.messages()), fmt(m.bytes(), "B"),
                    fmt(m.messages() / P), fmt(m.bytes() / P, "B")))
            per_rank.append({st: mod[st].bytes() / P for st in STAGES[solver]})
        print()
        for P, per in zip(nps, per_rank):
            top = max(per, key=per.get)
            print("P = %d: most bytes per rank in %s (%s of %s in all stages)." % (
                P, top, fmt(per[top], "B"), fmt(sum(per.values()), "B")))
        if len(nps) > 1:
            P0, P1 = nps[0], nps[-1]
            print("Bytes per rank from P = %d to %d, as P^x: %s." % (P0, P1, ", ".join(
                "%s x = %s" % (st, exponent(per_rank[0][st], per_rank[-1][st], P0, P1))
                for st in STAGES[solver])))


def exponent(b0, b1, P0, P1):
    """x in bytes-per-rank ~ P^x between two rank counts (-1: perfect 1/P shrinking)."""
    if b0 <= 0 or b1 <= 0:
        return "n/a"
    return "%+.2f" % (math.log(b1 / b0) / math.log(P1 / P0))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("compare")
    a.add_argument("folder")
    a = sub.add_parser("predict")
    a.add_argument("--n", type=int, default=100000)
    a.add_argument("--np", default="64,256,1024")
    a.add_argument("--nb", type=int, default=64)
    a.add_argument("--b", type=int, default=0, help="bandwidth (default nb)")
    a.add_argument("--nev", type=int, default=0, help="default N")
    a.add_argument("--scalar", choices=("d", "z"), default="d")
    o = ap.parse_args(argv)
    if o.cmd == "compare":
        compare(o.folder)
    else:
        predict(o.n, [int(x) for x in o.np.split(",")], o.nb, o.b or o.nb, o.scalar == "z",
                o.nev or o.n)


if __name__ == "__main__":
    main(sys.argv[1:])

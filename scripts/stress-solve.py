#!/usr/bin/env python3
"""Randomized tseig-solve runs, each checked by the library's own validation.

usage: scripts/stress-solve.py [--build DIR] [--cases N] [--seed S] [--max-np P]
Each case draws a rank count (1 to P, oversubscribed), scalar type, order N (1 to 700, odd
sizes and block multiples), block size, solver (one_stage, two_stage, scalapack, auto),
eigenpair selection (all, the lowest K, an index range or a value interval), sometimes
values only, two_stage bandwidth and, at 3 and 4 ranks, a non-square grid taken as given,
and runs
`tseig-solve --random N ... --validate --json`. A case fails when the command fails,
times out or its validation does not pass; its command line is printed so it can be
rerun. Exit status 1 when any case failed.
"""
import argparse
import json
import os
import random
import subprocess
import sys


def draw_case(rng, exe, max_np):
    np_ = rng.randint(1, max_np)
    n = rng.choice([1, 2, 3, 5, 17, 63, 64, 65, 127, 200, 331, 517, 700])
    nb = rng.choice([1, 2, 3, 8, 16, 32, 64, 70])
    solver = rng.choice(["one_stage", "two_stage", "scalapack", "auto"])
    args = ["--random", str(n), "--type", rng.choice("dzsc"), "--nb", str(nb), "--solver",
            solver, "--seed", str(rng.randint(1, 99)), "--json", "--validate"]
    r = rng.random()
    if r < 0.3:
        args += ["--nev", str(rng.randint(1, n))]
    elif r < 0.45:
        il = rng.randint(1, n)
        args += ["--range", "%d:%d" % (il, rng.randint(il, n))]
    elif r < 0.55:
        args += ["--interval", "-1:1"]
    if rng.random() < 0.1:
        args.append("--values-only")
    if solver == "two_stage" and rng.random() < 0.5:
        args += ["--bandwidth", str(nb * rng.randint(1, 4))]
    grids = {3: ["1x3", "3x1"], 4: ["1x4", "4x1", "2x2"]}.get(np_)
    if grids and rng.random() < 0.5:
        args += ["--grid", rng.choice(grids), "--grid-choice", "as_given"]
    return ["mpirun", "-np", str(np_), "--oversubscribe", exe] + args


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--build", default="build")
    p.add_argument("--cases", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--max-np", type=int, default=4)
    o = p.parse_args()
    exe = os.path.abspath(os.path.join(o.build, "bin", "tseig-solve"))
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    rng = random.Random(o.seed)
    failed = 0
    for _ in range(o.cases):
        command = draw_case(rng, exe, o.max_np)
        why = ""
        try:
            run = subprocess.run(command, capture_output=True, text=True, timeout=300, env=env)
            if run.returncode != 0:
                why = "exit %d: %s" % (run.returncode, run.stderr.strip()[-300:])
            else:
                validation = json.loads(run.stdout)["validation"]
                if not validation["passed"]:
                    why = "validation: " + json.dumps(validation)
        except subprocess.TimeoutExpired:
            why = "timed out"
        except (ValueError, KeyError) as e:
            why = "no validation in the output (%s)" % e
        if why:
            failed += 1
            print("FAIL %s\n  %s" % (" ".join(command), why), flush=True)
    print("stress-solve: %d cases, %d failed (seed %d)" % (o.cases, failed, o.seed))
    sys.exit(1 if failed else 0)


main()

"""Runs a `tseig-solve --json` command and checks the JSON object it prints.

usage: check_json.py [checks] -- command...
Fails (exit 1) with a one-line reason; kills the whole process group on timeout so a
hanging MPI job cannot outlive the test.
"""
import argparse
import json
import math
import os
import signal
import subprocess
import sys


def fail(reason):
    print("check_json: FAIL: " + reason)
    sys.exit(1)


def run(command, timeout):
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        fail(f"no answer within {timeout} s (hang?)")
    sys.stdout.write(out)
    sys.stderr.write(err)
    if proc.returncode != 0:
        fail(f"exit code {proc.returncode}")
    return out


def read_numbers(path):
    with open(path) as f:
        return [float(line) for line in f if line.strip()]


def read_array_mtx(path):
    """Dense Matrix Market array file → (rows, cols, column-major list of values)."""
    with open(path) as f:
        header = f.readline().split()
        if len(header) < 5 or header[1] != "matrix" or header[2] != "array":
            fail(f"{path}: not a Matrix Market array file")
        lines = [l for l in f if l.strip() and not l.startswith("%")]
    rows, cols = map(int, lines[0].split())
    complex_ = header[3] == "complex"
    values = []
    for line in lines[1:]:
        parts = [float(x) for x in line.split()]
        values.append(complex(parts[0], parts[1]) if complex_ else parts[0])
    if len(values) != rows * cols:
        fail(f"{path}: {len(values)} values for a {rows}x{cols} matrix")
    return rows, cols, values


def check_close(name, got, want, tol):
    scale = max(1.0, max(abs(x) for x in want))
    for i, (g, w) in enumerate(zip(got, want)):
        if not abs(g - w) <= tol * scale:
            fail(f"{name}[{i}] = {g!r}, expected {w!r} (tolerance {tol})")


def main():
    argv = sys.argv[1:]
    if "--" not in argv:
        fail("missing '--' before the command")
    split = argv.index("--")
    p = argparse.ArgumentParser()
    p.add_argument("--max-residual", type=float)
    p.add_argument("--max-orthogonality", type=float)
    p.add_argument("--no-accuracy", action="store_true",
                   help="residual and orthogonality must be null (--values-only)")
    p.add_argument("--expect", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--eigenvalues", metavar="FILE", help="reference eigenvalues, ascending")
    p.add_argument("--tol", type=float, default=1e-12)
    p.add_argument("--values-file", metavar="FILE", help="file written by --out-values")
    p.add_argument("--vectors-file", metavar="FILE", help="file written by --out-vectors")
    p.add_argument("--timeout", type=float, default=120)
    args = p.parse_args(argv[:split])

    for path in (args.values_file, args.vectors_file):
        if path and os.path.exists(path):
            os.remove(path)
    out = run(argv[split + 1:], args.timeout)
    lines = [l for l in out.splitlines() if l.strip()]
    if len(lines) != 1:
        fail(f"expected exactly one line on stdout, got {len(lines)}")
    try:
        result = json.loads(lines[0])
    except json.JSONDecodeError as e:
        fail(f"stdout is not JSON: {e}")

    for key in ("solver", "type", "N", "nev", "grid", "nb", "seconds", "stages", "tune",
                "residual", "orthogonality", "lowest"):
        if key not in result:
            fail(f"missing key '{key}'")
    for item in args.expect:
        key, value = item.split("=", 1)
        got = result
        for part in key.split("."):  # "tune.wy_width": a member of an object
            got = got[part]
        if str(got) != value:
            fail(f"{key} = {got!r}, expected {value}")
    lowest = result["lowest"]
    if len(lowest) != min(10, result["nev"]) or lowest != sorted(lowest):
        fail(f"'lowest' must hold min(10, nev) ascending values: {lowest}")
    if not (result["seconds"] >= 0 and all(s >= 0 for s in result["stages"].values())):
        fail("negative or missing timings")

    if args.no_accuracy:
        if result["residual"] is not None or result["orthogonality"] is not None:
            fail("residual/orthogonality must be null with --values-only")
    for key, bound in (("residual", args.max_residual),
                       ("orthogonality", args.max_orthogonality)):
        if bound is not None and not (result[key] is not None and result[key] < bound):
            fail(f"{key} = {result[key]}, expected < {bound}")

    if args.eigenvalues:
        check_close("lowest", lowest, read_numbers(args.eigenvalues), args.tol)
    if args.values_file:
        values = read_numbers(args.values_file)
        if len(values) != result["nev"]:
            fail(f"{args.values_file}: {len(values)} values, expected nev = {result['nev']}")
        check_close("values file", values[:len(lowest)], lowest, 1e-15)
    if args.vectors_file:
        rows, cols, z = read_array_mtx(args.vectors_file)
        if (rows, cols) != (result["N"], result["nev"]):
            fail(f"{args.vectors_file}: {rows}x{cols}, expected N x nev")
        worst = 0.0
        for i in range(cols):
            for j in range(cols):
                dot = sum(z[i * rows + k].conjugate() * z[j * rows + k] for k in range(rows))
                worst = max(worst, abs(dot - (1.0 if i == j else 0.0)))
        if not worst < args.tol:
            fail(f"{args.vectors_file}: max |Z^H Z - I| = {worst}")
    print("check_json: PASS")


if __name__ == "__main__":
    main()

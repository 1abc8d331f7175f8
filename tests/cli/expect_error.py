"""Runs a tseig-solve command that must fail cleanly.

usage: expect_error.py --match=REGEX [--timeout S] [--after-header] [--prefix P]
                       [--any-stdout] [--json CODE] -- command...
Passes when the command exits non-zero (not by timeout) and stderr holds exactly one
line starting with "tseig-solve: error: " (--prefix: P instead), matching REGEX, and
stdout is empty (with --after-header: holds only the problem's header line, as a solver
failure leaves it; with --any-stdout: anything, as a failure after work has been reported;
with --json: exactly one JSON object {"error": {"code": CODE, "message": ...}} whose
message matches REGEX too).
A hang past --timeout kills the whole process group and fails.
"""
import argparse
import json
import os
import re
import signal
import subprocess
import sys

PREFIX = "tseig-solve: error: "


def fail(reason, err=""):
    sys.stderr.write(err)
    print("expect_error: FAIL: " + reason)
    sys.exit(1)


def main():
    argv = sys.argv[1:]
    if "--" not in argv:
        fail("missing '--' before the command")
    split = argv.index("--")
    p = argparse.ArgumentParser()
    p.add_argument("--match", required=True, metavar="REGEX")
    p.add_argument("--timeout", type=float, default=60)
    p.add_argument("--after-header", action="store_true")
    p.add_argument("--prefix", default=PREFIX)
    p.add_argument("--any-stdout", action="store_true")
    p.add_argument("--json", metavar="CODE")
    args = p.parse_args(argv[:split])
    prefix = args.prefix

    proc = subprocess.Popen(argv[split + 1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=args.timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        fail(f"no exit within {args.timeout} s: the error path hangs")
    if proc.returncode == 0:
        fail("exit code 0, expected a failure", err)
    messages = [l for l in err.splitlines() if l.startswith(prefix)]
    if len(messages) != 1:
        fail(f"expected one '{prefix}...' line on stderr, got {len(messages)}", err)
    if not re.search(args.match, messages[0]):
        fail(f"message does not match /{args.match}/: {messages[0]}", err)
    if args.json:
        try:
            error = json.loads(out)["error"]
        except (ValueError, KeyError, TypeError):
            fail("stdout is not one JSON object with an 'error' member: " + out[:200], err)
        if error.get("code") != args.json or not re.search(args.match, error.get("message", "")):
            fail(f"JSON error {error} is not code {args.json} matching /{args.match}/", err)
        out = ""
    lines = out.strip().splitlines()
    if args.after_header and len(lines) == 1 and lines[0].startswith("tseig-solve ("):
        lines = []
    if lines and not args.any_stdout:
        fail("a failed run must print nothing on stdout: " + lines[0], err)
    print(f"expect_error: PASS (exit {proc.returncode}): {messages[0]}")


if __name__ == "__main__":
    main()

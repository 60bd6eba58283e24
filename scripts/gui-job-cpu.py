#!/usr/bin/env python3
"""Where the CPU goes while the GUI clusters the demo (docs/benchmarks.md, "MHCA in the GUI and in the CLI").

Runs `clusterlens --demo --cluster mahalanobis --screenshot` under xvfb-run and reads /proc when the
clustering job starts and ends ("job started/ended: Clustering" on stderr). Prints one JSON line: the
job's time as the GUI reports it and the CPU seconds spent meanwhile by the GUI's main thread, by Mesa's
llvmpipe threads (composing the window), by the rest of the GUI process (the engine's threads, also
those that ended during the job) and by the Xvfb server. Linux only.

    scripts/gui-job-cpu.py build/release/app/gui/clusterlens
"""
import argparse
import glob
import json
import os
import re
import subprocess

TICKS = os.sysconf("SC_CLK_TCK")


def parse_stat(path):
    """(name, parent pid, CPU seconds) of a /proc/.../stat file."""
    with open(path) as f:
        text = f.read()
    fields = text[text.rindex(")") + 2:].split()
    name = text[text.index("(") + 1:text.rindex(")")]
    return name, int(fields[1]), (int(fields[11]) + int(fields[12])) / TICKS


def child(parent, name):
    """The pid of the child of `parent` whose name starts with `name` (names are cut at 15 characters)."""
    for path in glob.glob("/proc/[0-9]*/stat"):
        try:
            comm, ppid, _ = parse_stat(path)
        except OSError:
            continue
        if ppid == parent and comm.startswith(name[:15]):
            return int(path.split("/")[2])
    raise RuntimeError(f"no process {name} under {parent}")


def snapshot(gui, xvfb):
    threads = {}
    for path in glob.glob(f"/proc/{gui}/task/*/stat"):
        try:
            comm, _, cpu = parse_stat(path)
        except OSError:
            continue
        threads[int(path.split("/")[-2])] = (comm, cpu)
    return threads, parse_stat(f"/proc/{gui}/stat")[2], parse_stat(f"/proc/{xvfb}/stat")[2]


def split(gui, start, end):
    cpu = {"main": 0.0, "llvmpipe": 0.0}
    for tid, (comm, seconds) in end[0].items():
        if tid == gui or comm.startswith("llvmpipe"):
            key = "main" if tid == gui else "llvmpipe"
            cpu[key] += seconds - start[0].get(tid, (comm, 0.0))[1]
    cpu["engine_and_other"] = end[1] - start[1] - cpu["main"] - cpu["llvmpipe"]
    cpu["xvfb"] = end[2] - start[2]
    return {key: round(value, 2) for key, value in cpu.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("gui", help="path of the clusterlens executable")
    parser.add_argument("--screenshot", default="/tmp/gui-job-cpu.png")
    args = parser.parse_args()
    run = subprocess.Popen(["xvfb-run", "-a", args.gui, "--demo", "--cluster", "mahalanobis", "--screenshot",
                            args.screenshot], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    gui = xvfb = start = result = None
    for line in run.stderr:
        if "job started: Clustering" in line:
            gui, xvfb = child(run.pid, os.path.basename(args.gui)), child(run.pid, "Xvfb")
            start = snapshot(gui, xvfb)
        elif "job ended: Clustering" in line and start:
            cpu = split(gui, start, snapshot(gui, xvfb))
            job = float(re.search(r"after ([0-9.]+) s", line).group(1))
            result = {"job_s": job, "cpu_s": cpu, "load": float(open("/proc/loadavg").read().split()[0])}
    run.wait()
    if result is None:
        raise SystemExit("the clustering job did not run to its end")
    print(json.dumps(result))


if __name__ == "__main__":
    main()

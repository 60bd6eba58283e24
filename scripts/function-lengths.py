#!/usr/bin/env python3
"""Lists functions longer than a limit and source files longer than a limit.

Usage: scripts/function-lengths.py [--functions N] [--files N] [GLOB ...]
Defaults: functions over 120 lines and files over 600 lines in engine/src/**/mhca*.

A function is a brace block opened at the end of a line that looks like a definition (a name and a
parenthesis before the brace, not a control statement, lambda, class or namespace), measured from
that line to its closing brace. Comments and strings are skipped when braces are counted.
"""
import argparse
import glob
import re
import sys

CONTROL = re.compile(r"^\s*(if|for|while|switch|do|else|catch|try)\b|^\s*}\s*else\b")
DEFINITION = re.compile(r"[A-Za-z_~][A-Za-z0-9_:<>~]*\s*\([^;]*\)\s*(const\s*)?(noexcept\s*)?(->[^{]*)?(:[^{]*)?\{\s*$")


def code_of(line, state):
    """The line without comments and string contents; state carries an open block comment."""
    out, i = [], 0
    while i < len(line):
        if state["block"]:
            end = line.find("*/", i)
            if end < 0:
                return "".join(out)
            state["block"], i = False, end + 2
        elif line.startswith("/*", i):
            state["block"], i = True, i + 2
        elif line.startswith("//", i):
            break
        elif line[i] in "\"'":
            quote, i = line[i], i + 1
            while i < len(line) and line[i] != quote:
                i += 2 if line[i] == "\\" else 1
            i += 1
        else:
            out.append(line[i])
            i += 1
    return "".join(out)


def long_functions(path, limit):
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    state, stack, found = {"block": False}, [], []
    header = ""
    for number, raw in enumerate(lines, 1):
        code = code_of(raw, state)
        stripped = code.strip()
        header = (header + " " + stripped).strip() if header and not stripped.endswith(";") else stripped
        for ch in code:
            if ch == "{":
                is_function = (not stack or not stack[-1][1]) and DEFINITION.search(header) \
                    and not CONTROL.search(header) and not re.search(r"\b(class|struct|namespace|enum)\b", header) \
                    and "[" not in header.split("(")[0]
                stack.append((number, bool(is_function), header))
                header = ""
            elif ch == "}" and stack:
                start, is_function, text = stack.pop()
                if is_function and number - start + 1 > limit:
                    names = [n for n in re.findall(r"([A-Za-z_~][A-Za-z0-9_:~]*)\s*\(", text)
                             if n != "__launch_bounds__"]
                    found.append((number - start + 1, start, names[0] if names else text[:60]))
        if stripped.endswith((";", "}", "{")) or not stripped:
            header = ""
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--functions", type=int, default=120)
    parser.add_argument("--files", type=int, default=600)
    parser.add_argument("globs", nargs="*", default=["engine/src/**/mhca*"])
    args = parser.parse_args()
    paths = sorted({p for g in args.globs for p in glob.glob(g, recursive=True)})
    bad = 0
    for path in paths:
        count = sum(1 for _ in open(path, encoding="utf-8", errors="replace"))
        if count > args.files:
            print(f"file {path}: {count} lines")
            bad += 1
        for length, start, name in long_functions(path, args.functions):
            print(f"function {path}:{start} {name}: {length} lines")
            bad += 1
    print(f"{len(paths)} files read; {bad} over the limits (functions > {args.functions}, files > {args.files} lines)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

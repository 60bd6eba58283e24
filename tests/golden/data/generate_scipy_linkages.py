#!/usr/bin/python3
"""Writes the scipy golden files of tests/golden/scipy_linkage_test.cpp into this folder.

Run with the system Python (numpy 1.24, scipy 1.10):  /usr/bin/python3 generate_scipy_linkages.py

For every data set NAME it writes
  NAME.data.csv          the points, one per line, comma-separated, %.17g (exact doubles)
  NAME.METHOD.csv        scipy.cluster.hierarchy.linkage(points, METHOD) as a,b,height,size
Random sets are Gaussian blobs rounded to float32 (so the float and double entry points see the same
values) and are checked to be tie-free (no two equal pairwise distances). The real sets are copied
from tests/data/benchmarks; aggregation has many equal distances and tests tie breaking.
"""
import gzip
import os

import numpy as np
import scipy
from scipy.cluster.hierarchy import linkage
from scipy.spatial.distance import pdist

METHODS = ["single", "complete", "average", "weighted", "centroid", "median", "ward"]
HERE = os.path.dirname(os.path.abspath(__file__))
BENCHMARKS = os.path.normpath(os.path.join(HERE, "..", "..", "data", "benchmarks"))

RANDOM_SETS = [  # name, n, d, blobs, seed
    ("random_50x2", 50, 2, 3, 11),
    ("random_200x6", 200, 6, 5, 12),
    ("random_500x14", 500, 14, 8, 13),
]
REAL_SETS = [  # name, file under benchmarks/
    ("wine", "uci/wine.data.gz"),
    ("hepta", "fcps/hepta.data.gz"),
    ("aggregation", "sipu/aggregation.data.gz"),
]


def blobs(n, d, k, seed):
    rng = np.random.default_rng(seed)
    centres = rng.uniform(-10.0, 10.0, size=(k, d))
    scales = rng.uniform(0.5, 2.0, size=k)
    labels = rng.integers(0, k, size=n)
    x = centres[labels] + rng.normal(size=(n, d)) * scales[labels, None]
    return x.astype(np.float32).astype(np.float64)


def write_points(path, x):
    with open(path, "w") as out:
        for row in x:
            out.write(",".join("%.17g" % v for v in row) + "\n")


def write_linkage(path, z):
    with open(path, "w") as out:
        out.write("a,b,height,size\n")
        for a, b, h, s in z:
            out.write("%d,%d,%.17g,%d\n" % (int(a), int(b), h, int(s)))


def main():
    print("scipy", scipy.__version__, "numpy", np.__version__)
    sets = [(name, blobs(n, d, k, seed)) for name, n, d, k, seed in RANDOM_SETS]
    sets += [(name, np.loadtxt(gzip.open(os.path.join(BENCHMARKS, rel)))) for name, rel in REAL_SETS]
    for name, x in sets:
        y = pdist(x)
        ties = len(y) - len(np.unique(y))
        if name.startswith("random") and ties:
            raise SystemExit("%s has %d tied distances; change its seed" % (name, ties))
        write_points(os.path.join(HERE, name + ".data.csv"), x)
        for method in METHODS:
            write_linkage(os.path.join(HERE, "%s.%s.csv" % (name, method)), linkage(x, method))
        print("%-14s n=%-4d d=%-2d tied distances=%d" % (name, x.shape[0], x.shape[1], ties))


if __name__ == "__main__":
    main()

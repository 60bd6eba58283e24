#!/usr/bin/python3
"""Writes the single-linkage reference labels of tests/golden/vat_benchmarks_test.cpp.

Run with the system Python (numpy 1.24, scipy 1.10):  /usr/bin/python3 generate_scipy_single_fcluster.py

For every benchmark set under tests/data/benchmarks (except birch1: 100 000 points need a 40 GB
condensed matrix in scipy) it writes single_fcluster/NAME.labels.gz, one label per line:
    fcluster(linkage(points, "single"), k, criterion="maxclust")
with k = the number of reference clusters (largest label of NAME.labels0; 0 marks noise). The points
are rounded to float32 first, as ClusterLens reads them, so both sides see the same values and
pdist's double distances equal the engine's bit for bit. single_fcluster/index.csv lists every set
with n, k, the number of clusters fcluster returned and whether the k-th and (k-1)-th largest merge
heights are equal (a tie at the cut level: then "k clusters" is not unique and the test skips the set).
"""
import gzip
import os

import numpy as np
import scipy
from scipy.cluster.hierarchy import fcluster, linkage

HERE = os.path.dirname(os.path.abspath(__file__))
BENCHMARKS = os.path.normpath(os.path.join(HERE, "..", "..", "data", "benchmarks"))
OUT = os.path.join(HERE, "single_fcluster")
SKIP = {"birch1"}


def read_points(path):
    with gzip.open(path, "rt") as f:
        rows = [line.split() for line in f if line.strip()]
    return np.array(rows, dtype=np.float64).astype(np.float32).astype(np.float64)


def read_labels(path):
    with gzip.open(path, "rt") as f:
        return np.array([int(line) for line in f if line.strip()])


def main():
    print("scipy", scipy.__version__, "numpy", np.__version__)
    os.makedirs(OUT, exist_ok=True)
    index = ["battery,name,n,k,clusters,tie_at_cut"]
    for battery in sorted(os.listdir(BENCHMARKS)):
        folder = os.path.join(BENCHMARKS, battery)
        for file in sorted(os.listdir(folder)):
            if not file.endswith(".data.gz"):
                continue
            name = file[: -len(".data.gz")]
            if name in SKIP:
                continue
            x = read_points(os.path.join(folder, file))
            k = int(read_labels(os.path.join(folder, name + ".labels0.gz")).max())
            z = linkage(x, "single")
            labels = fcluster(z, k, criterion="maxclust")
            heights = np.sort(z[:, 2])[::-1]
            tie = k >= 2 and k - 1 < len(heights) and heights[k - 2] == heights[k - 1]
            clusters = len(np.unique(labels))
            with gzip.GzipFile(os.path.join(OUT, name + ".labels.gz"), "wb", mtime=0) as raw:
                raw.write(("# scipy %s single linkage, fcluster maxclust=%d (points rounded to float32)\n"
                           % (scipy.__version__, k)).encode())
                raw.write("".join("%d\n" % v for v in labels).encode())
            index.append("%s,%s,%d,%d,%d,%d" % (battery, name, len(x), k, clusters, int(tie)))
            print(index[-1])
    with open(os.path.join(OUT, "index.csv"), "w") as f:
        f.write("\n".join(index) + "\n")


if __name__ == "__main__":
    main()

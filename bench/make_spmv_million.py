#!/usr/bin/env python3
"""A CSR matrix of about a million nonzeros for the whole-process SpMV timing (BENCHMARKS.md): 200,000 rows of 1 to 9 nonzeros (5 on average), columns drawn uniformly from
300,000, values and x uniform in [-1, 1); written as .npy (row_ptr, col_idx, values: int32,
int32, float32) and, with --mtx, the same matrix as A.mtx (Matrix Market, 1-based).
Deterministic (random.Random(20261127)); standard library only.
  usage: bench/make_spmv_million.py OUT [--mtx]"""
import os
import random
import struct
import sys

ROWS, COLS = 200000, 300000


def npy(path, descr, fmt, items):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%d,), }" % (descr, len(items))
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        f.write(struct.pack("<%d%s" % (len(items), fmt), *items))


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = random.Random(20261127)
    row_ptr, col_idx, values = [0], [], []
    for _ in range(ROWS):
        n = 1 + int(9 * rng.random())
        cols = sorted(set(int(COLS * rng.random()) for _ in range(n)))
        col_idx += cols
        values += [struct.unpack("<f", struct.pack("<f", 2 * rng.random() - 1))[0] for _ in cols]
        row_ptr.append(len(col_idx))
    x = [struct.unpack("<f", struct.pack("<f", 2 * rng.random() - 1))[0] for _ in range(COLS)]
    npy(os.path.join(out, "row_ptr.npy"), "<i4", "i", row_ptr)
    npy(os.path.join(out, "col_idx.npy"), "<i4", "i", col_idx)
    npy(os.path.join(out, "values.npy"), "<f4", "f", values)
    npy(os.path.join(out, "x.npy"), "<f4", "f", x)
    if "--mtx" in sys.argv:
        with open(os.path.join(out, "A.mtx"), "w") as f:
            f.write("%%%%MatrixMarket matrix coordinate real general\n%d %d %d\n" % (ROWS, COLS, len(col_idx)))
            for r in range(ROWS):
                for j in range(row_ptr[r], row_ptr[r + 1]):
                    f.write("%d %d %.9g\n" % (r + 1, col_idx[j] + 1, values[j]))
    print("%d rows, %d columns, %d nonzeros in %s" % (ROWS, COLS, len(col_idx), out))


if __name__ == "__main__":
    main()

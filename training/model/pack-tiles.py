"""Packs a tile file (export-tiles.ts) small enough to carry to an accelerator machine.

    /usr/bin/python3 training/model/pack-tiles.py --in .data/tiles.bin --out .carry/tiles.bin.xz --bits 5

Images keep their top `--bits` bits (train.py puts each level back at the middle of its range and
adds noise one level wide, so the model never learns the steps); class maps are kept exactly. lzma
then shrinks a 256 x 256 tile from 128 KiB to about 5 KiB at 5 bits. `--skip` and `--max-tiles` cut out a
run of tiles (export-tiles.ts writes them page by page), to split a file over several carries. train.py reads the result like any tile file.
"""
import argparse
import json
import lzma

import numpy as np


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--in", dest="src", required=True)
    ap.add_argument("--out", required=True, help="ends in .xz")
    ap.add_argument("--bits", type=int, default=5)
    ap.add_argument("--skip", type=int, default=0, help="leave out this many tiles at the start")
    ap.add_argument("--max-tiles", type=int)
    args = ap.parse_args()
    if not args.out.endswith(".xz") or not 1 <= args.bits <= 8:
        raise SystemExit("--out must end in .xz and --bits be 1..8")
    meta = json.load(open(args.src + ".json"))
    size = meta["size"]
    raw = np.fromfile(args.src, dtype=np.uint8).reshape(meta["count"], 2, size, size)
    raw = raw[args.skip: args.skip + args.max_tiles if args.max_tiles else None].copy()
    raw[:, 0] >>= 8 - args.bits
    with lzma.open(args.out, "wb", preset=9) as f:
        f.write(raw.tobytes())
    # Page and condition counts describe the whole source file; a cut keeps their proportions roughly.
    packed = {**meta, "count": int(raw.shape[0]), "bits": args.bits, "source_count": meta["count"]}
    json.dump(packed, open(args.out + ".json", "w"), indent=2)
    print(f"{raw.shape[0]} tiles → {args.out}")


if __name__ == "__main__":
    main()

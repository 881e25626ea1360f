"""Trains the pedal-mark classifier (Ped., *, or none) and exports it to ONNX.

    /usr/bin/python3 training/model/train_pedals.py --data /tmp/pedals/pedals.bin --out models/pedals.onnx --seed 1

Input: cells written by export-pedals.ts (`count x (1 label byte + 48*96
bytes, 0 ink .. 255 paper)`, the dynamics' cell) with `<data>.json` beside
them naming the classes. Output: an ONNX model mapping cells (N x 1 x 48 x 96,
values 0..1) to logits over the classes (N x classes), and a JSON model card
beside it holding the class list the engine reads its outputs by
(src/text/read-pedals.ts PEDAL_CLASSES must equal it; a test checks).

The cells come from Verovio's five fonts only; the dev set is engraved by
MuseScore and LilyPond. Augmentation (shifts, scale, stroke weight, blur,
noise, contrast) is what lets a tiny network read pedal marks it never saw
drawn that way. A fifth of the samples, drawn by the seed, is held out for
validation. Reproducible: the seed fixes the split, initialisation, order and
augmentation (one CPU thread).
"""
from cell_classifier import Spec, main
# The dynamics' network: the same cell, three classes instead of twenty.
from train_dynamics import H, W, DynamicsNet


SPEC = Spec(
    name="ScoreSight pedal marks",
    version="pedals-1",
    height=H,
    width=W,
    network=DynamicsNet,
    # Fonts draw pedal marks at sizes a quarter apart and more.
    scale_spread=0.5,
    # Shifts of a few pixels each way: the cell is centred on the ink found, which a stray speck moves.
    shift_x=0.08,
    shift_y=0.16,
    default_data="/tmp/pedals/pedals.bin",
    default_out="models/pedals.onnx",
    task="read one word of a text line by the staves (src/text/read-pedals.ts), its glyphs cut out and centred in the dynamics' cell (src/text/dynamic-cells.ts), as a pedal mark: start (Ped.), stop (*), or none",
    source="random scores with pedal marks, words and dynamics under their lowest staff, engraved by Verovio in its five fonts (npx tsx training/model/export-pedals.ts --pages {pages} --seed {seed} --out {data}); never the dev set",
    script="train_pedals.py",
)

if __name__ == "__main__":
    main(SPEC)

"""Trains the dynamics classifier (p, mf, sfz ... or none) and exports it to ONNX.

    /usr/bin/python3 training/model/train_dynamics.py --data /tmp/dynamics/dynamics.bin --out models/dynamics.onnx --seed 1

Input: cells written by export-dynamics.ts (`count x (1 label byte + 48*96
bytes, 0 ink .. 255 paper)`) with `<data>.json` beside them naming the classes.
Output: an ONNX model mapping cells (N x 1 x 48 x 96, values 0..1) to logits
over the classes (N x classes), and a JSON model card beside it holding the
class list the engine reads its outputs by (src/text/dynamic-cells.ts
DYNAMIC_CLASSES must equal it; a test checks).

The cells come from Verovio's five fonts only; the dev set is engraved by
MuseScore and LilyPond. Augmentation (shifts, scale, stroke weight, blur,
noise, contrast) is what lets a tiny network read dynamics it never saw drawn
that way. A fifth of the samples, drawn by the seed, is held out for
validation. Reproducible: the seed fixes the split, initialisation, order and
augmentation (one CPU thread).
"""
import torch.nn as nn

from cell_classifier import Spec, main

H, W = 48, 96


class DynamicsNet(nn.Module):
    def __init__(self, classes):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 12, 3, padding=1), nn.ReLU(inplace=True), nn.MaxPool2d(2),  # 24 x 48
            nn.Conv2d(12, 24, 3, padding=1), nn.ReLU(inplace=True), nn.MaxPool2d(2),  # 12 x 24
            nn.Conv2d(24, 32, 3, padding=1), nn.ReLU(inplace=True), nn.MaxPool2d(2),  # 6 x 12
            nn.Conv2d(32, 48, 3, padding=1), nn.ReLU(inplace=True), nn.MaxPool2d(2),  # 3 x 6
            nn.Conv2d(48, 64, 3, padding=1), nn.ReLU(inplace=True),
        )
        self.classify = nn.Sequential(nn.Flatten(), nn.Dropout(0.25), nn.Linear(64 * 3 * 6, classes))

    def forward(self, x):
        return self.classify(self.features(x))


SPEC = Spec(
    name="ScoreSight dynamics",
    version="dynamics-1",
    height=H,
    width=W,
    network=DynamicsNet,
    # Fonts draw dynamics at sizes a quarter apart and more.
    scale_spread=0.5,
    # Shifts of a few pixels each way: the cell is centred on the ink found, which a stray speck moves.
    shift_x=0.08,
    shift_y=0.16,
    default_data="/tmp/dynamics/dynamics.bin",
    default_out="models/dynamics.onnx",
    task="read one mark the symbol model paints as dynamics (src/text/text-regions.ts), its letters cut out and centred in a cell (src/text/dynamic-cells.ts), as a MusicXML dynamics element, or none",
    source="random scores with redrawn dynamics and words, engraved by Verovio in its five fonts (npx tsx training/model/export-dynamics.ts --pages {pages} --seed {seed} --out {data}); never the dev set",
    script="train_dynamics.py",
)

if __name__ == "__main__":
    main(SPEC)

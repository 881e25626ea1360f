"""Trains the mark classifier (articulations, fermatas, ornaments, bowing, or none) and exports it to ONNX.

    /usr/bin/python3 training/model/train_marks.py --data /tmp/marks/marks.bin --out models/marks.onnx --seed 1

Input: cells written by export-marks.ts (`count x (1 label byte + 36*48 bytes,
0 ink .. 255 paper)`) with `<data>.json` beside them naming the classes.
Output: an ONNX model mapping cells (N x 1 x 36 x 48, values 0..1) to logits
over the classes (N x classes), and a JSON model card beside it holding the
class list the engine reads its outputs by (src/symbols/mark-cells.ts
MARK_CLASSES must equal it; a test checks).

The cells come from Verovio's five fonts only; the dev set is engraved by
MuseScore and LilyPond. Augmentation (shifts, scale, stroke weight, blur,
noise, contrast) is what lets a tiny network read marks it never saw drawn
that way. A fifth of the samples, drawn by the seed, is held out for
validation. Reproducible: the seed fixes the split, initialisation, order and
augmentation (one CPU thread).
"""
import torch.nn as nn

from cell_classifier import Spec, main

H, W = 36, 48


class MarkNet(nn.Module):
    def __init__(self, classes):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 12, 3, padding=1), nn.ReLU(inplace=True), nn.MaxPool2d(2),  # 18 x 24
            nn.Conv2d(12, 24, 3, padding=1), nn.ReLU(inplace=True), nn.MaxPool2d(2),  # 9 x 12
            nn.Conv2d(24, 32, 3, padding=1), nn.ReLU(inplace=True), nn.MaxPool2d(2),  # 4 x 6
            nn.Conv2d(32, 48, 3, padding=1), nn.ReLU(inplace=True),
        )
        self.classify = nn.Sequential(nn.Flatten(), nn.Dropout(0.25), nn.Linear(48 * 4 * 6, classes))

    def forward(self, x):
        return self.classify(self.features(x))


SPEC = Spec(
    name="ScoreSight marks around notes",
    version="marks-2",
    height=H,
    width=W,
    network=MarkNet,
    scale_spread=0.3,
    # Shifts of up to about a third of a staff space each way: a component's centre is not a label's.
    shift_x=0.2,
    shift_y=0.25,
    default_data="/tmp/marks/marks.bin",
    default_out="models/marks.onnx",
    task="classify one cell centred on a component the symbol model paints as an articulation (src/symbols/marks.ts) as a mark kind, or none",
    source="random scores decorated with marks, engraved by Verovio in its five fonts (npm run data:marks -- --pages {pages} --seed {seed} --out {data}); never the dev set",
    script="train_marks.py",
)

if __name__ == "__main__":
    main(SPEC)

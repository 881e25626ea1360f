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
import argparse
import json
import os
import random
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

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


def load(path):
    raw = np.fromfile(path, dtype=np.uint8)
    records = raw.reshape(-1, 1 + H * W)
    labels = records[:, 0].astype(np.int64)
    cells = records[:, 1:].reshape(-1, 1, H, W).astype(np.float32) / 255.0
    return cells, labels


def augment(x, gen):
    """Random shift, scale, stroke weight, blur, contrast and noise on a batch (N x 1 x H x W, ink low)."""
    n = x.shape[0]
    ink = 1.0 - x
    theta = torch.zeros(n, 2, 3)
    # Fonts draw dynamics at sizes a quarter apart and more.
    scale = 1.0 + (torch.rand(n, generator=gen) - 0.5) * 0.5
    theta[:, 0, 0] = scale * (1.0 + (torch.rand(n, generator=gen) - 0.5) * 0.15)
    theta[:, 0, 1] = (torch.rand(n, generator=gen) - 0.5) * 0.1
    theta[:, 1, 1] = scale
    # Shifts of a few pixels each way: the cell is centred on the ink found, which a stray speck moves.
    theta[:, 0, 2] = (torch.rand(n, generator=gen) - 0.5) * 0.08
    theta[:, 1, 2] = (torch.rand(n, generator=gen) - 0.5) * 0.16
    grid = F.affine_grid(theta, ink.shape, align_corners=False)
    ink = F.grid_sample(ink, grid, align_corners=False, padding_mode="zeros")
    weight = torch.rand(n, generator=gen)
    dilated = F.max_pool2d(ink, 3, stride=1, padding=1)
    eroded = -F.max_pool2d(-ink, 3, stride=1, padding=1)
    ink = torch.where((weight < 0.25).view(n, 1, 1, 1), 0.5 * ink + 0.5 * dilated, ink)
    ink = torch.where((weight > 0.8).view(n, 1, 1, 1), 0.5 * ink + 0.5 * eroded, ink)
    blur = torch.tensor([[1.0, 2.0, 1.0], [2.0, 4.0, 2.0], [1.0, 2.0, 1.0]]).view(1, 1, 3, 3) / 16.0
    blurred = F.conv2d(ink, blur, padding=1)
    ink = torch.where((torch.rand(n, generator=gen) < 0.4).view(n, 1, 1, 1), blurred, ink)
    contrast = 0.6 + 0.4 * torch.rand(n, 1, 1, 1, generator=gen)
    x = 1.0 - ink * contrast
    x = x + torch.randn(x.shape, generator=gen) * 0.05 * torch.rand(n, 1, 1, 1, generator=gen)
    return x.clamp(0.0, 1.0)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default="/tmp/dynamics/dynamics.bin")
    parser.add_argument("--out", default="models/dynamics.onnx")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--epochs", type=int, default=15)
    args = parser.parse_args()
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    gen = torch.Generator().manual_seed(args.seed)
    with open(args.data + ".json") as f:
        meta = json.load(f)
    classes = meta["classes"]
    k = len(classes)

    cells, labels = load(args.data)
    order = np.random.permutation(len(labels))
    held = len(labels) // 5
    val_idx, train_idx = order[:held], order[held:]
    x_train, y_train = torch.from_numpy(cells[train_idx]), torch.from_numpy(labels[train_idx])
    x_val, y_val = torch.from_numpy(cells[val_idx]), torch.from_numpy(labels[val_idx])
    # Rare dynamics weigh as much as common ones.
    counts = np.bincount(labels[train_idx], minlength=k).astype(np.float32)
    class_weight = torch.from_numpy(counts.sum() / np.maximum(counts, 1) / k)

    model = DynamicsNet(k)
    optimiser = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=3e-3, total_steps=args.epochs * ((len(train_idx) + 127) // 128))
    started = time.time()
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(train_idx), generator=gen)
        for i in range(0, len(perm), 128):
            batch = perm[i : i + 128]
            logits = model(augment(x_train[batch], gen))
            loss = F.cross_entropy(logits, y_train[batch], weight=class_weight)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
        if epoch % 5 == 4 or epoch == args.epochs - 1:
            model.eval()
            with torch.no_grad():
                accuracy = (model(x_val).argmax(1) == y_val).float().mean().item()
            print(f"epoch {epoch + 1}: loss {loss.item():.3f}, validation accuracy {accuracy:.4f} ({time.time() - started:.0f} s)", flush=True)

    model.eval()
    with torch.no_grad():
        predicted = model(x_val).argmax(1)
    per_class = {c: round(float((predicted[y_val == i] == i).float().mean()), 4) if (y_val == i).any() else None for i, c in enumerate(classes)}
    accuracy = float((predicted == y_val).float().mean())
    torch.onnx.export(model, torch.zeros(1, 1, H, W), args.out, input_names=["image"], output_names=["logits"],
                      dynamic_axes={"image": {0: "n"}, "logits": {0: "n"}}, opset_version=13)
    params = sum(p.numel() for p in model.parameters())
    card = {
        "name": "ScoreSight dynamics",
        "version": "dynamics-1",
        "file": os.path.basename(args.out),
        "task": "read one mark the symbol model paints as dynamics (src/text/text-regions.ts), its letters cut out and centred in a cell (src/text/dynamic-cells.ts), as a MusicXML dynamics element, or none",
        "input": {"name": "image", "shape": ["N", 1, H, W], "range": "0 (ink) .. 1 (paper)", "scale": "the prepared page: 12 pixels per staff space"},
        "output": {"name": "logits", "shape": ["N", k]},
        "classes": classes,
        "parameters": params,
        "data": {
            "source": f"random scores with redrawn dynamics and words, engraved by Verovio in its five fonts (npx tsx training/model/export-dynamics.ts --pages {meta['pages']} --seed {meta['seed']} --out {args.data}); never the dev set",
            "samples": int(len(labels)),
            "per_class": {c: int(n) for c, n in zip(classes, np.bincount(labels, minlength=k))},
        },
        "training": {"seed": args.seed, "epochs": args.epochs, "optimiser": "AdamW, one-cycle lr 3e-3, batch 128, class-balanced loss, one CPU thread",
                     "augmentation": "shift, scale, shear, stroke weight, blur, contrast, noise", "seconds": round(time.time() - started, 1),
                     "command": f"/usr/bin/python3 training/model/train_dynamics.py --data {args.data} --out models/dynamics.onnx --seed {args.seed} --epochs {args.epochs}"},
        "metrics": {"validation_samples": int(held), "validation_accuracy": round(accuracy, 4), "per_class_accuracy": per_class},
    }
    with open(args.out.replace(".onnx", ".card.json"), "w") as f:
        json.dump(card, f, indent=2)
        f.write("\n")
    print(json.dumps(card["metrics"]))


if __name__ == "__main__":
    main()

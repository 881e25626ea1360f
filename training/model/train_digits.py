"""Trains the time-signature digit classifier and exports it to ONNX.

    /usr/bin/python3 training/model/train_digits.py --data .data/digits.bin --out models/digits.onnx --seed 1

Input: digit cells written by export-digits.ts (`count x (1 label byte + 24*16
bytes, 0 ink .. 255 paper)`). Output: an ONNX model mapping cells
(N x 1 x 24 x 16, values 0..1) to logits over the digits 0-9 (N x 10), and a
JSON model card beside it.

The cells come from Verovio's five fonts only; the dev set is engraved by
MuseScore and LilyPond. Augmentation (shifts, scale, stroke weight, blur,
noise, contrast) is what lets a tiny network read digits it never saw drawn
that way. A fifth of the samples, drawn by the seed, is held out for
validation. Reproducible: the seed fixes the split, initialisation, order and
augmentation.
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

H, W = 24, 16


class DigitNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(inplace=True), nn.MaxPool2d(2),  # 12 x 8
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(inplace=True), nn.MaxPool2d(2),  # 6 x 4
            nn.Conv2d(32, 48, 3, padding=1), nn.ReLU(inplace=True),
        )
        self.classify = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(48 * 6 * 4, 10))

    def forward(self, x):
        return self.classify(self.features(x))


def load(path):
    raw = np.fromfile(path, dtype=np.uint8)
    records = raw.reshape(-1, 1 + H * W)
    labels = records[:, 0].astype(np.int64)
    cells = records[:, 1:].reshape(-1, 1, H, W).astype(np.float32) / 255.0
    return cells, labels


def augment(x, gen):
    """Random affine jitter, stroke weight, blur, contrast and noise on a batch (N x 1 x H x W, ink low)."""
    n = x.shape[0]
    ink = 1.0 - x
    theta = torch.zeros(n, 2, 3)
    scale = 1.0 + (torch.rand(n, generator=gen) - 0.5) * 0.2
    shear = (torch.rand(n, generator=gen) - 0.5) * 0.2
    theta[:, 0, 0] = scale
    theta[:, 0, 1] = shear
    theta[:, 1, 1] = scale * (1.0 + (torch.rand(n, generator=gen) - 0.5) * 0.15)
    theta[:, 0, 2] = (torch.rand(n, generator=gen) - 0.5) * 0.2
    theta[:, 1, 2] = (torch.rand(n, generator=gen) - 0.5) * 0.15
    grid = F.affine_grid(theta, ink.shape, align_corners=False)
    ink = F.grid_sample(ink, grid, align_corners=False, padding_mode="zeros")
    # Heavier or lighter strokes: max-pool dilates, min-pool erodes.
    weight = torch.rand(n, generator=gen)
    dilated = F.max_pool2d(ink, 3, stride=1, padding=1)
    eroded = -F.max_pool2d(-ink, 3, stride=1, padding=1)
    ink = torch.where((weight < 0.2).view(n, 1, 1, 1), 0.5 * ink + 0.5 * dilated, ink)
    ink = torch.where((weight > 0.85).view(n, 1, 1, 1), 0.5 * ink + 0.5 * eroded, ink)
    blur = torch.tensor([[1.0, 2.0, 1.0], [2.0, 4.0, 2.0], [1.0, 2.0, 1.0]]).view(1, 1, 3, 3) / 16.0
    blurred = F.conv2d(ink, blur, padding=1)
    ink = torch.where((torch.rand(n, generator=gen) < 0.4).view(n, 1, 1, 1), blurred, ink)
    contrast = 0.6 + 0.4 * torch.rand(n, 1, 1, 1, generator=gen)
    x = 1.0 - ink * contrast
    x = x + torch.randn(x.shape, generator=gen) * 0.05 * torch.rand(n, 1, 1, 1, generator=gen)
    return x.clamp(0.0, 1.0)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default=".data/digits.bin")
    parser.add_argument("--out", default="models/digits.onnx")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--epochs", type=int, default=40)
    args = parser.parse_args()
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    gen = torch.Generator().manual_seed(args.seed)

    cells, labels = load(args.data)
    order = np.random.permutation(len(labels))
    held = len(labels) // 5
    val_idx, train_idx = order[:held], order[held:]
    x_train, y_train = torch.from_numpy(cells[train_idx]), torch.from_numpy(labels[train_idx])
    x_val, y_val = torch.from_numpy(cells[val_idx]), torch.from_numpy(labels[val_idx])
    # Rare digits (7, 9, 0 in real time signatures) weigh as much as common ones.
    counts = np.bincount(labels[train_idx], minlength=10).astype(np.float32)
    class_weight = torch.from_numpy(counts.sum() / np.maximum(counts, 1) / 10)

    model = DigitNet()
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
        if epoch % 10 == 9 or epoch == args.epochs - 1:
            model.eval()
            with torch.no_grad():
                accuracy = (model(x_val).argmax(1) == y_val).float().mean().item()
            print(f"epoch {epoch + 1}: loss {loss.item():.3f}, validation accuracy {accuracy:.4f}", flush=True)

    model.eval()
    with torch.no_grad():
        predicted = model(x_val).argmax(1)
    per_digit = {str(d): round(float((predicted[y_val == d] == d).float().mean()), 4) if (y_val == d).any() else None for d in range(10)}
    accuracy = float((predicted == y_val).float().mean())
    torch.onnx.export(model, torch.zeros(1, 1, H, W), args.out, input_names=["image"], output_names=["logits"],
                      dynamic_axes={"image": {0: "n"}, "logits": {0: "n"}}, opset_version=13)
    params = sum(p.numel() for p in model.parameters())
    card = {
        "name": "ScoreSight time-signature digits",
        "version": "digits-1",
        "file": os.path.basename(args.out),
        "task": "classify one digit cell cut from a time signature (src/symbols/digits.ts) as 0-9",
        "input": {"name": "image", "shape": ["N", 1, H, W], "range": "0 (ink) .. 1 (paper)"},
        "output": {"name": "logits", "shape": ["N", 10]},
        "parameters": params,
        "data": {
            "source": "time signatures on the clean generated training pages (npm run data:train) plus synthetic Verovio pages of random signatures (npm run data:digits -- --synthetic 40 --seed 7); five Verovio fonts; never the dev set",
            "samples": int(len(labels)),
            "per_digit": {str(d): int(c) for d, c in enumerate(np.bincount(labels, minlength=10))},
        },
        "training": {"seed": args.seed, "epochs": args.epochs, "optimiser": "AdamW, one-cycle lr 3e-3, batch 128, class-balanced loss",
                      "augmentation": "affine jitter, stroke weight, blur, contrast, noise", "seconds": round(time.time() - started, 1),
                      "command": "/usr/bin/python3 training/model/train_digits.py --data .data/digits.bin --out models/digits.onnx --seed 1"},
        "metrics": {"validation_samples": int(held), "validation_accuracy": round(accuracy, 4), "per_digit_accuracy": per_digit},
    }
    with open(args.out.replace(".onnx", ".card.json"), "w") as f:
        json.dump(card, f, indent=2)
        f.write("\n")
    print(json.dumps(card["metrics"]))


if __name__ == "__main__":
    main()

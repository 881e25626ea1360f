"""What the small cell classifiers share (train_marks.py, train_dynamics.py): reading their cells,
augmenting a batch, training with a class-balanced loss, exporting to ONNX and writing the model card.

Each classifier gives a `Spec`: its cell size, its network, how far its augmentation shifts and scales,
and the texts of its card. Reproducible: the seed fixes the split, initialisation, order and
augmentation with one CPU thread (the default; `--threads N` trains faster, not bit for bit the same); the random draws happen in the same order for every classifier.
"""
import argparse
import json
import os
import random
import time
from dataclasses import dataclass
from typing import Callable

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class Spec:
    name: str
    version: str
    height: int
    width: int
    network: Callable[[int], nn.Module]
    # Cells are scaled by 1 ± scale_spread / 2 and shifted by ± shift / 2 of their width and height.
    scale_spread: float
    shift_x: float
    shift_y: float
    default_data: str
    default_out: str
    task: str
    source: str  # formatted with pages, seed and data
    script: str


def load(path, h, w):
    raw = np.fromfile(path, dtype=np.uint8)
    records = raw.reshape(-1, 1 + h * w)
    labels = records[:, 0].astype(np.int64)
    cells = records[:, 1:].reshape(-1, 1, h, w).astype(np.float32) / 255.0
    return cells, labels


def augment(x, gen, spec):
    """Random shift, scale, stroke weight, blur, contrast and noise on a batch (N x 1 x H x W, ink low)."""
    n = x.shape[0]
    ink = 1.0 - x
    theta = torch.zeros(n, 2, 3)
    scale = 1.0 + (torch.rand(n, generator=gen) - 0.5) * spec.scale_spread
    theta[:, 0, 0] = scale * (1.0 + (torch.rand(n, generator=gen) - 0.5) * 0.15)
    theta[:, 0, 1] = (torch.rand(n, generator=gen) - 0.5) * 0.1
    theta[:, 1, 1] = scale
    theta[:, 0, 2] = (torch.rand(n, generator=gen) - 0.5) * spec.shift_x
    theta[:, 1, 2] = (torch.rand(n, generator=gen) - 0.5) * spec.shift_y
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


def main(spec):
    h, w = spec.height, spec.width
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default=spec.default_data)
    parser.add_argument("--out", default=spec.default_out)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--epochs", type=int, default=15)
    # More than one thread trains faster, and no longer bit for bit the same.
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    gen = torch.Generator().manual_seed(args.seed)
    with open(args.data + ".json") as f:
        meta = json.load(f)
    classes = meta["classes"]
    k = len(classes)

    cells, labels = load(args.data, h, w)
    order = np.random.permutation(len(labels))
    held = len(labels) // 5
    val_idx, train_idx = order[:held], order[held:]
    x_train, y_train = torch.from_numpy(cells[train_idx]), torch.from_numpy(labels[train_idx])
    x_val, y_val = torch.from_numpy(cells[val_idx]), torch.from_numpy(labels[val_idx])
    # Rare classes weigh as much as common ones.
    counts = np.bincount(labels[train_idx], minlength=k).astype(np.float32)
    class_weight = torch.from_numpy(counts.sum() / np.maximum(counts, 1) / k)

    model = spec.network(k)
    optimiser = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=3e-3, total_steps=args.epochs * ((len(train_idx) + 127) // 128))
    started = time.time()
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(train_idx), generator=gen)
        for i in range(0, len(perm), 128):
            batch = perm[i : i + 128]
            logits = model(augment(x_train[batch], gen, spec))
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
    torch.onnx.export(model, torch.zeros(1, 1, h, w), args.out, input_names=["image"], output_names=["logits"],
                      dynamic_axes={"image": {0: "n"}, "logits": {0: "n"}}, opset_version=13, external_data=False)
    params = sum(p.numel() for p in model.parameters())
    card = {
        "name": spec.name,
        "version": spec.version,
        "file": os.path.basename(args.out),
        "task": spec.task,
        "input": {"name": "image", "shape": ["N", 1, h, w], "range": "0 (ink) .. 1 (paper)", "scale": "the prepared page: 12 pixels per staff space"},
        "output": {"name": "logits", "shape": ["N", k]},
        "classes": classes,
        "parameters": params,
        "data": {
            "source": spec.source.format(pages=meta["pages"], seed=meta["seed"], data=args.data),
            "samples": int(len(labels)),
            "per_class": {c: int(n) for c, n in zip(classes, np.bincount(labels, minlength=k))},
        },
        "training": {"seed": args.seed, "epochs": args.epochs, "optimiser": "AdamW, one-cycle lr 3e-3, batch 128, class-balanced loss, " + ("one CPU thread" if args.threads == 1 else f"{args.threads} CPU threads"),
                     "augmentation": "shift, scale, shear, stroke weight, blur, contrast, noise", "seconds": round(time.time() - started, 1),
                     "command": f"/usr/bin/python3 training/model/{spec.script} --data {args.data} --out {spec.default_out} --seed {args.seed} --epochs {args.epochs}"},
        "metrics": {"validation_samples": int(held), "validation_accuracy": round(accuracy, 4), "per_class_accuracy": per_class},
    }
    with open(args.out.replace(".onnx", ".card.json"), "w") as f:
        json.dump(card, f, indent=2)
        f.write("\n")
    print(json.dumps(card["metrics"]))

"""Trains the symbol segmentation model and exports it to ONNX.

    /usr/bin/python3 training/model/train.py --tiles .data/tiles.bin --out models/symbols.onnx --seed 1 --minutes 30

Input: tiles written by export-tiles.ts (prepared pages at the canonical staff
space, with their pixel-class masks). Output: an ONNX model that maps a gray
page region (1 x 1 x H x W, ink dark, values 0..1) to class logits at half
resolution (1 x C x H/2 x W/2), plus a JSON model card beside it.

Why this shape: a small U-Net that starts with a strided convolution works at
half resolution from the first layer on, which is where almost all of the
compute of a full-resolution U-Net goes; noteheads are still 6 px tall there
and staff lines survive in the features. It must run in WebAssembly in about a
second per page, so it stays under a few hundred thousand parameters.

Reproducible: the seed fixes initialisation, tile order and augmentation.
Uses Debian's python3-torch (CPU) or CUDA when available.
"""
import argparse
import json
import math
import os
import random
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def block(cin, cout):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
        nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
    )


class SymbolNet(nn.Module):
    def __init__(self, classes, widths=(16, 32, 48, 64)):
        super().__init__()
        w1, w2, w3, w4 = widths
        self.stem = nn.Sequential(nn.Conv2d(1, w1, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(w1), nn.ReLU(inplace=True))
        self.enc1 = nn.Sequential(nn.Conv2d(w1, w1, 3, padding=1, bias=False), nn.BatchNorm2d(w1), nn.ReLU(inplace=True))
        self.enc2 = block(w1, w2)
        self.enc3 = block(w2, w3)
        self.enc4 = block(w3, w4)
        self.dec3 = block(w4 + w3, w3)
        self.dec2 = block(w3 + w2, w2)
        self.dec1 = block(w2 + w1, w1)
        self.head = nn.Conv2d(w1, classes, 1)

    def forward(self, x):
        e1 = self.enc1(self.stem(x))  # 1/2
        e2 = self.enc2(F.max_pool2d(e1, 2))  # 1/4
        e3 = self.enc3(F.max_pool2d(e2, 2))  # 1/8
        e4 = self.enc4(F.max_pool2d(e3, 2))  # 1/16
        d3 = self.dec3(torch.cat([F.interpolate(e4, scale_factor=2.0, mode="nearest"), e3], 1))
        d2 = self.dec2(torch.cat([F.interpolate(d3, scale_factor=2.0, mode="nearest"), e2], 1))
        d1 = self.dec1(torch.cat([F.interpolate(d2, scale_factor=2.0, mode="nearest"), e1], 1))
        return self.head(d1)


def load_tiles(paths):
    """One or more tile files (export-tiles.ts) of the same tile size, as one array."""
    metas = [json.load(open(p + ".json")) for p in paths]
    size = metas[0]["size"]
    if any(m["size"] != size or m["classes"] != metas[0]["classes"] for m in metas):
        raise SystemExit("tile files differ in tile size or classes")
    raw = np.concatenate([np.fromfile(p, dtype=np.uint8).reshape(m["count"], 2, size, size) for p, m in zip(paths, metas)])
    merged = {"size": size, "count": int(raw.shape[0]), "classes": metas[0]["classes"], "pages": sum(m.get("pages", 0) for m in metas)}
    for key in ("sources", "conditions"):
        merged[key] = {}
        for m in metas:
            for k, v in m.get(key, {}).items():
                merged[key][k] = merged[key].get(k, 0) + v
    return raw, merged


def conv_bn_pairs(model):
    """Each convolution with the batch norm right after it (None for the head), in forward order."""
    mods = list(model.modules())
    pairs = []
    for i, m in enumerate(mods):
        if isinstance(m, nn.Conv2d):
            nxt = mods[i + 1] if i + 1 < len(mods) else None
            pairs.append((m, nxt if isinstance(nxt, nn.BatchNorm2d) else None))
    return pairs


def load_onnx(model, path):
    """Starts from a shipped model. Its export folded each batch norm into the convolution before
    it, so each convolution takes the folded weights and its batch norm becomes the identity plus the
    folded bias, with statistics that stay frozen (see freeze_norms): the network then computes
    exactly what the shipped model does, and fine-tuning moves on from there."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(path).graph
    init = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    convs = [n for n in graph.node if n.op_type == "Conv"]
    pairs = conv_bn_pairs(model)
    if len(convs) != len(pairs):
        raise SystemExit(f"{path} has {len(convs)} convolutions, the network {len(pairs)}")
    with torch.no_grad():
        for node, (conv, bn) in zip(convs, pairs):
            weight = torch.tensor(init[node.input[1]])
            bias = torch.tensor(init[node.input[2]]) if len(node.input) > 2 else torch.zeros(weight.shape[0])
            if weight.shape != conv.weight.shape:
                raise SystemExit(f"{path}: convolution {node.name} is {tuple(weight.shape)}, the network's {tuple(conv.weight.shape)}")
            conv.weight.copy_(weight)
            if bn is None:
                conv.bias.copy_(bias)
            else:
                bn.weight.fill_(1.0)
                bn.bias.copy_(bias)
                bn.running_mean.zero_()
                bn.running_var.fill_(1.0 - bn.eps)


def freeze_norms(model):
    """Batch norms use their stored statistics while fine-tuning (their scale and shift still learn)."""
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()


def half_labels(masks):
    """Labels at the model's half resolution: the most specific class present in each 2 x 2 cell
    (thin symbols such as staff lines and stems must not vanish by majority vote; among classes,
    higher indices are the rarer, more specific symbols drawn on top)."""
    m = masks.reshape(masks.shape[0], masks.shape[1] // 2, 2, masks.shape[2] // 2, 2)
    return m.max(axis=(2, 4))


def augment(img, rng):
    # Ink darkness, paper tone and noise vary between pages; geometry is already canonical.
    img = img.astype(np.float32) / 255.0
    gain = rng.uniform(0.7, 1.1)
    img = 1.0 - (1.0 - img) * gain
    if rng.random() < 0.5:
        img = img + rng.normal(0, rng.uniform(0.0, 0.06), img.shape).astype(np.float32)
    return np.clip(img, 0.0, 1.0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tiles", nargs="+", default=[".data/tiles.bin"])
    ap.add_argument("--init", help="fine-tune from this ONNX model (one exported by this script) instead of from scratch")
    ap.add_argument("--out", default="models/symbols.onnx")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--minutes", type=float, default=30)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--version", default="symbols-1")
    args = ap.parse_args()

    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    device = "cuda" if torch.cuda.is_available() else "cpu"

    raw, meta = load_tiles(args.tiles)
    classes = len(meta["classes"])
    n = raw.shape[0]
    order = np.random.permutation(n)
    val_idx, train_idx = order[: max(64, n // 20)], order[max(64, n // 20):]
    labels = half_labels(raw[:, 1])
    freq = np.bincount(labels[train_idx].ravel(), minlength=classes).astype(np.float64) + 1.0
    # Inverse square-root frequency: rare symbols count without drowning the background.
    weights = torch.tensor((freq.sum() / freq) ** 0.5, dtype=torch.float32)
    weights = weights / weights.mean()

    model = SymbolNet(classes)
    if args.init:
        load_onnx(model, args.init)
    model = model.to(device)
    params = sum(p.numel() for p in model.parameters())
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    rng = np.random.default_rng(args.seed)
    # The starting model's figures on the same validation tiles, so the card shows what fine-tuning changed.
    before = evaluate(model, raw, labels, val_idx, classes, device) if args.init else None
    if before:
        print(f"before fine-tuning: pixel accuracy {before['pixel_accuracy']}, mean IoU {before['mean_iou_symbols']}", flush=True)
    started = time.time()
    budget = args.minutes * 60
    step = 0
    seen = 0
    print(f"{n} tiles ({len(train_idx)} train, {len(val_idx)} validation), {classes} classes, {params} parameters, {device}")
    while time.time() - started < budget:
        batch = rng.choice(train_idx, args.batch, replace=False)
        x = torch.tensor(np.stack([augment(raw[i, 0], rng) for i in batch]))[:, None].to(device)
        y = torch.tensor(labels[batch].astype(np.int64)).to(device)
        # Cosine decay over the time budget.
        frac = (time.time() - started) / budget
        for g in opt.param_groups:
            g["lr"] = args.lr * 0.5 * (1 + math.cos(math.pi * min(frac, 1.0)))
        model.train()
        if args.init:
            freeze_norms(model)
        loss = F.cross_entropy(model(x), y, weight=weights.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        seen += len(batch)
        if step % 20 == 0:
            print(f"step {step} tiles {seen} loss {loss.item():.4f} {seen / (time.time() - started):.1f} tiles/s", flush=True)

    metrics = evaluate(model, raw, labels, val_idx, classes, device)
    export(model, args.out, device)
    card = {
        "name": "ScoreSight symbol segmentation",
        "version": args.version,
        "file": os.path.basename(args.out),
        "task": "per-pixel symbol classes of a prepared page (canonical staff space 12 px), output at half resolution",
        "input": {"name": "image", "shape": ["1", "1", "H", "W"], "range": "0 (ink) .. 1 (paper)", "multiple_of": 16},
        "output": {"name": "logits", "shape": ["1", str(classes), "H/2", "W/2"]},
        "classes": meta["classes"],
        "architecture": "U-Net, strided stem, widths 16/32/48/64, batch norm folded at export",
        "parameters": params,
        "training": {"tiles": int(n), "pages": meta.get("pages"), "sources": meta.get("sources"), "conditions": meta.get("conditions"), "seed": args.seed, "init": args.init and os.path.basename(args.init), "tile_files": [os.path.basename(t) for t in args.tiles], "minutes": args.minutes, "steps": step, "batch": args.batch, "lr": args.lr, "device": device},
        # Sources by kind are in training.sources: corpus = OpenScore Lieder (CC0) and Hauptstimme orchestral scores (CC0)
        # minus the dev set; humdrum = Polish Music Heritage corpus (CC BY 4.0, attribution required); random = seeded generator.
        "data": "Verovio-engraved pages (Leipzig, Bravura, Leland, Petaluma, Gootville): corpus = OpenScore Lieder (CC0) and Hauptstimme orchestral scores (CC0) minus the dev set; humdrum = Polish Music Heritage corpus (CC BY 4.0, attribution required); random = seeded random music; clean, scan- and photo-degraded (see training.sources and training.conditions)",
        "validation": metrics,
        **({"validation_before_fine_tuning": before} if before else {}),
    }
    with open(os.path.splitext(args.out)[0] + ".card.json", "w") as f:
        json.dump(card, f, indent=2)
    print(json.dumps(metrics, indent=2))


def evaluate(model, raw, labels, idx, classes, device):
    model.eval()
    inter = np.zeros(classes)
    union = np.zeros(classes)
    correct = total = 0
    with torch.no_grad():
        for s in range(0, len(idx), 32):
            b = idx[s: s + 32]
            x = torch.tensor(raw[b, 0].astype(np.float32) / 255.0)[:, None].to(device)
            pred = model(x).argmax(1).cpu().numpy()
            y = labels[b]
            correct += (pred == y).sum()
            total += y.size
            for c in range(classes):
                p, t = pred == c, y == c
                inter[c] += (p & t).sum()
                union[c] += (p | t).sum()
    iou = {str(c): round(float(inter[c] / union[c]), 4) for c in range(classes) if union[c] > 0}
    present = [c for c in range(1, classes) if union[c] > 0]
    return {"pixel_accuracy": round(float(correct / total), 4), "mean_iou_symbols": round(float(np.mean([inter[c] / union[c] for c in present])), 4), "iou_by_class": iou}


def export(model, out, device):
    model.eval()
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    dummy = torch.zeros(1, 1, 256, 256, device=device)
    torch.onnx.export(
        model.cpu() if device != "cpu" else model, dummy.cpu(), out, input_names=["image"], output_names=["logits"],
        dynamic_axes={"image": {2: "height", 3: "width"}, "logits": {2: "h2", 3: "w2"}}, opset_version=13,
    )


if __name__ == "__main__":
    main()

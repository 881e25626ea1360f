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

Reproducible: the seed fixes initialisation, tile order and augmentation (on one
kind of device; a GPU's kernels are not bit-for-bit a CPU's). Uses Debian's
python3-torch on a CPU, or CUDA when available: then every tile is held on the
GPU and batches are cut, augmented and run there in bfloat16. Tile files may be
packed by pack-tiles.py to carry them to such a machine (models/README.md).
"""
import argparse
import inspect
import json
import lzma
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


def read_tile_file(path, meta):
    """A tile file as written by export-tiles.ts, or packed by pack-tiles.py (lzma, images kept to
    meta["bits"] bits; each level is restored to the middle of its range)."""
    size = meta["size"]
    if not path.endswith(".xz"):
        return np.fromfile(path, dtype=np.uint8).reshape(meta["count"], 2, size, size)
    with lzma.open(path) as f:
        raw = np.frombuffer(f.read(), dtype=np.uint8).reshape(meta["count"], 2, size, size).copy()
    shift = 8 - meta["bits"]
    if shift:
        raw[:, 0] = (raw[:, 0] << shift) | (1 << (shift - 1))
    return raw


def load_tiles(paths):
    """One or more tile files (export-tiles.ts, or packed) of the same tile size, as one array."""
    metas = [json.load(open(p + ".json")) for p in paths]
    size = metas[0]["size"]
    if any(m["size"] != size or m["classes"] != metas[0]["classes"] for m in metas):
        raise SystemExit("tile files differ in tile size or classes")
    raw = np.concatenate([read_tile_file(p, m) for p, m in zip(paths, metas)])
    merged = {"size": size, "count": int(raw.shape[0]), "classes": metas[0]["classes"], "pages": sum(m.get("pages", 0) for m in metas),
              "bits": min(m.get("bits", 8) for m in metas)}
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
    higher indices are the rarer, more specific symbols drawn on top). masks: N x H x W integers."""
    return F.max_pool2d(masks[:, None].float(), 2)[:, 0].long()


def uniform(gen, n, lo, hi, device):
    return lo + (hi - lo) * torch.rand(n, generator=gen, device=device)


SPACE = 12.0  # canonical staff space of prepared pages and their tiles, in pixels


def soft_band(dist, half, soft):
    """Ink coverage (0..1) of a stroke whose centre is `dist` pixels away, half as wide as `half`,
    with edges blurred over `soft` pixels (all broadcast tensors)."""
    return ((half - dist.abs()) / soft + 0.5).clamp(0.0, 1.0)


def draw_steep_beams(img, mask, gen, p, cls):
    """Draws, in place, a steep beamed group over a fraction p of the tiles: one to three stacked
    beams climbing or falling at 20–60 degrees, two to four stems hanging from them, kneed (stems on
    both sides) now and then, each ending in a black head; the class map takes beam, stem and head.

    Why: Verovio caps a beam's slope at 20 degrees, but LilyPond and hand engravers draw far steeper
    beams where notes a tenth apart are close together, and a model that never saw one paints it as a
    patchwork of slur, head and dynamics. Drawn over whatever the tile holds (staff lines, notes,
    text), the band teaches the shape, not a context. img, mask: N x 1 x H x W (0..1 ink dark; class
    indices as floats), before geometric jitter so that the group is jittered too."""
    device = img.device
    n, _, h, w = img.shape
    chosen = torch.nonzero(torch.rand(n, generator=gen, device=device) < p)[:, 0]
    s = len(chosen)
    if s == 0:
        return
    def u(lo, hi):
        return uniform(gen, s, lo, hi, device)[:, None, None]
    def coin(q):
        return (torch.rand(s, generator=gen, device=device) < q)[:, None, None]
    ys = torch.arange(h, device=device, dtype=torch.float32)[None, :, None]
    xs = torch.arange(w, device=device, dtype=torch.float32)[None, None, :]
    angle = u(20.0, 60.0) * math.pi / 180
    slope = torch.tan(angle) * torch.where(coin(0.5), 1.0, -1.0)
    # Horizontal extent, stem to stem, climbing at most ten spaces.
    length = torch.minimum(u(2.5, 12.0), 10.0 / slope.abs()) * SPACE
    secant = torch.sqrt(1 + slope * slope)
    x0 = u(0.0, 1.0) * (w - length)
    x1 = x0 + length
    yc = u(0.2, 0.8) * h
    xc = (x0 + x1) / 2
    line = yc + slope * (xs - xc)  # centre of the first beam
    thick = u(0.42, 0.55) * SPACE  # across the beam
    soft = u(0.7, 2.0)
    ink = u(0.8, 1.0)  # how dark the drawn ink is
    count = 1 + coin(0.6).float() + (coin(0.2) & coin(0.6)).float()  # 1, 2 or 3 beams
    side = torch.where(coin(0.5), 1.0, -1.0)  # where the heads hang (+1 below); extra beams stack toward them
    kneed = coin(0.35)
    within = (xs >= x0 - 0.3) & (xs <= x1 + 0.3)
    beam = torch.zeros(s, h, w, device=device)
    for k in range(3):
        centre = line + side * k * 0.75 * SPACE * secant
        beam = torch.maximum(beam, soft_band((ys - centre) / secant, thick / 2, soft) * within * (count > k))
    stems = torch.zeros_like(beam)
    heads = torch.zeros_like(beam)
    stem_count = torch.randint(2, 5, (s, 1, 1), generator=gen, device=device)
    # A head tilted as engraved: an ellipse 1.24 x 0.84 spaces, turned by 0.35 radians.
    cos, sin = math.cos(-0.35), math.sin(-0.35)
    for j in range(4):
        live = stem_count > j
        sx = x0 + j / (stem_count - 1) * length  # evenly spaced from end to end (past it when not live)
        # Kneed groups send each stem either way; every stem of a plain group goes to `side`.
        way = torch.where(kneed & coin(0.5), -side, side)
        at_beam = yc + slope * (sx - xc) + way * 0.5 * thick * secant
        tip = at_beam + way * u(2.2, 4.5) * SPACE
        top, bottom = torch.minimum(at_beam, tip), torch.maximum(at_beam, tip)
        in_stem = (ys >= top) & (ys <= bottom)
        stems = torch.maximum(stems, soft_band(xs - sx, u(0.55, 0.9), soft) * in_stem * live)
        # The head sits left of a stem that rises from it, right of one that falls from it.
        hx = sx + torch.where(way > 0, -1.0, 1.0) * 0.55 * SPACE
        dx, dy = xs - hx, ys - tip
        ex = (dx * cos + dy * sin) / (0.62 * SPACE)
        ey = (-dx * sin + dy * cos) / (0.42 * SPACE)
        radius = torch.sqrt(ex * ex + ey * ey)  # 1 on the head's outline
        heads = torch.maximum(heads, soft_band(radius * 0.5 * SPACE, 0.5 * SPACE, soft) * live)
    cover = torch.maximum(torch.maximum(beam, stems), heads)
    img[chosen, 0] = img[chosen, 0] * (1 - cover * ink)
    sub_mask = mask[chosen, 0]
    sub_mask = torch.where(stems > 0.5, float(cls["stem"]), sub_mask)
    sub_mask = torch.where(beam > 0.5, float(cls["beam"]), sub_mask)
    sub_mask = torch.where(heads > 0.5, float(cls["noteheadBlack"]), sub_mask)
    mask[chosen, 0] = sub_mask


def augment(tiles, gen, args, bits):
    """A batch of uint8 tiles (N x 2 x H x W: image, classes) → model input and half-resolution labels.

    Ink darkness, paper tone and noise vary between pages. Geometry is canonical after page
    preparation, but only as exact as the staff-space estimate and the deskew: a small scale and
    rotation jitter (the class map moves with the image, nearest-neighbour) keeps the model honest
    about both. Images packed to fewer bits get noise of one level's width back."""
    device = tiles.device
    n = tiles.shape[0]
    img = tiles[:, 0:1].float() / 255.0
    mask = tiles[:, 1:2].float()
    if args.steep_beams > 0:
        draw_steep_beams(img, mask, gen, args.steep_beams, args.class_index)
    if args.scale_jitter > 0 or args.rotate > 0:
        scale = torch.exp(uniform(gen, n, -math.log1p(args.scale_jitter), math.log1p(args.scale_jitter), device))
        angle = uniform(gen, n, -args.rotate, args.rotate, device) * math.pi / 180
        cos, sin = torch.cos(angle) / scale, torch.sin(angle) / scale
        theta = torch.stack([torch.stack([cos, -sin, torch.zeros_like(cos)], 1), torch.stack([sin, cos, torch.zeros_like(cos)], 1)], 1)
        grid = F.affine_grid(theta, list(img.shape), align_corners=False)
        img = F.grid_sample(img, grid, mode="bilinear", padding_mode="border", align_corners=False)
        mask = F.grid_sample(mask, grid, mode="nearest", padding_mode="border", align_corners=False)
    if bits < 8:
        img = img + (torch.rand(img.shape, generator=gen, device=device) - 0.5) * (2 ** (8 - bits) / 255.0)
    gain = uniform(gen, n, 0.7, 1.1, device)[:, None, None, None]
    img = 1.0 - (1.0 - img) * gain
    sigma = uniform(gen, n, 0.0, 0.06, device) * (torch.rand(n, generator=gen, device=device) < 0.5)
    img = img + torch.randn(img.shape, generator=gen, device=device) * sigma[:, None, None, None]
    return img.clamp(0.0, 1.0), half_labels(mask[:, 0].round().long())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tiles", nargs="+", default=[".data/tiles.bin"])
    ap.add_argument("--init", help="fine-tune from this ONNX model (one exported by this script) instead of from scratch")
    ap.add_argument("--out", default="models/symbols.onnx")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--minutes", type=float, default=30)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--widths", default="16,32,48,64", help="channels at 1/2, 1/4, 1/8 and 1/16 resolution")
    ap.add_argument("--scale-jitter", type=float, default=0.0, help="tiles are scaled by up to this fraction either way")
    ap.add_argument("--rotate", type=float, default=0.0, help="tiles are rotated by up to this many degrees either way")
    ap.add_argument("--steep-beams", type=float, default=0.0, help="fraction of tiles that get a steep beamed group drawn over them")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--version", default="symbols-1")
    ap.add_argument("--export-state", help="only export this saved state (a .pt written beside a trained model) to --out")
    args = ap.parse_args()
    widths = tuple(int(w) for w in args.widths.split(","))
    if args.export_state:
        state = torch.load(args.export_state, map_location="cpu")
        model = SymbolNet(state["head.weight"].shape[0], widths)
        model.load_state_dict(state)
        export(model, args.out)
        return

    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    device = "cuda" if torch.cuda.is_available() else "cpu"

    raw_np, meta = load_tiles(args.tiles)
    # All tiles live on the training device; batches are cut and augmented there.
    raw = torch.from_numpy(raw_np).to(device)
    del raw_np
    classes = len(meta["classes"])
    args.class_index = {name: i for i, name in enumerate(meta["classes"])}
    n = raw.shape[0]
    order = np.random.permutation(n)
    val_idx, train_idx = order[: max(64, n // 20)], order[max(64, n // 20):]
    freq = torch.zeros(classes, dtype=torch.float64, device=device)
    for s in range(0, len(train_idx), 256):
        chunk = torch.from_numpy(train_idx[s: s + 256]).to(device)
        freq += torch.bincount(half_labels(raw[chunk, 1]).ravel(), minlength=classes).double()
    freq = freq.cpu().numpy() + 1.0
    # Inverse square-root frequency: rare symbols count without drowning the background.
    weights = torch.tensor((freq.sum() / freq) ** 0.5, dtype=torch.float32)
    weights = (weights / weights.mean()).to(device)

    model = SymbolNet(classes, widths)
    if args.init:
        load_onnx(model, args.init)
    model = model.to(device)
    params = sum(p.numel() for p in model.parameters())
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    gen = torch.Generator(device=device)
    gen.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    # bfloat16 arithmetic on an accelerator (several times faster, no loss scaling needed); float32 on a CPU.
    autocast = torch.autocast("cuda", dtype=torch.bfloat16) if device == "cuda" else torch.autocast("cpu", enabled=False)
    # The starting model's figures on the same validation tiles, so the card shows what fine-tuning changed.
    before = evaluate(model, raw, val_idx, classes) if args.init else None
    if before:
        print(f"before fine-tuning: pixel accuracy {before['pixel_accuracy']}, mean IoU {before['mean_iou_symbols']}", flush=True)
    started = time.time()
    budget = args.minutes * 60
    step = 0
    seen = 0
    print(f"{n} tiles ({len(train_idx)} train, {len(val_idx)} validation), {classes} classes, {params} parameters, {device}", flush=True)
    while time.time() - started < budget:
        batch = torch.from_numpy(rng.choice(train_idx, args.batch, replace=False)).to(device)
        x, y = augment(raw[batch], gen, args, meta["bits"])
        # Cosine decay over the time budget.
        frac = (time.time() - started) / budget
        for g in opt.param_groups:
            g["lr"] = args.lr * 0.5 * (1 + math.cos(math.pi * min(frac, 1.0)))
        model.train()
        if args.init:
            freeze_norms(model)
        with autocast:
            loss = F.cross_entropy(model(x).float(), y, weight=weights)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        step += 1
        seen += len(batch)
        if step % 200 == 0:
            print(f"step {step} tiles {seen} loss {loss.item():.4f} {seen / (time.time() - started):.1f} tiles/s", flush=True)

    metrics = evaluate(model, raw, val_idx, classes)
    # The weights as well, so a model trained where torch is newer can be exported again with this
    # machine's exporter (--export-state): the ONNX graph then has the same form as the shipped one.
    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    torch.save({k: v.cpu() for k, v in model.state_dict().items()}, os.path.splitext(args.out)[0] + ".pt")
    card = {
        "name": "ScoreSight symbol segmentation",
        "version": args.version,
        "file": os.path.basename(args.out),
        "task": "per-pixel symbol classes of a prepared page (canonical staff space 12 px), output at half resolution",
        "input": {"name": "image", "shape": ["1", "1", "H", "W"], "range": "0 (ink) .. 1 (paper)", "multiple_of": 16},
        "output": {"name": "logits", "shape": ["1", str(classes), "H/2", "W/2"]},
        "head": HEAD,
        "classes": meta["classes"],
        "architecture": f"U-Net, strided stem, widths {'/'.join(map(str, widths))}, batch norm folded at export",
        "parameters": params,
        "training": {"tiles": int(n), "pages": meta.get("pages"), "sources": meta.get("sources"), "conditions": meta.get("conditions"), "image_bits": meta["bits"], "seed": args.seed, "init": args.init and os.path.basename(args.init), "tile_files": [os.path.basename(t) for t in args.tiles], "minutes": args.minutes, "steps": step, "batch": args.batch, "lr": args.lr, "scale_jitter": args.scale_jitter, "rotate_degrees": args.rotate, "steep_beams": args.steep_beams, "device": torch.cuda.get_device_name() if device == "cuda" else "cpu"},
        # Sources by kind are in training.sources: corpus = OpenScore Lieder (CC0) and Hauptstimme orchestral scores (CC0)
        # minus the dev set; humdrum = Polish Music Heritage corpus (CC BY 4.0, attribution required); random = seeded generator.
        "data": "Verovio-engraved pages (Leipzig, Bravura, Leland, Petaluma, Gootville): corpus = OpenScore Lieder (CC0) and Hauptstimme orchestral scores (CC0) minus the dev set; humdrum = Polish Music Heritage corpus (CC BY 4.0, attribution required); random = seeded random music; clean, scan- and photo-degraded (see training.sources and training.conditions)",
        "validation": metrics,
        **({"validation_before_fine_tuning": before} if before else {}),
    }
    with open(os.path.splitext(args.out)[0] + ".card.json", "w") as f:
        json.dump(card, f, indent=2)
    print(json.dumps(metrics, indent=2))
    export(model, args.out)


def evaluate(model, raw, idx, classes):
    """Pixel accuracy and per-class IoU on the validation tiles, as they are (no augmentation)."""
    model.eval()
    inter = np.zeros(classes)
    union = np.zeros(classes)
    correct = total = 0
    with torch.no_grad():
        for s in range(0, len(idx), 32):
            b = torch.from_numpy(idx[s: s + 32]).to(raw.device)
            x = raw[b, 0:1].float() / 255.0
            pred = model(x).argmax(1).cpu().numpy()
            y = half_labels(raw[b, 1]).cpu().numpy()
            correct += (pred == y).sum()
            total += y.size
            for c in range(classes):
                p, t = pred == c, y == c
                inter[c] += (p & t).sum()
                union[c] += (p | t).sum()
    iou = {str(c): round(float(inter[c] / union[c]), 4) for c in range(classes) if union[c] > 0}
    present = [c for c in range(1, classes) if union[c] > 0]
    return {"pixel_accuracy": round(float(correct / total), 4), "mean_iou_symbols": round(float(np.mean([inter[c] / union[c] for c in present])), 4), "iou_by_class": iou}


HEAD = {
    "top": {"shape": ["1", "2", "H/2", "W/2"], "meaning": "the two highest logits of each pixel, best first"},
    "best": {"shape": ["1", "H/2", "W/2"], "type": "uint8", "meaning": "the index of the highest logit (lower index first among equals)"},
    "added_by": "training/model/top_two.py",
}


def export(model, out):
    model = model.cpu().eval()
    # TorchScript export (the only one in torch 1.13; newer torch defaults to another) folds each
    # batch norm into its convolution, which load_onnx relies on.
    legacy = {"dynamo": False} if "dynamo" in inspect.signature(torch.onnx.export).parameters else {}
    torch.onnx.export(
        model, torch.zeros(1, 1, 256, 256), out, input_names=["image"], output_names=["logits"],
        dynamic_axes={"image": {2: "height", 3: "width"}, "logits": {2: "h2", 3: "w2"}}, opset_version=13, **legacy,
    )
    # The head the page reader asks for: each pixel's best class and two best logits, computed by the runtime.
    from top_two import add_top_two

    add_top_two(out)


if __name__ == "__main__":
    main()

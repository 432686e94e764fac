"""BERT uncased tokenisation (basic + WordPiece), the same rules the Rust tokenizer follows."""

from __future__ import annotations

import unicodedata


def _is_punctuation(ch: str) -> bool:
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def _is_cjk(cp: int) -> bool:
    return (0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2A6DF or 0x2A700 <= cp <= 0x2B73F
            or 0x2B740 <= cp <= 0x2B81F or 0x2B820 <= cp <= 0x2CEAF or 0xF900 <= cp <= 0xFAFF or 0x2F800 <= cp <= 0x2FA1F)


def basic_tokens(text: str) -> list[str]:
    out = []
    text = "".join(" " if unicodedata.category(c) in ("Zs",) or c in "\t\n\r" else c for c in text
                   if not (ord(c) == 0 or ord(c) == 0xFFFD or (unicodedata.category(c).startswith("C") and c not in "\t\n\r")))
    text = "".join(f" {c} " if _is_cjk(ord(c)) else c for c in text)
    for word in text.split():
        word = unicodedata.normalize("NFD", word.lower())
        word = "".join(c for c in word if unicodedata.category(c) != "Mn")
        current = ""
        for c in word:
            if _is_punctuation(c):
                if current:
                    out.append(current)
                out.append(c)
                current = ""
            else:
                current += c
        if current:
            out.append(current)
    return out


def wordpiece(word: str, vocab: dict[str, int], max_chars: int = 100) -> list[str] | None:
    if len(word) > max_chars:
        return None
    pieces, start = [], 0
    while start < len(word):
        end, found = len(word), None
        while start < end:
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if piece in vocab:
                found = piece
                break
            end -= 1
        if found is None:
            return None
        pieces.append(found)
        start = end
    return pieces


def tokenize(text: str, vocab: dict[str, int]) -> list[str]:
    out = []
    for word in basic_tokens(text):
        out.extend(wordpiece(word, vocab) or ["[UNK]"])
    return out

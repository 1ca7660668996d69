"""Text to a fixed-size float vector, for learners that take vectors (Stable-Baselines3's
policies): signed feature hashing of word unigrams and bigrams, L2-normalised.

Hashing needs no vocabulary and no fitting, so every process and every run maps a text to the
same vector (CRC-32, not Python's salted ``hash``); collisions are spread by a sign per feature.
"""

from __future__ import annotations

import re
import zlib

import numpy as np

_WORD = re.compile(r"[a-z0-9]+")


class TextHasher:
    """``hasher(text) -> float32 vector of size dim``: hashed word n-gram counts, unit length."""

    def __init__(self, dim: int = 512, ngrams: tuple[int, ...] = (1, 2)) -> None:
        if dim < 1:
            raise ValueError(f"dim must be at least 1, got {dim}")
        self.dim = dim
        self.ngrams = ngrams

    def features(self, text: str) -> list[str]:
        """The word n-grams of ``text`` (lower-cased letters and digits)."""
        words = _WORD.findall(text.lower())
        return [" ".join(words[i : i + n]) for n in self.ngrams for i in range(len(words) - n + 1)]

    def __call__(self, text: str) -> np.ndarray:
        vector = np.zeros(self.dim, dtype=np.float32)
        for feature in self.features(text):
            code = zlib.crc32(feature.encode())
            vector[code % self.dim] += 1.0 if (code >> 31) & 1 else -1.0
        norm = float(np.linalg.norm(vector))
        return vector / norm if norm > 0 else vector


__all__ = ["TextHasher"]

"""WebShop (Yao et al. 2022) reimplemented offline: catalog, BM25 search, pages, reward, env.

Importing this package is cheap; the env class and its heavy dependencies (bm25s, PyStemmer,
rapidfuzz) load on first use of ``WebShopEnv``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["WebShopEnv"]


def __getattr__(name: str) -> Any:
    if name == "WebShopEnv":
        from agentgym_envs.webshop.env import WebShopEnv

        return WebShopEnv
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

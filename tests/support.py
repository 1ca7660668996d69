"""Shared test helpers: the registered env ids whose dependencies are installed on this machine."""

from __future__ import annotations

import pytest

import agentgym_envs
from agentgym_envs.registration import one_per_family


def _ids(contract: bool) -> list:
    params = []
    for entry in one_per_family() if contract else agentgym_envs.ENTRIES:
        missing = entry.missing()
        marks = (
            [pytest.mark.skip(reason=f"needs {missing}: {entry.install_hint()}")] if missing else []
        )
        params.append(pytest.param(entry.id, marks=marks, id=entry.id))
    return params


#: One id per env family (families like MiniWoB register many ids; the contract test takes one).
CONTRACT_IDS = _ids(contract=True)

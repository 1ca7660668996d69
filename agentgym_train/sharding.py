"""Weights, gradients and optimizer state sharded across data-parallel ranks (``sharding: fsdp``)
with torch's FSDP2 (``fully_shard``: the engine accelerate's FSDP v2 plugin drives).

Between phases each of N ranks holds 1/N of the LM's weights (the fp32 master copy), of its
gradients and of AdamW's two moments: a 7B full fine-tune keeps ~112 GB of weights and optimizer
state in all, ~14 GB per GPU on 8. The value head (a few thousand numbers) stays replicated.

Why the weights are gathered once per phase instead of once per layer call, as FSDP does by
default: FSDP's per-layer all-gathers need every rank to run the same forward passes in the same
order, and the policy's passes are data-dependent (each rank plays different episodes: different
turn counts, candidate counts and generated lengths). So the rollout runs on weights gathered
once on every rank (as TRL's ZeRO-3 generation does), and each minibatch accumulates its
gradients locally on gathered weights, then one zero-loss pass through the whole LM hands the
summed gradients to FSDP's reduce-scatter: the same collectives on every rank whatever the
data. Peak memory is therefore one gathered copy of the weights (in the compute dtype on CUDA)
and of the gradients during a phase; the optimizer state and the master weights stay sharded.

Checkpoints hold full tensors in the single-process format (rank 0 writes them), so a sharded
run resumes unsharded and the other way round, and ``agentgym-train export`` needs nothing new.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, TypeGuard

import torch

if TYPE_CHECKING:
    from torch.distributed.tensor import DTensor

log = logging.getLogger("agentgym_train")


def is_sharded(tensor: torch.Tensor) -> TypeGuard[DTensor]:
    """A DTensor: a parameter (or optimizer state) of which this rank holds a shard."""
    from torch.distributed.tensor import DTensor

    return isinstance(tensor, DTensor)


class ShardedPolicy:
    """The policy's LM (and a full fine-tune's frozen reference copy) under ``fully_shard``: each
    decoder layer is one communication unit and the root holds embeddings, final norm and LM
    head. ``gathered()`` and ``reduce_gradients()`` are the only places ranks communicate."""

    def __init__(self, policy, world_size: int) -> None:
        from torch.distributed.device_mesh import init_device_mesh
        from torch.distributed.fsdp import FSDPModule, MixedPrecisionPolicy, fully_shard

        self.policy = policy
        mesh = init_device_mesh(policy.device.type, (world_size,))
        compute = policy.autocast_dtype  # fp32 masters computed in bf16: gather in bf16
        precision = (
            MixedPrecisionPolicy(param_dtype=compute, reduce_dtype=torch.float32)
            if compute is not None
            else MixedPrecisionPolicy()
        )
        self.roots: list[Any] = []  # transformers LMs (nn.Module's typing hides their API)
        for lm in (policy.model, policy._frozen_reference):
            if lm is None:
                continue
            layers = _decoder_layer_names(lm)
            for module in list(lm.modules()):
                if type(module).__name__ in layers:
                    fully_shard(module, mesh=mesh, mp_policy=precision)
            fully_shard(lm, mesh=mesh, mp_policy=precision)
            self.roots.append(lm)
        #: each LM's FSDP units (the policy's first, then the reference's)
        self.units = [[m for m in lm.modules() if isinstance(m, FSDPModule)] for lm in self.roots]
        with torch.no_grad():  # the first forward decides FSDP's root: make it the whole LM
            for lm in self.roots:
                lm(input_ids=self._one_token())
        self._reshard(self.units)
        held = sum(p.to_local().numel() for p in policy.model.parameters() if is_sharded(p))
        total = sum(p.numel() for p in policy.model.parameters())
        log.info("sharding=fsdp: this rank holds %d of the LM's %d weights", held, total)

    def _one_token(self) -> torch.Tensor:
        return torch.tensor([[self.policy.tokenizer.pad_token_id]], device=self.policy.device)

    @staticmethod
    def _set(lms: list[Any], gathered: bool) -> None:
        for lm in lms:
            lm.set_reshard_after_forward(not gathered)
            lm.set_reshard_after_backward(not gathered)
            lm.set_requires_gradient_sync(not gathered)

    @staticmethod
    def _reshard(units: list[list[Any]]) -> None:
        for unit in (u for lm_units in units for u in lm_units):
            unit.reshard()

    @contextlib.contextmanager
    def gathered(self, reference: bool = True) -> Iterator[None]:
        """Full weights on every rank for the block (the policy's, and the frozen reference's
        when ``reference``), which may run any number of forward and backward passes without
        communicating: gradients accumulate locally until ``reduce_gradients``. Only the
        shards are left afterwards."""
        count = len(self.roots) if reference else 1
        lms, units = self.roots[:count], self.units[:count]
        self._set(lms, gathered=True)
        for unit in (u for lm_units in units for u in lm_units):
            unit.unshard()
        try:
            yield
        finally:
            self._reshard(units)
            self._set(lms, gathered=False)

    def reduce_gradients(self) -> None:
        """Inside ``gathered()``: average the locally accumulated LM gradients over the ranks,
        each rank keeping its shard. A zero-loss pass through the LM gives every trainable
        weight a (zero) gradient on every rank, so FSDP issues the same reduce-scatters
        everywhere, and adds the accumulated gradients in."""
        lm = self.policy.model
        lm.set_requires_gradient_sync(True)
        lm.set_reshard_after_backward(True)
        with self.policy.compute():
            logits = lm(input_ids=self._one_token()).logits
        (logits.float().sum() * 0.0).backward()


def _decoder_layer_names(lm: Any) -> set[str]:
    """Class names of the model's repeated blocks (transformers' ``_no_split_modules``)."""
    base = lm.get_base_model() if hasattr(lm, "get_base_model") else lm
    names = set(getattr(base, "_no_split_modules", None) or [])
    if not names:
        raise ValueError(
            f"sharding=fsdp: {type(base).__name__} names no decoder layer class "
            "(_no_split_modules), so it cannot be split into FSDP units; use sharding=none"
        )
    return names


# ---- full tensors for checkpoints --------------------------------------------------------------
def full_copy(tensor: torch.Tensor, keep: bool) -> torch.Tensor | None:
    """A sharded tensor assembled from every rank (a collective: call it on every rank in the
    same order), on the CPU where ``keep``, else None; other tensors are returned as they are."""
    if not is_sharded(tensor):
        return tensor
    full = tensor.full_tensor()
    return full.cpu() if keep else None


def full_optimizer_state(optimizer: torch.optim.Optimizer, keep: bool) -> dict[str, Any] | None:
    """``optimizer.state_dict()`` with every sharded state tensor made whole (rank 0 keeps it)."""
    state = optimizer.state_dict()
    whole = {
        index: {key: full_copy(value, keep) for key, value in entry.items()}
        for index, entry in sorted(state["state"].items())
    }
    return {"state": whole, "param_groups": state["param_groups"]} if keep else None


def shard_like(full: torch.Tensor, param: torch.Tensor) -> torch.Tensor:
    """This rank's shard of ``full`` laid out as ``param`` (no communication); ``full`` as it
    is when ``param`` is not sharded."""
    if not is_sharded(param):
        return full
    from torch.distributed.tensor import distribute_tensor

    return distribute_tensor(
        full.to(param.device_mesh.device_type), param.device_mesh, param.placements,
        src_data_rank=None,
    )  # fmt: skip


def shard_optimizer_state(state: dict[str, Any], optimizer: torch.optim.Optimizer):
    """A whole-tensor optimizer state dict (``full_optimizer_state`` or an unsharded run's)
    cut to this rank's shards, ready for ``optimizer.load_state_dict``."""
    params = [p for group in optimizer.param_groups for p in group["params"]]
    if not any(is_sharded(p) for p in params):
        return state
    cut = {}
    for index, entry in state["state"].items():
        param = params[int(index)]
        cut[index] = {
            key: shard_like(value, param)
            if torch.is_tensor(value) and value.shape == param.shape
            else value
            for key, value in entry.items()
        }
    return {**state, "state": cut}


def sharded_parameters(params: Iterable[torch.Tensor]) -> tuple[list, list]:
    """``(sharded, replicated)`` split of ``params``."""
    params = list(params)
    return [p for p in params if is_sharded(p)], [p for p in params if not is_sharded(p)]


__all__ = [
    "ShardedPolicy",
    "full_copy",
    "full_optimizer_state",
    "is_sharded",
    "shard_like",
    "shard_optimizer_state",
    "sharded_parameters",
]

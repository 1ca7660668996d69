"""The policy: a causal LM (LoRA or full fine-tune) plus a scalar value head on its last hidden
state, and the batched log-prob / entropy / value computation every algorithm step needs.

The reference policy for the KL term is the same network with its adapters disabled, so LoRA runs
keep one copy of the weights; a full fine-tune with ``kl_coef > 0`` keeps a frozen copy instead.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import inspect
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import torch
from torch import nn
from torch.utils.checkpoint import checkpoint

from agentgym_train.config import PolicyConfig
from agentgym_train.sharding import shard_like

#: A transformers causal LM (a ``PreTrainedModel``, or a ``PeftModel`` around one). Typed as Any:
#: ``nn.Module.__getattr__`` types every attribute as ``Tensor | Module``, which hides its API.
LanguageModel = Any

DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}


class GenerationEngine(Protocol):
    """What ``Policy.generate`` delegates to: the same arguments, the same result (vLLM's is
    ``vllm_engine.VLLMEngine``)."""

    name: str
    version: str

    def generate(
        self,
        prompts: Sequence[Sequence[int]],
        max_new_tokens: int,
        temperature: float,
        top_p: float = 1.0,
    ) -> list[list[int]]: ...


def resolve_dtype(name: str, device: torch.device) -> torch.dtype:
    """The compute dtype ``policy.dtype`` names ('auto': bf16 on CUDA, else fp32)."""
    if name == "auto":
        return torch.bfloat16 if device.type == "cuda" else torch.float32
    return DTYPES[name]


def storage_dtype(config: PolicyConfig, compute: torch.dtype) -> torch.dtype:
    """The dtype the weights are kept in. Weights the optimizer updates stay fp32 (master
    weights) and bf16 is the compute dtype under autocast: AdamW on bf16 weights loses most
    small updates to rounding (one step at lr 1e-5 changed 2% of SmolLM2's weights). Frozen
    base weights under LoRA or k-bit loading are stored in the compute dtype itself."""
    return compute if (config.lora or config.load_in_bits) else torch.float32


def pad_right(seqs: Sequence[Sequence[int]], pad_id: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Right-padded ids and the attention mask (one row per sequence)."""
    width = max(len(s) for s in seqs)
    ids = torch.full((len(seqs), width), pad_id, dtype=torch.long)
    mask = torch.zeros((len(seqs), width), dtype=torch.long)
    for row, seq in enumerate(seqs):
        ids[row, : len(seq)] = torch.as_tensor(list(seq), dtype=torch.long)
        mask[row, : len(seq)] = 1
    return ids, mask


@dataclass
class SequenceStats:
    """Per-sequence results of ``Policy.sequence_stats``: token tensors are flat, split by
    ``lengths``."""

    token_logprobs: torch.Tensor  # (sum of completion lengths,)
    token_entropy: torch.Tensor | None  # same shape, or None when not asked for
    lengths: list[int]  # completion tokens per sequence
    values: torch.Tensor | None  # (sequences,) value at the last prompt token

    def sums(self) -> torch.Tensor:
        """Log-prob of each whole completion."""
        index = torch.repeat_interleave(
            torch.arange(len(self.lengths), device=self.token_logprobs.device),
            torch.as_tensor(self.lengths, device=self.token_logprobs.device),
        )
        out = torch.zeros(len(self.lengths), device=self.token_logprobs.device)
        return out.index_add(0, index, self.token_logprobs.float())


def _computed(method):
    """Run a Policy method inside ``Policy.compute()`` (its mixed-precision context)."""

    @functools.wraps(method)
    def run(self, *args, **kwargs):
        with self.compute():
            return method(self, *args, **kwargs)

    return run


class Policy(nn.Module):
    """LM + value head. ``sequence_stats`` scores completions appended to prompts in one
    forward pass."""

    def __init__(
        self,
        model: LanguageModel,
        tokenizer,
        config: PolicyConfig,
        device: torch.device,
        compute_dtype: torch.dtype | None = None,
    ):
        super().__init__()
        self.model = model
        self.tokenizer = tokenizer
        self.config = config
        self.device = device
        hidden = model.config.get_text_config().hidden_size
        self.value_head = nn.Linear(hidden, 1, device=device, dtype=torch.float32)
        nn.init.zeros_(self.value_head.weight)
        nn.init.zeros_(self.value_head.bias)
        self._frozen_reference: LanguageModel | None = None
        base = model.get_base_model() if hasattr(model, "get_base_model") else model
        params = inspect.signature(type(base).forward).parameters
        #: transformers renamed ``past_key_values`` to ``cache``; use what this version takes
        self._cache_kw = "cache" if "cache" in params else "past_key_values"
        #: every id that ends a completion: the tokenizer's EOS and the model's generation_config
        #: list (Llama-3 ends turns with <|eot_id|> as well as <|end_of_text|>)
        self.eos_token_ids: tuple[int, ...] = eos_token_ids(tokenizer, base)
        weights = next(model.parameters()).dtype
        #: mixed precision: fp32 weights computed in bf16 under autocast (see storage_dtype)
        self.autocast_dtype = (
            compute_dtype
            if compute_dtype not in (None, weights) and weights == torch.float32
            else None
        )

    def compute(self) -> contextlib.AbstractContextManager:
        """The context every forward pass runs in: bf16 autocast over fp32 weights, or none."""
        if self.autocast_dtype is None:
            return contextlib.nullcontext()
        return torch.autocast(self.device.type, dtype=self.autocast_dtype)

    @staticmethod
    def _hidden(lm: LanguageModel, **inputs) -> torch.Tensor:
        """The last layer's (normed) hidden states. The decoder stack runs alone: the LM head is
        applied later to the few positions that need logits, and no other layer's output is
        kept (``output_hidden_states=True`` held every layer's until the end)."""
        base = lm.get_base_model() if hasattr(lm, "get_base_model") else lm
        decoder = base.get_decoder() if hasattr(base, "get_decoder") else None
        if decoder is None or decoder is base:  # no separate decoder: the whole model, as before
            out = lm(**inputs, output_hidden_states=True, logits_to_keep=1)
            return out.hidden_states[-1]
        return decoder(**inputs).last_hidden_state

    def _value(self, hidden: torch.Tensor) -> torch.Tensor:
        with torch.autocast(self.device.type, enabled=False):  # the value head stays fp32
            return self.value_head(hidden.float()).squeeze(-1)

    # ---- construction ------------------------------------------------------------------------
    @classmethod
    def load(
        cls, path: str | Path, config: PolicyConfig, device: torch.device, reference: bool = True
    ) -> Policy:
        """Load the base model from a local directory (never downloads) and attach LoRA."""
        from transformers import AutoModelForCausalLM, AutoTokenizer

        try:
            tokenizer = AutoTokenizer.from_pretrained(str(path), local_files_only=True)
        except OSError as exc:
            raise FileNotFoundError(
                f"no tokenizer/model at {path!r}: give policy.model a local model directory "
                "(or a Hugging Face id already in the local cache), or 'tiny'"
            ) from exc
        if tokenizer.pad_token_id is None:
            tokenizer.pad_token = tokenizer.eos_token
        compute = resolve_dtype(config.dtype, device)
        kwargs = {"dtype": storage_dtype(config, compute), "local_files_only": True}
        if config.attn_implementation != "auto":
            kwargs["attn_implementation"] = config.attn_implementation
        if config.load_in_bits:
            kwargs["quantization_config"] = _bnb_config(config.load_in_bits, device)
            kwargs["device_map"] = {"": device.index or 0}
        model: LanguageModel = AutoModelForCausalLM.from_pretrained(str(path), **kwargs)
        if not config.load_in_bits:
            model.to(device)
        if config.gradient_checkpointing:
            model.gradient_checkpointing_enable()
            model.config.use_cache = False
        if config.lora:
            from peft import LoraConfig, get_peft_model

            targets = config.lora_target_modules
            lora = LoraConfig(
                r=config.lora_r,
                lora_alpha=config.lora_alpha,
                lora_dropout=config.lora_dropout,
                target_modules="all-linear" if targets == ["all-linear"] else list(targets),
                task_type="CAUSAL_LM",
            )
            if config.load_in_bits:  # norms to fp32, inputs requiring grad, as peft advises
                from peft import prepare_model_for_kbit_training

                model = prepare_model_for_kbit_training(
                    model, use_gradient_checkpointing=config.gradient_checkpointing
                )
            elif config.gradient_checkpointing:
                model.enable_input_require_grads()
            with warnings.catch_warnings():  # peft asks a deprecated transformers question
                warnings.simplefilter("ignore", FutureWarning)
                model = get_peft_model(model, lora)
        policy = cls(model, tokenizer, config, device, compute_dtype=compute)
        if reference and not config.lora:
            policy._frozen_reference = copy.deepcopy(model).requires_grad_(False).eval()
        return policy

    # ---- parameters and state ----------------------------------------------------------------
    def trainable_state(self, copy: bool = True) -> dict[str, torch.Tensor]:
        """Every trainable tensor by name (LoRA weights or the whole LM, plus the value head):
        a snapshot, or with ``copy=False`` the live tensors (to save or fingerprint them without
        a second copy of a full fine-tune's weights in device memory)."""
        return {
            name: p.detach().clone() if copy else p.detach()
            for name, p in self.named_parameters()
            if p.requires_grad
        }

    def load_trainable_state(self, state: dict[str, torch.Tensor]) -> None:
        params = dict(self.named_parameters())
        missing = [n for n, p in params.items() if p.requires_grad and n not in state]
        unknown = [n for n in state if n not in params]
        if missing or unknown:
            raise ValueError(
                f"checkpoint does not match this policy (missing {missing[:3]}, unknown "
                f"{unknown[:3]}); was it written with the same policy.* settings?"
            )
        with torch.no_grad():
            for name, tensor in state.items():
                param = params[name]
                param.copy_(shard_like(tensor.to(param.device), param))  # (a shard if sharded)

    @property
    def has_reference(self) -> bool:
        return bool(self.config.lora) or self._frozen_reference is not None

    @contextlib.contextmanager
    def reference(self) -> Iterator[LanguageModel]:
        """The reference LM: adapters disabled (LoRA) or the frozen copy (full fine-tune)."""
        if self.config.lora:
            with self.model.disable_adapter():
                yield self.model
        elif self._frozen_reference is not None:
            yield self._frozen_reference
        else:
            raise RuntimeError("no reference model: set algorithm.kl_coef=0 or policy.lora=true")

    # ---- the computation ---------------------------------------------------------------------
    @_computed
    def sequence_stats(
        self,
        prompts: Sequence[Sequence[int]],
        completions: Sequence[Sequence[int]],
        temperature: float = 1.0,
        values: bool = True,
        entropy: bool = False,
        lm: LanguageModel | None = None,
    ) -> SequenceStats:
        """Log-probs of ``completions[i]`` after ``prompts[i]``, entropies, and the value of each
        prompt (read at its last token). One forward pass over right-padded rows; logits only at
        completion positions, so large vocabularies stay affordable."""
        from trl.trainer.utils import entropy_from_logits, selective_log_softmax

        lm = lm if lm is not None else self.model
        seqs = [list(p) + list(c) for p, c in zip(prompts, completions, strict=True)]
        ids, mask = pad_right(seqs, self.tokenizer.pad_token_id)
        ids, mask = ids.to(self.device), mask.to(self.device)
        hidden = self._hidden(lm, input_ids=ids, attention_mask=mask)
        starts = torch.as_tensor([len(p) for p in prompts], device=self.device)
        lengths = [len(c) for c in completions]
        positions = torch.arange(ids.shape[1], device=self.device)
        # position t predicts token t+1: completion tokens start at index len(prompt)
        ends = starts + torch.as_tensor(lengths, device=self.device) - 1
        predicts = (positions[None, :] >= (starts[:, None] - 1)) & (
            positions[None, :] < ends[:, None]
        )
        targets = torch.roll(ids, shifts=-1, dims=1)[predicts]
        logits = lm.get_output_embeddings()(hidden[predicts]).float()
        if temperature > 0 and temperature != 1.0:
            logits = logits / temperature
        token_logprobs = selective_log_softmax(logits, targets)
        token_entropy = entropy_from_logits(logits) if entropy else None
        value = None
        if values:
            last_prompt = hidden[torch.arange(len(seqs), device=self.device), starts - 1]
            value = self._value(last_prompt)
        return SequenceStats(token_logprobs, token_entropy, lengths, value)

    @_computed
    def score_candidates(
        self,
        prompts: Sequence[Sequence[int]],
        candidates: Sequence[Sequence[Sequence[int]]],
        values: bool = True,
        lm: LanguageModel | None = None,
    ) -> SequenceStats:
        """Log-probs of every candidate continuation of every prompt, running each prompt once.

        With ``policy.score_packing`` (eager or SDPA attention) a prompt and its candidates are
        one row under a mask that keeps the candidates apart (``_score_packed``). Otherwise the
        prompts go through the LM once with a KV cache; each candidate row then runs on top of
        a copy of its prompt's cache rows, so K admissible actions cost one prompt pass instead
        of K. Gradients flow through the cache. With gradients and ``policy.score_chunk_size``
        N > 0, candidates run N rows at a time under activation checkpointing, so backward never
        holds more than one chunk's copies of the prompt cache. Results are per candidate row,
        in order (prompt 0's candidates first); ``values`` are per prompt.
        """
        from transformers import DynamicCache

        lm = lm if lm is not None else self.model
        if self.config.score_packing and packing_is_supported(lm):
            return self._score_packed(prompts, candidates, values, lm)
        if cache_is_dropped(lm):
            return self._score_full_sequences(prompts, candidates, values, lm)
        device = self.device
        p_ids, p_mask = pad_right(prompts, self.tokenizer.pad_token_id)
        p_ids, p_mask = p_ids.to(device), p_mask.to(device)
        cache = DynamicCache(config=lm.config)
        prompt_hidden = self._hidden(
            lm, input_ids=p_ids, attention_mask=p_mask, use_cache=True, **{self._cache_kw: cache}
        )
        if cache.get_seq_length() != p_ids.shape[1]:  # never score candidates without context
            raise RuntimeError("the prompt pass left the KV cache empty; candidates would be "
                               "scored without their prompt")  # fmt: skip
        p_len = p_mask.sum(dim=1)
        last, first, flat, owner = self._first_tokens(lm, prompt_hidden, p_len, candidates)
        lengths = [len(c) for c in flat]
        layers: list[Any] = list(cache.layers)  # full attention: every layer has keys, values
        kv = [tensor for layer in layers for tensor in (layer.keys, layer.values)]
        chunk = self.config.score_chunk_size if torch.is_grad_enabled() else 0
        chunk = chunk if chunk > 0 else len(flat)
        rest = []
        for start in range(0, len(flat), chunk):
            rows = slice(start, start + chunk)
            args = (lm, flat[rows], owner[rows], p_mask, p_len, *kv)
            if chunk < len(flat):
                rest.append(checkpoint(self._continuations, *args, use_reentrant=False))
            else:
                rest.append(self._continuations(*args))
        value = self._value(last) if values else None
        return SequenceStats(_in_token_order(first, torch.cat(rest), lengths), None, lengths, value)

    def _first_tokens(
        self,
        lm: LanguageModel,
        hidden: torch.Tensor,
        p_len: torch.Tensor,
        candidates: Sequence[Sequence[Sequence[int]]],
    ) -> tuple[torch.Tensor, torch.Tensor, list[list[int]], torch.Tensor]:
        """What the prompts' last hidden states give every candidate row: those states (P, H),
        each row's first-token log-prob (R,), the rows flattened, and each row's prompt (R,)."""
        device = self.device
        last = hidden[torch.arange(len(candidates), device=device), p_len - 1]
        first_logp = torch.log_softmax(lm.get_output_embeddings()(last).float(), dim=-1)
        flat = [list(c) for group in candidates for c in group]
        owner = torch.as_tensor(
            [i for i, group in enumerate(candidates) for _ in group], device=device
        )
        first = first_logp[owner, torch.as_tensor([c[0] for c in flat], device=device)]
        return last, first, flat, owner

    def _score_packed(
        self,
        prompts: Sequence[Sequence[int]],
        candidates: Sequence[Sequence[Sequence[int]]],
        values: bool,
        lm: LanguageModel,
    ) -> SequenceStats:
        """``score_candidates`` as one row per prompt: the prompt, then its candidates one
        after another, under an attention mask that lets each candidate see the prompt and its
        own earlier tokens only, with each candidate's positions continuing the prompt's. Every
        token is computed once: no copies of the prompt's KV cache per candidate (which cost
        more than the model itself on short candidates), and nothing that gradient
        checkpointing would drop."""
        device = self.device
        ids, positions, segments = [], [], []  # segment 0: the prompt; k: its k-th candidate
        for prompt, group in zip(prompts, candidates, strict=True):
            row, pos, seg = list(prompt), list(range(len(prompt))), [0] * len(prompt)
            for k, candidate in enumerate(group, start=1):
                row += candidate
                pos += range(len(prompt), len(prompt) + len(candidate))
                seg += [k] * len(candidate)
            ids.append(row)
            positions.append(pos)
            segments.append(seg)
        ids_t = pad_right(ids, self.tokenizer.pad_token_id)[0].to(device)
        pos_t = pad_right(positions, 0)[0].to(device)
        seg_t = pad_right(segments, -1)[0].to(device)  # -1: padding
        width = ids_t.shape[1]
        index = torch.arange(width, device=device)
        earlier = index[None, :, None] >= index[None, None, :]  # (1, query, key)
        seg_q, seg_k = seg_t[:, :, None], seg_t[:, None, :]
        sees = earlier & (seg_k >= 0) & ((seg_k == 0) | (seg_k == seg_q))
        sees |= torch.eye(width, dtype=torch.bool, device=device)  # padding sees itself
        mask = sees[:, None]  # (rows, 1, query, key): True where a query may attend
        if lm.config._attn_implementation == "eager":  # eager adds the mask to its scores
            mask = torch.zeros(mask.shape, device=device).masked_fill(
                ~mask, torch.finfo(torch.float32).min
            )
        hidden = self._hidden(
            lm, input_ids=ids_t, attention_mask=mask, position_ids=pos_t, use_cache=False
        )
        p_len = torch.as_tensor([len(p) for p in prompts], device=device)
        last, first, flat, owner = self._first_tokens(lm, hidden, p_len, candidates)
        lengths = [len(c) for c in flat]
        # candidate token j (at row position start + j) predicts its token j + 1
        rows: list[int] = []
        cols: list[int] = []
        targets: list[int] = []
        start = {i: len(p) for i, p in enumerate(prompts)}
        for i, candidate in zip(owner.tolist(), flat, strict=True):
            rows += [i] * (len(candidate) - 1)
            cols += range(start[i], start[i] + len(candidate) - 1)
            targets += candidate[1:]
            start[i] += len(candidate)

        def longs(values: list[int]) -> torch.Tensor:  # (an empty list too: one-token actions)
            return torch.as_tensor(values, dtype=torch.long, device=device)

        picked = lm.get_output_embeddings()(hidden[longs(rows), longs(cols)]).float()
        rest = selective_log_softmax_(picked, longs(targets))
        value = self._value(last) if values else None
        return SequenceStats(_in_token_order(first, rest, lengths), None, lengths, value)

    def _continuations(
        self,
        lm: LanguageModel,
        rows: list[list[int]],
        owner: torch.Tensor,
        p_mask: torch.Tensor,
        p_len: torch.Tensor,
        *kv: torch.Tensor,
    ) -> torch.Tensor:
        """Log-probs of tokens 2.. of candidate ``rows`` (row i continues prompt ``owner[i]``;
        ``kv`` is the prompt cache as keys, values per layer), flattened in row order."""
        from transformers import DynamicCache

        pairs = [(kv[i][owner], kv[i + 1][owner]) for i in range(0, len(kv), 2)]
        cache = DynamicCache(pairs, config=lm.config)
        c_ids, c_mask = pad_right(rows, self.tokenizer.pad_token_id)
        c_ids, c_mask = c_ids.to(self.device), c_mask.to(self.device)
        steps = torch.arange(c_ids.shape[1], device=self.device)
        hidden = self._hidden(
            lm,
            input_ids=c_ids,
            attention_mask=torch.cat([p_mask[owner], c_mask], dim=1),
            position_ids=p_len[owner][:, None] + steps[None, :],
            use_cache=True,
            **{self._cache_kw: cache},
        )
        # candidate position j predicts candidate token j+1
        predicts = c_mask.bool().clone()
        predicts[torch.arange(len(rows), device=self.device), c_mask.sum(dim=1) - 1] = False
        targets = torch.roll(c_ids, shifts=-1, dims=1)[predicts]
        return selective_log_softmax_(lm.get_output_embeddings()(hidden[predicts]).float(), targets)

    def _score_full_sequences(
        self,
        prompts: Sequence[Sequence[int]],
        candidates: Sequence[Sequence[Sequence[int]]],
        values: bool,
        lm: LanguageModel,
    ) -> SequenceStats:
        """``score_candidates`` without the shared KV cache: every candidate with its prompt in
        full (what gradient checkpointing needs; K prompt passes instead of one)."""
        rows = [(prompt, list(c)) for prompt, group in zip(prompts, candidates, strict=True)
                for c in group]  # fmt: skip
        stats = self.sequence_stats([p for p, _ in rows], [c for _, c in rows], values=values,
                                    lm=lm)  # fmt: skip
        value = None
        if values:  # the value is read at the prompt's last token: any of its rows will do
            firsts = torch.cumsum(torch.as_tensor([0] + [len(g) for g in candidates[:-1]]), 0)
            value = stats.values[firsts.to(stats.values.device)]
        return SequenceStats(stats.token_logprobs, None, stats.lengths, value)

    #: where ``generate`` runs when set: another engine with the same inputs and outputs (vLLM,
    #: ``agentgym_train.vllm_engine``); None: transformers ``generate`` on ``self.model``
    engine: GenerationEngine | None = None

    @torch.no_grad()
    @_computed
    def generate(
        self, prompts: Sequence[Sequence[int]], max_new_tokens: int, temperature: float, top_p=1.0
    ) -> list[list[int]]:
        """Sample a completion per prompt (left-padded batch); each ends at an EOS id or the
        budget. Sampling is from softmax(logits / temperature) (nucleus-cut when ``top_p`` < 1)
        and nothing else: the checkpoint's own ``generation_config`` (repetition penalty,
        top-k, min_new_tokens, suppressed tokens...) is set aside, so the tokens come from the
        distribution ``sequence_stats`` records as the behaviour policy. With ``self.engine`` set,
        that engine generates instead (same prompts in, same completion ids out)."""
        if self.engine is not None:
            return self.engine.generate(prompts, max_new_tokens, temperature, top_p)
        from transformers import GenerationConfig

        tok = self.tokenizer
        width = max(len(p) for p in prompts)
        ids = torch.full((len(prompts), width), tok.pad_token_id, dtype=torch.long)
        mask = torch.zeros_like(ids)
        for row, prompt in enumerate(prompts):
            ids[row, width - len(prompt) :] = torch.as_tensor(list(prompt))
            mask[row, width - len(prompt) :] = 1
        sample = temperature > 0
        settings = GenerationConfig(
            max_new_tokens=max_new_tokens,
            do_sample=sample,
            temperature=temperature if sample else None,
            top_p=top_p if sample else None,
            top_k=0,  # off (unset, transformers would fill in its global default, 50)
            pad_token_id=tok.pad_token_id,
            eos_token_id=list(self.eos_token_ids),
        )
        base = self.model.get_base_model() if hasattr(self.model, "get_base_model") else self.model
        own, base.generation_config = base.generation_config, GenerationConfig()
        try:  # generate fills unset fields from the model's config: give it a blank one
            out = self.model.generate(
                input_ids=ids.to(self.device),
                attention_mask=mask.to(self.device),
                generation_config=settings,
            )
        finally:
            base.generation_config = own
        completions = []
        for row in out[:, width:].tolist():
            end = next((i for i, t in enumerate(row) if t in self.eos_token_ids), None)
            completions.append(row if end is None else row[: end + 1])
        return completions


def eos_token_ids(tokenizer, model: LanguageModel) -> tuple[int, ...]:
    """The tokenizer's EOS id first, then any other the model's generation_config names."""
    ids = [tokenizer.eos_token_id]
    configured = getattr(getattr(model, "generation_config", None), "eos_token_id", None)
    ids += configured if isinstance(configured, list) else [configured]
    return tuple(dict.fromkeys(i for i in ids if i is not None))


def _in_token_order(first: torch.Tensor, rest: torch.Tensor, lengths: list[int]) -> torch.Tensor:
    """Candidates' token log-probs, flattened in order, from their first tokens' (``first``,
    one per candidate) and the others' (``rest``, in order)."""
    starts = torch.cumsum(torch.as_tensor([0, *lengths[:-1]], device=first.device), dim=0)
    is_first = torch.zeros(sum(lengths), dtype=torch.bool, device=first.device)
    is_first[starts] = True
    token_logprobs = torch.empty(sum(lengths), device=first.device, dtype=torch.float32)
    return token_logprobs.masked_scatter(is_first, first).masked_scatter(~is_first, rest)


def packing_is_supported(lm: LanguageModel) -> bool:
    """Whether ``lm``'s attention takes a custom 4D mask (eager and SDPA do; flash attention
    knows only padding masks)."""
    return getattr(lm.config, "_attn_implementation", None) in ("eager", "sdpa")


def cache_is_dropped(lm: LanguageModel) -> bool:
    """True when a forward pass of ``lm`` would ignore ``use_cache``: transformers turns the KV
    cache off in every checkpointed layer while training with gradients (modeling_layers.py)."""
    # transformers 5.2x renamed is_gradient_checkpointing (now deprecated, with a warning)
    new_name = hasattr(lm, "is_activation_checkpointing")
    flag = "is_activation_checkpointing" if new_name else "is_gradient_checkpointing"
    return bool(getattr(lm, flag, False)) and lm.training and torch.is_grad_enabled()


def _bnb_config(bits: int, device: torch.device):
    if device.type != "cuda":
        raise ValueError("policy.load_in_bits needs CUDA (bitsandbytes); set it to 0 on CPU")
    from transformers import BitsAndBytesConfig

    if bits == 4:
        return BitsAndBytesConfig(
            load_in_4bit=True, bnb_4bit_compute_dtype=torch.bfloat16, bnb_4bit_quant_type="nf4"
        )
    return BitsAndBytesConfig(load_in_8bit=True)


def selective_log_softmax_(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    """TRL's memory-lean log-softmax at ``targets``; no rows (every candidate one token long)
    gives no log-probs (TRL's would fail on the empty batch)."""
    from trl.trainer.utils import selective_log_softmax

    if logits.shape[0] == 0:
        return logits.new_zeros((0,))
    return selective_log_softmax(logits, targets)


# ---- score mode: an action is a choice among scored candidates --------------------------------
def candidate_scores(sums: torch.Tensor, lengths: Sequence[int], reduction: str) -> torch.Tensor:
    """Score of each candidate action: its summed or mean token log-prob."""
    if reduction == "mean":
        return sums / torch.as_tensor(lengths, dtype=sums.dtype, device=sums.device)
    return sums


def choice_logprobs(scores: torch.Tensor, temperature: float) -> torch.Tensor:
    """Log-probabilities of choosing each action: log-softmax of scores / temperature."""
    return torch.log_softmax(scores.float() / (temperature if temperature > 0 else 1.0), dim=-1)


__all__ = [
    "GenerationEngine",
    "Policy",
    "SequenceStats",
    "candidate_scores",
    "choice_logprobs",
    "pad_right",
    "resolve_dtype",
]

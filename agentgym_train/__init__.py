"""AgentGym's trainer: multi-turn PPO (value head + GAE) and GRPO with LoRA for Hugging Face
causal LMs on any AgentGym env, with behaviour-cloning warm start, curriculum, evaluation,
rollback, exact-resume checkpoints and TensorBoard logs. Needs the ``train`` extra.

Entry points: ``agentgym-train`` (``agentgym_train.cli:main``) and ``Trainer(load_config(...))``;
``agentgym_train.play`` plays a trained policy elsewhere (the benchmarks' one way in).
"""

__all__ = ["__version__"]
__version__ = "0.1.0"

"""Registers the ``AgentGym/...`` ids the moment Gymnasium is imported, so that
``gymnasium.make("AgentGym/WebShop-v0")`` works in any script with no ``import agentgym_envs``.

Gymnasium 1.0 removed the ``gymnasium.envs`` entry-point plugins that gym 0.2x loaded, so an
installed package cannot register itself through metadata any more. Instead the wheel ships
``agentgym-autoregister.pth``, which imports this module at interpreter start. It imports
nothing itself (interpreter start stays as fast as before): it leaves one finder on
``sys.meta_path`` that waits for ``gymnasium`` to be imported and then imports
``agentgym_envs``, whose import registers the ids (cheaply: no env module is loaded).
A failure there is a warning, never a broken ``import gymnasium``.
"""

import sys


def _register_agentgym_envs() -> None:
    if "agentgym_envs" in sys.modules:  # being imported (it imports gymnasium) or done already
        return
    try:
        import agentgym_envs  # noqa: F401 - its import registers every id
    except Exception as error:  # a broken install must not break `import gymnasium`
        import warnings

        warnings.warn(
            f"AgentGym envs were not registered with Gymnasium ({error!r}); "
            "`import agentgym_envs` shows the full error",
            stacklevel=2,
        )


class _AfterGymnasiumImport:
    """A one-shot meta path finder: lets the normal finders locate ``gymnasium`` and runs
    :func:`_register_agentgym_envs` right after the package has executed."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "gymnasium":
            return None
        sys.meta_path.remove(self)
        from importlib.util import find_spec

        spec = find_spec(fullname)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        run_module = spec.loader.exec_module

        def exec_module(module):
            run_module(module)
            _register_agentgym_envs()

        spec.loader.exec_module = exec_module
        return spec


def install() -> None:
    """Put the finder in place (idempotent; nothing to do if Gymnasium is already imported)."""
    if "gymnasium" in sys.modules:
        _register_agentgym_envs()
    elif not any(isinstance(f, _AfterGymnasiumImport) for f in sys.meta_path):
        sys.meta_path.insert(0, _AfterGymnasiumImport())

"""No two files import each other, directly or round a longer circle (imports inside functions
and under ``TYPE_CHECKING`` count): a circle means neither file can be understood, tested or
moved without the other."""

import pytest

grimp = pytest.importorskip("grimp", reason="comes with import-linter (the test extra)")

PACKAGES = ("agentgym_envs", "agentgym_train", "agentgym_bench", "agentgym_trl", "agentgym_sb3",
            "agentgym_ray", "agentgym_serve")  # fmt: skip


def _within(module: str, other: str) -> bool:
    """A package and its own modules (``__init__`` re-exports) are one place, not a circle."""
    return other.startswith(module + ".") or module.startswith(other + ".")


def test_no_file_circles():
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    circles = set()
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            if imported.split(".")[0] not in PACKAGES or _within(module, imported):
                continue
            if graph.chain_exists(importer=imported, imported=module):
                chain = graph.find_shortest_chain(importer=imported, imported=module) or ()
                circles.add(" -> ".join((module, *chain)))
    assert not circles, "import circles:\n" + "\n".join(sorted(circles))

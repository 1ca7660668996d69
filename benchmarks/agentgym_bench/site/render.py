"""Write the board from its tables: PNG plots, README.md and a self-contained index.html, each
submitted string escaped for where it goes; ``build_site`` runs load, tables and render."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from agentgym_bench.site.load import Submission, load_submissions
from agentgym_bench.site.tables import (
    NO_RULES,
    RULE_COLUMN,
    TEXT_COLUMNS,
    Table,
    _cells,
    _columns,
    _ordered,
    _rank_split,
    efficiency_lines,
    provenance_text,
    rule_meanings,
    slug,
    tables,
    verified_text,
)
from agentgym_envs.core.splits import HELD_OUT

PLOT_PREFIXES = ("success_by_difficulty-", "generalization_gap-")
DPI = 100
TITLE = "AgentGym leaderboard"
HOW_MADE = (
    "Built from the submissions in `submissions/`: every row passed the verifier (the suite's "
    "protocol, and every episode replayed but those of real-time tasks, which cannot replay "
    "exactly and are counted in the notes); rows marked *reproduced (n of N)* had n episodes "
    "played again by the verifier with the agent itself. See the README's section on the "
    "leaderboard for what each proves."
)
RULES_LEGEND = (
    "Rule violations: the share of the agent's episodes in the table (all its splits) that broke "
    f"any of the env's rules, with its 95% CI; {NO_RULES} where no rule applies to the env."
)

EFFICIENCY_TITLE = (
    "Path efficiency (oracle steps / agent steps, over the episodes both solved; 1.00 is as "
    "short as the oracle)"
)


def plot_paths(env_id: str) -> dict[str, str]:
    """Plot file names (relative to the site folder) for ``env_id``."""
    env = slug(env_id)
    return {
        "success_by_difficulty": f"plots/success_by_difficulty-{env}.png",
        "generalization_gap": f"plots/generalization_gap-{env}.png",
    }


def _save(figure: Figure, path: Path) -> Path:
    """Write ``figure``, its legends (outside the axes) included whole."""
    FigureCanvasAgg(figure)
    figure.savefig(path, dpi=DPI, format="png", bbox_inches="tight")
    return path


def _legend_name(sub: Submission) -> str:
    """A row's name in a plot's legend: its label and suite (a plot has no suite column, and one
    agent often has rows on several suites)."""
    return plain(f"{sub.label} · {sub.suite}")


def _legend_outside(axes: Any, handles: Sequence[Any] | None = None, title: str | None = None
                    ) -> None:  # fmt: skip
    """A legend right of the axes, so no number of rows covers the data."""
    kwargs: dict[str, Any] = {"handles": handles} if handles is not None else {}
    axes.legend(**kwargs, title=title, fontsize="small", title_fontsize="small",
                loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)  # fmt: skip


def plot_success_by_difficulty(env_id: str, env_tables: Sequence[Table], path: Path) -> Path:
    """Grouped bars: test success (%) per difficulty, one bar per agent, with 95% CI whiskers."""
    difficulties = [t.difficulty for t in env_tables]
    agents = _agents(env_tables)
    figure = Figure(figsize=(6.4, 3.6))
    axes = figure.add_subplot()
    width = 0.8 / max(len(agents), 1)
    for i, sub in enumerate(agents):
        xs, heights, low, high = [], [], [], []
        for x, difficulty in enumerate(difficulties):
            row = sub.rows.get((env_id, difficulty, "test"))
            if row is None:
                continue
            rate = 100 * row["success_rate"]
            ci = row.get("success_ci") or [row["success_rate"]] * 2
            xs.append(x - 0.4 + width * (i + 0.5))
            heights.append(rate)
            low.append(max(rate - 100 * ci[0], 0.0))
            high.append(max(100 * ci[1] - rate, 0.0))
        axes.bar(xs, heights, width, yerr=[low, high], capsize=3, label=_legend_name(sub))
    axes.set_xticks(range(len(difficulties)), [plain(d) for d in difficulties])
    axes.set_ylim(0, 105)
    axes.set_xlabel("difficulty")
    axes.set_ylabel("test success (%)")
    axes.set_title(plain(f"{env_id}: test success by difficulty"))
    _legend_outside(axes)
    axes.grid(axis="y", alpha=0.3)
    return _save(figure, path)


def plot_generalization_gap(env_id: str, env_tables: Sequence[Table], path: Path) -> Path:
    """Success on test -> ood -> adversarial: a colour per row and a line style per difficulty,
    one legend naming both (an entry per row x difficulty would outgrow the figure)."""
    from matplotlib.lines import Line2D

    splits = _ordered({s for t in env_tables for s in t.splits} & set(HELD_OUT), HELD_OUT)
    figure = Figure(figsize=(6.4, 3.6))
    axes = figure.add_subplot()
    # a difficulty's line style, for its lines and its legend entry
    looks: list[dict[str, Any]] = [
        {"linestyle": ("-", "--", ":", "-.")[d % 4], "marker": ("o", "s", "^", "D")[d % 4]}
        for d in range(len(env_tables))
    ]
    agents = _agents(env_tables)
    colors = {sub.submission_id: f"C{i}" for i, sub in enumerate(agents)}  # C10 is C0 again
    for look, table in zip(looks, env_tables, strict=True):
        for sub in table.entries:
            points = [
                (x, 100 * row["success_rate"])
                for x, split in enumerate(splits)
                if (row := sub.rows.get((env_id, table.difficulty, split))) is not None
            ]
            if not points:
                continue
            axes.plot(
                [p[0] for p in points],
                [p[1] for p in points],
                color=colors[sub.submission_id],
                **look,
            )
    axes.set_xticks(range(len(splits)), splits)
    axes.set_ylim(0, 105)
    axes.set_xlabel("split")
    axes.set_ylabel("success (%)")
    axes.set_title(plain(f"{env_id}: generalization gap"))
    rows = [Line2D([], [], color=colors[sub.submission_id], label=_legend_name(sub))
            for sub in agents]  # fmt: skip
    kinds = [Line2D([], [], color="black", label=plain(table.difficulty), **look)
             for look, table in zip(looks, env_tables, strict=True)]  # fmt: skip
    _legend_outside(axes, rows + kinds, "colour: row · line: difficulty")
    axes.grid(alpha=0.3)
    return _save(figure, path)


def _agents(env_tables: Sequence[Table]) -> list[Submission]:
    seen: dict[str, Submission] = {}
    for table in env_tables:
        for sub in table.entries:
            seen.setdefault(sub.submission_id, sub)
    return sorted(seen.values(), key=lambda s: s.note)


def plain(text: str) -> str:
    """``text`` as matplotlib draws it literally: no mathtext (``$`` escaped), one line, and
    not hidden from the legend (a label starting with ``_`` is)."""
    text = " ".join(str(text).split()).replace("$", r"\$")
    return " " + text if text.startswith("_") else text


_MARKDOWN = re.compile(r"([\\`*_\[\]|~])")


def _md_escape(text: str) -> str:
    """``text`` as literal Markdown on one line: no emphasis, code, links, tables or HTML."""
    one_line = " ".join(str(text).split())
    return html.escape(_MARKDOWN.sub(r"\\\1", one_line), quote=False)


#: figures as tables.py writes them ("80.0% [65.0–95.0]", "3 of 60"): nothing to escape
_FIGURES = re.compile(r"[A-Za-z0-9 .%\[\]–-]*")


def _md_cell(text: str) -> str:
    """A computed cell: kept as written when it is only figures, else escaped."""
    return text if _FIGURES.fullmatch(text) else _md_escape(text)


def render_markdown(by_env: dict[str, list[Table]], submissions: Sequence[Submission]) -> str:
    """The README: title, how it is made, per env the tables and plot links, then provenance."""
    lines = [f"# {TITLE}", "", HOW_MADE, ""]
    if not submissions:
        lines += ["No verified submissions yet.", ""]
    for env_id, env_tables in by_env.items():
        lines += [f"## {env_id}", ""]
        for table in env_tables:
            columns = _columns(table)
            lines += [f"### {table.difficulty}", ""]
            lines.append("| " + " | ".join(columns) + " |")
            texts = len(TEXT_COLUMNS)
            lines.append("|" + "|".join(["---"] * texts + ["--:"] * (len(columns) - texts)) + "|")
            for sub in table.entries:
                cells = [f"{_md_escape(sub.label)} [^{sub.note}]", _md_escape(sub.suite),
                         verified_text(sub)]  # fmt: skip
                cells += [_md_cell(cell.text) for cell in _cells(table, sub)]
                lines.append("| " + " | ".join(cells) + " |")
            lines.append("")
        efficiency = efficiency_lines(env_id, submissions)
        if efficiency:
            lines += [EFFICIENCY_TITLE + ": " + "; ".join(map(_md_escape, efficiency)) + ".", ""]
        meanings = rule_meanings(env_tables)
        if meanings:
            listed = "; ".join(f"`{n}`: {_md_escape(m)}" for n, m in meanings)
            lines += [f"Rules behind the {RULE_COLUMN} column: {listed}.", ""]
        plots = plot_paths(env_id)
        lines.append(
            f"Plots: [test success by difficulty]({plots['success_by_difficulty']}) · "
            f"[generalization gap (test → ood → adversarial)]({plots['generalization_gap']})"
        )
        lines += [""]
    if submissions:
        lines += [
            "Success is % with its 95% CI in brackets; score is the mean episode score. "
            + RULES_LEGEND,
            "",
        ]
        lines += [f"[^{sub.note}]: {_md_escape(provenance_text(sub))}" for sub in submissions]
        lines.append("")
    return "\n".join(lines)


CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem auto;
       max-width: 70rem; padding: 0 1rem; color: #1f2328; line-height: 1.45; }
h1 { margin-bottom: .25rem; } h2 { margin-top: 2.5rem; border-bottom: 1px solid #d0d7de; }
table { border-collapse: collapse; margin: .5rem 0 1.5rem; font-size: .92rem; }
th, td { border: 1px solid #d0d7de; padding: .3rem .6rem; text-align: right; white-space: nowrap; }
th:nth-child(-n+3), td:nth-child(-n+3) { text-align: left; }
th { background: #f6f8fa; cursor: pointer; user-select: none; }
th:hover { background: #eaeef2; }
th[aria-sort="ascending"]::after { content: " ▲"; }
th[aria-sort="descending"]::after { content: " ▼"; }
tbody tr:nth-child(even) { background: #fafbfc; }
img { max-width: 100%; border: 1px solid #d0d7de; margin: .25rem .5rem .25rem 0; }
.plots { display: flex; flex-wrap: wrap; }
.note, footer { color: #57606a; font-size: .9rem; }
a { color: #0969da; }
"""

# Click a header: numbers sort descending first, text ascending; a second click reverses.
# Empty cells ("—", no data-sort) always go last.
JS = """
document.querySelectorAll("table.board th").forEach(function (th) {
  th.addEventListener("click", function () {
    var table = th.closest("table"), body = table.tBodies[0], col = th.cellIndex;
    var numeric = th.dataset.type === "num", cur = th.getAttribute("aria-sort");
    var dir = cur ? (cur === "ascending" ? "descending" : "ascending")
                  : (numeric ? "descending" : "ascending");
    table.querySelectorAll("th").forEach(function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", dir);
    var sign = dir === "ascending" ? 1 : -1;
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = a.cells[col], y = b.cells[col];
      if (numeric) {
        var u = x.dataset.sort, v = y.dataset.sort;
        if (u === undefined || v === undefined) {
          return (u === undefined) - (v === undefined);
        }
        return sign * (parseFloat(u) - parseFloat(v));
      }
      return sign * x.textContent.localeCompare(y.textContent);
    });
    rows.forEach(function (r) { body.appendChild(r); });
  });
});
"""


def render_html(by_env: dict[str, list[Table]], submissions: Sequence[Submission]) -> str:
    """The static page: sortable tables, the plots as relative <img>, provenance footnotes."""
    e = html.escape
    out = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{e(TITLE)}</title>",
        f"<style>{CSS}</style>",
        "</head>",
        "<body>",
        f"<h1>{e(TITLE)}</h1>",
        f'<p class="note">{e(HOW_MADE.replace("`", ""))} Click a column header to sort.</p>',
    ]
    if not submissions:
        out.append("<p>No verified submissions yet.</p>")
    for env_id, env_tables in by_env.items():
        out.append(f'<section id="env-{e(slug(env_id))}">')
        out.append(f"<h2>{e(env_id)}</h2>")
        for table in env_tables:
            out.append(f"<h3>{e(table.difficulty)}</h3>")
            out.append(f'<table class="board" id="{e(table.anchor)}">')
            heads = []
            for index, column in enumerate(_columns(table)):
                kind = "text" if index < len(TEXT_COLUMNS) else "num"
                current = ""
                if table.splits and column == f"{_rank_split(table)} success":
                    current = ' aria-sort="descending"'
                if column == RULE_COLUMN:
                    current += f' title="{e(RULES_LEGEND)}"'
                heads.append(f'<th scope="col" data-type="{kind}"{current}>{e(column)}</th>')
            out.append("<thead><tr>" + "".join(heads) + "</tr></thead>")
            out.append("<tbody>")
            for sub in table.entries:
                cells = [
                    f'<td><a href="#prov-{sub.note}">{e(sub.label)}</a></td>',
                    f"<td>{e(sub.suite)}</td>",
                    f"<td>{e(verified_text(sub))}</td>",
                ]
                for cell in _cells(table, sub):
                    attr = "" if cell.value is None else f' data-sort="{cell.value!r}"'
                    if cell.title:
                        attr += f' title="{e(cell.title)}"'
                    cells.append(f"<td{attr}>{e(cell.text)}</td>")
                out.append("<tr>" + "".join(cells) + "</tr>")
            out.append("</tbody></table>")
        efficiency = efficiency_lines(env_id, submissions)
        if efficiency:
            out.append(f'<p class="note">{e(EFFICIENCY_TITLE)}: {e("; ".join(efficiency))}.</p>')
        meanings = rule_meanings(env_tables)
        if meanings:
            listed = "; ".join(f"<code>{e(n)}</code>: {e(m)}" for n, m in meanings)
            out.append(f'<p class="note">Rules behind the {e(RULE_COLUMN)} column: {listed}.</p>')
        plots = plot_paths(env_id)
        out.append('<div class="plots">')
        out.append(
            f'<img src="{e(plots["success_by_difficulty"])}" '
            f'alt="{e(env_id)}: test success by difficulty" width="640" height="360">'
        )
        out.append(
            f'<img src="{e(plots["generalization_gap"])}" '
            f'alt="{e(env_id)}: generalization gap" width="640" height="360">'
        )
        out.append("</div></section>")
    if submissions:
        out.append("<footer><h2>Provenance</h2>")
        out.append(
            "<p>Success is % with its 95% CI in brackets; score is the mean episode score. "
            f"{e(RULES_LEGEND)}</p>"
        )
        out.append("<ol>")
        for sub in submissions:
            out.append(f'<li id="prov-{sub.note}">{e(provenance_text(sub))}</li>')
        out.append("</ol></footer>")
    out += [f"<script>{JS}</script>", "</body>", "</html>", ""]
    return "\n".join(out)


def build_site(directory: Path, check: bool = True) -> dict[str, Any]:
    """Read ``directory/submissions`` and write README.md, index.html and plots/ into
    ``directory``; returns {"readme": path, "html": path, "plots": [paths], "skipped":
    ["name: why", ...]} (``check=False`` skips ``revalidate``: tests of the rendering only)."""
    directory = Path(directory)
    skipped: list[str] = []
    submissions = load_submissions(directory, check, skipped)
    by_env = tables(submissions)
    plots_dir = directory / "plots"
    plots_dir.mkdir(parents=True, exist_ok=True)
    plots: list[Path] = []
    for env_id, env_tables in by_env.items():
        names = plot_paths(env_id)
        plots.append(
            plot_success_by_difficulty(
                env_id, env_tables, directory / names["success_by_difficulty"]
            )
        )
        plots.append(
            plot_generalization_gap(env_id, env_tables, directory / names["generalization_gap"])
        )
    for stale in plots_dir.glob("*.png"):  # plots of envs no longer on the board
        if stale.name.startswith(PLOT_PREFIXES) and stale not in plots:
            stale.unlink()
    readme = directory / "README.md"
    readme.write_text(render_markdown(by_env, submissions), encoding="utf-8")
    page = directory / "index.html"
    page.write_text(render_html(by_env, submissions), encoding="utf-8")
    return {"readme": readme, "html": page, "plots": plots, "skipped": skipped}

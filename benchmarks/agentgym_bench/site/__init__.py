"""Build the public leaderboard (README.md, a static index.html and PNG plots) from submissions.

Why: a leaderboard is only worth reading if every number on it can be trusted and traced. The
submissions folder holds each run's summary, its provenance and the verdict of the replay check;
this package keeps only the runs whose replay verified, lays their results out per env id and
difficulty (one row per agent, one column pair per split), and writes them twice: as Markdown for
the repository and as a single self-contained HTML page (inline CSS, a few lines of vanilla JS to
sort the tables, plots as relative images) that can be opened from disk or served as-is, with no
CDN and nothing to install. In three steps, each a module that imports only those before it:
``load`` (read and check the submissions), ``tables`` (rank them, write each cell's text) and
``render`` (plots, Markdown, HTML; ``build_site`` runs all three).

Submissions are untrusted, and one bad submission must never stop the board: every folder is
checked again at each build (``revalidate``: the SHA-256 of every file against its verdict, the
files parsed strictly, the suite's protocol and the summary recomputed from the episodes: every
check of ``replay.verify_run`` but the replay itself, which ``leaderboard build --replay`` and
CI run), and a folder that fails any check is skipped and named, never half-rendered. Of an
id's revisions (``site.load.revisions``) only the newest is shown. Every string from a
submission is escaped for where it goes: HTML, Markdown (no markup, links or line breaks
pass) and matplotlib's mathtext in the plots.
A run of a suite with prompt variants (e.g. the history ablation) is one entry per variant,
named ``agent (variant)``. Each table ends with a "rule violations" column (``rules.py``): the share
of the agent's episodes over all the table's splits that broke any of the env's rules, with its 95%
CI; a summary row with no ``rule_episodes`` was checked against no rule (the env has none), shown
as "–", never as 0%.
"""

from agentgym_bench.site.load import InvalidSubmission, Submission, load_submissions
from agentgym_bench.site.render import build_site
from agentgym_bench.site.tables import RuleTally, path_efficiency, rule_text, slug

__all__ = [
    "InvalidSubmission",
    "RuleTally",
    "Submission",
    "build_site",
    "load_submissions",
    "path_efficiency",
    "rule_text",
    "slug",
]

"""``agentgym inspect RUN_DIR``: read a run's episodes step by step, and rate them.

The page (``RUN_DIR/inspect.html``, self-contained: the episodes are embedded) lists every
episode with its score, success and length (click a header to sort: a high score reached in a
strange way is how reward hacking shows), and shows a chosen episode's observations, actions and
rewards (and the rules it broke, in an env with rule checks). A person rates an episode from 1
to 5 on completion, efficiency, naturalness and safety, with a comment; ``agentgym inspect``
serves the page on 127.0.0.1 and appends each rating to ``RUN_DIR/ratings.jsonl`` (the newest
rating of an episode counts), and the run's ``report.md`` then summarises them. Opened as a
plain file the page still shows everything, but cannot save ratings.
"""

from __future__ import annotations

import html
import json
import threading
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from agentgym_bench.stats import DIMENSIONS, RATINGS_FILE
from agentgym_bench.suite_runner import RUN_FILE, read_episodes, refresh_report

PAGE_FILE = "inspect.html"

CSS = """
body { font-family: system-ui, sans-serif; margin: 1.5rem; color: #1f2328; }
.columns { display: flex; gap: 1.5rem; align-items: flex-start; }
#list { max-height: 85vh; overflow-y: auto; flex: 0 0 34rem; }
table { border-collapse: collapse; font-size: .85rem; }
th, td { border: 1px solid #d0d7de; padding: .2rem .45rem; text-align: left; }
th { background: #f6f8fa; cursor: pointer; } tr.picked { background: #fff8c5; }
tbody tr { cursor: pointer; } #episode { flex: 1; min-width: 0; }
pre { white-space: pre-wrap; background: #f6f8fa; padding: .5rem; font-size: .8rem; }
.step { border-top: 1px solid #d0d7de; margin-top: .6rem; }
.action { font-weight: 600; } .note { color: #57606a; font-size: .9rem; }
fieldset { margin-top: 1rem; } label { margin-right: 1rem; }
"""

#: what the page shows of each episode (rule_violations: rule -> broken?, envs with rules)
EPISODE_FIELDS = ("key", "score", "success", "length", "error", "trajectory", "rule_violations")

JS = """
const EPISODES = JSON.parse(document.getElementById('data').textContent);
const DIMENSIONS = ['completion', 'efficiency', 'naturalness', 'safety'];
const body = document.querySelector('#list tbody');
let current = null;
function esc(s) {
  const d = document.createElement('div');
  d.textContent = String(s);
  return d.innerHTML;
}
function rows() {
  body.innerHTML = EPISODES.map((e, i) => `<tr data-i="${i}"><td>${esc(e.key)}</td>` +
    `<td>${e.score.toFixed(3)}</td><td>${e.success ? 'yes' : 'no'}</td><td>${e.length}</td></tr>`
  ).join('');
  body.querySelectorAll('tr').forEach((tr) => {
    tr.addEventListener('click', () => show(+tr.dataset.i));
  });
}
function show(i) {
  current = EPISODES[i];
  body.querySelectorAll('tr').forEach((tr) => tr.classList.toggle('picked', +tr.dataset.i === i));
  const none = {steps: [], observation: '(no trajectory: ' + current.error + ')'};
  const t = current.trajectory || none;
  const broken = Object.keys(current.rule_violations || {}).filter(
    (rule) => current.rule_violations[rule]);
  const rules = broken.length ? `, <b>rules broken: ${esc(broken.join(', '))}</b>` : '';
  let out = `<h2>${esc(current.key)}</h2><p>score ${current.score.toFixed(3)}, ` +
    `${current.success ? 'success' : 'failure'}, ${current.length} steps${rules}</p>` +
    `<pre>${esc(t.observation)}</pre>`;
  t.steps.forEach((s, n) => {
    const invalid = s.action_error ? ' · invalid: ' + esc(s.action_error) : '';
    const oracle = s.expert_action ? ' · oracle: ' + esc(s.expert_action) : '';
    out += `<div class="step"><p class="action">${n + 1}. ${esc(s.action)}` +
      ` <span class="note">reward ${s.reward}${invalid}${oracle}</span></p>` +
      `<pre>${esc(s.observation)}</pre></div>`;
  });
  document.getElementById('steps').innerHTML = out;
  document.getElementById('rating').hidden = false;
  document.getElementById('saved').textContent = '';
}
document.querySelectorAll('#list th').forEach((th, col) => th.addEventListener('click', () => {
  const key = ['key', 'score', 'success', 'length'][col];
  const down = th.dataset.down !== '1'; th.dataset.down = down ? '1' : '0';
  EPISODES.sort((a, b) => (a[key] > b[key] ? 1 : a[key] < b[key] ? -1 : 0) * (down ? -1 : 1));
  rows();
}));
document.getElementById('save').addEventListener('click', async () => {
  const rating = {key: current.key, comment: document.getElementById('comment').value};
  DIMENSIONS.forEach((d) => { rating[d] = +document.getElementById(d).value; });
  const saved = document.getElementById('saved');
  if (location.protocol === 'file:') {
    saved.textContent = 'Run `agentgym inspect RUN_DIR` to save ratings.';
    return;
  }
  const reply = await fetch('ratings', {method: 'POST', body: JSON.stringify(rating),
                                        headers: {'Content-Type': 'application/json'}});
  saved.textContent = reply.ok ? 'Saved.' : 'Not saved: ' + await reply.text();
});
rows();
"""


def page_html(run_dir: Path) -> str:
    """The viewer page for ``run_dir`` with its episodes embedded."""
    run = json.loads((run_dir / RUN_FILE).read_text(encoding="utf-8"))
    episodes = [{k: r.get(k) for k in EPISODE_FIELDS} for r in read_episodes(run_dir)]
    data = json.dumps(episodes).replace("</", "<\\/")  # no "</script>" inside the data
    title = f"{run['agent']['spec']} on {run['suite']['name']} v{run['suite']['version']}"
    options = "".join(f'<option value="{n}">{n}</option>' for n in range(5, 0, -1))
    fields = "".join(f'<label>{d} <select id="{d}">{options}</select></label>' for d in DIMENSIONS)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>{CSS}</style></head><body>
<h1>{html.escape(title)}</h1>
<p class="note">{len(episodes)} episodes. Click an episode to read it; click a header to sort.
Rate 5 (best) to 1 on each dimension.</p>
<div class="columns"><div id="list"><table><thead><tr><th>episode</th><th>score</th>
<th>success</th><th>steps</th></tr></thead><tbody></tbody></table></div>
<div id="episode"><div id="steps"><p class="note">Pick an episode.</p></div>
<fieldset id="rating" hidden><legend>Your rating</legend>{fields}
<p><textarea id="comment" rows="2" cols="60" placeholder="comment (optional)"></textarea></p>
<button id="save">Save rating</button> <span id="saved" class="note"></span></fieldset></div></div>
<script type="application/json" id="data">{data}</script>
<script>{JS}</script></body></html>
"""


def check_rating(rating: Any, keys: set[str]) -> dict[str, Any]:
    """The rating to save, or ValueError saying what is wrong with it."""
    if not isinstance(rating, dict) or rating.get("key") not in keys:
        raise ValueError("a rating needs the key of an episode of this run")
    clean = {"key": rating["key"]}
    for dimension in DIMENSIONS:
        value = rating.get(dimension)
        if not isinstance(value, int) or not 1 <= value <= 5:
            raise ValueError(f"{dimension} must be an integer from 1 to 5, got {value!r}")
        clean[dimension] = value
    clean["comment"] = str(rating.get("comment") or "")[:2000]
    clean["rated_at"] = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return clean


def serve(run_dir: Path, port: int = 0) -> tuple[ThreadingHTTPServer, str]:
    """Serve the viewer of ``run_dir`` on 127.0.0.1 (``port`` 0: a free one) from a thread;
    returns the server (``shutdown()`` it) and the page's URL."""
    page = page_html(run_dir).encode("utf-8")
    keys = {r["key"] for r in read_episodes(run_dir)}
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if self.path not in ("/", f"/{PAGE_FILE}"):
                self.send_error(404)
                return
            self._reply(200, page, "text/html; charset=utf-8")

        def do_POST(self) -> None:
            if self.path != "/ratings":
                self.send_error(404)
                return
            try:
                length = int(self.headers.get("Content-Length") or 0)
                rating = check_rating(json.loads(self.rfile.read(length)), keys)
            except ValueError as error:
                self._reply(400, str(error).encode(), "text/plain; charset=utf-8")
                return
            with lock:
                with (run_dir / RATINGS_FILE).open("a", encoding="utf-8") as out:
                    out.write(json.dumps(rating) + "\n")
                refresh_report(run_dir)
            self._reply(200, b'{"saved": true}', "application/json")

        def _reply(self, status: int, body: bytes, kind: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            return

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def write_page(run_dir: Path) -> Path:
    """Write ``RUN_DIR/inspect.html`` (readable as a file; ratings need ``serve``)."""
    path = run_dir / PAGE_FILE
    path.write_text(page_html(run_dir), encoding="utf-8")
    return path


__all__ = ["check_rating", "page_html", "serve", "write_page"]

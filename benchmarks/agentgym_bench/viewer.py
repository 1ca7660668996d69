"""``agentgym inspect RUN_DIR``: read a run's episodes step by step, and rate them.

The page (``RUN_DIR/inspect.html``, self-contained: the episodes are embedded) lists every
episode with its score, success and length (click a header to sort: a high score reached in a
strange way is how reward hacking shows), and shows a chosen episode's observations, actions and
rewards (and the rules it broke, in an env with rule checks). A person rates an episode from 1
to 5 on completion, efficiency, naturalness and safety, with a comment; ``agentgym inspect``
serves the page on 127.0.0.1 and appends each rating to ``RUN_DIR/ratings.jsonl`` (the newest
rating of an episode counts), and the run's ``report.md`` then summarises them. Opened as a
plain file the page still shows everything, but cannot save ratings.

A run is often someone else's file, so everything in it is treated as hostile. The page shows
every value of ``run.json`` and of the episodes as text only: the title is HTML-escaped (and may
be any JSON value), the episodes are embedded as JSON with ``<``, ``>``, ``&``, U+2028 and U+2029
written as ``\\uXXXX`` (no ``</script>`` or ``<!--`` can end or bend the data block), and the
page's script builds its elements with ``textContent``, showing a number as a number only when
it is one. A Content-Security-Policy lets only the page's own script run, should markup get in
anyway.

The rating endpoint (``POST /ratings``) must only be reachable from the page itself, not from a
web page the person happens to visit. It refuses (403) a ``Host`` other than ``127.0.0.1:PORT``
or ``localhost:PORT`` (on GET too: this defeats DNS rebinding, where a hostile name resolves to
127.0.0.1), an ``Origin`` other than the page's own, and a ``Sec-Fetch-Site`` other than
``same-origin`` or ``none`` (``cross-site``; ``same-site`` is another port of this machine). It
wants ``Content-Type: application/json`` (415: a cross-origin page could only send that after a
CORS preflight, which is never answered) and a ``Content-Length`` (411 without, 400 when not a
non-negative integer, 413 above 16 KiB), and never reads more than that; a body that stalls is
given up after the handler's ``timeout`` (10 s; 408), so no client holds a thread. A rating must
name an episode of the run and hold only the four dimensions (integers 1 to 5, not booleans) and
an optional string ``comment`` of at most 2000 characters (400 otherwise). Refusals are short plain
text saying what is wrong.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import math
import threading
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from agentgym_bench.run_folder import RUN_FILE, RunDir
from agentgym_bench.stats import DIMENSIONS, RATINGS_FILE

PAGE_FILE = "inspect.html"
#: the longest rating body read, and the longest comment kept (a longer one is refused)
MAX_BODY = 16 * 1024
MAX_COMMENT = 2000
RATING_KEYS = ("key", *DIMENSIONS, "comment")

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

# Every value of EPISODES is someone else's data: it reaches the page through textContent only,
# and as a number only when it is one (text() never calls a value's own toString).
JS = """
const EPISODES = JSON.parse(document.getElementById('data').textContent);
const DIMENSIONS = ['completion', 'efficiency', 'naturalness', 'safety'];
const body = document.querySelector('#list tbody');
let current = null;
function text(value) {
  if (typeof value === 'string') return value;
  const json = JSON.stringify(value);
  return json === undefined ? String(value) : json;
}
function num(value, digits) {
  if (typeof value !== 'number') return text(value);
  return digits === undefined ? String(value) : value.toFixed(digits);
}
function flag(value, yes, no) {
  return value === true ? yes : value === false ? no : text(value);
}
function plain(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
function el(tag, content, cls) {
  const node = document.createElement(tag);
  if (content !== undefined) node.textContent = content;
  if (cls) node.className = cls;
  return node;
}
function turn(llm) {
  // an LLM step's raw reply and the prompt it answered, folded (what to read when a parse fails)
  const box = el('details', undefined, 'llm');
  let head = 'model reply';
  if (llm.finish_reason !== undefined) head += ' · finish_reason ' + text(llm.finish_reason);
  if (llm.cut_off === true) head += ' · CUT OFF at max_tokens';
  box.append(el('summary', head), el('pre', text(llm.reply)));
  const messages = Array.isArray(llm.messages) ? llm.messages
    : plain(llm.last_message) ? [llm.last_message] : [];
  messages.forEach((m) => {
    const message = plain(m) ? m : {content: m};
    box.append(el('p', 'prompt · ' + text(message.role), 'note'), el('pre', text(message.content)));
  });
  return box;
}
function rows() {
  body.replaceChildren();
  EPISODES.forEach((e, i) => {
    const tr = el('tr');
    tr.dataset.i = String(i);
    tr.append(el('td', text(e.key)), el('td', num(e.score, 3)),
              el('td', flag(e.success, 'yes', 'no')), el('td', num(e.length)));
    tr.addEventListener('click', () => show(i));
    body.append(tr);
  });
}
function show(i) {
  current = EPISODES[i];
  body.querySelectorAll('tr').forEach((tr) => tr.classList.toggle('picked', +tr.dataset.i === i));
  const t = plain(current.trajectory) ? current.trajectory
    : {steps: [], observation: '(no trajectory: ' + text(current.error) + ')'};
  const violations = plain(current.rule_violations) ? current.rule_violations : {};
  const broken = Object.keys(violations).filter((rule) => violations[rule]);
  const facts = el('p', `score ${num(current.score, 3)}, ` +
    `${flag(current.success, 'success', 'failure')}, ${num(current.length)} steps`);
  if (broken.length) facts.append(', ', el('b', 'rules broken: ' + broken.join(', ')));
  const out = [el('h2', text(current.key)), facts, el('pre', text(t.observation))];
  (Array.isArray(t.steps) ? t.steps : []).forEach((raw, n) => {
    const s = plain(raw) ? raw : {action: raw};
    let note = 'reward ' + num(s.reward);
    if (s.action_error) note += ' · invalid: ' + text(s.action_error);
    if (s.expert_action) note += ' · oracle: ' + text(s.expert_action);
    const action = el('p', `${n + 1}. ${text(s.action)} `, 'action');
    action.append(el('span', note, 'note'));
    const step = el('div', undefined, 'step');
    step.append(action);
    if (plain(s.llm)) step.append(turn(s.llm));
    step.append(el('pre', text(s.observation)));
    out.push(step);
  });
  document.getElementById('steps').replaceChildren(...out);
  document.getElementById('rating').hidden = false;
  document.getElementById('saved').textContent = '';
}
function sortable(value) {
  return ['number', 'string', 'boolean'].includes(typeof value) ? value : text(value);
}
document.querySelectorAll('#list th').forEach((th, col) => th.addEventListener('click', () => {
  const key = ['key', 'score', 'success', 'length'][col];
  const down = th.dataset.down !== '1'; th.dataset.down = down ? '1' : '0';
  EPISODES.sort((a, b) => {
    const x = sortable(a[key]); const y = sortable(b[key]);
    return (x > y ? 1 : x < y ? -1 : 0) * (down ? -1 : 1);
  });
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

#: JSON made safe inside <script>: no "</script>", "<!--" or "&", and no JS line separators
SCRIPT_SAFE = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026",
                             "\u2028": "\\u2028", "\u2029": "\\u2029"})  # fmt: skip


def _sha256(source: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(source.encode()).digest()).decode() + "'"


#: only the page's own script runs (an injected handler or <script> would not), and it may only
#: talk to where it was served from
CSP = (f"default-src 'none'; script-src {_sha256(JS)}; style-src 'unsafe-inline'; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'")  # fmt: skip


def _records(run_dir: Path) -> list[dict[str, Any]]:
    """The run's episode records (a line that is not a JSON object is no episode)."""
    return [r for r in RunDir(run_dir).records() if isinstance(r, dict)]


def _finite(value: Any) -> Any:
    """``value`` with each NaN or infinity (which JSON.parse refuses) as its text."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    return value


def _text(run: Any, *path: str) -> str:
    """``run[path[0]][path[1]]...`` as text (any JSON value: str() of it), "?" when absent."""
    for name in path:
        run = run.get(name) if isinstance(run, dict) else None
    return "?" if run is None else str(run)


def page_html(run_dir: Path) -> str:
    """The viewer page for ``run_dir`` with its episodes embedded."""
    run = json.loads((run_dir / RUN_FILE).read_text(encoding="utf-8"))
    episodes = [_finite({k: r.get(k) for k in EPISODE_FIELDS}) for r in _records(run_dir)]
    data = json.dumps(episodes).translate(SCRIPT_SAFE)
    title = html.escape(
        f"{_text(run, 'agent', 'spec')} on {_text(run, 'suite', 'name')} "
        f"v{_text(run, 'suite', 'version')}"
    )
    options = "".join(f'<option value="{n}">{n}</option>' for n in range(5, 0, -1))
    fields = "".join(f'<label>{d} <select id="{d}">{options}</select></label>' for d in DIMENSIONS)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{CSP}"><title>{title}</title>
<style>{CSS}</style></head><body>
<h1>{title}</h1>
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
    if not isinstance(rating, dict):
        raise ValueError("a rating is a JSON object")
    unknown = sorted(set(rating) - set(RATING_KEYS))
    if unknown:
        raise ValueError(f"unknown fields {unknown}: a rating has only {', '.join(RATING_KEYS)}")
    key = rating.get("key")
    if not isinstance(key, str) or key not in keys:
        raise ValueError("a rating needs the key of an episode of this run")
    clean: dict[str, Any] = {"key": key}
    for dimension in DIMENSIONS:
        value = rating.get(dimension)
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 5:
            raise ValueError(f"{dimension} must be an integer from 1 to 5, got {value!r:.40}")
        clean[dimension] = value
    comment = rating.get("comment", "")
    if not isinstance(comment, str):
        raise ValueError(f"comment must be a string, got {type(comment).__name__}")
    if len(comment) > MAX_COMMENT:
        raise ValueError(f"comment is {len(comment)} characters, at most {MAX_COMMENT} are kept")
    clean["comment"] = comment
    clean["rated_at"] = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return clean


class Refused(Exception):
    """A request answered with ``status`` and the plain-text ``why``."""

    def __init__(self, status: int, why: str) -> None:
        super().__init__(why)
        self.status = status
        self.why = why


def serve(run_dir: Path, port: int = 0) -> tuple[ThreadingHTTPServer, str]:
    """Serve the viewer of ``run_dir`` on 127.0.0.1 (``port`` 0: a free one) from a thread;
    returns the server (``shutdown()`` it) and the page's URL."""
    page = page_html(run_dir).encode("utf-8")
    keys = {r["key"] for r in _records(run_dir) if isinstance(r.get("key"), str)}
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        timeout = 10  # seconds a connection may stall (socket timeout): no thread held forever

        def do_GET(self) -> None:
            try:
                self._check_host()
                if self.path not in ("/", f"/{PAGE_FILE}"):
                    raise Refused(404, "not found: the page is /")
            except Refused as refused:
                self._refuse(refused)
                return
            self._reply(200, page, "text/html; charset=utf-8")

        def do_POST(self) -> None:
            try:
                self._check_host()
                if self.path != "/ratings":
                    raise Refused(404, "not found: ratings go to POST /ratings")
                self._check_origin()
                rating = self._read_rating()
            except Refused as refused:
                self._refuse(refused)
                return
            with lock:
                with (run_dir / RATINGS_FILE).open("a", encoding="utf-8") as out:
                    out.write(json.dumps(rating) + "\n")
                RunDir(run_dir).refresh_report()
            self._reply(200, b'{"saved": true}', "application/json")

        def _served(self) -> set[str]:
            port = self.server.server_address[1]  # type: ignore[index]  # an IP server
            return {f"127.0.0.1:{port}", f"localhost:{port}"}

        def _check_host(self) -> None:
            hosts = [host.strip().lower() for host in self.headers.get_all("Host") or []]
            if len(hosts) != 1 or hosts[0] not in self._served():
                raise Refused(403, "wrong Host: this server answers only 127.0.0.1 or localhost")

        def _check_origin(self) -> None:
            origin = self.headers.get("Origin")
            if origin is not None and origin.lower() not in {f"http://{h}" for h in self._served()}:
                raise Refused(403, "cross-origin request refused: rate from the viewer page")
            site = self.headers.get("Sec-Fetch-Site")
            if site is not None and site.lower() not in ("same-origin", "none"):
                raise Refused(403, f"{site} request refused: rate from the viewer page")

        def _read_rating(self) -> dict[str, Any]:
            kind = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
            if kind != "application/json":
                raise Refused(415, "a rating is sent as Content-Type: application/json")
            if self.headers.get("Transfer-Encoding") is not None:
                raise Refused(411, "send the rating with a Content-Length, not Transfer-Encoding")
            lengths = self.headers.get_all("Content-Length") or []
            if not lengths:
                raise Refused(411, "a rating needs a Content-Length")
            length = lengths[0].strip()
            if len(lengths) > 1 or not (length.isascii() and length.isdigit()):
                raise Refused(400, "Content-Length must be one non-negative integer")
            if int(length) > MAX_BODY:
                raise Refused(413, f"a rating is at most {MAX_BODY} bytes")
            try:
                raw = self.rfile.read(int(length))
            except TimeoutError as error:
                raise Refused(408, "the body did not arrive in time") from error
            if len(raw) < int(length):
                raise Refused(400, "the body is shorter than its Content-Length")
            try:
                return check_rating(json.loads(raw), keys)
            except RecursionError as error:
                raise Refused(400, "a rating is not nested that deeply") from error
            except ValueError as error:  # JSON, UTF-8 or the rating itself
                raise Refused(400, str(error)) from error

        def _refuse(self, refused: Refused) -> None:
            self.close_connection = True
            self._reply(refused.status, refused.why.encode(), "text/plain; charset=utf-8")

        def _reply(self, status: int, body: bytes, kind: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("X-Content-Type-Options", "nosniff")
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

"""Chromium for MiniWoB, driven by Playwright: finding and launching it, and the two browsers.

Why this shape: launching Chromium costs ~0.5–1 s and ~100 MB, a context a few ms, so many envs
share one browser and each owns one context, with one page that is reused across episodes and
reloaded every ``reload_every`` episodes. Chromium is Debian's (``chromium-headless-shell``
preferred, ``chromium`` as fallback) launched by path, so ``playwright install`` is never needed;
``AGENTGYM_CHROMIUM`` overrides the path.

``AsyncBrowser`` is the envs' browser: ``async_page.PageLoop`` runs one on its event loop (the
single envs of a process share one loop, reference counted: the last release closes it; a vector
env owns its own), and every env's page (``async_page.AsyncMiniWoBPage``) is a context on it.
``SyncBrowser`` (Playwright's sync API, per process and thread) is not used by any env: only
tests/miniwob/test_env.py's comparison with Farama's seeding drives pages with it.

Orphans: Playwright's Node driver kills the browser when its stdin pipe closes, which happens when
the Python parent dies for any reason (even SIGKILL); ``close()`` releases explicitly.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CHROMIUM_ENV_VAR = "AGENTGYM_CHROMIUM"
# Debian's /usr/bin/chromium-headless-shell is a `sh` wrapper that does not exec: launching the
# real binary keeps the process tree one level shallower (kills reach the browser directly).
CHROMIUM_CANDIDATES = (
    "/usr/lib/chromium/chromium-headless-shell",
    "chromium-headless-shell",
    "/usr/lib/chromium/chromium",
    "chromium",
    "chromium-browser",
)
LAUNCH_FLAGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-dev-shm-usage",
    "--disable-extensions",
    # Background tabs must not be throttled: many envs' pages run concurrently.
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
    # Mouse events go to the element under the pointer. With this feature (on in Chromium 156;
    # which Chrome MiniWoB's authors used was not checked), a press whose mouseover handler
    # re-appends the hovered element is sent to its parent: click-pie's wheelnav moves the
    # selected slice and its label to the front on every mouseover, so no trusted press reached
    # them (mousedown and mouseup on the svg).
    "--disable-blink-features=BoundaryEventDispatchTracksNodeRemoval",
    # A trusted mousemove is delivered at the page's next frame; frames come at 60 Hz, so a move
    # waited ~10 ms for one (a click step, which hovers first: 16.3 ms median, 7.9 ms with this).
    # Pages draw frames only when something changed (their animation frames run on page time).
    "--disable-frame-rate-limit",
)
# The MiniWoB task area is 160x210 css px; a slightly larger viewport keeps popups on screen.
VIEWPORT = {"width": 500, "height": 400}
INSTALL_HINT = (
    "Install it with `apt-get install -y chromium-headless-shell` (or `chromium`), or run "
    "scripts/install_miniwob.sh; or point AGENTGYM_CHROMIUM at a Chromium binary."
)


class BrowserUnavailable(RuntimeError):
    """Chromium or Playwright is missing; the message says how to install it."""


def find_chromium() -> str:
    """The system Chromium to launch (AGENTGYM_CHROMIUM wins); BrowserUnavailable if none."""
    override = os.environ.get(CHROMIUM_ENV_VAR)
    if override:
        if Path(override).is_file() and os.access(override, os.X_OK):
            return override
        raise BrowserUnavailable(f"{CHROMIUM_ENV_VAR}={override!r} is not an executable file.")
    for name in CHROMIUM_CANDIDATES:
        found = (
            shutil.which(name) if "/" not in name else (name if os.access(name, os.X_OK) else None)
        )
        if found:
            return found
    raise BrowserUnavailable(f"No Chromium found on PATH. {INSTALL_HINT}")


def require_playwright() -> None:
    """Raise BrowserUnavailable with the pip command when playwright is not importable."""
    try:
        import playwright  # noqa: F401
    except ImportError as error:
        raise BrowserUnavailable(
            "playwright is not installed: `pip install 'playwright==1.65.*'` "
            "(do not run `playwright install`; the system Chromium is used)."
        ) from error


def browser_available() -> tuple[bool, str]:
    """(True, '') when both Playwright and Chromium are present, else (False, why)."""
    try:
        require_playwright()
        find_chromium()
    except BrowserUnavailable as error:
        return False, str(error)
    return True, ""


@dataclass
class _Shared:
    playwright: Any = None
    browser: Any = None
    users: int = 0
    pid: int = 0  # the Python process that owns this browser (a forked child starts its own)
    browser_pid: int | None = None  # Chromium's main process, found once at launch


class SyncBrowser:
    """A sync Chromium per (process, thread): ``acquire()`` hands out a context, ``release()``
    returns it (reference counted: the last release closes the browser).

    No env uses it (their pages run on ``async_page.PageLoop``'s ``AsyncBrowser``); kept for tests
    that drive raw Playwright pages synchronously (test_env's Farama seeding comparison). The sync
    Playwright API is bound to the thread that started it; a forked child starts its own.
    """

    _lock = threading.Lock()
    _local = threading.local()

    @classmethod
    def _shared(cls) -> _Shared:
        shared = getattr(cls._local, "shared", None)
        if shared is None or shared.pid != os.getpid():
            shared = _Shared(pid=os.getpid())
            cls._local.shared = shared
        return shared

    @classmethod
    def acquire(cls) -> Any:
        """A fresh BrowserContext on the shared browser, launching or relaunching it as needed."""
        with cls._lock:
            shared = cls._shared()
            if shared.browser is None or not shared.browser.is_connected():
                cls._launch(shared)
            shared.users += 1
            return shared.browser.new_context(viewport=VIEWPORT)

    @classmethod
    def _launch(cls, shared: _Shared) -> None:
        require_playwright()
        from playwright.sync_api import sync_playwright

        executable = find_chromium()
        cls._stop(shared)
        running = set(_browser_pids())
        shared.playwright = sync_playwright().start()
        try:
            shared.browser = shared.playwright.chromium.launch(
                executable_path=executable, args=list(LAUNCH_FLAGS), headless=True
            )
        except Exception:
            cls._stop(shared)
            raise
        shared.browser_pid = launched_browser_pid(running)

    @classmethod
    def release(cls, context: Any) -> None:
        """Close ``context``; close the browser when no env uses it any more."""
        with cls._lock:
            shared = cls._shared()
            with contextlib.suppress(Exception):  # best effort on a dead browser
                context.close()
            shared.users = max(0, shared.users - 1)
            if shared.users == 0:
                cls._stop(shared)

    @classmethod
    def _stop(cls, shared: _Shared) -> None:
        for closer in (shared.browser, shared.playwright):
            if closer is None:
                continue
            with contextlib.suppress(Exception):  # best effort on a dead browser
                (closer.close if closer is shared.browser else closer.stop)()
        shared.browser = None
        shared.playwright = None
        shared.browser_pid = None

    @classmethod
    def browser_pid(cls) -> int | None:
        """This thread's Chromium main process id, or None when not running (or not found)."""
        shared = cls._shared()
        return shared.browser_pid if shared.browser is not None else None

    @classmethod
    def kill_browser(cls) -> None:
        """Kill this thread's Chromium process abruptly (the envs' crash tests use
        ``PageLoop.kill_browser`` instead)."""
        pid = cls.browser_pid()
        if pid is not None:
            kill_process(pid)


def kill_process(pid: int) -> None:
    """SIGKILL ``pid``; nothing if it is already gone."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


def launched_browser_pid(before: set[int]) -> int | None:
    """The main process of the Chromium launched since ``before`` (``_browser_pids()`` then):
    the one new process whose parent is not new as well, since a child Chromium has just forked
    carries its parent's command line until it execs (on a loaded machine, long enough to be
    seen); None when that is not one process."""
    new = [pid for pid in _browser_pids() if pid not in before]
    roots = [pid for pid in new if _parent_pid(pid) not in new]
    return roots[0] if len(roots) == 1 else None


def _parent_pid(pid: int) -> int | None:
    try:  # /proc/PID/stat: "pid (comm) state ppid ...", comm may hold spaces and parentheses
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def _browser_pids() -> list[int]:
    """Chromium main processes (not renderers, not shell wrappers) under this process (Linux)."""
    found = []
    for pid in chromium_descendants(os.getpid()):
        try:
            raw = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        program = Path(raw.split(b"\0")[0].decode(errors="replace")).name
        # children (zygote, gpu, renderer) carry --type=, often rewritten into argv[0]
        if raw and program not in ("sh", "bash", "dash") and b"--type=" not in raw:
            found.append(pid)
    return found


def chromium_descendants(root_pid: int, name_part: str = "chrom") -> list[int]:
    """Pids of processes descending from ``root_pid`` whose name contains ``name_part`` (Linux
    /proc walk; ``name_part=""`` lists every descendant, e.g. Playwright's Node driver too)."""
    children: dict[int, list[int]] = {}
    names: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        ppid = int(stat[stat.rindex(")") + 2 :].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
        names[int(entry.name)] = name
    found, stack = [], [root_pid]
    while stack:
        for child in children.get(stack.pop(), []):
            stack.append(child)
            if name_part in names.get(child, "").lower():
                found.append(child)
    return found


class AsyncBrowser:
    """An asyncio Chromium for one event loop: ``await start()``, ``await new_context()``, ``await
    close()`` (``new_context`` relaunches a dead browser). ``async_page.PageLoop`` runs one for
    every env's pages, which work concurrently on it."""

    def __init__(self) -> None:
        self._playwright: Any = None
        self._browser: Any = None

    async def start(self) -> None:
        require_playwright()
        from playwright.async_api import async_playwright

        executable = find_chromium()
        self._playwright = await async_playwright().start()
        self._browser = await self._playwright.chromium.launch(
            executable_path=executable, args=list(LAUNCH_FLAGS), headless=True
        )

    @property
    def connected(self) -> bool:
        return self._browser is not None and self._browser.is_connected()

    async def new_context(self) -> Any:
        if not self.connected:
            await self.close()
            await self.start()
        return await self._browser.new_context(viewport=VIEWPORT)

    async def close(self) -> None:
        if self._browser is not None:
            with contextlib.suppress(Exception):  # best effort on a dead browser
                await self._browser.close()
        if self._playwright is not None:
            with contextlib.suppress(Exception):  # best effort on a dead browser
                await self._playwright.stop()
        self._browser = None
        self._playwright = None

"""Virtual time for a MiniWoB page: its timers, animations and clock advance only when the driver
lets page time pass, as fast as the CPU allows and identically on every machine.

``page_js.VIRTUAL_TIME_INIT`` runs before a page's own scripts and gives it a logical clock:
``setTimeout``, ``setInterval``, ``requestAnimationFrame``, ``Date`` and ``performance.now()``
read it, and nothing moves it but ``VirtualClock.advance(ms)``, which runs the callbacks due
within ``ms`` in order (each followed by the microtasks it queued) in one round trip, about a
millisecond of real time for seconds of page time. While the agent thinks, or a picture loads,
or the machine is busy, page time stands still. What stays on the real clock: Chromium's
rendering (its frames; the driver re-syncs a pointer the page moved under, see
``page_js.STALE_POINTER_FN``) and the network (the driver waits for pictures to arrive before an
observation, with page time standing still).

Why not Chromium's own virtual time (DevTools ``Emulation.setVirtualTimePolicy``, behind
``--virtual-time-budget``), the first design: measured here, real time leaked into it under load
(a 20 ms grant moved ``Date.now()`` by 21 ms; stock-market's ticker, due at a grant's end, fired
before or after it by run: 4 of 10 random episodes diverged on replay), trusted mouse moves hung
on a paused page (30 of 60 on email-inbox, until a compositor flag), and a page did not load
while paused.
"""

from __future__ import annotations

from typing import Any


class VirtualClock:
    """One page's logical clock (see the module docstring); the page keeps the count of page
    time let pass (``window.__agClock.elapsed()``)."""

    def __init__(self, page: Any) -> None:
        self._page = page

    async def advance(self, ms: float) -> None:
        """Let ``ms`` of page time pass, firing the page's callbacks due in it, in order."""
        if ms > 0:
            await self._page.evaluate("(ms) => window.__agClock.advance(ms)", ms)

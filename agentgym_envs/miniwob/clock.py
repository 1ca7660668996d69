"""Virtual time for a MiniWoB page: its timers, animations and clock advance only when the driver
grants a budget, as fast as the CPU allows and identically on every machine.

Chromium's DevTools ``Emulation.setVirtualTimePolicy`` (the mechanism behind headless Chromium's
``--virtual-time-budget``) pauses a page's virtual time: ``setTimeout``/``setInterval``,
``Date.now()`` and ``performance.now()`` stand still while the driver acts and observes, and
``advance(ms)`` lets ``ms`` of virtual time pass, firing every timer due in it in order (about
1 ms of real time for a few seconds of page time). The policy used to advance,
``pauseIfNetworkFetchesPending``, also holds virtual time while a fetch is in flight, so a picture
the page loads arrives at the same virtual instant on a fast or a loaded machine.

What the page needs besides: ``page_js.VIRTUAL_TIME_INIT`` (run before the page's own scripts)
records the due time of every pending ``setTimeout``, so the driver can ask how much virtual time
the page still needs before it is idle (``page_js.IDLE_NEED``), and runs
``requestAnimationFrame`` callbacks on a 16 ms virtual-time timer: headless Chromium draws its
frames on the real clock, so animation frames would otherwise come at a rate set by the machine.

A page is loaded on real time (navigation does not finish while virtual time is paused) and
paused once its document is ready (``attach``); the driver loads a task into a new page.
"""

from __future__ import annotations

import asyncio
from typing import Any

#: How long (real seconds) one ``advance`` may take before the page counts as hung: a fetch that
#: never finishes holds virtual time for ever.
ADVANCE_TIMEOUT_S = 15.0
#: Each grant is this much longer than asked (1 µs, the resolution of Chromium's clocks). A timer
#: due exactly when a grant ends fired before the page paused in some runs and after it in
#: others (stock-market's first price was drawn or not at page time 100 ms, 5 steps of 20 ms);
#: page timers fall on whole milliseconds from the instants the page paused at, so with the
#: grants a microsecond long, a grant ends on one only after a thousand grants.
GRANT_EXTRA_MS = 0.001


class ClockStopped(RuntimeError):
    """The page's virtual time did not advance (a hung fetch, or the page is gone)."""


class VirtualClock:
    """One page's virtual time, driven over its own DevTools session (see the module
    docstring); ``elapsed_ms`` counts the virtual time granted so far."""

    def __init__(self, session: Any) -> None:
        #: the page's DevTools session (the driver also sends raw input over it)
        self.session = session
        self._session = session
        self._expired: asyncio.Future[None] | None = None
        self.elapsed_ms = 0.0
        session.on("Emulation.virtualTimeBudgetExpired", self._on_expired)

    @classmethod
    async def attach(cls, context: Any, page: Any) -> VirtualClock:
        """Pause ``page``'s virtual time (a page of ``context`` whose document is loaded)."""
        clock = cls(await context.new_cdp_session(page))
        await clock._session.send("Emulation.setVirtualTimePolicy", {"policy": "pause"})
        await clock.advance(1)  # a grant that ends: paused at an instant of the page's clock
        clock.elapsed_ms = 0.0
        return clock

    def _on_expired(self, _event: Any) -> None:
        if self._expired is not None and not self._expired.done():
            self._expired.set_result(None)

    async def advance(self, ms: float) -> None:
        """Let ``ms`` of virtual time pass (firing the timers due in it; held while a fetch is in
        flight), then pause again. ``ClockStopped`` if that does not happen in
        ``ADVANCE_TIMEOUT_S`` of real time."""
        if ms <= 0:
            return
        self._expired = asyncio.get_running_loop().create_future()
        policy = {"policy": "pauseIfNetworkFetchesPending", "budget": float(ms) + GRANT_EXTRA_MS}
        try:
            await self._session.send("Emulation.setVirtualTimePolicy", policy)
            await asyncio.wait_for(self._expired, ADVANCE_TIMEOUT_S)
        except TimeoutError:
            raise ClockStopped(
                f"{ms:g} ms of page time did not pass in {ADVANCE_TIMEOUT_S:g} s"
            ) from None
        finally:
            self._expired = None
        self.elapsed_ms += ms

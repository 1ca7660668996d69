"""JavaScript run inside a MiniWoB page: the episode protocol, the DOM snapshot, action helpers.

Kept as strings in one place so the sync and async drivers send exactly the same code.
The protocol mirrors Farama's Selenium env call for call (``core.endEpisode(0)``,
``Math.seedrandom(seed)``, ``core.setDataMode('train')``, ``core.startEpisodeReal()``), so a seed
gives the same task as there (the ood split passes 'test' instead, MiniWoB's own test
distribution, which Farama's env never selects); the other addition is raising
``core.EPISODE_MAX_TIME`` to the largest JS timer so MiniWoB's wall-clock timeout never fires
(our step budget is the limit).
"""

from __future__ import annotations

#: Largest delay a JS timer accepts (2**31 - 1 ms, ~24.8 days).
NO_TIMEOUT_MS = 2**31 - 1

#: True once core.js has drawn its START cover (the page can start an episode).
PAGE_READY = "() => typeof core !== 'undefined' && core.cover_div !== null"
#: How long an animation frame lasts in page time (``requestAnimationFrame`` runs on a timer).
FRAME_MS = 16

#: Run before the page's own scripts (a context init script): the page's clock becomes a
#: logical one that only the driver moves (``window.__agClock.advance(ms)``). ``setTimeout``,
#: ``setInterval``, ``requestAnimationFrame`` (a ``FRAME_MS`` timer), ``Date`` and
#: ``performance.now()`` all read it; ``advance`` runs the callbacks due within ``ms`` in the
#: order of their due time (then of scheduling), each followed by the microtasks it queued, and
#: leaves the clock ``ms`` later. So a timer, an animation or a ticker fires at the same page
#: time, in the same order, on a fast or a loaded machine. ``need(horizon)`` is the page time
#: until the last one-shot timer due within ``horizon`` (0: none). Chromium's own virtual time
#: (DevTools ``Emulation.setVirtualTimePolicy``) was tried first and measured not to serve:
#: real time leaked into it under load (a 20 ms grant moved ``Date.now()`` by 21 ms; a ticker
#: due at a grant's end fired before or after it by run), trusted mouse moves hung on a paused
#: page, and navigations did not finish while it was paused.
VIRTUAL_TIME_INIT = (
    """(() => {
  if (window.__agClock) return;
  const RealDate = window.Date, realPerfNow = performance.now.bind(performance);
  const realSetTimeout = window.setTimeout.bind(window);
  const realClearTimeout = window.clearTimeout.bind(window);
  const date0 = RealDate.now(), perf0 = realPerfNow();
  let elapsed = 0, nextId = 1, order = 0;
  const timers = new Map();
  const schedule = (handler, delay, args, repeat) => {
    const fn = typeof handler === 'function' ? handler : () => (0, eval)(String(handler));
    const ms = Math.max(0, Number(delay) || 0);
    const id = nextId++;
    timers.set(id, {due: elapsed + ms, order: order++, fn: fn, args: args,
                    period: repeat ? Math.max(1, ms) : null});
    return id;
  };
  window.setTimeout = (handler, delay, ...args) => schedule(handler, delay, args, false);
  window.setInterval = (handler, delay, ...args) => schedule(handler, delay, args, true);
  window.clearTimeout = window.clearInterval = (id) => { timers.delete(id); };
  window.requestAnimationFrame = (callback) =>
    schedule(() => callback(perf0 + elapsed), """
    + str(FRAME_MS)
    + """, [], false);
  window.cancelAnimationFrame = window.clearTimeout;
  window.Date = class extends RealDate {
    constructor(...args) { if (args.length) super(...args); else super(date0 + elapsed); }
    static now() { return date0 + elapsed; }
  };
  performance.now = () => perf0 + elapsed;
  const next = (limit) => {
    let best = null, bestId = null;
    for (const [id, t] of timers) {
      const sooner = !best || t.due < best.due || (t.due === best.due && t.order < best.order);
      if (t.due <= limit && sooner) { best = t; bestId = id; }
    }
    return [bestId, best];
  };
  window.__agClock = {
    realSetTimeout: realSetTimeout,
    realClearTimeout: realClearTimeout,
    async advance(ms) {
      const until = elapsed + ms;
      for (let runs = 0; runs < 100000; runs++) {
        const [id, t] = next(until);
        if (!t) break;
        elapsed = Math.max(elapsed, t.due);
        if (t.period === null) timers.delete(id);
        else { t.due += t.period; t.order = order++; }
        try { t.fn(...t.args); } catch (error) { console.error(error); }
        for (let i = 0; i < 4; i++) await null;  // the microtasks the callback queued
      }
      elapsed = until;
      return elapsed;
    },
    need(horizon) {
      let need = 0;
      for (const t of timers.values()) {
        if (t.period === null && t.due - elapsed <= horizon) need = Math.max(need, t.due - elapsed);
      }
      return need;
    },
    elapsed: () => elapsed,
  };
})();"""
)

#: The DOM events a pointer resting on or moving onto an element fires (a listener for any of
#: them can make a hover change the page).
_HOVER_EVENTS = (
    "mouseover mouseout mouseenter mouseleave mousemove "
    "pointerover pointerout pointerenter pointerleave pointermove"
)

#: Run before the page's own scripts (a context init script): notes which event targets the
#: page ever gives a hover listener (``addEventListener``, or an ``on...`` handler set as a
#: property), so ``HOVER_SENSITIVE`` can tell where hovering changes nothing.
#: ``window.__agAddListener`` is the unwrapped ``addEventListener``, for the driver's own
#: listener (``POINTER_WATCH``), which must not count.
HOVER_WATCH_INIT = (
    """(() => {
  if (window.__agHoverListened) return;
  const events = new Set('"""
    + _HOVER_EVENTS
    + """'.split(' '));
  const listened = new WeakSet();
  const realAdd = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (type, ...rest) {
    if (events.has(String(type).toLowerCase())) listened.add(this);
    return realAdd.call(this, type, ...rest);
  };
  for (const owner of [HTMLElement.prototype, SVGElement.prototype, Document.prototype, window]) {
    for (const type of events) {
      const d = Object.getOwnPropertyDescriptor(owner, 'on' + type);
      if (!d || !d.set || !d.configurable) continue;
      Object.defineProperty(owner, 'on' + type, {
        configurable: true, enumerable: d.enumerable, get: d.get,
        set(handler) { if (handler) listened.add(this); d.set.call(this, handler); },
      });
    }
  }
  Object.defineProperty(window, '__agAddListener', {value: realAdd});
  Object.defineProperty(window, '__agHoverListened', {value: (target) => listened.has(target)});
})();"""
)

#: The innermost element the page sees the pointer over (the last ``:hover`` match in document
#: order), null when none.
_LAST_HOVERED_FN = """
function LAST_HOVERED() {
  return Array.from(document.querySelectorAll(':hover')).pop() || null;
}
"""

#: ``HOVER_SENSITIVE(x, y)``: whether moving the pointer from where it rests to (x, y) could
#: change the page. Hovering reaches the nodes on the path from the element under either point
#: up to the document (mouseover/out/enter/leave and mousemove go there; those elements, and a
#: hovered label's control, are the ones whose ``:hover`` changes): it could when the window,
#: the document or such a node has a hover listener (``HOVER_WATCH_INIT``) or an inline
#: ``on...`` hover handler, or when such an element matches a ``:hover`` rule's compound (the
#: selector up to the end of the compound holding ``:hover``, without it: any later part only
#: narrows what the rule styles). A ``file://`` stylesheet's rules cannot be read from the page:
#: the driver reads its file and gives its ``:hover`` selectors in ``window.__agHoverRules``
#: (``STYLESHEETS``); any other unreadable one counts as hover-sensitive, as does a selector
#: ``matches`` refuses. When hovering cannot change the page, a click needs no hover before its
#: press.
HOVER_SENSITIVE_FN = (
    _LAST_HOVERED_FN
    + """
function HOVER_COMPOUNDS(selectorText) {  // each part's compound holding :hover, parsed once
  const cache = window.__agHoverCompounds || (window.__agHoverCompounds = new Map());
  let compounds = cache.get(selectorText);
  if (compounds) return compounds;
  const parts = [];  // split at the top-level commas
  let depth = 0, start = 0;
  for (let i = 0; i < selectorText.length; i++) {
    const c = selectorText[i];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === ',' && !depth) { parts.push(selectorText.slice(start, i)); start = i + 1; }
  }
  parts.push(selectorText.slice(start));
  compounds = [];
  for (const part of parts) {
    const at = part.indexOf(':hover');
    if (at < 0) continue;
    let end = at;
    for (depth = 0; end < part.length; end++) {
      const c = part[end];
      if (c === '(' || c === '[') depth++;
      else if (c === ')' || c === ']') depth--;
      else if (!depth && /[\\s>+~]/.test(c)) break;
    }
    compounds.push(part.slice(0, end).replace(/:hover/g, '')
      .replace(/::?(before|after|first-line|first-letter|marker|placeholder|selection)\\b/g, '')
      .replace(/::[\\w-]+/g, '').trim() || '*');
  }
  cache.set(selectorText, compounds);
  return compounds;
}
function HOVER_SENSITIVE(x, y) {
  const listened = window.__agHoverListened;
  if (!listened || listened(window) || listened(document)) return true;
  const inline = '"""
    + _HOVER_EVENTS
    + """'.split(' ').map((t) => 'on' + t);
  const hovered = LAST_HOVERED();
  const elements = [];
  for (let node of [document.elementFromPoint(x, y), hovered]) {
    for (; node; node = node.parentNode || node.host) {
      if (listened(node)) return true;
      if (node.nodeType !== 1) continue;
      if (inline.some((name) => node.hasAttribute(name))) return true;
      elements.push(node);
      if (node.tagName === 'LABEL' && node.control) elements.push(node.control);
    }
  }
  const reached = (selectorText) => HOVER_COMPOUNDS(selectorText).some((compound) => {
    try { return elements.some((el) => el.matches(compound)); } catch (error) { return true; }
  });
  const scan = (rules) => Array.from(rules).some((rule) =>
    (rule.selectorText && rule.selectorText.includes(':hover') && reached(rule.selectorText)) ||
    (rule.cssRules && scan(rule.cssRules)));
  for (const sheet of document.styleSheets) {
    let rules;
    try { rules = sheet.cssRules; } catch (error) {
      const known = window.__agHoverRules && window.__agHoverRules[sheet.href];
      if (!known) return true;
      if (known.some(reached)) return true;
      continue;
    }
    if (rules && scan(rules)) return true;
  }
  return false;
}
"""
)

#: The addresses of the page's stylesheets (``HOVER_SENSITIVE`` reads the ``file://`` ones
#: through the driver).
STYLESHEETS = "() => Array.from(document.styleSheets, (s) => s.href).filter(Boolean)"
#: Give ``HOVER_SENSITIVE`` the ``:hover`` selectors of the stylesheets it cannot read.
SET_HOVER_RULES = "(rules) => { window.__agHoverRules = rules; }"

#: Where the pointer rests (``[x, y]``, viewport pixels; a capture listener records every
#: mousemove) when the page's hover state is stale there: the element under it is not the one
#: the page last saw the pointer enter (the page changed under a still pointer). Chromium would
#: catch up at its next animation frame, which comes on the real clock, so the mouseover and
#: mouseout events (and the timers a menu starts on them) came at a page time set by the machine
#: (click-menu's submenus were open or closed at a replay's step); the driver moves the pointer
#: there instead, at once. null when the hover state is current or the pointer never moved.
POINTER_WATCH = """
  if (!window.__agPointerWatch) {
    window.__agPointerWatch = true;
    const add = window.__agAddListener || EventTarget.prototype.addEventListener;
    add.call(document, 'mousemove', (e) => { window.__agPointer = [e.clientX, e.clientY]; }, true);
  }
"""
STALE_POINTER_FN = (
    _LAST_HOVERED_FN
    + """
function STALE_POINTER() {
  const at = window.__agPointer;
  if (!at) return null;
  return document.elementFromPoint(at[0], at[1]) === LAST_HOVERED() ? null : at;
}
"""
)

#: Start loading every picture the page's stylesheets name (once per document, kept in
#: ``window.__agPictureImages``) and force a layout, so that every picture an observation could
#: depend on is a fetch in flight, which holds virtual time until it arrives. Many tasks draw
#: icons with CSS (``content: url(star.png)``): such an element has no size until its picture
#: arrives, and the snapshot skips sizeless elements, so a first observation taken while a
#: picture was still loading lacked those icons and its replay did not match. Kept, because the
#: memory cache drops a picture nothing references at the next garbage collection
#: (email-inbox-noscroll's opened email then showed its back and reply icons a layout later).
_PRELOAD_PICTURES = r"""
  if (!window.__agPictureImages) {
    const urls = new Set();
    const scan = (rules, base) => {
      for (const rule of rules) {
        if (rule.cssRules) scan(rule.cssRules, base);
        for (const m of (rule.cssText || '').matchAll(/url\(\s*['"]?([^'")]+)['"]?\s*\)/g)) {
          try { urls.add(new URL(m[1], base).href); } catch (e) { /* not a URL */ }
        }
      }
    };
    for (const sheet of document.styleSheets) {
      let rules = null;
      try { rules = sheet.cssRules; } catch (e) { continue; }  /* another origin's sheet */
      scan(rules, sheet.href || document.baseURI);
    }
    window.__agPictureImages = Array.from(urls).map((src) => {
      const img = new Image();
      img.src = src;
      return img;
    });
  }
  if (document.body) document.body.getBoundingClientRect();
"""

#: Resolves once the pictures still loading have arrived (or failed), or after ``limit`` ms of
#: real time; page time stands still meanwhile, so a picture arrives at the same page time on a
#: fast or a loaded machine.
WAIT_PICTURES = """(limit) => {
  const loading = [...window.__agPictureImages, ...document.images]
    .filter((img) => !img.complete && img.src)
    .map((img) => img.decode().catch(() => null));
  const clock = window.__agClock;
  let timer = null;
  const timeout = new Promise((done) => { timer = clock.realSetTimeout(done, limit); });
  return Promise.race([Promise.all(loading), timeout]).then(() => clock.realClearTimeout(timer));
}"""


#: The instruction with textless elements named: a colour swatch by its colour (as the page's own
#: utterance does), an icon by its last class name.
QUERY_TEXT_FN = """
function QUERY_TEXT() {
  const query = document.getElementById('query');
  if (!query) return '';
  let text = '';
  (function walk(node) {
    for (const child of node.childNodes) {
      const textless = child.nodeType === 1 && !/\\S/.test(child.textContent);
      if (child.nodeType === 3) text += child.data;
      else if (textless && child.style.backgroundColor) {  // click-color's swatch
        text += ' ' + child.style.backgroundColor + ' ';
      } else if (textless && child.className) {
        const names = String(child.className).trim().split(/\\s+/);
        text += ' [' + names[names.length - 1] + '] ';
      } else if (child.nodeType === 1) walk(child);
    }
  })(query);
  return text.replace(/\\s+/g, ' ').trim();
}
"""

#: The instruction text alone (for tasks that build it after a delay).
QUERY_TEXT = "() => {\n" + QUERY_TEXT_FN + "\nreturn QUERY_TEXT();\n}"

#: The reward state core.js exposes.
EPISODE_STATE = """
() => ({done: WOB_DONE_GLOBAL, raw: WOB_RAW_REWARD_GLOBAL, reason: WOB_REWARD_REASON,
        ready: WOB_TASK_READY, utterance: core.getUtterance()})
"""

#: A compact list of the visible elements, assigning per-episode ids (data-agid) on first sight.
SNAPSHOT = r"""
() => {
  const ag = window.__ag || (window.__ag = {ep: 1, next: 1});
  const ep = String(ag.ep);
  // #input-flicker: terminal's caret, which blinks every 800 ms (no information, only timing)
  const SKIP_IDS = new Set(['reward-display', 'sync-task-cover', 'click-canvas', 'query',
                            'input-flicker']);
  const SKIP_TAGS = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'BR', 'HR', 'LINK',
                             'META']);
  const CONTROLS = new Set(['INPUT', 'TEXTAREA', 'SELECT', 'BUTTON', 'A', 'LABEL', 'IMG']);
  const out = [];
  const clip = (s, n) => (s.length > n ? s.slice(0, n) + '...' : s);
  const norm = (s) => s.replace(/\s+/g, ' ').trim();
  function idOf(el) {
    if (el.getAttribute('data-agep') === ep) return +el.getAttribute('data-agid');
    const id = ag.next++;
    el.setAttribute('data-agid', String(id));
    el.setAttribute('data-agep', ep);
    return id;
  }
  function colorOf(el, style) {
    const inline = el.style && el.style.backgroundColor;
    if (inline) return inline;
    const bg = style.backgroundColor;
    return (bg && bg !== 'rgba(0, 0, 0, 0)' && bg !== 'transparent') ? bg : '';
  }
  function node_has_text(el) {
    const t = el.tagName.toLowerCase();
    return t === 'label' || t === 'button' || t === 'a';
  }
  function walk(el, depth) {
    if (SKIP_IDS.has(el.id) || SKIP_TAGS.has(el.tagName.toUpperCase())) return;
    // jQuery UI's screen-reader live region: clipped to nothing on screen, and it keeps the last
    // episode's announcement ("Azerbaijan") on a reused page
    if (el.classList && el.classList.contains('ui-helper-hidden-accessible')) return;
    const style = getComputedStyle(el);
    if (style.display === 'none') return;
    const rect = el.getBoundingClientRect();
    const shown = style.visibility !== 'hidden' && rect.width > 0 && rect.height > 0
                  && style.opacity !== '0';
    const tag = el.tagName.toLowerCase();
    const kids = [], texts = [];
    let elementKids = 0;
    for (const child of el.childNodes) {
      if (child.nodeType === 3) { if (/\S/.test(child.data)) kids.push(child); }
      else if (child.nodeType === 1) { kids.push(child); elementKids++; }
    }
    const isSvgShape = el instanceof SVGElement && tag !== 'svg' && tag !== 'g';
    const pointer = style.cursor === 'pointer' && !(el.parentElement &&
        getComputedStyle(el.parentElement).cursor === 'pointer');
    const control = CONTROLS.has(el.tagName) || el.hasAttribute('onclick') || pointer
                    || el.getAttribute('role') === 'button'
                    || (el.isContentEditable && el.contentEditable === 'true');
    const textOnly = elementKids === 0 && kids.length > 0;
    const leaf = kids.length === 0;
    const mixed = elementKids > 0 && elementKids < kids.length;
    // Mixed text and elements whose elements carry no text (icons): the text labels the element.
    const iconsOnly = mixed && Array.from(el.children).every((c) => !/\S/.test(c.textContent));
    const emit = shown && (control || textOnly || leaf || isSvgShape || mixed);
    let childDepth = depth;
    if (emit) {
      const node = {id: idOf(el), depth: depth, tag: tag};
      const labelLike = tag === 'label' || tag === 'button' || tag === 'a' || iconsOnly;
      if ((textOnly || labelLike) && tag !== 'textarea' && tag !== 'select') {
        const text = norm(el.textContent);
        if (text) node.text = clip(text, 200);
      }
      if (el.id) node.htmlId = el.id;
      if (typeof el.className === 'string' && el.className) {
        node.cls = clip(el.className.trim(), 60);
      }
      if (tag === 'input') {
        node.type = el.type;
        if (el.type === 'checkbox' || el.type === 'radio') node.checked = el.checked;
        else node.value = clip(el.value, 200);
        if (el.placeholder) node.placeholder = el.placeholder;
      } else if (tag === 'textarea') {
        node.value = clip(el.value, 400);
      } else if (tag === 'select') {
        node.value = el.value;
        node.options = Array.from(el.options).map((o) => norm(o.textContent));
      }
      if (el.disabled) node.disabled = true;
      if (document.activeElement === el) node.focused = true;
      if (leaf && !isSvgShape && !CONTROLS.has(el.tagName)) {
        const c = colorOf(el, style);
        if (c) node.color = c;
      }
      if (isSvgShape) {
        const fill = el.getAttribute('fill') || style.fill;
        if (fill && fill !== 'none') node.color = fill;
        if (tag === 'text') node.text = norm(el.textContent);
        node.size = Math.round(rect.width) + 'x' + Math.round(rect.height);
      }
      if (window.__agBoxes) {  // the text_bbox observation: page CSS pixels, rounded
        node.box = [Math.round(rect.left + window.scrollX), Math.round(rect.top + window.scrollY),
                    Math.round(rect.width), Math.round(rect.height)];
      }
      if (el.getAttribute('title')) node.title = el.getAttribute('title');
      if (el.getAttribute('aria-label')) node.aria = el.getAttribute('aria-label');
      const oy = style.overflowY;
      if ((oy === 'auto' || oy === 'scroll') && el.scrollHeight > el.clientHeight + 1) {
        node.scroll = [Math.round(el.scrollTop), Math.round(el.scrollHeight - el.clientHeight)];
      }
      out.push(node);
      childDepth = depth + 1;
      if (textOnly || tag === 'select' || tag === 'textarea' || tag === 'text') return;
    }
    for (const child of kids) {
      if (child.nodeType === 3) {
        const labelled = emit && (node_has_text(el) || iconsOnly);
        if (shown && elementKids > 0 && !labelled) {
          out.push({depth: childDepth, tag: '#text', text: clip(norm(child.data), 200)});
        }
      } else {
        walk(child, childDepth);
      }
    }
  }
  walk(document.body, 0);
  return out;
}
"""

#: An observation as a JS expression: the reward state and the snapshot.
_OBSERVED = "{state: (" + EPISODE_STATE.strip() + ")(), nodes: (" + SNAPSHOT.strip() + ")()}"
#: The reward state and the snapshot, in one round trip (an observation).
OBSERVE = "() => (" + _OBSERVED + ")"

#: ``IDLE(horizon, observe, pointer)``: how much page time (ms) the page still needs before it is
#: idle, 0 when it is: the latest due
#: time of its pending ``setTimeout`` timers that fall within ``horizon`` ms (an autocomplete's
#: search 300 ms after the last key, a menu's submenu 300 ms after the pointer entered, terminal
#: focusing its input 200 ms after it starts, a Quill toolbar following the selection, an
#: animation's next frame), and the end of every running jQuery animation (jQuery 1.12 steps
#: them from a 13 ms ``setInterval``). Repeating timers (stock-market's ticker, a caret's blink)
#: and timers further off than ``horizon`` are the page's own pace, not part of an action's
#: effect. Starts the picture loads first (``_PRELOAD_PICTURES``). With it, ``pointer``: where
#: to move the pointer again when the hover state is stale (``STALE_POINTER_FN``; only when
#: ``pointer`` is set: a parked pointer is left alone), ``loading``:
#: whether a picture is still on its way (``WAIT_PICTURES``), and, when ``observe`` is set and
#: the page is idle, ``observed``: the reward state and the snapshot (saving a round trip).
_IDLE_FN = (
    "function IDLE(horizon, observe, pointer) {\n"
    + STALE_POINTER_FN
    + _PRELOAD_PICTURES
    + POINTER_WATCH
    + """
  const clock = window.__agClock;
  let need = clock ? clock.need(horizon) : 0;
  const now = Date.now();
  const $ = window.jQuery;
  if ($ && $.timers) {
    for (const tick of $.timers) {
      const anim = tick.anim;
      const end = anim && anim.duration !== undefined ? anim.startTime + anim.duration : 0;
      need = Math.max(need, end - now + 14, 14);
    }
  }
  const loading = (img) => !img.complete && img.src;
  const pictures = window.__agPictureImages.some(loading) ||
                   Array.from(document.images).some(loading);
  const idle = {need: Math.ceil(need), pointer: pointer ? STALE_POINTER() : null,
                loading: pictures};
  if (observe && !idle.need && !idle.pointer && !idle.loading) {
    idle.observed = """
    + _OBSERVED
    + """;
  }
  return idle;
}"""
)
#: One round of settling, in one round trip: the page's ``IDLE`` before; unless the pointer must
#: move again or a picture is loading (returned at once, ``advanced`` 0), page time passes:
#: ``least`` ms if the page needs none, else what it needs and ``quantum`` at least, ``cap`` at
#: most; then ``IDLE`` after (with the observation when idle), and ``advanced``.
_SETTLE_FN = """
async function SETTLE([least, quantum, cap, horizon, pointer]) {
  const before = IDLE(horizon, false, pointer);
  if (before.pointer || before.loading) return Object.assign(before, {advanced: 0});
  let ms = before.need > 0 ? Math.max(before.need, quantum, least) : least;
  ms = Math.min(ms, cap);
  if (ms > 0) await window.__agClock.advance(ms);
  return Object.assign(IDLE(horizon, true, pointer), {advanced: ms});
}
"""
SETTLE_STEP = "(args) => {\n" + _IDLE_FN + _SETTLE_FN + "\nreturn SETTLE(args);\n}"


#: Start an episode with Farama's seeding calls: the raw utterance (string or object), the
#: instruction as text with pictures named (icons in #query become "[icon-class]"), whether the
#: task is ready (one that builds itself after a delay is not yet), and, when it is, the first
#: round of settling (``SETTLE_STEP`` with the ``settle`` arguments; in the common case the whole
#: reset is this one round trip). ``frozenNow`` (ms since the epoch, or null):
#: while the episode is built, ``new Date()`` and ``Date.now()`` give that instant (terminal
#: prints "Last login: <today>", which made the same seed differ from one day to the next).
START_EPISODE = (
    "async ([seed, maxTime, mode, frozenNow, boxes, settle]) => {\n"
    + QUERY_TEXT_FN
    + _IDLE_FN
    + _SETTLE_FN
    + """
  window.__agBoxes = !!boxes;
  core.endEpisode(0);
  // A reused page starts as a fresh one would: no focus, selection or scroll left by the last
  // episode, and Tab's starting point at the top (focusing then blurring a first, untabbable
  // element of the body moves it there; a plain blur leaves it at the last focused element)
  let top = document.getElementById('agentgym-focus-start');
  if (!top) {
    top = document.createElement('span');
    top.id = 'agentgym-focus-start';
    top.tabIndex = -1;
    top.style.cssText = 'position:absolute;left:0;top:0;width:0;height:0;overflow:hidden';
    document.body.insertBefore(top, document.body.firstChild);
  }
  top.focus();
  top.blur();
  window.getSelection().removeAllRanges();
  window.scrollTo(0, 0);
  for (const el of document.querySelectorAll('*')) {  // scrolled boxes kept across episodes
    if (el.scrollTop || el.scrollLeft) { el.scrollTop = 0; el.scrollLeft = 0; }
  }
  Math.seedrandom(seed);
  core.setDataMode(mode);
  core.EPISODE_MAX_TIME = maxTime;"""
    + POINTER_WATCH
    + """  const RealDate = window.Date;
  if (frozenNow !== null) {  // the task prints today's date: show the same day on every run
    window.Date = class extends RealDate {
      constructor(...args) { if (args.length) super(...args); else super(frozenNow); }
      static now() { return frozenNow; }
    };
  }
  try {
    core.startEpisodeReal();
  } finally {
    window.Date = RealDate;
  }
  window.__ag = {ep: (window.__ag ? window.__ag.ep : 0) + 1, next: 1};
  const started = {utterance: core.getUtterance(), ready: WOB_TASK_READY, query: QUERY_TEXT()};
  if (started.ready) started.settle = await SETTLE(settle);
  return started;
}
"""
)


#: JS helpers shared by the click scripts: would a press at (x, y) reach ``el``? (a label passes
#: its clicks to its control); where would one: the centre of its box, else the point of a 7x7
#: grid over the box nearest the centre that reaches it (a person presses the part they see:
#: click-pie's slice path under its label), null where none does.
_PRESS_REACHES = """
  const pressReaches = (el, x, y) => {
    const hit = document.elementFromPoint(x, y);
    return !!hit && (hit === el || el.contains(hit) ||
                     (hit.tagName === 'LABEL' && hit.control === el));
  };
  const pressPoint = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return null;
    const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
    if (pressReaches(el, cx, cy)) return [cx, cy];
    const grid = [];
    for (let j = 0; j < 7; j++) {
      for (let i = 0; i < 7; i++) {
        grid.push([r.left + (r.width * (i + 0.5)) / 7, r.top + (r.height * (j + 0.5)) / 7]);
      }
    }
    const away = ([x, y]) => Math.hypot(x - cx, y - cy);
    grid.sort((a, b) => away(a) - away(b));  // stable: ties keep the grid's order
    return grid.find(([x, y]) => pressReaches(el, x, y)) || null;
  };
"""

#: Where a trusted click on element ``id`` would land (``reachable``: a press there reaches it),
#: or why it cannot happen; ``hover``: whether hovering it first could change the page
#: (``HOVER_SENSITIVE``).
CLICK_TARGET = (
    """
(id) => {"""
    + _PRESS_REACHES
    + HOVER_SENSITIVE_FN
    + """
  const el = document.querySelector(`[data-agid="${id}"][data-agep="${window.__ag.ep}"]`);
  if (!el) return {error: 'missing'};
  if (el.disabled) return {error: 'disabled'};
  el.scrollIntoView({block: 'nearest', inline: 'nearest'});
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return {error: 'hidden'};
  const point = pressPoint(el);
  const [x, y] = point || [r.left + r.width / 2, r.top + r.height / 2];
  return {x: x, y: y, reachable: !!point, tag: el.tagName.toLowerCase(),
          type: el.type || '', editable: el.isContentEditable, hover: HOVER_SENSITIVE(x, y)};
}
"""
)

#: After the pointer moved onto element ``id``: where a press would reach it now (at its
#: centre, else at a point of ``pressPoint``'s grid), or ``reachable: false``. Hover styles can
#: swap an icon's image and reflow it (social-media's ``.like:hover {content: url(...)}``): a
#: press while the new image loads lands on the parent, so the driver lets page time pass (the
#: picture's fetch holds it) and asks again.
SETTLED_TARGET = (
    """
(id) => {"""
    + _PRESS_REACHES
    + """
  const el = document.querySelector(`[data-agid="${id}"][data-agep="${window.__ag.ep}"]`);
  if (!el) return {reachable: false};
  const point = pressPoint(el);
  return point ? {x: point[0], y: point[1], reachable: true} : {reachable: false};
}
"""
)

#: Untrusted click for occluded targets: the mouse event sequence a real click fires.
JS_CLICK = """
(id) => {
  const el = document.querySelector(`[data-agid="${id}"][data-agep="${window.__ag.ep}"]`);
  const fire = (type) => el.dispatchEvent(new MouseEvent(type, {bubbles: true, cancelable: true,
                                                                view: window}));
  fire('mousedown');
  if (el.focus) el.focus();
  fire('mouseup');
  if (typeof el.click === 'function') el.click(); else fire('click');  // SVG has no click()
}
"""

#: After ``type``'s click: focus the field (the element itself if it is one, else whatever the click
#: focused, e.g. a terminal's hidden input) and clear it so typing replaces the content.
#: Returns false when no text field has the focus.
CLEAR_FIELD = """
([id, isField]) => {
  const target = document.querySelector(`[data-agid="${id}"][data-agep="${window.__ag.ep}"]`);
  if (isField && target && document.activeElement !== target) target.focus();
  const el = document.activeElement;
  const NOT_TEXT = ['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'image', 'range'];
  const editable = el && (el.isContentEditable || el.tagName === 'TEXTAREA' ||
                          (el.tagName === 'INPUT' && !NOT_TEXT.includes(el.type)));
  if (!editable) return false;
  if (el.isContentEditable) { el.textContent = ''; } else { el.value = ''; }
  el.dispatchEvent(new Event('input', {bubbles: true}));
  return true;
}
"""

#: Scroll element ``id`` (or the page for body/html) by most of a view.
SCROLL = """
([id, direction]) => {
  const el = document.querySelector(`[data-agid="${id}"][data-agep="${window.__ag.ep}"]`);
  if (!el) return false;
  const target = (el === document.body || el === document.documentElement)
      ? document.scrollingElement : el;
  const page = Math.max(40, Math.round(target.clientHeight * 0.8));
  if (direction === 'top') target.scrollTop = 0;
  else if (direction === 'bottom') target.scrollTop = target.scrollHeight;
  else target.scrollTop += direction === 'up' ? -page : page;
  target.dispatchEvent(new Event('scroll'));
  return true;
}
"""

#: Page points (CSS pixels from the page's top-left) as viewport points for the mouse, or the
#: first one outside the page (``{error}``). A point off the visible part must be scrolled to.
VIEWPORT_POINTS = """
(points) => {
  const doc = document.documentElement;
  const width = Math.max(doc.scrollWidth, window.innerWidth);
  const height = Math.max(doc.scrollHeight, window.innerHeight);
  const out = [];
  for (const [x, y] of points) {
    if (x < 0 || y < 0 || x >= width || y >= height) {
      return {error: `point (${x}, ${y}) is outside the page (${width}x${height} CSS pixels)`};
    }
    const vx = x - window.scrollX, vy = y - window.scrollY;
    if (vx < 0 || vy < 0 || vx >= window.innerWidth || vy >= window.innerHeight) {
      return {error: `point (${x}, ${y}) is outside the visible part of the page; scroll first`};
    }
    out.push([vx, vy]);
  }
  return {points: out};
}
"""

#: JS helper of the text-selection scripts: where ``wanted`` starts in the text of ``el``
#: (exactly, else ignoring case; -1 if absent), and ``locate(i, end)``: the text node and offset
#: of character ``i`` (``end``: as the end of a range).
_TEXT_IN = r"""
  const textIn = (el, wanted) => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const nodes = [];
    let all = '';
    for (let n = walker.nextNode(); n; n = walker.nextNode()) { nodes.push([n, all.length]);
                                                                all += n.data; }
    let at = all.indexOf(wanted);
    if (at < 0) at = all.toLowerCase().indexOf(wanted.toLowerCase());
    const locate = (i, end) => { let k = nodes.length - 1;
                                 while (k > 0 && (end ? nodes[k][1] >= i : nodes[k][1] > i)) k--;
                                 return [nodes[k][0], i - nodes[k][1]]; };
    return {at, locate};
  };
"""

#: Where a mouse drag selecting ``text`` inside element ``id`` starts and ends (viewport points
#: inside the first and last characters, nearer their outer edges), or why it cannot:
#: ``{error: 'missing' | 'hidden' | 'not found'}``. Matches exactly, else ignoring case. Clears
#: the page's selection first (pressing on selected text would drag it, not select anew).
TEXT_SPAN = (
    r"""
([id, wanted]) => {"""
    + _TEXT_IN
    + r"""
  const el = document.querySelector(`[data-agid="${id}"][data-agep="${window.__ag.ep}"]`);
  if (!el) return {error: 'missing'};
  const {at, locate} = textIn(el, wanted);
  if (at < 0) return {error: 'not found'};
  const charRect = (i) => { const [n, o] = locate(i, false); const r = document.createRange();
                            r.setStart(n, o); r.setEnd(n, o + 1);
                            return Array.from(r.getClientRects()).find((c) => c.width > 0); };
  el.scrollIntoView({block: 'nearest', inline: 'nearest'});
  // a press on selected text would start a native drag of it instead of a new selection
  window.getSelection().removeAllRanges();
  const first = charRect(at), last = charRect(at + wanted.length - 1);
  if (!first || !last) return {error: 'hidden'};
  return {start: [first.left + Math.min(1, first.width / 4), first.top + first.height / 2],
          end: [last.right - Math.min(1, last.width / 4), last.top + last.height / 2]};
}
"""
)

#: The page's selected text.
SELECTION_TEXT = "() => window.getSelection().toString()"

#: Select ``text`` inside element ``id`` with a DOM Range (the fallback when a mouse drag did not
#: select exactly it); the browser fires ``selectionchange`` itself. Returns whether it did.
SELECT_RANGE = (
    r"""
([id, wanted]) => {"""
    + _TEXT_IN
    + r"""
  const el = document.querySelector(`[data-agid="${id}"][data-agep="${window.__ag.ep}"]`);
  if (!el) return false;
  const {at, locate} = textIn(el, wanted);
  if (at < 0) return false;
  const range = document.createRange();
  range.setStart(...locate(at, false));
  range.setEnd(...locate(at + wanted.length, true));
  const selection = window.getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
  return true;
}
"""
)

#: The viewport box of the task area (``#wrap``) for a screenshot clip, or null.
TASK_AREA = """
() => {
  const wrap = document.getElementById('wrap');
  if (!wrap) return null;
  const r = wrap.getBoundingClientRect();
  const x = Math.max(0, Math.floor(r.left)), y = Math.max(0, Math.floor(r.top));
  const w = Math.min(window.innerWidth - x, Math.ceil(r.right) - x);
  const h = Math.min(window.innerHeight - y, Math.ceil(r.bottom) - y);
  return w > 0 && h > 0 ? {x: x, y: y, width: w, height: h} : null;
}
"""

"""Scripted solvers: the next action that solves the episode from its current state.

Each oracle is a function of the live episode (instruction, page snapshot, page JS), so it replans
after any deviation; it returns an action string in the env's grammar, or None when it has no move.
Oracles may read privileged page state (hidden card values, the task's item lists): they are the
expert for behaviour cloning, not an agent. ``ORACLES`` lists the tasks that have one.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable

from agentgym_envs.miniwob.oracles import apps, forms, pointer, simple, tools, widgets
from agentgym_envs.miniwob.oracles.view import OracleTask, View

log = logging.getLogger("agentgym_envs.miniwob")

Oracle = Callable[[View], "str | None"]
ORACLES: dict[str, Oracle] = {
    "click-test": simple.click_test,
    "click-test-2": simple.click_named_button,
    "click-test-transfer": simple.click_named_button,
    "click-button": simple.click_named_button,
    "unicode-test": simple.click_named_button,
    "click-link": simple.click_link,
    "click-dialog": simple.click_dialog,
    "click-dialog-2": simple.click_dialog_2,
    "click-widget": simple.click_widget,
    "click-color": simple.click_color,
    "click-tab": simple.click_tab,
    "click-collapsible": simple.click_collapsible,
    "click-collapsible-nodelay": simple.click_collapsible,
    "enter-text": simple.enter_text,
    "enter-text-2": simple.enter_text,
    "enter-text-dynamic": simple.enter_text,
    "enter-password": simple.enter_password,
    "focus-text": simple.focus_text,
    "focus-text-2": simple.focus_text,
    "simple-arithmetic": simple.simple_arithmetic,
    "odd-or-even": simple.odd_or_even,
    "click-button-sequence": forms.click_button_sequence,
    "click-checkboxes": forms.click_checkboxes,
    "click-checkboxes-transfer": forms.click_checkboxes,
    "click-checkboxes-large": forms.click_checkboxes,
    "click-option": forms.click_option,
    "choose-list": forms.choose_list,
    "login-user": forms.login_user,
    "login-user-popup": forms.login_user,
    "enter-date": forms.enter_date,
    "enter-time": forms.enter_time,
    "copy-paste": forms.copy_paste,
    "copy-paste-2": forms.copy_paste,
    "find-word": forms.find_word,
    "read-table": forms.read_table,
    "read-table-2": forms.read_table,
    "click-tab-2": forms.click_tab_2,
    "click-tab-2-easy": forms.click_tab_2,
    "click-tab-2-medium": forms.click_tab_2,
    "click-tab-2-hard": forms.click_tab_2,
    "simple-algebra": forms.simple_algebra,
    "text-transform": forms.text_transform,
    "use-autocomplete": forms.use_autocomplete,
    "use-autocomplete-nodelay": forms.use_autocomplete,
    "use-spinner": forms.use_spinner,
    "find-greatest": forms.find_greatest,
    "identify-shape": forms.identify_shape,
    "visual-addition": forms.visual_addition,
    "navigate-tree": forms.navigate_tree,
    "generate-number": forms.generate_number,
    "sign-agreement": forms.sign_agreement,
    "form-sequence-2": forms.form_sequence_2,
    "email-inbox": apps.email_inbox,
    "email-inbox-delete": apps.email_inbox,
    "email-inbox-important": apps.email_inbox,
    "email-inbox-noscroll": apps.email_inbox,
    "email-inbox-reply": apps.email_inbox,
    "email-inbox-forward": apps.email_inbox,
    "email-inbox-star-reply": apps.email_inbox,
    "email-inbox-nl-turk": apps.email_inbox,
    "email-inbox-forward-nl-turk": apps.email_inbox,
    "social-media": apps.social_media,
    "social-media-all": apps.social_media,
    "social-media-some": apps.social_media,
    "buy-ticket": apps.buy_ticket,
    "search-engine": apps.search_engine,
    "choose-date": apps.choose_date,
    "choose-date-easy": apps.choose_date,
    "choose-date-medium": apps.choose_date,
    "choose-date-nodelay": apps.choose_date,
    "book-flight": apps.book_flight,
    "book-flight-nodelay": apps.book_flight,
    "click-menu": widgets.click_menu,
    "click-menu-2": widgets.click_menu_2,
    "click-pie": widgets.click_pie,
    "click-pie-nodelay": widgets.click_pie,
    "use-slider": widgets.use_slider,
    "form-sequence": widgets.form_sequence,
    "form-sequence-3": widgets.form_sequence_3,
    "terminal": widgets.terminal,
    "phone-book": widgets.phone_book,
    "button-delay": widgets.button_delay,
    "scroll-text": widgets.scroll_text,
    "scroll-text-2": widgets.scroll_text_2,
    "click-collapsible-2": widgets.click_collapsible_2,
    "click-collapsible-2-nodelay": widgets.click_collapsible_2,
    "use-slider-2": widgets.use_slider_2,
    "click-scroll-list": widgets.click_scroll_list,
    "stock-market": widgets.stock_market,
    "click-shape": forms.click_shape,
    "count-shape": forms.count_shape,
    "click-checkboxes-soft": forms.click_checkboxes_soft,
    "guess-number": forms.guess_number,
    "multi-layouts": forms.multi_layouts,
    "multi-orderings": forms.multi_layouts,
    "click-shades": widgets.click_shades,
    "ascending-numbers": widgets.ascending_numbers,
    "email-inbox-forward-nl": apps.email_inbox_forward_nl,
    "order-food": apps.order_food,
    "tic-tac-toe": widgets.tic_tac_toe,
    "daily-calendar": widgets.daily_calendar,
    "grid-coordinate": tools.grid_coordinate,
    "use-colorwheel": tools.use_colorwheel,
    "text-editor": tools.text_editor,
    "circle-center": pointer.circle_center,
    "find-midpoint": pointer.find_midpoint,
    "right-angle": pointer.right_angle,
    "bisect-angle": pointer.bisect_angle,
    "draw-line": pointer.draw_line,
    "draw-circle": pointer.draw_circle,
    "drag-items": pointer.drag_items,
    "drag-items-grid": pointer.drag_items_grid,
    "drag-sort-numbers": pointer.drag_sort_numbers,
    "drag-box": pointer.drag_box,
    "drag-circle": pointer.drag_shape,
    "drag-single-shape": pointer.drag_shape,
    "drag-shapes": pointer.drag_shapes,
    "drag-shapes-2": pointer.drag_shapes_2,
    "resize-textarea": pointer.resize_textarea,
    "highlight-text": pointer.highlight_text,
    "highlight-text-2": pointer.highlight_text,
    "hot-cold": pointer.hot_cold,
    "number-checkboxes": pointer.number_checkboxes,
    "use-colorwheel-2": pointer.use_colorwheel_2,
}


def expert_action(task: OracleTask) -> str | None:
    """The oracle's next action for ``task`` (None when the task has no oracle or no move).

    An oracle that fails to read the page has no move: the failure is logged (a warning with
    the task, its seed and the error); AGENTGYM_ORACLE_DEBUG=1 raises it instead.
    """
    oracle = ORACLES.get(task.task_id)
    if oracle is None:
        return None
    try:
        return oracle(View(task))
    except Exception as error:
        if os.environ.get("AGENTGYM_ORACLE_DEBUG"):
            raise
        log.warning(
            "MiniWoB oracle for %s (seed %s) failed, so it has no move: %s: %s "
            "(AGENTGYM_ORACLE_DEBUG=1 raises it)",
            task.task_id, task.page_seed, type(error).__name__, error,
        )  # fmt: skip
        return None


__all__ = ["ORACLES", "OracleTask", "View", "expert_action"]

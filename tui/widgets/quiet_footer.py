"""A Footer that is rebuilt only when the keys it shows change.

Textual's Footer recomposes (every key widget removed, made and styled again)
whenever the screen's bindings are refreshed, even when the same keys come
back: on focus moves, on each refresh_bindings. At the table that happened on
every turn, costing start-up time and bytes over SSH. This one compares what
it would show with what it shows, and leaves itself alone when they match.
"""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer

Shown = tuple[tuple[str, str, str, bool], ...]


class QuietFooter(Footer):
    """`Footer`, minus the rebuilds that would draw the very same keys."""

    _shown: Shown | None = None

    def _keys_now(self, screen: Screen[object]) -> Shown:
        return tuple(
            (binding.key, binding.action, binding.description, enabled)
            for (_, binding, enabled, _tooltip) in screen.active_bindings.values()
            if binding.show
        )

    def bindings_changed(self, screen: Screen[object]) -> None:
        if self.is_attached and screen is self.screen and screen.app.app_focus:
            keys = self._keys_now(screen)
            if keys == self._shown:
                return
            self._shown = keys
        super().bindings_changed(screen)

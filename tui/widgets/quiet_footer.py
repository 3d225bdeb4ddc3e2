"""A Footer that redraws only the keys that changed.

Textual's Footer recomposes (every key widget removed, made and styled again,
the whole row repainted) whenever the screen's bindings are refreshed, even
when the same keys come back. At the table the keys change with the turn
("Play tile" comes and goes), and over SSH a player pays for every byte: a
rebuilt footer cost about 900 bytes a move. This one compares what it would
show with what it shows and leaves itself alone when they match. When only the
last keys differ (the table lists its turn keys last), the keys that go are
hidden in place and the ones that come back are shown again, so only their own
cells are repainted and nothing else in the row moves. Any other change
rebuilds it as Textual does.

Only Textual's public API: the key widgets are found by their CSS type,
``FooterKey`` (the name Textual's docs style them by), not by importing the
class from Textual's private ``widgets._footer``.
"""

from __future__ import annotations

from textual.binding import ActiveBinding
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer

#: The CSS type of the Footer's key widgets.
KEY = "FooterKey"

#: What one key widget shows: its key, how the key is written, its action and words, and whether it works.
Key = tuple[str, str, str, str, bool]
Shown = tuple[Key, ...]


class QuietFooter(Footer):
    """`Footer`, minus the rebuilds that would draw the very same keys."""

    _shown: Shown | None = None
    #: The command palette's key as last shown (its words change with the language).
    _palette: str | None = None

    def _keys_now(self, screen: Screen[object], active: dict[str, ActiveBinding]) -> Shown:
        """One entry per key widget the Footer would show (it shows one per action), of ``screen``'s
        ``active`` bindings."""
        shown: dict[str, Key] = {}
        for _, binding, enabled, _tooltip in active.values():
            if binding.show and binding.action not in shown:
                # How the key is written changes with ASCII mode (`CapicuApp.get_key_display`).
                written = screen.app.get_key_display(binding)
                shown[binding.action] = (binding.key, written, binding.action, binding.description, enabled)
        return tuple(shown.values())

    def on_resize(self) -> None:
        self.call_after_refresh(self._fit_width)

    def _fit_width(self, tries: int = 60) -> None:
        """Keys that would run into each other ("⏎ Jugar f^p Paleta") are drawn compact, one space apart.

        Keys just made may not be laid out yet (no width): then it looks again a moment later
        (every 50 ms, for 3 s at most), rather than judge a row of empty keys to fit."""
        if not self.is_attached:
            return
        keys = [w for w in self.query_children(KEY) if w.styles.visibility != "hidden"]
        if any(key.outer_size.width == 0 for key in keys) and tries > 0:
            self.set_timer(0.05, lambda: self._fit_width(tries - 1))
            return
        needed = sum(key.outer_size.width for key in keys)
        # Compact saves two cells a key (Textual's padding); leave it only when the roomy form fits again.
        roomy = needed + (0 if not self.compact else 2 * len(keys))
        if needed > self.size.width and not self.compact:
            self.compact = True
        elif self.compact and roomy <= self.size.width:
            self.compact = False

    def bindings_changed(self, screen: Screen[object]) -> None:
        if not (self.is_attached and screen is self.screen and screen.app.app_focus):
            super().bindings_changed(screen)
            return
        # Textual works the active bindings out anew (every key's check) each time it is asked: once here.
        active = screen.active_bindings
        keys = self._keys_now(screen, active)
        before, self._shown = self._shown, keys
        palette = active.get(screen.app.COMMAND_PALETTE_BINDING)
        words, self._palette = self._palette, palette.binding.description if palette is not None else None
        if words != self._palette and before is not None:
            super().bindings_changed(screen)  # another language: every key is new
            return
        if keys == before:
            return
        grouped = any(binding.group is not None for (_, binding, _, _) in active.values())
        if before is None or grouped:
            super().bindings_changed(screen)
            return
        self.call_after_refresh(self._change_tail, before, keys)

    #: The key widgets after the part that stayed, in order, shown or hidden: (key, widget).
    _tail: tuple[tuple[Key, Widget], ...] = ()

    async def recompose(self) -> None:
        self._tail = ()
        await super().recompose()
        self.call_after_refresh(self._fit_width)

    def _keys_shown(self) -> list[Widget]:
        return [w for w in self.query_children(KEY) if not w.has_class("-command-palette")
                and w.styles.visibility != "hidden"]

    async def _change_tail(self, before: Shown, keys: Shown) -> None:
        """Hide the keys after the ones that stayed, show (or make) the new ones."""
        same = 0
        while same < min(len(before), len(keys)) and before[same] == keys[same]:
            same += 1
        shown = self._keys_shown()
        if len(shown) != len(before):
            await self.recompose()  # not the footer we thought: build it whole
            return
        tail = [(key, widget) for key, widget in zip(before[same:], shown[same:], strict=True)]
        # Keys hidden earlier, right after these, can come back as they were.
        hidden = [(key, widget) for key, widget in self._tail if widget.styles.visibility == "hidden"]
        for _, widget in tail:
            widget.styles.visibility = "hidden"
        spare = tail + hidden
        wanted = list(keys[same:])
        if [key for key, _ in spare[: len(wanted)]] == wanted:
            for _, widget in spare[: len(wanted)]:
                widget.styles.visibility = "visible"
            self._tail = tuple(spare)
            self.call_after_refresh(self._fit_width)
            return
        # Something new: drop the spare widgets and make the wanted ones.
        made = [w for w in self.compose() if type(w).__name__ == KEY and not w.has_class("-command-palette")]
        if len(made) != len(keys):
            await self.recompose()
            return
        await self.remove_children([widget for _, widget in spare])
        anchor = shown[same - 1] if same else None
        if anchor is not None:
            await self.mount_all(made[same:], after=anchor)
        elif self.children:
            await self.mount_all(made[same:], before=0)
        else:
            await self.mount_all(made[same:])
        self._tail = tuple(zip(wanted, made[same:], strict=True))
        self.call_after_refresh(self._fit_width)

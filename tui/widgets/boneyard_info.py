"""El pozo (the boneyard): how many tiles it holds and how many can still be drawn."""

from __future__ import annotations

from capicu.core import View
from capicu.tui.words.messages import t, tn
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget


class BoneyardInfo(Widget):
    """One line about el pozo, from `View.boneyard` and `View.drawable`."""

    DEFAULT_CSS = """
    BoneyardInfo {
        height: 1;
        width: auto;
        padding: 0 1;
    }
    BoneyardInfo.-empty {
        color: $text-muted;
    }
    """

    count: reactive[int] = reactive(0)
    drawable: reactive[int] = reactive(0)
    #: False for games without drawing (the undealt tiles are set aside).
    drawing: reactive[bool] = reactive(True)
    #: The short form ("pozo 12 (10 drawable)") for narrow screens.
    short: reactive[bool] = reactive(False, layout=True)

    def update_boneyard(self, count: int, drawable: int, drawing: bool = True) -> None:
        """Show these counts; unchanged counts redraw nothing."""
        self.count = count
        self.drawable = drawable
        self.drawing = drawing
        self.set_class(drawing and drawable == 0, "-empty")

    def update_from_view(self, view: View) -> None:
        self.update_boneyard(view.boneyard, view.drawable, view.rules.drawing)

    def sentence(self) -> str:
        count, short = self.count, self.short
        if not self.drawing:
            if count == 0:
                return t("All tiles dealt") if short else t("All tiles dealt (no drawing)")
            if short:
                return tn("{count} set aside", "{count} set aside", count)
            return tn("{count} tile set aside (no drawing)", "{count} tiles set aside (no drawing)", count)
        if count == 0:
            return t("Nothing left in el pozo")
        if short:
            # TRANSLATORS: short, for a narrow side panel: "pozo 12 (10 drawable)"; the count is the drawable.
            return tn("pozo {tiles} ({count} drawable)", "pozo {tiles} ({count} drawable)", self.drawable,
                      tiles=count)
        # TRANSLATORS: {tiles} is "12 tiles"; the count is how many of them can be drawn.
        return tn("{tiles} in el pozo, {count} can be drawn", "{tiles} in el pozo, {count} can be drawn",
                  self.drawable, tiles=tn("{count} tile", "{count} tiles", count))

    def render(self) -> Text:
        # Cropped, not ellipsised: "…" is not ASCII, and ASCII mode must stay ASCII.
        return Text(self.sentence(), no_wrap=True, overflow="crop", end="")

"""Make docs/table.svg, the picture of the table in the README, with Textual's own screenshot.

The game is a fixed solo deal (seed 3, three players, computers that play at
once) played by key presses until this player's second turn, so the picture
only changes when the look does. Run it again after changing a widget, a
theme or the stylesheet:

    python docs/make_screenshot.py [--size 100x30] [--theme felt]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


async def make(path: Path, size: tuple[int, int], theme: str) -> None:
    from capicu.core import DRAW, PASS, Play, Rules
    from capicu.tui.app import CapicuApp
    from capicu.tui.game import DisplayOptions, SoloGame

    request = SoloGame(Rules.preset_named("puerto-rican-drawing"), 3, "normal", seed=3, name="Ana", pace=0.0)
    app = CapicuApp(DisplayOptions(mouse=False, theme=theme), request)

    def my_turn() -> bool:
        view = app.game.view if app.game else None
        return bool(view and view.is_my_turn and view.legal not in ((), (DRAW,)))

    async with app.run_test(size=size) as pilot:

        async def until(condition: object) -> None:
            for _ in range(500):
                if condition():  # type: ignore[operator]
                    return
                await pilot.pause(0.02)
            raise TimeoutError("the game did not get there")

        await until(my_turn)
        assert app.game is not None and app.game.view is not None
        view = app.game.view
        plays = [a for a in view.legal if isinstance(a, Play)]
        if view.legal == (PASS,):
            await pilot.press("p")
        else:
            await pilot.press("home")
            for _ in range(view.hand.index(plays[0].tile)):
                await pilot.press("right")
            await pilot.press("enter")
        await until(lambda: app.game is not None and app.game.view is not view and my_turn())
        await pilot.press("right")
        await pilot.wait_for_scheduled_animations()
        await pilot.pause(0.2)
        app.clear_notifications()
        await pilot.pause()
        app.save_screenshot(filename=path.name, path=str(path.parent))


def main() -> int:
    parser = argparse.ArgumentParser(description="Make the README's picture of the table.")
    parser.add_argument("--size", default="80x24", help="columns x rows (default: %(default)s)")
    parser.add_argument("--theme", default="felt")
    parser.add_argument("--out", type=Path, default=HERE / "table.svg")
    args = parser.parse_args()
    columns, rows = (int(n) for n in args.size.lower().split("x"))
    with tempfile.TemporaryDirectory() as config:
        # Never read the user's settings (their name or theme would end up in the picture).
        os.environ["CAPICU_CONFIG_DIR"] = config
        asyncio.run(make(args.out, (columns, rows), args.theme))
    print(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""A host message field end to end: `seats.watchers`, from the real host to the lobby on screen.

The field was added as the client's model was made one: it touches its
declaration (net/protocol.py `Seats.watchers`), the model (net/model.py, the
seat map's branch of `TableModel.apply`) and the screen that shows it
(tui/screens/lobby.py), and on the host's side the table that fills it in.
"""

from __future__ import annotations

from capicu.core import Rules
from capicu.net.client import Client
from capicu.net.host.server import Host, HostConfig
from capicu.net.host.table import TableConfig
from capicu.net.protocol import Seats, Welcome
from capicu.tui.app import CapicuApp
from capicu.tui.game import DisplayOptions, JoinGame
from capicu.tui.screens.lobby import LobbyScreen
from helpers_app import screen_text, wait_for

SIZE = (100, 30)


async def test_the_lobby_names_who_is_watching_as_they_come_and_go() -> None:
    host = Host(HostConfig(TableConfig(rules=Rules(), players=3), bind="127.0.0.1", port=0, code=None))
    _, port = await host.start()
    try:
        app = CapicuApp(DisplayOptions(mouse=False), JoinGame("127.0.0.1", port, "Beto", None))
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen)
                           and "Beto (you)" in screen_text(app), what="the lobby")
            assert "Carla" not in screen_text(app)
            carla = await Client.connect("127.0.0.1", port, name="Carla", spectate=True)
            # The host's seat map names her (the protocol), the model keeps it, the lobby shows it.
            assert isinstance(await carla.receive(timeout=10), Welcome)
            seats = await carla.receive(timeout=10)
            assert isinstance(seats, Seats) and seats.watchers == ("Carla",)
            await wait_for(pilot, lambda: app.table is not None and app.table.watchers == ("Carla",),
                           what="the model to know the watcher")
            await wait_for(pilot, lambda: "Carla" in screen_text(app), what="the watcher on screen")
            row = next(line for line in screen_text(app).splitlines() if "Carla" in line)
            assert "watching" in row and "connected" in row
            await carla.close()
            await wait_for(pilot, lambda: app.table is not None and app.table.watchers == (),
                           what="the watcher to go")
            await wait_for(pilot, lambda: "Carla" not in screen_text(app), what="the row to go")
    finally:
        await host.stop()


async def test_a_spectator_sees_itself_among_the_watchers() -> None:
    host = Host(HostConfig(TableConfig(rules=Rules(), players=2), bind="127.0.0.1", port=0, code=None))
    _, port = await host.start()
    try:
        app = CapicuApp(DisplayOptions(mouse=False), JoinGame("127.0.0.1", port, "Dana", None, spectate=True))
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: "Dana (you)" in screen_text(app), what="the spectator's lobby")
            row = next(line for line in screen_text(app).splitlines() if "Dana (you)" in line)
            assert "watching" in row
    finally:
        await host.stop()

"""The table's widgets, one a file; they show a `View` and never decide a rule.

How a screen uses them:

- `LineOfPlay.update_line(view.line, view.ends, view.rules.max_pip, lead=..., last=...,
  last_label=...)`, with the lead and the last tile from `line_marks(view.events)`
- `HandView.update_from_view(view)`; handle `HandView.TileChosen` (its
  ``actions`` are the tile's legal plays: two when it fits both ends, none
  when it does not fit now).
- `SeatPanel.update_seat(SeatView.from_view(view, seat, names, ...))`, and
  ``panel.timer = seconds`` while a turn timer runs; `table_positions` says
  which seat sits where by the preset's direction.
- `BoneyardInfo.update_from_view(view)`; `EventLog.add_event(...)`,
  `EventLog.add_chat(name, text)` and `add_notice(text)` (one log, one time
  order); `ChatPanel.Send` from the chat input; `StatusLine.say(text)` for a
  notice that must not cover anything.

Every widget takes ``tile_style`` and/or ``ascii`` where it matters (reactives:
set them to redraw). Their colours come from the theme variables of
`capicu.tui.prefs.themes.GAME_VARIABLES`, so the App must return them from
`get_theme_variable_defaults`. Each widget repaints only the cells that changed
(`repaint`), because SSH players pay for every byte written.

For the App: ASCII mode is three switches, the widgets' ``ascii`` (HandView,
LineOfPlay and SeatPanel) and the app's `Language.ascii`, which turns every
sentence and name into ASCII ("capicú" -> "capicu"). A change of language is a
refresh for the widgets that word themselves when drawn, `EventLog.reword` for
the log and `ChatPanel.reword` for the chat's prompt.
"""

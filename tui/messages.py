"""The message catalogue: every sentence the interface shows comes from here.

Widgets and screens never hold a sentence as a literal; they call
``t("key", name=...)``. A language is a table from key to a `str.format`
template; English is complete and is the fallback for a key another language
lacks, so a half-translated catalogue still shows every sentence. The game's own
words (tranque, capicú, chuchazo, paso, domino, la mesa, el pozo) stay in
Spanish in every language, because that is what Puerto Rican players say.

Screens add their keys with `add_messages` (at import time of the module that
uses them), so each keeps its sentences next to it while the catalogue stays one
place that tests check for completeness.

Key descriptions in ``BINDINGS`` are looked up when their class is defined, so
the command line must call `set_language` (from the settings) before it imports
the screens and widgets. `set_ascii` turns every sentence into plain ASCII for
terminals that cannot show more.
"""

from __future__ import annotations

import string
from collections.abc import Mapping

from .ascii_only import to_ascii as to_ascii  # describe.py reads it from here

DEFAULT_LANGUAGE = "en"

#: English, the reference table: every key the interface uses exists here.
ENGLISH: dict[str, str] = {
    # -- generic words --------------------------------------------------------
    "word.you": "you",
    "word.you_title": "You",
    "word.left": "left",
    "word.right": "right",
    "word.seat": "seat {number}",
    "word.team": "Team {names}",
    "word.you_team": "You & {partner}",
    "word.and_list": "{items} and {last}",
    "word.list_separator": ", ",
    "word.points": "{count} pts",
    # -- tiles and ends -----------------------------------------------------
    "end.left": "left",
    "end.right": "right",
    "line.empty": "La mesa is empty: the first tile leads the round.",
    "line.left_end": "left {number}",
    "line.right_end": "{number} right",
    "line.title": "La mesa",
    # -- keys of the widgets (Footer descriptions; screens add key.* keys) -----
    "hand.key_previous": "Previous tile",
    "hand.key_next": "Next tile",
    "hand.key_first": "First tile",
    "hand.key_last": "Last tile",
    "hand.key_play": "Play tile",
    # -- the hand -----------------------------------------------------------
    "hand.title": "Your hand",
    "hand.empty": "No tiles in hand.",
    "hand.spectator": "You are watching: no hand.",
    # -- seat panels ----------------------------------------------------------
    "seat.tiles": "{count} tiles",
    "seat.tiles_one": "1 tile",
    "seat.score": "{score} pts",
    "seat.turn": "to play",
    "seat.connected": "connected",
    "seat.away": "disconnected",
    "seat.computer": "computer",
    "seat.covered": "away, computer plays",
    "seat.timer": "{seconds}s left",
    "seat.you": "{name} (you)",
    "seat.partner": "{name} (partner)",
    # -- boneyard -------------------------------------------------------------
    "boneyard.title": "El pozo",
    "boneyard.count": "{count} tiles in el pozo, {drawable} can be drawn",
    "boneyard.count_short": "pozo {count} ({drawable} drawable)",
    "boneyard.no_drawing": "{count} tiles set aside (no drawing)",
    "boneyard.no_drawing_short": "{count} set aside",
    "boneyard.all_dealt": "All tiles dealt (no drawing)",
    "boneyard.all_dealt_short": "All tiles dealt",
    "boneyard.empty": "El pozo is empty",
    # -- events ---------------------------------------------------------------
    "event.round_started": "Round {round} starts. {leader} leads.",
    "event.round_started_you": "Round {round} starts. You lead.",
    "event.forced_lead": "{leader} must lead with {tile}.",
    "event.forced_lead_you": "You must lead with {tile}.",
    "event.redeals": "No double was dealt: the tiles were dealt again ({count}x).",
    "event.lead": "{name} leads with {tile}.",
    "event.lead_you": "You lead with {tile}.",
    "event.played": "{name} plays {tile} on the {end}.",
    "event.played_you": "You play {tile} on the {end}.",
    "event.drew": "{name} drew {count} tiles.",
    "event.drew_one": "{name} drew a tile.",
    "event.drew_you": "You drew {count} tiles.",
    "event.drew_you_one": "You drew a tile.",
    "event.drew_you_tiles": "You drew {tiles}.",
    "event.drew_you_none": "You drew no tile.",
    "event.passed": "{name} passes (paso).",
    "event.passed_you": "You pass (paso).",
    "event.round_domino": "Domino! {name} goes out with {tile}.",
    "event.round_domino_you": "Domino! You go out with {tile}.",
    "event.capicu": "¡Capicú!",
    "event.chuchazo": "¡Chuchazo!",
    "event.round_tranque": "Tranque! {name} blocked the game with {tile}.",
    "event.round_tranque_you": "Tranque! You blocked the game with {tile}.",
    "event.match_won": "{name} wins the match with {score} points.",
    "event.match_won_you": "You win the match with {score} points!",
    "event.match_won_we": "You and {partner} win the match with {score} points!",
    # -- round results -------------------------------------------------------
    # Sentences about a side come in up to four forms: "" for another player,
    # "_you" for the reader alone, "_team" for another partnership, "_we" for
    # the reader and their partner.
    "result.domino": "Round {round}: domino. {name} goes out with {tile}.",
    "result.domino_you": "Round {round}: domino. You go out with {tile}.",
    "result.tranque": "Round {round}: tranque. {name} laid the last tile, {tile}.",
    "result.tranque_you": "Round {round}: tranque. You laid the last tile, {tile}.",
    "result.hand": "{name}: {tiles} = {pips}",
    "result.hand_empty": "{name}: out",
    "result.side_count": "{name} counts {count}.",
    "result.side_count_you": "You count {count}.",
    "result.side_count_we": "You and {partner} count {count}.",
    "result.tie": "Tie at {count}: nobody scores this round.",
    "result.winner": "{name} wins the round: {points} points.",
    "result.winner_you": "You win the round: {points} points.",
    "result.winner_we": "You and {partner} win the round: {points} points.",
    "result.lowest": (
        "{name} has the lowest count ({count}) and scores the others' counts minus it: {points}."
    ),
    "result.lowest_you": (
        "You have the lowest count ({count}) and score the others' counts minus yours: {points}."
    ),
    "result.lowest_team": (
        "{name} has the lower count ({count}) and scores the other team's count minus its own: {points}."
    ),
    "result.lowest_we": (
        "You and {partner} have the lower count ({count}) and score the other team's count "
        "minus yours: {points}."
    ),
    "result.takes_others": "{name} takes every pip left in the other hands: {points}.",
    "result.takes_others_you": "You take every pip left in the other hands: {points}.",
    "result.takes_others_team": "{name} takes the pips left in the other team's hands: {points}.",
    "result.takes_others_we": "You and {partner} take the pips left in the other team's hands: {points}.",
    "result.takes_all": "{name} takes the pips left in every hand: {points}.",
    "result.takes_all_you": "You take the pips left in every hand: {points}.",
    "result.takes_all_we": "You and {partner} take the pips left in every hand: {points}.",
    "result.lightest": "{name} holds the lightest hand ({count}).",
    "result.lightest_you": "You hold the lightest hand ({count}).",
    "result.bonus": "Bonus {bonus}: +{points}.",
    "result.bonus_capicu": "Capicú bonus: +{points}.",
    "result.bonus_chuchazo": "Chuchazo bonus: +{points}.",
    "result.bonus_round": "Bonus for winning round {number}: +{points}.",
    "result.total": "{name}: {score} in total.",
    "bonus.capicu": "capicú",
    "bonus.chuchazo": "chuchazo",
    "bonus.round": "round {number}",
    # -- chat -----------------------------------------------------------------
    "chat.title": "Chat",
    "chat.placeholder": "Say something, Enter to send",
    "chat.line": "{name}: {text}",
    # -- log ------------------------------------------------------------------
    "log.title": "What happened",
    # -- themes and settings --------------------------------------------------
    "theme.warning": "Theme file {file} was skipped: {problem}",
    "theme.problem.too_big": "it is larger than {limit} bytes",
    "theme.problem.unreadable": "it cannot be read ({reason})",
    "theme.problem.not_toml": "it is not valid TOML ({reason})",
    "theme.problem.no_name": "it needs a name made of letters, digits and dashes",
    "theme.problem.duplicate": "a theme named {name} is already loaded",
    "theme.problem.missing": "it has no {field}",
    "theme.problem.not_text": "{field} must be text",
    "theme.problem.not_table": "{field} must be a table of names and colours",
    "theme.problem.not_bool": "{field} must be true or false",
    "theme.problem.not_number": "{field} must be a number",
    "theme.problem.bad_color": "{field} is not a colour: {value}",
    "theme.problem.unknown": "it has an unknown setting {field}",
    "theme.problem.too_many": "it has more than {limit} variables",
    "theme.problem.too_many_files": "only the first {limit} theme files are read",
    "settings.warning": "Settings file {file} could not be used ({problem}); using defaults.",
    "settings.save_failed": "Settings could not be saved to {file} ({problem}).",
    "settings.problem.too_big": "it is larger than {limit} bytes",
    "settings.problem.unreadable": "it cannot be read: {reason}",
    "settings.problem.not_toml": "it is not valid TOML: {reason}",
    "settings.problem.bad_value": "{field} has an unusable value",
    "tile_style.auto": "Automatic (pip grid on large screens)",
    "tile_style.compact": "Compact [3|5]",
    "tile_style.boxed": "Boxed digits",
    "tile_style.pips": "Pip grid (large screens)",
    "tile_style.glyph": "Unicode domino glyphs",
    "language.en": "English",
    "language.es": "Español",
}

_TABLES: dict[str, dict[str, str]] = {DEFAULT_LANGUAGE: ENGLISH}
_current = DEFAULT_LANGUAGE
_ascii = False
_FORMATTER = string.Formatter()


class MessageError(KeyError):
    """A catalogue problem found while adding keys (a clash or a bad template)."""


class _Missing(dict[str, object]):
    """Parameters for `format_map` that leave an unknown placeholder visible, not crash."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def t(key: str, /, **params: object) -> str:
    """The sentence for ``key`` in the current language, with ``params`` filled in.

    Never raises: a key missing from the current language falls back to English,
    and a key missing everywhere shows as ``<key>`` so the gap is visible on
    screen (the catalogue test catches it before that).
    """
    template = _TABLES.get(_current, ENGLISH).get(key)
    if template is None:
        template = ENGLISH.get(key)
    if template is None:
        return f"<{key}>"
    try:
        text = template.format_map(_Missing(params))
    except (ValueError, IndexError, AttributeError, KeyError):
        text = template
    return to_ascii(text) if _ascii else text


def set_ascii(on: bool) -> None:
    """ASCII mode: every sentence (and every name shown through `describe`) in plain ASCII."""
    global _ascii
    _ascii = bool(on)


def ascii_only() -> bool:
    return _ascii


def has(key: str) -> bool:
    """True when ``key`` exists in the reference (English) table."""
    return key in ENGLISH


def set_language(code: str) -> bool:
    """Switch the catalogue to ``code``; False (and English kept) when unknown."""
    global _current
    if code in _TABLES:
        _current = code
        return True
    _current = DEFAULT_LANGUAGE
    return False


def language() -> str:
    """The code of the language in use."""
    return _current


def placeholders(template: str) -> frozenset[str]:
    """The names a template fills in (``{name}`` gives ``name``)."""
    return frozenset(
        field.split(".")[0].split("[")[0]
        for _, field, _, _ in _FORMATTER.parse(template)
        if field
    )


def add_messages(table: Mapping[str, str], language: str = DEFAULT_LANGUAGE) -> None:
    """Add keys to a language's table (English first, then translations).

    An English key that already exists with a different text raises
    `MessageError` so two modules cannot silently fight over one key; a
    translation must use a key English has and the same placeholders.
    """
    target = _TABLES.setdefault(language, {})
    for key, text in table.items():
        if not isinstance(key, str) or not isinstance(text, str):
            raise MessageError(f"message {key!r} must map text to text")
        try:
            names = placeholders(text)
        except ValueError as exc:
            raise MessageError(f"message {key!r} is not a valid template: {exc}") from None
        if language == DEFAULT_LANGUAGE:
            if key in target and target[key] != text:
                raise MessageError(f"message {key!r} is already defined differently")
        else:
            if key not in ENGLISH:
                raise MessageError(f"message {key!r} has no English text")
            if names != placeholders(ENGLISH[key]):
                raise MessageError(f"message {key!r} must use the placeholders of its English text")
        target[key] = text


def missing_keys(language: str) -> frozenset[str]:
    """The English keys that ``language`` does not translate yet."""
    return frozenset(ENGLISH) - frozenset(_TABLES.get(language, {}))

"""The screens of the app, one a file. Words several screens share are added here."""

from capicu.tui.messages import add_messages

add_messages({
    "key.back": "Back",
    "key.leave": "Leave",
})

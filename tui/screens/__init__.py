"""The screens of the app, one a file (`base` holds what they share: the hooks and worded keys)."""

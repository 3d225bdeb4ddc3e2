"""The screens of the app, one a file. Words several screens share are added here."""



"""A club night's host (issue 33): one evening of matches over several tables on one host, and
the client's side of it (following the draw to one's seat)."""

from .client import ClubClient
from .host import ClubHost, ClubHostConfig, table_name, table_of

__all__ = ["ClubClient", "ClubHost", "ClubHostConfig", "table_name", "table_of"]

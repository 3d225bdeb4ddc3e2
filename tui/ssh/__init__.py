"""The SSH gateway: players join a host with any SSH client."""

"""The host: its pure state machine and tables, the timers and limits it keeps, and the
asyncio server that carries its effects out."""

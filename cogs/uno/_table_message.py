"""The public table message: one per table, edited after every change.

:meth:`TableMessages.show` is the display callback of the table clock too: every change, a
person's or the clock's, ends here, which re-arms the table's timer.
"""

from __future__ import annotations

import logging

import discord

from tables import Clock, Table, TableService

from ._messages import table_payload

log = logging.getLogger(__name__)


class TableMessages:
    """Posts and edits the table messages of every table."""

    def __init__(self, client: discord.Client, service: TableService) -> None:
        self.client = client
        self.service = service
        self.clock: Clock | None = None  # re-armed after every change (set by the play cog)

    async def show(self, table: Table) -> None:
        """Bring the table's message up to date (and re-arm its clock)."""
        await self.refresh(table)

    async def refresh(self, table: Table, *, repost: bool = False) -> None:
        """Edit the public table message in place (or post it anew at the bottom)."""
        if self.clock is not None:
            self.clock.watch(table)
        try:
            payload = await table_payload(table)
            channel = self.client.get_partial_messageable(table.channel_id)
            if table.message_id is not None and not repost:
                try:
                    await channel.get_partial_message(table.message_id).edit(
                        **payload.edit_kwargs()
                    )
                    return
                except discord.NotFound:
                    log.info("Table message of %s is gone; posting a new one", table.id)
            message = await channel.send(**payload.send_kwargs())
            old = table.message_id
            await self.service.set_message(table, message.id)
            if repost and old is not None:
                try:
                    await channel.get_partial_message(old).delete()
                except discord.HTTPException:
                    log.debug("Could not delete the old table message %s", old)
        except discord.HTTPException:
            log.exception("Could not update the table message of %s", table.id)

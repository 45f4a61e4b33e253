"""The one error boundary: every handler answers through :func:`answers`.

It speaks the language of whoever acted, answers Discord at once (a deferral: the 3-second
clock), runs the handler, and turns every refusal into one polite ephemeral sentence — a
:class:`~tables.TableError`, a click on an out-of-date message (the current hand instead), or
anything unexpected (logged, never shown). Nothing is changed when a handler refuses: every
change is saved only at its end, by the table service.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Concatenate, Literal, ParamSpec, Protocol, TypeVar

import discord

from storage import GuildSettingsStore
from tables import StaleClickError, Table, TableError

from ._i18n import language_for, set_language, t
from ._present import error_text

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
#: How a handler answers first: an ephemeral "thinking…" message, an update of the message
#: whose component was clicked, or nothing yet (the handler answers itself).
Defer = Literal["thinking", "update", "none"]
OnStale = Callable[[Interaction, Table], Awaitable[None]]


class GuildLanguages:
    """The language each server forces in its settings (cached; ``None``: automatic)."""

    def __init__(self, settings: GuildSettingsStore) -> None:
        self._settings = settings
        self._forced: dict[int, str | None] = {}

    async def forced(self, guild_id: int | None) -> str | None:
        """The language ``guild_id`` forces, if any."""
        if guild_id is None:
            return None
        if guild_id not in self._forced:
            self._forced[guild_id] = (await self._settings.get_guild_settings(guild_id)).language
        return self._forced[guild_id]

    def remember(self, guild_id: int, language: str | None) -> None:
        """A server changed its setting."""
        self._forced[guild_id] = language


class Replies:
    """Answers to interactions: the language, the deferral, short replies and refusals."""

    def __init__(self, languages: GuildLanguages) -> None:
        self.languages = languages
        #: Shows the current hand after a click on an out-of-date one (set by the play cog).
        self.on_stale: OnStale | None = None

    async def speak_to(self, interaction: Interaction) -> None:
        """Answer in the language of whoever acted (a server's setting wins)."""
        forced = await self.languages.forced(interaction.guild_id)
        set_language(language_for(interaction, forced))

    async def defer(self, interaction: Interaction, how: Defer) -> None:
        """Answer Discord at once, as ``how`` says."""
        if how == "none" or interaction.response.is_done():
            return
        if how == "update":
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)

    async def say(self, interaction: Interaction, text: str) -> None:
        """A short ephemeral answer, whatever the state of the response."""
        text = text[:2000]
        if not interaction.response.is_done():
            await interaction.response.send_message(text, ephemeral=True)
        else:
            await interaction.edit_original_response(
                content=text, embed=None, attachments=[], view=None
            )

    async def run(
        self, interaction: Interaction, body: Callable[[], Awaitable[None]], *, defer: Defer
    ) -> None:
        """Speak, defer, run ``body``, and turn any refusal into a sentence."""
        await self.speak_to(interaction)
        try:
            await self.defer(interaction, defer)
            await body()
        except StaleClickError as stale:
            await self._stale(interaction, stale.table)
        except TableError as exc:
            await self.say(interaction, error_text(exc))
        except Exception:
            log.exception("Unexpected error in an UNO interaction")
            await self.refuse(interaction, t("error.generic"))

    async def refuse(self, interaction: Interaction, text: str) -> None:
        """Say ``text`` if Discord still lets us (the interaction may have expired)."""
        try:
            await self.say(interaction, text)
        except discord.HTTPException:
            log.debug("Could not report the error to the user")

    async def _stale(self, interaction: Interaction, table: Table) -> None:
        if self.on_stale is None:
            await self.say(interaction, t("error.stale"))
            return
        try:
            await self.on_stale(interaction, table)
        except TableError as exc:
            await self.say(interaction, error_text(exc))


class Answering(Protocol):
    """A cog whose handlers answer through :func:`answers`."""

    replies: Replies


S = TypeVar("S", bound=Answering)
P = ParamSpec("P")
Handler = Callable[Concatenate[S, Interaction, P], Awaitable[None]]


def answers(defer: Defer = "thinking") -> Callable[[Handler[S, P]], Handler[S, P]]:
    """Decorate a handler ``(self, interaction, …)`` to run inside :meth:`Replies.run`."""

    def decorate(handler: Handler[S, P]) -> Handler[S, P]:
        async def wrapper(
            self: S, interaction: Interaction, /, *args: P.args, **kw: P.kwargs
        ) -> None:
            async def body() -> None:
                await handler(self, interaction, *args, **kw)

            await self.replies.run(interaction, body, defer=defer)

        functools.update_wrapper(wrapper, handler)
        return wrapper

    return decorate

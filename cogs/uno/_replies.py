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
import math
import time
from collections.abc import Awaitable, Callable
from typing import Any, Concatenate, Literal, ParamSpec, Protocol, TypeVar

import discord
from discord import app_commands

from storage import DatabaseBusyError, GuildSettingsStore
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


class WrongValue(app_commands.CheckFailure):
    """An option the command does not have, or a value of another type than it takes."""

    def __init__(self, value: str) -> None:
        super().__init__(value)
        self.value = value


#: A command the tree does not know (any more), or whose options changed since the client
#: last saw them.
OUTDATED = (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch)


class Replies:
    """Answers to interactions: the language, the deferral, short replies and refusals."""

    def __init__(self, languages: GuildLanguages) -> None:
        self.languages = languages
        self.cooldowns = Cooldowns()
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
        if interaction.guild_id is None:  # Discord hides the commands in DMs; we check too
            await self.refuse(interaction, t("error.guild_only"))
            return
        try:
            await self.defer(interaction, defer)
            await body()
        except StaleClickError as stale:
            await self._stale(interaction, stale.table)
        except TableError as exc:
            await self.say(interaction, error_text(exc))
        except DatabaseBusyError:
            # Another program held the database: nothing was written, a retry is safe.
            log.warning("The database was busy; an interaction was refused")
            await self.refuse(interaction, t("error.busy"))
        except Exception:
            log.exception("Unexpected error in an UNO interaction")
            await self.refuse(interaction, t("error.generic"))

    async def refuse_command(
        self, interaction: Interaction, error: app_commands.AppCommandError
    ) -> None:
        """A command discord.py could not even run: a value out of range or of the wrong type
        (which Discord should never send), an unknown or outdated command. Answered politely;
        nothing is changed."""
        await self.speak_to(interaction)
        if isinstance(error, app_commands.TransformerError | WrongValue):
            text = t("error.bad_value", value=str(error.value)[:50])
        elif isinstance(
            error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch
        ):
            text = t("error.outdated_command")
        elif isinstance(error, app_commands.NoPrivateMessage):
            text = t("error.guild_only")
        else:
            log.error("Unexpected error in a slash command", exc_info=error)
            text = t("error.generic")
        await self.refuse(interaction, text)

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


class Cooldowns:
    """How often one user may ask for what costs a picture (boards, reposts): a few at once,
    then one every ``seconds`` (a token bucket per user and kind)."""

    BURST = 3

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._tokens: dict[tuple[int, str], tuple[float, float]] = {}  # (tokens, at)

    def check(self, user_id: int, what: str, seconds: float) -> None:
        """Refuse (``TableError('cooldown')``) a request beyond the user's burst of that
        kind, until a token comes back."""
        now = self._clock()
        tokens, at = self._tokens.get((user_id, what), (float(self.BURST), now))
        tokens = min(float(self.BURST), tokens + (now - at) / seconds)
        if tokens < 1.0:
            self._tokens[(user_id, what)] = (tokens, now)
            raise TableError("cooldown", seconds=max(1, math.ceil((1.0 - tokens) * seconds)))
        if len(self._tokens) > 10_000:  # forget whoever has a full bucket again
            self._tokens = {
                k: v for k, v in self._tokens.items() if v[0] + (now - v[1]) / seconds < self.BURST
            }
        self._tokens[(user_id, what)] = (tokens - 1.0, now)


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

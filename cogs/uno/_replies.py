"""The one error boundary: every handler answers through :func:`answers`.

It speaks the language of whoever acted, answers Discord at once (a deferral: the 3-second
clock), runs the handler, and turns every refusal into one polite ephemeral sentence — a
:class:`~tables.TableError`, a click on an out-of-date message (the current hand instead), a
database or Discord that cannot be reached for a moment (one warning line in the log), or
anything unexpected (a traceback in the log, never shown). Nothing is changed when a handler
refuses: every change is saved only at its end, by the table service.

Every interaction is answered: a deferral that Discord carried out although the answer said
otherwise (discord.py retried it and Discord said 40060, "already acknowledged") counts as
done, and a deferral whose fate is unknown (it hung, or failed with a 5xx) is followed by an
edit of the original response, which works exactly when the deferral took. Each interaction
is handled once (a gateway may deliver one twice after a resume). While the bot stops, new
interactions are told so, and the ones under way are finished and answered first.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import math
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Concatenate, Literal, ParamSpec, Protocol, TypeVar

import discord
from discord import app_commands

from storage import DatabaseBusyError, GuildSettings, GuildSettingsStore, is_outage
from storage.settings import NEVER
from tables import StaleClickError, Table, TableError

from ._delivery import (
    ALREADY_ANSWERED,
    Verdict,
    is_discord_trouble,
    patiently,
    trouble,
    verdict,
    within,
)
from ._i18n import language_for, set_language, t
from ._present import error_text

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
#: How a handler answers first: an ephemeral "thinking…" message, an update of the message
#: whose component was clicked, or nothing yet (the handler answers itself).
Defer = Literal["thinking", "update", "none"]
OnStale = Callable[[Interaction, Table], Awaitable[None]]


#: Seconds after a person's turn begins before the bot mentions them, unless their server
#: chose otherwise (``/uno-admin settings turn_ping``).
DEFAULT_TURN_PING = 25


class GuildPrefs:
    """What each server chose that every interaction may need (cached): the language it
    forces (``None``: each user's own) and when turns are pinged."""

    def __init__(self, settings: GuildSettingsStore) -> None:
        self._settings = settings
        self._kept: dict[int, GuildSettings] = {}

    async def _of(self, guild_id: int) -> GuildSettings:
        kept = self._kept.get(guild_id)
        if kept is None:
            kept = self._kept[guild_id] = await self._settings.get_guild_settings(guild_id)
        return kept

    async def forced(self, guild_id: int | None) -> str | None:
        """The language ``guild_id`` forces, if any."""
        if guild_id is None:
            return None
        return (await self._of(guild_id)).language

    async def turn_ping(self, guild_id: int) -> float | None:
        """Seconds to wait before a person is pinged for their turn (``None``: never)."""
        chosen = (await self._of(guild_id)).turn_ping
        if chosen is None:
            return float(DEFAULT_TURN_PING)
        return None if chosen == NEVER else float(chosen)

    def remember(self, guild_id: int, settings: GuildSettings) -> None:
        """A server changed its settings."""
        self._kept[guild_id] = settings


class WrongValue(app_commands.CheckFailure):
    """An option the command does not have, or a value of another type than it takes."""

    def __init__(self, value: str) -> None:
        super().__init__(value)
        self.value = value


#: A command the tree does not know (any more), or whose options changed since the client
#: last saw them.
OUTDATED = (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch)


#: How long a deferral may take before its fate counts as unknown (Discord's limit is 3 s).
DEFER_PATIENCE = 2.5
#: An interaction's token lets the bot edit its response for 15 minutes.
TOKEN_SECONDS = 15 * 60
#: How many interaction ids are remembered to handle each once.
SEEN_KEPT = 10_000
#: How long a stopping bot waits for the interactions under way.
DRAIN_SECONDS = 10.0
#: Option types whose value is a Discord id (user, channel, role, mentionable).
_ID_OPTIONS = frozenset({6, 7, 8, 9})


class Replies:
    """Answers to interactions: the language, the deferral, short replies and refusals."""

    def __init__(self, languages: GuildPrefs) -> None:
        self.languages = languages
        self.cooldowns = Cooldowns()
        #: Shows the current hand after a click on an out-of-date one (set by the play cog).
        self.on_stale: OnStale | None = None
        #: Interactions whose deferral took although its request failed (see the docstring).
        self._answered: set[int] = set()
        self._seen: OrderedDict[int, None] = OrderedDict()
        self._running: set[asyncio.Task[Any]] = set()
        self.closing = False

    def first_time(self, interaction: Interaction) -> bool:
        """Is this the first time the interaction reaches us? (Remembers it.)"""
        if interaction.id in self._seen:
            return False
        self._seen[interaction.id] = None
        if len(self._seen) > SEEN_KEPT:
            self._seen.popitem(last=False)
        return True

    def is_answered(self, interaction: Interaction) -> bool:
        """Has Discord taken an answer to the interaction (its original response exists)?"""
        return interaction.response.is_done() or interaction.id in self._answered

    async def drain(self, seconds: float = DRAIN_SECONDS) -> None:
        """Stop taking interactions; wait for the ones under way to finish and answer."""
        self.closing = True
        running = [task for task in self._running if not task.done()]
        if running:
            log.info("Finishing %d interactions under way before stopping", len(running))
            await asyncio.wait(running, timeout=seconds)

    async def speak_to(self, interaction: Interaction) -> None:
        """Answer in the language of whoever acted (a server's setting wins)."""
        forced = await self.languages.forced(interaction.guild_id)
        set_language(language_for(interaction, forced))

    async def defer(self, interaction: Interaction, how: Defer) -> None:
        """Answer Discord at once, as ``how`` says. A deferral Discord carried out although
        the request failed counts as done; one whose fate is unknown too (what follows edits
        the original response, which fails only if it never took)."""
        if how == "none" or self.is_answered(interaction):
            return
        if how == "update":
            request = interaction.response.defer()
        else:
            request = interaction.response.defer(ephemeral=True, thinking=True)
        try:
            await within(request, DEFER_PATIENCE)
        except discord.HTTPException as exc:
            if exc.code == ALREADY_ANSWERED:
                log.info("Interaction %s: the deferral had taken (40060)", interaction.id)
            elif verdict(exc) is Verdict.RETRY:
                log.warning("Interaction %s: deferring failed (%s)", interaction.id, trouble(exc))
            else:
                raise
            self._answered.add(interaction.id)
        except (TimeoutError, OSError) as exc:
            log.warning("Interaction %s: deferring failed (%s)", interaction.id, trouble(exc))
            self._answered.add(interaction.id)

    async def say(self, interaction: Interaction, text: str) -> None:
        """A short ephemeral answer, whatever the state of the response."""
        text = text[:2000]
        if not self.is_answered(interaction):
            await interaction.response.send_message(text, ephemeral=True)
            return
        await patiently(
            lambda: interaction.edit_original_response(
                content=text, embed=None, attachments=[], view=None
            ),
            what=f"Interaction {interaction.id}: an answer",
            until=time.monotonic() + TOKEN_SECONDS - 60,
        )

    async def run(
        self, interaction: Interaction, body: Callable[[], Awaitable[None]], *, defer: Defer
    ) -> None:
        """Speak, defer, run ``body``, and turn any refusal into a sentence."""
        task = asyncio.current_task()
        if task is not None:
            self._running.add(task)
        try:
            await self._run(interaction, body, defer)
        finally:
            if task is not None:
                self._running.discard(task)

    async def _run(
        self, interaction: Interaction, body: Callable[[], Awaitable[None]], defer: Defer
    ) -> None:
        await self.speak_to(interaction)
        if interaction.guild_id is None:  # Discord hides the commands in DMs; we check too
            await self.refuse(interaction, t("error.guild_only"))
            return
        if self.closing:
            await self.refuse(interaction, t("error.restarting"))
            return
        try:
            await self.defer(interaction, defer)
            await body()
        except StaleClickError as stale:
            await self._stale(interaction, stale.table)
        except TableError as exc:
            await self.refuse(interaction, error_text(exc))
        except DatabaseBusyError:
            # Another program held the database: nothing was written, a retry is safe.
            log.warning("The database was busy; an interaction was refused")
            await self.refuse(interaction, t("error.busy"))
        except Exception as exc:
            if is_outage(exc):
                log.warning("The database cannot be reached; an interaction was refused")
                await self.refuse(interaction, t("error.database"))
            elif is_discord_trouble(exc):
                log.warning("Interaction %s: Discord failed (%s)", interaction.id, trouble(exc))
                await self.refuse(interaction, t("error.discord"))
            else:
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
        except Exception as exc:
            if not is_discord_trouble(exc):
                raise
            log.info("Interaction %s: could not answer (%s)", interaction.id, trouble(exc))

    async def check_command(self, interaction: Interaction) -> bool:
        """Before the command tree reads an interaction (its ``interaction_check``): each
        interaction once, none while stopping, and options shaped as their types say — a
        forged one gets a polite answer, never a traceback."""
        if not self.first_time(interaction):
            return False
        await self.speak_to(interaction)
        data: Mapping[str, Any] = interaction.data or {}
        options = _leaf_options(data.get("options") or [])
        autocomplete = interaction.type is discord.InteractionType.autocomplete
        if self.closing and not autocomplete:
            await self.refuse(interaction, t("error.restarting"))
            return False
        wrong = next((o for o in options if not _well_formed(o)), None)
        if wrong is None and autocomplete and not _completes(interaction, data, options):
            wrong = next((o for o in options if o.get("focused")), {"value": "?"})
        if wrong is None:
            return True
        if autocomplete:
            try:
                await interaction.response.autocomplete([])
            except discord.HTTPException as exc:
                log.info("Interaction %s: could not answer (%s)", interaction.id, trouble(exc))
            return False
        await self.refuse(interaction, t("error.bad_value", value=str(wrong.get("value"))[:50]))
        return False

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


def _leaf_options(options: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The options of the (sub)command invoked: below its groups and subcommands."""
    while options and options[0].get("type") in (1, 2):
        options = options[0].get("options") or []
    return list(options)


def _well_formed(option: Mapping[str, Any]) -> bool:
    """Is the option's value of the type the option says (an id for a user, …)?"""
    kind, value = option.get("type"), option.get("value")
    if option.get("focused"):
        return isinstance(value, str | int | float)  # a partial value, typed so far
    if kind in _ID_OPTIONS:
        return isinstance(value, str) and value.isdigit() and len(value) <= 20
    if kind == 4:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == 10:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind == 5:
        return isinstance(value, bool)
    if kind == 3:
        return isinstance(value, str)
    return kind == 11  # an attachment: its id is looked up in the resolved data


def _completes(
    interaction: Interaction, data: Mapping[str, Any], options: Sequence[Mapping[str, Any]]
) -> bool:
    """Does the focused option of an autocomplete interaction have an autocomplete?"""
    focused = next((o for o in options if o.get("focused")), None)
    client: Any = interaction.client
    command: Any = client.tree.get_command(str(data.get("name", "")))
    sub = data.get("options") or []
    while command is not None and sub and sub[0].get("type") in (1, 2):
        command = (
            command.get_command(sub[0].get("name", "")) if hasattr(command, "get_command") else None
        )
        sub = sub[0].get("options") or []
    if focused is None or command is None or not hasattr(command, "parameters"):
        return False
    return any(p.name == focused.get("name") and p.autocomplete for p in command.parameters)

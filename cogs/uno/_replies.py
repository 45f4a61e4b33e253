"""The one error boundary: every handler answers through :func:`answers`.

It speaks the language of whoever acted, answers Discord at once (a deferral: the 3-second
clock), runs the handler, and turns every refusal into one polite ephemeral sentence — a
:class:`~tables.TableError`, a click on an out-of-date message (the current hand instead), a
database or Discord that cannot be reached for a moment (one warning line in the log), or
anything unexpected (a traceback in the log, never shown). Nothing is changed when a handler
refuses: every change is saved only at its end, by the table service.

Every interaction is answered: a deferral that Discord carried out although the answer said
otherwise (discord.py retried it and Discord said 40060, "already acknowledged") counts as
done. A first answer that fails is tried again at once, within Discord's 3 seconds (discord.py
waits 1 s, then 3 s: its second retry came too late). A move is made only once Discord has
taken the deferral: when its fate stays unknown, the bot asks Discord for the response, and
if there is none the move is not made (the player's client says the interaction failed, and
they try again). A click on one's own hand is answered by one callback that updates the hand,
when the answer is ready in time (otherwise it is deferred after :data:`QUICK` seconds): such
a move is made first, and should its callback not reach Discord, the open hand's delivery
brings that very message to the new state — the player is told either way.

Each interaction is handled once (a gateway may deliver one twice after a resume). While the
bot stops, new interactions are told so, and the ones under way are finished and answered
first.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import re
import time
from asyncio import FIRST_COMPLETED
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from typing import Any, Literal

import discord
from discord import app_commands

from storage import DatabaseBusyError, GuildSettings, GuildSettingsStore, is_outage
from storage.settings import NEVER
from tables import StaleClickError, TableError

from ._delivery import (
    ALREADY_ANSWERED,
    Verdict,
    clicked_a_hand,
    is_discord_trouble,
    patiently,
    trouble,
    verdict,
    within,
)
from ._i18n import language_for, set_language, t
from ._own import PlayerPrefs
from ._present import error_text

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
#: How a handler answers first: an ephemeral "thinking…" message, an update of the message
#: whose component was clicked, the clicked message updated by the answer itself if it is
#: ready in time ("quick"), or nothing yet (the handler answers itself).
Defer = Literal["thinking", "update", "quick", "none"]


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


#: Discord takes an interaction's first answer within 3 s of sending it: a first answer that
#: Discord failed (a 5xx) is tried again at once until ANSWER_WITHIN seconds have passed, and
#: a try that hangs for HANG seconds is given up (see Replies.first_answer).
ANSWER_WITHIN = 2.5
HANG = 8.0
#: The route of an interaction's first answer: the interaction's id is in it.
_CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback")
#: A hand's click waits this long for its answer before deferring (see the module docstring).
QUICK = 1.0
#: An interaction's token lets the bot edit its response for 15 minutes.
TOKEN_SECONDS = 15 * 60
#: How many interaction ids are remembered to handle each once.
SEEN_KEPT = 10_000
#: How long a stopping bot waits for the interactions under way.
DRAIN_SECONDS = 10.0
#: Option types whose value is a Discord id (user, channel, role, mentionable).
_ID_OPTIONS = frozenset({6, 7, 8, 9})


class Replies:
    """Answers to interactions: the language, the first answer in time, short replies and
    refusals."""

    def __init__(self, languages: GuildPrefs, players: PlayerPrefs | None = None) -> None:
        self.languages = languages
        #: Each player's own settings (``None``: everyone keeps the defaults).
        self.players = players
        self.cooldowns = Cooldowns()
        #: Interactions whose deferral took although its request failed (see the docstring).
        self._answered: set[int] = set()
        #: One lock per interaction whose first answer two tasks may race to give (a quick
        #: answer and its deferral after QUICK seconds).
        self._answering: dict[int, asyncio.Lock] = {}
        #: The first answers being given, each told when Discord failed it (a 5xx).
        self._failing: dict[int, asyncio.Event] = {}
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

    @contextlib.asynccontextmanager
    async def answering(self, interaction: Interaction) -> AsyncIterator[bool]:
        """Hold the interaction's answer: inside, nobody else answers it first. Yields
        whether it still wants its first answer (then give it with :meth:`first_answer`)."""
        lock = self._answering.get(interaction.id)
        if lock is None:
            yield not self.is_answered(interaction)
            return
        async with lock:
            yield not self.is_answered(interaction)

    async def first_answer(
        self, interaction: Interaction, send: Callable[[], Awaitable[Any]]
    ) -> bool:
        """Give the interaction its first answer with ``send()``. When Discord answers a try
        with a 5xx (the bot hears it: ``heard_server_error``), discord.py would wait 1 s, then
        3 s, before trying again — past Discord's window — so the try is dropped and sent again
        at once, for :data:`ANSWER_WITHIN` seconds. A try under way is never dropped for being
        slow (Discord decides whether it came in time), only when it hangs. True when Discord
        has the answer (or had it already: 40060); False when its fate is unknown; a refusal
        is raised."""
        deadline = time.monotonic() + ANSWER_WITHIN
        while True:
            failed = self._failing[interaction.id] = asyncio.Event()
            attempt = asyncio.ensure_future(send())
            heard = asyncio.ensure_future(failed.wait())
            try:
                await asyncio.wait({attempt, heard}, timeout=HANG, return_when=FIRST_COMPLETED)
            finally:
                heard.cancel()
                self._failing.pop(interaction.id, None)
            failure: BaseException = TimeoutError("no answer from Discord")
            if attempt.done():
                try:
                    attempt.result()
                    return True
                except discord.HTTPException as exc:
                    if exc.code == ALREADY_ANSWERED:
                        log.info("Interaction %s: the answer had taken (40060)", interaction.id)
                        self._answered.add(interaction.id)
                        return True
                    if verdict(exc) is not Verdict.RETRY:
                        raise
                    failure = exc
                except (TimeoutError, OSError) as exc:
                    failure = exc
            else:  # a 5xx heard (discord.py waits before its retry), or a try that hangs
                attempt.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await attempt
            if not failed.is_set() or time.monotonic() >= deadline:
                log.warning(
                    "Interaction %s: answering failed (%s)", interaction.id, trouble(failure)
                )
                return False

    def heard_server_error(self, url: str) -> None:
        """Discord answered a request with a 5xx: if it was an interaction's first answer that
        is being given, give it again at once (see :meth:`first_answer`)."""
        found = _CALLBACK.search(url)
        failed = self._failing.get(int(found.group(1))) if found else None
        if failed is not None:
            failed.set()

    async def drain(self, seconds: float = DRAIN_SECONDS) -> None:
        """Stop taking interactions; wait for the ones under way to finish and answer."""
        self.closing = True
        running = [task for task in self._running if not task.done()]
        if running:
            log.info("Finishing %d interactions under way before stopping", len(running))
            await asyncio.wait(running, timeout=seconds)

    async def speak_to(self, interaction: Interaction) -> None:
        """Answer in the language of whoever acted: the one they chose (``/uno settings``),
        else their Discord's, else the server's."""
        forced = await self.languages.forced(interaction.guild_id)
        chosen = None
        if self.players is not None:
            chosen = (await self.players.of(interaction.user.id)).language
        set_language(language_for(interaction, forced, chosen))

    async def defer(self, interaction: Interaction, how: Defer) -> bool:
        """Answer Discord at once, as ``how`` says. Whether Discord took it: a deferral whose
        fate stays unknown is looked up (its original response exists exactly when it took)."""
        if how in ("none", "quick") or self.is_answered(interaction):
            return True

        def request() -> Awaitable[Any]:
            if how == "update":
                return interaction.response.defer()
            return interaction.response.defer(ephemeral=True, thinking=True)

        if await self.first_answer(interaction, request):
            return True
        try:
            await within(interaction.original_response(), ANSWER_WITHIN)
        except (discord.HTTPException, TimeoutError, OSError) as exc:
            log.warning("Interaction %s: Discord never took it (%s)", interaction.id, trouble(exc))
            return False
        self._answered.add(interaction.id)
        return True

    async def _defer_late(self, interaction: Interaction) -> None:
        """A quick answer that is not ready after :data:`QUICK` seconds: defer, so the answer
        can still come as an edit — of the clicked hand, or of a new ephemeral message (a
        click on the table message, a command)."""
        await asyncio.sleep(QUICK)
        async with self.answering(interaction) as first:
            if first:
                await self.first_answer(interaction, lambda: _deferral(interaction))

    async def update(self, interaction: Interaction, **message: Any) -> None:
        """Show ``message`` in the clicked message: by the first answer itself when the
        interaction still wants one (a quick answer), else by editing the response."""
        async with self.answering(interaction) as first:
            if first:
                await self.first_answer(
                    interaction, lambda: interaction.response.edit_message(**message)
                )
                return
        await patiently(
            lambda: interaction.edit_original_response(**message),
            what=f"Interaction {interaction.id}: an answer",
            until=time.monotonic() + TOKEN_SECONDS - 60,
        )

    async def say(self, interaction: Interaction, text: str) -> None:
        """A short ephemeral answer, whatever the state of the response."""
        text = text[:2000]
        async with self.answering(interaction) as first:
            if first:
                await self.first_answer(
                    interaction, lambda: interaction.response.send_message(text, ephemeral=True)
                )
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
        """Speak, answer in time, run ``body``, and turn any refusal into a sentence."""
        task = asyncio.current_task()
        if task is not None:
            self._running.add(task)
        late: asyncio.Task[None] | None = None
        if defer == "quick":
            self._answering[interaction.id] = asyncio.Lock()
            late = asyncio.get_running_loop().create_task(self._defer_late(interaction))
        try:
            await self._run(interaction, body, defer)
        finally:
            if late is not None:
                late.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await late
            self._answering.pop(interaction.id, None)
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
            if not await self.defer(interaction, defer):
                return  # Discord never took it: nothing is done, the person tries again
            await body()
        except StaleClickError:
            await self.refuse(interaction, t("error.stale"))
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
        if isinstance(error, app_commands.TransformerError):
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
        """Before the command tree reads an interaction: each interaction once, none while
        stopping, and options shaped as their types and the command itself say (Discord
        checks them for a real client; a forged one gets a polite answer, never a
        traceback). It also chooses the language the rest of the interaction speaks, so
        the commands and their autocompletes need not."""
        if not self.first_time(interaction):
            return False
        await self.speak_to(interaction)
        data: Mapping[str, Any] = interaction.data or {}
        options = _leaf_options(data.get("options") or [])
        autocomplete = interaction.type is discord.InteractionType.autocomplete
        if self.closing and not autocomplete:
            await self.refuse(interaction, t("error.restarting"))
            return False
        bad = next((o for o in options if not _well_formed(o)), None)
        if bad is None and autocomplete and not _completes(interaction, data, options):
            bad = next((o for o in options if o.get("focused")), {"value": "?"})
        wrong = None if bad is None else str(bad.get("value"))
        if wrong is None and not autocomplete:
            wrong = wrong_option(interaction)
        if wrong is None:
            return True
        if autocomplete:
            try:
                await interaction.response.autocomplete([])
            except discord.HTTPException as exc:
                log.info("Interaction %s: could not answer (%s)", interaction.id, trouble(exc))
            return False
        await self.refuse(interaction, t("error.bad_value", value=wrong[:50]))
        return False


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


def _deferral(interaction: Interaction) -> Awaitable[Any]:
    """The deferral of an answer that is not ready: an update of the clicked hand, or an
    ephemeral "thinking…" message."""
    if clicked_a_hand(interaction):
        return interaction.response.defer()
    return interaction.response.defer(ephemeral=True, thinking=True)


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


_PYTHON_TYPES: dict[discord.AppCommandOptionType, tuple[type, ...]] = {
    discord.AppCommandOptionType.string: (str,),
    discord.AppCommandOptionType.integer: (int,),
    discord.AppCommandOptionType.number: (int, float),
    discord.AppCommandOptionType.boolean: (bool,),
}


def wrong_option(interaction: Interaction) -> str | None:
    """What is wrong with the options Discord sent, checked against the command itself
    (its options, ranges and choices; discord.py leaves them to Discord): ``None`` if fine."""
    command = interaction.command
    data: Any = interaction.data or {}
    if not isinstance(command, app_commands.Command):
        return None
    for given in _leaf_options(list(data.get("options") or [])):
        name = str(given.get("name", ""))
        parameter = command.get_parameter(name)
        if parameter is None:
            return name[:50]
        value = given.get("value")
        if not _fits(parameter, value):
            return str(value)[:50]
    return None


def _fits(parameter: app_commands.Parameter, value: Any) -> bool:
    """Is ``value`` of the parameter's type, in its range or length, among its choices?"""
    expected = _PYTHON_TYPES.get(parameter.type)
    if expected is None:  # users, roles, channels: a snowflake
        return str(value).isdigit()
    if not isinstance(value, expected) or (bool not in expected and isinstance(value, bool)):
        return False
    if parameter.choices and value not in {choice.value for choice in parameter.choices}:
        return False
    if isinstance(value, str):  # its range is its length (discord.py keeps both alike)
        measure: float = len(value)
    elif isinstance(value, int | float) and not isinstance(value, bool):
        measure = value
    else:
        return True
    low, high = parameter.min_value, parameter.max_value
    return (low is None or measure >= low) and (high is None or measure <= high)

"""Every sentence the bot says, in six languages, from gettext catalogues.

The catalogues are ``locales/<lang>/LC_MESSAGES/uno.po`` (read with Babel, so translators can
use any PO editor). A ``msgid`` is a stable key such as ``error.not_seated``; its ``msgstr`` is
what users read, with ``{name}``-style fields that :func:`t` fills in. English names every key;
another language may add grammatical forms of a key (see :func:`t_plural`, :func:`own_form`).

Which language? A per-task context variable: each interaction's handler sets the language of
the person who acted (:func:`language_for`); the public table message switches to the table's
language (:func:`speaking`). asyncio copies the context into every task, so two users who
act at once never see each other's language.

Slash command names, descriptions and choices are localised by :class:`CatalogueTranslator`
from the same catalogues (keys ``cmd.uno.<command>``, ``opt.uno.<command>.<option>``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

import discord
from babel import Locale
from babel.messages.pofile import read_po
from discord import app_commands

#: Our languages, each a directory of ``locales/`` named by its Discord locale code (English
#: is Discord's ``en-US`` and ``en-GB`` both, so it is plain ``en``).
LANGUAGES = ("en", "it", "de", "es-ES", "fr", "pt-BR")
#: Each language in its own words, as ``/uno-admin settings language`` offers it.
LANGUAGE_NAMES = {
    "en": "English",
    "it": "Italiano",
    "de": "Deutsch",
    "es-ES": "Español",
    "fr": "Français",
    "pt-BR": "Português (Brasil)",
}
#: The Discord locales we speak, and the catalogue each reads. Latin American Spanish reads
#: Spain's: one Spanish catalogue serves both (docs/languages.md).
DISCORD_LOCALES = {
    "en-US": "en",
    "en-GB": "en",
    "it": "it",
    "de": "de",
    "es-ES": "es-ES",
    "es-419": "es-ES",
    "fr": "fr",
    "pt-BR": "pt-BR",
}
DEFAULT_LANGUAGE = "en"
LOCALES = Path(__file__).with_name("locales")

_language: ContextVar[str] = ContextVar("uno_language", default=DEFAULT_LANGUAGE)


def babel_locale(language: str) -> Locale:
    """Babel's locale for one of our languages (``pt-BR`` → ``pt_BR``)."""
    return Locale.parse(language, sep="-")


@cache
def catalogue(language: str) -> Mapping[str, str]:
    """The messages of ``language``: key → text."""
    with (LOCALES / language / "LC_MESSAGES" / "uno.po").open("rb") as file:
        messages = read_po(file, locale=babel_locale(language))
    return {str(m.id): str(m.string) for m in messages if m.id}


def t(key: str, **params: Any) -> str:
    """The sentence for ``key`` in the current language, ``params`` filled in.

    A key missing from a translation falls back to English (tests keep every one complete).
    """
    text = catalogue(_language.get()).get(key)
    if text is None:
        text = catalogue(DEFAULT_LANGUAGE)[key]
    return text.format(**params) if params else text


@cache
def plural_categories(language: str) -> frozenset[str]:
    """The plural categories ``language`` tells apart (English: one, other; French: one —
    0 and 1 —, many, other)."""
    return frozenset(babel_locale(language).plural_form.tags | {"other"})


def t_plural(key: str, count: int, **params: Any) -> str:
    """The sentence for ``count`` of something: ``key.<category>`` by the current language's
    plural rule, with ``{count}`` and ``params`` filled in ("1 card", "2 cards"; "0 carte")."""
    language = _language.get()
    messages = catalogue(language)
    if f"{key}.other" not in messages:
        language, messages = DEFAULT_LANGUAGE, catalogue(DEFAULT_LANGUAGE)
    category = babel_locale(language).plural_form(count)
    text = messages.get(f"{key}.{category}", messages[f"{key}.other"])
    return text.format(count=count, **params)


def own_form(key: str) -> str | None:
    """The current language's own sentence for ``key``, if it has one (no English fallback):
    a grammatical form only some languages need, such as French ``colour.G.feminine``."""
    return catalogue(_language.get()).get(key)


def known(key: str) -> bool:
    """Is there a sentence for ``key`` (in English, which every key has)?"""
    return key in catalogue(DEFAULT_LANGUAGE)


def current_language() -> str:
    """The language :func:`t` speaks now."""
    return _language.get()


def set_language(language: str) -> None:
    """Speak ``language`` for the rest of this task (one interaction's handler)."""
    _language.set(language if language in LANGUAGES else DEFAULT_LANGUAGE)


@contextlib.contextmanager
def speaking(language: str) -> Iterator[None]:
    """Speak ``language`` inside the block (the public table message, say)."""
    token = _language.set(language if language in LANGUAGES else DEFAULT_LANGUAGE)
    try:
        yield
    finally:
        _language.reset(token)


def language_of_locale(locale: discord.Locale | str | None) -> str | None:
    """Our language for a Discord locale (``es-419`` → ``es-ES``, ``en-GB`` → ``en``), or
    ``None`` for one we do not speak."""
    if locale is None:
        return None
    code = str(getattr(locale, "value", locale))
    return DISCORD_LOCALES.get(code) or (code if code in LANGUAGES else None)


def language_for(
    interaction: discord.Interaction[Any], forced: str | None = None, chosen: str | None = None
) -> str:
    """The language of a private answer to ``interaction``.

    The one the user chose (``/uno settings language``: ``chosen``); else the user's Discord
    language when we speak it; else the server's setting (``forced``); else the server's
    Discord language; else English.
    """
    return (
        (str(chosen) if chosen in LANGUAGES else None)
        or language_of_locale(interaction.locale)
        or (str(forced) if forced in LANGUAGES else None)
        or language_of_locale(interaction.guild_locale)
        or DEFAULT_LANGUAGE
    )


def guild_language(interaction: discord.Interaction[Any], forced: str | None = None) -> str:
    """The language of public messages in this server: the setting, else the server's."""
    if forced in LANGUAGES:
        return str(forced)
    return language_of_locale(interaction.guild_locale) or DEFAULT_LANGUAGE


# -- slash commands ----------------------------------------------------------------------------


def command_key(location: app_commands.TranslationContextLocation, data: Any) -> str | None:
    """The catalogue key of a command's name, description, option or option description."""
    where = app_commands.TranslationContextLocation
    if location in (where.group_name, where.command_name):
        return "cmd." + str(data.qualified_name).replace(" ", ".")
    if location in (where.group_description, where.command_description):
        return "cmd." + str(data.qualified_name).replace(" ", ".") + ".desc"
    if location in (where.parameter_name, where.parameter_description):
        command = data.command.qualified_name.replace(" ", ".")
        suffix = ".desc" if location is where.parameter_description else ""
        return f"opt.{command}.{data.name}{suffix}"
    return None


class CatalogueTranslator(app_commands.Translator):
    """Gives Discord our commands', options' and choices' names and descriptions in every
    Discord locale we speak (:data:`DISCORD_LOCALES`).

    English is the source text in the code; a choice names its key with
    ``locale_str(text, key=...)``.
    """

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = language_of_locale(locale)
        if language is None or language == DEFAULT_LANGUAGE:
            return None
        key = string.extras.get("key") or command_key(context.location, context.data)
        if key is None:
            return None
        return catalogue(language).get(key)

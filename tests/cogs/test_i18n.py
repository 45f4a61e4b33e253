"""Six languages: card names as the decks print them, localised slash commands, the right
language for each reader (the catalogue checks themselves: test_catalogues.py)."""

from __future__ import annotations

import asyncio
import re
import string
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

import cogs.uno
from cogs.uno._admin import _describe_settings
from cogs.uno._i18n import (
    DISCORD_LOCALES,
    LANGUAGES,
    CatalogueTranslator,
    catalogue,
    command_key,
    current_language,
    guild_language,
    language_for,
    language_of_locale,
    set_language,
    speaking,
    t,
)
from cogs.uno._play import LEVEL_CHOICES
from cogs.uno._present import card_name, rules_help, rules_summary
from engine import PRESETS, Rules
from engine.cards import Kind
from engine.rules import Scoring, Stacking
from storage import GameRepository, GuildSettings

NAME = re.compile(r"^[-_\w]{1,32}$")  # Discord: lowercase letters, digits, - and _


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_enum_driven_key_exists_in_every_language() -> None:
    for language in LANGUAGES:
        messages = catalogue(language)
        for scoring in Scoring:
            assert f"scoring.{scoring.value}" in messages
        for stacking in Stacking:
            if stacking is not Stacking.OFF:
                assert f"summary.stacking.{stacking.value}" in messages
                assert f"help.house.stacking.{stacking.value}" in messages
        for preset in PRESETS:
            assert f"preset.{preset}" in messages
        for kind in Kind:  # every card has a name, the R-DECK-5 blank card too
            assert f"card.{'number' if kind is Kind.NUMBER else kind.value}" in messages


#: The classic deck's names in every language: the official decks' words (docs/languages.md
#: says where each comes from).
CLASSIC_NAMES = {
    "en": ("Red 7", "Blue Skip", "Green Reverse", "Yellow Draw Two", "Wild", "Wild Draw Four"),
    "it": (
        "Rosso 7",
        "Blu Salta",
        "Verde Inverti",
        "Giallo Pesca Due",
        "Jolly",
        "Jolly Pesca Quattro",
    ),
    "de": (
        "Rot 7",
        "Blau Aussetzen",
        "Grün Retour",
        "Gelb Zieh Zwei",
        "Farbenwahl",
        "Zieh Vier Farbenwahl",
    ),
    "es-ES": (
        "7 rojo",
        "Pierde el turno azul",
        "Cambio de sentido verde",
        "Roba Dos amarillo",
        "Comodín",
        "Comodín Roba Cuatro",
    ),
    "fr": ("7 rouge", "Passer bleu", "Inversion verte", "+2 jaune", "Joker", "Super Joker"),
    "pt-BR": (
        "7 vermelho",
        "Pular azul",
        "Inverter verde",
        "Comprar Duas amarelo",
        "Coringa",
        "Coringa Comprar Quatro",
    ),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_cards_are_named_as_the_official_decks_name_them(language: str) -> None:
    with speaking(language):
        names = tuple(card_name(n) for n in ("R7", "BS", "GR", "YD2", "W", "W4"))
    assert names == CLASSIC_NAMES[language]


def test_a_feminine_card_takes_the_feminine_colour_where_the_language_has_one() -> None:
    with speaking("fr"):
        assert card_name("GR") == "Inversion verte"  # la carte Inversion
        assert card_name("BR") == "Inversion bleue"
        assert card_name("RR") == "Inversion rouge"  # rouge is both
        assert card_name("GS") == "Passer vert"  # le Passer
        assert card_name("G7") == "7 vert"
        assert card_name("VR") == "Inversion violette"  # UNO Flip's dark side
    with speaking("de"):  # no feminine form: the one word serves
        assert card_name("GR") == "Grün Retour"


def test_rules_help_speaks_every_language() -> None:
    rules = Rules.from_preset("party")
    with speaking("it"):
        italian = rules_help("party", rules)
        assert italian[0] == "**festa**"
        assert "Rilancio (cumulativo)" in "\n".join(italian)
        assert "non contesta mai" in "\n".join(italian)
        assert rules_summary(rules).startswith("il vincitore prende i punti")
    with speaking("en"):
        assert "Stacking (cumulative)" in "\n".join(rules_help("party", rules))
    expected = {
        "de": ("**Party**", "Stapeln (aufaddieren)", "zweifelt nie an"),
        "es-ES": ("**fiesta**", "Acumular (sumar)", "nunca desafía"),
        "fr": ("**fête**", "Cumul (addition)", "ne conteste jamais"),
        "pt-BR": ("**festa**", "Acumular (somar)", "nunca desafia"),
    }
    for language, (title, stacking, easy) in expected.items():
        with speaking(language):
            lines = rules_help("party", rules)
        assert lines[0] == title
        assert stacking in "\n".join(lines)
        assert easy in "\n".join(lines)


@pytest.mark.parametrize(
    ("locale", "language"),
    [
        ("it", "it"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("de", "de"),
        ("es-ES", "es-ES"),
        ("es-419", "es-ES"),  # Latin American Spanish reads Spain's catalogue
        ("fr", "fr"),
        ("pt-BR", "pt-BR"),
        (discord.Locale.brazil_portuguese, "pt-BR"),
        (discord.Locale.latin_american_spanish, "es-ES"),
        ("pl", None),
        ("ja", None),
        (None, None),
    ],
)
def test_discord_locales_map_to_our_languages(locale: str | None, language: str | None) -> None:
    assert language_of_locale(locale) == language


def test_every_language_is_a_discord_locale_and_every_mapped_locale_exists() -> None:
    assert set(DISCORD_LOCALES.values()) == set(LANGUAGES)
    known = {locale.value for locale in discord.Locale}
    assert set(DISCORD_LOCALES) <= known


class _Asking:
    """What a language decision reads of an interaction: the user's and the server's locale."""

    def __init__(self, locale: str, guild_locale: str | None) -> None:
        self.locale = locale
        self.guild_locale = guild_locale


@pytest.mark.parametrize(
    ("locale", "guild_locale", "setting", "private", "public"),
    [
        ("de", "en-US", None, "de", "en"),  # the player's own language, the server's
        ("pt-BR", "fr", None, "pt-BR", "fr"),
        ("es-419", "it", None, "es-ES", "it"),
        ("fr", "en-US", "it", "fr", "it"),  # the admin's setting is for public messages
        ("pl", "de", "es-ES", "es-ES", "es-ES"),  # a language we lack: the setting's
        ("pl", "de", None, "de", "de"),  # … or the server's
        ("ja", "ko", None, "en", "en"),  # … or English
    ],
)
def test_private_answers_follow_the_player_and_public_ones_the_server(
    locale: str, guild_locale: str, setting: str | None, private: str, public: str
) -> None:
    asking: Any = _Asking(locale, guild_locale)
    assert language_for(asking, setting) == private
    assert guild_language(asking, setting) == public


async def test_each_task_speaks_its_own_language() -> None:
    # Two users act at once: asyncio gives each handler its own copy of the context.
    async def answer(language: str) -> str:
        set_language(language)
        await asyncio.sleep(0.01)
        return t("error.not_seated")

    answers = await asyncio.gather(*(answer(language) for language in LANGUAGES))
    assert dict(zip(LANGUAGES, answers, strict=True)) == {
        "en": "You are not playing at this table.",
        "it": "Non stai giocando a questo tavolo.",
        "de": "Du spielst an diesem Tisch nicht mit.",
        "es-ES": "No estás jugando en esta mesa.",
        "fr": "Tu ne joues pas à cette table.",
        "pt-BR": "Você não está jogando nesta mesa.",
    }
    assert current_language() == "en"


def test_an_unknown_language_falls_back_to_english() -> None:
    with speaking("xx"):
        assert t("ok.done") == "Done."


# -- slash commands ----------------------------------------------------------------------------


@pytest.fixture
async def tree() -> Any:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    repo = await GameRepository.open(":memory:")
    bot.repo = repo  # type: ignore[attr-defined]  # what bot.py's UnoBot carries
    await cogs.uno.setup(bot)
    yield bot.tree
    for name in list(bot.cogs):
        await bot.remove_cog(name)
    await repo.close()


#: Some of each language's command names (the rest: test_catalogues.py checks them all).
COMMAND_NAMES = {
    "it": (
        {"nuovo", "gioca", "pesca", "mano", "sfida", "cogli", "classifica"},
        {"impostazioni", "stagione", "torneo", "chiudi", "espelli"},
    ),
    "de": (
        {"neu", "spielen", "ziehen", "hand", "anzweifeln", "erwischen", "rangliste"},
        {"einstellungen", "saison", "turnier", "beenden", "entfernen"},
    ),
    "es-ES": (
        {"nueva", "jugar", "robar", "mano", "desafiar", "atrapar", "clasificación"},
        {"ajustes", "temporada", "torneo", "cerrar", "expulsar"},
    ),
    "fr": (
        {"nouvelle", "jouer", "piocher", "main", "contester", "contre-uno", "classement"},
        {"réglages", "saison", "tournoi", "fermer", "exclure"},
    ),
    "pt-BR": (
        {"nova", "jogar", "comprar", "mão", "desafiar", "pegar", "ranking"},
        {"configurações", "temporada", "torneio", "encerrar", "expulsar"},
    ),
}


@pytest.mark.parametrize("locale", ["it", "de", "es-ES", "es-419", "fr", "pt-BR"])
async def test_every_command_and_option_has_a_name_and_description_in_each_locale(
    tree: Any, locale: str
) -> None:
    translator = CatalogueTranslator()
    payload = [await c.get_translated_payload(tree, translator) for c in tree.get_commands()]
    assert [p["name"] for p in payload] == ["uno", "uno-admin"]
    group, admin = payload
    language = language_of_locale(locale)
    assert language is not None
    with speaking(language):
        assert group["description_localizations"][locale] == t("cmd.uno.desc")
        assert admin["description_localizations"][locale] == t("cmd.uno-admin.desc")

    def check(options: list[dict[str, Any]]) -> list[str]:
        """Every option, subcommand and subgroup below, recursively; their local names."""
        names = []
        for option in options:
            local = option["name_localizations"][locale]
            assert NAME.match(local), local
            assert local == local.lower(), local
            assert 1 <= len(option["description_localizations"][locale]) <= 100
            for choice in option.get("choices", []):
                assert choice["name_localizations"][locale]
            names.append(local)
            inner = check(option.get("options", []))
            assert len(set(inner)) == len(inner), inner  # no two siblings share a name
        return names

    playing, managing = COMMAND_NAMES[language]
    seen = check(group["options"])
    assert playing <= set(seen)
    assert len(set(seen)) == len(seen)  # no two commands share a name
    assert managing <= set(check(admin["options"]))


async def test_the_english_catalogue_matches_the_source_of_every_command(tree: Any) -> None:
    # English names and descriptions live in the decorators; the catalogue must not drift.
    english = catalogue("en")
    for group in tree.get_commands():
        check_group_against_catalogue(english, group)


def check_group_against_catalogue(english: Any, group: app_commands.Group) -> None:
    where = app_commands.TranslationContextLocation
    assert english[command_key(where.group_name, group)] == group.name
    assert english[command_key(where.group_description, group)] == group.description
    for command in group.walk_commands():
        if isinstance(command, app_commands.Group):
            assert english[command_key(where.group_name, command)] == command.name
            assert english[command_key(where.group_description, command)] == command.description
            continue
        assert english[command_key(where.command_name, command)] == command.name
        assert english[command_key(where.command_description, command)] == command.description
        for parameter in command.parameters:
            assert english[command_key(where.parameter_name, parameter)] == parameter.name
            desc = command_key(where.parameter_description, parameter)
            assert english[desc] == parameter.description


async def test_choices_name_their_catalogue_keys(tree: Any) -> None:
    command = tree.get_command("uno").get_command("new")
    house = [choice for parameter in command.parameters for choice in parameter.choices]
    for choice in [*LEVEL_CHOICES, *house]:
        key = choice._locale_name.extras["key"] if choice._locale_name else None
        assert key is not None
        assert key in catalogue("it")


#: The dark side's Skip Everyone and Wild Draw Colour, in every language's rules help.
FLIP_WORDS = {
    "en": ("Skip Everyone", "Wild Draw Colour"),
    "it": ("Salta Tutti", "Jolly Pesca Colore"),
    "de": ("Alle aussetzen", "Zieh Farbe Farbenwahl"),
    "es-ES": ("Pierden todos el turno", "Comodín Roba Color"),
    "fr": ("Passer Tous", "Joker Pioche couleur"),
    "pt-BR": ("Pular Todos", "Coringa Comprar Cor"),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_r_flip_rules_help_explains_both_sides_in_every_language(language: str) -> None:
    rules = Rules.from_preset("flip")
    with speaking(language):
        text = "\n".join(rules_help("flip", rules))
        assert t("help.w4") not in text  # Flip has no Wild Draw Four of its own
    for words in FLIP_WORDS[language]:
        assert words in text


#: UNO Flip's cards: RD1, BF, PD5, TSE, W2, WC, V7.
FLIP_NAMES = {
    "en": (
        "Red Draw One",
        "Blue Flip",
        "Pink Draw Five",
        "Teal Skip Everyone",
        "Wild Draw Two",
        "Wild Draw Colour",
        "Purple 7",
    ),
    "it": (
        "Rosso Pesca Uno",
        "Blu Flip",
        "Rosa Pesca Cinque",
        "Turchese Salta Tutti",
        "Jolly Pesca Due",
        "Jolly Pesca Colore",
        "Viola 7",
    ),
    "de": (
        "Rot Zieh Eins",
        "Blau Flip",
        "Pink Zieh Fünf",
        "Türkis Alle aussetzen",
        "Zieh Zwei Farbenwahl",
        "Zieh Farbe Farbenwahl",
        "Lila 7",
    ),
    "es-ES": (
        "Roba Uno rojo",
        "Flip azul",
        "Roba Cinco rosa",
        "Pierden todos el turno turquesa",
        "Comodín Roba Dos",
        "Comodín Roba Color",
        "7 morado",
    ),
    "fr": (
        "+1 rouge",
        "Flip bleu",
        "+5 rose",
        "Passer Tous turquoise",
        "Joker +2",
        "Joker Pioche couleur",
        "7 violet",
    ),
    "pt-BR": (
        "Comprar Uma vermelho",
        "Flip azul",
        "Comprar Cinco rosa",
        "Pular Todos turquesa",
        "Coringa Comprar Duas",
        "Coringa Comprar Cor",
        "7 roxo",
    ),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_r_flip_cards_have_names_in_every_language(language: str) -> None:
    with speaking(language):
        names = tuple(card_name(n) for n in ("RD1", "BF", "PD5", "TSE", "W2", "WC", "V7"))
    assert names == FLIP_NAMES[language]


@pytest.mark.parametrize(
    ("setting", "reader", "words"),
    [
        ("pt-BR", "de", "Sprache: Português (Brasil)"),  # a language's own name, in any
        (None, "de", "Sprache: automatisch"),
        ("es-ES", "fr", "langue : Español"),
        ("xx", "en", "language: xx"),  # a code no longer offered is shown as it is
    ],
)
def test_the_settings_answer_names_the_public_language(
    setting: str | None, reader: str, words: str
) -> None:
    with speaking(reader):
        text = _describe_settings(GuildSettings(language=setting))
    assert words in text.replace("\u00a0", " ")

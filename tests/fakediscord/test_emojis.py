"""Application emojis (routes, limits, the CDN) and emoji references in messages.

The routes are driven by a discord.py ``Client`` in this process (logged in over REST only,
``discord.http.Route.BASE`` pointed at the fake), by raw REST for exact error bodies, and by
the sample bot, which must find its emoji again after a restart instead of creating it twice.
"""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest

from fakediscord import BotProcess, FakeChannel, FakeDiscord, Perm
from fakediscord.sample_bot import CARD_PNG

from .test_components_v2 import (
    Rest,
    button,
    codes_at,
    container,
    layout,
    row,
    section,
    text,
    thumbnail,
)
from .test_fake_discord import SAMPLE

EMOJIS = "/applications/{app_id}/emojis"
GIF = b"GIF89a" + b"\x01\x00\x01\x00" + b"\x00" * 20


def data_uri(data: bytes, mime: str = "image/png") -> str:
    return f"data:{mime};base64,{base64.b64encode(data).decode()}"


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as f:
        yield f


@pytest.fixture
async def rest(fake: FakeDiscord) -> AsyncIterator[Rest]:
    async with aiohttp.ClientSession() as http:
        yield Rest(fake, http)


@pytest.fixture
def channel(fake: FakeDiscord) -> FakeChannel:
    return fake.add_guild("G").add_text_channel("table")


@pytest.fixture
async def client(fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Any]:
    """A discord.py client logged in to the fake over REST (no gateway)."""
    monkeypatch.setattr(discord.http.Route, "BASE", fake.rest_base)
    bot = discord.Client(intents=discord.Intents.none())
    await bot.login(fake.token)
    try:
        yield bot
    finally:
        await bot.close()


def emojis_path(fake: FakeDiscord, emoji_id: Any = None) -> str:
    path = f"/applications/{fake.application.id}/emojis"
    return path if emoji_id is None else f"{path}/{emoji_id}"


async def create(rest: Rest, name: str, image: str | None = None) -> tuple[int, Any]:
    body = {"name": name, "image": image if image is not None else data_uri(CARD_PNG)}
    return await rest.call("POST", emojis_path(rest.fake), body)


# --------------------------------------------------------------------------- the routes


async def test_discord_py_creates_lists_fetches_renames_and_deletes_emojis(
    fake: FakeDiscord, client: Any
) -> None:
    made = await client.create_application_emoji(name="uno_r7", image=CARD_PNG)
    assert isinstance(made, discord.Emoji)
    assert made.name == "uno_r7"
    assert not made.animated
    assert made.url == f"https://cdn.discordapp.com/emojis/{made.id}.png"
    assert str(made) == f"<:uno_r7:{made.id}>" == fake.emojis.application[made.id].markdown
    assert fake.resolve_media(made.url) == CARD_PNG  # the picture the bot would show
    assert fake.emoji_at(made.url) is fake.emojis.named("uno_r7")
    animated = await client.create_application_emoji(name="uno_wild", image=GIF)
    assert animated.animated
    assert [e.name for e in await client.fetch_application_emojis()] == ["uno_r7", "uno_wild"]
    assert (await client.fetch_application_emoji(made.id)).name == "uno_r7"
    renamed = await made.edit(name="uno_r7_v2")
    assert renamed.name == "uno_r7_v2"
    await animated.delete()
    assert [e.name for e in await client.fetch_application_emojis()] == ["uno_r7_v2"]
    with pytest.raises(discord.NotFound) as gone:
        await client.fetch_application_emoji(animated.id)
    assert gone.value.code == 10014
    assert len(fake.requests_to("POST", EMOJIS)) == 2
    assert len(fake.requests_to("GET", EMOJIS)) == 2
    assert len(fake.requests_to("*", EMOJIS + "/{emoji_id}")) == 4  # get, edit, delete, get


async def test_the_list_answers_items_as_documented(fake: FakeDiscord, rest: Rest) -> None:
    status, made = await create(rest, "uno_back")
    assert status == 201
    assert made["user"]["id"] == str(fake.bot_user.id)  # uploaded by the bot through the API
    assert await rest.call("GET", emojis_path(fake)) == (200, {"items": [made]})


async def test_names_are_unique_per_application(fake: FakeDiscord, rest: Rest) -> None:
    assert (await create(rest, "uno_r7"))[0] == 201
    status, body = await create(rest, "uno_r7")
    assert (status, body["code"]) == (400, 50035)
    assert codes_at(body, "name") == ["APPLICATION_EMOJI_NAME_ALREADY_TAKEN"]
    _, other = await create(rest, "uno_r8")
    status, body = await rest.call("PATCH", emojis_path(fake, other["id"]), {"name": "uno_r7"})
    assert (status, body["code"]) == (400, 50035)
    assert codes_at(body, "name") == ["APPLICATION_EMOJI_NAME_ALREADY_TAKEN"]
    assert [e.name for e in fake.emojis.application.values()] == ["uno_r7", "uno_r8"]


@pytest.mark.parametrize("name", ["a", "x" * 33, "uno-r7", "uno r7", "àé", ""])
async def test_names_outside_2_to_32_letters_digits_and_underscores_are_refused(
    rest: Rest, name: str
) -> None:
    status, body = await create(rest, name)
    assert (status, body["code"]) == (400, 50035)
    assert codes_at(body, "name")


@pytest.mark.parametrize("name", ["ab", "X" * 32, "uno_R7_0"])
async def test_names_of_2_to_32_letters_digits_and_underscores_are_accepted(
    rest: Rest, name: str
) -> None:
    assert (await create(rest, name))[0] == 201


@pytest.mark.parametrize(
    "image",
    [
        "iVBORw0KGgo=",  # base64 without the data URI
        data_uri(b"BM" + b"\x00" * 40, "image/bmp"),  # a bitmap
        data_uri(b"not a picture"),
        "data:image/png;base64,***",
    ],
)
async def test_images_that_are_not_png_jpeg_gif_webp_data_uris_are_refused(
    rest: Rest, image: str
) -> None:
    status, body = await create(rest, "uno_r7", image)
    assert (status, body["code"]) == (400, 50035)
    assert codes_at(body, "image")


async def test_images_over_256_kib_are_refused(rest: Rest) -> None:
    largest = CARD_PNG + b"\x00" * (256 * 1024 - len(CARD_PNG))  # 256 KiB exactly
    assert (await create(rest, "just_fits", data_uri(largest)))[0] == 201
    status, body = await create(rest, "too_big", data_uri(largest + b"\x00"))
    assert (status, body["code"]) == (400, 50035)
    assert codes_at(body, "image") == ["BINARY_TYPE_MAX_SIZE"]


async def test_an_application_holds_two_thousand_emojis(fake: FakeDiscord, rest: Rest) -> None:
    for i in range(1999):
        fake.emojis.create({"name": f"e{i:04d}", "image": data_uri(CARD_PNG)})
    assert (await create(rest, "the_last"))[0] == 201
    status, body = await create(rest, "one_more")
    assert (status, body["code"]) == (400, 30008)
    assert len(fake.emojis.application) == 2000


async def test_unknown_emojis_and_other_applications_are_refused(
    fake: FakeDiscord, rest: Rest
) -> None:
    for method in ("GET", "PATCH", "DELETE"):
        status, body = await rest.call(method, emojis_path(fake, 123), {"name": "x_y"})
        assert (status, body["code"]) == (404, 10014), method
    status, body = await rest.call("GET", f"/applications/{fake.application.id + 1}/emojis")
    assert (status, body["code"]) == (403, 50001)


async def test_the_cdn_serves_each_emoji_picture(fake: FakeDiscord, rest: Rest) -> None:
    _, made = await create(rest, "uno_r7")
    async with aiohttp.ClientSession() as http:
        for ext in ("png", "webp"):
            async with http.get(f"{fake.base_url}/emojis/{made['id']}.{ext}?size=48") as answer:
                assert answer.status == 200
                assert await answer.read() == CARD_PNG
        async with http.get(f"{fake.base_url}/emojis/1.png") as answer:
            assert answer.status == 404
    assert fake.cdn_requests == [
        f"/emojis/{made['id']}.png?size=48",
        f"/emojis/{made['id']}.webp?size=48",
        "/emojis/1.png",
    ]
    assert fake.resolve_media(f"https://media.discordapp.net/emojis/{made['id']}.webp") == CARD_PNG
    assert fake.resolve_media(f"{fake.base_url}/emojis/{made['id']}.png") == CARD_PNG
    assert fake.resolve_media("https://cdn.discordapp.com/emojis/1.png") is None


async def test_emojis_are_made_once_and_found_again_after_a_restart(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake.add_guild("G")
    general = guild.add_text_channel("general")
    alice = fake.add_user("alice")
    guild.add_member(alice)
    async with BotProcess(
        fake,
        database_path=tmp_path / "sample.sqlite3",
        module=SAMPLE,
        dev_guild=guild,
        env={"SAMPLE_EMOJIS": "1"},
    ) as bot:
        await bot.wait_for_output("emoji")
        (card,) = fake.emojis.application.values()
        assert any(f"emoji {card.id} created" in line for line in bot.output)
        await bot.restart()
        await bot.wait_for_output(f"emoji {card.id} reused")
        assert len(fake.requests_to("POST", EMOJIS)) == 1
        assert len(fake.requests_to("GET", EMOJIS)) == 2
        # The bot shows it: as its button's emoji, in its text, as the thumbnail picture.
        shown = await fake.slash(alice, general, "demo layout")
        await shown.done()
        message = shown.message
        assert message is not None
        assert message.texts()[0] == f"## Top card {card.markdown}"
        assert message.plain_text().startswith("## Top card :demo_card:\n")
        assert message.emoji_ids() == [card.id, card.id]
        assert [fake.resolve_media(url) for url in message.thumbnails()] == [CARD_PNG]
        fake.assert_clean()
        bot.assert_healthy()


# --------------------------------------------------------------------------- in messages


async def test_a_component_emoji_must_be_one_the_bot_may_use(
    fake: FakeDiscord, rest: Rest, channel: FakeChannel
) -> None:
    _, made = await create(rest, "uno_r7")
    known = {"id": made["id"], "name": "uno_r7"}
    unknown = {"id": "123456789012345678", "name": "uno_r7"}
    good = layout(container(row(button("play", emoji=known)), text("t")))
    assert (await rest.post(channel, good))[0] == 200
    bad_button = layout(container(row(button("play", emoji=unknown))))
    status, body = await rest.post(channel, bad_button)
    assert (status, body["code"]) == (400, 50035)
    assert codes_at(body, "components.0.components.0.components.0.emoji.id") == [
        "BUTTON_COMPONENT_INVALID_EMOJI"
    ]
    option = {"label": "Red 7", "value": "r7", "emoji": unknown}
    legacy = {
        "content": "Hand",
        "components": [row({"type": 3, "custom_id": "pick", "options": [option]})],
    }
    status, body = await rest.post(channel, legacy)
    assert (status, body["code"]) == (400, 50035)
    assert codes_at(body, "components.0.components.0.options.0.emoji.id") == [
        "BUTTON_COMPONENT_INVALID_EMOJI"
    ]
    accessory = layout(section(text("t"), accessory=button("b", emoji=unknown)))
    assert (await rest.post(channel, accessory))[0] == 400


@pytest.mark.parametrize(
    ("name", "status"), [("🟥", 200), ("1️⃣", 200), ("red", 400), (":red_square:", 400)]
)
async def test_a_component_emoji_by_name_must_be_a_unicode_emoji(
    rest: Rest, channel: FakeChannel, name: str, status: int
) -> None:
    body = {"content": "Hand", "components": [row(button("b", emoji={"name": name}))]}
    assert (await rest.post(channel, body))[0] == status


async def test_guild_emojis_are_usable_where_the_bot_may_use_them(
    fake: FakeDiscord, rest: Rest
) -> None:
    home = fake.add_guild("Home")
    here = home.add_text_channel("uno")
    no_external = ~Perm.USE_EXTERNAL_EMOJIS
    strict = fake.add_guild(
        "Strict",
        bot_permissions=Perm.BOT_DEFAULT & no_external,
        everyone_permissions=Perm.EVERYONE_DEFAULT & no_external,
    )
    elsewhere = strict.add_text_channel("uno")
    open_guild = fake.add_guild("Open").add_text_channel("uno")
    foreign = fake.add_guild("Foreign")
    del foreign.members[fake.bot_user.id]  # the bot left: its emojis are out of reach
    mine = home.add_emoji("home_r7", CARD_PNG)
    theirs = foreign.add_emoji("their_r7", CARD_PNG)

    def with_emoji(emoji: Any) -> dict[str, Any]:
        return {"content": "x", "components": [row(button("b", emoji={"id": str(emoji.id)}))]}

    assert (await rest.post(here, with_emoji(mine)))[0] == 200
    assert (await rest.post(open_guild, with_emoji(mine)))[0] == 200  # Use External Emojis
    assert (await rest.post(elsewhere, with_emoji(mine)))[0] == 400
    assert (await rest.post(here, with_emoji(theirs)))[0] == 400
    assert [e["name"] for e in home.payload()["emojis"]] == ["home_r7"]


async def test_unknown_emojis_in_text_and_pictures_are_shown_broken_and_fail_assert_clean(
    fake: FakeDiscord, rest: Rest, channel: FakeChannel
) -> None:
    _, made = await create(rest, "uno_r7")
    known = f"<:uno_r7:{made['id']}>"
    picture = f"https://cdn.discordapp.com/emojis/{made['id']}.png"
    fine = layout(section(text(f"Top card {known}"), accessory=thumbnail(picture)))
    assert (await rest.post(channel, fine))[0] == 200
    assert (await rest.post(channel, {"content": f"Played {known}"}))[0] == 200
    fake.assert_clean()
    missing = "<:uno_r8:123456789012345678>"
    broken_picture = "https://cdn.discordapp.com/emojis/123456789012345678.png"
    # Discord accepts these (the text reads ":uno_r8:", the picture is broken) ...
    assert (await rest.post(channel, {"content": f"Played {missing}"}))[0] == 200
    broken = layout(section(text(f"Top {missing}"), accessory=thumbnail(broken_picture)))
    assert (await rest.post(channel, broken))[0] == 200
    # ... and the fake says so.
    assert [(b.where, b.reference) for b in fake.broken_references] == [
        ("content", missing),
        ("text display", missing),
        ("media", broken_picture),
    ]
    with pytest.raises(AssertionError, match="no usable emoji backs"):
        fake.assert_clean()


async def test_a_deleted_emoji_breaks_the_messages_that_show_it_next(
    fake: FakeDiscord, rest: Rest, channel: FakeChannel
) -> None:
    _, made = await create(rest, "uno_r7")
    component = layout(container(row(button("play", emoji={"id": made["id"], "name": "uno_r7"}))))
    assert (await rest.post(channel, component))[0] == 200
    await rest.call("DELETE", emojis_path(fake, made["id"]))
    assert (await rest.post(channel, component))[0] == 400
    assert (await rest.post(channel, {"content": f"<:uno_r7:{made['id']}>"}))[0] == 200
    assert len(fake.broken_references) == 1


async def test_people_may_type_any_emoji_markdown(fake: FakeDiscord, channel: FakeChannel) -> None:
    player = fake.add_user("player")
    assert channel.guild is not None
    channel.guild.add_member(player)
    await fake.say(player, channel, "look <:nitro_cat:123456789012345678>")
    fake.assert_clean()

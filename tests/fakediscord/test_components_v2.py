"""Components V2 messages: Discord's layout rules, the flag's rules, and reading them as a
user does (texts, accent colour, thumbnails; buttons nested in containers and sections).

Most rules are proven with raw REST calls, as a bot would make them; the end-to-end tests at
the bottom use the sample bot's ``LayoutView`` (discord.py 2.6+) through the gateway.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from fakediscord import (
    ComponentError,
    FakeChannel,
    FakeDiscord,
    InteractionResult,
    MessageVersion,
)
from fakediscord.sample_bot import COLOURS
from fakediscord.world import MessageFlag

from .test_fake_discord import World, _world

V2 = MessageFlag.IS_COMPONENTS_V2


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async for w in _world(tmp_path):
        yield w


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as f:
        yield f


class Rest:
    """Plain REST calls as the bot would make them (JSON, or multipart with files)."""

    def __init__(self, fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
        self.fake, self.http = fake, http

    async def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        auth: bool = True,
        files: dict[str, bytes] | None = None,
    ) -> tuple[int, Any]:
        headers = {"Authorization": f"Bot {self.fake.token}"} if auth else {}
        kwargs: dict[str, Any] = {"json": body}
        if files:
            form = aiohttp.FormData()
            form.add_field("payload_json", json.dumps(body), content_type="application/json")
            for i, (name, content) in enumerate(files.items()):
                form.add_field(f"files[{i}]", content, filename=name)
            kwargs = {"data": form}
        async with self.http.request(
            method, self.fake.rest_base + path, headers=headers, **kwargs
        ) as response:
            data = await response.json() if response.status != 204 else None
            return response.status, data

    async def post(self, channel: FakeChannel, body: Any, **kw: Any) -> tuple[int, Any]:
        return await self.call("POST", f"/channels/{channel.id}/messages", body, **kw)

    async def edit(self, channel: FakeChannel, message_id: Any, body: Any) -> tuple[int, Any]:
        return await self.call("PATCH", f"/channels/{channel.id}/messages/{message_id}", body)


@pytest.fixture
async def rest(fake: FakeDiscord) -> AsyncIterator[Rest]:
    async with aiohttp.ClientSession() as http:
        yield Rest(fake, http)


@pytest.fixture
def channel(fake: FakeDiscord) -> FakeChannel:
    return fake.add_guild("G").add_text_channel("table")


# --------------------------------------------------------------------------- building blocks


def text(content: str) -> dict[str, Any]:
    return {"type": 10, "content": content}


def button(custom_id: str, label: str = "Go", **extra: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id, **extra}


def row(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(items)}


def section(*texts: dict[str, Any], accessory: dict[str, Any] | None) -> dict[str, Any]:
    data: dict[str, Any] = {"type": 9, "components": list(texts)}
    if accessory is not None:
        data["accessory"] = accessory
    return data


def thumbnail(url: str, description: str | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {"type": 11, "media": {"url": url}}
    if description is not None:
        data["description"] = description
    return data


def container(*items: dict[str, Any], accent: Any = None) -> dict[str, Any]:
    data: dict[str, Any] = {"type": 17, "components": list(items)}
    if accent is not None:
        data["accent_color"] = accent
    return data


def select(custom_id: str, values: list[str]) -> dict[str, Any]:
    return {
        "type": 3,
        "custom_id": custom_id,
        "options": [{"label": v.title(), "value": v} for v in values],
    }


def layout(*components: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"flags": V2, "components": list(components), **extra}


def table(n_rows: int = 1) -> dict[str, Any]:
    """A V2 table message much like the one issue 20 asks for."""
    return layout(
        container(
            section(
                text("## Alice's turn"),
                text("Top card: **Red 7**"),
                accessory=thumbnail("https://example.com/r7.png", "Red 7"),
            ),
            {"type": 14, "divider": True, "spacing": 1},
            text("Bruno · 3 cards · UNO!"),
            *[row(button(f"uno:play:{i}", f"Play {i}")) for i in range(n_rows)],
            section(text("Your hand is private"), accessory=button("uno:hand", "Hand")),
            row(select("uno:pick", ["red", "green"])),
            accent=0xE53935,
        ),
        text("Last move: Bruno drew a card"),
    )


def error_at(body: Any, path: str) -> list[dict[str, str]]:
    """The ``_errors`` Discord lists at ``path`` (``components.0.accent_color``)."""
    node = body["errors"]
    for part in path.split("."):
        node = node[part]
    return list(node["_errors"])


def codes_at(body: Any, path: str) -> list[str]:
    return [e["code"] for e in error_at(body, path)]


# --------------------------------------------------------------------------- accepted


async def test_a_v2_table_is_accepted_and_reads_as_a_phone_user_sees_it(
    fake: FakeDiscord, rest: Rest, channel: FakeChannel
) -> None:
    status, body = await rest.post(channel, table())
    assert status == 200, body
    message = fake.messages[int(body["id"])]
    assert message.is_components_v2
    assert body["flags"] & V2
    assert message.content == ""
    assert message.texts() == [
        "## Alice's turn",
        "Top card: **Red 7**",
        "Bruno · 3 cards · UNO!",
        "Your hand is private",
        "Last move: Bruno drew a card",
    ]
    assert message.text() == "\n".join(message.texts())
    assert message.accent_color == 0xE53935
    assert message.accent_colors() == [0xE53935]
    assert message.thumbnails() == ["https://example.com/r7.png"]
    assert message.custom_ids == ["uno:play:0", "uno:hand", "uno:pick"]
    assert [b["label"] for b in message.buttons] == ["Play 0", "Hand"]
    assert message.select_values("uno:pick") == ["red", "green"]
    everything = message.all_text()
    for words in ("Alice's turn", "Hand", "Play 0", "Red 7", "Green", "Last move"):
        assert words in everything
    # Discord numbers the components it stores, in reading order.
    ids = [c["id"] for c in message.iter_components()]
    assert ids == list(range(1, len(ids) + 1))
    # Every version reads the same way (leak checks read versions).
    version = message.history[-1]
    assert isinstance(version, MessageVersion)
    assert version.texts() == message.texts()
    assert version.accent_color == 0xE53935
    fake.assert_clean()


@pytest.mark.parametrize("accent", [0, 0xFFFFFF, None])
async def test_accent_colours_from_black_to_white_or_none_are_accepted(
    rest: Rest, channel: FakeChannel, accent: Any
) -> None:
    status, body = await rest.post(
        channel, layout({"type": 17, "accent_color": accent, "components": [text("x")]})
    )
    assert status == 200, body


async def test_forty_components_are_accepted_forty_one_refused(
    rest: Rest, channel: FakeChannel
) -> None:
    # A container (1), 13 rows (13) of 2 buttons (26): 40 components.
    rows = [row(button(f"b{i}a"), button(f"b{i}b")) for i in range(13)]
    status, body = await rest.post(channel, layout(container(*rows)))
    assert status == 200, body
    status, body = await rest.post(channel, layout(container(*rows), text("one more")))
    assert (status, body["code"]) == (400, 50035)
    assert "at most 40 components" in error_at(body, "components")[0]["message"]


async def test_four_thousand_characters_of_text_are_accepted_one_more_refused(
    rest: Rest, channel: FakeChannel
) -> None:
    four_thousand = [text("x" * 1000) for _ in range(4)]
    assert (await rest.post(channel, layout(container(*four_thousand))))[0] == 200
    status, body = await rest.post(channel, layout(container(*four_thousand), text("y")))
    assert (status, body["code"]) == (400, 50035)
    assert "4000 characters" in error_at(body, "components")[0]["message"]


async def test_attachments_shown_by_reference_are_stored_with_their_urls(
    fake: FakeDiscord, rest: Rest, channel: FakeChannel
) -> None:
    png = b"\x89PNG\r\n\x1a\n" + b"table picture"
    body = layout(
        section(text("Table"), accessory=thumbnail("attachment://card.png")),
        {"type": 12, "items": [{"media": {"url": "attachment://table.png"}, "description": "It"}]},
        {"type": 13, "file": {"url": "attachment://rules.txt"}},
    )
    files = {"card.png": png, "table.png": png + b"!", "rules.txt": b"rules"}
    status, sent = await rest.post(channel, body, files=files)
    assert status == 200, sent
    message = fake.messages[int(sent["id"])]
    urls = message.media_urls()
    assert [fake.resolve_media(url) for url in urls] == [png, png + b"!", b"rules"]
    assert message.thumbnails() == urls[:1]
    gallery_media = sent["components"][1]["items"][0]["media"]
    assert gallery_media["attachment_id"] == str(message.attachments[1].id)
    assert sent["components"][2]["name"] == "rules.txt"
    assert "It" in message.all_text()  # alt text is read out too


# --------------------------------------------------------------------------- the flag's rules


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("content", "hello"),
        ("embeds", [{"title": "Table"}]),
        ("sticker_ids", ["123456789012345678"]),
        ("poll", {"question": {"text": "?"}, "answers": [{"poll_media": {"text": "a"}}]}),
    ],
)
async def test_a_v2_message_refuses_the_legacy_fields(
    rest: Rest, channel: FakeChannel, field: str, value: Any
) -> None:
    status, body = await rest.post(channel, layout(text("Table"), **{field: value}))
    assert (status, body["code"]) == (400, 50035)
    assert codes_at(body, field) == ["MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"]


async def test_cleared_legacy_fields_are_fine_with_the_flag(
    rest: Rest, channel: FakeChannel
) -> None:
    status, body = await rest.post(channel, layout(text("Table"), content=None, embeds=[]))
    assert status == 200, body


async def test_the_flag_never_comes_off_in_an_edit(
    fake: FakeDiscord, rest: Rest, channel: FakeChannel
) -> None:
    _, sent = await rest.post(channel, table())
    message = fake.messages[int(sent["id"])]
    # An edit with flags 0 keeps the flag: the message is still V2 ...
    status, body = await rest.edit(channel, message.id, {"flags": 0, "components": [text("v2")]})
    assert status == 200, body
    assert message.is_components_v2
    assert body["flags"] & V2
    # ... so content is refused, with or without flags in the edit.
    for edit in ({"content": "legacy again"}, {"flags": 0, "content": "x", "components": []}):
        status, body = await rest.edit(channel, message.id, edit)
        assert (status, body["code"]) == (400, 50035), edit
    assert message.texts() == ["v2"]


async def test_a_legacy_message_turns_v2_only_if_the_same_edit_clears_its_content(
    fake: FakeDiscord, rest: Rest, channel: FakeChannel
) -> None:
    _, sent = await rest.post(channel, {"content": "Lobby", "embeds": [{"title": "UNO"}]})
    message = fake.messages[int(sent["id"])]
    keeps_content = {"flags": V2, "components": [text("Table")]}
    status, body = await rest.edit(channel, message.id, keeps_content)
    assert (status, body["code"]) == (400, 50035)
    assert set(body["errors"]) == {"content", "embeds"}
    assert not message.is_components_v2
    status, body = await rest.edit(
        channel, message.id, {**keeps_content, "content": None, "embeds": []}
    )
    assert status == 200, body
    assert fake.messages[message.id].is_components_v2
    assert (message.content, message.embeds, message.texts()) == ("", [], ["Table"])


# --------------------------------------------------------------------------- nesting rules


BAD_LAYOUTS: dict[str, tuple[list[dict[str, Any]], str]] = {
    "a thumbnail at the top level": ([thumbnail("https://example.com/a.png")], "components.0.type"),
    "a button at the top level": ([button("b")], "components.0.type"),
    "a container in a container": (
        [container(container(text("x")))],
        "components.0.components.0.type",
    ),
    "an empty container": ([container()], "components.0.components"),
    "a section without text": ([section(accessory=button("b"))], "components.0.components"),
    "a section with four texts": (
        [section(text("1"), text("2"), text("3"), text("4"), accessory=button("b"))],
        "components.0.components",
    ),
    "a section without an accessory": (
        [section(text("x"), accessory=None)],
        "components.0.accessory",
    ),
    "a section with a select as accessory": (
        [section(text("x"), accessory=select("s", ["a"]))],
        "components.0.accessory.type",
    ),
    "a button beside text in a section": (
        [section(text("x"), button("b"), accessory=button("c"))],
        "components.0.components.1.type",
    ),
    "six buttons in a row": (
        [row(*[button(f"b{i}") for i in range(6)])],
        "components.0.components",
    ),
    "a select beside a button": ([row(select("s", ["a"]), button("b"))], "components.0.components"),
    "text in an action row": ([row(text("x"))], "components.0.components.0.type"),
    "an empty text display": ([text("")], "components.0.content"),
    "a media gallery of none": ([{"type": 12, "items": []}], "components.0.items"),
    "a media gallery of eleven": (
        [{"type": 12, "items": [{"media": {"url": "https://e.com/a.png"}}] * 11}],
        "components.0.items",
    ),
    "a separator of spacing 3": ([{"type": 14, "spacing": 3}], "components.0.spacing"),
    "a file from the web": (
        [{"type": 13, "file": {"url": "https://example.com/rules.txt"}}],
        "components.0.file.url",
    ),
    "a thumbnail of no attached file": (
        [section(text("x"), accessory=thumbnail("attachment://missing.png"))],
        "components.0.accessory.media.url",
    ),
    "a thumbnail of an ftp URL": (
        [section(text("x"), accessory=thumbnail("ftp://example.com/a.png"))],
        "components.0.accessory.media.url",
    ),
    "alt text of 1025 characters": (
        [section(text("x"), accessory=thumbnail("https://e.com/a.png", "d" * 1025))],
        "components.0.accessory.description",
    ),
    "a label of 81 characters": (
        [container(row(button("b", "L" * 81)))],
        "components.0.components.0.components.0.label",
    ),
    "a custom_id of 101 characters": (
        [row(button("c" * 101))],
        "components.0.components.0.custom_id",
    ),
    "a custom_id twice, once nested": (
        [row(button("same")), container(section(text("x"), accessory=button("same")))],
        "components.1.components.0.accessory.custom_id",
    ),
    "a component id twice": (
        [{**text("a"), "id": 7}, {**text("b"), "id": 7}],
        "components.1.id",
    ),
    "a text input in a message": (
        [row({"type": 4, "custom_id": "t", "style": 1, "label": "L"})],
        "components.0.components.0.type",
    ),
}


@pytest.mark.parametrize("case", list(BAD_LAYOUTS))
async def test_layouts_discord_refuses_are_refused_with_the_path(
    fake: FakeDiscord, rest: Rest, channel: FakeChannel, case: str
) -> None:
    components, path = BAD_LAYOUTS[case]
    status, body = await rest.post(channel, layout(*components))
    assert (status, body["code"]) == (400, 50035), body
    assert error_at(body, path), body["errors"]
    assert fake.channel_messages(channel) == []


@pytest.mark.parametrize("accent", [-1, 0x1000000, "red", True, 1.5])
async def test_accent_colours_outside_rgb_are_refused(
    rest: Rest, channel: FakeChannel, accent: Any
) -> None:
    status, body = await rest.post(channel, layout(container(text("x"), accent=accent)))
    assert (status, body["code"]) == (400, 50035)
    assert error_at(body, "components.0.accent_color")


async def test_v2_components_without_the_flag_are_refused(rest: Rest, channel: FakeChannel) -> None:
    legacy = {"content": "Table", "components": [container(text("x"))]}
    status, body = await rest.post(channel, legacy)
    assert (status, body["code"]) == (400, 50035)
    assert error_at(body, "components.0.type")
    six_rows = {"content": "Table", "components": [row(button(f"b{i}")) for i in range(6)]}
    status, body = await rest.post(channel, six_rows)
    assert (status, body["code"]) == (400, 50035)
    # Legacy messages keep working: content beside up to five rows.
    five = {"content": "Table", "components": [row(button(f"b{i}")) for i in range(5)]}
    assert (await rest.post(channel, five))[0] == 200


# --------------------------------------------------------------------------- every route


async def test_interaction_responses_followups_and_webhook_edits_obey_the_same_rules(
    world: World,
) -> None:
    fake = world.fake
    silent = await fake.slash(world.alice, world.general, "demo silent", _wait=False)
    await world.bot.wait_for_output(f"silent: {silent.id}")
    hook = f"/webhooks/{fake.application.id}/{silent.token}"
    callback = f"/interactions/{silent.id}/{silent.token}/callback"
    async with aiohttp.ClientSession() as http:
        rest = Rest(fake, http)
        bad = await rest.call(
            "POST", callback, {"type": 4, "data": table() | {"content": "x"}}, auth=False
        )
        assert (bad[0], bad[1]["code"]) == (400, 50035)
        assert not silent.responded
        good = await rest.call("POST", callback, {"type": 4, "data": table()}, auth=False)
        assert good[0] == 204
        original = _original(silent)
        assert original.is_components_v2
        assert original.accent_color == 0xE53935
        # Followups: the same rules (a thumbnail alone at the top level is refused).
        lonely = layout(thumbnail("https://example.com/a.png"))
        status, body = await rest.call("POST", hook, lonely, auth=False)
        assert (status, body["code"]) == (400, 50035)
        status, body = await rest.call("POST", f"{hook}?wait=true", table(), auth=False)
        assert status == 200, body
        assert silent.followups[0].is_components_v2
        # Webhook edits of the original: the flag stays; content is refused.
        edit = f"{hook}/messages/@original"
        status, body = await rest.call("PATCH", edit, {"content": "legacy"}, auth=False)
        assert (status, body["code"]) == (400, 50035)
        status, body = await rest.call("PATCH", edit, table(3), auth=False)
        assert status == 200, body
    assert original.custom_ids[:3] == ["uno:play:0", "uno:play:1", "uno:play:2"]
    assert {r.status for r in fake.errors} == {400}
    world.bot.assert_healthy()


def _original(result: InteractionResult) -> Any:
    assert result.original is not None
    return result.original


# --------------------------------------------------------------------------- with discord.py


async def test_a_layout_view_message_is_read_and_clicked_as_users_do(world: World) -> None:
    fake = world.fake
    shown = await fake.slash(world.alice, world.general, "demo layout")
    await shown.done()
    shown.assert_answered_within(3.0)
    table_message = _original(shown)
    assert table_message.is_components_v2
    assert table_message.accent_color == 0xE53935
    assert table_message.texts() == ["## Top card 🟥", "Plays so far: 0", "Two cards left?"]
    assert table_message.thumbnails() == ["https://example.com/red7.png"]
    assert table_message.custom_ids == [
        "demo:layout:play",
        "demo:layout:draw",
        "demo:layout:uno",
        "demo:layout:colour",
    ]
    assert table_message.select_values("demo:layout:colour") == COLOURS
    assert table_message.visible_to(world.bob)
    assert "Two cards left?" in fake.seen_text(world.bob)
    # A button in a row inside the container, then the one that is a section's accessory.
    for custom_id, plays in (("demo:layout:play", 1), ("demo:layout:uno", 2)):
        pressed = await fake.click(world.bob, table_message, custom_id)
        await pressed.done()
        pressed.assert_answered_within(3.0)
        assert pressed.response_type == 7  # the message was updated
        assert pressed.payload["data"]["id"] == table_message.component(custom_id)["id"]
        assert f"Plays so far: {plays}" in table_message.texts()
    # A select in an action row inside the container.
    chosen = await fake.select(world.alice, table_message, "demo:layout:colour", ["green"])
    await chosen.done()
    chosen.assert_answered_within(3.0)
    with pytest.raises(ComponentError, match="no options"):
        await fake.select(world.alice, table_message, "demo:layout:colour", ["pink"])
    await world.bot.wait_for_output("layout: demo:layout:colour pressed ['green']")
    assert [v.texts()[1] for v in table_message.history] == [
        "Plays so far: 0",
        "Plays so far: 1",
        "Plays so far: 2",
        "Plays so far: 3",
    ]
    fake.assert_clean()
    world.bot.assert_healthy()


async def test_the_harness_reads_ids_and_selects_nested_in_v2_messages(
    fake: FakeDiscord, rest: Rest, channel: FakeChannel
) -> None:
    from playtest import harness

    _, sent = await rest.post(channel, table())
    message = fake.messages[int(sent["id"])]
    assert harness.custom_ids(message) == ["uno:play:0", "uno:hand", "uno:pick"]
    assert harness.find_id(message, "uno:hand") == "uno:hand"
    assert harness.select_values(message, "uno:pick") == ["red", "green"]


async def test_mentions_in_text_displays_notify_as_content_does(
    fake: FakeDiscord, rest: Rest, channel: FakeChannel
) -> None:
    alice, bruno = fake.add_user("alice"), fake.add_user("bruno")
    assert channel.guild is not None
    channel.guild.add_member(alice)
    channel.guild.add_member(bruno)
    turn = layout(container(text(f"{alice.mention}, your turn"), text(f"{bruno.mention} is next")))
    quiet = {"allowed_mentions": {"parse": [], "users": [str(alice.id)]}}
    assert (await rest.post(channel, turn | quiet))[0] == 200
    assert [m.texts()[0] for m in fake.notifications(alice)] == [f"{alice.mention}, your turn"]
    assert fake.notifications(bruno) == []

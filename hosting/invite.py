"""The invite link: the scopes and the exact channel permissions the bot uses.

Everything a player does goes through interactions, which need no channel permission. The
bot itself only posts, edits and deletes its own public table message; each permission below
says which part of that needs it. Editing and deleting its own messages need nothing more
(Manage Messages is for other people's messages, Read Message History for reading old ones),
and mentions are of users only, so Mention Everyone is not needed either.
"""

from __future__ import annotations

import base64
import binascii

import discord

#: The permissions the bot needs: discord.py's name, Discord's label, and the reason.
NEEDED: tuple[tuple[str, str, str], ...] = (
    ("view_channel", "View Channel", "see the channel where a table is opened"),
    ("send_messages", "Send Messages", "post the public table message"),
    (
        "send_messages_in_threads",
        "Send Messages in Threads",
        "post the table message when the table is in a thread",
    ),
    ("embed_links", "Embed Links", "show the top card's picture in the table message"),
    ("attach_files", "Attach Files", "attach the scoring card at the end of each hand"),
)
#: The OAuth2 scopes: the bot user, and its slash commands.
SCOPES: tuple[str, ...] = ("bot", "applications.commands")


def permissions() -> discord.Permissions:
    """The permissions of :data:`NEEDED`, as Discord counts them."""
    return discord.Permissions(**dict.fromkeys((name for name, _, _ in NEEDED), True))


def invite_url(client_id: int) -> str:
    """The link a server admin opens to add the bot with exactly these permissions."""
    return discord.utils.oauth_url(client_id, permissions=permissions(), scopes=SCOPES)


def application_id(token: str) -> int | None:
    """The bot's user id, which a bot token starts with (base64); ``None`` if it does not.

    For bots made since 2017 this is also the application (client) id.
    """
    head = token.strip().split(".", 1)[0]
    try:
        decoded = base64.urlsafe_b64decode(head + "=" * (-len(head) % 4)).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    return int(decoded) if decoded.isdigit() and 15 <= len(decoded) <= 21 else None


def token_problem(token: str) -> str | None:
    """Why ``token`` cannot be a bot token, in one sentence, or ``None`` if it looks right."""
    if token.lower().startswith("bot "):
        return "DISCORD_TOKEN starts with 'Bot ': paste the token alone, without that word."
    if token[:1] in "\"'" or token[-1:] in "\"'":
        return "DISCORD_TOKEN is quoted: remove the quotes around the token."
    parts = token.split(".")
    if len(parts) != 3 or not all(parts):
        return (
            "DISCORD_TOKEN does not look like a bot token (three parts separated by dots): "
            "copy it again from the Bot page of your application (Reset Token)."
        )
    if application_id(token) is None:
        return (
            "DISCORD_TOKEN does not start with a bot's id: copy it again from the Bot page "
            "of your application (Reset Token), not the client secret or the public key."
        )
    return None

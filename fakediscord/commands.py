"""The application commands the bot registered, and turning a test's call into interaction data.

``fake.slash(user, channel, "uno play", card="R7")`` resolves ``"uno play"`` against what the
bot synced (guild scope first, then global), checks every option against the registered
option types, and builds the ``data`` of an APPLICATION_COMMAND (or AUTOCOMPLETE) interaction,
``resolved`` included. Anything the Discord client would not let a user send raises
:class:`CommandError` so a wrong name or type fails loudly in the test.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .world import FakeAttachment, FakeChannel, FakeMember, FakeRole, FakeUser

OPTION_TYPES = {
    1: "SUB_COMMAND",
    2: "SUB_COMMAND_GROUP",
    3: "STRING",
    4: "INTEGER",
    5: "BOOLEAN",
    6: "USER",
    7: "CHANNEL",
    8: "ROLE",
    9: "MENTIONABLE",
    10: "NUMBER",
    11: "ATTACHMENT",
}


class UserActionError(LookupError):
    """The Discord client would not let the user do this (a test asked for the impossible)."""


class CommandError(UserActionError):
    """The Discord client would not send this command (unknown name, bad option, no access)."""


@dataclass
class Upload:
    """A file for an ATTACHMENT option: ``fake.slash(u, c, "x", file=Upload("a.txt", b"hi"))``."""

    filename: str
    data: bytes
    content_type: str = "application/octet-stream"


@dataclass
class ResolvedCommand:
    """A command path resolved against the registered tree."""

    scope: int | None  # guild id for guild commands, None for global
    root: dict[str, Any]
    path: list[dict[str, Any]]  # root, then group/subcommand options down to the leaf
    leaf: dict[str, Any]

    @property
    def qualified_name(self) -> str:
        return " ".join(node["name"] for node in self.path)


def _localized(node: dict[str, Any], locale: str) -> set[str]:
    names = {node["name"]}
    localizations = node.get("name_localizations") or {}
    if locale in localizations:
        names.add(localizations[locale])
    return names


def list_paths(commands: list[dict[str, Any]]) -> list[str]:
    """Every invocable chat-input path, e.g. ``["uno play", "uno draw"]``."""
    out: list[str] = []

    def walk(node: dict[str, Any], prefix: str) -> None:
        subs = [o for o in node.get("options") or [] if o.get("type") in (1, 2)]
        if not subs:
            out.append(prefix)
        for sub in subs:
            walk(sub, f"{prefix} {sub['name']}")

    for cmd in commands:
        if cmd.get("type", 1) == 1:
            walk(cmd, cmd["name"])
    return sorted(out)


def resolve(
    scopes: list[tuple[int | None, list[dict[str, Any]]]], path: str, *, locale: str
) -> ResolvedCommand:
    """Find ``path`` ("uno play") in the first scope that has its root command."""
    tokens = path.split()
    if not tokens:
        raise CommandError("empty command path")
    known = sorted({p for _, cmds in scopes for p in list_paths(cmds)})
    for scope, commands in scopes:
        root = next(
            (c for c in commands if c.get("type", 1) == 1 and tokens[0] in _localized(c, locale)),
            None,
        )
        if root is None:
            continue
        node = root
        chain = [root]
        for token in tokens[1:]:
            subs = [o for o in node.get("options") or [] if o.get("type") in (1, 2)]
            child = next((s for s in subs if token in _localized(s, locale)), None)
            if child is None:
                raise CommandError(f"/{path}: no subcommand {token!r}; registered: {known}")
            node = child
            chain.append(child)
        if any(o.get("type") in (1, 2) for o in node.get("options") or []):
            raise CommandError(f"/{path} is a group, not a command; registered: {known}")
        return ResolvedCommand(scope=scope, root=root, path=chain, leaf=node)
    raise CommandError(f"/{path} is not registered; registered: {known}")


class OptionBuilder:
    """Converts a test's keyword arguments into interaction options plus ``resolved`` data."""

    def __init__(self, guild_members: dict[int, FakeMember] | None, attachment_url: Any) -> None:
        self.members = guild_members or {}
        self.attachment_url = attachment_url
        self.resolved: dict[str, dict[str, Any]] = {}

    def _resolve(self, kind: str, key: int, value: dict[str, Any]) -> None:
        self.resolved.setdefault(kind, {})[str(key)] = value

    def _user(self, user: FakeUser) -> str:
        self._resolve("users", user.id, user.payload())
        member = self.members.get(user.id)
        if member is not None:
            data = member.payload(with_permissions=True)
            data.pop("user")
            self._resolve("members", user.id, data)
        return str(user.id)

    def convert(self, spec: dict[str, Any], value: Any, *, focused: bool) -> Any:
        kind = spec["type"]
        name = spec["name"]
        if focused:
            # While typing, Discord sends the raw text for every option type.
            return value if isinstance(value, str) else str(value)
        if kind == 3:
            if not isinstance(value, str):
                raise CommandError(f"option {name!r} is a STRING, got {value!r}")
            low, high = spec.get("min_length", 0), spec.get("max_length", 6000)
            if not low <= len(value) <= high:
                raise CommandError(f"option {name!r} must be {low}..{high} characters long")
        elif kind == 4:
            if not isinstance(value, int) or isinstance(value, bool):
                raise CommandError(f"option {name!r} is an INTEGER, got {value!r}")
        elif kind == 10:
            if not isinstance(value, int | float) or isinstance(value, bool):
                raise CommandError(f"option {name!r} is a NUMBER, got {value!r}")
        elif kind == 5:
            if not isinstance(value, bool):
                raise CommandError(f"option {name!r} is a BOOLEAN, got {value!r}")
        elif kind == 6:
            user = value.user if isinstance(value, FakeMember) else value
            if not isinstance(user, FakeUser):
                raise CommandError(f"option {name!r} is a USER, got {value!r}")
            return self._user(user)
        elif kind == 7:
            if not isinstance(value, FakeChannel):
                raise CommandError(f"option {name!r} is a CHANNEL, got {value!r}")
            allowed = spec.get("channel_types")
            if allowed and value.type not in allowed:
                raise CommandError(f"option {name!r} accepts channel types {allowed}")
            payload = value.payload()
            payload["permissions"] = str((1 << 51) - 1)
            self._resolve("channels", value.id, payload)
            return str(value.id)
        elif kind == 8:
            if not isinstance(value, FakeRole):
                raise CommandError(f"option {name!r} is a ROLE, got {value!r}")
            self._resolve("roles", value.id, value.payload())
            return str(value.id)
        elif kind == 9:
            if isinstance(value, FakeRole):
                self._resolve("roles", value.id, value.payload())
                return str(value.id)
            user = value.user if isinstance(value, FakeMember) else value
            if not isinstance(user, FakeUser):
                raise CommandError(f"option {name!r} is a MENTIONABLE, got {value!r}")
            return self._user(user)
        elif kind == 11:
            if not isinstance(value, Upload | FakeAttachment):
                raise CommandError(f"option {name!r} is an ATTACHMENT; pass Upload(name, bytes)")
            attachment = self.attachment_url(value)
            self._resolve("attachments", attachment.id, attachment.payload())
            return str(attachment.id)
        else:
            raise CommandError(f"option {name!r} has unsupported type {kind}")
        if kind in (4, 10):
            if "min_value" in spec and value < spec["min_value"]:
                raise CommandError(f"option {name!r} must be >= {spec['min_value']}")
            if "max_value" in spec and value > spec["max_value"]:
                raise CommandError(f"option {name!r} must be <= {spec['max_value']}")
        choices = spec.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise CommandError(
                f"option {name!r} must be one of {[c['value'] for c in choices]}, got {value!r}"
            )
        return value

    def build(
        self,
        command: ResolvedCommand,
        values: dict[str, Any],
        *,
        focused: str | None = None,
        locale: str = "en-US",
    ) -> list[dict[str, Any]]:
        """The nested ``options`` list for ``command`` with ``values`` filled in."""
        specs = [o for o in command.leaf.get("options") or [] if o.get("type") not in (1, 2)]

        def find(key: str) -> dict[str, Any]:
            for spec in specs:
                if key in _localized(spec, locale) or key.replace("_", "-") == spec["name"]:
                    found: dict[str, Any] = spec
                    return found
            raise CommandError(
                f"/{command.qualified_name} has no option {key!r}; "
                f"options: {[s['name'] for s in specs]}"
            )

        leaf_options: list[dict[str, Any]] = []
        given: set[str] = set()
        for key, value in values.items():
            spec = find(key)
            is_focused = focused is not None and spec is find(focused)
            converted = self.convert(spec, value, focused=is_focused)
            option: dict[str, Any] = {
                "name": spec["name"],
                "type": spec["type"],
                "value": converted,
            }
            if is_focused:
                if not spec.get("autocomplete"):
                    raise CommandError(f"option {spec['name']!r} has no autocomplete")
                option["focused"] = True
            leaf_options.append(option)
            given.add(spec["name"])
        if focused is not None and find(focused)["name"] not in given:
            raise CommandError(f"the focused option {focused!r} needs a value (the typed text)")
        if focused is None:
            missing = [s["name"] for s in specs if s.get("required") and s["name"] not in given]
            if missing:
                raise CommandError(
                    f"/{command.qualified_name}: required options missing: {missing}"
                )
        options = leaf_options
        for node in reversed(command.path[1:]):
            options = [{"name": node["name"], "type": node["type"], "options": options}]
        return options

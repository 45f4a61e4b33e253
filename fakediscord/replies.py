"""How the fake answers a REST call: Discord's JSON bodies and error shapes.

A route handler (in ``server.py`` or a module it delegates to, such as ``emojis.py``) raises
:class:`RespondNowError` to answer at once; the server turns it into the HTTP response.
"""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from . import validate

__all__ = ["RespondNowError", "error", "invalid", "json_response", "no_content"]


class RespondNowError(Exception):
    """Raised inside a route handler to answer at once with a ready response."""

    def __init__(self, response: web.Response) -> None:
        super().__init__(response.status)
        self.response = response


def json_response(data: Any, status: int = 200) -> web.Response:
    # discord.py only parses JSON when Content-Type is exactly "application/json".
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def error(
    status: int, code: int, message: str, errors: dict[str, Any] | None = None
) -> RespondNowError:
    body: dict[str, Any] = {"message": message, "code": code}
    if errors:
        body["errors"] = errors
    return RespondNowError(json_response(body, status))


def invalid(problems: validate.Problems) -> RespondNowError:
    """400 Invalid Form Body (50035) listing ``problems``; 50006 for an empty message."""
    if any(problem[1] == validate.EMPTY_MESSAGE for problem in problems):
        return error(400, 50006, validate.EMPTY_MESSAGE)
    return error(400, 50035, "Invalid Form Body", validate.form_errors(problems))


def no_content() -> web.Response:
    return web.Response(status=204)

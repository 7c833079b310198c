"""What a refused request is told: one line naming the field, at most a short prefix of the value sent
and what is allowed, and the field of the page it belongs to (``{"error": line, "field": name}``).

A request's JSON keys are the page's field names, except those :data:`ON_PAGE` maps; an error of the
body as a whole (not JSON, not an object) has no field, and the page shows it at the top of the form.
"""

from __future__ import annotations

import json
import math

from pydantic import BaseModel, Field

#: Characters of a bad string quoted in a message; a longer one is cut and its length said instead.
QUOTED = 40
#: Digits of a bad number quoted in a message.
DIGITS = 24
#: Request keys the page shows under another field: pasted rules under "rules" (the page's box for its
#: rules), and the deal viewer's "then" (sent by its buttons, never typed) under "moves".
ON_PAGE = {"rules_text": "rules", "then": "moves"}


class Refusal(BaseModel):
    """Every refusal's body (400, 404, 422, 429), for the OpenAPI document."""

    error: str = Field(..., description="one line: the field, a short prefix of the value sent, what is allowed")
    field: str | None = Field(..., description="the page's field it belongs to; null for the body as a whole")


#: The refusals every route may answer, for the OpenAPI document (FastAPI's own 422 shape is not sent).
REFUSALS = {
    400: {"model": Refusal, "description": "a value the rules refuse"},
    422: {"model": Refusal, "description": "a body that is not JSON, or fields that do not fit"},
    429: {"model": Refusal, "description": "the job queue is full"},
}


def short_value(value) -> str:
    """``value`` as a message quotes it: a string in quotes, cut to :data:`QUOTED` characters with its
    length said; a long number cut to :data:`DIGITS` digits; a list or an object by its size."""
    if isinstance(value, str):
        if len(value) <= QUOTED:
            return repr(value)
        return f"{value[:QUOTED]!r}... ({len(value):,} characters)"
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        text = str(value) if abs(value) < 10**DIGITS else f"{str(value)[:DIGITS]}... ({len(str(abs(value)))} digits)"
        return text
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else "a number that is not finite"
    if isinstance(value, list | tuple):
        return f"a list of {len(value):,} item{'' if len(value) == 1 else 's'}"
    if isinstance(value, dict):
        return f"an object of {len(value):,} key{'' if len(value) == 1 else 's'}"
    if isinstance(value, bytes):
        return f"{len(value):,} bytes"
    return f"a {type(value).__name__}"


def body_error(error: dict, body, content_type: str | None, titles: dict[str, str]) -> tuple[str, str | None]:
    """(the line, the page's field) for the first of pydantic's errors of a request body. ``body``: what
    was sent (the text for JSON that does not parse); ``content_type``: the request's header;
    ``titles``: the page's label of each key where it differs from the key (e.g. hands: "Deals")."""
    kind, ctx = error.get("type", ""), error.get("ctx") or {}
    loc = [x for x in error.get("loc", ()) if x != "body"]
    if kind == "json_invalid":
        line, column = _line_column(body, loc[0] if loc and isinstance(loc[0], int) else 0)
        why = f": {ctx['error']}" if ctx.get("error") else ""
        return f"the body is not valid JSON (line {line}, column {column}){why}", None
    if not loc:  # the body as a whole
        if kind == "missing":
            return "the body is missing: send a JSON object of fields (Content-Type: application/json)", None
        if not _is_json(content_type):
            shown = (content_type or "none").split(";")[0][:QUOTED]
            return f"the body must be JSON (Content-Type: application/json), not {shown}", None
        return f"the body must be a JSON object of fields, not {_json_kind(error.get('input'))}", None
    key = str(loc[0])
    label = f"{titles[key]} ({key})" if key in titles else key
    where = label + "".join(f"[{x}]" if isinstance(x, int) else f".{x}" for x in loc[1:])
    field = ON_PAGE.get(key, key)
    if kind == "missing":
        return f"{where}: missing; the request needs it", field
    if kind == "extra_forbidden":
        return f"{where}: not a field of this request", field
    value = error.get("input")
    if kind == "string_too_long":
        return f"{where}: {len(value):,} characters; at most {ctx['max_length']:,}", field
    if kind == "too_long":
        return f"{where}: {len(value):,} items; at most {ctx['max_length']:,}", field
    if kind in ("less_than_equal", "greater_than_equal", "less_than", "greater_than"):
        bound = ctx.get("le", ctx.get("ge", ctx.get("lt", ctx.get("gt"))))
        most = {"less_than_equal": "at most", "greater_than_equal": "at least"}.get(kind, kind.replace("_", " "))
        return f"{where} = {short_value(value)}: {most} {_number(bound)}", field
    if kind == "literal_error":
        return f"{where} = {short_value(value)}: one of {ctx.get('expected', '')}", field
    # pydantic's own words for the rest ("Input should be a valid integer"), after the field and value
    msg = str(error.get("msg", "not allowed"))
    msg = msg[0].lower() + msg[1:] if msg else "not allowed"
    return f"{where} = {short_value(value)}: {msg.removeprefix('input ')}", field


def _number(x) -> str:
    return f"{x:,}" if isinstance(x, int) else str(x)


def _is_json(content_type: str | None) -> bool:
    media = (content_type or "").split(";")[0].strip().lower()
    return media == "application/json" or (media.startswith("application/") and media.endswith("+json"))


def _json_kind(value) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    if value is None:
        return "null"
    return short_value(value)


def _line_column(body, position: int) -> tuple[int, int]:
    """(line, column), from 1, of character ``position`` of ``body`` (text or UTF-8 bytes)."""
    if isinstance(body, bytes):
        body = body.decode("utf-8", errors="replace")
    if not isinstance(body, str):
        return 1, position + 1
    before = body[:position]
    return before.count("\n") + 1, position - (before.rfind("\n") + 1) + 1

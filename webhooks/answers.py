"""What a receiver answered, as a delivery keeps it, whatever bytes it sent: the start of its
answer as printable text, and its ``Retry-After`` as seconds to wait."""

from __future__ import annotations

import codecs
import re
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

# The longest a receiver's Retry-After is honoured.
MAX_RETRY_AFTER_SECONDS = 3600
# RFC 9110's delay-seconds: ASCII digits only (``str.isdigit`` also takes "²" and "٣").
_DELAY_SECONDS = re.compile(r"[0-9]+")
# More digits than this is a wait longer than any honoured, read without converting it whole.
_MOST_DIGITS = len(str(MAX_RETRY_AFTER_SECONDS))
# What stands in for a character that cannot be shown.
REPLACEMENT = "\ufffd"


def printable(raw: bytes | str, limit: int) -> str:
    """``raw`` as text to store and show: UTF-8 (each invalid sequence one replacement
    character, an incomplete one at the end dropped), every character that
    ``str.isprintable`` refuses other than a newline or tab replaced (so never a NUL), and cut
    to at most ``limit`` bytes of UTF-8 without splitting a character."""
    if isinstance(raw, bytes):
        # Not final: the bytes are the start of an answer, whose last character may go on.
        raw = codecs.getincrementaldecoder("utf-8")("replace").decode(raw, final=False)
    text = "".join(
        c if c.isprintable() or c in "\n\t" else REPLACEMENT for c in raw.replace("\r\n", "\n")
    )
    return text.encode()[:limit].decode(errors="ignore")


def retry_after(value: str, now: datetime) -> float | None:
    """A ``Retry-After`` (RFC 9110 §10.2.3: delay-seconds, or an HTTP-date) as the seconds to
    wait from ``now``, at most ``MAX_RETRY_AFTER_SECONDS``; None for any other form."""
    value = value.strip(" \t")
    if _DELAY_SECONDS.fullmatch(value):
        digits = value.lstrip("0")
        if len(digits) > _MOST_DIGITS:
            return float(MAX_RETRY_AFTER_SECONDS)
        return float(min(int(digits or "0"), MAX_RETRY_AFTER_SECONDS))
    try:
        when = parsedate_to_datetime(value)
    # The standard library's date parser raises more than ValueError on some odd forms.
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if when.tzinfo is None:  # asctime's form has no zone: every HTTP-date is in GMT
        when = when.replace(tzinfo=UTC)
    wait = (when - now).total_seconds()
    return min(max(wait, 0.0), float(MAX_RETRY_AFTER_SECONDS))

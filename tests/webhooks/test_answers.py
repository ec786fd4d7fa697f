"""A receiver's answer as a delivery keeps it (webhooks.answers), without a database: its
Retry-After read as RFC 9110 says, every odd form refused or bounded; the start of its body as
printable text of at most 512 bytes."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from webhooks.answers import MAX_RETRY_AFTER_SECONDS, REPLACEMENT, printable, retry_after

NOW = datetime(2026, 11, 21, 12, 30, 20, tzinfo=UTC)
LONGEST = float(MAX_RETRY_AFTER_SECONDS)


@pytest.mark.parametrize(
    ("value", "seconds"),
    [
        ("120", 120.0),
        ("0", 0.0),
        (" 7\t", 7.0),  # the field's surrounding whitespace is not the value's
        ("007", 7.0),
        ("3600", LONGEST),
        ("3601", LONGEST),  # at most an hour
        ("99999999999999999999", LONGEST),
        ("9" * 5000, LONGEST),  # past the digits int() converts, still not read whole
        ("Sat, 21 Nov 2026 12:32:20 GMT", 120.0),  # IMF-fixdate
        ("Saturday, 21-Nov-26 12:32:20 GMT", 120.0),  # the obsolete RFC 850 form
        ("Sat Nov 21 12:32:20 2026", 120.0),  # asctime's, in GMT as every HTTP-date
        ("Sat Nov  1 12:32:20 2026", 0.0),
        ("Sat, 21 Nov 2026 11:00:00 GMT", 0.0),  # past: at once
        ("Thu, 01 Jan 1970 00:00:00 GMT", 0.0),
        ("Fri, 31 Dec 9999 23:59:59 GMT", LONGEST),
        ("Sat, 21 Nov 2026 14:32:20 +0200", 120.0),
        ("²", None),  # a digit to str.isdigit(), not to RFC 9110
        ("\u0663", None),  # ARABIC-INDIC DIGIT THREE
        ("Â²", None),  # "²" in UTF-8 as http.client reads it, in Latin-1
        ("-1", None),
        ("+5", None),
        ("1.5", None),
        ("1e309", None),
        ("inf", None),
        ("", None),
        ("   ", None),
        ("soon", None),
        ("\x00", None),
        ("120, 60", None),  # two fields in one
        ("Mon, 32 Foo 2026 99:99:99 +9999", None),
        ("Sat, 21 Nov 99999 12:32:20 GMT", None),
    ],
)
def test_retry_after_is_delay_seconds_or_an_http_date(value, seconds):
    assert retry_after(value, NOW) == seconds


@settings(database=None, derandomize=True)
@given(st.text(max_size=60))
def test_retry_after_never_raises_and_is_bounded(value):
    seconds = retry_after(value, NOW)

    assert seconds is None or 0 <= seconds <= LONGEST


@pytest.mark.parametrize(
    ("raw", "kept"),
    [
        (b'{"ok": true}', '{"ok": true}'),
        (b"line one\r\nline two\n\tend", "line one\nline two\n\tend"),
        (b"a\x00b", f"a{REPLACEMENT}b"),  # never a NUL
        (
            b"bell\x07 esc\x1b[31m del\x7f",
            f"bell{REPLACEMENT} esc{REPLACEMENT}[31m del{REPLACEMENT}",
        ),
        (b"lone\rreturn", f"lone{REPLACEMENT}return"),
        (b"\xff\xfe", REPLACEMENT * 2),  # invalid UTF-8
        (b"\x1f\x8b\x08\x00", f"{REPLACEMENT}{REPLACEMENT}{REPLACEMENT}{REPLACEMENT}"),
        ("caf\u00e9 \u2603".encode(), "caf\u00e9 \u2603"),
        ("\u0085 \u2028 \u202e".encode(), f"{REPLACEMENT} {REPLACEMENT} {REPLACEMENT}"),
        (b"x" * 511 + "\u00e9".encode()[:1], "x" * 511),  # a character's start, its end unread
        (b"x" * 600, "x" * 512),
        ("\u00e9".encode() * 300, "\u00e9" * 256),  # 512 bytes of two each
        ("\u2603".encode() * 200, "\u2603" * 170),  # 510: the next would pass 512
        (b"\xff" * 512, REPLACEMENT * 170),
    ],
)
def test_an_answer_is_kept_as_printable_text_of_at_most_512_bytes(raw, kept):
    assert printable(raw, 512) == kept


@settings(database=None, derandomize=True)
@given(st.binary(max_size=2048))
def test_any_bytes_are_kept_printable_and_within_the_limit(raw):
    kept = printable(raw, 512)

    assert len(kept.encode()) <= 512
    assert all(c.isprintable() or c in "\n\t" for c in kept)
    # The text is the bytes' own where they are printable UTF-8.
    if raw.isascii() and raw.decode().isprintable():
        assert kept == raw.decode()[:512]

"""Reading admin pages as a browser would: what a change form or a confirmation posts, a list's
column, messages."""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser
from typing import Any

from django import forms


def form_data(response: Any, **changes: Any) -> dict[str, Any]:
    """What the change (or add) form in ``response`` posts when saved with ``changes`` made,
    inline formsets and their management forms included."""
    context = response.context
    every_form: list[forms.BaseForm] = [context["adminform"].form]
    for inline in context["inline_admin_formsets"]:
        every_form.extend([inline.formset.management_form, *inline.formset.forms])
    data: dict[str, Any] = {}
    for form in every_form:
        for field in form:
            data.update(_posted(field))
    data.update(changes)
    return data


def _posted(field: forms.BoundField) -> dict[str, Any]:
    value = field.value()
    widget = field.field.widget
    if isinstance(widget, forms.MultiWidget):
        parts = value if isinstance(value, list) else widget.decompress(value) or []
        return {
            f"{field.html_name}_{index}": "" if part is None else part
            for index, part in enumerate(parts)
        }
    if isinstance(widget, forms.CheckboxInput):
        return {field.html_name: "on"} if value else {}
    if value is None and isinstance(
        field.field, (forms.MultipleChoiceField, forms.ModelMultipleChoiceField)
    ):
        return {}  # nothing ticked, nothing sent
    return {field.html_name: "" if value is None else value}


def column(response: Any, field: str) -> list[str]:
    """The text of a change list's column ``field``, row by row."""
    cells = re.findall(
        rf'<t[dh] class="field-{re.escape(field)}[^"]*">(.*?)</t[dh]>',
        response.content.decode(),
        re.DOTALL,
    )
    return [unescape(re.sub(r"<[^>]+>", "", cell)).strip() for cell in cells]


def shown_messages(response: Any) -> list[str]:
    """The messages the page in ``response`` shows (followed redirects included)."""
    return [str(message) for message in response.context["messages"]]


def listed(response: Any) -> list[Any]:
    """The objects a change list shows."""
    return list(response.context["cl"].result_list)


class _HiddenFields(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.fields: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "input" and found.get("type") == "hidden" and found.get("name"):
            self.fields.append((found["name"] or "", found.get("value") or ""))


def answered_yes(response: Any, **changes: Any) -> dict[str, Any]:
    """What the page in ``response``, which asks before an action acts, posts when answered Yes
    with ``changes`` made to its form: its hidden fields and its form's initial values."""
    parser = _HiddenFields()
    parser.feed(response.content.decode())
    values: dict[str, list[str]] = {}
    for name, value in parser.fields:
        values.setdefault(name, []).append(value)
    data: dict[str, Any] = {
        name: each[0] if len(each) == 1 else each for name, each in values.items()
    }
    form = response.context.get("form")
    if form is not None:
        for field in form:
            data.update(_posted(field))
    data.update(changes)
    return data

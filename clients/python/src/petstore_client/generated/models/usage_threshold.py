from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.window_name import WindowName

T = TypeVar("T", bound="UsageThreshold")


@_attrs_define
class UsageThreshold:
    """The account's day window, just past a share of its limit.

    Attributes:
        window (str | WindowName): The window it passed: `day`.

            * `minute` - minute
            * `day` - day
        percent (int): The share of the limit passed, in percent: 80 or 100.
        limit (int): Requests the window admits.
        used (int): Requests it had admitted when the share was passed.
        date (datetime.date): The UTC day.
    """

    window: str | WindowName
    percent: int
    limit: int
    used: int
    date: datetime.date
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        window: str
        if isinstance(self.window, WindowName):
            window = self.window.value
        else:
            window = self.window

        percent = self.percent

        limit = self.limit

        used = self.used

        date = self.date.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "window": window,
                "percent": percent,
                "limit": limit,
                "used": used,
                "date": date,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_window(data: object) -> str | WindowName:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                window_type_0 = WindowName(data)

                return window_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(str | WindowName, data)

        window = _parse_window(d.pop("window"))

        percent = d.pop("percent")

        limit = d.pop("limit")

        used = d.pop("used")

        date = datetime.date.fromisoformat(d.pop("date"))

        usage_threshold = cls(
            window=window,
            percent=percent,
            limit=limit,
            used=used,
            date=date,
        )

        usage_threshold.additional_properties = d
        return usage_threshold

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties

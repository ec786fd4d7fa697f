from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.window_name import WindowName

T = TypeVar("T", bound="RateLimitWindow")


@_attrs_define
class RateLimitWindow:
    """
    Attributes:
        name (str | WindowName): The window's name in the `RateLimit` headers.

            * `minute` - minute
            * `day` - day
        limit (int): Requests the window admits.
        used (int): Requests it has admitted so far.
        remaining (int): Requests it still admits.
        reset (int): Unix time, in seconds, at which it ends.
        seconds (int): Its length in seconds (60 or 86400).
    """

    name: str | WindowName
    limit: int
    used: int
    remaining: int
    reset: int
    seconds: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name: str
        if isinstance(self.name, WindowName):
            name = self.name.value
        else:
            name = self.name

        limit = self.limit

        used = self.used

        remaining = self.remaining

        reset = self.reset

        seconds = self.seconds

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "limit": limit,
                "used": used,
                "remaining": remaining,
                "reset": reset,
                "seconds": seconds,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_name(data: object) -> str | WindowName:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                name_type_0 = WindowName(data)

                return name_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(str | WindowName, data)

        name = _parse_name(d.pop("name"))

        limit = d.pop("limit")

        used = d.pop("used")

        remaining = d.pop("remaining")

        reset = d.pop("reset")

        seconds = d.pop("seconds")

        rate_limit_window = cls(
            name=name,
            limit=limit,
            used=used,
            remaining=remaining,
            reset=reset,
            seconds=seconds,
        )

        rate_limit_window.additional_properties = d
        return rate_limit_window

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

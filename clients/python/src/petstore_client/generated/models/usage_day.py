from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="UsageDay")


@_attrs_define
class UsageDay:
    """The calling account's requests on one UTC day, all its keys together.

    Attributes:
        date (datetime.date): The UTC day.
        admitted (int): Requests admitted.
        refused (int): Requests refused as over a limit (`rate_limited`).
        banned (int): Requests refused while the key was banned (`temporarily_banned`).
        per_minute (int | None): The plan's limit per minute that day; null on a day without requests.
        per_day (int | None): The plan's limit per UTC day that day; null on a day without requests.
    """

    date: datetime.date
    admitted: int
    refused: int
    banned: int
    per_minute: int | None
    per_day: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        date = self.date.isoformat()

        admitted = self.admitted

        refused = self.refused

        banned = self.banned

        per_minute: int | None
        per_minute = self.per_minute

        per_day: int | None
        per_day = self.per_day

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "date": date,
                "admitted": admitted,
                "refused": refused,
                "banned": banned,
                "perMinute": per_minute,
                "perDay": per_day,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        date = datetime.date.fromisoformat(d.pop("date"))

        admitted = d.pop("admitted")

        refused = d.pop("refused")

        banned = d.pop("banned")

        def _parse_per_minute(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        per_minute = _parse_per_minute(d.pop("perMinute"))

        def _parse_per_day(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        per_day = _parse_per_day(d.pop("perDay"))

        usage_day = cls(
            date=date,
            admitted=admitted,
            refused=refused,
            banned=banned,
            per_minute=per_minute,
            per_day=per_day,
        )

        usage_day.additional_properties = d
        return usage_day

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

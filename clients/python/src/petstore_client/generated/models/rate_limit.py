from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.ban import Ban
    from ..models.plan import Plan
    from ..models.rate_limit_window import RateLimitWindow


T = TypeVar("T", bound="RateLimit")


@_attrs_define
class RateLimit:
    """Where the calling key's account stands against its plan, read without spending it.

    Attributes:
        plan (Plan):
        windows (list[RateLimitWindow]):
        ban (Ban | None): The calling key's ban, while one is in force; else null.
    """

    plan: Plan
    windows: list[RateLimitWindow]
    ban: Ban | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.ban import Ban

        plan = self.plan.to_dict()

        windows = []
        for windows_item_data in self.windows:
            windows_item = windows_item_data.to_dict()
            windows.append(windows_item)

        ban: dict[str, Any] | None
        if isinstance(self.ban, Ban):
            ban = self.ban.to_dict()
        else:
            ban = self.ban

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "plan": plan,
                "windows": windows,
                "ban": ban,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.ban import Ban
        from ..models.plan import Plan
        from ..models.rate_limit_window import RateLimitWindow

        d = dict(src_dict)
        plan = Plan.from_dict(d.pop("plan"))

        windows = []
        _windows = d.pop("windows")
        for windows_item_data in _windows:
            windows_item = RateLimitWindow.from_dict(windows_item_data)

            windows.append(windows_item)

        def _parse_ban(data: object) -> Ban | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                ban_type_1 = Ban.from_dict(data)

                return ban_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Ban | None, data)

        ban = _parse_ban(d.pop("ban"))

        rate_limit = cls(
            plan=plan,
            windows=windows,
            ban=ban,
        )

        rate_limit.additional_properties = d
        return rate_limit

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

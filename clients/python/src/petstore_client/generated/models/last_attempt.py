from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="LastAttempt")


@_attrs_define
class LastAttempt:
    """How a delivery's last attempt went.

    Attributes:
        at (datetime.datetime):
        status (int | None): The receiver's HTTP status; null when it gave none.
        duration_ms (int | None): From sending to the answer, or to the failure.
        error (None | str): Why it was not delivered; null when it was. `timeout`: no answer in time; `connection`:
            refused, reset or unresolved; `tls`: the handshake or the certificate failed; `status`: answered other than 2xx;
            `redirect`: answered 3xx, which is not followed; `address`: not sent, the URL's address is refused; `disabled`:
            not sent, the endpoint was disabled when the event happened.
        response (str): The first 512 bytes of the receiver's answer, as text.
    """

    at: datetime.datetime
    status: int | None
    duration_ms: int | None
    error: None | str
    response: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        at = self.at.isoformat()

        status: int | None
        status = self.status

        duration_ms: int | None
        duration_ms = self.duration_ms

        error: None | str
        error = self.error

        response = self.response

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "at": at,
                "status": status,
                "durationMs": duration_ms,
                "error": error,
                "response": response,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        at = datetime.datetime.fromisoformat(d.pop("at"))

        def _parse_status(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        status = _parse_status(d.pop("status"))

        def _parse_duration_ms(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        duration_ms = _parse_duration_ms(d.pop("durationMs"))

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        response = d.pop("response")

        last_attempt = cls(
            at=at,
            status=status,
            duration_ms=duration_ms,
            error=error,
            response=response,
        )

        last_attempt.additional_properties = d
        return last_attempt

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

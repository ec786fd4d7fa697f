from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.error_code import ErrorCode
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.error_errors import ErrorErrors


T = TypeVar("T", bound="Error")


@_attrs_define
class Error:
    """
    Attributes:
        code (ErrorCode | str):
        message (str): A human-readable description.
        status (int): The HTTP status code.
        errors (ErrorErrors | Unset): For validation errors: the messages for each invalid field.
    """

    code: ErrorCode | str
    message: str
    status: int
    errors: ErrorErrors | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        code: str
        if isinstance(self.code, ErrorCode):
            code = self.code.value
        else:
            code = self.code

        message = self.message

        status = self.status

        errors: dict[str, Any] | Unset = UNSET
        if not isinstance(self.errors, Unset):
            errors = self.errors.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "code": code,
                "message": message,
                "status": status,
            }
        )
        if errors is not UNSET:
            field_dict["errors"] = errors

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.error_errors import ErrorErrors

        d = dict(src_dict)

        def _parse_code(data: object) -> ErrorCode | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                code_type_0 = ErrorCode(data)

                return code_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ErrorCode | str, data)

        code = _parse_code(d.pop("code"))

        message = d.pop("message")

        status = d.pop("status")

        _errors = d.pop("errors", UNSET)
        errors: ErrorErrors | Unset
        if isinstance(_errors, Unset):
            errors = UNSET
        else:
            errors = ErrorErrors.from_dict(_errors)

        error = cls(
            code=code,
            message=message,
            status=status,
            errors=errors,
        )

        error.additional_properties = d
        return error

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

from enum import StrEnum


class ErrorCode(StrEnum):
    BAD_GATEWAY = "bad_gateway"
    BAD_REQUEST = "bad_request"
    CONFLICT = "conflict"
    EXPECTATION_FAILED = "expectation_failed"
    FORBIDDEN = "forbidden"
    GATEWAY_TIMEOUT = "gateway_timeout"
    GONE = "gone"
    HEADER_TOO_LARGE = "header_too_large"
    HTTP_VERSION_NOT_SUPPORTED = "http_version_not_supported"
    IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused"
    INTERNAL_ERROR = "internal_error"
    LENGTH_REQUIRED = "length_required"
    MALFORMED_REQUEST = "malformed_request"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    NOT_FOUND = "not_found"
    NOT_IMPLEMENTED = "not_implemented"
    PAYLOAD_TOO_LARGE = "payload_too_large"
    RATE_LIMITED = "rate_limited"
    REQUEST_TIMEOUT = "request_timeout"
    SERVICE_UNAVAILABLE = "service_unavailable"
    TEMPORARILY_BANNED = "temporarily_banned"
    UNAUTHORIZED = "unauthorized"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"
    URI_TOO_LONG = "uri_too_long"
    VALIDATION_ERROR = "validation_error"

    def __str__(self) -> str:
        return str(self.value)

"""Contains all the data models used in inputs/outputs"""

from .ban import Ban
from .category import Category
from .category_created_event import CategoryCreatedEvent
from .category_created_event_type import CategoryCreatedEventType
from .created_endpoint import CreatedEndpoint
from .delivery import Delivery
from .delivery_state import DeliveryState
from .endpoint import Endpoint
from .endpoint_state import EndpointState
from .error import Error
from .error_code import ErrorCode
from .error_errors import ErrorErrors
from .event_type import EventType
from .last_attempt import LastAttempt
from .list_orders_status import ListOrdersStatus
from .list_pets_status import ListPetsStatus
from .list_webhook_deliveries_state import ListWebhookDeliveriesState
from .new_category import NewCategory
from .new_endpoint import NewEndpoint
from .new_order import NewOrder
from .new_pet import NewPet
from .order import Order
from .order_approved_event import OrderApprovedEvent
from .order_approved_event_type import OrderApprovedEventType
from .order_cancelled_event import OrderCancelledEvent
from .order_cancelled_event_type import OrderCancelledEventType
from .order_delivered_event import OrderDeliveredEvent
from .order_delivered_event_type import OrderDeliveredEventType
from .order_placed_event import OrderPlacedEvent
from .order_placed_event_type import OrderPlacedEventType
from .order_status import OrderStatus
from .patched_endpoint_changes import PatchedEndpointChanges
from .pet import Pet
from .pet_created_event import PetCreatedEvent
from .pet_created_event_type import PetCreatedEventType
from .pet_status import PetStatus
from .pet_status_change import PetStatusChange
from .pet_status_changed_event import PetStatusChangedEvent
from .pet_status_changed_event_type import PetStatusChangedEventType
from .plan import Plan
from .plan_code import PlanCode
from .rate_limit import RateLimit
from .rate_limit_window import RateLimitWindow
from .recovered import Recovered
from .recovery import Recovery
from .rotated_secret import RotatedSecret
from .secret_rotation import SecretRotation
from .test_send import TestSend
from .unknown_event import UnknownEvent
from .usage_day import UsageDay
from .usage_threshold import UsageThreshold
from .usage_threshold_event import UsageThresholdEvent
from .usage_threshold_event_type import UsageThresholdEventType
from .webhook_endpoint_disabled_event import WebhookEndpointDisabledEvent
from .webhook_endpoint_disabled_event_type import WebhookEndpointDisabledEventType
from .window_name import WindowName

__all__ = (
    "Ban",
    "Category",
    "CategoryCreatedEvent",
    "CategoryCreatedEventType",
    "CreatedEndpoint",
    "Delivery",
    "DeliveryState",
    "Endpoint",
    "EndpointState",
    "Error",
    "ErrorCode",
    "ErrorErrors",
    "EventType",
    "LastAttempt",
    "ListOrdersStatus",
    "ListPetsStatus",
    "ListWebhookDeliveriesState",
    "NewCategory",
    "NewEndpoint",
    "NewOrder",
    "NewPet",
    "Order",
    "OrderApprovedEvent",
    "OrderApprovedEventType",
    "OrderCancelledEvent",
    "OrderCancelledEventType",
    "OrderDeliveredEvent",
    "OrderDeliveredEventType",
    "OrderPlacedEvent",
    "OrderPlacedEventType",
    "OrderStatus",
    "PatchedEndpointChanges",
    "Pet",
    "PetCreatedEvent",
    "PetCreatedEventType",
    "PetStatus",
    "PetStatusChange",
    "PetStatusChangedEvent",
    "PetStatusChangedEventType",
    "Plan",
    "PlanCode",
    "RateLimit",
    "RateLimitWindow",
    "Recovered",
    "Recovery",
    "RotatedSecret",
    "SecretRotation",
    "TestSend",
    "UnknownEvent",
    "UsageDay",
    "UsageThreshold",
    "UsageThresholdEvent",
    "UsageThresholdEventType",
    "WebhookEndpointDisabledEvent",
    "WebhookEndpointDisabledEventType",
    "WindowName",
)

import { WIRE_I64, WIRE_LEN, WIRE_VARINT } from './proto-reader';

// Field numbers from opentelemetry-proto: collector/trace/v1/trace_service.proto, trace/v1/trace.proto,
// common/v1/common.proto and resource/v1/resource.proto. A tag is (field << 3) | wire type.
const LEN = (field: number) => field * 8 + WIRE_LEN;
const VARINT = (field: number) => field * 8 + WIRE_VARINT;
const I64 = (field: number) => field * 8 + WIRE_I64;

export const REQUEST_RESOURCE_SPANS = LEN(1);
export const RESOURCE_SPANS_RESOURCE = LEN(1);
export const RESOURCE_SPANS_SCOPE_SPANS = LEN(2);
export const RESOURCE_SPANS_INSTRUMENTATION_LIBRARY_SPANS = LEN(1000); // deprecated, still sent by old SDKs
export const RESOURCE_ATTRIBUTES = LEN(1);
export const SCOPE_SPANS_SCOPE = LEN(1); // InstrumentationScope, or InstrumentationLibrary in the legacy message
export const SCOPE_SPANS_SPANS = LEN(2);
export const SCOPE_NAME = LEN(1);
export const SPAN_TRACE_ID = LEN(1);
export const SPAN_SPAN_ID = LEN(2);
export const SPAN_PARENT_SPAN_ID = LEN(4);
export const SPAN_NAME = LEN(5);
export const SPAN_KIND = VARINT(6);
export const SPAN_START_TIME = I64(7);
export const SPAN_END_TIME = I64(8);
export const SPAN_ATTRIBUTES = LEN(9);
export const SPAN_EVENTS = LEN(11);
export const SPAN_STATUS = LEN(15);
export const EVENT_TIME = I64(1);
export const EVENT_NAME = LEN(2);
export const EVENT_ATTRIBUTES = LEN(3);
export const STATUS_MESSAGE = LEN(2);
export const STATUS_CODE = VARINT(3);
export const KEY_VALUE_KEY = LEN(1);
export const KEY_VALUE_VALUE = LEN(2);
export const ANY_STRING = LEN(1);
export const ANY_BOOL = VARINT(2);
export const ANY_INT = VARINT(3);
export const ANY_DOUBLE = I64(4);
export const ANY_ARRAY = LEN(5);
export const ANY_KVLIST = LEN(6);
export const ANY_BYTES = LEN(7);
export const LIST_VALUES = LEN(1); // ArrayValue.values and KeyValueList.values

// The failure class of a span: `loop.error.class` when sent, else read from the HTTP status code,
// `error.type` and the status message. A failed span whose cause says nothing is `transient`:
// the one class that does not claim the call itself was wrong.
import type { ErrorClass } from '../trajectory/step';
import { isErrorClass } from '../trajectory/step';
import { readInteger, readString } from './attributes';
import type { Attributes } from './otlp/types';

const TEXT_RULES: readonly [RegExp, ErrorClass][] = [
  [
    /permission|forbidden|unauthori[sz]ed|access.?denied|not.?allowed|eacces|eperm|\b40[13]\b/i,
    'permission',
  ],
  [/valid|malformed|parse|syntax|json|schema|value.?error|bad.?request|\b4(00|22)\b/i, 'malformed'],
  [
    /not.?found|no.?such|missing|precondition|conflict|exists|enoent|\b40[49]\b|\b412\b/i,
    'precondition',
  ],
  [/loop.?hazard|recursion|repeat/i, 'loop_hazard'],
  [
    /timeout|timed.?out|rate.?limit|overload|unavailable|econn|reset|try.?again|\b429\b|\b5\d\d\b/i,
    'transient',
  ],
];

export function readErrorClass(
  attributes: Attributes,
  status: { code: number; message: string },
  exceptionType: string | null,
): ErrorClass | null {
  const explicit = readString(attributes, 'loop.error.class');
  if (explicit !== null && isErrorClass(explicit)) return explicit;

  const httpStatus = readInteger(attributes, 'http.response.status_code', 'http.status_code');
  const errorType = readString(attributes, 'error.type');
  const failed =
    status.code === 2 || errorType !== null || (httpStatus !== null && httpStatus >= 400);
  if (!failed) return null;

  if (httpStatus !== null && httpStatus >= 400) {
    if (httpStatus === 401 || httpStatus === 403) return 'permission';
    if (httpStatus === 400 || httpStatus === 422) return 'malformed';
    if (httpStatus === 404 || httpStatus === 409 || httpStatus === 412) return 'precondition';
    if (httpStatus === 408 || httpStatus === 429 || httpStatus >= 500) return 'transient';
  }
  const text = [errorType, exceptionType, status.message].filter(Boolean).join(' ');
  for (const [pattern, errorClass] of TEXT_RULES) if (pattern.test(text)) return errorClass;
  return 'transient';
}

/** Small value checks used by the strict event reader; each knows what it expected, for the message. */
export interface FieldCheck {
  readonly test: (value: unknown) => boolean;
  /** Completes "must be ..." in an error message; never mentions the actual value. */
  readonly expected: string;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.getPrototypeOf(value) === Object.prototype
  );
}

const isInteger = (value: unknown): value is number =>
  typeof value === "number" && Number.isSafeInteger(value);

export const string: FieldCheck = { test: (v) => typeof v === "string", expected: "a string" };
export const stringOrNull: FieldCheck = {
  test: (v) => v === null || typeof v === "string",
  expected: "a string or null",
};
export const boolean: FieldCheck = { test: (v) => typeof v === "boolean", expected: "a boolean" };
export const integer: FieldCheck = { test: isInteger, expected: "an integer" };
export const integerOrNull: FieldCheck = {
  test: (v) => v === null || isInteger(v),
  expected: "an integer or null",
};
export const positiveInteger: FieldCheck = {
  test: (v) => isInteger(v) && v > 0,
  expected: "a positive integer",
};
export const nonNegativeInteger: FieldCheck = {
  test: (v) => isInteger(v) && v >= 0,
  expected: "a non-negative integer",
};
export const integerRecord: FieldCheck = {
  test: (v) => isPlainObject(v) && Object.values(v).every(isInteger),
  expected: "an object of integers",
};

/** One of a fixed set of strings; the message lists the set (documented words, not file content). */
export function oneOf(values: readonly string[]): FieldCheck {
  const allowed = new Set(values);
  return {
    test: (v) => typeof v === "string" && allowed.has(v),
    expected: `one of ${values.join(", ")}`,
  };
}

/** `/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i`, without a regular expression. */
function isUuid(value: string): boolean {
  if (value.length !== 36) return false;
  for (let i = 0; i < 36; i++) {
    const code = value.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (code !== 45) return false;
    } else if (!((code >= 48 && code <= 57) || (code >= 97 && code <= 102) || (code >= 65 && code <= 70)))
      return false;
  }
  return true;
}
export const uuid: FieldCheck = { test: (v) => typeof v === "string" && isUuid(v), expected: "a UUID" };

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?Z$/;

/** The last timestamp found valid: consecutive events often share their millisecond. */
let lastValidTimestamp = "";

function isUtcTimestamp(value: unknown): boolean {
  if (typeof value !== "string") return false;
  if (value === lastValidTimestamp) return true;
  if (!isValidTimestamp(value)) return false;
  lastValidTimestamp = value;
  return true;
}

function isValidTimestamp(value: string): boolean {
  const match = TIMESTAMP.exec(value);
  if (match === null) return false;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const daysInMonth = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  return (
    month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth && hour <= 23 && minute <= 59 && second <= 59
  );
}

export const utcTimestamp: FieldCheck = {
  test: isUtcTimestamp,
  expected: "a UTC ISO-8601 timestamp ending in Z",
};

export const nonNegativeIntegerOrNull: FieldCheck = {
  test: (v) => v === null || (isInteger(v) && v >= 0),
  expected: "a non-negative integer or null",
};
export const positiveIntegerOrNull: FieldCheck = {
  test: (v) => v === null || (isInteger(v) && v > 0),
  expected: "a positive integer or null",
};

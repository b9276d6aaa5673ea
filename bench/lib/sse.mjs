// The shape of the bench's SSE stream, shared by the upstream and the streaming measurement.
export const SSE_EVENTS = 20;
export const SSE_INTERVAL_MS = 100;

import {
  type AgentChaosEvent,
  type DependencyReadyPayload,
  type DependencyStartedPayload,
  type DependencyStoppedPayload,
  EVENT_COMPONENT,
  type EventPayload,
  type EventSink,
  type EventType,
  type FailureKind,
  type FaultInjectedPayload,
  type InjectorStartedPayload,
  type OperationFailedPayload,
  type OperationObservedPayload,
  type OperationSucceededPayload,
  type PayloadOf,
  type RetryObservedPayload,
} from "../events/types.js";
import {
  type Dependency,
  type DisconnectFault,
  FAULT_TYPES,
  type Fault,
  type FaultType,
  HTTP_FAULT_TYPES,
  type HttpDependency,
  type HttpErrorFault,
  type HttpFaultType,
  type LatencyFault,
  type MalformedJsonFault,
  type RateLimitFault,
  type Scenario,
  type Target,
  type Trigger,
  type Workload,
} from "../scenario/types.js";

/**
 * The names the library's types had before the internal model took the plain names
 * (docs/library.md "Types"); each is the type it was, under its new name.
 */

/** @deprecated Use `LegacyEvent`. */
export type AgentChaosEventV2<P extends EventPayload = EventPayload> = AgentChaosEvent<P>;

/** @deprecated Use `LegacyDependencyReadyPayload`. */
export type DependencyReadyPayloadV2 = DependencyReadyPayload;

/** @deprecated Use `LegacyDependencyStartedPayload`. */
export type DependencyStartedPayloadV2 = DependencyStartedPayload;

/** @deprecated Use `LegacyDependencyStoppedPayload`. */
export type DependencyStoppedPayloadV2 = DependencyStoppedPayload;

/** @deprecated Use `LegacyDependency`. */
export type DependencyV2 = Dependency;

/** @deprecated Use `LegacyDisconnectFault`. */
export type DisconnectFaultV2 = DisconnectFault;

/** @deprecated Use `LEGACY_EVENT_COMPONENT`. */
export const EVENT_COMPONENT_V2 = EVENT_COMPONENT;

/** @deprecated Use `LegacyEventPayload`. */
export type EventPayloadV2 = EventPayload;

/** @deprecated Use `LegacyEventSink`. */
export type EventSinkV2 = EventSink;

/** @deprecated Use `LegacyEventType`. */
export type EventTypeV2 = EventType;

/** @deprecated Use `LEGACY_FAULT_TYPES`. */
export const FAULT_TYPES_V2 = FAULT_TYPES;

/** @deprecated Use `LegacyFailureKind`. */
export type FailureKindV2 = FailureKind;

/** @deprecated Use `LegacyFaultInjectedPayload`. */
export type FaultInjectedPayloadV2 = FaultInjectedPayload;

/** @deprecated Use `LegacyFaultType`. */
export type FaultTypeV2 = FaultType;

/** @deprecated Use `LegacyFault`. */
export type FaultV2 = Fault;

/** @deprecated Use `HTTP_FAULT_TYPES`. */
export const HTTP_FAULT_TYPES_V2 = HTTP_FAULT_TYPES;

/** @deprecated Use `HttpDependency`. */
export type HttpDependencyV2 = HttpDependency;

/** @deprecated Use `LegacyHttpErrorFault`. */
export type HttpErrorFaultV2 = HttpErrorFault;

/** @deprecated Use `HttpFaultType`. */
export type HttpFaultTypeV2 = HttpFaultType;

/** @deprecated Use `LegacyInjectorStartedPayload`. */
export type InjectorStartedPayloadV2 = InjectorStartedPayload;

/** @deprecated Use `LegacyLatencyFault`. */
export type LatencyFaultV2 = LatencyFault;

/** @deprecated Use `LegacyMalformedJsonFault`. */
export type MalformedJsonFaultV2 = MalformedJsonFault;

/** @deprecated Use `LegacyOperationFailedPayload`. */
export type OperationFailedPayloadV2 = OperationFailedPayload;

/** @deprecated Use `LegacyOperationObservedPayload`. */
export type OperationObservedPayloadV2 = OperationObservedPayload;

/** @deprecated Use `LegacyOperationSucceededPayload`. */
export type OperationSucceededPayloadV2 = OperationSucceededPayload;

/** @deprecated Use `LegacyPayloadOf`. */
export type PayloadOfV2<T extends EventType> = PayloadOf<T>;

/** @deprecated Use `LegacyRateLimitFault`. */
export type RateLimitFaultV2 = RateLimitFault;

/** @deprecated Use `LegacyRetryObservedPayload`. */
export type RetryObservedPayloadV2 = RetryObservedPayload;

/** @deprecated Use `LegacyScenario`. */
export type ScenarioV2 = Scenario;

/** @deprecated Use `LegacyTarget`. */
export type TargetV2 = Target;

/** @deprecated Use `OccurrenceTrigger`. */
export type TriggerV2 = Trigger;

/** @deprecated Use `LegacyWorkload`. */
export type WorkloadV2 = Workload;

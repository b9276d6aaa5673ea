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

/** @deprecated Use `AgentChaosEvent`. */
export type AgentChaosEventV2<P extends EventPayload = EventPayload> = AgentChaosEvent<P>;

/** @deprecated Use `DependencyReadyPayload`. */
export type DependencyReadyPayloadV2 = DependencyReadyPayload;

/** @deprecated Use `DependencyStartedPayload`. */
export type DependencyStartedPayloadV2 = DependencyStartedPayload;

/** @deprecated Use `DependencyStoppedPayload`. */
export type DependencyStoppedPayloadV2 = DependencyStoppedPayload;

/** @deprecated Use `Dependency`. */
export type DependencyV2 = Dependency;

/** @deprecated Use `DisconnectFault`. */
export type DisconnectFaultV2 = DisconnectFault;

/** @deprecated Use `EVENT_COMPONENT`. */
export const EVENT_COMPONENT_V2 = EVENT_COMPONENT;

/** @deprecated Use `EventPayload`. */
export type EventPayloadV2 = EventPayload;

/** @deprecated Use `EventSink`. */
export type EventSinkV2 = EventSink;

/** @deprecated Use `EventType`. */
export type EventTypeV2 = EventType;

/** @deprecated Use `FAULT_TYPES`. */
export const FAULT_TYPES_V2 = FAULT_TYPES;

/** @deprecated Use `FailureKind`. */
export type FailureKindV2 = FailureKind;

/** @deprecated Use `FaultInjectedPayload`. */
export type FaultInjectedPayloadV2 = FaultInjectedPayload;

/** @deprecated Use `FaultType`. */
export type FaultTypeV2 = FaultType;

/** @deprecated Use `Fault`. */
export type FaultV2 = Fault;

/** @deprecated Use `HTTP_FAULT_TYPES`. */
export const HTTP_FAULT_TYPES_V2 = HTTP_FAULT_TYPES;

/** @deprecated Use `HttpDependency`. */
export type HttpDependencyV2 = HttpDependency;

/** @deprecated Use `HttpErrorFault`. */
export type HttpErrorFaultV2 = HttpErrorFault;

/** @deprecated Use `HttpFaultType`. */
export type HttpFaultTypeV2 = HttpFaultType;

/** @deprecated Use `InjectorStartedPayload`. */
export type InjectorStartedPayloadV2 = InjectorStartedPayload;

/** @deprecated Use `LatencyFault`. */
export type LatencyFaultV2 = LatencyFault;

/** @deprecated Use `MalformedJsonFault`. */
export type MalformedJsonFaultV2 = MalformedJsonFault;

/** @deprecated Use `OperationFailedPayload`. */
export type OperationFailedPayloadV2 = OperationFailedPayload;

/** @deprecated Use `OperationObservedPayload`. */
export type OperationObservedPayloadV2 = OperationObservedPayload;

/** @deprecated Use `OperationSucceededPayload`. */
export type OperationSucceededPayloadV2 = OperationSucceededPayload;

/** @deprecated Use `PayloadOf`. */
export type PayloadOfV2<T extends EventType> = PayloadOf<T>;

/** @deprecated Use `RateLimitFault`. */
export type RateLimitFaultV2 = RateLimitFault;

/** @deprecated Use `RetryObservedPayload`. */
export type RetryObservedPayloadV2 = RetryObservedPayload;

/** @deprecated Use `Scenario`. */
export type ScenarioV2 = Scenario;

/** @deprecated Use `Target`. */
export type TargetV2 = Target;

/** @deprecated Use `Trigger`. */
export type TriggerV2 = Trigger;

/** @deprecated Use `Workload`. */
export type WorkloadV2 = Workload;

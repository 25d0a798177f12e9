import COpenHealthProto

/// ObserverAcknowledgement: the app's answer to one observer update. HealthKit's completion
/// handler only tells background delivery the app has the data; it does not gate the next
/// update. So the answer has two parts, sent apart when they happen apart (see `Step`).
public struct ObserverAcknowledgement: WireMessage, Equatable {
    public enum Step: Sendable, Equatable, CaseIterable {
        /// The update handler returned and the app had called the completion handler by then.
        /// Also what an acknowledgement that names no step means (the form before session 15).
        case handledAndCompleted
        /// The update handler returned; the completion handler has not been called yet.
        case handled
        /// The app called the completion handler of an update already handled.
        case completed

        /// healthd may send the next update.
        public var handled: Bool { self != .completed }
        /// Background delivery may count the update delivered.
        public var completed: Bool { self != .handled }
    }

    public var observerID: UInt64
    public var delivery: UInt64
    public var step: Step

    public init(observerID: UInt64, delivery: UInt64, step: Step) {
        self.observerID = observerID
        self.delivery = delivery
        self.step = step
    }

    public init(_ update: ObserverDelivery, _ step: Step) {
        self.init(observerID: update.observerID, delivery: update.delivery, step: step)
    }

    private static let steps: [(step: Step, code: Openhealth__V1__ObserverAcknowledgementStep)] = [
        (.handledAndCompleted, OPENHEALTH__V1__OBSERVER_ACKNOWLEDGEMENT_STEP__OBSERVER_ACKNOWLEDGEMENT_STEP_HANDLED_AND_COMPLETED),
        (.handled, OPENHEALTH__V1__OBSERVER_ACKNOWLEDGEMENT_STEP__OBSERVER_ACKNOWLEDGEMENT_STEP_HANDLED),
        (.completed, OPENHEALTH__V1__OBSERVER_ACKNOWLEDGEMENT_STEP__OBSERVER_ACKNOWLEDGEMENT_STEP_COMPLETED),
    ]

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__ObserverAcknowledgement.self, from: bytes) { wire in
            guard let step = Self.steps.first(where: { $0.code == wire.step })?.step else {
                throw WireDecodeError.invalidField("ObserverAcknowledgement.step \(wire.step.rawValue) is not a known step")
            }
            return ObserverAcknowledgement(observerID: wire.observer_id, delivery: wire.delivery, step: step)
        }
    }

    public func wireBytes() -> [UInt8] {
        var wire = Openhealth__V1__ObserverAcknowledgement.initialized()
        wire.observer_id = observerID
        wire.delivery = delivery
        wire.step = Self.steps.first { $0.step == step }?.code
            ?? OPENHEALTH__V1__OBSERVER_ACKNOWLEDGEMENT_STEP__OBSERVER_ACKNOWLEDGEMENT_STEP_HANDLED_AND_COMPLETED
        return ProtobufCodec.encode(wire)
    }
}

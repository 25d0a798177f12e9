import Foundation
import HealthModel
import HealthWire

/// One thing the probing app does whose answer is compared between the worlds: a call (unary,
/// a stream read to its end, a long-running stream opened or closed) or a look at what an open
/// stream has delivered so far. The payload is built from `ProbeInputs`, so a call can name the
/// app's own objects, the hidden app's, or an anchor an earlier call returned.
struct ProbeCall: Sendable {
    enum Shape: Sendable {
        case unary
        case stream
        /// Opens a long-running stream under a name; its messages are read with `.watch`.
        case open(String)
        /// Cancels the named stream.
        case close(String)
        /// What the named stream delivered so far. When `expectingMore`, waits (bounded) for a
        /// message after the last look — one the app's own change must cause; otherwise waits
        /// a fixed settling time, in which a leak would show up.
        case watch(String, expectingMore: Bool)
    }

    let name: String
    let method: HealthStoreMethod?
    let shape: Shape
    let payload: @Sendable (ProbeInputs) -> [UInt8]

    static func unary(_ name: String, _ method: HealthStoreMethod, _ payload: @escaping @Sendable (ProbeInputs) -> [UInt8]) -> ProbeCall {
        ProbeCall(name: name, method: method, shape: .unary, payload: payload)
    }

    static func stream(_ name: String, _ method: HealthStoreMethod, _ payload: @escaping @Sendable (ProbeInputs) -> [UInt8]) -> ProbeCall {
        ProbeCall(name: name, method: method, shape: .stream, payload: payload)
    }

    /// A QuerySamples call.
    static func query(_ name: String, _ spec: @escaping @Sendable (ProbeInputs) -> SampleQuerySpec) -> ProbeCall {
        .stream(name, .querySamples) { spec($0).wireBytes() }
    }

    static func open(_ name: String, as stream: String, _ method: HealthStoreMethod,
                     _ payload: @escaping @Sendable (ProbeInputs) -> [UInt8]) -> ProbeCall {
        ProbeCall(name: name, method: method, shape: .open(stream), payload: payload)
    }

    static func close(_ name: String, _ stream: String, of method: HealthStoreMethod) -> ProbeCall {
        ProbeCall(name: name, method: method, shape: .close(stream)) { _ in [] }
    }

    static func watch(_ name: String, _ stream: String, of method: HealthStoreMethod, expectingMore: Bool) -> ProbeCall {
        ProbeCall(name: name, method: method, shape: .watch(stream, expectingMore: expectingMore)) { _ in [] }
    }

    /// The client command for this call; nil for a look at an open stream (nothing is sent).
    func command(_ inputs: ProbeInputs) -> String? {
        let bytes = ProbeTranscript.hex(payload(inputs))
        let method = method?.rawValue ?? "-"
        switch shape {
        case .unary: return "unary \(method) \(bytes.isEmpty ? "-" : bytes)"
        case .stream: return "stream \(method) \(bytes.isEmpty ? "-" : bytes)"
        case let .open(stream): return "open \(stream) \(method) \(bytes.isEmpty ? "-" : bytes)"
        case let .close(stream): return "close \(stream)"
        case .watch: return nil
        }
    }
}

/// What a probe call may refer to.
struct ProbeInputs: Sendable {
    /// The probing app's id (as the broker knows it; never sent, identity is the connection).
    let probingApp: String
    /// The app whose data is hidden from the probing app.
    let hiddenApp: String
    /// UUIDs the broker assigned to the probing app's own objects, in save order.
    let ownUUIDs: [UUID]
    /// The probing app's own workout (saved last while setting up).
    let ownWorkout: UUID
    /// The hidden app's UUIDs in the world that has them; the control world is probed with the
    /// same values, which name nothing there.
    let hidden: HiddenObjects
    /// The last anchor each anchored call returned, by call name.
    let anchors: [String: [UInt8]]
    /// The last update each open observer stream delivered, by stream name.
    let observerUpdates: [String: ObserverDelivery]

    /// The anchor `call` returned; empty (the start) if it returned none.
    func anchor(of call: String) -> [UInt8] { anchors[call] ?? [] }
}

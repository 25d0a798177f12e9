import Foundation
import HealthModel
import HealthWire

/// One call the probing app makes: a method and the request payload it sends. The payload is
/// built from `ProbeInputs`, so a call can name the app's own objects (known only once it has
/// saved them) or the hidden app's (the same UUIDs in both worlds).
struct ProbeCall: Sendable {
    enum Shape: String, Sendable {
        case unary, stream
    }

    let name: String
    let method: String
    let shape: Shape
    let payload: @Sendable (ProbeInputs) -> [UInt8]

    static func unary(_ name: String, _ method: HealthStoreMethod, _ payload: @escaping @Sendable (ProbeInputs) -> [UInt8]) -> ProbeCall {
        ProbeCall(name: name, method: method.rawValue, shape: .unary, payload: payload)
    }

    static func stream(_ name: String, _ method: HealthStoreMethod, _ payload: @escaping @Sendable (ProbeInputs) -> [UInt8]) -> ProbeCall {
        ProbeCall(name: name, method: method.rawValue, shape: .stream, payload: payload)
    }

    /// A QuerySamples call.
    static func query(_ name: String, _ spec: @escaping @Sendable (ProbeInputs) -> SampleQuerySpec) -> ProbeCall {
        .stream(name, .querySamples) { spec($0).wireBytes() }
    }

    /// The line of leak-probe-client's script for this call.
    func scriptLine(_ inputs: ProbeInputs) -> String {
        let bytes = payload(inputs)
        return "\(shape.rawValue) \(method) \(bytes.isEmpty ? "-" : bytes.map { String(format: "%02x", $0) }.joined())"
    }
}

/// What a probe call may refer to.
struct ProbeInputs: Sendable {
    /// The probing app's id (as the broker knows it; never sent, identity is the connection).
    let probingApp: String
    /// The app whose data is hidden from the probing app.
    let hiddenApp: String
    /// UUIDs the broker assigned to the probing app's own samples, in save order.
    let ownUUIDs: [UUID]
    /// UUIDs of the hidden app's samples in the world that has them; the control world is
    /// probed with the same values, which name nothing there.
    let hiddenUUIDs: [UUID]
    /// The hidden app's sync identifiers (the same strings in both worlds).
    let hiddenSyncIdentifiers: [String]
}

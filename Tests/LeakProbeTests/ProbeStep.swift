import Foundation
import HealthWire

/// One step of the probe script: a call whose answer is compared, or something the hidden app
/// does in between (in the hidden world only; the control world has no hidden app data).
enum ProbeStep: Sendable {
    case call(ProbeCall)
    case hidden(HiddenAction)

    var name: String {
        switch self {
        case let .call(call): call.name
        case let .hidden(action): "hidden app: \(action.name)"
        }
    }
}

/// A write by the hidden app between two probe calls: a save or deletion that changes the hidden
/// world while the probing app holds anchors and open streams.
struct HiddenAction: Sendable {
    let name: String
    let method: HealthStoreMethod
    /// The request, given how many hidden actions of the world ran before (so a repeated action
    /// can raise a sync version and really replace an object each time).
    let payload: @Sendable (_ earlierRuns: Int) -> [UInt8]

    func command(earlierRuns: Int) -> String {
        "unary \(method.rawValue) \(ProbeTranscript.hex(payload(earlierRuns)))"
    }
}

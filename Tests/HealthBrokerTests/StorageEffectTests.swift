@testable import HealthBroker
import HealthStore
import HealthWire
import Testing

/// Every app method that writes is decided about by the storage quota (`MethodTable.storage`):
/// a write path that was neither metered nor a deletion would let an app fill the disk past its
/// quota (SECURITY.md "Storage quota").
@Suite(.timeLimit(.minutes(10))) struct StorageEffectTests {
    /// The methods that store on an app's behalf; `StorageQuotaEndToEndTests` sends each at a
    /// quota of 0 and expects the quota's refusal.
    static let metered: Set<HealthStoreMethod> = [
        .save, .addSamplesToWorkout, .insertRouteData, .finishRoute, .relateWorkoutEffort,
        .beginAttachment, .appendAttachmentData, .finishAttachment,
    ]

    @Test func everyAppMethodThatWritesIsMeteredOrFrees() {
        for method in HealthStoreMethod.allCases {
            let handler = MethodTable.app[method.rawValue]
            let writes: Bool = if case .write = handler { true } else { false }
            let logged = MethodTable.accessLogged[method.rawValue]
            let effect = MethodTable.storage(of: method.rawValue)
            if writes || logged == .write {
                #expect(effect != .bounded, "\(method.rawValue) writes but the quota does not look at it")
            }
            if logged == .delete { #expect(effect == .frees, "\(method.rawValue) deletes but is \(effect)") }
            #expect((effect == .adds) == Self.metered.contains(method), "\(method.rawValue): \(effect)")
        }
    }

    /// A method that only frees is never refused, so an app at its quota can make room; and
    /// names that are no app method are bounded (the dispatcher refuses them before the quota).
    @Test func deletionsAndUnknownNamesAreNotMetered() {
        for method: HealthStoreMethod in [.deleteObjects, .deleteMatching, .unrelateWorkoutEffort, .removeAttachment] {
            #expect(MethodTable.storage(of: method.rawValue) == .frees)
        }
        for name in ["", "/openhealth.v1.HealthStore/Nope", HealthManagerMethod.addSamples.rawValue, HealthManagerMethod.importSamples.rawValue] {
            #expect(MethodTable.storage(of: name) == .bounded)
        }
    }
}

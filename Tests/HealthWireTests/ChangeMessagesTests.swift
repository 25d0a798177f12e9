import Foundation
import HealthModel
import HealthWire
import Testing

/// The change-feed payloads survive encoding, and oversized anchors are refused on decode.
@Suite(.timeLimit(.minutes(10))) struct ChangeMessagesTests {
    @Test func anchoredQueryMessagesRoundTrip() throws {
        let spec = AnchoredQuerySpec(typeIdentifier: "HKCategoryTypeIdentifierSleepAnalysis",
                                     predicate: .uuids([UUID()]), anchor: [1, 2, 3], limit: 7, longRunning: true)
        #expect(try AnchoredQuerySpec(wire: spec.wireBytes()) == spec)
        let batch = AnchoredQueryBatch(
            samples: [], deletedObjects: [DeletedObjectRecord(uuid: UUID(), syncIdentity: SyncIdentity(identifier: "a", version: 3)),
                                          DeletedObjectRecord(uuid: UUID())],
            endOfDelivery: true, anchor: Array(repeating: 0xAB, count: 46))
        #expect(try AnchoredQueryBatch(wire: batch.wireBytes()) == batch)
    }

    @Test func observerAndSourceMessagesRoundTrip() throws {
        let delivery = ObserverDelivery(observerID: .max, delivery: 3)
        #expect(try ObserverDelivery(wire: delivery.wireBytes()) == delivery)
        let spec = TypePredicateSpec(typeIdentifier: "HKQuantityTypeIdentifierStepCount", predicate: .sources(["org.example.a"]))
        #expect(try TypePredicateSpec(wire: spec.wireBytes()) == spec)
        let list = SourceList([SourceRecord(bundleIdentifier: "org.example.a", name: "A")])
        #expect(try SourceList(wire: list.wireBytes()) == list)
    }

    @Test func aQueryOverSeveralDescriptorsRoundTrips() throws {
        let spec = AnchoredQuerySpec(
            descriptors: [TypePredicateSpec(typeIdentifier: "HKQuantityTypeIdentifierStepCount", predicate: .sources(["org.example.a"])),
                          TypePredicateSpec(typeIdentifier: "HKCategoryTypeIdentifierSleepAnalysis")],
            anchor: [4, 5], limit: 2, longRunning: true)
        #expect(try AnchoredQuerySpec(wire: spec.wireBytes()) == spec)
    }

    @Test func tooManyDescriptorsAreRefusedBeforeUse() throws {
        let parts = (0...AnchoredQuerySpec.maxDescriptors).map { _ in TypePredicateSpec(typeIdentifier: "HKQuantityTypeIdentifierStepCount") }
        #expect(throws: (any Error).self) { try AnchoredQuerySpec(wire: AnchoredQuerySpec(descriptors: parts).wireBytes()) }
        let most = Array(parts.dropLast())
        #expect(try AnchoredQuerySpec(wire: AnchoredQuerySpec(descriptors: most).wireBytes()).descriptors.count == most.count)
    }

    @Test func anOversizedAnchorIsRefusedBeforeUse() {
        let spec = AnchoredQuerySpec(typeIdentifier: "HKQuantityTypeIdentifierStepCount",
                                     anchor: Array(repeating: 1, count: AnchoredQuerySpec.maxAnchorBytes + 1))
        #expect(throws: (any Error).self) { try AnchoredQuerySpec(wire: spec.wireBytes()) }
    }
}

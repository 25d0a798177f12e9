import HealthModel
import HealthWire
import Testing

@testable import HealthBroker

/// What the broker makes of an anchored query's descriptors: one part per type, in the app's
/// order, descriptors of one type folded so a sample is delivered once; every type checked
/// before anything is read.
@Suite(.timeLimit(.minutes(10))) struct AnchoredPartsTests {
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue
    static let early = SamplePredicate.sources(["org.example.a"])
    static let late = SamplePredicate.sources(["org.example.b"])

    @Test func descriptorsOfOneTypeBecomeOnePartMatchingAnyOfThem() throws {
        let parts = try AnchoredParts([TypePredicateSpec(typeIdentifier: Self.heartRate, predicate: Self.early),
                                       TypePredicateSpec(typeIdentifier: Self.steps),
                                       TypePredicateSpec(typeIdentifier: Self.heartRate, predicate: Self.late)])
        #expect(parts.descriptors == [TypePredicateSpec(typeIdentifier: Self.heartRate, predicate: .or([Self.early, Self.late])),
                                      TypePredicateSpec(typeIdentifier: Self.steps)])
        #expect(parts.typeSet == [Self.heartRate, Self.steps])
    }

    @Test func aDescriptorWithoutAPredicateMakesItsTypesPartUnfiltered() throws {
        for order in [[Self.early, nil], [nil, Self.early]] as [[SamplePredicate?]] {
            let parts = try AnchoredParts(order.map { TypePredicateSpec(typeIdentifier: Self.steps, predicate: $0) })
            #expect(parts.descriptors == [TypePredicateSpec(typeIdentifier: Self.steps)], "\(order)")
        }
    }

    @Test func anEmptyListAnUnknownTypeOrANonSampleTypeIsRefused() {
        let refused: [[TypePredicateSpec]] = [
            [],
            [TypePredicateSpec(typeIdentifier: Self.steps), TypePredicateSpec(typeIdentifier: "HKQuantityTypeIdentifierNoSuchThing")],
            [TypePredicateSpec(typeIdentifier: HKCharacteristicTypeIdentifier.bloodType.rawValue), TypePredicateSpec(typeIdentifier: Self.steps)],
        ]
        for descriptors in refused {
            #expect(throws: HKError.self, "\(descriptors)") { try AnchoredParts(descriptors) }
        }
    }
}

import Foundation
import HealthModel
import Testing
@testable import HealthWire

/// Issue 15's workout sort keys on the wire (types.proto SortKey 3–7): each travels whole in
/// both directions, and a key this build does not know is refused rather than read as a date.
@Suite(.timeLimit(.minutes(10))) struct WorkoutSortWireTests {
    @Test func everySortKeyRoundTrips() throws {
        let keys: [SampleSort.Key] = [.startDate, .endDate] + WorkoutTotal.allCases.map { .workout($0) }
        for key in keys {
            for ascending in [true, false] {
                let spec = SampleQuerySpec(typeIdentifier: HKWorkoutTypeIdentifier, sort: [SampleSort(key, ascending: ascending),
                                                                                           SampleSort(.startDate, ascending: true)], limit: 7)
                #expect(try SampleQuerySpec(wire: spec.wireBytes()) == spec, "\(key)")
            }
        }
    }

    /// Field 3 (sort) of SampleQueryRequest holding a SortDescriptor whose key is 8, a value no
    /// build defines yet.
    @Test func anUnknownSortKeyIsRefused() {
        let unknown: [UInt8] = [0x0A, 0x01, 0x74, 0x1A, 0x04, 0x08, 0x08, 0x10, 0x01]
        #expect(throws: WireDecodeError.self) { _ = try SampleQuerySpec(wire: unknown) }
    }
}

import Foundation
import Testing

@testable import HealthStore

@Suite struct UUIDv7Tests {
    @Test func fieldsFollowRFC9562() {
        let uuid = UUIDv7.make(milliseconds: 0x0123_4567_89AB, sequence: 0xCDE, random: .max)
        let bytes = withUnsafeBytes(of: uuid.uuid) { Array($0) }
        #expect(Array(bytes[0..<6]) == [0x01, 0x23, 0x45, 0x67, 0x89, 0xAB])
        #expect(bytes[6] == 0x7C && bytes[7] == 0xDE)
        #expect(bytes[8] & 0xC0 == 0x80)
    }

    @Test func idsMadeInARowSortInCreationOrder() {
        let ids = (0..<5000).map { _ in UUIDv7.make() }
        let keys = ids.map { withUnsafeBytes(of: $0.uuid) { Array($0) } }
        for (earlier, later) in zip(keys, keys.dropFirst()) {
            #expect(earlier.lexicographicallyPrecedes(later))
        }
    }
}

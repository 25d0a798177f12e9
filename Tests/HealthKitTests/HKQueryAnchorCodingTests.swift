import Foundation
import Testing
@testable import HealthKit

/// HealthKit apps persist anchors with NSKeyedArchiver (Apple: HKQueryAnchor conforms to
/// NSSecureCoding; `HKQueryAnchor(fromValue:)` with `HKAnchoredObjectQueryNoAnchor` means "from
/// the beginning"). Issue 15, item 4.
@Suite(.timeLimit(.minutes(10))) struct HKQueryAnchorCodingTests {
    let anchor = HKQueryAnchor(data: Data((0..<46).map { UInt8($0 * 5) }))

    @Test func anAnchorSurvivesSecureKeyedArchiving() throws {
        let archived = try NSKeyedArchiver.archivedData(withRootObject: anchor, requiringSecureCoding: true)
        let restored = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: archived))
        #expect(restored == anchor)
        #expect(restored.data == anchor.data)
        #expect(Set([anchor, restored]).count == 1)
    }

    @Test func anArchiveOfSomethingElseIsNoAnchor() throws {
        let archived = try NSKeyedArchiver.archivedData(withRootObject: NSString(string: "not an anchor"), requiringSecureCoding: true)
        // Foundation answers nil here and throws on Apple's platforms: either way, no anchor.
        let decoded = try? NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: archived)
        #expect(decoded == nil)
    }

    @Test func codableStillRoundTrips() throws {
        let encoded = try JSONEncoder().encode(anchor)
        #expect(try JSONDecoder().decode(HKQueryAnchor.self, from: encoded) == anchor)
    }

    @Test func theNoAnchorValueStartsFromTheBeginningLikeNil() throws {
        let sleep = HKCategoryType(.sleepAnalysis)
        let fromValue = try HKAnchoredObjectQuery.spec(type: sleep, predicate: nil, anchor: HKQueryAnchor(fromValue: HKAnchoredObjectQueryNoAnchor),
                                                       limit: 0, longRunning: false)
        let fromNil = try HKAnchoredObjectQuery.spec(type: sleep, predicate: nil, anchor: nil, limit: 0, longRunning: false)
        #expect(fromValue == fromNil)
        // Any other integer names no position healthd issued: it is sent, and refused there.
        #expect(HKQueryAnchor(fromValue: 42).data.count == 8)
    }
}

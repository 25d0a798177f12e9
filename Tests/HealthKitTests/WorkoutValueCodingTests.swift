import Foundation
import Testing
@testable import HealthKit

/// Apps archive workout events and configurations (a paused session's state, a planned workout)
/// and the deletions an anchored query reported: Apple's `HKWorkoutEvent`
/// (https://developer.apple.com/documentation/healthkit/hkworkoutevent), `HKWorkoutConfiguration`
/// (https://developer.apple.com/documentation/healthkit/hkworkoutconfiguration, whose `init(coder:)`
/// page is https://developer.apple.com/documentation/healthkit/hkworkoutconfiguration/init(coder:))
/// and `HKDeletedObject` (https://developer.apple.com/documentation/healthkit/hkdeletedobject) are
/// `NSObject`s conforming to `NSSecureCoding`, archived with
/// `NSKeyedArchiver.archivedData(withRootObject:requiringSecureCoding: true)` and read back with
/// `NSKeyedUnarchiver.unarchivedObject(ofClass:from:)`. Issue 15.
@Suite(.timeLimit(.minutes(10))) struct WorkoutValueCodingTests {
    let start = Date(timeIntervalSinceReferenceDate: 790_000_000.25)

    // MARK: HKWorkoutEvent

    /// No metadata, or one entry of every kind a metadata value can be (with extremes).
    @Test(arguments: [false, true]) func anEventKeepsItsTypeIntervalAndMetadata(_ withMetadata: Bool) throws {
        let metadata: [String: Any]? = withMetadata ? [
            "custom.note": "split", "custom.count": 3, "custom.flag": true, "custom.when": Date(timeIntervalSinceReferenceDate: 12.5),
            "custom.length": HKQuantity(unit: .meter(), doubleValue: 400), "custom.empty": "", "custom.negative": -1e300,
        ] : nil
        let event = HKWorkoutEvent(type: .segment, dateInterval: DateInterval(start: start, duration: 300), metadata: metadata)
        let restored = try SecureArchive.roundTrip(event)
        #expect(restored == event && restored.isEqual(event) && restored.hash == event.hash)
        #expect(restored.type == .segment && restored.dateInterval == event.dateInterval)
        #expect(restored.metadataValues == event.metadataValues)
        #expect(restored.metadataValues?.count == (withMetadata ? 7 : nil))
        #expect(Set([event, restored]).count == 1)
    }

    @Test(arguments: HKWorkoutEventType.allCases) func everyEventTypeSurvives(_ type: HKWorkoutEventType) throws {
        let event = HKWorkoutEvent(type: type, dateInterval: DateInterval(start: start, duration: 0), metadata: nil)
        #expect(try SecureArchive.roundTrip(event).type == type)
    }

    @Test func eventsThatDifferInOneFieldStayUnequalThroughAnArchive() throws {
        let interval = DateInterval(start: start, duration: 60)
        let base = HKWorkoutEvent(type: .lap, dateInterval: interval, metadata: ["custom.n": 1])
        let others = [
            HKWorkoutEvent(type: .segment, dateInterval: interval, metadata: ["custom.n": 1]),
            HKWorkoutEvent(type: .lap, dateInterval: DateInterval(start: start, duration: 61), metadata: ["custom.n": 1]),
            HKWorkoutEvent(type: .lap, dateInterval: interval, metadata: ["custom.n": 2]),
            HKWorkoutEvent(type: .lap, dateInterval: interval, metadata: ["custom.n": "1"]),
        ]
        for other in others { #expect(try SecureArchive.roundTrip(other) != base) }
    }

    @Test func aTamperedEventArchiveIsNoEvent() throws {
        let event = HKWorkoutEvent(type: .lap, dateInterval: DateInterval(start: start, duration: 60),
                                   metadata: ["custom.length": HKQuantity(unit: .meter(), doubleValue: 400)])
        #expect(try SecureArchive.decoded(HKWorkoutEvent.self) { event.encode(with: $0) } == event)
        let number = { (value: Double) in NSNumber(value: value) }
        let fields: [String: NSObject] = ["type": number(3), "startDate": number(0), "endDate": number(60)]
        func without(_ key: String, replacing replacement: NSObject? = nil) -> (NSKeyedArchiver) -> Void {
            { archiver in
                for (name, value) in fields where name != key { archiver.encode(value, forKey: name) }
                if let replacement { archiver.encode(replacement, forKey: key) }
            }
        }
        #expect(try SecureArchive.decoded(HKWorkoutEvent.self, without("none")) != nil)
        for key in fields.keys {
            #expect(try SecureArchive.decoded(HKWorkoutEvent.self, without(key)) == nil)
            #expect(try SecureArchive.decoded(HKWorkoutEvent.self, without(key, replacing: NSString(string: "3"))) == nil)
        }
        // An unknown type, an end before the start, a date that is no number of seconds.
        #expect(try SecureArchive.decoded(HKWorkoutEvent.self, without("type", replacing: number(999))) == nil)
        #expect(try SecureArchive.decoded(HKWorkoutEvent.self, without("endDate", replacing: number(-1))) == nil)
        #expect(try SecureArchive.decoded(HKWorkoutEvent.self, without("endDate", replacing: number(.infinity))) == nil)
        // Metadata: a count with no entries, a huge count, an entry without its unit, an unknown kind.
        for extra: (NSKeyedArchiver) -> Void in [
            { $0.encode(number(1), forKey: "metadataCount") },
            { $0.encode(number(1e18), forKey: "metadataCount") },
            { $0.encode(number(0), forKey: "metadataCount") },
            { $0.encode(number(1), forKey: "metadataCount"); $0.encode(NSString(string: "k"), forKey: "metadata.0.key")
              $0.encode(NSString(string: "quantity"), forKey: "metadata.0.kind"); $0.encode(number(1), forKey: "metadata.0.value") },
            { $0.encode(number(1), forKey: "metadataCount"); $0.encode(NSString(string: "k"), forKey: "metadata.0.key")
              $0.encode(NSString(string: "blob"), forKey: "metadata.0.kind"); $0.encode(number(1), forKey: "metadata.0.value") },
            { $0.encode(number(1), forKey: "metadataCount"); $0.encode(NSString(string: "k"), forKey: "metadata.0.key")
              $0.encode(NSString(string: "string"), forKey: "metadata.0.kind"); $0.encode(number(1), forKey: "metadata.0.value") },
        ] {
            #expect(try SecureArchive.decoded(HKWorkoutEvent.self) { without("none")($0); extra($0) } == nil)
        }
    }

    // MARK: HKWorkoutConfiguration

    static var configurations: [HKWorkoutConfiguration] {
        let plain = HKWorkoutConfiguration()
        let run = HKWorkoutConfiguration()
        run.activityType = .running
        run.locationType = .outdoor
        let pool = HKWorkoutConfiguration()
        pool.activityType = .swimming
        pool.locationType = .indoor
        pool.swimmingLocationType = .pool
        pool.lapLength = HKQuantity(unit: .yard(), doubleValue: 25)
        return [plain, run, pool]
    }

    @Test(arguments: configurations) func aConfigurationKeepsEveryField(_ configuration: HKWorkoutConfiguration) throws {
        let restored = try SecureArchive.roundTrip(configuration)
        #expect(restored == configuration && restored.isEqual(configuration) && restored.hash == configuration.hash)
        #expect(restored.activityType == configuration.activityType && restored.locationType == configuration.locationType)
        #expect(restored.swimmingLocationType == configuration.swimmingLocationType)
        #expect(restored.lapLength == configuration.lapLength)
        #expect(restored !== configuration)
    }

    @Test func aTamperedConfigurationArchiveIsNoConfiguration() throws {
        let number = { (value: Int) in NSNumber(value: value) }
        let fields: [String: NSObject] = ["activityType": number(46), "locationType": number(2), "swimmingLocationType": number(1)]
        func with(_ key: String, _ replacement: NSObject?, lap: (unit: NSObject?, value: NSObject?) = (nil, nil))
            -> (NSKeyedArchiver) -> Void {
            { archiver in
                for (name, value) in fields where name != key { archiver.encode(value, forKey: name) }
                if let replacement { archiver.encode(replacement, forKey: key) }
                if let unit = lap.unit { archiver.encode(unit, forKey: "lapLengthUnit") }
                if let value = lap.value { archiver.encode(value, forKey: "lapLength") }
            }
        }
        let intact = try #require(try SecureArchive.decoded(HKWorkoutConfiguration.self, with("none", nil, lap: (NSString(string: "m"), number(50)))))
        #expect(intact.activityType == .swimming && intact.lapLength == HKQuantity(unit: .meter(), doubleValue: 50))
        for key in fields.keys {
            #expect(try SecureArchive.decoded(HKWorkoutConfiguration.self, with(key, nil)) == nil)
            #expect(try SecureArchive.decoded(HKWorkoutConfiguration.self, with(key, NSString(string: "1"))) == nil)
            #expect(try SecureArchive.decoded(HKWorkoutConfiguration.self, with(key, number(99_999))) == nil)
        }
        // A lap length with half its fields, a unit that does not parse, a value that is text.
        #expect(try SecureArchive.decoded(HKWorkoutConfiguration.self, with("none", nil, lap: (NSString(string: "m"), nil))) == nil)
        #expect(try SecureArchive.decoded(HKWorkoutConfiguration.self, with("none", nil, lap: (nil, number(50)))) == nil)
        #expect(try SecureArchive.decoded(HKWorkoutConfiguration.self, with("none", nil, lap: (NSString(string: "m//"), number(50)))) == nil)
        #expect(try SecureArchive.decoded(HKWorkoutConfiguration.self, with("none", nil, lap: (NSString(string: "m"), NSString(string: "50")))) == nil)
        // A lap length that is not a length, or not a finite number.
        #expect(try SecureArchive.decoded(HKWorkoutConfiguration.self, with("none", nil, lap: (NSString(string: "kg"), number(50)))) == nil)
        for value in [Double.infinity, -.infinity, .nan] {
            #expect(try SecureArchive.decoded(HKWorkoutConfiguration.self, with("none", nil, lap: (NSString(string: "m"), NSNumber(value: value)))) == nil)
        }
    }

    // MARK: HKDeletedObject

    static let deletions: [DeletedObjectRecord] = [
        DeletedObjectRecord(uuid: UUID()),
        DeletedObjectRecord(uuid: UUID(), syncIdentity: SyncIdentity(identifier: "visit-12", version: 7)),
        DeletedObjectRecord(uuid: UUID(), syncIdentity: SyncIdentity(identifier: "", version: .max)),
    ]

    @Test(arguments: deletions) func aDeletedObjectKeepsItsUUIDAndSyncMetadata(_ record: DeletedObjectRecord) throws {
        let deleted = HKDeletedObject(record: record)
        let restored = try SecureArchive.roundTrip(deleted)
        #expect(restored.uuid == record.uuid)
        #expect(restored.metadata?[HKMetadataKeySyncIdentifier] as? String == record.syncIdentity?.identifier)
        #expect((restored.metadata?[HKMetadataKeySyncVersion] as? NSNumber)?.int64Value == record.syncIdentity?.version)
        #expect((restored.metadata == nil) == (record.syncIdentity == nil))
    }

    @Test func aTamperedDeletedObjectArchiveIsNoDeletedObject() throws {
        let uuid = UUID()
        let intact = try SecureArchive.decoded(HKDeletedObject.self) { $0.encode(NSString(string: uuid.uuidString), forKey: "uuid") }
        #expect(intact?.uuid == uuid)
        for fill: (NSKeyedArchiver) -> Void in [
            { _ in },
            { $0.encode(NSString(string: "not-a-uuid"), forKey: "uuid") },
            { $0.encode(NSNumber(value: 1), forKey: "uuid") },
            { $0.encode(NSString(string: uuid.uuidString), forKey: "uuid"); $0.encode(NSString(string: "id"), forKey: "syncIdentifier") },
            { $0.encode(NSString(string: uuid.uuidString), forKey: "uuid"); $0.encode(NSNumber(value: 1), forKey: "syncVersion") },
            { $0.encode(NSString(string: uuid.uuidString), forKey: "uuid"); $0.encode(NSNumber(value: 1), forKey: "syncIdentifier")
              $0.encode(NSNumber(value: 1), forKey: "syncVersion") },
            // A version that is not a whole Int64: int64Value would truncate or wrap it.
            { $0.encode(NSString(string: uuid.uuidString), forKey: "uuid"); $0.encode(NSString(string: "id"), forKey: "syncIdentifier")
              $0.encode(NSNumber(value: 2.5), forKey: "syncVersion") },
            { $0.encode(NSString(string: uuid.uuidString), forKey: "uuid"); $0.encode(NSString(string: "id"), forKey: "syncIdentifier")
              $0.encode(NSNumber(value: 1e300), forKey: "syncVersion") },
        ] {
            #expect(try SecureArchive.decoded(HKDeletedObject.self, fill) == nil)
        }
    }

    @Test func theyStaySendable() {
        func requireSendable<T: Sendable>(_: T.Type) {}
        requireSendable(HKWorkoutEvent.self)
        requireSendable(HKWorkoutConfiguration.self)
        requireSendable(HKDeletedObject.self)
    }
}

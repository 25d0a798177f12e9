import Foundation
import Testing
@testable import HealthKit
import HealthWire

/// Apple's `HKWorkoutActivity` and `HKQueryDescriptor` are `NSObject`s conforming to
/// `NSSecureCoding` (developer.apple.com, "Conforms To"): a workout app keeps its activities
/// across a relaunch, a sync engine its descriptors. Round trips keep equality (an activity's is
/// its UUID; a descriptor's its type and predicate) and every value; a tampered archive decodes
/// as nil without trapping. Issue 15, item 4.
@Suite(.timeLimit(.minutes(10))) struct ActivityDescriptorCodingTests {
    static let start = Date(timeIntervalSinceReferenceDate: 790_000_000.5)

    static func configuration() -> HKWorkoutConfiguration {
        let configuration = HKWorkoutConfiguration()
        configuration.activityType = .swimming
        configuration.swimmingLocationType = .pool
        configuration.lapLength = HKQuantity(unit: .meter(), doubleValue: 25)
        return configuration
    }

    static func activity(ended: Bool = true) -> HKWorkoutActivity {
        let events = [
            HKWorkoutEvent(type: .pause, dateInterval: DateInterval(start: start.addingTimeInterval(60), duration: 0), metadata: nil),
            HKWorkoutEvent(type: .lap, dateInterval: DateInterval(start: start.addingTimeInterval(100), duration: 50),
                           metadata: ["custom.lap": 2, HKMetadataKeySwimmingStrokeStyle: 2]),
        ]
        let energy = HKStatistics(type: HKQuantityType(.activeEnergyBurned),
                                  result: StatisticsResult(span: TimeSpan(start: start.microsecondsSince1970, end: start.addingTimeInterval(600).microsecondsSince1970),
                                                           merged: StatisticsValues(sum: 88.5)), separateBySource: false)
        let distance = HKStatistics(type: HKQuantityType(.distanceSwimming),
                                    result: StatisticsResult(span: TimeSpan(start: start.microsecondsSince1970, end: start.microsecondsSince1970),
                                                             merged: StatisticsValues(sum: 400, minimum: 25)), separateBySource: false)
        return HKWorkoutActivity(uuid: UUID(), configuration: configuration(), start: start, end: ended ? start.addingTimeInterval(600) : nil,
                                 metadata: ["custom.set": .string("main")], events: events,
                                 statistics: [energy.quantityType: energy, distance.quantityType: distance])
    }

    // MARK: HKWorkoutActivity

    @Test(arguments: [true, false]) func anActivityKeepsItsConfigurationDatesEventsStatisticsAndMetadata(_ ended: Bool) throws {
        let activity = Self.activity(ended: ended)
        let restored = try SecureArchive.roundTrip(activity)
        #expect(restored == activity && restored.hash == activity.hash && restored.uuid == activity.uuid)
        #expect(restored.workoutConfiguration == activity.workoutConfiguration)
        #expect(restored.startDate == activity.startDate && restored.endDate == activity.endDate)
        #expect(restored.workoutEvents == activity.workoutEvents)
        #expect(restored.metadataValues == activity.metadataValues)
        #expect(Set(restored.allStatistics.keys) == Set(activity.allStatistics.keys))
        for (type, statistics) in activity.allStatistics {
            #expect(restored.statistics(for: type)?.sumQuantity() == statistics.sumQuantity())
            #expect(restored.statistics(for: type)?.minimumQuantity() == statistics.minimumQuantity())
            #expect(restored.statistics(for: type)?.startDate == statistics.startDate)
        }
    }

    @Test func anAppMadeActivityWithNothingRecordedSurvives() throws {
        let activity = HKWorkoutActivity(workoutConfiguration: HKWorkoutConfiguration(), start: Self.start, end: nil, metadata: nil)
        let restored = try SecureArchive.roundTrip(activity)
        #expect(restored == activity && restored.endDate == nil && restored.workoutEvents.isEmpty && restored.allStatistics.isEmpty)
        #expect(restored.metadata == nil)
    }

    @Test func aTamperedActivityIsNil() throws {
        let activity = Self.activity()
        let before = NSNumber(value: Self.start.timeIntervalSinceReferenceDate - 1)
        let cases: [(String, NSObject?)] = [
            ("uuid", NSString(string: "not-a-uuid")), ("uuid", nil),
            ("activityType", NSNumber(value: 100_000)), ("activityType", nil),  // the configuration's own fields
            ("startDate", NSNumber(value: Double.nan)), ("startDate", nil),
            ("endDate", before),  // ends before it starts: DateInterval would trap
            ("endDate", NSNumber(value: Double.infinity)),
            ("eventCount", NSNumber(value: 3)), ("eventCount", NSNumber(value: -1)), ("eventCount", NSNumber(value: 1e300)),
            ("eventCount", nil),
            ("events.1.endDate", NSNumber(value: Self.start.timeIntervalSinceReferenceDate)),  // the lap ends before it starts
            ("events.0.type", NSNumber(value: 42)), ("events.1.metadataCount", NSNumber(value: 5)),
            ("statistics", Data([1, 2, 3]) as NSData), ("statistics", nil),
            ("statisticsTypeCount", NSNumber(value: 1)),
            ("statisticsType.0", NSString(string: HKQuantityTypeIdentifier.distanceSwimming.rawValue)),  // the same type twice
            ("statisticsType.1", NSString(string: HKCategoryTypeIdentifier.sleepAnalysis.rawValue)),
            ("metadataCount", NSNumber(value: 2)),
        ]
        for (key, bad) in cases { #expect(try SecureArchive.tampered(activity, key, bad) == nil, "\(key)") }
        #expect(try SecureArchive.tampered(activity, "endDate", nil)?.endDate == nil)  // in progress: the control
    }

    // MARK: HKQueryDescriptor

    @Test func aDescriptorKeepsItsTypeAndPredicateTree() throws {
        let steps = HKQuantityType(.stepCount)
        let window = HKQuery.predicateForSamples(withStart: Self.start, end: Self.start.addingTimeInterval(86_400), options: .strictStartDate)
        let compound = NSCompoundPredicate(andPredicateWithSubpredicates: [
            window, HKQuery.predicateForQuantitySamples(with: .greaterThan, quantity: HKQuantity(unit: .count(), doubleValue: 100)),
        ])
        for predicate in [nil, window, compound] as [NSPredicate?] {
            let descriptor = HKQueryDescriptor(sampleType: steps, predicate: predicate)
            let restored = try SecureArchive.roundTrip(descriptor)
            #expect(restored == descriptor && restored.hash == descriptor.hash && restored.sampleType == steps)
            #expect((restored.predicate == nil) == (predicate == nil))
            if let predicate {
                let tree = try SamplePredicate(translating: predicate)
                #expect(try SamplePredicate(translating: try #require(restored.predicate)) == tree)
            }
        }
        let other = HKQueryDescriptor(sampleType: steps, predicate: HKQuery.predicateForSamples(withStart: Self.start, end: nil))
        #expect(try SecureArchive.roundTrip(other) != HKQueryDescriptor(sampleType: steps, predicate: window))
        #expect(HKQueryDescriptor(sampleType: HKQuantityType(.heartRate), predicate: nil) != HKQueryDescriptor(sampleType: steps, predicate: nil))
    }

    /// A predicate the SDK cannot send to healthd cannot be archived either: dropping it would
    /// make the restored descriptor match more than the app asked for.
    @Test func aDescriptorWhosePredicateCannotTravelDecodesAsNil() throws {
        let opaque = HKQueryDescriptor(sampleType: HKQuantityType(.stepCount), predicate: NSPredicate(value: true))
        let archived = try NSKeyedArchiver.archivedData(withRootObject: opaque, requiringSecureCoding: true)
        // The decoder's nil is Foundation's "failed to decode" error, as Apple's secure decoding.
        #expect(throws: (any Error).self) { try NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryDescriptor.self, from: archived) }
        #expect(try SecureArchive.tampered(opaque, "descriptor", nil) == nil)
        let restricted = HKQueryDescriptor(sampleType: HKQuantityType(.stepCount), predicate: HKQuery.predicateForSamples(withStart: Self.start, end: nil))
        #expect(FieldRecorder.fields(of: opaque)["predicateNotArchivable"] != nil)
        #expect(FieldRecorder.fields(of: restricted)["predicateNotArchivable"] == nil)
    }

    @Test func aTamperedDescriptorIsNil() throws {
        let descriptor = HKQueryDescriptor(sampleType: HKQuantityType(.stepCount), predicate: HKQuery.predicateForSamples(withStart: Self.start, end: nil))
        let notASampleType = TypePredicateSpec(typeIdentifier: HKCharacteristicTypeIdentifier.bloodType.rawValue).wireBytes()
        let unknownType = TypePredicateSpec(typeIdentifier: "HKQuantityTypeIdentifierNoSuchThing").wireBytes()
        let cases: [(String, NSObject?)] = [
            ("descriptor", Data(notASampleType) as NSData), ("descriptor", Data(unknownType) as NSData),
            ("descriptor", Data([0x0A, 0xFF]) as NSData), ("descriptor", NSString(string: "steps")), ("descriptor", nil),
            ("predicateNotArchivable", NSString(string: "")),
        ]
        for (key, bad) in cases { #expect(try SecureArchive.tampered(descriptor, key, bad) == nil, "\(key)") }
    }
}

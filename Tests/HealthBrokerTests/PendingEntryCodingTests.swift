import Foundation
@testable import HealthBroker
import HealthModel
import HealthStore
import HealthWire
import Testing

/// Every kind of pending-journal entry survives its encoding: what the locked store journals is
/// what the merge applies. Compared by their full descriptions (effects are not Equatable, and
/// the JSON header's key order is not fixed), with metadata of one key so that dictionary order
/// cannot differ between the two.
@Suite(.timeLimit(.minutes(10))) struct PendingEntryCodingTests {
    static let app = "org.test.coding"
    /// With the product type and system version healthd stamps (v31): both survive the journal.
    static let source = SourceRecord(bundleIdentifier: app, name: "Coding", version: "2.1", productType: "ThinkPad X1",
                                     operatingSystemVersion: SystemVersion(major: 6, minor: 1, patch: 0))
    static let when = Date(timeIntervalSince1970: 1_700_000_123.456789)
    static let builder = UUID()

    static var everyKind: [(String, PendingEffect)] {
        let steps = HKQuantityTypeIdentifier.stepCount.rawValue
        let sample = SampleRecord(uuid: UUID(), typeIdentifier: steps, startDate: when, endDate: when.addingTimeInterval(60),
                                  value: .quantity(12, unit: "count"))
        let log = AccessLogEntryDraft(actor: app, appID: app, action: .delete, types: [steps], detail: "d", date: when)
        let location = RouteLocation(timestamp: when, latitude: 46.5, longitude: 6.6, altitude: 372)
        return [
            ("save", .save(records: [sample], source: source, uuids: [UUID()])),
            ("delete", .delete(references: [ObjectReference(typeIdentifier: steps, uuid: UUID())], appID: app)),
            ("deleteMatching, window scope", .deleteMatching(typeIdentifier: steps, predicate: .dateRange(start: when, end: nil, strictStart: false, strictEnd: false),
                                                             appID: app, workouts: .recentWindow(appID: app, since: when), accessLog: log)),
            ("deleteMatching, no entry", .deleteMatching(typeIdentifier: steps, predicate: nil, appID: app, workouts: .allSources,
                                                         accessLog: nil)),
            ("associate", .associate(sampleUUIDs: [UUID(), UUID()], workoutUUID: UUID(), appID: app)),
            ("workoutEffortRelation, relate to an activity, window scope",
             .workoutEffortRelation(sample: UUID(), workout: UUID(), activity: UUID(), appID: app,
                                    workouts: .recentWindow(appID: app, since: when), relate: true)),
            ("workoutEffortRelation, unrelate from the workout, own scope",
             .workoutEffortRelation(sample: UUID(), workout: UUID(), activity: nil, appID: app, workouts: .ownSamples(appID: app),
                                    relate: false)),
            ("routeData", .routeData(locations: [location], builderID: builder, source: source, at: when)),
            ("finishRoute", .finishRoute(builderID: builder, workoutUUID: UUID(), metadata: ["org.test.key": .string("v")],
                                         device: DeviceRecord(name: "Phone"), source: source, uuid: UUID())),
            ("enableBackgroundDelivery", .enableBackgroundDelivery(
                BackgroundDeliveryRegistration(appID: app, typeIdentifier: steps, frequency: .hourly, enabledDate: when))),
            ("disableBackgroundDelivery", .disableBackgroundDelivery(appID: app, typeIdentifier: nil)),
            ("appAccess", .appAccess(appID: app, setting: .directConnections, allowed: false, at: when)),
            ("grants", .grants(appID: app, decisions: [GrantDecision(steps, .share, .denied)], at: when)),
            ("accessLog", .accessLog(actor: app, appID: app, action: .refused, types: [], count: 0, detail: "x", at: when)),
        ]
    }

    @Test(arguments: everyKind.map(\.0)) func anEntryDecodesToWhatWasJournaled(_ kind: String) throws {
        let effect = try #require(Self.everyKind.first { $0.0 == kind }?.1)
        let decoded = try PendingEntryCoding.decode(try PendingEntryCoding.encode(effect))
        #expect(String(reflecting: decoded) == String(reflecting: effect))
    }

    @Test func anEntryWithoutItsFieldsIsRefused() throws {
        // A header naming a kind and nothing else: each kind's decoder must refuse it, not guess.
        for kind in ["save", "delete", "grants", "accessLog", "deleteMatching", "associate", "enableBackground",
                     "disableBackground", "appAccess", "routeData", "finishRoute", "workoutEffort"] {
            let header = Array(#"{"kind":"\#(kind)"}"#.utf8)
            let bytes = [0, 0, 0, UInt8(header.count)] + header
            #expect(throws: (any Error).self, "\(kind)") { _ = try PendingEntryCoding.decode(bytes) }
        }
    }

    /// A save journaled before v31 names its source in three fields: it decodes, recording no
    /// product type and no system version (as every object saved before v31), not refused.
    @Test func aSaveJournaledBeforeSourceSystemsDecodesWithNeitherRecorded() throws {
        let uuid = UUID()
        let header = Array(#"{"kind":"save","source":["org.test.coding","Coding","2.1"],"uuids":["\#(uuid.uuidString)"]}"#.utf8)
        let steps = HKQuantityTypeIdentifier.stepCount.rawValue
        let sample = SampleRecord(uuid: UUID(), typeIdentifier: steps, startDate: Self.when, endDate: Self.when, value: .quantity(1, unit: "count"))
        let length = UInt32(header.count)
        let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: length >> $0) } + header + SampleList([sample]).wireBytes()
        guard case let .save(_, source, uuids) = try PendingEntryCoding.decode(bytes) else {
            Issue.record("not a save")
            return
        }
        #expect(source == SourceRecord(bundleIdentifier: "org.test.coding", name: "Coding", version: "2.1"))
        #expect(source.productType == nil && source.operatingSystemVersion == .unrecorded)
        #expect(uuids == [uuid])
    }
}

import Foundation
import HealthIPC
import HealthModel
import HealthWire
import Testing

/// An app deleting its own HKCorrelation, through a real healthd and sandboxed app processes.
///
/// Apple's rule: a correlation type takes no permission of its own — "you do not request
/// permission to share and read correlation types directly. Instead, you request permission to
/// share and read each of the sample types contained within the correlation. When saving a
/// correlation, the app must have permission to share all of the contained objects"
/// (developer.apple.com/documentation/healthkit/hkcorrelationquery, "Requesting Permission to
/// Share and Read"; HKCorrelationType: correlation types are used to "request permission to read
/// or write matching quantity samples"). And for deletion: "Your app can delete only those
/// objects that it has previously saved" (HKHealthStore `delete(_:withCompletion:)`). Apple does
/// not document whether a correlation's samples go with it; here they do (the Health app deletes
/// a blood-pressure reading as one entry — both values), so deleting one needs what saving it
/// did: share permission for every type the stored correlation holds, checked in the deletion's
/// transaction (`OwnCorrelationShares`). Before the fix every delete of a correlation failed with
/// "authorization to share HKCorrelationTypeIdentifierBloodPressure has not been requested".
@Suite(.timeLimit(.minutes(10))) struct CorrelationDeletionEndToEndTests {
    static let systolic = HKQuantityTypeIdentifier.bloodPressureSystolic.rawValue
    static let diastolic = HKQuantityTypeIdentifier.bloodPressureDiastolic.rawValue
    static let bloodPressure = HKCorrelationTypeIdentifier.bloodPressure.rawValue
    static let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue
    static let start = 1_700_000_000

    /// An app allowed to share and read both halves of blood pressure (and heart rate).
    static func cuff(_ broker: BrokerProcess, _ appID: String) async throws -> String {
        let app = try await broker.installClient(appID)
        for type in [systolic, diastolic, heartRate] {
            for access in ["share", "read"] { try await broker.set(app, access, type, allowed: true) }
        }
        return app
    }

    /// Saves one reading at `start + offset`; its (correlation, systolic, diastolic) UUIDs.
    static func saveReading(_ broker: BrokerProcess, _ app: String, offset: Int = 0) async throws -> (String, String, String) {
        let saved = try await broker.runApp(app, ["save-blood-pressure", "120", "80", "\(start + offset)"])
        let uuids = try #require(saved.okValue, "\(saved)").split(separator: " ").map(String.init)
        try #require(uuids.count == 3, "\(saved)")
        return (uuids[0], uuids[1], uuids[2])
    }

    static func count(_ broker: BrokerProcess, _ app: String, _ type: String) async throws -> String? {
        try await broker.runApp(app, ["query", type]).okValue
    }

    static func correlations(_ broker: BrokerProcess, _ app: String) async throws -> Int {
        try await broker.runApp(app, ["query-correlations", bloodPressure]).lines.filter { $0.hasPrefix("correlation ") }.count
    }

    static func changes(_ result: ProcessResult) -> [String] {
        result.lines.filter { $0.hasPrefix("added ") || $0.hasPrefix("deleted ") || $0.hasPrefix("delivery ") }
    }

    @Test func anAppDeletesItsOwnCorrelationAndReadersSeeItAndItsSamplesDeleted() async throws {
        let broker = try BrokerProcess()
        let writer = try await Self.cuff(broker, "org.test.cuff")
        let reader = try await broker.installClient("org.test.chart")
        for type in [Self.systolic, Self.diastolic] { try await broker.set(reader, "read", type, allowed: true) }
        let files = try makeAppFilesDirectory(under: broker.root)
        let (reading, high, low) = try await Self.saveReading(broker, writer)
        // The reader's anchors, past the reading's addition, one per type.
        let anchors = [Self.bloodPressure, Self.systolic, Self.diastolic].map { (type: $0, file: files + "/anchor-\($0)") }
        for anchor in anchors {
            let initial = try await broker.runApp(reader, ["anchored", anchor.type, "--anchor-file", anchor.file], writable: files)
            #expect(Self.changes(initial).last == "delivery initial 1 0", "\(initial)")
        }

        let deleted = try await broker.runApp(writer, ["delete", Self.bloodPressure, reading])
        #expect(deleted.okValue == "1", "\(deleted)")
        // The correlation and both of its samples are gone, for the writer and everyone else.
        for app in [writer, reader] {
            #expect(try await Self.correlations(broker, app) == 0)
            #expect(try await Self.count(broker, app, Self.systolic) == "0")
            #expect(try await Self.count(broker, app, Self.diastolic) == "0")
        }
        // Each reaches the reader as an HKDeletedObject of its own type.
        for (anchor, uuid) in zip(anchors, [reading, high, low]) {
            let next = try await broker.runApp(reader, ["anchored", anchor.type, "--anchor-file", anchor.file], writable: files)
            #expect(Self.changes(next) == ["deleted \(uuid) - -", "delivery initial 0 1"], "\(anchor.type): \(next)")
        }
    }

    @Test func oneCallDeletesCorrelationsBesidePlainSamplesAndByPredicate() async throws {
        let broker = try BrokerProcess()
        let app = try await Self.cuff(broker, "org.test.mixed")
        let (first, _, _) = try await Self.saveReading(broker, app)
        _ = try await Self.saveReading(broker, app, offset: 600)
        let pulse = try await broker.runApp(app, ["save", Self.heartRate, "61", "count/min", "\(Self.start)", "\(Self.start)"])
        let pulseUUID = try #require(pulse.okValue, "\(pulse)")

        // delete(_:) with a correlation and a plain sample.
        let mixed = try await broker.runApp(app, ["delete-objects", Self.bloodPressure, first, Self.heartRate, pulseUUID])
        #expect(mixed.okValue == "2", "\(mixed)")
        #expect(try await Self.correlations(broker, app) == 1)
        #expect(try await Self.count(broker, app, Self.systolic) == "1")
        #expect(try await Self.count(broker, app, Self.heartRate) == "0")

        // deleteObjects(of: bloodPressure, predicate:): counts the correlations, takes their samples.
        let matching = try await broker.runApp(app, ["delete-matching", Self.bloodPressure, "--start", "0"])
        #expect(matching.okValue == "1", "\(matching)")
        #expect(try await Self.correlations(broker, app) == 0)
        #expect(try await Self.count(broker, app, Self.systolic) == "0")
        #expect(try await Self.count(broker, app, Self.diastolic) == "0")
    }

    /// Deleting a correlation needs share permission for each type it holds — one revoked is
    /// enough to refuse — and deletes nothing when refused.
    @Test func deletingACorrelationNeedsShareForEveryTypeItHolds() async throws {
        let broker = try BrokerProcess()
        let app = try await Self.cuff(broker, "org.test.revoked")
        let (reading, _, _) = try await Self.saveReading(broker, app)

        try await broker.set(app, "share", Self.diastolic, allowed: false)
        let byUUID = try await broker.runApp(app, ["delete", Self.bloodPressure, reading])
        #expect(byUUID.errorCode == HKError.Code.errorAuthorizationDenied.rawValue, "\(byUUID)")
        #expect(byUUID.stdout.contains(Self.diastolic), "\(byUUID)")
        let byPredicate = try await broker.runApp(app, ["delete-matching", Self.bloodPressure])
        #expect(byPredicate.errorCode == HKError.Code.errorAuthorizationDenied.rawValue, "\(byPredicate)")
        #expect(try await Self.correlations(broker, app) == 1)
        #expect(try await Self.count(broker, app, Self.diastolic) == "1")

        // Allowed again: the same call deletes it.
        try await broker.set(app, "share", Self.diastolic, allowed: true)
        #expect(try await broker.runApp(app, ["delete", Self.bloodPressure, reading]).okValue == "1")

        // An app that shares none of the contained types is refused before any lookup.
        let stranger = try await broker.installClient("org.test.never-asked")
        let notAsked = try await broker.runApp(stranger, ["delete-matching", Self.bloodPressure])
        #expect(notAsked.errorCode == HKError.Code.errorAuthorizationNotDetermined.rawValue, "\(notAsked)")
    }

    @Test func anotherAppsCorrelationCannotBeDeletedAndLooksLikeNone() async throws {
        let broker = try BrokerProcess()
        let owner = try await Self.cuff(broker, "org.test.owner")
        let intruder = try await Self.cuff(broker, "org.test.intruder")
        let (theirs, _, _) = try await Self.saveReading(broker, owner)
        let (mine, _, _) = try await Self.saveReading(broker, intruder, offset: 600)

        // Readable to the intruder, so the SDK can fetch it; still not deletable…
        let foreign = try await broker.runApp(intruder, ["delete", Self.bloodPressure, theirs])
        // …and refused exactly like the intruder's own reading deleted a second time.
        let gone = try await broker.runApp(intruder, ["delete", Self.bloodPressure, mine, "--twice"])
        #expect(foreign.errorCode == HKError.Code.errorInvalidArgument.rawValue, "\(foreign)")
        #expect(foreign.stdout == gone.stdout, "\(foreign)\n\(gone)")
        #expect(try await broker.runApp(intruder, ["delete-matching", Self.bloodPressure]).okValue == "0")

        // Speaking the protocol: the owner's reading and one nobody has answer alike.
        let raw = try await RawApp.install("org.test.rawcuff", on: broker,
                                           grants: [("share", Self.systolic), ("share", Self.diastolic)])
        defer { raw.close() }
        let hidden = await raw.failure(.deleteObjects, ObjectDeletion([ObjectReference(typeIdentifier: Self.bloodPressure,
                                                                                       uuid: try #require(UUID(uuidString: theirs)))]))
        let missing = await raw.failure(.deleteObjects, ObjectDeletion([ObjectReference(typeIdentifier: Self.bloodPressure, uuid: UUID())]))
        #expect(hidden?.healthKitCode == .errorInvalidArgument)
        #expect(hidden?.message == missing?.message)
        // The owner's reading and its samples survived all of it.
        #expect(try await Self.correlations(broker, owner) == 1)
        #expect(try await Self.count(broker, owner, Self.systolic) == "1")
    }

    /// While the store is locked the deletion is journaled; at merge the same rule is decided
    /// against the grants as of the call: granted then, deleted; revoked before it, kept.
    @Test func aDeletionJournaledWhileLockedFollowsTheSameRuleAtMerge() async throws {
        let broker = try BrokerProcess()
        let appID = "org.test.lockedcuff"
        let raw = try await RawApp.install(appID, on: broker, grants: [("share", Self.systolic), ("share", Self.diastolic),
                                                                        ("read", Self.systolic), ("read", Self.diastolic)])
        defer { raw.close() }
        func reading(_ minute: Double) -> SampleRecord {
            let date = Date(timeIntervalSince1970: Double(Self.start) + minute * 60)
            func half(_ type: String, _ value: Double) -> SampleRecord {
                SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: date, endDate: date, value: .quantity(value, unit: "mmHg"))
            }
            return SampleRecord(uuid: UUID(), typeIdentifier: Self.bloodPressure, startDate: date, endDate: date,
                                value: .correlation([half(Self.systolic, 120), half(Self.diastolic, 80)]))
        }
        func delete(_ uuid: UUID) async throws -> Int {
            let deletion = ObjectDeletion([ObjectReference(typeIdentifier: Self.bloodPressure, uuid: uuid)])
            return try DeletedCount(wire: await raw.client.unary(HealthStoreMethod.deleteObjects.rawValue, deletion.wireBytes())).count
        }
        let kept = try await raw.save([reading(0)])[0]
        let removed = try await raw.save([reading(10)])[0]

        #expect(try await broker.healthctl(["lock"]).status == 0)
        // Granted at the call: journaled, and deleted at merge.
        #expect(try await delete(removed) == 1)
        // Diastolic revoked first (journaled too): the call passes the grants-only check
        // (systolic is still shared), and the merge finds the reading holds diastolic.
        #expect(try await broker.healthctl(["revoke", appID, "share", Self.diastolic]).status == 0)
        #expect(try await delete(kept) == 1)
        let unlock = try await broker.healthctl(["unlock"])
        #expect(unlock.status == 0 && unlock.stdout.contains("merged"), "\(unlock)")

        let left = try await raw.query(SampleQuerySpec(typeIdentifier: Self.bloodPressure)).map(\.uuid)
        #expect(left == [kept])
        #expect(try await raw.query(SampleQuerySpec(typeIdentifier: Self.systolic)).count == 1)
        #expect(try await raw.query(SampleQuerySpec(typeIdentifier: Self.diastolic)).count == 1)
    }
}

import Foundation
import HealthIPC
import HealthModel
import HealthWire
import Testing
import TestSupport

/// Each app's storage bound (`StorageUse`, SECURITY.md "Per-app storage"): an app at its bound is
/// refused while other apps and the user go on, its deletions give room back, its count survives a
/// restart (exactly) and a kill (within the persisting threshold), what it journals while the store
/// is locked is bounded, and imports count against no app.
@Suite(.timeLimit(.minutes(10)), .serialized) struct StorageBoundEndToEndTests {
    static let full = "org.test.storage-full"
    static let bystander = "org.test.storage-bystander"
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    /// `StorageUse`'s threshold: how far a count may be from its last written value.
    static let persistThreshold: Int64 = 1 << 20

    /// `healthctl apps storage --bytes`: each app's stored bytes and, while locked, journaled bytes.
    static func storage(_ healthctl: ([String]) async throws -> ProcessResult) async throws -> [String: (stored: Int64, journaled: Int64?)] {
        let result = try await healthctl(["apps", "storage", "--bytes"])
        guard result.status == 0 else { throw CommandFailed(result: result) }
        var found: [String: (Int64, Int64?)] = [:]
        for line in result.lines.dropFirst() {
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count >= 4, let stored = Int64(fields[1]) else { continue }
            let journaled = fields.count >= 3 && fields[fields.count - 2] == "of" ? Int64(fields[fields.count - 3]) : nil
            found[fields[0]] = (stored, journaled)
        }
        return found
    }

    static func saveArguments(_ index: Int) -> [String] {
        ["save", steps, "\(index)", "count", "\(1_700_000_000 + index * 60)", "\(1_700_000_060 + index * 60)"]
    }

    /// Step counts with a 4,000-byte note each: about 4 KiB of storage per sample.
    static func bulky(_ count: Int, from first: Int) -> [SampleRecord] {
        (first..<first + count).map { index in
            let start = Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60)
            return SampleRecord(uuid: UUID(), typeIdentifier: steps, startDate: start, endDate: start.addingTimeInterval(60),
                                value: .quantity(Double(index % 100), unit: "count"),
                                metadata: ["note": .string(String(repeating: "n", count: 4_000))])
        }
    }

    /// A sandboxed app with a 1 KiB bound saves until it is refused — HealthKit's
    /// errorDataSizeExceeded, naming what to do, and a refusal in the access log — while another
    /// sandboxed app's save and the user's own entry go on; deleting one of its samples makes
    /// room for its next save. Without the admission check the app is never refused.
    @Test func anAppAtItsBoundIsRefusedWhileOthersGoOnAndItsDeletionMakesRoom() async throws {
        let broker = try BrokerProcess()
        defer { withExtendedLifetime(broker) {} }
        for app in [Self.full, Self.bystander] {
            try await broker.installClient(app)
            try await broker.set(app, "share", Self.steps, allowed: true)
        }
        let bound = try await broker.healthctl(["apps", "storage", Self.full, "--bound", "1KiB"])
        #expect(bound.status == 0, "\(bound)")

        var saved: [String] = []
        var refused: ProcessResult?
        for index in 0..<20 {
            let result = try await broker.runApp(Self.full, Self.saveArguments(index))
            guard let uuid = result.okValue else {
                refused = result
                break
            }
            saved.append(uuid)
        }
        let refusal = try #require(refused, "20 saves and none refused at a 1 KiB bound")
        #expect(refusal.errorCode == HKError.Code.errorDataSizeExceeded.rawValue, "\(refusal)")
        #expect(refusal.stdout.contains("healthctl apps storage"), "the refusal does not say what to do: \(refusal)")
        #expect((4...8).contains(saved.count), "\(saved.count) saves fitted 1 KiB")

        let other = try await broker.runApp(Self.bystander, Self.saveArguments(100))
        #expect(other.okValue != nil, "another app's save failed beside the full one: \(other)")
        let users = try await broker.healthctl(["add", "stepCount", "12", "count"])
        #expect(users.status == 0, "the user's own entry failed beside the full app: \(users)")
        let stored = try #require(try await Self.storage { try await broker.healthctl($0) }[Self.full]?.stored)
        #expect(stored > 512 && stored <= 1_024, "the full app stores \(stored) bytes at a 1 KiB bound")
        let log = try await broker.healthctl(["log", "--app", Self.full])
        #expect(log.stdout.contains("storage bound reached"), "the access log has no refusal: \(log)")

        let deleted = try await broker.runApp(Self.full, ["delete", Self.steps, saved[0]])
        #expect(deleted.okValue == "1", "\(deleted)")
        let again = try await broker.runApp(Self.full, Self.saveArguments(50))
        #expect(again.okValue != nil, "the deletion gave no room back: \(again)")
    }

    /// The count is written when healthd stops and as it moves: a restart finds it exactly, a kill
    /// (SIGKILL) within the threshold. Without the written counts both start from nothing.
    @Test func theCountSurvivesARestartAndAKillWithinTheThreshold() async throws {
        let healthd = try RestartableHealthd()
        try healthd.start()
        try await SavingApp.install(Self.full, root: healthd.root) { try await healthd.healthctl($0) }
        var app = try SavingApp(socket: healthd.appSocket)
        var next = 0
        func save(batches: Int) async throws {
            for _ in 0..<batches {
                _ = try await RawApp(client: app.client).save(Self.bulky(100, from: next))
                next += 100
            }
        }
        try await save(batches: 4)
        let beforeStop = try #require(try await Self.storage { try await healthd.healthctl($0) }[Self.full]?.stored)
        #expect(beforeStop > 1_600_000, "400 bulky samples counted as \(beforeStop) bytes")
        app.close()
        healthd.stop()
        try healthd.start()
        let afterStop = try await Self.storage { try await healthd.healthctl($0) }[Self.full]?.stored
        #expect(afterStop == beforeStop, "a clean restart lost the count: \(String(describing: afterStop)) after \(beforeStop)")

        app = try SavingApp(socket: healthd.appSocket)
        try await save(batches: 8)
        let beforeKill = try #require(try await Self.storage { try await healthd.healthctl($0) }[Self.full]?.stored)
        app.close()
        healthd.kill()
        try healthd.start()
        let afterKill = try #require(try await Self.storage { try await healthd.healthctl($0) }[Self.full]?.stored)
        #expect(afterKill <= beforeKill && beforeKill - afterKill < Self.persistThreshold,
                "after a kill the count is \(afterKill), \(beforeKill) before: off by more than the threshold")
        #expect(afterKill > beforeStop, "nothing written while the app saved \(beforeKill - beforeStop) bytes")
        healthd.stop()
    }

    /// While the store is locked an app may journal its bound (here 16 KiB) and no more: its next
    /// save is refused with errorDatabaseInaccessible, saying the store is locked, while a
    /// sandboxed bystander's save is journaled; the unlock merges what was accepted, and the app
    /// saves again. Without the bound the app's saves are journaled without end.
    @Test func whatAnAppJournalsWhileLockedIsBounded() async throws {
        let broker = try BrokerProcess(extraArguments: ["--journal-bound-kib", "16"])
        let app = try await RawApp.install(Self.full, on: broker, grants: [("share", Self.steps), ("read", Self.steps)])
        defer { app.close(); withExtendedLifetime(broker) {} }
        try await broker.installClient(Self.bystander)
        try await broker.set(Self.bystander, "share", Self.steps, allowed: true)
        let lock = try await broker.healthctl(["lock"])
        #expect(lock.status == 0, "\(lock)")

        var accepted = 0
        var refusal: RPCStatus?
        for batch in 0..<40 {
            let records = (0..<20).map { index in
                let start = Date(timeIntervalSince1970: 1_700_000_000 + Double(batch * 20 + index) * 60)
                return SampleRecord(uuid: UUID(), typeIdentifier: Self.steps, startDate: start, endDate: start.addingTimeInterval(60),
                                    value: .quantity(5, unit: "count"))
            }
            if let status = await app.saveRefusal(records) {
                refusal = status
                break
            }
            accepted += records.count
        }
        let refused = try #require(refusal, "40 saves of 20 samples journaled at a 16 KiB bound")
        #expect(refused.healthKitCode == .errorDatabaseInaccessible, "\(refused)")
        #expect(refused.message.contains("locked"), "\(refused)")
        #expect(accepted > 0, "nothing was journaled before the bound")
        let listing = try await Self.storage { try await broker.healthctl($0) }
        let journaled = try #require(listing[Self.full]?.journaled)
        // Within one save of the bound; the access-log entries of its calls count too, unrefused.
        #expect(journaled > 8 * 1_024 && journaled <= 17 * 1_024, "journaled \(journaled) bytes")

        let other = try await broker.runApp(Self.bystander, Self.saveArguments(7))
        #expect(other.okValue != nil, "a bystander's save while locked failed: \(other)")

        let unlock = try await broker.healthctl(["unlock"])
        #expect(unlock.status == 0, "\(unlock)")
        let merged = try await app.query(SampleQuerySpec(typeIdentifier: Self.steps)).filter { $0.source?.bundleIdentifier == Self.full }
        #expect(merged.count == accepted, "the unlock merged \(merged.count) of the \(accepted) samples accepted")
        #expect(await app.saveRefusal([JunkRecords.stepsSample()]) == nil, "the app cannot save after the unlock")
    }

    /// An import is the user's data: it counts against no app, and an app's count is what its own
    /// saves made. Charged as the app it is not, the import would appear in the listing.
    @Test func importsCountAgainstNoApp() async throws {
        let broker = try BrokerProcess()
        let app = try await RawApp.install(Self.full, on: broker, grants: [("share", Self.steps)])
        defer { app.close(); withExtendedLifetime(broker) {} }
        _ = try await app.save(Self.bulky(10, from: 0))
        let before = try await Self.storage { try await broker.healthctl($0) }
        let start = Date(timeIntervalSince1970: 1_650_000_000)
        try await broker.importRecords((0..<2_000).map { index in
            BrokerProcess.ExportRecord("HKQuantityTypeIdentifierStepCount", "\(index % 90)", unit: "count",
                                       from: start.addingTimeInterval(Double(index) * 60), to: start.addingTimeInterval(Double(index) * 60 + 60))
        })
        let listing = try await broker.healthctl(["apps", "storage", "--bytes"])
        #expect(!listing.stdout.contains("@"), "an import or the user is counted as an app: \(listing.stdout)")
        let after = try await Self.storage { try await broker.healthctl($0) }
        #expect(after[Self.full]?.stored == before[Self.full]?.stored)
    }
}

import Foundation
import TestSupport
import HealthIPC
import HealthModel
import HealthWire
import Testing

/// Validation on save and sync-identifier upserts through a real healthd. Apps using the SDK
/// (`e2e-client`, sandboxed) meet the SDK's early checks; this test process, installed as an app
/// and speaking the protocol directly, shows the broker enforces the same rules on its own.
@Suite(.timeLimit(.minutes(10))) struct SampleValidationEndToEndTests {
    static let sleep = HKCategoryTypeIdentifier.sleepAnalysis.rawValue
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let start = 1_700_000_000

    /// `save-category` arguments for a sleep sample of `value` an hour long at `start`.
    static func sleepSample(_ value: Int, at start: Int = start, _ options: [String] = []) -> [String] {
        [sleep, "\(value)", "\(start)", "\(start + 3600)"] + options
    }

    static func sync(_ identifier: String, _ version: Int) -> [String] {
        ["--meta", "\(HKMetadataKeySyncIdentifier)=string:\(identifier)", "--meta", "\(HKMetadataKeySyncVersion)=number:\(version)"]
    }

    /// Installs `appID` (the scripted app) with `access` granted for the sleep type.
    static func installClient(_ broker: BrokerProcess, _ appID: String, _ access: [String]) async throws -> String {
        let app = try await broker.installClient(appID)
        for kind in access { try await broker.set(app, kind, sleep, allowed: true) }
        return app
    }

    @Test func aCategorySampleWithMetadataIsReadBackByAnotherAppWithPermission() async throws {
        let broker = try BrokerProcess()
        let writer = try await Self.installClient(broker, "org.test.sleepwriter", ["share"])
        let reader = try await Self.installClient(broker, "org.test.sleepreader", ["read"])
        let saved = try await broker.runApp(writer, ["save-category"] + Self.sleepSample(1, [
            "--meta", "\(HKMetadataKeyWasUserEntered)=bool:true", "--meta", "org.test.note=string:after-run",
        ]))
        #expect(saved.okValue != nil, "\(saved)")
        let read = try await broker.runApp(reader, ["query", Self.sleep])
        #expect(read.samples.map(\.value) == [1], "\(read)")
        #expect(read.samples.map(\.source) == [writer])
    }

    @Test func invalidSamplesFromTheSDKAreRejectedAndNothingOfABatchIsStored() async throws {
        let broker = try BrokerProcess()
        let app = try await Self.installClient(broker, "org.test.invalid", ["share", "read"])
        try await broker.set(app, "share", Self.steps, allowed: true)
        let attempts: [[String]] = [
            ["save-category"] + Self.sleepSample(99),
            ["save-category", Self.sleep, "1", "\(Self.start)", "\(Self.start - 60)"],
            ["save-category"] + Self.sleepSample(1, ["--meta", "\(HKMetadataKeyWasUserEntered)=string:yes"]),
            ["save-category"] + Self.sleepSample(1, ["--meta", "HKMadeUpKey=string:x"]),
            ["save", Self.steps, "10", "kg", "\(Self.start)", "\(Self.start + 60)"],
            ["save-batch", "--category"] + Self.sleepSample(1) + ["--category"] + Self.sleepSample(42, at: Self.start + 7200),
            ["save-batch", "--category"] + Self.sleepSample(1, Self.sync("night", 1))
                + ["--category"] + Self.sleepSample(0, at: Self.start + 7200, Self.sync("night", 2)),
        ]
        for arguments in attempts {
            let result = try await broker.runApp(app, arguments)
            #expect(result.errorCode == HKError.Code.errorInvalidArgument.rawValue, "\(arguments): \(result)")
        }
        let stored = try await broker.runApp(app, ["query", Self.sleep])
        #expect(stored.okValue == "0", "\(stored)")
    }

    @Test func syncIdentifiersUpsertWithinTheSavingApp() async throws {
        let broker = try BrokerProcess()
        let app = try await Self.installClient(broker, "org.test.syncing", ["share", "read"])
        let other = try await Self.installClient(broker, "org.test.othersync", ["share"])
        for (value, version) in [(0, 1), (1, 2), (2, 1), (3, 2)] {
            let saved = try await broker.runApp(app, ["save-category"] + Self.sleepSample(value, Self.sync("night", version)))
            #expect(saved.okValue != nil, "\(saved)")
        }
        let afterUpserts = try await broker.runApp(app, ["query", Self.sleep])
        // Version 2 replaced version 1; version 1 after 2, and 2 again, were ignored.
        #expect(afterUpserts.samples.map(\.value) == [1], "\(afterUpserts)")

        let otherSaved = try await broker.runApp(other, ["save-category"] + Self.sleepSample(0, Self.sync("night", 1)))
        #expect(otherSaved.okValue != nil, "\(otherSaved)")
        let both = try await broker.runApp(app, ["query", Self.sleep])
        #expect(both.samples.map { "\($0.source) \(Int($0.value))" }.sorted() == ["\(app) 1", "\(other) 0"].sorted(), "\(both)")
    }

    @Test func theBrokerValidatesWithoutTheSDK() async throws {
        let broker = try BrokerProcess()
        let appID = try await broker.install(appID: "org.test.rawsaver", executable: Products.testProcessExecutable)
        try await broker.allowDirect(appID)
        for type in [Self.sleep, Self.steps] {
            for access in ["read", "share"] { try await broker.set(appID, access, type, allowed: true) }
        }
        let client = try RPCClient.connect(path: broker.appSocket)
        defer { client.close() }
        let start = Date(timeIntervalSince1970: TimeInterval(Self.start))
        func sleep(_ value: Int, end: Date? = nil, _ metadata: [String: MetadataValue] = [:]) -> SampleRecord {
            SampleRecord(uuid: UUID(), typeIdentifier: Self.sleep, startDate: start, endDate: end ?? start.addingTimeInterval(3600),
                         value: .category(value), metadata: metadata)
        }
        let invalid: [(String, [SampleRecord])] = [
            ("category value", [sleep(99)]),
            ("unit", [SampleRecord(uuid: UUID(), typeIdentifier: Self.steps, startDate: start, endDate: start,
                                   value: .quantity(1, unit: "kg"))]),
            ("end before start", [sleep(1, end: start.addingTimeInterval(-1))]),
            ("metadata kind", [sleep(1, [HKMetadataKeyWasUserEntered: .string("yes")])]),
            ("half sync pair", [sleep(1, [HKMetadataKeySyncIdentifier: .string("night")])]),
            ("batch with one invalid", [sleep(1), sleep(0), sleep(1, end: start.addingTimeInterval(-1))]),
        ]
        for (what, records) in invalid {
            do {
                _ = try await client.unary(HealthStoreMethod.save.rawValue, SampleList(records).wireBytes())
                Issue.record("\(what): the broker accepted an invalid save")
            } catch let status as RPCStatus {
                #expect(status.healthKitCode == .errorInvalidArgument, "\(what): \(status)")
            }
        }
        var stored = 0
        for try await batch in client.serverStream(HealthStoreMethod.querySamples.rawValue,
                                                   SampleQuerySpec(typeIdentifier: Self.sleep).wireBytes()) {
            stored += try SampleList(wire: batch).samples.count
        }
        #expect(stored == 0)
    }
}

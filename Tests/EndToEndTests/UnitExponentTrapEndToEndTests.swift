import Foundation
import HealthIPC
import HealthModel
import HealthWire
import Testing
import TestSupport

/// Session 21 (availreview21, finding 1): a unit string whose nested powers overflow Int
/// trapped healthd — SIGILL, every app and healthctl cut off — from one `QuerySamples` of an app
/// with no grants (the predicate's unit is parsed before any grant check), and from saves. The
/// unit parser now bounds exponents while parsing. Here the test process is the hostile app
/// (`RawApp`, no grants), and a sandboxed `e2e-client` is the bystander that must still be served.
@Suite(.timeLimit(.minutes(10)), .serialized) struct UnitExponentTrapEndToEndTests {
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let hostile = "org.test.unitbomb"
    static let bystander = "org.test.unitbystander"
    static let t0 = 1_700_000_000.0

    /// 999^7 overflowed the product in the parser; the second overflowed the sum of two factors.
    static let bombs = [UnitExponentTrapEndToEndTests.nestedPowers, UnitExponentTrapEndToEndTests.overflowingSum]
    static let nestedPowers = "((((((count^999)^999)^999)^999)^999)^999)^999"
    static let overflowingSum: String = {
        let factor = String(repeating: "(", count: 6) + "count^9)^999" + String(repeating: ")^999", count: 5)
        return factor + "*" + factor
    }()

    static func queryRefusal(_ raw: RawApp, _ predicate: SamplePredicate) async -> RPCStatus? {
        do {
            _ = try await raw.query(SampleQuerySpec(typeIdentifier: steps, predicate: predicate))
            return nil
        } catch let status as RPCStatus {
            return status
        } catch {
            return RPCStatus(.unknown, "\(error)")
        }
    }

    static func sample(_ unit: String, metadata: [String: MetadataValue] = [:]) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: steps, startDate: Date(timeIntervalSince1970: t0),
                     endDate: Date(timeIntervalSince1970: t0 + 60), value: .quantity(5, unit: unit), metadata: metadata)
    }

    /// `naming`: the phrase the refusal must hold. The metadata validator says only which key's
    /// unit is invalid ("metadata quantity for KEY has an invalid unit"), not why.
    func expectRefusedNamingTheExponent(_ status: RPCStatus?, _ context: String, _ broker: BrokerProcess,
                                        naming phrase: String = "exponent is too large") {
        #expect(status?.healthKitCode == .errorInvalidArgument, "\(context): \(String(describing: status))")
        #expect(status?.message.contains(phrase) == true, "\(context): \(String(describing: status))")
        #expect(broker.isRunning, "\(context): healthd died: \(broker.log.suffix(2000))")
    }

    /// The bystander's query is answered, with its own sample among what it reads: healthd still serves.
    func expectBystanderServed(_ broker: BrokerProcess, _ context: String) async throws {
        let queried = try await broker.runApp(Self.bystander, ["query", Self.steps], timeout: 120)
        #expect(queried.okValue != nil && queried.stdout.contains("org.test.unitbystander"),
                "\(context): the bystander was not served: \(queried)")
    }

    @Test func anAppWithNoGrantsCannotTrapHealthdWithAUnitString() async throws {
        let broker = try BrokerProcess()
        try await broker.installClient(Self.bystander)
        try await broker.set(Self.bystander, "share", Self.steps, allowed: true)
        try await broker.set(Self.bystander, "read", Self.steps, allowed: true)
        let saved = try await broker.runApp(Self.bystander, ["save", Self.steps, "5", "count", "1700000000", "1700000060"])
        #expect(saved.okValue != nil, "\(saved)")
        let raw = try await RawApp.install(Self.hostile, on: broker, grants: [])
        defer { raw.close() }

        for bomb in Self.bombs {
            // A quantity predicate: parsed before any grant check, for an app with no grants.
            let quantity = await Self.queryRefusal(raw, .quantity(.greaterThan, value: 1, unit: bomb))
            expectRefusedNamingTheExponent(quantity, "quantity predicate \(bomb)", broker)
            // A metadata-quantity predicate, nested in an OR as apps build them.
            let metadata = await Self.queryRefusal(raw, .or([.metadata(key: "org.test.q", .compare(.greaterThan, .quantity(value: 1, unit: bomb))),
                                                           .metadata(key: "org.test.q", .oneOf([.number(1), .quantity(value: 2, unit: bomb)]))]))
            expectRefusedNamingTheExponent(metadata, "metadata predicate \(bomb)", broker)
            try await expectBystanderServed(broker, "after the queries with \(bomb)")
        }

        // Saves reach the parser once the app may share: the sample's unit and a metadata quantity's.
        try await broker.set(Self.hostile, "share", Self.steps, allowed: true)
        for bomb in Self.bombs {
            expectRefusedNamingTheExponent(await raw.saveRefusal([Self.sample(bomb)]), "save in \(bomb)", broker)
            expectRefusedNamingTheExponent(await raw.saveRefusal([Self.sample("count", metadata: ["org.test.q": .quantity(value: 1, unit: bomb)])]),
                                           "metadata quantity in \(bomb)", broker, naming: "org.test.q has an invalid unit")
        }
        try await expectBystanderServed(broker, "after the saves")
        #expect(broker.isRunning, "healthd died: \(broker.log.suffix(2000))")
    }

    /// healthctl parses `--unit` and `units set` itself: a refusal naming the problem, not a trap.
    @Test func healthctlRefusesTheUnitWithoutTrapping() async throws {
        let broker = try BrokerProcess()
        for bomb in Self.bombs {
            for arguments in [["samples", "stepCount", "--unit", bomb], ["units", "set", "stepCount", bomb]] {
                let result = try await broker.healthctl(arguments)
                #expect(result.status != 0 && result.stderr.contains("exponent is too large"), "\(arguments): \(result)")
            }
        }
        #expect(broker.isRunning, "healthd died: \(broker.log.suffix(2000))")
    }
}

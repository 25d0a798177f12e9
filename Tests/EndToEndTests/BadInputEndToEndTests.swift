import Foundation
import HealthIPC
import HealthModel
import HealthWire
import TestSupport
import Testing

/// Bad input through a real healthd (issue 13): values checked after unit conversion against
/// the range table, strings with NUL refused rather than truncated, and predicates at and past
/// the size limit. This test process speaks the protocol directly (`RawApp`), so the broker's
/// own checks are what is tested, not the SDK's.
@Suite(.timeLimit(.minutes(10))) struct BadInputEndToEndTests {
    static let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let t0 = 1_700_000_000.0

    static func sample(_ type: String, _ value: Double, _ unit: String, at offset: Double = 0,
                       metadata: [String: MetadataValue] = [:]) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: Date(timeIntervalSince1970: t0 + offset),
                     endDate: Date(timeIntervalSince1970: t0 + offset + 60), value: .quantity(value, unit: unit), metadata: metadata)
    }

    /// The status a query failed with, or nil when it ran.
    static func queryRefusal(_ raw: RawApp, _ spec: SampleQuerySpec) async -> RPCStatus? {
        do {
            _ = try await raw.query(spec)
            return nil
        } catch let status as RPCStatus {
            return status
        } catch {
            return RPCStatus(.unknown, "\(error)")
        }
    }

    static func app(_ broker: BrokerProcess, _ id: String) async throws -> RawApp {
        try await RawApp.install(id, on: broker, grants: [("share", heartRate), ("read", heartRate), ("share", steps), ("read", steps)])
    }

    @Test func outOfRangeValuesAreRefusedWithTypeValueUnitAndRangeAndNothingIsStored() async throws {
        let broker = try BrokerProcess()
        let raw = try await Self.app(broker, "org.test.badvalues")
        defer { raw.close() }
        let attempts: [(SampleRecord, String)] = [
            (Self.sample(Self.heartRate, 1e308, "count/ms"), "not a finite number in count/s"),
            (Self.sample(Self.heartRate, 0, "count/min"), "allowed range 1 to 300 count/min"),
            (Self.sample(Self.heartRate, 1e9, "count/min"), "allowed range 1 to 300 count/min"),
            (Self.sample(Self.heartRate, -60, "count/min"), "allowed range 1 to 300 count/min"),
            (Self.sample(Self.steps, -1, "count"), "allowed range 0 to 1000000 count"),
            (Self.sample(Self.steps, 1e308, "count"), "allowed range 0 to 1000000 count"),
        ]
        for (record, expected) in attempts {
            let refusal = try #require(await raw.saveRefusal([record]))
            #expect(refusal.healthKitCode == .errorInvalidArgument, "\(refusal)")
            #expect(refusal.message.contains(record.typeIdentifier), "\(refusal)")
            #expect(refusal.message.contains(expected), "\(refusal)")
        }
        #expect(try await raw.query(SampleQuerySpec(typeIdentifier: Self.heartRate)).isEmpty)
        #expect(try await raw.query(SampleQuerySpec(typeIdentifier: Self.steps)).isEmpty)
        // The bounds themselves are accepted.
        #expect(await raw.saveRefusal([Self.sample(Self.heartRate, 300, "count/min"), Self.sample(Self.heartRate, 1, "count/min", at: 60)]) == nil)
    }

    @Test func aNulInAUnitOrMetadataKeyIsRefusedNotTruncated() async throws {
        let broker = try BrokerProcess()
        let raw = try await Self.app(broker, "org.test.nulstrings")
        defer { raw.close() }
        let unit = try #require(await raw.saveRefusal([Self.sample(Self.steps, 10, "count\u{0}/min")]))
        #expect(unit.healthKitCode == .errorInvalidArgument, "\(unit)")
        #expect(unit.message.contains("NUL"), "\(unit)")
        let key = try #require(await raw.saveRefusal([Self.sample(Self.steps, 10, "count", metadata: ["note\u{0}hidden": .string("x")])]))
        #expect(key.message.contains("NUL"), "\(key)")
        #expect(try await raw.query(SampleQuerySpec(typeIdentifier: Self.steps)).isEmpty)
    }

    /// An OR of `count` one-minute date ranges, each holding one saved sample.
    static func dateRanges(_ count: Int) -> SamplePredicate {
        .or((0..<count).map { index in
            .dateRange(start: Date(timeIntervalSince1970: t0 + Double(index) * 60),
                       end: Date(timeIntervalSince1970: t0 + Double(index) * 60 + 30), strictStart: true, strictEnd: false)
        })
    }

    @Test func predicatesAtTheLimitRunAndOnePastItAreRefusedWithTheLimitStated() async throws {
        let broker = try BrokerProcess()
        let raw = try await Self.app(broker, "org.test.bigpredicates")
        defer { raw.close() }
        let limit = SamplePredicate.maximumConditions
        // The OR node counts as one condition: limit - 1 operands is exactly at the limit.
        let atLimit = Self.dateRanges(limit - 1)
        #expect(atLimit.conditionCount == limit)
        let saved = try await raw.save((0..<(limit + 1)).map { Self.sample(Self.steps, 1, "count", at: Double($0) * 60) })
        let found = try await raw.query(SampleQuerySpec(typeIdentifier: Self.steps, predicate: atLimit))
        #expect(found.count == limit - 1)

        let pastLimit = Self.dateRanges(limit)
        let refusal = try #require(await Self.queryRefusal(raw, SampleQuerySpec(typeIdentifier: Self.steps, predicate: pastLimit)))
        #expect(refusal.healthKitCode == .errorInvalidArgument, "\(refusal)")
        #expect(refusal.message.contains("at most \(limit) conditions"), "\(refusal)")

        // A metadata one-of counts its values, against the metadata bound too (each value reads
        // every metadata entry of every row): at that bound it runs, one past it is refused.
        let metadataLimit = SamplePredicate.maximumMetadataComparisons
        let oneOf = SamplePredicate.metadata(key: "org.test.tag", .oneOf((0..<metadataLimit).map { .quantity(value: Double($0), unit: "m") }))
        #expect(oneOf.metadataComparisonCount == metadataLimit)
        #expect(try await raw.query(SampleQuerySpec(typeIdentifier: Self.steps, predicate: oneOf)).isEmpty)
        let oneTooMany = SamplePredicate.metadata(key: "org.test.tag", .oneOf((0...metadataLimit).map { .number(Double($0)) }))
        let metadataRefusal = try #require(await Self.queryRefusal(raw, SampleQuerySpec(typeIdentifier: Self.steps, predicate: oneTooMany)))
        #expect(metadataRefusal.healthKitCode == .errorInvalidArgument, "\(metadataRefusal)")
        #expect(metadataRefusal.message.contains("at most \(metadataLimit) metadata comparisons"), "\(metadataRefusal)")

        // UUID and source lists are bound as one JSON text: far past the limit, they run.
        let uuids = Set(saved).union((0..<20_000).map { _ in UUID() })
        let byUUID = try await raw.query(SampleQuerySpec(typeIdentifier: Self.steps, predicate: .uuids(uuids)))
        #expect(byUUID.count == saved.count)
        let sources = Set((0..<5_000).map { "org.example.app\($0)" }).union(["org.test.bigpredicates"])
        let bySource = try await raw.query(SampleQuerySpec(typeIdentifier: Self.steps, predicate: .sources(sources)))
        #expect(bySource.count == saved.count)
    }
}

import Foundation
import HealthIPC
import HealthModel
import HealthWire
import Testing
import TestSupport

/// Junk values through the real wire to a real healthd (issue: red team, session 11): this test
/// process, installed as an app and speaking the protocol directly (the SDK would refuse most of
/// these before sending), saves every case of `JunkRecords` — one field varied at a time from a
/// valid record of its kind, over ±inf, NaN, negatives, 1e308, oversize strings and dates out of
/// range. Each junk case must be refused with errorInvalidArgument and a message naming the
/// field, and nothing of it stored; each valid extreme must be stored and read back exactly; and
/// healthd must still answer afterwards (no case crashed it).
@Suite(.timeLimit(.minutes(10)), .serialized) struct JunkValueEndToEndTests {
    static let appID = "org.test.junk"

    func installedApp() async throws -> (BrokerProcess, RawApp) {
        let broker = try BrokerProcess()
        let app = try await RawApp.install(Self.appID, on: broker, grants: JunkRecords.types.map { ("share", $0) })
        return (broker, app)
    }

    @Test func junkInEveryKindIsRefusedNamingTheFieldAndNothingIsStored() async throws {
        let (broker, app) = try await installedApp()
        defer { app.close() }
        var refusedTypes = Set<String>()
        for junk in JunkRecords.refused {
            let status = await app.saveRefusal([junk.record])
            refusedTypes.insert(junk.record.typeIdentifier)
            guard let status else {
                Issue.record("\(junk): stored")
                continue
            }
            #expect(status.healthKitCode == .errorInvalidArgument, "\(junk): \(status)")
            if let field = junk.field {
                #expect(status.message.contains(field), "\(junk): the refusal does not name \(field): \(status.message)")
            }
        }
        for type in refusedTypes.sorted() {
            let stored = try await app.query(SampleQuerySpec(typeIdentifier: type))
            #expect(stored.isEmpty, "\(type): \(stored.count) junk samples stored")
        }
        // healthd survived every case: a valid save is still answered.
        let saved = try await app.save([JunkRecords.stepsSample()])
        #expect(saved.count == 1)
        _ = broker
    }

    @Test func validExtremesAreStoredExactly() async throws {
        let (broker, app) = try await installedApp()
        defer { app.close() }
        for valid in JunkRecords.stored {
            let uuids: [UUID]
            do {
                uuids = try await app.save([valid.record])
            } catch {
                Issue.record("\(valid): refused: \(error)")
                continue
            }
            let stored = try await app.query(SampleQuerySpec(typeIdentifier: valid.record.typeIdentifier))
            guard let back = stored.first(where: { $0.uuid == uuids.first }) else {
                Issue.record("\(valid): not read back")
                continue
            }
            var expected = valid.record.value
            // A sample query carries a heartbeat series' count; its beats come by QuerySeriesData.
            if case let .heartbeatSeries(series) = expected { expected = .heartbeatSeries(HeartbeatSeriesValue(count: series.count)) }
            #expect(back.value == expected, "\(valid)")
            #expect(back.device == valid.record.device, "\(valid)")
            #expect(back.metadata == valid.record.metadata, "\(valid)")
            #expect(back.startDate == valid.record.startDate && back.endDate == valid.record.endDate, "\(valid)")
        }
        _ = broker
    }
}

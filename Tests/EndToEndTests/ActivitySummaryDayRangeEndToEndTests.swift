import Foundation
import HealthIPC
import HealthModel
import HealthWire
import Testing
import TestSupport

/// The days an app names for activity summaries are held to the store's dates (1900-01-01 …
/// 2200-01-01) before they reach Foundation's calendar. `CalendarDay` is proleptic Gregorian,
/// Foundation's Gregorian calendar Julian before its cutover of 1582-10-15: 1582-10-14 … 10-15
/// once put the first day's midnight after the last's, the day count went negative and
/// `TimeSpan`'s precondition ended healthd — debug and release — for an app with no grants at
/// all, through either RPC (crashhunt22, finding 1). A grantless raw app sends those days to
/// both RPCs: each is refused with errorInvalidArgument naming a day, and healthd still answers
/// the app's ordinary days and `healthctl status` afterwards.
@Suite(.timeLimit(.minutes(10)), .serialized) struct ActivitySummaryDayRangeEndToEndTests {
    static func day(_ year: Int, _ month: Int, _ day: Int) -> CalendarDay {
        CalendarDay(year: year, month: month, day: day)!
    }

    /// The reviewer's inputs, and the range's edges one day out.
    static let outside: [ActivitySummaryQuerySpec] = [
        ActivitySummaryQuerySpec(firstDay: day(1582, 10, 14), lastDay: day(1582, 10, 15), timeZoneIdentifier: "UTC"),
        ActivitySummaryQuerySpec(firstDay: day(1582, 10, 10), lastDay: day(1582, 10, 15), timeZoneIdentifier: "Europe/Berlin"),
        ActivitySummaryQuerySpec(firstDay: day(1, 1, 1), lastDay: day(1, 1, 2), timeZoneIdentifier: "UTC"),
        ActivitySummaryQuerySpec(firstDay: day(1899, 12, 31), lastDay: day(1900, 1, 1), timeZoneIdentifier: "UTC"),
        ActivitySummaryQuerySpec(firstDay: day(2200, 1, 1), lastDay: day(2200, 1, 2), timeZoneIdentifier: "Pacific/Kiritimati"),
        // One open end: the named day alone is laid out (`ActivitySummaryRepository`).
        ActivitySummaryQuerySpec(firstDay: day(1582, 10, 14), timeZoneIdentifier: "UTC"),
        ActivitySummaryQuerySpec(lastDay: day(1582, 10, 10), timeZoneIdentifier: "Europe/Berlin"),
    ]

    @Test func daysOutsideTheStoresDatesAreRefusedAndHealthdServesABystander() async throws {
        let broker = try BrokerProcess()
        let app = try await RawApp.install("org.test.activity-days", on: broker, grants: [])
        defer { app.close() }

        for method in [HealthStoreMethod.queryActivitySummaries, .watchActivitySummaries] {
            for spec in Self.outside {
                let what = "\(method) \(spec.firstDay.map(String.init(describing:)) ?? "…") – "
                    + "\(spec.lastDay.map(String.init(describing:)) ?? "…") \(spec.timeZoneIdentifier)"
                let status = await Self.status(app, method, spec)
                #expect(status?.healthKitCode == .errorInvalidArgument, "\(what): \(String(describing: status))")
                let named = [spec.firstDay, spec.lastDay].compactMap { $0 }.filter { !SampleLimits.permittedDays.contains($0) }
                #expect(named.contains { status?.message.contains($0.description) == true },
                        "\(what): the refusal names no day: \(String(describing: status))")
                #expect(broker.isRunning, "\(what): healthd is gone")
            }
        }
        // The range's own edges are days like any other: answered (no data, no summaries).
        let edges = ActivitySummaryQuerySpec(firstDay: Self.day(1900, 1, 1), lastDay: Self.day(1900, 1, 3), timeZoneIdentifier: "Pacific/Kiritimati")
        #expect(await Self.status(app, .queryActivitySummaries, edges) == nil)
        let last = ActivitySummaryQuerySpec(firstDay: Self.day(2199, 12, 30), lastDay: Self.day(2200, 1, 1), timeZoneIdentifier: "Pacific/Pago_Pago")
        #expect(await Self.status(app, .queryActivitySummaries, last) == nil)

        // The bystander: the manager (one executable may be only one raw app here).
        let status = try await broker.healthctl(["status"])
        #expect(status.status == 0, "\(status)")
        #expect(broker.isRunning)
    }

    /// The status the stream ended with before its first batch, or nil when it answered (a
    /// watch that is accepted stays open: only refusals are asked of it).
    static func status(_ app: RawApp, _ method: HealthStoreMethod, _ spec: ActivitySummaryQuerySpec) async -> RPCStatus? {
        do {
            for try await _ in app.client.serverStream(method.rawValue, spec.wireBytes()) {
                if method == .watchActivitySummaries { return nil }
            }
            return nil
        } catch let status as RPCStatus {
            return status
        } catch {
            return RPCStatus(.unknown, "\(error)")
        }
    }
}
